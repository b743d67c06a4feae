"""The audit survives anything an accountant answers or does, streams its records, keys
accountants by spec, refuses absurd input up front, and is never green when nothing was checked.

The fake accountants are in :mod:`tests.accountant_zoo`; the references they are judged against
come from the product (closed forms) and the exact accountant of :mod:`tests.test_audit`.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dpverify.verifiers.accountants.audit import (
    VERDICTS,
    Audit,
    AuditOptions,
    Named,
    audit,
    checked,
    exit_code,
)
from dpverify.verifiers.accountants.calls import pack
from dpverify.verifiers.accountants.judge import json_number, judge
from dpverify.verifiers.accountants.reference import Bound
from tests import accountant_zoo as zoo
from tests.test_audit import CLOSED, FAKE_FILE, case

ROOT = Path(__file__).resolve().parents[1]
G10 = CLOSED[0]
OPTS = AuditOptions(timeout=20, rel_width=1e-2, ref_seconds=10)
TINY_REF = Bound(Fraction(1, 10**300), Fraction(2, 10**300), "t")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(tmp_path / "cache"))


def _cli(*argv: str, timeout: float = 300, cwd: Path = ROOT,
         pythonpath: tuple[Path, ...] = ()) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (*pythonpath, ROOT)))}
    return subprocess.run([sys.executable, "-m", "dpverify.reports.cli", *argv], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=timeout)


# ==========================================================================================
# total judgement


ANSWERS = [0, 1, 10**400, -(10**400), Fraction(1, 10**400), Fraction(10**500, 3), 0.9, 1e-320,
           1e308, math.inf, -math.inf, math.nan, -1.0, np.float64(0.5), np.float32(2.5),
           np.int64(3), Decimal("1e-400"), Decimal("NaN"), np.array(0.25)]


@pytest.mark.parametrize("answer", ANSWERS, ids=repr)
@pytest.mark.parametrize("kind", ["epsilon", "delta"])
def test_every_numeric_answer_gets_a_verdict_with_a_reason(answer: Any, kind: str) -> None:
    status, claimed = pack(answer)
    assert status == "ok"
    for ref in (TINY_REF, Bound(Fraction(1), Fraction(2), "t"), Bound(math.inf, math.inf, "t"),
                Bound(Fraction(0), Fraction(0), "t")):
        verdict, detail, extra = judge(kind, claimed, ref, 1.5, 1e-6)
        assert verdict in VERDICTS and detail
        json.dumps(extra, allow_nan=False)  # JSON-safe: huge values are strings
        json.dumps(json_number(claimed), allow_nan=False)


@pytest.mark.parametrize("answer", [None, "0.5", True, [1.0], {"eps": 1}, object()], ids=repr)
def test_non_numbers_are_bad_answers(answer: Any) -> None:
    status, why = pack(answer)
    assert status == "bad" and "not a number" in why


def test_the_issue_repro_a_huge_ratio_is_loose_not_a_crash() -> None:
    # delta = 0.9 against a certified ~1e-300: float(c / hi) overflowed before
    verdict, _, extra = judge("delta", 0.9, TINY_REF, 1.5, 1e-6)
    assert verdict == "LOOSE" and extra["log10_ratio"] == pytest.approx(299.65, abs=0.01)
    assert isinstance(extra["ratio"], float) and extra["ratio"] > 1e299
    verdict, _, extra = judge("epsilon", 10**400, Bound(Fraction(1), Fraction(2), "t"), 1.5, 0)
    assert verdict == "LOOSE" and extra["ratio"].endswith("e+399")
    verdict, _, extra = judge("epsilon", Fraction(1, 10**400), Bound(Fraction(1), Fraction(1), "t"),
                              1.5, 1e-6)
    assert verdict == "UNSOUND" and extra["margin"]["relative"] == pytest.approx(1.0)


def test_the_audit_judges_a_tiny_reference_end_to_end() -> None:
    tiny = case("tiny", [{"mechanism": "gaussian", "sigma": 2.0, "count": 10}], [], [100.0])
    recs = audit([zoo.DELTA_09, zoo.EXACT], [tiny], OPTS)
    assert [r["verdict"] for r in recs] == ["LOOSE", "SOUND"]
    assert recs[0]["reference"][1] < 1e-300


def test_the_zoo_is_judged_and_the_audit_goes_on() -> None:
    zoo_members = [zoo.HUGE, zoo.HUGE_FRACTION, zoo.TINY, zoo.NAN, zoo.NEG, zoo.INF, zoo.NONE,
                   zoo.STRING, zoo.BOOL, zoo.NUMPY64, zoo.NUMPY32_UP, zoo.NUMPY_INT,
                   zoo.DECIMAL, zoo.FRACTION, zoo.RAISES, zoo.OS_EXIT, zoo.HALF]
    recs = audit([Named(a.name, a) for a in zoo_members], [G10], OPTS)
    assert len(recs) == 3 * len(zoo_members)
    by = {}
    for r in recs:
        by.setdefault(r["accountant"], set()).add(r["verdict"])
        json.dumps(r, allow_nan=False)
    assert by["huge"] == {"LOOSE", "ERROR"}  # LOOSE eps; a delta of 1e400 is above 1
    assert by["tiny"] == {"UNSOUND"}
    for name in ("nan", "negative", "none", "string", "bool", "raises", "os-exit"):
        assert by[name] == {"ERROR"}, name
    for name in ("numpy-float64", "numpy-float32-up", "decimal", "fraction"):
        assert by[name] <= {"SOUND", "LOOSE"}, (name, by[name])
    assert by["half"] == {"UNSOUND"}  # the buggy accountant is still caught in the crowd
    assert exit_code(recs) == 1


def test_accountants_with_the_same_name_are_two_rows() -> None:
    recs = audit([Named("tests.accountant_zoo:TWIN_A", zoo.TWIN_A),
                  Named("tests.accountant_zoo:TWIN_B", zoo.TWIN_B)], [G10], OPTS)
    rows: dict[str, set[str]] = {}
    for r in recs:
        rows.setdefault(r["accountant"], set()).add(r["verdict"])
    assert rows == {"twin (tests.accountant_zoo:TWIN_A)": {"SOUND"},
                    "twin (tests.accountant_zoo:TWIN_B)": {"UNSOUND"}}
    assert {r["spec"] for r in recs} == {"tests.accountant_zoo:TWIN_A",
                                         "tests.accountant_zoo:TWIN_B"}


def test_an_internal_failure_is_that_querys_error_and_exit_3() -> None:
    from dpverify.verifiers.accountants.reference import reference_for

    def flaky(c: Any, kind: str, value: float) -> Bound:
        if kind == "delta":
            raise RuntimeError("planted bug in the reference")
        ref = reference_for(c.scenario, rel_width=1e-2, max_seconds=10)
        return ref.epsilon(value)

    recs = Audit([Named("exact", zoo.EXACT)], [G10], OPTS, reference=flaky).run()
    assert [r["verdict"] for r in recs] == ["SOUND", "SOUND", "ERROR"]
    assert recs[2]["internal"] is True and "planted bug" in recs[2]["detail"]
    assert exit_code(recs) == 3


# ==========================================================================================
# prepare() in a worker, process groups


@pytest.mark.parametrize("bad, text", [(zoo.SYS_EXIT_PREPARE, "sys.exit(0)"),
                                       (zoo.OS_EXIT_PREPARE, "exit code 0"),
                                       (zoo.SLEEP_PREPARE, "timeout")])
def test_prepare_that_exits_or_hangs_is_that_accountants_error(bad: Any, text: str) -> None:
    opts = AuditOptions(timeout=2, rel_width=1e-2, ref_seconds=10)
    t0 = time.monotonic()
    recs = audit([bad, zoo.EXACT], [G10], opts)
    assert time.monotonic() - t0 < 30
    mine = [r for r in recs if r["accountant"] == bad.name]
    assert len(mine) == 3 and {r["verdict"] for r in mine} == {"ERROR"}
    assert all(text in r["detail"] for r in mine), mine[0]["detail"]
    assert {r["verdict"] for r in recs if r["accountant"] == "exact (tests)"} == {"SOUND"}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie of someone else's is dead too
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_a_child_process_of_the_accountant_dies_with_its_call(tmp_path: Path) -> None:
    from dpverify.verifiers.accountants.calls import call

    pidfile = tmp_path / "child.pid"
    st, _, _ = call(zoo.SpawnsChild(str(pidfile)), "epsilon", G10.scenario, 1e-5, 3)
    assert st == "timeout"
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_a_killed_audit_keeps_its_records_and_leaves_no_worker(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    (tmp_path / "slow_acc.py").write_text(
        "from tests.accountant_zoo import SpawnsChild\n"
        f"ACC = SpawnsChild({str(pidfile)!r})\n"
        "class FirstThenHang(SpawnsChild):\n"
        "    name = 'first-then-hang'\n"
        "    def epsilon(self, scenario, delta):\n"
        "        if scenario['events'][0].get('sigma') == 2.0:\n"
        "            return 100.0\n"
        "        return super().epsilon(scenario, delta)\n"
        "    delta = epsilon\n"
        f"SLOW = FirstThenHang({str(pidfile)!r})\n")
    sc = tmp_path / "sc.json"
    sc.write_text(json.dumps(FAKE_FILE))
    out = tmp_path / "audit.json"
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}:{ROOT}"}
    proc = subprocess.Popen([sys.executable, "-m", "dpverify.reports.cli", "audit",
                             "--accountant", "slow_acc:SLOW", "--scenarios", str(sc),
                             "--timeout", "300", "--format", "json", "-o", str(out)],
                            cwd=tmp_path, env=env, stderr=subprocess.DEVNULL)
    partial = Path(f"{out}.partial.jsonl")
    deadline = time.monotonic() + 120
    while not pidfile.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pidfile.exists(), "the accountant never reached its hanging scenario"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    lines = [json.loads(x) for x in partial.read_text().splitlines()]
    assert [r["scenario"] for r in lines] == ["g10", "g10"]  # what was judged is kept
    assert not out.exists()
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), "the accountant's child outlived the killed audit"


# ==========================================================================================
# CLI: streaming, gates, flags, modules, scenario files


def test_streamed_records_are_removed_after_the_final_write(tmp_path: Path) -> None:
    sc = tmp_path / "sc.json"
    sc.write_text(json.dumps(FAKE_FILE))
    out = tmp_path / "a.json"
    r = _cli("audit", "--accountant", "tests.accountant_zoo:EXACT", "--scenarios", str(sc),
             "--format", "json", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert len(json.loads(out.read_text())) == 3
    assert not Path(f"{out}.partial.jsonl").exists()


def test_nothing_checked_is_not_green(tmp_path: Path) -> None:
    sc = tmp_path / "sc.json"
    sc.write_text(json.dumps(FAKE_FILE))
    r = _cli("audit", "--accountant", "tests.accountant_zoo:RAISES", "--scenarios", str(sc))
    assert r.returncode == 1 and "nothing was checked: 0 of 3" in r.stderr
    assert "pip install 'dpverify[accountants]'" in r.stderr
    assert "nothing was checked" in r.stdout  # in the report too
    unsupported = tmp_path / "uns.py"
    unsupported.write_text("class U:\n    name = 'u'\n    def epsilon(self, s, d):\n"
                           "        raise NotImplementedError('no')\n    delta = epsilon\n")
    env_cwd = tmp_path
    r = _cli("audit", "--accountant", "uns:U", "--scenarios", str(sc), cwd=env_cwd)
    assert r.returncode == 1 and "nothing was checked" in r.stderr and "3 UNSUPPORTED" in r.stderr
    r = _cli("audit", "--accountant", "uns:U", "--scenarios", str(sc), "--min-checked", "0",
             cwd=env_cwd)
    assert r.returncode == 0, r.stderr
    r = _cli("audit", "--accountant", "tests.accountant_zoo:EXACT", "--scenarios", str(sc),
             "--min-checked", "4")
    assert r.returncode == 1 and "too little was checked: 3 of 3" in r.stderr


def test_audit_without_accountant_libraries_exits_non_zero(tmp_path: Path) -> None:
    from dpverify.verifiers.accountants.adapters import EXTRA

    # the libraries are made unimportable for the audit process, installed or not
    for top in EXTRA:
        (tmp_path / f"{top}.py").write_text(f"raise ImportError('{top} blocked by the test')\n")
    r = _cli("audit", "--id", "gauss-k10", pythonpath=(tmp_path,))
    assert r.returncode == 1 and "nothing was checked" in r.stderr


@pytest.mark.parametrize("flag, value", [
    ("--timeout", "inf"), ("--timeout", "nan"), ("--timeout", "-1"), ("--timeout", "1e300"),
    ("--loose-factor", "inf"), ("--loose-factor", "nan"), ("--loose-factor", "0.5"),
    ("--tolerance", "nan"), ("--tolerance", "-1"), ("--tolerance", "inf"),
    ("--min-checked", "-1"),
])
def test_bad_flags_exit_2_naming_the_flag(flag: str, value: str, capsys: Any) -> None:
    from dpverify.reports.cli import main

    assert main(["audit", "--accountant", "tests.accountant_zoo:EXACT", flag, value]) == 2
    err = capsys.readouterr().err
    assert flag in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("body, text", [
    ("import sys\nsys.exit(5)\n", "called sys.exit(5)"),
    ("raise RuntimeError('broken\\nmodule')\n", "failed: RuntimeError: broken module"),
    ("import no_such_dependency_xyz\n", "cannot import module"),
])
def test_accountant_modules_that_fail_on_import_exit_2(tmp_path: Path, body: str,
                                                      text: str) -> None:
    (tmp_path / "badmod.py").write_text(body)
    r = _cli("audit", "--accountant", "badmod:ACC", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "badmod" in r.stderr and text in r.stderr and len(r.stderr.strip().splitlines()) == 1


def _scenario_file(tmp_path: Path, event: dict[str, Any], **query: Any) -> Path:
    f = tmp_path / "s.json"
    f.write_text(json.dumps([{"id": "absurd", "scenario": {"neighboring": "add_remove",
                                                           "events": [event]},
                              **(query or {"deltas": [1e-5]})}]))
    return f


@pytest.mark.parametrize("event, query, text", [
    ({"mechanism": "gaussian", "sigma": 1e308, "count": 1}, {}, "sigma must be in"),
    ({"mechanism": "gaussian", "sigma": 1, "count": 1e300}, {}, "count must be <="),
    ({"mechanism": "laplace", "b": 1, "count": 1,
      "sampling": {"scheme": "poisson", "q": 1.5}}, {}, "q must be in (0, 1]"),
    ({"mechanism": "laplace", "b": 1, "count": 1,
      "sampling": {"scheme": "poisson", "q": 1e-300}}, {}, "q must be >="),
    ({"mechanism": "pure_dp", "eps0": 1e300, "count": 1}, {}, "eps0 must be <="),
    ({"mechanism": "gaussian", "sigma": 1, "count": 1}, {"deltas": [1e-300]}, "deltas must be"),
    ({"mechanism": "gaussian", "sigma": 1, "count": 1}, {"epsilons": [1e300]},
     "epsilons must be in"),
])
def test_absurd_scenarios_exit_2_naming_file_scenario_and_parameter(
        tmp_path: Path, event: dict[str, Any], query: dict[str, Any], text: str) -> None:
    f = _scenario_file(tmp_path, event, **query)
    t0 = time.monotonic()
    r = _cli("audit", "--accountant", "tests.accountant_zoo:EXACT", "--scenarios", str(f))
    assert time.monotonic() - t0 < 60
    assert r.returncode == 2, r.stderr
    assert str(f) in r.stderr and "scenario absurd" in r.stderr and text in r.stderr


@pytest.mark.parametrize("content, text", [
    (b"[" * 100000, "nested too deep"), (b"\xff\xfe[]", "not UTF-8"),
    (b'[{"id": "a", "scenario": {"neighboring": "add_remove", "events": [{"mechanism": '
     b'"gaussian", "sigma": 1, "count": 1' + b"0" * 5000 + b'}]}, "deltas": [0.1]}]',
     "not usable JSON"),
    (b"[" * 40 + b"1" + b"]" * 40, "nested deeper than"),
])
def test_unreadable_scenario_files_exit_2(tmp_path: Path, content: bytes, text: str,
                                          capsys: Any) -> None:
    from dpverify.reports.cli import main

    f = tmp_path / "s.json"
    f.write_bytes(content)
    assert main(["audit", "--scenarios", str(f)]) == 2
    err = capsys.readouterr().err
    assert text in err and str(f) in err
    assert main(["audit", "--scenarios", str(tmp_path)]) == 2
    assert "Is a directory" in capsys.readouterr().err


# ==========================================================================================
# the pytest plugin


def test_plugin_fails_an_accountant_that_answered_nothing() -> None:
    from dpverify.verifiers.pytest_plugin import assert_sound

    class Nothing:
        name = "nothing"

        def epsilon(self, scenario: Any, delta: float) -> float:
            raise NotImplementedError("not supported")

        delta = epsilon

    with pytest.raises(pytest.fail.Exception, match="nothing was checked"):
        assert_sound(Nothing(), FAKE_FILE, timeout=20)
    recs = assert_sound(Nothing(), FAKE_FILE, timeout=20, allow_unsupported=True)
    assert {r["verdict"] for r in recs} == {"UNSUPPORTED"}


def test_plugin_baseline_mode(tmp_path: Path) -> None:
    from dpverify.verifiers.pytest_plugin import assert_sound

    base = tmp_path / "baseline.json"
    with pytest.raises(pytest.fail.Exception, match="does not exist"):
        assert_sound(zoo.EXACT, FAKE_FILE, baseline=base)
    assert_sound(zoo.EXACT, FAKE_FILE, baseline=base, update_baseline=True)
    assert len(json.loads(base.read_text())) == 3
    assert_sound(zoo.EXACT, FAKE_FILE, baseline=base)  # unchanged: passes
    up = zoo.Scaled("exact (tests)", 1.01)  # sound, but every value moved by 1%
    with pytest.raises(pytest.fail.Exception, match="regression"):
        assert_sound(up, FAKE_FILE, baseline=base)
    assert_sound(up, FAKE_FILE, baseline=base, tolerance=0.02)


@pytest.mark.dpverify(scenarios=FAKE_FILE, allow_unsupported=True)
def test_plugin_marker_passes_options(dpverify_audit: Any) -> None:
    recs = dpverify_audit(zoo.EXACT)
    assert checked(recs) == 3


def test_the_reference_budget_counts_cpu_seconds_not_waiting() -> None:
    """A pass that waits (a loaded machine) must not stop the refinement early: the budget is
    CPU seconds, with the wall-clock backstop only at ``max_seconds``. A fake pass sleeps 0.2 s
    without CPU and returns a width ~ h^2: a wall-clock budget of 1 s would predict the second
    pass to overrun (0.2 s x 2^1.7 after 0.2 s) and stop at the first."""
    from dpverify.verifiers.accountants.reference import Reference

    ref = Reference(G10.scenario, rel_width=1e-3, max_seconds=1.0, force_pld=True)
    directions = ref._directions()
    h0 = ref._initial_step(directions)

    def waiting_pass(h: Fraction) -> tuple[Fraction, Fraction]:
        time.sleep(0.2)
        width = Fraction(h / h0) ** 2 / 100  # 1e-2 at the first step
        return Fraction(1) - width, Fraction(1)

    bound = ref._refine(waiting_pass, directions)
    assert len(bound.passes) >= 2
    assert bound.passes[-1]["rel_width"] <= 1e-3
    assert all(p["cpu"] < 0.1 for p in bound.passes)
