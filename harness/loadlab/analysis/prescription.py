"""What would lift a mode's limit: the setting that sizes it (limit_settings.py), its value now and the value to set
by Little's law at the site — the rate to reach × the time a request holds the resource —, what the new value costs
or breaks, or, where no setting exists, the code to change. Pure: summary/verdicts/prescription_record.py gathers a Case
from the mode's verdict, the LADDER step can call `prescribe` on its own.

The rate to reach is TARGET_RPS when given, else the next rung's predicted knee: the lowest other limit the lab
predicts above this one. The hold is the model's (its slots over its predicted rate: the hold it divided by) or,
for a site no model knows, the wait profile's: the requests seen using the resource at the last healthy level over
that level's throughput. The headroom figure scales the mean hold by the last healthy level's p99 over its p50."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from loadlab.analysis import limit_settings
from loadlab.analysis.limit_settings import Setting
from loadlab.analysis.prediction import Prediction, carried, interval_text, limit_name, rate_text
from loadlab.analysis.wait_profile import LevelWaits, Site
from loadlab.analysis.wait_sites import CATEGORY_WORDS, DOWNSTREAM, JDK_PREFIXES, QUEUED
from loadlab.core import app as app_rules
from loadlab.core import param_limits
from loadlab.core.client import POOL_MAX

# The frames named for a site no setting sizes: the code path that took it, from the top, the JDK's left out.
FRAMES_SHOWN = 6
# The largest value each lab parameter accepts (core/param_limits.py, core/client.py): a prescription past it
# cannot be applied as a rung.
PARAMETER_MAX = {
    "PLATFORM_THREADS": param_limits.PLATFORM_THREADS_MAX,
    "DB_POOL": param_limits.DB_POOL_MAX,
    "CLIENT_POOL": POOL_MAX,
    "MAX_CONNECTIONS": param_limits.MAX_CONNECTIONS_MAX,
}
THREAD_LIMITS = ("little", "executor")


@dataclass(frozen=True)
class Case:
    """What the prescription reads of one mode (None where it was not measured)."""

    mode: str  # the thread mode
    collapsed: bool
    sustained_rps: float
    named: Prediction | None  # the model whose interval the knee meets (the limit met first)
    # every limit the lab predicts for the mode within the run's reach (prediction.beyond_run: one far above it names
    # no limit the run could see, so it is no next rung)
    predictions: tuple[Prediction, ...] = ()
    current: Mapping[str, float] = field(default_factory=dict)  # a model's predicted_by → its size now
    client: str | None = None  # CLIENT (None for an APP: the profile names its client)
    app: bool = False
    target_rps: float | None = None
    tail_ratio: float | None = None  # p99 / p50 at the last healthy level
    site: Site | None = None  # the site whose waiting grew at the knee (wait_profile.grew)
    at_knee: LevelWaits | None = None  # the first unhealthy level's profile
    healthy: LevelWaits | None = None  # the last healthy level's profile
    healthy_rps: float | None = None  # its OK throughput
    host_threads: float | None = None  # request threads the host lets the service run (threadlimits.py)
    memory_per_inflight_kb: float | None = None  # measured: live heap + thread stacks per request in flight
    # the first unhealthy level used up the service's CPU (the shared machine's, or its own cores under SERVICE_CPUS):
    # with no model met, the CPU is the limit, and the site the profile saw grow there is its consequence
    out_of_cpu: bool = False


@dataclass(frozen=True)
class Prescription:
    applicable: bool
    words: str  # the one sentence the page and the console show
    limit: str | None = None  # the lab's name for it; None: nothing named, nothing to lift
    named_by: str | None = None  # "the <model> model" | "the wait profile"
    setting: str | None = None  # what sizes it in this run's terms (a lab parameter, or APP's property or flag)
    app_setting: str | None = None  # what sizes it in a user's Spring Boot jar (carried to production)
    current: float | None = None
    to: int | None = None  # Little's law on the mean hold
    to_p99: int | None = None  # with the p99 headroom
    rate_rps: float | None = None
    rate_from: str | None = None
    hold_ms: float | None = None
    hold_p99_ms: float | None = None
    hold_from: str | None = None
    reason: str | None = None  # why it cannot be applied, or why there is nothing to lift
    code: str | None = None  # where no setting exists: what to change
    frames: tuple[str, ...] = ()
    costs: tuple[str, ...] = ()
    holders_elsewhere: str | None = None


def nothing(words: str) -> Prescription:
    return Prescription(False, words, reason=words)


def prescribe(c: Case) -> Prescription:
    if not c.collapsed:
        return nothing(f"nothing to lift: it held {rate_text(c.sustained_rps)} rps, its knee lies above the run")
    if c.target_rps and c.sustained_rps >= c.target_rps:
        return nothing(
            f"nothing to lift: its knee, {rate_text(c.sustained_rps)} rps, is already at or above TARGET_RPS "
            f"({rate_text(c.target_rps)} rps)"
        )
    key, named_by = _limit(c)
    if key is None:
        if c.site is not None and c.site.category == DOWNSTREAM:
            return _downstream(c.site)
        if c.site is not None and c.site.category != QUEUED:
            return _code_only(c, c.site.words, "the wait profile", f"the code that takes it: {c.site.site}")
        # requests queued with no pool in front (a virtual mode's not yet started: the carriers, the CPU) name no site
        return nothing("no limit named at the knee: nothing to prescribe")
    setting = limit_settings.SETTINGS[key]
    run_setting = setting.app if c.app else setting.parameter
    if run_setting is None and setting.code and c.current.get(key):
        # no setting, but a size the code gives it (an app's own Semaphore): Little's law still says what it should be
        sized = _sized(c, key, setting, "its size in code", named_by)
        frames = site_frames(c.at_knee, c.site) if c.site is not None else ()
        where = f"; the frames that took it: {' ← '.join(frames)}" if frames else ""
        stop = f". No setting sizes it; what does: {setting.code}{where}. The ladder stops here."
        return replace(sized, applicable=False, words=sized.words + stop, reason="no setting sizes it", frames=frames)
    if run_setting is None:
        # the CPU is no site: the frames of whatever waited there would name a consequence as the code to change
        return _code_only(c, setting.name, named_by, setting.code or "", with_frames=key != "cpu")
    return _sized(c, key, setting, run_setting, named_by)


def _limit(c: Case) -> tuple[str | None, str]:
    """The limit's key in limit_settings.SETTINGS: the model met first, else the profile's site."""
    if c.named is not None:
        key = _model_key(c.named.predicted_by, c)
        return key, f"the {c.named.predicted_by} model"
    if c.out_of_cpu:
        return "cpu", "the CPU used up at the first unhealthy level"
    if c.site is not None:
        return limit_settings.limit_of_site(c.site.site, c.mode == "platform"), "the wait profile"
    return None, ""


def _model_key(predicted_by: str, c: Case) -> str:
    return f"{predicted_by}:{c.client}" if predicted_by == "client_pool" else predicted_by


def _downstream(site: Site) -> Prescription:
    """Requests that waited on a downstream's answers, no pool in front: its time, which no setting here shortens."""
    code = "the downstream's own time, or fewer calls a request: nothing this service sizes"
    words = (
        f"{site.words}: no setting sizes it: the requests waited on the downstream's answers (a call's time, not a "
        "pool's), which no setting of this service shortens. The ladder stops here."
    )
    return Prescription(False, words, site.words, "the wait profile", reason="no setting sizes it", code=code)


