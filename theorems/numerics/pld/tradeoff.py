"""Certified trade-off values from the upper and lower PLDs: the TPR at a given FPR and the GDP
parameter of a composition.

Definition (catalogue fdp.md, DRS-TRADEOFF / DRS-DUALITY / FDP-PLD-CONV). With ``delta(eps)``
the two-order privacy profile (the maximum over the directions of the neighbouring relation,
as everywhere in this package), the mechanism's tightest trade-off function is

    ``f(a) = sup_{eps >= 0} f_{eps, delta(eps)}(a)``,
    ``f_{eps,delta}(a) = max(0, 1 - delta - e^eps a, e^{-eps}(1 - delta - a))``

([DRS] J. Dong, A. Roth, W. Su, arXiv 1905.02383, the dual-to-primal conversion after Prop.
2.12: exact for the symmetric convex hull of the minimum over both orders of the pairs' trade-off
curves). The **TPR at type-I error a** is ``1 - f(a) = inf_{eps >= 0} E(eps, a)`` with
``E(eps, a) = min(1, delta(eps) + e^eps a, 1 - e^{-eps}(1 - delta(eps) - a))`` -- the quantity
dp_accounting's ``get_true_positive_rates`` bounds from above on a finite delta grid (exact in
the limit of a dense grid).

Enclosure:

- upper: ``E`` is increasing in delta, so ``E(eps, a)`` at the upper PLD's certified
  ``delta(eps)`` bounds the TPR above for *every* eps; the minimum over the upper PLDs' atoms
  ``eps >= 0`` (and 0) is taken;
- lower: on an interval between consecutive atoms of the lower PLDs, each direction's lower
  profile is ``S0 - e^eps S1`` with constant S0, S1, so both affine pieces of E are monotone in
  eps and their infimum over the interval is at an end point; ``inf max_d >= max_d inf`` then
  gives a rigorous lower bound of ``inf_eps E(eps, a)`` at the lower profile, which bounds the
  true one below (the lower profile is below the true one at every eps).

The profile at the atoms is computed once in ball arithmetic and stored as outward-rounded
float64 bounds; the per-FPR minimum is then float arithmetic whose round-off (a handful of
operations on numbers of magnitude <= 1 + e^eps a) is absorbed by an explicit relative margin
of ``2^-46`` (about 64 times the float64 unit round-off ``2^-53`` per operation chain).

GDP: ``mu(a) = Phi^{-1}(TPR(a)) - Phi^{-1}(a)`` and the mechanism is mu-GDP iff
``mu >= sup_a mu(a)`` ([DRS] Def. 2.6; FDP-PLD-CONV). :func:`mu_enclosure` encloses
``max_{a in F} mu(a)`` on a finite FPR grid F (the lower end is also a certified lower bound of
the true GDP parameter), and :func:`mu_sup_upper` bounds ``sup_{a in [min F, max F]} mu(a)``
above by bracketing between grid points (TPR is nondecreasing in a). Phi^{-1} is computed by
mpmath and bracketed rigorously with arb ``erfc``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from dpverify.theorems.ctx import arb_precision
from dpverify.theorems.numerics.pld._arith import EVAL_PREC, _arb
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.enclose import (
    Enclosure,
    Part,
    _plan,
    _refine,
    _steps,
    composition_pld,
)

MARGIN = 2.0**-46
TINY = 1e-300


def _down(x: flint.arb) -> float:
    return math.nextafter(float(x.lower()), -math.inf)


def _up(x: flint.arb) -> float:
    return math.nextafter(float(x.upper()), math.inf)


def _profile_at(pld: DiscretePLD, points: Sequence[Fraction]) -> list[flint.arb]:
    """``delta(eps)`` of one discrete PLD at ascending exact points, by one downward sweep
    (``delta(eps) = 2^-B (inf + S0 - e^eps S1)``, sums over the atoms above eps)."""
    coeffs = [int(c) for c in pld.poly.coeffs()]
    n = len(coeffs)
    scale = flint.arb(2) ** (-pld.B)
    out: list[flint.arb] = [flint.arb(0)] * len(points)
    s0, s1 = 0, flint.arb(0)
    i = n - 1
    eh = _arb(pld.h).exp()
    e_neg = (-_arb(pld.loss(n - 1))).exp() if n else flint.arb(1)  # e^{-z_i}, walking down
    for j in range(len(points) - 1, -1, -1):
        eps = points[j]
        while i >= 0 and pld.loss(i) > eps:
            if coeffs[i]:
                s0 += coeffs[i]
                s1 += coeffs[i] * e_neg
            i -= 1
            e_neg = e_neg * eh
        out[j] = scale * (pld.inf + s0 - _arb(eps).exp() * s1)
    return out


def _atoms_from(pld: DiscretePLD, start: Fraction) -> list[Fraction]:
    first = max(0, math.ceil((start - pld.shift) / pld.h))
    return [pld.loss(i) for i in range(first, len(pld))]


@dataclass
class TradeoffTable:
    """Outward-rounded float bounds of the two-order profile at the atoms (see the module)."""

    up_x: np.ndarray  # e^eps upper bounds at the upper points
    up_y: np.ndarray  # e^-eps lower bounds
    up_delta: np.ndarray  # max over directions of the upper profile, rounded up
    lo_x: np.ndarray  # e^eps lower bounds at the lower points
    lo_y_lo: np.ndarray
    lo_y_hi: np.ndarray
    lo_delta: np.ndarray  # [direction, point]: lower profiles, rounded down


def tradeoff_table(plds: Sequence[tuple[DiscretePLD, DiscretePLD]]) -> TradeoffTable:
    """The table of :func:`tpr_enclosure` from the (upper, lower) PLDs of every direction."""
    with arb_precision(EVAL_PREC):
        up_pts = sorted({Fraction(0)} | {z for up, _ in plds for z in _atoms_from(up, Fraction(0))})
        lo_pts = sorted({Fraction(0)} | {z for _, lo in plds for z in _atoms_from(lo, Fraction(0))})
        up_delta = np.zeros(len(up_pts))
        for up, _ in plds:
            vals = np.array([_up(v) for v in _profile_at(up, up_pts)])
            up_delta = np.maximum(up_delta, vals)
        lo_delta = np.array([[max(0.0, _down(v)) for v in _profile_at(lo, lo_pts)]
                             for _, lo in plds])
        ex_up = [_arb(z).exp() for z in up_pts]
        ex_lo = [_arb(z).exp() for z in lo_pts]
        return TradeoffTable(
            up_x=np.array([_up(x) for x in ex_up]),
            up_y=np.array([_down(1 / x) for x in ex_up]),
            up_delta=up_delta,
            lo_x=np.array([_down(x) for x in ex_lo]),
            lo_y_lo=np.array([_down(1 / x) for x in ex_lo]),
            lo_y_hi=np.array([_up(1 / x) for x in ex_lo]),
            lo_delta=lo_delta,
        )


def _fpr_bounds(fpr: Any) -> tuple[float, float]:
    f = Fraction(fpr)
    x = float(f)
    lo = x if Fraction(x) <= f else math.nextafter(x, -math.inf)
    hi = x if Fraction(x) >= f else math.nextafter(x, math.inf)
    return lo, hi


def tpr_upper(table: TradeoffTable, fpr: Any) -> float:
    """A certified upper bound on ``1 - f(fpr)``."""
    _a_lo, a = _fpr_bounds(fpr)
    t2 = (table.up_delta + table.up_x * a) * (1 + MARGIN)
    w = 1 - table.up_delta - a
    w_lo = w - MARGIN * (1 + np.abs(w))
    t3 = np.where(w_lo >= 0, 1 - table.up_y * w_lo + MARGIN, 1.0)
    return float(min(1.0, float(t2.min()), float(t3.min())))


def tpr_lower(table: TradeoffTable, fpr: Any) -> float:
    """A certified lower bound on ``1 - f(fpr)``."""
    a, _a_hi = _fpr_bounds(fpr)
    d = table.lo_delta
    t2 = (d + table.lo_x * a) * (1 - MARGIN)
    w_hi = (1 - d - a) + MARGIN * (1 + np.abs(1 - d - a))
    t3 = np.where(w_hi >= 0, 1 - table.lo_y_hi * w_hi - MARGIN, 1.0)
    # each interval [j, j+1]: max over directions of the smaller end; then the tail
    l2 = np.append(np.minimum(t2[:, :-1], t2[:, 1:]).max(axis=0), t2[:, -1].max())
    l3 = np.append(np.minimum(t3[:, :-1], t3[:, 1:]).max(axis=0),
                   np.minimum(t3[:, -1], 1.0).max())
    return max(0.0, float(min(1.0, float(l2.min()), float(l3.min()))))


# ------------------------------------------------------------------------------------------
# drivers: a table from composed PLDs, refined like the eps/delta enclosures


def composed_table(directions: Sequence[Sequence[Part]], h: Fraction,
                   abs_tol: float) -> TradeoffTable:
    """The table of the compositions ``directions`` (as in :func:`enclose_eps_composition`)
    at grid step h, masses accurate to about ``abs_tol``."""
    bits, tail = _plan(_steps(directions), abs_tol)
    plds = [(composition_pld(parts, h, bits, tail, "upper"),
             composition_pld(parts, h, bits, tail, "lower")) for parts in directions]
    return tradeoff_table(plds)


def enclose_tpr(directions: Sequence[Sequence[Part]], fpr: Any, rel_width: float = 1e-3,
                max_seconds: float = 100.0, h: Fraction | None = None) -> Enclosure:
    """A rigorous enclosure of ``1 - f(fpr)`` (see the module), the grid refined until the
    relative width is at most ``rel_width`` or the budget runs out."""
    a = Fraction(fpr)
    abs_tol = max(float(a), 1e-30) * 2.0**-30

    def run(step: Fraction) -> tuple[Fraction, Fraction]:
        table = composed_table(directions, step, abs_tol)
        return Fraction(tpr_lower(table, a)), Fraction(tpr_upper(table, a))

    pairs = [pair for parts in directions for pair, _k in parts]
    return _refine(pairs, _steps(directions), run, rel_width, max_seconds, h)


def enclose_mu(directions: Sequence[Sequence[Part]], grid: Sequence[float] | None = None,
               rel_width: float = 1e-3, max_seconds: float = 100.0,
               h: Fraction | None = None) -> Enclosure:
    """A rigorous enclosure of ``max_{a in grid} mu(a)`` (default grid: dp_accounting's)."""
    fprs = list(grid) if grid is not None else default_fpr_grid()
    abs_tol = min(fprs) * 2.0**-30

    def run(step: Fraction) -> tuple[Fraction, Fraction]:
        lo, hi = mu_enclosure(composed_table(directions, step, abs_tol), fprs)
        return Fraction(lo), Fraction(hi)

    pairs = [pair for parts in directions for pair, _k in parts]
    return _refine(pairs, _steps(directions), run, rel_width, max_seconds, h)


# ------------------------------------------------------------------------------------------
# GDP


_PHI_INV: dict[float, tuple[float, float]] = {}


def _phi_inv_bounds(p: float) -> tuple[float, float]:
    """Floats ``lo <= Phi^{-1}(p) <= hi``: a float guess (``statistics.NormalDist``, mpmath at
    60 digits when that fails), bracketed rigorously with arb ``erfc`` (cached)."""
    hit = _PHI_INV.get(p)
    if hit is not None:
        return hit
    if p <= 0:
        return -math.inf, -math.inf
    if p >= 1:
        return math.inf, math.inf
    pb = _arb(Fraction(p))
    out = (-math.inf, math.inf)
    for guess in ("float", "mpmath"):
        x = _guess(p, guess)
        step = 1e-12 * max(1.0, abs(x))
        for _ in range(6):
            lo, hi = x - step, x + step
            with arb_precision(96):
                c_lo = (-_arb(Fraction(lo)) / flint.arb(2).sqrt()).erfc() / 2
                c_hi = (-_arb(Fraction(hi)) / flint.arb(2).sqrt()).erfc() / 2
            if c_lo < pb and pb < c_hi:
                out = (lo, hi)
                break
            step *= 16
        if out[0] > -math.inf:
            break
    if len(_PHI_INV) > 200_000:
        _PHI_INV.clear()
    _PHI_INV[p] = out
    return out


def _guess(p: float, how: str) -> float:
    if how == "float":
        import statistics

        return statistics.NormalDist().inv_cdf(p)
    import mpmath

    with mpmath.workdps(60):  # 2p - 1 is exact at 60 digits for every float p >= 1e-40
        return float(mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p) - 1))


