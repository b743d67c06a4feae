"""Claim terms that pin down engine internals the other claims only bound from one side
(added after the formula-mutation harness, ``bench/mutation.py``, found survivors).

- :func:`l32_bellman_excess`: the DDR-L32 lattice lower table must satisfy the recursion of
  [DDR] arXiv 1909.13830v2, Lemma 3.2, with the maximum over the lattice ``t = i eps0/N``:
  ``LB_k(m) = max_i [p_i LB_{k-1}(m - i) + (1 - p_i) LB_{k-1}(m - i + N)]``. Any choice of ``i``
  gives a valid lower bound, so the one-sided claims (LB <= optimum) cannot see a wrong argmax;
  this two-sided identity can.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Points
from dpverify.theorems.ctx import ArbCtx, arb_precision
from dpverify.theorems.formulas.bounded_range import grr_1mp, grr_p
from dpverify.theorems.formulas.ddr_adaptive import L32_N_LB, _l32_lattice, _lattice_prec
from dpverify.theorems.values import exact_params

# the float argmax may pick a candidate within float rounding of the best one (values <= 1,
# k <= 4 levels of double recursion: a few 1e-16); 1e-12 leaves a wide margin
BELLMAN_SLACK = Fraction(1, 10**12)


def _lb_at(ctx: Any, table: list[Any], off: int, m: int, h: Fraction) -> Any:
    """``LB(m)`` of one level: the exact boundary ``1 - e^{m h}`` left of the table, 0 right."""
    if m < -off:
        return -ctx.expm1(ctx.num(m * h))
    if m > off:
        return ctx.zero
    return table[m + off]


@exact_params("eps0")
def l32_bellman_excess(ctx: Any, eps0: Any, k: int, m: int, **_: Any) -> Any:
    """``LB_k(m) - max_i [p_i LB_{k-1}(m - i) + (1 - p_i) LB_{k-1}(m - i + N)]`` (lattice N =
    L32_N_LB, ``t_i = i eps0/N``), in arb at the lattice precision; 0 when the table is right."""
    e0, n = Fraction(eps0), L32_N_LB
    prec = _lattice_prec(ctx)
    actx = ArbCtx(prec)
    h = e0 / n
    with arb_precision(prec):
        prev, _, off_prev = _l32_lattice(e0, k - 1, n, prec) if k > 1 else ([], None, 0)
        cur, _, off = _l32_lattice(e0, k, n, prec)
        E0 = actx.num(e0)
        best = None
        for i in range(n + 1):
            t = actx.num(i * h)
            p = actx.one if i == 0 else actx.zero if i == n else grr_p(actx, E0, t)
            q = actx.zero if i == 0 else actx.one if i == n else grr_1mp(actx, E0, t)
            if k > 1:
                a = _lb_at(actx, prev, off_prev, m - i, h)
                b = _lb_at(actx, prev, off_prev, m - i + n, h)
            else:  # level 0: the boundary 1 - e^{x} for x <= 0, else 0
                a = -actx.expm1(actx.num((m - i) * h)) if m - i <= 0 else actx.zero
                b = -actx.expm1(actx.num((m - i + n) * h)) if m - i + n <= 0 else actx.zero
            cand = p * a + q * b
            best = cand if best is None else best.max(cand)
        return _lb_at(actx, cur, off, m, h) - best


BELLMAN_POINTS = Points(tuple({"eps0": "1/2", "k": k, "m": m}
                              for k in (1, 2, 3)
                              for m in (-k * L32_N_LB + 1, -700 * k, -250 * k, -37, 0, 1,
                                        123 * k, 500 * k, k * L32_N_LB - 1)))
BELLMAN_TEXT = ("the lower table of the DDR-L32 lattice (N = 1000, eps0 = 0.5) satisfies the "
                "Lemma 3.2 recursion with the maximum over the lattice t: LB_k(m) >= max_i "
                "[p_i LB_{k-1}(m - i) + (1 - p_i) LB_{k-1}(m - i + N)] - 1e-12 (the float argmax "
                "ties within rounding), certified at 27 lattice states (k = 1, 2, 3, m across "
                "[-k N, k N])")
