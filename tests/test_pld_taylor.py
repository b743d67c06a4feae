"""The blockwise Taylor discretisation (theorems/numerics/pld/taylor.py) against the point-by-point
arb route, held-out values (Gaussian rho form, output-space quadrature), and the nesting of
enclosures under refinement."""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import taylor
from dpverify.theorems.numerics.pld.discretize import discretize, grid_for
from tests.test_pld import contains, gauss_eps
from tests.test_subsampling import sgm_add_quad, sgm_remove_quad

discretize_module = sys.modules["dpverify.theorems.numerics.pld.discretize"]

mp = mpmath.MPContext()
mp.dps = 50


def _fast_then_point_by_point(monkeypatch: pytest.MonkeyPatch, make):
    """``make()`` by the fast route (on every grid, however coarse), then by the old one (no
    series CDFs: every bin from arb ``erfc`` point by point); the caches are cleared around
    both."""
    monkeypatch.setattr(discretize_module, "TAYLOR_MIN_STEPS", 0)
    used = []
    fine = taylor.fine_bins
    monkeypatch.setattr(discretize_module, "fine_bins",
                        lambda *args: used.append(1) or fine(*args))
    pld._CACHE.clear()
    fast = make()
    assert used  # the fast route ran
    pld._CACHE.clear()
    monkeypatch.setattr(pld.SubsampledGaussian, "cdf_series", lambda self, z: None)
    old = make()
    pld._CACHE.clear()
    return fast, old


def _slow(pair: pld.LossPair, h: Fraction, offset: Fraction):
    """The four quantities of :mod:`.taylor` at half-step m from arb CDFs (independent of the
    series: cdf_sf, differences, the split formula)."""

    def z(j: Fraction) -> flint.arb:
        return pld._arb(offset) + pld._arb(j) * pld._arb(h)

    def mass(a: Fraction, b: Fraction) -> tuple[flint.arb, flint.arb]:
        fa, fb = pair.cdf_sf(z(a)), pair.cdf_sf(z(b))
        return fb[0] - fa[0], fb[1] - fa[1]

    def slow(m: int) -> list[flint.arb]:
        a = Fraction(m, 2)
        pb, qb = mass(a, a + 1)
        ea, eb = z(a).exp(), z(a + 1).exp()
        return [ea * (eb * qb - pb) / (eb - ea), eb * (pb - ea * qb) / (eb - ea), pb, qb]

    return slow


