"""The power of the hypothesis-DP claims: planted wrong variants must be marked ``failed``,
and the correct ones must not raise a false alarm.

Planted errors
--------------
- GCE-V1 with the HDP bound composed over ``m - 1`` databases instead of ``m`` (the worst
  allowed pair differs in m rounds; with ``m - 1`` the bound is too small). Claims 1 and 2 of
  GCE-V1 compare the formula with the brute-force maximum over allowed point pairs.
- Alg. 3 (GCE-A3) that drops the last remainder: when the heavier tuple is the last of its
  list, its remainder is not put back, so weight is lost. Claim 1 (every vector keeps its
  total weight) must catch it; claims 2 and 3 may still hold.

Each planted theorem is a :class:`~theorems.core.Theorem` value built here (never registered)
and checked through :func:`verifiers.dispatch.run_claim_check`, the code path of a real run.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Claim
from dpverify.theorems.core import Source, Theorem
from dpverify.theorems.formulas.hdp_bounds import v1_delta
from dpverify.theorems.hypothesis_dp.algorithms import a3_claims
from dpverify.theorems.hypothesis_dp.universal import v1_universal
from dpverify.theorems.hypothesis_dp.worst_pair import v1_claims
from dpverify.theorems.numerics import gce
from dpverify.verifiers.dispatch import PROFILES, run_claim_check
from dpverify.verifiers.verdict import Status, Verdict

QUICK = PROFILES["quick"]


def _theorem(claims: tuple[Claim, ...]) -> Theorem:
    return Theorem(id="QUALITY-HDP", title="planted by a power test", family="quality",
                   source=Source("tests/quality/test_hdp_power.py", "planted"),
                   types=("EXACT",), confidence=("HIGH",), statement="planted",
                   domain="planted", claims=claims)


def _run(claims: tuple[Claim, ...], number: int, check: int = 0) -> Verdict:
    return run_claim_check(_theorem(claims), number, check, QUICK, budget_seconds=60)


def _assert_failed(v: Verdict) -> None:
    assert v.status is Status.FAILED, (v.status, v.summary)
    assert v.evidence["counterexample"] is not None
    assert v.evidence["certified"] is True
    assert v.evidence["reproduce"].startswith("dpverify run QUALITY-HDP --claim")


# ------------------------------------------------------------------------------------------
# GCE-V1 with m - 1 databases


def v1_m_minus_one(ctx: Any, eps_list: Any, m: int, eps: Any, neighboring: str = "add_remove",
                   delta_list: Any = ()) -> Any:
    """Planted: the worst m - 1 rounds composed instead of the worst m."""
    return v1_delta(ctx, eps_list, m - 1, eps, neighboring, delta_list)


def test_v1_with_m_minus_one_databases_is_caught() -> None:
    planted = v1_claims(v1_m_minus_one)
    _assert_failed(_run(planted, 1))
    _assert_failed(_run(planted, 2))


def test_v1_correct_formula_is_certified() -> None:
    claims = v1_claims()
    for number in (1, 2):
        v = _run(claims, number)
        assert v.status is Status.CERTIFIED, v.summary  # one listed point: not a region proof
        assert v.evidence["points_checked"] == v.evidence["points_total"] == 1


def test_v1_universal_claim_catches_m_minus_one() -> None:
    """The universal claim (seeded eps_lists, m, eps searched by hypothesis) catches the planted
    formula in its add/remove and replace-one comparisons."""
    planted = (v1_universal(5, v1_m_minus_one),)
    _assert_failed(_run(planted, 5, 0))
    _assert_failed(_run(planted, 5, 1))


# ------------------------------------------------------------------------------------------
# Alg. 3 that drops the last remainder


def refine_drops_last_remainder(t0: gce.Hypothesis, t1: gce.Hypothesis) -> gce.Refined:
    """Planted: Alg. 3 where the remainder of a split is kept only if its list has further
    tuples (the remainder of the last tuple is lost)."""
    q0 = deque((b, Fraction(w)) for b, w in t0)
    q1 = deque((b, Fraction(w)) for b, w in t1)
    r0: gce.RefinedList = []
    r1: gce.RefinedList = []
    while q0 and q1:
        b0, w0 = q0.popleft()
        b1, w1 = q1.popleft()
        w = min(w0, w1)
        r0.append((b0, w))
        r1.append((b1, w))
        if w0 > w1 and q0:
            q0.appendleft((b0, w0 - w1))
        elif w1 > w0 and q1:
            q1.appendleft((b1, w1 - w0))
    return r0, r1


def test_refinement_dropping_the_last_remainder_is_caught() -> None:
    planted = a3_claims(refine_drops_last_remainder)
    _assert_failed(_run(planted, 1))
    _assert_failed(_run(planted, 4, 0))  # the property search over seeded pairs
    enumeration = _run(planted, 4, 1)  # the exhaustive enumeration of the finite domain
    assert enumeration.status is Status.FAILED, enumeration.summary


def test_correct_refinement_is_certified_on_its_instances() -> None:
    claims = a3_claims()
    for number in (1, 2, 3):
        v = _run(claims, number)
        assert v.status is Status.CERTIFIED, v.summary  # generated instances only
        assert v.evidence["instances_checked"] == QUICK.oracle_instances
        assert v.evidence["instances_undecided"] == 0
    assert _run(claims, 4, 0).status is Status.PASSED
    assert _run(claims, 4, 1).status is Status.PROVED
