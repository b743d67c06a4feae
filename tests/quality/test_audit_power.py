"""Power of the accountant audit: planted bugs in fake accountants must get the right verdict.

Each buggy accountant derives from the independent exact accountant of ``tests/test_audit.py``
and plants one defect of the kinds seen in real accountants: a forgotten composition count, an
off-by-a-factor result, the wrong neighbouring relation, a dropped delta0, NaN, a negative or
infinite value, an exception, a crash, a hang, a result that is merely loose. The audit must
call each by its name (UNSOUND, ERROR, LOOSE), never stop on one, and never accuse the exact
accountant or one that errs by float rounding only.
"""

from __future__ import annotations

import math
import os
import time
from typing import Any

import pytest

from dpverify.verifiers.accountants.audit import AuditOptions, audit, exit_code
from tests.test_audit import CLOSED, ExactAccountant, IgnoresCount, S, case

OPTS = AuditOptions(timeout=20, rel_width=1e-2, ref_seconds=10)
G10, GHET, GREPL, LAP1, RR10, PUREHET, APPROX = CLOSED


def _verdicts(acc: Any, cases: list[Any], opts: AuditOptions = OPTS) -> dict[tuple[str, str], str]:
    return {(r["scenario"], r["query"]): r["verdict"] for r in audit([acc], cases, opts)}


class OffByFactor(ExactAccountant):
    """Reports 80% of eps and half of delta."""

    name = "off-by-factor"

    def epsilon(self, scenario: Any, delta: float) -> float:
        return 0.8 * super().epsilon(scenario, delta)

    def delta(self, scenario: Any, epsilon: float) -> float:
        return 0.5 * super().delta(scenario, epsilon)


class SlightlyLow(ExactAccountant):
    """Under-reports eps by 0.1% — small, but a certified privacy bug."""

    name = "slightly-low"

    def epsilon(self, scenario: Any, delta: float) -> float:
        return super().epsilon(scenario, delta) * (1 - 1e-3)


class RoundingLow(ExactAccountant):
    """Off by 1e-12 relative: float rounding, not a bug."""

    name = "rounding-low"

    def epsilon(self, scenario: Any, delta: float) -> float:
        return super().epsilon(scenario, delta) * (1 - 1e-12)

    def delta(self, scenario: Any, epsilon: float) -> float:
        return super().delta(scenario, epsilon) * (1 - 1e-12)


class WrongRelation(ExactAccountant):
    """Accounts every scenario as add/remove (the replace-one sensitivity 2 is forgotten)."""

    name = "wrong-relation"

    def _build(self, sc: Any) -> Any:
        d = sc.to_dict()
        d["neighboring"] = "add_remove"
        return super()._build(S(d["events"]))


class IgnoresDelta0(ExactAccountant):
    """Treats (eps0, delta0)-DP as pure eps0-DP."""

    name = "ignores-delta0"

    def _build(self, sc: Any) -> Any:
        d = sc.to_dict()
        for ev in d["events"]:
            if ev["mechanism"] == "approx_dp":
                ev["mechanism"] = "pure_dp"
                del ev["delta0"]
        return super()._build(S(d["events"], d["neighboring"]))


class Misbehaves(ExactAccountant):
    """One misbehaviour per scenario id (chosen from sigma), the rest exact."""

    name = "misbehaves"

    def epsilon(self, scenario: Any, delta: float) -> Any:
        sigma = scenario["events"][0].get("sigma")
        if sigma == 1.1:
            return float("nan")
        if sigma == 1.2:
            raise RuntimeError("internal accountant failure")
        if sigma == 1.3:
            time.sleep(60)
        if sigma == 1.4:
            return -1.0
        if sigma == 1.5:
            return math.inf
        if sigma == 1.6:
            os._exit(3)
        if sigma == 1.7:
            return None
        return super().epsilon(scenario, delta)

    def delta(self, scenario: Any, epsilon: float) -> float:
        sigma = scenario["events"][0].get("sigma")
        if sigma == 1.5:
            return 1.5  # a delta above 1
        return super().delta(scenario, epsilon)


class TooLoose(ExactAccountant):
    name = "too-loose"

    def epsilon(self, scenario: Any, delta: float) -> float:
        return 3 * super().epsilon(scenario, delta)


def test_ignoring_the_count_is_unsound() -> None:
    v = _verdicts(IgnoresCount(), [G10, RR10, LAP1])
    assert v[("g10", "epsilon@delta=1e-5")] == "UNSOUND"
    assert v[("g10", "delta@epsilon=1")] == "UNSOUND"
    assert v[("rr10", "epsilon@delta=1e-6")] == "UNSOUND"
    # a single step has nothing to forget
    assert v[("lap1", "epsilon@delta=0.001")] == "SOUND"


def test_off_by_a_factor_is_unsound_with_its_margin() -> None:
    recs = audit([OffByFactor()], [G10, PUREHET], OPTS)
    assert {r["verdict"] for r in recs} == {"UNSOUND"}
    eps = next(r for r in recs if r["scenario"] == "g10" and r["query"].startswith("epsilon"))
    assert eps["margin"]["relative"] == pytest.approx(0.2, rel=1e-6)
    assert eps["reproduce"].startswith("dpverify audit --accountant off-by-factor")
    assert exit_code(recs) == 1


