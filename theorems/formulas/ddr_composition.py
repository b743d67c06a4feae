"""The optimal non-adaptive composition of k eps0-BR mechanisms ([DDR] Thm 3).

- :func:`t3_delta`, :func:`t3_eps`, :func:`t3_t_opt`: the exact optimum as the maximum over the
  finite candidate set (every candidate up to k = 64, a certified pruned search beyond; in the
  float context golden section over l, the double-precision path that DDR-FIG1 uses).
- :func:`t3_max_over_t_bb`: the independent route, ``max_t`` of the Lemma 3.1 objective by the
  certified branch and bound of :mod:`dpverify.theorems.numerics.branch_bound`.

References
----------
- [DDR] J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
  Mechanisms and the Cost of Adaptivity*, arXiv 1909.13830 (version not verified; ICML 2020,
  PMLR 119), Lemma 3.1, Thm 3.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import FloatCtx, Unsupported
from dpverify.theorems.formulas.bounded_range import (
    _decided_lt,
    _ends,
    _exact_value,
    _wide,
    grr_1mp,
    grr_1mq,
    grr_p,
    grr_q,
    grr_spans,
)
from dpverify.theorems.formulas.ddr_candidates import (
    _L_HINT,
    T3_ALL_CANDIDATES_K,
    _candidate_range,
    _g_candidate,
    _g_float,
    _t3_guess,
    _T3Search,
    _t_l,
)
from dpverify.theorems.numerics.branch_bound import Enclose, bb_maximize
from dpverify.theorems.numerics.search import hill_climb_int
from dpverify.theorems.values import approx_float, exact_params, float_bounds, to_ctx


def _t3_all(ctx: Any, eps0: Any, k: int, eps: Any) -> tuple[Any, list[tuple[int, Any]]]:
    """Every candidate value ``g(l)`` for l in [0, k] (k small), with the clipped values."""
    e, g = _exact_value(eps0), _exact_value(eps)
    out = []
    for l in range(k + 1):
        if e is not None and g is not None:
            t = _t_l(e, k, g, l)
            if t <= 0:
                v = -ctx.expm1(ctx.num(g))  # f_l(0) = 1 - e^eps
            elif t >= e:
                v = -ctx.expm1(ctx.num(g)) if l == k else ctx.zero
            else:
                v = _g_candidate(ctx, e, k, g, l)
        else:
            v = _g_candidate(ctx, eps0, k, eps, l)
        out.append((l, v))
    top = ctx.zero
    for _, v in out:
        top = ctx.max(top, v)
    return top, out


def _t3_point(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """Thm 3 at one (exact or ball) point."""
    e, g = _exact_value(eps0), _exact_value(eps)
    E0, G = to_ctx(ctx, eps0), to_ctx(ctx, eps)
    if e is not None and g is not None:
        if g >= k * e:
            return ctx.zero
    elif ctx.le(k * E0, G) is True:
        return ctx.zero
    base = ctx.pos(-ctx.expm1(G))
    if isinstance(ctx, FloatCtx):
        ef, gf = approx_float(E0), approx_float(G)
        lo, hi = _candidate_range(eps0, k, eps)
        if lo > hi:
            return base
        hint = _L_HINT.get((ef, gf))
        if hint is not None:  # a nearby k was searched: climb from the scaled maximiser
            l = hill_climb_int(lambda j: _g_float(ef, k, gf, j), lo, hi,
                       round(hint[1] * (k + 1) / (hint[0] + 1)))
        else:
            l = _t3_guess(ef, k, gf, lo, hi)
        _L_HINT[(ef, gf)] = (k, l)
        return max(base, max(_g_float(ef, k, gf, j) for j in range(max(lo, l - 2),
                                                                   min(hi, l + 2) + 1)))
    if k <= T3_ALL_CANDIDATES_K or e is None or g is None:
        if k > 4 * T3_ALL_CANDIDATES_K and (e is None or g is None):
            # a ball input with large k: evaluate at its exact end points (monotone in both)
            e_lo, e_hi = _ends(eps0)
            g_lo, g_hi = _ends(eps)
            return ctx.hull(_t3_point(ctx, e_lo, k, g_hi), _t3_point(ctx, e_hi, k, g_lo))
        top, _ = _t3_all(ctx, eps0, k, eps)
        return ctx.max(top, base)
    top, _ = _T3Search(ctx, e, k, g).run()
    if top is None:
        return base
    return ctx.max(top, base)


@exact_params("eps0", "eps")
def t3_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-T3: ``delta_OPT(M^NA_BR(eps0, ..., eps0), eps) = max_{l in {0..k}} sum_{i=0}^{l} C(k,i)
    (p_l^{k-i}(1-p_l)^i - e^eps q_l^{k-i}(1-q_l)^i)``, ``t_l = (eps + (l+1) eps0)/(k+1)`` clipped to
    [0, eps0], ``p_l = p_{eps0,t_l}``, ``q_l = q_{eps0,t_l}``; clipped below at 0 ([DDR] arXiv
    1909.13830, Thm 3, as reconstructed in the catalogue). Valid for every real eps.

    Over a box of parameters (the interval verifier) the value is the hull of two corners: the
    optimum is nondecreasing in eps0 (the eps0-BR class grows) and nonincreasing in eps.
    """
    if _wide(eps0) or _wide(eps):
        e_lo, e_hi = _ends(eps0)
        g_lo, g_hi = _ends(eps)
        return ctx.hull(_t3_point(ctx, e_lo, k, g_hi), _t3_point(ctx, e_hi, k, g_lo))
    return _t3_point(ctx, eps0, k, eps)


