"""Universal claims of the hypothesis-DP theorems (no Theorem here): random finite instances
drawn from an integer seed and decided in exact rational arithmetic (hypothesis searches the
seed and the real parameters of a stated box), and region proofs: z3 on the views of symbolic
mechanisms built by the SAME code of :mod:`dpverify.theorems.numerics.gce` and the formulas in
the sympy context, exhaustive enumeration of a stated finite domain, or interval branch and
bound.

Facts used (each elementary): a view under a point hypothesis is a product of per-round laws
([GCE] Alg. 2); the positive part is positively homogeneous, ``(c a)_+ = c a_+`` for ``c >= 0``;
``exp`` is increasing and ``e^{a + b} = e^a e^b``.

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, arXiv 2209.13697 (version not recorded):
  Alg. 1-3, Def. 2-3, Sec. V-A (Ex. 1-3), Sec. V-B (Thm 3, Cor. 6).
- [MV] J. Murtagh, S. Vadhan, arXiv 1507.03113, Thm 1.5 (MV-OPT).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Points,
    Predicate,
    Smt,
    SmtProblem,
    Tol,
)
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.hdp_bounds import v1_delta, v3_delta
from dpverify.theorems.hypothesis_dp.instances import exp_eps, rr_mechs
from dpverify.theorems.numerics import gce
from dpverify.theorems.values import exact_params

SEED_RANGE = (0, 10**9)
SEED_BOX = Box(ints={"inst": SEED_RANGE})
Z_BOX = Box(ints={"inst": SEED_RANGE}, reals={"z": ("1", "3")})


def seeded(inst: Any) -> random.Random:
    return random.Random(int(inst))


def smt_problem(variables: Sequence[Any], hyps: Sequence[Any], goal: Any,
             note: str) -> SmtProblem:
    return SmtProblem({str(v): "real" for v in variables}, tuple(hyps), goal, (note,))


def sym_mechanism(name: str, outputs: int = 2) -> tuple[gce.Mechanism, list[Any], list[Any]]:
    """A generic finite mechanism ``(P, Q)`` on ``outputs`` points with symbolic laws (the last
    entry is ``1 -`` the others) and the hypotheses that make both laws distributions."""
    import sympy as sp

    p = sp.symbols(f"{name}p0:{outputs - 1}", real=True)
    q = sp.symbols(f"{name}q0:{outputs - 1}", real=True)
    law_p = (*p, 1 - sum(p))
    law_q = (*q, 1 - sum(q))
    hyps = [sp.Ge(v, 0) for v in (*law_p, *law_q)]
    return (law_p, law_q), [*p, *q], hyps


def _z_symbol() -> Any:
    import sympy as sp

    return sp.Symbol("z", real=True)


# ==========================================================================================
# GCE-A1, GCE-A2: Def. 2/3 read literally (all events) == two-sided hockey-stick


def _draw_mechs(inst: Any) -> tuple[gce.Mechanism, ...]:
    rng = seeded(inst)
    n = rng.randint(1, 3)
    outputs = (2, 2) if n == 3 else (2, 3)
    return tuple(gce.random_mechanism(rng, outputs) for _ in range(n))


@exact_params("inst", "z")
def _a1_test(ctx: Any, inst: Any, z: Any, **_: Any) -> bool:
    mechs = _draw_mechs(inst)
    z = Fraction(z)
    v0, v1 = gce.classic_laws(mechs, (0,) * len(mechs))
    return gce.events_delta(v0, v1, z) == gce.two_sided(v0, v1, z)


@exact_params("inst", "z")
def _a2_test(ctx: Any, inst: Any, z: Any, **_: Any) -> bool:
    mechs = _draw_mechs(inst)
    z = Fraction(z)
    n = len(mechs)
    v0, v1 = gce.classic_laws(mechs, (0,) * n)
    return (gce.hdp_delta(mechs, gce.point((0,) * n), gce.point((1,) * n), z)
            == gce.events_delta(v0, v1, z))


def a_problem(which: str, n: int, outputs: int) -> Callable[[], SmtProblem]:
    def build() -> SmtProblem:
        import sympy as sp

        ctx = SymCtx()
        z = _z_symbol()
        mechs, names, hyps = [], [], [sp.Ge(z, 0)]
        for i in range(n):
            m, v, h = sym_mechanism(f"m{i}", outputs)
            mechs.append(m)
            names += v
            hyps += h
        v0, v1 = gce.classic_laws(mechs, (0,) * n)
        events = gce.events_delta(v0, v1, z, ctx)
        if which == "A1":
            other = gce.two_sided(v0, v1, z, ctx)
        else:
            other = gce.hdp_delta(mechs, gce.point((0,) * n), gce.point((1,) * n), z, ctx)
        return smt_problem((z, *names), hyps, sp.Eq(events, other),
                        f"z = e^eps >= 0; {n} generic round(s) with {outputs} outputs")

    return build


def a1_universal(number: int) -> Claim:
    return Claim(number, "For every finite non-adaptive sequence and every eps, the least delta "
                 "of Def. 2 (both inequalities, all events) equals max(H_z(V^0||V^1), "
                 "H_z(V^1||V^0)), z = e^eps. Searched over seeded random rational mechanisms "
                 "(n <= 3 rounds, 2-3 outputs), z in [1, 3], exactly; proved by z3 for all "
                 "laws of one round on 2 outputs, all real z >= 0 (views and event maximum from "
                 "numerics.gce in the sym context); one round on 3 outputs closes in ~8 s and "
                 "two rounds on 2 outputs not within a minute, so they are not attempted here.", (
        Predicate(_a1_test, Z_BOX, "property", "event maximum == two-sided hockey-stick "
                  "(exact)"),
        Smt(a_problem("A1", 1, 2), "one round, 2 outputs: max over the 4 events == two-sided "
            "hockey-stick"),
    ))


def a2_universal(number: int) -> Claim:
    return Claim(number, "For every finite sequence and every eps, the exact HDP delta of "
                 "(point mass on 0^n, point mass on 1^n) equals the Def. 2 delta of the classic "
                 "experiment. Searched over seeded random rational mechanisms (n <= 3), z in "
                 "[1, 3], exactly; proved by z3 for all laws of one round on 2 outputs, all real "
                 "z >= 0 (larger sizes: see claim 2 of GCE-A1).", (
        Predicate(_a2_test, Z_BOX, "property", "GCE view delta of (0^n, 1^n) == classic event "
                  "maximum (exact)"),
        Smt(a_problem("A2", 1, 2), "one round, 2 outputs: HDP delta of (0, 1) == classic "
            "Def. 2 delta"),
    ))


# ==========================================================================================
# GCE-A3: Alg. 3 on random instances and on a whole finite domain


def a3_properties(h0: gce.Hypothesis, h1: gce.Hypothesis,
                  refine: gce.RefineFn = gce.refine) -> bool:
    """The three properties of Alg. 3: weights kept per vector, a perfect equal-weight
    matching, at most ``|T0| + |T1| - 1`` pairs."""
    r0, r1 = refine(h0, h1)
    for h, r in ((h0, r0), (h1, r1)):
        totals: dict[gce.Vector, Fraction] = {}
        for b, w in r:
            totals[b] = totals.get(b, Fraction(0)) + w
        if totals != {b: Fraction(w) for b, w in h}:
            return False
    return (len(r0) == len(r1) <= len(h0) + len(h1) - 1
            and all(w0 == w1 > 0 for (_, w0), (_, w1) in zip(r0, r1, strict=True)))


def _a3_seeded(refine: gce.RefineFn) -> Callable[..., bool]:
    @exact_params("inst", "n")
    def test(ctx: Any, inst: Any, n: Any, **_: Any) -> bool:
        rng = seeded(inst)
        den = rng.choice((2, 3, 7, 30, 997))
        return a3_properties(gce.random_hypothesis(rng, int(n), (1, 8), denominator=den),
                             gce.random_hypothesis(rng, int(n), (1, 8), denominator=den), refine)
    return test


def a3_domain(n: int = 2, denominator: int = 3) -> list[gce.Hypothesis]:
    """Every hypothesis over ``{0,1}^n`` with weights in ``(1/d) Z``, as an ordered list (the
    order matters to the FIFO refinement): all orderings of all supports."""
    out: list[gce.Hypothesis] = []
    vs = gce.vectors(n)
    for k in range(1, min(len(vs), denominator) + 1):
        for support in itertools.permutations(vs, k):
            for parts in itertools.product(range(1, denominator + 1), repeat=k):
                if sum(parts) == denominator:
                    out.append(tuple((b, Fraction(c, denominator))
                                     for b, c in zip(support, parts, strict=True)))
    return out


def a3_on_domain(test: Callable[..., bool], description: str) -> Predicate:
    """``test(ctx, h0=..., h1=...)`` on every ordered pair of :func:`a3_domain` (the whole
    finite domain: a proof by exhaustive enumeration there)."""
    domain = a3_domain()

    @exact_params("i", "j")
    def on_domain(ctx: Any, i: Any, j: Any, **_: Any) -> bool:
        return bool(test(ctx, h0=domain[int(i)], h1=domain[int(j)]))

    return Predicate(on_domain, _a3_domain_points(), "oracle", description)


def _a3_domain_points() -> Points:
    hs = a3_domain()
    return Points(tuple({"i": i, "j": j} for i in range(len(hs)) for j in range(len(hs))),
                  covers_domain=True)


def _a3_domain_test(refine: gce.RefineFn) -> Callable[..., bool]:
    domain = a3_domain()

    @exact_params("i", "j")
    def test(ctx: Any, i: Any, j: Any, **_: Any) -> bool:
        return a3_properties(domain[int(i)], domain[int(j)], refine)
    return test


def a3_universal(number: int, refine: gce.RefineFn = gce.refine) -> Claim:
    size = len(a3_domain())
    return Claim(number, "For every pair of finite hypotheses, Alg. 3 keeps each vector's "
                 "weight, returns a perfect equal-weight matching and at most |T0| + |T1| - 1 "
                 "pairs. Searched over seeded random pairs over {0,1}^n, n in {1..4}, supports "
                 "1..8, weight denominators 2..997; proved by exhaustive enumeration of the "
                 f"whole finite domain of ordered lists over {{0,1}}^2 with weights in "
                 f"(1/3)Z ({size} lists, {size ** 2} pairs).", (
        Predicate(_a3_seeded(refine), Box(ints={"inst": SEED_RANGE, "n": (1, 4)}), "property",
                  "weights kept, perfect equal-weight matching, <= |T0| + |T1| - 1 pairs"),
        Predicate(_a3_domain_test(refine), _a3_domain_points(), "oracle",
                  "the three properties on every pair of the finite domain (exact)"),
    ))


# ==========================================================================================
# GCE-V1, GCE-V2, GCE-V3: the formulas against brute force over the allowed pairs


def rr_list(rng: random.Random, n: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(rng.randint(2, 30), 20) for _ in range(n))


def _brute(ctx: Any, eps_list: Sequence[Fraction], pairs: Sequence[tuple[gce.Vector, ...]],
           eps: Any) -> Any:
    laws = gce.all_point_laws(rr_mechs(ctx, eps_list))
    z = exp_eps(ctx, eps)
    vals = [gce.two_sided(laws[b], laws[c], z, ctx) for b, c in pairs]
    return ctx.max(*vals) if len(vals) > 1 else vals[0]


def _v1_instance(inst: Any, m: Any) -> tuple[tuple[Fraction, ...], int]:
    rng = seeded(inst)
    n = rng.randint(max(2, int(m)), 5)
    return rr_list(rng, n), int(m)


def _v1_pairs(n: int, m: int, neighboring: str) -> list[tuple[gce.Vector, gce.Vector]]:
    vs = gce.vectors(n)
    if neighboring == "add_remove":
        return [((0,) * n, b) for b in vs if 0 < sum(b) <= m]
    at_m = [b for b in vs if sum(b) == m]
    return [(b, c) for b in at_m for c in at_m if b != c] or [(at_m[0], at_m[0])]


def _v1_sides(neighboring: str, delta_formula: Callable[..., Any] = v1_delta
              ) -> tuple[Callable[..., Any], Callable[..., Any]]:
    @exact_params("inst", "m")
    def brute(ctx: Any, inst: Any, m: Any, eps: Any, **_: Any) -> Any:
        eps_list, m = _v1_instance(inst, m)
        return _brute(ctx, eps_list, _v1_pairs(len(eps_list), m, neighboring), eps)

    @exact_params("inst", "m")
    def formula(ctx: Any, inst: Any, m: Any, eps: Any, **_: Any) -> Any:
        eps_list, m = _v1_instance(inst, m)
        return delta_formula(ctx, eps_list, m, eps, neighboring)

    return brute, formula


def _v1_fits(point: dict[str, Any]) -> bool:
    eps_list, m = _v1_instance(point["inst"], point["m"])
    return 2 * m <= len(eps_list)


def _v1_exceeds(point: dict[str, Any]) -> bool:
    return not _v1_fits(point)


def _monotone_problem(n: int) -> SmtProblem:
    """RR rounds with symbolic ``x_i = e^{eps_i}``: the exact two-sided delta of ``(0, b)`` is
    nondecreasing when a 1 is added to ``b`` (so the worst pair of ``B_m`` has ``|b| = m``)."""
    import sympy as sp

    ctx = SymCtx()
    z = _z_symbol()
    xs = sp.symbols(f"x0:{n}", real=True)
    mechs = [gce.rr_exp(x) for x in xs]
    laws = gce.all_point_laws(mechs)
    zero = (0,) * n
    goals = []
    for b in laws:
        for i in range(n):
            if b[i] == 0:
                c = tuple(1 if j == i else v for j, v in enumerate(b))
                goals.append(sp.Le(gce.two_sided(laws[zero], laws[b], z, ctx),
                                   gce.two_sided(laws[zero], laws[c], z, ctx)))
    hyps = [sp.Ge(z, 1), *(sp.Ge(x, 1) for x in xs)]
    return smt_problem((z, *xs), hyps, sp.And(*goals),
                    f"x_i = e^eps_i >= 1, z = e^eps >= 1; {n} RR rounds")


def v1_universal(number: int, delta_formula: Callable[..., Any] = v1_delta) -> Claim:
    """The universal claim of GCE-V1 for a formula ``delta(ctx, eps_list, m, eps,
    neighboring)`` (the quality tests plant wrong ones)."""
    box = {"reals": {"eps": ("0", "2")}}
    add_brute, add_formula = _v1_sides("add_remove", delta_formula)
    repl_brute, repl_formula = _v1_sides("replace_one", delta_formula)
    return Claim(number, "For every eps_list (RR mechanisms), 1 <= m <= n and eps, GCE-V1.delta "
                 "equals the brute-force maximum of the exact two-sided delta over the allowed "
                 "pairs: (0, b) with |b| <= m (add/remove) and (b, b') with |b| = |b'| = m "
                 "(replace-one, 2m <= n). When 2m > n two m-subsets differ in at most 2(n - m) "
                 "< min(2m, n) rounds, so the replace-one evaluator is then only an upper bound "
                 "(checked as <= to within 1e-30: it is attained at some eps, e.g. eps = 2, "
                 "where ball arithmetic cannot certify <= strictly). Searched over seeded "
                 "eps_list (n in {2..5}, eps_i in [0.1, 1.5]), m in {1..3}, eps in [0, 2]; the "
                 "reduction to |b| = m is proved by z3 "
                 "for 2 RR rounds (all x_i = e^eps_i >= 1, z >= 1): the exact delta of (0, b) "
                 "grows when a 1 is added to b (3 rounds: z3 unknown after a minute, not "
                 "attempted).", (
        Compare(add_brute, "eq", add_formula,
                Box(ints={"inst": SEED_RANGE, "m": (1, 3)}, **box), "property",
                Tol.abs("1e-30"), "max_{0 < |b| <= m} exact delta(0, b)",
                "GCE-V1.delta(add_remove)", part="add_remove"),
        Compare(repl_brute, "eq", repl_formula,
                Box(ints={"inst": SEED_RANGE, "m": (1, 2)}, constraint=_v1_fits, **box),
                "property", Tol.abs("1e-30"), "max_{|b| = |b'| = m} exact delta(b, b')",
                "GCE-V1.delta(replace_one), 2m <= n", part="replace_one, 2m <= n"),
        Compare(repl_brute, "le", repl_formula,
                Box(ints={"inst": SEED_RANGE, "m": (2, 3)}, constraint=_v1_exceeds, **box),
                "property", Tol.abs("1e-30"), lhs_name="max_{|b| = |b'| = m} exact delta(b, b')",
                rhs_name="GCE-V1.delta(replace_one), 2m > n", part="replace_one, 2m > n"),
        Smt(lambda: _monotone_problem(2), "2 RR rounds: delta(0, b) <= delta(0, b + e_i)",
            part="reduction to |b| = m"),
    ))


def _agree_problem(agree: int) -> SmtProblem:
    """Two generic binary-output rounds: the exact two-sided delta of a point pair whose
    vectors agree (value ``agree``) in one round equals that of the other round alone ([GCE]
    Sec. V-A: Comp runs over the differing rounds only). The agreeing round is put first for
    ``agree = 0`` and second for ``agree = 1``: the order of the rounds is a relabelling, and
    with the other orders z3 returned unknown after 20 s under three hash seeds."""
    import sympy as sp

    ctx = SymCtx()
    z = _z_symbol()
    m0, v0, h0 = sym_mechanism("a")
    m1, v1, h1 = sym_mechanism("b")
    if agree == 0:  # round 1 agrees, round 2 (m1) differs
        b0, b1, single = (agree, 0), (agree, 1), m1
    else:  # round 2 agrees, round 1 (m0) differs
        b0, b1, single = (0, agree), (1, agree), m0
    both = gce.two_sided(gce.point_law([m0, m1], b0), gce.point_law([m0, m1], b1), z, ctx)
    alone = gce.two_sided(gce.point_law([single], (0,)), gce.point_law([single], (1,)), z, ctx)
    return smt_problem((z, *v0, *v1), [sp.Ge(z, 0), *h0, *h1], sp.Eq(both, alone),
                       f"z = e^eps >= 0; two generic rounds with 2 outputs, one round fixed at "
                       f"{agree} in both vectors")


def _v2_instance(inst: Any) -> tuple[Fraction, ...]:
    rng = seeded(inst)
    return rr_list(rng, rng.randint(2, 5))


def _units(n: int) -> list[gce.Vector]:
    return [tuple(int(j == i) for j in range(n)) for i in range(n)]


def _v2_sides(neighboring: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    from dpverify.theorems.formulas.hdp_bounds import v2_delta

    @exact_params("inst")
    def brute(ctx: Any, inst: Any, eps: Any, **_: Any) -> Any:
        eps_list = _v2_instance(inst)
        n = len(eps_list)
        units = _units(n)
        pairs = ([((0,) * n, u) for u in units] if neighboring == "add_remove"
                 else [(a, b) for a in units for b in units if a != b])
        return _brute(ctx, eps_list, pairs, eps)

    @exact_params("inst")
    def formula(ctx: Any, inst: Any, eps: Any, **_: Any) -> Any:
        return v2_delta(ctx, _v2_instance(inst), eps, neighboring)

    return brute, formula


def _brute_force_checks(sides: Callable[[str], tuple[Callable[..., Any], Callable[..., Any]]],
                        evaluator: str) -> tuple[Compare, ...]:
    """``brute force == evaluator`` per neighbouring relation (one part each), over seeded
    instances and eps in [0, 2]; each relation's pair of terms is built once."""
    box = Box(ints={"inst": SEED_RANGE}, reals={"eps": ("0", "2")})
    out = []
    for nb in ("add_remove", "replace_one"):
        brute, formula = sides(nb)
        out.append(Compare(brute, "eq", formula, box, "property", Tol.abs("1e-30"),
                           f"brute-force maximum over the allowed pairs ({nb})",
                           f"{evaluator}({nb})", part=nb))
    return tuple(out)


