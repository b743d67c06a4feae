"""DEF-DP and BLOG-DEF: the definition of (eps, delta)-DP as a hockey-stick divergence, and the
blog's misstated ratio form.

Main results
------------
- DEF-DP: the hockey-stick form of (eps, delta)-DP, checked against the maximum over all
  events; the shape of ``z -> H_z(P||Q)`` and the group-of-two step, by exact rational search;
  the witness ``M(x) = |x|`` that replace-one DP does not imply add/remove DP.
- BLOG-DEF: the blog's ratio-form "definition" is sufficient but not equivalent (refuted by the
  name-and-shame mechanism), and ``delta`` is not the probability that pure DP fails.

Exact rational instances: where a claim is an exact identity or a tight inequality between
rational quantities (the shape of the hockey-stick curve in ``z = e^eps``), the terms draw the
instance from an integer seed and decide it in exact :class:`~fractions.Fraction` arithmetic, so
ties are decided rather than left undecided by ball arithmetic.

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, *On the Choice of Databases in Differential
  Privacy Composition*, arXiv 2209.13697 (version not recorded), Def. 1.
- [DDR] J. Dong, D. Durfee, R. Rogers, arXiv 1909.13830 (version not recorded), Def. 2.1.
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 2–3.
- [BW18] B. Balle, Y.-X. Wang, arXiv 1805.06530v2, Thm 8 (exact Gaussian profile).
- [SmithLN] A. Smith, lecture notes (no arXiv): Eq. 8, Ex. 3.3 (name-and-shame).
- [Blog] the introductory blog post on the Laplace, Gaussian and exponential mechanisms (no
  arXiv).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Points,
    Predicate,
    Smt,
    SmtProblem,
    grid,
)
from dpverify.theorems.core import Theorem
from dpverify.theorems.formulas.gaussian import gauss_delta, gauss_delta_pld_quad, gauss_tail
from dpverify.theorems.formulas.hockey_stick_exact import hockey_stick_exact
from dpverify.theorems.formulas.name_and_shame import name_shame_pair, name_shame_profile
from dpverify.theorems.foundations.region_smt import (
    group_two_problem,
    hs_curve_problem,
    hs_events_problem,
    ns_converse_problem,
    size_witness_problem,
)
from dpverify.theorems.foundations.terms import BAYES_EPS_GRID, FAMILY, TINY, nums, seeded
from dpverify.theorems.numerics.finite import (
    hockey_stick,
    hockey_stick_events,
    random_distribution,
    random_pair,
)
from dpverify.theorems.refs import BLOG, GCE, cite

# ==========================================================================================
# DEF-DP


def _def_dp_pair(inst: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """A random pair with full supports, drawn from an integer seed (property route)."""
    return random_pair(seeded(inst))


def _def_dp_convex(ctx: Any, inst: int, a: int, b: int, t: int, **_: Any) -> bool:
    """``H(t z1 + (1-t) z2) <= t H(z1) + (1-t) H(z2)`` with ``z = a/100``, ``t = t/64``."""
    p, q = _def_dp_pair(inst)
    z1, z2, w = Fraction(a, 100), Fraction(b, 100), Fraction(t, 64)
    return (hockey_stick_exact(p, q, w * z1 + (1 - w) * z2)
            <= w * hockey_stick_exact(p, q, z1) + (1 - w) * hockey_stick_exact(p, q, z2))


def _def_dp_breakpoints(p: Sequence[Fraction], q: Sequence[Fraction]) -> list[Fraction]:
    return sorted({Fraction(0)} | {pi / qi for pi, qi in zip(p, q, strict=True)})


def _def_dp_linear_pieces(ctx: Any, inst: int, a: int, b: int, t: int, j: int,
                          **_: Any) -> bool:
    """Between consecutive breakpoints ``P(y)/Q(y)`` the curve is affine (exactly)."""
    p, q = _def_dp_pair(inst)
    br = _def_dp_breakpoints(p, q)
    br.append(br[-1] + 1)
    k = j % (len(br) - 1)
    lo, hi = br[k], br[k + 1]
    z1 = lo + (hi - lo) * Fraction(a % 65, 64)
    z2 = lo + (hi - lo) * Fraction(b % 65, 64)
    w = Fraction(t, 64)
    return (hockey_stick_exact(p, q, w * z1 + (1 - w) * z2)
            == w * hockey_stick_exact(p, q, z1) + (1 - w) * hockey_stick_exact(p, q, z2))


def _def_dp_nonincreasing(ctx: Any, inst: int, a: int, b: int, **_: Any) -> bool:
    p, q = _def_dp_pair(inst)
    z = Fraction(a, 100)
    return hockey_stick_exact(p, q, z + Fraction(b, 100)) <= hockey_stick_exact(p, q, z)


def _def_dp_ends(ctx: Any, inst: int, a: int, **_: Any) -> bool:
    """``H(0) = 1`` and ``H(z) = 0`` for ``z >= max_y P(y)/Q(y)``."""
    p, q = _def_dp_pair(inst)
    top = max(pi / qi for pi, qi in zip(p, q, strict=True))
    return (hockey_stick_exact(p, q, Fraction(0)) == 1
            and hockey_stick_exact(p, q, top + Fraction(a, 100)) == 0)


def _def_dp_chain(inst: int) -> tuple[tuple[Fraction, ...], ...]:
    """A chain ``P0, P1, P2``: each step mixes in a random distribution with a random weight."""
    rng = seeded(inst)
    n = rng.randint(2, 6)
    chain = [random_distribution(rng, n, allow_zero=rng.random() < 0.2)]
    for _ in range(2):
        w = Fraction(rng.randint(1, 100), 100)
        r = random_distribution(rng, n, allow_zero=rng.random() < 0.2)
        chain.append(tuple((1 - w) * a + w * b for a, b in zip(chain[-1], r, strict=True)))
    return tuple(chain)


def _def_dp_group_lhs(ctx: Any, inst: int, eps: Any, **_: Any) -> Any:
    p0, _p1, p2 = (nums(ctx, d) for d in _def_dp_chain(inst))
    return hockey_stick(ctx, p0, p2, 2 * eps)


def _def_dp_group_rhs(ctx: Any, inst: int, eps: Any, **_: Any) -> Any:
    """``(1 + e^eps) delta`` with delta the least value making both steps (eps, delta)-close
    in both orders."""
    p0, p1, p2 = (nums(ctx, d) for d in _def_dp_chain(inst))
    delta = ctx.max(hockey_stick(ctx, p0, p1, eps), hockey_stick(ctx, p1, p0, eps),
                    hockey_stick(ctx, p1, p2, eps), hockey_stick(ctx, p2, p1, eps))
    return (1 + ctx.exp(eps)) * delta


def _draw_pair_eps(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng, allow_zero=rng.random() < 0.3)
    return {"p": p, "q": q, "eps": Fraction(rng.randint(-2000, 6000), 1000)}


def _point_mass(ctx: Any, at: int, size: int) -> tuple[Any, ...]:
    return tuple(ctx.one if y == at else ctx.zero for y in range(size))


_SIZE_OUTPUTS = 8  # M(x) = |x| takes values in {0..7} for the datasets drawn below


def _draw_size_datasets(rng: random.Random) -> dict[str, Any]:
    """A dataset over a 3-letter universe, a replace-one and an add/remove neighbour."""
    n = rng.randint(1, _SIZE_OUTPUTS - 2)
    x = tuple(rng.randrange(3) for _ in range(n))
    j = rng.randrange(n)
    x_rep = (*x[:j], (x[j] + rng.randint(1, 2)) % 3, *x[j + 1:])
    x_add = (*x, rng.randrange(3))
    return {"x": x, "x_rep": x_rep, "x_add": x_add,
            "eps": Fraction(rng.randint(-5000, 50000), 1000)}


def _draw_size_datasets_nonneg(rng: random.Random) -> dict[str, Any]:
    point = _draw_size_datasets(rng)
    point["eps"] = abs(point["eps"])
    return point


def _size_profile(ctx: Any, x: Sequence[int], y: Sequence[int], eps: Any) -> Any:
    """Both-order hockey-stick profile of ``M(x) = |x|`` (a point mass) on the pair (x, y)."""
    p = _point_mass(ctx, len(x), _SIZE_OUTPUTS)
    q = _point_mass(ctx, len(y), _SIZE_OUTPUTS)
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def _size_addremove_min(ctx: Any, x: Sequence[int], x_add: Sequence[int], eps: Any,
                        **_: Any) -> Any:
    p = _point_mass(ctx, len(x), _SIZE_OUTPUTS)
    q = _point_mass(ctx, len(x_add), _SIZE_OUTPUTS)
    return ctx.min(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def _def_dp_claims() -> tuple[Claim, ...]:
    f = Fraction
    example = Points(({"p": (f(4, 10), f(3, 10), f(2, 10), f(1, 10)),
                       "q": (f(1, 10), f(2, 10), f(3, 10), f(4, 10)), "eps": "0.3"},))
    shape_box = Box(ints={"inst": (0, 10**9), "a": (0, 3000), "b": (0, 3000), "t": (0, 64),
                          "j": (0, 12)})
    return (
        Claim(1, "For finite outputs, sum_y max(P(y) - e^eps Q(y), 0) equals the maximum of "
                 "P(S) - e^eps Q(S) over all 2^|Y| events (example P = (0.4, 0.3, 0.2, 0.1), "
                 "Q = (0.1, 0.2, 0.3, 0.4), eps = 0.3; then random pairs). Proved by z3 for all "
                 "laws on at most 3 points and every real eps (z = e^eps > 0), from "
                 "hockey_stick and hockey_stick_events in the sym context.", (
            Compare(hockey_stick, "eq", hockey_stick_events, example, "oracle", TINY,
                    "sum_y (P - e^eps Q)_+", "max over all events"),
            Compare(hockey_stick, "eq", hockey_stick_events,
                    Generated(_draw_pair_eps, 500, "random pairs on 2..6 points (some zeros), "
                                                   "eps in [-2, 6]"),
                    "oracle", TINY, "sum_y (P - e^eps Q)_+", "max over all events"),
            Smt(hs_events_problem(3), "sum_y (P - z Q)_+ == max over all 8 events, all laws on "
                "3 points (zeros allowed, so also 1..2 points), all z > 0 (4 points: 1.5-3.4 s)"),
        )),
        Claim(2, "As a function of z = e^eps >= 0, sum_y max(P(y) - z Q(y), 0) is convex, "
                 "piecewise linear and nonincreasing; it equals 1 at z = 0 and 0 for "
                 "z >= max_y P(y)/Q(y). Searched over seeded rational pairs on 2..6 points; "
                 "proved by z3 from hockey_stick in the sym context (e^eps -> w >= 0): "
                 "nonincreasing and the two ends for all laws on at most 3 points, convex and "
                 "affine between consecutive breakpoints for all laws on 2 points (3 points: "
                 "z3 unknown after 20 s).", (
            Predicate(_def_dp_convex, shape_box, "property",
                      "H(t z1 + (1-t) z2) <= t H(z1) + (1-t) H(z2) (exact rationals)"),
            Predicate(_def_dp_linear_pieces, shape_box, "property",
                      "affine between consecutive breakpoints P(y)/Q(y) (exact rationals)"),
            Predicate(_def_dp_nonincreasing, shape_box, "property",
                      "H(z + h) <= H(z) for h >= 0 (exact rationals)"),
            Predicate(_def_dp_ends, shape_box, "property",
                      "H(0) = 1 and H(z) = 0 for z >= max P/Q (exact rationals)"),
            Smt(hs_curve_problem(3, "nonincreasing"), "w1 <= w2 implies H(w2) <= H(w1), all "
                "laws on 3 points"),
            Smt(hs_curve_problem(3, "ends"), "H(0) = 1, and H(w) = 0 when P <= w Q pointwise, "
                "all laws on 3 points"),
            Smt(hs_curve_problem(2, "convex"), "(w2 - w1) H(w) <= (w2 - w) H(w1) + (w - w1) "
                "H(w2) for w1 <= w <= w2, all laws on 2 points"),
            Smt(hs_curve_problem(2, "affine"), "equality in the chord inequality when no "
                "breakpoint P(y)/Q(y) lies strictly between w1 and w2, all laws on 2 points"),
        )),
        Claim(3, "Group-of-two step: for random finite chains P0, P1, P2 in which each "
                 "consecutive pair is (eps, delta)-indistinguishable in both orders, "
                 "H_{e^{2eps}}(P0||P2) <= (1 + e^eps) delta. Searched over seeded chains on "
                 "2..6 points, eps in [0, 3]; proved by z3 for all chains on at most 3 points, "
                 "every delta and every eps >= 0 (x = e^eps >= 1), from hockey_stick in the sym "
                 "context.", (
            Compare(_def_dp_group_lhs, "le", _def_dp_group_rhs,
                    Box(ints={"inst": (0, 10**9)}, reals={"eps": ("0", "3")}), "property",
                    lhs_name="H_{e^{2eps}}(P0||P2)",
                    rhs_name="(1 + e^eps) max_steps,orders H_{e^eps}"),
            Smt(group_two_problem(3), "both-order H_x <= d on both steps implies H_{x^2}(P0||P2) "
                "<= (1 + x) d, all chains on 3 points, x >= 1"),
        )),
        Claim(4, "Witness that replace-one DP does not imply add/remove DP: M(x) = |x| has "
                 "profile 0 for replace-one pairs and H_{e^eps} = 1 for every eps on an "
                 "add/remove pair. Proved by z3 for every dataset of at most 6 records (the "
                 "sizes the instances draw; M depends on the size only) and every eps (z = e^eps "
                 "> 0; replace-one for eps >= 0), from the same profile terms in the sym "
                 "context.", (
            Compare(lambda ctx, x, x_rep, eps, **_: _size_profile(ctx, x, x_rep, eps), "eq",
                    lambda ctx, **_: ctx.zero,
                    Generated(_draw_size_datasets_nonneg, 300,
                              "datasets over a 3-letter universe with a replaced record, "
                              "eps in [0, 50]"),
                    "oracle", None, "max(H(M(x)||M(x')), H(M(x')||M(x)))", "0"),
            Compare(_size_addremove_min, "eq", lambda ctx, **_: ctx.one,
                    Generated(_draw_size_datasets, 300,
                              "datasets over a 3-letter universe with an added record, "
                              "eps in [-5, 50]"),
                    "oracle", None, "min over both orders of H_{e^eps}", "1"),
            Smt(size_witness_problem(_size_profile, _size_addremove_min, 6),
                "replace-one profile 0 (z >= 1) and add/remove min-order H_z = 1 (z > 0), "
                "sizes 0..6"),
        )),
    )


DEF_DP = Theorem(
    id="DEF-DP",
    title="(eps, delta)-differential privacy, hockey-stick divergence, privacy profile",
    family=FAMILY,
    source=cite(GCE, "Def. 1; [DDR] arXiv 1909.13830 Def. 2.1; [S22] arXiv 2210.00597v4 "
                     "Secs. 2–3"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "M is (eps, delta)-DP iff P[M(x) in S] <= e^eps P[M(x') in S] + delta for all neighbours "
        "x ~ x' and events S; equivalently delta >= max_{x~x'} H_{e^eps}(M(x)||M(x')) with "
        "H_{e^eps}(P||Q) = sup_S P(S) - e^eps Q(S) = sum_y max(P(y) - e^eps Q(y), 0). Privacy "
        "profile delta_M(eps) = sup over both orders of every neighbouring pair. Under "
        "replacement, eps-DP w.r.t. add/remove implies 2eps-DP and (eps, delta) implies "
        "(2eps, (1 + e^eps) delta); the converse fails (M(x) = |x|)."
    ),
    domain="eps real (guarantees for eps >= 0), delta in [0, 1]; one neighbouring relation",
    claims=_def_dp_claims(),
    notes="[GCE] says unbounded DP for add/remove and bounded DP for replace-one. The blog "
          "misstates the definition (BLOG-DEF).",
)


# ==========================================================================================
# BLOG-DEF


def _blog_def_problem() -> SmtProblem:
    import sympy as sp

    x, d, p, q = sp.symbols("x d p q", real=True)
    return SmtProblem(
        variables={"x": "real", "d": "real", "p": "real", "q": "real"},
        hypotheses=(sp.Ge(x, 1), sp.Ge(d, 0), sp.Lt(d, 1), sp.Ge(q, 0), sp.Le(q, 1),
                    sp.Ge(p, 0), sp.Le(p, 1), sp.Le(p, (x + d) * q)),
        goal=sp.Le(p, x * q + d),
        substitutions=("x = e^eps (eps >= 0)", "d = delta", "p = P[F(x) in S]",
                       "q = P[F(x') in S]; the ratio form p/q <= x + d written as p <= (x+d) q"),
    )


def _draw_delta0_exact(rng: random.Random) -> dict[str, Any]:
    """delta0 = dn/10^6 as integers, so that the checks below run in exact arithmetic."""
    return {"dn": rng.randint(1, 10**6 - 1), "dd": 10**6}


def _ns_pair_exact(dn: int, dd: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    d = Fraction(dn, dd)
    return (d, Fraction(0), 1 - d), (Fraction(0), d, 1 - d)


def _ns_is_zero_delta_dp(ctx: Any, dn: int, dd: int, **_: Any) -> bool:
    """NS is (0, delta0)-DP: the both-order H_1 (eps = 0, z = 1) is <= delta0, exactly."""
    p, q = _ns_pair_exact(dn, dd)
    both_orders = max(hockey_stick_exact(p, q, Fraction(1)), hockey_stick_exact(q, p, Fraction(1)))
    return both_orders <= Fraction(dn, dd)


def _ratio_form_fails(ctx: Any, dn: int, dd: int, **_: Any) -> bool | None:
    """At every eps of a grid, the output (i, 1) has P = delta0 > (e^eps + delta0) Q = 0."""
    p, q = (nums(ctx, d) for d in _ns_pair_exact(dn, dd))
    delta0 = ctx.num(Fraction(dn, dd))
    out = [ctx.lt((ctx.exp(ctx.num(e)) + delta0) * q[0], p[0]) for e in BAYES_EPS_GRID]
    if False in out:
        return False
    return None if None in out else True


def _ratio_form_excess(ctx: Any, delta0: Any, eps: Any, **_: Any) -> Any:
    """``max_S P(S) - (e^eps + delta_M(eps)) Q(S)`` for NS, with delta_M its exact profile (so
    NS is (eps, delta_M)-DP): positive iff the ratio form fails."""
    p, q = name_shame_pair(ctx, delta0)
    delta_m = name_shame_profile(ctx, delta0, eps)
    z = ctx.exp(eps) + delta_m
    best = ctx.zero
    for mask in range(1, 2 ** len(p)):
        members = [y for y in range(len(p)) if mask >> y & 1]
        best = ctx.max(best, ctx.fsum(p[y] for y in members)
                       - z * ctx.fsum(q[y] for y in members))
    return best


BLOG_DEF = Theorem(
    id="BLOG-DEF",
    title="Errata of the introductory blog (misstated definition)",
    family=FAMILY,
    source=cite(BLOG, "definition of (eps, delta)-DP as a ratio bound"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "The blog writes (eps, delta)-DP as Pr[F(x)=S]/Pr[F(x')=S] <= e^eps + delta; the "
        "definition is P[F(x) in S] <= e^eps P[F(x') in S] + delta (DEF-DP). Its reading 'with "
        "probability 1 - delta pure DP holds' is only a sufficient-condition heuristic."
    ),
    domain="eps >= 0, delta in [0, 1)",
    claims=(
        Claim(1, "The ratio form implies the definition, because (e^eps + delta) Q(S) <= "
                 "e^eps Q(S) + delta for Q(S) in [0, 1] (derived).", (
            Smt(_blog_def_problem,
                "p <= (x + d) q, x >= 1, 0 <= d < 1, 0 <= p, q <= 1 imply p <= x q + d"),
        )),
        Claim(2, "The converse fails: NS_delta (SMITH-NAME-SHAME) is (0, delta)-DP but has an "
                 "output whose probability ratio is delta/0 = infinity (derived). Proved by z3 "
                 "for every delta0 in (0, 1) and every eps >= 0 from name_shame_pair in the sym "
                 "context.", (
            Predicate(_ns_is_zero_delta_dp,
                      Generated(_draw_delta0_exact, 300, "delta0 = dn/10^6 in (0, 1)"),
                      "oracle", "both-order H_1(NS) <= delta0 (exact rationals)"),
            Predicate(_ratio_form_fails,
                      Generated(_draw_delta0_exact, 300, "delta0 = dn/10^6 in (0, 1)"),
                      "oracle", "P((i,1)) = delta0 > (e^eps + delta0) Q((i,1)) = 0 at eps in "
                                "{0, 1, 10, 1000}"),
            Smt(ns_converse_problem, "both-order H_1(NS) <= d and P(y) = d > (x + d) Q(y) = 0, "
                "all d in (0, 1), x = e^eps >= 1"),
        )),
        Claim(3, "For the Gaussian mechanism, E[(1 - e^{eps-Z})_+] < P[Z > eps] strictly (e.g. "
                 "sigma = 1, eps = 1), so delta is not the probability that pure DP fails. "
                 "Proved by interval branch and bound over sigma in [0.05, 100], eps in [0, 50] "
                 "(BW closed form against the Gaussian tail).", (
            Compare(gauss_delta, "lt", gauss_tail,
                    grid(sigma=["1", "0.5", "3"], eps=["0", "1", "4"]), "numeric",
                    lhs_name="E[(1 - e^{eps - Z})_+] (BW closed form)",
                    rhs_name="P[Z > eps]"),
            Compare(gauss_delta, "lt", gauss_tail,
                    Box(reals={"sigma": ("0.05", "100"), "eps": ("0", "50")},
                        log_scale=frozenset({"sigma"})), "interval",
                    lhs_name="E[(1 - e^{eps - Z})_+] (BW closed form)",
                    rhs_name="P[Z > eps]"),
            Compare(gauss_delta_pld_quad, "lt", gauss_tail,
                    Points(({"sigma": "1", "eps": "1"},)), "numeric",
                    lhs_name="E[(1 - e^{eps - Z})_+] (quadrature)", rhs_name="P[Z > eps]",
                    ctx="mp"),
        )),
        Claim(4, "Erratum of the blog: its ratio form is equivalent to (eps, delta)-DP, i.e. "
                 "every (eps, delta)-DP mechanism satisfies P[F(x) in S] <= (e^eps + delta) "
                 "P[F(x') in S] for all S. Refuted by name-and-shame.", (
            Compare(_ratio_form_excess, "le", lambda ctx, **_: ctx.zero,
                    Box(reals={"delta0": ("1e-6", "0.5"), "eps": ("0", "10")},
                        log_scale=frozenset({"delta0"})),
                    "property",
                    lhs_name="max_S P(S) - (e^eps + delta_M(eps)) Q(S) for NS_delta0",
                    rhs_name="0"),
        ), expected="refuted"),
    ),
    notes="The blog's other errata are in DR-CLASSIC-GAUSS (claim 7) and PAR; its Laplace "
          "mechanism (BLOG-LAP) and post-processing (SMITH-POST) are correct.",
)
