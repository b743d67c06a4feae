"""Neighbouring relations and composition under subsampling: STK-ADDREM-VS-REPL and
STK-SUBSAMPLE-COMP (subsampling then advanced composition, checked sound against the exact k-fold
subsampled RR).

Formulas: :mod:`dpverify.theorems.formulas.amplification`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Smt, SmtProblem, Tol, eq_checks
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.formulas.amplification import (
    adv_eps,
    amp_eps,
    relation_eps,
    subsample_comp_eps,
)
from dpverify.theorems.params import DELTA, DELTA0, EPS0, NEIGHBORING, K, Q
from dpverify.theorems.refs import S22, cite
from dpverify.theorems.subsampling.common import FAMILY, sub_rr_pair, sym
from dpverify.theorems.values import exact_params, to_ctx


def _addrem_le_problem() -> SmtProblem:
    x, p = sym("x", "p")
    # log A <= log(A/B) with A = 1 + p(x-1) > 0 and B = (x(1-p) + p)/x > 0 iff x(1-p) + p <= x
    return SmtProblem({"x": "real", "p": "real"}, (x >= 1, p > 0, p <= 1),
                      x * (1 - p) + p <= x,
                      ("x = e^eps", "eps'_ar <= eps'_repl iff B <= 1, B = 1 + p(1/x - 1) > 0"))


def _addrem_half_problem() -> SmtProblem:
    (x,) = sym("x")
    import sympy as sp

    half = sp.Rational(1, 2)
    # eps'_repl = eps at p = 1/2 iff (1 + p(x-1)) = x (1 + p(1/x - 1)), i.e. A = x B
    return SmtProblem({"x": "real"}, (x >= 1,),
                      sp.Eq(sp.expand(1 + half * (x - 1)), sp.expand(x + half * (1 - x))),
                      ("x = e^eps", "p = 1/2", "exp(eps'_repl) = A/B = x iff A = x B"))


def _addrem_claims() -> tuple[Claim, ...]:
    cases = Points(({"eps0": "1", "q": "0.1"}, {"eps0": "0.2", "q": "0.01"},
                    {"eps0": "3", "q": "0.5"}))

    def grid_max(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
        lo, hi = -eps0, eps0
        pts = [ctx.exp(lo + (hi - lo) * i / 40) for i in range(41)]
        num = [(1 - q) + q * b for b in pts]
        return ctx.max(*(a / c for a in num for c in num))

    repl = lambda ctx, eps0, q, **_: relation_eps(ctx, eps0, q, "replace_one")  # noqa: E731
    addrem = lambda ctx, eps0, q, **_: relation_eps(ctx, eps0, q, "add_remove")  # noqa: E731
    return (
        Claim(1, "A brute-force maximum of ((1-p) + p b)/((1-p) + p b') over a 41 x 41 "
                 "log-uniform grid of b, b' in [e^-eps, e^eps] equals exp(eps'_repl) to 1e-45.",
              (Compare(grid_max, "eq", lambda ctx, eps0, q, **_: ctx.exp(repl(ctx, eps0, q)),
                       cases, "oracle", Tol.abs("1e-45"), "grid maximum of the ratio",
                       "exp(eps'_repl)"),), scope="instance"),
        Claim(2, "eps'_add/remove <= eps'_repl for all eps >= 0 and p in (0, 1] (and at the same "
                 "cases numerically).",
              (Smt(_addrem_le_problem, "x(1-p) + p <= x for x = e^eps >= 1, p in (0, 1]"),
               Compare(addrem, "le", repl, cases, "numeric", lhs_name="eps'_add/remove",
                       rhs_name="eps'_repl"))),
        Claim(3, "At p = 1/2, eps'_repl = eps (an identity in x = e^eps).",
              (Smt(_addrem_half_problem, "1 + (x-1)/2 == x + (1-x)/2"),
               Compare(lambda ctx, eps0, **_: relation_eps(ctx, eps0, ctx.num(Fraction(1, 2)),
                                                           "replace_one"),
                       "eq", lambda ctx, eps0, **_: eps0,
                       Points(tuple({"eps0": e} for e in ("0.01", "1", "7.5"))), "numeric",
                       Tol.abs("1e-45"), "eps'_repl(eps, 1/2)", "eps"))),
        Claim(4, "eps'_repl/(2p sinh eps) -> 1 and eps'_add/remove/(p(e^eps - 1)) -> 1 as "
                 "p -> 0 (evaluated at p = 1e-30: both ratios within 1e-25 of 1).",
              (Compare(lambda ctx, eps0, q, **_: repl(ctx, eps0, q)
                       / (2 * q * (ctx.exp(eps0) - ctx.exp(-eps0)) / 2),
                       "eq", lambda ctx, **_: ctx.one,
                       Points(tuple({"eps0": e, "q": "1e-30"} for e in ("0.5", "1", "3"))),
                       "numeric", Tol.abs("1e-25"), "eps'_repl/(2p sinh eps)", "1"),
               Compare(lambda ctx, eps0, q, **_: addrem(ctx, eps0, q) / (q * ctx.expm1(eps0)),
                       "eq", lambda ctx, **_: ctx.one,
                       Points(tuple({"eps0": e, "q": "1e-30"} for e in ("0.5", "1", "3"))),
                       "numeric", Tol.abs("1e-25"), "eps'_add/remove/(p(e^eps - 1))", "1")),
              scope="instance"),
    )


def _kfold_sub_rr_delta(ctx: Any, eps0: Any, q: Any, k: int, eps: Any) -> Any:
    """Exact delta of the k-fold composition of the subsampled RR pair, both orders: the PLD is
    a sum of k i.i.d. two-point losses; binomial enumeration of the number of 1-outputs."""
    p, q0 = sub_rr_pair(ctx, eps0, q)
    best = ctx.zero
    for a, b in ((p, q0), (q0, p)):
        l1, l0 = ctx.log(a[0] / b[0]), ctx.log(a[1] / b[1])
        total = ctx.zero
        for j in range(k + 1):
            loss = j * l1 + (k - j) * l0
            if ctx.lt(loss, eps) is True:
                continue
            w = ctx.binomial(k, j) * ctx.pow(a[0], j) * ctx.pow(a[1], k - j)
            total = total + w * ctx.pos(-ctx.expm1(eps - loss))
        best = ctx.max(best, total)
    return best


_SUBCOMP_REGION_BOX = Box(reals={"eps0": ("0", "3"), "q": ("0.001", "1"),
                                 "delta": ("1e-12", "0.5"), "delta0": ("0", "1e-16"),
                                 "k": ("1", "1000")},
                          log_scale=frozenset({"q", "delta"}))


def _subsample_comp_term(ctx: Any, eps0: Any, q: Any, k: Any, delta: Any, delta0: Any,
                         **_: Any) -> Any:
    return subsample_comp_eps(ctx, eps0, q, k, delta, delta0)


def _via_adv_term(ctx: Any, eps0: Any, q: Any, k: Any, delta: Any, delta0: Any, **_: Any) -> Any:
    """The composition of the two cited formulas, with the slack in the context's numbers."""
    q, delta, delta0 = (to_ctx(ctx, v) for v in (q, delta, delta0))
    return adv_eps(ctx, amp_eps(ctx, eps0, q), k, delta - k * q * delta0)


