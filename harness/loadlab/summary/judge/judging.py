"""A mode judged from its raw files: the tables of every pass, the coarse verdict, what makes the mode untrustworthy,
and its knee across passes, as typed values. `make report` spells them as summary.json (verdict.py); bench plans the
next fine pass from the same values (plan.py), so the pass it runs is the one the report later judges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from loadlab.analysis.gc_bound import counted_with_the_crash
from loadlab.analysis.knee import Knee, Verdict
from loadlab.analysis.knee_words import level_words
from loadlab.analysis.levels import Level
from loadlab.analysis.set_aside import judge_trusted
from loadlab.analysis.validity import (
    MIN_LEVELS,
    HarnessLimit,
    ValidityContext,
    pass_reasons,
    shares_one_machine,
    too_few_levels,
)
from loadlab.core import metrics, scenario_mix, servicecpus, servicesettings
from loadlab.core.asked import Asked
from loadlab.core.reactive import REACTIVE
from loadlab.core.runrecord import RunRecord
from loadlab.core.summary_inputs import Inputs
from loadlab.core.thresholds import Thresholds
from loadlab.core.upgrade import Doc
from loadlab.summary.judge import appcheck, crash, evidence, gc_crash, kinds, reactivecheck, served_check, warmup
from loadlab.summary.judge.knee_record import FinePass, refined_knee
from loadlab.summary.reading import raw, seconds, waits
from loadlab.summary.reading.labels import base_mode, mode_jdk, mode_threads
from loadlab.summary.reading.raw import STATUS_504, TIMEOUT_INJECTOR, RawMode
from loadlab.summary.reading.seconds import Tables
from loadlab.summary.reading.values import as_float
from loadlab.summary.writing import hgrm_files, outputs


@dataclass
class JudgedMode:
    label: str
    raw: RawMode
    tables: Tables  # the coarse pass's
    fine: list[FinePass]
    verdict: Verdict  # the coarse pass's
    ctx: ValidityContext
    knee: Knee
    crashed: Doc | None  # crash.summary: where a role died
    crash_tables: Tables  # the tables of the pass it died in (the coarse pass's when none died)
    crash_reason: str | None
    # fewer than MIN_LEVELS rates measured on trusted levels, coarse and fine (validity.too_few_levels): a fine pass
    # below a level set aside may still add them, so bench plans it all the same (plan.py)
    too_few_trusted: list[str]
    invalid_reasons: list[str]  # the coarse pass's validity, too_few_trusted first
    config_mismatches: list[str]  # what the service ran that was not asked for
    # APP_REQUESTS: each kind of the mix on its own files (kinds.py), and which crossed its limit first, in words
    kinds: list[kinds.KindRecord]
    kind_first: str | None
    # why the levels have no wait profile (summary/reading/waits.read), None when they do
    no_wait_profile: str | None = None
    wait_agent_stopped: str | None = None  # the wait agent's last word when it stopped sampling mid-run
    # the GC-bound levels right before an out-of-memory death, in words: counted with the crash
    # (summary/judge/gc_crash.py)
    crash_notes: list[str] = field(default_factory=list)
    warm_up: warmup.WarmUp = field(default_factory=warmup.WarmUp)  # whether measuring began on a warm service

    @property
    def untrusted(self) -> list[str]:
        """Every reason the mode's measurements cannot be trusted, in the order summary.json lists them."""
        return [*([self.crash_reason] if self.crash_reason else []), *self.invalid_reasons, *self.config_mismatches]


