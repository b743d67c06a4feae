"""Generalized randomized response and the reduction to it: DDR-D24, DDR-F1, DDR-D26,
DDR-L41, DDR-L44."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify.theorems.bounded_range.pair_boxes import (
    L44_BOX,
    L44_TEXT,
    N_OUT,
    PAIR_BOX,
    PAIR_TEXT,
    d26_problem,
    f1_problem,
    l41_problem,
    l44_log_ratios,
    l44_problem,
    on_pair,
)
from dpverify.theorems.bounded_range.terms import EPS0_BR, FAMILY, T_PARAM, _c, _plus, _tiny
from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Predicate,
    Smt,
    SmtProblem,
    Tol,
    points,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.formulas.bounded_range import (
    _em_laws,
    br_window,
    grr_1mp,
    grr_1mq,
    grr_p,
    grr_p_eval,
    grr_pair,
    grr_q,
    grr_q_eval,
    log_ratios,
)
from dpverify.theorems.numerics import finite
from dpverify.theorems.refs import DDR, cite
from dpverify.theorems.values import exact_params, to_ctx


def _mixture_br(ctx: Any, eps: Any, t1: Any, t2: Any, **_: Any) -> Any:
    """BR parameter of the 1/2-mixture, on disjoint output labels, of ``RR_{eps,t1}`` and
    ``RR_{eps,t2}`` (DDR-D26 claim 1), from the four output probabilities."""
    (p1, r1), (q1, s1) = grr_pair(ctx, eps, t1)
    (p2, r2), (q2, s2) = grr_pair(ctx, eps, t2)
    half = ctx.num(Fraction(1, 2))
    P = [half * p1, half * r1, half * p2, half * r2]
    Q = [half * q1, half * s1, half * q2, half * s2]
    return br_window(ctx, P, Q)


def _draw_mixture(rng: random.Random) -> dict[str, Any]:
    eps = Fraction(rng.randint(20, 200), 100)
    while True:
        t1 = eps * Fraction(rng.randint(1, 99), 100)
        t2 = eps * Fraction(rng.randint(1, 99), 100)
        if t1 != t2:
            return {"eps": eps, "t1": t1, "t2": t2}


def _draw_br_pair(rng: random.Random) -> dict[str, Any]:
    """A random eps-BR pair: Q random, P ∝ Q rho with ratios rho_y in [1, 1 + eps] (so every
    log-ratio lies in a window of width ln(1 + eps) <= eps), eps = j/100 in [0.2, 2]."""
    eps = Fraction(rng.randint(20, 200), 100)
    n = rng.randint(2, 6)
    q = finite.random_distribution(rng, n)
    rho = [1 + eps * Fraction(rng.randint(0, 1000), 1000) for _ in range(n)]
    w = [a * b for a, b in zip(q, rho, strict=True)]
    z = sum(w)
    return {"p": tuple(x / z for x in w), "q": q, "eps": eps}


def _l41_sides(factor: Fraction) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def pair_side(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
        return finite.hockey_stick(ctx, p, q, eps * ctx.num(factor))

    def grr_side(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
        t = ctx.max(*log_ratios(ctx, p, q))
        (a, b), (c, d) = grr_pair(ctx, eps, t)
        return finite.hockey_stick(ctx, (a, b), (c, d), eps * ctx.num(factor))

    return pair_side, grr_side


L44_COUNTS = (3, 7, 2, 7, 5)


L44_Z = (1, 0, 1, 1, 0)


def _l44_log_ratios(ctx: Any, eps: Any) -> list[Any]:
    """``ln(P[M(x)=y]/P[M(x')=y])`` for the counting-query exponential mechanism
    ``P[M(x)=y] ∝ exp(eps u(x,y))`` with x' = x plus the bit-string z ([DDR] Def. 4.2)."""
    x = list(L44_COUNTS)
    xp = [c + z for c, z in zip(L44_COUNTS, L44_Z, strict=True)]
    p, q = _em_laws(ctx, (x, xp), eps)
    return log_ratios(ctx, p, q)


def _l44_two_values(ctx: Any, eps: Any, **_: Any) -> bool | None:
    """Claim 1: the log-ratio takes exactly two values, ``eps`` apart (to 1e-40)."""
    lr = _l44_log_ratios(ctx, eps)
    top, bot = ctx.max(*lr), ctx.min(*lr)
    tol = ctx.num(Fraction(1, 10**40))
    width_ok = ctx.le(ctx.abs(top - bot - eps), tol)
    at_ends = [ctx.lt(ctx.min(ctx.abs(v - top), ctx.abs(v - bot)), tol) for v in lr]
    results = [width_ok, *at_ends]
    if any(r is False for r in results):
        return False
    return None if any(r is None for r in results) else True


def _l44_t_in_range(ctx: Any, eps: Any, **_: Any) -> bool | None:
    """Claim 2: ``t = max_y ln(P/Q) = ln(Z(x')/Z(x))`` lies in ``[0, eps]``."""
    t = ctx.max(*_l44_log_ratios(ctx, eps))
    a, b = ctx.le(ctx.zero, t), ctx.le(t, eps)
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def _l44_box(ctx: Any, eps: Any, **kw: Any) -> bool | None:
    lr = l44_log_ratios(ctx, eps, **kw)
    ws = [ctx.exp(eps * kw[f"c{i}"]) for i in range(N_OUT)]
    t = ctx.log(ctx.fsum(w * ctx.exp(eps * kw[f"z{i}"]) for i, w in enumerate(ws))
                / ctx.fsum(ws))
    tol = ctx.num(Fraction(1, 10**40))
    checks = [ctx.le(-tol, t), ctx.le(t, eps + tol)]
    checks += [ctx.lt(ctx.min(ctx.abs(v - t), ctx.abs(v - t + eps)), tol) for v in lr]
    if any(c is False for c in checks):
        return False
    return None if any(c is None for c in checks) else True


def _grr_identity_problem(which: str) -> Callable[[], SmtProblem]:
    """``p/q = Y`` (``ln(p/q) = t``) or ``(1-p)/(1-q) = Y/X`` (``= t - eps``) with ``X = e^eps0``,
    ``Y = e^t``: the GRR formulas become ``p = (X - Y)/(X - 1)``, ``q = (X - Y)/(Y (X - 1))``,
    ``1 - p = (Y - 1)/(X - 1)``, ``1 - q = X (Y - 1)/(Y (X - 1))``."""

    def build() -> SmtProblem:
        import sympy as sp

        X, Y, P, Q = sp.symbols("X Y P Q", real=True)
        # P, Q are defined by the GRR formulas, written with denominators cleared
        hyps = (sp.Gt(X, 1), sp.Gt(Y, 1), sp.Lt(Y, X),
                sp.Eq(P * (1 - 1 / X), 1 - Y / X),          # p (1 - e^-eps) = 1 - e^{t-eps}
                sp.Eq(Q * (1 - 1 / X), 1 / Y - 1 / X))      # q (1 - e^-eps) = e^-t - e^-eps
        goal = sp.Eq(P, Q * Y) if which == "p/q" else sp.Eq((1 - P) * X, (1 - Q) * Y)
        return SmtProblem(
            variables={"X": "real", "Y": "real", "P": "real", "Q": "real"},
            hypotheses=hyps, goal=goal,
            substitutions=("X = e^eps0 (eps0 > 0)", "Y = e^t (0 < t < eps0)",
                           "P = p_{eps0,t}, Q = q_{eps0,t} by Def. 2.4's formulas",
                           "goal p/q = e^t" if which == "p/q"
                           else "goal (1-p)/(1-q) = e^{t - eps0}"))

    return build


D24_POINTS = points({"eps0": "0.5", "t": "0.1"}, {"eps0": "1.3", "t": "0.9"},
                    {"eps0": "0.2", "t": "0.0001"})


@exact_params("eps0", "t")
def _log_pq(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    e, tt = to_ctx(ctx, eps0), to_ctx(ctx, t)
    return ctx.log(grr_p(ctx, e, tt) / grr_q(ctx, e, tt))


@exact_params("eps0", "t")
def _log_1mpq(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    e, tt = to_ctx(ctx, eps0), to_ctx(ctx, t)
    return ctx.log(grr_1mp(ctx, e, tt) / grr_1mq(ctx, e, tt))


@exact_params("t")
def _t_term(ctx: Any, t: Any, **_: Any) -> Any:
    return ctx.num(t)


@exact_params("eps0", "t")
def _t_minus_eps(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    return ctx.num(t - eps0)


def _std_rr(which: int) -> Callable[..., Any]:
    def term(ctx: Any, **_: Any) -> Any:
        z = ctx.exp(ctx.num(Fraction(2, 5)))
        return z / (1 + z) if which == 0 else 1 / (1 + z)

    return term


def _grr_at(f: Callable[..., Any]) -> Callable[..., Any]:
    def term(ctx: Any, **_: Any) -> Any:
        return f(ctx, ctx.num(Fraction(4, 5)), ctx.num(Fraction(2, 5)))

    return term


DDR_D24 = Theorem(
    id="DDR-D24",
    title="Generalized randomized response RR_{eps,t}",
    family=FAMILY,
    source=cite(DDR, "Def. 2.4"),
    types=("DEFINITION",),
    confidence=("DERIVED",),
    statement="For eps > 0 and t in [0, eps], RR_{eps,t}: {0,1} -> {0,1} with P[RR(0)=0] = "
              "p = (1 - e^{t-eps})/(1 - e^{-eps}) and P[RR(1)=0] = q = (e^{-t} - e^{-eps})/(1 - "
              "e^{-eps}): the unique values with ln(p/q) = t and ln((1-p)/(1-q)) = t - eps. "
              "RR_{eps,eps/2} is standard RR(eps/2).",
    domain="eps0 > 0, t in [0, eps0] (p = q = 1 at t = 0 and p = q = 0 at t = eps0)",
    evaluators=(
        Evaluator("p", (EPS0_BR, T_PARAM), grr_p_eval, "(1 - e^{t-eps0})/(1 - e^{-eps0})"),
        Evaluator("q", (EPS0_BR, T_PARAM), grr_q_eval, "(e^{-t} - e^{-eps0})/(1 - e^{-eps0})"),
    ),
    claims=(
        Claim(1, "ln(p/q) = t to 1e-47 at (eps0, t) in {(0.5, 0.1), (1.3, 0.9), (0.2, 1e-4)}; "
                 "and as an identity after X = e^eps0, Y = e^t (z3).",
              (Compare(_log_pq, "eq", _t_term, D24_POINTS, "numeric", Tol.abs("1e-47"),
                       "ln(p/q)", "t"),
               Smt(_grr_identity_problem("p/q"), "p = q e^t for the GRR formulas (X = e^eps0, "
                   "Y = e^t, 1 < Y < X)"))),
        Claim(2, "ln((1-p)/(1-q)) = t - eps0 (same points; identity by z3).",
              (Compare(_log_1mpq, "eq", _t_minus_eps, D24_POINTS, "numeric", Tol.abs("1e-47"),
                       "ln((1-p)/(1-q))", "t - eps0"),
               Smt(_grr_identity_problem("1-p/1-q"), "(1-p) e^eps0 = (1-q) e^t for the GRR "
                   "formulas"))),
        Claim(3, "p(0.8, 0.4) = e^0.4/(1 + e^0.4) and q(0.8, 0.4) = 1/(1 + e^0.4): RR_{eps,eps/2} "
                 "is standard RR(eps/2).",
              (Compare(_grr_at(grr_p), "eq", _std_rr(0), points({}), "numeric",
                       Tol.abs("1e-47"), "p(0.8, 0.4)", "e^0.4/(1+e^0.4)"),
               Compare(_grr_at(grr_q), "eq", _std_rr(1), points({}), "numeric",
                       Tol.abs("1e-47"), "q(0.8, 0.4)", "1/(1+e^0.4)")), scope="instance"),
    ),
    notes="At the end points p = q = 1 (t = 0) and p = q = 0 (t = eps0); the formulas are "
          "evaluated with expm1, so 1 - p = (e^t - 1)/(e^eps0 - 1) has no cancellation.",
)


F1_P = (Fraction(4, 10), Fraction(3, 10), Fraction(2, 10), Fraction(1, 10))


F1_Q = (Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10))


def _f1_side(events: bool) -> Callable[..., Any]:
    def term(ctx: Any, eps: Any, **_: Any) -> Any:
        p = [ctx.num(v) for v in F1_P]
        q = [ctx.num(v) for v in F1_Q]
        f = finite.hockey_stick_events if events else finite.hockey_stick
        return f(ctx, p, q, eps)

    return term


def _hs_sum(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
    return finite.hockey_stick(ctx, p, q, eps)


def _hs_events(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
    return finite.hockey_stick_events(ctx, p, q, eps)


DDR_F1 = Theorem(
    id="DDR-F1",
    title="Optimal privacy parameters and Fact 1 (hockey-stick form)",
    family=FAMILY,
    source=cite(DDR, "Def. 2.5 and Fact 1"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="delta_OPT(M, eps_g) = inf{delta >= 0 : M is (eps_g, delta)-DP}; for a class, the "
              "sup over its members. Fact 1: delta_OPT(M, eps_g) = max_{x~x'} sum_y max(P[M(x)=y] "
              "- e^{eps_g} P[M(x')=y], 0).",
    domain="eps_g real; finite output space for the sum form",
    aliases=("DDR-D25",),
    claims=(
        Claim(1, "The hockey-stick sum equals the brute-force sup of P(S) - e^{eps_g} Q(S) over "
                 "all 16 events (P = (0.4, 0.3, 0.2, 0.1), Q = (0.1, 0.2, 0.3, 0.4), eps_g = "
                 "0.3), to 1e-45.",
              (Compare(_f1_side(False), "eq", _f1_side(True), points({"eps": "0.3"}), "oracle",
                       Tol.abs("1e-45"), "sum_y (P - e^eps Q)_+", "max over 2^4 events"),),
              scope="instance"),
        Claim(2, f"Fact 1 universally: for {PAIR_TEXT} and eps_g in [-2, 2], the hockey-stick sum "
                 f"equals the maximum of P(S) - e^eps_g Q(S) over all 2^{N_OUT} events, to 1e-40 "
                 "(property search); proved by z3 for all nonnegative vectors P, Q on "
                 f"{N_OUT} outputs and every G = e^eps_g > 0 (both formulas in the sympy context).",
              (Compare(on_pair(_hs_sum), "eq", on_pair(_hs_events),
                       Box(reals={**PAIR_BOX.reals, "eps": ("-2", "2")}), "property",
                       Tol.abs("1e-40"), "sum_y (P - e^eps Q)_+", "max over events"),
               Smt(lambda: f1_problem(N_OUT), f"sum_y (P_y - G Q_y)_+ = max_S (P(S) - G Q(S)), "
                   f"{N_OUT} outputs"))),
    ),
    notes="Same fact as DEF-DP claim 1.",
)


def _d26_example(ctx: Any, **_: Any) -> Any:
    return _mixture_br(ctx, ctx.one, ctx.num(Fraction(1, 4)), ctx.num(Fraction(3, 4)))


def _d26_formula(ctx: Any, eps: Any, t1: Any, t2: Any, **_: Any) -> Any:
    return eps + ctx.abs(t1 - t2)


def _mixture_at_a(ctx: Any, eps: Any, a1: Any, a2: Any, **_: Any) -> Any:
    return _mixture_br(ctx, eps, a1 * eps, a2 * eps)


def _d26_at_a(ctx: Any, eps: Any, a1: Any, a2: Any, **_: Any) -> Any:
    return _d26_formula(ctx, eps, a1 * eps, a2 * eps)


DDR_D26 = Theorem(
    id="DDR-D26",
    title="Adaptive composition game and deterministic adversaries",
    family=FAMILY,
    source=cite(DDR, "Alg. 1, Def. 2.6, Def. 4.1, Lemma 4.3"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement="The adversary splits into coins r_i and a deterministic part choosing neighbours "
              "and M_i from the history; (eps_g, delta)-DP under k-fold adaptive composition "
              "means Pr[V^0 in S] <= e^{eps_g} Pr[V^1 in S] + delta for all adversaries and S. "
              "Lemma 4.3: deterministic adversaries suffice, although BR classes are not closed "
              "under convex combination.",
    domain="eps_g real, delta in [0, 1]",
    claims=(
        Claim(1, "Non-convexity witness (derived): the 1/2-mixture, on disjoint labels, of "
                 "RR_{eps,t1} and RR_{eps,t2} has BR parameter eps + |t1 - t2| (to 1e-40, on 100 "
                 "random (eps, t1, t2) with 0 < t_i < eps); at eps = 1, t1 = 1/4, t2 = 3/4 it is "
                 "1.5 > 1, so the mixture is not 1-BR. The identity is proved by z3 (the problem "
                 "of claim 2) for every 0 < t_i < eps.",
              (Compare(_mixture_br, "eq", _d26_formula,
                       Generated(_draw_mixture, 100, "random (eps, t1, t2)"), "oracle",
                       Tol.abs("1e-40"), "BR of the mixture", "eps + |t1 - t2|"),
               Compare(_d26_example, "eq", _c(Fraction(3, 2)), points({}), "oracle",
                       Tol.abs("1e-40"), "BR of the mixture (1, 1/4, 3/4)", "1.5"),
               Compare(_d26_example, "gt", _c(1), points({}), "oracle",
                       lhs_name="BR of the mixture (1, 1/4, 3/4)", rhs_name="eps = 1"),
               Smt(d26_problem, "br_window(mixture) = eps + |t1 - t2|, 0 < t_i < eps"))),
        Claim(2, "The non-convexity witness universally: BR of the 1/2-mixture = eps + |t1 - t2| "
                 "for eps in [0.1, 3], t_i = a_i eps with a_i in [0.01, 0.99] (property search, "
                 "to 1e-40); proved by z3 for every 0 < t_i < eps (grr_pair and br_window in the "
                 "sympy context, whose GRR log-ratios simplify to t and t - eps).",
              (Compare(_mixture_at_a, "eq", _d26_at_a,
                       Box(reals={"eps": ("1/10", "3"), "a1": ("1/100", "99/100"),
                                  "a2": ("1/100", "99/100")}), "property", Tol.abs("1e-40"),
                       "BR of the mixture", "eps + |t1 - t2|"),
               Smt(d26_problem, "br_window(mixture) = eps + |t1 - t2|, 0 < t_i < eps"))),
    ),
    notes="The reduction DDR-L41 works against deterministic adversaries, which Lemma 4.3 "
          "justifies.",
)


def _l41_region(n: int) -> Box:
    return Box(reals={**{f"b{i}": ("1/100", "1") for i in range(n)},
                      **{f"s{i}": ("0", "1") for i in range(n)},
                      "eps": ("1/10", "2"), "g": ("-1", "1")})


def _l41_box(grr: bool, n: int) -> Callable[..., Any]:
    """One side of the L41 domination at a point of ``_l41_region(n)``."""

    def term(ctx: Any, eps: Any, g: Any, **kw: Any) -> Any:
        w = [kw[f"b{i}"] for i in range(n)]
        z = ctx.fsum(w)
        q = [v / z for v in w]
        pw = [a * ctx.exp(eps * kw[f"s{i}"]) for i, a in enumerate(q)]
        zp = ctx.fsum(pw)
        p = [v / zp for v in pw]
        if not grr:
            return finite.hockey_stick(ctx, p, q, g * eps)
        t = ctx.max(*log_ratios(ctx, p, q))
        (a, b), (c, d) = grr_pair(ctx, eps, t)
        return finite.hockey_stick(ctx, (a, b), (c, d), g * eps)

    return term


BR_PAIRS = Generated(_draw_br_pair, 100, "random eps-BR pairs (2 to 6 outputs, eps in [0.2, 2])")


def _l41_checks() -> tuple[Compare, ...]:
    out = []
    for factor, name in ((Fraction(0), "0"), (Fraction(1, 3), "eps/3"), (Fraction(1, 2), "eps/2")):
        lhs, rhs = _l41_sides(factor)
        out.append(Compare(lhs, "le", rhs, BR_PAIRS, "oracle",
                           lhs_name=f"H_(e^({name}))(P||Q)",
                           rhs_name=f"H_(e^({name}))(RR_(eps,t)(0)||RR_(eps,t)(1))"))
    return tuple(out)


DDR_L41 = Theorem(
    id="DDR-L41",
    title="Reduction of BR mechanisms to generalized RR",
    family=FAMILY,
    source=cite(DDR, "Lemma 4.1, Lemma 4.2, Cor. 4.1"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Lemma 4.1: for an eps-BR M and neighbours x, x' there are t in [0, eps] and a "
              "randomized post-processing f with M(x) = f(RR_{eps,t}(0)), M(x') = "
              "f(RR_{eps,t}(1)). Lemma 4.2 / Cor. 4.1: composition over eps_i-BR classes is "
              "(eps_g, delta)-DP iff it is over {RR_{eps_i,t}}, against deterministic adversaries.",
    domain="eps > 0",
    aliases=("DDR-L42", "DDR-C41"),
    claims=(
        Claim(1, "For 100 random eps-BR pairs with t = max_y ln(P(y)/Q(y)): H_{e^{eps_g}}(P||Q) <= "
                 "H_{e^{eps_g}}(RR_{eps,t}(0)||RR_{eps,t}(1)) at eps_g in {0, eps/3, eps/2} "
                 "(post-processing domination). Proved by z3 (the problem of claim 2) for every "
                 "pair on 2 outputs with 0 < t < eps and every eps_g (3 outputs: claim 3).",
              (*_l41_checks(),
               Smt(lambda: l41_problem(2), "H_G(P||Q) <= H_G(RR_(eps,t)), 2 outputs"))),
        Claim(2, "Post-processing domination universally on 2 outputs: for every pair Q = "
                 "b/sum(b), P(y) ∝ Q(y) e^(eps s_y) (b_y in [0.01, 1], s_y in [0, 1], so the pair "
                 "is eps-BR), eps in [0.1, 2], eps_g = g eps with g in [-1, 1], and t = max lr: "
                 "H_(e^eps_g)(P||Q) <= H_(e^eps_g)(RR_(eps,t)(0)||RR_(eps,t)(1)) + 1e-40 "
                 "(property search); proved by z3 for every pair on 2 outputs whose ratios lie "
                 "in [e^(t - eps), e^t], 0 < t < eps, and every e^eps_g > 0.",
              (Compare(_l41_box(False, 2), "le", _plus(_l41_box(True, 2), _tiny(40)),
                       _l41_region(2), "property", lhs_name="H(P||Q)",
                       rhs_name="H(RR(0)||RR(1)) + 1e-40"),
               Smt(lambda: l41_problem(2), "H_G(P||Q) <= H_G(RR_(eps,t)), 2 outputs"))),
        Claim(3, f"The same domination on {N_OUT} outputs (same box per output; property search "
                 "only: z3 returns unknown within 30 s on 3 outputs).",
              (Compare(_l41_box(False, N_OUT), "le", _plus(_l41_box(True, N_OUT), _tiny(40)),
                       _l41_region(N_OUT), "property", lhs_name="H(P||Q)",
                       rhs_name="H(RR(0)||RR(1)) + 1e-40"),)),
    ),
)


DDR_L44 = Theorem(
    id="DDR-L44",
    title="Counting-query exponential mechanism is post-processed GRR",
    family=FAMILY,
    source=cite(DDR, "Def. 4.2, Lemma 4.4"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Counting queries (u(x,y) = count of y; neighbours add or remove one bit-string; "
              "monotone, so P[M(x)=y] ∝ exp(eps u(x,y))). Lemma 4.4: ln(P[M(x)=y]/P[M(x')=y]) in "
              "{t - eps, t} for all y, with t = ln(Z(x')/Z(x)) in [0, eps].",
    domain="eps > 0",
    aliases=("DDR-D42",),
    claims=(
        Claim(1, "Counts (3, 7, 2, 7, 5), added bit-string z = (1, 0, 1, 1, 0), eps = 0.7: the "
                 "log-ratio takes exactly two values, eps apart (to 1e-40).",
              (Predicate(_l44_two_values, points({"eps": "0.7"}), "oracle",
                         "two log-ratio values eps apart"),), scope="instance"),
        Claim(2, "The upper value t lies in [0, eps].",
              (Predicate(_l44_t_in_range, points({"eps": "0.7"}), "oracle", "0 <= t <= eps"),),
              scope="instance"),
        Claim(3, f"Lemma 4.4 universally: for {L44_TEXT}, every log-ratio equals t or t - eps "
                 "(to 1e-40) with t = ln(Z(x')/Z(x)) computed separately, and t in [0, eps] "
                 "(property search); proved by z3 for every count vector and bit-string on "
                 f"{N_OUT} outputs and every eps > 0 (ratio form of the same _em_laws formula).",
              (Predicate(_l44_box, L44_BOX, "property",
                         "ln ratio in {t - eps, t}, t = ln(Z'/Z) in [0, eps]"),
               Smt(l44_problem, "P(y)/P'(y) in {T, T/X}, T = Z'/Z in [1, X]"))),
    ),
)