def _mismatches(series_pair: pld.LossPair, pair: pld.LossPair, h: Fraction, run: tuple[int, int],
                bits: int = 70) -> int:
    """Half steps of ``run`` whose Taylor enclosure (from ``series_pair``'s series) misses the
    arb point value of ``pair`` (or is more than 1e-12 relative + 2^-bits wide)."""
    grid = grid_for(pair, h)
    slow = _slow(pair, h, grid.offset)
    accepted = []
    block = taylor._block

    def counted(*args):
        got = block(*args)
        accepted.append(got is not None)
        return got

    taylor._block = counted
    try:
        [bins] = taylor.fine_bins(series_pair.cdf_series, grid.offset, h, [run], bits, slow)
    finally:
        taylor._block = block
    assert sum(accepted) >= 3  # the blocks, not only the point-by-point route, were checked
    bad = 0
    with pld.arb_precision(pld.PREC):
        for j in range(0, 2 * (run[1] - run[0]), 7):
            for name, v in zip(taylor.QUANTITIES, slow(2 * run[0] + j), strict=True):
                if (j % 2) != (name in ("p_step", "q_step")):  # split at grid points only,
                    continue  # the steps' masses half-way between them only
                lo, hi = (v[j // 2] for v in bins.bounds(name))
                mid = float(v.mid())
                if not (lo <= mid <= hi) or hi - lo > 1e-12 * abs(mid) + 2.0**-bits:
                    bad += 1
    return bad


@pytest.mark.parametrize(("q", "sigma", "direction"), [
    (Fraction(1, 100), Fraction(1), "add"), (Fraction(1, 100), Fraction(1), "remove"),
    (Fraction(256, 60000), Fraction(11, 10), "add"), (Fraction(1), Fraction(2), "remove")])
def test_taylor_bins_contain_the_arb_point_values(q, sigma, direction) -> None:
    pair = pld.SubsampledGaussian(q, sigma, direction)
    h = Fraction(1, 65536)
    centre = pair.quantile(0.5)
    i0 = math.floor(centre / float(h))
    assert _mismatches(pair, pair, h, (i0 - 300, i0 + 300)) == 0


def test_a_planted_wrong_series_is_caught() -> None:
    """Quality: a series of a slightly different pair (sigma off by 1e-9) misses the values."""
    pair = pld.SubsampledGaussian(Fraction(1, 100), Fraction(1), "add")
    wrong = pld.SubsampledGaussian(Fraction(1, 100), Fraction(1) + Fraction(1, 10**9), "add")
    h = Fraction(1, 65536)
    i0 = math.floor(pair.quantile(0.5) / float(h))
    assert _mismatches(wrong, pair, h, (i0 - 100, i0 + 100)) > 0


def test_short_series_are_refused() -> None:
    pair = pld.SubsampledGaussian(Fraction(1, 100), Fraction(1), "add")
    h = flint.arb(1) / 64
    cap = flint.ctx.cap
    try:
        flint.ctx.cap = taylor.TERMS - 1
        with pytest.raises(RuntimeError, match="evaluated"):
            taylor._series(pair.cdf_series, flint.arb(0), h)
        flint.ctx.cap = taylor.TERMS + 1
        with pytest.raises(RuntimeError, match="remainder"):
            taylor._remainders(pair.cdf_series, flint.arb(0), h, h, taylor.kernel_weights(h))
    finally:
        flint.ctx.cap = cap


@pytest.mark.parametrize(("q", "sigma", "direction"), [
    (Fraction(1, 100), Fraction(1), "add"), (Fraction(256, 60000), Fraction(11, 10), "remove"),
    (Fraction(1), Fraction(2), "add")])
def test_loss_densities_satisfy_the_privacy_loss_identity(q, sigma, direction) -> None:
    """``f_Q(u) = e^-u f_P(u)`` (the remainder bound of taylor.py step 2 rests on it): the
    series of ``F_P'`` and ``e^u F_Q'`` at a point agree coefficient by coefficient."""
    pair = pld.SubsampledGaussian(q, sigma, direction)
    cap = flint.ctx.cap
    try:
        flint.ctx.cap = 12
        with pld.arb_precision(pld.PREC):
            for u in (pair.quantile(0.3), pair.quantile(0.5), pair.quantile(0.01, upper=True)):
                t = flint.arb_series([pld._arb(Fraction(u)), 1])
                fp, fq = pair.cdf_series(t)
                lhs = fp.derivative().coeffs()
                rhs = (t.exp() * fq.derivative()).coeffs()
                for a, b in zip(lhs[:10], rhs[:10], strict=True):
                    assert a.overlaps(b)
                    assert float(abs(a - b).upper()) <= 1e-20 * float(abs(a).upper())
    finally:
        flint.ctx.cap = cap


@pytest.mark.parametrize(("q", "sigma", "direction", "z", "half_r"), [
    (Fraction(256, 60000), Fraction(11, 10), "add", 0.05, 200),
    (Fraction(256, 60000), Fraction(11, 10), "remove", -0.1, 400),
    (Fraction(1, 100), Fraction(1), "add", 0.3, 800)])
def test_remainder_bound_holds_and_is_not_vacuous(q, sigma, direction, z, half_r) -> None:
    """The bound of step 2 against the true remainder of the degree-N Taylor polynomial (arb
    coefficients at x0) at the block's ends, from arb point values of the quantities, both at
    320 bits (their own rounding far below the remainder): at least the true one (soundness),
    and within 10^3 of it (a bound that could not fail would not be tested)."""
    pair = pld.SubsampledGaussian(q, sigma, direction)
    h = Fraction(1, 65536)
    grid = grid_for(pair, h)
    centre = 2 * math.floor((z - float(grid.offset)) / float(h))
    slow = _slow(pair, h, grid.offset)
    cap = flint.ctx.cap
    try:
        with pld.arb_precision(320):
            hb = pld._arb(h)
            x0 = pld._arb(grid.offset) + pld._arb(Fraction(centre, 2)) * hb
            r = pld._arb(Fraction(half_r, 2)) * hb
            flint.ctx.cap = taylor.TERMS + 2
            got = taylor._remainders(pair.cdf_series, x0, r, hb, taylor.kernel_weights(hb))
            assert got is not None
            rems = got[0]
            flint.ctx.cap = taylor.TERMS
            coeffs = taylor._series(pair.cdf_series, x0, hb)
            worst = [flint.arb(0)] * 4
            for m in (centre - half_r, centre - half_r + 1, centre + half_r - 1, centre + half_r):
                t = pld._arb(Fraction(m - centre, 2)) * hb
                for qi, v in enumerate(slow(m)):
                    poly = sum((c * t**i for i, c in enumerate(coeffs[qi])), flint.arb(0))
                    worst[qi] = max(worst[qi], abs(v - poly).upper(), key=float)
    finally:
        flint.ctx.cap = cap
    for qi in range(4):
        assert float(worst[qi]) <= float(rems[qi])
        assert float(rems[qi]) <= 1e3 * float(worst[qi])


def test_non_dyadic_steps_take_the_point_route() -> None:
    """With h = 1/300 the float abscissae m h / 2 would not be the grid's: no Taylor blocks,
    and the enclosure still contains the Gaussian value."""
    assert taylor.taylor_exact_step(Fraction(3, 2**17))
    assert not taylor.taylor_exact_step(Fraction(1, 300))
    assert not taylor.taylor_exact_step(Fraction(2**41 + 1, 2**60))
    pld._CACHE.clear()
    enc = pld.enclose_eps(pld.sgm_pairs(Fraction(1), Fraction(2)), 3, Fraction(1, 10**5),
                          h=Fraction(1, 300))
    assert contains(enc, gauss_eps(mp.mpf(2) / mp.sqrt(3), mp.mpf(1) / 10**5))


def test_taylor_one_step_plds_match_the_point_route(monkeypatch) -> None:
    """Same grid, same bits: the upper masses agree to ~1e-13 of the total (float round-off
    only, outward) and the fast total is not below the point route's by more than that."""
    monkeypatch.setattr(discretize_module, "TAYLOR_MIN_STEPS", 0)
    used = []
    fine = taylor.fine_bins
    monkeypatch.setattr(discretize_module, "fine_bins",
                        lambda *args: used.append(1) or fine(*args))
    pair = pld.SubsampledGaussian(Fraction(1, 50), Fraction(1), "remove")
    grid = grid_for(pair, Fraction(1, 2048))
    bits = 70
    fast_up, fast_lo = discretize(pair, grid, bits, 1e-14, taylor=True)
    slow_up, slow_lo = discretize(pair, grid, bits, 1e-14, taylor=False)
    tol = 2**bits // 10**13
    # where the point route finds exactly zero mass the fast one may keep a unit (its float
    # bound is never exactly zero), so the lengths may differ by such bins
    n = max(len(fast_up), len(slow_up))
    fast_c = [int(fast_up.poly[i]) for i in range(n)]
    slow_c = [int(slow_up.poly[i]) for i in range(n)]
    assert max(abs(a - b) for a, b in zip(fast_c, slow_c, strict=True)) <= tol
    assert sum(fast_c) >= sum(slow_c) - tol
    assert abs(fast_lo.total_units() - slow_lo.total_units()) <= tol
    assert used  # the fast route ran


# ------------------------------------------------------------------------------------------
# the fast path against the old point-by-point path and held-out values, at many digits


@pytest.mark.parametrize("k", [1, 3, 8])
def test_q1_fast_and_point_paths_contain_the_gaussian_eps(k: int, monkeypatch) -> None:
    pairs = pld.sgm_pairs(Fraction(1), Fraction(2))
    delta = Fraction(1, 10**5)
    fast, old = _fast_then_point_by_point(
        monkeypatch, lambda: pld.enclose_eps(pairs, k, delta, h=Fraction(1, 512)))
    exact = gauss_eps(mp.mpf(2) / mp.sqrt(k), mp.mpf(1) / 10**5)
    assert contains(fast, exact) and contains(old, exact)
    assert abs(float(fast.hi - old.hi)) <= 1e-9 * float(old.hi)
    assert abs(float(fast.lo - old.lo)) <= 1e-9 * float(old.hi)


@pytest.mark.parametrize("eps", ["0.5", "1.5"])
def test_subsampled_one_step_delta_contains_the_quadrature(eps: str, monkeypatch) -> None:
    """k = 1: the subsampled profile by output-space quadrature (held-out, 50 digits) lies in
    both the fast and the point-by-point enclosures."""
    pairs = pld.sgm_pairs(Fraction(1, 20), Fraction(1))
    fast, old = _fast_then_point_by_point(
        monkeypatch, lambda: pld.enclose_delta(pairs, 1, Fraction(eps), h=Fraction(1, 1024)))
    qm, em = mp.mpf(1) / 20, mp.mpf(eps)
    ref = max(sgm_add_quad(qm, mp.mpf(1), em), sgm_remove_quad(qm, mp.mpf(1), em))
    assert contains(old, ref) and contains(fast, ref)


def test_subsampled_small_k_fast_path_intersects_the_point_path(monkeypatch) -> None:
    pairs = pld.sgm_pairs(Fraction(1, 20), Fraction(1))
    delta = Fraction(1, 10**5)
    for k in (2, 16):
        fast, old = _fast_then_point_by_point(
            monkeypatch, lambda k=k: pld.enclose_eps(pairs, k, delta, h=Fraction(1, 512)))
        monkeypatch.undo()
        assert fast.lo <= old.hi and old.lo <= fast.hi
        assert float(fast.hi - fast.lo) <= 1.001 * float(old.hi - old.lo) + 1e-10


# ------------------------------------------------------------------------------------------
# refinement


@settings(max_examples=8, deadline=None)
@given(q=st.sampled_from([Fraction(1, 50), Fraction(1, 10), Fraction(1, 4), Fraction(1)]),
       sigma=st.sampled_from([Fraction(4, 5), Fraction(1), Fraction(3, 2)]),
       k=st.integers(1, 40))
def test_finer_grids_give_nested_upper_ends_and_overlapping_enclosures(q, sigma, k) -> None:
    """On nested grids (h and h/4, aligned alike) connect-the-dots at the finer step is a
    refinement: its upper end is at most the coarser one's (up to the unit rounding); both
    enclosures are rigorous, so they overlap; the driver's enclosure at a finer target lies
    inside its own coarsest pass. (The lower ends need not nest: the pouring of the lower PLD
    is not monotone in h; q = 1/4, sigma = 4/5, k = 1 is an example.)"""
    pairs = pld.sgm_pairs(q, sigma)
    delta = Fraction(1, 10**5)
    coarse = pld.enclose_eps(pairs, k, delta, h=Fraction(1, 64))
    fine = pld.enclose_eps(pairs, k, delta, h=Fraction(1, 256))
    assert fine.hi <= coarse.hi * (1 + Fraction(1, 10**9))
    assert coarse.lo <= fine.hi and fine.lo <= coarse.hi
    target = pld.enclose_eps(pairs, k, delta, rel_width=1e-4)
    first = target.passes[0]
    assert first["lo"] <= float(target.lo) and float(target.hi) <= first["hi"]
    assert target.lo <= coarse.hi and coarse.lo <= target.hi
