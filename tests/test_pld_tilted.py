"""Tests of the tilted FFT composition of the PLD engine (theorems/numerics/pld/tilted.py) and of
the ``auto`` method of the driver.

References: exact integer convolution (Python ints) of the same float masses, arb
exponentials, the exact ``fmpz_poly`` path of the engine, the Gaussian profile in its rho form
(q = 1) at 50 digits, exact binomial enumeration of k-fold randomized response. A planted zero
round-off bound and planted wrong weights must be caught.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import tilted
from tests.test_pld import contains, gauss_eps, kfold_rr_delta, mp
from tests.test_pld_fft import exact_conv


def spiky(rng: np.random.Generator, n: int) -> np.ndarray:
    """Like a subsampled Gaussian's PLD: most mass in a few cells, a long light right tail."""
    z = np.arange(n, dtype=float)
    v = np.exp(-z / (n / 12)) * rng.uniform(0.5, 1.5, n) * 1e-3 + 1e-40
    v[:3] += [0.5, 0.3, 0.1]
    return v / v.sum()


def upper_tail_violations(hi: np.ndarray, first: int, above: Fraction,
                          exact: list[Fraction]) -> int:
    """Indices t where the upper-tail mass of (hi from index ``first``, plus ``above`` at
    +inf) is below the exact one: the order the upper PLD must dominate in."""
    bad, acc_hi, acc_ex = 0, above, Fraction(0)
    for t in range(len(exact) - 1, -1, -1):
        acc_ex += exact[t]
        if first <= t < first + len(hi):
            acc_hi += Fraction(float(hi[t - first]))
        if acc_hi < acc_ex:
            bad += 1
    return bad


@pytest.mark.parametrize(("n", "lam"), [(60, Fraction(1, 8)), (400, Fraction(1, 32)),
                                        (900, Fraction(0))])
