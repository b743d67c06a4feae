"""check-bound: the command line contract, bad input, target problems, budget, schema, API."""

from __future__ import annotations

import json
import math
import re
import shlex
import time
from pathlib import Path

import pytest

import dpverify
from dpverify.reports.check_bound_report import render, validate
from dpverify.reports.cli import main
from dpverify.testing import UnsoundBound, assert_sound_bound

SMALL = ["--region", "eps0=0.1..1", "k=1..8", "delta=1e-6..1e-3", "--seed", "0"]
SMALL_REGION = {"eps0": (0.1, 1), "k": (1, 8), "delta": (1e-6, 1e-3)}
README = Path(__file__).resolve().parents[1] / "README.md"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check-bound", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("argv", "needle"), [
    (["foo*k", "--against", "optimal-composition", *SMALL], "'foo'"),
    (["eps0*k", "--against", "optimal-composition", "--region", "eps0=1..0.1", "k=1..3",
      "delta=1e-6..1e-3"], "eps0"),
    (["eps0*k", "--against", "optimal-composition", "--region", "eps0=0.1..1", "k=1..3"],
     "delta"),
    (["eps0*k", "--against", "optimal-composition", *SMALL, "--region", "zeta=0..1"], "zeta"),
    (["eps0*k", "--against", "nowhere", *SMALL], "nowhere"),
    (["eps0*k", "--against", "optimal-composition", "--region", "eps0=0.1..1", "k=1..3",
      "delta=0..1e-3"], "delta"),
    (["eps0.real", "--against", "optimal-composition", *SMALL], "'.'"),
    (["eps0*k", "--against", "optimal-composition", *SMALL, "--budget", "-1"], "budget"),
])
def test_bad_input_exits_2_naming_the_token(capsys, argv, needle):
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert needle in err and "Traceback" not in err and out == ""


