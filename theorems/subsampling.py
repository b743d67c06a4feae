"""Privacy amplification by subsampling, the subsampled Gaussian, and certified PLD accounting.

Catalogue: ``subsampling.md``.

Main results
------------
- BBG-T8, BBG-T9, BBG-T10: amplification by Poisson sampling, sampling without and with
  replacement ([BBG] Thms 8-10), with exact finite witnesses (the oracle route) and advanced
  joint convexity ([BBG] Thm 2) as an identity on random triples.
- STK-ADDREM-VS-REPL, STK-SUBSAMPLE-COMP, STK-HOWTO: the neighbouring relation under Poisson
  subsampling, subsampling then advanced composition, and the usage rules with their witnesses.
- SGM-1STEP-EXACT: the exact one-step profile of the Poisson-subsampled Gaussian in both
  directions (closed forms through the Gaussian profile at the shifted threshold), checked
  against direct quadrature.
- MTZ-SGM-RDP: the RDP of the sampled Gaussian (binomial sum at integer orders; rigorous
  ``acb`` quadrature, or [MTZ19]'s two-sided erfc series, at fractional orders) and its
  conversions to (eps, delta) over the standard order grid; STK-ANALYTIC-RDP: the general
  binomial bound for Poisson subsampling with Gaussian, Laplace and RR base curves.
- SGM-PLD-COMP: certified k-fold accounting of the subsampled Gaussian by the PLD engine of
  :mod:`theorems.pld`: a rigorous enclosure ``[lo, hi]`` of eps(delta) or delta(eps).

References
----------
- [BBG] B. Balle, G. Barthe, M. Gaboardi, *Privacy Amplification by Subsampling: Tight Analyses
  via Couplings and Divergences*, arXiv 1807.01647v2 (NeurIPS 2018), Thm 2 (advanced joint
  convexity), Thms 8-10.
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 4 and 6.
- [MTZ19] I. Mironov, K. Talwar, L. Zhang, *Rényi Differential Privacy of the Sampled Gaussian
  Mechanism*, arXiv 1908.10530v1, Sec. 3.
- [Mir17] I. Mironov, *Rényi Differential Privacy*, arXiv 1702.07476v3, Prop. 3 and Prop. 6.
- [BBGHS20] B. Balle, G. Barthe, M. Gaboardi, J. Hsu, T. Sato, *Hypothesis Testing
  Interpretations and Rényi Differential Privacy*, arXiv 1905.09982, Thm 21.
- [ZW19] Y. Zhu, Y.-X. Wang, *Poisson Subsampled Rényi Differential Privacy*, ICML 2019, Thm 6.
- [DGKKM22] Doroshenko et al., *Connect the Dots*, arXiv 2207.04380v1 (see :mod:`theorems.pld`).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import flint

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
from dpverify.theorems.core import Choice, Evaluator, Int, InvalidParameter, Source, Theorem
from dpverify.theorems.ctx import Interval, MpCtx, PrecisionExhausted, Unsupported
from dpverify.theorems.mechanisms import gauss_delta, gauss_eps
from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.finite import (
    hockey_stick,
    max_log_ratio,
    random_distribution,
    random_pair,
    randomized_response,
    renyi,
)
from dpverify.theorems.params import (
    ALPHA,
    DELTA,
    DELTA0,
    EPS,
    EPS0,
    EPS_REAL,
    NEIGHBORING,
    SIGMA,
    B,
    K,
    Q,
)
from dpverify.theorems.privacy_loss import balle_eps, mir_eps
from dpverify.theorems.values import exact_params, to_ctx

FAMILY = "subsampling"

BBG = ("Balle, Barthe & Gaboardi, Privacy Amplification by Subsampling: Tight Analyses via "
       "Couplings and Divergences", "1807.01647", "v2")
S22 = ("Steinke, Composition of Differential Privacy & Privacy Amplification by Subsampling",
       "2210.00597", "v4")
MTZ19 = ("Mironov, Talwar & Zhang, Rényi Differential Privacy of the Sampled Gaussian Mechanism",
         "1908.10530", "v1")


def _src(ref: tuple[str, str, str], locator: str) -> Source:
    return Source(ref[0], locator, arxiv=ref[1], version=ref[2])


def _arb_param(v: Any) -> Any:
    """An exact parameter for the PLD engine: Fractions stay exact, intervals become balls."""
    if isinstance(v, Interval):
        lo = pld._arb(v.lo)
        return lo.union(pld._arb(v.hi))
    if isinstance(v, str):
        return Fraction(v)
    return v


def _as_int(ctx: Any, x: Any) -> int | None:
    """x as a Python int when it is (certainly) an integer, else None."""
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else None
    if isinstance(x, flint.arb):
        return int(x.unique_fmpz()) if x.is_exact() and x.is_integer() else None
    if isinstance(ctx, MpCtx):
        return int(x) if ctx.m.isint(x) else None
    return None


# ==========================================================================================
# BBG-T8 / BBG-T9: amplification of (eps, delta)


def amp_eps(ctx: Any, eps0: Any, q: Any) -> Any:
    """``log(1 + q (e^eps0 - 1))``: the amplified eps of [BBG] arXiv 1807.01647v2, Thm 8
    (Poisson, rate q) and Thm 9 (without replacement, q = m/n)."""
    return ctx.log1p(q * ctx.expm1(eps0))


def amp_delta(ctx: Any, delta0: Any, q: Any) -> Any:
    """``q delta0``: the amplified delta of [BBG] v2 Thms 8 and 9."""
    return q * delta0


def _leak_pair(ctx: Any, eps0: Any, delta0: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """BBG-T8 claim 2's base: outputs (LEAK, 1, 0); ``Pin`` when u is present, ``Pout``
    otherwise."""
    z = ctx.exp(eps0)
    pin = (delta0, (1 - delta0) * z / (1 + z), (1 - delta0) / (1 + z))
    pout = (ctx.zero, 1 / (1 + z), z / (1 + z))
    return pin, pout


def _mix(q: Any, a: Sequence[Any], b: Sequence[Any]) -> tuple[Any, ...]:
    """``(1-q) a + q b``."""
    return tuple((1 - q) * x + q * y for x, y in zip(a, b, strict=True))


def _both_orders(ctx: Any, p: Sequence[Any], q: Sequence[Any], eps: Any) -> Any:
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def _sub_rr_pair(ctx: Any, eps0: Any, q: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``((1-q) RR(0) + q RR(1), RR(0))``: eps0-RR of the inclusion bit, Poisson-subsampled."""
    rr1, rr0 = randomized_response(ctx, eps0)
    return _mix(q, rr0, rr1), tuple(rr0)


_PROFILE_BOX = Box(reals={"q": ("0.001", "0.999"), "eps": ("0.01", "3")},
                   ints={"seed": (0, 10**6)}, log_scale=frozenset({"q"}))


