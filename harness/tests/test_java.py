"""The harness finds a JDK >= 21 by itself and never trusts the default java."""
import os
from pathlib import Path

import pytest

from loadlab.java import JdkNotFound, find_jdk, major_version


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
    monkeypatch.setattr("loadlab.java.SEARCH_GLOBS", (str(tmp_path / "jvm" / "*"),))
    assert find_jdk({"JAVA_HOME": str(old)}) == new.resolve()


def test_no_suitable_jdk_gives_one_clear_message(tmp_path, monkeypatch):
    old = fake_jdk(tmp_path, "17.0.15")
    monkeypatch.setattr("loadlab.java.SEARCH_GLOBS", (str(tmp_path / "nothing" / "*"),))
    with pytest.raises(JdkNotFound, match=r"no JDK >= 21 found \(JAVA_HOME=.* is Java 17"):
        find_jdk({"JAVA_HOME": str(old)})