def z_uniform_grid(fpr_min: float, fpr_max: float, points: int) -> list[float]:
    """FPRs ``Phi(z)`` for z uniform between ``Phi^{-1}(fpr_min)`` and ``Phi^{-1}(fpr_max)``
    (uniform steps in z make the bracketing of :func:`mu_sup_upper` uniformly tight)."""
    import statistics

    nd = statistics.NormalDist()
    a, b = nd.inv_cdf(fpr_min), nd.inv_cdf(fpr_max)
    return [nd.cdf(a + (b - a) * i / (points - 1)) for i in range(points)]


def default_fpr_grid() -> list[float]:
    """dp_accounting's default FPR grid: ``numpy.logspace(log10(1e-12), log10(0.5), 500)``
    (``PrivacyLossDistribution.get_gdp_parameter_estimate``), as the float64 values numpy
    produces."""
    return [float(x) for x in np.logspace(np.log10(1e-12), np.log10(0.5), num=500)]


def mu_enclosure(table: TradeoffTable, grid: Sequence[float]) -> tuple[float, float]:
    """Certified ``[lo, hi]`` of ``max_{a in grid} [Phi^{-1}(TPR(a)) - Phi^{-1}(a)]``."""
    best_lo = best_hi = -math.inf
    for a in grid:
        t_lo, t_hi = tpr_lower(table, a), tpr_upper(table, a)
        a_lo, a_hi = _phi_inv_bounds(a)
        best_lo = max(best_lo, _phi_inv_bounds(t_lo)[0] - a_hi)
        best_hi = max(best_hi, _phi_inv_bounds(t_hi)[1] - a_lo)
    return best_lo, best_hi


def mu_sup_upper(table: TradeoffTable, grid: Sequence[float]) -> float:
    """A certified upper bound on ``sup_{a in [min grid, max grid]} mu(a)`` (TPR nondecreasing:
    on ``[a_i, a_{i+1}]``, ``mu(a) <= Phi^{-1}(TPR(a_{i+1})) - Phi^{-1}(a_i)``)."""
    pts = sorted(grid)
    best = -math.inf
    for a0, a1 in itertools.pairwise(pts):
        best = max(best, _phi_inv_bounds(tpr_upper(table, a1))[1] - _phi_inv_bounds(a0)[0])
    return best


__all__ = [
    "TradeoffTable",
    "composed_table",
    "default_fpr_grid",
    "enclose_mu",
    "enclose_tpr",
    "mu_enclosure",
    "mu_sup_upper",
    "tpr_lower",
    "tpr_upper",
    "tradeoff_table",
    "z_uniform_grid",
]
