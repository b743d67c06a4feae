"""Discretisation of one step: the grid, the upper ("connect the dots") and the lower
(post-processing, poured atoms) one-step PLDs (see the package docstring)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import (
    HALF,
    PREC,
    _arb,
    _certain_le,
    _certain_lt,
    _dyadic_ceil,
    _dyadic_floor,
    _units,
)
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.pairs import LossPair
from dpverify.theorems.numerics.pld.taylor import FineTable, fine_bins, taylor_exact_step

MAX_BINS = 400_000  # one-step grid points per direction

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


TAYLOR_MIN_STEPS = 2048  # fewer fine grid steps: the point-by-point route (measured: on coarse
#                          grids the blocks mostly fail and their attempts cost more than they save)
COARSE = 32  # grid steps per coarse cell in the tails
FINE_MASS = 2.0**-60  # a coarse cell with more P-mass than this (or than the tail budget)
#                        is resolved at step h


def _check_size(n: int) -> None:
    if n > 4 * MAX_BINS:
        raise PrecisionExhausted(f"the grid would need {n} points (more than {4 * MAX_BINS})")


def discretize(pair: LossPair, grid: Grid, bits: int, tail: float,
               window: tuple[float, float] | None = None,
               lower: bool = True, taylor: bool = True
               ) -> tuple[DiscretePLD, DiscretePLD | None]:
    """The upper and lower one-step PLDs of ``pair`` on ``grid`` (masses in units 2^-bits).

    ``tail`` is the P-mass allowed outside the window on each side (accounted, not ignored).
    Inside the window the loss axis is cut into coarse cells of ``COARSE`` steps; cells with
    more P-mass than ``tail`` (at least ``FINE_MASS``) are resolved at step h: both constructions
    are sound for any cells with end points on the grid; a coarse cell of mass m only moves the
    bounds by about ``m`` times its width per step.
    ``lower=False`` skips the lower PLD. The fine bins come from blockwise Taylor expansions
    (:mod:`.taylor`) when the pair has series CDFs, unless ``taylor=False`` (every bin then
    from arb CDFs point by point: the reference route of the tests).
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

        def z_of(j: Fraction) -> flint.arb:  # grid index j (integer or half-integer), exact
            return off + _arb(j) * hb

        cache: dict[Fraction, tuple[flint.arb, ...]] = {}

        def cdf(j: Fraction) -> tuple[flint.arb, ...]:
            hit = cache.get(j)
            if hit is None:
                hit = cache[j] = pair.cdf_sf(z_of(j))
            return hit

        def masses(a: Fraction, b: Fraction) -> tuple[flint.arb, flint.arb]:
            """P- and Q-mass of the losses in (z_a, z_b]: both CDF and survival differences
            enclose them; the intersection keeps the accurate one (small numbers)."""
            fa, fb = cdf(a), cdf(b)
            out = []
            for i in (0, 1):
                x, y = fb[i] - fa[i], fa[i + 2] - fb[i + 2]
                out.append(x.intersection(y) if x.overlaps(y) else (x if x.rad() < y.rad()
                                                                     else y))
            return out[0], out[1]

        # coarse cells; fine ones are resolved at step h (upper) and h/2 (lower)
        cuts = list(range(ilo, ihi + 1, COARSE))
        cells = [(Fraction(a), Fraction(b), float(masses(Fraction(a), Fraction(b))[0].mid())
                  > max(FINE_MASS, tail)) for a, b in itertools.pairwise(cuts)]

        eh = hb.exp()
        ez = [z_of(Fraction(ilo)).exp()]
        for _ in range(n):
            ez.append(ez[-1] * eh)
        p_inf = pair.p_inf()
        fast = (_fast_fine_bins(pair, grid, ilo, cells, bits, masses, ez)
                if taylor else FineTable())

        # --- upper: connect the dots on each bin [z_a, z_b] ---
        up = [0] * n
        for a, b, fine in cells:
            if fine and fast.covers(a, b):
                continue
            steps = [(a + t, a + t + 1) for t in range(int(b - a))] if fine else [(a, b)]
            for x, y in steps:
                ia, ib = int(x) - ilo, int(y) - ilo
                pb, qb = masses(x, y)
                width = ez[ib] - ez[ia]  # the P-mass split between the ends, Q-mass kept
                up[ia] += _units(ez[ia] * (ez[ib] * qb - pb) / width, bits, True)
                up[ib] += _units(ez[ib] * (pb - ez[ia] * qb) / width, bits, True)
        fast.add_upper(up, ilo, bits)
        up[0] += _units(cdf(Fraction(cuts[0]))[0], bits, True)  # below the window: to z_ilo
        up_inf = _units(cdf(Fraction(cuts[-1]))[2] + p_inf, bits, True)  # above: to +inf

        lo: list[int] | None = None
        if lower:
            # --- lower: merged bins poured into atoms at grid points; in a fine cell the
            # bins are [a, a + 1/2], [a + 1/2 + t, a + 3/2 + t], ..., [b - 1/2, b] ---
            p_bins: list[flint.arb] = []
            q_bins: list[flint.arb] = []
            for a, b, fine in cells:
                got = fast.lower_cell(a, b) if fine else None
                if got is not None:
                    p_bins.extend(got[0])
                    q_bins.extend(got[1])
                    continue
                lower_cuts = [a, *(a + t + HALF for t in range(int(b - a))), b] if fine \
                    else [a, b]
                for x, y in itertools.pairwise(lower_cuts):
                    pb, qb = masses(x, y)
                    p_bins.append(pb)
                    q_bins.append(qb)
            # pour upward or downward (both are valid lower PLDs); keep the one whose mass
            # sits higher (a heuristic choice: edges where mass piles up favour one direction;
            # measured on the subsampled Gaussians of bench/bench_pld.py, upward always won
            # with a lower edge only and downward with an upper edge only, so only that one
            # is poured then)
            cands = [_lower_masses(p_bins, q_bins, ez[:n], bits, grid.z(ilo), h, downward=d)
                     for d in _pourings(pair)]
            lo = max(cands, key=lambda c: sum(v * (i + 1) for i, v in enumerate(c)))
        lo_inf = _units(p_inf, bits, False)
    shift = grid.z(ilo)
    upper_pld = DiscretePLD("upper", h, shift, flint.fmpz_poly(up), up_inf, bits, 0)
    lower_pld = (DiscretePLD("lower", h, shift, flint.fmpz_poly(lo), lo_inf, bits, 0)
                 if lo is not None else None)
    return upper_pld, lower_pld


