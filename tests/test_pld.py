"""Tests of the certified PLD engine (theorems.pld) and of SGM-PLD-COMP's enclosures.

References are computed here by other routes: the Gaussian profile in its rho form and root
finding on it (q = 1), output-space quadrature of the subsampled pairs (one step), exact
binomial enumeration of k-fold randomized response, and exact rational convolution of small
discrete PLDs. The engine must enclose every one of them; its upper PLD must dominate its lower
one; its enclosures must narrow as the grid is refined. Scenario C itself is in
bench/bench_pld.py, not here.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import pytest

from dpverify.theorems import get
from dpverify.theorems.core import bind
from dpverify.theorems.numerics import pld
from dpverify.verifiers.evaluation import evaluate
from tests.test_subsampling import sgm_add_quad, sgm_remove_quad

mp = mpmath.MPContext()
mp.dps = 40


def gauss_rho_form(sigma, eps):
    rho = 1 / (2 * sigma**2)
    r = mp.sqrt(2 * rho)
    return mp.ncdf(-(eps - rho) / r) - mp.exp(eps) * mp.ncdf(-(eps + rho) / r)


def gauss_eps(sigma, delta):
    """Bisection on the rho form (decreasing in eps)."""
    a, b = mp.mpf(0), mp.mpf(1)
    while gauss_rho_form(sigma, b) > delta:
        b *= 2
    for _ in range(150):
        m = (a + b) / 2
        a, b = (m, b) if gauss_rho_form(sigma, m) > delta else (a, m)
    return (a + b) / 2


def contains(enc: pld.Enclosure, x) -> bool:
    return mp.mpf(enc.lo.numerator) / enc.lo.denominator <= x <= \
        mp.mpf(enc.hi.numerator) / enc.hi.denominator


def kfold_rr_delta(eps0, k, eps):
    """Exact hockey-stick of k-fold RR(eps0) (symmetric): binomial enumeration."""
    z = mp.exp(eps0)
    p1 = z / (1 + z)
    return mp.fsum(mp.binomial(k, j) * p1**j * (1 - p1) ** (k - j)
                   * max(1 - mp.exp(eps - (2 * j - k) * eps0), 0) for j in range(k + 1))


# ------------------------------------------------------------------------------------------
# q = 1: the Gaussian mechanism


@pytest.mark.parametrize(("sigma", "k", "delta"), [(1, 1, "1e-5"), (2, 10, "1e-5"),
                                                   (5, 64, "1e-9")])
def test_q1_contains_gaussian_eps(sigma, k, delta) -> None:
    enc = pld.enclose_eps(pld.sgm_pairs(Fraction(1), Fraction(sigma)), k, Fraction(delta))
    exact = gauss_eps(mp.mpf(sigma) / mp.sqrt(k), mp.mpf(delta))
    assert contains(enc, exact)
    assert enc.rel_width() <= 1e-3


@pytest.mark.parametrize(("sigma", "k", "eps"), [(2, 10, "1"), (1, 3, "0.5"), (1, 1, "8")])
def test_q1_contains_gaussian_delta(sigma, k, eps) -> None:
    enc = pld.enclose_delta(pld.sgm_pairs(Fraction(1), Fraction(sigma)), k, Fraction(eps))
    assert contains(enc, gauss_rho_form(mp.mpf(sigma) / mp.sqrt(k), mp.mpf(eps)))
    assert enc.rel_width() <= 1e-3


# ------------------------------------------------------------------------------------------
# k = 1: the exact one-step profile (both directions)


@pytest.mark.parametrize(("q", "sigma", "eps"), [("0.01", "1", "0.1"), ("0.1", "0.8", "1"),
                                                 ("0.5", "2", "0.01")])
def test_k1_contains_one_step_profile(q, sigma, eps) -> None:
    pairs = pld.sgm_pairs(Fraction(q), Fraction(sigma))
    enc = pld.enclose_delta(pairs, 1, Fraction(eps))
    qm, sm, em = mp.mpf(Fraction(q).numerator) / Fraction(q).denominator, mp.mpf(sigma), \
        mp.mpf(Fraction(eps).numerator) / Fraction(eps).denominator
    exact = max(sgm_add_quad(qm, sm, em), sgm_remove_quad(qm, sm, em))
    assert contains(enc, exact)


def test_k1_contains_one_step_eps() -> None:
    q, s, d = mp.mpf("0.01"), mp.mpf(1), mp.mpf("1e-5")
    exact = mp.findroot(lambda e: sgm_add_quad(q, s, e) - d, (mp.mpf("0.1994"),
                                                               mp.mpf("0.1995")), solver="secant")
    enc = pld.enclose_eps(pld.sgm_pairs(Fraction(1, 100), Fraction(1)), 1, Fraction(1, 10**5))
    assert contains(enc, exact)


def test_replace_one_pair_one_step() -> None:
    """The replace-one pair's profile against output-space quadrature of
    ((1-q)N(0) + qN(-1), (1-q)N(0) + qN(1))."""
    q, s, e = mp.mpf("0.3"), mp.mpf("1.5"), mp.mpf("0.2")

    def npdf(y, m):
        return mp.exp(-((y - m) / s) ** 2 / 2) / (s * mp.sqrt(2 * mp.pi))

    f = lambda y: (1 - q) * npdf(y, 0) + q * npdf(y, -1) - mp.exp(e) * (  # noqa: E731
        (1 - q) * npdf(y, 0) + q * npdf(y, 1))
    y0 = mp.findroot(f, (-5, 5), solver="illinois")
    exact = mp.quad(lambda y: max(f(y), 0), [-mp.inf, y0 - 10, y0, mp.inf])
    enc = pld.enclose_delta(pld.sgm_pairs(Fraction(3, 10), Fraction(3, 2), "replace_one"), 1,
                            Fraction(1, 5))
    assert contains(enc, exact)


# ------------------------------------------------------------------------------------------
# other pairs, exact references


@pytest.mark.parametrize(("eps0", "k", "eps"), [("1", 1, "0.5"), ("0.5", 7, "1"),
                                                ("0.3", 20, "2")])
def test_randomized_response_kfold(eps0, k, eps) -> None:
    pair = pld.RandomizedResponse(Fraction(eps0))
    enc = pld.enclose_delta([pair], k, Fraction(eps), rel_width=1e-2)
    assert contains(enc, kfold_rr_delta(mp.mpf(eps0), k, mp.mpf(eps)))


@pytest.mark.parametrize("eps", ["0", "0.3", "0.9"])
def test_laplace_one_step(eps) -> None:
    """STK-LAPLACE: delta(eps) = 1 - exp((eps - eps0)/2) for |eps| <= eps0 (b = 1)."""
    enc = pld.enclose_delta([pld.Laplace(Fraction(1))], 1, Fraction(eps), rel_width=1e-2)
    assert contains(enc, 1 - mp.exp((mp.mpf(eps) - 1) / 2))


# ------------------------------------------------------------------------------------------
# the engine's invariants


def test_upper_dominates_lower_and_certification() -> None:
    pair = pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add")
    h = Fraction(1, 512)
    bits, tail = pld._plan(50, 1e-14)
    upper, lower = pld.composed_plds(pair, 50, h, bits, tail)
    for e in ("0", "0.25", "0.5", "1", "2"):
        up, lo = upper.delta_at(Fraction(e)), lower.delta_at(Fraction(e))
        assert up.upper() >= lo.lower()
    delta = Fraction(1, 10**6)
    e_hi, e_lo = upper.eps_bound(delta), lower.eps_bound(delta)
    assert e_lo <= e_hi
    assert upper.delta_at(e_hi) <= pld._arb(delta)
    assert e_lo == 0 or lower.delta_at(e_lo) > pld._arb(delta)


def test_enclosure_narrows_with_the_grid() -> None:
    pairs = pld.sgm_pairs(Fraction(1, 10), Fraction(1))
    encs = [pld.enclose_eps(pairs, 10, Fraction(1, 10**5), h=Fraction(1, 64) / 2**i)
            for i in range(3)]
    widths = [e.hi - e.lo for e in encs]
    assert widths[0] > widths[1] > widths[2]
    for a in encs:
        for b in encs:
            assert a.lo <= b.hi and b.lo <= a.hi  # all rigorous: they must meet


def test_exact_integer_composition() -> None:
    """compose() against exact rational convolution: upper within [exact, exact + 1 unit] per
    coefficient, lower within [exact - 1 unit, exact]; the +inf atom composes as 1 - (1-a)(1-b)."""
    bits = 20
    scale = 2**bits
    a = [Fraction(1, 3), Fraction(1, 6), Fraction(1, 2) - Fraction(1, 64)]
    b = [Fraction(1, 5), Fraction(3, 5), Fraction(1, 5) - Fraction(1, 32)]
    ia, ib = Fraction(1, 64), Fraction(1, 32)
    h = Fraction(1, 8)
    exact = [sum((a[i] * b[j] for i in range(3) for j in range(3) if i + j == n), Fraction(0))
             for n in range(5)]
    exact_inf = 1 - (1 - ia) * (1 - ib)
    for kind, rnd in (("upper", math.ceil), ("lower", math.floor)):
        pa = pld.DiscretePLD(kind, h, Fraction(-1, 8), flint.fmpz_poly([rnd(x * scale) for x in a]),
                             rnd(ia * scale), bits, 0)
        pb = pld.DiscretePLD(kind, h, Fraction(1, 4), flint.fmpz_poly([rnd(x * scale) for x in b]),
                             rnd(ib * scale), bits, 0)
        c = pa.compose(pb)
        assert c.shift == Fraction(1, 8)
        coeffs = [Fraction(int(v), scale) for v in c.poly.coeffs()]
        for got, want in zip(coeffs, exact, strict=True):
            if kind == "upper":
                assert want <= got <= want + Fraction(3, scale)
            else:
                assert want - Fraction(3, scale) <= got <= want
        inf = Fraction(c.inf, scale)
        assert (exact_inf <= inf) if kind == "upper" else (inf <= exact_inf)


def test_parameters_as_balls_are_rigorous() -> None:
    """q and sigma given as arb balls (e.g. from an interval box): the enclosure holds for every
    value in the balls, so it contains the exact value at the centre."""
    with pld.arb_precision(128):
        q = flint.arb(flint.fmpq(1, 10)).union(flint.arb(flint.fmpq(100001, 1000000)))
    pairs = pld.sgm_pairs(q, Fraction(4, 5))
    enc = pld.enclose_delta(pairs, 1, Fraction(1), h=Fraction(1, 256))
    exact = max(sgm_add_quad(mp.mpf("0.1"), mp.mpf("0.8"), mp.mpf(1)),
                sgm_remove_quad(mp.mpf("0.1"), mp.mpf("0.8"), mp.mpf(1)))
    assert contains(enc, exact)


def test_evaluator_reports_enclosure_digits() -> None:
    ev = get("SGM-PLD-COMP").evaluator("eps")
    res = evaluate(ev, bind(ev.params, {"q": "0.05", "sigma": "1.5", "k": "20",
                                        "delta": "1e-6"}), 30)
    lo, hi = (mp.mpf(x) for x in res.enclosure)
    v = mp.mpf(res.value)
    assert lo <= v <= hi
    assert len(res.value.replace(".", "").lstrip("0")) < 12  # not 30 spurious digits
    assert hi - lo <= mp.mpf("1e-3") * hi


def test_unit_accumulator_floats_are_the_nearest_floats_of_its_integers() -> None:
    """``UnitAccumulator.result``: the exact integers (int64 parts, Python ints above 2^62 and
    from ``add_int``) and their nearest floats, as ``DiscretePLD.unit_floats`` would convert
    them (values that truncation and nearest rounding tell apart; zeros at the top dropped)."""
    import numpy as np

    from dpverify.theorems.numerics.pld._arith import UnitAccumulator

    acc = UnitAccumulator(8, 70)
    units = np.array([0.0, 1.0, 2.0**53 + 2.0, 2.0**60 + 2.0**9, 2.0**69, 3.0 * 2**66, 5.0, 0.0])
    acc.add_floats(np.arange(8), units)
    acc.add_floats(np.array([3, 4, 4]), np.array([2.0**8 - 1, 2.0**40 + 1, 1.0]))
    acc.add_int(2, 1)
    acc.add_int(5, 2**64 + 3)
    poly, floats = acc.result()
    want = [0, 1, 2**53 + 3, 2**60 + 2**9 + 2**8 - 1, 2**69 + 2**40 + 2, 3 * 2**66 + 2**64 + 3, 5]
    assert [int(c) for c in poly.coeffs()] == want
    assert floats.tolist() == [float(v) for v in want]
    assert not floats.flags.writeable
    d = pld.DiscretePLD("upper", Fraction(1, 8), Fraction(0), poly, 0, 70, 2**54)
    d.set_unit_floats(floats)
    assert d.unit_floats() is floats
    trimmed = d._trimmed()  # 2^53 + 3 units at the left move up, into 2^60 + ...
    assert trimmed.poly != d.poly
    assert trimmed.unit_floats().tolist() == [float(c) for c in trimmed.poly.coeffs()]
