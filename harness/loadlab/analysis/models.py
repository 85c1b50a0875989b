"""What each scenario's model predicts for a mode's knee: one function per model, each returning a
prediction.Prediction — the rate, its name (`predicted_by`), the formula with its numbers, and the interval the
model's inputs allow — so the page can show how the number was reached and how sure it is.

- little: a platform pool of N blocking threads, each holding a request for the baseline latency (Little's law).
- pool: a database pool of DB_POOL connections each held for one query; platform threads beyond the pool only queue.
  An APP's own HikariCP pool is the same limit, its hold time the app's own usage timer (summary/judge/app_pool.py).
- cpu: CPU_MS of computation per request on the thread-service's cores, less what the other roles on that machine
  spend per request (measured from the samples).
- connections: Tomcat holds at most max-connections open (MAX_CONNECTIONS), in both modes; with one request per
  connection each is held for a request's latency, so no more than max-connections / latency complete a second.
- pinned: on JDK < 24, a virtual thread blocking inside `synchronized` holds its carrier, so only the carriers
  (the virtual scheduler's parallelism) run requests at a time.
- threads: a platform pool can have no more threads than the thread host lets the service run (threadlimits.py),
  each holding a request for the baseline latency.
- limit: virtual-limited's concurrency limit (VIRTUAL_LIMIT, Spring's @ConcurrencyLimit on the downstream call): N
  calls at once, each held for the downstream's wait, so no more than N / wait complete a second; past it the limit
  sheds requests (503) by design.
- client_pool: the thread-service's HTTP client's connection pool (CLIENT=apache or reactor, core/client.py): N
  connections per route (the lab calls one route), each held for the downstream call, so N / that call complete a
  second; past it a call waits for a connection, then is answered 503 (delay-service-client-pool-full).
- executor: SCENARIO=fanout's platform executor, FANOUT calls per request (fanout_model.py).
- memory: the requests that fit in flight in the memory the service's limit leaves, at the measured memory per
  request in flight (threadlimits.memory_ceiling, fitted like the CPU ceiling; passed in like it).

A SCENARIO mix (`"http:70 db:20 cpu:10"`, Inputs.kinds) weights them by the kinds' shares: a request holds a Tomcat
thread (or connection) for the weighted mean of the kinds' own hold times, so Little's law reads threads / Σ wᵢ·tᵢ;
only the db share takes a pooled connection (DB_POOL / (w_db · t_db)); the CPU line is on the mix's mean CPU per
request (w_cpu · CPU_MS).

A new limit is one more plain function returning a Prediction (`slots_over_hold` serves any "N slots, each held for
one request" limit), called from `applicable`. `predict` takes the lowest applicable one within the run's reach
(prediction.lowest, FAR_ABOVE_RUN); prediction.agreement judges the measured knee against its interval. Everything
here is plain arithmetic on numbers the verdict already has, so each formula is unit-tested.
"""

from __future__ import annotations

from loadlab.analysis import fanout_model
from loadlab.analysis.client_pool import client_pool
from loadlab.analysis.holds import HoldTime, KindHold, LevelHold, share_hold, weighted_hold
from loadlab.analysis.holds import said_ms as _s
from loadlab.analysis.model_inputs import Inputs
from loadlab.analysis.prediction import Prediction, lowest
from loadlab.analysis.slots import slots_over_hold
from loadlab.analysis.validity import CPU_SATURATED_RATIO
from loadlab.core.downstream import Distribution
from loadlab.core.fanout import SlowestOf

__all__ = ["Prediction", "Inputs", "HoldTime", "KindHold", "LevelHold", "applicable", "predict", "slots_over_hold"]

# JEP 491 (JDK 24): a virtual thread blocking inside `synchronized` no longer pins its carrier.
FIRST_JDK_WITHOUT_PINNING = 24
# A CPU-bound mode's knee: latency leaves the health limit once the cores are this busy (the share at which the
# validity rule already calls a process or host saturated: run queue, GC and timers distort latency), and at the
# latest when they are all busy. The rate at 100% is the utilization law's bound, not the knee.
CPU_KNEE_UTILIZATION = CPU_SATURATED_RATIO


