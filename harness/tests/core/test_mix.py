"""APP_REQUESTS: a mix file is read once, in Python (core/mix.py), and the simulation gets it resolved; a bad file is
refused in one line naming its line, before anything starts."""

import base64
import json
import shutil

import pytest

from loadlab.core import mix, params
from loadlab.core.param_parsers import ParamError

DATA = __import__("pathlib").Path(__file__).parents[1] / "data" / "mix"
HEADER = "name,weight,method,path,body,content_type\n"


def test_the_resolved_mix_is_what_the_simulation_reads_and_its_shares_sum_to_all_requests():
    # MixTest.java reads the same file: the two sides cannot drift apart.
    got = mix.load(str(DATA / "requests.csv"))
    assert got.resolved() == json.loads((DATA / "resolved.json").read_text())
    assert sum(k["hundredths"] for k in got.resolved()["kinds"]) == 10_000
    assert json.loads(base64.b64decode(got.property_value())) == got.resolved()


def test_each_kind_is_sent_once_before_any_load_with_each_placeholder_at_its_first_value():
    kinds = mix.load(str(DATA / "requests.csv")).kinds
    assert [k.smoke_path for k in kinds] == ["/orders/1", "/orders/1?region=eu-west", "/carts"]
    # The body's own JSON braces stay; its placeholder is filled; a literal #{ is sent as written.
    assert kinds[2].smoke_body.startswith('{"customer": 1, "sku": "SKU-#{x}"')
    assert kinds[2].label == "POST /carts"


@pytest.mark.parametrize("weights, expected", [((1, 1, 1), [3334, 3333, 3333]), ((0, 3, 1), [0, 7500, 2500])])
def test_shares_in_hundredths_add_up_to_exactly_one_hundred_percent(tmp_path, weights, expected):
    rows = "".join(f"k{i},{w},GET,/k{i},,\n" for i, w in enumerate(weights))
    (tmp_path / "m.csv").write_text(HEADER + rows)
    assert mix.load(str(tmp_path / "m.csv")).hundredths() == expected


@pytest.mark.parametrize(
    "rows, expected",
    [
        ("a,1,GET,/items/{id:1..10},,\nb,1,GET,/x/{sku},,\n", "line 3: unknown placeholder {sku}"),
        ("a,1,GET,/items/{id:1..10:pareto},,\n", "line 2: unknown placeholder {id:1..10:pareto}"),
        ("a,0,GET,/a,,\nb,0,POST,/b,,\n", "lines 2-3: every weight is 0"),
        ("a,1,POST,/carts,missing.json,application/json\n", "line 2: body missing.json cannot be read"),
        ("a,1,GET,/a,,\na,1,GET,/b,,\n", "line 3: name 'a' is not allowed (already a kind's)"),
        ("a,1,FETCH,/a,,\n", "line 2: method 'FETCH' is not allowed"),
        ("a,-1,GET,/a,,\n", "line 2: weight '-1' is not a number >= 0"),
        ("a,1,GET,/a b,,\n", "line 2: path '/a b' has spaces"),
        ("a,1,GET,/a/{id:9..1},,\n", "line 2: placeholder {id:9..1} is an empty or too wide range"),
        ("a,1,GET,/a/{c:none.csv},,\n", "line 2: placeholder {c:none.csv}: none.csv cannot be read"),
        ("a,1,GET,/a,,\nb,1,GET,/b\n", "line 3: has 4 fields"),
        ("", "has no kind of request"),
    ],
)
def test_a_bad_mix_file_is_refused_in_one_line_naming_its_line(tmp_path, rows, expected):
    (tmp_path / "m.csv").write_text(HEADER + rows)
    with pytest.raises(mix.MixError) as e:
        mix.load(str(tmp_path / "m.csv"))
    assert expected in str(e.value) and "\n" not in str(e.value), str(e.value)
    assert str(e.value).startswith(f"APP_REQUESTS={tmp_path / 'm.csv'}")


def test_a_wrong_header_and_a_missing_file_are_refused_too(tmp_path):
    (tmp_path / "m.csv").write_text("name,weight,path\na,1,/a\n")
    with pytest.raises(mix.MixError, match="line 1 is not the header name,weight,method,path,body,content_type"):
        mix.load(str(tmp_path / "m.csv"))
    with pytest.raises(mix.MixError, match="cannot be read"):
        mix.load(str(tmp_path / "none.csv"))


def test_app_requests_is_a_parameter_checked_before_anything_starts(tmp_path, monkeypatch):
    jar = _jar(tmp_path)
    shutil.copytree(DATA, tmp_path / "mix")
    values = params.parse({"APP": str(jar), "APP_REQUESTS": str(tmp_path / "mix" / "requests.csv")})
    assert values.app_requests == str((tmp_path / "mix" / "requests.csv").resolve())
    with pytest.raises(ParamError, match="APP_REQUESTS=.* has no effect without APP"):
        params.parse({"APP_REQUESTS": str(tmp_path / "mix" / "requests.csv")})
    with pytest.raises(ParamError, match="APP_PATH=/x and APP_REQUESTS=.* both say what to send"):
        params.parse({"APP": str(jar), "APP_PATH": "/x", "APP_REQUESTS": str(tmp_path / "mix" / "requests.csv")})
    (tmp_path / "mix" / "requests.csv").write_text(HEADER + "a,0,GET,/a,,\n")
    with pytest.raises(ParamError, match="line 2: every weight is 0") as e:
        params.parse({"APP": str(jar), "APP_REQUESTS": str(tmp_path / "mix" / "requests.csv")})
    assert "\n" not in str(e.value)


def test_app_path_is_a_mix_of_one_get():
    one = mix.single_get("/orders/42")
    assert [(k.method, k.smoke_path, k.label) for k in one.kinds] == [("GET", "/orders/42", "GET /orders/42")]


def _jar(tmp_path):
    import zipfile

    path = tmp_path / "app.jar"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(
            "META-INF/MANIFEST.MF",
            "Manifest-Version: 1.0\r\nMain-Class: org.springframework.boot.loader.launch.JarLauncher\r\n"
            "Start-Class: x.App\r\nSpring-Boot-Version: 3.5.0\r\n\r\n",
        )
    return path