def _code_only(c: Case, limit: str, named_by: str, code: str, with_frames: bool = True) -> Prescription:
    frames = site_frames(c.at_knee, c.site) if c.site is not None and with_frames else ()
    where = f"; the frames that took it: {' ← '.join(frames)}" if frames else ""
    words = f"{limit}: no setting sizes it; what does: {code}{where}. The ladder stops here."
    return Prescription(False, words, limit, named_by, reason="no setting sizes it", code=code, frames=frames)


def _sized(c: Case, key: str, setting: Setting, run_setting: str, named_by: str) -> Prescription:
    model = c.named or next((p for p in c.predictions if _model_key(p.predicted_by, c) == key), None)
    current, hold, hold_from = _hold(c, key, model)
    rate, rate_from = _rate(c, model)
    app_setting = setting.app or (f"none: {setting.code}" if setting.code else None)
    head = f"{setting.name}: {run_setting} {_n(current)}"
    named = Prescription(
        False, "", setting.name, named_by, run_setting, app_setting, current, rate_from=rate_from, hold_from=hold_from
    )
    if hold is None or rate is None:
        why = rate_from if rate is None else hold_from
        return replace(named, words=f"{head} → no figure: {why}", reason=why, code=setting.code)
    hold_p99 = hold * max(1.0, c.tail_ratio or 1.0)
    to, to_p99 = _slots(rate, hold), _slots(rate, hold_p99)
    costs, refused = _costs(c, key, run_setting, current, to, to_p99)
    if current and to <= current:  # a TARGET_RPS between the knee and this limit's own prediction
        refused = (
            f"{run_setting} {current:,.0f} already carries {rate_text(rate)} rps at this hold: raising it lifts nothing"
        )
    sizing = f"{rate_from}, {rate_text(rate)} rps × {hold / 1000:.3f} s held per request ({hold_from})"
    words = f"{head} → {to:,} ({to_p99:,} with the p99's headroom): {sizing}"
    if current and to <= current:  # no "→ 12" from 12: say it carries the rate, and the size that would
        words = f"{head} already carries it: Little's law asks {to:,} ({to_p99:,} with the p99's headroom): {sizing}"
    return replace(
        named,
        applicable=refused is None,
        words=words + (f"; not applicable: {refused}" if refused else ""),
        to=to,
        to_p99=to_p99,
        rate_rps=rate,
        hold_ms=round(hold, 1),
        hold_p99_ms=round(hold_p99, 1),
        reason=refused,
        costs=tuple(costs),
        holders_elsewhere=holders_elsewhere(c, setting),
    )


