"""Claim terms and regions shared by the composition theorems: the ordering boxes of the
interval route (a bound B is checked against KOV-DELTA), the 96-point DRV grid, and lookups of
other catalogue entries' formulas by public name.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Compare,
    Points,
    grid,
)
from dpverify.theorems.ctx import PrecisionExhausted, Unsupported
from dpverify.theorems.formulas.advanced_composition import (
    drv_eps,
    drv_eps_clipped,
    drv_eps_slack,
    kov34_eps,
    kov34_eps_tilde,
    stk_eps,
)
from dpverify.theorems.formulas.kov_mv import (
    ball_ends,
    is_wide_ball,
    kov_delta,
    kov_delta_pure,
    kov_eps,
    with_delta0,
)
from dpverify.theorems.values import exact_params

FAMILY = "composition"


@exact_params("r", "delta0")
def adaptive_kov_bound(ctx: Any, r: Any, delta0: Any, k: int, eps: Any, **_: Any) -> Any:
    return kov_delta(ctx, ctx.log(ctx.num(r)), delta0, k, eps)


# ==========================================================================================
# Claims: shared terms and regions


def const(value: str) -> Callable[..., Any]:
    return lambda ctx, **_: ctx.num(value)


def drv96() -> Points:
    return grid(eps0=["0.01", "0.1", "0.5", "1"], k=[1, 5, 20, 100],
                slack=["1e-3", "1e-6", "1e-9"], delta0=["0", "1e-8"])


@exact_params("slack", "delta0")
def kov_eps_at_slack(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return kov_eps(ctx, eps0, delta0, k, Fraction(slack) + k * Fraction(delta0))


@exact_params("slack", "delta0")
def drv_at_slack(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return drv_eps(ctx, eps0, k, Fraction(slack) + k * Fraction(delta0), delta0)


@exact_params("slack", "delta0")
def drv_clipped_at_slack(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any,
                          **_: Any) -> Any:
    return drv_eps_clipped(ctx, eps0, k, Fraction(slack) + k * Fraction(delta0), delta0)


def kov_total_delta(delta_tilde: Fraction, delta0: Fraction, k: int) -> Fraction:
    return 1 - (1 - delta0) ** k * (1 - delta_tilde)


@exact_params("slack", "delta0")
def kov_eps_at_tilde(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return kov_eps(ctx, eps0, delta0, k, kov_total_delta(Fraction(slack), Fraction(delta0), k))


@exact_params("slack", "delta0")
def kov34_at_tilde(ctx: Any, eps0: Any, k: int, slack: Any, delta0: Any, **_: Any) -> Any:
    return kov34_eps(ctx, eps0, delta0, k, kov_total_delta(Fraction(slack), Fraction(delta0), k))


# The ordering boxes (interval route): KOV-EPS(delta) <= B is decided as the equivalent
# KOV-DELTA(B) <= delta (eps_opt is the least eps >= 0 with delta_opt(eps) <= delta and
# delta_opt is nonincreasing, so eps_opt <= B iff delta_opt(B) <= delta, for B >= 0). delta is
# parametrized by u = sqrt(2 ln(1/delta)), in which the bounds are affine: u in [2.1, 6.8] is
# delta in [9.1e-11, 0.111], a superset of [1e-10, 0.1].
ORDER_K_MAX = 40  # k = 1..100 takes 5e3-1.5e4 boxes (a thorough budget); 1..40 fits quick
ORDER_BOX_TEXT = ("eps0 in [0.01, 1] (log scale), delta in [1e-10, 0.1] (as u = sqrt(2 "
                  "ln(1/delta)) in [2.1, 6.8], i.e. delta in [9.1e-11, 0.111]), k in "
                  f"{{1..{ORDER_K_MAX}}} (each sub-box enclosed at its monotone corners, "
                  "KOV-DELTA claim 4)")


def order_box(**extra: Any) -> Box:
    reals = {"eps0": ("0.01", "1"), "u": ("2.1", "6.8")}
    return Box(reals=reals, ints={"k": (1, ORDER_K_MAX)}, fixed=dict(extra),
               log_scale=frozenset({"eps0"}))


def kov_delta_at(bound: Callable[..., Any], delta0: Fraction = Fraction(0)
                  ) -> Callable[..., Any]:
    """``KOV-DELTA.delta(eps0, delta0, k, B(eps0, k, delta))`` with ``delta = e^{-u^2/2}``
    (delta0 fixed).

    Over a box it returns the hull of two corner values of ``G(eps0, s) = delta_pure(eps0, k,
    eps0 s)`` at ``s = B/eps0``. ``G`` is nondecreasing in eps0 for fixed s (``G = E[h(i)]``
    over ``i ~ Bin(k, e^eps0/(1+e^eps0))`` with ``h(i) = (1 - e^{-eps0 (2i - k - s)})_+``
    nondecreasing in i and in eps0, and the binomial grows stochastically with eps0) and
    nonincreasing in s; every bound here has ``s = B/eps0`` nondecreasing in eps0 and in u.
    So ``G(eps0_hi, s(eps0_lo, u_lo))`` bounds the box from above (and ``1 - (1-delta0)^k (1 -
    G)`` is increasing in G).
    """

    def ratio(ctx: Any, eps0: Any, k: int, u: Any) -> Any:
        return bound(ctx, eps0, k, ctx.exp(-u**2 / 2)) / eps0

    def term(ctx: Any, eps0: Any, k: int, u: Any, **_: Any) -> Any:
        if ctx.name not in ("arb", "mp", "fp"):
            raise Unsupported("no symbolic form: the box enclosure uses monotone corners")
        if is_wide_ball(eps0) or is_wide_ball(u):
            e_lo, e_hi = ball_ends(eps0, floor=0)
            u_lo, u_hi = ball_ends(u, floor=0)
            if not e_lo > 0:
                raise PrecisionExhausted("the box reaches eps0 = 0")
            s_lo, s_hi = ratio(ctx, e_lo, k, u_lo), ratio(ctx, e_hi, k, u_hi)
            pure = ctx.hull(kov_delta_pure(ctx, e_lo, k, e_lo * s_hi),
                            kov_delta_pure(ctx, e_hi, k, e_hi * s_lo))
        else:
            pure = kov_delta_pure(ctx, eps0, k, bound(ctx, eps0, k, ctx.exp(-u**2 / 2)))
        return with_delta0(ctx, delta0, k, pure)

    return term


def delta_of_u(ctx: Any, u: Any, **_: Any) -> Any:
    return ctx.exp(-u**2 / 2)


def delta_side(ctx: Any, delta: Any, **_: Any) -> Any:
    return delta


def stk_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return stk_eps(ctx, eps0, k, delta)


def drv_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return drv_eps_slack(ctx, eps0, k, delta)


def drv_clipped_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return drv_eps_clipped(ctx, eps0, k, delta, 0)


def kov34_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """``min(b1, b2)`` of [KOV] Thm 3.4 without the ``k eps0`` term: ``delta_pure(eps0, k, x) =
    0`` for every ``x >= k eps0``, so clipping does not change ``delta_pure`` at the bound."""
    return kov34_eps_tilde(ctx, eps0, k, delta, clip=False)


def basic_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return k * eps0


def order_check(bound: Callable[..., Any], name: str) -> Compare:
    return Compare(kov_delta_at(bound), "le", delta_of_u, order_box(), "interval",
                   lhs_name=f"KOV-DELTA.delta_pure(eps0, k, {name})", rhs_name="delta")