def _bbg8_claims() -> tuple[Claim, ...]:
    configs = Points(({"eps0": "1", "delta0": "1e-3", "q": "0.1"},
                      {"eps0": "0.3", "delta0": "1e-6", "q": "0.01"},
                      {"eps0": "4", "delta0": "0.05", "q": "0.5"}))
    pure = Points(({"eps0": "1", "q": "0.1"}, {"eps0": "0.3", "q": "0.01"},
                   {"eps0": "4", "q": "0.5"}))

    def sub_rr_eps(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
        p, q0 = _sub_rr_pair(ctx, eps0, q)
        return max_log_ratio(ctx, p, q0)

    def leak_dp(ctx: Any, eps0: Any, delta0: Any, **_: Any) -> Any:
        pin, pout = _leak_pair(ctx, eps0, delta0)
        return _both_orders(ctx, pin, pout, eps0)

    def leak_sub(ctx: Any, eps0: Any, delta0: Any, q: Any, **_: Any) -> Any:
        pin, pout = _leak_pair(ctx, eps0, delta0)
        return _both_orders(ctx, _mix(q, pout, pin), pout, amp_eps(ctx, eps0, q))

    def max_ratio(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
        p, q0 = _sub_rr_pair(ctx, eps0, q)
        return ctx.max(*(a / b for a, b in zip(p, q0, strict=True)))

    def below_eps(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
        p, q0 = _sub_rr_pair(ctx, eps0, q)
        return _both_orders(ctx, p, q0, amp_eps(ctx, eps0, q) - ctx.num("1e-6"))

    def draw_triple(rng: random.Random) -> dict[str, Any]:
        return {"q0": random_distribution(rng, 6), "q1": random_distribution(rng, 6),
                "q1p": random_distribution(rng, 6), "eta": Fraction(rng.randint(1, 1000), 1000),
                "eps": Fraction(rng.randint(0, 2000), 1000)}

    def ajc_lhs(ctx: Any, q0: Any, q1: Any, q1p: Any, eta: Any, eps: Any, **_: Any) -> Any:
        return hockey_stick(ctx, _mix(eta, q0, q1), _mix(eta, q0, q1p), amp_eps(ctx, eps, eta))

    def ajc_rhs(ctx: Any, q0: Any, q1: Any, q1p: Any, eta: Any, eps: Any, **_: Any) -> Any:
        beta = ctx.exp(amp_eps(ctx, eps, eta) - eps)
        return eta * hockey_stick(ctx, q1, _mix(beta, q0, q1p), eps)

    def profile_add(ctx: Any, seed: int, q: Any, eps: Any, **_: Any) -> Any:
        a, b = random_pair(random.Random(seed))
        a, b = ctx.convert(a), ctx.convert(b)
        return hockey_stick(ctx, _mix(q, a, b), a, amp_eps(ctx, eps, q))

    def profile_add_rhs(ctx: Any, seed: int, q: Any, eps: Any, **_: Any) -> Any:
        a, b = random_pair(random.Random(seed))
        a, b = ctx.convert(a), ctx.convert(b)
        return q * hockey_stick(ctx, b, a, eps)

    def profile_remove(ctx: Any, seed: int, q: Any, eps: Any, **_: Any) -> Any:
        a, b = random_pair(random.Random(seed))
        a, b = ctx.convert(a), ctx.convert(b)
        return hockey_stick(ctx, a, _mix(q, a, b), amp_eps(ctx, eps, q))

    def profile_rhs(ctx: Any, seed: int, q: Any, eps: Any, **_: Any) -> Any:
        a, b = random_pair(random.Random(seed))
        a, b = ctx.convert(a), ctx.convert(b)
        return q * _both_orders(ctx, b, a, eps)

    return (
        Claim(1, "Tightness of eps, pure RR base at q = 1/2, eps0 = 0.6: the exact eps of "
                 "((RR(0) + RR(1))/2, RR(0)) is ln(1 + (e^eps0 - 1)/2).",
              (Compare(sub_rr_eps, "eq", lambda ctx, eps0, q, **_: amp_eps(ctx, eps0, q),
                       Points(({"eps0": "0.6", "q": "1/2"},)), "oracle", Tol.abs("1e-45"),
                       "exact eps of the subsampled RR pair", "BBG-T8.eps"),)),
        Claim(2, "Tightness of delta: the LEAK base is (eps0, delta0)-DP and the exact delta of "
                 "((1-q) Pout + q Pin, Pout), both orders, at eps' equals q delta0 (three "
                 "configurations).",
              (Compare(leak_dp, "eq", lambda ctx, delta0, **_: delta0, configs, "oracle",
                       Tol.abs("1e-45"), "max_orders H_{e^eps0}(Pin, Pout)", "delta0"),
               Compare(leak_sub, "eq", lambda ctx, delta0, q, **_: amp_delta(ctx, delta0, q),
                       configs, "oracle", Tol.abs("1e-45"),
                       "exact delta of the subsampled LEAK pair at eps'", "BBG-T8.delta"))),
        Claim(3, "Tightness of eps, pure base: the likelihood ratio of subsampled RR equals "
                 "e^{eps'} and the exact delta at eps' - 1e-6 is > 0 (three configurations).",
              (Compare(max_ratio, "eq", lambda ctx, eps0, q, **_: ctx.exp(amp_eps(ctx, eps0, q)),
                       pure, "oracle", Tol.abs("1e-45"), "max likelihood ratio", "e^{eps'}"),
               Compare(below_eps, "gt", lambda ctx, **_: ctx.zero, pure, "oracle",
                       lhs_name="exact delta at eps' - 1e-6", rhs_name="0"))),
        Claim(4, "Poisson-subsampled Gaussian, add direction: the hockey-stick quadrature of "
                 "(mix || N0) equals q * BW-ANALYTIC-GAUSS.delta(sigma, log(1 + (e^eps - 1)/q)) "
                 "to 1e-35.",
              (Compare(sgm1_add_quad, "eq", sgm1_add, SGM_GRID, "numeric", Tol.abs("1e-35"),
                       "quadrature of H(mix||N0)", "q delta_G(log(1 + (e^eps - 1)/q))"),)),
        Claim(5, "Advanced joint convexity ([BBG] Thm 2) is an identity on random triples "
                 "(Q0, Q1, Q1') with 6 outputs, eta in (0, 1], eps in [0, 2].",
              (Compare(ajc_lhs, "eq", ajc_rhs,
                       Generated(draw_triple, 200, "random triples on 6 outputs"), "oracle",
                       Tol.abs("1e-45"), "H_{e^eps'}(P||Q)",
                       "eta H_{e^eps}(Q1 || (1-beta) Q0 + beta Q1')"),)),
        Claim(6, "Profile form on random finite base pairs: max over orders of "
                 "H_{e^eps'}(mix, Q0) <= q max over orders of H_{e^eps}(Q1, Q0). Checked as its "
                 "two parts: the (mix||Q0) order is the identity H_{e^eps'}(mix||Q0) = q "
                 "H_{e^eps}(Q1||Q0) (advanced joint convexity with Q1' = Q0), and the (Q0||mix) "
                 "order is <= the right-hand side (q in [0.001, 0.999], eps in [0.01, 3]).",
              (Compare(profile_add, "eq", profile_add_rhs, _PROFILE_BOX, "property",
                       Tol.abs("1e-40"), "H_{e^eps'}(mix||Q0)", "q H_{e^eps}(Q1||Q0)"),
               Compare(profile_remove, "le", profile_rhs, _PROFILE_BOX, "property",
                       lhs_name="H_{e^eps'}(Q0||mix)",
                       rhs_name="q * delta of the base pair at eps"))),
    )


def _subsets_sums(n: int, m: int, values: Sequence[int], first: int) -> dict[int, int]:
    """How many size-m subsets of ``range(n)`` give each sum, record 0 having value ``first``."""
    out: dict[int, int] = {}
    for s in itertools.combinations(range(n), m):
        total = sum(first if i == 0 else values[i - 1] for i in s)
        out[total] = out.get(total, 0) + 1
    return out


def _bbg9_claims() -> tuple[Claim, ...]:
    def draw_witness(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(1, 8)
        return {"n": n, "m": rng.randint(1, n), "eps0": Fraction(rng.randint(1, 40), 10)}

    def witness_eps(ctx: Any, n: int, m: int, eps0: Any, **_: Any) -> Any:
        rr1, rr0 = randomized_response(ctx, eps0)
        inside = sum(1 for s in itertools.combinations(range(n), m) if 0 in s)
        total = math.comb(n, m)
        p = tuple((inside * a + (total - inside) * b) / total for a, b in zip(rr1, rr0,
                                                                                strict=True))
        return max_log_ratio(ctx, p, rr0)

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
                 "enumerated, n <= 8) equals eps(eps0, m/n).",
              (Compare(witness_eps, "eq",
                       lambda ctx, n, m, eps0, **_: amp_eps(ctx, eps0, ctx.num(Fraction(m, n))),
                       Generated(draw_witness, 60, "random (n <= 8, m, eps0), all subsets"),
                       "oracle", Tol.abs("1e-45"), "exact eps by subset enumeration",
                       "BBG-T9.eps(eps0, m/n)"),)),
        Claim(2, "For small n, m and random finite base mechanisms that are (eps0, delta0)-DP "
                 "under replacement (a chain of distributions indexed by the sum of 0/1 records), "
                 "the exact hockey-stick of the subsampled pair at eps(eps0, m/n) is <= (m/n) "
                 "delta0 (all subsets enumerated; exact rational arithmetic).",
              (Predicate(chain_bound_holds,
                         Generated(draw_chain, 100, "random replacement-DP chains, n <= 7"),
                         "oracle", "H_{e^eps'}(subsampled pair) <= (m/n) delta0, both orders"),)),
    )


def _bbg10_claims() -> tuple[Claim, ...]:
    def draw(rng: random.Random) -> dict[str, Any]:
        return {"n": rng.randint(1, 6), "m": rng.randint(1, 6)}

    @lru_cache(maxsize=64)
    def multiplicities(n: int, m: int) -> tuple[int, ...]:
        counts = [0] * (m + 1)
        for seq in itertools.product(range(n), repeat=m):
            counts[seq.count(0)] += 1
        return tuple(counts)

    def eta_holds(ctx: Any, n: int, m: int, **_: Any) -> bool:
        counts = multiplicities(n, m)
        drawn = Fraction(sum(counts[1:]), n**m)
        return drawn == 1 - (1 - Fraction(1, n)) ** m

    def binomial_holds(ctx: Any, n: int, m: int, **_: Any) -> bool:
        counts = multiplicities(n, m)
        return all(Fraction(counts[k], n**m)
                   == math.comb(m, k) * Fraction(1, n) ** k * (1 - Fraction(1, n)) ** (m - k)
                   for k in range(m + 1))

    region = Generated(draw, 36, "(n, m) with n, m <= 6, all n^m draw sequences")
    return (
        Claim(1, "eta = 1 - (1 - 1/n)^m is the probability that a fixed record is drawn at least "
                 "once (all n^m sequences enumerated, n, m <= 6).",
              (Predicate(eta_holds, region, "oracle", "P[record drawn] == 1 - (1-1/n)^m"),)),
        Claim(2, "The multiplicity K of a fixed record is Bin(m, 1/n): P[K = k] = C(m,k) n^-k "
                 "(1 - 1/n)^(m-k) (the weights of the delta' sum).",
              (Predicate(binomial_holds, region, "oracle",
                         "P[K = k] == C(m,k) n^-k (1-1/n)^(m-k) for every k"),)),
    )


# ==========================================================================================
# STK-ADDREM-VS-REPL and STK-SUBSAMPLE-COMP


def relation_eps(ctx: Any, eps0: Any, q: Any, neighboring: str = "add_remove") -> Any:
    """Per-step eps of a Poisson-subsampled pure eps0-DP base (derived; [S22] arXiv
    2210.00597v4 Sec. 6.2): ``log(1 + q(e^eps0 - 1))`` for add/remove and
    ``log((1 + q(e^eps0 - 1))/(1 + q(e^-eps0 - 1)))`` for replace-one."""
    if neighboring == "add_remove":
        return amp_eps(ctx, eps0, q)
    return ctx.log1p(q * ctx.expm1(eps0)) - ctx.log1p(q * ctx.expm1(-eps0))


def _sym(*names: str) -> Any:
    import sympy as sp

    return [sp.Symbol(n, real=True) for n in names]


def _addrem_le_problem() -> SmtProblem:
    x, p = _sym("x", "p")
    # log A <= log(A/B) with A = 1 + p(x-1) > 0 and B = (x(1-p) + p)/x > 0 iff x(1-p) + p <= x
    return SmtProblem({"x": "real", "p": "real"}, (x >= 1, p > 0, p <= 1),
                      x * (1 - p) + p <= x,
                      ("x = e^eps", "eps'_ar <= eps'_repl iff B <= 1, B = 1 + p(1/x - 1) > 0"))


def _addrem_half_problem() -> SmtProblem:
    (x,) = _sym("x")
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
                       "exp(eps'_repl)"),)),
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
                       "numeric", Tol.abs("1e-25"), "eps'_add/remove/(p(e^eps - 1))", "1"))),
    )


def _adv_eps(ctx: Any, e: Any, k: int, slack: Any) -> Any:
    """``k e^2/2 + e sqrt(2k log(1/slack))``: STK-ADV-APPROX's eps at per-step eps e and slack
    ([S22] arXiv 2210.00597v4, Sec. 4.3)."""
    return k * e**2 / 2 + e * ctx.sqrt(2 * k * ctx.log(1 / slack))


@exact_params("delta", "delta0", "q")
def subsample_comp_eps(ctx: Any, eps0: Any, q: Any, k: int, delta: Any, delta0: Any) -> Any:
    """k steps of a q-Poisson-subsampled (eps0, delta0)-DP mechanism are
    ``(k eps'^2/2 + eps' sqrt(2k log(1/delta')), delta)``-DP with ``eps' = log(1 + q(e^eps0 -
    1))`` and the slack ``delta' = delta - k q delta0`` (BBG-T8 then STK-ADV-APPROX; [S22]
    arXiv 2210.00597v4, Sec. 6.3)."""
    if all(isinstance(v, Fraction | int) for v in (delta, delta0, q)):
        slack = Fraction(delta) - k * Fraction(q) * Fraction(delta0)
        if slack <= 0:
            raise InvalidParameter(f"the slack delta - k q delta0 must be > 0; got "
                                   f"{float(slack):.6g}")
        slack_n = ctx.num(slack)
    else:
        slack_n = to_ctx(ctx, delta) - k * to_ctx(ctx, q) * to_ctx(ctx, delta0)
    return _adv_eps(ctx, amp_eps(ctx, eps0, to_ctx(ctx, q)), k, slack_n)


