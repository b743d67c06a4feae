"""Privacy amplification by subsampling: the amplified (eps, delta) of [BBG] Thms 8-9, the per-step
eps under add/remove and replace-one neighbours, subsampling followed by advanced composition,
and the general binomial RDP bound for Poisson subsampling with Gaussian, Laplace and RR bases.

References: [BBG] arXiv 1807.01647v2, Thms 8-9; [S22] arXiv 2210.00597v4, Secs. 4.3, 6.2-6.6;
[ZW19] Thm 6; [Mir17] arXiv 1702.07476v3, Prop. 6; [SteinkeBlog24] Thm 4.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import InvalidParameter
from dpverify.theorems.formulas.laplace import laplace_moment
from dpverify.theorems.formulas.rr import rr_moment
from dpverify.theorems.values import exact_params, to_ctx


def amp_eps(ctx: Any, eps0: Any, q: Any) -> Any:
    """``log(1 + q (e^eps0 - 1))``: the amplified eps of [BBG] arXiv 1807.01647v2, Thm 8
    (Poisson, rate q) and Thm 9 (without replacement, q = m/n)."""
    return ctx.log1p(q * ctx.expm1(eps0))


def amp_delta(ctx: Any, delta0: Any, q: Any) -> Any:
    """``q delta0``: the amplified delta of [BBG] v2 Thms 8 and 9."""
    return q * delta0


def relation_eps(ctx: Any, eps0: Any, q: Any, neighboring: str = "add_remove") -> Any:
    """Per-step eps of a Poisson-subsampled pure eps0-DP base (derived; [S22] arXiv
    2210.00597v4 Sec. 6.2): ``log(1 + q(e^eps0 - 1))`` for add/remove and
    ``log((1 + q(e^eps0 - 1))/(1 + q(e^-eps0 - 1)))`` for replace-one."""
    if neighboring == "add_remove":
        return amp_eps(ctx, eps0, q)
    return ctx.log1p(q * ctx.expm1(eps0)) - ctx.log1p(q * ctx.expm1(-eps0))


def adv_eps(ctx: Any, e: Any, k: int, slack: Any) -> Any:
    """``k e^2/2 + e sqrt(2k log(1/slack))``: STK-ADV-APPROX's eps at per-step eps e and slack
    ([S22] arXiv 2210.00597v4, Sec. 4.3)."""
    return k * e**2 / 2 + e * ctx.sqrt(2 * k * ctx.log(1 / slack))


@exact_params("delta", "delta0", "q")
def subsample_comp_eps(ctx: Any, eps0: Any, q: Any, k: int, delta: Any, delta0: Any) -> Any:
    """k steps of a q-Poisson-subsampled (eps0, delta0)-DP mechanism are
    ``(k eps'^2/2 + eps' sqrt(2k log(1/delta')), delta)``-DP with ``eps' = log(1 + q(e^eps0 -
    1))`` and the slack ``delta' = delta - k q delta0`` (BBG-T8 then STK-ADV-APPROX; [S22]
    arXiv 2210.00597v4, Sec. 6.3)."""
    if all(isinstance(v, Fraction | int) for v in (delta, delta0, q)):
        slack = Fraction(delta) - k * Fraction(q) * Fraction(delta0)
        if slack <= 0:
            raise InvalidParameter(f"the slack delta - k q delta0 must be > 0; got "
                                   f"{float(slack):.6g}")
        slack_n = ctx.num(slack)
    else:
        slack_n = to_ctx(ctx, delta) - k * to_ctx(ctx, q) * to_ctx(ctx, delta0)
    return adv_eps(ctx, amp_eps(ctx, eps0, to_ctx(ctx, q)), k, slack_n)


def analytic_rdp(ctx: Any, q: Any, alpha: int, moment: Callable[[int], Any]) -> Any:
    """``log[(1-p)^{alpha-1}(1 + (alpha-1)p) + sum_{j=2}^{alpha} C(alpha,j)(1-p)^{alpha-j} p^j
    e^{(j-1) eps_j}]/(alpha-1)``, with ``moment(j) = e^{(j-1) eps_j}`` (as attributed to [S22]
    arXiv 2210.00597v4 Secs. 6.5-6.6 by third-party code; cf. [ZW19] Thm 6)."""
    head = ctx.pow(1 - q, alpha - 1) * (1 + (alpha - 1) * q)
    terms = [ctx.binomial(alpha, j) * ctx.pow(1 - q, alpha - j) * ctx.pow(q, j) * moment(j)
             for j in range(2, alpha + 1)]
    return ctx.log(head + ctx.fsum(terms)) / (alpha - 1)


def analytic_tau(ctx: Any, q: Any, sigma: Any, alpha: int) -> Any:
    """Gaussian base: ``eps_j = j/(2 sigma^2)`` (MIR-RDP-GAUSS), so ``e^{(j-1) eps_j} =
    e^{(j^2 - j)/(2 sigma^2)}``."""
    return analytic_rdp(ctx, q, alpha, lambda j: ctx.exp(ctx.num(j * j - j) / (2 * sigma**2)))


def analytic_tau_laplace(ctx: Any, q: Any, b: Any, alpha: int) -> Any:
    return analytic_rdp(ctx, q, alpha, lambda j: laplace_moment(ctx, b, j))


def analytic_tau_rr(ctx: Any, q: Any, eps0: Any, alpha: int) -> Any:
    return analytic_rdp(ctx, q, alpha, lambda j: rr_moment(ctx, eps0, j))
