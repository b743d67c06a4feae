"""Amplification of (eps, delta)-DP: BBG-T8 (Poisson subsampling), BBG-T9 (sampling without
replacement) and BBG-T10 (with replacement), with exact finite witnesses and advanced joint
convexity ([BBG] Thm 2) as an identity on random triples.

Formulas: :mod:`dpverify.theorems.formulas.amplification`.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import replace
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
    Tol,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.amplification import amp_delta, amp_eps
from dpverify.theorems.formulas.subsampled_gaussian import sgm1_add, sgm1_add_quad
from dpverify.theorems.numerics.finite import (
    hockey_stick,
    max_log_ratio,
    random_distribution,
    random_pair,
    randomized_response,
)
from dpverify.theorems.params import DELTA0, EPS0, Q
from dpverify.theorems.refs import BBG, cite
from dpverify.theorems.subsampling.common import (
    FAMILY,
    SGM_GRID,
    both_orders,
    leak_pair,
    mixture,
    sub_rr_pair,
)
from dpverify.theorems.subsampling.universal import (
    SMALL,
    SMALL_BOX,
    bbg9_universal,
    bbg10_universal,
    binomial_holds,
    eta_holds,
)
from dpverify.theorems.values import exact_params

_PROFILE_BOX = Box(reals={"q": ("0.001", "0.999"), "eps": ("0.01", "3")},
                   ints={"seed": (0, 10**6)}, log_scale=frozenset({"q"}))


def ajc_lhs(ctx: Any, q0: Any, q1: Any, q1p: Any, eta: Any, eps: Any, **_: Any) -> Any:
    return hockey_stick(ctx, mixture(eta, q0, q1), mixture(eta, q0, q1p),
                        amp_eps(ctx, eps, eta))


def ajc_rhs(ctx: Any, q0: Any, q1: Any, q1p: Any, eta: Any, eps: Any, **_: Any) -> Any:
    beta = ctx.exp(amp_eps(ctx, eps, eta) - eps)
    return eta * hockey_stick(ctx, q1, mixture(beta, q0, q1p), eps)


def profile_add_of(ctx: Any, a: Any, b: Any, q: Any, eps: Any) -> Any:
    return hockey_stick(ctx, mixture(q, a, b), a, amp_eps(ctx, eps, q))


def profile_add_rhs_of(ctx: Any, a: Any, b: Any, q: Any, eps: Any) -> Any:
    return q * hockey_stick(ctx, b, a, eps)


def profile_remove_of(ctx: Any, a: Any, b: Any, q: Any, eps: Any) -> Any:
    return hockey_stick(ctx, a, mixture(q, a, b), amp_eps(ctx, eps, q))


def profile_rhs_of(ctx: Any, a: Any, b: Any, q: Any, eps: Any) -> Any:
    return q * both_orders(ctx, b, a, eps)


def profile_problem(part: str, outputs: int = 2) -> SmtProblem:
    """BBG-T8 claim 6 for every pair of distributions on ``outputs`` outputs, q in (0, 1) and
    eps >= 0: ``part = "add"`` the identity H_{e^eps'}(mix||Q0) = q H_{e^eps}(Q1||Q0),
    ``"remove"`` the bound H_{e^eps'}(Q0||mix) <= q max over orders of H_{e^eps}(Q1, Q0); all
    sides from the formula bodies in SymCtx, x = e^eps."""
    import sympy as sp

    from dpverify.theorems.symbolic import exp_as_powers

    ctx = SymCtx()
    a = list(sp.symbols(" ".join(f"a{i}" for i in range(1, outputs + 1)), nonnegative=True))
    b = list(sp.symbols(" ".join(f"b{i}" for i in range(1, outputs + 1)), nonnegative=True))
    q, eps, x = sp.symbols("q eps x", positive=True)
    lhs_f, rhs_f = ((profile_add_of, profile_add_rhs_of) if part == "add"
                    else (profile_remove_of, profile_rhs_of))
    lhs, rhs = (exp_as_powers(f(ctx, a, b, q, eps), eps, x) for f in (lhs_f, rhs_f))
    goal = sp.Eq(lhs, rhs) if part == "add" else sp.Le(lhs, rhs)
    hyps = (sp.Eq(sum(a), 1), sp.Eq(sum(b), 1), sp.Gt(q, 0), sp.Lt(q, 1), sp.Ge(x, 1))
    return SmtProblem({str(v): "real" for v in (*a, *b)} | {"q": "real", "x": "real"}, hyps,
                      goal, ("x = e^eps >= 1", "e^{log(1 + q(x - 1))} = 1 + q(x - 1)",
                             f"{outputs} outputs"))


AJC_SMT_OUTPUTS = 3


def ajc_problem(outputs: int = AJC_SMT_OUTPUTS) -> SmtProblem:
    """Advanced joint convexity for every triple of distributions on ``outputs`` outputs, eta
    in (0, 1] and eps >= 0: both hockey-stick sides from the formula bodies in SymCtx (positive
    parts as Max), e^eps written as x >= 1."""
    import sympy as sp

    from dpverify.theorems.symbolic import exp_as_powers

    ctx = SymCtx()
    names = ("a", "b", "c")  # Q0, Q1, Q1'
    dists = [list(sp.symbols(" ".join(f"{n}{i}" for i in range(1, outputs + 1)),
                             nonnegative=True)) for n in names]
    eta, eps = sp.symbols("eta eps", positive=True)
    x = sp.Symbol("x", positive=True)
    sides = [exp_as_powers(f(ctx, *dists, eta, eps), eps, x) for f in (ajc_lhs, ajc_rhs)]
    hyps = [sp.Eq(sum(d), 1) for d in dists] + [sp.Gt(eta, 0), sp.Le(eta, 1), sp.Ge(x, 1)]
    return SmtProblem({str(v): "real" for d in dists for v in d} | {"eta": "real", "x": "real"},
                      tuple(hyps), sp.Eq(*sides),
                      ("x = e^eps >= 1", "e^{log(1 + eta(x - 1))} = 1 + eta(x - 1)",
                       f"{outputs} outputs"))


def _bbg8_claims() -> tuple[Claim, ...]:
    configs = Points(({"eps0": "1", "delta0": "1e-3", "q": "0.1"},
                      {"eps0": "0.3", "delta0": "1e-6", "q": "0.01"},
                      {"eps0": "4", "delta0": "0.05", "q": "0.5"}))
    pure = Points(({"eps0": "1", "q": "0.1"}, {"eps0": "0.3", "q": "0.01"},
                   {"eps0": "4", "q": "0.5"}))

    def sub_rr_eps(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
        p, q0 = sub_rr_pair(ctx, eps0, q)
        return max_log_ratio(ctx, p, q0)

    def leak_dp(ctx: Any, eps0: Any, delta0: Any, **_: Any) -> Any:
        pin, pout = leak_pair(ctx, eps0, delta0)
        return both_orders(ctx, pin, pout, eps0)

    def leak_sub(ctx: Any, eps0: Any, delta0: Any, q: Any, **_: Any) -> Any:
        pin, pout = leak_pair(ctx, eps0, delta0)
        return both_orders(ctx, mixture(q, pout, pin), pout, amp_eps(ctx, eps0, q))

    def max_ratio(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
        p, q0 = sub_rr_pair(ctx, eps0, q)
        return ctx.max(*(a / b for a, b in zip(p, q0, strict=True)))

    def below_eps(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
        p, q0 = sub_rr_pair(ctx, eps0, q)
        return both_orders(ctx, p, q0, amp_eps(ctx, eps0, q) - ctx.num("1e-6"))

    def draw_triple(rng: random.Random) -> dict[str, Any]:
        return {"q0": random_distribution(rng, 6), "q1": random_distribution(rng, 6),
                "q1p": random_distribution(rng, 6), "eta": Fraction(rng.randint(1, 1000), 1000),
                "eps": Fraction(rng.randint(0, 2000), 1000)}

    def seeded(part: Any) -> Any:
        def term(ctx: Any, seed: int, q: Any, eps: Any, **_: Any) -> Any:
            a, b = random_pair(random.Random(seed))
            return part(ctx, ctx.convert(a), ctx.convert(b), q, eps)
        return term

    profile_add, profile_add_rhs = seeded(profile_add_of), seeded(profile_add_rhs_of)
    profile_remove, profile_rhs = seeded(profile_remove_of), seeded(profile_rhs_of)

    return (
        Claim(1, "Tightness of eps, pure RR base at q = 1/2, eps0 = 0.6: the exact eps of "
                 "((RR(0) + RR(1))/2, RR(0)) is ln(1 + (e^eps0 - 1)/2).",
              (Compare(sub_rr_eps, "eq", lambda ctx, eps0, q, **_: amp_eps(ctx, eps0, q),
                       Points(({"eps0": "0.6", "q": "1/2"},)), "oracle", Tol.abs("1e-45"),
                       "exact eps of the subsampled RR pair", "BBG-T8.eps"),), scope="instance"),
        Claim(2, "Tightness of delta: the LEAK base is (eps0, delta0)-DP and the exact delta of "
                 "((1-q) Pout + q Pin, Pout), both orders, at eps' equals q delta0 (three "
                 "configurations).",
              (Compare(leak_dp, "eq", lambda ctx, delta0, **_: delta0, configs, "oracle",
                       Tol.abs("1e-45"), "max_orders H_{e^eps0}(Pin, Pout)", "delta0"),
               Compare(leak_sub, "eq", lambda ctx, delta0, q, **_: amp_delta(ctx, delta0, q),
                       configs, "oracle", Tol.abs("1e-45"),
                       "exact delta of the subsampled LEAK pair at eps'", "BBG-T8.delta")),
              scope="instance"),
        Claim(3, "Tightness of eps, pure base: the likelihood ratio of subsampled RR equals "
                 "e^{eps'} and the exact delta at eps' - 1e-6 is > 0 (three configurations).",
              (Compare(max_ratio, "eq", lambda ctx, eps0, q, **_: ctx.exp(amp_eps(ctx, eps0, q)),
                       pure, "oracle", Tol.abs("1e-45"), "max likelihood ratio", "e^{eps'}"),
               Compare(below_eps, "gt", lambda ctx, **_: ctx.zero, pure, "oracle",
                       lhs_name="exact delta at eps' - 1e-6", rhs_name="0")), scope="instance"),
        Claim(4, "Poisson-subsampled Gaussian, add direction: the hockey-stick quadrature of "
                 "(mix || N0) equals q * BW-ANALYTIC-GAUSS.delta(sigma, log(1 + (e^eps - 1)/q)) "
                 "to 1e-35.",
              (Compare(sgm1_add_quad, "eq", sgm1_add, SGM_GRID, "numeric", Tol.abs("1e-35"),
                       "quadrature of H(mix||N0)", "q delta_G(log(1 + (e^eps - 1)/q))"),),
              scope="instance"),
        Claim(5, "Advanced joint convexity ([BBG] Thm 2) is an identity on random triples "
                 "(Q0, Q1, Q1') with 6 outputs, eta in (0, 1], eps in [0, 2]. Proved by z3 for "
                 "every triple of distributions on 3 outputs, every eta in (0, 1] and eps >= 0 "
                 "(both hockey-stick sides from the formula bodies, positive parts as Max, x = "
                 "e^eps; 6 outputs return unknown within 30 s); certified on random triples on "
                 "6 outputs.",
              (Compare(ajc_lhs, "eq", ajc_rhs,
                       Generated(draw_triple, 200, "random triples on 6 outputs"), "oracle",
                       Tol.abs("1e-45"), "H_{e^eps'}(P||Q)",
                       "eta H_{e^eps}(Q1 || (1-beta) Q0 + beta Q1')"),
               Smt(ajc_problem, "H_{e^eps'}(mix||mix') = eta H_{e^eps}(Q1||(1-beta) Q0 + beta "
                   "Q1'), 3 outputs"))),
        Claim(6, "Profile form on random finite base pairs: max over orders of "
                 "H_{e^eps'}(mix, Q0) <= q max over orders of H_{e^eps}(Q1, Q0). Checked as its "
                 "two parts: the (mix||Q0) order is the identity H_{e^eps'}(mix||Q0) = q "
                 "H_{e^eps}(Q1||Q0) (advanced joint convexity with Q1' = Q0), and the (Q0||mix) "
                 "order is <= the right-hand side (q in [0.001, 0.999], eps in [0.01, 3]). "
                 "Proved by z3 for every pair of distributions, q in (0, 1) and eps >= 0: the "
                 "identity on 3 outputs, the bound on 2 outputs (3 outputs: proved too, in "
                 "about 3 s, left out of the quick run); all sides from the formula bodies, "
                 "positive parts as Max, x = e^eps. Searched on seeded random pairs on 2–6 "
                 "outputs.",
              (Compare(profile_add, "eq", profile_add_rhs, _PROFILE_BOX, "property",
                       Tol.abs("1e-40"), "H_{e^eps'}(mix||Q0)", "q H_{e^eps}(Q1||Q0)"),
               Compare(profile_remove, "le", profile_rhs, _PROFILE_BOX, "property",
                       lhs_name="H_{e^eps'}(Q0||mix)",
                       rhs_name="q * delta of the base pair at eps"),
               Smt(lambda: profile_problem("add", 3),
                   "H_{e^eps'}(mix||Q0) = q H_{e^eps}(Q1||Q0), 3 outputs"),
               Smt(lambda: profile_problem("remove", 2),
                   "H_{e^eps'}(Q0||mix) <= q max_orders H_{e^eps}(Q1, Q0), 2 outputs"))),
    )


def _subsets_sums(n: int, m: int, values: Sequence[int], first: int) -> dict[int, int]:
    """How many size-m subsets of ``range(n)`` give each sum, record 0 having value ``first``."""
    out: dict[int, int] = {}
    for s in itertools.combinations(range(n), m):
        total = sum(first if i == 0 else values[i - 1] for i in s)
        out[total] = out.get(total, 0) + 1
    return out


def enumerated_witness(ctx: Any, n: int, m: int, eps0: Any) -> tuple[Any, Any]:
    """The BBG-T9 witness by enumeration: M(S) = eps0-RR of [u in S] over all size-m subsets S
    of n records; replacing u gives (output law with u, output law without u = RR(0))."""
    rr1, rr0 = randomized_response(ctx, eps0)
    inside = sum(1 for s in itertools.combinations(range(n), m) if 0 in s)
    total = math.comb(n, m)
    p = tuple((inside * a + (total - inside) * b) / total for a, b in zip(rr1, rr0, strict=True))
    return p, rr0


def witness_eps(ctx: Any, n: int, m: int, eps0: Any, **_: Any) -> Any:
    return max_log_ratio(ctx, *enumerated_witness(ctx, n, m, eps0))


WITNESS_MAX_N = 6  # n = 7, 8 are proved too (about 1 s each), left out of the quick run


def enumerated_witness_problem(n: int) -> SmtProblem:
    """For n records, every 1 <= m <= n and eps0 >= 0: every likelihood ratio of the enumerated
    witness pair, both orders, is <= e^{eps'} (eps' = BBG-T9.eps(eps0, m/n)), with equality at
    the first output; pair and eps' from the formula bodies in SymCtx, x = e^eps0."""
    import sympy as sp

    from dpverify.theorems.symbolic import exp_as_powers

    ctx = SymCtx()
    eps0, x = sp.symbols("eps0 x", positive=True)
    goals = []
    for m in range(1, n + 1):
        p, q0 = enumerated_witness(ctx, n, m, eps0)
        bound = sp.exp(amp_eps(ctx, eps0, sp.Rational(m, n)))
        p, q0, (bound,) = ([sp.cancel(exp_as_powers(v, eps0, x)) for v in vs]
                           for vs in (p, q0, [bound]))
        goals += [sp.Le(a, bound * b) for a, b in zip(p, q0, strict=True)]
        goals += [sp.Le(b, bound * a) for a, b in zip(p, q0, strict=True)]
        goals.append(sp.Eq(p[0], bound * q0[0]))
    return SmtProblem({"x": "real"}, (sp.Ge(x, 1),), sp.And(*goals),
                      ("x = e^eps0 >= 1", f"n = {n}, every 1 <= m <= n",
                       "e^{log(1 + (m/n)(x - 1))} = 1 + (m/n)(x - 1)"))


def _bbg9_claims() -> tuple[Claim, ...]:
    def draw_witness(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(1, 8)
        return {"n": n, "m": rng.randint(1, n), "eps0": Fraction(rng.randint(1, 40), 10)}

    def draw_chain(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(2, 7)
        m = rng.randint(1, n)
        r = 1 + Fraction(rng.randint(1, 20), 10)  # ratio bound of one tilt; eps0 = 2 log r
        outputs = 4  # three ordinary outputs and a LEAK output
        d0 = (*random_distribution(rng, outputs - 1), Fraction(0))
        chain = [d0]
        for _ in range(m):
            prev = chain[-1]
            f = [1 / r + (r - 1 / r) * Fraction(rng.randint(0, 100), 100) for _ in prev]
            tilted = [a * b for a, b in zip(prev, f, strict=True)]
            s = sum(tilted)
            tilted = [x / s for x in tilted]
            leak = Fraction(rng.choice([0, 0, 1, 5, 20]), 1000)
            nxt = [(1 - leak) * x for x in tilted]
            nxt[-1] += leak
            chain.append(tuple(nxt))
        return {"n": n, "m": m, "r": r, "values": tuple(rng.randint(0, 1) for _ in range(n - 1)),
                "chain": tuple(chain)}

    @exact_params("r", "chain")
    def chain_bound_holds(ctx: Any, n: int, m: int, r: Fraction, values: Any,
                          chain: Sequence[Sequence[Fraction]], **_: Any) -> bool:
        """Exact rational check: with ``e^eps0 = r^2`` every adjacent pair of the chain is
        (eps0, delta0)-DP for delta0 = the exact maximum below; the subsampled pair's exact
        hockey-stick at ``e^{eps'} = 1 + (m/n)(r^2 - 1)`` is <= (m/n) delta0."""
        e0 = r * r
        q = Fraction(m, n)

        def hs(p: Sequence[Fraction], qq: Sequence[Fraction], z: Fraction) -> Fraction:
            return sum((max(a - z * b, Fraction(0)) for a, b in zip(p, qq, strict=True)),
                       Fraction(0))

        delta0 = max(max(hs(chain[j], chain[j + 1], e0), hs(chain[j + 1], chain[j], e0))
                     for j in range(len(chain) - 1))
        vals = [int(v) for v in values]
        with_u = _subsets_sums(n, m, vals, 1)
        without = _subsets_sums(n, m, vals, 0)
        total = math.comb(n, m)
        width = len(chain[0])
        p = [sum(c * chain[s][y] for s, c in with_u.items()) / total for y in range(width)]
        qq = [sum(c * chain[s][y] for s, c in without.items()) / total for y in range(width)]
        z = 1 + q * (e0 - 1)
        return max(hs(p, qq, z), hs(qq, p, z)) <= q * delta0

    return (
        Claim(1, "Tightness witness (derived): M(S) = eps0-RR of [u in S]; replacing u gives "
                 "((1 - m/n) RR(0) + (m/n) RR(1), RR(0)), whose exact eps (all size-m subsets "
                 "enumerated, n <= 8) equals eps(eps0, m/n). Proved by z3 for every 1 <= m <= "
                 f"n <= {WITNESS_MAX_N} and every eps0 >= 0 (the enumerated pair and eps' from "
                 "the formula bodies, x = e^eps0: every likelihood ratio, both orders, is <= "
                 "e^{eps'} with equality at one output); certified at random (n, m, eps0).",
              (Compare(witness_eps, "eq",
                       lambda ctx, n, m, eps0, **_: amp_eps(ctx, eps0, ctx.num(Fraction(m, n))),
                       Generated(draw_witness, 60, "random (n <= 8, m, eps0), all subsets"),
                       "oracle", Tol.abs("1e-45"), "exact eps by subset enumeration",
                       "BBG-T9.eps(eps0, m/n)"),
               *(Smt(lambda n=n: enumerated_witness_problem(n),
                     f"ratios of the enumerated witness <= 1 + (m/n)(x - 1), n = {n}, every m")
                 for n in range(1, WITNESS_MAX_N + 1)))),
        Claim(2, "For small n, m and random finite base mechanisms that are (eps0, delta0)-DP "
                 "under replacement (a chain of distributions indexed by the sum of 0/1 records), "
                 "the exact hockey-stick of the subsampled pair at eps(eps0, m/n) is <= (m/n) "
                 "delta0 (all subsets enumerated; exact rational arithmetic).",
              (Predicate(chain_bound_holds,
                         Generated(draw_chain, 100, "random replacement-DP chains, n <= 7"),
                         "oracle", "H_{e^eps'}(subsampled pair) <= (m/n) delta0, both orders"),)),
    )


def _bbg10_claims() -> tuple[Claim, ...]:
    return (
        Claim(1, "eta = 1 - (1 - 1/n)^m is the probability that a fixed record is drawn at least "
                 "once: proved for every n, m in {1..6} by enumerating all n^m draw sequences "
                 "(exact rationals; the whole finite domain n, m <= 6), and searched there.",
              (Predicate(eta_holds, SMALL, "oracle", "P[record drawn] == 1 - (1-1/n)^m"),
               Predicate(eta_holds, SMALL_BOX, "property", "P[record drawn] == 1 - (1-1/n)^m"))),
        Claim(2, "The multiplicity K of a fixed record is Bin(m, 1/n): P[K = k] = C(m,k) n^-k "
                 "(1 - 1/n)^(m-k) (the weights of the delta' sum): proved for every n, m in "
                 "{1..6} by enumerating all n^m draw sequences, and searched there.",
              (Predicate(binomial_holds, SMALL, "oracle",
                         "P[K = k] == C(m,k) n^-k (1-1/n)^(m-k) for every k"),
               Predicate(binomial_holds, SMALL_BOX, "property",
                         "P[K = k] == C(m,k) n^-k (1-1/n)^(m-k) for every k"))),
        *bbg10_universal(),
    )


Q_FRACTION = replace(Q, doc="sample fraction m/n (give it as a fraction m/n)")


BBG_T8 = Theorem(
    id="BBG-T8",
    title="Amplification by Poisson subsampling for (eps, delta)-DP",
    family=FAMILY,
    source=cite(BBG, "Thm 8 (advanced joint convexity: Thm 2); [S22] Sec. 6.1"),
    types=("TIGHT",),
    confidence=("CONFIRMED",),
    statement="If M is (eps, delta)-DP for add/remove neighbours and S_q keeps each record "
              "independently with probability q, then M o S_q is (ln(1 + q(e^eps - 1)), q "
              "delta)-DP. Profile form: delta_{M o S}(log(1 + q(e^eps - 1))) <= q delta_M(eps) "
              "for every eps >= 0. Advanced joint convexity: for P = (1-eta)Q0 + eta Q1, Q = "
              "(1-eta)Q0 + eta Q1', beta = e^{eps'}/e^eps: H_{e^eps'}(P||Q) = eta "
              "H_{e^eps}(Q1 || (1-beta)Q0 + beta Q1').",
    domain="eps >= 0, delta in [0, 1], q in (0, 1]",
    evaluators=(
        Evaluator("eps", (EPS0, Q), amp_eps, "ln(1 + q (e^eps0 - 1))"),
        Evaluator("delta", (replace(DELTA0, hi=1, hi_open=False), Q), amp_delta, "q delta0"),
    ),
    claims=_bbg8_claims(),
    aliases=("STK-SUBSAMPLE",),
)

BBG_T9 = Theorem(
    id="BBG-T9",
    title="Amplification by sampling without replacement",
    family=FAMILY,
    source=cite(BBG, "Thm 9"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement="For a uniformly random subset of size m of a dataset of size n and M (eps, "
              "delta)-DP under replacement, M o S is (log(1 + (m/n)(e^eps - 1)), (m/n) "
              "delta)-DP under replacement.",
    domain="1 <= m <= n integers; eps >= 0, delta in [0, 1]",
    evaluators=(
        Evaluator("eps", (EPS0, Q_FRACTION), amp_eps, "log(1 + q (e^eps0 - 1)), q = m/n"),
        Evaluator("delta", (replace(DELTA0, hi=1, hi_open=False), Q_FRACTION), amp_delta,
                  "q delta0, q = m/n"),
    ),
    claims=(*_bbg9_claims(), *bbg9_universal()),
    notes="q = m/n must be a ratio of integers 1 <= m <= n; the evaluator accepts it as a "
          "fraction m/n.",
)

BBG_T10 = Theorem(
    id="BBG-T10",
    title="Amplification by sampling with replacement",
    family=FAMILY,
    source=cite(BBG, "Thm 10"),
    types=("BOUND",),
    confidence=("UNCERTAIN",),
    statement="m draws with replacement from n records; M (eps, delta)-DP under replacement; "
              "eta = 1 - (1 - 1/n)^m; eps' = log(1 + eta(e^eps - 1)) and delta' = sum_{k=1}^m "
              "C(m,k) n^-k (1 - 1/n)^(m-k) delta_{M,k}(eps), delta_{M,k} the group privacy "
              "profile for k substitutions (argument recalled, not read: no evaluator).",
    domain="m >= 1, n >= 1 integers",
    claims=_bbg10_claims(),
    notes="The argument of delta_{M,k} in [BBG] Thm 10 could not be read in the stored copies "
          "of the paper (catalogue open question 14); only the sampling facts are checked.",
)