@exact_params("eps0", "delta")
def t3_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DDR-T3 eps form: the least eps >= 0 with ``t3_delta(eps0, k, eps) <= delta`` (bisection;
    the optimum is nonincreasing in eps and vanishes at ``eps = k eps0``)."""
    d = to_ctx(ctx, delta)
    e = _exact_value(eps0)
    hi = k * e if e is not None else k * Fraction(float_bounds(eps0)[1])
    return ctx.solve(lambda x: t3_delta(ctx, eps0, k, x), d, lo=0, hi=hi)


@exact_params("eps0", "eps")
def t3_t_opt(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-T3: the candidate ``t_l`` (clipped to [0, eps0]) attaining the maximum, the smallest l
    among candidates that the arithmetic cannot separate from the maximum ([DDR] Thm 3)."""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is None or g is None:
        raise Unsupported("t_opt needs exact eps0 and eps")
    if k <= T3_ALL_CANDIDATES_K:
        top, vals = _t3_all(ctx, e, k, g)
        top = ctx.max(top, ctx.zero)
        best_l = next(l for l, v in vals if not _decided_lt(ctx, v, top))
    else:
        top, best_l = _T3Search(ctx, e, k, g).run()
        if best_l < 0:
            best_l = 0 if g >= 0 else k
    t = _t_l(e, k, g, best_l)
    return ctx.num(min(max(t, Fraction(0)), e))


def loss_signs(k: int, eps0: Fraction, eps: Fraction, a: Fraction, b: Fraction
               ) -> tuple[list[int], list[int], list[int]]:
    """The indices i in 0..k with ``k a - i eps0 > eps`` (positive on ``t in [a, b]``), else
    with ``k b - i eps0 < eps`` (negative), else undecided: three runs of consecutive indices,
    cut exactly at ``(k a - eps)/eps0`` and ``(k b - eps)/eps0`` when ``eps0 > 0``."""
    if eps0 <= 0:
        pos, und, neg = [], [], []
        for i in range(k + 1):
            if k * a - i * eps0 > eps:
                pos.append(i)
            elif k * b - i * eps0 < eps:
                neg.append(i)
            else:
                und.append(i)
        return pos, und, neg
    # i eps0 < k a - eps  <=>  i < (k a - eps)/eps0  <=>  i <= ceil(.) - 1
    m = min(k + 1, max(0, math.ceil((k * a - eps) / eps0)))
    # i eps0 > k b - eps  <=>  i >= floor((k b - eps)/eps0) + 1
    n = min(k + 1, max(m, math.floor((k * b - eps) / eps0) + 1))
    return list(range(m)), list(range(m, n)), list(range(n, k + 1))


