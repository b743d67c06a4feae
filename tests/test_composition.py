"""Composition family: every evaluator against an independent computation written here.

References are computed in this file with mpmath at 60+ digits by other routes than the
product's: brute-force enumeration of the 2^k outputs of k-fold RR, the full binomial sum with
exact binomial coefficients (no truncation), bisection on the reference profile, subset
enumeration with itertools, and the closed forms typed from the papers. Values are taken from
``dpverify eval``'s engine (:func:`verifiers.evaluation.evaluate`, an arb enclosure) and compared
to 20+ digits.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from fractions import Fraction

import mpmath
import pytest

from dpverify.reports.cli import main
from dpverify.theorems import get
from dpverify.theorems.core import InvalidParameter, bind
from dpverify.theorems.ctx import ArbCtx, MpCtx
from dpverify.theorems.formulas.kov_mv import MV_MAX_ENUM_K, mv_delta_pure
from dpverify.theorems.numerics.mv_lattice import lattice_delta
from dpverify.verifiers.evaluation import evaluate

mp = mpmath.mp
DPS = 70


def _ev(target: str, digits: int = 30, **params: str) -> mpmath.mpf:
    """The product's value (decimal string of ``digits`` digits) as an mpf."""
    name, _, ev = target.partition(".")
    evaluator = get(name).evaluator(ev or None)
    value = evaluate(evaluator, bind(evaluator.params, params, target), digits).value
    return mpmath.mpf(value) if value != "inf" else mpmath.inf


def _close(a: mpmath.mpf, b: mpmath.mpf, digits: int) -> bool:
    return abs(a - b) <= mpmath.mpf(10) ** (-digits) * max(1, abs(b))


def _q(s: str) -> mpmath.mpf:
    f = Fraction(s)
    return mpmath.mpf(f.numerator) / f.denominator


# ------------------------------------------------------------------------------------------
# independent references


def rr_bruteforce(e0: mpmath.mpf, k: int, eps: mpmath.mpf) -> mpmath.mpf:
    """sum over the 2^k outputs of k-fold RR(e0) of (P(y) - e^eps Q(y))_+."""
    p_hi = mpmath.e**e0 / (1 + mpmath.e**e0)
    p_lo = 1 / (1 + mpmath.e**e0)
    z = mpmath.e**eps
    total = mpmath.mpf(0)
    for y in itertools.product((0, 1), repeat=k):
        ones = sum(y)
        p = p_hi**ones * p_lo ** (k - ones)
        q = p_lo**ones * p_hi ** (k - ones)
        total += max(p - z * q, 0)
    return total


def rr_full_sum(e0: mpmath.mpf, d0: mpmath.mpf, k: int, eps: mpmath.mpf) -> mpmath.mpf:
    """[MV] Thm 1.4 as printed: every positive term, exact binomials, no truncation."""
    y = mpmath.e**e0
    z = mpmath.e**eps
    s = mpmath.fsum(math.comb(k, i) * (y**i - z * y ** (k - i)) for i in range(k + 1)
                    if e0 * (2 * i - k) > eps)
    return 1 - (1 - d0) ** k * (1 - s / (1 + y) ** k)


def eps_piecewise(e0: mpmath.mpf, d0: mpmath.mpf, k: int, d: mpmath.mpf) -> mpmath.mpf:
    """The inverse typed from the catalogue's statement: find the smallest j with
    delta_pure(z_j) <= T by evaluating delta_pure at every atom (full sums), then solve the
    affine piece with sums over i >= j."""
    t = 1 - (1 - d) / (1 - d0) ** k
    y = mpmath.e**e0
    norm = (1 + y) ** k
    c = [math.comb(k, i) for i in range(k + 1)]

    def pure(z: mpmath.mpf) -> mpmath.mpf:
        return mpmath.fsum(c[i] * max(y**i - z * y ** (k - i), 0) for i in range(k + 1)) / norm

    if pure(mpmath.mpf(1)) <= t:
        return mpmath.mpf(0)
    lo, hi = 0, k  # pure(z_j) decreases in j and pure(z_k) = 0 <= t
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if pure(y ** (2 * mid - k)) <= t else (mid + 1, hi)
    j = lo
    a = mpmath.fsum(c[i] * y**i for i in range(j, k + 1))
    b = mpmath.fsum(c[i] * y ** (k - i) for i in range(j, k + 1))
    return max(mpmath.mpf(0), mpmath.log((a - t * norm) / b))


