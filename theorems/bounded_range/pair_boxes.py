"""Universal claims on finite pairs and utilities (no Theorem values): box parameterisations of
the objects of DDR-D22, DDR-C21, DDR-L21, DDR-T1, DDR-P1, DDR-P2, DDR-F1, DDR-D26, DDR-L41,
DDR-L44, and the polynomial (z3) forms of the same statements built from the same formula bodies
through the sympy context.

Parameterisations (the property route samples the box, exact rationals, decided in arb):

- a full-support pair on ``N_OUT`` outputs: weights ``a_y, b_y in [1/100, 1]``,
  ``P = a/sum(a)``, ``Q = b/sum(b)``: every full-support pair up to the weight floor;
- a utility on two neighbouring datasets: ``u(x, y) = u_y``, ``u(x', y) = u_y + d_y``.

SMT encodings (stated in each problem's ``substitutions``):

- log-ratio form: ``P_y = Q_y e^{l_y}``; the formulas (``br_by_pairs``, ``br_window``,
  ``dp_level``) then return expressions in the real ``l_y``; normalisation enters as
  ``sum Q_y = sum Q_y x_y = 1`` with ``x_y = e^{l_y} > 0`` and the monotonicity of exp,
  ``l_y > 0 <=> x_y > 1`` and ``l_y = 0 <=> x_y = 1``;
- ratio form: ``x = e^eps`` etc. (:func:`dpverify.theorems.symbolic.exp_to_power`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.bounded_range import (
    _em_laws,
    br_by_pairs,
    br_window,
    dp_level,
    grr_pair,
    log_ratios,
    range_of,
    sensitivity_of,
)
from dpverify.theorems.numerics import finite
from dpverify.theorems.symbolic import exp_to_power

N_OUT = 3  # outputs of the box-parameterised pairs (6 real parameters)

_W = ("1/100", "1")

PAIR_BOX = Box(reals={**{f"a{i}": _W for i in range(N_OUT)},
                      **{f"b{i}": _W for i in range(N_OUT)}})

PAIR_TEXT = (f"every full-support pair on {N_OUT} outputs with P = a/sum(a), Q = b/sum(b), "
             "weights a_y, b_y in [1/100, 1]")


def _normalise(ctx: Any, w: Sequence[Any]) -> list[Any]:
    z = ctx.fsum(w)
    return [v / z for v in w]


def box_pair(ctx: Any, kw: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """``(P, Q)`` from the weights ``a_y, b_y`` of a box point."""
    return (_normalise(ctx, [kw[f"a{i}"] for i in range(N_OUT)]),
            _normalise(ctx, [kw[f"b{i}"] for i in range(N_OUT)]))


def on_pair(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f(ctx, P, Q, **rest)`` as a term of the pair box."""

    def term(ctx: Any, **kw: Any) -> Any:
        p, q = box_pair(ctx, kw)
        rest = {k: v for k, v in kw.items() if k[0] not in "ab" or not k[1:].isdigit()}
        return f(ctx, p, q, **rest)

    return term


# ------------------------------------------------------------------------------------------
# sympy helpers


def _sp() -> Any:
    import sympy as sp

    return sp


def simplify_logs(expr: Any) -> Any:
    """``log(a)`` -> ``log(simplify(a))`` expanded: a log of ``e^{linear}`` becomes linear."""
    sp = _sp()
    return expr.replace(lambda n: isinstance(n, sp.log),
                        lambda n: sp.expand_log(sp.log(sp.simplify(n.args[0])), force=True))


def log_ratio_pair(n: int) -> tuple[list[Any], list[Any], list[Any], list[Any], list[Any]]:
    """Symbols ``l_y, Q_y, x_y`` and ``P_y = Q_y e^{l_y}``, with the normalisation hypotheses."""
    sp = _sp()
    ls = list(sp.symbols(f"l0:{n}", real=True))
    qs = list(sp.symbols(f"Q0:{n}", real=True))
    xs = list(sp.symbols(f"x0:{n}", real=True))
    p = [q * sp.exp(li) for q, li in zip(qs, ls, strict=True)]
    hyps = [sp.Eq(sp.Add(*qs), 1), sp.Eq(sp.Add(*(q * x for q, x in zip(qs, xs, strict=True))), 1)]
    for li, q, x in zip(ls, qs, xs, strict=True):
        hyps += [sp.Gt(q, 0), sp.Gt(x, 0),
                 sp.Implies(sp.Gt(li, 0), sp.Gt(x, 1)), sp.Implies(sp.Gt(x, 1), sp.Gt(li, 0)),
                 sp.Implies(sp.Eq(li, 0), sp.Eq(x, 1)), sp.Implies(sp.Eq(x, 1), sp.Eq(li, 0))]
    return ls, qs, xs, p, hyps


