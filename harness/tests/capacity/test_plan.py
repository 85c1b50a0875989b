"""`make plan`: a run's measured costs on another host, on synthetic runs with a known answer and on real raw files;
every refusal one line naming what is wrong, exit 2. No timing is asserted: the figures are the run's own."""

import json
import shutil
from pathlib import Path

import pytest
import synthrun
from conftest import make, summarised
from partial_records import partial
from synthrun import LevelSpec, ModeSpec, stairs

from loadlab.capacity import host_knees, instances, plan, table

DATA = Path(__file__).parents[1] / "data"
RATES = (500, 1000, 1500, 2000)
# % of one core = fixed + rate × ms / 10: the service 0.3 ms a request (5% fixed), delay 0.08, injector 0.12.
SERVICE_MS, DELAY_MS_CPU, INJECTOR_MS = 0.3, 0.08, 0.12


# Each role's CPU on its line (fixed + rate × ms / 10), for synthrun.stairs.
ON_THE_LINES = dict(
    thread_cpu=lambda r: 5 + r * SERVICE_MS / 10,
    delay_cpu=lambda r: r * DELAY_MS_CPU / 10,
    injector_cpu=lambda r: r * INJECTOR_MS / 10,
)


@pytest.fixture(scope="module")
def judged_run(tmp_path_factory):
    """Both modes on the same CPU lines, judged once (summary.json: what `make plan` reads; it draws the page)."""
    run = tmp_path_factory.mktemp("judged") / "20261125-190000"
    synthrun.write_params(run, platform_threads=2000, START_RPS=500, PEAK_RPS=2000, STEPS=4)
    for mode in ("platform", "virtual"):
        synthrun.write_mode(run, mode, ModeSpec(stairs(RATES, **ON_THE_LINES)))
    summarised(run)
    return run


@pytest.fixture
def run(judged_run, tmp_path):
    """A copy of judged_run of each test's own: a plan writes into it (plan.json, the page)."""
    return shutil.copytree(judged_run, tmp_path / judged_run.name)


def test_the_service_alone_on_one_core_is_predicted_from_its_own_cpu_line(run):
    got = plan.plan(run, {"CORES": "1", "MEMORY_GB": "4"})
    virtual = got["modes"]["virtual"]
    # (0.9 × 1 core − 0.05 fixed) / 0.3 ms: the other roles' CPU is on hosts of their own
    assert virtual["limit_met_first"] == "cpu"
    assert virtual["predicted_knee_rps"] == pytest.approx((0.9 - 0.05) * 1000 / SERVICE_MS, rel=0.01)
    low, high = virtual["interval_rps"]
    assert low <= virtual["predicted_knee_rps"] <= high
    assert virtual["rough"] == [] or all(":" in r for r in virtual["rough"])
    # platform's pool of 2,000 at ~0.2 s is ~10,000 rps: on one core its CPU comes first, as for virtual
    assert got["modes"]["platform"]["limit_met_first"] == "cpu"
    half = plan.plan(run, {"CORES": "0.5", "MEMORY_GB": "4"})["modes"]["virtual"]["predicted_knee_rps"]
    assert half == pytest.approx((0.45 - 0.05) * 1000 / SERVICE_MS, rel=0.01)


def test_a_small_pool_is_met_before_the_cpu_of_a_big_host(tmp_path):
    run = tmp_path / "20261125-190001"
    synthrun.write_params(run, modes=("platform",), platform_threads=200)
    synthrun.write_mode(run, "platform", ModeSpec(stairs(RATES[:2], **ON_THE_LINES)))
    summarised(run)
    got = plan.plan(run, {"INSTANCE": "c7i.4xlarge"})["modes"]["platform"]
    assert got["limit_met_first"] == "little"
    assert got["predicted_knee_rps"] < 1000  # 200 threads / ~0.2 s
    assert {p["predicted_by"] for p in got["limits"]} >= {"little", "cpu", "threads"}