def baseline_hold(x: Inputs) -> HoldTime | None:
    """A request holds its thread or connection for the baseline p50 (the formula's value), at least for the
    thread-service's own downstream call and at most for what the client waited (the mean, which holds the tail):
    the thread is taken after the request arrives and freed before the answer reaches the client. The shortest and
    longest span every healthy level (Inputs.healthy_holds), not the first level's alone."""
    if not x.baseline_ms:
        return None
    if x.wait is not None and not x.wait.is_constant:
        return mean_wait_hold(x, x.wait, x.baseline_ms)
    first = LevelHold(x.baseline_rps or 0.0, x.baseline_ms, x.baseline_mean_ms, x.downstream_ms)
    levels = _with_first(first, x.healthy_holds)
    shortest = min(v for lv in levels for v in (lv.p50_ms, lv.downstream_ms) if v)
    longest = max(v for lv in levels for v in (lv.p50_ms, lv.mean_ms) if v)
    return HoldTime(x.baseline_ms, "baseline p50", shortest, longest, len(levels), _rates(levels))


def mean_wait_hold(x: Inputs, wait: Distribution | SlowestOf, baseline_ms: float) -> HoldTime:
    """With a drawn delay a thread is held for the distribution's MEAN (Little's law is about averages; a heavy tail
    puts it far above the median), plus what the service adds beyond the median at the baseline (the measured p50
    less the distribution's median). At most what the client waited on average at the baseline, which holds the
    same tail as measured; at least the distribution's own mean. baseline_ms: x's, known."""
    overhead = max(0.0, baseline_ms - wait.p50_ms())
    ms = wait.mean_ms() + overhead
    measured = x.baseline_mean_ms or ms
    return HoldTime(ms, f"mean wait {wait.wait_words()}", min(ms, wait.mean_ms(), measured), max(ms, measured))


def delay_hold(x: Inputs) -> HoldTime | None:
    """A pinned carrier is held for the downstream call: DELAY_MS at least, the call as the service timed it at most
    (at any healthy level)."""
    if not x.delay_ms:
        return None
    calls = [x.downstream_ms, *(lv.downstream_ms for lv in x.healthy_holds)]
    return HoldTime(x.delay_ms, "DELAY_MS", x.delay_ms, max([x.delay_ms, *(c for c in calls if c)]))


def _with_first(first: LevelHold, healthy: tuple[LevelHold, ...]) -> list[LevelHold]:
    """Every healthy level, with the baseline level first unless it is among them (a healthy first level is)."""
    if any(lv.ok_rps == first.ok_rps and lv.p50_ms == first.p50_ms for lv in healthy):
        return list(healthy)
    return [first, *healthy]


def _rates(levels: list[LevelHold]) -> tuple[float, float] | None:
    rates = [lv.ok_rps for lv in levels if lv.ok_rps]
    return (min(rates), max(rates)) if rates else None


def little(threads: float | None, hold: HoldTime | float | None, measured_at: float | None = None) -> Prediction | None:
    """hold: the baseline hold time (baseline_hold), or a bare p50 in ms (a point, no interval)."""
    hold = _as_hold(hold, "baseline p50")
    if not threads or hold is None:
        return None
    return slots_over_hold(threads, hold, "little", f"little: {threads:g} threads / {_said(hold)}", measured_at)


def _said(hold: HoldTime) -> str:
    """ "0.326 s mean wait (median 0.2 s, lognormal p99 2 s)"; "0.201 s (baseline p50)";
    "0.118 s weighted mean hold (70% http 0.201 s, …)"."""
    said = hold.source if hold.source.startswith(("mean wait", "weighted mean")) else f"({hold.source})"
    return f"{_s(hold.ms)} {said}"


