"""Gaussian differential privacy: the mu-GDP profile, its inverse, composition, zCDP parameter
and the (APPROX) CLT of noisy SGD ([DRS] arXiv 1905.02383, Cor. 2.13, Cor. 3.3, Sec. 5; numbers
recalled).
"""

from __future__ import annotations

from typing import Any


def gdp_delta(ctx: Any, mu: Any, eps: Any) -> Any:
    """``delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``: mu-GDP is equivalent
    to (eps, delta(eps))-DP for all eps ([DRS] arXiv 1905.02383, Cor. 2.13, number recalled)."""
    return ctx.ncdf(-eps / mu + mu / 2) - ctx.exp(eps) * ctx.ncdf(-eps / mu - mu / 2)


def gdp_eps(ctx: Any, mu: Any, delta: Any) -> Any:
    """Least eps >= 0 with ``gdp_delta(mu, eps) <= delta`` (bisection; decreasing in eps)."""
    return ctx.solve(lambda e: gdp_delta(ctx, mu, e), delta, lo=0, hi=1)


def gdp_mu_k(ctx: Any, mu: Any, k: int) -> Any:
    """``sqrt(k) mu``: k-fold composition of mu-GDP ([DRS] arXiv 1905.02383, Cor. 3.3)."""
    return ctx.sqrt(ctx.num(k)) * mu


def gdp_rho(ctx: Any, mu: Any) -> Any:
    """``mu^2/2``: mu-GDP implies (mu^2/2)-zCDP (catalogue DRS-GDP; the Gaussian PLD
    ``N(mu^2/2, mu^2)`` has ``D_alpha = alpha mu^2/2``)."""
    return mu**2 / 2


def gdp_mu_clt(ctx: Any, q: Any, sigma: Any, k: int) -> Any:
    """``q sqrt(k) sqrt(e^{1/sigma^2} - 1)``: the CLT approximation of Poisson-subsampled noisy
    SGD ([DRS] arXiv 1905.02383, Sec. 5, CLT for noisy SGD; number recalled). APPROX: not a
    privacy guarantee (DRS-GDP claim 3)."""
    return q * ctx.sqrt(ctx.num(k)) * ctx.sqrt(ctx.expm1(1 / sigma**2))
