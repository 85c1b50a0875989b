"""What would lift a mode's limit (analysis/prescription.py): the setting a user would read and the value Little's law
gives at the site, on a real agent file (Tomcat's queue at 10 threads), on the lab's own models (a database pool, an
HTTP client's pool) and on what no setting sizes (a monitor in the nested-jar loader, Apache's pool under APP)."""

import math
from pathlib import Path

from loadlab.analysis import models
from loadlab.analysis.client_pool import client_pool
from loadlab.analysis.holds import HoldTime
from loadlab.analysis.limit_settings import APACHE_CUSTOMIZER
from loadlab.analysis.prediction import Prediction
from loadlab.analysis.prescription import Case, prescribe
from loadlab.analysis.wait_profile import QUEUED_SITE, LevelWaits, Site, grew, profile
from loadlab.analysis.wait_sites import DOWNSTREAM, MONITOR, POOL, QUEUED
from loadlab.core.client import Pool
from loadlab.summary.reading import waits

DATA = Path(__file__).resolve().parents[1] / "data" / "waits"
# The kept agent file (tests/summary/test_waits.py): platform, 10 Tomcat threads, DELAY_MS=100, JDK 25; level 1 at
# 40 rps healthy, level 2 at 107 rps past the knee.
LEVEL_1 = range(1795850732, 1795850738)
LEVEL_2 = range(1795850738, 1795850744)
CPU = Prediction(900.0, "cpu", "cpu: …", interval=(900.0, 1000.0))
HOLD = HoldTime(200.0, "baseline p50", 195.0, 210.0)


def test_tomcat_s_queue_at_ten_threads_is_lifted_by_platform_threads_to_the_next_limit(tmp_path):
    mode = tmp_path / "platform"
    (mode / "raw" / "thread").mkdir(parents=True)
    (mode / waits.RAW_FILE).write_text((DATA / "platform-10-threads.tsv").read_text())
    agent, _ = waits.read(mode)
    light = profile((agent.seconds[s] for s in LEVEL_1), {s: 4.0 for s in LEVEL_1})
    full = profile((agent.seconds[s] for s in LEVEL_2), {s: 80.0 for s in LEVEL_2})
    growth = grew(light, full)
    little = models.little(10, HoldTime(100.0, "baseline p50", 98.0, 104.0))
    case = Case(
        "platform", True, 40.0, None, (little, CPU), {"little": 10.0}, "jdk",
        tail_ratio=1.2, site=growth.site, at_knee=full, healthy=light, healthy_rps=40.0,
    )  # fmt: skip
    p = prescribe(case)
    assert growth.site.site == QUEUED_SITE and p.named_by == "the wait profile"
    assert (p.setting, p.app_setting, p.current) == ("PLATFORM_THREADS", "server.tomcat.threads.max", 10.0)
    assert p.to == 90 and p.to_p99 == 108  # 900 rps (the CPU's predicted knee) × 0.1 s, × 1.2 for the p99
    assert p.applicable and "CPU (utilization law), predicted at 900–1,000 rps" in p.rate_from
    assert p.words.startswith(
        "threads (Tomcat's pool, Little's law): PLATFORM_THREADS 10 → 90 (108 with the p99's headroom)"
    )
    # TARGET_RPS is the rate to reach when given
    target = prescribe(Case("platform", True, 40.0, little, (little, CPU), {"little": 10.0}, target_rps=500.0))
    assert (target.to, target.rate_from) == (50, "TARGET_RPS")
    enough = prescribe(Case("platform", True, 40.0, little, (little, CPU), {"little": 10.0}, target_rps=60.0))
    assert not enough.applicable and "PLATFORM_THREADS 10 already carries 60 rps" in enough.reason
    # never "10 → 6": the size it has carries the rate (a real rung read "CLIENT_POOL 12 → 12")
    assert enough.words.startswith(f"{enough.limit}: PLATFORM_THREADS 10 already carries it: Little's law asks 6 ")