def test_small_under_reports_are_found_and_rounding_is_not() -> None:
    assert set(_verdicts(SlightlyLow(), [G10, APPROX]).values()) >= {"UNSOUND"}
    low = _verdicts(SlightlyLow(), [G10])
    assert low[("g10", "epsilon@delta=1e-5")] == "UNSOUND"
    assert low[("g10", "epsilon@delta=1e-10")] == "UNSOUND"
    assert set(_verdicts(RoundingLow(), [G10, RR10]).values()) == {"SOUND"}


def test_wrong_relation_and_dropped_delta0_are_unsound() -> None:
    v = _verdicts(WrongRelation(), [GREPL, G10])
    assert v[("g-repl", "epsilon@delta=1e-5")] == "UNSOUND"
    assert v[("g-repl", "delta@epsilon=4")] == "UNSOUND"
    assert v[("g10", "epsilon@delta=1e-5")] == "SOUND"  # add/remove is its own relation
    v = _verdicts(IgnoresDelta0(), [APPROX])
    assert v[("approx", "epsilon@delta=1e-7")] == "UNSOUND"  # the truth is eps = inf
    assert v[("approx", "delta@epsilon=1")] == "UNSOUND"


def test_misbehaviour_is_an_error_and_never_stops_the_audit() -> None:
    cases = [case(f"s{k}", [{"mechanism": "gaussian", "sigma": 1.0 + k / 10, "count": 3}],
                  [1e-5], [1.0]) for k in range(1, 9)]
    opts = AuditOptions(timeout=1.5, rel_width=1e-2, ref_seconds=10)
    t0 = time.monotonic()
    recs = audit([Misbehaves()], cases, opts)
    assert time.monotonic() - t0 < 30
    v = {(r["scenario"], r["query"].split("@")[0]): r for r in recs}
    assert len(recs) == 16  # every query has its record
    expect = {"s1": "is NaN", "s2": "RuntimeError: internal accountant failure",
              "s3": "timeout", "s4": "negative", "s5": "inf where a finite value is due",
              "s6": "worker died", "s7": "NoneType"}
    for sid, text in expect.items():
        r = v[(sid, "epsilon")]
        assert r["verdict"] == "ERROR" and text in r["detail"], r
        assert r["reproduce"].startswith("dpverify audit")
    assert v[("s5", "delta")]["verdict"] == "ERROR" and "above 1" in v[("s5", "delta")]["detail"]
    assert v[("s8", "epsilon")]["verdict"] == "SOUND"  # the audit went on after the hang
    assert all(v[(s, "delta")]["verdict"] == "SOUND" for s in ("s1", "s2", "s3", "s4", "s6"))
    assert exit_code(recs) == 1


def test_loose_is_reported_with_its_ratio_and_the_factor_is_configurable() -> None:
    recs = audit([TooLoose()], [G10], OPTS)
    eps = [r for r in recs if r["query"].startswith("epsilon")]
    assert {r["verdict"] for r in eps} == {"LOOSE"} and eps[0]["ratio"] == pytest.approx(3)
    opts = AuditOptions(timeout=20, loose_factor=4.0, rel_width=1e-2, ref_seconds=10)
    assert {r["verdict"] for r in audit([TooLoose()], [G10], opts)} == {"SOUND"}
    assert exit_code(recs) == 0  # LOOSE is waste, not a privacy bug


def test_the_exact_accountant_passes_the_quick_set() -> None:
    from dpverify.verifiers.accountants.sets import scenario_set

    cases, _ = scenario_set("quick")
    recs = audit([ExactAccountant()], cases,
                 AuditOptions(timeout=20, rel_width=1e-2, ref_seconds=10))
    answered = [r for r in recs if r["verdict"] != "UNSUPPORTED"]
    assert len(answered) >= 14
    assert {r["verdict"] for r in answered} == {"SOUND"}, \
        [r for r in answered if r["verdict"] != "SOUND"]


def test_a_buggy_accountant_is_caught_through_the_cache_and_in_any_number_type(
        tmp_path: Any) -> None:
    """The cache and the exact judgement must not hide a bug: an accountant 20% low is
    UNSOUND whether it answers floats, numpy scalars, Fractions or Decimals, from freshly
    computed and from cached references alike, beside accountants answering absurd values."""
    from decimal import Decimal
    from fractions import Fraction

    import numpy as np

    from dpverify.verifiers.accountants.audit import Audit, Named
    from dpverify.verifiers.accountants.cache import ReferenceStore
    from tests.accountant_zoo import HUGE, NAN, Scaled

    kinds = {"float": float, "numpy": np.float64, "fraction": Fraction,
             "decimal": lambda x: Decimal(repr(float(x)))}
    buggy = [Named(f"low-{k}", Scaled(f"low-{k}", Fraction(4, 5), f)) for k, f in kinds.items()]
    crowd = [Named("huge", HUGE), Named("nan", NAN)]
    for _ in ("cold", "warm"):
        store = ReferenceStore(2e-2, 10, directory=tmp_path)
        recs = Audit([*crowd, *buggy], [G10, RR10, PUREHET], OPTS, reference=store.bound).run()
        for r in recs:
            if r["accountant"].startswith("low-"):
                assert r["verdict"] == "UNSOUND", r
    assert store.counts["computed"] == 0 and store.counts["disk"] > 0  # the warm pass read it
