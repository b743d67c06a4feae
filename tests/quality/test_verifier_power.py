"""The power of the oracle, numeric and property routes: planted wrong formulas must be
marked ``failed``, and their correct counterparts must not raise a false alarm.

Each planted theorem is a :class:`~theorems.core.Theorem` value built here (never registered)
and checked through :func:`verifiers.dispatch.run_claim_check`, the code path of a real run.

Planted errors
--------------
- The Gaussian curve at ``mu/2`` (``gauss_delta`` at ``2 sigma``) claimed equal to the exact
  curve; and a subtler one, sigma off in its 13th digit.
- The Laplace profile with the wrong sign in the exponent: ``(1 - e^{-(eps - eps0)/2})_+``
  instead of ``(1 - e^{(eps - eps0)/2})_+``, ``eps0 = 1/b``.
- A hockey-stick divergence that drops the positive part, ``sum_y P(y) - e^eps Q(y)``, against
  the maximum over all events (``theorems.finite.hockey_stick_events``).

The correct side of each comparison is an independent route written in this file: the
Gaussian curve in its ``rho`` form ([S22] arXiv 2210.00597v4, Sec. 3.3), the Laplace profile
from the Neyman–Pearson set ``{y >= y0}`` with Laplace survival functions, the hockey-stick
sum with its positive part ([S22] Sec. 2).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from dpverify.theorems.claims import Box, Claim, Compare, Generated, Points, Tol
from dpverify.theorems.core import Source, Theorem
from dpverify.theorems.formulas.gaussian import gauss_delta
from dpverify.theorems.numerics.finite import hockey_stick, hockey_stick_events, random_pair
from dpverify.verifiers.dispatch import PROFILES, run_check, run_claim_check
from dpverify.verifiers.verdict import Status, Verdict

QUICK = PROFILES["quick"]
SEEDS = (1, 2, 3)


def _check(check: Compare, seed: int | None = None) -> Verdict:
    theorem = Theorem(id="QUALITY-PLANTED", title="planted by a power test", family="quality",
                      source=Source("tests/quality/test_verifier_power.py", "planted"),
                      types=("EXACT",), confidence=("HIGH",), statement="planted",
                      domain="planted", claims=(Claim(1, "planted", (check,)),))
    return run_claim_check(theorem, 1, 0, QUICK, seed=seed, budget_seconds=30)


def _assert_failed(v: Verdict) -> None:
    assert v.status is Status.FAILED, (v.status, v.summary)
    assert v.evidence["counterexample"]
    assert v.evidence["certified"] is True  # certified in arb, not a float accident
    assert v.evidence["reproduce"].startswith("dpverify run QUALITY-PLANTED --claim 1")


def _assert_passed(route: str, v: Verdict) -> None:
    """No false alarm, and not a vacuous pass: every point/instance/example was decided."""
    if route == "numeric":
        # every point certified in arb: certified at these points, not a proof over a region
        assert v.status is Status.CERTIFIED, v.summary
        assert v.evidence["points_checked"] == v.evidence["points_total"] > 0
        assert len(v.evidence["points"]) == v.evidence["points_total"]
    elif route == "oracle":
        assert v.status is Status.CERTIFIED, v.summary
        assert len(v.evidence["instances"]) == 40
        assert v.evidence["instances_checked"] == 40 and v.evidence["instances_undecided"] == 0
    else:
        assert v.status is Status.PASSED, v.summary
        assert v.evidence["examples"] >= QUICK.property_examples // 2
        assert v.evidence["undecided"] == 0


# ------------------------------------------------------------------------------------------
# formulas: planted errors and independent correct routes


def gauss_rho_form(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    """``Phi(-(eps - rho)/sqrt(2 rho)) - e^eps Phi(-(eps + rho)/sqrt(2 rho))``, ``rho =
    1/(2 sigma^2)`` ([S22] arXiv 2210.00597v4, Sec. 3.3): the exact curve, another form."""
    rho = 1 / (2 * sigma**2)
    s = ctx.sqrt(2 * rho)
    return ctx.ncdf(-(eps - rho) / s) - ctx.exp(eps) * ctx.ncdf(-(eps + rho) / s)


def gauss_exact(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    return gauss_delta(ctx, sigma, eps)


def gauss_half_mu(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    """Planted: the curve of mu/2 (noise twice as large) claimed to be the curve of mu."""
    return gauss_delta(ctx, 2 * sigma, eps)


def gauss_13th_digit(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    """Planted: sigma off by a relative 1e-12 (a transcription error in the 13th digit)."""
    return gauss_delta(ctx, sigma * (1 + ctx.num(Fraction(1, 10**12))), eps)


def laplace_np(ctx: Any, b: Any, eps: Any, **_: Any) -> Any:
    """Exact profile of Laplace noise of scale b, sensitivity 1, by Neyman–Pearson: the
    optimal event is ``{y >= y0}``, ``y0 = min((1 + b eps)/2, 1)``, with survival functions
    ``S_P(y) = 1 - e^{(y-1)/b}/2`` (``y <= 1``) and ``S_Q(y) = e^{-y/b}/2`` (``y >= 0``)."""
    y0 = ctx.min((1 + b * eps) / 2, ctx.one)
    half = ctx.num(Fraction(1, 2))
    return ctx.pos(1 - half * ctx.exp((y0 - 1) / b) - half * ctx.exp(eps - y0 / b))


def laplace_closed(ctx: Any, b: Any, eps: Any, **_: Any) -> Any:
    """``(1 - e^{(eps - eps0)/2})_+`` with ``eps0 = 1/b``: the correct closed form."""
    return ctx.pos(1 - ctx.exp((eps - 1 / b) / 2))


def laplace_wrong_sign(ctx: Any, b: Any, eps: Any, **_: Any) -> Any:
    """Planted: the exponent's sign flipped."""
    return ctx.pos(1 - ctx.exp(-(eps - 1 / b) / 2))


