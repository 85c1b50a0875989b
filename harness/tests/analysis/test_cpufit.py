"""The CPU ceiling on synthetic levels with a known answer."""

import pytest
from conftest import summarised

from loadlab.analysis import cpufit


def levels(per_request_ms: dict[str, float], fixed_pct: dict[str, float], rates=(100, 200, 300, 400)):
    """Each role's CPU % of one core = fixed + rate × ms per request / 10 (exactly linear)."""
    return [(r, {role: fixed_pct.get(role, 0) + r * ms / 10.0 for role, ms in per_request_ms.items()}) for r in rates]


def test_the_slope_not_the_ratio_is_the_cpu_per_request():
    got = cpufit.cpu_ceiling(levels({"thread": 0.3, "delay": 0.1, "injector": 0.1}, {"thread": 20}), cores=2)
    assert [round(r.ms_per_request, 6) for r in got.roles] == [0.1, 0.1, 0.3]  # delay, injector, thread
    assert got.fixed_cores == pytest.approx(0.2)
    # (2 − 0.2) cores × 1000 / 0.5 ms = 3600 rps
    assert got.rps == pytest.approx(3600)
    assert got.prediction().predicted_by == "cpu"
    assert "= 3,600 rps" in got.formula()


def test_noise_around_the_line_still_gives_the_slope():
    noisy = [(100, {"thread": 31}), (200, {"thread": 59}), (300, {"thread": 91}), (400, {"thread": 119})]
    got = cpufit.cpu_ceiling(noisy, cores=2)
    assert got.roles[0].ms_per_request == pytest.approx(2.96, abs=0.01)


@pytest.mark.parametrize(
    "points",
    [
        [(100, {"thread": 30})],  # one level
        [(100, {"thread": 30}), (105, {"thread": 31})],  # rates too close to tell a slope
        [(100, {"thread": 30}), (300, {"thread": 30})],  # CPU did not rise with the rate
        [(100, {"thread": 30}), (300, {"thread": None})],  # one level with a sample is not a fit
    ],
)
def test_no_ceiling_without_a_slope(points):
    assert cpufit.cpu_ceiling(points, cores=2) is None


def test_a_role_whose_cpu_does_not_follow_the_rate_is_a_fixed_load():
    # The cpu scenario never calls the delay-service: its 5% is a fixed load, not a cost per request.
    points = [(r, {"thread": r * 2.0 / 10, "delay": 5.0}) for r in (20, 40, 60)]
    got = cpufit.cpu_ceiling(points, cores=2)
    assert got.rps == pytest.approx((2 - 0.05) * 1000 / 2.0)


def test_the_host_that_runs_out_first_sets_the_ceiling():
    a = cpufit.cpu_ceiling(levels({"thread": 0.5}, {}), cores=2, host="thread")
    b = cpufit.cpu_ceiling(levels({"injector": 0.2}, {}), cores=2, host="injector-0")
    assert cpufit.lowest([a, b, None]) is a


def test_every_mode_gets_its_cpu_ceiling_and_virtual_http_is_predicted_by_it(tmp_path):
    import synthrun
    from synthrun import LevelSpec, ModeSpec

    run = tmp_path / "20261121-130501"
    synthrun.write_params(run, modes=("virtual",))
    # thread-service 1 ms, delay-service 0.2 ms, injector 0.3 ms of CPU per request (% of one core = rps × ms / 10)
    levels = [
        LevelSpec(r, thread_cpu=r / 10, delay_cpu=r * 0.2 / 10, injector_cpu=r * 0.3 / 10)
        for r in (100, 200, 300, 400, 500)
    ]
    synthrun.write_mode(run, "virtual", ModeSpec(levels))
    mode = summarised(run)["modes"]["virtual"]
    cores = mode["cpu_ceiling"]["cores"]
    assert mode["cpu_ceiling_rps"] == pytest.approx(cores * 1000 / 1.5, rel=0.02)
    assert {r["role"]: round(r["ms_per_request"], 2) for r in mode["cpu_ceiling"]["roles"]} == {
        "thread-service": 1.0,
        "delay-service": 0.2,
        "injectors": 0.3,
    }
    # the prediction is the knee, where the roles' CPU fills 90% of the cores; the ceiling stays the bound
    assert mode["predicted_by"] == "cpu" and mode["predicted_rps"] == round(0.9 * mode["cpu_ceiling_rps"])
    assert mode["cpu_ceiling"]["knee_read_off"] == "the roles' CPU"  # synthrun's host CPU does not rise
    assert mode["predicted_interval_rps"] == [1200, 1333] and mode["predicted_fitted_on_rps"] == [100, 500]


def test_the_ceiling_interval_holds_the_point_and_grows_with_scatter():
    exact = cpufit.cpu_ceiling(levels({"thread": 0.5}, {"thread": 10}), cores=2)
    assert exact.interval == pytest.approx((exact.rps, exact.rps))
    noisy = [(100, {"thread": 31}), (200, {"thread": 59}), (300, {"thread": 91}), (400, {"thread": 119})]
    got = cpufit.cpu_ceiling(noisy, cores=2)
    low, high = got.interval
    assert low < got.rps < high and got.bound().fitted_on == (100, 400)


def test_the_knee_is_read_off_the_host_cpu_when_it_holds_the_roles():
    # the roles 0.5 ms per request; the host adds a fifth again (the kernel's network work, the samplers)
    points = levels({"thread": 0.5}, {}, rates=(200, 400, 600, 800))
    host = [1.2 * cpu["thread"] / 2 for _, cpu in points]  # % of the machine's 2 cores
    got = cpufit.cpu_ceiling(points, cores=2, host_cpu_pct=host)
    assert got.rps == pytest.approx(4000)  # the bound: the roles alone would fill the cores at 4,000
    rps, interval = got.knee()
    assert got.busy.what == "host CPU" and rps == pytest.approx(0.9 * 4000 / 1.2)
    assert interval == pytest.approx((3000, 4000 / 1.2))
    # a host figure below the roles' own is not this machine's: the roles' line again
    assert cpufit.cpu_ceiling(points, cores=2, host_cpu_pct=[5.0] * 4).busy.what == "the roles' CPU"


def test_a_host_already_busy_at_the_lightest_level_does_not_place_the_knee():
    # the run 20261123-205623: other work held the machine at ~100% from the first level; the near-flat host line
    # read off at 90% put the knee at -181,760 rps. The roles' own line places it instead.
    points = levels({"thread": 0.5}, {}, rates=(20, 40, 60))
    got = cpufit.cpu_ceiling(points, cores=2, host_cpu_pct=[99.0, 99.5, 99.8])
    assert got.busy.what == "the roles' CPU"
    rps, _ = got.knee()
    assert rps > 60 and got.prediction().rps > 0