def _subcomp_claims() -> tuple[Claim, ...]:
    @exact_params("delta", "delta0", "q")
    def via_adv(ctx: Any, eps0: Any, q: Any, k: int, delta: Any, delta0: Any, **_: Any) -> Any:
        slack = Fraction(delta) - k * Fraction(q) * Fraction(delta0)
        return adv_eps(ctx, amp_eps(ctx, eps0, ctx.num(Fraction(q))), k, ctx.num(slack))

    @exact_params("delta", "q")
    def exact_delta(ctx: Any, eps0: Any, q: Any, k: int, delta: Any, **_: Any) -> Any:
        eps = subsample_comp_eps(ctx, eps0, q, k, delta, Fraction(0))
        return _kfold_sub_rr_delta(ctx, eps0, ctx.num(Fraction(q)), k, eps)

    soundness = Points(tuple({"eps0": e, "q": q, "k": k, "delta": d}
                             for e in ("0.5", "2") for q in ("0.01", "0.3")
                             for k in (10, 1000) for d in ("1e-5", "1e-9")))
    return (
        Claim(1, "Equals STK-ADV-APPROX.eps(BBG-T8.eps(eps0, q), k, delta, q delta0). Searched "
                 "on eps0 in [0, 3], q in [0.001, 1], delta in [1e-12, 0.5], delta0 in [0, "
                 "1e-14], k in {1..1000} (rel 1e-30); proved to 1e-30 (absolute) on eps0 in [0, "
                 "3], q in [0.001, 1], delta in [1e-12, 0.5], delta0 in [0, 1e-16] and every "
                 "real k in [1, 1000] (so every integer k there; the slack delta - k q delta0 "
                 "> 0 on the whole box) as two inequalities (interval).",
              (Compare(subsample_comp_eps, "eq", via_adv,
                       Box(reals={"eps0": ("0", "3"), "q": ("0.001", "1"),
                                  "delta": ("1e-12", "0.5"), "delta0": ("0", "1e-14")},
                           ints={"k": (1, 1000)}, log_scale=frozenset({"q", "delta"}),
                           constraint=lambda p: p["delta"] > p["k"] * p["q"] * p["delta0"]),
                       "property", Tol.rel("1e-30"), "STK-SUBSAMPLE-COMP.eps",
                       "STK-ADV-APPROX.eps(BBG-T8.eps(eps0, q), k, delta, q delta0)"),
               *eq_checks(_subsample_comp_term, _via_adv_term, _SUBCOMP_REGION_BOX, "1e-30",
                          "STK-SUBSAMPLE-COMP.eps",
                          "STK-ADV-APPROX.eps(BBG-T8.eps(eps0, q), k, delta, q delta0)")[1:])),
        Claim(2, "Soundness (derived): for a pure eps0-RR base, the exact k-fold composition of "
                 "the subsampled RR pair (binomial enumeration, both orders) has delta <= delta "
                 "at the returned eps.",
              (Compare(exact_delta, "le", lambda ctx, delta, **_: to_ctx(ctx, delta), soundness,
                       "oracle", lhs_name="exact delta of the k-fold subsampled RR at eps",
                       rhs_name="delta"),), scope="instance"),
    )