def hockey_no_positive_part(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
    """Planted: ``sum_y P(y) - e^eps Q(y)`` (the positive part dropped)."""
    z = ctx.exp(eps)
    return ctx.fsum(pi - z * qi for pi, qi in zip(p, q, strict=True))


def hockey_sum(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
    return hockey_stick(ctx, p, q, eps)


def hockey_events(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
    return hockey_stick_events(ctx, p, q, eps)


# ------------------------------------------------------------------------------------------
# regions per route


GAUSS_POINTS = Points(({"sigma": "1", "eps": "1"}, {"sigma": "0.5", "eps": "3"},
                       {"sigma": "2.5", "eps": "0.3"}, {"sigma": "0.2", "eps": "40"}))
GAUSS_BOX = Box(reals={"sigma": ("0.25", "4"), "eps": ("0", "6")},
                log_scale=frozenset({"sigma"}))


def _gauss_draw(rng: random.Random) -> dict[str, Any]:
    return {"sigma": Fraction(rng.randint(2, 40), 10), "eps": Fraction(rng.randint(0, 60), 10)}


LAPLACE_POINTS = Points(({"b": "1", "eps": "0.5"}, {"b": "0.5", "eps": "1"},
                         {"b": "2", "eps": "0.1"}, {"b": "1", "eps": "0"},
                         {"b": "1", "eps": "3"}))
LAPLACE_BOX = Box(reals={"b": ("0.2", "5"), "eps": ("0", "6")})


def _laplace_draw(rng: random.Random) -> dict[str, Any]:
    return {"b": Fraction(rng.randint(1, 50), 10), "eps": Fraction(rng.randint(0, 60), 10)}


def _pair_draw(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng)
    return {"p": p, "q": q, "eps": Fraction(rng.randint(0, 30), 10)}


def _region(route: str, points: Points, box: Box, draw: Any) -> Points | Box | Generated:
    if route == "numeric":
        return points
    if route == "property":
        return box
    return Generated(draw, count=40, description="random rational parameters")


TOL = {"numeric": Tol.abs("1e-30"), "property": Tol.abs("1e-25"), "oracle": Tol.abs("1e-25")}
ROUTES = ("oracle", "numeric", "property")


# ------------------------------------------------------------------------------------------
# the Gaussian curve


@pytest.mark.parametrize("route", ROUTES)
def test_gaussian_curve_at_half_mu_is_caught(route):
    region = _region(route, GAUSS_POINTS, GAUSS_BOX, _gauss_draw)
    for seed in SEEDS:
        _assert_failed(_check(Compare(gauss_half_mu, "eq", gauss_exact, region, route,
                                      TOL[route], "delta at 2 sigma", "exact delta"), seed))


@pytest.mark.parametrize("route", ROUTES)
def test_gaussian_curve_correct_has_no_false_alarm(route):
    region = _region(route, GAUSS_POINTS, GAUSS_BOX, _gauss_draw)
    v = _check(Compare(gauss_exact, "eq", gauss_rho_form, region, route, TOL[route],
                       "BW closed form", "rho form"))
    _assert_passed(route, v)


def test_gaussian_13th_digit_error_is_caught_by_the_numeric_route():
    _assert_failed(_check(Compare(gauss_13th_digit, "eq", gauss_exact, GAUSS_POINTS, "numeric",
                                  TOL["numeric"], "delta, sigma off in its 13th digit",
                                  "exact delta")))


# ------------------------------------------------------------------------------------------
# the Laplace profile


@pytest.mark.parametrize("route", ROUTES)
def test_laplace_profile_with_the_wrong_sign_is_caught(route):
    region = _region(route, LAPLACE_POINTS, LAPLACE_BOX, _laplace_draw)
    for seed in SEEDS:
        _assert_failed(_check(Compare(laplace_wrong_sign, "eq", laplace_np, region, route,
                                      TOL[route], "wrong-sign profile", "Neyman–Pearson"),
                              seed))


@pytest.mark.parametrize("route", ROUTES)
def test_laplace_profile_correct_has_no_false_alarm(route):
    region = _region(route, LAPLACE_POINTS, LAPLACE_BOX, _laplace_draw)
    v = _check(Compare(laplace_closed, "eq", laplace_np, region, route, TOL[route],
                       "closed form", "Neyman–Pearson"))
    _assert_passed(route, v)


# ------------------------------------------------------------------------------------------
# the hockey-stick divergence


def test_hockey_stick_without_positive_part_is_caught_by_the_oracle():
    region = Generated(_pair_draw, count=40, description="random finite pairs")
    for seed in SEEDS:
        v = _check(Compare(hockey_no_positive_part, "eq", hockey_events, region, "oracle",
                           TOL["oracle"], "sum without positive part", "max over events"), seed)
        _assert_failed(v)
        assert {"p", "q", "eps"} <= set(v.evidence["counterexample"])


def test_hockey_stick_with_positive_part_has_no_false_alarm():
    region = Generated(_pair_draw, count=40, description="random finite pairs")
    v = _check(Compare(hockey_sum, "eq", hockey_events, region, "oracle", TOL["oracle"],
                       "sum of positive parts", "max over events"))
    _assert_passed("oracle", v)


# ------------------------------------------------------------------------------------------
# the dispatch entry points agree


def test_run_check_still_routes_registered_theorems():
    v = run_check("BW-ANALYTIC-GAUSS", 2, 0, QUICK)
    assert (v.theorem, v.claim, v.check, v.route) == ("BW-ANALYTIC-GAUSS", 2, 0, "numeric")
    assert v.status is Status.CERTIFIED, v.summary


def test_run_claim_check_takes_a_claim_or_its_number():
    check = Compare(laplace_wrong_sign, "eq", laplace_np, LAPLACE_POINTS, "numeric",
                    TOL["numeric"])
    claim = Claim(7, "planted", (check,))
    theorem = Theorem(id="QUALITY-PLANTED", title="t", family="quality",
                      source=Source("t", "t"), types=("EXACT",), confidence=(),
                      statement="", domain="", claims=(claim,))
    a = run_claim_check(theorem, claim, 0, QUICK)
    b = run_claim_check(theorem, 7, 0, QUICK)
    assert a.status is b.status is Status.FAILED
    assert a.seed == b.seed and a.claim == b.claim == 7
    with pytest.raises(ValueError, match="no claim 8"):
        run_claim_check(theorem, 8, 0, QUICK)
