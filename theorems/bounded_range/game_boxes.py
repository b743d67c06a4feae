"""Universal claims on GRR compositions (no Theorem values): box terms and z3 forms for DDR-L31,
DDR-T2, DDR-L32 (the adaptive game), DDR-T5 (the MGF sup) and DDR-L21-LAPLACE.

The adaptive game of [DDR] Alg. 1 against GRR (Lemma 4.1 reduces every eps0-BR class to
``{RR_{eps0,t}}``): a deterministic adversary of depth k is a binary tree of t values, one per
history ``y_1..y_{j-1}``; its value at budget x is the hockey-stick divergence of the two
transcript laws (enumeration of the ``2^k`` transcripts, [DDR] Fact 1). For a fixed tree it
equals the recursion of Lemma 3.2 with the sup replaced by the tree's t (transcript loss
``L = sum of ln(P/Q)``, ``(P - e^x Q)_+ = P (1 - e^{x - L})_+``), and it is at most the
optimum ``delta_A(k, x)`` (the sup over trees).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.bounded_range import grr_pair, het_objective, l31_delta_t
from dpverify.theorems.formulas.br_bounds import mgf_log_h, mgf_log_m
from dpverify.theorems.formulas.ddr_adaptive import l32_bounds
from dpverify.theorems.formulas.ddr_composition import t3_delta
from dpverify.theorems.formulas.kov_mv import mv_delta_pure
from dpverify.theorems.numerics import finite
from dpverify.theorems.symbolic import exp_to_power
from dpverify.theorems.values import exact_params

GAME_MAX_K = 3  # depth of the random strategy trees (2^k - 1 t values)


def _sp() -> Any:
    import sympy as sp

    return sp


def _vars(*groups: Sequence[Any]) -> dict[str, str]:
    return {str(s): "real" for g in groups for s in g}


# ------------------------------------------------------------------------------------------
# DDR-L31: the equal-t binomial evaluator against the enumeration of {0,1}^k


@exact_params("eps0", "a")
def l31_binomial(ctx: Any, eps0: Any, k: int, a: Any, eps: Any, **_: Any) -> Any:
    return l31_delta_t(ctx, eps0, k, Fraction(a) * Fraction(eps0), eps)


@exact_params("eps0", "a")
def l31_enumeration(ctx: Any, eps0: Any, k: int, a: Any, eps: Any, **_: Any) -> Any:
    t = ctx.num(Fraction(a) * Fraction(eps0))
    return het_objective(ctx, [ctx.num(eps0)] * k, [t] * k, eps)


def l31_problem(k: int) -> SmtProblem:
    """Lemma 3.1 with equal t: the enumeration over ``{0,1}^k`` (``het_objective`` in the sympy
    context) equals ``sum_i C(k,i) (p^{k-i}(1-p)^i - G q^{k-i}(1-q)^i)_+`` for all ``p, q in
    [0, 1]`` and ``G > 0`` (the GRR laws enter as free ``p, q``: stronger)."""
    sp = _sp()
    ctx = SymCtx()
    p, q, g = sp.symbols("p q G", real=True)
    lg = sp.Symbol("eps_g", real=True)
    P: list[Any] = [sp.Integer(1)]
    Q: list[Any] = [sp.Integer(1)]
    for _ in range(k):
        P = [x * y for x in P for y in (p, 1 - p)]
        Q = [x * y for x in Q for y in (q, 1 - q)]
    enum = finite.hockey_stick(ctx, P, Q, lg).subs(sp.exp(lg), g)
    binom = sp.Add(*(sp.binomial(k, i) * sp.Max(p**(k - i) * (1 - p)**i
                                                 - g * q**(k - i) * (1 - q)**i, 0)
                     for i in range(k + 1)))
    hyps = (sp.Ge(p, 0), sp.Le(p, 1), sp.Ge(q, 0), sp.Le(q, 1), sp.Gt(g, 0))
    return SmtProblem(_vars((p, q, g)), hyps, sp.Eq(enum, binom, evaluate=False),
                      ("G = e^{eps_g} > 0", f"k = {k}", "p, q free in [0, 1]"))


# ------------------------------------------------------------------------------------------
# DDR-T2: Lemma 3.1 at t_i = eps_i/2 against MV-OPT with eps_i/2

T2_K = 3


def _t2_list(k: int, kw: dict[str, Any]) -> list[Fraction]:
    return [Fraction(kw[f"e{i}"]) for i in range(k)]


def t2_objective(ctx: Any, k: int, eps: Any, **kw: Any) -> Any:
    es = _t2_list(k, kw)
    return het_objective(ctx, [ctx.num(e) for e in es], [ctx.num(e / 2) for e in es], eps)


t2_objective.exact_params = tuple(f"e{i}" for i in range(T2_K))  # type: ignore[attr-defined]


def t2_mv(ctx: Any, k: int, eps: Any, **kw: Any) -> Any:
    return mv_delta_pure(ctx, tuple(e / 2 for e in _t2_list(k, kw)), eps)


t2_mv.exact_params = t2_objective.exact_params  # type: ignore[attr-defined]


def t2_problem(k: int) -> SmtProblem:
    """Lemma 3.1's objective at ``t_i = eps_i/2`` (``het_objective`` and ``grr_pair`` in the
    sympy context, ``y_i = e^{eps_i/2}``) equals MV-OPT's closed form ([MV] Thm 1.5) with
    ``eps_i/2``: ``(1/prod(1 + y_i)) sum_S (prod_S y_i - G prod_{not S} y_i)_+``."""
    sp = _sp()
    ctx = SymCtx()
    hs = list(sp.symbols(f"h0:{k}", positive=True))  # h_i = eps_i/2
    ys = list(sp.symbols(f"y0:{k}", real=True))
    g, lg = sp.symbols("G eps_g", real=True)
    P: list[Any] = [sp.Integer(1)]
    Q: list[Any] = [sp.Integer(1)]
    for h, y in zip(hs, ys, strict=True):
        (a, b), (c, d) = grr_pair(ctx, 2 * h, h)
        a, b, c, d = (exp_to_power(v, h, y) for v in (a, b, c, d))
        P = [x * z for x in P for z in (a, b)]
        Q = [x * z for x in Q for z in (c, d)]
    lhs = finite.hockey_stick(ctx, P, Q, lg).subs(sp.exp(lg), g)
    den = sp.Mul(*(1 + y for y in ys))
    terms = []
    for mask in range(2**k):
        s_in = sp.Mul(*(y for i, y in enumerate(ys) if mask >> i & 1))
        s_out = sp.Mul(*(y for i, y in enumerate(ys) if not mask >> i & 1))
        terms.append(sp.Max(s_in - g * s_out, 0))
    rhs = sp.Add(*terms) / den
    hyps = (sp.Gt(g, 0), *(sp.Gt(y, 1) for y in ys))
    return SmtProblem(_vars(ys, (g,)), hyps, sp.Eq(lhs, rhs, evaluate=False),
                      ("y_i = e^{eps_i/2} > 1", "G = e^{eps_g} > 0", f"k = {k}"))


# ------------------------------------------------------------------------------------------
# DDR-L32: the adaptive game against random strategy trees

TREE_NAMES = tuple(f"a{i}" for i in range(2**GAME_MAX_K - 1))


def _tree_ts(eps0: Fraction, kw: dict[str, Any]) -> list[Fraction]:
    """Node j of the heap-ordered tree (children 2j+1 after a 0, 2j+2 after a 1) uses
    ``t_j = a_j eps0``."""
    return [Fraction(kw[n]) * eps0 for n in TREE_NAMES]


def _tree_laws(ctx: Any, e0: Any, ts: Sequence[Any], k: int) -> tuple[list[Any], list[Any]]:
    """The transcript laws of the tree: ``P`` under x (RR(0) each round), ``Q`` under x'."""
    P: list[Any] = []
    Q: list[Any] = []

    def walk(node: int, depth: int, p: Any, q: Any) -> None:
        if depth == k:
            P.append(p)
            Q.append(q)
            return
        (a, b), (c, d) = grr_pair(ctx, e0, ts[node])
        walk(2 * node + 1, depth + 1, p * a, q * c)
        walk(2 * node + 2, depth + 1, p * b, q * d)

    walk(0, 0, ctx.one, ctx.one)
    return P, Q


