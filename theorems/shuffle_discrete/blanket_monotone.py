"""BBGN19-BLANKET claim 4 as region proofs: ``min(1, delta)`` is nonincreasing in eps and in n.

Write ``log delta = P(eps) - log n + n Q(eps)`` (:func:`formulas.shuffle_bounds.blanket_log_parts`,
P and Q free of n), ``y = e^eps``, ``z = e^{eps0/2}``.

- In n: ``Q < 0`` (claim 7's SMT problems), so ``d/dn log delta = -1/n + Q < 0`` for every real
  n > 0, and ``min(1, .)`` of a decreasing function is nonincreasing.
- In eps: ``min(1, f)`` of a continuous f on ``(0, eps0)`` is nonincreasing as soon as at every
  point ``f > 1`` or ``f' < 0``: the set ``{f < 1}`` is then a union of intervals on which f
  decreases, none of which can end (at f = 1) inside ``(0, eps0)``, so it is one interval
  reaching eps0 and ``min(1, f) = 1`` before it. ``f' < 0`` iff ``P' + n Q' < 0``.
  For ``y <= 3`` (``eps <= log 3``), ``P' <= 0`` and ``Q' < 0`` for every eps0 > 0, real k >= 2
  and n > 0 (z3 on the derivatives of the formula bodies' SymCtx forms,
  :func:`eps_derivative_problem`). Above, n is eliminated: ``P' + n Q'`` decreases in n
  (``Q' < 0``) and vanishes at ``n' = -P'/Q'``, and ``log f`` decreases in n, so the condition
  holds for every n in ``[N_LO, N_HI]`` iff ``P' + N_LO Q' < 0`` or ``log f > 0`` at ``min(n',
  N_HI)``; that is certified by interval branch and bound over (eps0, eps, k)
  (:func:`pointwise_condition`).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.formulas import shuffle_bounds as sb
from dpverify.theorems.shuffle_discrete.bounds_checks import (
    CONSTANTS,
    blanket_base,
    signed,
    symbolic_parts,
)
from dpverify.theorems.symbolic import eval_in_ctx

# just below log 3 = 1.09861...: e^{LOG3_LO} < 3, so the SMT part (y <= 3) covers eps <= LOG3_LO
LOG3_LO = Fraction(1098, 1000)
N_LO, N_HI = 100, 10**4  # the claim's range of n


@functools.cache
def derivative_forms(name: str) -> tuple[Any, Any, Any, Any]:
    """``(y (e^P)_y / e^P, gamma, t_y, t)`` as sympy expressions in ``z, y, k``, from
    :func:`symbolic_parts` (``e^P`` and ``e^Q - 1 = gamma (E - 1)`` of the formula bodies, ``E =
    e^t``, ``t = -2a^2/b^2``): ``P' = y (e^P)_y / e^P`` and ``Q' = y gamma E t_y / (1 + gamma (E
    - 1))`` (``d/deps = y d/dy``; gamma does not depend on eps)."""
    import sympy as sp

    p_arg, q_arg, big_e, t = symbolic_parts(name, "d")
    y = sp.Symbol("y", real=True)
    gamma = sp.factor(sp.diff(q_arg, big_e))
    if gamma.has(big_e) or gamma.has(y) or sp.simplify(q_arg - gamma * (big_e - 1)) != 0:
        raise ValueError(f"e^Q - 1 is not gamma (E - 1) with gamma free of eps: {q_arg}")
    d_p = sp.factor(sp.cancel(y * sp.diff(p_arg, y) / p_arg))
    return d_p, gamma, sp.factor(sp.cancel(sp.diff(t, y))), t


def eps_derivative_problem(name: str) -> Any:
    """``P' <= 0`` and ``Q' < 0`` for ``1 < y = e^eps <= 3``, every ``z = e^{eps0/2} > 1`` and
    real ``k >= 2``: with :func:`derivative_forms`, ``P' <= 0``, ``gamma > 0`` and ``t_y < 0``
    (``E > 0`` and ``1 + gamma (E - 1) > 0``, claim 7), each rational function in the
    polynomial form of :func:`bounds_checks.signed`."""

    def build() -> SmtProblem:
        import sympy as sp

        variables, hyps = blanket_base()
        d_p, gamma, d_t, _ = derivative_forms(name)
        y = sp.Symbol("y", real=True)
        hyps.append(sp.Le(y, 3))
        goal = [signed(rel, expr) for expr, rel in ((d_p, sp.Le), (d_t, sp.Lt), (gamma, sp.Gt))]
        return SmtProblem(variables, tuple(hyps), sp.And(*goal),
                          ("z = e^{eps0/2}", "y = e^eps <= 3", "P' = y (e^P)_y / e^P",
                           "Q' = y gamma E t_y/(1 + gamma (E - 1)), E = e^t > 0",
                           "N/D compared as N D, D != 0"))

    return build


def pointwise_condition(name: str) -> Any:
    """A predicate over (eps0, s, k) with ``eps = LOG3_LO + s (eps0 - LOG3_LO)``: True iff,
    certified, ``Q' < 0`` and either ``P' + N_LO Q' < 0`` or ``log f > 0`` at ``n = min(max(n',
    N_LO), N_HI)`` with ``n' = -P'/Q'`` (the module docstring: then ``f > 1`` or ``f' < 0`` for
    every n in [N_LO, N_HI]); False iff both fail, certified; None if undecided."""

    def test(ctx: Any, eps0: Any, s: Any, k: Any = 2, **_: Any) -> bool | None:
        lo = ctx.num(LOG3_LO)
        eps = lo + s * (eps0 - lo)
        d_p, gamma, d_t, t = derivative_forms(name)
        values = {"z": ctx.exp(eps0 / 2), "y": ctx.exp(eps), "k": k}
        big_e = ctx.exp(eval_in_ctx(t, ctx, values))
        g = eval_in_ctx(gamma, ctx, values)
        slope_p = eval_in_ctx(d_p, ctx, values)
        slope_q = values["y"] * g * big_e * eval_in_ctx(d_t, ctx, values) / (1 + g * (big_e - 1))
        if ctx.lt(slope_q, ctx.zero) is not True:  # the elimination of n needs Q' < 0
            return None
        falling = ctx.lt(slope_p + N_LO * slope_q, ctx.zero)
        if falling is True:
            return True
        n = ctx.min(ctx.max(-slope_p / slope_q, ctx.num(N_LO)), ctx.num(N_HI))
        gamma_lb, b = CONSTANTS[name](ctx, eps0, eps, k)
        big_p, big_q = sb.blanket_log_parts(ctx, gamma_lb, b, eps)
        above = ctx.lt(ctx.zero, big_p - ctx.log(n) + n * big_q)
        if above is True:
            return True
        return False if (falling is False and above is False) else None

    return test


# the generic constants' eps0 range of claim 10 (at eps0 = 2 the condition fails: claim 9)
GENERIC_EPS0_HI = "1.95"
_LABELS = {"delta": "generic", "delta_rr": "k-ary RR", "delta_laplace": "Laplace"}


def corrected_monotone_checks() -> tuple[Any, ...]:
    """The checks of BBGN19-BLANKET claim 10, one part per (direction, constants, piece)."""
    from dpverify.theorems.claims import Box, Predicate, Smt
    from dpverify.theorems.shuffle_discrete.bounds_checks import (
        q_negative_model_check,
        q_negative_problem,
    )

    checks: list[Any] = []
    for name, label in _LABELS.items():
        checks.append(Smt(q_negative_problem(name), f"Q ({label}) < 0: log delta decreases in n",
                          check_model=q_negative_model_check(name), part=f"in n, {label}"))
        checks.append(Smt(eps_derivative_problem(name),
                          f"P' <= 0 and Q' < 0 ({label}) for e^eps <= 3",
                          part=f"in eps <= log 3, {label}"))
        hi = GENERIC_EPS0_HI if name == "delta" else "2"
        ints = {"k": (2, 10)} if name == "delta_rr" else {}
        box = Box(reals={"eps0": (str(LOG3_LO), hi), "s": ("0", "1")}, ints=ints)
        checks.append(Predicate(pointwise_condition(name), box, "interval",
                                f"P' + {N_LO} Q' < 0 or log delta > 0 at n = min(max(-P'/Q', "
                                f"{N_LO}), {N_HI}) ({label}; eps = {LOG3_LO} + s (eps0 - "
                                f"{LOG3_LO}))", part=f"in eps >= {LOG3_LO}, {label}"))
    return tuple(checks)


# claim 9: a point where min(1, delta) of the generic constants rises in eps
RISE = {"eps0": "2", "n": 365, "lo": "1.98", "hi": "1.99"}


def generic_at(which: str) -> Any:
    def term(ctx: Any, **_: Any) -> Any:
        return sb.generic_blanket_delta(ctx, ctx.num(RISE["eps0"]), RISE["n"],
                                        ctx.num(RISE[which]))

    return term