def eps_bisect(e0: mpmath.mpf, d0: mpmath.mpf, k: int, d: mpmath.mpf,
               steps: int = 130) -> mpmath.mpf:
    if rr_full_sum(e0, d0, k, mpmath.mpf(0)) <= d:
        return mpmath.mpf(0)
    lo, hi = mpmath.mpf(0), k * e0
    for _ in range(steps):
        mid = (lo + hi) / 2
        if rr_full_sum(e0, d0, k, mid) <= d:
            hi = mid
        else:
            lo = mid
    return hi


def mv_bruteforce(eps_list: list[mpmath.mpf], eps: mpmath.mpf) -> mpmath.mpf:
    total = mpmath.mpf(0)
    for s in itertools.product((0, 1), repeat=len(eps_list)):
        a = mpmath.fsum(e for e, b in zip(eps_list, s, strict=True) if b)
        b_ = mpmath.fsum(e for e, b in zip(eps_list, s, strict=True) if not b)
        total += max(mpmath.e**a - mpmath.e**eps * mpmath.e**b_, 0)
    return total / mpmath.fprod(1 + mpmath.e**e for e in eps_list)


# ------------------------------------------------------------------------------------------
# KOV-DELTA / KOV-OPT


@pytest.mark.parametrize("e0,k,eps", [("0.1", 1, "0.05"), ("0.3", 4, "0.2"), ("0.5", 7, "0"),
                                      ("1", 10, "2.5"), ("0.05", 10, "0.12"),
                                      ("0.7", 9, "-1.3")])
def test_kov_delta_equals_bruteforce_rr(e0, k, eps):
    with mpmath.workdps(DPS):
        ref = rr_bruteforce(_q(e0), k, _q(eps))
        got = _ev("KOV-DELTA.delta", 40, eps0=e0, delta0="0", k=str(k), eps=eps)
        assert _close(got, ref, 38)
        assert _close(_ev("KOV-OPT.delta", 40, eps0=e0, delta0="0", k=str(k), eps=eps),
                      ref, 38)


@pytest.mark.parametrize("e0,d0,k,eps", [("0.01", "0", 1000, "0.3"), ("0.1", "1e-7", 1000, "2"),
                                         ("0.02", "0", 3000, "1.5"), ("2", "0.001", 50, "40")])
def test_kov_delta_large_k_against_full_sum(e0, d0, k, eps):
    with mpmath.workdps(DPS):
        ref = rr_full_sum(_q(e0), _q(d0), k, _q(eps))
        got = _ev("KOV-DELTA", 30, eps0=e0, delta0=d0, k=str(k), eps=eps)
        assert _close(got, ref, 28)


def test_kov_delta_golden_15_and_50_digits():
    # reference: the full binomial sum at 80 digits (an independent route)
    with mpmath.workdps(80):
        ref = rr_full_sum(_q("0.1"), mpmath.mpf(0), 100, mpmath.mpf(1))
        for digits in (15, 50):
            got = _ev("KOV-DELTA", digits, eps0="0.1", delta0="0", k="100", eps="1")
            assert got == mpmath.mpf(mpmath.nstr(ref, digits))


