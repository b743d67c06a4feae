"""Tests of the FFT composition of the PLD engine (theorems/numerics/pld/fft.py), of the
refinement driver's intersection and of heterogeneous compositions.

References: exact integer convolution (Python ints) of the same float masses, the exact
``fmpz_poly`` path of the engine, the Gaussian profile in its rho form (q = 1), exact binomial
enumeration of k-fold randomized response. A planted zero error bound and a planted perturbed
convolution must be caught.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import fft as pld_fft
from tests.test_pld import contains, gauss_eps, kfold_rr_delta, mp


def exact_conv(x: np.ndarray, y: np.ndarray) -> list[Fraction]:
    """The exact convolution of two float arrays (every float is a dyadic rational)."""
    ex = min(int(np.frexp(v)[1]) for v in np.concatenate([x, y]) if v > 0) - 60
    xi = [int(Fraction(float(v)) / Fraction(2) ** ex) for v in x]
    yi = [int(Fraction(float(v)) / Fraction(2) ** ex) for v in y]
    out = [0] * (len(x) + len(y) - 1)
    for i, a in enumerate(xi):
        if a:
            for j, b in enumerate(yi):
                out[i + j] += a * b
    return [Fraction(v) * Fraction(2) ** (2 * ex) for v in out]


def masses(rng: np.random.Generator, n: int) -> np.ndarray:
    """A probability vector with a bulk and geometric tails (like a PLD)."""
    z = np.linspace(-4, 4, n)
    v = np.exp(-z * z / 2) * rng.uniform(0.5, 1.5, n) + 1e-30
    return v / v.sum()


def violations(c: np.ndarray, exact: list[Fraction], upper: bool) -> int:
    if upper:
        return sum(Fraction(float(a)) < b for a, b in zip(c, exact, strict=True))
    return sum(Fraction(float(a)) > b for a, b in zip(c, exact, strict=True))


@pytest.mark.parametrize("n", [60, 300, 1500])
def test_outward_convolution_brackets_the_exact_one(n: int) -> None:
    rng = np.random.default_rng(n)
    x, y = masses(rng, n), masses(rng, n // 2 + 7)
    exact = exact_conv(x, y)
    up = pld_fft.convolve_outward(x, y, upper=True)
    lo = pld_fft.convolve_outward(x, y, upper=False)
    assert violations(up, exact, True) == 0
    assert violations(lo, exact, False) == 0
    # and not much wider than the a-priori bound
    bound = pld_fft.convolution_error_bound(1 << (len(exact) - 1).bit_length(), x, y)
    assert float(np.max(up - lo)) <= 3 * bound + 1e-300


def test_planted_zero_bound_is_caught() -> None:
    """With the error bound set to 0 the FFT's round-off puts some 'upper' coefficients below
    the exact convolution: the comparison above sees it."""
    rng = np.random.default_rng(7)
    x, y = masses(rng, 800), masses(rng, 500)
    exact = exact_conv(x, y)
    up = pld_fft.convolve_outward(x, y, upper=True, error_bound=lambda n, a, b: 0.0)
    lo = pld_fft.convolve_outward(x, y, upper=False, error_bound=lambda n, a, b: 0.0)
    assert violations(up, exact, True) > 0
    assert violations(lo, exact, False) > 0


def test_planted_perturbed_convolution_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A convolution off by far more than the round-off (a planted bug in the transform) is
    not covered by the a-priori bound, and the check against exact arithmetic fails."""
    rng = np.random.default_rng(11)
    x, y = masses(rng, 400), masses(rng, 300)
    exact = exact_conv(x, y)
    real_irfft = np.fft.irfft
    monkeypatch.setattr(np.fft, "irfft", lambda a, n: real_irfft(a, n) * (1 - 1e-9))
    up = pld_fft.convolve_outward(x, y, upper=True)
    assert violations(up, exact, True) > 0


def test_fft_enclosure_contains_the_exact_path() -> None:
    """Same grid, same one-step PLDs: the FFT enclosure contains the exact path's, and the
    q = 1 (Gaussian) reference value, and is not much wider at this delta."""
    sigma = Fraction(2)
    pairs = pld.sgm_pairs(Fraction(1), sigma)
    delta = Fraction(1, 1000)
    h = Fraction(1, 512)
    for k in (1, 3, 8):
        exact = pld.enclose_eps(pairs, k, delta, h=h, method="exact")
        fast = pld.enclose_eps(pairs, k, delta, h=h, method="fft")
        assert fast.lo <= exact.lo and exact.hi <= fast.hi
        assert (fast.hi - fast.lo) <= 2 * (exact.hi - exact.lo) + Fraction(1, 10**9)
        ref = gauss_eps(mp.mpf(2) / mp.sqrt(k), mp.mpf(1) / 1000)
        assert contains(fast, ref)


def test_fft_delta_encloses_randomized_response() -> None:
    eps0 = Fraction(1, 2)
    k = 40
    for eps in ("1", "3"):
        enc = pld.enclose_delta([pld.RandomizedResponse(eps0)], k, Fraction(eps),
                                h=Fraction(1, 64), method="fft")
        assert contains(enc, kfold_rr_delta(mp.mpf("0.5"), k, mp.mpf(eps)))


