"""Where the repository lies: the harness runs from its checkout (harness/loadlab/core/ is three levels below it)."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
