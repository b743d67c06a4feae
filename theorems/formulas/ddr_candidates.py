"""The finite candidate set of [DDR] Thm 3 and its certified pruned search.

The non-adaptive optimum of k eps0-BR mechanisms is the maximum over the candidates ``t_l = (eps
+ (l+1) eps0)/(k+1)``. For k > ``T3_ALL_CANDIDATES_K`` the candidates are covered by blocks
whose certified upper bound (``f_l(t0)`` plus an exact integral bound of ``f_l'``) lies below the
best candidate (:class:`_T3Search`), so the arb value stays a rigorous enclosure while only
``O(k^{1/3})`` blocks need a binomial sum. The double-precision objective (:func:`_f_float`)
gives the starting points (golden section over l; its unimodality is DDR-T3 claim 6).

References
----------
- [DDR] J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
  Mechanisms and the Cost of Adaptivity*, arXiv 1909.13830 (version not verified; ICML 2020,
  PMLR 119), Thm 3.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import arb_to_fraction
from dpverify.theorems.formulas.bounded_range import (
    _decided_lt,
    _delta_at_t,
    _exact_value,
    _log_binom_pmf,
    grr_1mp,
    grr_1mq,
)
from dpverify.theorems.numerics.search import golden_section_int
from dpverify.theorems.values import approx_float, float_bounds, to_ctx

# DDR-T3: evaluate every candidate up to this k; prune by certified block bounds beyond.
T3_ALL_CANDIDATES_K = 64


def _t_l(eps0: Any, k: int, eps: Any, l: int) -> Any:
    """``t_l = (eps + (l+1) eps0)/(k+1)`` (unclipped)."""
    return (eps + (l + 1) * eps0) / (k + 1)


def _candidate_range(eps0: Any, k: int, eps: Any) -> tuple[int, int]:
    """``[lo, hi]`` containing every l in ``[0, k-1]`` with ``0 < t_l < eps0`` (exactly when the
    inputs are exact; with a margin of one index otherwise)."""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is not None and g is not None:
        # t_l > 0  <=>  l > -g/e - 1 ;  t_l < e  <=>  l < k - g/e
        r = g / e
        lo = math.floor(-r - 1) + 1
        hi = math.ceil(k - r) - 1
        return max(lo, 0), min(hi, k - 1)
    el, eh = float_bounds(eps0)
    gl, gh = float_bounds(eps)
    r_lo, r_hi = gl / eh, gh / el
    lo = math.floor(-r_hi - 1)
    hi = math.ceil(k - r_lo)
    return max(lo, 0), min(hi, k - 1)


def _interior(eps0: Any, k: int, eps: Any, l: int) -> bool | None:
    """Is ``0 < t_l < eps0``? (None when undecidable from floats.)"""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is not None and g is not None:
        t = _t_l(e, k, g, l)
        return 0 < t < e
    return None


def _g_candidate(ctx: Any, eps0: Any, k: int, eps: Any, l: int) -> Any:
    """The Thm 3 candidate value ``f_l(t_l)`` for an l with ``t_l`` in (0, eps0), computed as
    ``delta(t_l)`` (at t_l the positive terms are exactly those with i <= l, so the two
    agree); for a clipped ``t_l`` the value ``delta(clip(t_l))`` is returned, which is at most
    the maximum and so harmless."""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is not None and g is not None:
        t_ex = _t_l(e, k, g, l)
        t_ex = min(max(t_ex, Fraction(0)), e)
        return _delta_at_t(ctx, ctx.num(e), k, ctx.num(t_ex), ctx.num(g), t_ex, e)
    e0, gg = to_ctx(ctx, eps0), to_ctx(ctx, eps)
    t = _t_l(e0, k, gg, l)
    return _delta_at_t(ctx, e0, k, t, gg)


def _f_float(e: float, k: int, g: float, t: float) -> float:
    """``delta(t)`` in double precision (positive-part sum), for guesses and the float path."""
    if t <= 0 or t >= e:
        return max(0.0, -math.expm1(g))
    pi = math.expm1(t) / math.expm1(e)
    if not 0 < pi < 1:
        return max(0.0, -math.expm1(g))
    top = (k * t - g) / e
    hi = min(k, math.floor(top) + 1)
    if hi < 0:
        return 0.0
    lp, l1 = math.log(pi), math.log1p(-pi)
    odds = pi / (1 - pi)
    s = min(hi, max(0, int((k + 1) * pi)))
    base_lp = (math.lgamma(k + 1) - math.lgamma(s + 1) - math.lgamma(k - s + 1) + s * lp
               + (k - s) * l1)
    p_s = math.exp(base_lp)
    ee = math.exp(e)

    def w(i: int) -> float:
        x = g - (k * t - i * e)
        return -math.expm1(x) if x < 0 else 0.0

    total = p_s * w(s)
    p, i = p_s, s
    em = math.exp(g - k * t + s * e)  # e^{eps - L_i}
    while i < hi:
        r = odds * (k - i) / (i + 1)
        if r < 1 and p * r / (1 - r) < 1e-18 * total:
            break
        p *= r
        i += 1
        em *= ee
        if em < 1:
            total += p * (1 - em)
    p, i = p_s, s
    em = math.exp(g - k * t + s * e)
    while i > 0:
        r = i / ((k - i + 1) * odds)
        if r < 1 and p * r / (1 - r) < 1e-18 * total:
            break
        p *= r
        i -= 1
        em /= ee
        if em < 1:
            total += p * (1 - em)
    return total


def _g_float(e: float, k: int, g: float, l: int) -> float:
    t = (g + (l + 1) * e) / (k + 1)
    return _f_float(e, k, g, min(max(t, 0.0), e))


_L_HINT: dict[tuple[float, float], tuple[int, int]] = {}


def _t3_guess(e: float, k: int, g: float, lo: int, hi: int) -> int:
    """A float guess of the best candidate l (golden section over l)."""
    return golden_section_int(lambda l: _g_float(e, k, g, l), lo, hi)


def _pmf_float_bound(n: int, l: int) -> Fraction:
    """A rational upper bound of ``max_pi C(n,l) pi^l (1-pi)^{n-l}``: 1 at the ends, and the
    Robbins form of Stirling, ``sqrt(n/(2 pi l (n-l))) e^{1/(12 n)}``, inside (rounded up)."""
    if l <= 0 or l >= n:
        return Fraction(1)
    v = math.sqrt(n / (2 * math.pi * l * (n - l))) * math.exp(1 / (12 * n))
    return Fraction(v) * Fraction(1000001, 1000000)


def _upper_fraction(ctx: Any, x: Any) -> Fraction | None:
    """An exact rational >= x (the upper end of an arb ball; a float rounded up otherwise)."""
    if isinstance(x, flint.arb):
        if not x.is_finite():
            return None
        return arb_to_fraction(x.upper())
    v = approx_float(x)
    if not math.isfinite(v):
        return None
    return Fraction(v) * Fraction(1000001, 1000000) + Fraction(1, 10**6)


def _j(ctx: Any, a: Fraction, d: Fraction) -> Any:
    """``int_0^d e^{a v} dv = (e^{a d} - 1)/a`` (``d`` when ``a = 0``), exact inputs."""
    if a == 0:
        return ctx.num(d)
    return ctx.expm1(ctx.num(a * d)) / ctx.num(a)


class _T3Search:
    """The pruned maximisation over the Thm 3 candidates (k > T3_ALL_CANDIDATES_K).

    A block ``[l1, l2]`` of interior candidates is discarded when, for every l in it,
    ``f_l(t0) + A_l E(t_l - t0)`` is certified below the best candidate evaluated, where t0 is
    the block's centre, ``f_l(t0)`` the partial sum (exact, from one binomial walk), and

        f_l(t_l) - f_l(t0) = int_{t0}^{t_l} c k pmf_{k-1}(l; pi_Q(s)) pi_Q'(s)
                                             (1 - e^{(k+1)(s - t_l)}) ds

    ([DDR] Thm 3's derivative ``f_l' ∝ e^eps - e^{(k+1)t - (l+1) eps0}``; ``pi_Q = 1 - q``)
    is bounded by ``A_l`` (the factor's maximum over the block: pmf at the clamped mode,
    ``pi_Q'`` at the block's left end) times the exact integral ``E`` of the last factor.
    """

    def __init__(self, ctx: Any, eps0: Fraction, k: int, eps: Fraction) -> None:
        self.ctx, self.e, self.k, self.g = ctx, eps0, k, eps
        self.E0, self.G = ctx.num(eps0), ctx.num(eps)
        self.c = ctx.exp(self.G)
        self.values: dict[int, Any] = {}
        self.evaluations = 0

    def t(self, l: int) -> Fraction:
        return _t_l(self.e, self.k, self.g, l)

    def value(self, l: int) -> Any:
        if l not in self.values:
            self.evaluations += 1
            self.values[l] = _g_candidate(self.ctx, self.e, self.k, self.g, l)
        return self.values[l]

    def block_bound(self, l1: int, l2: int) -> Any | None:
        """A certified upper bound of ``max_{l1 <= l <= l2} f_l(t_l)``, or None."""
        ctx, k = self.ctx, self.k
        if l2 - l1 > 1024:
            return None
        a, b = self.t(l1), self.t(l2)
        if (k + 1) * (b - a) / 2 > 40:
            return None
        t0 = (a + b) / 2
        T0 = ctx.num(t0)
        e0, G, c = self.E0, self.G, self.c
        zero = ctx.zero
        self.evaluations += 1
        delta0 = _delta_at_t(ctx, e0, k, T0, G, t0, self.e)
        # f_l(t0) = delta(t0) -/+ the terms d_i = P(i)(1 - c e^{-L_i}) between l and m0, where
        # m0 is the last index with L_i > eps (the positive terms are a prefix)
        m0 = math.ceil((k * t0 - self.g) / self.e) - 1
        lo_i, hi_i = max(min(l1, m0 + 1), 0), min(max(l2, m0), k)
        pi = grr_1mp(ctx, e0, T0)
        odds = pi / (1 - pi)
        d: dict[int, Any] = {}
        if lo_i <= hi_i:
            p = ctx.exp(_log_binom_pmf(ctx, k, lo_i, ctx.log(pi), ctx.log1p(-pi)))
            ew = ctx.exp(G - k * T0 + lo_i * e0)
            rr = ctx.exp(e0)
            for i in range(lo_i, hi_i + 1):
                if i > lo_i:
                    p = p * odds * (k - i + 1) / i
                    ew = ew * rr
                d[i] = p * (1 - ew)
        f0: dict[int, Any] = {}
        if m0 >= l1:
            acc = delta0
            for l in range(min(m0, l2), l1 - 1, -1):
                if l < m0:
                    acc = acc - d.get(l + 1, zero)
                f0[l] = acc
        if m0 < l2:
            acc = delta0
            for l in range(m0 + 1, l2 + 1):
                acc = acc + d.get(l, zero)
                if l >= l1:
                    f0[l] = acc
        # A_l >= c k pmf_{k-1}(l; pi_Q(s)) pi_Q'(s) for s in the block: pmf_{k-1}(l; .) is
        # unimodal with its maximum at l/(k-1), so clamp; pi_Q' = e^{-s}/(1 - e^{-eps0}) is
        # largest at the left end
        n = k - 1
        pq_a, pq_b = grr_1mq(ctx, e0, ctx.num(a)), grr_1mq(ctx, e0, ctx.num(b))
        fa, fb = float_bounds(pq_a)[0], float_bounds(pq_b)[1]
        scale = c * k * ctx.exp(-ctx.num(a)) / (-ctx.expm1(-e0))
        pmf_at: dict[int, Any] = {}
        below = [l for l in range(l1, l2 + 1) if 0 < l < n and l < n * fa]
        above = [l for l in range(l1, l2 + 1) if 0 < l < n and l > n * fb]
        if below:  # l/n < pi_Q(a): the maximum over the block is at pi_Q(a)
            odds_a = pq_a / (1 - pq_a)
            q = ctx.exp(_log_binom_pmf(ctx, n, below[0], ctx.log(pq_a), ctx.log1p(-pq_a)))
            for l in below:
                if l > below[0]:
                    q = q * odds_a * (n - l + 1) / l
                pmf_at[l] = q
        if above:  # l/n > pi_Q(b): at pi_Q(b)
            odds_b = pq_b / (1 - pq_b)
            q = ctx.exp(_log_binom_pmf(ctx, n, above[0], ctx.log(pq_b), ctx.log1p(-pq_b)))
            for l in above:
                if l > above[0]:
                    q = q * odds_b * (n - l + 1) / l
                pmf_at[l] = q
        lmid = Fraction(l1 + l2, 2)
        best = None
        for l in range(l1, l2 + 1):
            pmf = pmf_at.get(l)
            if pmf is None:
                pmf = ctx.num(_pmf_float_bound(n, l)) if n > 0 else ctx.one
            # E = int_{t0}^{t_l} (1 - e^{(k+1)(s - t_l)}) ds = D + expm1(-(k+1) D)/(k+1),
            # D = t_l - t0 = (l - lmid) eps0/(k+1) (signed; the same form covers both sides)
            x = ctx.num((l - lmid) * self.e)
            E = (x + ctx.expm1(-x)) / (k + 1)
            ub = f0[l] + scale * pmf * E
            best = ub if best is None else ctx.max(best, ub)
        return best

    def run(self) -> tuple[Any, int]:
        ctx = self.ctx
        lo, hi = _candidate_range(self.e, self.k, self.g)
        if lo > hi:
            return None, -1
        ef, gf = float(self.e), float(self.g)
        guess = _t3_guess(ef, self.k, gf, lo, hi)
        best_l = guess
        best = self.value(guess)
        for l in (guess - 1, guess + 1):
            if lo <= l <= hi:
                v = self.value(l)
                if ctx.lt(best, v) is True:
                    best, best_l = v, l
        stack = [(lo, hi)]
        while stack:
            l1, l2 = stack.pop()
            # skip the already evaluated candidates at the block ends
            while l1 <= l2 and l1 in self.values:
                l1 += 1
            while l1 <= l2 and l2 in self.values:
                l2 -= 1
            if l1 > l2:
                continue
            if l1 == l2:
                v = self.value(l1)
                if ctx.lt(best, v) is True:
                    best, best_l = v, l1
                continue
            ub = self.block_bound(l1, l2)
            if ub is not None and _decided_lt(ctx, ub, best):
                continue
            mid = (l1 + l2) // 2
            # explore the half nearer the best candidate last (it is popped first)
            if abs(mid - best_l) < abs(mid + 1 - best_l):
                stack.append((mid + 1, l2))
                stack.append((l1, mid))
            else:
                stack.append((l1, mid))
                stack.append((mid + 1, l2))
        top = best
        for v in self.values.values():
            top = ctx.max(top, v)
        return top, best_l