def test_a_limit_whose_interval_reaches_zero_is_said_in_words_not_printed_as_a_knee(tmp_path):
    # A service whose CPU line scatters around a large fixed cost (30% of a core): on 0.4 of a core the line's band
    # allows the cores to be full at no load at all, so the knee there is not a figure, nor is the limit met first.
    run = tmp_path / "20261125-190002"
    synthrun.write_params(run, modes=("virtual",), START_RPS=500, PEAK_RPS=2000, STEPS=4)
    scatter = (9, -9, 9, -9)
    spec = [
        LevelSpec(r, thread_cpu=30 + r * SERVICE_MS / 10 + e, delay_cpu=r * DELAY_MS_CPU / 10)
        for r, e in zip(RATES, scatter)
    ]
    synthrun.write_mode(run, "virtual", ModeSpec(spec))
    summarised(run)
    got = plan.plan(run, {"CORES": "0.4", "MEMORY_GB": "4"})["modes"]["virtual"]
    assert got["predicted_knee_rps"] is None and got["limit_met_first"] is None and got["interval_rps"] is None
    assert "reaches 0 rps" in got["not_a_figure"]
    printed = "\n".join(table.lines(plan.plan(run, {"CORES": "0.4", "MEMORY_GB": "4"})))
    row = next(line for line in printed.splitlines() if line.strip().startswith("virtual"))
    assert "cannot be told" in row and "≥ 0" not in printed and " 0–" not in printed
    # on two cores the same line places the knee
    assert plan.plan(run, {"CORES": "2", "MEMORY_GB": "4"})["modes"]["virtual"]["not_a_figure"] is None
    # and on a host smaller than what it burns at no load, that is said, not refused as "too rough"
    small = plan.plan(run, {"CORES": "0.2", "MEMORY_GB": "4"})["modes"]["virtual"]
    assert small["predicted_knee_rps"] is None and "cores at no load" in small["not_a_figure"], small


def test_a_target_rate_sizes_every_host_and_prices_it(run):
    got = plan.write(run, {"INSTANCE": "c7i.xlarge", "RPS": "20000"})
    assert json.loads((run / plan.PLAN_JSON).read_text()) == got
    target = got["target"]
    virtual = target["per_mode"]["virtual"]
    # the service: 0.05 + 20,000 × 0.3 ms = 6.05 cores at 90% → 6.7 cores: an 8-vCPU host of the family named
    assert virtual["service_host"]["cores"] == pytest.approx((0.05 + 20000 * SERVICE_MS / 1000) / 0.9, rel=0.01)
    assert virtual["service_host"]["instance"] == "c7i.2xlarge"
    # the injectors: 20,000 × 0.12 ms = 2.4 cores at 70% of 8 vCPUs → 1 by CPU; 20,000 in flight × 0.2 s needs 2
    assert virtual["injector_hosts"]["count"] == 2
    assert virtual["platform_pool"] is None
    assert target["per_mode"]["platform"]["platform_pool"] == pytest.approx(20000 * 0.2, rel=0.05)
    table = instances.read()
    hosts = [virtual["service_host"]["instance"], virtual["delay_host"]["instance"]] + ["c7i.2xlarge"] * 2
    expected = sum(table.find(h).usd_hour for h in hosts) + 4 * table.public_ipv4_usd_hour
    assert virtual["usd_hour"] == pytest.approx(expected, abs=1e-4)
    assert "list prices" in target["prices"] and table.as_of in target["prices"]


def test_the_thread_limit_mirrors_loadlab_hosts_rule():
    # The containment rules live in loadlab-host's cgroups part (infra/host/lib/cgroups.bash).
    script = (Path(__file__).parents[3] / "infra" / "host" / "lib" / "cgroups.bash").read_text()
    assert f"MAPS_RESERVED={host_knees.MAPS_RESERVED} " in script
    assert f"MEMORY_SHARE_DIVISOR={round(1 / host_knees.MEMORY_SHARE)} " in script