def _kfold_sub_rr_delta(ctx: Any, eps0: Any, q: Any, k: int, eps: Any) -> Any:
    """Exact delta of the k-fold composition of the subsampled RR pair, both orders: the PLD is
    a sum of k i.i.d. two-point losses; binomial enumeration of the number of 1-outputs."""
    p, q0 = _sub_rr_pair(ctx, eps0, q)
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


def _subcomp_claims() -> tuple[Claim, ...]:
    @exact_params("delta", "delta0", "q")
    def via_adv(ctx: Any, eps0: Any, q: Any, k: int, delta: Any, delta0: Any, **_: Any) -> Any:
        slack = Fraction(delta) - k * Fraction(q) * Fraction(delta0)
        return _adv_eps(ctx, amp_eps(ctx, eps0, ctx.num(Fraction(q))), k, ctx.num(slack))

    @exact_params("delta", "q")
    def exact_delta(ctx: Any, eps0: Any, q: Any, k: int, delta: Any, **_: Any) -> Any:
        eps = subsample_comp_eps(ctx, eps0, q, k, delta, Fraction(0))
        return _kfold_sub_rr_delta(ctx, eps0, ctx.num(Fraction(q)), k, eps)

    soundness = Points(tuple({"eps0": e, "q": q, "k": k, "delta": d}
                             for e in ("0.5", "2") for q in ("0.01", "0.3")
                             for k in (10, 1000) for d in ("1e-5", "1e-9")))
    return (
        Claim(1, "Equals STK-ADV-APPROX.eps(BBG-T8.eps(eps0, q), k, delta, q delta0).",
              (Compare(subsample_comp_eps, "eq", via_adv,
                       Box(reals={"eps0": ("0", "3"), "q": ("0.001", "1"),
                                  "delta": ("1e-12", "0.5"), "delta0": ("0", "1e-14")},
                           ints={"k": (1, 1000)}, log_scale=frozenset({"q", "delta"}),
                           constraint=lambda p: p["delta"] > p["k"] * p["q"] * p["delta0"]),
                       "property", Tol.rel("1e-30"), "STK-SUBSAMPLE-COMP.eps",
                       "STK-ADV-APPROX.eps(BBG-T8.eps(eps0, q), k, delta, q delta0)"),)),
        Claim(2, "Soundness (derived): for a pure eps0-RR base, the exact k-fold composition of "
                 "the subsampled RR pair (binomial enumeration, both orders) has delta <= delta "
                 "at the returned eps.",
              (Compare(exact_delta, "le", lambda ctx, delta, **_: to_ctx(ctx, delta), soundness,
                       "oracle", lhs_name="exact delta of the k-fold subsampled RR at eps",
                       rhs_name="delta"),)),
    )


# ==========================================================================================
# SGM-1STEP-EXACT


def sgm1_add(ctx: Any, q: Any, sigma: Any, eps: Any) -> Any:
    """``H_{e^eps}(mix || N0) = q delta_G(log(1 + (e^eps - 1)/q))`` with ``delta_G`` the
    Gaussian profile of BW-ANALYTIC-GAUSS (derived from advanced joint convexity, [BBG] arXiv
    1807.01647v2, Thm 2; catalogue SGM-1STEP-EXACT). Written ``max(., 0)``: the value is a
    hockey-stick divergence, so this changes nothing but keeps box enclosures in its range."""
    return ctx.pos(q * gauss_delta(ctx, sigma, ctx.log1p(ctx.expm1(eps) / q)))


def sgm1_remove(ctx: Any, q: Any, sigma: Any, eps: Any) -> Any:
    """``H_{e^eps}(N0 || mix) = (1 - a) delta_G(log(e^eps q/(1 - a)))`` with ``a = e^eps (1 -
    q)`` when ``a < 1``, and 0 when ``a >= 1`` (derived; catalogue SGM-1STEP-EXACT)."""
    ee = ctx.exp(eps)
    a = ee * (1 - q)
    return ctx.piecewise_lt(a, ctx.one,
                            lambda: ctx.pos((1 - a) * gauss_delta(ctx, sigma,
                                                                  ctx.log(ee * q / (1 - a)))),
                            lambda: ctx.zero)


def sgm1_delta(ctx: Any, q: Any, sigma: Any, eps: Any, direction: str = "max") -> Any:
    """The one-step profile of the Poisson-subsampled Gaussian: one direction or their max."""
    if direction == "add":
        return sgm1_add(ctx, q, sigma, eps)
    if direction == "remove":
        return sgm1_remove(ctx, q, sigma, eps)
    return ctx.max(sgm1_add(ctx, q, sigma, eps), sgm1_remove(ctx, q, sigma, eps))


def sgm1_eps(ctx: Any, q: Any, sigma: Any, delta: Any) -> Any:
    """Least eps >= 0 with ``max(add, remove) <= delta`` (monotone inversion)."""
    return ctx.solve(lambda e: sgm1_delta(ctx, q, sigma, e), delta, lo=0, hi=1)


def _npdf(ctx: Any, y: Any, mean: Any, sd: Any) -> Any:
    return ctx.exp(-((y - mean) / sd) ** 2 / 2) / (sd * ctx.sqrt(2 * ctx.pi))


def _acb_window_integral(f: Callable[[flint.acb], flint.acb], a: flint.arb, b: flint.arb,
                         tail: flint.arb) -> flint.arb:
    """``∫_a^b f`` by ``acb.integral`` (f entire) plus a tail in ``[0, tail]`` (f >= 0 beyond
    the window and bounded by ``tail`` in total)."""
    core = flint.acb.integral(lambda y, _an: f(y), a, b).real
    return core + flint.arb(0).union(tail)


def _window_width() -> float:
    return math.sqrt(2 * (flint.ctx.prec * math.log(2) + 20))


