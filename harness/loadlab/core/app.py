"""APP: a user's own executable Spring Boot jar, measured in the thread-service's place.

What is checked before anything starts (standard library only, so `make check-params` and the preflight use it):
the jar itself (a file, a zip, Boot's launcher in its MANIFEST, Boot >= 3.2, where `spring.threads.virtual.enabled`
exists), APP_PATH, and APP_ARGS with its placeholders. How the app is started in a mode: the standard Spring
properties only, so any Boot app switches without a code change.
"""

from __future__ import annotations

import re
import shlex
import zipfile
from dataclasses import dataclass
from pathlib import Path

from loadlab.core.asked import Asked
from loadlab.core.run_params import RunParams

# spring.threads.virtual.enabled exists from Spring Boot 3.2: an older app would silently stay on platform threads.
BOOT_MIN = (3, 2)
JAR_ALLOWED = f"an executable Spring Boot jar (Boot >= {BOOT_MIN[0]}.{BOOT_MIN[1]})"
# Boot's launchers (org.springframework.boot.loader.launch.JarLauncher from 3.2, …loader.JarLauncher before).
BOOT_LAUNCHER_PREFIX = "org.springframework.boot.loader."
# The placeholders APP_ARGS may use, each replaced by a part of the run (placeholder_values): {downstream_url} is the
# delay-service's base URL, answering at any path with the run's delay (an app's own base-URL property takes it as is).
DELAY_URL, DB_URL, DOWNSTREAM_URL = "{delay_url}", "{db_url}", "{downstream_url}"
PLACEHOLDERS = (DELAY_URL, DB_URL, DOWNSTREAM_URL)
# What the harness sets itself, per mode: the mode, the pool, where the app listens.
VIRTUAL_PROPERTY = "spring.threads.virtual.enabled"
POOL_PROPERTY = "server.tomcat.threads.max"
HARNESS_PROPERTIES = (VIRTUAL_PROPERTY, POOL_PROPERTY, "server.port", "server.address")
APP_PATH_MAX = 2000
# Tomcat's NIO connector names its threads `http-nio-<address>-<port>-…`: two of its own (Acceptor, Poller) in either
# mode, plus its platform request pool (`…-exec-<n>`) in platform mode. Linux keeps only 15 characters of a thread's
# name, so the host counts every `http-nio-` thread and the pool is that count less the two (the sample app's
# TomcatThreadNamesTests holds Tomcat to this).
TOMCAT_NIO_PREFIX = "http-nio-"
TOMCAT_NIO_OWN_THREADS = 2


# The app's own Actuator gauges, sampled when it exposes them (GET /actuator/metrics/<name>): the sampler records
# these names, summary/judge/appcheck.py reads them back.
TOMCAT_BUSY, TOMCAT_MAX = "tomcat.threads.busy", "tomcat.threads.config.max"
HIKARI_ACTIVE, HIKARI_PENDING, HIKARI_MAX = (
    "hikaricp.connections.active",
    "hikaricp.connections.pending",
    "hikaricp.connections.max",
)
# HikariCP's usage timer (Micrometer): how long each connection was held, borrowed to returned. A timer has several
# measurements; `name:STATISTIC` asks the sampler for one of them (its cumulative count and total time, in seconds),
# so the connection time per request is the total's rise over a level's requests (summary/judge/app_pool.py).
HIKARI_USAGE = "hikaricp.connections.usage"
HIKARI_USAGE_TOTAL_S, HIKARI_USAGE_COUNT = f"{HIKARI_USAGE}:TOTAL_TIME", f"{HIKARI_USAGE}:COUNT"
ACTUATOR_METRICS = (
    TOMCAT_BUSY,
    TOMCAT_MAX,
    HIKARI_ACTIVE,
    HIKARI_PENDING,
    HIKARI_MAX,
    HIKARI_USAGE_TOTAL_S,
    HIKARI_USAGE_COUNT,
)


# Where Actuator answers: at the root, or under the app's servlet context path (server.servlet.context-path puts
# Actuator there too), which APP_PATH then starts with. The harness asks each path prefix of APP_PATH, up to this
# many segments deep, and samples the first that answers.
ACTUATOR_METRICS_PATH = "/actuator/metrics"
CONTEXT_PATH_MAX_SEGMENTS = 3


def actuator_metrics_paths(app_path: str) -> list[str]:
    """Where an app's Actuator metrics may answer, the root first: `/petclinic/api/owners/1` →
    `/actuator/metrics`, `/petclinic/actuator/metrics`, `/petclinic/api/actuator/metrics`."""
    segments = [s for s in app_path.split("?", 1)[0].split("/")[1:-1] if s][:CONTEXT_PATH_MAX_SEGMENTS]
    return ["/".join(["", *segments[:n]]).rstrip("/") + ACTUATOR_METRICS_PATH for n in range(len(segments) + 1)]


THREAD_SERVICE = "thread-service"