LOG_RATIO_SUBS = ("P_y = Q_y e^{l_y} (l_y real, the log-ratio)", "x_y = e^{l_y} > 0",
                  "sum Q_y = sum Q_y x_y = 1 (both laws normalised)",
                  "monotonicity of exp: l_y > 0 <=> x_y > 1, l_y = 0 <=> x_y = 1")


def _vars(*groups: Sequence[Any]) -> dict[str, str]:
    return {str(s): "real" for g in groups for s in g}


def d22_problem(n: int) -> SmtProblem:
    """DDR-D22: ``br_by_pairs = br_window`` for every full-support pair on ``n`` outputs."""
    sp = _sp()
    ctx = SymCtx()
    ls, qs, _xs, p, _h = log_ratio_pair(n)
    goal = sp.Eq(br_by_pairs(ctx, p, qs), br_window(ctx, p, qs))
    return SmtProblem(_vars(ls), (), goal, (LOG_RATIO_SUBS[0],
                                            f"{n} outputs; both sides from the formulas"))


def l21_problem(n: int, which: str) -> SmtProblem:
    """DDR-L21: ``dp_level <= br_window`` (``which = "dp<=br"``) or ``br_window <= 2 dp_level``."""
    sp = _sp()
    ctx = SymCtx()
    ls, qs, xs, p, hyps = log_ratio_pair(n)
    dp, br = dp_level(ctx, p, qs), br_window(ctx, p, qs)
    goal = sp.Le(dp, br) if which == "dp<=br" else sp.Le(br, 2 * dp)
    return SmtProblem(_vars(ls, qs, xs), tuple(hyps), goal, LOG_RATIO_SUBS)


def c21_problem(n: int, direction: str) -> SmtProblem:
    """DDR-C21's iff on ``n`` outputs. ``"=>"``: with ``eps = br_window`` and ``t = max_y l_y``,
    ``0 <= t <= eps`` and ``t - eps <= l_y <= t``. ``"<="``: if some ``t in [0, eps]`` has every
    ``l_y in [t - eps, t]``, then ``br_window <= eps``."""
    sp = _sp()
    ctx = SymCtx()
    ls, qs, xs, p, hyps = log_ratio_pair(n)
    lr = log_ratios(ctx, p, qs)
    br = br_window(ctx, p, qs)
    if direction == "=>":
        t = sp.Max(*lr)
        goal = sp.And(sp.Le(0, t), sp.Le(t, br), *(sp.Le(t - br, v) for v in lr),
                      *(sp.Le(v, t) for v in lr))
        return SmtProblem(_vars(ls, qs, xs), tuple(hyps), goal, LOG_RATIO_SUBS)
    t, e = sp.symbols("t eps", real=True)
    window = [sp.Le(0, t), sp.Le(t, e), *(sp.Le(t - e, v) for v in lr), *(sp.Le(v, t) for v in lr)]
    return SmtProblem(_vars(ls, (t, e)), tuple(window), sp.Le(br, e),
                      (LOG_RATIO_SUBS[0], "t, eps free reals with the window hypotheses"))


# ------------------------------------------------------------------------------------------
# exponential mechanisms (DDR-T1, DDR-P2)

UTIL_BOX_REALS = {**{f"u{i}": ("-3", "3") for i in range(N_OUT)},
                  **{f"d{i}": ("-1", "1") for i in range(N_OUT)},
                  "eps": ("1/10", "2")}

UTIL_TEXT = (f"utilities u(x, .) = u in [-3, 3]^{N_OUT}, u(x', .) = u + d with d in "
             f"[-1, 1]^{N_OUT} (one neighbouring pair), eps in [0.1, 2]")