def judge_mode(
    mode_dir: Path,
    label: str,
    run: RunRecord,
    inputs: Inputs,
    thresholds: Thresholds,
    target: str | None,
    write: bool,
) -> JudgedMode:
    """write: also each pass's timeline.csv and server.csv (bench's look at a mode it is still running does not)."""
    lag_s = inputs.load.completion_lag_s
    mode_raw = raw.load_mode(mode_dir)
    fine_raws = [(name, raw.load_mode(mode_dir, name)) for name in raw.fine_passes(mode_dir)]
    died = run.crash_of(label)
    place = crash.locate(died, fine_raws)
    settle_s = int(thresholds.settle_s)
    tables = seconds.build_tables(
        mode_raw, lag_s=lag_s, cutoff=place.cutoff_for(crash.COARSE) if place else None, settle_s=settle_s
    )
    lost = run.evidence_lost.get(label, [])
    evidence.apply(tables, mode_raw, lost)
    crash_tables = tables
    if write:
        _write_tables(mode_dir, tables)
    fine = []
    for name, fine_raw in fine_raws:
        fine_tables = seconds.build_tables(
            fine_raw, lag_s=lag_s, cutoff=place.cutoff_for(name) if place else None, settle_s=settle_s
        )
        evidence.apply(fine_tables, fine_raw, lost, name)
        if place and place.pass_name == name:
            crash_tables = fine_tables
        if write:
            _write_tables(mode_dir / name, fine_tables)
        fine.append(FinePass(name, fine_raw, fine_tables))
    agent, no_profile = waits.read(mode_dir)
    for passed, passed_raw in ((tables, mode_raw), *((f.tables, f.raw) for f in fine)):
        if agent is not None:
            passed.levels = waits.attach(agent, passed_raw, passed.levels, passed.t0)
    if write:
        passes = [(hgrm_files.COARSE, tables.levels), *((f.name, f.tables.levels) for f in fine)]
        hgrm_files.write(mode_dir, passes)
        waits.write_folded(mode_dir, passes)
    crashed = crash.summary(died, place, crash_tables)
    if crashed is not None and place is not None:
        dying = next((f.raw for f in fine if f.name == place.pass_name), mode_raw)
        crashed["peak_inflight"] = crash.peak_inflight(mode_raw.jvm, dying.injectors, place.cutoff)
        crash.log_afterwards(crashed, crash.service_log(mode_dir))
        crashed["out_of_memory"] = crash.out_of_memory(crashed)
        crashed["memory_limit_mb"] = mode_raw.host_limits.service_memory_max_mb if mode_raw.host_limits else None
    gc_bound = gc_crash.before_crash(crashed, crash_tables, mode_raw.flight)
    if crashed is not None and place is not None:  # crash.summary: a crash placed in its pass
        crashed["gc_bound"] = [bound.as_json(place.pass_name) for bound in reversed(gc_bound)]
    # the coarse pass's are set aside from its knee; a fine pass a role died in narrows nothing anyway
    with_crash = {bound.position: bound.reason() for bound in gc_bound} if crash_tables is tables else {}
    for passed in (tables, *(f.tables for f in fine)):  # the stand-in's own record: served delay, injected failures
        passed.levels = served_check.record(mode_dir, run, inputs, passed.levels, passed.t0)
    # Level by level: a level whose instrument was saturated is set aside, the knee placed on the others. The
    # healthy latency a harness limit is held against follows the baseline the trusted levels give.
    ctx = validity_context(mode_raw, run, inputs, target, thresholds, None)
    verdict = judge_trusted(tables.levels, thresholds, ctx, coarse=True, with_crash=with_crash)
    ctx = validity_context(mode_raw, run, inputs, target, thresholds, verdict.p99_limit_ms)
    backlog = warmup.backlog_of(mode_raw, tables.levels, verdict, ctx.healthy_max_ms)
    again = warmup.again_pass(backlog, tables.levels, fine)
    knee = refined_knee(tables.levels, verdict, fine, thresholds, ctx, crashed, rewarmed=again is not None)
    warm = warmup.judged(backlog, again, knee, inputs.load.warmup_seconds)
    trusted = len(trusted_rates(tables.levels, verdict, knee))
    short = too_few_levels(trusted, set_aside_words(tables.levels, verdict), ctx.min_rates)
    raw_passes = [(hgrm_files.COARSE, mode_raw, tables.levels), *((f.name, f.raw, f.tables.levels) for f in fine)]
    aside = {(hgrm_files.COARSE, tables.levels[i].position) for i in verdict.set_aside}
    aside |= {(o.name, o.levels[i].position) for o in knee.passes for i in o.verdict.set_aside}
    at = verdict.baseline.position if verdict.baseline else None
    baseline_at = tables.levels[at].position if at is not None else None
    mix_kinds = kinds.records(mode_dir, raw_passes, lag_s, thresholds, write, frozenset(aside), baseline_at)
    knee_rps = knee.closing.target_rps if knee.collapsed and knee.closing else None
    return JudgedMode(
        label=label,
        raw=mode_raw,
        tables=tables,
        fine=fine,
        verdict=verdict,
        ctx=ctx,
        knee=knee,
        crashed=crashed,
        crash_tables=crash_tables,
        crash_reason=crash.reason(crash.of(crashed), crash_tables) if crashed else None,
        too_few_trusted=short,
        kinds=mix_kinds,
        kind_first=kinds.went_first(mix_kinds, knee_rps),
        no_wait_profile=no_profile,
        wait_agent_stopped=agent.stopped if agent is not None else None,
        crash_notes=gc_crash.words(gc_bound, place.pass_name) if crashed and place else [],
        invalid_reasons=[*short, *pass_reasons(tables.levels, verdict, ctx)] + ([warm.reason] if warm.reason else []),
        warm_up=warm,
        config_mismatches=live_config_mismatches(label, mode_raw.live_config, inputs.asked)
        # An application under test has no /actuator/loadlab: its host and its recording say what it ran on.
        + (
            appcheck.config_mismatches(label, appcheck.evidence(mode_raw), tables.requests, inputs.asked.pool)
            if inputs.asked.app
            else []
        )
        + (reactivecheck.config_mismatches(mode_raw, tables.requests) if base_mode(label) == REACTIVE else []),
    )


