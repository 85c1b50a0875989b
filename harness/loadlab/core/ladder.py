"""The limit ladder's parameters (issue 52; shared/CONTRACT.md, turn 7): TARGET_RPS, the rate each mode's
prescription sizes its limit for (analysis/prescription.py). Rows of params.Param, like client.PARAMS; standard
library only, like params.py, which reads PARAMS."""

from __future__ import annotations

from loadlab.core.param_parsers import optional_positive

# Any rate above zero: what a prescription cannot apply (a pool past its range, the host's threads) is its own to say.
TARGET_RPS_ALLOWED = "empty, or a positive number of requests a second"

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
)
