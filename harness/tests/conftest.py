import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def make(*args: str, env: dict | None = None, timeout: float = 900, **kw) -> subprocess.CompletedProcess:
    """Runs `make <args>` in the repo the way a user would, with parameters as environment variables."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("TARGET", "MODES", "MAKEFLAGS", "MAKELEVEL")}
    full_env.update(env or {})
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=REPO,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        **kw,
    )


@pytest.fixture
def repo() -> Path:
    return REPO