def test_tilted_convolution_brackets_the_exact_one(n: int, lam: Fraction) -> None:
    rng = np.random.default_rng(n)
    x, y = spiky(rng, n), spiky(rng, n // 2 + 9)
    exact = exact_conv(x, y)
    hi, lo, first, above = tilted.tilted_convolve(x, y, lam, True, budget=1e-30)
    assert sum(Fraction(float(a)) > b for a, b in zip(lo, exact, strict=True)) == 0
    assert upper_tail_violations(hi, first, above, exact) == 0
    # coefficientwise where it is kept, and the total is nearly the exact one
    for i, v in enumerate(hi):
        assert Fraction(float(v)) >= exact[first + i] or i == 0
    total = sum(Fraction(float(v)) for v in hi) + above
    assert total >= sum(exact) and float(total - sum(exact)) < 1e-9


def test_tilted_lower_convolution_is_dominated() -> None:
    rng = np.random.default_rng(5)
    x, y = spiky(rng, 300), spiky(rng, 200)
    exact = exact_conv(x, y)
    hi, lo, first, above = tilted.tilted_convolve(x, y, Fraction(1, 16), False)
    assert (first, above) == (0, 0)
    assert sum(Fraction(float(a)) > b for a, b in zip(lo, exact, strict=True)) == 0
    assert sum(Fraction(float(a)) < b for a, b in zip(hi, exact, strict=True)) == 0
    # relative accuracy where the tilted mass peaks (the point of tilting)
    peak = int(np.argmax(np.array([float(e) for e in exact]) * np.exp(np.arange(499) / 16)))
    assert float((Fraction(float(hi[peak])) - Fraction(float(lo[peak]))) / exact[peak]) < 1e-9


def test_planted_zero_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    x, y = spiky(rng, 800), spiky(rng, 500)
    exact = exact_conv(x, y)
    monkeypatch.setattr(tilted, "convolution_error_bound", lambda n, a, b: 0.0)
    _hi, lo, _first, _above = tilted.tilted_convolve(x, y, Fraction(1, 64), False)
    assert sum(Fraction(float(a)) > b for a, b in zip(lo, exact, strict=True)) > 0


def test_weights_are_within_alpha_of_the_exponentials() -> None:
    lam_h = Fraction(3, 1024)
    w, alpha = tilted.weights(lam_h, 5000)
    assert 0 < alpha < 1e-14
    with flint.ctx.workprec(200):
        for i in (0, 1, 77, 1234, 4999):
            true = (flint.arb(flint.fmpq(lam_h.numerator, lam_h.denominator)) * i).exp()
            rel = abs(flint.arb(float(w[i])) / true - 1)
            assert rel.upper() <= alpha


def test_planted_wrong_weights_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Weights off by far more than alpha break the untilting: the exact comparison sees it."""
    rng = np.random.default_rng(3)
    x, y = spiky(rng, 300), spiky(rng, 200)
    exact = exact_conv(x, y)
    real = tilted.weights
    tilted._TABLES.clear()
    monkeypatch.setattr(tilted, "weights",
                        lambda lam_h, n: (real(lam_h, n)[0] * (1 + 1e-6 * (np.arange(n) % 2)),
                                          real(lam_h, n)[1]))
    _hi, lo, _f, _a = tilted.tilted_convolve(x, y, Fraction(1, 16), False)
    assert sum(Fraction(float(a)) > b for a, b in zip(lo, exact, strict=True)) > 0


def test_saddle_tilt_centres_the_tilted_mean() -> None:
    pair = pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add")
    h = Fraction(1, 256)
    bits, tail = pld._plan(64, 1e-12)
    one = pld.FloatPLD.from_discrete(pld.one_step_plds(pair, h, bits, tail, lower=False)[0])
    lam = tilted.saddle_tilt([(one, 64)], 2.9, 50.0)
    assert lam > 0
    assert abs(64 * tilted._log_mgf(one, float(lam))[1] - 2.9) < 1e-3


# ------------------------------------------------------------------------------------------
# the fast path against the exact path and held-out values, at many digits


@pytest.mark.parametrize("method", ["tilted", "auto"])
def test_fast_path_contains_the_gaussian_value(method: str) -> None:
    """q = 1: the composed profile is the Gaussian one (held-out, rho form, 50 digits); the
    fast enclosure contains it and intersects the exact path's on the same grid."""
    sigma = Fraction(2)
    pairs = pld.sgm_pairs(Fraction(1), sigma)
    delta = Fraction(1, 10**5)
    h = Fraction(1, 512)
    with mp.workdps(50):
        for k in (1, 3, 8, 20):
            exact = pld.enclose_eps(pairs, k, delta, h=h, method="exact")
            fast = pld.enclose_eps(pairs, k, delta, h=h, method=method)
            assert fast.lo <= exact.hi and exact.lo <= fast.hi
            assert contains(fast, gauss_eps(mp.mpf(2) / mp.sqrt(k), mp.mpf(1) / 10**5))
            assert fast.hi - fast.lo <= 2 * (exact.hi - exact.lo) + Fraction(1, 10**9)


def test_fast_path_contains_the_subsampled_exact_path() -> None:
    """A subsampled Gaussian (the spiky case): the tilted enclosure intersects the exact one and
    stays close to it at small k."""
    pairs = pld.sgm_pairs(Fraction(1, 20), Fraction(1))
    h = Fraction(1, 256)
    for k in (2, 16, 64):
        exact = pld.enclose_eps(pairs, k, Fraction(1, 10**5), h=h, method="exact")
        fast = pld.enclose_eps(pairs, k, Fraction(1, 10**5), h=h, method="tilted")
        assert fast.lo <= exact.hi and exact.lo <= fast.hi
        assert float(fast.hi - fast.lo) <= 1.01 * float(exact.hi - exact.lo) + 1e-9


def test_tilted_delta_encloses_randomized_response() -> None:
    eps0 = Fraction(1, 2)
    k = 40
    for eps in ("1", "3"):
        enc = pld.enclose_delta([pld.RandomizedResponse(eps0)], k, Fraction(eps),
                                h=Fraction(1, 64), method="tilted")
        assert contains(enc, kfold_rr_delta(mp.mpf("0.5"), k, mp.mpf(eps)))


def test_tilted_method_needs_a_query() -> None:
    pair = pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add")
    with pytest.raises(ValueError, match="tilted"):
        pld.composed_pld(pair, 4, Fraction(1, 64), 64, 1e-12, "upper", method="tilted")


def test_auto_keeps_an_exact_pass_when_the_tilted_one_misses_the_target() -> None:
    """With a target the tilted pass cannot meet on its own, auto's result is the exact pass
    intersected with it: inside the exact enclosure."""
    pairs = pld.sgm_pairs(Fraction(1, 20), Fraction(1))
    h = Fraction(1, 256)
    delta = Fraction(1, 10**5)
    exact = pld.enclose_eps(pairs, 64, delta, h=h, method="exact")
    auto = pld.enclose_eps(pairs, 64, delta, h=h, method="auto", rel_width=1e-9)
    assert exact.lo <= auto.lo and auto.hi <= exact.hi


@settings(max_examples=4, deadline=None)
@given(q=st.sampled_from([Fraction(1, 50), Fraction(1, 10), Fraction(1, 4)]),
       sigma=st.sampled_from([Fraction(4, 5), Fraction(1), Fraction(3, 2)]),
       k=st.integers(1, 40))
def test_auto_finer_enclosures_are_inside_coarser_ones(q: Fraction, sigma: Fraction,
                                                       k: int) -> None:
    """With method "auto" too, the enclosure of a finer target lies inside the first pass and
    meets the coarse enclosure and the exact path's (all are rigorous)."""
    pairs = pld.sgm_pairs(q, sigma)
    delta = Fraction(1, 10**5)
    coarse = pld.enclose_eps(pairs, k, delta, rel_width=1e-2, method="auto")
    fine = pld.enclose_eps(pairs, k, delta, rel_width=2e-4, method="auto")
    exact = pld.enclose_eps(pairs, k, delta, rel_width=2e-4, method="exact")
    first = fine.passes[0]
    assert first["lo"] <= float(fine.lo) and float(fine.hi) <= first["hi"]
    assert coarse.lo <= fine.hi and fine.lo <= coarse.hi
    assert exact.lo <= fine.hi and fine.lo <= exact.hi
