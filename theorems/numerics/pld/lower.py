"""The lower one-step PLD by neighbour exchange, vectorised in float64 with outward rounding.

The loss axis is cut into consecutive loss intervals ("bins", in increasing loss order; in the
fine cells of :mod:`.discretize` one centred bin ``[z_t - h/2, z_t + h/2]`` per grid point),
each with float enclosures of its P- and Q-mass. Every bin j is given a target grid point
``z_t`` (the grid point nearest a float estimate of its loss ``L_j = log(p_j/q_j)``, within the
bin) and one atom of the lower PLD is built at each target, as a randomised merge of outcomes
(a post-processing of the true pair, [MM18], [DGKKM22] Sec. 4):

- a *surplus* bin (``p_j - e^{z_t} q_j >= 0`` certified) takes the fraction ``g_j`` of the bin
  below it that brings the atom's loss down to (about) ``z_t``;
- a *deficit* bin takes the fraction ``f_j`` of the bin above it that brings it up to ``z_t``,
  ``f_j = d_j / s_{j+1}`` with ``d_j >= e^{z_t} q_j - p_j`` and ``s_{j+1} <= p_{j+1} - e^{z_t}
  q_{j+1}``; if that is not possible (``s <= 0`` or ``f > 1``) the whole bin goes to the highest
  of the 4 grid points below the target that is certified below its loss, or is dropped;
- targets are adjusted first: a deficit bin that cannot borrow is merged with the bin below
  (:func:`_merge_stuck`, e.g. the top bin at an upper edge of the support), and a surplus bin
  whose surplus even the whole bin below cannot absorb (e.g. at a lower edge) targets the next
  grid point up, where it borrows (promotion); soundness needs neither, only the two rules
  above at the final targets;
- the borrowed fractions are then scaled down to the share the deficit bin keeps
  (:func:`_share_scaled`: ``f_j = (1 - f_lo_{j-1} - g_{j+1}) d_j / s_{j+1}``), so that its atom
  sits at its grid point rather than above it (measured: the loss wasted above the grid points
  drops 65-fold on scenario B);
- bin j keeps the share ``a_j = 1 - f_{j-1} - g_{j+1}`` for its own atom: the fractions of every
  bin sum to 1 (``g_{j+1}`` is capped at ``1 - f_{j-1}``), so the atoms are a partition of the
  outcomes, split at random.

Soundness: a deficit atom needs ``f_j s_{j+1} >= a_j d_j``, true for ``a_j <= 1``; a surplus
atom needs ``a_j x_j >= g_j c_{j-1}`` (``x_j = p_j - e^{z_t} q_j``, ``c_{j-1} = e^{z_t} q_{j-1} -
p_{j-1}``), true with ``g_j = omega_j x_j / c_{j-1}`` and ``omega_j <= a_j`` computed from the
upper bound ``g0_{j+1} = x_{j+1} / c_j`` of ``g_{j+1}`` (so every g is a single vectorised
step, no sequential pouring). Each atom's loss is then at least its grid point and it is placed
there with a lower bound of its P-mass: every hockey-stick value of every composition is bounded
below (dropping atoms or mass only lowers it).

Rounding (N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM 2002,
Sec. 2.2, the standard model; directed rounding by one step, :func:`._arith.down`): each
computed bound is one float step outward of a correctly rounded operation on bounds, so it is a
bound of the exact expression of the true values: ``x_j >= down(p_lo - up(E_hi q_hi))``,
``f = up(d / s)``, ``g = down(down(omega x) / c_hi)``, ``a >= down(down(1 - f) - g)``, the atom's
P-mass ``>= down(down(a p_lo) + ...)``; the fractions f, g themselves are exact floats (the
merge uses exactly them). ``e^{z_t}`` is enclosed by :func:`exp_grid` (arb at block starts and
offsets, one outward float product). The enclosures of the masses are relative to each bin's
own mass (~2^-46, :mod:`.taylor`), far below the discretisation's own error. (The steps of
temporaries are taken in place, :func:`._arith.up_owned`: the same bits. A merge changes the
targets, excesses and fractions of the bins next to it only: they are recomputed there,
:func:`_carried`; a test compares them with the whole arrays bit for bit.)

Both ways of moving mass keep every atom's loss within ``O(h^2)`` of its grid point from above,
so (like the pouring of :mod:`.pour` it replaces) the construction keeps the mean of the loss to
second order. Measured on scenario C (q = 256/60000, sigma = 1.1, k = 14062; delta at eps =
2.381 of the add pair by a float FFT of the composed PLDs; the truth lies in the enclosure of a
grid 8 times finer, [1.0041499e-5, 1.0041552e-5]): at h = 1/32768 the exchange lies 3.0-3.5e-10
below the truth where the pouring lay 6.1-6.6e-10 below (the upper PLD: 5.7-6.2e-10 above), so
the width drops by 25 %; on scenario B (q = 1e-3, most of the mass in a few bins at the edge) at
h = 7/524288 it is as good as the pouring. On coarse grids (C at h = 3/4096) the pouring's
long-range merges sit higher, which is why :mod:`.discretize` also pours up to
``POUR_MAX_BINS`` bins and keeps the higher lower PLD.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flint
import numpy as np

from dpverify.theorems.numerics.pld._arith import (
    down,
    down_owned,
    float_bounds_many,
    up,
    up_owned,
)

EXP_BLOCK = 256  # grid points per arb exponential in exp_grid
MERGE_ROUNDS = 4  # merges of a stuck deficit bin with the bin below
FALLBACK_STEPS = 4  # grid points below its target that a deficit bin may fall back to


@dataclass
class Bins:
    """Consecutive loss intervals ``[z_{a_j}, z_{b_j}]`` (grid indices relative to the first
    grid point, half-integers allowed) with float enclosures of their P- and Q-masses."""

    p_lo: np.ndarray
    p_hi: np.ndarray
    q_lo: np.ndarray
    q_hi: np.ndarray
    a: np.ndarray
    b: np.ndarray

    @staticmethod
    def concat(parts: list[Bins]) -> Bins:
        return Bins(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                      ("p_lo", "p_hi", "q_lo", "q_hi", "a", "b")))

    def part(self, start: int, stop: int) -> Bins:
        return Bins(*(getattr(self, f)[start:stop] for f in
                      ("p_lo", "p_hi", "q_lo", "q_hi", "a", "b")))

    def __len__(self) -> int:
        return len(self.p_lo)


def exp_grid(z0: flint.arb, h: flint.arb, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Floats enclosing ``e^{z0 + i h}``, ``i < n``: ``e^{z0 + k B h} e^{i h}`` with both factors
    in arb (B = ``EXP_BLOCK``), rounded outward to floats and multiplied with outward rounding."""
    nb = -(-n // EXP_BLOCK)
    s_lo, s_hi = float_bounds_many([(z0 + flint.arb(k * EXP_BLOCK) * h).exp() for k in range(nb)])
    o_lo, o_hi = float_bounds_many([(flint.arb(i) * h).exp() for i in range(min(n, EXP_BLOCK))])
    lo = down(np.outer(s_lo, o_lo)).ravel()[:n]
    hi = up(np.outer(s_hi, o_hi)).ravel()[:n]
    return lo, hi


def _shifted(x: np.ndarray, by: int) -> np.ndarray:
    """``x[j + by]`` at j, zero outside."""
    out = np.empty_like(x)  # every entry written below (no zero fill of the whole array)
    if by > 0:
        out[:-by] = x[by:]
        out[-by:] = 0
    else:
        out[-by:] = x[:by]
        out[:-by] = 0
    return out


def _excess_lo(p_lo: np.ndarray, q_hi: np.ndarray, e_hi: np.ndarray) -> np.ndarray:
    """A lower bound of ``p - e^z q`` (``down(p_lo - up(e_hi q_hi))``, one temporary)."""
    out = up_owned(np.multiply(e_hi, q_hi, dtype=np.float64))
    np.subtract(p_lo, out, out=out)
    return down_owned(out)


def _excess_next_lo(p_lo: np.ndarray, q_hi: np.ndarray, e_hi: np.ndarray) -> np.ndarray:
    """``_excess_lo`` of the bin above each bin (a zero bin above the last) at the bin's own
    ``e^z``: ``_excess_lo(_shifted(p_lo, 1), _shifted(q_hi, 1), e_hi)`` without the copies."""
    out = np.empty(len(p_lo))
    if len(p_lo):
        out[:-1] = _excess_lo(p_lo[1:], q_hi[1:], e_hi[:-1])
        out[-1:] = _excess_lo(np.zeros(1), np.zeros(1), e_hi[-1:])
    return out


def _targets(bins: Bins, n: int, z0: float, h: float) -> np.ndarray:
    """The grid point nearest a float estimate of each bin's loss, within the bin (a locator
    only: every use of the target is certified)."""
    q_hi = bins.q_hi
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # (log(p_lo + p_hi) - log(max(q_lo, 0) + q_hi) - z0) / h, in place
        est = np.add(bins.p_lo, bins.p_hi)
        np.log(est, out=est)
        den = np.maximum(bins.q_lo, 0.0)
        den += q_hi
        np.log(den, out=den)
        est -= den
        est -= z0
        est /= h
    first = np.ceil(bins.a).astype(np.int64)
    last = np.floor(bins.b).astype(np.int64)
    nan = np.isnan(est)  # no estimate: the first grid point; no Q-mass: the last
    np.copyto(est, last, where=q_hi <= 0)
    np.copyto(est, first, where=nan)
    np.clip(est, -1.0, n + 1.0, out=est)
    np.rint(est, out=est)
    np.clip(est, first, last, out=est)
    t = est.astype(np.int64)
    return np.clip(t, 0, n - 1, out=t)


def _borrowing(bins: Bins, t: np.ndarray, e_hi: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per bin at its target: the lower bound x of its excess ``p - e^z q``, whether it is a
    surplus bin, and the fraction f of the bin above that a deficit bin borrows (``inf`` if
    it cannot). Bin j's values depend on bins j and j + 1 only (:func:`_borrowing_at`)."""
    p_lo, q_hi = np.maximum(bins.p_lo, 0.0), bins.q_hi
    et = e_hi[t]
    x = _excess_lo(p_lo, q_hi, et)
    surplus = x >= 0
    s_next = _excess_next_lo(p_lo, q_hi, et)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = np.divide(x, s_next)
        np.negative(ratio, out=ratio)  # -(x / s) is (-x) / s: rounding is symmetric
        f = np.where(~surplus & (s_next > 0), up_owned(ratio), np.inf)
    return x, surplus, f


def _pairs(bins: Bins, rows: np.ndarray) -> Bins:
    """The bins ``rows[i]`` and ``rows[i] + 1`` interleaved (a zero bin, as
    :func:`_shifted` fills, above the last bin): a short array on which the functions of a bin
    and the bin above it (:func:`_targets`, :func:`_borrowing`) give at the even positions
    their values at ``rows`` (elementwise, so bit for bit those of the whole array)."""
    idx = np.empty(2 * len(rows), dtype=np.int64)
    idx[0::2], idx[1::2] = rows, rows + 1
    past = idx >= len(bins)
    idx[past] = len(bins) - 1

    def take(v: np.ndarray, zero: bool) -> np.ndarray:
        out = v[idx]
        if zero:
            out[past] = 0.0
        return out

    return Bins(take(bins.p_lo, True), take(bins.p_hi, True), take(bins.q_lo, True),
                take(bins.q_hi, True), take(bins.a, False), take(bins.b, False))


def _borrowing_at(bins: Bins, rows: np.ndarray, t_rows: np.ndarray, e_hi: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_borrowing` at the bins ``rows`` only, at the targets ``t_rows`` (the few bins a
    merge or a promotion changed)."""
    x, surplus, f = _borrowing(_pairs(bins, rows), np.repeat(t_rows, 2), e_hi)
    return x[0::2], surplus[0::2], f[0::2]  # the odd positions' values are not read


def _carried(bins: Bins, removed: np.ndarray, changed: np.ndarray,
             state: tuple[np.ndarray, ...], e_hi: np.ndarray, z0: float, h: float
             ) -> tuple[np.ndarray, ...]:
    """``t, x, surplus, f`` of the bins after a merge that removed the old bins ``removed`` and
    changed the new bins ``changed`` (every other bin is an old one, in order; every pair of
    new neighbours that were not old neighbours has a changed bin on top): a bin keeps its old
    values unless it or the bin above it changed (they depend on bins j and j + 1 only),
    those are recomputed."""
    out = [np.delete(v, removed) for v in state]
    rows = np.union1d(changed, changed - 1)
    rows = rows[rows >= 0]
    if len(rows):
        t_rows = _targets(_pairs(bins, rows), len(e_hi), z0, h)[0::2]
        for v, new in zip(out, (t_rows, *_borrowing_at(bins, rows, t_rows, e_hi)),
                          strict=True):
            v[rows] = new
    return tuple(out)


def _merge_down(bins: Bins, stuck: np.ndarray) -> tuple[Bins, np.ndarray, np.ndarray]:
    """Each stuck bin (not the first) merged with the bin below it; of two adjacent stuck bins
    only the upper one merges in a round. Also the removed old bins and the merged new ones."""
    sel = stuck.copy()
    sel[0] = False
    sel[1:] &= ~sel[:-1]  # alternate: a merged pair never overlaps another
    idx = np.flatnonzero(sel)
    removed = idx - 1  # the bin below a selected one disappears into it
    at = idx - np.arange(1, len(idx) + 1)  # the merged bins' new indices

    def merged(v: np.ndarray, rnd: Callable[[np.ndarray], np.ndarray] | None) -> np.ndarray:
        out = np.delete(v, removed)
        out[at] = v[idx - 1] if rnd is None else rnd(v[idx] + v[idx - 1])
        return out

    return Bins(merged(bins.p_lo, down), merged(bins.p_hi, up), merged(bins.q_lo, down),
                merged(bins.q_hi, up), merged(bins.a, None), np.delete(bins.b, removed)), \
        removed, at


@dataclass
class Plan:
    """Atom j (one per bin of ``bins``, kept if ``keep[j]``) is the share ``share[j]`` of bin
    j, the fraction ``f[j]`` of bin j+1 and ``g[j]`` of bin j-1 (exact floats), placed at grid
    point ``t[j]`` with P-mass at least ``mass[j]``."""

    bins: Bins
    t: np.ndarray
    f: np.ndarray
    g: np.ndarray
    share: np.ndarray
    keep: np.ndarray
    mass: np.ndarray


def _stuck(bins: Bins, surplus: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Deficit bins with mass that cannot borrow from the bin above."""
    return ~surplus & ~(f <= 1) & (bins.p_hi > 0)


def _merge_stuck(bins: Bins, stuck: np.ndarray, e_hi: np.ndarray, z0: float, h: float
                 ) -> tuple[Bins, np.ndarray, np.ndarray]:
    """Up to ``MERGE_ROUNDS`` rounds of :func:`_merge_down`, each on short stretches around the
    stuck bins only (they are rare: an edge of the support, the ends of the window); a stretch
    carries one more bin above it, never merged, so that its top bin sees its true neighbour.
    Also the removed old bins and the changed new ones (those of the stretches)."""
    n, nb = len(e_hi), len(bins)
    cuts: list[tuple[int, int]] = []
    for j in np.flatnonzero(stuck[1:]).tolist():
        lo_, hi_ = max(0, j + 1 - MERGE_ROUNDS - 1), min(nb, j + 3)
        if cuts and lo_ <= cuts[-1][1]:
            cuts[-1] = (cuts[-1][0], hi_)
        else:
            cuts.append((lo_, hi_))
    parts: list[Bins] = []
    removed: list[np.ndarray] = []
    changed: list[np.ndarray] = []
    at, new_at = 0, 0  # the next old bin, its new index
    for lo_, hi_ in cuts:
        parts.append(bins.part(at, lo_))
        new_at += lo_ - at
        sub = bins.part(lo_, hi_)
        for _ in range(MERGE_ROUNDS):
            t = _targets(sub, n, z0, h)
            _x, surplus, f = _borrowing(sub, t, e_hi)
            st = _stuck(sub, surplus, f)
            if hi_ < nb:
                st[-1] = False  # the extra bin above: its own neighbour is not in the stretch
            if not st[1:].any():
                break
            sub = _merge_down(sub, st)[0]
        parts.append(sub)  # the stretch: its first len(sub) bins changed, the others removed
        changed.append(np.arange(new_at, new_at + len(sub)))
        removed.append(np.arange(lo_ + len(sub), hi_))
        new_at += len(sub)
        at = hi_
    parts.append(bins.part(at, nb))
    return Bins.concat(parts), np.concatenate(removed), np.concatenate(changed)


def _promotion(bins: Bins, t: np.ndarray, x: np.ndarray, surplus: np.ndarray,
               e_hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``heavy``: surplus bins whose surplus exceeds even the whole bin below's cost at their
    target (it cannot all be lent downwards); ``promote``: those of them that can target the
    next grid point, where they are short and the bin above can cover it (f <= 1)."""
    n = len(e_hi)
    c_below = up_owned(np.multiply(e_hi[t], _shifted(bins.q_hi, -1)))
    np.subtract(c_below, _shifted(bins.p_lo, -1), out=c_below)
    heavy = surplus & (x > up_owned(c_below)) & (bins.p_hi > 0)
    promote = np.zeros(len(heavy), dtype=bool)
    rows = np.flatnonzero(heavy)
    if len(rows):  # few: the borrowing at the next grid point at these bins only
        t_up = np.minimum(t[rows] + 1, n - 1)
        _x, surplus_up, f_up = _borrowing_at(bins, rows, t_up, e_hi)
        promote[rows] = ~surplus_up & (f_up <= 1) & (t[rows] + 1 < n)
    return heavy, promote


def _share_scaled(f: np.ndarray, g: np.ndarray, x: np.ndarray, s_next: np.ndarray
                  ) -> np.ndarray:
    """The borrowed fractions for the share a deficit bin keeps, not for the whole bin. With
    ``f0 = d / s`` (the fractions so far, upper bounds of those chosen here), ``f_lo_j = (1 -
    f0_{j-1}) d_j / s_{j+1}`` is a lower bound of the final ``f_j``, and a deficit atom's share
    is ``a_j = 1 - f_{j-1} - g_{j+1} <= 1 - f_lo_{j-1} - g_{j+1}`` (its own g is 0), so
    ``f_j = (1 - f_lo_{j-1} - g_{j+1}) d_j / s_{j+1}`` keeps ``f_j s_{j+1} >= a_j d_j``; f_lo is
    rounded down, f up. Smaller f leave the caps and the omegas of the g valid (they used the
    larger f0); f = 0 stays 0."""
    d = -x  # upper bound of the deficit where f > 0
    active = f > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        f_lo = down_owned(np.subtract(1.0, _shifted(f, -1)))
        f_lo = down_owned(np.multiply(f_lo, d, out=f_lo))
        f_lo = down_owned(np.divide(f_lo, s_next, out=f_lo))
        f_lo = np.where(active, f_lo, 0.0)
        keep = up_owned(np.subtract(1.0, np.maximum(_shifted(f_lo, -1), 0.0)))
        keep = up_owned(np.subtract(keep, _shifted(g, 1), out=keep))
        scaled = up_owned(np.multiply(np.maximum(keep, 0.0), d))
        scaled = up_owned(np.divide(scaled, s_next, out=scaled))
    return np.where(active, np.minimum(f, scaled), 0.0)


def _share(f: np.ndarray, g: np.ndarray) -> np.ndarray:
    """What bin j keeps for its own atom: ``1 - f_{j-1} - g_{j+1}`` (rounded down, >= 0)."""
    share = down_owned(np.subtract(1.0, _shifted(f, -1)))
    share = down_owned(np.subtract(share, _shifted(g, 1), out=share))
    return np.maximum(share, 0.0, out=share)


def exchange_plan(bins: Bins, e_hi: np.ndarray, z0: float, h: float) -> Plan:
    """The randomised merge of the module docstring (the bins after merging, every atom's
    target, fractions and share, and a lower bound of its P-mass). A deficit bin that cannot
    borrow from the bin above is first merged with the bin below (up to ``MERGE_ROUNDS``
    times: e.g. the top bin at an upper edge of the support, whose loss is below its grid
    point; the merged bin sits above its grid point and takes from below), then falls back to
    a lower grid point."""
    n = len(e_hi)
    bins = Bins(np.maximum(bins.p_lo, 0.0), bins.p_hi, np.maximum(bins.q_lo, 0.0),
                bins.q_hi, bins.a, bins.b)
    t = _targets(bins, n, z0, h)
    x, surplus, f = _borrowing(bins, t, e_hi)
    # a surplus bin that can neither lend its surplus downwards nor be promoted (the bin above
    # is itself short at the next grid point, e.g. at a lower edge where most of the mass sits
    # in a few bins) is merged with the bin above first; after a merge only the bins next to
    # it are recomputed (:func:`_carried`)
    heavy, promote = _promotion(bins, t, x, surplus, e_hi)
    blocked = heavy & ~promote
    blocked[-1] = False
    if blocked.any():
        bins, removed, changed = _merge_down(bins, np.concatenate([[False], blocked[:-1]]))
        t, x, surplus, f = _carried(bins, removed, changed, (t, x, surplus, f), e_hi, z0, h)
    stuck = _stuck(bins, surplus, f)
    if stuck[1:].any():
        bins, removed, changed = _merge_stuck(bins, stuck, e_hi, z0, h)
        t, x, surplus, f = _carried(bins, removed, changed, (t, x, surplus, f), e_hi, z0, h)
    heavy, promote = _promotion(bins, t, x, surplus, e_hi)
    if promote.any():
        rows = np.flatnonzero(promote)
        t = t.copy()
        t[rows] = np.minimum(t[rows] + 1, n - 1)
        x_r, surplus_r, f_r = _borrowing_at(bins, rows, t[rows], e_hi)
        x, surplus, f = x.copy(), surplus.copy(), f.copy()
        x[rows], surplus[rows], f[rows] = x_r, surplus_r, f_r
    p_lo, q_hi = bins.p_lo, bins.q_hi
    et = e_hi[t]
    borrow = ~surplus & (f <= 1)
    f = np.where(borrow, f, 0.0)
    # deficit bins that cannot borrow: a lower grid point certified below their loss, or drop
    keep = surplus | borrow
    for k in range(1, FALLBACK_STEPS + 1):
        todo = ~keep & (t - k >= 0)
        if not todo.any():
            break
        tk = np.maximum(t - k, 0)
        ok = todo & (_excess_lo(p_lo, q_hi, e_hi[tk]) >= 0)
        t = np.where(ok, tk, t)
        keep |= ok
    # surplus bins take from the bin below: c = e^z q - p of that bin, from above
    # (the *_owned steps round temporaries of their own expressions in place: the same bits)
    c_prev = up_owned(np.multiply(et, _shifted(q_hi, -1)))
    c_prev = up_owned(np.subtract(c_prev, _shifted(p_lo, -1), out=c_prev))
    cap = down_owned(np.subtract(1.0, _shifted(f, -2)))  # what atom j-2 left of bin j-1
    lend = surplus & (c_prev > 0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        g0 = np.where(lend, np.minimum(cap, up_owned(np.divide(x, c_prev))), 0.0)
        # (g0 >= the g chosen below)
        omega = down_owned(np.subtract(1.0, _shifted(f, -1)))
        omega = down_owned(np.subtract(omega, _shifted(g0, 1), out=omega))
        ratio = down_owned(np.multiply(omega, x))
        ratio = down_owned(np.divide(ratio, c_prev, out=ratio))
        g = np.where(lend & (omega > 0), np.minimum(cap, ratio), 0.0)
    g = np.maximum(g, 0.0)
    f = _share_scaled(f, g, x, _excess_next_lo(p_lo, q_hi, et))
    share = _share(f, g)
    mass = down_owned(np.multiply(share, p_lo))
    mass += down_owned(np.multiply(f, _shifted(p_lo, 1)))
    mass = down_owned(mass)
    mass += down_owned(np.multiply(g, _shifted(p_lo, -1)))
    mass = down_owned(mass)
    mass = np.where(keep, np.maximum(mass, 0.0), 0.0)
    return Plan(bins, t, f, g, share, keep, mass)


def lower_atoms(bins: Bins, e_hi: np.ndarray, z0: float, h: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The atoms of the lower PLD: grid indices and lower bounds of their P-masses (floats)."""
    plan = exchange_plan(bins, e_hi, z0, h)
    return plan.t, plan.mass
