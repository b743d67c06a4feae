"""Exact instances and oracle helpers shared by the hypothesis-DP theorems.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.numerics import gce
from dpverify.theorems.params import DELTA_LIST, EPS_LIST
from dpverify.theorems.values import to_ctx

FAMILY = "hypothesis_dp"


# ==========================================================================================
# Exact instances and oracle helpers

RR_SIX = (Fraction(1, 5), Fraction(9, 10), Fraction(2, 5), Fraction(7, 10), Fraction(3, 10),
          Fraction(3, 5))  # the eps_list of GCE-V1, V2, V3
T1_EPS = (Fraction(3, 10), Fraction(4, 5), Fraction(1, 2), Fraction(1, 5))


def rr_mechs(ctx: Any, eps_list: Sequence[Any]) -> list[gce.Mechanism]:
    return [gce.rr(ctx, to_ctx(ctx, e)) for e in eps_list]


def exp_eps(ctx: Any, eps: Any) -> Any:
    return ctx.exp(to_ctx(ctx, eps))


def rational_z(rng: random.Random) -> Fraction:
    """``z = e^eps`` drawn exactly in [1, 3] (eps in [0, ln 3])."""
    return Fraction(rng.randint(100, 300), 100)


def draw_mechs(rng: random.Random, n_lo: int = 1, n_hi: int = 4) -> tuple[gce.Mechanism, ...]:
    return tuple(gce.random_mechanism(rng) for _ in range(rng.randint(n_lo, n_hi)))


def mv_pure_exp(xs: Sequence[Fraction], z: Fraction) -> Fraction:
    """MV-OPT's LHS ([MV] Thm 1.5) in terms of ``x_i = e^{eps_i}`` and ``z = e^eps``, exactly:
    ``(1/prod(1 + x_i)) sum_S (prod_{S} x_i - z prod_{not S} x_i)_+``."""
    total = Fraction(0)
    for mask in range(2 ** len(xs)):
        a = math.prod((x for i, x in enumerate(xs) if mask >> i & 1), start=Fraction(1))
        b = math.prod((x for i, x in enumerate(xs) if not mask >> i & 1), start=Fraction(1))
        total += max(a - z * b, Fraction(0))
    return total / math.prod((1 + x for x in xs), start=Fraction(1))


EPS_LIST_V = replace(EPS_LIST, min_len=1)
DELTA_LIST_OPT = replace(DELTA_LIST, min_len=0, default="")


def constant(value: str) -> Callable[..., Any]:
    def const(ctx: Any, **_: Any) -> Any:
        return ctx.num(Fraction(value))
    return const


def subst_exp(expr: Any, var: Any, x: Any) -> Any:
    """``e^{k var} -> x^k`` (raises if ``var`` remains)."""
    import sympy as sp

    out = sp.sympify(expr).subs(sp.exp(var), x)
    if out.has(var):
        raise ValueError(f"cannot write {expr} as a rational function of {x} = e^{var}")
    return out


def max_log_attained(level: Any, bound: Any) -> Any:
    """``level = ln bound`` for ``level = max_y ln r_y`` (a sympy ``Max`` of logarithms, or one
    logarithm) as a polynomial goal: with ``ln`` increasing, every ``r_y <= bound`` (each
    cross-multiplied by its positive denominator) and some ``r_y = bound``."""
    import sympy as sp

    from dpverify.theorems.symbolic import clear_denominators

    ratios = []
    for arg in level.args if isinstance(level, sp.Max) else (level,):
        if not isinstance(arg, sp.log):
            raise ValueError(f"not a logarithm of a ratio: {arg}")
        ratios.append(sp.cancel(sp.together(arg.args[0])))
    return sp.And(*(clear_denominators(sp.Le(r, bound)) for r in ratios),
                  sp.Or(*(sp.Eq(r, bound, evaluate=False) for r in ratios)))
