"""WBK19-SUBRDP: the general RDP bound for subsampling without replacement ([WBK19] Thm 9) with
Gaussian, RR and Laplace base curves, against exact Rényi divergences of lower-bound pairs.

Formulas: :mod:`dpverify.theorems.formulas.subsampled_rdp_wor`.
"""

from __future__ import annotations

import functools
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Smt, SmtProblem, Tol
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.amplification import amp_eps
from dpverify.theorems.formulas.subsampled_gaussian import sgm_rdp_binomial
from dpverify.theorems.formulas.subsampled_rdp_wor import (
    laplace_mixture_renyi,
    wbk_tau_gauss,
    wbk_tau_laplace,
    wbk_tau_rr,
)
from dpverify.theorems.numerics.finite import randomized_response, renyi
from dpverify.theorems.params import ALPHA_INT, EPS0_POS, Q_WOR, SIGMA, B
from dpverify.theorems.refs import WBK19, cite
from dpverify.theorems.shuffle_discrete.discrete_common import FAMILY
from dpverify.theorems.symbolic import exp_as_powers
from dpverify.theorems.values import to_ctx


def _gauss_bound(ctx: Any, q: Any, sigma: Any, alpha: int, **_: Any) -> Any:
    return wbk_tau_gauss(ctx, q, sigma, alpha)


def _gauss_exact(ctx: Any, q: Any, sigma: Any, alpha: int, **_: Any) -> Any:
    """MTZ-SGM-RDP binomial formula: the exact D_alpha((1-q)N(0, s^2) + qN(1, s^2) || N(0,
    s^2)), a pair that arises under replace-one for a [0, 1]-valued sum query."""
    return sgm_rdp_binomial(ctx, q, sigma, alpha)


def _rr_bound(ctx: Any, q: Any, eps0: Any, alpha: int, **_: Any) -> Any:
    return wbk_tau_rr(ctx, q, eps0, alpha)


def _rr_witness(order: str) -> Any:
    """Exact D_alpha of the BBG-T9 witness pair ``((1-q) RR_0 + q RR_1, RR_0)`` (one order)."""

    def term(ctx: Any, q: Any, eps0: Any, alpha: int, **_: Any) -> Any:
        rr1, rr0 = randomized_response(ctx, eps0)
        mix = tuple((1 - q) * x + q * y for x, y in zip(rr0, rr1, strict=True))
        return renyi(ctx, mix, rr0, alpha) if order == "mix_first" else renyi(ctx, rr0, mix,
                                                                               alpha)

    return term


def _as_powers(expr: Any, eps0: Any, x: Any) -> Any:
    """Exponentials of eps0 (also inside logarithms of exponentials) as powers of x = e^eps0."""
    import sympy as sp

    out = exp_as_powers(sp.powsimp(sp.expand_log(expr, force=True)), eps0, x)
    out = out.replace(lambda n: isinstance(n, sp.exp),
                      lambda n: sp.exp(sp.expand_log(n.args[0], force=True)))
    out = exp_as_powers(sp.powsimp(sp.expand(out)), eps0, x)
    if out.has(sp.exp) or out.has(sp.log):
        raise ValueError(f"cannot write {expr} as a function of x = e^eps0")
    return out


def _moment_goals(bound: Any, exact: Any, x: Any) -> tuple[Any, ...]:
    """``bound >= exact`` (moments, rational in ``q`` and ``x``) as z3 goals with ``x = 1 + u``:
    the bound is a sum of Min terms with positive coefficients, so it holds iff it holds for
    every choice of one argument per Min; each choice is a rational function, given as
    numerator * denominator >= 0 (same sign; denominators are nonzero). The distinct goals,
    sorted, over plain real symbols (with positive symbols sympy would itself decide a product
    of positive factors to be >= 0 and z3 would be handed the goal True)."""
    import sympy as sp

    q, u = sp.symbols("q u", positive=True)
    real = {q: sp.Symbol("q", real=True), u: sp.Symbol("u", real=True)}
    goals = set()
    for choice in _min_choices(bound - exact):
        goals.add(sp.Ge(_numerator_times_denominator(choice, q, x, u).xreplace(real), 0,
                        evaluate=False))
    return tuple(sorted(goals, key=str))


