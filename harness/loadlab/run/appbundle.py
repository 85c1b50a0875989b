"""The bundle every host gets (.loadlab/app): the service jars (delay, thread and reactive) and the simulation's
classpath, under fixed names."""

from __future__ import annotations

import shutil
from pathlib import Path

from loadlab.core.errors import ExitCode
from loadlab.core.repo import REPO
from loadlab.run.hosts import HostError
from loadlab.run.topology import STATE

APP_JAR = "app.jar"  # where APP goes on every host (loadlab-host app-service)


def app_sources() -> dict[str, Path | None]:
    """The build outputs every host gets, by the name they have there (None: no jar matched)."""
    return {
        "delay-service.jar": next((REPO / "delay-service" / "target").glob("delay-service-*.jar"), None),
        "thread-service.jar": next((REPO / "thread-service" / "target").glob("thread-service-*[0-9].jar"), None),
        "reactive-service.jar": next((REPO / "reactive-service" / "target").glob("reactive-service-*.jar"), None),
        # the wait profile's sampler, a -javaagent on the service under test (infra/host/lib/roles.bash wait_agent)
        "wait-agent.jar": REPO / "wait-agent" / "target" / "wait-agent.jar",
        "gatling/test-classes": REPO / "gatling" / "target" / "test-classes",
        "gatling/lib": REPO / "gatling" / "target" / "lib",
        "gatling/jvm.options": REPO / "gatling" / "jvm.options",
    }


def missing_build_outputs() -> list[str]:
    return [name for name, source in app_sources().items() if source is None or not source.exists()]


def local_app_dir(app_jar: str = "") -> Path:
    """.loadlab/app: the layout every host gets (jars under fixed names, the Gatling classpath; APP as app.jar).

    Copies, not links: a `make build` during a run must not swap a jar under a running JVM."""
    app = STATE / "app"
    (app / APP_JAR).unlink(missing_ok=True)  # an earlier run's APP must not be measured in this one's place
    if app_jar:
        app.mkdir(parents=True, exist_ok=True)
        shutil.copy2(app_jar, app / APP_JAR)
    missing = missing_build_outputs()
    if missing:
        raise HostError(f"build output missing ({', '.join(missing)}): run `make build`", ExitCode.USAGE)
    for name, source in app_sources().items():
        if source is None:
            continue  # none is: missing_build_outputs() refused the build above
        target = app / name
        if target.is_symlink():
            target.unlink()
        if source.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return app
