"""The coarse cells' CDFs from Taylor series per stretch (discretize.series_cdf_sf) against
arb's point values (pair.cdf_sf), and a planted remainder error that is caught."""

from __future__ import annotations

import sys
from fractions import Fraction

import flint
import pytest

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld.discretize import grid_for

discretize_module = sys.modules["dpverify.theorems.numerics.pld.discretize"]


def _compare(pair: pld.LossPair, h: Fraction, points: list[int], bits: int) -> tuple[int, int]:
    """(stretch values that miss the arb point value or are wider than 2^-(bits+20), points
    the series covered)."""
    grid = grid_for(pair, h)
    bad = 0
    with pld.arb_precision(pld.PREC):
        off, hb = pld._arb(grid.offset), pld._arb(h)
        got = discretize_module.series_cdf_sf(pair, off, hb, points, bits)
        for j, vals in got.items():
            ref = pair.cdf_sf(off + pld._arb(j) * hb)
            for v, w in zip(vals, ref, strict=True):
                if not v.overlaps(w) or float(v.rad()) > 2.0**-(bits + 20):
                    bad += 1
    return bad, len(got)


def _tail_points(pair: pld.LossPair, h: Fraction) -> list[int]:
    """Grid points across a tail of the loss away from an edge of its support."""
    upper = pair.edges()[1] is None
    z0, z1 = sorted((pair.quantile(1e-3, upper=upper), pair.quantile(1e-14, upper=upper)))
    i0, i1 = int(z0 / float(h)), int(z1 / float(h))
    return list(range(i0, i1, max(1, (i1 - i0) // 300)))


@pytest.mark.parametrize(("q", "sigma", "direction"), [
    (Fraction(1, 1000), Fraction(4, 5), "add"), (Fraction(1, 1000), Fraction(4, 5), "remove"),
    (Fraction(256, 60000), Fraction(11, 10), "add"), (Fraction(1), Fraction(2), "remove")])
def test_series_cdfs_contain_the_arb_point_values(q, sigma, direction) -> None:
    pair = pld.SubsampledGaussian(q, sigma, direction)
    h = Fraction(1, 65536)
    bad, covered = _compare(pair, h, _tail_points(pair, h), 73)
    assert covered >= 250 and bad == 0


def test_points_off_the_support_are_left_to_the_point_route() -> None:
    """Below the add loss's lower edge log(1 - q) the series are not finite: no value there."""
    pair = pld.SubsampledGaussian(Fraction(1, 2), Fraction(1), "add")
    h = Fraction(1, 1024)
    edge = int(-0.6931471805599453 / float(h))
    with pld.arb_precision(pld.PREC):
        got = discretize_module.series_cdf_sf(pair, pld._arb(0), pld._arb(h),
                                              list(range(edge - 40, edge - 1)), 60)
    assert got == {}


def test_a_planted_small_remainder_is_caught(monkeypatch) -> None:
    """Quality: with short series (N = 6) and a loose tolerance the remainder is the whole error
    of the stretch values: their enclosures contain the arb values, and with the remainder
    bound halved (planted) some miss them."""
    pair = pld.SubsampledGaussian(Fraction(1, 1000), Fraction(4, 5), "add")
    h = Fraction(1, 65536)
    points = _tail_points(pair, h)
    monkeypatch.setattr(discretize_module, "CDF_TERMS", 6)

    def misses() -> int:
        grid = grid_for(pair, h)
        bad = 0
        with pld.arb_precision(pld.PREC):
            off, hb = pld._arb(grid.offset), pld._arb(h)
            got = discretize_module.series_cdf_sf(pair, off, hb, points, 20)
            assert len(got) >= 250
            for j, vals in got.items():
                ref = pair.cdf_sf(off + pld._arb(j) * hb)
                bad += sum(not v.overlaps(w) for v, w in zip(vals, ref, strict=True))
        return bad

    assert misses() == 0
    remainder = discretize_module.cdf_remainder
    monkeypatch.setattr(discretize_module, "cdf_remainder",
                        lambda c, r, n: remainder(c, r, n) / 2)
    assert misses() > 0


def test_pairs_without_series_get_nothing() -> None:
    with pld.arb_precision(pld.PREC):
        got = discretize_module.series_cdf_sf(pld.Laplace(1), flint.arb(0), flint.arb(1) / 64,
                                              [1, 2, 3], 60)
    assert got == {}


@pytest.mark.parametrize("bits", [70, 120])
def test_unit_runs_add_as_their_indices(bits: int) -> None:
    """``UnitAccumulator.add_floats`` with a start index (slice adds) gives the integers of the
    explicit consecutive indices (``np.add.at``), vectorised or not; a run past the end is
    refused."""
    import numpy as np

    from dpverify.theorems.numerics.pld._arith import UnitAccumulator

    rng = np.random.default_rng(5)
    units = np.floor(rng.uniform(0, 2.0**53, 40)) * 2.0 ** rng.integers(0, 9, 40)
    runs, explicit = UnitAccumulator(50, bits), UnitAccumulator(50, bits)
    for start in (0, 7, 10):
        runs.add_floats(start, units)
        explicit.add_floats(np.arange(start, start + 40), units)
    assert runs.poly() == explicit.poly() and runs.poly() != 0
    if bits <= 94:
        with pytest.raises(IndexError):
            runs.add_floats(11, units)