def _pourings(pair: LossPair) -> tuple[bool, ...]:
    """The directions of pouring worth trying (``downward`` flags), from the support's edges."""
    lo_edge, hi_edge = pair.edges()
    if lo_edge is not None and hi_edge is None:
        return (False,)
    if hi_edge is not None and lo_edge is None:
        return (True,)
    return (False, True)


def _fast_fine_bins(pair: LossPair, grid: Grid, ilo: int,
                    cells: Sequence[tuple[Fraction, Fraction, bool]], bits: int,
                    masses: Callable[[Fraction, Fraction], tuple[flint.arb, flint.arb]],
                    ez: Sequence[flint.arb]) -> FineTable:
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
        """The quantities at half step m (the split only at grid points, even m: the only
        ones used), from arb CDFs."""
        a = Fraction(m, 2)
        ph, qh = masses(a, a + HALF)
        if m % 2:
            return [zero, zero, ph, qh]
        pb, qb = masses(a, a + 1)
        ea, eb = ez[m // 2 - ilo], ez[m // 2 - ilo + 1]
        width = eb - ea
        return [ea * (eb * qb - pb) / width, eb * (pb - ea * qb) / width, ph, qh]

    return FineTable(fine_bins(pair.cdf_series, grid.offset, grid.h, runs, bits, slow))


def _lower_masses(p: Sequence[flint.arb], q: Sequence[flint.arb], ez: Sequence[flint.arb],
                  bits: int, z0: Fraction = Fraction(0), h: Fraction = Fraction(1),
                  downward: bool = False) -> list[int]:
    """Masses of the lower PLD at the grid points ``z_i = z0 + i h`` (``ez[i] = e^{z_i}``) from
    merged bins ``(p_j, q_j)``: P- and Q-masses of consecutive loss intervals, in increasing
    order.

    The bins are poured, in order, into atoms: an atom starts from what is left of the previous
    one, takes the grid point just above its current loss as target ``z``, and takes whole bins,
    then the fraction ``f`` of one bin with ``f (p_j - e^z q_j) >= e^z Q - P``, so that its loss
    ``log(P/Q)`` is certified ``>= z``; it is emitted at ``z``. Every atom is a randomised merge
    of outcomes (a post-processing of the pair) whose loss is at least its grid point, and the
    loss of each atom is close to its grid point, so the construction keeps the mean of the loss
    to second order. Fractions are exact dyadics chosen on the safe side of the balls; the mass
    left at the top is emitted at the highest grid point certified below its loss, or dropped.
    """
    nb = len(p)  # bins, in increasing loss order
    n = len(ez)  # grid points
    zero, one = flint.arb(0), flint.arb(1)
    out = [0] * n
    hb = _arb(h)
    zb0 = _arb(z0)
    z0f, hf = float(z0), float(h)
    pool_p, pool_q = zero, zero

    def loss_index(pp: flint.arb, qq: flint.arb, floor: bool = False) -> int | None:
        """The index of the grid point just above (``floor``: below) a float estimate of the
        pool's loss."""
        if not _certain_lt(zero, pp):
            return None
        if not _certain_lt(zero, qq):
            return n - 1
        pm, qm = float(pp.mid()), float(qq.mid())
        if pm > 0 and qm > 0:  # a locator only: the atoms are certified where they are made
            x = (math.log(pm) - math.log(qm) - z0f) / hf
        else:
            x = float(((pp / qq).log() - zb0).mid() / hb.mid())
        if not math.isfinite(x):
            return n - 1
        if floor:
            return min(math.floor(x + 1e-9), n - 1)
        return min(max(math.ceil(x - 1e-9), 0), n - 1)

    def emit(pp: flint.arb, qq: flint.arb, i: int) -> None:
        """Emit the pool at the highest grid point <= i (at most 4 below) certified below its
        loss; drop it if there is none (dropping mass keeps a lower bound)."""
        if not _certain_lt(zero, pp):
            return
        for j in range(i, max(i - 5, -1), -1):
            if _certain_le(ez[j] * qq, pp):
                out[j] += _units(pp, bits, False)
                return

    if not downward:
        j = 0
        while j < nb:
            # the pool: what is left of the previous atom; its target
            if not _certain_lt(zero, pool_p):
                pool_p, pool_q = p[j], q[j]
                j += 1
                continue
            t = loss_index(pool_p, pool_q)
            if t is None:
                pool_p, pool_q = p[j], q[j]
                j += 1
                continue
            zt = ez[t]
            if _certain_le(zt * pool_q, pool_p):  # already at or above its target
                emit(pool_p, pool_q, t)
                pool_p, pool_q = zero, zero
                continue
            deficit = zt * pool_q - pool_p
            den = p[j] - zt * q[j]
            if _certain_lt(zero, den):
                f = (deficit.upper() / den.lower()).upper()
                if _certain_lt(f, one):
                    # f den >= deficit for the true values: the atom's loss is >= z_t by
                    # construction (a re-check on the balls could not see the tiny margin)
                    out[t] += _units(pool_p + f * p[j], bits, False)
                    rest = (one - f).lower()
                    pool_p, pool_q = rest * p[j], rest * q[j]
                    j += 1
                    continue
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]  # the whole bin joins the atom
            j += 1
        if _certain_lt(zero, pool_p):
            t = loss_index(pool_p, pool_q)
            emit(pool_p, pool_q, n - 1 if t is None else t)
        return out
    # downward: from the top, each atom targets the grid point just below its loss and takes
    # lower bins while its loss stays >= the target
    j = nb - 1
    while j >= 0:
        if not _certain_lt(zero, pool_p):
            pool_p, pool_q = p[j], q[j]
            j -= 1
            continue
        t = loss_index(pool_p, pool_q, floor=True)
        if t is None or t < 0:
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]
            j -= 1
            continue
        stop = max(t - 5, -1)
        while t > stop and not _certain_le(ez[t] * pool_q, pool_p):
            t -= 1
        if t <= stop:
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]
            j -= 1
            continue
        zt = ez[t]
        surplus = pool_p - zt * pool_q
        cost = zt * q[j] - p[j]
        if _certain_lt(zero, cost):
            f = (surplus.lower() / cost.upper()).lower()
            if _certain_lt(f, one):
                if _certain_lt(zero, f):
                    # f cost <= surplus for the true values: the loss stays >= z_t
                    out[t] += _units(pool_p + f * p[j], bits, False)
                    rest = (one - f).lower()  # at most what is left of bin j
                    pool_p, pool_q = rest * p[j], rest * q[j]
                else:
                    out[t] += _units(pool_p, bits, False)
                    pool_p, pool_q = p[j], q[j]
                j -= 1
                continue
        pool_p, pool_q = pool_p + p[j], pool_q + q[j]  # the whole bin joins the atom
        j -= 1
    if _certain_lt(zero, pool_p):
        t = loss_index(pool_p, pool_q, floor=True)
        emit(pool_p, pool_q, n - 1 if t is None else min(t, n - 1))
    return out