def test_a_database_pool_raises_postgresql_s_max_connections_with_it():
    pool = models.pool(4, HOLD)
    p = prescribe(Case("virtual", True, 20.0, pool, (pool, CPU), {"pool": 4.0}, "jdk", tail_ratio=1.1))
    assert (p.setting, p.app_setting) == ("DB_POOL", "spring.datasource.hikari.maximum-pool-size")
    assert (p.to, p.to_p99) == (180, 198)  # 900 rps × 0.2 s; × 1.1
    assert any("max_connections" in c and "= 208" in c for c in p.costs)  # DB_POOL + 10, raised with it
    app = prescribe(Case("virtual", True, 20.0, pool, (pool, CPU), {"pool": 4.0}, app=True, target_rps=30.0))
    # an app's PostgreSQL allows 100 unless its pool asks more (run 20261202-074207 said "pool + 10 = 16")
    assert app.setting == "spring.datasource.hikari.maximum-pool-size"
    assert any("the larger of 100 and the pool + 10 = 100" in c for c in app.costs), app.costs
    big = prescribe(Case("virtual", True, 20.0, pool, (pool, CPU), {"pool": 4.0}, target_rps=5000.0))
    assert not big.applicable and "beyond what the lab accepts (500" in big.reason
    assert "not applicable" in big.words


def test_the_default_run_s_platform_pool_is_sized_for_the_cpu_s_knee_and_an_app_s_pool_by_its_property():
    little = models.little(200, HoldTime(202.0, "baseline p50", 200.0, 214.0))
    cpu = Prediction(1952.0, "cpu", "cpu: …", interval=(1730.0, 2704.0))
    p = prescribe(Case("platform", True, 990.0, little, (little, cpu), {"little": 200.0}, "jdk", tail_ratio=1.06))
    assert (p.to, p.to_p99) == (395, 418)  # 1,952 rps × 0.202 s; × 1.06
    assert "CPU (utilization law), predicted at 1,730–2,704 rps" in p.rate_from
    app_pool = models.pool(10, HOLD)
    app = prescribe(Case("virtual", True, 45.0, app_pool, (app_pool, CPU), {"pool": 10.0}, app=True))
    assert (app.setting, app.to) == ("spring.datasource.hikari.maximum-pool-size", 180)
    assert any("with spring.datasource.hikari.maximum-pool-size" in c for c in app.costs)


def test_holders_waiting_elsewhere_are_said_with_their_figures():
    pool = models.pool(10, HOLD)
    at_knee = LevelWaits(
        8, 80, 40.0,
        (Site(POOL, "HikariCP's connection pool (HikariPool)", 25.0, 0.6), Site(DOWNSTREAM, "the JDK HttpClient's call",
         9.6, 0.25), Site(DOWNSTREAM, "PostgreSQL (the query's answer)", 0.4, 0.01)),
    )  # fmt: skip
    p = prescribe(Case("virtual", True, 45.0, pool, (pool, CPU), {"pool": 10.0}, at_knee=at_knee))
    assert p.holders_elsewhere.startswith("its holders are themselves waiting elsewhere: 9.6 requests")
    assert "the JDK HttpClient's call" in p.holders_elsewhere and "against 0.4 in PostgreSQL" in p.holders_elsewhere


def test_apache_s_pool_is_client_pool_in_the_lab_and_sized_only_in_code_under_app():
    model = client_pool(Pool(5.0, "CLIENT=apache, its default"), 200.0)
    lab = prescribe(Case("platform", True, 25.0, model, (model, CPU), {"client_pool": 5.0}, "apache"))
    assert (lab.setting, lab.current, lab.to) == ("CLIENT_POOL", 5.0, 180)
    assert lab.app_setting == f"none: {APACHE_CUSTOMIZER}"
    site = Site(POOL, "Apache HttpClient's connection pool (PoolingHttpClientConnectionManager)", 13.2, 0.7)
    app = prescribe(Case("virtual", True, 25.0, None, (CPU,), app=True, site=site))
    assert not app.applicable and app.setting is None and app.code == APACHE_CUSTOMIZER
    assert "no setting sizes it" in app.words and app.words.endswith("The ladder stops here.")


