"""Whether a pass can be trusted, level by level: a level whose instrument was saturated (an injector that fell
behind or ran out of CPU, a saturated delay-service, the cores SERVICE_CPUS left to the other roles, another program
competing for the shared machine) is SET ASIDE with why (set_aside.py) and the knee is placed on the other levels;
the pass itself cannot be trusted only for what is about all of it (`validity`: too few levels left, a level without
server evidence, requests a harness limit cut, the shared machine saturated before the knee), each a sentence with
its numbers; and the notes a reader must know that do not invalidate it.

The checks look at the levels up to and including the first unhealthy one (knee.judge): what happens after the knee
is expected to be ugly and says nothing about the knee itself. The thresholds are fixed here, in one block.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from loadlab.analysis import served, split_checks
from loadlab.analysis.knee import Verdict
from loadlab.analysis.knee_words import level_words
from loadlab.analysis.levels import Level, level_number
from loadlab.core import timeouts
from loadlab.core.servicecpus import CpuSplit

# At least two levels are needed to tell a knee from a starting condition.
MIN_LEVELS = 2
# An open-model injector must send what the schedule asks; below this share of the target it was the bottleneck.
INJECTOR_MIN_SENT_RATIO = 0.95
# A process or a whole host at or above this share of its capacity distorts latency (run queue, GC, timers).
CPU_SATURATED_RATIO = 0.90
# When every role shares one machine, whole-host CPU says nothing about the injector alone; only a machine pinned
# at this level before the knee means the comparison measured the machine rather than the thread model.
MACHINE_SATURATED_HOST_PCT = 95.0
# On a shared machine, host CPU that the run's own processes do not explain, in % of the machine: past this while the
# machine was busy (CPU_SATURATED_RATIO), another program competed with the roles and the knee is not the service's.
# Kernel work not charged to a process (softirq) also lands here, hence a wide margin.
OUTSIDE_CPU_LIMIT_PCT = 35.0
# The delay-service must add DELAY_MS and little more: beyond max(floor, ratio x DELAY_MS) it became a bottleneck.
# Judged on its own latency, probed on its own host once a second: the thread-service's downstream time also holds
# the thread-service's own waits for a CPU, so it only stands as evidence. What counts is a rise with the load: the
# lightest level's answer is the reference (it holds the probe's own cost on this machine, ~10 ms here and twice
# that on a slower CI machine), and the lightest level itself is only flagged beyond twice the allowance. A probe gets
# DELAY_MS + timeouts.PROBE_GRACE_MS to answer; a delay-service that lets any of them fail is saturated. A slow probe
# does not stand against the stand-in's own record of the level on time (served.kept_to_its_distribution).
DELAY_ADDED_FLOOR_MS = 20.0
DELAY_ADDED_RATIO = 0.10
# Targets whose hosts are one physical machine (namespaces share /proc/stat, so host CPU is the machine's).
SHARED_MACHINE_TARGETS = frozenset({"local", "netns"})
# A failed request "ended at" a limit when it took between these shares of it (a timeout fires a little late).
CUT_AT_LIMIT_LOW = 0.95
CUT_AT_LIMIT_HIGH = 1.10
CUT_AT_LIMIT_SLACK_MS = 500


@dataclass(frozen=True)
class HarnessLimit:
    """A limit of the harness that cuts a request: what it is called, how long it was in force, and the error kind
    (the simulation's ErrorKind id) of the requests it cut."""

    name: str
    ms: float
    kind: str


@dataclass(frozen=True)
class ValidityContext:
    delay_ms: float | None
    shared_machine: bool
    # The limits that cut requests, and the slowest latency the health rule still accepts: a limit below it can
    # cut a request the service would have answered in time.
    limits: tuple[HarnessLimit, ...] = ()
    healthy_max_ms: float | None = None
    # How many trusted rates an answer needs: a knee needs MIN_LEVELS; PROFILE=brownout holds one rate by design.
    min_rates: int = MIN_LEVELS
    # SCENARIO=cpu: the machine's cores are the limit being measured (models.cpu predicts it), so a machine busy
    # before the knee is the scenario working, not a distorted run: it becomes a note instead of a reason.
    cpu_is_the_limit: bool = False
    # The mode's lightest level, the reference for a rise of the delay-service's latency: the first level judged
    # unless set before (a refinement pass is judged on its coarse pass's lightest level, not on its own first).
    lightest: Level | None = None
    # SERVICE_CPUS: the service on cores of its own, the other roles on the rest, each side judged on its own cores:
    # the others saturating theirs invalidate the run, the service saturating its own is its knee.
    split: CpuSplit | None = None
    # The configured mean delay the service's own calls are held against (downstream_calls.py); None: not judged.
    downstream_mean_ms: float | None = None


def shares_one_machine(target: str | None) -> bool:
    # An unknown target is treated as the default one, `local`.
    return target is None or target in SHARED_MACHINE_TARGETS


def too_few_levels(trusted_rates: int, set_aside: list[tuple[str, str]], needed: int = MIN_LEVELS) -> list[str]:
    """Why a pass (with the fine passes the knee used) cannot carry an answer: fewer than MIN_LEVELS rates measured on
    levels that can be trusted; [] when enough were. set_aside: each level set aside as (where, why): `level 2 (557
    rps)`, `the injector fell behind: …`; each kind of symptom is then named at the first level it set aside."""
    if trusted_rates >= needed:
        return []
    # a knee stands on two rates; a run that holds one rate (PROFILE=brownout) needs that one to answer
    what = "a knee" if needed >= MIN_LEVELS else "an answer"
    if not set_aside:
        plural = "s" if trusted_rates != 1 else ""
        return [f"only {trusted_rates} level{plural} measured; {what} needs at least {needed}"]
    reasons = []
    by_kind: dict[str, list[tuple[str, str]]] = {}
    for where, why in set_aside:
        by_kind.setdefault(why.split(":")[0], []).append((where, why))
    for hits in by_kind.values():
        (where, why), more = hits[0], len(hits) - 1
        reasons.append(f"{why} at {where}" + (f" (and {more} more level{'s' if more > 1 else ''})" if more else ""))
    left = "no level" if not trusted_rates else f"only {trusted_rates} rate{'s' if trusted_rates != 1 else ''}"
    # what was saturated first (what a reader acts on), then why that voids the pass: too little is left
    reasons.append(
        f"{left} measured on levels that can be trusted; {what} needs at least {needed}: the instrument was "
        f"saturated on {len(set_aside)} level{'s' if len(set_aside) != 1 else ''}, set aside"
    )
    return reasons


def validity(levels: list[Level], verdict: Verdict, ctx: ValidityContext) -> list[str]:
    """Every reason the pass cannot be trusted, each a sentence with its numbers; [] when valid: too few levels left
    once those set aside (verdict.set_aside, from set_aside.judge_trusted) are, and what is about the whole pass
    (`pass_reasons`)."""
    trusted = {lv.target_rps for lv in verdict.trusted(levels)}
    aside = [(level_words(levels[i]), why) for i, why in sorted(verdict.set_aside.items())]
    return [*too_few_levels(len(trusted), aside, ctx.min_rates), *pass_reasons(levels, verdict, ctx)]


def pass_reasons(levels: list[Level], verdict: Verdict, ctx: ValidityContext) -> list[str]:
    """What makes the whole pass untrustworthy, beyond the levels set aside: a level without server evidence (whether
    the instrument was saturated is unknown), requests a harness limit cut, and the shared machine saturated by the
    run itself at a healthy level before the knee (the comparison then measured the machine, not the thread model).

    The checks look at the levels up to and including the first unhealthy one: what happens after the knee is
    expected to be ugly and says nothing about the knee itself. When every role shares one machine and that machine
    was saturated, a role's symptoms (a slow delay-service, a busy injector) are the machine's, not the role's: they
    are reported as the machine's saturation, which invalidates the run only before the knee (see `notes`).
    """
    ctx = with_delay_reference(levels, ctx)
    reasons: list[str] = []
    end = len(levels) if verdict.first_unhealthy is None else verdict.first_unhealthy + 1
    scope = levels[:end]
    transient = levels[verdict.transient_first] if verdict.transient_first is not None else None  # the warm-up's end
    before_knee = [lv for lv in verdict.trusted(levels[: verdict.first_unhealthy]) if lv is not transient]

    def first(hits: list[tuple[Level, str]]) -> None:
        if hits:
            level, text = hits[0]
            more = f" (and {len(hits) - 1} more level{'s' if len(hits) > 2 else ''})" if len(hits) > 1 else ""
            reasons.append(f"{text} at level {level_number(level.position)} ({level.target_rps:.0f} rps){more}")

    first(
        [
            (
                lv,
                f"no server evidence ({lv.no_server_evidence}): whether a role or the machine was saturated is unknown",
            )
            for lv in scope
            if lv.no_server_evidence
        ]
    )
    first([(lv, text) for lv in scope if (text := _cut_by_harness(lv, ctx))])

    if not ctx.cpu_is_the_limit:
        first(
            [
                (
                    lv,
                    f"the machine itself was saturated: host CPU averaged {lv.evidence.host_cpu_pct:.0f}% "
                    f"(limit {MACHINE_SATURATED_HOST_PCT:.0f}%) before the knee{_role_symptoms(lv, ctx)}",
                )
                for lv in before_knee
                if machine_saturated(lv, ctx)
            ]
        )
    return reasons


def injector_fell_behind(level: Level) -> bool:
    """Fewer sends than INJECTOR_MIN_SENT_RATIO of the schedule, by more than one request: at a few requests per
    second one request that Gatling scheduled a millisecond past the level's end is not an injector falling behind."""
    if not level.target_rps:
        return False
    missing = level.target_rps * level.seconds - level.sent
    return level.offered_rps < INJECTOR_MIN_SENT_RATIO * level.target_rps and missing > 1


def outside_cpu_pct(level: Level) -> float | None:
    """Host CPU (% of the machine) beyond what the run's processes used, on a machine all roles share."""
    ev = level.evidence
    cores = ev.delay_cores or ev.injector_cores
    if ev.host_cpu_pct is None or ev.thread_cpu_pct is None or ev.other_roles_cpu_pct is None or not cores:
        return None
    return ev.host_cpu_pct - (ev.thread_cpu_pct + ev.other_roles_cpu_pct) / cores


def outside_competition(level: Level) -> str | None:
    outside = outside_cpu_pct(level)
    host = level.evidence.host_cpu_pct
    if outside is None or host is None or host < CPU_SATURATED_RATIO * 100 or outside < OUTSIDE_CPU_LIMIT_PCT:
        return None
    return (
        f"something outside the run used the CPU: the machine was {host:.0f}% busy but the run's own processes "
        f"explain only {host - outside:.0f}% of it ({outside:.0f}% left over, limit {OUTSIDE_CPU_LIMIT_PCT:.0f}%), "
        f"so this level measured the machine's other work, not the service: run again on a quiet machine"
    )


def notes(levels: list[Level], verdict: Verdict, ctx: ValidityContext) -> list[str]:
    """What a reader must know that does not invalidate the run: the machine ran out of CPU at the knee itself."""
    ctx = with_delay_reference(levels, ctx)
    if ctx.cpu_is_the_limit:
        busy = [lv for lv in levels[: verdict.first_unhealthy] if machine_saturated(lv, ctx)]
        if busy:
            return [
                f"the machine was saturated from level {level_number(busy[0].position)} ({busy[0].target_rps:.0f} rps, "
                f"host CPU {busy[0].evidence.host_cpu_pct:.0f}%): in the cpu scenario the cores are the limit the "
                "model predicts, so this is the scenario at work, not a distorted run"
            ]
    if verdict.first_unhealthy is None:
        return []
    lv = levels[verdict.first_unhealthy]
    if ctx.split is not None:
        return [text] if (text := split_checks.service_saturated(lv, ctx.split, CPU_SATURATED_RATIO)) else []
    if not machine_saturated(lv, ctx):
        return []
    return [
        f"the machine was saturated at the first unhealthy level {level_number(lv.position)} "
        f"({lv.target_rps:.0f} rps): host CPU averaged {lv.evidence.host_cpu_pct:.0f}%, so this knee is where this "
        "machine ran out of CPU, with "
        f"every role on the same cores{_role_symptoms(lv, ctx)}"
    ]


def _cut_by_harness(level: Level, ctx: ValidityContext) -> str | None:
    """The level's failures ended at a harness limit that lies inside the health rule's band: the harness cut
    requests the service might have answered in time, so those errors are not the service's."""
    if not level.ko or ctx.healthy_max_ms is None:
        return None
    for limit in ctx.limits:
        if limit.ms >= ctx.healthy_max_ms:
            continue  # whatever it cut was too slow for the health rule anyway
        seen = _cut_at(level, limit)
        if seen:
            return (
                f"requests were cut by {limit.name} = {limit.ms:.0f} ms, below the {ctx.healthy_max_ms:.0f} ms "
                f"a healthy request may take, so their errors are the harness's, not the service's: {seen}"
            )
    return None


def _cut_at(level: Level, limit: HarnessLimit) -> str | None:
    """What says the level's failures ended at this limit: their kind when the run classified them, else that the
    failed requests typically took the limit's time (a run before errors.csv)."""
    if level.errors_by_kind:
        cut = level.errors_by_kind.get(limit.kind, 0)
        return f"{cut} failed requests were {limit.kind}" if cut else None
    if level.ko_latency is None:
        return None
    typical = level.ko_latency.p50_ms
    if CUT_AT_LIMIT_LOW * limit.ms <= typical <= CUT_AT_LIMIT_HIGH * limit.ms + CUT_AT_LIMIT_SLACK_MS:
        return f"{level.ko} failed requests took {typical} ms (median)"
    return None


def machine_saturated(level: Level, ctx: ValidityContext) -> bool:
    busy = (level.evidence.host_cpu_pct or 0) >= MACHINE_SATURATED_HOST_PCT
    return ctx.shared_machine and ctx.split is None and busy  # split: each side is judged on its own cores


def _role_symptoms(level: Level, ctx: ValidityContext) -> str:
    """The roles' symptoms at a saturated machine's level, named as consequences rather than causes."""
    seen = [
        f"{role}: {text}"
        for role, text in (("delay-service", delay_symptom(level, ctx)), ("injector", injector_cpu_symptom(level)))
        if text
    ]
    if not seen:
        return ""
    return " (what rose with it is not blamed on a single role — " + "; ".join(seen) + ")"


def delay_symptom(level: Level, ctx: ValidityContext) -> str | None:
    ev = level.evidence
    if saturated := _saturation(ev.delay_cpu_pct, ev.delay_cores):
        return saturated
    if ctx.delay_ms is None:
        return None
    seen = f"; the thread-service's calls took {ev.downstream_ms_mean:.0f} ms" if ev.downstream_ms_mean else ""
    if ev.delay_probe_failed:
        return (
            f"probed on its own host, it gave no answer within {(ctx.delay_ms + timeouts.PROBE_GRACE_MS) / 1000:g} s "
            f"in {ev.delay_probe_failed:.0%} of the seconds{seen}"
        )
    if ev.delay_probe_ms is None or served.kept_to_its_distribution(level):
        return None
    base, allowed, lightest = delay_probe_limit(level, ctx, ctx.delay_ms)
    if ev.delay_probe_ms <= base + allowed:
        return None
    if lightest:
        limit_text = f"{base:.0f} + {allowed:.0f} ms even at the lightest level"
    elif base == ctx.delay_ms:
        limit_text = f"{base:.0f} + {allowed:.0f} ms"
    else:
        limit_text = f"{allowed:.0f} ms above its {base:.0f} ms at the lightest level"
    return f"probed on its own host, it answered in {ev.delay_probe_ms:.0f} ms (median), more than {limit_text}{seen}"


def with_delay_reference(levels: list[Level], ctx: ValidityContext) -> ValidityContext:
    if not levels or ctx.lightest is not None:
        return ctx
    return replace(ctx, lightest=levels[0])


def delay_probe_limit(level: Level, ctx: ValidityContext, delay_ms: float) -> tuple[float, float, bool]:
    """(base, allowance, is the lightest level): a probe is slow beyond base + allowance (delay_ms: ctx's, known).

    At the lightest level the base is DELAY_MS and the allowance doubled (no load yet to saturate anything, only the
    probe's own cost); above it, the base is the lightest level's answer, at most DELAY_MS + twice the allowance."""
    allowed = delay_allowance_ms(delay_ms)
    reference = ctx.lightest.evidence.delay_probe_ms if ctx.lightest is not None else None
    if level is ctx.lightest:
        return delay_ms, 2 * allowed, True
    if reference is None or reference <= delay_ms:
        return delay_ms, allowed, False
    return min(reference, delay_ms + 2 * allowed), allowed, False


def injector_cpu_symptom(level: Level) -> str | None:
    return _saturation(level.evidence.injector_cpu_pct, level.evidence.injector_cores)


def delay_allowance_ms(delay_ms: float) -> float:
    return max(DELAY_ADDED_FLOOR_MS, DELAY_ADDED_RATIO * delay_ms)


def _saturation(process_pct: float | None, cores: float | None) -> str | None:
    """How a process used CPU_SATURATED_RATIO of its cores or more, in words; None when it did not."""
    if process_pct is None or not cores or process_pct < CPU_SATURATED_RATIO * cores * 100:
        return None
    return (
        f"its process averaged {process_pct:.0f}% of one core, {process_pct / (cores * 100):.0%} of its "
        f"{cores:.0f} cores (limit {CPU_SATURATED_RATIO:.0%})"
    )
