"""Randomized response and pure DP: the sharp RDP curve of eps0-DP (attained by RR) in two
forms, the zCDP parameters of pure DP, and RR's Rényi moments.

References: [SteinkeBlog24] "Sharp RDP & zCDP from pure DP" (2024), Thm 4; [BS16] arXiv
1605.02065, Prop. 1.4; [Mir17] arXiv 1702.07476v3, Def. 3.
"""

from __future__ import annotations

from typing import Any


def rr_rdp_tau(ctx: Any, eps0: Any, alpha: Any) -> Any:
    """Sharp RDP curve of eps0-DP, attained by randomized response ([SteinkeBlog24], Thm 4 as
    numbered in the catalogue; = ``D_alpha(RR(eps0))``, [Mir17] arXiv 1702.07476v3, Def. 3):
    ``(1/(alpha-1)) log(e^{alpha eps0}/(e^eps0 + 1) + e^eps0 e^{-alpha eps0}/(e^eps0 + 1))``
    (catalogue STK-PDP-ZCDP.tau)."""
    ee = ctx.exp(eps0)
    inner = (ctx.exp(alpha * eps0) + ee * ctx.exp(-alpha * eps0)) / (ee + 1)
    return ctx.log(inner) / (alpha - 1)


def pdp_rho(ctx: Any, eps0: Any) -> Any:
    """``eps0 tanh(eps0/2)``: eps0-DP implies this rho-zCDP, sharp as alpha -> 1 (the KL of
    RR) ([SteinkeBlog24], "Sharp RDP & zCDP from pure DP", 2024; improves [BS16] arXiv
    1605.02065 Prop. 1.4)."""
    return eps0 * ctx.tanh(eps0 / 2)


def pdp_rho_simple(ctx: Any, eps0: Any) -> Any:
    """``eps0^2/2``: eps0-DP implies (eps0^2/2)-zCDP ([BS16] arXiv 1605.02065, Prop. 1.4)."""
    return eps0**2 / 2


def pdp_tau(ctx: Any, eps0: Any, alpha: Any) -> Any:
    """The sharp RDP curve of eps0-DP, attained by RR ([SteinkeBlog24] Thm 4):
    ``log(e^{alpha eps}/(e^eps + 1) + e^eps e^{-alpha eps}/(e^eps + 1))/(alpha - 1)``, in the
    blog's stable form ``eps - log((1 + e^{-eps})/(1 + e^{-(2 alpha - 1) eps}))/(alpha - 1)``.
    """
    return eps0 - (ctx.log1p(ctx.exp(-eps0)) - ctx.log1p(ctx.exp(-(2 * alpha - 1) * eps0))) / (
        alpha - 1)


def rr_moment(ctx: Any, eps0: Any, j: int) -> Any:
    """``e^{(j-1) eps_hat_j}`` of eps0-RR: ``(e^{j eps0} + e^{eps0} e^{-j eps0})/(e^eps0 + 1)``
    (STK-PDP-ZCDP.tau, [SteinkeBlog24] Thm 4)."""
    z = ctx.exp(eps0)
    return (ctx.exp(j * eps0) + z * ctx.exp(-j * eps0)) / (z + 1)
