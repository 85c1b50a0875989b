"""The limit ladder's parameters (issue 52; shared/CONTRACT.md, turn 7): TARGET_RPS, the rate each mode's
prescription sizes its limit for (analysis/prescription.py), and LADDER, how many rungs a bench climbs after its
stairs (run/rungs.py: each prescription applied, the mode measured again around the next predicted knee). Rows of
params.Param, like client.PARAMS; standard library only, like params.py, which reads PARAMS."""

from __future__ import annotations

from loadlab.core.param_parsers import optional_int_in, optional_positive

# Any rate above zero: what a prescription cannot apply (a pool past its range, the host's threads) is its own to say.
TARGET_RPS_ALLOWED = "empty, or a positive number of requests a second"
# Each rung is a run of its own (about 2 minutes here): five keep a ladder of both modes within a coffee break.
MAX_RUNGS = 5

# Rows of params.Param: name, default, help, parser, allowed.
PARAMS = (
    (
        "TARGET_RPS",
        "",
        "the rate the service must carry: what each mode's prescription sizes its limit for (empty: the next limit "
        "the lab predicts)",
        optional_positive(TARGET_RPS_ALLOWED),
        TARGET_RPS_ALLOWED,
    ),
    (
        "LADDER",
        "",
        "rungs of the limit ladder after the stairs: each mode's prescription applied and the mode measured again "
        "around the next predicted knee, up to this many times (empty: off)",
        optional_int_in(1, MAX_RUNGS),
        f"empty, or 1..{MAX_RUNGS}",
    ),
)