def test_json_document_validates_and_the_reproduce_command_works(capsys):
    code, out, err = _run(capsys, "eps0*sqrt(2*k*log(1/delta))", "--against",
                          "optimal-composition", "--kind", "eps", "--region", "eps0=0.1..1",
                          "k=1..60", "delta=1e-8..1e-3", "--seed", "0", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["verdict"] == "failed"
    assert validate(doc) == []
    cx = doc["counterexample"]
    lo, hi = cx["reference"]
    assert lo <= hi and cx["margin"] > 0 and lo > max(cx["bound"]) if isinstance(
        cx["bound"], list) else lo > cx["bound"]
    assert "check-bound:" in err  # progress on stderr
    argv = shlex.split(cx["reproduce"])[1:]
    assert main(argv) == 1
    capsys.readouterr()
    for fmt in ("text", "md", "html"):
        assert doc["verdict"].upper() in render(doc, fmt)


def test_a_broken_document_does_not_validate():
    assert validate({"schema": "dpverify/check-bound-v1", "verdict": "maybe"})


def _misbehaving(eps0: float, k: int, delta: float) -> object:
    if k == 1:
        raise RuntimeError("boom")
    if k == 2:
        return math.nan
    if k == 3:
        return -1.0
    if k == 4:
        return complex(1, 1)
    if k == 5:
        time.sleep(30)
    return k * eps0


def test_a_misbehaving_target_is_recorded_per_point_not_a_crash():
    r = dpverify.check_bound(_misbehaving, against="optimal-composition",
                             region={"eps0": (0.1, 1), "k": (1, 6), "delta": (1e-6, 1e-3)},
                             eval_timeout=0.2, budget=60, seed=0)
    kinds = r.document["target_problems"]["by_kind"]
    assert {"raised", "nan", "negative", "complex", "timeout"} <= set(kinds)
    assert r.verdict == "inconclusive" and r.exit_code == 1
    assert validate(dict(r.document)) == []


def test_a_budget_that_runs_out_is_inconclusive_never_passed():
    r = dpverify.check_bound("k*eps0", against="optimal-composition",
                             region={"eps0": (0.01, 1), "k": (1, 200), "delta": (1e-10, 1e-2)},
                             budget=0.05, seed=0)
    assert r.verdict == "inconclusive" and not r.sound


def test_api_and_pytest_helper():
    r = assert_sound_bound("k*eps0", against="optimal-composition", region=SMALL_REGION, seed=0)
    assert r.sound and r.tightness["min"] >= 1
    with pytest.raises(UnsoundBound, match="counterexample"):
        assert_sound_bound("eps0", against="optimal-composition", region=SMALL_REGION, seed=0)


def test_map_renames_the_parameters_of_a_callable():
    def bound(epsilon: float, n: int, d: float) -> float:
        return n * epsilon

    r = dpverify.check_bound(bound, against="optimal-composition", region={
        "epsilon": (0.1, 1), "n": (1, 8), "d": (1e-6, 1e-3)},
        map={"epsilon": "eps0", "n": "k", "d": "delta"}, seed=0, budget=60)
    assert r.verdict == "passed"


def _readme_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Validating a new bound", 1)[1].split("\n## ", 1)[0]
    return [c.strip() for c in re.findall(r"```\n(dpverify check-bound .*?)\n```", section)]


def test_the_three_readme_examples_run_as_written(capsys):
    commands = _readme_commands()
    assert len(commands) == 3
    outcomes = []
    for command in commands:
        code = main([*shlex.split(command)[1:], "--format", "json"])
        doc = json.loads(capsys.readouterr().out)
        outcomes.append((code, doc))
    (c1, sound), (c2, unsound), (_, tight) = outcomes
    assert c1 == 0 and sound["verdict"] == "proved" and sound["tightness"]["min"] > 1
    assert c2 == 1 and unsound["verdict"] == "failed" and unsound["counterexample"]
    assert tight["verdict"] != "failed"
    assert tight["tightness"]["min"] == pytest.approx(1, abs=1e-12)
    assert tight["tightness"]["max"] == pytest.approx(1, abs=1e-12)


def test_html_report_has_the_plots(tmp_path, capsys):
    code = main(["check-bound", "eps0", "--against", "optimal-composition", *SMALL,
                 "--format", "html", "--out", str(tmp_path)])
    page = capsys.readouterr().out
    assert code == 1 and page.count("<svg") >= 4  # one curve per parameter and the heat map
    assert {p.name for p in tmp_path.iterdir()} == {"check-bound.json", "check-bound.md",
                                                   "check-bound.html"}
    assert validate(json.loads((tmp_path / "check-bound.json").read_text())) == []


def test_delta_kind_and_lower_bounds():
    # delta <= 1 always holds; delta(eps) >= 0 is a sound lower bound; delta >= 1 is not
    assert dpverify.check_bound("1", against="optimal-composition", kind="delta", region={
        "eps0": (0.1, 1), "k": (1, 8), "eps": (0, 3)}, seed=0).verdict == "proved"
    low = dpverify.check_bound("k*eps0*(exp(eps0)-1)/(exp(eps0)+1)",
                               against="optimal-composition", lower=True, region=SMALL_REGION,
                               seed=0)
    assert low.verdict == "proved"
    bad = dpverify.check_bound("k*eps0", against="optimal-composition", lower=True,
                               region=SMALL_REGION, seed=0)
    assert bad.verdict == "failed"
    cx = bad.counterexample
    assert cx is not None and min(cx["bound"]) > cx["reference"][1]


def _sum_of_eps(eps_list: list[float], delta: float) -> float:
    return sum(eps_list)


def test_heterogeneous_composition_with_a_list_parameter():
    r = dpverify.check_bound(_sum_of_eps, against="heterogeneous-composition",
                             region={"delta": (1e-8, 1e-2)}, fixed={"eps_list": "0.1,0.5,1"},
                             seed=0, budget=60)
    assert r.verdict == "passed"


def test_an_internal_error_is_the_verdict_error_with_exit_3(monkeypatch, capsys):
    from dpverify.verifiers.bounds import tightness

    def broken(*_args: object, **_kw: object) -> None:
        raise RuntimeError("planted")

    monkeypatch.setattr(tightness, "ratio_summary", broken)
    code, out, _ = _run(capsys, "k*eps0", "--against", "optimal-composition", *SMALL,
                        "--format", "json")
    doc = json.loads(out)
    assert code == 3 and doc["verdict"] == "error" and "planted" in doc["message"]
    assert validate(doc) == []
