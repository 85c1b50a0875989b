"""A rung's parameters: the prescription's setting applied (a lab parameter, or an APP's Spring property on its
command line), short stairs from below the rate held to past the next predicted knee, checked as any run's."""

import zipfile

from partial_records import partial

from loadlab.core import params, rung_params
from loadlab.run import rungs
from loadlab.summary.verdicts.records import ModeRecord


def test_platform_threads_raised_on_stairs_around_the_next_knee(tmp_path):
    values = params.parse({"RESULTS_DIR": str(tmp_path)})
    below = partial(ModeRecord, sustained_rps=990.0)
    planned = rung_params.rung_values(
        values, rungs.rung_of("platform", below, "PLATFORM_THREADS", 460, 2300.0, tmp_path)
    )
    assert not isinstance(planned, str)
    assert planned.platform_threads == (460,) and planned.modes == ("platform",)
    assert planned.start_rps == 891 and planned.peak_rps == 3220 and planned.steps == rung_params.RUNG_STEPS
    assert planned.ladder is None and planned.results_dir == str(tmp_path / "ladder")


def test_an_apps_hikari_pool_goes_on_its_command_line(tmp_path):
    jar = tmp_path / "app.jar"
    with zipfile.ZipFile(jar, "w") as z:  # what APP's check reads: an executable Boot jar's manifest
        z.writestr(
            "META-INF/MANIFEST.MF",
            "Main-Class: org.springframework.boot.loader.launch.JarLauncher\nStart-Class: demo.App\n"
            "Spring-Boot-Version: 4.1.1\n",
        )
    values = params.parse({"RESULTS_DIR": str(tmp_path), "APP": str(jar), "APP_ARGS": "--x=1"})
    below = partial(ModeRecord, sustained_rps=100.0)
    planned = rung_params.rung_values(
        values, rungs.rung_of("virtual", below, "spring.datasource.hikari.maximum-pool-size", 30, 200.0, tmp_path)
    )
    assert not isinstance(planned, str), planned
    assert planned.app_args == "--x=1 --spring.datasource.hikari.maximum-pool-size=30"


def test_a_setting_the_lab_cannot_apply_is_said(tmp_path):
    values = params.parse({"RESULTS_DIR": str(tmp_path)})
    why = rung_params.rung_values(
        values, rungs.rung_of("virtual", partial(ModeRecord, sustained_rps=100.0), "-Dfoo", 3, 200.0, tmp_path)
    )
    assert isinstance(why, str) and "can apply" in why


def test_a_size_out_of_range_is_refused_as_a_rung(tmp_path):
    values = params.parse({"RESULTS_DIR": str(tmp_path)})
    why = rung_params.rung_values(
        values,
        rungs.rung_of(
            "platform", partial(ModeRecord, sustained_rps=990.0), "PLATFORM_THREADS", 10**9, 2300.0, tmp_path
        ),
    )
    assert isinstance(why, str) and why.startswith("the rung's parameters were refused: PLATFORM_THREADS")