DELTA0_OPT = replace(DELTA0, default="0")


STK_ADDREM_VS_REPL = Theorem(
    id="STK-ADDREM-VS-REPL",
    title="Add/remove versus replacement under Poisson subsampling",
    family=FAMILY,
    source=cite(S22, "Sec. 6.2 (the formula is derived; the chapter's statement was not "
                     "recovered)"),
    types=("TIGHT",),
    confidence=("DERIVED",),
    statement="Base M eps-DP under add/remove, Poisson rate p, replacement neighbours for M o "
              "S: eps'_repl = log((1 + p(e^eps - 1))/(1 + p(e^-eps - 1))) (~ 2p sinh eps), "
              "versus eps'_add/remove = log(1 + p(e^eps - 1)); at p = 1/2, eps'_repl = eps.",
    domain="eps >= 0, p in (0, 1]",
    evaluators=(Evaluator("eps", (EPS0, Q, NEIGHBORING), relation_eps,
                          "log(1 + q(e^eps0 - 1)) (add_remove); log((1 + q(e^eps0 - 1))/(1 + "
                          "q(e^-eps0 - 1))) (replace_one)"),),
    claims=_addrem_claims(),
    notes="The 'no amplification for a replacement-only base' remark of the catalogue is a "
          "heuristic and is not checked.",
)

STK_SUBSAMPLE_COMP = Theorem(
    id="STK-SUBSAMPLE-COMP",
    title="Subsampling then composition",
    family=FAMILY,
    source=cite(S22, "Sec. 6.3 (exact statement not recovered)"),
    types=("BOUND",),
    confidence=("DERIVED",),
    statement="k steps of a p-Poisson-subsampled (eps, delta0)-DP mechanism are (k eps'^2/2 + "
              "eps' sqrt(2k log(1/delta')), delta)-DP with eps' = log(1 + p(e^eps - 1)) and "
              "delta' = delta - k p delta0.",
    domain="eps >= 0, delta0 in [0, 1], p in (0, 1], k >= 1, slack delta - k p delta0 > 0",
    evaluators=(Evaluator("eps", (EPS0, Q, K, DELTA, DELTA0_OPT), subsample_comp_eps,
                          "k eps'^2/2 + eps' sqrt(2k log(1/delta')), eps' = BBG-T8.eps, "
                          "delta' = delta - k q delta0"),),
    claims=_subcomp_claims(),
)
