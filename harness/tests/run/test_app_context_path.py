"""An app with a servlet context path (spring-petclinic-rest sets server.servlet.context-path=/petclinic/) has its
Actuator under that path: the sampler must find it there, or the app's Tomcat and HikariCP gauges are never recorded
and its own connection pool can never be named as its limit (seen on the real app)."""

from types import SimpleNamespace

from bench_run import service_of
from builders import run_params

from loadlab.core import app
from loadlab.run import appservice


def app_run(path: str):
    return SimpleNamespace(
        service=service_of(run_params(app="/apps/spring-petclinic-rest.jar", app_path=path)),
        topo=SimpleNamespace(thread=SimpleNamespace(address="127.0.0.1")),
    )


def answering_only(monkeypatch, metrics_path: str) -> list[str]:
    """Actuator answers 200 at metrics_path and 404 everywhere else, as Tomcat does under a context path."""
    asked = []

    def status(h, target, timeout_s):
        asked.append(target)
        return ("200", "0.01") if target.endswith(":8080" + metrics_path) else ("404", "0.01")

    monkeypatch.setattr(appservice, "http_status", status)
    return asked


def sampled_url(args: list[str]) -> str | None:
    return next((a.split("=", 1)[1] for a in args if a.startswith("--actuator-url=")), None)


def test_actuator_under_the_apps_context_path_is_sampled(monkeypatch):
    answering_only(monkeypatch, "/petclinic/actuator/metrics")
    args = appservice.sampler_args(app_run("/petclinic/api/owners/1"), "/raw")
    assert sampled_url(args) == "http://127.0.0.1:8080/petclinic/actuator/metrics"
    assert "--actuator-out=/raw/actuator.csv" in args


def test_actuator_at_the_root_is_asked_first_and_kept(monkeypatch):
    asked = answering_only(monkeypatch, "/actuator/metrics")
    args = appservice.sampler_args(app_run("/owners/1"), "/raw")
    assert sampled_url(args) == "http://127.0.0.1:8080/actuator/metrics"
    assert len(asked) == 1


def test_an_app_without_actuator_gets_no_gauges(monkeypatch):
    answering_only(monkeypatch, "/nowhere")
    args = appservice.sampler_args(app_run("/petclinic/api/owners/1?x=/a/b"), "/raw")
    assert sampled_url(args) is None and not any(a.startswith("--actuator") for a in args)


def test_the_paths_asked_are_the_prefixes_of_app_path_without_its_query():
    assert app.actuator_metrics_paths("/") == ["/actuator/metrics"]
    assert app.actuator_metrics_paths("/owners?lastName=") == ["/actuator/metrics"]
    assert (
        app.actuator_metrics_paths("/petclinic/api/owners/1?q=/x/y")
        == [
            "/actuator/metrics",
            "/petclinic/actuator/metrics",
            "/petclinic/api/actuator/metrics",
            "/petclinic/api/owners/actuator/metrics",
        ][: 1 + app.CONTEXT_PATH_MAX_SEGMENTS]
    )
