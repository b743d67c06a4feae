"""Discretisation of one step: the grid, the upper ("connect the dots") and the lower
(post-processing: neighbour exchange of :mod:`.lower`, on coarse grids also the pouring of
:mod:`.pour`) one-step PLDs (see the package docstring). Integer units are accumulated in numpy
(:class:`._arith.UnitAccumulator`); the fine bins come from :mod:`.taylor`, the CDFs at the
ends of the coarse cells from one Taylor series per stretch of them (:func:`series_cdf_sf`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import (
    HALF,
    PREC,
    UnitAccumulator,
    UnitCoefficients,
    _arb,
    _dyadic_ceil,
    _dyadic_floor,
    _units,
    float_bounds_many,
)
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.lower import Bins, exp_grid, lower_atoms
from dpverify.theorems.numerics.pld.pairs import LossPair
from dpverify.theorems.numerics.pld.pour import _lower_masses
from dpverify.theorems.numerics.pld.taylor import FineTable, fine_bins, taylor_exact_step

MAX_BINS = 400_000  # one-step grid points per direction
POUR_MAX_BINS = 8192  # lower bins up to which the pouring is also tried (measured: on coarse
#                       grids its long-range merges sit higher than the neighbour exchange, on
#                       the fine grids of the 1e-5 targets lower; it costs ~10 us per bin)

@dataclass
class Grid:
    """Losses ``offset + i h`` (exact dyadic rationals)."""

    h: Fraction
    offset: Fraction

    def z(self, i: int) -> Fraction:
        return self.offset + i * self.h


def grid_for(pair: LossPair, h: Fraction) -> Grid:
    """Align the grid with a finite edge of the support (accuracy only, never soundness).

    Mass often piles up at such an edge (the subsampled Gaussian's losses accumulate at
    ``log(1-q)``). At a lower edge a grid *point* sits just below it, so the merged bin there
    has a loss just above its grid point; at an upper edge a bin *boundary* sits just above it,
    so the top bin's loss is near the edge, above its grid point, and can absorb mass from below.
    """
    lo_edge, hi_edge = pair.edges()
    if lo_edge is not None and hi_edge is None:
        b = _dyadic_floor(lo_edge)
        return Grid(h, b % h)
    if hi_edge is not None and lo_edge is None:
        b = _dyadic_ceil(hi_edge)
        return Grid(h, (b - h / 2) % h)
    return Grid(h, Fraction(0))


TAYLOR_MIN_STEPS = 512  # fewer fine grid steps: the point-by-point route (was 2048, when the
#                         blocks' remainder bound was too wide for coarse grids; measured with
#                         the bound of taylor.py step 2: the first passes of C (h = 3/4096) 0.22
#                         -> 0.11 s, A (1/512) 0.26 -> 0.10 s, HET 0.37 -> 0.27 s with blocks;
#                         on grids of a few hundred steps, e.g. q = 1/2, h = 1/64, they cost more)
COARSE = 32  # grid steps per cell
MAX_COARSE = 256  # grid steps per merged coarse cell in the tails at most
FINE_MASS = 2.0**-60  # a coarse cell with more P-mass than this (or than the tail budget)
#                        is resolved at step h


def _check_size(n: int) -> None:
    if n > 4 * MAX_BINS:
        raise PrecisionExhausted(f"the grid would need {n} points (more than {4 * MAX_BINS})")


def discretize(pair: LossPair, grid: Grid, bits: int, tail: float,
               window: tuple[float, float] | None = None,
               lower: bool = True, taylor: bool = True, pour: bool = False
               ) -> tuple[DiscretePLD, DiscretePLD | None]:
    """The upper and lower one-step PLDs of ``pair`` on ``grid`` (masses in units 2^-bits):
    :func:`discretize_deferred`, its lower PLD built at once (``lower``) or not at all."""
    upper_pld, finish = discretize_deferred(pair, grid, bits, tail, window, taylor, pour)
    return upper_pld, finish() if lower else None


def discretize_deferred(pair: LossPair, grid: Grid, bits: int, tail: float,
                        window: tuple[float, float] | None = None, taylor: bool = True,
                        pour: bool = False
                        ) -> tuple[DiscretePLD, Callable[[], DiscretePLD]]:
    """The upper one-step PLD of ``pair`` on ``grid`` (masses in units 2^-bits) and a function
    that builds the lower one on demand from the same cells, CDF values and Taylor table (the
    driver composes the lower PLD of one direction only: the others' are never built).

    ``tail`` is the P-mass allowed outside the window on each side (accounted, not ignored).
    Inside the window the loss axis is cut into coarse cells of ``COARSE`` steps; cells with
    more P-mass than ``tail`` (at least ``FINE_MASS``) are resolved at step h: both constructions
    are sound for any cells with end points on the grid; a coarse cell of mass m only moves the
    bounds by about ``m`` times its width per step.
    The fine bins come from blockwise Taylor expansions
    (:mod:`.taylor`) when the pair has series CDFs, unless ``taylor=False`` (every bin then
    from arb CDFs point by point: the reference route of the tests). The lower PLD is the
    neighbour exchange of :mod:`.lower` on the bins of :func:`_lower_bins` (with at most
    ``POUR_MAX_BINS`` bins also the pouring of :mod:`.pour`, the higher of the two is kept);
    ``pour=True`` only pours (the reference route of the tests).
    """
    h = grid.h
    if window is None:
        zlo = pair.quantile(tail)
        zhi = pair.quantile(tail, upper=True)
    else:
        zlo, zhi = window
    ilo = math.floor((Fraction(zlo) - grid.offset) / h) - 1
    ihi = math.ceil((Fraction(zhi) - grid.offset) / h) + 1
    ihi = ilo + COARSE * max(1, math.ceil((ihi - ilo) / COARSE))
    n = ihi - ilo + 1
    _check_size(n)
    with arb_precision(PREC):
        off, hb = _arb(grid.offset), _arb(h)

        def z_of(j: Fraction | int) -> flint.arb:  # grid index j (integer or half-integer), exact
            return off + _arb(j) * hb

        cache: dict[Fraction | int, tuple[flint.arb, ...]] = {}

        def cdf(j: Fraction | int) -> tuple[flint.arb, ...]:
            hit = cache.get(j)
            if hit is None:
                hit = cache[j] = pair.cdf_sf(z_of(j))
            return hit

        mass_cache: dict[tuple[Fraction | int, Fraction | int], tuple[flint.arb, flint.arb]] = {}

        def masses(a: Fraction | int, b: Fraction | int) -> tuple[flint.arb, flint.arb]:
            """P- and Q-mass of the losses in (z_a, z_b]: both CDF and survival differences
            enclose them; the intersection keeps the accurate one (small numbers). Cached:
            the lower PLD reads the coarse cells' again."""
            hit = mass_cache.get((a, b))
            if hit is not None:
                return hit
            fa, fb = cdf(a), cdf(b)
            out = []
            for i in (0, 1):
                x, y = fb[i] - fa[i], fa[i + 2] - fb[i + 2]
                out.append(x.intersection(y) if x.overlaps(y) else (x if x.rad() < y.rad()
                                                                     else y))
            hit = mass_cache[(a, b)] = (out[0], out[1])
            return hit

        # coarse cells; fine ones are resolved at step h (upper: from the grid points; lower:
        # centred on them, half bins at the ends of a run)
        cuts = list(range(ilo, ihi + 1, COARSE))
        cell_mass = _cell_masses(pair, grid, cuts)
        if cell_mass is None:
            cell_mass = [float(masses(a, b)[0].mid())
                         for a, b in itertools.pairwise(cuts)]
        cells = _merge_coarse(list(itertools.pairwise(cuts)), cell_mass, max(FINE_MASS, tail))

        ez_cache: dict[int, flint.arb] = {}

        def ez(i: int) -> flint.arb:  # e^{z_{ilo + i}}, exact point, arb
            hit = ez_cache.get(i)
            if hit is None:
                hit = ez_cache[i] = z_of(ilo + i).exp()  # int: the same ball as a Fraction
            return hit

        p_inf = pair.p_inf()
        fast = (_fast_fine_bins(pair, grid, ilo, cells, bits, masses, ez)
                if taylor else FineTable())
        rest = fast.uncovered(cells)
        if taylor:  # the coarse cells' ends: CDFs from series per stretch (arb, rigorous)
            ends = sorted({int(j) for a, b, fine in rest if not fine for j in (a, b)})
            cache.update(series_cdf_sf(pair, off, hb, ends, bits))

        # --- upper: connect the dots on each bin [z_a, z_b] ---
        up = UnitAccumulator(n, bits)
        for a, b, fine in rest:
            steps = [(a + t, a + t + 1) for t in range(int(b - a))] if fine else [(a, b)]
            for x, y in steps:
                ia, ib = int(x) - ilo, int(y) - ilo
                pb, qb = masses(x, y)
                width = ez(ib) - ez(ia)  # the P-mass split between the ends, Q-mass kept
                up.add_int(ia, _units(ez(ia) * (ez(ib) * qb - pb) / width, bits, True))
                up.add_int(ib, _units(ez(ib) * (pb - ez(ia) * qb) / width, bits, True))
        fast.add_upper(up, ilo)
        up.add_int(0, _units(cdf(Fraction(cuts[0]))[0], bits, True))  # below: to z_ilo
        up_inf = _units(cdf(Fraction(cuts[-1]))[2] + p_inf, bits, True)  # above: to +inf

        lo_inf = _units(p_inf, bits, False)
    shift = grid.z(ilo)
    upper_pld = DiscretePLD("upper", h, shift, up.coefficients(), up_inf, bits, 0)

    def finish_lower() -> DiscretePLD:
        lo: flint.fmpz_poly | UnitCoefficients
        with arb_precision(PREC):
            bins = _lower_bins(cells, fast, masses, ilo)
            if pour:
                lo = flint.fmpz_poly(_poured(pair, bins, ez, n, bits, grid.z(ilo), h))
            else:
                _e_lo, e_hi = exp_grid(z_of(Fraction(ilo)), hb, n)
                acc = UnitAccumulator(n, bits)
                t, mass = lower_atoms(bins, e_hi, float(grid.z(ilo)), float(h))
                acc.add_floats(t, np.floor(mass * 2.0**bits))
                lo = acc.coefficients()
                if len(bins) <= POUR_MAX_BINS:  # coarse grids: the pouring may sit higher
                    poured = flint.fmpz_poly(_poured(pair, bins, ez, n, bits, grid.z(ilo), h))
                    if _mass_position(poured) > _mass_position(lo.poly()):
                        lo = poured
        return DiscretePLD("lower", h, shift, lo, lo_inf, bits, 0)

    return upper_pld, finish_lower


CDF_TERMS = 20  # Taylor terms of the coarse cells' CDF series (the remainder: degree N)
CDF_MIN_STEPS = 8  # half-width of a series stretch at least (grid steps); below: arb points
CDF_MAX_STEPS = 1 << 16  # at most


def series_cdf_sf(pair: LossPair, off: flint.arb, hb: flint.arb, points: Sequence[int],
                  bits: int) -> dict[int, tuple[flint.arb, ...]]:
    """``cdf_sf`` at the grid points ``off + j h`` (j in ``points``, increasing) from Taylor
    series of the pair's CDFs, one per stretch of points within ``r = R h`` of a centre
    ``x0`` (exact): ``F(x0 + t) = sum_{i<N} c_i t^i + c_N(xi) t^N`` (Lagrange) with ``c_N(xi)``
    in the coefficient ``c_N(U)`` of the series on the ball ``U = [x0 - r, x0 + r]`` (arb series
    on a ball enclose every coefficient at every point of it), so ``F(x0 + t)`` lies in the
    arb value of the polynomial (arb coefficients at the exact ``x0``, exact ``t``) plus the
    ball ``[+- |c_N(U)| r^N]``; the survival functions are ``1 - F`` (arb, at the working
    precision: absolute errors ~2^-PREC, far below the units 2^-bits). A stretch is accepted
    when both remainders are below ``2^-(bits+24)`` (accuracy only: a coarse cell's split
    divides by ``e^{z_b} - e^{z_a}``), else halved; below ``CDF_MIN_STEPS`` the points are
    left to the caller (``pair.cdf_sf`` point by point). Pairs without series CDFs: empty.
    Measured on B's add pair (h = 1/65536): 530 coarse ends in ~5 stretches instead of 530
    arb ``erfc`` evaluations."""
    out: dict[int, tuple[flint.arb, ...]] = {}
    if not points or pair.cdf_series(flint.arb_series([flint.arb(0), 1])) is None:
        return out
    tol = flint.arb(2) ** (-bits - 24)
    one = flint.arb(1)
    cap = flint.ctx.cap
    try:
        i, steps = 0, 1024
        while i < len(points):
            centre = points[i] + steps
            got = _cdf_stretch(pair, off, hb, centre, steps, tol)
            if isinstance(got, float):
                if steps > CDF_MIN_STEPS:
                    steps //= 2
                    continue
                i += 1  # the point route for this one
                continue
            polys, rems, ratio = got
            while i < len(points) and points[i] <= centre + steps:
                t = _arb(points[i] - centre) * hb
                fp, fq = (poly(t) + rem for poly, rem in zip(polys, rems, strict=True))
                out[points[i]] = (fp, fq, one - fp, one - fq)
                i += 1
            if ratio < 2.0**-CDF_TERMS:  # doubling r multiplies the remainder by ~2^N
                steps = min(2 * steps, CDF_MAX_STEPS)
    finally:
        flint.ctx.cap = cap
    return out


def cdf_remainder(coeffs: Sequence[flint.arb], r: flint.arb, n: int) -> flint.arb:
    """``|c_N(U)| r^N`` from the coefficients of a series on the ball ``U`` (the Lagrange
    remainder of the degree ``N - 1`` Taylor polynomial on ``|t| <= r``)."""
    top = abs(coeffs[n]) if len(coeffs) > n else flint.arb(0)  # beyond: exact zeros
    return top * r.upper() ** n


def _cdf_stretch(pair: LossPair, off: flint.arb, hb: flint.arb, centre: int, steps: int,
                 tol: flint.arb) -> tuple[list[flint.arb_poly], list[flint.arb], float] | float:
    """The degree ``N - 1`` Taylor polynomials of ``(F_P, F_Q)`` at the grid point ``centre``,
    their remainder balls ``[+- |c_N(U)| r^N]`` on ``|t| <= r = steps h``
    (:func:`series_cdf_sf`) and the largest ratio of a remainder to ``tol`` (a float, for the
    next stretch's size); ``inf`` if a remainder is not finite or not below ``tol``."""
    n = CDF_TERMS
    x0 = off + _arb(centre) * hb
    r = _arb(steps) * hb
    flint.ctx.cap = n + 1
    ball = pair.cdf_series(flint.arb_series([x0 + r * flint.arb(0, 1), 1]))
    if ball is None:
        return math.inf
    rems = []
    ratio = 0.0
    for s in ball:
        c = s.coeffs()
        rem = cdf_remainder(c, r, n)
        if not (rem.is_finite() and rem < tol):
            return math.inf
        rems.append(flint.arb(0, rem.upper()))
        ratio = max(ratio, float(rem.upper() / tol))
    flint.ctx.cap = n
    at = pair.cdf_series(flint.arb_series([x0, 1]))
    assert at is not None
    polys = []
    for s in at:
        c = s.coeffs()[:n]
        if not all(v.is_finite() for v in c):
            return math.inf
        polys.append(flint.arb_poly(c))
    return polys, rems, ratio


def _lower_bins(cells: Sequence[tuple[int, int, bool]], fast: FineTable,
                masses: Callable[[Fraction | int, Fraction | int], tuple[flint.arb, flint.arb]],
                ilo: int) -> Bins:
    """The bins of the lower PLD in increasing loss order: in a maximal run ``[a, b]`` of
    adjacent fine cells ``[a, a + 1/2]``, the centred steps ``[t - 1/2, t + 1/2]`` and ``[b -
    1/2, b]`` (from the Taylor table if it covers the run, else from arb CDFs); a coarse cell is
    one bin."""
    parts: list[Bins] = []
    pending: list[tuple[Fraction, Fraction]] = []  # arb bins, converted in one go

    def flush() -> None:
        if not pending:
            return
        got = [masses(x, y) for x, y in pending]
        p_lo, p_hi = float_bounds_many([pb for pb, _qb in got])
        q_lo, q_hi = float_bounds_many([qb for _pb, qb in got])
        parts.append(Bins(p_lo, p_hi, q_lo, q_hi,
                          np.array([float(x) - ilo for x, _ in pending]),
                          np.array([float(y) - ilo for _, y in pending])))
        pending.clear()

    i = 0
    while i < len(cells):
        a, b, fine = cells[i]
        if not fine:
            pending.append((a, b))
            i += 1
            continue
        j = i  # the maximal run of adjacent fine cells from here, in one Taylor run if covered
        covered = fast.covers(a, b)
        # (a cell [a, b'] is covered iff b' is at most the end of the table's run holding a;
        # if [a, b] is not covered, no longer cell from a is)
        limit = fast.run_end(a) if covered else None
        while j + 1 < len(cells) and cells[j + 1][2] and cells[j + 1][0] == cells[j][1] \
                and (limit is not None and cells[j + 1][1] <= limit) == covered:
            j += 1
        end = cells[j][1]
        if covered:  # the half bins at the ends from arb, the centred ones from the table
            pending.append((a, a + HALF))
            flush()
            parts.append(fast.lower_bins(a, end, ilo))
            pending.append((end - HALF, end))
        else:
            pending.extend(itertools.pairwise(
                [a, *(a + t + HALF for t in range(int(end - a))), end]))
        i = j + 1
    flush()
    return Bins.concat(parts)


def _mass_position(poly: flint.fmpz_poly) -> int:
    """``sum_i m_i (i + 1)``: of two lower PLDs on one grid (every atom at or below its loss),
    the one with more mass higher up is kept (a heuristic: both are sound)."""
    return sum(int(c) * (i + 1) for i, c in enumerate(poly.coeffs()))


class _LazyExp(Sequence[flint.arb]):
    """``e^{z_i}`` for ``i < n``, computed when first read."""

    def __init__(self, ez: Callable[[int], flint.arb], n: int) -> None:
        self.ez, self.n = ez, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        if isinstance(i, slice):
            return [self.ez(j) for j in range(*i.indices(self.n))]
        return self.ez(i if i >= 0 else self.n + i)


def _poured(pair: LossPair, bins: Bins, ez: Callable[[int], flint.arb], n: int, bits: int,
            z0: Fraction, h: Fraction) -> list[int]:
    """The previous construction (:mod:`.pour`) on the same bins: the reference route."""
    def ball(lo: float, hi: float) -> flint.arb:
        return flint.arb(lo).union(flint.arb(hi))

    p = [ball(x, y) for x, y in zip(bins.p_lo.tolist(), bins.p_hi.tolist(), strict=True)]
    q = [ball(x, y) for x, y in zip(bins.q_lo.tolist(), bins.q_hi.tolist(), strict=True)]
    ezs = _LazyExp(ez, n)
    cands = [_lower_masses(p, q, ezs, bits, z0, h, downward=d) for d in _pourings(pair)]
    return max(cands, key=lambda c: sum(v * (i + 1) for i, v in enumerate(c)))


def _merge_coarse(cuts: Sequence[tuple[int, int]], mass: Sequence[float], fine_mass: float
                  ) -> list[tuple[int, int, bool]]:
    """The cells ``(a, b, fine)``: fine when their P-mass exceeds ``fine_mass``; adjacent coarse
    ones merged while their summed mass stays below it, up to ``MAX_COARSE`` steps (accuracy
    only: both constructions are sound for any cells with ends on the grid; a coarse cell of
    mass m moves the bounds by about m times its width per step, and the summed mass of the
    coarse cells is unchanged by merging)."""
    cells: list[tuple[int, int, bool]] = []
    acc = 0.0
    for (a, b), m in zip(cuts, mass, strict=True):
        fine = m > fine_mass
        if not fine and cells and not cells[-1][2] and acc + m <= fine_mass \
                and b - cells[-1][0] <= MAX_COARSE:
            cells[-1] = (cells[-1][0], b, False)
            acc += m
            continue
        cells.append((a, b, fine))
        acc = m
    return cells


def _cell_masses(pair: LossPair, grid: Grid, cuts: Sequence[int]) -> list[float] | None:
    """Float estimates of the P-masses of the coarse cells between the cuts (which cells are
    resolved at step h: accuracy only), from the pair's float CDFs if it has them: the
    difference of the smaller side, CDF below the median, survival above."""
    z = float(grid.offset) + np.array(cuts, dtype=float) * float(grid.h)
    got = pair.cdf_sf_float(z)
    if got is None:
        return None
    cdf, sf = got
    return np.where(cdf[1:] <= 0.5, cdf[1:] - cdf[:-1], sf[:-1] - sf[1:]).tolist()


def _pourings(pair: LossPair) -> tuple[bool, ...]:
    """The directions of pouring worth trying (``downward`` flags), from the support's edges."""
    lo_edge, hi_edge = pair.edges()
    if lo_edge is not None and hi_edge is None:
        return (False,)
    if hi_edge is not None and lo_edge is None:
        return (True,)
    return (False, True)


def _fast_fine_bins(pair: LossPair, grid: Grid, ilo: int,
                    cells: Sequence[tuple[int, int, bool]], bits: int,
                    masses: Callable[[Fraction | int, Fraction | int], tuple[flint.arb, flint.arb]],
                    ez: Callable[[int], flint.arb]) -> FineTable:
    """The fine bins by blockwise Taylor expansion (:mod:`.taylor`) if the pair has a series
    form of its CDFs; an empty table (every bin point by point) otherwise."""
    if pair.cdf_series(flint.arb_series([flint.arb(0), 1])) is None:
        return FineTable()
    if not taylor_exact_step(grid.h):  # the float abscissae would not be the grid's
        return FineTable()
    runs: list[tuple[int, int]] = []
    for a, b, fine in cells:
        if not fine:
            continue
        if runs and runs[-1][1] == int(a):
            runs[-1] = (runs[-1][0], int(b))
        else:
            runs.append((int(a), int(b)))

    if sum(b - a for a, b in runs) < TAYLOR_MIN_STEPS:
        return FineTable()
    zero = flint.arb(0)

    def slow(m: int) -> list[flint.arb]:
        """The quantities at half step m from arb CDFs: the split at grid points (even m),
        the step's masses half-way between them (odd m), the only ones used."""
        a = Fraction(m, 2)
        pb, qb = masses(a, a + 1)
        if m % 2:
            return [zero, zero, pb, qb]
        ea, eb = ez(m // 2 - ilo), ez(m // 2 - ilo + 1)
        width = eb - ea
        return [ea * (eb * qb - pb) / width, eb * (pb - ea * qb) / width, zero, zero]

    return FineTable(fine_bins(pair.cdf_series, grid.offset, grid.h, runs, bits, slow))
