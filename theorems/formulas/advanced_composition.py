"""Closed forms of composition: basic, advanced (DRV and S22 forms), KOV Thm 3.4, and the
asymptotics of k-fold randomized response.

Main results
------------
- :func:`basic_eps`, :func:`basic_delta`, :func:`lap_scale`, :func:`lap_mass`: basic composition
  and the Laplace witness of its optimality ([S22] Thm 1, Sec. 2.1).
- :func:`drv_eps` (and its slack and clipped forms): advanced composition ([DRV] Thm III.3).
- :func:`stk_eps`, :func:`stk_eps_het`, :func:`stk_approx_eps`: advanced composition via zCDP
  ([S22] Sec. 4, 4.3).
- :func:`kov34_eps_tilde`, :func:`kov34_eps`: the closed-form bound of [KOV] Thm 3.4.
- :func:`asymp_eps`, :func:`rr_pld_mean`, :func:`rr_pld_var`: k-fold RR at fixed zCDP budget
  ([S22] Sec. 5).

References
----------
- [DRV] C. Dwork, G. N. Rothblum, S. Vadhan, *Boosting and Differential Privacy*, FOCS 2010,
  Thm III.3 (no arXiv version); = [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of
  Differential Privacy*, 2014, Thm 3.20.
- [KOV] P. Kairouz, S. Oh, P. Viswanath, arXiv 1311.0776v4, Thm 3.4 (closed-form bound).
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Thm 1 and Sec. 2.1 (basic composition and its optimality),
  Sec. 4 and 4.3 (advanced composition via zCDP), Sec. 5 (asymptotic optimality).
- [BS16] M. Bun, T. Steinke, arXiv 1605.02065v1, Prop. 1.3 (zCDP to approximate DP) and
  Prop. 1.4 (pure DP implies zCDP), through [S22] Sec. 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.core import InvalidParameter, fmt_fraction
from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.formulas.kov_mv import kov_eps, kov_target
from dpverify.theorems.values import exact_params, is_exact, to_ctx


def log_inv(ctx: Any, delta: Any) -> Any:
    """``log(1/delta)``."""
    return -ctx.log(delta)


# ==========================================================================================
# Closed forms: BASIC, STK-BASIC-OPT, DRV-ADV, STK-ADV-PURE, STK-ADV-APPROX, KOV-34


def basic_eps(ctx: Any, eps_list: Sequence[Any]) -> Any:
    """``sum_i eps_i`` — basic composition of pure DP (DKMMN06; [S22] arXiv 2210.00597v4,
    Thm 1)."""
    return ctx.fsum(eps_list)


def basic_delta(ctx: Any, delta_list: Sequence[Any]) -> Any:
    """``sum_i delta_i`` — basic composition of approximate DP ([S22] v4, Thm 1, Sec. 2)."""
    return ctx.fsum(delta_list)


def lap_scale(ctx: Any, eps: Any, k: int) -> Any:
    """The per-coordinate Laplace scale ``k/eps`` of the witness of [S22] v4, Sec. 2.1."""
    return ctx.num(k) / eps


def lap_mass(ctx: Any, k: int) -> Any:
    """``2^-k``: P[privacy loss = eps] of the witness of [S22] v4, Sec. 2.1 (all k noises >= 0)."""
    return ctx.num(Fraction(1, 2**k))


def _slack(ctx: Any, delta: Any, delta0: Any, k: int) -> Any:
    """The slack ``delta' = delta - k*delta0`` of the catalogue's slack convention; > 0 required
    (decided exactly for exact inputs)."""
    if is_exact(delta) and is_exact(delta0):
        s = Fraction(delta) - k * Fraction(delta0)
        if s <= 0:
            raise InvalidParameter(
                f"delta must exceed k*delta0 = {fmt_fraction(k * Fraction(delta0))} (the slack "
                f"delta' = delta - k*delta0 must be > 0); got {fmt_fraction(Fraction(delta))}")
        return ctx.num(s)
    s = to_ctx(ctx, delta) - k * to_ctx(ctx, delta0)
    c = ctx.lt(ctx.zero, s)
    if c is False:
        raise InvalidParameter("delta must exceed k*delta0 (the slack must be > 0)")
    if c is None:
        raise PrecisionExhausted("the sign of the slack delta - k*delta0 is undecided")
    return s


def drv_eps_slack(ctx: Any, eps0: Any, k: int, slack: Any) -> Any:
    """``eps' = sqrt(2 k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1)`` ([DRV] FOCS 2010, Thm III.3
    = [DR14] Thm 3.20), as a function of the slack delta'."""
    return ctx.sqrt(2 * k * log_inv(ctx, slack)) * eps0 + k * eps0 * ctx.expm1(eps0)