def _slots(rate: float, hold_ms: float) -> int:
    """Little's law: the slots that carry `rate` each held `hold_ms`, whole, up (rounded first: 900 × 0.22 is 198)."""
    return math.ceil(round(rate * hold_ms / 1000, 6))


def _hold(c: Case, key: str, model: Prediction | None) -> tuple[float | None, float | None, str]:
    """(its size now, the mean hold in ms, where the hold comes from)."""
    base = key.split(":")[0]
    current = c.current.get(base)
    if model is not None and current:
        return current, current * 1000.0 / model.rps, f"the model's hold: {model.formula}"
    if base == "little" and c.healthy is not None and c.healthy_rps:
        # Tomcat's threads: every request thread the profile saw, whatever it did, held one; the queue's did not
        busy = sum(s.mean_requests for s in c.healthy.sites if s.category != QUEUED)
        if busy > 0:
            rate = rate_text(c.healthy_rps)
            said = f"the wait profile: {busy:,.1f} request threads busy ÷ {rate} rps at the last healthy level"
            return current, busy * 1000.0 / c.healthy_rps, said
    use = limit_settings.SETTINGS[key].own_use
    if use and c.healthy is not None and c.healthy_rps:
        using = sum(s.mean_requests for s in c.healthy.sites if s.site.startswith(use))
        if using > 0:
            seen = current or _most_using(c, use)
            return (
                seen,
                using * 1000.0 / c.healthy_rps,
                (
                    f"the wait profile: {using:,.1f} requests in {use} ÷ {rate_text(c.healthy_rps)} rps at the last "
                    "healthy level"
                ),
            )
    return current, None, "no hold time: neither a model nor the wait profile measured one"


def _most_using(c: Case, use: str) -> float | None:
    seen = [s.mean_requests for w in (c.healthy, c.at_knee) if w for s in w.sites if s.site.startswith(use)]
    return round(max(seen), 1) if seen else None


def _rate(c: Case, model: Prediction | None) -> tuple[float | None, str]:
    """The rate to reach: TARGET_RPS, else the lowest other limit the lab predicts above this one."""
    if c.target_rps:
        return c.target_rps, "TARGET_RPS"
    floor = model.rps if model is not None else c.sustained_rps
    ahead = sorted(
        (p for p in c.predictions if (model is None or p.predicted_by != model.predicted_by) and p.rps > floor),
        key=lambda p: p.rps,
    )
    if not ahead:
        return None, (
            "no other limit the lab predicts within the run's reach lies above it: set TARGET_RPS for the rate to reach"
        )
    nxt = ahead[0]
    lo, hi = nxt.band()
    name = limit_name(nxt.predicted_by)
    if carried(nxt.interval):
        return nxt.rps, f"the next limit, {name}, predicted at {interval_text(lo, hi)}"
    if lo > 0 and hi is None:
        return lo, f"the next limit, {name}, predicted at {interval_text(lo, hi)} (its low end: a size at least)"
    return None, f"the next limit, {name}, has no figure its interval carries ({interval_text(lo, hi)})"