def _numerator_times_denominator(choice: Any, q: Any, x: Any, u: Any) -> Any:
    """``N D`` at ``x = 1 + u``, factored, for ``choice = N/D`` reduced with ``D`` primitive over
    Z: ``sympy.factor(sympy.expand((N D).subs(x, 1 + u)))`` of ``N, D = sympy.fraction(
    sympy.factor(sympy.together(choice)))``, computed in flint's ``Q(q, x)`` (the same
    expression: tests/test_smt.py; sympy's route is taken for a choice that is not a rational
    function of q and x)."""
    import flint
    import sympy as sp

    from dpverify.theorems.shuffle_discrete.ratfunc import (
        RatFunc,
        factored_sympy_mpoly,
        from_sympy,
        primitive_scale,
    )

    ctx = flint.fmpq_mpoly_ctx.get(("q", "x"), "lex")
    try:
        f = from_sympy(choice, {q: RatFunc(ctx.gens()[0]), x: RatFunc(ctx.gens()[1])})
    except ValueError:
        num, den = sp.fraction(sp.factor(sp.together(choice)))
        return sp.factor(sp.expand((num * den).subs(x, 1 + u)))
    scale = primitive_scale(f.den)  # sympy's D = ±scale * f.den; N D = scale^2 f.num f.den
    to_u = flint.fmpq_mpoly_ctx.get(("q", "u"), "lex")
    qq, uu = to_u.gens()
    nd = (f.num * f.den).compose(qq, uu + 1, ctx=to_u) * flint.fmpq(
        scale.numerator**2, scale.denominator**2)
    return factored_sympy_mpoly(nd, (q, u)) if nd != 0 else sp.Integer(0)


@functools.cache
def _rr_smt_goals(alpha: int, order: str) -> tuple[Any, ...]:
    """RR base: ``e^{(alpha-1) bound} >= e^{(alpha-1) D_alpha}`` (one order of the witness
    pair) from the formula bodies in the sym context, ``x = e^eps0``."""
    import sympy as sp

    ctx = SymCtx()
    q, eps0, x = sp.symbols("q eps0 x", positive=True)
    a = sp.Integer(alpha)
    bound = _as_powers(sp.exp((a - 1) * wbk_tau_rr(ctx, q, eps0, alpha)), eps0, x)
    exact = _as_powers(sp.exp((a - 1) * _rr_witness(order)(ctx, q, eps0, alpha)), eps0, x)
    return _moment_goals(bound, exact, x)


@functools.cache
def _gauss_smt_goals(alpha: int) -> tuple[Any, ...]:
    """Gaussian base: the moments of the bound and of the MTZ-SGM-RDP pair from the formula
    bodies, with ``sigma = 1/sqrt(2h)`` and ``x = e^h = e^{1/(2 sigma^2)}``."""
    import sympy as sp

    ctx = SymCtx()
    q, h, x = sp.symbols("q h x", positive=True)
    sigma = 1 / sp.sqrt(2 * h)
    a = sp.Integer(alpha)
    bound = _as_powers(sp.exp((a - 1) * wbk_tau_gauss(ctx, q, sigma, alpha)), h, x)
    exact = _as_powers(sp.exp((a - 1) * sgm_rdp_binomial(ctx, q, sigma, alpha)), h, x)
    return _moment_goals(bound, exact, x)


def _goal_problem(goals: tuple[Any, ...], index: int, checks: int,
                  substitutions: tuple[str, ...]) -> SmtProblem:
    """Goal ``index`` of the ``checks`` checks given to these goals (the last one again past
    the end, so that a fixed number of checks covers every distinct goal) over q in (0, 1],
    u > 0. More distinct goals than checks would leave goals unchecked: an error, never a
    silent pass."""
    import sympy as sp

    if len(goals) > checks:
        raise RuntimeError(f"{len(goals)} distinct Min-choice goals but only {checks} checks: "
                           "goals past the last check would go unchecked")
    q, u = sp.symbols("q u", real=True)
    hyps = (sp.Gt(q, 0), sp.Le(q, 1), sp.Gt(u, 0))
    return SmtProblem({"q": "real", "u": "real"}, hyps, goals[min(index, len(goals) - 1)],
                      (*substitutions, f"Min choice {index + 1} of {len(goals)} distinct"))


def _gauss_checks(alpha: int) -> int:
    """Checks per alpha, Gaussian base: the distinct Min choices (2 at every alpha in 2..8)."""
    return 2


