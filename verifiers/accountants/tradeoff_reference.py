"""Certified references of the trade-off queries of an audit: ``tpr@fpr`` and ``gdp_mu``.

Both are read off the same upper and lower discrete PLDs that the eps/delta references compose
(:meth:`Reference._composed`, one pair per direction of the neighbouring relation), through
:mod:`dpverify.theorems.numerics.pld.tradeoff`:

- ``tpr@fpr``: the true value is ``1 - f(fpr)``, ``f = sup_{eps >= 0} f_{eps, delta(eps)}``
  with ``delta`` the scenario's two-order privacy profile -- the largest power of any test of
  type-I error fpr between neighbouring outputs. A claimed TPR below the certified lower end is
  a privacy bug (some test is more powerful than the accountant admits).
- ``gdp_mu``: the true value is the GDP parameter ``mu* = sup_a [Phi^{-1}(TPR(a)) -
  Phi^{-1}(a)]`` ([DRS] arXiv 1905.02383, Def. 2.6; catalogue FDP-PLD-CONV). The lower end is
  the maximum of certified lower bounds over 4000 FPRs in ``[1e-12, 1/2]`` (uniform in
  ``Phi^{-1}(fpr)``): a
  certified lower bound of ``mu*``, so a claimed mu below it is a privacy bug (the mechanism is
  not mu-GDP at the claimed mu, whatever FPR range the accountant used). The upper end bounds
  the supremum over ``fpr in [1e-12, 1/2]`` (dp_accounting's FPR range; it asks that the
  minimum FPR be reported with the estimate): a claim above ``loose_factor`` times it is LOOSE
  *for that stated definition* (the supremum over smaller FPRs is not bounded here).

``approx_dp`` events with ``delta0 > 0`` enter through the exact factorisation of the profile
``delta(eps) = 1 - K (1 - delta_rest(eps))`` (:mod:`verifiers.accountants.reference`), applied
to every tabulated profile value with outward rounding.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from dpverify.theorems.core import InvalidParameter
from dpverify.theorems.numerics.pld import tradeoff
from dpverify.verifiers.accountants.reference import Bound, Reference

GDP_GRID_POINTS = 4000
GDP_FPR_MIN = 1e-12
GDP_MIN_REL_WIDTH = 1e-2  # the bracketing of the supremum between grid points costs ~0.3%


def _lift(table: tradeoff.TradeoffTable, k: Fraction) -> tradeoff.TradeoffTable:
    """The approx_dp factor: ``delta = 1 - K (1 - delta_rest)`` at every eps (the reference
    module's exact factorisation), outward rounded; it keeps the form ``S0 - e^eps S1`` of a
    profile between atoms, so both bounds of :mod:`tradeoff` stay valid."""
    if k == 1:
        return table
    k_lo = math.nextafter(float(k), 0.0)
    k_hi = math.nextafter(float(k), 2.0)
    up = 1 - k_lo * (1 - table.up_delta)
    lo = 1 - k_hi * (1 - table.lo_delta)
    # absolute margins: the float round-off of 1 - k (1 - x) on [0, 1] is a few 2^-53
    return replace(table, up_delta=np.minimum(1.0, up + 2.0**-50),
                   lo_delta=np.maximum(0.0, lo - 2.0**-50))


def _table_run(ref: Reference, abs_tol: float, read: Any) -> Any:
    directions = ref._directions()
    bits, tail = ref._plan(abs_tol, directions)

    def run(h: Fraction) -> tuple[Fraction, Any]:
        table = _lift(tradeoff.tradeoff_table(ref._composed(h, bits, tail, directions)), ref.K)
        lo, hi = read(table)
        # an infinite upper end (TPR bound 1 at the grid) stays inf: no GDP parameter bound
        return Fraction(lo), (math.inf if math.isinf(hi) else Fraction(hi))

    return run, directions


def tpr_bound(ref: Reference, fpr: float) -> Bound:
    """The certified enclosure of ``1 - f(fpr)`` of the reference's scenario."""
    cache = ref.__dict__.setdefault("_tpr_cache", {})
    a = Fraction(repr(float(fpr)))
    if not 0 < a < 1:
        raise InvalidParameter(f"fpr must be in (0, 1); got {fpr}")
    if a not in cache:
        abs_tol = 2.0 ** (16 * math.floor(math.log2(float(a) * 2.0**-30) / 16))
        run, directions = _table_run(
            ref, abs_tol, lambda t: (tradeoff.tpr_lower(t, a), tradeoff.tpr_upper(t, a)))
        b = ref._refine(run, directions)
        cache[a] = Bound(b.lo, b.hi, "certified trade-off curve of the " + b.method,
                         b.seconds, b.passes)
    return cache[a]


def gdp_grid() -> list[float]:
    """FPRs in ``[1e-12, 1/2]`` uniform in ``Phi^{-1}(fpr)`` (bracketing error ~ the z step)."""
    return tradeoff.z_uniform_grid(GDP_FPR_MIN, 0.5, GDP_GRID_POINTS)


def gdp_mu_bound(ref: Reference) -> Bound:
    """``[certified lower bound of mu*, certified upper bound of the supremum over fpr in
    [1e-12, 1/2]]`` (see the module)."""
    hit = ref.__dict__.get("_gdp_mu")
    if hit is not None:
        return hit
    grid = gdp_grid()

    def read(table: Any) -> tuple[float, float]:
        lo, _ = tradeoff.mu_enclosure(table, grid)
        return max(lo, 0.0), tradeoff.mu_sup_upper(table, grid)

    run, directions = _table_run(ref, GDP_FPR_MIN * 2.0**-32, read)
    saved = ref.rel_width
    ref.rel_width = max(saved, GDP_MIN_REL_WIDTH)
    try:
        b = ref._refine(run, directions)
    finally:
        ref.rel_width = saved
    hit = Bound(b.lo, b.hi, "GDP parameter over fpr in [1e-12, 1/2] from the certified "
                            "trade-off curve of the " + b.method, b.seconds, b.passes)
    ref.__dict__["_gdp_mu"] = hit
    return hit


def query_bound(ref: Reference, kind: str, value: float) -> Bound:
    """The certified enclosure of one query of any kind."""
    if kind == "epsilon":
        return ref.epsilon(value)
    if kind == "delta":
        return ref.delta(value)
    if kind == "tpr":
        return tpr_bound(ref, value)
    if kind == "gdp_mu":
        return gdp_mu_bound(ref)
    raise InvalidParameter(f"unknown query kind {kind!r}")


__all__ = ["gdp_grid", "gdp_mu_bound", "query_bound", "tpr_bound"]