def pool(
    db_pool: float | None,
    hold: HoldTime | float | None,
    hold_source: str = "baseline p50",
    threads: float | None = None,
    measured_at: float | None = None,
) -> Prediction | None:
    """threads: the platform pool in front of the connection pool (None for virtual: no limit there)."""
    hold = _as_hold(hold, hold_source)
    if not db_pool or hold is None:
        return None
    if threads:
        busy = min(threads, db_pool)
        what = f"min({threads:g} threads, {db_pool:g} connections)"
    else:
        busy, what = db_pool, f"{db_pool:g} connections"
    return slots_over_hold(busy, hold, "pool", f"pool: {what} / {_s(hold.ms)} ({hold.source})", measured_at)


def cpu(
    cores: float | None, cpu_ms: float | None, others_ms_per_request: float | None = None, cpu_words: str = ""
) -> Prediction | None:
    """The knee at CPU_KNEE_UTILIZATION of the cores; the interval runs up to all of them busy (the bound).
    cpu_words: how cpu_ms was reached, when it is a mix's mean ("10% cpu × 20 ms")."""
    if not cores or not cpu_ms:
        return None
    others = others_ms_per_request or 0.0
    bound = cores * 1000.0 / (cpu_ms + others)
    rps = CPU_KNEE_UTILIZATION * bound
    ms = f"{cpu_ms:g} ms ({cpu_words})" if cpu_words else f"{cpu_ms:g} ms"
    per_request = f"({ms} + {others:.1f} ms of other roles' CPU per request)" if others else ms
    return Prediction(
        rps,
        "cpu",
        f"cpu: {CPU_KNEE_UTILIZATION:.0%} of {cores:g} cores × 1000 / {per_request} = {rps:,.0f} rps "
        f"(every core busy at {bound:,.0f})",
        interval=(rps, bound),
    )


def connections(
    max_connections: float | None, hold: HoldTime | float | None, measured_at: float | None = None
) -> Prediction | None:
    """Little's law on Tomcat's connection cap, which binds virtual threads as much as a pool. hold: the baseline
    hold time (baseline_hold), or a bare p50 in ms."""
    hold = _as_hold(hold, "baseline p50")
    if not max_connections or hold is None:
        return None
    return slots_over_hold(
        max_connections,
        hold,
        "connections",
        f"connections: {max_connections:g} max-connections / {_said(hold)}",
        measured_at,
    )


def pinned(carriers: float | None, carriers_source: str, hold: HoldTime | float | None) -> Prediction | None:
    """hold: the carrier's hold (delay_hold), or a bare DELAY_MS in ms."""
    hold = _as_hold(hold, "DELAY_MS")
    if not carriers or hold is None:
        return None
    return slots_over_hold(
        carriers, hold, "pinned", f"pinned: {carriers:g} carriers ({carriers_source}) × 1000 / {hold.ms:g} ms"
    )


def threads(
    request_threads: float | None, limit: str, hold: HoldTime | float | None, measured_at: float | None = None
) -> Prediction | None:
    """limit: which of the host's limits leaves that many threads, in words."""
    hold = _as_hold(hold, "baseline p50")
    if not request_threads or hold is None:
        return None
    return slots_over_hold(
        request_threads,
        hold,
        "threads",
        f"threads: {request_threads:,.0f} request threads ({limit}) / {_said(hold)}",
        measured_at,
    )


def limit(slots: float | None, hold: HoldTime | float | None) -> Prediction | None:
    """virtual-limited: VIRTUAL_LIMIT calls at once, each held for the downstream call (delay_hold, or DELAY_MS)."""
    hold = _as_hold(hold, "DELAY_MS")
    if not slots or hold is None:
        return None
    return slots_over_hold(
        slots,
        hold,
        "limit",
        f"limit: {slots:,.0f} calls at once (VIRTUAL_LIMIT) × 1000 / {_s(hold.ms)} ({hold.source})",
    )


def _client_hold(x: Inputs) -> HoldTime | None:
    """What a request holds a pooled connection for: the downstream call; in a mix, the http kind's share of it."""
    if x.mode == "reactive" or x.client_pool is None:
        return None
    if x.fanout is not None:
        return fanout_model.request_hold(x.fanout, _calls_timed(x))
    if x.kinds:
        http = next((k for k in x.kinds if k.name == "http"), None)
        return share_hold(http) if http else None
    return delay_hold(x) if x.scenario in ("http", "pinned") else None