def service_label(params: RunParams | Asked) -> str:
    """What prose calls the service under test: the jar's file name with APP, else the thread-service (the role
    keeps its name in files, logs and summary.json's `crashed.role`)."""
    jar = params.app
    return jar.rsplit("/", 1)[-1] if jar else THREAD_SERVICE


def what_is_sent(params: RunParams) -> str:
    """How prose says what the load sent to an app: `at /orders/42` (APP_PATH), `with the mix requests.csv`."""
    mix_file = params.app_requests
    return f"with the mix {mix_file.rsplit('/', 1)[-1]}" if mix_file else f"at {params.app_path or '/'}"


# What the thread-service's own endpoint (/actuator/loadlab) feeds and an app has not: never missing for an app (its
# flight recording gives heap and GC instead).
NOT_RECORDED = "thread/jvm.csv"


class AppError(ValueError):
    """One bad APP, APP_PATH or APP_ARGS; the message is the single line the user sees."""


@dataclass(frozen=True)
class AppJar:
    path: Path
    boot_version: str
    start_class: str


def manifest(jar: zipfile.ZipFile) -> dict[str, str]:
    """The main section of META-INF/MANIFEST.MF (continuation lines joined)."""
    try:
        text = jar.read("META-INF/MANIFEST.MF").decode("utf-8", errors="replace")
    except KeyError:
        return {}
    fields: dict[str, str] = {}
    last = None
    for line in text.replace("\r\n", "\n").split("\n"):
        if not line.strip():
            if fields:
                break  # the main section ends at the first blank line
            continue
        if line.startswith(" ") and last:
            fields[last] += line[1:]
        elif ":" in line:
            last, value = line.split(":", 1)
            fields[last.strip()] = value.strip()
    return fields


def boot_version_tuple(version: str) -> tuple[int, int] | None:
    m = re.match(r"(\d+)\.(\d+)", version)
    return (int(m.group(1)), int(m.group(2))) if m else None


def inspect_jar(raw: str) -> AppJar:
    """The jar APP names, or AppError saying in one line why it cannot be measured."""
    shown = f"APP={raw!r}"
    path = Path(raw).expanduser()
    if not path.exists():
        raise AppError(f"{shown} is not a file (no such path); allowed: {JAR_ALLOWED}")
    if not path.is_file():
        raise AppError(f"{shown} is not a file (a directory or a device); allowed: {JAR_ALLOWED}")
    try:
        with zipfile.ZipFile(path) as jar:
            fields = manifest(jar)
    except (zipfile.BadZipFile, OSError) as e:
        raise AppError(f"{shown} is not a jar ({e}); allowed: {JAR_ALLOWED}") from None
    main, start, version = fields.get("Main-Class", ""), fields.get("Start-Class"), fields.get("Spring-Boot-Version")
    if not main.startswith(BOOT_LAUNCHER_PREFIX) or not start or not version:
        found = f"Main-Class {main or 'missing'}" + ("" if version else ", no Spring-Boot-Version")
        raise AppError(
            f"{shown} is not an executable Spring Boot jar (its MANIFEST has {found}; `spring-boot-maven-plugin` "
            f"repackage makes one); allowed: {JAR_ALLOWED}"
        )
    parsed = boot_version_tuple(version)
    if parsed is None or parsed < BOOT_MIN:
        raise AppError(
            f"{shown} is built with Spring Boot {version}, older than {BOOT_MIN[0]}.{BOOT_MIN[1]} (the first with "
            f"{VIRTUAL_PROPERTY}: it would stay on platform threads in virtual mode); allowed: {JAR_ALLOWED}"
        )
    return AppJar(path.resolve(), version, start)


def check_path(raw: str) -> str:
    """APP_PATH: a path and query the load GETs (sent as given, so it must already be URL-encoded)."""
    value = raw.strip()
    allowed = f"a path and query starting with / (URL-encoded, no spaces, at most {APP_PATH_MAX} characters)"
    if not value.startswith("/") or value.startswith("//"):
        raise AppError(f"APP_PATH={raw!r} does not start with a single /; allowed: {allowed}")
    if len(value) > APP_PATH_MAX or any(c.isspace() or not c.isprintable() or ord(c) > 126 for c in value):
        raise AppError(f"APP_PATH={raw!r} has spaces, control or non-ASCII characters; allowed: {allowed}")
    if "#" in value:
        raise AppError(f"APP_PATH={raw!r} has a fragment (#), which is never sent; allowed: {allowed}")
    return value


def check_args(raw: str) -> list[str]:
    """APP_ARGS split as a shell would, with its placeholders known and no property the harness sets per mode."""
    allowed = f"app arguments (shell quoting), placeholders {' '.join(PLACEHOLDERS)}"
    try:
        words = shlex.split(raw)
    except ValueError as e:
        raise AppError(f"APP_ARGS={raw!r} cannot be split into arguments ({e}); allowed: {allowed}") from None
    for word in words:
        # ${...} is Spring's own placeholder and stays as it is.
        for name in re.findall(r"(?<!\$)\{[A-Za-z][\w.-]*\}", word):
            if name not in PLACEHOLDERS:
                raise AppError(f"APP_ARGS={raw!r} has an unknown placeholder {name}; allowed: {allowed}")
        key = word.lstrip("-").split("=", 1)[0]
        if word.startswith("--") and key in HARNESS_PROPERTIES:
            raise AppError(
                f"APP_ARGS={raw!r} sets {key}, which the harness sets for each mode; allowed: {allowed}, "
                f"without {', '.join(HARNESS_PROPERTIES)}"
            )
    return words


