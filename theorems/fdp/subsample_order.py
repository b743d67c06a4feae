"""DRS-SUBSAMPLE claim 4 (C_q(f) >= f, C_1(f) = f, C_q(f) decreasing in q) for the three bases
f_{eps0,0} (RR), f_{eps0,delta0} and G_mu. Each base and conjunct is its own ``part``, so the
claim's headline is that of its weakest base and conjunct.

Formulas: :mod:`dpverify.theorems.formulas.tradeoff` (subsample_rr_f, subsample_approx_f,
subsample_gauss_f); SMT problems: :mod:`dpverify.theorems.fdp.smt_forms`.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import Box, Check, Claim, Compare, Smt, Tol
from dpverify.theorems.fdp.smt_forms import subsample_approx_order_problem, subsample_order_problem
from dpverify.theorems.formulas.tradeoff import (
    f_approx,
    f_gauss,
    subsample_approx_f,
    subsample_gauss_f,
    subsample_rr_f,
)

_RR_BOX = Box(reals={"eps0": ("0.01", "5"), "q": ("0.01", "0.99"), "fpr": ("0.001", "0.999")})
_RR_PAIR_BOX = Box(reals={"eps0": ("0.01", "5"), "q": ("0.01", "0.99"), "h": ("0.01", "1"),
                          "fpr": ("0.001", "0.999")})
# C_q(f) = f = 0 on [1 - q delta0, 1], so ">=" (not ">") is searched; the faces where the two
# sides are equal but computed by different routes (eps0 = 0, q = 1, q' = q, fpr in {0, 1})
# are left out of the search (no arb decision there) and covered by the z3 proofs.
_APPROX_BOX = Box(reals={"eps0": ("0.01", "5"), "delta0": ("0", "0.9"), "q": ("0.01", "0.99"),
                         "fpr": ("0.001", "0.999")})
_APPROX_PAIR_BOX = Box(reals={"eps0": ("0.01", "5"), "delta0": ("0", "0.9"),
                              "q": ("0.01", "0.99"), "h": ("0.01", "1"),
                              "fpr": ("0.001", "0.999")})
_APPROX_ONE_BOX = Box(reals={"eps0": ("0", "5"), "delta0": ("0", "1"), "fpr": ("0", "1")})
_GAUSS_BOX = Box(reals={"sigma": ("0.2", "5"), "q": ("0.01", "0.99"), "fpr": ("0.001", "0.999")})
_GAUSS_PAIR_BOX = Box(reals={"sigma": ("0.2", "5"), "q": ("0.01", "0.99"), "h": ("0.01", "1"),
                             "fpr": ("0.001", "0.999")})
_GAUSS_ONE_BOX = Box(reals={"sigma": ("0.2", "5"), "fpr": ("0.001", "0.999")})


def _q2(q: Any, h: Any) -> Any:
    """q' = q + h (1 - q): q <= q' <= 1 over h in [0, 1]."""
    return q + h * (1 - q)


def _rr_checks() -> tuple[Check, ...]:
    def cq(ctx: Any, eps0: Any, q: Any, fpr: Any, **_: Any) -> Any:
        return subsample_rr_f(ctx, eps0, q, fpr)

    def f(ctx: Any, eps0: Any, fpr: Any, **_: Any) -> Any:
        return f_approx(ctx, eps0, ctx.zero, fpr)

    def c1(ctx: Any, eps0: Any, fpr: Any, **_: Any) -> Any:
        return subsample_rr_f(ctx, eps0, ctx.one, fpr)

    def cq2(ctx: Any, eps0: Any, q: Any, h: Any, fpr: Any, **_: Any) -> Any:
        return subsample_rr_f(ctx, eps0, _q2(q, h), fpr)

    return (
        Smt(lambda: subsample_order_problem("above"), "C_q(f) > f on (0, 1)", part="rr above"),
        Smt(lambda: subsample_order_problem("one"), "C_1(f) = f on [0, 1]", part="rr one"),
        Smt(lambda: subsample_order_problem("decreasing"), "C_q(f) > C_q'(f), q < q'",
            part="rr decreasing"),
        Compare(cq, "gt", f, _RR_BOX, "property", lhs_name="C_q(f)", rhs_name="f",
                part="rr above"),
        Compare(c1, "eq", f, Box(reals={"eps0": ("0.01", "5"), "fpr": ("0", "1")}), "property",
                Tol.abs("1e-30"), "C_1(f)", "f", part="rr one"),
        Compare(cq, "gt", cq2, _RR_PAIR_BOX, "property", lhs_name="C_q(f)",
                rhs_name="C_{q'}(f)", part="rr decreasing"),
    )


def _approx_checks() -> tuple[Check, ...]:
    def cq(ctx: Any, eps0: Any, delta0: Any, q: Any, fpr: Any, **_: Any) -> Any:
        return subsample_approx_f(ctx, eps0, delta0, q, fpr)

    def f(ctx: Any, eps0: Any, delta0: Any, fpr: Any, **_: Any) -> Any:
        return f_approx(ctx, eps0, delta0, fpr)

    def c1(ctx: Any, eps0: Any, delta0: Any, fpr: Any, **_: Any) -> Any:
        return subsample_approx_f(ctx, eps0, delta0, ctx.one, fpr)

    def cq2(ctx: Any, eps0: Any, delta0: Any, q: Any, h: Any, fpr: Any, **_: Any) -> Any:
        return subsample_approx_f(ctx, eps0, delta0, _q2(q, h), fpr)

    return (
        Smt(lambda: subsample_approx_order_problem("above"),
            "every hull point of C_q(f) on or above f", part="approx above"),
        Smt(lambda: subsample_approx_order_problem("one"),
            "q = 1: hull points on or above f, f's breakpoints among them", part="approx one"),
        Smt(lambda: subsample_approx_order_problem("decreasing"),
            "hull points of C_{q'}(f) below-left of those of C_q(f), q <= q'",
            part="approx decreasing"),
        Compare(cq, "ge", f, _APPROX_BOX, "property", lhs_name="C_q(f)", rhs_name="f",
                part="approx above"),
        Compare(c1, "eq", f, _APPROX_ONE_BOX, "property", Tol.abs("1e-30"), "C_1(f)", "f",
                part="approx one"),
        Compare(cq, "ge", cq2, _APPROX_PAIR_BOX, "property", lhs_name="C_q(f)",
                rhs_name="C_{q'}(f)", part="approx decreasing"),
    )


def _gauss_checks() -> tuple[Check, ...]:
    def cq(ctx: Any, sigma: Any, q: Any, fpr: Any, **_: Any) -> Any:
        return subsample_gauss_f(ctx, q, sigma, fpr)

    def f(ctx: Any, sigma: Any, fpr: Any, **_: Any) -> Any:
        return f_gauss(ctx, 1 / sigma, fpr)

    def c1(ctx: Any, sigma: Any, fpr: Any, **_: Any) -> Any:
        return subsample_gauss_f(ctx, ctx.one, sigma, fpr)

    def cq2(ctx: Any, sigma: Any, q: Any, h: Any, fpr: Any, **_: Any) -> Any:
        return subsample_gauss_f(ctx, _q2(q, h), sigma, fpr)

    return (
        Compare(cq, "gt", f, _GAUSS_BOX, "property", lhs_name="C_q(G_mu)", rhs_name="G_mu",
                part="gauss above"),
        Compare(c1, "eq", f, _GAUSS_ONE_BOX, "property", Tol.abs("1e-30"), "C_1(G_mu)", "G_mu",
                part="gauss one"),
        Compare(cq, "gt", cq2, _GAUSS_PAIR_BOX, "property", lhs_name="C_q(G_mu)",
                rhs_name="C_{q'}(G_mu)", part="gauss decreasing"),
    )


SUBSAMPLE_ORDER_CLAIM = Claim(
    4,
    "C_q(f) >= f, C_1(f) = f and C_q(f) >= C_{q'}(f) for q <= q', for f in {f_{eps0,0}, "
    "f_{eps0,delta0}, G_mu}; each base and conjunct its own part. RR base (f_rr): strict inside, "
    "over eps0 in [0.01, 5], q in [0.01, 0.99], fpr in [0.001, 0.999], q' = q + h (1 - q), h in "
    "[0.01, 1] (C_1(f) = f to 1e-30 on fpr in [0, 1]) [property]; proved (z3, formula bodies, x "
    "= e^eps0) for every x > 1, 0 < q < q' <= 1, 0 < fpr < 1 (C_1(f) = f for x >= 1, fpr in "
    "[0, 1]) [smt]. f_{eps0,delta0} base (f_approx): searched over eps0 in [0.01, 5], "
    "delta0 in [0, 0.9], q in [0.01, 0.99], h in [0.01, 1], fpr in [0.001, 0.999] (C_1 = f to "
    "1e-30 on eps0 in [0, 5], delta0 in [0, 1], fpr in [0, 1]) "
    "[property]; proved (z3 over the points whose lower hull f_approx computes, "
    "subsample_approx_points; the hull steps stated in the problems) for every e^eps0 >= 1, "
    "delta0 in [0, 1], 0 < q <= q' <= 1 and so for every fpr in [0, 1] [smt]. G_mu base "
    "(f_gauss, sigma = 1/mu): strict, searched over sigma in [0.2, 5], q in [0.01, 0.99], h in "
    "[0.01, 1], fpr in [0.001, 0.999] (C_1 = G_mu to 1e-30) [property].",
    (*_rr_checks(), *_approx_checks(), *_gauss_checks()),
)