def test_a_monitor_names_the_code_and_the_frames_that_took_it():
    loader = "org.springframework.boot.loader.net.protocol.jar.UrlJarFiles$Cache.get"
    stack = ";".join(
        [
            "org.apache.catalina.connector.CoyoteAdapter.service",
            "org.springframework.web.servlet.resource.ResourceUrlProvider.getForLookupPath",
            "org.springframework.core.io.ClassPathResource.isReadable",
            "java.lang.ClassLoader.getResource",
            "org.springframework.boot.loader.net.protocol.jar.JarUrlConnection.open",
            loader,
        ]
    )
    site = Site(MONITOR, f"a monitor (org.springframework.boot.loader.net.protocol.jar.UrlJarFiles$Cache) in {loader}",
                8.6, 0.4)  # fmt: skip
    at_knee = LevelWaits(9, 90, 20.0, (site,), {f"{stack};[waiting on a monitor or lock]": 70, "a.B;[running]": 3})
    p = prescribe(Case("platform", True, 330.0, None, (CPU,), {"little": 200.0}, site=site, at_knee=at_knee))
    assert not p.applicable and p.setting is None and p.to is None
    assert p.frames[:2] == (loader, "org.springframework.boot.loader.net.protocol.jar.JarUrlConnection.open")
    assert "java.lang.ClassLoader.getResource" not in p.frames
    assert p.words.startswith("waiting on a monitor or lock: a monitor (") and "The ladder stops here." in p.words


def test_nothing_to_lift_is_said_and_a_limit_past_the_host_is_refused():
    assert prescribe(Case("virtual", False, 3000.0, None)).words.startswith("nothing to lift: it held 3,000 rps")
    met = prescribe(Case("platform", True, 990.0, None, target_rps=900.0))
    assert not met.applicable and "already at or above TARGET_RPS" in met.reason
    little = models.little(200, HOLD)
    ceiling = Prediction(2500.0, "cpu", "cpu: …", interval=(2500.0, 2700.0))
    far = prescribe(Case("platform", True, 990.0, little, (little, ceiling), {"little": 200.0}, host_threads=450.0))
    assert not far.applicable and "request threads this host lets the service run" in far.reason
    cpu = prescribe(Case("virtual", True, 900.0, CPU, (CPU,)))
    assert cpu.limit == "CPU (utilization law)" and "make plan" in cpu.code and not cpu.applicable
    queued = Site(QUEUED, QUEUED_SITE, 30.0, 0.5)
    assert (
        prescribe(Case("virtual", True, 900.0, None, site=queued)).words
        == "no limit named at the knee: nothing to prescribe"
    )
    assert math.isclose(little.rps, 1000.0)


def test_a_knee_where_the_machine_ran_out_of_cpu_is_the_cpu_s_whatever_the_profile_saw_grow():
    # run 20261202-071619 (the default run on a slow day): platform's knee 528–600 rps with the host at 97%; Tomcat's
    # queue grew there (66 requests), a consequence, and no model was met. Raising PLATFORM_THREADS would lift nothing.
    queued = Site(QUEUED, QUEUED_SITE, 66.3, 0.31)
    call = Site(DOWNSTREAM, "the JDK HttpClient's call", 143.8, 0.68)
    at_knee = LevelWaits(5, 50, 600.0, (queued, call), {"a.B;[waiting on the downstream]": 40})
    p = prescribe(Case("platform", True, 528.0, None, (CPU,), {"little": 200.0}, site=queued, at_knee=at_knee,
                       out_of_cpu=True))  # fmt: skip
    assert p.limit == "CPU (utilization law)" and not p.applicable and p.setting is None
    assert "make plan" in p.code and p.frames == () and p.named_by.startswith("the CPU used up")


def test_requests_waiting_on_the_downstream_s_answers_name_no_code_to_change():
    # the same run's virtual mode: no model met, the host at 90%, the requests' wait on the JDK HttpClient's call grew
    call = Site(DOWNSTREAM, "the JDK HttpClient's call", 245.8, 0.96)
    p = prescribe(Case("virtual", True, 677.0, None, (CPU,), site=call))
    assert not p.applicable and p.setting is None and p.frames == ()
    assert "no setting of this service shortens" in p.words and "the code that takes it" not in p.words


def test_tomcat_s_threads_without_a_model_take_their_hold_from_the_busy_request_threads():
    queued = Site(QUEUED, QUEUED_SITE, 30.0, 0.2)
    healthy = LevelWaits(5, 50, 100.0, (Site(DOWNSTREAM, "the JDK HttpClient's call", 21.0, 0.95),
                                        Site(QUEUED, QUEUED_SITE, 1.0, 0.05)), {})  # fmt: skip
    p = prescribe(Case("platform", True, 100.0, None, (CPU,), {"little": 20.0}, site=queued, healthy=healthy,
                       healthy_rps=100.0))  # fmt: skip
    assert p.hold_ms == 210.0 and "21.0 request threads busy" in p.hold_from  # the queue's 1.0 holds no thread
    assert p.to == 189 and p.applicable  # 900 rps, the CPU's predicted knee, × 0.21 s