def v2_universal(number: int) -> Claim:
    return Claim(number, "For every eps_list (RR mechanisms, n >= 2) and eps, GCE-V2.delta equals "
                 "the brute-force maximum of the exact two-sided delta over (0, e_i) "
                 "(add/remove) and over (e_i, e_j), i != j (replace-one). Searched over seeded "
                 "eps_list (n in {2..5}, eps_i in [0.1, 1.5]), eps in [0, 2]; the reduction to "
                 "the differing rounds is proved by z3 for two generic binary-output rounds "
                 "(all laws, all z = e^eps >= 0): a round where both vectors are 0 drops out.", (
        *_brute_force_checks(_v2_sides, "GCE-V2.delta"),
        Smt(lambda: _agree_problem(0), "delta((0, 0), (0, 1)) == delta of round 2 alone",
            part="a round where both vectors agree drops out"),
    ))


def _v3_instance(inst: Any) -> tuple[tuple[Fraction, ...], ...]:
    rng = seeded(inst)
    return (rr_list(rng, rng.randint(0, 2)), rr_list(rng, rng.randint(1, 2)),
            rr_list(rng, rng.randint(1, 2)))


def _v3_sides(neighboring: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    @exact_params("inst")
    def brute(ctx: Any, inst: Any, eps: Any, **_: Any) -> Any:
        c, a, p = _v3_instance(inst)
        n = len(c) + len(a) + len(p)
        zero = (0,) * n
        ca = tuple(int(i < len(c) + len(a)) for i in range(n))
        cp = tuple(int(i < len(c) or i >= len(c) + len(a)) for i in range(n))
        pairs = [(zero, ca), (zero, cp)] + ([(ca, cp)] if neighboring == "replace_one" else [])
        return _brute(ctx, c + a + p, pairs, eps)

    @exact_params("inst")
    def formula(ctx: Any, inst: Any, eps: Any, **_: Any) -> Any:
        return v3_delta(ctx, *_v3_instance(inst), eps, neighboring)

    return brute, formula


def v3_universal(number: int) -> Claim:
    return Claim(number, "For all eps lists of C, A, P (RR mechanisms) and eps, GCE-V3.delta "
                 "equals the brute-force maximum of the exact two-sided delta over (0, 1_{C∪A}), "
                 "(0, 1_{C∪P}) and, for replace-one, (1_{C∪A}, 1_{C∪P}). Searched over seeded "
                 "|C| in {0..2}, |A|, |P| in {1, 2}, eps_i in [0.1, 1.5], eps in [0, 2]; the "
                 "reduction to the differing rounds A ∪ P is proved by z3 for two generic "
                 "binary-output rounds (all laws, all z >= 0): a common round (both vectors 1) "
                 "drops out.", (
        *_brute_force_checks(_v3_sides, "GCE-V3.delta"),
        Smt(lambda: _agree_problem(1), "delta((0, 1), (1, 1)) == delta of round 1 alone",
            part="a common round drops out"),
    ))
