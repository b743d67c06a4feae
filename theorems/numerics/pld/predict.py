"""A float model of one refinement pass: the driver's predictor of the width law (never a bound).

The driver (:mod:`.enclose`) needs the constant ``c`` of the width law ``w(h) ~ c h^2`` to choose
the step of its rigorous pass. It used to measure ``c`` with a rigorous pass at a coarse step;
here the same two one-step constructions are built in floating point from the pair's float CDFs
(no arb, no outward rounding): the upper PLD by connect-the-dots on every grid step
([DGKKM22] arXiv 2207.04380v1), the lower one by the neighbour exchange of :mod:`.lower` on the
centred bins of every grid point (on coarse grids also the pouring of :mod:`.pour`, in floats,
the higher of the two kept, as :func:`.discretize.discretize` does). They are composed as the
rigorous pass composes (:func:`.fourier.compose_fourier` in its model mode: the same window,
without the error bookkeeping; tilted at the same saddle point, :mod:`.log_mgf`) and
read by a float query (compositions below ``passes.FOURIER_MIN_SIZE`` as exact integer powers
of the model, as in the rigorous pass). The result is an estimate of the pass's enclosure at
the same step, at a fraction of its CPU time; nothing computed here enters an enclosure. It also
reports each direction's upper end, from which the driver judges which directions are dominated
(:class:`.enclose._DirectionSteps`); a dominated direction's upper model is not composed where
its Chernoff estimate already is below the model's lower end (:func:`predicted_pass`).

The float CDFs: ``LossPair.cdf_sf_float`` gives the P-law of the loss; the Q-law is the P-law
of the negated loss of the dual pair, where the pair has one: the add and remove pairs of the
subsampled Gaussian swap P and Q and negate the loss (:class:`.pairs.SubsampledGaussian`), so
``Q_add[L <= z] = P_remove[L > -z]``. Other pairs have no model (:func:`float_one_step` returns
None) and the driver measures ``c`` with a rigorous pass as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from dpverify.theorems.numerics.pld import passes
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.discretize import (
    POUR_MAX_BINS,
    _pourings,
    grid_for,
)
from dpverify.theorems.numerics.pld.fourier import compose_fourier
from dpverify.theorems.numerics.pld.log_mgf import LogMgf
from dpverify.theorems.numerics.pld.lower import Bins, lower_atoms
from dpverify.theorems.numerics.pld.pairs import LossPair, SubsampledGaussian
from dpverify.theorems.numerics.pld.passes import _FALLBACK, _max_over_directions

UNIT_BITS = 64  # masses of the model in units 2^-64 (a mass below that is dropped: far below
#                 the widths predicted)
MAX_POINTS = 200_000  # a model with more grid points per direction is not built

Part = tuple[LossPair, int]
FloatCdfs = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]


def _float_cdfs(pair: LossPair) -> tuple[FloatCdfs, Any] | None:
    """``z -> (P[L <= z], P[L > z], Q[L <= z], Q[L > z])`` in floats and the key of the dual
    pair, or None."""
    if not isinstance(pair, SubsampledGaussian) or pair.direction == "replace":
        return None
    dual = SubsampledGaussian(pair.q_in, pair.sigma_in,
                              "remove" if pair.direction == "add" else "add")

    def cdfs(z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        p = pair.cdf_sf_float(z)
        q = dual.cdf_sf_float(-z)
        assert p is not None and q is not None
        return p[0], p[1], q[1], q[0]

    return cdfs, dual.key()


def _differences(cdf: np.ndarray, sf: np.ndarray) -> np.ndarray:
    """The masses between consecutive points: differences of the smaller side (accurate
    in both tails), never negative."""
    d = np.where(cdf[1:] <= 0.5, cdf[1:] - cdf[:-1], sf[:-1] - sf[1:])
    return np.maximum(d, 0.0)


@dataclass
class _Model:
    """A one-step model PLD: masses ``units[i] 2^-B`` (integer-valued floats, the rounded model
    masses) at losses ``shift + i h``, ``inf 2^-B`` at ``+inf``. It has the fields and methods
    of :class:`.discrete.DiscretePLD` that the Fourier composition's model mode and the float
    locators read (:func:`.fourier.compose_fourier`, :class:`.log_mgf.LogMgf`); the
    ``DiscretePLD`` itself (an ``fmpz_poly`` of Python ints, ~3 ms for B's 16151 masses) is
    built only where the model composes exactly (:meth:`discrete`)."""

    kind: str
    h: Fraction
    shift: Fraction
    units: np.ndarray
    inf: int
    B: int = UNIT_BITS
    trim: int = 0
    steps: int = 1
    _discrete: DiscretePLD | None = None

    def __len__(self) -> int:
        return len(self.units)

    def unit_floats(self) -> np.ndarray:
        return self.units

    def discrete(self) -> DiscretePLD:
        if self._discrete is None:
            one = DiscretePLD(self.kind, self.h, self.shift,
                              flint.fmpz_poly([int(v) for v in self.units.tolist()]),
                              self.inf, self.B, 0)
            one.set_unit_floats(self.units)
            self._discrete = one
        return self._discrete


def _units(kind: str, h: Fraction, shift: Fraction, masses: np.ndarray, inf: float) -> _Model:
    """The model PLD of the float ``masses`` in units ``2^-UNIT_BITS``; its unit floats are
    the rounded masses themselves (the floats of those integers: no conversion back)."""
    units = np.rint(np.ldexp(masses, UNIT_BITS))
    top = np.flatnonzero(units)
    units = units[:top[-1] + 1] if len(top) else units[:0]  # as fmpz_poly drops high zeros
    units.flags.writeable = False
    return _Model(kind, h, shift, units, round(math.ldexp(inf, UNIT_BITS)))


@dataclass
class _Grid:
    """The grid and window of one pair's model: ``z_i = z0 + i h``, ``i < n``."""

    pair: LossPair
    cdfs: FloatCdfs
    h: Fraction
    shift: Fraction
    z: np.ndarray
    p_inf: float
    dual: Any = None  # the key of the dual pair


def _model_grid(pair: LossPair, h: Fraction, tail: float) -> _Grid | None:
    """The grid and window of :func:`.discretize.discretize` (every step fine), or None (no
    float CDFs, or too many points)."""
    got = _float_cdfs(pair)
    if got is None:
        return None
    grid = grid_for(pair, h)
    hf, off = float(h), float(grid.offset)
    ilo = math.floor((pair.quantile(tail) - off) / hf) - 1
    ihi = math.ceil((pair.quantile(tail, upper=True) - off) / hf) + 1
    n = ihi - ilo + 1
    if n > MAX_POINTS or n < 2:
        return None
    z = off + ilo * hf + hf * np.arange(n)
    return _Grid(pair, got[0], h, grid.z(ilo), z, float(pair.p_inf().mid()), got[1])


Cdfs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class _BinEnds:
    """The float CDFs of one pair at the half points ``z0 + (i + 1/2) h`` of its model grid
    (its lower model's bin ends), each evaluated once on a growing range of ``i``: the dual
    pair's upper model reads its CDFs there too (:func:`_dual_cdfs`)."""

    def __init__(self, g: _Grid) -> None:
        self.g, self.lo = g, 0
        self.vals: Cdfs | None = None

    def _eval(self, i0: int, i1: int) -> Cdfs:
        return self.g.cdfs(float(self.g.z[0]) + float(self.g.h) * (np.arange(i0, i1) + 0.5))

    def at(self, i0: int, i1: int) -> Cdfs:
        """``(P[L <= z], P[L > z], Q[L <= z], Q[L > z])`` at the half indices ``i0 <= i <
        i1``."""
        if self.vals is None:
            self.lo, self.vals = i0, self._eval(i0, i1)
        if i0 < self.lo:
            left = self._eval(i0, self.lo)
            self.vals = tuple(np.concatenate([a, b]) for a, b in zip(left, self.vals,
                                                                      strict=True))
            self.lo = i0
        hi = self.lo + len(self.vals[0])
        if i1 > hi:
            right = self._eval(hi, i1)
            self.vals = tuple(np.concatenate([a, b]) for a, b in zip(self.vals, right,
                                                                      strict=True))
        s = i0 - self.lo
        pc, ps, qc, qs = (v[s:s + i1 - i0] for v in self.vals)
        return pc, ps, qc, qs


def _dual_cdfs(g: _Grid, ends: _BinEnds) -> Cdfs | None:
    """The CDFs of ``g``'s pair at its grid points from the bin ends of its dual pair's grid,
    where the grid points are their negatives (:func:`.discretize.grid_for` puts a grid point
    at a lower edge of the support and a bin boundary at an upper one; the subsampled
    Gaussian's add and remove losses are each other's negatives, P and Q swapped, so ``P_D[L
    <= z] = Q_P[L > -z]``, ``Q_D[L <= z] = P_P[L > -z]``: :class:`.pairs.SubsampledGaussian`),
    else None. The same functions at the same points up to the rounding of the points: the
    remove direction's upper model and the add direction's lower one share one evaluation."""
    c = (-g.shift - ends.g.shift) / g.h - Fraction(1, 2)
    if c.denominator != 1:
        return None
    top, n = int(c), len(g.z)
    pc, ps, qc, qs = ends.at(top - n + 1, top + 1)  # the half index of z_j is top - j
    return qs[::-1], qc[::-1], ps[::-1], pc[::-1]


def _upper(g: _Grid, cdfs: Cdfs | None = None) -> _Model:
    """Connect the dots: the P- and Q-mass of every step split between its ends (``cdfs``:
    the CDFs at the grid points, if known)."""
    pc, ps, qc, qs = g.cdfs(g.z) if cdfs is None else cdfs
    pb, qb = _differences(pc, ps), _differences(qc, qs)
    e = np.exp(g.z)
    width = e[1:] - e[:-1]
    up = np.zeros(len(g.z))
    up[:-1] += np.maximum(e[:-1] * (e[1:] * qb - pb) / width, 0.0)
    up[1:] += np.maximum(e[1:] * (pb - e[:-1] * qb) / width, 0.0)
    up[0] += pc[0]  # below the window: to its first point
    return _units("upper", g.h, g.shift, up, ps[-1] + g.p_inf)


def _lower(g: _Grid, ends: _BinEnds | None = None) -> _Model:
    """Neighbour exchange on the centred bins ``[t - 1/2, t + 1/2]`` (halves at the ends); on
    coarse grids also the pouring, the higher kept (as discretize). ``ends``: the pair's bin
    ends (:class:`_BinEnds`, some perhaps already evaluated)."""
    n, hf, z0 = len(g.z), float(g.h), float(g.z[0])
    cuts = np.concatenate([[0.0], np.arange(n - 1) + 0.5, [n - 1.0]])
    mid = (ends or _BinEnds(g)).at(0, n - 1)
    edge = g.cdfs(z0 + hf * cuts[[0, -1]])
    pc, ps, qc, qs = (np.concatenate([e[:1], m, e[1:]]) for e, m in zip(edge, mid, strict=True))
    p, q = _differences(pc, ps), _differences(qc, qs)
    bins = Bins(p, p, q, q, cuts[:-1], cuts[1:])
    ez = np.exp(g.z)
    t, mass = lower_atoms(bins, ez, z0, hf)
    lo = np.bincount(t, weights=mass, minlength=n)[:n]
    if len(bins) <= POUR_MAX_BINS:
        pours = [np.array(_poured_float(p.tolist(), q.tolist(), ez.tolist(), z0, hf, down))
                 for down in _pourings(g.pair)]
        position = np.arange(1.0, n + 1.0)  # sum_i m_i (i + 1) (discretize._mass_position)
        lo = max([lo, *pours], key=lambda m: float(np.sum(m * position)))
    return _units("lower", g.h, g.shift, lo, g.p_inf)


def _poured_float(p: list[float], q: list[float], ez: list[float], z0: float, hf: float,
                  downward: bool) -> list[float]:
    """The pouring of :func:`.pour._lower_masses` in floats (a model: no outward rounding,
    the same atoms up to rounding): bins ``(p_j, q_j)`` in increasing loss order poured into
    atoms at the grid points ``z_i = z0 + i hf`` (``ez[i] = e^{z_i}``), upward (each atom
    targets the grid point just above its loss) or ``downward``."""
    n = len(ez)
    out = [0.0] * n

    def index(pp: float, qq: float, floor: bool) -> int:
        if qq <= 0:
            return n - 1
        x = (math.log(pp) - math.log(qq) - z0) / hf
        return min(math.floor(x + 1e-9), n - 1) if floor else \
            min(max(math.ceil(x - 1e-9), 0), n - 1)

    def emit(pp: float, qq: float, i: int) -> None:
        for j in range(i, max(i - 5, -1), -1):
            if ez[j] * qq <= pp:
                out[j] += pp
                return

    pool_p = pool_q = 0.0
    order = range(len(p) - 1, -1, -1) if downward else range(len(p))
    for j in order:
        pj, qj = p[j], q[j]
        if not pool_p > 0:
            pool_p, pool_q = pj, qj
            continue
        if not downward:
            while pool_p > 0:
                t = index(pool_p, pool_q, False)
                zt = ez[t]
                if zt * pool_q > pool_p:
                    break
                emit(pool_p, pool_q, t)  # already at or above its target
                pool_p = pool_q = 0.0
            if not pool_p > 0:
                pool_p, pool_q = pj, qj
                continue
            den = pj - zt * qj
            if den > 0:
                f = (zt * pool_q - pool_p) / den
                if f < 1:
                    out[t] += pool_p + f * pj
                    pool_p, pool_q = (1 - f) * pj, (1 - f) * qj
                    continue
        else:
            t = index(pool_p, pool_q, True)
            if t >= 0:
                stop = max(t - 5, -1)
                while t > stop and not ez[t] * pool_q <= pool_p:
                    t -= 1
                if t > stop:
                    zt = ez[t]
                    cost = zt * qj - pj
                    if cost > 0:
                        f = (pool_p - zt * pool_q) / cost
                        if f < 1:
                            if f > 0:
                                out[t] += pool_p + f * pj
                                pool_p, pool_q = (1 - f) * pj, (1 - f) * qj
                            else:
                                out[t] += pool_p
                                pool_p, pool_q = pj, qj
                            continue
        pool_p, pool_q = pool_p + pj, pool_q + qj  # the whole bin joins the atom
    if pool_p > 0:
        emit(pool_p, pool_q, index(pool_p, pool_q, downward))
    return out


def float_one_step(pair: LossPair, h: Fraction, tail: float
                   ) -> tuple[DiscretePLD, DiscretePLD] | None:
    """The float models of the upper and lower one-step PLDs of ``pair`` at step ``h`` on the
    grid and window of :func:`.discretize.discretize` (every step fine), or None (no float
    CDFs, or too many points)."""
    g = _model_grid(pair, h, tail)
    return None if g is None else (_upper(g).discrete(), _lower(g).discrete())


def _exact(ones: Sequence[tuple[_Model, int]]) -> DiscretePLD:
    out: DiscretePLD | None = None
    for one, k in ones:
        c = one.discrete().self_compose(k)
        out = c if out is None else out.compose(c)
    assert out is not None
    return out


def predicted_pass(directions: Sequence[Sequence[Part]], h: Fraction, tail: float,
                   read: Callable[[Any], float], center: float | None, delta: float
                   ) -> tuple[float, float, list[float]] | None:
    """The float model's ``(lo, hi)`` of one pass at step ``h`` (the maximum over the
    directions, as :func:`.passes._pass_parts`), each end read by ``read`` from a composed
    model, and each direction's upper end; None where a pair has no model or the model fails.

    Each direction is tilted at the saddle point of its upper model at ``center``, else at a
    Chernoff estimate of the eps of ``delta`` (:meth:`.log_mgf.LogMgf.chernoff`, as the rigorous
    pass). That estimate is pessimistic (an upper estimate of the direction's eps), so without
    ``center`` the directions other than the one of the largest estimate are decided by it
    where it is at most the model's lower end (their upper models are then never composed, and
    their upper end is reported as the estimate: above the model's, as the driver needs to
    judge a direction dominated, see :func:`.enclose._refine`)."""
    try:
        grids: dict[Any, _Grid] = {}
        for parts in directions:
            for pair, _k in parts:
                if pair.key() not in grids:
                    got = _model_grid(pair, h, tail)
                    if got is None:
                        return None
                    grids[pair.key()] = got
        ends = {key: _BinEnds(g) for key, g in grids.items()}
        keys = list(grids)
        uppers = {key: _upper(g, _dual_cdfs(g, ends[g.dual]) if g.dual in keys[:i] else None)
                  for i, (key, g) in enumerate(grids.items())}  # a dual before: its bin ends
        lowers: dict[Any, _Model] = {}  # only those of the directions composed below
        ups = [[(uppers[pair.key()], k) for pair, k in parts] for parts in directions]
        big = [sum(k * len(one) for one, k in ones) * UNIT_BITS >= passes.FOURIER_MIN_SIZE
               for ones in ups]

        def lower(pair: LossPair) -> _Model:
            if pair.key() not in lowers:
                lowers[pair.key()] = _lower(grids[pair.key()], ends[pair.key()])
            return lowers[pair.key()]

        mgfs = {d: LogMgf(ups[d]) for d in range(len(directions)) if big[d]}
        chernoff = {d: mgf.chernoff(delta) for d, mgf in mgfs.items() if center is None}
        tilts: dict[int, Fraction] = {}
        windows: dict[int, tuple[Fraction, int]] = {}  # the upper model's (first loss,
        #   length): the lower's too

        def end(d: int, kind: str) -> float:
            ones = ups[d] if kind == "upper" else [(lower(pair), k) for pair, k in directions[d]]
            if not big[d]:
                return read(_exact(ones))  # as the rigorous pass: small ones compose exactly
            if d not in tilts:  # the tilt of the rigorous pass (Chernoff: as in composition)
                tilts[d] = (mgfs[d].tilt(chernoff[d], start=mgfs[d].argmin)
                            if center is None else mgfs[d].tilt(center))
            base = sum((one.shift * k for one, k in ones), Fraction(0))
            win = windows.get(d)
            four = compose_fourier(ones, tilts[d], model=True,
                                   window=None if win is None else
                                   (round((win[0] - base) / h), win[1]))
            windows.setdefault(d, (four.start, len(four)))
            return read(four)

        early: dict[int, Callable[[], float]] = {}
        if len(chernoff) == len(directions) > 1:
            top = max(chernoff, key=lambda d: chernoff[d])
            early = {d: (lambda d=d: chernoff[d]) for d in chernoff if d != top}
        lo, hi, his, _decided = _max_over_directions(
            len(directions), lambda d: end(d, "upper"), lambda d: end(d, "lower"), 0.0, early)
    except (*_FALLBACK, ArithmeticError):  # a model that fails predicts nothing
        return None
    return float(lo), float(hi), [float(v) for v in his]


__all__ = ["float_one_step", "predicted_pass"]