def applicable(x: Inputs) -> list[Prediction]:
    """Every model that limits this mode in this scenario, in a fixed order (ties keep the first)."""
    found = []
    hold = weighted_hold(x.kinds) if x.kinds else baseline_hold(x)
    if x.mode == "platform":
        found.append(little(x.threads, hold, x.baseline_rps))
        found.append(threads(x.host_request_threads, x.host_threads_limit, hold, x.baseline_rps))
    found.extend(_mix_limits(x) if x.kinds else _scenario_limits(x, hold))
    if x.app_pool and x.app_pool_hold:
        found.append(
            pool(
                x.app_pool,
                x.app_pool_hold,
                threads=x.threads if x.mode == "platform" else None,
                measured_at=x.baseline_rps,
            )
        )
    if x.concurrency_limit:
        found.append(limit(x.concurrency_limit, delay_hold(x)))
    found.append(client_pool(x.client_pool, _client_hold(x)))
    found.append(connections(x.max_connections, hold, x.baseline_rps))
    found.append(x.measured_pool)
    found.append(x.cpu_ceiling)
    found.append(x.memory_ceiling)
    return [p for p in found if p is not None]


def _scenario_limits(x: Inputs, hold: HoldTime | None) -> list[Prediction | None]:
    """One scenario's own limits: the database pool, the computation, pinned carriers."""
    found = []
    if x.scenario == "db":
        found.append(
            pool(
                x.db_pool,
                hold or _as_hold(x.delay_ms, "DELAY_MS, no baseline"),
                threads=x.threads if x.mode == "platform" else None,
                measured_at=x.baseline_rps if hold else None,
            )
        )
    if x.scenario == "cpu" or (x.cpu_ms or 0) > 0:
        found.append(cpu(x.cores, x.cpu_ms, x.others_cpu_ms_per_request))
    if x.scenario == "pinned" and x.mode == "virtual" and x.jdk is not None and x.jdk < FIRST_JDK_WITHOUT_PINNING:
        carriers, source = (
            (x.carriers, "virtual scheduler parallelism") if x.carriers else (x.cores, "cores, the default parallelism")
        )
        found.append(pinned(carriers, source, delay_hold(x)))
    if x.mode == "platform":
        found.append(fanout_model.executor(x.fanout, _calls_timed(x)))
    return found


def _calls_timed(x: Inputs) -> list[float]:
    """The service's own mean downstream call at each healthy level (a fan-out's calls, each timed on its own)."""
    return [ms for ms in (x.downstream_ms, *(lv.downstream_ms for lv in x.healthy_holds)) if ms]


def _mix_limits(x: Inputs) -> list[Prediction | None]:
    """A SCENARIO mix's kinds' own limits, each reached by its share only: the pool by the db share's connection time
    per request, the CPU by the mix's mean computation per request (CPU_MS is its cpu kind's)."""
    by_name = {k.name: k for k in x.kinds}
    found = []
    if "db" in by_name:
        db = share_hold(by_name["db"])
        found.append(pool(x.db_pool, db, threads=x.threads if x.mode == "platform" else None))
    if "cpu" in by_name and x.cpu_ms:
        share = by_name["cpu"].share
        found.append(
            cpu(
                x.cores, share * x.cpu_ms, x.others_cpu_ms_per_request, f"{share:.0%} of requests cpu × {x.cpu_ms:g} ms"
            )
        )
    return found


def predict(x: Inputs, top_offered: float | None = None) -> Prediction | None:
    """The lowest limit: the one the service reaches first (prediction.lowest: one with an upper end first, none that
    starts far above top_offered, the highest rate the run offered)."""
    return lowest(applicable(x), top_offered)


def _as_hold(hold: HoldTime | float | None, source: str) -> HoldTime | None:
    if hold is None or isinstance(hold, HoldTime):
        return hold
    return HoldTime(hold, source, hold, hold) if hold else None
