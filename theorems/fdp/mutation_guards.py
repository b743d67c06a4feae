"""Claim terms added after the formula-mutation harness (``bench/mutation.py``) found a survivor
in ``formulas.tradeoff_composition.rr_hom_vertices``: the complements ``1 - a_t = P(J < t)`` and
``1 - b_t = Q(J >= t)``, summed directly for accuracy, were only read through a conjugate whose
claims a shifted complement still passes.

- :func:`rr_complement_defect`: ``max_t max(|a_t + (1 - a_t) - 1|, |b_t + (1 - b_t) - 1|)`` over
  the vertices of ``f_{eps0,0}^{⊗k}`` (0: each complement is the complement of its coordinate).
- :func:`sgm_event_gap_quadrature`: the max-event gap of DRS-CLT claim 4 (an erratum's
  certificate, checked there one-sidedly: any larger gap refutes it too) from the per-step
  densities integrated by quadrature, against ``sgm_max_event_gap`` (closed form in erfc).
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import Box
from dpverify.theorems.ctx import MpCtx, Unsupported
from dpverify.theorems.formulas.tradeoff_composition import rr_hom_vertices


def rr_complement_defect(ctx: Any, eps0: Any, k: int, **_: Any) -> Any:
    vertices = rr_hom_vertices(ctx, eps0, k, with_complements=True)
    return ctx.max(*(ctx.max(abs(a + ca - 1), abs(b + cb - 1)) for a, b, ca, cb in vertices))


RR_COMPLEMENT_BOX = Box(reals={"eps0": ("1/100", "3")}, ints={"k": (1, 30)})


def sgm_event_gap_quadrature(ctx: Any, q: Any, k: int, m: Any, eps: Any, **_: Any) -> Any:
    """``P^k(S) - e^eps Q^k(S)`` for ``S = {max_t y_t > m}``, per step ``P = (1-q)N(0,1) +
    qN(1,1)`` and ``Q = N(0,1)``, with each step's tail ``P(y > m)`` integrated from the mixture
    density by mpmath's tanh-sinh quadrature on ``[m, m + 1, m + 4, inf)`` and
    ``1 - (1 - G)^k = -expm1(k log1p(-G))`` (an independent route for
    ``sgm_max_event_gap``, [DRS] arXiv 1905.02383 Sec. 5 setting; [DERIVED])."""
    if not isinstance(ctx, MpCtx):
        raise Unsupported("quadrature runs in mpmath")
    mp = ctx.m
    norm = 1 / mp.sqrt(2 * mp.pi)

    def tail(density: Any) -> Any:
        return mp.quad(density, [m, m + 1, m + 4, mp.inf])

    g_q = tail(lambda x: norm * mp.exp(-x * x / 2))
    g_p = tail(lambda x: norm * ((1 - q) * mp.exp(-x * x / 2) + q * mp.exp(-(x - 1) ** 2 / 2)))

    def at_least_once(g: Any) -> Any:
        return -mp.expm1(k * mp.log1p(-g))

    return at_least_once(g_p) - mp.exp(eps) * at_least_once(g_q)