@exact_params("delta", "delta0")
def drv_eps(ctx: Any, eps0: Any, k: int, delta: Any, delta0: Any) -> Any:
    """DRV-ADV unclipped: ``(eps', k*delta0 + delta')``-DP ([DRV] Thm III.3), slack
    ``delta' = delta - k*delta0``."""
    return drv_eps_slack(ctx, eps0, k, _slack(ctx, delta, delta0, k))


@exact_params("delta", "delta0")
def drv_eps_clipped(ctx: Any, eps0: Any, k: int, delta: Any, delta0: Any) -> Any:
    """``min(k eps0, eps')`` — DRV-ADV as practical code uses it (basic composition also holds)."""
    return ctx.min(k * eps0, drv_eps(ctx, eps0, k, delta, delta0))


def stk_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """``k eps0^2/2 + eps0 sqrt(2 k log(1/delta))`` ([S22] arXiv 2210.00597v4, Sec. 4: eps0-DP
    => eps0^2/2-zCDP, composition, conversion; [SteinkeBlog22])."""
    return k * eps0**2 / 2 + eps0 * ctx.sqrt(2 * k * log_inv(ctx, delta))


def stk_eps_het(ctx: Any, eps_list: Sequence[Any], delta: Any) -> Any:
    """``(1/2) sum eps_j^2 + sqrt(2 log(1/delta) sum eps_j^2)`` ([S22] v4, Sec. 4)."""
    s = ctx.fsum(e**2 for e in eps_list)
    return s / 2 + ctx.sqrt(2 * log_inv(ctx, delta) * s)


@exact_params("delta", "delta0")
def stk_approx_eps(ctx: Any, eps0: Any, k: int, delta: Any, delta0: Any) -> Any:
    """STK-ADV-APPROX: ``(eps, delta' + k delta0)``-DP with ``eps = k eps0^2/2 + eps0
    sqrt(2k log(1/delta'))`` ([S22] v4, Sec. 4.3; [SteinkeBlog22] fn. 1)."""
    return stk_eps(ctx, eps0, k, _slack(ctx, delta, delta0, k))


def kov34_eps_tilde(ctx: Any, eps0: Any, k: int, dt: Any, clip: bool = True) -> Any:
    """``eps~`` of [KOV] arXiv 1311.0776v4, Thm 3.4, as a function of ``delta~``:
    ``min{k eps0, a + eps0 sqrt(2k ln(e + sqrt(k eps0^2)/delta~)), a + eps0
    sqrt(2k ln(1/delta~))}`` with ``a = k eps0 (e^eps0 - 1)/(e^eps0 + 1)``."""
    a = k * eps0 * ctx.expm1(eps0) / (ctx.exp(eps0) + 1)
    b1 = a + eps0 * ctx.sqrt(2 * k * ctx.log(ctx.exp(ctx.one) + ctx.sqrt(k * eps0**2) / dt))
    b2 = a + eps0 * ctx.sqrt(2 * k * log_inv(ctx, dt))
    return ctx.min(k * eps0, b1, b2) if clip else ctx.min(b1, b2)


@exact_params("delta0", "delta")
def kov34_eps(ctx: Any, eps0: Any, delta0: Any, k: int, delta: Any) -> Any:
    """KOV-34: ``(eps~, 1 - (1 - delta0)^k (1 - delta~))``-DP ([KOV] v4, Thm 3.4), evaluated at
    the total delta: ``delta~ = 1 - (1 - delta)/(1 - delta0)^k`` must lie in (0, 1]."""
    sign, t = kov_target(ctx, delta0, delta, k)
    if sign <= 0:
        raise InvalidParameter(
            "delta must exceed 1 - (1 - delta0)^k so that delta~ = 1 - (1 - delta)/(1 - "
            "delta0)^k lies in (0, 1]")
    return kov34_eps_tilde(ctx, to_ctx(ctx, eps0), k, t)


def asymp_eps(ctx: Any, rho: Any, k: int, delta: Any) -> Any:
    """``KOV-EPS.eps(sqrt(2 rho/k), 0, k, delta)``: exact eps of k-fold RR with ``k eps0^2/2 =
    rho`` ([S22] arXiv 2210.00597v4, Sec. 5)."""
    return kov_eps(ctx, ctx.sqrt(2 * rho / k), 0, k, delta)


def rr_pld_mean(ctx: Any, eps0: Any) -> Any:
    """``eps0 tanh(eps0/2)``: the PLD mean of one RR(eps0) step ([S22] v4, Sec. 5)."""
    return eps0 * ctx.tanh(eps0 / 2)


def rr_pld_var(ctx: Any, eps0: Any) -> Any:
    """``eps0^2 (1 - tanh^2(eps0/2))``: the PLD variance of one RR(eps0) step."""
    return eps0**2 * (1 - ctx.tanh(eps0 / 2) ** 2)
