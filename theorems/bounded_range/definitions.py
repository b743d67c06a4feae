"""BR versus DP and the exponential mechanism: DDR-D22, DDR-C21, DDR-L21, DDR-T1, DDR-P1,
DDR-P2, DDR-L21-LAPLACE."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.bounded_range.game_boxes import laplace_log_ratio, laplace_problem
from dpverify.theorems.bounded_range.pair_boxes import (
    N_OUT,
    PAIR_BOX,
    PAIR_TEXT,
    UTIL_BOX_REALS,
    UTIL_TEXT,
    c21_problem,
    d22_problem,
    em_br_problem,
    em_gap,
    l21_problem,
    on_pair,
    p1_problem,
)
from dpverify.theorems.bounded_range.terms import FAMILY, _c, _plus, _tiny
from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Predicate,
    Smt,
    Tol,
    grid,
    points,
)
from dpverify.theorems.core import Theorem
from dpverify.theorems.formulas.bounded_range import (
    _em_laws,
    br_by_pairs,
    br_window,
    dp_level,
    log_ratios,
    range_of,
    sensitivity_of,
)
from dpverify.theorems.numerics import finite
from dpverify.theorems.refs import DDR, cite
from dpverify.theorems.values import is_exact


def _draw_pair(rng: random.Random) -> dict[str, Any]:
    p, q = finite.random_pair(rng)
    return {"p": p, "q": q}


def _draw_t1(rng: random.Random) -> dict[str, Any]:
    """DDR-T1's instances: a base row of integers in [0, 5] on 2..6 outputs, five neighbours
    adding -1, 0 or +1 per output, eps uniform on the rationals k/100 in [0.1, 2]."""
    while True:
        n = rng.randint(2, 6)
        base = tuple(rng.randint(0, 5) for _ in range(n))
        nbrs = tuple(tuple(b + rng.choice((-1, 0, 1)) for b in base) for _ in range(5))
        if any(x != base for x in nbrs):
            return {"base": base, "nbrs": nbrs, "eps": Fraction(rng.randint(10, 200), 100)}


def _t1_sensitivity(base: Sequence[int], nbrs: Sequence[Sequence[int]]) -> int:
    return max(abs(a - b) for row in nbrs for a, b in zip(base, row, strict=True))


def _t1_max(level: Callable[..., Any]) -> Callable[..., Any]:
    def term(ctx: Any, base: Any, nbrs: Any, eps: Any, **_: Any) -> Any:
        du = _t1_sensitivity(base, nbrs)
        scale = eps / (2 * du)
        out = None
        for row in nbrs:
            p, q = _em_laws(ctx, (base, row), scale)
            v = ctx.max(level(ctx, p, q), level(ctx, q, p))
            out = v if out is None else ctx.max(out, v)
        return out - eps

    return term


_CHAIN = ((0, 1), (1, 2), (2, 3))


def _draw_utilities(rng: random.Random) -> dict[str, Any]:
    """Four datasets in a chain of three neighbouring pairs, 2..5 outputs, values in [-3, 3]
    (rationals j/100), and eps = j/100 in [0.1, 2] for DDR-P2."""
    while True:
        n = rng.randint(2, 5)
        rows = tuple(tuple(Fraction(rng.randint(-300, 300), 100) for _ in range(n))
                     for _ in range(4))
        if range_of(rows, _CHAIN) > 0:
            return {"rows": rows, "eps": Fraction(rng.randint(10, 200), 100)}


def _draw_monotone(rng: random.Random) -> dict[str, Any]:
    """A monotone utility: each neighbour in the chain adds a value in [0, 1] to every
    output (rationals j/100)."""
    n = rng.randint(2, 5)
    row = [Fraction(rng.randint(-300, 300), 100) for _ in range(n)]
    rows = [tuple(row)]
    for _ in range(3):
        row = [u + Fraction(rng.randint(0, 100), 100) for u in row]
        rows.append(tuple(row))
    return {"rows": tuple(rows)}


def _p2_br_gap(ctx: Any, rows: Any, eps: Any, **_: Any) -> Any:
    """``max over neighbouring pairs of the realised BR parameter - eps`` for
    ``P[M(x)=y] ∝ exp(eps u(x,y)/Range(u))`` ([DDR] Prop. 2)."""
    exact_rows = tuple(tuple(Fraction(v) if is_exact(v) else v for v in r) for r in rows)
    rg = range_of(exact_rows, _CHAIN)
    laws = _em_laws(ctx, [[ctx.num(v) for v in r] for r in exact_rows], eps / ctx.num(rg))
    out = None
    for a, b in _CHAIN:
        v = br_window(ctx, laws[a], laws[b])
        out = v if out is None else ctx.max(out, v)
    return out - eps


_p2_br_gap.exact_params = ("rows",)  # type: ignore[attr-defined]


def _br_pairs_term(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return br_by_pairs(ctx, p, q)


def _br_window_term(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return br_window(ctx, p, q)


def _dp_term(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return dp_level(ctx, p, q)


def _two_dp_term(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return 2 * dp_level(ctx, p, q)


def _c21_window(ctx: Any, p: Any, q: Any, **_: Any) -> bool | None:
    """With ``w = max lr - min lr`` and ``t = max lr``: ``0 <= t <= w`` and every log-ratio lies
    in ``[t - w, t]`` (both distributions sum to 1, so ``max lr >= 0 >= min lr``); each
    inequality to 1e-40 (they are attained, e.g. t = 0 when P = Q)."""
    lr = log_ratios(ctx, p, q)
    t, lo = ctx.max(*lr), ctx.min(*lr)
    w = t - lo
    tol = ctx.num(_tiny(40))  # the window's ends are attained: certified up to 1e-40
    checks = [ctx.le(-tol, t), ctx.le(lo, tol), ctx.le(t, w + tol)]
    checks += [ctx.le(t - w, v + tol) for v in lr] + [ctx.le(v, t + tol) for v in lr]
    if any(c is False for c in checks):
        return False
    return None if any(c is None for c in checks) else True


PAIRS = Generated(_draw_pair, 300, "random full-support pairs (2 to 6 outputs, rational)")


DDR_D22 = Theorem(
    id="DDR-D22",
    title="Bounded range (BR)",
    family=FAMILY,
    source=cite(DDR, "Def. 2.2 (from [DR19] arXiv 1905.04273)"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement="M is eps-BR if, for all neighbours x, x' and all outcomes y, y': "
              "P[M(x)=y]/P[M(x')=y] <= e^eps P[M(x)=y']/P[M(x')=y'] (densities for continuous "
              "outputs).",
    domain="eps >= 0",
    claims=(
        Claim(1, "The BR parameter of a full-support pair (P, Q), computed from the definition as "
                 "the largest ln(P(y)/Q(y)) - ln(P(y')/Q(y')) over all pairs of outputs, equals "
                 "max_y ln(P/Q) - min_y ln(P/Q) (DDR-C21), to 1e-40, on random pairs. Proved "
                 f"by z3 (the problem of claim 2) for every full-support pair on {N_OUT} outputs.",
              (Compare(_br_pairs_term, "eq", _br_window_term, PAIRS, "oracle", Tol.abs("1e-40"),
                       "BR by all (y, y') pairs", "max lr - min lr"),
               Smt(lambda: d22_problem(N_OUT), f"max_(y,y') (l_y - l_y') = max l - min l, "
                   f"{N_OUT} outputs"))),
        Claim(2, f"For {PAIR_TEXT}: the BR parameter from the definition (largest ln(P(y)/Q(y)) - "
                 "ln(P(y')/Q(y'))) equals max lr - min lr, to 1e-40 (property search); proved by "
                 f"z3 for every full-support pair on {N_OUT} outputs (any real log-ratios l_y: "
                 "P_y = Q_y e^{l_y}), both sides from the same formulas in the sympy context.",
              (Compare(on_pair(_br_pairs_term), "eq", on_pair(_br_window_term), PAIR_BOX,
                       "property", Tol.abs("1e-40"), "BR by all (y, y') pairs",
                       "max lr - min lr"),
               Smt(lambda: d22_problem(N_OUT), f"max_(y,y') (l_y - l_y') = max l - min l, "
                   f"{N_OUT} outputs"))),
    ),
    notes="The relation to DP is DDR-L21; the window form is DDR-C21.",
)


DDR_C21 = Theorem(
    id="DDR-C21",
    title="Corollary 2.1: BR as a sliding log-ratio window",
    family=FAMILY,
    source=cite(DDR, "Cor. 2.1"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="M is eps-BR iff for all neighbours x ~ x' there is t in [0, eps] with t - eps <= "
              "ln(P[M(x)=y]/P[M(x')=y]) <= t for every y; t lies in [0, eps] because both "
              "distributions sum to 1 (max log-ratio >= 0 >= min log-ratio).",
    domain="eps >= 0",
    claims=(
        Claim(1, "For random pairs, with eps = max lr - min lr and t = max_y ln(P(y)/Q(y)): t is "
                 "in [0, eps] and every log-ratio lies in [t - eps, t] (certified in arb). "
                 f"Proved by z3 (the (=>) problem of claim 2) for every full-support pair on "
                 f"{N_OUT} outputs.",
              (Predicate(_c21_window, PAIRS, "oracle",
                         "t = max lr in [0, eps] and lr in [t - eps, t] for every output"),
               Smt(lambda: c21_problem(N_OUT, "=>"), "t = max l in [0, br], l_y in [t - br, "
                   "t]"))),
        Claim(2, f"The iff, universally: (=>) for {PAIR_TEXT}, with eps = max lr - min lr and "
                 "t = max lr, t in [0, eps] and every lr in [t - eps, t] (property search); "
                 f"proved by z3 for every full-support pair on {N_OUT} outputs (log-ratio form, "
                 "normalisation sum Q = sum Q e^l = 1 and monotonicity of exp as hypotheses); "
                 "(<=) if some t in [0, eps] has every lr in [t - eps, t] then max lr - min lr "
                 f"<= eps: proved by z3 for all reals l_y, t, eps ({N_OUT} outputs).",
              (Predicate(on_pair(_c21_window), PAIR_BOX, "property",
                         "t = max lr in [0, eps] and lr in [t - eps, t] for every output"),
               Smt(lambda: c21_problem(N_OUT, "=>"), "t = max l in [0, br], l_y in [t - br, t]"),
               Smt(lambda: c21_problem(N_OUT, "<="), "window [t - eps, t] with t in [0, eps] "
                   "=> max l - min l <= eps"))),
    ),
    notes="t = max_y ln(P(y)/Q(y)) is the canonical choice of t; DDR-L41 uses it.",
)


DDR_L21 = Theorem(
    id="DDR-L21",
    title="Lemma 2.1: BR versus DP",
    family=FAMILY,
    source=cite(DDR, "Lemma 2.1 ([DR19] Cor. 4.2)"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="eps-BR implies eps-DP, and eps-DP implies 2eps-BR.",
    domain="eps >= 0",
    claims=(
        Claim(1, "On 300 random pairs (2 to 6 outputs, full support): dp_eps = max_y |ln(P/Q)| "
                 "<= br_eps = max lr - min lr. Proved by z3 (a problem of claim 3) for every "
                 f"full-support pair on {N_OUT} outputs.",
              (Compare(_dp_term, "le", _br_window_term, PAIRS, "oracle", lhs_name="dp_eps",
                       rhs_name="br_eps"),
               Smt(lambda: l21_problem(N_OUT, "dp<=br"), "max |l| <= max l - min l"))),
        Claim(2, "On the same pairs: br_eps <= 2 dp_eps. Proved by z3 (a problem of claim 3) "
                 f"for every full-support pair on {N_OUT} outputs.",
              (Compare(_br_window_term, "le", _two_dp_term, PAIRS, "oracle",
                       lhs_name="br_eps", rhs_name="2 dp_eps"),
               Smt(lambda: l21_problem(N_OUT, "br<=2dp"), "max l - min l <= 2 max |l|"))),
        Claim(3, f"Both implications universally: dp_eps <= br_eps <= 2 dp_eps for {PAIR_TEXT} "
                 "(property search; br_eps <= 2 dp_eps up to 1e-40, attained when max lr = "
                 "-min lr); proved by z3 for every full-support pair on "
                 f"{N_OUT} outputs (log-ratio form; dp <= br uses the normalisation, which makes "
                 "max lr >= 0 >= min lr).",
              (Compare(on_pair(_dp_term), "le", _plus(on_pair(_br_window_term), _tiny(40)),
                       PAIR_BOX, "property", lhs_name="dp_eps", rhs_name="br_eps + 1e-40"),
               Compare(on_pair(_br_window_term), "le", _plus(on_pair(_two_dp_term), _tiny(40)),
                       PAIR_BOX, "property", lhs_name="br_eps", rhs_name="2 dp_eps + 1e-40"),
               Smt(lambda: l21_problem(N_OUT, "dp<=br"), "max |l| <= max l - min l"),
               Smt(lambda: l21_problem(N_OUT, "br<=2dp"), "max l - min l <= 2 max |l|"))),
    ),
    notes="The factor 2 is attained by Laplace noise (DDR-L21-LAPLACE).",
)


T1_INSTANCES = Generated(_draw_t1, 50, "random sensitivity-1 utilities (base row in [0, 5], "
                                       "5 neighbours +-1/0 per output, eps in [0.1, 2])")


DDR_T1 = Theorem(
    id="DDR-T1",
    title="Exponential mechanism is eps-DP and eps-BR",
    family=FAMILY,
    source=cite(DDR, "Def. 2.3 and Thm 1 (eps-DP: McSherry-Talwar; eps-BR: [DR19])"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="P[M(x)=y] ∝ exp(eps u(x,y)/(2 Delta_u)), Delta_u = max_y max_{x~x'} |u(x,y) - "
              "u(x',y)|. Thm 1: M is eps-DP and eps-BR.",
    domain="finite output set, eps > 0, Delta_u > 0",
    aliases=("DDR-D23",),
    claims=(
        Claim(1, "On 50 random utilities: max over neighbouring pairs (both orders) of dp_eps - "
                 "eps <= 0 (strict: the normaliser's log-ratio lies strictly inside the range).",
              (Compare(_t1_max(dp_level), "le", _c(0), T1_INSTANCES, "oracle",
                       lhs_name="max dp_eps - eps", rhs_name="0"),)),
        Claim(2, "On the same utilities: max br_eps - eps <= 0, certified to 1e-40 (the bound is "
                 "attained when one output moves by +Delta_u and another by -Delta_u). Proved "
                 f"by z3 (the problem of claim 3) for each neighbouring pair on {N_OUT} outputs "
                 "and every real utility (the pair's own Delta_u is at most the maximum, so the "
                 "bound holds with the global scale).",
              (Compare(_t1_max(br_window), "le", _c(_tiny(40)), T1_INSTANCES, "oracle",
                       lhs_name="max br_eps - eps", rhs_name="1e-40"),
               Smt(lambda: em_br_problem("sens"), "br_window(EM laws, scale eps/(2 Delta_u)) "
                   "<= eps, one pair"))),
        Claim(3, f"Universally on {UTIL_TEXT}: with scale eps/(2 Delta_u), br_eps - eps <= 1e-40 "
                 "and dp_eps - eps <= 1e-40 (property search); eps-BR proved by z3 for every "
                 f"real utility pair on {N_OUT} outputs (log-ratio form from the same formulas; "
                 "the normalisers are free reals), and eps-DP follows by DDR-L21 claim 3.",
              (Compare(em_gap("sens", br_window), "le", _c(_tiny(40)), Box(reals=UTIL_BOX_REALS),
                       "property", lhs_name="br_eps - eps", rhs_name="1e-40"),
               Compare(em_gap("sens", dp_level), "le", _c(_tiny(40)), Box(reals=UTIL_BOX_REALS),
                       "property", lhs_name="dp_eps - eps", rhs_name="1e-40"),
               Smt(lambda: em_br_problem("sens"), "br_window(EM laws, scale eps/(2 Delta_u)) "
                   "<= eps"))),
    ),
    notes="The same mechanism is BLOG-EXP in foundations.",
)


P1_U = ((Fraction(0), Fraction(1), Fraction(5)), (Fraction(1), Fraction(1), Fraction(4)))


P1_F = (Fraction(0), Fraction(100))


def _p1_example(ctx: Any, **_: Any) -> bool:
    """(i) with u = ((0, 1, 5), (1, 1, 4)) on one pair and f = (0, 100): Range(u + f) = Range(u)
    = 2 while the sensitivity jumps from 1 to 101 (exact rationals)."""
    pair = ((0, 1),)
    uf = tuple(tuple(v + P1_F[x] for v in row) for x, row in enumerate(P1_U))
    return (range_of(uf, pair) == range_of(P1_U, pair) == 2
            and sensitivity_of(P1_U, pair) == 1 and sensitivity_of(uf, pair) == 101)


def _range_vs(factor: int) -> Callable[..., Any]:
    def test(ctx: Any, rows: Any, **_: Any) -> bool:
        return range_of(rows, _CHAIN) <= factor * sensitivity_of(rows, _CHAIN)

    test.exact_params = ("rows",)  # type: ignore[attr-defined]
    return test


_U_REALS = {**{f"u{i}": ("-3", "3") for i in range(N_OUT)},
            **{f"d{i}": ("-1", "1") for i in range(N_OUT)}}


_D_MONO = {f"d{i}": ("0", "1") for i in range(N_OUT)}


def _p1_box(which: str) -> Callable[..., Any]:
    """DDR-P1 (i)-(iii) at a box point, exactly (one neighbouring pair, u(x', .) = u + d)."""

    def test(ctx: Any, **kw: Any) -> bool:
        u = tuple(Fraction(kw[f"u{i}"]) for i in range(N_OUT))
        v = tuple(a + Fraction(kw[f"d{i}"]) for i, a in enumerate(u))
        pair = ((0, 1),)
        rg, sens = range_of((u, v), pair), sensitivity_of((u, v), pair)
        if which == "shift":
            f0, f1 = Fraction(kw["f0"]), Fraction(kw["f1"])
            return range_of((tuple(a + f0 for a in u), tuple(b + f1 for b in v)), pair) == rg
        return rg <= (2 * sens if which == "2sens" else sens)

    test.exact_params = (*_U_REALS, "f0", "f1")  # type: ignore[attr-defined]
    return test


UTILITIES = Generated(_draw_utilities, 100, "random real utilities (4 datasets in a chain, 2 to "
                                             "5 outputs, values j/100 in [-3, 3])")


DDR_P1 = Theorem(
    id="DDR-P1",
    title="Proposition 1: range of a quality score",
    family=FAMILY,
    source=cite(DDR, "Prop. 1"),
    types=("EXACT",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement="Range(u) := max_{x~x'} max_{y,y'} (u(x,y) - u(x',y)) - (u(x,y') - u(x',y')). "
              "(i) Range(u + f(x)) = Range(u) although the sensitivity of u + f can be "
              "arbitrarily large; (ii) Range(u) <= 2 Delta_u; (iii) Range(u) <= Delta_u for "
              "monotone u (the catalogue's reading of the three bullets).",
    domain="finite output set, finite set of neighbouring pairs",
    claims=(
        Claim(1, "(i) u = ((0, 1, 5), (1, 1, 4)) on one neighbouring pair, f = (0, 100): "
                 "Range(u + f) = Range(u) = 2 while the sensitivity jumps from 1 to 101.",
              (Predicate(_p1_example, points({}), "oracle", "exact enumeration"),),
              scope="instance"),
        Claim(2, "(ii) Range(u) <= 2 Delta_u on 100 random real utilities (exact rationals). "
                 f"Proved by z3 (a problem of claim 4) for one neighbouring pair on {N_OUT} "
                 "outputs and all real utilities (both sides are maxima over pairs).",
              (Predicate(_range_vs(2), UTILITIES, "oracle", "Range(u) <= 2 Delta_u"),
               Smt(lambda: p1_problem("2sens"), "Range(u) <= 2 Delta_u, one pair"))),
        Claim(3, "(iii) Range(u) <= Delta_u for 100 random monotone utilities (each neighbour "
                 "adds a value in [0, 1] to every output). Proved by z3 (a problem of claim 4) "
                 f"for one neighbouring pair on {N_OUT} outputs and all real u, d >= 0.",
              (Predicate(_range_vs(1), Generated(_draw_monotone, 100,
                                                 "random monotone utilities"),
                         "oracle", "Range(u) <= Delta_u"),
               Smt(lambda: p1_problem("mono"), "Range(u) <= Delta_u, d >= 0, one pair"))),
        Claim(4, f"(i)-(iii) universally for one neighbouring pair on {N_OUT} outputs, u(x', .) "
                 "= u + d: Range(u + f) = Range(u) (u in [-3, 3], d in [-1, 1], f in [-100, "
                 "100]^2), Range(u) <= 2 Delta_u, and Range(u) <= Delta_u when d >= 0 (d in "
                 "[0, 1]), exactly in rationals (property search); proved by z3 for all real u, "
                 "d, f (range_of and sensitivity_of evaluated on sympy symbols).",
              (Predicate(_p1_box("shift"), Box(reals={**_U_REALS, "f0": ("-100", "100"),
                                                      "f1": ("-100", "100")}),
                         "property", "Range(u + f) = Range(u)"),
               Predicate(_p1_box("2sens"), Box(reals=_U_REALS), "property",
                         "Range(u) <= 2 Delta_u"),
               Predicate(_p1_box("mono"), Box(reals={**_U_REALS, **_D_MONO}), "property",
                         "Range(u) <= Delta_u for d >= 0"),
               Smt(lambda: p1_problem("shift"), "Range(u + f) = Range(u)"),
               Smt(lambda: p1_problem("2sens"), "Range(u) <= 2 Delta_u"),
               Smt(lambda: p1_problem("mono"), "Range(u) <= Delta_u, d >= 0"))),
    ),
    notes="The exact wording of the paper's three bullets could not be read (only the paper's "
          "opening is reachable); the reading above is checked exactly.",
)


DDR_P2 = Theorem(
    id="DDR-P2",
    title="Proposition 2: range-based exponential mechanism",
    family=FAMILY,
    source=cite(DDR, "Prop. 2"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Sampling y with probability ∝ exp(eps u(x,y)/Range(u)) is eps-BR, hence eps-DP.",
    domain="eps > 0, Range(u) > 0",
    claims=(
        Claim(1, "On the random utilities of DDR-P1 claim 2 (eps = j/100 in [0.1, 2]), the "
                 "realised BR parameter of every neighbouring pair is at most eps, to 5e-51 "
                 "(the pair attaining the Range attains eps). Proved by z3 (the problem of claim "
                 f"2) for each neighbouring pair on {N_OUT} outputs and every real utility with "
                 "the pair's own Range (the global Range is at least it, so the bound holds with "
                 "the global scale).",
              (Compare(_p2_br_gap, "le", _c(Fraction(5, 10**51)), UTILITIES, "oracle",
                       lhs_name="max BR - eps", rhs_name="5e-51"),
               Smt(lambda: em_br_problem("range"), "br_window(EM laws, scale eps/Range(u)) "
                   "<= eps, one pair"))),
        Claim(2, f"Universally on {UTIL_TEXT}: with scale eps/Range(u), br_eps - eps <= 1e-40 "
                 "(property search); proved by z3 for every real utility pair on "
                 f"{N_OUT} outputs with Range(u) > 0 (log-ratio form from the same formulas; the "
                 "normalisers are free reals).",
              (Compare(em_gap("range", br_window), "le", _c(_tiny(40)),
                       Box(reals=UTIL_BOX_REALS), "property", lhs_name="br_eps - eps",
                       rhs_name="1e-40"),
               Smt(lambda: em_br_problem("range"), "br_window(EM laws, scale eps/Range(u)) "
                   "<= eps"))),
    ),
    notes="Range(u) <= 2 Delta_u (DDR-P1 (ii)): at least as concentrated as the standard "
          "exponential mechanism, twice as sharp for monotone u.",
)


def _laplace_window(ctx: Any, eps0: Any, **_: Any) -> bool | None:
    """Lap(0, 1/eps0) vs Lap(1, 1/eps0) on the grid y = j/8 in [-2, 3]: every log-density ratio
    lies in [-eps0, eps0] (to 1e-40), the ends are attained at y = 0 and y = 1, so the window
    width (BR parameter) is 2 eps0 with t = eps0."""
    tol = ctx.num(_tiny(40))
    lr = [laplace_log_ratio(ctx, eps0, ctx.num(Fraction(j, 8))) for j in range(-16, 25)]
    checks = [ctx.le(ctx.abs(v), eps0 + tol) for v in lr]
    checks.append(ctx.le(ctx.abs(lr[16] - eps0), tol))       # y = 0
    checks.append(ctx.le(ctx.abs(lr[24] + eps0), tol))       # y = 1
    checks.append(ctx.le(ctx.abs(ctx.max(*lr) - ctx.min(*lr) - 2 * eps0), tol))
    if any(c is False for c in checks):
        return False
    return None if any(c is None for c in checks) else True


_LAP_BOX = Box(reals={"eps0": ("1/100", "5"), "y": ("-5", "6")})


def _lap_abs(ctx: Any, eps0: Any, y: Any, **_: Any) -> Any:
    return ctx.abs(laplace_log_ratio(ctx, eps0, y))


def _lap_at(y: int) -> Callable[..., Any]:
    def term(ctx: Any, eps0: Any, **_: Any) -> Any:
        return laplace_log_ratio(ctx, eps0, ctx.num(y))

    return term


DDR_L21_LAPLACE = Theorem(
    id="DDR-L21-LAPLACE",
    title="Laplace noise is eps-DP but 2eps-BR (Sec. 3.5 remark)",
    family=FAMILY,
    source=cite(DDR, "Sec. 3.5 (remark after Lemma 2.1)"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="Laplace(1/eps) noise on a sensitivity-1 statistic is eps-DP and 2eps-BR, with t = "
              "eps for every neighbour pair; the BR optimum is pessimistic for Laplace (use "
              "KOV/MV there).",
    domain="eps > 0",
    aliases=("DDR-L21-Laplace",),
    claims=(
        Claim(1, "For Lap(0, 1/eps) vs Lap(1, 1/eps) the log-density ratio ranges over [-eps, "
                 "eps] (checked on y = j/8 in [-2, 3], ends attained at y = 0 and 1): window "
                 "width 2 eps (t = eps), so the pair is 2eps-BR and not eps'-BR for eps' < 2 eps; "
                 "eps in {0.1, 1, 3}.",
              (Predicate(_laplace_window, grid(eps0=["0.1", "1", "3"]), "numeric",
                         "log-ratio window [-eps, eps] attained"),), scope="instance"),
        Claim(2, "Universally: |ln(f0(y)/f1(y))| <= eps for eps in [0.01, 5], y in [-5, 6] "
                 "(property search, to 1e-40), and the ends are attained, lr(0) = eps and lr(1) = "
                 "-eps (window width 2 eps, t = eps); proved by z3 for every eps > 0 and every "
                 "real y (the log-ratio from the same density formula in the sympy context).",
              (Compare(_lap_abs, "le", _plus(lambda ctx, eps0, **_: eps0, _tiny(40)), _LAP_BOX,
                       "property", lhs_name="|lr(y)|", rhs_name="eps + 1e-40"),
               Compare(_lap_at(0), "eq", lambda ctx, eps0, **_: eps0,
                       Box(reals={"eps0": ("1/100", "5")}), "property", Tol.abs("1e-40"),
                       "lr(0)", "eps"),
               Compare(_lap_at(1), "eq", lambda ctx, eps0, **_: -eps0,
                       Box(reals={"eps0": ("1/100", "5")}), "property", Tol.abs("1e-40"),
                       "lr(1)", "-eps"),
               Smt(lambda: laplace_problem("window"), "|lr(y)| <= eps for all real y"),
               Smt(lambda: laplace_problem("ends"), "lr(0) = eps, lr(1) = -eps"))),
    ),
)