def _rr_checks(alpha: int) -> int:
    """Checks per alpha, RR base: the distinct Min choices (3 * 2^(alpha-2) in both orders
    at the cases of ``_RR_SMT_CASES``)."""
    return 3 * 2 ** (alpha - 2)


def _rr_smt_problem(alpha: int, order: str, index: int) -> SmtProblem:
    return _goal_problem(_rr_smt_goals(alpha, order), index, _rr_checks(alpha),
                         ("x = e^eps0 = 1 + u", f"alpha = {alpha}",
                          "e^{(alpha-1) D_alpha} = sum P^alpha Q^{1-alpha}"))


def _gauss_smt_problem(alpha: int, index: int) -> SmtProblem:
    return _goal_problem(_gauss_smt_goals(alpha), index, _gauss_checks(alpha),
                         ("x = e^{1/(2 sigma^2)} = 1 + u", f"alpha = {alpha}",
                          "e^{(alpha-1) tau} = the binomial moment sum"))


# (alpha, order) proved by z3 within seconds (base_first at alpha = 2: under 1 s per Min choice
# in two runs, though an earlier z3 once took 65 s on one choice). base_first at alpha = 3: z3
# returned unknown.
_RR_SMT_CASES = ((2, "mix_first"), (3, "mix_first"), (4, "mix_first"), (2, "base_first"))


def _min_choices(expr: Any) -> list[Any]:
    """``expr`` with every ``Min`` replaced by one of its arguments, all combinations."""
    import sympy as sp

    mins = [n for n in sp.preorder_traversal(expr) if isinstance(n, sp.Min)]
    if not mins:
        return [expr]
    return [c for arg in mins[0].args for c in _min_choices(expr.xreplace({mins[0]: arg}))]


def _lap_bound(ctx: Any, q: Any, b: Any, alpha: int, **_: Any) -> Any:
    return wbk_tau_laplace(ctx, q, b, alpha)


def _lap_exact(order: str) -> Any:
    def term(ctx: Any, q: Any, b: Any, alpha: int, **_: Any) -> Any:
        return laplace_mixture_renyi(ctx, q, b, ctx.num(alpha), order)

    return term


def _value(ctx: Any, value: Any, **_: Any) -> Any:
    return to_ctx(ctx, value)


_GAUSS_POINTS = Points(tuple({"q": q, "sigma": s, "alpha": a, "value": v} for q, s, a, v in (
    ("0.01", "1", 2, "0.0005435086381"), ("0.01", "1", 8, "0.002684165013"),
    ("0.01", "1", 16, "3.134060922"), ("0.1", "2", 4, "0.02749992772"))))
_RR_POINTS = Points(tuple({"q": q, "eps0": e, "alpha": a, "value": v} for q, e, a, v in (
    ("0.05", "1", 2, "0.01037678085"), ("0.3", "1", 4, "0.5134201125"),
    ("0.1", "3", 10, "0.9621090312"))))
_GAUSS_BOX = Box(reals={"q": ("0.001", "1"), "sigma": ("0.5", "5")}, ints={"alpha": (2, 10)},
                 log_scale=frozenset({"q"}))
_RR_BOX = Box(reals={"q": ("0.001", "1"), "eps0": ("0.05", "3")}, ints={"alpha": (2, 10)},
              log_scale=frozenset({"q"}))
_LAP_BOX = Box(reals={"q": ("0.01", "0.5"), "b": ("0.5", "4")}, ints={"alpha": (2, 8)})