def test_fft_composed_plds_bracket_the_exact_ones() -> None:
    pair = pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add")
    h = Fraction(1, 256)
    bits, tail = pld._plan(64, 1e-12)
    up_e, lo_e = pld.composed_plds(pair, 64, h, bits, tail, method="exact")
    up_f, lo_f = pld.composed_plds(pair, 64, h, bits, tail, method="fft")
    for e in ("0.5", "1", "2", "3"):
        eps = Fraction(e)
        assert up_f.delta_at(eps).upper() >= up_e.delta_at(eps).lower()
        assert lo_f.delta_at(eps).lower() <= lo_e.delta_at(eps).upper()
        assert lo_f.delta_at(eps).upper() <= up_f.delta_at(eps).upper()


def test_unknown_method_is_refused() -> None:
    with pytest.raises(ValueError, match="method"):
        pld.enclose_eps(pld.sgm_pairs(Fraction(1), Fraction(2)), 1, Fraction(1, 100),
                        method="float")


# ------------------------------------------------------------------------------------------
# the driver: intersected passes, nesting


@settings(max_examples=6, deadline=None)
@given(q=st.sampled_from([Fraction(1, 50), Fraction(1, 10), Fraction(1, 4)]),
       sigma=st.sampled_from([Fraction(4, 5), Fraction(1), Fraction(3, 2)]),
       k=st.integers(1, 40))
def test_finer_enclosures_are_inside_coarser_ones(q: Fraction, sigma: Fraction, k: int) -> None:
    """The driver intersects its passes, so the enclosure of a finer target lies inside the
    first (coarsest) pass, and every pass overlaps every other (all are rigorous)."""
    pairs = pld.sgm_pairs(q, sigma)
    delta = Fraction(1, 10**5)
    coarse = pld.enclose_eps(pairs, k, delta, rel_width=1e-2)
    fine = pld.enclose_eps(pairs, k, delta, rel_width=2e-4)
    first = fine.passes[0]
    assert first["lo"] <= float(fine.lo) and float(fine.hi) <= first["hi"]
    for p in fine.passes:
        assert fine.lo <= Fraction(p["hi"]) * (1 + Fraction(1, 10**12))
        assert Fraction(p["lo"]) <= fine.hi * (1 + Fraction(1, 10**12))
    assert coarse.lo <= fine.hi and fine.lo <= coarse.hi
    assert fine.hi - fine.lo <= coarse.hi - coarse.lo or fine.rel_width() <= 2e-4


# ------------------------------------------------------------------------------------------
# heterogeneous compositions


def test_heterogeneous_composition_of_equal_parts_is_the_self_composition() -> None:
    q, sigma = Fraction(1, 20), Fraction(1)
    delta = Fraction(1, 10**5)
    h = Fraction(1, 512)
    split = pld.enclose_eps_composition(pld.sgm_composition([(q, sigma, 30), (q, sigma, 20)]),
                                        delta, h=h)
    whole = pld.enclose_eps(pld.sgm_pairs(q, sigma), 50, delta, h=h)
    assert split.lo <= whole.hi and whole.lo <= split.hi
    assert abs(float(split.hi - whole.hi)) <= 1e-3 * float(whole.hi)


def test_heterogeneous_gaussians_match_the_gaussian_formula() -> None:
    """q = 1: Gaussians with sigma_1, sigma_2 compose to one with 1/sigma^2 = k1/s1^2 +
    k2/s2^2."""
    parts = [(Fraction(1), Fraction(2), 3), (Fraction(1), Fraction(3), 5)]
    enc = pld.enclose_eps_composition(pld.sgm_composition(parts), Fraction(1, 10**4),
                                      rel_width=1e-4)
    s_eff = 1 / mp.sqrt(mp.mpf(3) / 4 + mp.mpf(5) / 9)
    assert contains(enc, gauss_eps(s_eff, mp.mpf(1) / 10**4))


def test_heterogeneous_composition_refuses_bad_parts() -> None:
    with pytest.raises(ValueError):
        pld.enclose_eps_composition([[]], Fraction(1, 100))
    with pytest.raises(ValueError):
        pld.sgm_composition([])


def test_fft_composition_has_an_up_front_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pld_fft, "MAX_LENGTH", 100)
    one = pld_fft.FloatPLD("upper", Fraction(1, 8), Fraction(0), np.full(80, 1 / 80),
                           Fraction(0), 1e-12)
    with pytest.raises(pld.PrecisionExhausted):
        one.self_compose(4)


@settings(max_examples=200, deadline=None)
@given(st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**12))
def test_float_outward_is_the_nearest_float_on_its_side(x: Fraction) -> None:
    """The engine's one rational-to-float outward rounding (fft, tilted, fourier use it)."""
    import math

    from dpverify.theorems.numerics.pld._arith import float_outward

    up, down = float_outward(x, True), float_outward(x, False)
    assert Fraction(down) <= x <= Fraction(up)
    assert Fraction(math.nextafter(up, -math.inf)) < x or Fraction(up) == x
    assert Fraction(math.nextafter(down, math.inf)) > x or Fraction(down) == x