def test_kov_delta_k_1e5_50_digits_is_fast_and_enclosed():
    evaluator = get("KOV-DELTA").evaluator("delta")
    params = bind(evaluator.params, {"eps0": "0.01", "delta0": "0", "k": "100000", "eps": "5"})
    started = time.monotonic()
    result = evaluate(evaluator, params, 50)
    assert time.monotonic() - started < 5  # about 0.1-0.3 s; generous for a loaded CI machine
    # independent: each active term by loggamma directly, upwards from the first active index
    # until the terms stop mattering at 70 digits
    with mpmath.workdps(70):
        e0, k, eps = mpmath.mpf("0.01"), 100000, mpmath.mpf(5)
        lp = mpmath.log(1 + mpmath.e**e0)
        ref = mpmath.mpf(0)
        for i in range(50251, k + 1):  # x_i = 0.01 (2i - k) > 5  <=>  i > 50250
            t = mpmath.exp(mpmath.loggamma(k + 1) - mpmath.loggamma(i + 1)
                           - mpmath.loggamma(k - i + 1) + i * e0 - k * lp)
            ref += t * -mpmath.expm1(eps - e0 * (2 * i - k))
            if i > 51000 and t < ref * mpmath.mpf(10) ** -75:
                break
        lo, hi = (mpmath.mpf(x) for x in result.enclosure)
        assert lo <= ref <= hi
        assert _close(mpmath.mpf(result.value), ref, 48)


def test_kov_thm33_points():
    # KOV Thm 3.3 closed form typed here, at eps = (k - 2i) eps0
    with mpmath.workdps(DPS):
        e0, k = _q("0.5"), 12
        for i in range(1, 6):
            s = mpmath.fsum(mpmath.binomial(k, ll) * (mpmath.e ** ((k - ll) * e0)
                                                      - mpmath.e ** ((k - 2 * i + ll) * e0))
                            for ll in range(i)) / (1 + mpmath.e**e0) ** k
            got = _ev("KOV-DELTA", 40, eps0="0.5", delta0="0", k=str(k),
                      eps=str((k - 2 * i) * Fraction(1, 2)))
            assert _close(got, s, 38)


# ------------------------------------------------------------------------------------------
# KOV-EPS


def test_kov_eps_golden_4_30679137252():
    assert _ev("KOV-EPS", 12, eps0="0.1", delta0="0", k="100", delta="1e-5") == \
        mpmath.mpf("4.30679137252")


@pytest.mark.parametrize("e0,d0,k,d", [("0.1", "0", 100, "1e-5"), ("1", "0", 10, "1e-3"),
                                       ("0.25", "1e-7", 30, "1e-5"), ("0.7", "0.001", 6, "0.02")])
def test_kov_eps_against_bisection(e0, d0, k, d):
    with mpmath.workdps(50):
        ref = eps_bisect(_q(e0), _q(d0), k, _q(d))
        got = _ev("KOV-EPS", 30, eps0=e0, delta0=d0, k=str(k), delta=d)
        assert _close(got, ref, 28)


@pytest.mark.parametrize("e0,d0,k,d", [("0.01", "0", 365, "1e-6"), ("0.01", "0", 730, "1e-6"),
                                       ("0.05", "1e-9", 1500, "1e-5")])
def test_kov_eps_against_piecewise_inverse_typed_here(e0, d0, k, d):
    with mpmath.workdps(DPS):
        ref = eps_piecewise(_q(e0), _q(d0), k, _q(d))
        got = _ev("KOV-EPS", 30, eps0=e0, delta0=d0, k=str(k), delta=d)
        assert _close(got, ref, 28)


def test_kov_eps_50_digits_golden():
    with mpmath.workdps(80):
        ref = eps_piecewise(_q("0.1"), mpmath.mpf(0), 100, _q("1e-5"))
        got = _ev("KOV-EPS", 50, eps0="0.1", delta0="0", k="100", delta="1e-5")
        assert got == mpmath.mpf(mpmath.nstr(ref, 50))