def trusted_rates(levels: list[Level], verdict: Verdict, knee: Knee) -> set[float]:
    """The rates measured on levels that can be trusted: the coarse pass's not set aside, and those of every fine
    pass the knee used."""
    rates = {lv.target_rps for lv in verdict.trusted(levels)}
    for outcome in knee.passes:
        if outcome.used:
            rates |= {lv.target_rps for lv in outcome.verdict.trusted(outcome.levels)}
    return rates


def set_aside_words(levels: list[Level], verdict: Verdict) -> list[tuple[str, str]]:
    """Each coarse level set aside for its instrument: where (`level 2 (557 rps)`) and why (not one counted with a
    crash: the crash already says why the mode cannot be trusted)."""
    aside = sorted(verdict.set_aside.items())
    return [(level_words(levels[i]), why) for i, why in aside if not counted_with_the_crash(why)]


def _write_tables(folder: Path, tables: Tables) -> None:
    outputs.write_csv(folder / "timeline.csv", outputs.TIMELINE_COLUMNS, tables.timeline)
    outputs.write_csv(folder / "server.csv", outputs.SERVER_COLUMNS, tables.server)
    outputs.write_csv(folder / "percentiles.csv", seconds.PERCENTILE_COLUMNS, tables.percentiles)


def validity_context(
    mode_raw: RawMode,
    run: RunRecord,
    inputs: Inputs,
    target: str | None,
    thresholds: Thresholds,
    p99_limit_ms: float | None,
) -> ValidityContext:
    """p99_limit_ms: the health rule's limit the levels were judged with (None before they are)."""
    expected, asked = inputs.load.expected_ms, inputs.asked
    healthy_max = max(p99_limit_ms or 0.0, thresholds.p99_limit_ms(expected) if expected else 0.0)
    return ValidityContext(
        delay_ms=float(asked.delay_ms),
        shared_machine=shares_one_machine(target),
        cpu_is_the_limit=scenario_mix.has(asked, "cpu"),
        limits=limits_in_force(mode_raw, run.limits, asked),
        healthy_max_ms=healthy_max or None,
        split=cpu_split(mode_raw, asked.service_cpus, target),
        min_rates=1 if inputs.load.brownout is not None else MIN_LEVELS,
        downstream_mean_ms=calls_witness_mean_ms(inputs),
    )