def _lemma31_objective(ctx: Any, eps0: Fraction, k: int, eps: Fraction
                       ) -> tuple[Callable[[Fraction], Any], Enclose, Callable[[Fraction], Any]]:
    """The Lemma 3.1 objective with equal t, ``F(t) = sum_i (T_i(t))_+``, ``T_i = C(k,i)
    (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)``, written from the definition term by term (no
    candidate set), with enclosures over t-intervals for :func:`bb_maximize`.

    The sign of ``T_i`` is the sign of ``k t - i eps0 - eps`` (the privacy loss against eps),
    decided exactly. Two enclosures are intersected: the sum of the positive parts, and
    ``1 - e^eps`` minus the negative parts (the binomial theorem: ``sum_i T_i = 1 - e^eps``),
    which is exact on the plateau where every term is positive. Derivatives are taken term by
    term (``p' = p'' = -e^{t-eps0}/(1-e^{-eps0})``, ``q' = -q'' = -e^{-t}/(1-e^{-eps0})``); a
    term of undecided sign contributes the hull of 0 and its derivative (generalised
    gradient), and no second derivative.
    """
    E0, c = ctx.num(eps0), ctx.exp(ctx.num(eps))
    total = 1 - c
    den = -ctx.expm1(-E0)
    zero = flint.arb(0)

    def signs(a: Fraction, b: Fraction) -> tuple[list[int], list[int], list[int]]:
        return loss_signs(k, eps0, eps, a, b)

    def table(x: Any) -> list[Any]:
        out = [flint.arb(1)]
        for _ in range(k):
            out.append(out[-1] * x)
        return out

    def terms(t_p: Any, t_mp: Any, t_q: Any, t_mq: Any, dp: Any, dq: Any
              ) -> tuple[dict[int, Any], dict[int, Any], dict[int, Any]]:
        """``T_i`` and its first two derivatives; ``d/dx x^a (1-x)^i`` expanded with power
        tables (a = k - i), ``p'' = p'`` and ``q'' = -q'``."""
        xp, yp, xq, yq = table(t_p), table(t_mp), table(t_q), table(t_mq)

        def mono(xs: list[Any], ys: list[Any], u: int, v: int) -> Any:
            return xs[u] * ys[v] if u >= 0 and v >= 0 else zero

        v, d1, d2 = {}, {}, {}
        for i in range(k + 1):
            a_ = k - i
            cb = math.comb(k, i)
            fp, fq = mono(xp, yp, a_, i), mono(xq, yq, a_, i)
            gp = a_ * mono(xp, yp, a_ - 1, i) - i * mono(xp, yp, a_, i - 1)
            gq = a_ * mono(xq, yq, a_ - 1, i) - i * mono(xq, yq, a_, i - 1)
            hp = (a_ * (a_ - 1) * mono(xp, yp, a_ - 2, i) - 2 * a_ * i * mono(xp, yp, a_ - 1, i - 1)
                  + i * (i - 1) * mono(xp, yp, a_, i - 2))
            hq = (a_ * (a_ - 1) * mono(xq, yq, a_ - 2, i) - 2 * a_ * i * mono(xq, yq, a_ - 1, i - 1)
                  + i * (i - 1) * mono(xq, yq, a_, i - 2))
            v[i] = cb * (fp - c * fq)
            d1[i] = cb * (dp * gp - c * dq * gq)
            d2[i] = cb * (dp * gp + dp * dp * hp - c * (-dq * gq + dq * dq * hq))
        return v, d1, d2

    def combine(pos: list[int], und: list[int], neg: list[int], vals: dict[int, Any],
                hull0: Callable[[Any], Any], lower0: Callable[[Any], Any], base: Any) -> Any:
        direct = ctx.fsum([vals[i] for i in pos] + [hull0(vals[i]) for i in und])
        comp = base - ctx.fsum([vals[i] for i in neg] + [lower0(vals[i]) for i in und])
        if not und and not neg:
            return comp
        if not und and not pos:
            return direct
        return flint.arb(direct).intersection(flint.arb(comp))

    def pos_part(v: Any) -> Any:
        v = flint.arb(v)
        return v if v > 0 else v.max(0).union(zero)

    def neg_part(v: Any) -> Any:
        v = flint.arb(v)
        return v if v < 0 else v.min(0).union(zero)

    def with0(v: Any) -> Any:
        return flint.arb(v).union(zero)

    @functools.lru_cache(maxsize=256)
    def at_point(t: Fraction) -> tuple[list[int], list[int], list[int], Any, Any, Any]:
        pos, und, neg = signs(t, t)
        T = ctx.num(t)
        dp = -ctx.exp(T - E0) / den
        dq = -ctx.exp(-T) / den
        v, d1, d2 = terms(grr_p(ctx, E0, T), grr_1mp(ctx, E0, T), grr_q(ctx, E0, T),
                          grr_1mq(ctx, E0, T), dp, dq)
        return pos, und, neg, v, d1, d2

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        if t <= 0 or t >= eps0:
            return ctx.pos(-ctx.expm1(ctx.num(eps)))
        pos, und, neg, v, _, _ = at_point(t)
        return combine(pos, und, neg, v, pos_part, neg_part, total)

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        if t <= 0 or t >= eps0:
            return None
        pos, und, neg, _, d1, _ = at_point(t)
        if und:
            return None
        return combine(pos, und, neg, d1, with0, with0, ctx.zero)

    def enclose(a: Fraction, b: Fraction) -> tuple[Any, Any, Any]:
        pos, und, neg = signs(a, b)
        p, mp_, q, mq, dp, dq = grr_spans(ctx, E0, a, b)
        v, d1, d2 = terms(p, mp_, q, mq, dp, dq)
        rng = combine(pos, und, neg, v, pos_part, neg_part, total)
        der = combine(pos, und, neg, d1, with0, with0, ctx.zero)
        der2 = None if und else combine(pos, und, neg, d2, with0, with0, ctx.zero)
        return rng, der, der2

    return value, enclose, slope


@exact_params("eps0", "eps")
def t3_max_over_t_bb(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> Any:
    """``max_{t in [0, eps0]}`` of the Lemma 3.1 objective with equal t, by the rigorous branch
    and bound of :func:`bb_maximize` (the independent route of DDR-T3 claim 1)."""
    e, g = _exact_value(eps0), _exact_value(eps)
    if e is None or g is None:
        raise Unsupported("the branch-and-bound route needs exact eps0 and eps")
    value, enclose, slope = _lemma31_objective(ctx, e, k, g)
    return bb_maximize(ctx, value, enclose, Fraction(0), e, slope)