def test_kov_eps_inf_zero_and_boundary():
    # delta below 1 - (1 - delta0)^k: no eps works
    assert _ev("KOV-EPS", 15, eps0="1", delta0="0.1", k="3", delta="0.2") == mpmath.inf
    # exactly 1 - (1 - delta0)^k (k = 1): the least eps is k eps0
    assert _ev("KOV-EPS", 15, eps0="1", delta0="0.1", k="1", delta="0.1") == 1
    # above delta_opt(0): 0
    assert _ev("KOV-EPS", 15, eps0="0.01", delta0="0", k="4", delta="0.5") == 0


# ------------------------------------------------------------------------------------------
# closed forms


def test_closed_forms_against_formulas_typed_here():
    with mpmath.workdps(DPS):
        e0, k, d = _q("0.1"), 100, _q("1e-5")
        stk = k * e0**2 / 2 + e0 * mpmath.sqrt(2 * k * mpmath.log(1 / d))
        assert _close(_ev("STK-ADV-PURE", 30, eps0="0.1", k="100", delta="1e-5"), stk, 29)
        # DRV: delta = k delta0 + slack
        slack = _q("1e-6")
        drv = mpmath.sqrt(2 * k * mpmath.log(1 / slack)) * e0 + k * e0 * (mpmath.e**e0 - 1)
        assert _close(_ev("DRV-ADV", 30, eps0="0.1", k="100", delta="1.00001e-6",
                          delta0="1e-13"), drv, 29)
        assert _close(_ev("DRV-ADV.eps_clipped", 30, eps0="0.1", k="100", delta="1e-6"),
                      min(drv, k * e0), 29)
        # KOV Thm 3.4 with delta~ from the total delta
        d0, tot = _q("1e-8"), _q("1e-5")
        dt = 1 - (1 - tot) / (1 - d0) ** k
        a = k * e0 * (mpmath.e**e0 - 1) / (mpmath.e**e0 + 1)
        b1 = a + e0 * mpmath.sqrt(2 * k * mpmath.log(mpmath.e + mpmath.sqrt(k * e0**2) / dt))
        b2 = a + e0 * mpmath.sqrt(2 * k * mpmath.log(1 / dt))
        assert _close(_ev("KOV-34", 30, eps0="0.1", delta0="1e-8", k="100", delta="1e-5"),
                      min(k * e0, b1, b2), 29)
    assert _ev("KOV-34", 13, eps0="0.1", delta0="0", k="100", delta="1e-5") == \
        mpmath.mpf("5.298109661767")


def test_slack_and_domain_errors(capsys):
    assert main(["eval", "DRV-ADV", "eps0=0.1", "k=10", "delta=1e-6", "delta0=1e-7"]) == 2
    assert "delta must exceed k*delta0" in capsys.readouterr().err
    assert main(["eval", "KOV-EPS", "eps0=0.1", "delta0=0", "k=10", "delta=1.5"]) == 2
    assert "delta must be in (0, 1); got 1.5" in capsys.readouterr().err
    assert main(["eval", "KOV-34", "eps0=1", "delta0=0.1", "k=1", "delta=0.1"]) == 2
    assert "delta~" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------
# MV-OPT / MV-APPROX


@pytest.mark.parametrize("eps_list,eps", [("0.3,0.55,0.9,0.2,0.41", "0.5"),
                                          ("0.05,1,0.7,0.2,0.33,0.9,0.01,0.5", "1.2"),
                                          ("0.4,0.4,0.4", "-0.3"), ("2,0.1", "1.95")])
def test_mv_opt_equals_subset_bruteforce(eps_list, eps):
    with mpmath.workdps(DPS):
        ref = mv_bruteforce([_q(x) for x in eps_list.split(",")], _q(eps))
        got = _ev("MV-OPT.delta_pure", 30, eps_list=eps_list, eps=eps)
        assert _close(got, ref, 28)


