"""The tests are laid out like the code (docs/TESTS.md): a folder per stage of harness/loadlab, e2e/ for the real
benches, support/ for helpers. A test file dropped elsewhere, a folder pytest's pythonpath does not list (its tests
could not import each other's helpers by name) or two test files of one name (pytest's default import mode cannot
load both) fails here, naming it."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
HARNESS = TESTS.parent
FOLDERS = {"core", "analysis", "summary", "capacity", "report", "run", "e2e", "support"}


def test_each_stage_of_the_harness_has_its_folder_of_tests():
    stages = {p.name for p in (HARNESS / "loadlab").iterdir() if (p / "__init__.py").is_file()}
    assert stages | {"e2e", "support"} == FOLDERS


def misplaced(p: Path) -> bool:
    """A Python file outside the top, the stage folders, data/ and the sample app, or a test among the helpers of
    support/ or a helper among the tests of a stage folder."""
    folder = p.relative_to(TESTS).parts[0] if p.parent != TESTS else None
    if folder is None or folder in ("data", "sample-app"):
        return False
    return folder not in FOLDERS or (folder == "support") == p.name.startswith("test_")


def test_test_files_live_in_a_stage_folder_or_at_the_top_and_helpers_in_support():
    assert [str(p.relative_to(TESTS)) for p in TESTS.rglob("*.py") if misplaced(p)] == []


def test_every_folder_is_on_the_path_and_every_file_name_is_unique(pytestconfig):
    on_path = {Path(p).resolve() for p in pytestconfig.getini("pythonpath")}
    assert on_path == {TESTS} | {TESTS / f for f in FOLDERS}
    names = [p.name for f in FOLDERS for p in (TESTS / f).glob("*.py")] + [p.name for p in TESTS.glob("*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
