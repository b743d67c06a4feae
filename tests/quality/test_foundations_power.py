"""The power of the universal foundations claims: planted wrong formulas must be marked
``failed`` by the property search and by z3 (with a model re-checked exactly), and the correct
formulas must be proved.

Planted errors (each replaces a formula the claim builder reads from
:mod:`dpverify.theorems.foundations.universal` before the claim is built):

- BLOG-LAP: the Laplace scale ``2 s/eps`` (the mechanism is then eps/2-DP: the LLR never
  reaches eps, so the two-sided claim fails) and ``s/(2 eps)`` (2 eps-DP: the bound fails).
- PAR: parallel composition that adds the eps_i (a sequential-composition value, too large).
- SMITH-NAME-SHAME: a profile ``delta0/2`` (too small; the flat profile is delta0).
"""

from __future__ import annotations

from typing import Any

import pytest

from dpverify.theorems.claims import Claim
from dpverify.theorems.core import Source, Theorem
from dpverify.theorems.foundations import composition, universal
from dpverify.verifiers.dispatch import PROFILES, run_claim_check
from dpverify.verifiers.verdict import Status, Verdict

QUICK = PROFILES["quick"]


def _run(claim: Claim, check: int) -> Verdict:
    th = Theorem(id="QUALITY-FOUNDATIONS", title="planted by a power test", family="quality",
                 source=Source("tests/quality/test_foundations_power.py", "planted"),
                 types=("EXACT",), confidence=("HIGH",), statement="planted", domain="planted",
                 claims=(claim,))
    return run_claim_check(th, claim, check, QUICK, budget_seconds=60)


def _routes(claim: Claim, route: str) -> list[int]:
    return [i for i, c in enumerate(claim.checks) if c.route == route]


@pytest.mark.parametrize("scale", [lambda ctx, eps, s: 2 * s / eps,
                                   lambda ctx, eps, s: s / (2 * eps)],
                         ids=["2s/eps", "s/(2eps)"])
def test_wrong_laplace_scale_is_caught(monkeypatch: Any, scale: Any) -> None:
    monkeypatch.setattr(universal, "laplace_b", scale)
    claim = universal.blog_lap_universal(3)
    statuses = [_run(claim, i).status for i in range(len(claim.checks))]
    assert Status.FAILED in [statuses[i] for i in _routes(claim, "property")], statuses
    assert all(statuses[i] is Status.FAILED for i in _routes(claim, "smt")), statuses


def test_par_adding_the_eps_is_caught(monkeypatch: Any) -> None:
    def summed(ctx: Any, eps_list: Any, neighboring: str = "add_remove") -> Any:
        total = ctx.fsum(eps_list)
        return total if neighboring == "add_remove" else 2 * total

    monkeypatch.setattr(universal, "par_eps", summed)
    claim = universal.par_universal(4, composition._draw_signed_partition,
                                    composition._par_signed("replace_one"))
    statuses = [_run(claim, i).status for i in range(len(claim.checks))]
    assert all(statuses[i] is Status.FAILED for i in _routes(claim, "smt")), statuses
    assert Status.FAILED in [statuses[i] for i in _routes(claim, "property")], statuses


def test_name_shame_half_profile_is_caught(monkeypatch: Any) -> None:
    monkeypatch.setattr(universal, "name_shame_delta", lambda ctx, delta0, eps: delta0 / 2)
    claim = universal.name_shame_universal(3)
    for i in range(len(claim.checks)):
        v = _run(claim, i)
        assert v.status is Status.FAILED, (i, v.status, v.summary)


@pytest.mark.parametrize("build", [lambda: universal.blog_lap_universal(3),
                                   lambda: universal.name_shame_universal(3)],
                         ids=["BLOG-LAP", "SMITH-NAME-SHAME"])
def test_correct_formulas_are_proved(build: Any) -> None:
    claim = build()
    for i in range(len(claim.checks)):
        v = _run(claim, i)
        expected = Status.PROVED if claim.checks[i].route == "smt" else Status.PASSED
        assert v.status is expected, (i, v.status, v.summary)


@pytest.mark.parametrize("planted", [None, "shifted", "nan"])
def test_par_round_trip_sees_a_wrong_inverse(planted: str | None,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems import get
    from dpverify.theorems.foundations import mutation_guards

    right = mutation_guards.gce_homogeneous_rr_eps

    def wrong(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
        eps = right(ctx, eps0, k, delta)
        return eps * 0.99 if planted == "shifted" else ctx.log(-delta)  # 1% low; a NaN ball

    if planted:
        monkeypatch.setattr(mutation_guards, "gce_homogeneous_rr_eps", wrong)
    claim = next(c for c in get("PAR").claims if c.number == 6)
    assert _run(claim, 0).status is (Status.FAILED if planted else Status.PASSED)


@pytest.mark.parametrize("planted", [False, True])
def test_smith_bayes_reference_sees_a_wrong_normaliser(planted: bool,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems import get
    from dpverify.theorems.foundations import mutation_guards

    right = mutation_guards.posterior_ratio_max

    def inverted(ctx: Any, mech: Any, priors: Any, points: Any) -> Any:
        # the normaliser ratio inverted: max over the inverse priors' view
        flipped = [[1 / w for w in prior] for prior in priors]
        return right(ctx, mech, flipped, points)

    if planted:
        monkeypatch.setattr(mutation_guards, "posterior_ratio_max", inverted)
    claim = next(c for c in get("SMITH-BAYES").claims if c.number == 5)
    assert _run(claim, 0).status is (Status.FAILED if planted else Status.PASSED)


@pytest.mark.parametrize("planted", [False, True])
def test_smith_group_of_one_sees_an_extra_factor(planted: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems import get
    from dpverify.theorems.foundations import closure

    if planted:
        monkeypatch.setattr(closure, "group_delta",
                            lambda ctx, eps0, delta0, k: k * ctx.exp(k * eps0) * delta0)
    claim = next(c for c in get("SMITH-GROUP").claims if c.number == 4)
    searched = next(i for i, c in enumerate(claim.checks)
                    if c.route == "property" and c.part == "delta")
    assert _run(claim, searched).status is (Status.FAILED if planted else Status.PASSED)
