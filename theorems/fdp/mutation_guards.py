"""Claim terms added after the formula-mutation harness (``bench/mutation.py``) found a survivor
in ``formulas.tradeoff_composition.rr_hom_vertices``: the complements ``1 - a_t = P(J < t)`` and
``1 - b_t = Q(J >= t)``, summed directly for accuracy, were only read through a conjugate whose
claims a shifted complement still passes.

- :func:`rr_complement_defect`: ``max_t max(|a_t + (1 - a_t) - 1|, |b_t + (1 - b_t) - 1|)`` over
  the vertices of ``f_{eps0,0}^{⊗k}`` (0: each complement is the complement of its coordinate).
- :func:`rr_vertices_shape`: the plain vertex list of ``f_{eps0,0}^{⊗k}`` (the one the curves
  interpolate) runs from (0, 1) to (1, 0) with type-I errors increasing and type-II errors
  decreasing, one vertex per threshold t = k+1..0.
- :func:`rr_moments_reference_gap`: the mean and variance of the RR privacy loss (DRS-CLT
  claim 1 reads them only through a ratio) against ``eps0 tanh(eps0/2)`` and ``eps0^2 /
  cosh^2(eps0/2)``.
- :func:`sgm_event_gap_quadrature`: the max-event gap of DRS-CLT claim 4 (an erratum's
  certificate, checked there one-sidedly: any larger gap refutes it too) from the per-step
  densities integrated by quadrature, against ``sgm_max_event_gap`` (closed form in erfc).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box
from dpverify.theorems.ctx import MpCtx, Unsupported
from dpverify.theorems.formulas.tradeoff_composition import rr_hom_vertices, rr_kl_moments


def rr_complement_defect(ctx: Any, eps0: Any, k: int, **_: Any) -> Any:
    vertices = rr_hom_vertices(ctx, eps0, k, with_complements=True)
    return ctx.max(*(ctx.max(abs(a + ca - 1), abs(b + cb - 1)) for a, b, ca, cb in vertices))


RR_COMPLEMENT_BOX = Box(reals={"eps0": ("1/100", "3")}, ints={"k": (1, 30)})


def rr_vertices_shape(ctx: Any, eps0: Any, k: int, **_: Any) -> bool | None:
    """Are the k + 2 vertices ``(a_t, b_t)``, t = k+1..0, a trade-off polyline from (0, 1) to
    (1, 0) (within 1e-30) with ``a`` strictly increasing and ``b`` strictly decreasing (every
    ``P(J = j)``, ``Q(J = j)`` is positive)? None when the balls do not decide it."""
    vertices = rr_hom_vertices(ctx, eps0, k)
    if len(vertices) != k + 2:
        return False
    tol = ctx.num(Fraction(1, 10**30))  # the end sums are balls around 1

    def near(x: Any, target: Any) -> bool | None:
        return ctx.lt(abs(x - target), tol)

    ends = (near(vertices[0][0], ctx.zero), near(vertices[0][1], ctx.one),
            near(vertices[-1][0], ctx.one), near(vertices[-1][1], ctx.zero))
    steps = [d for u, v in itertools.pairwise(vertices)
             for d in (ctx.lt(u[0], v[0]), ctx.lt(v[1], u[1]))]
    decided = [*ends, *steps]
    if False in decided:
        return False
    return True if all(d is True for d in decided) else None


def rr_moments_reference_gap(ctx: Any, eps0: Any, **_: Any) -> Any:
    """The larger relative gap of ``rr_kl_moments`` (mean, variance of the loss ``±eps0`` with
    ``P(+eps0) = e^eps0/(1 + e^eps0)``) from ``eps0 tanh(eps0/2) = eps0 (e^eps0 - 1)/(e^eps0 +
    1)`` and ``eps0^2 (1 - tanh^2(eps0/2)) = 4 eps0^2 e^eps0/(1 + e^eps0)^2``."""
    mean, var = rr_kl_moments(ctx, eps0)
    mean_ref, var_ref = rr_moments_reference(ctx, eps0)
    return ctx.max(abs(mean - mean_ref) / mean_ref, abs(var - var_ref) / var_ref)


def rr_moments_reference(ctx: Any, eps0: Any) -> tuple[Any, Any]:
    """``(eps0 (e^eps0 - 1)/(e^eps0 + 1), 4 eps0^2 e^eps0/(1 + e^eps0)^2)``: ``eps0 tanh(eps0/2)``
    and ``eps0^2/cosh^2(eps0/2)`` written in ``e^eps0`` ([DRS] arXiv 1905.02383, Sec. 3.2)."""
    z = ctx.exp(eps0)
    return eps0 * ctx.expm1(eps0) / (1 + z), 4 * eps0 * eps0 * z / ((1 + z) * (1 + z))


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
