"""The optimal adaptive composition of eps0-BR mechanisms ([DDR] Lemma 3.2).

- :func:`delta_a1_closed`: the k = 1 value function; :func:`l32_delta_k2`: the k = 2 optimum by
  branch and bound over the first round's t from the exact k = 1 value function;
  :func:`adaptive2_strategy_delta`: the exact value of an explicit two-round strategy.
- :func:`l32_bounds`: the two-sided lattice enclosure of the recursion: the lower bound is the
  exact value (in arb) of a grid adversary chosen by a float argmax; the upper bound is the
  shifted recursion, evaluated with outward-rounded float64 over every grid choice.

References
----------
- [DDR] J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
  Mechanisms and the Cost of Adaptivity*, arXiv 1909.13830 (version not verified; ICML 2020,
  PMLR 119), Lemma 3.2, Thm 4.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.core import InvalidParameter
from dpverify.theorems.ctx import ArbCtx, MpCtx, Unsupported, arb_precision
from dpverify.theorems.formulas.bounded_range import (
    _exact_value,
    _mp_fraction,
    _sq,
    grr_1mp,
    grr_p,
    grr_pair,
)
from dpverify.theorems.formulas.ddr_composition import t3_delta
from dpverify.theorems.numerics import finite
from dpverify.theorems.numerics.branch_bound import (
    Enclose,
    arb_fraction,
    bb_maximize,
    monotone_span,
)
from dpverify.theorems.numerics.lattice import lattice_init, lattice_step
from dpverify.theorems.numerics.search import golden_section_max
from dpverify.theorems.values import exact_params, float_bounds, to_ctx

# DDR-L32 lattice: cells per eps0 of the lower bound (grid adversary) and of the upper bound.
L32_N_LB = 1000


L32_N_UB = 96


L32_MAX_K = 10


def delta_a1_closed(ctx: Any, eps0: Any, y: Any) -> Any:
    """The k = 1 value ``delta_A(1, y)`` in closed form (derived from [DDR] Thm 3 with k = 1:
    the candidate ``t_0 = (y + eps0)/2`` gives ``p_{t0} (1 - e^{y - t0})``): ``1 - e^y`` for
    ``y <= -eps0``, ``(1 - e^{(y - eps0)/2})^2/(1 - e^{-eps0})`` for ``|y| < eps0``, 0 above. It is
    C^1 and nonincreasing."""
    return ctx.piecewise_lt(
        y, -eps0, lambda: -ctx.expm1(y),
        lambda: ctx.piecewise_lt(y, eps0, lambda: _sq(ctx.expm1((y - eps0) / 2))
                                 / (-ctx.expm1(-eps0)), lambda: ctx.zero))


def _d1_pieces(ctx: Any, eps0: Fraction, ya: Fraction, yb: Fraction
               ) -> tuple[Any, Any, Any]:
    """Enclosures of ``delta_A(1, .)`` and of its first and second derivatives over ``[ya, yb]``
    (the hull over the pieces the interval meets; the function is C^1, its second derivative
    jumps at +-eps0)."""
    E0 = ctx.num(eps0)
    den = -ctx.expm1(-E0)
    vals, d1s, d2s = [], [], []

    def ball(a: Fraction, b: Fraction) -> Any:
        return arb_fraction(a) if a == b else arb_fraction(a).union(arb_fraction(b))

    if ya <= -eps0:  # left piece on [ya, min(yb, -eps0)]
        Y = ball(ya, min(yb, -eps0))
        vals.append(-ctx.expm1(Y))
        d1s.append(-ctx.exp(Y))
        d2s.append(-ctx.exp(Y))
    if ya < eps0 and yb > -eps0:  # middle piece
        Y = ball(max(ya, -eps0), min(yb, eps0))
        z = (Y - E0) / 2
        u = ctx.exp(z)
        vals.append(_sq(ctx.expm1(z)) / den)
        d1s.append(ctx.expm1(z) * u / den)
        d2s.append(u * (2 * u - 1) / (2 * den))
    if yb >= eps0:  # right piece
        vals.append(flint.arb(0))
        d1s.append(flint.arb(0))
        d2s.append(flint.arb(0))

    def hull(xs: list[Any]) -> Any:
        out = flint.arb(xs[0])
        for x in xs[1:]:
            out = out.union(flint.arb(x))
        return out

    return hull(vals), hull(d1s), hull(d2s)


def _adaptive2_objective(ctx: Any, eps0: Fraction, x: Fraction
                         ) -> tuple[Callable[[Fraction], Any], Enclose, Callable[[Fraction], Any]]:
    """``Phi(t) = p_t delta_A(1, x - t) + (1 - p_t) delta_A(1, x - t + eps0)``: the k = 2
    recursion of [DDR] Lemma 3.2 with the exact k = 1 value function, with its enclosures for
    :func:`bb_maximize`. Where both arguments lie in the left piece (``t >= x + 2 eps0``) the
    objective is exactly ``1 - e^x`` (``p + (1-p) e^{eps0} = e^t``), and 0 where both lie in the
    right piece (``t <= x - eps0``)."""
    E0 = ctx.num(eps0)
    den = -ctx.expm1(-E0)
    X = ctx.num(x)
    plateau = -ctx.expm1(X)

    @functools.lru_cache(maxsize=4096)
    def parts(t: Fraction) -> tuple[Any, Any, Any, Any, Any, Any, Any, Any]:
        T = ctx.num(t)
        p, mp_ = grr_p(ctx, E0, T), grr_1mp(ctx, E0, T)
        dp = -ctx.exp(T - E0) / den
        a, a1, a2 = _d1_pieces(ctx, eps0, x - t, x - t)
        b, b1, b2 = _d1_pieces(ctx, eps0, x - t + eps0, x - t + eps0)
        return p, mp_, dp, a, a1, a2, b, (b1, b2)

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        if t >= x + 2 * eps0:
            return plateau
        if t <= x - eps0:
            return flint.arb(0)
        p, mp_, _, a, _, _, b, _ = parts(t)
        return p * a + mp_ * b

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        if t >= x + 2 * eps0 or t <= x - eps0:
            return flint.arb(0)
        p, mp_, dp, a, a1, _, b, (b1, _) = parts(t)
        return dp * (a - b) - p * a1 - mp_ * b1

    def enclose(a_: Fraction, b_: Fraction) -> tuple[Any, Any, Any]:
        if a_ >= x + 2 * eps0:
            return plateau, flint.arb(0), flint.arb(0)
        if b_ <= x - eps0:
            return flint.arb(0), flint.arb(0), flint.arb(0)
        p = monotone_span(lambda s: grr_p(ctx, E0, ctx.num(s)), a_, b_)
        mp_ = monotone_span(lambda s: grr_1mp(ctx, E0, ctx.num(s)), a_, b_)
        dp = monotone_span(lambda s: -ctx.exp(ctx.num(s) - E0) / den, a_, b_)
        A, A1, A2 = _d1_pieces(ctx, eps0, x - b_, x - a_)
        B, B1, B2 = _d1_pieces(ctx, eps0, x - b_ + eps0, x - a_ + eps0)
        rng = p * A + mp_ * B
        der = dp * (A - B) - p * A1 - mp_ * B1
        der2 = dp * (A - B) - 2 * dp * (A1 - B1) + p * A2 + mp_ * B2
        return rng, der, der2

    return value, enclose, slope


def _adaptive1_objective(ctx: Any, eps0: Fraction, x: Fraction
                         ) -> tuple[Callable[[Fraction], Any], Enclose, Callable[[Fraction], Any]]:
    """``Psi(t) = p_t (1 - e^{x-t})_+ + (1 - p_t)(1 - e^{x-t+eps0})_+``: the k = 1 step of the
    [DDR] Lemma 3.2 recursion from ``delta_A(0, y) = (1 - e^y)_+`` (no closed form used). The
    first term is positive iff ``t > x``, the second iff ``t > x + eps0``; where both are, the
    objective is exactly ``1 - e^x``."""
    E0 = ctx.num(eps0)
    den = -ctx.expm1(-E0)
    X = ctx.num(x)
    plateau = -ctx.expm1(X)
    zero = flint.arb(0)

    def pieces(a_: Fraction, b_: Fraction, T: Any) -> tuple[Any, Any, Any] | None:
        """(value, first, second derivative) with the sign pattern decided on [a_, b_]."""
        p = grr_p(ctx, E0, T)
        dp = -ctx.exp(T - E0) / den
        ex = ctx.exp(X - T)
        f1, g1, h1 = -ctx.expm1(X - T), ex, -ex  # 1 - e^{x-t} and its t-derivatives
        v = p * f1
        d1 = dp * f1 + p * g1
        d2 = dp * f1 + 2 * dp * g1 + p * h1
        if a_ > x and b_ < x + eps0:
            return v, d1, d2
        if a_ >= x + eps0:
            return plateau, zero, zero
        if b_ <= x:
            return zero, zero, zero
        return None

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        if t >= x + eps0:
            return plateau
        if t <= x:
            return zero
        return pieces(t, t, ctx.num(t))[0]

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        if t >= x + eps0 or t <= x:
            return zero
        return pieces(t, t, ctx.num(t))[1]

    def enclose(a_: Fraction, b_: Fraction) -> tuple[Any, Any, Any]:
        T = arb_fraction(a_).union(arb_fraction(b_))
        got = pieces(a_, b_, T)
        if got is not None:
            if a_ > x and b_ < x + eps0:  # smooth piece: use monotone spans where possible
                return got
            return got
        # a kink inside: the generalised gradient of each positive part is the hull with 0
        p = monotone_span(lambda s: grr_p(ctx, E0, ctx.num(s)), a_, b_)
        mp_ = monotone_span(lambda s: grr_1mp(ctx, E0, ctx.num(s)), a_, b_)
        dp = monotone_span(lambda s: -ctx.exp(ctx.num(s) - E0) / den, a_, b_)
        e1 = monotone_span(lambda s: ctx.exp(X - ctx.num(s)), a_, b_)
        e2 = e1 * ctx.exp(E0)
        f1, f2 = (1 - e1).max(0).union(zero) if b_ > x else zero, \
            (1 - e2).max(0).union(zero) if b_ > x + eps0 else zero
        rng = p * f1 + mp_ * f2
        g1 = (dp * (1 - e1) + p * e1).union(zero)
        g2 = (-dp * (1 - e2) + mp_ * e2).union(zero) if b_ > x + eps0 else zero
        return rng, g1 + g2, None

    return value, enclose, slope


@exact_params("eps0", "eps")
def l32_delta_k1_recursion(ctx: Any, eps0: Any, eps: Any, **_: Any) -> Any:
    """``delta_A(1, eps) = sup_t Psi(t)`` by the rigorous branch and bound (DDR-L32 with k = 1,
    computed from its definition; the independent route of DDR-T3 claim 5)."""
    e, x = _exact_value(eps0), _exact_value(eps)
    if e is None or x is None:
        raise Unsupported("the branch-and-bound route needs exact eps0 and eps")
    if x >= e:
        return ctx.zero
    value, enclose, slope = _adaptive1_objective(ctx, e, x)
    return bb_maximize(ctx, value, enclose, Fraction(0), e, slope)


def l32_delta_k2(ctx: Any, eps0: Fraction, x: Fraction) -> Any:
    """``delta_A(2, x) = sup_t Phi(t)`` (rigorous branch and bound in arb; [DDR] Lemma 3.2 with
    the exact k = 1 value function)."""
    if x >= 2 * eps0:
        return ctx.zero
    if x <= -2 * eps0:
        return -ctx.expm1(ctx.num(x))
    value, enclose, slope = _adaptive2_objective(ctx, eps0, x)
    return bb_maximize(ctx, value, enclose, Fraction(0), eps0, slope)


def adaptive2_strategy_delta(ctx: Any, eps0: Fraction, x: Fraction, prec: int) -> Any:
    """The exact hockey-stick divergence at ``e^x`` of an explicit two-round adaptive strategy
    (DDR-L32 claim 2): the first ``t1`` maximises ``Phi`` (golden section in mpmath at twice the
    working precision); after the first output the second round uses the k = 1 maximiser at
    the residual budget, ``t2 = clip((r + eps0)/2)`` with ``r = x - t1`` after a 0 and ``x - t1 +
    eps0`` after a 1. The four transcripts are enumerated."""
    m = MpCtx(2 * prec + 20)
    E = m.num(eps0)
    X = m.num(x)

    def phi(t: Any) -> Any:
        p = grr_p(m, E, t)
        return p * delta_a1_closed(m, E, X - t) + (1 - p) * delta_a1_closed(m, E, X - t + E)

    t1 = _mp_fraction(golden_section_max(phi, m.zero, E, int(2.2 * m.prec)))
    P: list[Any] = []
    Q: list[Any] = []
    E0 = ctx.num(eps0)
    P1, Q1 = grr_pair(ctx, E0, ctx.num(t1))
    for y1, r in ((0, x - t1), (1, x - t1 + eps0)):
        t2 = min(max((r + eps0) / 2, Fraction(0)), eps0)
        P2, Q2 = grr_pair(ctx, E0, ctx.num(t2))
        for y2 in (0, 1):
            P.append(P1[y1] * P2[y2])
            Q.append(Q1[y1] * Q2[y2])
    return finite.hockey_stick(ctx, P, Q, ctx.num(x))


_LATTICES: dict[tuple[Fraction, int, int], dict[str, Any]] = {}


def _l32_lattice(eps0: Fraction, k: int, n: int, prec: int) -> tuple[list[Any], Any, int]:
    """The level-k lattice tables of [DDR] Lemma 3.2 (catalogue DDR-L32) with ``h = eps0/n``:
    ``(LB, UB, offset)`` where ``LB[m + offset]`` and ``UB[m + offset]`` bound
    ``delta_A(k, m h)`` for ``|m| <= k n`` (outside, the exact boundary values apply).

    - LB: the exact value, in arb, of one grid adversary (``t = t_n`` at every lattice state,
      ``n`` the argmax of the float recursion): a valid lower bound whatever the choice.
    - UB: ``U_j(m) = max_{n < N} [p_n U_{j-1}(m-n-1) + (1 - p_{n+1}) U_{j-1}(m-n-1+N)]`` (valid
      because ``p_t`` decreases in t and ``delta_A`` decreases in x), in IEEE-754 binary64 with
      the coefficients rounded up and every level multiplied by ``1 + 2^-50`` (each value is a
      sum of two nonnegative products, so the three roundings lose at most a factor
      ``(1 - 2^-53)^-2``) plus ``2^-1000`` (underflow): rigorous under IEEE arithmetic.

    The levels are computed once per ``(eps0, n, prec)`` and extended on demand.
    """
    if k > L32_MAX_K:
        raise InvalidParameter(f"k must be at most {L32_MAX_K} for the lattice; got {k}")
    key = (eps0, n, prec)
    st = _LATTICES.get(key)
    if st is None:
        st = _lattice_init(eps0, n, prec)
        _LATTICES[key] = st
    while st["level"] < k:
        lattice_step(st)
    return st["out"][k]


def _lattice_init(eps0: Fraction, n: int, prec: int) -> dict[str, Any]:
    """Level 0 of the DDR-L32 lattice: the GRR probabilities ``p_{eps0,t}`` and ``1 - p_{eps0,t}``
    at ``t = i eps0/n`` in arb."""
    ctx = ArbCtx(prec)
    with arb_precision(prec):
        h = eps0 / n
        E0 = ctx.num(eps0)
        p_arb = [grr_p(ctx, E0, ctx.num(i * h)) for i in range(n + 1)]
        q_arb = [grr_1mp(ctx, E0, ctx.num(i * h)) for i in range(n + 1)]
    return lattice_init(eps0, n, prec, L32_MAX_K, p_arb, q_arb)


def _lattice_prec(ctx: Any) -> int:
    """The lattices are computed once at 256 bits (shared by every query up to that precision)."""
    return max(256, int(ctx.prec))


def l32_bounds(ctx: Any, eps0: Fraction, k: int, x: Any, n_lb: int = L32_N_LB,
               n_ub: int = L32_N_LB) -> tuple[Any, Any]:
    """Rigorous ``(LB, UB)`` of ``delta_A(k, x)`` from the lattices (LB read at the nearest
    lattice point >= x, UB at the nearest <= x; exact values beyond ``|x| >= k eps0``)."""
    xe = _exact_value(x)
    if xe is None:
        lo, hi = float_bounds(x)
        x_lo, x_hi = Fraction(lo), Fraction(hi)
    else:
        x_lo = x_hi = xe
    if x_lo >= k * eps0:
        return ctx.zero, ctx.zero
    if x_hi <= -k * eps0:
        v = -ctx.expm1(to_ctx(ctx, x))
        return v, v
    prec = _lattice_prec(ctx)
    lb_tab, _, off = _l32_lattice(eps0, k, n_lb, prec)
    m_up = math.ceil(x_hi / (eps0 / n_lb))
    if m_up > off:
        lb = ctx.zero
    elif m_up < -off:
        lb = -ctx.expm1(ctx.num(m_up * eps0 / n_lb))
    else:
        lb = lb_tab[m_up + off]
    _, ub_tab, off_u = _l32_lattice(eps0, k, n_ub, prec)
    m_dn = math.floor(x_lo / (eps0 / n_ub))
    if m_dn >= off_u:
        ub = ctx.zero
    elif m_dn < -off_u:
        ub = -ctx.expm1(ctx.num(m_dn * eps0 / n_ub))
    else:
        ub = ctx.num(Fraction(float(ub_tab[m_dn + off_u])))
    return lb, ub


def _l32_exact_inputs(eps0: Any, eps: Any) -> tuple[Fraction, Fraction]:
    e, x = _exact_value(eps0), _exact_value(eps)
    if e is None or x is None:
        raise Unsupported("DDR-L32 needs exact eps0 and eps")
    return e, x


@exact_params("eps0", "eps")
def l32_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-L32: ``delta_A(k, eps)`` of the recursion ``delta_A(0, x) = (1 - e^x)_+``,
    ``delta_A(k, x) = sup_{t in [0, eps0]} [p_t delta_A(k-1, x - t) + (1 - p_t) delta_A(k-1, x - t
    + eps0)]`` ([DDR] arXiv 1909.13830, Lemma 3.2): exactly for k = 1 (DDR-T3 with k = 1); for
    k = 2 a rigorous enclosure (branch and bound over t with the exact k = 1 value function; arb
    only); for k >= 3 the lattice lower bound LB (N = 1000 cells per eps0; ``delta_ub`` gives
    the upper bound)."""
    e, x = _l32_exact_inputs(eps0, eps)
    if k == 1:
        return t3_delta(ctx, e, 1, x)
    if k == 2:
        return l32_delta_k2(ctx, e, x)
    if k > L32_MAX_K:
        raise InvalidParameter(f"k must be at most {L32_MAX_K} for the lattice; got {k}")
    return l32_bounds(ctx, e, k, x)[0]


@exact_params("eps0", "eps")
def l32_delta_ub(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-L32: the lattice upper bound UB of ``delta_A(k, eps)`` (N = 1000 cells per eps0;
    see :func:`_l32_lattice`)."""
    e, x = _l32_exact_inputs(eps0, eps)
    if k > L32_MAX_K:
        raise InvalidParameter(f"k must be at most {L32_MAX_K} for the lattice; got {k}")
    return l32_bounds(ctx, e, k, x)[1]
