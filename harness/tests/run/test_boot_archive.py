"""The service under test's start-up archive (infra/host/lib/roles.bash, trained_boot_args): written by a training run
of its own, read by every later start; an AOT cache where the JVM reads one (JDK 24+), a CDS archive before. Driven
with a stand-in `java` that records what it was asked (the real training run is the tiny local e2e run's): the
training run gets no bench parameter from the environment, and a training run that fails leaves a start without an
archive, never a start that fails."""

import os
import subprocess
from pathlib import Path

import pytest
from test_watch import HOST_SCRIPTS

FAKE_JAVA = r"""#!/usr/bin/env bash
log=$(dirname "$0")/calls
case " $* " in
  *" -XX:AOTMode=off -version "*) [ "${FAKE_AOT:-0}" = 1 ]; exit ;;
  *" -Djarmode=tools "*) dest=${!#}; mkdir -p "$dest"; echo jar > "$dest/thread-service.jar"; exit 0 ;;
esac
for a in "$@"; do
  case $a in -XX:AOTCacheOutput=*|-XX:ArchiveClassesAtExit=*) out=${a#*=} ;; esac
done
if [ -n "${out:-}" ]; then
  env > "$(dirname "$0")/training-env"
  [ -f "$(dirname "$0")/training-fails" ] && exit 1  # a file: the training run's environment is empty
  echo archive > "$out"
fi
exit 0
"""


def boot_words(tmp_path: Path, aot: bool, training_fails: bool = False) -> list[str]:
    """trained_boot_args' launch words for a fat jar, as the measured service would be started with them."""
    java = tmp_path / "bin" / "java"
    java.parent.mkdir(exist_ok=True)
    java.write_text(FAKE_JAVA)
    java.chmod(0o755)
    fat = tmp_path / "thread-service.jar"
    fat.write_text("fat jar")
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    (tmp_path / "bin" / "training-fails").unlink(missing_ok=True)
    if training_fails:
        (tmp_path / "bin" / "training-fails").touch()
    script = (
        f'state={state}; here={HOST_SCRIPTS}; die() {{ echo "$*" >&2; exit 2; }}; java_bin() {{ echo {java}; }}; '
        f"source {HOST_SCRIPTS}/lib/roles.bash; trained_boot_args {fat} -Xmx1g"
    )
    # make exports every bench parameter, unset ones as empty strings: the training run must not see them
    env = {
        **os.environ,
        "THREADLOCAL_KB": "",
        "FAKE_AOT": str(int(aot)),
        "FAKE_TRAINING_FAILS": str(int(training_fails)),
    }
    r = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


@pytest.mark.parametrize(
    "aot, written, read", [(True, ".aot", "-XX:AOTCache="), (False, ".jsa", "-XX:SharedArchiveFile=")]
)
def test_the_training_run_writes_the_archive_every_later_start_reads(tmp_path, aot, written, read):
    words = boot_words(tmp_path, aot)
    archives = list((tmp_path / "state" / "boot").glob(f"thread-service-*{written}"))
    assert len(archives) == 1 and f"{read}{archives[0]}" in words, (words, archives)
    # the AOT cache must see the flight recorder's module in the run that reads it, as in the one that wrote it
    assert ("--add-modules=jdk.jfr" in words) == aot, words
    assert words[-2:] == ["-jar", str(tmp_path / "state" / "boot" / "thread-service" / "thread-service.jar")], words
    training_env = (tmp_path / "bin" / "training-env").read_text()
    assert "THREADLOCAL_KB=" not in training_env and "FAKE_AOT=" not in training_env, training_env


def test_a_training_run_that_fails_leaves_a_start_without_an_archive_remembered(tmp_path):
    words = boot_words(tmp_path, aot=True, training_fails=True)
    assert not [w for w in words if w.startswith(("-XX:AOTCache", "-XX:SharedArchiveFile"))], words
    assert words[0] == "-jar", words
    assert list((tmp_path / "state" / "boot").glob("thread-service-*.aot.none")), "the failure is not remembered"
    # remembered: the next start does not train again
    (tmp_path / "bin" / "training-env").unlink()
    boot_words(tmp_path, aot=True)
    assert not (tmp_path / "bin" / "training-env").exists()