def calls_witness_mean_ms(inputs: Inputs) -> float | None:
    """The configured mean delay the service's own calls are held against (analysis/downstream_calls.py): only where
    a kind of the run calls the delay-service, and not in a brownout, whose delay belongs to the time."""
    asked = inputs.asked
    calls = any(scenario_mix.has(asked, kind) for kind in scenario_mix.CALLING)
    if not calls or inputs.load.brownout is not None or not asked.delay_ms:
        return None
    return inputs.call.mean_ms() or None


def cpu_split(mode_raw: RawMode, service_cpus: float | None, target: str | None) -> servicecpus.CpuSplit | None:
    """SERVICE_CPUS as the run had it: the cores each side got, from the machine's cores its samplers saw (aws
    ignores it: each role has a host of its own)."""
    if not shares_one_machine(target):
        return None
    return servicecpus.of_run(service_cpus, thread_cores(mode_raw))


def thread_cores(raw: RawMode) -> float | None:
    """The cores of the thread-service's host, as its sampler counted them."""
    return next((c for c in (r.host_cores for r in raw.thread_samples.values()) if c), None)


def limits_in_force(mode_raw: RawMode, recorded: Mapping[str, object], asked: Asked) -> tuple[HarnessLimit, ...]:
    """Each limit that cuts a request, as it was in force (recorded: params.json's `limits`): the injectors say their
    own timeout in meta.json."""
    said = [t for inj in mode_raw.injectors if (t := inj.meta.request_timeout_ms) is not None]
    injector = max(said) if said else as_float(recorded.get("injector_request_timeout_ms"))
    found = []
    if injector is not None:
        found.append(
            HarnessLimit("the injector's request timeout (loadlab.requestTimeoutMs)", injector, TIMEOUT_INJECTOR)
        )
    service = as_float(recorded.get("thread_service_timeout_ms"))
    if service is not None:
        name = "the thread-service's downstream timeout (delay-service.timeout)"
        found.append(HarnessLimit(name, service, STATUS_504))
    database = as_float(recorded.get("database_timeout_ms"))
    if database is not None and scenario_mix.has(asked, "db"):
        found.append(HarnessLimit("the thread-service's database timeout", database, STATUS_504))
    return tuple(found)


def live_config_mismatches(mode: str, live: Mapping[str, object], asked: Asked) -> list[str]:
    """Reasons the mode did not run what was asked, from what the service itself reported at start."""
    reasons = []
    wanted_mode = base_mode(mode)
    if live.get(metrics.THREAD_MODE) not in (None, wanted_mode):
        reasons.append(f"the thread-service ran in {live[metrics.THREAD_MODE]} mode, not {wanted_mode}")
    threads, got = as_float(mode_threads(mode, asked.pool)), as_float(live.get(metrics.TOMCAT_THREADS_MAX))
    if threads is not None and got is not None and threads != got:
        reasons.append(f"the thread-service ran with {got:.0f} Tomcat threads, not PLATFORM_THREADS={threads:.0f}")
    jdk, ran = mode_jdk(mode, asked.jdk), as_float(live.get(metrics.JAVA_VERSION_FEATURE))
    if jdk is not None and ran is not None and ran != jdk:
        reasons.append(f"the thread-service ran on Java {ran:.0f}, not the JDK {jdk} asked for")
    reasons.extend(servicesettings.mismatches(live, asked))
    pool_asked, pool_got = float(asked.db_pool), as_float(live.get(metrics.DB_POOL_MAX))
    if scenario_mix.has(asked, "db") and pool_asked and pool_got and pool_asked != pool_got:
        reasons.append(f"the thread-service's pool had {pool_got:.0f} connections, not DB_POOL={pool_asked:.0f}")
    return reasons