def _tree_recursion(ctx: Any, e0: Any, ts: Sequence[Any], k: int, x: Any) -> Any:
    """Lemma 3.2's recursion with the sup replaced by the tree's t at each node."""

    def value(node: int, depth: int, y: Any) -> Any:
        if depth == k:
            return ctx.pos(-ctx.expm1(y))
        (a, b), _ = grr_pair(ctx, e0, ts[node])
        t = ts[node]
        return (a * value(2 * node + 1, depth + 1, y - t)
                + b * value(2 * node + 2, depth + 1, y - t + e0))

    return value(0, 0, x)


def tree_game_value(ctx: Any, eps0: Any, k: int, eps: Any, **kw: Any) -> Any:
    """The hockey-stick divergence at ``e^eps`` of the tree's two transcript laws."""
    ts = [ctx.num(t) for t in _tree_ts(Fraction(eps0), kw)]
    P, Q = _tree_laws(ctx, ctx.num(eps0), ts, k)
    return finite.hockey_stick(ctx, P, Q, ctx.num(eps))


def tree_recursion_value(ctx: Any, eps0: Any, k: int, eps: Any, **kw: Any) -> Any:
    ts = [ctx.num(t) for t in _tree_ts(Fraction(eps0), kw)]
    return _tree_recursion(ctx, ctx.num(eps0), ts, k, ctx.num(eps))