@pytest.mark.parametrize(
    "env,line",
    [
        ({"INSTANCE": "x9.huge"}, "INSTANCE='x9.huge' is not in infra/instance-types.tsv; allowed: c7i.large"),
        ({"CORES": "many"}, "CORES='many' is not a number; allowed: a number > 0"),
        ({"MEMORY_GB": "0"}, "MEMORY_GB='0' is out of range; allowed: a number > 0"),
        ({"RPS": "12.5"}, "RPS='12.5' is out of range; allowed: a whole number > 0"),
        ({"INSTANCE": "c7i.large", "CORES": "2"}, "INSTANCE=c7i.large and CORES=2 both name the host"),
    ],
)
def test_a_bad_value_is_refused_in_one_line_naming_it(run, env, line):
    with pytest.raises(plan.PlanError) as e:
        plan.write(run, env)
    assert str(e.value).startswith(line) and "\n" not in str(e.value)
    assert e.value.exit_code == 2 and not (run / plan.PLAN_JSON).exists()


def real(tmp_path, name):
    run = tmp_path / name
    shutil.copytree(DATA / name, run)
    summarised(run)
    return run


def test_a_real_run_with_no_valid_mode_is_refused(tmp_path):
    run = real(tmp_path, "app_ignores_switch")
    with pytest.raises(plan.PlanError, match=r"has no valid mode to plan from \(virtual: the app did not switch"):
        plan.plan(run, {})


def test_a_real_run_too_rough_to_plan_from_is_refused(tmp_path):
    # its coarse stairs alone, 2 then 5 rps on a pool of one thread: one healthy level fits no CPU line
    run = tmp_path / "coarse_only"
    shutil.copytree(DATA / "fine_pass_all_healthy", run, ignore=shutil.ignore_patterns("refine-*"))
    summarised(run)
    with pytest.raises(plan.PlanError, match="is too rough to plan from: no valid mode's service CPU"):
        plan.plan(run, {})


def test_a_real_run_whose_fine_pass_had_levels_set_aside_plans_from_the_others_and_says_how_rough(tmp_path):
    # with its fine pass (two levels set aside, other programs on the machine): seven levels, 2 to 4.28 rps
    run = real(tmp_path, "fine_pass_all_healthy")
    platform = plan.plan(run, {})["modes"]["platform"]
    assert platform["limit_met_first"] == "little" and any(r.startswith("cpu: rough") for r in platform["rough"])


def test_make_plan_prints_the_table_and_refuses_with_exit_2(run):
    ok = make("plan", env={"RUN": str(run), "CORES": "1", "MEMORY_GB": "4", "RPS": "3000"}, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "virtual" in ok.stdout and "cpu" in ok.stdout and "for 3,000 rps:" in ok.stdout
    page = (run / "index.html").read_text()
    assert '<section id="other-hardware"><h2>On other hardware</h2>' in page and "for 3,000 rps:" in page
    bad = make("plan", env={"RUN": str(run), "INSTANCE": "nope"}, timeout=120)
    (line,) = [x for x in bad.stderr.splitlines() if x.startswith("loadlab:")]
    assert "INSTANCE='nope'" in line and bad.returncode == 2


def test_a_fitted_memory_cost_gives_a_memory_limit_on_the_host():
    # summary.json's memory_per_inflight (CostSlopeRecord) counts its levels as `points`: the limit is a fit on them
    from loadlab.capacity.hostspec import HostSpec
    from loadlab.capacity.run_figures import SERVICE, ModeFigures
    from loadlab.summary.schema.fit_records import CostSlopeRecord

    memory = partial(CostSlopeRecord, slope=100.0, interval=[80.0, 120.0], r2=0.9, points=4, range=[10.0, 40.0])
    points = {SERVICE: [(500.0, 20.0), (2000.0, 65.0)]}
    figures = ModeFigures("virtual", "virtual", True, (), 2000.0, 200.0, None, (), points, memory, 100.0)
    got = host_knees.memory_limit(figures, HostSpec("test", 2, 4))
    # (half of 4 GB - 100 MB) / 100 KB per request in flight, each held 0.2 s
    assert got is not None and got.levels == 4 and got.rps == pytest.approx((2048 - 100) * 1024 / 100 / 0.2)
