"""Universal claims of the subsampling family (issue 11): BBG-T9 (the tightness witness at
every (eps0, m/n)), BBG-T10 (the sampling facts, by exhaustive enumeration for n, m <= 6 and by
search beyond) and STK-ANALYTIC-RDP (the add-direction identity for the RR base at every
(q, eps0)).

Facts relied on: eps0-RR of the inclusion bit is eps0-DP under replacement, and replacing the
record u turns the output law into ``((1 - q) RR(0) + q RR(1), RR(0))`` with ``q = m/n`` (the
probability that u is sampled; catalogue BBG-T9 claim 1); the binomial theorem; ``log(e^y) = y``
for real y.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Smt, SmtProblem, Tol
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.amplification import amp_eps, analytic_tau_rr
from dpverify.theorems.numerics.finite import max_log_ratio, randomized_response, renyi
from dpverify.theorems.numerics.integers import as_int
from dpverify.theorems.subsampling.common import mixture, sub_rr_pair

_REL = Tol(abs_tol=Fraction(1, 10**40), rel_tol=Fraction(1, 10**30))

# ==========================================================================================
# BBG-T9


def _witness_eps(ctx: Any, eps0: Any, n: int, m: int, **_: Any) -> Any:
    p, q0 = sub_rr_pair(ctx, eps0, ctx.num(Fraction(m, n)))
    return max_log_ratio(ctx, p, q0)


def _amp_at_fraction(ctx: Any, eps0: Any, n: int, m: int, **_: Any) -> Any:
    return amp_eps(ctx, eps0, ctx.num(Fraction(m, n)))


def _witness_problem() -> SmtProblem:
    """Every likelihood ratio of the witness pair, both orders, is <= e^{eps'} (eps' =
    BBG-T9.eps), with equality at the output favoured by RR(1): x = e^eps0."""
    import sympy as sp

    ctx = SymCtx()
    eps0 = sp.Symbol("eps0", nonnegative=True)
    q = sp.Symbol("q", positive=True)
    x = sp.Symbol("x", positive=True)
    p, q0 = sub_rr_pair(ctx, eps0, q)
    bound = sp.exp(amp_eps(ctx, eps0, q))
    p, q0, bound = ([sp.simplify(v).subs(sp.exp(eps0), x) for v in vs] for vs in (p, q0, [bound]))
    bound = bound[0]
    goals = [sp.Le(a, bound * b) for a, b in zip(p, q0, strict=True)]
    goals += [sp.Le(b, bound * a) for a, b in zip(p, q0, strict=True)]
    goals.append(sp.Eq(p[0], bound * q0[0]))
    return SmtProblem({"q": "real", "x": "real"}, (sp.Gt(q, 0), sp.Le(q, 1), sp.Ge(x, 1)),
                      sp.And(*goals),
                      ("x = e^eps0 >= 1", "q = m/n in (0, 1]", "e^{log(1 + q(x - 1))} = "
                       "1 + q(x - 1)"))


def bbg9_universal() -> tuple[Claim, ...]:
    box = Box(reals={"eps0": ("0", "10")}, ints={"n": (1, 1000), "m": (1, 1000)},
              constraint=lambda pt: pt["m"] <= pt["n"])
    return (
        Claim(3, "Tightness at every (eps0, m/n): the exact eps of the witness pair ((1 - m/n) "
                 "RR(0) + (m/n) RR(1), RR(0)) equals BBG-T9.eps(eps0, m/n). Proved by z3 for all "
                 "eps0 >= 0 and real q = m/n in (0, 1]: every likelihood ratio, both orders, is "
                 "<= e^{eps'} with equality at one output (x = e^eps0; the pair and eps' from the "
                 "formulas, symbolically); searched on eps0 in [0, 10], 1 <= m <= n <= 1000.",
              (Compare(_witness_eps, "eq", _amp_at_fraction, box, "property", _REL,
                       "exact eps of the witness pair", "BBG-T9.eps(eps0, m/n)"),
               Smt(_witness_problem, "ratios of the witness pair <= 1 + q(x - 1), with equality "
                   "at one output"))),
    )


# ==========================================================================================
# BBG-T10


@lru_cache(maxsize=64)
def multiplicities(n: int, m: int) -> tuple[int, ...]:
    """How many of the n^m draw sequences contain record 0 exactly k times (k = 0..m)."""
    counts = [0] * (m + 1)
    for seq in itertools.product(range(n), repeat=m):
        counts[seq.count(0)] += 1
    return tuple(counts)


def eta_holds(ctx: Any, n: int, m: int, **_: Any) -> bool:
    counts = multiplicities(n, m)
    return Fraction(sum(counts[1:]), n**m) == 1 - (1 - Fraction(1, n)) ** m


def binomial_holds(ctx: Any, n: int, m: int, **_: Any) -> bool:
    counts = multiplicities(n, m)
    return all(Fraction(counts[k], n**m)
               == math.comb(m, k) * Fraction(1, n) ** k * (1 - Fraction(1, n)) ** (m - k)
               for k in range(m + 1))


# The claims' ENTIRE finite domain: every (n, m) with 1 <= n, m <= 6.
SMALL = Points(tuple({"n": n, "m": m} for n in range(1, 7) for m in range(1, 7)),
               covers_domain=True)
SMALL_BOX = Box(ints={"n": (1, 6), "m": (1, 6)})


def pmf_tail_sum(inv: Any, m: int) -> Any:
    """``sum_{k=1}^m C(m,k) u^k (1 - u)^(m-k)`` at ``u = 1/n`` (a Fraction or a sympy symbol)."""
    return sum((math.comb(m, k) * inv**k * (1 - inv) ** (m - k) for k in range(1, m + 1)),
               inv * 0)


def eta_of(inv: Any, m: int) -> Any:
    """``eta = 1 - (1 - u)^m`` at ``u = 1/n``."""
    return 1 - (1 - inv) ** m


def _pmf_tail(ctx: Any, n: int, m: int, **_: Any) -> Any:
    return ctx.num(pmf_tail_sum(Fraction(1, n), m))


def _eta(ctx: Any, n: int, m: int, **_: Any) -> Any:
    return ctx.num(eta_of(Fraction(1, n), m))


TAIL_SMT_MAX_M = 16


def _tail_identity_problem(m: int) -> SmtProblem:
    """The binomial theorem at a fixed m for every real n >= 1 (u = 1/n in (0, 1])."""
    import sympy as sp

    u = sp.Symbol("u", positive=True)
    return SmtProblem({"u": "real"}, (sp.Gt(u, 0), sp.Le(u, 1)),
                      sp.Eq(sp.expand(pmf_tail_sum(u, m)), sp.expand(eta_of(u, m))),
                      ("u = 1/n", f"m = {m}", "each side expanded as a polynomial in u"))


def bbg10_universal() -> tuple[Claim, ...]:
    return (
        Claim(3, "For every n, m >= 1: P[K >= 1] = sum_{k=1}^m C(m,k) n^-k (1 - 1/n)^(m-k) "
                 "(the delta' weights of claim 2 summed) equals eta = 1 - (1 - 1/n)^m, by the "
                 "binomial theorem. Proved by z3 for every m in {1.."
                 f"{TAIL_SMT_MAX_M}}} and every real n >= 1 (u = 1/n in (0, 1]; both sides "
                 "from the same bodies as the search); searched with exact rationals on n in "
                 "{1..10^4}, m in {1..60} (claims 1-2 prove the sampling facts themselves for "
                 "n, m <= 6).",
              (Compare(_pmf_tail, "eq", _eta, Box(ints={"n": (1, 10**4), "m": (1, 60)}),
                       "property", Tol.abs("1e-40"), "sum_{k>=1} P[K = k]", "eta"),
               *(Smt(lambda m=m: _tail_identity_problem(m),
                     f"sum_(k>=1) C({m},k) u^k (1-u)^({m}-k) = 1 - (1-u)^{m}, u in (0, 1]")
                 for m in range(1, TAIL_SMT_MAX_M + 1)))),
    )


# ==========================================================================================
# STK-ANALYTIC-RDP


def _rr_add_exact(ctx: Any, q: Any, eps0: Any, alpha: Any, **_: Any) -> Any:
    rr1, rr0 = randomized_response(ctx, eps0)
    return renyi(ctx, mixture(q, rr0, rr1), rr0, alpha)


def _rr_bound(ctx: Any, q: Any, eps0: Any, alpha: Any, **_: Any) -> Any:
    return analytic_tau_rr(ctx, q, eps0, as_int(ctx, alpha) or 2)


def _analytic_rr_problem(alpha: int) -> SmtProblem:
    import sympy as sp

    from dpverify.theorems.symbolic import strip_log

    ctx = SymCtx()
    q = sp.Symbol("q", positive=True)
    eps0 = sp.Symbol("eps0", nonnegative=True)
    x = sp.Symbol("x", positive=True)
    a = sp.Integer(alpha)
    bound = strip_log(analytic_tau_rr(ctx, q, eps0, alpha), a - 1)
    exact = strip_log(_rr_add_exact(ctx, q, eps0, a), a - 1)
    diff = sp.cancel(sp.together((bound - exact).subs(sp.exp(eps0), x)))
    return SmtProblem({"q": "real", "x": "real"}, (sp.Gt(q, 0), sp.Le(q, 1), sp.Ge(x, 1)),
                      sp.Eq(diff, 0),
                      ("x = e^eps0", f"alpha = {alpha}",
                       "e^{(alpha-1) D_alpha} = sum P^alpha Q^{1-alpha}"))


def analytic_universal() -> tuple[Claim, ...]:
    return (
        Claim(5, "Add direction with the RR base at every (q, eps0): STK-ANALYTIC-RDP.tau_rr(q, "
                 "eps0, alpha) = D_alpha((1-q) RR(0) + q RR(1) || RR(0)) exactly. Proved by z3 "
                 "for all q in (0, 1], eps0 >= 0 at alpha in {2, 3} (x = e^eps0; both sides from "
                 "the formulas, symbolically); searched on q in [0.001, 1], eps0 in [0, 5], "
                 "integer alpha in {2..12}.",
              (Compare(_rr_bound, "eq", _rr_add_exact,
                       Box(reals={"q": ("0.001", "1"), "eps0": ("0", "5")},
                           ints={"alpha": (2, 12)}, log_scale=frozenset({"q"})),
                       "property", _REL, "STK-ANALYTIC-RDP.tau_rr", "exact D_alpha(mix||RR(0))"),
               Smt(lambda: _analytic_rr_problem(2), "bound = exact moment at alpha = 2"),
               Smt(lambda: _analytic_rr_problem(3), "bound = exact moment at alpha = 3"))),
    )