def tree_likelihoods(ctx: Any, eps0: Any, k: int, **kw: Any) -> bool | None:
    """``|P(tau) - Q(tau) e^{L(tau)}| <= 1e-40`` for every transcript of the tree."""
    e0 = Fraction(eps0)
    ts = _tree_ts(e0, kw)
    P, Q = _tree_laws(ctx, ctx.num(e0), [ctx.num(t) for t in ts], k)
    losses: list[Fraction] = []

    def walk(node: int, depth: int, loss: Fraction) -> None:
        if depth == k:
            losses.append(loss)
            return
        walk(2 * node + 1, depth + 1, loss + ts[node])
        walk(2 * node + 2, depth + 1, loss + ts[node] - e0)

    walk(0, 0, Fraction(0))
    tol = ctx.num(Fraction(1, 10**40))
    res = [ctx.le(ctx.abs(p - q * ctx.exp(ctx.num(loss))), tol)
           for p, q, loss in zip(P, Q, losses, strict=True)]
    if any(r is False for r in res):
        return False
    return None if any(r is None for r in res) else True


def adaptive_upper(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """A rigorous upper bound of ``delta_A(k, eps)``: DDR-T3 for k = 1 (exact), the lattice UB
    (N = 1000) for k >= 2."""
    if k == 1:
        return t3_delta(ctx, Fraction(eps0), 1, Fraction(eps))
    return l32_bounds(ctx, Fraction(eps0), k, Fraction(eps))[1]


for _f in (tree_game_value, tree_recursion_value, tree_likelihoods):
    _f.exact_params = ("eps0", "eps", *TREE_NAMES)  # type: ignore[attr-defined]
adaptive_upper.exact_params = ("eps0", "eps")  # type: ignore[attr-defined]


def game_problem(k: int) -> SmtProblem:
    """The step behind "tree value = fixed-t recursion": for every tree of depth ``k`` and every
    transcript, ``P(tau) = Q(tau) e^{L(tau)}`` with ``L`` the sum of the per-round losses (``t``
    after a 0, ``t - eps0`` after a 1), from ``grr_pair`` in the sympy context (``X = e^eps0``,
    ``Y_j = e^{t_j}``); with ``P(tau) > 0`` this gives ``(P - e^x Q)_+ = P (1 - e^{x - L})_+``,
    whose sum over transcripts is the unrolled recursion."""
    sp = _sp()
    ctx = SymCtx()
    e0 = sp.Symbol("eps0", positive=True)
    n = 2**k - 1
    ts = list(sp.symbols(f"t0:{n}", positive=True))
    xx = sp.Symbol("X", real=True)
    ys = list(sp.symbols(f"Y0:{n}", real=True))
    P, Q = _tree_laws(ctx, e0, ts, k)
    losses: list[Any] = []

    def walk(node: int, depth: int, loss: Any) -> None:
        if depth == k:
            losses.append(loss)
            return
        walk(2 * node + 1, depth + 1, loss + ts[node])
        walk(2 * node + 2, depth + 1, loss + ts[node] - e0)

    walk(0, 0, sp.Integer(0))

    def poly(expr: Any) -> Any:
        out = exp_to_power(expr, e0, xx)
        for t, y in zip(ts, ys, strict=True):
            out = exp_to_power(out, t, y)
        return out

    goals = [sp.Eq(poly(p), poly(q * sp.exp(loss)), evaluate=False)
             for p, q, loss in zip(P, Q, losses, strict=True)]
    hyps = [sp.Gt(xx, 1)]
    for y in ys:
        hyps += [sp.Gt(y, 1), sp.Lt(y, xx)]
    return SmtProblem(_vars(ys, (xx,)), tuple(hyps), sp.And(*goals),
                      ("X = e^eps0 > 1", "Y_j = e^{t_j}, 0 < t_j < eps0",
                       f"depth k = {k} ({n} nodes, {2**k} transcripts)"))


# ------------------------------------------------------------------------------------------
# DDR-T5: the closed-form maximiser of the GRR MGF


@exact_params("eps0", "a")
def mgf_log_h_at(ctx: Any, eps0: Any, lam: Any, a: Any, **_: Any) -> Any:
    return mgf_log_h(ctx, ctx.num(eps0), lam, ctx.num(Fraction(a) * Fraction(eps0)))


def mgf_log_m_term(ctx: Any, eps0: Any, lam: Any, **_: Any) -> Any:
    return mgf_log_m(ctx, eps0, lam)


def mgf_problem(which: str) -> SmtProblem:
    """``ln h(t) = mgf_log_h(eps0, lam, t)`` in the sympy context, with ``X = e^eps0``, ``U =
    e^{-lam eps0}``, ``Y = e^t``: ``"concave"`` — ``d^2/dt^2 ln h <= 0`` for ``1 <= Y <= X``
    (so a stationary point is the maximum on [0, eps0] and clipping it gives the constrained
    maximum); ``"stationary"`` — ``d/dt ln h = 0`` at the unclipped ``t*`` of
    ``mgf_t_star``'s closed form."""
    sp = _sp()
    from dpverify.theorems.formulas.br_bounds import mgf_t_star

    ctx = SymCtx()
    e0, lam, t = sp.symbols("eps0 lam t", positive=True)
    xx, u, y = sp.symbols("X U Y", real=True)
    logh = mgf_log_h(ctx, e0, lam, t)

    def poly(expr: Any) -> Any:
        out = sp.expand(expr, power_exp=True, mul=False, multinomial=False, log=False)
        out = out.subs(sp.exp(-e0 * lam), u).subs(sp.exp(t), y).subs(sp.exp(-e0), 1 / xx)
        out = out.subs(sp.exp(e0), xx).subs(sp.exp(-t), 1 / y)
        if out.has(sp.exp) or out.has(sp.log):
            raise ValueError(f"not rational: {out}")
        return sp.cancel(sp.together(out))

    hyps = [sp.Gt(xx, 1), sp.Gt(u, 0), sp.Lt(u, 1), sp.Gt(lam, 0)]
    subs_text = ("X = e^eps0 > 1", "U = e^{-lam eps0} in (0, 1)", "Y = e^t")
    if which == "concave":
        d2 = poly(sp.diff(logh, t, 2))
        hyps += [sp.Ge(y, 1), sp.Le(y, xx)]
        return SmtProblem(_vars((xx, u, y, lam)), tuple(hyps), sp.Le(d2, 0),
                          (*subs_text, "1 <= Y <= X (0 <= t <= eps0)"))
    # the unclipped maximiser: mgf_t_star without the clip, from the same body
    star = mgf_t_star(ctx, e0, lam)
    inner = [a for a in sp.preorder_traversal(star) if isinstance(a, sp.log)]
    if len(inner) != 1:
        raise ValueError(f"unexpected t* form: {star}")
    t_star = e0 + inner[0]
    d1 = sp.diff(logh, t).subs(t, t_star)
    d1 = sp.expand(d1, power_exp=True, mul=False, multinomial=False, log=False)
    return SmtProblem(_vars((xx, u, lam)), tuple(hyps), sp.Eq(poly(d1), 0, evaluate=False),
                      (*subs_text, "t = t* = eps0 + ln(lam (U + A)/(A (1 + lam))) unclipped"))


# ------------------------------------------------------------------------------------------
# DDR-L21-LAPLACE


def laplace_log_ratio(ctx: Any, eps0: Any, y: Any) -> Any:
    """``ln(f0(y)/f1(y))`` for the densities ``f_m(y) = (eps0/2) e^{-eps0 |y - m|}`` of
    ``Lap(m, 1/eps0)``."""
    half = eps0 / 2
    return ctx.log(half * ctx.exp(-eps0 * ctx.abs(y)) / (half * ctx.exp(-eps0 * ctx.abs(y - 1))))


def laplace_problem(which: str) -> SmtProblem:
    """From :func:`laplace_log_ratio` in the sympy context: ``"window"`` — ``|lr(y)| <= eps0``
    for every real y; ``"ends"`` — ``lr(0) = eps0`` and ``lr(1) = -eps0`` (window width 2 eps0,
    t = eps0)."""
    sp = _sp()
    ctx = SymCtx()
    e0 = sp.Symbol("eps0", positive=True)
    y = sp.Symbol("y", real=True)
    lr = sp.expand_log(sp.powsimp(laplace_log_ratio(ctx, e0, y)), force=True)
    if lr.has(sp.log):
        raise ValueError(f"log-ratio not simplified: {lr}")
    if which == "window":
        return SmtProblem(_vars((e0, y)), (), sp.Le(sp.Abs(lr), e0),
                          ("eps0 > 0", "y real", "ln(e^a) = a for real a"))
    goal = sp.And(sp.Eq(lr.subs(y, 0), e0, evaluate=False),
                  sp.Eq(lr.subs(y, 1), -e0, evaluate=False))
    return SmtProblem(_vars((e0,)), (), goal, ("eps0 > 0",))
