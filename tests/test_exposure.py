"""Issue 16, Build items 2-3: ``dpverify eval`` exposure of the certified PLD engine's curves
(k-fold and Poisson-subsampled Laplace and RR, TPR at an FPR and the GDP estimate of a
subsampled-Gaussian composition), MTZ-SGM-RDP at user-given orders, and the audit's discrete
mechanisms and trade-off queries.

Every golden value is computed here by a route independent of the product (binomial
enumeration, enumeration of the integer support, mpmath quadrature, the Gaussian closed form of
the trade-off curve) at 40+ digits, at points no claim of the catalogue uses; the engines must
enclose it (and the exact evaluators agree with it to 30+ digits).
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from typing import Any

import mpmath as mp
import pytest

import dpverify
from dpverify.reports.cli import main
from dpverify.theorems.core import InvalidParameter
from dpverify.verifiers.accountants.reference import reference_for
from dpverify.verifiers.accountants.scenario import Scenario, parse_cases, query_name
from dpverify.verifiers.accountants.tradeoff_reference import gdp_mu_bound, tpr_bound

mp.mp.dps = 50


def _inside(ref: Any, enclosure: Any) -> bool:
    lo, hi = (mp.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in enclosure)
    return lo <= ref <= hi


def _phi_inv(p: Any) -> Any:
    return mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1)


def _rr_kfold_delta(eps0: Any, k: int, eps: Any) -> Any:
    """H_{e^eps} of k-fold RR(eps0) by binomial enumeration of the privacy-loss atoms."""
    x = mp.e ** mp.mpf(eps0)
    p = x / (1 + x)
    return mp.fsum(mp.binomial(k, j) * p ** (k - j) * (1 - p) ** j
                   * max(mp.mpf(0), 1 - mp.e ** (mp.mpf(eps) - (k - 2 * j) * mp.mpf(eps0)))
                   for j in range(k + 1))


def _hockey(pairs: list[tuple[Any, Any]], eps: Any) -> Any:
    """``sum (P - e^eps Q)_+`` over outcomes given as (P, Q) masses."""
    x = mp.e ** mp.mpf(eps)
    return mp.fsum(max(mp.mpf(0), a - x * b) for a, b in pairs)


# ------------------------------------------------------------------------------------------
# MTZ-SGM-RDP at user-given orders


def _sgm_tau_ref(q: Any, s: Any, alpha: Any) -> Any:
    """D_alpha(mix || N0) by quadrature of E_{N0}[(1 - q + q e^{(2y-1)/(2 s^2)})^alpha]."""
    q, s, alpha = mp.mpf(q), mp.mpf(s), mp.mpf(alpha)
    f = lambda y: mp.npdf(y, 0, s) * (1 - q + q * mp.e ** ((2 * y - 1) / (2 * s**2))) ** alpha  # noqa: E731
    return mp.log(mp.quad(f, [-mp.inf, -5, 0, 1, alpha + 5, mp.inf])) / (alpha - 1)


def test_tau_orders_returns_one_value_per_order_at_30_digits(capsys: Any) -> None:
    params = {"q": "0.03", "sigma": "1.3", "orders": "3,5.5,17", "k": "7"}
    values = dpverify.evaluate("MTZ-SGM-RDP.tau_orders", digits=32, **params)
    assert len(values) == 3
    for v, alpha in zip(values, ("3", "5.5", "17"), strict=True):
        ref = 7 * _sgm_tau_ref("0.03", "1.3", alpha)
        assert abs(mp.mpf(v.text) - ref) <= abs(ref) * mp.mpf(10) ** -31, (alpha, v.text)
        assert v.enclosure is not None and _inside(ref, v.enclosure)
    assert main(["eval", "MTZ-SGM-RDP.tau_orders", *(f"{k}={v}" for k, v in params.items()),
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["params"]["orders"] == ["3", "5.5", "17"]
    assert isinstance(doc["value"], list) and len(doc["value"]) == 3
    assert all(len(e) == 2 for e in doc["enclosure"])
    assert main(["eval", "MTZ-SGM-RDP.tau_orders", "q=0.03", "sigma=1.3", "orders=2,4"]) == 0
    assert len(capsys.readouterr().out.split()) == 2  # plain: one value per line
    assert main(["eval", "MTZ-SGM-RDP.tau_orders", "q=0.03", "sigma=1.3", "orders=2,1"]) == 2
    assert "orders must be in (1, inf)" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------
# k-fold and subsampled Laplace and RR in eval


def test_k_fold_rr_kov_golden_and_pld_engine_enclosure() -> None:
    ref = _rr_kfold_delta("0.3", 25, "0.9")
    kov = dpverify.evaluate("KOV-DELTA.delta_pure", digits=35, eps0="0.3", k=25, eps="0.9")
    assert abs(kov.value - ref) <= ref * mp.mpf(10) ** -33
    eng = dpverify.evaluate("STK-COMP-PLD.delta_rr", eps0="0.3", k=25, eps="0.9")
    assert _inside(ref, eng.enclosure)
    kov_eps = dpverify.evaluate("KOV-EPS.eps", digits=30, eps0="0.3", delta0=0, k=25,
                                delta="1e-4")
    eng_eps = dpverify.evaluate("STK-COMP-PLD.eps_rr", eps0="0.3", k=25, delta="1e-4")
    assert _inside(kov_eps.value, eng_eps.enclosure)


def test_subsampled_rr_matches_enumeration_of_both_directions() -> None:
    q, eps0, k, eps = mp.mpf("0.2"), mp.mpf("1.5"), 4, mp.mpf("0.25")
    x = mp.e**eps0
    p0, q0 = (x / (1 + x), 1 / (1 + x)), (1 / (1 + x), x / (1 + x))
    mix = tuple((1 - q) * b + q * a for a, b in zip(p0, q0, strict=True))
    best = mp.mpf(0)
    for pp, qq in ((mix, q0), (q0, mix)):  # add, remove
        outcomes = [(mp.mpf(1), mp.mpf(1))]
        for _ in range(k):
            outcomes = [(a * pp[i], b * qq[i]) for a, b in outcomes for i in (0, 1)]
        best = max(best, _hockey(outcomes, eps))
    eng = dpverify.evaluate("STK-COMP-PLD.delta_rr", eps0="1.5", k=4, eps="0.25", q="0.2")
    assert _inside(best, eng.enclosure)


def _laplace_sub_delta(b: Any, q: Any, eps: Any) -> Any:
    """Two-order hockey-stick of ((1-q) Lap(0,b) + q Lap(1,b), Lap(0,b)) by quadrature."""
    b, q, eps = mp.mpf(b), mp.mpf(q), mp.mpf(eps)
    lap = lambda y, m: mp.e ** (-abs(y - m) / b) / (2 * b)  # noqa: E731
    mix = lambda y: (1 - q) * lap(y, 0) + q * lap(y, 1)  # noqa: E731
    out = mp.mpf(0)
    for f, g in ((mix, lambda y: lap(y, 0)), (lambda y: lap(y, 0), mix)):
        h = lambda y, f=f, g=g: f(y) - mp.e**eps * g(y)  # noqa: E731
        cuts = [mp.mpf(0), mp.mpf(1)]
        if h(mp.mpf(0)) * h(mp.mpf(1)) < 0:
            cuts.insert(1, mp.findroot(h, (mp.mpf(0), mp.mpf(1)), solver="anderson"))
        pts = [-mp.inf, *cuts, mp.inf]
        out = max(out, mp.quad(lambda y, h=h: max(h(y), 0), pts))
    return out


def test_laplace_sensitivity_and_subsampling() -> None:
    exact = 1 - mp.e ** ((mp.mpf("0.2") - 2 / mp.mpf("3")) / 2)  # Lap sensitivity 2, b = 3
    eng = dpverify.evaluate("STK-COMP-PLD.delta_laplace", b=3, k=1, eps="0.2", sensitivity=2)
    assert _inside(exact, eng.enclosure)
    ref = _laplace_sub_delta("1.5", "0.3", "0.1")
    eng = dpverify.evaluate("STK-COMP-PLD.delta_laplace", b="1.5", k=1, eps="0.1", q="0.3")
    assert _inside(ref, eng.enclosure)
    assert float(Fraction(eng.enclosure[1]) - Fraction(eng.enclosure[0])) < 2e-3 * float(ref)


# ------------------------------------------------------------------------------------------
# discrete mechanisms in the audit


def _scenario(mech: dict[str, Any], neighboring: str = "add_remove") -> Scenario:
    return Scenario.from_dict({"neighboring": neighboring, "events": [mech]})


def test_discrete_laplace_is_randomized_response() -> None:
    sc = _scenario({"mechanism": "discrete_laplace", "b": 2.0, "count": 6, "sampling": None})
    ref = _rr_kfold_delta("0.5", 6, "0.4")
    assert _inside(ref, (reference_for(sc).delta(0.4).lo, reference_for(sc).delta(0.4).hi))


def _dgauss_kfold_delta(sigma: Any, sens: int, k: int, eps: Any, cut: int = 60) -> Any:
    """Enumeration of the integer support |x| <= cut (the rest is below 1e-300 here)."""
    s2 = 2 * mp.mpf(sigma) ** 2
    w = {x: mp.e ** (-x * x / s2) for x in range(-cut - sens, cut + sens + 1)}
    z = mp.fsum(w[x] for x in range(-cut, cut + 1))
    atoms: dict[Fraction, Any] = {}
    for x in range(-cut, cut + 1):
        loss = Fraction(sens * sens - 2 * sens * x) * Fraction(1) / Fraction(
            2 * Fraction(str(sigma)) ** 2)
        atoms[loss] = atoms.get(loss, 0) + w[x] / z
    total = {Fraction(0): mp.mpf(1)}
    for _ in range(k):
        new: dict[Fraction, Any] = {}
        for a, pa in total.items():
            for b, pb in atoms.items():
                if pa * pb > mp.mpf(10) ** -60:
                    new[a + b] = new.get(a + b, 0) + pa * pb
        total = new
    return mp.fsum(p * max(mp.mpf(0), 1 - mp.e ** (mp.mpf(eps) - mp.mpf(z.numerator)
                                                    / z.denominator))
                   for z, p in total.items())


def test_discrete_gaussian_reference_contains_the_enumeration() -> None:
    sc = _scenario({"mechanism": "discrete_gaussian", "sigma": 1.5, "count": 2,
                    "sampling": None})
    b = reference_for(sc).delta(0.3)
    assert _inside(_dgauss_kfold_delta("1.5", 1, 2, "0.3"), (b.lo, b.hi))
    rep = _scenario({"mechanism": "discrete_gaussian", "sigma": 2.5, "count": 1,
                     "sampling": None}, "replace_one")
    b = reference_for(rep).delta(0.1)
    assert _inside(_dgauss_kfold_delta("2.5", 2, 1, "0.1"), (b.lo, b.hi))


def test_subsampled_discrete_gaussian_is_below_its_base() -> None:
    base = _scenario({"mechanism": "discrete_gaussian", "sigma": 1.0, "count": 3,
                      "sampling": None})
    sub = _scenario({"mechanism": "discrete_gaussian", "sigma": 1.0, "count": 3,
                     "sampling": {"scheme": "poisson", "q": 0.1}})
    assert reference_for(sub).epsilon(1e-5).hi < reference_for(base).epsilon(1e-5).lo


# ------------------------------------------------------------------------------------------
# trade-off values


def test_tpr_of_the_gaussian_composition_contains_the_closed_form() -> None:
    fpr = mp.mpf("0.0123")
    exact = mp.ncdf(_phi_inv(fpr) + 1)  # k = 4, sigma = 2: mu = 1 (G_1, DRS-TRADEOFF)
    for nb, sigma in (("add_remove", "2"), ("replace_one", "4")):
        e = dpverify.evaluate("FDP-PLD-CONV.tpr_sgm", q=1, sigma=sigma, k=4, fpr="0.0123",
                              neighboring=nb)
        assert _inside(exact, e.enclosure), nb
    mu = dpverify.evaluate("FDP-PLD-CONV.mu_estimate_sgm", q=1, sigma=2, k=4)
    assert _inside(mp.mpf(1), mu.enclosure)


def _sgm1_profile(q: Any, eps: Any) -> Any:
    """Two-order profile of one Poisson-subsampled Gaussian step (sigma = 1), closed forms in
    Phi at the loss thresholds (SGM-1STEP-EXACT route, not the PLD engine)."""
    c = lambda y: mp.ncdf(-y)  # noqa: E731
    x = mp.e**eps
    y0 = mp.mpf(1) / 2 + mp.log((x - 1 + q) / q)  # add: loss > eps iff y > y0
    add = (1 - q) * c(y0) + q * c(y0 - 1) - x * c(y0)
    rem = mp.mpf(0)
    if 1 / x > 1 - q:  # remove: loss > eps iff y < y1
        y1 = mp.mpf(1) / 2 + mp.log((1 / x - 1 + q) / q)
        rem = mp.ncdf(y1) - x * ((1 - q) * mp.ncdf(y1) + q * mp.ncdf(y1 - 1))
    return max(add, rem)


def _tpr_by_duality(q: Any, a: Any) -> Any:
    """inf_{eps >= 0} min(1, delta + e^eps a, 1 - e^{-eps}(1 - delta - a)): coarse scan, then
    golden section around the best scan point."""
    def env(e: Any) -> Any:
        d = _sgm1_profile(q, e)
        return min(mp.mpf(1), d + mp.e**e * a, 1 - mp.e ** (-e) * (1 - d - a))

    scan = [mp.mpf(i) / 10 for i in range(81)]
    vals = [env(e) for e in scan]
    i = min(range(len(vals)), key=vals.__getitem__)
    lo, hi = scan[max(i - 1, 0)], scan[min(i + 1, 80)]
    g = (mp.sqrt(5) - 1) / 2
    for _ in range(80):
        m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if env(m1) < env(m2):
            hi = m2
        else:
            lo = m1
    return min(env((lo + hi) / 2), min(vals))


def test_tpr_of_a_subsampled_gaussian_step_contains_the_dual_of_its_exact_profile() -> None:
    with mp.workdps(30):
        for fpr in ("0.05", "0.0007"):
            ref = _tpr_by_duality(mp.mpf("0.5"), mp.mpf(fpr))
            e = dpverify.evaluate("FDP-PLD-CONV.tpr_sgm", q="0.5", sigma=1, k=1, fpr=fpr)
            assert _inside(ref, e.enclosure), (fpr, ref, e.enclosure)


def _rr_tpr(eps0: Any, k: int, a: Any) -> Any:
    """1 - f_{eps0,0}^{⊗k}(a) by the binomial Neyman-Pearson vertices (DRS-TENSOR)."""
    x = mp.e ** mp.mpf(eps0)
    den = (1 + x) ** k
    verts = []
    for t in range(k + 1, -1, -1):
        at = mp.fsum(mp.binomial(k, j) * x ** (k - j) for j in range(t, k + 1)) / den
        bt = mp.fsum(mp.binomial(k, j) * x**j for j in range(t)) / den
        verts.append((at, bt))
    verts.sort()
    for (a0, b0), (a1, b1) in itertools.pairwise(verts):
        if a0 <= a <= a1:
            return 1 - (b0 + (b1 - b0) * (a - a0) / (a1 - a0))
    raise AssertionError("fpr outside [0, 1]")


def test_audit_trade_off_references_contain_the_exact_values() -> None:
    rr = _scenario({"mechanism": "randomized_response", "eps0": 0.5, "count": 10,
                    "sampling": None})
    b = tpr_bound(reference_for(rr), 0.07)
    assert _inside(_rr_tpr("0.5", 10, mp.mpf("0.07")), (b.lo, b.hi))
    rr1 = _scenario({"mechanism": "randomized_response", "eps0": 1.0, "count": 1,
                     "sampling": None})
    b = gdp_mu_bound(reference_for(rr1, rel_width=1e-2, max_seconds=5))
    x = mp.e
    assert _inside(2 * _phi_inv(x / (1 + x)), (b.lo, b.hi))  # FDP-PLD-CONV claim 1
    g = _scenario({"mechanism": "gaussian", "sigma": 2.0, "count": 4, "sampling": None})
    b = gdp_mu_bound(reference_for(g, rel_width=1e-2, max_seconds=5))
    assert _inside(mp.mpf(1), (b.lo, b.hi)) and float(b.hi) < 1.01


def test_eval_tpr_of_rr_and_laplace_contains_the_exact_curves() -> None:
    e = dpverify.evaluate("FDP-PLD-CONV.tpr_rr", eps0="0.4", k=7, fpr="0.13")
    assert _inside(_rr_tpr("0.4", 7, mp.mpf("0.13")), e.enclosure)
    # one Laplace step, mu = s/b = 0.8: 1 - T_Lap(a), middle piece e^{-mu}/(4a) (DRS-LAPLACE-FDP)
    a, m = mp.mpf("0.3"), mp.mpf("0.8")
    e = dpverify.evaluate("FDP-PLD-CONV.tpr_laplace", b="2.5", k=1, fpr="0.3", sensitivity=2)
    assert _inside(1 - mp.e ** (-m) / (4 * a), e.enclosure)


def test_approx_dp_trade_off_is_f_eps_delta() -> None:
    """One (eps0, delta0) step: the curve is f_{eps0,delta0} (DRS-TRADEOFF), TPR in closed form."""
    sc = _scenario({"mechanism": "approx_dp", "eps0": 0.5, "delta0": 1e-3, "count": 1,
                    "sampling": None})
    e0, d0 = mp.mpf("0.5"), mp.mpf("1e-3")
    for a in (mp.mpf("0.01"), mp.mpf("0.6")):
        exact = min(1, d0 + mp.e**e0 * a, 1 - mp.e ** (-e0) * (1 - d0 - a))
        b = tpr_bound(reference_for(sc), float(a))
        assert _inside(exact, (b.lo, b.hi)), (a, exact, float(b.lo), float(b.hi))


def test_gdp_mu_judging_of_infinite_values() -> None:
    from dpverify.verifiers.accountants.judge import judge
    from dpverify.verifiers.accountants.reference import Bound

    finite, open_ended = Bound(Fraction(1), Fraction(2), "t"), Bound(Fraction(14), math.inf, "t")
    assert judge("gdp_mu", math.inf, finite, 1.5, 1e-6)[0] == "LOOSE"
    assert judge("gdp_mu", math.inf, open_ended, 1.5, 1e-6)[0] == "SOUND"
    assert judge("gdp_mu", 13.0, open_ended, 1.5, 1e-6)[0] == "UNSOUND"
    assert judge("tpr", 1.5, Bound(Fraction(0), Fraction(1, 2), "t"), 1.5,
                 1e-6)[0] == "ERROR"  # a TPR above 1


def test_trade_off_queries_parse_and_are_named() -> None:
    cases = parse_cases([{"id": "t", "scenario": {"neighboring": "add_remove", "events": [
        {"mechanism": "discrete_gaussian", "sigma": 2.0, "count": 3, "sampling": None}]},
        "fprs": [0.001], "gdp_mu": True}])
    assert cases[0].queries() == [("tpr", 0.001), ("gdp_mu", 0.0)]
    assert cases[0].to_dict()["fprs"] == [0.001] and cases[0].to_dict()["gdp_mu"] is True
    assert query_name("tpr", 0.001) == "tpr@fpr=0.001" and query_name("gdp_mu", 0) == "gdp_mu"
    for bad, msg in (({"fprs": [0.0]}, "fprs must be in"), ({"gdp_mu": 1}, "gdp_mu must be"),
                     ({}, "at least one query")):
        with pytest.raises(InvalidParameter, match=msg):
            parse_cases([{"id": "t", "scenario": {"neighboring": "add_remove", "events": [
                {"mechanism": "gaussian", "sigma": 1.0, "count": 1, "sampling": None}]},
                **bad}])
