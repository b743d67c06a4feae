"""The public API (``dpverify/__init__.py``): its doctests, the README's example, bad input."""

from __future__ import annotations

import doctest
import re
from fractions import Fraction
from pathlib import Path

import pytest

import dpverify
from dpverify.theorems.errors import InvalidParameter, UnknownName

README = Path(__file__).resolve().parents[1] / "README.md"


def test_module_doctests() -> None:
    result = doctest.testmod(dpverify, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_readme_python_api_example_runs_as_written() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Python API"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    exec(compile(code.group(1), "README.md (Python API)", "exec"), {})


def test_evaluate_is_exact_on_the_inputs_and_rigorous() -> None:
    e = dpverify.evaluate("BW-ANALYTIC-GAUSS.eps", sigma=1, delta="1e-5")
    assert e.text.startswith("4.37717809568122")
    assert e.params["delta"] == Fraction(1, 10**5)
    lo, hi = e.enclosure
    assert hi - lo < Fraction(1, 10**15)
    assert abs(Fraction(e.text) - lo) <= Fraction(1, 10**14)  # the text is rounded to 15 digits
    # a float is taken as the decimal of its repr, never as its binary expansion
    assert dpverify.evaluate("BW-ANALYTIC-GAUSS.eps", sigma=1.0, delta=1e-5).text == e.text


def test_bad_input_names_the_parameter() -> None:
    with pytest.raises(InvalidParameter, match="delta"):
        dpverify.evaluate("BW-ANALYTIC-GAUSS.eps", sigma=1, delta="1.5")
    with pytest.raises(InvalidParameter, match="digits"):
        dpverify.evaluate("BW-ANALYTIC-GAUSS.eps", digits=0, sigma=1, delta="1e-5")
    with pytest.raises(InvalidParameter, match="family"):
        dpverify.theorems("no-such-family")
    with pytest.raises(UnknownName):
        dpverify.get("NO-SUCH-ID")


def test_family_filter_partitions_the_catalogue() -> None:
    every = dpverify.theorems()
    fams = {t.family for t in every}
    assert sum(len(dpverify.theorems(f)) for f in fams) == len(every)


def test_audit_of_several_accountants_gives_each_its_own_records() -> None:
    from tests.accountant_zoo import EXACT
    from tests.test_audit import IgnoresCount

    cases = [{"id": "g7", "scenario": {"neighboring": "add_remove", "events": [
        {"mechanism": "gaussian", "sigma": 2.25, "count": 7, "sampling": None}]},
        "deltas": [1e-5], "epsilons": [1.25]}]
    both = dpverify.audit([EXACT, IgnoresCount()], cases, timeout=30)
    alone = [dpverify.audit(a, cases, timeout=30) for a in (EXACT, IgnoresCount())]

    def judged(records):
        return [(r["accountant"], r["query"], r["verdict"]) for r in records]

    assert judged(both) == judged(alone[0]) + judged(alone[1])
    assert {r["verdict"] for r in alone[0]} == {"SOUND"}
    assert {r["verdict"] for r in alone[1]} == {"UNSOUND"}