WBK19_SUBRDP = Theorem(
    id="WBK19-SUBRDP",
    title="RDP amplification by subsampling without replacement (general upper bound)",
    family=FAMILY,
    source=cite(WBK19, "Thm 9 (number and formula as read by the catalogue in autodp "
                "rdp_acct.compose_subsampled_mechanism, commit 06489ea)"),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement="Subsample m of n records without replacement, gamma = m/n, replace-one "
              "neighbours; M (j, eps(j))-RDP for integers j >= 2 and eps(inf)-DP (possibly "
              "inf). For integer alpha >= 2, M o Sample is (alpha, eps'(alpha))-RDP with "
              "eps'(alpha) <= log(1 + gamma^2 C(alpha,2) min{4(e^{eps(2)} - 1), e^{eps(2)} "
              "min{2, (e^{eps(inf)} - 1)^2}} + sum_{j=3}^{alpha} gamma^j C(alpha,j) e^{(j-1) "
              "eps(j)} min{2, (e^{eps(inf)} - 1)^j})/(alpha - 1). The Thm 9 expression only "
              "(autodp additionally takes minima with eps(alpha) and log(1 + gamma(e^{eps(inf)} "
              "- 1))).",
    domain="q (= gamma) in (0, 1]; integer alpha >= 2",
    evaluators=(
        Evaluator("tau", (Q_WOR, SIGMA, ALPHA_INT), wbk_tau_gauss,
                  "Gaussian base: eps(j) = j/(2 sigma^2), eps(inf) = inf"),
        Evaluator("tau_rr", (Q_WOR, EPS0_POS, ALPHA_INT), wbk_tau_rr,
                  "RR base: eps(j) = STK-PDP-ZCDP.tau(eps0, j), eps(inf) = eps0"),
        Evaluator("tau_laplace", (Q_WOR, B, ALPHA_INT), wbk_tau_laplace,
                  "Laplace base: eps(j) = MIR-RDP-LAP.tau(b, j), eps(inf) = 1/b"),
    ),
    claims=(
        Claim(1, "Gaussian: the bound is at least the exact RDP of the lower-bound pair "
                 "((1-q)N(0, sigma^2) + qN(1, sigma^2), N(0, sigma^2)) (MTZ-SGM-RDP binomial "
                 "formula): (q, sigma, alpha) = (0.01, 1, 2): 0.0005435086381 >= "
                 "0.0001718134221; (0.01, 1, 8): 0.002684165013 >= 0.0008936439076; (0.01, 1, "
                 "16): 3.134060922 >= 3.087850784; (0.1, 2, 4): 0.02749992772 >= "
                 "0.006003282964 (bound values to 1e-12 relative).",
              (Compare(_gauss_bound, "ge", _gauss_exact, _GAUSS_POINTS, "numeric",
                       lhs_name="WBK19 Thm 9", rhs_name="MTZ-SGM-RDP exact"),
               Compare(_gauss_bound, "eq", _value, _GAUSS_POINTS, "numeric", Tol.rel("1e-9"),
                       "WBK19 Thm 9", "catalogue value")),
              scope="instance"),
        Claim(2, "RR base: the bound is at least the exact D_alpha, in both orders, of the "
                 "witness pair ((1-q) RR_0 + q RR_1, RR_0) (BBG-T9): (0.05, 1, 2): "
                 "0.01037678085 >= 0.002711723127; (0.3, 1, 4): 0.5134201125 >= 0.1834529157; "
                 "(0.1, 3, 10): 0.9621090312 >= 0.8475714315.",
              (Compare(_rr_bound, "ge", _rr_witness("mix_first"), _RR_POINTS, "oracle",
                       lhs_name="WBK19 Thm 9", rhs_name="D_alpha(mix || RR_0)"),
               Compare(_rr_bound, "ge", _rr_witness("base_first"), _RR_POINTS, "oracle",
                       lhs_name="WBK19 Thm 9", rhs_name="D_alpha(RR_0 || mix)"),
               Compare(_rr_bound, "eq", _value, _RR_POINTS, "numeric", Tol.rel("1e-9"),
                       "WBK19 Thm 9", "catalogue value"),
               Compare(_rr_witness("mix_first"), "eq", _value, Points(tuple(
                   {"q": q, "eps0": e, "alpha": a, "value": v} for q, e, a, v in (
                       ("0.05", "1", 2, "0.002711723127"), ("0.3", "1", 4, "0.1834529157"),
                       ("0.1", "3", 10, "0.8475714315")))), "oracle", Tol.rel("1e-9"),
                       "D_alpha(mix || RR_0)", "catalogue value")),
              scope="instance"),
        Claim(3, "Thm 9 alone can exceed the trivial pure-DP amplification: at (q, eps0, alpha) "
                 "= (0.3, 1, 4) it gives 0.5134201125 > BBG-T9.eps(1, 0.3) = log(1 + 0.3(e - "
                 "1)) = 0.4157352218; an accountant must take the minimum, as autodp does.",
              (Compare(_rr_bound, "gt", lambda ctx, q, eps0, **_: amp_eps(ctx, eps0, q),
                       Points(({"q": "0.3", "eps0": "1", "alpha": 4},)), "numeric",
                       lhs_name="WBK19 Thm 9", rhs_name="BBG-T9.eps"),
               Compare(lambda ctx, q, eps0, **_: amp_eps(ctx, eps0, q), "eq",
                       lambda ctx, **_: ctx.num("0.4157352218"),
                       Points(({"q": "0.3", "eps0": "1", "alpha": 4},)), "numeric",
                       Tol.abs("1e-10"), "BBG-T9.eps", "catalogue value")),
              scope="instance"),
        Claim(4, "Laplace base: the bound is at least the quadrature value of D_alpha, in both "
                 "orders, of ((1-q) Lap(0, b) + q Lap(1, b), Lap(0, b)) over q in [0.01, 0.5], "
                 "b in [0.5, 4], alpha in {2..8} [property].",
              (Compare(_lap_bound, "ge", _lap_exact("mix_first"), _LAP_BOX, "property",
                       lhs_name="WBK19 Thm 9", rhs_name="D_alpha(mix || Lap0)", ctx="mp",
                       part="mix_first"),
               Compare(_lap_bound, "ge", _lap_exact("base_first"), _LAP_BOX, "property",
                       lhs_name="WBK19 Thm 9", rhs_name="D_alpha(Lap0 || mix)", ctx="mp",
                       part="base_first"))),
        Claim(5, "Gaussian base: the bound >= the exact RDP of the lower-bound pair "
                 "(MTZ-SGM-RDP binomial formula). Proved by z3 for every q in (0, 1] and sigma > "
                 "0 at every integer alpha in {2..8} (x = e^{1/(2 sigma^2)} = 1 + u; both "
                 "moments from the formula bodies; one z3 problem per choice of the Min "
                 "arguments) [smt]; searched over q in [0.001, 1], sigma in [0.5, 5], alpha in "
                 "{2..10} [property].",
              (Compare(_gauss_bound, "ge", _gauss_exact, _GAUSS_BOX, "property",
                       lhs_name="WBK19 Thm 9", rhs_name="MTZ-SGM-RDP exact"),
               *(Smt(lambda a=a, i=i: _gauss_smt_problem(a, i),
                     f"moment of the bound >= exact moment, alpha = {a}, Min choice {i + 1}")
                 for a in range(2, 9) for i in range(_gauss_checks(a))))),
        Claim(6, "RR base: the bound >= the exact D_alpha of the witness pair in both orders. "
                 "Proved by z3 for every q in (0, 1] and eps0 > 0 at alpha in {2, 3, 4} for "
                 "D_alpha(mix || RR_0) and at alpha = 2 for D_alpha(RR_0 || mix) (x = e^eps0 = "
                 "1 + u; both moments from the formula bodies; one z3 problem per choice of the "
                 "Min arguments) [smt]; searched in both orders over q in [0.001, 1], eps0 in "
                 "[0.05, 3], alpha in {2..10} [property] (D_alpha(RR_0 || mix) at alpha >= 3 is "
                 "searched only).",
              (Compare(_rr_bound, "ge", _rr_witness("mix_first"), _RR_BOX, "property",
                       lhs_name="WBK19 Thm 9", rhs_name="D_alpha(mix || RR_0)",
                       part="mix_first"),
               Compare(_rr_bound, "ge", _rr_witness("base_first"), _RR_BOX, "property",
                       lhs_name="WBK19 Thm 9", rhs_name="D_alpha(RR_0 || mix)",
                       part="base_first"),
               *(Smt(lambda a=a, o=o, i=i: _rr_smt_problem(a, o, i),
                     f"moment of the bound >= exact moment ({o}), alpha = {a}, Min choice "
                     f"{i + 1}", part=o)
                 for a, o in _RR_SMT_CASES for i in range(_rr_checks(a))))),
    ),
    notes="The replace-one / without-replacement counterpart of STK-ANALYTIC-RDP (Poisson, "
          "add/remove); per STK-HOWTO rule 1 the two must not be mixed. A stored autodp copy "
          "(a different commit from 06489ea) computes a smaller per-term moment, min{(e^{eps("
          "inf)} - 1)^j min(e^{(j-1) eps(j)}, 4), 2 e^{(j-1) eps(j)}, ...}, i.e. not the Thm 9 "
          "expression encoded here.",
)
