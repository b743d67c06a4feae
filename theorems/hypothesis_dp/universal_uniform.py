"""Universal claims of GCE-T3 and GCE-C6 (the uniform prior U* = uniform on {0,1}^n \\ {0}):
Thm 3 with MV-OPT and Cor. 6 against exact enumeration of RR rounds, the round trip of the
Thm 3 inverse, an interval proof on a fixed eps_list, and z3 on Cor. 6 from its formula body
in the sympy context. Helpers and conventions: :mod:`.universal`.

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, arXiv 2209.13697 (version not recorded),
  Sec. V-B, Thm 3, Cor. 6.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Smt, SmtProblem, Tol
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.hdp_bounds import c6_eps, t3_delta, t3_eps
from dpverify.theorems.hypothesis_dp.instances import exp_eps, max_log_attained, rr_mechs
from dpverify.theorems.hypothesis_dp.universal import (
    SEED_BOX,
    SEED_RANGE,
    rr_list,
    seeded,
    smt_problem,
)
from dpverify.theorems.numerics import gce
from dpverify.theorems.values import exact_params

# ==========================================================================================
# GCE-T3, GCE-C6: the uniform prior U* against exact enumeration


def _rr_uniform(ctx: Any, eps_list: Sequence[Fraction]) -> tuple[gce.Law, gce.Law]:
    """(view under U*, view under 0) of RR rounds."""
    n = len(eps_list)
    laws = gce.all_point_laws(rr_mechs(ctx, eps_list))
    return gce.mixture_law(rr_mechs(ctx, eps_list), gce.uniform_nonzero(n), laws), laws[(0,) * n]


def _t3_instance(inst: Any, n: Any = None) -> tuple[Fraction, ...]:
    """Seeded RR eps_list; ``n`` rounds if given, else 2..4."""
    rng = seeded(inst)
    return rr_list(rng, rng.randint(2, 4) if n is None else int(n))


@exact_params("inst", "n")
def _t3_exact_both(ctx: Any, inst: Any, eps: Any, n: Any = None, **_: Any) -> Any:
    law_u, law_0 = _rr_uniform(ctx, _t3_instance(inst, n))
    return gce.two_sided(law_u, law_0, exp_eps(ctx, eps), ctx)


@exact_params("inst", "n")
def _t3_formula(ctx: Any, inst: Any, eps: Any, n: Any = None, **_: Any) -> Any:
    return t3_delta(ctx, _t3_instance(inst, n), eps)


@exact_params("inst", "n", "delta")
def _t3_round_trip(ctx: Any, inst: Any, n: Any, delta: Any, **_: Any) -> Any:
    eps_list = _t3_instance(inst, n)
    return t3_delta(ctx, eps_list, t3_eps(ctx, eps_list, delta))


def _t3_below_zero_point(point: dict[str, Any]) -> bool:
    """``eps < 0.999 max_i eps_i'`` (floats; a filter of the searched region): above the
    largest class loss ``eps_i' = eps_i + sum_{j > i} ln((1 + e^{eps_j})/2)`` both sides are 0
    and ball arithmetic cannot decide the tie ``0 <= 0``."""
    eps_list = [float(e) for e in _t3_instance(point["inst"], point.get("n"))]
    top = max(e + sum(math.log((1 + math.exp(f)) / 2) for f in eps_list[i + 1:])
              for i, e in enumerate(eps_list))
    return float(point["eps"]) < 0.999 * top


T3_FIXED = (Fraction(2, 5), Fraction(7, 10), Fraction(3, 10), Fraction(9, 10))


def _t3_fixed_exact(ctx: Any, eps: Any, **_: Any) -> Any:
    law_u, law_0 = _rr_uniform(ctx, T3_FIXED)
    return gce.two_sided(law_u, law_0, ctx.exp(eps), ctx)


def t3_universal(number: int) -> Claim:
    return Claim(number, "For every eps_list (RR mechanisms) and eps >= 0, the exact two-sided "
                 "H_{e^eps} between V|U* and V|0 is at most GCE-T3.delta(eps_list, eps) (equal "
                 "for n = 1: one class, Comp = MV-OPT of M_1 is exact), and "
                 "GCE-T3.eps inverts it: delta(eps(delta)) = delta. Searched over seeded "
                 "eps_list (n in {2..4}, and n = 1 for the equality, eps_i in [0.1, 1.5]), eps in "
                 "[0, 3] below 0.999 max_i eps_i' (above it both sides are 0); the round trip "
                 "for n in {1, 2}, delta in [1e-9, 1e-3] (below delta(0)); the bound proved for "
                 "eps_list = (0.4, 0.7, 0.3, 0.9) over eps in [0, 1] by interval branch and "
                 "bound.", (
        Compare(_t3_exact_both, "le", _t3_formula,
                Box(ints={"inst": SEED_RANGE}, reals={"eps": ("0", "3")},
                    constraint=_t3_below_zero_point), "property",
                lhs_name="exact max(H(V|U*||V|0), H(V|0||V|U*)), n >= 2",
                rhs_name="GCE-T3.delta", part="the bound"),
        Compare(_t3_exact_both, "eq", _t3_formula,
                Box(ints={"inst": SEED_RANGE}, reals={"eps": ("0", "3")}, fixed={"n": 1},
                    constraint=_t3_below_zero_point), "property", Tol.abs("1e-30"),
                "exact two-sided H, n = 1", "GCE-T3.delta (exact for one round)",
                part="equal for n = 1"),
        Compare(_t3_round_trip, "eq", lambda ctx, delta, **_: delta,
                Box(ints={"inst": SEED_RANGE, "n": (1, 2)}, reals={"delta": ("1e-9", "1e-3")},
                    log_scale=frozenset({"delta"})), "property", Tol.rel("1e-12"),
                "GCE-T3.delta(eps_list, GCE-T3.eps(eps_list, delta))", "delta",
                part="GCE-T3.eps inverts it"),
        Compare(_t3_fixed_exact, "le", lambda ctx, eps, **_: t3_delta(ctx, T3_FIXED, eps),
                Box(reals={"eps": ("0", "1")}), "interval",
                lhs_name="exact two-sided H (eps_list = (0.4, 0.7, 0.3, 0.9))",
                rhs_name="GCE-T3.delta", part="the bound"),
    ))


def _c6_instance(inst: Any) -> tuple[Fraction, ...]:
    rng = seeded(inst)
    return rr_list(rng, rng.randint(1, 6))


@exact_params("inst")
def _c6_exact(ctx: Any, inst: Any, **_: Any) -> Any:
    law_u, law_0 = _rr_uniform(ctx, _c6_instance(inst))
    return gce.max_log_ratio(ctx, law_u, law_0)


def _c6_exp_form(xs: Sequence[Any]) -> Any:
    """``exp(GCE-C6.eps)`` from the formula body in the sym context as a rational function of
    ``x_i = e^{eps_i}`` (the log-space shift ``T`` of logsumexp cancels)."""
    import sympy as sp

    e = sp.symbols(f"e0:{len(xs)}", real=True)
    t = sp.Symbol("T", real=True)
    v = c6_eps(SymCtx(), e).replace(lambda a: isinstance(a, sp.Max), lambda a: t)
    big = sp.expand_power_exp(sp.expand(sp.expand_power_exp(sp.exp(sp.expand(v)))))
    big = sp.cancel(big.subs({sp.exp(a): x for a, x in zip(e, xs, strict=True)})
                    .subs(sp.exp(-t), 1 / sp.exp(t)))
    if big.has(*e, t):
        raise ValueError(f"GCE-C6.eps did not polynomialise: {big}")
    return big


def _c6_problem(n: int) -> SmtProblem:
    """``exp(GCE-C6.eps)`` (:func:`_c6_exp_form`) equals the telescoped product form
    ``(prod_i (1 + x_i) - 1)/(2^n - 1)``, the exact forward level of RR rounds."""
    import sympy as sp

    xs = sp.symbols(f"x0:{n}", real=True)
    closed = (math.prod((1 + x for x in xs), start=sp.Integer(1)) - 1) / (2**n - 1)
    return smt_problem(xs, [sp.Ge(x, 1) for x in xs],
                       sp.Eq(_c6_exp_form(xs), closed, evaluate=False),
                       f"x_i = e^eps_i >= 1, n = {n}")


def _c6_attained_problem(n: int) -> SmtProblem:
    """The exact forward level ``max_y ln Pr[y|U*]/Pr[y|0]`` of ``n`` RR rounds
    (``gce.max_log_ratio`` of the enumerated laws, sym context, ``eps_i = ln x_i``) equals
    GCE-C6.eps: with ``log`` increasing, ``max_y ln r_y = ln E`` iff every ``r_y <= E`` and
    some ``r_y = E``, ``E = exp(GCE-C6.eps)`` (:func:`_c6_exp_form`)."""
    import sympy as sp

    xs = sp.symbols(f"x0:{n}", positive=True)
    ctx = SymCtx()
    law_u, law_0 = _rr_uniform(ctx, [sp.log(x) for x in xs])
    goal = max_log_attained(gce.max_log_ratio(ctx, law_u, law_0), _c6_exp_form(xs))
    return smt_problem(xs, [sp.Ge(x, 1) for x in xs], goal,
                       f"x_i = e^eps_i >= 1, n = {n}; all {2**n} outputs y")


def c6_universal(number: int) -> Claim:
    return Claim(number, "For every eps_list of RR mechanisms, the exact forward level max_y "
                 "ln Pr[y|U*]/Pr[y|0] equals GCE-C6.eps(eps_list) (the bound is attained), and "
                 "e^{GCE-C6.eps} = (prod_i (1 + e^eps_i) - 1)/(2^n - 1) (the sum telescopes). "
                 "Searched over seeded eps_list, n in {1..6}, eps_i in [0.1, 1.5]; the identity "
                 "is proved by z3 for n = 1..5 and all real eps_i >= 0, from the formula body in "
                 "the sym context; the attainment by z3 for n = 1..3 and all real eps_i >= 0 "
                 "(every enumerated output ratio <= e^{GCE-C6.eps}, one equal; n = 4: z3 unknown "
                 "after 110 s, not attempted).", (
        Compare(_c6_exact, "eq", exact_params("inst")(
                    lambda ctx, inst, **_: c6_eps(ctx, [ctx.num(e) for e in _c6_instance(inst)])),
                SEED_BOX, "property", Tol.abs("1e-30"),
                "max_y ln Pr[y|U*]/Pr[y|0] (RR, enumerated)", "GCE-C6.eps",
                part="the bound is attained"),
        *(Smt(lambda n=n: _c6_attained_problem(n), f"n = {n}: every Pr[y|U*]/Pr[y|0] <= "
              "e^(GCE-C6.eps), with equality at some y", part="the bound is attained")
          for n in range(1, 4)),
        *(Smt(lambda n=n: _c6_problem(n), f"n = {n}: e^(GCE-C6.eps) == (prod (1 + x_i) - 1)/"
              f"(2^{n} - 1)", part="the sum telescopes") for n in range(1, 6)),
    ))