def _costs(
    c: Case, key: str, setting: str, current: float | None, to: int, to_p99: int
) -> tuple[list[str], str | None]:
    """What the new value costs or breaks, and why it cannot be applied (None: it can)."""
    costs: list[str] = []
    refused = None
    most = PARAMETER_MAX.get(setting)
    if most is not None and to > most:
        refused = f"{setting} {to:,} is beyond what the lab accepts ({most:,}, core/param_limits.py says why)"
    base = key.split(":")[0]
    if base == "pool":
        headroom = param_limits.DB_CONNECTION_HEADROOM
        if c.app:  # an app's PostgreSQL allows what an unconfigured one does, or the pool + headroom when larger
            allowed = app_rules.db_max_connections([f"--{app_rules.HIKARI_SIZE_PROPERTY}={to_p99}"], headroom)
            rule = f"the larger of {app_rules.APP_DB_CONNECTIONS} and the pool + {headroom}"
        else:
            allowed, rule = param_limits.db_max_connections(to_p99), f"the pool + {headroom}"
        costs.append(
            f"PostgreSQL's max_connections: the run's own is started with {rule} = {allowed:,} (the lab raises it "
            f"with {setting}); a shared database must allow every instance's pool"
        )
    if base in THREAD_LIMITS and current:
        if c.host_threads and to > c.host_threads:
            refused = refused or (
                f"{to:,} threads is beyond the {c.host_threads:,.0f} request threads this host lets the service run"
            )
        costs.append(_memory(to_p99 - current, c.memory_per_inflight_kb))
    if base == "client_pool":
        costs.append(f"the downstream then sees up to {to_p99:,} connections from each instance at once")
    return costs, refused


def _memory(added: float, kb: float | None) -> str:
    if kb and kb > 0:
        return (
            f"memory: {added:,.0f} more threads each holding a request, ≈ {added * kb / 1024:,.0f} MB at this run's "
            f"{kb:,.0f} KB per request in flight (live heap + thread stacks)"
        )
    return (
        f"memory: {added:,.0f} more threads, each its stack and what its request holds (no per-request figure was "
        "fitted in this run: docs/THREAD-COST.md measures them)"
    )


def holders_elsewhere(c: Case, setting: Setting) -> str | None:
    """When the pool's holders wait somewhere else at the knee (a connection held across a downstream call): the
    figures, and that the setting cannot fix it."""
    if setting.own_use is None or c.at_knee is None:
        return None
    sites = [s for s in c.at_knee.sites if s.category == DOWNSTREAM]
    own = sum(s.mean_requests for s in sites if s.site.startswith(setting.own_use))
    others = [s for s in sites if not s.site.startswith(setting.own_use)]
    other = max(others, key=lambda s: s.mean_requests, default=None)
    if other is None or other.mean_requests <= own:
        return None
    return (
        f"its holders are themselves waiting elsewhere: {other.mean_requests:,.1f} requests "
        f"{CATEGORY_WORDS[DOWNSTREAM]} ({other.site}) against {own:,.1f} in {setting.own_use} at the knee — "
        "its hold is that call's time; moving the call out of the transaction (or the permit) is the fix a "
        "setting cannot make"
    )


def site_frames(waits: LevelWaits | None, site: Site | None) -> tuple[str, ...]:
    """The code path that took a site: the most sampled stack placed in its category that runs through its code,
    from the top, the JDK's frames left out."""
    if waits is None or site is None or site.category == QUEUED:
        return ()
    leaf = f"[{CATEGORY_WORDS[site.category]}]"
    code = site.site.rsplit(" in ", 1)[-1]
    stacks = [(n, key) for key, n in waits.folded.items() if key.endswith(leaf) and code in key]
    if not stacks:
        return ()
    _, key = max(stacks)
    frames = [f for f in reversed(key.split(";")[:-1]) if not f.startswith(JDK_PREFIXES)]
    return tuple(frames[:FRAMES_SHOWN])


def _n(v: float | None) -> str:
    return "(not known)" if v is None else f"{v:,.0f}"