def uses_database(args: list[str]) -> bool:
    """{db_url} in APP_ARGS: the run starts its own PostgreSQL, as SCENARIO=db does."""
    return any(DB_URL in w for w in args)


# The run's PostgreSQL for an app ({db_url}): the app's pool is its own (its properties or APP_ARGS), not DB_POOL,
# which sizes the thread-service's. The database allows what an unconfigured PostgreSQL does, or more when APP_ARGS
# asks HikariCP for a larger pool (with the same headroom as DB_POOL's): max_connections = DB_POOL + 10 = 20 refused
# an app whose own pool was larger ("sorry, too many clients already").
APP_DB_CONNECTIONS = 100
HIKARI_SIZE_PROPERTY = "spring.datasource.hikari.maximum-pool-size"


def db_max_connections(args: list[str], headroom: int) -> int:
    """max_connections of the run's PostgreSQL for an app started with these arguments."""
    asked = [w.split("=", 1)[1] for w in args if w.startswith(f"--{HIKARI_SIZE_PROPERTY}=")]
    sizes = [int(x) for x in asked if x.strip().isdigit()]
    return max([APP_DB_CONNECTIONS, *(n + headroom for n in sizes)])


def placeholder_values(
    delay_address: str, delay_port: int, delay_ms: int, db_address: str, db_port: int, db: str
) -> dict[str, str]:
    """What each placeholder becomes: the delay-service's URL with DELAY_MS (a downstream of known latency), its base
    URL (any path, the run's delay), and the run's PostgreSQL as a JDBC URL that carries its user (trusted, no
    password)."""
    return {
        DELAY_URL: f"http://{delay_address}:{delay_port}/delay?ms={delay_ms}",
        DOWNSTREAM_URL: f"http://{delay_address}:{delay_port}",
        DB_URL: f"jdbc:postgresql://{db_address}:{db_port}/{db}?user={db}",
    }


def substitute(args: list[str], values: dict[str, str]) -> list[str]:
    out = []
    for word in args:
        for name, value in values.items():
            word = word.replace(name, value)
        out.append(word)
    return out


def mode_args(mode: str, threads: int, address: str, port: int) -> list[str]:
    """The standard Spring properties that put any Boot (>= 3.2) app in a mode; nothing of the app's own."""
    args = [f"--server.address={address}", f"--server.port={port}"]
    if mode == "virtual":
        return [*args, f"--{VIRTUAL_PROPERTY}=true"]
    return [*args, f"--{VIRTUAL_PROPERTY}=false", f"--{POOL_PROPERTY}={threads}"]


# APP's companion parameters: they mean nothing without APP.
def checked_jar(raw: str) -> str:
    """APP: "" (the lab's own thread-service) or the absolute path of a checked Boot jar (inspect_jar)."""
    return str(inspect_jar(raw.strip()).path) if raw.strip() else ""


def checked_args(raw: str) -> str:
    """APP_ARGS kept as typed (bench splits it again when it substitutes the placeholders), checked here."""
    check_args(raw)
    return raw.strip()


def cross_checks(v: RunParams, defaults: RunParams) -> list[str]:
    """APP's companions need APP, and what only the thread-service does (its scenarios) does not apply to an app;
    defaults: every parameter's default."""
    if not v.app:
        companions = (
            ("APP_PATH", v.app_path, defaults.app_path),
            ("APP_ARGS", v.app_args, defaults.app_args),
            ("APP_REQUESTS", v.app_requests, defaults.app_requests),
        )
        return [
            f"{name}={given!r} has no effect without APP; allowed: {default!r} (or set APP)"
            for name, given, default in companions
            if given != default
        ]
    errors = []
    if v.app_requests and v.app_path != defaults.app_path:
        errors.append(
            f"APP_PATH={v.app_path} and APP_REQUESTS={v.app_requests} both say what to send; allowed: one of them"
        )
    if v.scenario != "http":
        errors.append(
            f"SCENARIO={v.scenario} does not apply with APP (each request does what the app does at APP_PATH); "
            f"allowed: http (the default), and {DB_URL} in APP_ARGS to give the app the run's PostgreSQL"
        )
    if v.cpu_ms:
        errors.append(f"CPU_MS={v.cpu_ms} does not apply with APP (the app's requests are its own); allowed: 0")
    if v.threadlocal_kb:
        errors.append(
            f"THREADLOCAL_KB={v.threadlocal_kb} does not apply with APP (the per-thread object is the "
            "thread-service's); allowed: 0"
        )
    return errors
