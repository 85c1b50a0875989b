"""The one-line refusal every bad parameter gets before anything starts: what a test of a parameter's checks reads."""

from __future__ import annotations

import pytest

from loadlab.core import params
from loadlab.core.param_parsers import ParamError


def refusal(**env: object) -> str:
    """params.parse's refusal of env, checked to be one line (the user's whole message)."""
    with pytest.raises(ParamError) as e:
        params.parse({k: str(v) for k, v in env.items()})
    lines = str(e.value).splitlines()
    assert len(lines) == 1, lines
    return lines[0]