def _rows(kw: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    u = [kw[f"u{i}"] for i in range(N_OUT)]
    return u, [a + kw[f"d{i}"] for i, a in enumerate(u)]


def _exact_rows(kw: dict[str, Any]) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    u, v = _rows(kw)
    return tuple(Fraction(a) for a in u), tuple(Fraction(b) for b in v)


_UTIL_NAMES = tuple(f"{c}{i}" for c in "ud" for i in range(N_OUT))


def em_gap(scale_kind: str, level: Callable[..., Any]) -> Callable[..., Any]:
    """``level(M(x), M(x')) - eps`` (both orders) for the exponential mechanism with scale
    ``eps/(2 Delta_u)`` (``"sens"``, [DDR] Def. 2.3) or ``eps/Range(u)`` (``"range"``, Prop. 2);
    0 when the scale's denominator is 0 (a constant shift: the mechanism does not move)."""

    def term(ctx: Any, eps: Any, **kw: Any) -> Any:
        u, v = _exact_rows(kw)
        pair = ((0, 1),)
        den = 2 * sensitivity_of((u, v), pair) if scale_kind == "sens" else range_of((u, v), pair)
        if den == 0:
            return -ctx.num(eps)
        p, q = _em_laws(ctx, ([ctx.num(a) for a in u], [ctx.num(b) for b in v]),
                        ctx.num(eps) / ctx.num(den))
        return ctx.max(level(ctx, p, q), level(ctx, q, p)) - ctx.num(eps)

    term.exact_params = ("eps", *_UTIL_NAMES)  # type: ignore[attr-defined]
    return term


def em_br_problem(scale_kind: str) -> SmtProblem:
    """The BR parameter of the exponential mechanism on one neighbouring pair is at most eps:
    ``br_window(M(x), M(x')) <= eps``, from ``_em_laws`` and ``br_window`` in the sympy context;
    the log-normalisers ``ln Z(x)``, ``ln Z(x')`` are replaced by free reals ``L0, L1`` (they
    cancel in the window; claiming the bound for every value of them is stronger) and the scale
    by ``s = eps/D`` with ``D = 2 Delta_u`` or ``Range(u)`` from the same formulas."""
    sp = _sp()
    ctx = SymCtx()
    u = list(sp.symbols(f"u0:{N_OUT}", real=True))
    d = list(sp.symbols(f"d0:{N_OUT}", real=True))
    e, s, dd, l0, l1 = sp.symbols("eps s D L0 L1", real=True)
    v = [a + b for a, b in zip(u, d, strict=True)]
    rows = (tuple(u), tuple(v))
    p, q = _em_laws(ctx, rows, s)
    lr = [sp.expand(sp.expand_log(sp.log(sp.powsimp(a / b)), force=True))
          for a, b in zip(p, q, strict=True)]
    logs = sorted(set().union(*(x.atoms(sp.log) for x in lr)), key=str)
    if len(logs) > 2:
        raise ValueError(f"more than two log-normalisers: {logs}")
    lr = [sp.expand(x.subs(dict(zip(logs, (l0, l1), strict=False)))) for x in lr]
    if any(x.has(sp.exp) or x.has(sp.log) for x in lr):
        raise ValueError(f"log-ratios not linear after substitution: {lr}")
    br = sp.Max(*lr) - sp.Min(*lr)
    mx = lambda *xs: sp.Max(*xs)  # noqa: E731
    if scale_kind == "sens":
        den = 2 * sensitivity_of(rows, ((0, 1),), mx=mx)
    else:
        den = range_of(rows, ((0, 1),), mx=mx, mn=lambda *xs: sp.Min(*xs))
    hyps = (sp.Gt(e, 0), sp.Eq(dd, den), sp.Gt(dd, 0), sp.Eq(s * dd, e))
    return SmtProblem(_vars(u, d, (e, s, dd, l0, l1)), hyps, sp.Le(br, e),
                      ("s = eps/D (s D = eps)", "D = 2 Delta_u" if scale_kind == "sens"
                       else "D = Range(u)", "L0 = ln Z(x), L1 = ln Z(x') free reals",
                       f"{N_OUT} outputs, one neighbouring pair"))


def p1_problem(which: str) -> SmtProblem:
    """DDR-P1 over two datasets on ``N_OUT`` outputs (one neighbouring pair), from
    ``range_of``/``sensitivity_of``: ``"2sens"`` Range <= 2 Delta_u; ``"mono"`` Range <= Delta_u
    when every d_y >= 0; ``"shift"`` Range(u + f) = Range(u)."""
    sp = _sp()
    u = list(sp.symbols(f"u0:{N_OUT}", real=True))
    d = list(sp.symbols(f"d0:{N_OUT}", real=True))
    f0, f1 = sp.symbols("f0 f1", real=True)
    v = [a + b for a, b in zip(u, d, strict=True)]
    pair = ((0, 1),)
    mx, mn = (lambda *xs: sp.Max(*xs)), (lambda *xs: sp.Min(*xs))
    rg = range_of((tuple(u), tuple(v)), pair, mx=mx, mn=mn)
    sens = sensitivity_of((tuple(u), tuple(v)), pair, mx=mx)
    if which == "2sens":
        return SmtProblem(_vars(u, d), (), sp.Le(rg, 2 * sens), ("u(x') = u(x) + d",))
    if which == "mono":
        return SmtProblem(_vars(u, d), tuple(sp.Ge(x, 0) for x in d), sp.Le(rg, sens),
                          ("u(x') = u(x) + d, d_y >= 0 (monotone)",))
    shifted = (tuple(a + f0 for a in u), tuple(b + f1 for b in v))
    return SmtProblem(_vars(u, d, (f0, f1)), (),
                      sp.Eq(range_of(shifted, pair, mx=mx, mn=mn), rg),
                      ("u'(x, y) = u(x, y) + f(x), f = (f0, f1)",))


# ------------------------------------------------------------------------------------------
# Fact 1, the mixture witness, the reduction to GRR, counting queries


def f1_problem(n: int) -> SmtProblem:
    """DDR-F1: ``hockey_stick = hockey_stick_events`` for every pair of nonnegative vectors on
    ``n`` outputs and every ``G = e^{eps_g} > 0`` (both formulas in the sympy context)."""
    sp = _sp()
    ctx = SymCtx()
    ps = list(sp.symbols(f"P0:{n}", real=True))
    qs = list(sp.symbols(f"Q0:{n}", real=True))
    g, lg = sp.symbols("G eps_g", real=True)
    lhs = finite.hockey_stick(ctx, ps, qs, lg).subs(sp.exp(lg), g)
    rhs = finite.hockey_stick_events(ctx, ps, qs, lg).subs(sp.exp(lg), g)
    hyps = (sp.Gt(g, 0), *(sp.Ge(x, 0) for x in ps + qs))
    return SmtProblem(_vars(ps, qs, (g,)), hyps, sp.Eq(lhs, rhs),
                      ("G = e^{eps_g} > 0", f"{n} outputs, P_y, Q_y >= 0 (not normalised: "
                       "stronger)"))


def d26_problem() -> SmtProblem:
    """DDR-D26: the BR window of the 1/2-mixture of ``RR_{eps,t1}`` and ``RR_{eps,t2}`` on
    disjoint labels is ``eps + |t1 - t2|`` (from ``grr_pair`` and ``br_window``; the log-ratios
    of GRR simplify to ``t`` and ``t - eps``)."""
    sp = _sp()
    ctx = SymCtx()
    e, t1, t2 = sp.symbols("eps t1 t2", positive=True)
    (p1, r1), (q1, s1) = grr_pair(ctx, e, t1)
    (p2, r2), (q2, s2) = grr_pair(ctx, e, t2)
    h = sp.Rational(1, 2)
    br = simplify_logs(br_window(ctx, [h * p1, h * r1, h * p2, h * r2],
                                 [h * q1, h * s1, h * q2, h * s2]))
    if br.has(sp.log) or br.has(sp.exp):
        raise ValueError(f"GRR log-ratios did not simplify: {br}")
    hyps = (sp.Lt(t1, e), sp.Lt(t2, e))
    return SmtProblem(_vars((e, t1, t2)), hyps, sp.Eq(br, e + sp.Abs(t1 - t2)),
                      ("0 < t_i < eps (the GRR log-ratios ln(p/q) = t, "
                       "ln((1-p)/(1-q)) = t - eps simplified by sympy)",))


def l41_problem(n: int) -> SmtProblem:
    """DDR-L41 (Lemma 4.1 consequence): every pair on ``n`` outputs whose ratios ``r_y = P/Q``
    lie in ``[e^{t - eps}, e^t]`` (0 <= t <= eps) has ``H_G(P||Q) <= H_G(RR_{eps,t}(0) ||
    RR_{eps,t}(1))`` for every ``G = e^{eps_g} > 0``; both sides from ``finite.hockey_stick``
    and ``grr_pair`` in the sympy context with ``X = e^eps``, ``Y = e^t``."""
    sp = _sp()
    ctx = SymCtx()
    e, t, lg = sp.symbols("eps t eps_g", real=True)
    xx, yy, g = sp.symbols("X Y G", real=True)
    qs = list(sp.symbols(f"Q0:{n}", real=True))
    rs = list(sp.symbols(f"r0:{n}", real=True))
    (a, b), (c, d) = grr_pair(ctx, e, t)
    grr = [exp_to_power(exp_to_power(v, e, xx), t, yy) for v in (a, b, c, d)]
    rhs = finite.hockey_stick(ctx, grr[:2], grr[2:], lg).subs(sp.exp(lg), g)
    ps = [q * r for q, r in zip(qs, rs, strict=True)]
    lhs = finite.hockey_stick(ctx, ps, qs, lg).subs(sp.exp(lg), g)
    hyps = [sp.Gt(g, 0), sp.Gt(yy, 1), sp.Gt(xx, yy), sp.Eq(sp.Add(*qs), 1),
            sp.Eq(sp.Add(*ps), 1)]
    for q, r in zip(qs, rs, strict=True):
        hyps += [sp.Gt(q, 0), sp.Ge(r * xx, yy), sp.Le(r, yy)]
    return SmtProblem(_vars(qs, rs, (xx, yy, g)), tuple(hyps), sp.Le(lhs, rhs),
                      ("X = e^eps, Y = e^t, 1 < Y < X (0 < t < eps)", "G = e^{eps_g} > 0",
                       "P_y = Q_y r_y with Y/X <= r_y <= Y", f"{n} outputs"))


L44_BOX = Box(reals={**{f"c{i}": ("0", "10") for i in range(N_OUT)}, "eps": ("1/20", "3")},
              ints={f"z{i}": (0, 1) for i in range(N_OUT)})


L44_TEXT = (f"counts c in [0, 10]^{N_OUT}, every added bit-string z in {{0,1}}^{N_OUT}, eps in "
            "[0.05, 3]")


def l44_log_ratios(ctx: Any, eps: Any, **kw: Any) -> list[Any]:
    x = [kw[f"c{i}"] for i in range(N_OUT)]
    xp = [c + kw[f"z{i}"] for i, c in enumerate(x)]
    p, q = _em_laws(ctx, (x, xp), eps)
    return log_ratios(ctx, p, q)


def l44_problem() -> SmtProblem:
    """DDR-L44 in ratio form: with ``w_y = e^{eps c_y} > 0``, ``X = e^eps > 1`` and ``e_y =
    e^{eps z_y} in {1, X}``, the ratio ``R_y = P(y)/P'(y)`` from ``_em_laws`` is ``T`` or ``T/X``
    with ``T = Z(x')/Z(x) in [1, X]`` — i.e. ``ln R_y in {t - eps, t}``, ``t in [0, eps]``."""
    sp = _sp()
    ctx = SymCtx()
    e = sp.Symbol("eps", positive=True)
    cs = list(sp.symbols(f"c0:{N_OUT}", real=True))
    es = list(sp.symbols(f"e0:{N_OUT}", real=True))
    ws = list(sp.symbols(f"w0:{N_OUT}", real=True))
    xx = sp.Symbol("X", real=True)
    zs = list(sp.symbols(f"zeta0:{N_OUT}", real=True))  # eps z_y
    p, q = _em_laws(ctx, (cs, [c + z / e for c, z in zip(cs, zs, strict=True)]), e)
    sub = {sp.exp(e * c): w for c, w in zip(cs, ws, strict=True)}
    ratio = [sp.expand(sp.powsimp(sp.expand(a / b, power_exp=True)), power_exp=True) for a, b in
             zip(p, q, strict=True)]
    ratio = [sp.expand(r, power_exp=True).subs(sub).subs(
        {sp.exp(z): ev for z, ev in zip(zs, es, strict=True)}) for r in ratio]
    ratio = [sp.cancel(r) for r in ratio]
    if any(r.has(sp.exp) for r in ratio):
        raise ValueError(f"ratios not rational after substitution: {ratio}")
    zp = sp.Add(*(w * ev for w, ev in zip(ws, es, strict=True)))
    tt = zp / sp.Add(*ws)
    hyps = [sp.Gt(xx, 1)]
    for w, ev in zip(ws, es, strict=True):
        hyps += [sp.Gt(w, 0), sp.Or(sp.Eq(ev, 1), sp.Eq(ev, xx))]
    goal = sp.And(sp.Le(1, tt), sp.Le(tt, xx),
                  *(sp.Or(sp.Eq(r, tt), sp.Eq(r * xx, tt)) for r in ratio))
    return SmtProblem(_vars(ws, es, (xx,)), tuple(hyps), goal,
                      ("w_y = e^{eps c_y} > 0", "X = e^eps > 1", "e_y = e^{eps z_y} in {1, X}",
                       f"{N_OUT} outputs; ratios from _em_laws", "T = Z(x')/Z(x)"))
