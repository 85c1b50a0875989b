"""TARGET_RPS: the rate a prescription sizes each limit for; empty by default, else a positive number, anything else
refused in one line before anything starts (a ParamError: exit 2)."""

import pytest
from refusals import refusal

from loadlab.core import params
from loadlab.core.errors import ExitCode
from loadlab.core.param_parsers import ParamError


def test_empty_by_default_and_a_positive_rate_is_read_as_a_number():
    assert params.parse({}).target_rps is None
    assert params.parse({"TARGET_RPS": " 2500 "}).target_rps == 2500.0
    assert params.parse({"TARGET_RPS": "37.5"}).target_rps == 37.5


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("fast", "TARGET_RPS='fast' is not a number"),
        ("0", "TARGET_RPS=0 is not a positive number"),
        ("-100", "TARGET_RPS=-100 is not a positive number"),
        ("inf", "TARGET_RPS=inf is not a positive number"),
        ("nan", "TARGET_RPS=nan is not a positive number"),
    ],
)
def test_anything_but_a_positive_number_is_refused_in_one_line(raw, said):
    line = refusal(TARGET_RPS=raw)
    assert line.startswith(said) and line.endswith("allowed: empty, or a positive number of requests a second")
    assert ParamError.exit_code == ExitCode.USAGE == 2