def test_mv_opt_with_deltas_and_inverse():
    with mpmath.workdps(DPS):
        el, dl = [_q("0.3"), _q("0.5"), _q("0.8")], [_q("1e-4"), mpmath.mpf(0), _q("2e-4")]
        keep = mpmath.fprod(1 - x for x in dl)
        ref = 1 - keep * (1 - mv_bruteforce(el, _q("0.2")))
        got = _ev("MV-OPT", 30, eps_list="0.3,0.5,0.8", eps="0.2", delta_list="1e-4,0,2e-4")
        assert _close(got, ref, 28)
        eps_star = _ev("MV-OPT.eps", 30, eps_list="0.3,0.5,0.8", delta="1e-3",
                       delta_list="1e-4,0,2e-4")
        back = 1 - keep * (1 - mv_bruteforce(el, eps_star))
        assert abs(back - mpmath.mpf("1e-3")) < mpmath.mpf(10) ** -27


def test_mv_lattice_algorithm_equals_enumeration():
    """The knapsack dynamic program over the lattice vs the meet-in-the-middle enumeration
    (two product algorithms), and beyond the enumeration limit vs a double binomial sum."""
    ctx = ArbCtx(200)
    eps_list = tuple(Fraction(n, 20) for n in (1, 3, 4, 7, 2, 9, 5, 11, 6, 8, 10, 12, 3, 1, 4,
                                               7, 2, 9, 5, 13))
    assert len(eps_list) == MV_MAX_ENUM_K
    for eps in (Fraction(-1), Fraction(1, 3), Fraction(5, 2)):
        enum = ctx.run(mv_delta_pure, eps_list=eps_list, eps=eps)
        with mpmath.workdps(60):
            lat = ctx.run(lambda c, eps: lattice_delta(c, [int(e * 20) for e in eps_list],
                                                        Fraction(1, 20), eps), eps=eps)
        assert abs(enum - lat) < 10**-50
    # 24 mechanisms (beyond enumeration): 12 x 0.1 and 12 x 0.25, exactly by the lattice;
    # reference: a double sum over the two binomial laws, typed here
    with mpmath.workdps(DPS):
        a, b = _q("0.1"), _q("0.25")
        eps = mpmath.mpf(1)
        pa, pb = mpmath.e**a / (1 + mpmath.e**a), mpmath.e**b / (1 + mpmath.e**b)
        ref = mpmath.fsum(
            mpmath.binomial(12, i) * pa**i * (1 - pa) ** (12 - i)
            * mpmath.binomial(12, j) * pb**j * (1 - pb) ** (12 - j)
            * max(0, 1 - mpmath.e ** (eps - (a * (2 * i - 12) + b * (2 * j - 12))))
            for i in range(13) for j in range(13))
        got = _ev("MV-OPT.delta_pure", 30, eps_list=",".join(["0.1"] * 12 + ["0.25"] * 12),
                  eps="1")
        assert _close(got, ref, 28)


def test_memoised_half_weights_are_the_values_of_their_own_precision():
    from dpverify.theorems.numerics import mv_lattice

    eps_list = tuple(Fraction(n, 7) for n in (1, 3, 4, 2, 5))
    eps = Fraction(1, 2)
    memos = (mv_lattice._HALF_WEIGHTS, mv_lattice._HALF_LOSSES)
    for memo in memos:
        memo.clear()
    for bits in (60, 200, 60):  # a hit at 60 bits after 200 bits must keep 60 bits' balls
        ctx = ArbCtx(bits)
        got = ctx.run(mv_delta_pure, eps_list=eps_list, eps=eps)
        fresh = [dict(memo) for memo in memos]
        for memo in memos:
            memo.clear()
        ref = ctx.run(mv_delta_pure, eps_list=eps_list, eps=eps)
        assert got.mid() == ref.mid() and got.rad() == ref.rad()
        for memo, saved in zip(memos, fresh, strict=True):
            memo.update(saved)
    for memo in memos:  # two halves at each of two precisions
        assert len(memo) == 4
    with mpmath.workdps(DPS):
        assert _close(MpCtx(200).run(mv_delta_pure, eps_list=eps_list, eps=eps),
                      mv_bruteforce([mpmath.mpf(e.numerator) / e.denominator for e in eps_list],
                                    mpmath.mpf(eps.numerator) / eps.denominator), 50)