def sgm1_add_quad(ctx: Any, q: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    """``∫ (mix - e^eps N0)_+`` by quadrature over ``y >= y*``, where the likelihood ratio
    ``1 - q + q e^{(2y-1)/(2 s^2)}`` exceeds ``e^eps``: rigorous ``acb.integral`` on a window
    plus the bound ``Phi(-(Y-1)/s)`` of the tail beyond it (arb), or mpmath quadrature (mp)."""
    ee = ctx.exp(eps)
    ystar = ctx.num(Fraction(1, 2)) + sigma**2 * ctx.log((ctx.expm1(eps) + q) / q)
    if ctx.name == "arb":
        top = ystar + 2 + sigma * _window_width()
        c = 1 / (sigma * (2 * flint.arb.pi()).sqrt())

        def g(y: flint.acb) -> flint.acb:
            e0 = (-(y * y) / (2 * sigma**2)).exp()
            e1 = (-((y - 1) ** 2) / (2 * sigma**2)).exp()
            return c * ((1 - q - ee) * e0 + q * e1)

        return _acb_window_integral(g, ystar, top, pld._phi(-(top - 1) / sigma))

    def f(y: Any) -> Any:
        return (1 - q) * _npdf(ctx, y, 0, sigma) + q * _npdf(ctx, y, 1, sigma) \
            - ee * _npdf(ctx, y, 0, sigma)

    return ctx.quad(f, [ystar, ystar + 10 * sigma, ctx.inf])


def sgm1_remove_quad(ctx: Any, q: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    """``∫ (N0 - e^eps mix)_+`` by quadrature over ``y <= y**`` (empty when ``e^-eps <= 1 -
    q``) (mpmath)."""
    c = ctx.exp(-eps) - (1 - q)
    if ctx.name == "arb":
        if ctx.le(c, ctx.zero) is True:
            return ctx.zero
        if ctx.lt(ctx.zero, c) is not True:
            raise PrecisionExhausted("the remove region is undecided at this precision")
    elif not c > 0:
        return ctx.zero
    ee = ctx.exp(eps)
    y2 = ctx.num(Fraction(1, 2)) + sigma**2 * ctx.log(c / q)
    if ctx.name == "arb":
        bottom = y2 - 2 - sigma * _window_width()
        k = 1 / (sigma * (2 * flint.arb.pi()).sqrt())

        def g(y: flint.acb) -> flint.acb:
            e0 = (-(y * y) / (2 * sigma**2)).exp()
            e1 = (-((y - 1) ** 2) / (2 * sigma**2)).exp()
            return k * ((1 - ee * (1 - q)) * e0 - ee * q * e1)

        return _acb_window_integral(g, bottom, y2, pld._phi(bottom / sigma))

    def f(y: Any) -> Any:
        return _npdf(ctx, y, 0, sigma) - ee * ((1 - q) * _npdf(ctx, y, 0, sigma)
                                               + q * _npdf(ctx, y, 1, sigma))

    return ctx.quad(f, [-ctx.inf, y2 - 10 * sigma, y2])


SGM_GRID = Points(tuple({"q": q, "sigma": s, "eps": e}
                        for q, s in (("0.01", "1"), ("0.1", "0.8"), ("0.5", "2"))
                        for e in ("0.01", "0.1", "1")))


def _sgm1_claims() -> tuple[Claim, ...]:
    return (
        Claim(1, "Both closed forms equal the direct hockey-stick quadrature to 1e-35 "
                 "(absolute), (q, s) in {(0.01, 1), (0.1, 0.8), (0.5, 2)}, eps in "
                 "{0.01, 0.1, 1}.",
              (Compare(sgm1_add, "eq", sgm1_add_quad, SGM_GRID, "numeric", Tol.abs("1e-35"),
                       "add closed form", "quadrature of H(mix||N0)"),
               Compare(sgm1_remove, "eq", sgm1_remove_quad, SGM_GRID, "numeric",
                       Tol.abs("1e-35"), "remove closed form", "quadrature of H(N0||mix)"))),
        Claim(2, "remove <= add in the same cases.",
              (Compare(sgm1_remove, "le", sgm1_add, SGM_GRID, "numeric", lhs_name="remove",
                       rhs_name="add"),)),
        Claim(3, "remove <= add over the box q in [0.001, 1], s in [0.5, 10], eps in [0, 5] "
                 "(searched on q <= 0.999, eps >= 0.001: on the faces q = 1 and eps = 0 the two "
                 "directions are equal, which balls cannot certify as <=).",
              (Compare(sgm1_remove, "le", sgm1_add,
                       Box(reals={"q": ("0.001", "0.999"), "sigma": ("0.5", "10"),
                                  "eps": ("0.001", "5")}, log_scale=frozenset({"q", "sigma"})),
                       "property", lhs_name="remove", rhs_name="add"),)),
        Claim(4, "eps(0.01, 1, 1e-5) = 0.19945 (compare 0.95628 from RDP, BALLE20-CONV claim 3).",
              (Compare(sgm1_eps, "eq", lambda ctx, **_: ctx.num("0.19945"),
                       Points(({"q": "0.01", "sigma": "1", "delta": "1e-5"},)), "numeric",
                       Tol.abs("5e-6"), "SGM-1STEP-EXACT.eps(0.01, 1, 1e-5)", "0.19945"),)),
    )


# ==========================================================================================
# Rényi divergences of the subsampled Gaussian


def sgm_rdp_binomial(ctx: Any, q: Any, sigma: Any, alpha: int) -> Any:
    """``D_alpha(mix || N0) = log(sum_{k=0}^{alpha} C(alpha,k) (1-q)^{alpha-k} q^k e^{(k^2 -
    k)/(2 sigma^2)})/(alpha - 1)`` for integer alpha >= 2 ([MTZ19] arXiv 1908.10530v1,
    Sec. 3.3). A sum of nonnegative terms."""
    terms = [ctx.binomial(alpha, k) * ctx.pow(1 - q, alpha - k) * ctx.pow(q, k)
             * ctx.exp(ctx.num(k * k - k) / (2 * sigma**2)) for k in range(alpha + 1)]
    return ctx.log(ctx.fsum(terms)) / (alpha - 1)


def _gen_binomial(ctx: Any, alpha: Any, i: int) -> Any:
    c = ctx.one
    for j in range(1, i + 1):
        c = c * (alpha - (j - 1)) / j
    return c


def sgm_rdp_series(ctx: Any, q: Any, sigma: Any, alpha: Any) -> Any:
    """``D_alpha(mix || N0)`` for real alpha by the two-sided series of [MTZ19] arXiv
    1908.10530v1, Sec. 3.3 (the form of dp_accounting's ``_compute_log_a_frac``): split at
    ``z0 = sigma^2 log(1/q - 1) + 1/2`` and expand ``(1 - q + q r)^alpha`` binomially on each
    side, ``E[r^m; y <= z0] = e^{(m^2-m)/(2 s^2)} Phi((z0 - m)/s)``. The terms decay only
    polynomially and alternate for ``i > alpha``; mpmath's series acceleration sums them (an
    mp-only route, not an enclosure)."""
    if not isinstance(ctx, MpCtx):
        raise Unsupported("the fractional-order series is evaluated in mpmath only")
    m = ctx.m
    if q == 1:
        return alpha / (2 * sigma**2)
    z0 = sigma**2 * ctx.log(1 / q - 1) + ctx.num(Fraction(1, 2))

    def term(i: Any) -> Any:
        i = int(i)
        coef = _gen_binomial(ctx, alpha, i)
        j = alpha - i
        t0 = coef * ctx.pow(q, i) * ctx.pow(1 - q, j) * ctx.exp((i * i - i) / (2 * sigma**2)) \
            * ctx.ncdf((z0 - i) / sigma)
        t1 = coef * ctx.pow(q, j) * ctx.pow(1 - q, i) * ctx.exp((j * j - j) / (2 * sigma**2)) \
            * ctx.ncdf((j - z0) / sigma)
        return t0 + t1

    head_n = int(m.ceil(alpha)) + 2
    head = ctx.fsum(term(i) for i in range(head_n))
    tail = m.nsum(term, [head_n, m.inf], method="alternating")
    return ctx.log(head + tail) / (alpha - 1)


def _acb_normal_expectation(q: flint.arb, sigma: flint.arb, power: flint.arb,
                            direction: str) -> flint.arb:
    """``E_{N0}[(1 - q + q e^{(2y-1)/(2 s^2)})^power]`` as a rigorous ball: ``acb.integral`` on a
    finite window plus explicit bounds of both tails (the integrand is positive)."""
    prec = flint.ctx.prec
    s2 = sigma * sigma
    two_pi_s = sigma * (2 * flint.arb.pi()).sqrt()
    a_f = float(power.mid())
    q_f = max(float(q.mid()), 1e-300)
    w = math.sqrt(2 * (prec * math.log(2) + 30 + abs(a_f) * abs(math.log(q_f))
                       + abs(a_f) ** 2 / (2 * float(s2.mid()))))
    sf = float(sigma.mid())
    lo = -sf * w - abs(a_f) - 1
    hi = sf * w + abs(a_f) + 1
    one = flint.arb(1)

    def f(y: flint.acb, analytic: bool) -> flint.acb:
        r = ((2 * y - 1) / (2 * s2)).exp()
        base = (one - q) + q * r
        return base.pow(flint.acb(power), analytic=analytic) * (-(y * y) / (2 * s2)).exp() \
            / two_pi_s

    core = flint.acb.integral(f, lo, hi).real
    lo_b, hi_b = flint.arb(lo), flint.arb(hi)
    # tails: integrand <= bound(y) phi(y) with explicit Gaussian integrals
    if power >= 0:  # add: (1-q+qr)^a <= 1 for y <= 1/2, <= r^a for y >= 1/2
        left = pld._phi(lo_b / sigma)
        right = ((power * power - power) / (2 * s2)).exp() * pld._phi((power - hi_b) / sigma)
    else:  # remove (power = 1 - alpha < 0): <= 1 for y >= 1/2; <= (qr)^power for y <= 1/2
        right = pld._phi(-hi_b / sigma)
        left = q ** power * ((power * power - power) / (2 * s2)).exp() \
            * pld._phi((lo_b - power) / sigma)
        if q < 1:
            left = left.min((one - q) ** power * pld._phi(lo_b / sigma))
    tails = left + right
    return core + flint.arb(0).union(tails)


def sgm_rdp_quad(ctx: Any, q: Any, sigma: Any, alpha: Any, direction: str = "add") -> Any:
    """``D_alpha`` of the sampled Gaussian by quadrature of ``E_{N0}[(mix/N0)^a]`` with ``a =
    alpha`` (add: ``D_alpha(mix||N0)``) or ``a = 1 - alpha`` (remove: ``D_alpha(N0||mix) =
    log E_{N0}[(mix/N0)^{1-alpha}]/(alpha - 1)``): rigorous ``acb.integral`` in arb, mpmath
    quadrature in mp."""
    if isinstance(ctx, MpCtx):
        power = alpha if direction == "add" else 1 - alpha

        def f(y: Any) -> Any:
            r = ctx.exp((2 * y - 1) / (2 * sigma**2))
            return ctx.pow(1 - q + q * r, power) * _npdf(ctx, y, 0, sigma)

        c = alpha if direction == "add" else 0
        val = ctx.quad(f, [-ctx.inf, ctx.zero, ctx.one, c + 1, ctx.inf])
        return ctx.log(val) / (alpha - 1)
    if ctx.name != "arb":
        raise Unsupported("the RDP quadrature runs in mp (mpmath) or arb (acb.integral)")
    qa, sa, aa = flint.arb(q), flint.arb(sigma), flint.arb(alpha)
    power = aa if direction == "add" else 1 - aa
    val = _acb_normal_expectation(qa, sa, power, direction)
    return val.log() / (aa - 1)


def sgm_tau(ctx: Any, q: Any, sigma: Any, alpha: Any, direction: str = "add") -> Any:
    """MTZ-SGM-RDP.tau: ``D_alpha(mix||N0)`` (add) by the binomial sum at integer alpha and by
    quadrature (arb) or the [MTZ19] series (mp) otherwise; ``D_alpha(N0||mix)`` (remove) by
    quadrature ([MTZ19] arXiv 1908.10530v1, Sec. 3)."""
    a = _as_int(ctx, alpha)
    if direction == "add" and a is not None and a >= 2:
        return sgm_rdp_binomial(ctx, q, sigma, a)
    if direction == "add" and isinstance(ctx, MpCtx):
        return sgm_rdp_series(ctx, q, sigma, alpha)
    return sgm_rdp_quad(ctx, q, sigma, alpha, direction)


STANDARD_ORDERS: tuple[Fraction, ...] = tuple(
    Fraction(x) for x in ("1.25", "1.5", "1.75", "2.25", "2.5", "3.5", "4.5")
) + tuple(Fraction(a) for a in range(2, 257))


_TAU_CACHE: dict[tuple[Any, ...], Any] = {}


def _tau_curve(ctx: Any, q: Any, sigma: Any) -> list[tuple[Any, Any]]:
    """``(alpha, tau(alpha))`` on the standard order grid (cached per context and inputs)."""
    key = (ctx.name, ctx.prec, str(q), str(sigma))
    hit = _TAU_CACHE.get(key)
    if hit is not None:
        return hit
    top = max(int(a) for a in STANDARD_ORDERS if a.denominator == 1)
    # the binomial sums of all integer orders share q^k, (1-q)^j and e^{(k^2-k)/(2 s^2)}
    qp, rp, ep = [ctx.one], [ctx.one], []
    for _ in range(top):
        qp.append(qp[-1] * q)
        rp.append(rp[-1] * (1 - q))
    for k in range(top + 1):
        ep.append(ctx.exp(ctx.num(k * k - k) / (2 * sigma**2)))
    sums: dict[int, Any] = {}
    if ctx.name == "arb":
        # all orders at once: sum_k C(n,k) a_{n-k} b_k = n! [x^n] A(x) B(x) with the exponential
        # generating functions A = sum a_j x^j/j!, B = sum b_k x^k/k! (positive terms, no
        # cancellation); a_j = (1-q)^j, b_k = q^k e^{(k^2-k)/(2 s^2)}
        fac = [flint.arb(math.factorial(j)) for j in range(top + 1)]
        prod = flint.arb_poly([rp[j] / fac[j] for j in range(top + 1)]) * flint.arb_poly(
            [qp[k] * ep[k] / fac[k] for k in range(top + 1)])
        sums = {n: prod[n] * fac[n] for n in range(2, top + 1)}
    out = []
    for a in STANDARD_ORDERS:
        alpha = ctx.num(a)
        if a.denominator == 1:
            n = int(a)
            total = sums.get(n)
            if total is None:
                total = ctx.fsum(ctx.num(math.comb(n, k)) * rp[n - k] * qp[k] * ep[k]
                                 for k in range(n + 1))
            tau = ctx.log(total) / (n - 1)  # = sgm_rdp_binomial(ctx, q, sigma, n)
        else:
            tau = sgm_tau(ctx, q, sigma, alpha)
        out.append((alpha, tau))
    if len(_TAU_CACHE) > 64:
        _TAU_CACHE.clear()
    _TAU_CACHE[key] = out
    return out


def sgm_rdp_eps(ctx: Any, q: Any, sigma: Any, k: int, delta: Any) -> Any:
    """``max(0, min_alpha BALLE20-CONV.eps(alpha, k tau(alpha), delta))`` over the standard
    order grid (catalogue MTZ-SGM-RDP; [BBGHS20] arXiv 1905.09982, Thm 21)."""
    vals = [balle_eps(ctx, a, k * t, delta) for a, t in _tau_curve(ctx, q, sigma)]
    return ctx.max(ctx.zero, ctx.min(*vals))


def sgm_rdp_eps_mironov(ctx: Any, q: Any, sigma: Any, k: int, delta: Any) -> Any:
    """``max(0, min_alpha MIR-RDP-CONV.eps(alpha, k tau(alpha), delta))`` ([Mir17] arXiv
    1702.07476v3, Prop. 3)."""
    vals = [mir_eps(ctx, a, k * t, delta) for a, t in _tau_curve(ctx, q, sigma)]
    return ctx.max(ctx.zero, ctx.min(*vals))


def _sgm_rdp_quad_int(ctx: Any, q: Any, sigma: Any, alpha: Any, **_: Any) -> Any:
    return sgm_rdp_quad(ctx, q, sigma, alpha, "add")


def _sgm_rdp_remove(ctx: Any, q: Any, sigma: Any, alpha: Any, **_: Any) -> Any:
    return sgm_rdp_quad(ctx, q, sigma, alpha, "remove")


RDP_GRID = Points(tuple({"q": q, "sigma": s, "alpha": a}
                        for q, s in (("0.01", "1"), ("0.001", "0.8"), ("0.2", "2"), ("0.5", "0.7"))
                        for a in (2, 3, 8, 20)))

SCENARIOS: tuple[dict[str, Any], ...] = (
    {"scenario": "A", "q": "0.01", "sigma": "1", "k": 1000, "delta": "1e-5"},
    {"scenario": "B", "q": "0.001", "sigma": "0.8", "k": 10000, "delta": "1e-6"},
    {"scenario": "C_ceil", "q": "256/60000", "sigma": "1.1", "k": 14063, "delta": "1e-5"},
    {"scenario": "C_floor", "q": "256/60000", "sigma": "1.1", "k": 14062, "delta": "1e-5"},
)


def _scenario_points(*keys: str) -> Points:
    return Points(tuple({k: s[k] for k in ("q", "sigma", "k", "delta", *keys)} for s in SCENARIOS))


def _optimal_order(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> int:
    """The integer order of the standard grid minimising BALLE20-CONV.eps (floats)."""
    qf, sf, df = float(q), float(sigma), float(delta)
    best, arg = math.inf, 2
    for a in range(2, 257):
        terms = [math.lgamma(a + 1) - math.lgamma(i + 1) - math.lgamma(a - i + 1)
                 + (a - i) * math.log1p(-qf) + i * math.log(qf) + (i * i - i) / (2 * sf * sf)
                 for i in range(a + 1)]
        mx = max(terms)
        tau = (mx + math.log(sum(math.exp(t - mx) for t in terms))) / (a - 1)
        e = k * tau + math.log((a - 1) / a) - (math.log(df) + math.log(a)) / (a - 1)
        if e < best:
            best, arg = e, a
    return arg


def _mtz_claims() -> tuple[Claim, ...]:
    def binom(ctx: Any, q: Any, sigma: Any, alpha: Any, **_: Any) -> Any:
        return sgm_rdp_binomial(ctx, q, sigma, _as_int(ctx, alpha) or 2)

    def at_opt(f: Any) -> Any:
        @exact_params("q", "sigma", "delta")
        def g(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> Any:
            a = _optimal_order(ctx, q, sigma, k, delta)
            return f(ctx, to_ctx(ctx, q), to_ctx(ctx, sigma), ctx.num(a))
        return g

    frac_points = Points(({"q": "0.01", "sigma": "1", "alpha": "2.5"},))
    return (
        Claim(1, "The binomial sum equals quadrature of E_Q[(P/Q)^alpha] to 1e-35 for the 16 "
                 "combinations (q, sigma) in {(0.01, 1), (0.001, 0.8), (0.2, 2), (0.5, 0.7)} x "
                 "alpha in {2, 3, 8, 20} (rigorous acb quadrature); scenario claim 3: at each "
                 "standard scenario's optimal integer order they agree to 20 digits.",
              (Compare(binom, "eq", _sgm_rdp_quad_int, RDP_GRID, "numeric", Tol.abs("1e-35"),
                       "binomial sum", "quadrature of E_Q[(P/Q)^alpha]"),
               Compare(at_opt(lambda c, q, s, a: sgm_rdp_binomial(c, q, s, _as_int(c, a))),
                       "eq", at_opt(lambda c, q, s, a: sgm_rdp_quad(c, q, s, a)),
                       _scenario_points(), "numeric", Tol.rel("1e-20"),
                       "binomial sum at the optimal order", "quadrature"))),
        Claim(2, "The reverse direction is <= the forward one in all 16 combinations.",
              (Compare(_sgm_rdp_remove, "le", binom, RDP_GRID, "numeric",
                       lhs_name="D_alpha(N0||mix)", rhs_name="D_alpha(mix||N0)"),)),
        Claim(3, "Fractional alpha = 2.5 lies between alpha = 2 and alpha = 3 (q = 0.01, "
                 "sigma = 1): RDP is nondecreasing in alpha.",
              (Compare(lambda ctx, q, sigma, **_: sgm_rdp_binomial(ctx, q, sigma, 2), "le",
                       lambda ctx, q, sigma, **_: sgm_tau(ctx, q, sigma, ctx.num("2.5")),
                       Points(({"q": "0.01", "sigma": "1"},)), "numeric",
                       lhs_name="tau(2)", rhs_name="tau(2.5)"),
               Compare(lambda ctx, q, sigma, **_: sgm_tau(ctx, q, sigma, ctx.num("2.5")), "le",
                       lambda ctx, q, sigma, **_: sgm_rdp_binomial(ctx, q, sigma, 3),
                       Points(({"q": "0.01", "sigma": "1"},)), "numeric",
                       lhs_name="tau(2.5)", rhs_name="tau(3)"))),
        Claim(4, "Sharp rise with order: q = 0.01, sigma = 1: the one-step RDP is 8.936e-4 at "
                 "alpha = 8 and 3.0879 at alpha = 16 (to the digits shown).",
              (Compare(lambda ctx, **_: sgm_rdp_binomial(ctx, ctx.num("0.01"), ctx.one, 8), "eq",
                       lambda ctx, **_: ctx.num("8.936e-4"), Points(({},)), "numeric",
                       Tol.abs("5e-8"), "tau(8)", "8.936e-4"),
               Compare(lambda ctx, **_: sgm_rdp_binomial(ctx, ctx.num("0.01"), ctx.one, 16),
                       "eq", lambda ctx, **_: ctx.num("3.0879"), Points(({},)), "numeric",
                       Tol.abs("5e-5"), "tau(16)", "3.0879"))),
        Claim(5, "The fractional-order series equals quadrature at a fractional order of the "
                 "standard grid (alpha = 2.5, q = 0.01, sigma = 1; mpmath, the alternating tail "
                 "accelerated; one order only, for the quick profile's time: tests/"
                 "test_subsampling.py covers all seven fractional orders).",
              (Compare(lambda ctx, q, sigma, alpha, **_: sgm_rdp_series(ctx, q, sigma, alpha),
                       "eq", _sgm_rdp_quad_int, frac_points, "numeric", Tol.rel("1e-20"),
                       "[MTZ19] series", "quadrature", ctx="mp"),)),
        Claim(6, "eps <= eps_mironov for all inputs (scenario claim 1: at each standard DP-SGD "
                 "scenario).",
              (Compare(sgm_rdp_eps, "le", sgm_rdp_eps_mironov,
                       Box(reals={"q": ("0.001", "1"), "sigma": ("0.5", "5"),
                                  "delta": ("1e-12", "0.1")}, ints={"k": (1, 20000)},
                           log_scale=frozenset({"q", "sigma", "delta"})),
                       "property", lhs_name="MTZ-SGM-RDP.eps", rhs_name="eps_mironov"),
               Compare(sgm_rdp_eps, "le", sgm_rdp_eps_mironov, _scenario_points(), "numeric",
                       lhs_name="MTZ-SGM-RDP.eps", rhs_name="eps_mironov"))),
        Claim(7, "eps(q, sigma, k, delta) >= the exact eps of the k-step composition (certified "
                 "upper end of the SGM-PLD-COMP enclosure); at k = 1 also >= SGM-1STEP-EXACT.",
              (Compare(sgm_rdp_eps, "ge", _pld_eps_hi(rel_width=0.02),
                       Points(({"q": "0.05", "sigma": "1.5", "k": 50, "delta": "1e-6"},
                               {"q": "0.1", "sigma": "2", "k": 200, "delta": "1e-5"})),
                       "numeric", lhs_name="MTZ-SGM-RDP.eps",
                       rhs_name="upper end of the certified PLD enclosure"),
               Compare(sgm_rdp_eps, "ge", lambda ctx, q, sigma, delta, **_:
                       sgm1_eps(ctx, q, sigma, delta),
                       Points(({"q": "0.01", "sigma": "1", "k": 1, "delta": "1e-5"},)),
                       "numeric", lhs_name="MTZ-SGM-RDP.eps (k = 1)",
                       rhs_name="SGM-1STEP-EXACT.eps"))),
    )


# ==========================================================================================
# STK-ANALYTIC-RDP


def analytic_rdp(ctx: Any, q: Any, alpha: int, moment: Callable[[int], Any]) -> Any:
    """``log[(1-p)^{alpha-1}(1 + (alpha-1)p) + sum_{j=2}^{alpha} C(alpha,j)(1-p)^{alpha-j} p^j
    e^{(j-1) eps_j}]/(alpha-1)``, with ``moment(j) = e^{(j-1) eps_j}`` (as attributed to [S22]
    arXiv 2210.00597v4 Secs. 6.5-6.6 by third-party code; cf. [ZW19] Thm 6)."""
    head = ctx.pow(1 - q, alpha - 1) * (1 + (alpha - 1) * q)
    terms = [ctx.binomial(alpha, j) * ctx.pow(1 - q, alpha - j) * ctx.pow(q, j) * moment(j)
             for j in range(2, alpha + 1)]
    return ctx.log(head + ctx.fsum(terms)) / (alpha - 1)


def analytic_tau(ctx: Any, q: Any, sigma: Any, alpha: int) -> Any:
    """Gaussian base: ``eps_j = j/(2 sigma^2)`` (MIR-RDP-GAUSS), so ``e^{(j-1) eps_j} =
    e^{(j^2 - j)/(2 sigma^2)}``."""
    return analytic_rdp(ctx, q, alpha, lambda j: ctx.exp(ctx.num(j * j - j) / (2 * sigma**2)))


def laplace_moment(ctx: Any, b: Any, j: int) -> Any:
    """``e^{(j-1) tau_j}`` of Laplace with scale b, sensitivity 1: ``j/(2j-1) e^{(j-1)/b} +
    (j-1)/(2j-1) e^{-j/b}`` ([Mir17] arXiv 1702.07476v3, Prop. 6)."""
    return (ctx.num(Fraction(j, 2 * j - 1)) * ctx.exp((j - 1) / b)
            + ctx.num(Fraction(j - 1, 2 * j - 1)) * ctx.exp(-j / b))


def rr_moment(ctx: Any, eps0: Any, j: int) -> Any:
    """``e^{(j-1) eps_hat_j}`` of eps0-RR: ``(e^{j eps0} + e^{eps0} e^{-j eps0})/(e^eps0 + 1)``
    (STK-PDP-ZCDP.tau, [SteinkeBlog24] Thm 4)."""
    z = ctx.exp(eps0)
    return (ctx.exp(j * eps0) + z * ctx.exp(-j * eps0)) / (z + 1)


def analytic_tau_laplace(ctx: Any, q: Any, b: Any, alpha: int) -> Any:
    return analytic_rdp(ctx, q, alpha, lambda j: laplace_moment(ctx, b, j))


def analytic_tau_rr(ctx: Any, q: Any, eps0: Any, alpha: int) -> Any:
    return analytic_rdp(ctx, q, alpha, lambda j: rr_moment(ctx, eps0, j))


def _laplace_mix_renyi(ctx: Any, q: Any, b: Any, alpha: Any, direction: str) -> Any:
    """Exact ``D_alpha(mix||Q)`` (add) or ``D_alpha(Q||mix)`` (remove) with ``Q = Lap(0, b)``,
    ``P = Lap(1, b)``, ``mix = (1-q) Q + q P``: two constant pieces and a quadrature on
    ``[0, 1]`` (mpmath)."""
    power = alpha if direction == "add" else 1 - alpha
    lo = ctx.pow(1 - q + q * ctx.exp(-1 / b), power) / 2
    hi = ctx.pow(1 - q + q * ctx.exp(1 / b), power) * ctx.exp(-1 / b) / 2

    def f(y: Any) -> Any:
        return ctx.exp(-y / b) / (2 * b) * ctx.pow(1 - q + q * ctx.exp((2 * y - 1) / b), power)

    return ctx.log(lo + hi + ctx.quad(f, [ctx.zero, ctx.num(Fraction(1, 2)), ctx.one])) / (
        alpha - 1)


def _rr_mix_renyi(ctx: Any, q: Any, eps0: Any, alpha: Any, direction: str) -> Any:
    rr1, rr0 = randomized_response(ctx, eps0)
    mix = _mix(q, rr0, rr1)
    return renyi(ctx, mix, rr0, alpha) if direction == "add" else renyi(ctx, rr0, mix, alpha)


def _analytic_claims() -> tuple[Claim, ...]:
    grid = Points(tuple({"q": q, "base": base, "alpha": a} for q in ("0.05", "0.3")
                        for base in ("laplace", "rr") for a in (2, 4, 10)))

    def bound(ctx: Any, q: Any, base: str, alpha: Any, **_: Any) -> Any:
        a = _as_int(ctx, alpha) or 2
        if base == "laplace":
            return analytic_tau_laplace(ctx, q, ctx.one, a)
        return analytic_tau_rr(ctx, q, ctx.one, a)

    def exact(direction: str) -> Any:
        def f(ctx: Any, q: Any, base: str, alpha: Any, **_: Any) -> Any:
            if base == "laplace":
                return _laplace_mix_renyi(ctx, q, ctx.one, alpha, direction)
            return _rr_mix_renyi(ctx, q, ctx.one, alpha, direction)
        return f

    def draw(rng: random.Random) -> dict[str, Any]:
        p, q0 = random_pair(rng)
        return {"p": p, "q0": q0, "qq": Fraction(rng.randint(1, 1000), 1000),
                "alpha": rng.randint(2, 12)}

    def identity_lhs(ctx: Any, p: Any, q0: Any, qq: Any, alpha: int, **_: Any) -> Any:
        return renyi(ctx, _mix(qq, q0, p), q0, alpha)

    def identity_rhs(ctx: Any, p: Any, q0: Any, qq: Any, alpha: int, **_: Any) -> Any:
        return analytic_rdp(ctx, qq, alpha,
                            lambda j: ctx.exp((j - 1) * renyi(ctx, p, q0, ctx.num(j))))

    return (
        Claim(1, "With eps_j = j/(2 sigma^2) the bound equals MTZ-SGM-RDP to 1e-40 on the 16 "
                 "combinations of MTZ-SGM-RDP claim 1.",
              (Compare(lambda ctx, q, sigma, alpha, **_: analytic_tau(ctx, q, sigma,
                                                                      _as_int(ctx, alpha) or 2),
                       "eq", lambda ctx, q, sigma, alpha, **_: sgm_rdp_binomial(
                           ctx, q, sigma, _as_int(ctx, alpha) or 2),
                       RDP_GRID, "numeric", Tol.abs("1e-40"), "STK-ANALYTIC-RDP.tau",
                       "MTZ-SGM-RDP.tau"),)),
        Claim(2, "Forward (add) direction, Laplace b = 1 and RR eps0 = 1, p in {0.05, 0.3}, "
                 "alpha in {2, 4, 10}: the bound equals the exact D_alpha(mix||Q) to 1e-30.",
              (Compare(bound, "eq", exact("add"), grid, "numeric", Tol.abs("1e-30"),
                       "STK-ANALYTIC-RDP bound", "exact D_alpha(mix||Q)", ctx="mp"),)),
        Claim(3, "Reverse (remove) direction, same grid: D_alpha(Q||mix) <= the bound "
                 "(numerically supported only).",
              (Compare(exact("remove"), "le", bound, grid, "numeric",
                       lhs_name="exact D_alpha(Q||mix)", rhs_name="STK-ANALYTIC-RDP bound",
                       ctx="mp"),)),
        Claim(4, "The binomial identity E_Q[((1-p) + pL)^alpha] = sum_j C(alpha,j) (1-p)^(alpha-j) "
                 "p^j e^{(j-1) D_j(P||Q)} holds for random finite pairs and integer alpha <= 12.",
              (Compare(identity_lhs, "eq", identity_rhs,
                       Generated(draw, 200, "random finite pairs, alpha in 2..12"), "oracle",
                       Tol.abs("1e-40"), "D_alpha(mix||Q)", "the bound with eps_j = D_j(P||Q)"),)),
    )


# ==========================================================================================
# SGM-PLD-COMP


DEFAULT_REL_WIDTH = 1e-3
MAX_SECONDS = 100.0


@exact_params("q", "sigma", "delta")
def pld_eps(ctx: Any, q: Any, sigma: Any, k: int, delta: Any,
            neighboring: str = "add_remove") -> Any:
    """Certified eps(delta) of k steps of the Poisson-subsampled Gaussian: the ball ``[lo,
    hi]`` of :func:`theorems.pld.enclose_eps` (relative width 1e-3 by default; [S22] arXiv
    2210.00597v4 Sec. 4 composition by convolution, [DGKKM22] discretisation)."""
    return _pld_eps_enclosure(ctx, q, sigma, k, delta, neighboring, DEFAULT_REL_WIDTH).ball()


@exact_params("q", "sigma", "eps")
def pld_delta(ctx: Any, q: Any, sigma: Any, k: int, eps: Any,
              neighboring: str = "add_remove") -> Any:
    """Certified delta(eps) of k steps of the Poisson-subsampled Gaussian (max over the
    directions of the relation)."""
    _arb_only(ctx)
    enc = pld.enclose_delta(pld.sgm_pairs(_arb_param(q), _arb_param(sigma), neighboring), k,
                            _arb_param(eps), DEFAULT_REL_WIDTH, MAX_SECONDS)
    return enc.ball()


def _arb_only(ctx: Any) -> None:
    if ctx.name != "arb":
        raise Unsupported("certified PLD accounting returns arb enclosures only")


_ENCLOSURES: dict[tuple[Any, ...], pld.Enclosure] = {}


def _pld_eps_enclosure(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, neighboring: str,
                       rel_width: float, h: Fraction | None = None,
                       upper_only: bool = False) -> pld.Enclosure:
    _arb_only(ctx)
    key = (str(q), str(sigma), k, str(delta), neighboring, rel_width, h, upper_only)
    hit = _ENCLOSURES.get(key)
    if hit is None:
        pairs = pld.sgm_pairs(_arb_param(q), _arb_param(sigma), neighboring)
        hit = pld.enclose_eps(pairs, k, _arb_param(delta), rel_width, MAX_SECONDS, h,
                              upper_only=upper_only)
        if len(_ENCLOSURES) > 256:
            _ENCLOSURES.clear()
        _ENCLOSURES[key] = hit
    return hit


def _pld_eps_hi(rel_width: float) -> Callable[..., Any]:
    """The certified upper end of the PLD enclosure on a grid meant for ``rel_width`` (only the
    upper PLD is composed)."""

    @exact_params("q", "sigma", "delta")
    def hi(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> Any:
        enc = _pld_eps_enclosure(ctx, q, sigma, k, delta, "add_remove", rel_width,
                                 upper_only=True)
        return pld._arb(enc.hi)
    return hi


def _contains(outer: flint.arb, inner: flint.arb) -> bool | None:
    """True if ``inner ⊂ outer``, False if they are disjoint, None otherwise."""
    if inner.lower() >= outer.lower() and inner.upper() <= outer.upper():
        return True
    if inner.upper() < outer.lower() or inner.lower() > outer.upper():
        return False
    return None


def _pld_claims() -> tuple[Claim, ...]:
    @exact_params("q", "sigma", "delta")
    def q1_gauss(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> bool | None:
        enc = pld_eps(ctx, q, sigma, k, delta)
        exact = gauss_eps(ctx, to_ctx(ctx, sigma) / ctx.sqrt(ctx.num(k)), to_ctx(ctx, delta))
        return _contains(enc, flint.arb(exact))

    @exact_params("q", "sigma", "eps")
    def q1_gauss_delta(ctx: Any, q: Any, sigma: Any, k: int, eps: Any, **_: Any) -> bool | None:
        enc = pld_delta(ctx, q, sigma, k, eps)
        exact = gauss_delta(ctx, to_ctx(ctx, sigma) / ctx.sqrt(ctx.num(k)), to_ctx(ctx, eps))
        return _contains(enc, flint.arb(exact))

    @exact_params("q", "sigma", "delta")
    def k1_exact(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> bool | None:
        enc = pld_eps(ctx, q, sigma, k, delta)
        exact = sgm1_eps(ctx, to_ctx(ctx, q), to_ctx(ctx, sigma), to_ctx(ctx, delta))
        return _contains(enc, flint.arb(exact))

    @exact_params("q", "sigma", "eps")
    def k1_exact_delta(ctx: Any, q: Any, sigma: Any, k: int, eps: Any, **_: Any) -> bool | None:
        enc = pld_delta(ctx, q, sigma, k, eps)
        exact = sgm1_delta(ctx, to_ctx(ctx, q), to_ctx(ctx, sigma), to_ctx(ctx, eps))
        return _contains(enc, flint.arb(exact))

    @exact_params("q", "sigma", "delta", "h")
    def narrows(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, h: Any, **_: Any) -> bool:
        encs = [_pld_eps_enclosure(ctx, q, sigma, k, delta, "add_remove", 1.0,
                                   Fraction(h) / 2**i) for i in range(3)]
        widths = [e.hi - e.lo for e in encs]
        nested = all(a.lo <= b.hi and b.lo <= a.hi for a in encs for b in encs)
        return nested and widths[0] > widths[1] > widths[2]

    def lhs_mono(ctx: Any, q: Any, sigma: Any, k: int, dq: Any, ds: Any, dk: int,
                 **_: Any) -> Any:
        return _mono_eps(ctx, q, sigma + ds, k)

    def rhs_mono(ctx: Any, q: Any, sigma: Any, k: int, dq: Any, ds: Any, dk: int,
                 **_: Any) -> Any:
        return _mono_eps(ctx, min(q + dq, Fraction(1)), sigma, k + dk)

    lhs_mono.exact_params = ("q", "sigma", "dq", "ds")  # type: ignore[attr-defined]
    rhs_mono.exact_params = ("q", "sigma", "dq", "ds")  # type: ignore[attr-defined]

    return (
        Claim(1, "With q = 1 the enclosure contains the exact k-fold Gaussian value "
                 "(BW-ANALYTIC-GAUSS with sigma/sqrt(k)), for eps(delta) and delta(eps).",
              (Predicate(q1_gauss, Points(({"q": "1", "sigma": "1", "k": 1, "delta": "1e-5"},
                                           {"q": "1", "sigma": "2", "k": 10, "delta": "1e-5"},
                                           {"q": "1", "sigma": "5", "k": 64, "delta": "1e-6"})),
                         "numeric", "BW eps(sigma/sqrt(k), delta) in the PLD enclosure"),
               Predicate(q1_gauss_delta, Points(({"q": "1", "sigma": "2", "k": 10, "eps": "1"},
                                                 {"q": "1", "sigma": "1", "k": 3,
                                                  "eps": "0.5"})),
                         "numeric", "BW delta(sigma/sqrt(k), eps) in the PLD enclosure"))),
        Claim(2, "With k = 1 the enclosure contains SGM-1STEP-EXACT (eps(delta) and "
                 "delta(eps)).",
              (Predicate(k1_exact, Points(({"q": "0.01", "sigma": "1", "k": 1, "delta": "1e-5"},
                                           {"q": "0.1", "sigma": "0.8", "k": 1,
                                            "delta": "1e-6"},
                                           {"q": "0.5", "sigma": "2", "k": 1,
                                            "delta": "1e-3"})),
                         "numeric", "SGM-1STEP-EXACT.eps in the PLD enclosure"),
               Predicate(k1_exact_delta, Points(({"q": "0.01", "sigma": "1", "k": 1,
                                                  "eps": "0.1"},
                                                 {"q": "0.1", "sigma": "0.8", "k": 1,
                                                  "eps": "1"})),
                         "numeric", "SGM-1STEP-EXACT.delta in the PLD enclosure"))),
        Claim(3, "The enclosure narrows monotonically as the grid is refined (steps h, h/2, "
                 "h/4: widths strictly decreasing, enclosures pairwise intersecting). The "
                 "relative width <= 1e-3 at the standard scenarios is a performance goal "
                 "measured in bench/bench_pld.py, not checked here.",
              (Predicate(narrows, Points(({"q": "0.1", "sigma": "1", "k": 10,
                                           "delta": "1e-5", "h": "1/128"},
                                          {"q": "1", "sigma": "2", "k": 10, "delta": "1e-5",
                                           "h": "1/16"})),
                         "numeric", "width(h) > width(h/2) > width(h/4), enclosures meet"),)),
        Claim(4, "The RDP-based eps (MTZ-SGM-RDP.eps) is >= the enclosure's upper end at every "
                 "standard scenario (scenario claim 2).",
              (Compare(sgm_rdp_eps, "ge", _pld_eps_hi(rel_width=0.05), _scenario_points(),
                       "numeric", lhs_name="MTZ-SGM-RDP.eps",
                       rhs_name="upper end of the certified PLD enclosure"),)),
        Claim(5, "eps is nondecreasing in k and in q and nonincreasing in sigma: eps(q, sigma + "
                 "ds, k) <= eps(q + dq, sigma, k + dk) certified by disjoint enclosures; scenario "
                 "claim 4 (more steps never decrease eps) at C_ceil/C_floor for the RDP "
                 "accounting, which resolves the 4e-5 relative difference.",
              (Compare(lhs_mono, "le", rhs_mono,
                       Box(reals={"q": ("0.05", "0.5"), "sigma": ("0.8", "2"),
                                  "dq": ("0.02", "0.2"), "ds": ("0.1", "0.5")},
                           ints={"k": (1, 12), "dk": (1, 8)}),
                       "property", lhs_name="eps(q, sigma + ds, k)",
                       rhs_name="eps(q + dq, sigma, k + dk)"),
               Compare(lambda ctx, q, sigma, delta, **_: sgm_rdp_eps(ctx, q, sigma, 14062, delta),
                       "le",
                       lambda ctx, q, sigma, delta, **_: sgm_rdp_eps(ctx, q, sigma, 14063, delta),
                       Points(({"q": "256/60000", "sigma": "1.1", "delta": "1e-5"},)), "numeric",
                       lhs_name="MTZ-SGM-RDP.eps(C_floor)",
                       rhs_name="MTZ-SGM-RDP.eps(C_ceil)"))),
    )


def _mono_eps(ctx: Any, q: Fraction, sigma: Fraction, k: int) -> Any:
    return _pld_eps_enclosure(ctx, q, sigma, k, Fraction(1, 10**5), "add_remove", 0.01).ball()


# ==========================================================================================
# STK-HOWTO


def _howto_claims() -> tuple[Claim, ...]:
    def draw(rng: random.Random) -> dict[str, Any]:
        return {"k": rng.randint(2, 8), "q": Fraction(rng.randint(1, 999), 1000),
                "eps0": Fraction(rng.randint(1, 300), 100)}

    def shared_eps(ctx: Any, k: int, q: Any, eps0: Any, **_: Any) -> Any:
        rr1, rr0 = randomized_response(ctx, eps0)
        p, q0 = [], []
        for out in itertools.product((0, 1), repeat=k):
            a = b = ctx.one
            for o in out:
                a, b = a * rr1[o], b * rr0[o]
            p.append((1 - q) * b + q * a)
            q0.append(b)
        return max_log_ratio(ctx, p, q0)

    def superadd_problem(k: int) -> Callable[[], SmtProblem]:
        def build() -> SmtProblem:
            y, q = _sym("y", "q")
            return SmtProblem({"y": "real", "q": "real"}, (y > 1, q > 0, q < 1),
                              1 + q * (y**k - 1) > (1 + q * (y - 1)) ** k,
                              ("y = e^eps0", f"k = {k}"))
        return build

    def witness_eps(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
        z = ctx.exp(eps0)
        a = (1 / (1 + z), z / (1 + z))
        bb = (z / (1 + z), 1 / (1 + z))
        bp = (1 / (z * (1 + z)), 1 - 1 / (z * (1 + z)))
        return max_log_ratio(ctx, _mix(q, a, bb), _mix(q, a, bp))

    def random_triple_eps(ctx: Any, eps0: Any, q: Any, seed: int, **_: Any) -> Any:
        rng = random.Random(seed)
        a = random_distribution(rng, rng.randint(2, 5))
        ratio = ctx.exp(eps0)
        ca = ctx.convert(a)

        def tilt() -> tuple[Any, ...]:
            # B/A in [e^-eps0, e^eps0]: B = A * w / sum(A * w), w in [e^-eps0/2, e^eps0/2]
            ws = [ctx.exp(eps0 * ctx.num(Fraction(rng.randint(0, 100), 100) - Fraction(1, 2)))
                  for _ in a]
            s = ctx.fsum(x * w for x, w in zip(ca, ws, strict=True))
            return tuple(x * w / s for x, w in zip(ca, ws, strict=True))

        del ratio
        b, bp = tilt(), tilt()
        return max_log_ratio(ctx, _mix(q, ca, b), _mix(q, ca, bp))

    repl = lambda ctx, eps0, q, **_: relation_eps(ctx, eps0, q, "replace_one")  # noqa: E731
    return (
        Claim(1, "Scheme mismatch witness: k-fold eps0-RR of one inclusion bit on one shared "
                 "Poisson subsample has exact pure eps log(1 + q(e^{k eps0} - 1)), which exceeds "
                 "k log(1 + q(e^eps0 - 1)) for k >= 2 (superadditivity, [smt] for k = 2, 3).",
              (Compare(shared_eps, "eq",
                       lambda ctx, k, q, eps0, **_: ctx.log1p(q * ctx.expm1(k * eps0)),
                       Generated(draw, 100, "k in 2..8, q, eps0"), "oracle", Tol.abs("1e-40"),
                       "exact eps of the shared subsample", "log(1 + q(e^{k eps0} - 1))"),
               Compare(shared_eps, "gt", lambda ctx, k, q, eps0, **_: k * amp_eps(ctx, eps0, q),
                       Generated(draw, 100, "k in 2..8, q, eps0"), "oracle",
                       lhs_name="exact eps of the shared subsample",
                       rhs_name="k log(1 + q(e^eps0 - 1))"),
               Smt(superadd_problem(2), "1 + q(y^2 - 1) > (1 + q(y - 1))^2, y > 1, 0 < q < 1"),
               Smt(superadd_problem(3), "1 + q(y^3 - 1) > (1 + q(y - 1))^3, y > 1, 0 < q < 1"))),
        Claim(2, "Relation mismatch: under replace-one, a pure eps0-DP base gives a per-step eps "
                 "up to STK-ADDREM-VS-REPL.eps(eps0, q, replace_one), attained by a witness "
                 "triple (A, B, B'); so an accountant configured for replace-one must report at "
                 "least this value. Random triples never exceed it.",
              (Compare(witness_eps, "eq", repl,
                       Box(reals={"eps0": ("0.01", "5"), "q": ("0.001", "1")},
                           log_scale=frozenset({"q"})),
                       "property", Tol.abs("1e-40"), "exact eps of the witness pair",
                       "eps'_repl"),
               Compare(random_triple_eps, "le", repl,
                       Box(reals={"eps0": ("0.01", "5"), "q": ("0.001", "1")},
                           ints={"seed": (0, 10**6)}, log_scale=frozenset({"q"})),
                       "property", lhs_name="exact eps of a random replace-one pair",
                       rhs_name="eps'_repl"))),
        Claim(3, "Conversion (rule 4): an RDP-based eps is >= the exact eps: MTZ-SGM-RDP.eps at "
                 "k = 1 is >= SGM-1STEP-EXACT.eps over a box of (q, sigma, delta), checked in "
                 "the equivalent form SGM-1STEP-EXACT.delta(RDP eps) <= delta (the exact profile "
                 "is decreasing).",
              (Compare(lambda ctx, q, sigma, delta, **_: sgm1_delta(
                           ctx, q, sigma, sgm_rdp_eps(ctx, q, sigma, 1, delta)),
                       "le", lambda ctx, delta, **_: delta,
                       Box(reals={"q": ("0.001", "1"), "sigma": ("0.6", "5"),
                                  "delta": ("1e-10", "0.1")},
                           log_scale=frozenset({"q", "sigma", "delta"})),
                       "property", lhs_name="SGM-1STEP-EXACT.delta(MTZ-SGM-RDP.eps at k = 1)",
                       rhs_name="delta"),)),
    )


# ==========================================================================================
# Theorems

Q_FRACTION = replace(Q, doc="sample fraction m/n (give it as a fraction m/n)")
DIRECTION_MAX = Choice("direction", ("add", "remove", "max"), default="max",
                       doc="add (mix vs N0), remove (N0 vs mix) or their maximum")
DIRECTION_RDP = Choice("direction", ("add", "remove"), default="add")
ALPHA_INT = Int("alpha", lo=2, doc="integer Renyi order >= 2")
DELTA0_OPT = replace(DELTA0, default="0")

BBG_T8 = Theorem(
    id="BBG-T8",
    title="Amplification by Poisson subsampling for (eps, delta)-DP",
    family=FAMILY,
    source=_src(BBG, "Thm 8 (advanced joint convexity: Thm 2); [S22] Sec. 6.1"),
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
    source=_src(BBG, "Thm 9"),
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
    claims=_bbg9_claims(),
    notes="q = m/n must be a ratio of integers 1 <= m <= n; the evaluator accepts it as a "
          "fraction m/n.",
)

BBG_T10 = Theorem(
    id="BBG-T10",
    title="Amplification by sampling with replacement",
    family=FAMILY,
    source=_src(BBG, "Thm 10"),
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

STK_ADDREM_VS_REPL = Theorem(
    id="STK-ADDREM-VS-REPL",
    title="Add/remove versus replacement under Poisson subsampling",
    family=FAMILY,
    source=_src(S22, "Sec. 6.2 (the formula is derived; the chapter's statement was not "
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
    source=_src(S22, "Sec. 6.3 (exact statement not recovered)"),
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

SGM_1STEP_EXACT = Theorem(
    id="SGM-1STEP-EXACT",
    title="Exact one-step privacy profile of the Poisson-subsampled Gaussian",
    family=FAMILY,
    source=_src(BBG, "derived from advanced joint convexity (Thm 2); no theorem number"),
    types=("EXACT",),
    confidence=("DERIVED",),
    statement="add (mix vs N0): q delta_G(log(1 + (e^eps - 1)/q)); remove (N0 vs mix): with a = "
              "e^eps (1-q), (1 - a) delta_G(log(e^eps q/(1 - a))) if a < 1, else 0; delta_G = "
              "BW-ANALYTIC-GAUSS with mu = 1/s; the profile is the maximum.",
    domain="q in (0, 1], s > 0, eps >= 0",
    evaluators=(
        Evaluator("delta", (Q, SIGMA, EPS, DIRECTION_MAX), sgm1_delta,
                  "add, remove, or their maximum (default)"),
        Evaluator("eps", (Q, SIGMA, DELTA), sgm1_eps,
                  "least eps >= 0 with max(add, remove) <= delta"),
    ),
    claims=_sgm1_claims(),
    notes="Claim 3 is searched by the property route only: interval branch and bound on the "
          "closed forms (3000 boxes, about 40 s) certified no box where the remove direction "
          "is positive (the Gaussian profile's box enclosures cancel), and the faces q = 1 and "
          "eps = 0, where both directions are equal, cannot be certified as <= by balls.",
)

MTZ_SGM_RDP = Theorem(
    id="MTZ-SGM-RDP",
    title="RDP of the Poisson-subsampled Gaussian (sampled Gaussian mechanism)",
    family=FAMILY,
    source=_src(MTZ19, "Sec. 3 (integer orders: Sec. 3.3; fractional orders: Sec. 3.3 series); "
                       "[S22] Sec. 6.5"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="D_alpha(mix || N(0, sigma^2)) with mix = (1-q)N(0, sigma^2) + qN(1, sigma^2); "
              "for integer alpha >= 2: (1/(alpha-1)) log sum_k C(alpha,k) (1-q)^{alpha-k} q^k "
              "exp((k^2 - k)/(2 sigma^2)); D_alpha(N0||mix) <= D_alpha(mix||N0).",
    domain="q in (0, 1], sigma > 0, alpha > 1",
    evaluators=(
        Evaluator("tau", (Q, SIGMA, ALPHA, DIRECTION_RDP), sgm_tau,
                  "D_alpha(mix||N0) (add; binomial sum at integer alpha, rigorous quadrature "
                  "otherwise) or D_alpha(N0||mix) (remove)"),
        Evaluator("eps", (Q, SIGMA, K, DELTA), sgm_rdp_eps,
                  "max(0, min over the standard order grid of BALLE20-CONV.eps(alpha, k tau, "
                  "delta))"),
        Evaluator("eps_mironov", (Q, SIGMA, K, DELTA), sgm_rdp_eps_mironov,
                  "max(0, min over the standard order grid of MIR-RDP-CONV.eps(alpha, k tau, "
                  "delta))"),
    ),
    claims=_mtz_claims(),
    aliases=("STK-SHARP-RDP",),
    notes="Standard order grid: 1.25, 1.5, 1.75, 2.25, 2.5, 3.5, 4.5 and every integer 2..256.",
)

STK_ANALYTIC_RDP = Theorem(
    id="STK-ANALYTIC-RDP",
    title="General RDP bound for Poisson subsampling",
    family=FAMILY,
    source=_src(S22, "Secs. 6.5-6.6 (attributed by third-party code; not confirmed); cf. "
                     "[ZW19] Thm 6"),
    types=("EXACT", "BOUND"),
    confidence=("UNCERTAIN",),
    statement="For integer alpha >= 2 and M (j, eps_j)-RDP (j = 2..alpha): eps'_alpha = "
              "(1/(alpha-1)) log[(1-p)^{alpha-1}(1 + (alpha-1)p) + sum_{j=2}^{alpha} C(alpha,j) "
              "(1-p)^{alpha-j} p^j e^{(j-1) eps_j}]; an exact identity for the add direction "
              "when eps_j = D_j(P||Q).",
    domain="integer alpha >= 2, p in (0, 1], eps_j >= 0",
    evaluators=(
        Evaluator("tau", (Q, SIGMA, ALPHA_INT), analytic_tau,
                  "Gaussian base eps_j = j/(2 sigma^2)"),
        Evaluator("tau_laplace", (Q, B, ALPHA_INT), analytic_tau_laplace,
                  "Laplace base eps_j = MIR-RDP-LAP.tau(b, j)"),
        Evaluator("tau_rr", (Q, replace(EPS0, lo=0), ALPHA_INT), analytic_tau_rr,
                  "RR base eps_j = STK-PDP-ZCDP.tau(eps0, j)"),
    ),
    claims=_analytic_claims(),
    notes="Whether [S22] Sec. 6.6 ('Analytic Renyi DP bound') is this binomial sum or a "
          "closed-form simplification could not be read in the stored corpora (open question "
          "12); the remove direction is only numerically supported.",
)

SGM_PLD_COMP = Theorem(
    id="SGM-PLD-COMP",
    title="Certified composition of the Poisson-subsampled Gaussian (PLD accounting)",
    family=FAMILY,
    source=_src(S22, "Sec. 4 (composition is convolution); discretisation: Meiser-Mohammadi "
                     "2018, Doroshenko et al. arXiv 2207.04380v1; Gopi-Lee-Wutschitz arXiv "
                     "2106.02848"),
    types=("EXACT", "ALGORITHM"),
    confidence=("HIGH",),
    statement="delta_k(eps) = max over direction of E[(1 - e^{eps - Z_1 - ... - Z_k})_+], Z_j "
              "i.i.d. one-step losses; an upper PLD (dominating pair: interval mass split to "
              "its end points, tails moved up / to +inf) and a lower PLD (post-processing: "
              "merged intervals rebalanced to losses >= their grid points, tails dropped), "
              "composed exactly in integers, enclose it; eps(delta) by monotone inversion.",
    domain="q in (0, 1], sigma > 0, k integer >= 1, eps real, delta in (0, 1), neighboring in "
           "{add_remove, replace_one}",
    evaluators=(
        Evaluator("eps", (Q, SIGMA, K, DELTA, NEIGHBORING), pld_eps,
                  "least eps >= 0 with delta_k(eps) <= delta: midpoint and rigorous enclosure",
                  enclosure_only=True),
        Evaluator("delta", (Q, SIGMA, K, EPS_REAL, NEIGHBORING), pld_delta,
                  "delta_k(eps) with a rigorous enclosure", enclosure_only=True),
    ),
    claims=_pld_claims(),
    notes="The reference for accountant audits: an accountant's eps below the lower end is a "
          "certified privacy bug; above the upper end it is loose. Default accuracy: relative "
          "width 1e-3 (grid refined automatically, at most 100 s).",
)

STK_HOWTO = Theorem(
    id="STK-HOWTO",
    title="How to use amplification (rules for accountants)",
    family=FAMILY,
    source=_src(S22, "Sec. 6.7 (content not recovered; the rules are a synthesis)"),
    types=("ALGORITHM",),
    confidence=("DERIVED",),
    statement="1. The implemented sampling scheme must match the accounted one. 2. The "
              "neighbouring relation must match. 3. Account with RDP or PLD over all steps; "
              "never amplify an already composed guarantee. 4. Use the improved conversion and a "
              "dense order grid; the final eps must be >= the exact PLD-based eps.",
    domain="accountant configurations (sampling scheme, relation, q, sigma, steps, delta)",
    claims=_howto_claims(),
    notes="The standard DP-SGD scenarios of the catalogue are the inputs of SGM-PLD-COMP claim "
          "4 and MTZ-SGM-RDP claims 1 and 6.",
)

THEOREMS: tuple[Theorem, ...] = (
    BBG_T8,
    BBG_T9,
    BBG_T10,
    STK_ADDREM_VS_REPL,
    STK_SUBSAMPLE_COMP,
    SGM_1STEP_EXACT,
    MTZ_SGM_RDP,
    STK_ANALYTIC_RDP,
    STK_HOWTO,
    SGM_PLD_COMP,
)

__all__ = [
    "SCENARIOS",
    "STANDARD_ORDERS",
    "THEOREMS",
    "amp_delta",
    "amp_eps",
    "analytic_tau",
    "pld_delta",
    "pld_eps",
    "relation_eps",
    "sgm1_add",
    "sgm1_delta",
    "sgm1_eps",
    "sgm1_remove",
    "sgm_rdp_binomial",
    "sgm_rdp_eps",
    "sgm_rdp_eps_mironov",
    "sgm_rdp_quad",
    "sgm_tau",
    "subsample_comp_eps",
]
