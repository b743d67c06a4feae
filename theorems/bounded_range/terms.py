"""Shared parameters and claim terms of the bounded_range family (no Theorem values)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Points, Predicate, grid
from dpverify.theorems.core import Real
from dpverify.theorems.ctx import arb_to_fraction
from dpverify.theorems.formulas.bounded_range import _exact_value, _mp_fraction
from dpverify.theorems.formulas.br_bounds import (
    _log_inv,
    _mgf_lam_eps,
    dr19_eps,
    dr19_eps_raw,
    kl_sup,
    mgf_eps,
    mgf_log_m,
)
from dpverify.theorems.formulas.ddr_adaptive import l32_bounds
from dpverify.theorems.formulas.ddr_composition import t3_delta
from dpverify.theorems.formulas.kov_mv import kov_delta_pure
from dpverify.theorems.params import EPS, EPS0_POS
from dpverify.theorems.values import approx_float, exact_params

FAMILY = "bounded_range"


T_PARAM = Real("t", lo=0, doc="GRR parameter t in [0, eps0]")


EPS0_BR = replace(EPS0_POS, doc="per-mechanism BR parameter (the paper's eps)")


BUDGET = replace(EPS, lo=0, lo_open=True, doc="global budget eps > 0 (the paper's eps_g)")


def _c(value: str | int | Fraction) -> Callable[..., Any]:
    v = Fraction(value)

    def term(ctx: Any, **_: Any) -> Any:
        return ctx.num(v)

    return term


def _tiny(exp10: int) -> Fraction:
    return Fraction(1, 10**exp10)


def _plus(term: Callable[..., Any], slack: Fraction) -> Callable[..., Any]:
    """``term + slack`` (a stated tolerance for a comparison that can be an equality)."""

    def t(ctx: Any, **kw: Any) -> Any:
        return term(ctx, **kw) + ctx.num(slack)

    t.exact_params = getattr(term, "exact_params", ())  # type: ignore[attr-defined]
    return t


def _minus(a: Callable[..., Any], b: Callable[..., Any]) -> Callable[..., Any]:
    """``a - b`` of two terms with the same exact parameters."""

    def t(ctx: Any, **kw: Any) -> Any:
        return a(ctx, **kw) - b(ctx, **kw)

    t.exact_params = tuple(set(getattr(a, "exact_params", ()))  # type: ignore[attr-defined]
                           | set(getattr(b, "exact_params", ())))
    return t


@exact_params("eps0", "eps")
def _t3_term(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    return t3_delta(ctx, eps0, k, eps)


def _kov_term(half: bool) -> Callable[..., Any]:
    @exact_params("eps0", "eps")
    def term(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
        e = Fraction(eps0) / 2 if half else eps0
        return kov_delta_pure(ctx, e, k, eps)

    return term


def _ordered(lower: Callable[..., Any], upper: Callable[..., Any]) -> Callable[..., Any]:
    """A certified test of ``min(k eps0, a) <= min(k eps0, b)`` for two clipped bounds, from
    their unclipped values a, b: true when ``b >= k eps0`` or ``a <= b`` (each decided)."""

    @exact_params("eps0", "delta")
    def test(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> bool | None:
        cap = k * ctx.num(eps0)
        a = lower(ctx, eps0, k, delta)
        b = upper(ctx, eps0, k, delta)
        if ctx.le(cap, b) is True or ctx.le(a, b) is True:
            return True
        if ctx.lt(b, a) is True and ctx.lt(b, cap) is True:
            return False
        return None

    return test


def _mgf_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    e0, d = _exact_value(eps0), _exact_value(delta)
    assert e0 is not None and d is not None
    lam = _mgf_lam_eps(e0, k, d, max(int(ctx.prec), 64), False)
    L = ctx.num(lam)
    return (k * mgf_log_m(ctx, ctx.num(e0), L) + _log_inv(ctx, ctx.num(d))) / L


def _optkl_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    e0, d = ctx.num(eps0), ctx.num(delta)
    return k * kl_sup(ctx, e0) + ctx.sqrt(k * e0 * e0 / 2 * _log_inv(ctx, d))


def _kovkl_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    e0, d = ctx.num(eps0), ctx.num(delta)
    return k * e0 * ctx.tanh(e0 / 2) + e0 * ctx.sqrt(k * _log_inv(ctx, d) / 2)


def _dr19_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return dr19_eps_raw(ctx, ctx.num(eps0), k, ctx.num(delta))


ORDER_GRID = grid(eps0=["0.01", "0.1", "0.5", "1.0"], k=[1, 10, 100, 1000],
                  delta=["1e-3", "1e-6", "1e-9"])


ORDER_TEXT = ("the 48 configurations eps0 in {0.01, 0.1, 0.5, 1.0}, k in {1, 10, 100, 1000}, "
              "delta in {1e-3, 1e-6, 1e-9}")


def _order_check(lower: Callable[..., Any], upper: Callable[..., Any], text: str) -> Predicate:
    return Predicate(_ordered(lower, upper), ORDER_GRID, "numeric", text)


def _lower_exact(ctx: Any, x: Any) -> Fraction:
    """An exact rational <= x (the lower end of an arb ball; the value itself otherwise)."""
    if isinstance(x, flint.arb):
        return arb_to_fraction(x.lower())
    e = _exact_value(x)
    if e is not None:
        return e
    if hasattr(x, "man_exp"):
        return _mp_fraction(x)
    return Fraction(approx_float(x))


def _upper_exact(ctx: Any, x: Any) -> Fraction:
    if isinstance(x, flint.arb):
        return arb_to_fraction(x.upper())
    return _lower_exact(ctx, x)


def _ub_at(bound: Callable[..., Any]) -> Callable[..., Any]:
    """``delta_A(k, .)``'s lattice upper bound at ``eps = bound(eps0, k, delta)``; ``delta_A`` is
    nonincreasing, so the value at the lower end of the bound's enclosure bounds it."""

    @exact_params("eps0", "delta")
    def term(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
        x = bound(ctx, eps0, k, delta)
        return l32_bounds(ctx, Fraction(eps0), k, _lower_exact(ctx, x))[1]

    return term


def _mgf_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return mgf_eps(ctx, eps0, k, delta)


def _dr19_bound(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    return dr19_eps(ctx, ctx.num(eps0), k, ctx.num(delta))


@exact_params("delta")
def _delta_term(ctx: Any, delta: Any, **_: Any) -> Any:
    return ctx.num(delta)


def _ub_points() -> Points:
    return grid(eps0=["0.5"], k=[1, 2, 3, 4, 5, 6], delta=["0.1", "0.01", "0.001"])