def test_mv_opt_refuses_large_off_lattice_input():
    primes = [101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179,
              181, 191, 193, 197, 199]
    ev = get("MV-OPT").evaluator("delta")
    params = bind(ev.params, {"eps_list": ",".join(f"1/{p}" for p in primes), "eps": "0.1"})
    with pytest.raises(InvalidParameter, match=rf"eps_list.*at most {MV_MAX_ENUM_K}"):
        evaluate(ev, params, 15)


def test_mv_approx_upper_bound_and_exact_step(capsys):
    with mpmath.workdps(DPS):
        el = "0.3,0.55,0.9,0.2,0.41"
        exact = mv_bruteforce([_q(x) for x in el.split(",")], _q("0.5"))
        assert _close(_ev("MV-APPROX", 30, eps_list=el, eps="0.5", step="0.01"), exact, 28)
        up = _ev("MV-APPROX", 30, eps_list=el, eps="0.5", step="0.07")
        # rounded up to multiples of 0.07 (exact ceil): 0.35, 0.56, 0.91, 0.21, 0.42
        ref_up = mv_bruteforce([_q(x) for x in ("0.35", "0.56", "0.91", "0.21", "0.42")],
                               _q("0.5"))
        assert _close(up, ref_up, 28)
        assert up > exact
    assert main(["eval", "MV-APPROX", "eps_list=1,2", "eps=0", "step=1e-7"]) == 2
    assert "too fine" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------
# BASIC, STK-BASIC-OPT, STK-ASYMP-OPT


def test_basic_and_laplace_witness(capsys):
    assert main(["eval", "BASIC", "eps_list=0.1,0.25,1/3", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "0.683333333333333"
    assert main(["eval", "STK-BASIC-OPT.mass", "k=5"]) == 0
    assert float(capsys.readouterr().out) == 2**-5
    assert main(["eval", "MV-OPT", "eps_list=0.3,0.5", "eps=0.1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["params"]["delta_list"] == []


def test_asymptotic_values():
    with mpmath.workdps(DPS):
        # exact eps at k = 100 is KOV-EPS(0.1, 0, 100, 1e-5): the bisection reference
        ref = eps_bisect(_q("0.1"), mpmath.mpf(0), 100, _q("1e-5"))
        got = _ev("STK-ASYMP-OPT", 25, rho="0.5", k="100", delta="1e-5")
        assert _close(got, ref, 23)
        # Gaussian limit: DRS-GDP with mu = 1, by its own closed form and bisection here
        def gdp(e):
            return mpmath.ncdf(-e + mpmath.mpf(1) / 2) - mpmath.e**e * mpmath.ncdf(-e - 0.5)
        lim = mpmath.findroot(lambda e: gdp(e) - mpmath.mpf("1e-5"), 4.3)
        assert _close(_ev("STK-ASYMP-OPT.eps_limit", 25, rho="0.5", delta="1e-5"), lim, 23)


def test_adaptive_instance_generator_draws_both_branches_and_rejects_no_mixture() -> None:
    """KOV-OPT claim 5's generator: every pair it hands out is an exact (log r, delta0)-DP pair
    of laws, and both branches occur (a mixture ``(1-lam) W + lam U`` has mass on the last
    output of P; the other branch never does). A mixture that failed its DP test would raise,
    not fall back silently to the other branch."""
    import random

    from dpverify.theorems.numerics.composition_enum import _is_dp_pair, _random_mechanism

    mixtures = 0
    for tree in range(200):
        r = 1 + Fraction(tree % 30 + 1, 20)
        delta0 = Fraction(tree % 7, 100)
        p, q = _random_mechanism(random.Random(tree), r, delta0)
        assert _is_dp_pair(p, q, r, delta0)
        mixtures += p[-1] > 0
    assert 0 < mixtures < 200
    assert not _is_dp_pair((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(3, 5)),
                           Fraction(2), Fraction(0))  # not a law (sums to 11/10)
