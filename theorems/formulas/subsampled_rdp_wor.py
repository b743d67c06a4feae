"""RDP amplification by subsampling WITHOUT replacement (replace-one neighbours): the general
upper bound of [WBK19] Thm 9 for Gaussian, randomized-response and Laplace base curves, and the
exact Rényi divergences of the lower-bound (witness) pairs used to test it.

References: [WBK19] Wang, Balle & Kasiviswanathan, *Subsampled Rényi Differential Privacy and
Analytical Moments Accountant*, arXiv 1808.00087 (version not verified), Thm 9, as read by the
catalogue in the first author's autodp ``rdp_acct.compose_subsampled_mechanism`` (commit
06489ea, default ``improved_bound_flag=False``: "Theorem 9 of arXiv 1808.00087"). Only the Thm
9 expression is encoded: autodp's further minima (with the unamplified ``eps(alpha)`` and with
``log(1 + gamma(e^{eps(inf)} - 1))``) are not part of it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify.theorems.formulas.laplace import laplace_moment, laplace_rdp_tau
from dpverify.theorems.formulas.rr import pdp_tau, rr_moment


def wbk_tau(ctx: Any, q: Any, alpha: int, eps2: Any, moment: Callable[[int], Any],
            eps_inf: Any | None) -> Any:
    """[WBK19] arXiv 1808.00087, Thm 9: ``eps'(alpha) <= log(1 + q^2 C(alpha,2) min{4(e^{eps(2)}
    - 1), e^{eps(2)} min{2, (e^{eps(inf)} - 1)^2}} + sum_{j=3}^{alpha} q^j C(alpha,j) e^{(j-1)
    eps(j)} min{2, (e^{eps(inf)} - 1)^j})/(alpha - 1)``, with ``moment(j) = e^{(j-1) eps(j)}``
    and ``eps_inf = None`` for ``eps(inf) = inf`` (then the inner minima are 2)."""
    two = ctx.num(2)
    e2 = ctx.exp(eps2)
    if eps_inf is None:
        def cap(j: int) -> Any:
            return two
    else:
        d = ctx.expm1(eps_inf)

        def cap(j: int) -> Any:
            return ctx.min(two, ctx.pow(d, j))
    second = ctx.min(4 * ctx.expm1(eps2), e2 * cap(2))
    terms = [ctx.binomial(alpha, 2) * ctx.pow(q, 2) * second]
    terms += [ctx.binomial(alpha, j) * ctx.pow(q, j) * moment(j) * cap(j)
              for j in range(3, alpha + 1)]
    return ctx.log1p(ctx.fsum(terms)) / (alpha - 1)


def wbk_tau_gauss(ctx: Any, q: Any, sigma: Any, alpha: int) -> Any:
    """Gaussian base: ``eps(j) = j/(2 sigma^2)`` (MIR-RDP-GAUSS), ``eps(inf) = inf``."""
    return wbk_tau(ctx, q, alpha, 1 / sigma**2,
                   lambda j: ctx.exp(ctx.num(j * j - j) / (2 * sigma**2)), None)


def wbk_tau_rr(ctx: Any, q: Any, eps0: Any, alpha: int) -> Any:
    """RR base: ``eps(j) = STK-PDP-ZCDP.tau(eps0, j)``, ``eps(inf) = eps0``."""
    return wbk_tau(ctx, q, alpha, pdp_tau(ctx, eps0, ctx.num(2)),
                   lambda j: rr_moment(ctx, eps0, j), eps0)


def wbk_tau_laplace(ctx: Any, q: Any, b: Any, alpha: int) -> Any:
    """Laplace base (sensitivity 1): ``eps(j) = MIR-RDP-LAP.tau(b, j)``, ``eps(inf) = 1/b``."""
    return wbk_tau(ctx, q, alpha, laplace_rdp_tau(ctx, b, ctx.num(2), ctx.one),
                   lambda j: laplace_moment(ctx, b, j), 1 / b)


def laplace_mixture_renyi(ctx: Any, q: Any, b: Any, alpha: Any, order: str) -> Any:
    """Exact ``D_alpha(M || L0)`` (``order="mix_first"``) or ``D_alpha(L0 || M)`` with ``L0 =
    Lap(0, b)``, ``M = (1-q) L0 + q Lap(1, b)`` (derived): the ratio ``M/L0 = 1 - q + q e^{(|y|
    - |y - 1|)/b}`` is constant on ``y <= 0`` and ``y >= 1``, so ``int L0 (M/L0)^p`` is two
    closed-form pieces plus a quadrature over ``[0, 1]``; ``p = alpha`` or ``1 - alpha``."""
    power = alpha if order == "mix_first" else 1 - alpha
    left = ctx.pow(1 - q + q * ctx.exp(-1 / b), power) / 2  # L0(y <= 0) = 1/2
    right = ctx.pow(1 - q + q * ctx.exp(1 / b), power) * ctx.exp(-1 / b) / 2  # L0(y >= 1)

    two_b, one_minus_q = 2 * b, 1 - q  # built once, not at each quadrature node (same values)

    def inner(y: Any) -> Any:
        return ctx.exp(-y / b) / two_b * ctx.pow(one_minus_q + q * ctx.exp((2 * y - 1) / b), power)

    middle = ctx.quad(inner, [ctx.zero, ctx.num(Fraction(1, 2)), ctx.one])
    return ctx.log(left + right + middle) / (alpha - 1)
