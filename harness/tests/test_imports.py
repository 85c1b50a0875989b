"""No import loop among the harness's modules: `.ci/import_cycles.py` (what `make lint` runs) finds none, and it does
find one hidden inside a function, under TYPE_CHECKING or across three modules, naming each file and line."""

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "import_cycles.py"


def checker():
    spec = importlib.util.spec_from_file_location("import_cycles", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_harness_has_no_import_loop(capsys):
    assert checker().main([str(SCRIPT)]) == 0, capsys.readouterr().out


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in {"__init__.py": "", "core/__init__.py": "", "analysis/__init__.py": "", **files}.items():
        (root / "loadlab" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "loadlab" / name).write_text(text)
    return root / "loadlab"


def test_a_loop_is_found_however_it_is_hidden(tmp_path, capsys):
    package = write(
        tmp_path,
        {
            "core/timeouts.py": "from loadlab.core import brownout\n",
            "core/brownout.py": "def cap():\n    from loadlab.core.timeouts import CAP\n",
            "analysis/knee.py": "from loadlab.analysis.words import said\n",
            "analysis/words.py": "import typing\nif typing.TYPE_CHECKING:\n    import loadlab.analysis.base\n",
            "analysis/base.py": "from loadlab.analysis import knee\n",
            "analysis/levels.py": "from loadlab.analysis import knee, words\nfrom loadlab.core.timeouts import CAP\n",
        },
    )
    assert checker().main([sys.argv[0], str(package)]) == 1
    out = capsys.readouterr().out
    assert "loadlab.analysis.base -> loadlab.analysis.knee -> loadlab.analysis.words -> loadlab.analysis.base" in out
    assert "loadlab/analysis/words.py:3 imports loadlab.analysis.base" in out
    assert "loadlab.core.brownout -> loadlab.core.timeouts -> loadlab.core.brownout" in out
    assert "loadlab/core/brownout.py:2 imports loadlab.core.timeouts" in out
    assert "levels" not in out  # importing into a loop is no loop


def test_importing_a_name_of_a_package_is_an_edge_to_its_init(tmp_path, capsys):
    package = write(
        tmp_path,
        {
            "core/__init__.py": "from loadlab.core.params import parse\n",
            "core/params.py": "from loadlab.core import x\n",
        },
    )
    assert checker().main([sys.argv[0], str(package)]) == 1
    assert "loadlab.core -> loadlab.core.params -> loadlab.core" in capsys.readouterr().out
