"""Quality of the blockwise Taylor bins' error terms (theorems/numerics/pld/taylor.py, steps 2
and 4): the Horner rounding factor is Higham's bound for the block's own degree (an off-by-one
degree is caught by the exact comparison), the rounding term is load-bearing (without it float
Horner values with cancellation miss their exact values), and a halved remainder bound makes
bins miss their arb point values (the blocks of up to ``MAX_BLOCK`` half steps rest on the same
bounds: their size changes no formula)."""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import numpy as np
import pytest

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import taylor
from dpverify.theorems.numerics.pld.discretize import grid_for

U = Fraction(1, 2**53)


def _higham(d: int) -> Fraction:
    """``gamma_{2n} (1 + 2 gamma_{2n})``, n = d - 1 (Horner on d coefficients), exactly."""
    n = 2 * (d - 1)
    gamma = n * U / (1 - n * U)
    return gamma * (1 + 2 * gamma)


def test_horner_factor_is_highams_bound_for_the_degree() -> None:
    for d in range(1, taylor.TERMS + 1):
        got = Fraction(taylor.horner_factor(d))
        assert _higham(d) <= got <= _higham(d) * (1 + Fraction(1, 2**39))
    # planted: the factor of one degree less (the degree off by one) is below the bound
    for d in range(2, taylor.TERMS + 1):
        assert Fraction(taylor.horner_factor(d - 1)) < _higham(d)


def _cancelling_blocks(d: int, n: int, h: float) -> list[tuple[int, int, np.ndarray, np.ndarray,
                                                             int]]:
    """One block of n grid steps whose polynomials ``(t - a)^(d-1) (1 + t)`` (float
    coefficients) vanish near grid abscissae: large ``S(r)``, values with cancellation."""
    half_r = n
    out = []
    for a_steps in (0.5, 3.25, -7.75):
        a = a_steps * h
        poly = np.polynomial.polynomial.polyfromroots([a] * (d - 2) + [-1.0]) * 3.0
        coeffs = np.zeros((4, taylor.TERMS))
        for qi in range(4):
            coeffs[qi, :d] = poly * (1 + qi / 7)
        out.append((0, 2 * half_r, coeffs, np.zeros(4), d))
    return out


def _misses(blocks, h: float, n: int) -> int:
    bad = 0
    for block in blocks:
        lo = {name: np.full(n, np.nan) for name in taylor.QUANTITIES}
        hi = {name: np.full(n, np.nan) for name in taylor.QUANTITIES}
        for parity in (0, 1):
            taylor._evaluate([block], h, lo, hi, parity)
        _m, s, coeffs, _c, d = block
        half_r = (s + 1) // 2
        for j in range(s):
            t = Fraction(j - half_r) * Fraction(h) / 2
            names = taylor.QUANTITIES[2 * (j % 2):2 * (j % 2) + 2]
            for qi, name in zip(range(2 * (j % 2), 2 * (j % 2) + 2), names, strict=True):
                exact = sum(Fraction(float(c)) * t**i for i, c in enumerate(coeffs[qi, :d]))
                if not Fraction(lo[name][j // 2]) <= exact <= Fraction(hi[name][j // 2]):
                    bad += 1
    return bad


@pytest.mark.parametrize("d", [6, 12, 20])
def test_horner_enclosures_contain_the_exact_values(d: int, monkeypatch) -> None:
    """The float Horner values of :func:`taylor._evaluate` with the bound of step 4 contain the
    exact rational values of the float polynomials; with the rounding term removed (planted),
    some miss them (the cancellation makes the rounding error visible)."""
    h, n = 2.0**-10, 24
    blocks = _cancelling_blocks(d, n, h)
    assert _misses(blocks, h, n) == 0
    monkeypatch.setattr(taylor, "horner_factor", lambda d: 0.0)
    assert _misses(blocks, h, n) > 0


def _remainder_misses(scale: float, monkeypatch) -> int:
    """Bins of a short-series (N = 6) Taylor run on the add pair that miss the arb point
    values, with the remainder bounds multiplied by ``scale`` (short series and a tight
    tolerance: the remainder is the largest error term, and the ball's bound is within 2 of
    the true remainder)."""
    monkeypatch.setattr(taylor, "TERMS", 6)
    monkeypatch.setattr(taylor, "REL_TOL", 2.0**-40)
    remainders = taylor._remainders

    def scaled(*args):
        got = remainders(*args)
        return None if got is None else ([r * scale for r in got[0]], got[1])

    monkeypatch.setattr(taylor, "_remainders", scaled)
    test_taylor = sys.modules.get("tests.test_pld_taylor")
    if test_taylor is None:
        import tests.test_pld_taylor as test_taylor
    pair = pld.SubsampledGaussian(Fraction(1, 100), Fraction(1), "add")
    h = Fraction(1, 4096)
    grid = grid_for(pair, h)
    slow = test_taylor._slow(pair, h, grid.offset)
    i0 = math.floor(pair.quantile(0.5) / float(h))
    run = (i0 - 400, i0 + 400)
    [bins] = taylor.fine_bins(pair.cdf_series, grid.offset, h, [run], 40, slow)
    bad = 0
    with pld.arb_precision(pld.PREC):
        for j in range(2 * (run[1] - run[0])):
            for name, v in zip(taylor.QUANTITIES, slow(2 * run[0] + j), strict=True):
                if (j % 2) != (name in ("p_step", "q_step")):
                    continue
                lo, hi = (a[j // 2] for a in bins.bounds(name))
                if not (lo <= float(v.lower()) and float(v.upper()) <= hi):
                    bad += 1
    return bad


def test_short_series_bins_contain_the_point_values(monkeypatch) -> None:
    assert _remainder_misses(1.0, monkeypatch) == 0


def test_a_planted_small_remainder_is_caught(monkeypatch) -> None:
    """Quality: the remainder bound halved (planted) lets bins miss the arb values."""
    assert _remainder_misses(0.5, monkeypatch) > 0
