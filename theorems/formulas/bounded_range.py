"""Bounded-range (BR) privacy curves: generalized randomized response and finite mechanisms.

- Generalized randomized response ``RR_{eps0,t}`` (:func:`grr_p`, :func:`grr_q`; [DDR] Def. 2.4)
  and the binomial privacy-loss sums of its k-fold product (:func:`l31_delta_t`; [DDR] Lemma
  3.1), evaluated from the mode of the binomial outwards with a certified geometric tail.
- The BR and DP parameters of a finite pair (:func:`br_by_pairs`, :func:`br_window`,
  :func:`dp_level`; [DDR] Def. 2.2, Cor. 2.1, Lemma 2.1), the range of a quality score
  (:func:`range_of`; [DDR] Prop. 1) and the heterogeneous GRR objective (:func:`het_objective`).
- Parameter helpers shared by the BR formulas (exact end points, balls, integer powers).

Evaluators use ``eps0`` for the per-mechanism BR parameter and ``eps`` for the global one (the
paper's eps and eps_g).

References
----------
- [DDR] J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
  Mechanisms and the Cost of Adaptivity*, arXiv 1909.13830 (version not verified; ICML 2020,
  PMLR 119), Def. 2.2-2.4, Lemmas 2.1, 3.1, Prop. 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.core import InvalidParameter, fmt_fraction
from dpverify.theorems.ctx import Interval, arb_to_fraction
from dpverify.theorems.numerics import finite
from dpverify.theorems.numerics.branch_bound import monotone_span
from dpverify.theorems.values import approx_float, exact_params, float_bounds, is_exact, to_ctx


def _wide(x: Any) -> bool:
    """An interval, or an arb ball wider than rounding: a whole box of parameters."""
    if isinstance(x, Interval):
        return x.lo != x.hi
    if not isinstance(x, flint.arb) or x.is_exact():
        return False
    scale = max(abs(float(x.mid())), 1.0)
    return bool(float(x.rad()) > scale * 2.0 ** (-(flint.ctx.prec // 2)))


def _ends(x: Any) -> tuple[Any, Any]:
    """Exact end points of an interval or a ball."""
    if isinstance(x, Interval):
        return x.lo, x.hi
    if isinstance(x, flint.arb):
        return arb_to_fraction(x.lower()), arb_to_fraction(x.upper())
    return x, x


def _exact_value(x: Any) -> Fraction | None:
    """The exact rational value of ``x`` when it has one at hand."""
    if is_exact(x):
        return Fraction(x)
    if isinstance(x, Interval) and x.lo == x.hi:
        return x.lo
    if isinstance(x, flint.arb) and x.is_exact() and x.is_finite():
        return arb_to_fraction(x)
    return None


def _rigorous(ctx: Any) -> bool:
    return bool(getattr(ctx, "rigorous", False))


def _decided_lt(ctx: Any, a: Any, b: Any) -> bool:
    """``a < b`` certified (arb) or plainly true (mp/fp)."""
    return ctx.lt(a, b) is True


def _clip_min(ctx: Any, cap: Any, x: Any) -> Any:
    """``min(cap, x)``, returning ``cap`` itself (not a re-rounded ball) when ``x >= cap`` is
    decided, so that a clipped bound compares equal to the basic bound it is clipped to."""
    c = ctx.le(cap, x)
    if c is True:
        return cap
    if c is False:
        return x
    return ctx.min(cap, x)


def _sq(x: Any) -> Any:
    """``x^2`` by multiplication (python-flint's ``**`` returns nan on a ball containing 0)."""
    return x * x


def _ipow(x: Any, n: int) -> Any:
    """``x^n`` for an integer ``n >= 0`` by repeated squaring (no ``**`` on balls)."""
    out = None
    base = x
    while n > 0:
        if n & 1:
            out = base if out is None else out * base
        n >>= 1
        if n:
            base = base * base
    return x * 0 + 1 if out is None else out


def _check_t(eps0: Any, t: Any) -> None:
    e, tt = _exact_value(eps0), _exact_value(t)
    if e is not None and tt is not None and not 0 <= tt <= e:
        raise InvalidParameter(f"t must be in [0, eps0] = [0, {fmt_fraction(e)}]; "
                               f"got {fmt_fraction(tt)}")


def grr_p(ctx: Any, eps0: Any, t: Any) -> Any:
    """``p_{eps0,t} = P[RR_{eps0,t}(0) = 0] = (1 - e^{t - eps0})/(1 - e^{-eps0})`` ([DDR] arXiv
    1909.13830, Def. 2.4 as reconstructed in the catalogue): the unique value with
    ``ln(p/q) = t`` and ``ln((1-p)/(1-q)) = t - eps0``."""
    return ctx.expm1(t - eps0) / ctx.expm1(-eps0)


def grr_q(ctx: Any, eps0: Any, t: Any) -> Any:
    """``q_{eps0,t} = P[RR_{eps0,t}(1) = 0] = (e^{-t} - e^{-eps0})/(1 - e^{-eps0})`` ([DDR] arXiv
    1909.13830, Def. 2.4)."""
    return ctx.expm1(t - eps0) * ctx.exp(-t) / ctx.expm1(-eps0)


def grr_1mp(ctx: Any, eps0: Any, t: Any) -> Any:
    """``1 - p_{eps0,t} = (e^t - 1)/(e^{eps0} - 1)`` without cancellation."""
    return ctx.expm1(t) / ctx.expm1(eps0)


def grr_1mq(ctx: Any, eps0: Any, t: Any) -> Any:
    """``1 - q_{eps0,t} = (1 - e^{-t})/(1 - e^{-eps0})`` without cancellation."""
    return ctx.expm1(-t) / ctx.expm1(-eps0)


def grr_spans(ctx: Any, eps0: Any, a: Fraction, b: Fraction) -> tuple[Any, ...]:
    """Enclosures over ``t in [a, b]`` of ``p_t, 1 - p_t, q_t, 1 - q_t`` and of their
    t-derivatives ``dp/dt = -e^{t - eps0}/(1 - e^{-eps0})``, ``dq/dt = -e^{-t}/(1 - e^{-eps0})``
    (the GRR pair of [DDR] arXiv 1909.13830, Def. 2.4): each is monotone in t, so its end
    values enclose it."""
    den = -ctx.expm1(-eps0)
    return (monotone_span(lambda s: grr_p(ctx, eps0, ctx.num(s)), a, b),
            monotone_span(lambda s: grr_1mp(ctx, eps0, ctx.num(s)), a, b),
            monotone_span(lambda s: grr_q(ctx, eps0, ctx.num(s)), a, b),
            monotone_span(lambda s: grr_1mq(ctx, eps0, ctx.num(s)), a, b),
            monotone_span(lambda s: -ctx.exp(ctx.num(s) - eps0) / den, a, b),
            monotone_span(lambda s: -ctx.exp(-ctx.num(s)) / den, a, b))


def _grr_end(eps0: Any, t: Any) -> int | None:
    """1 at t = 0 and 0 at t = eps0 (exactly, for exact inputs): p = q = 1 and p = q = 0."""
    e, tt = _exact_value(eps0), _exact_value(t)
    if e is None or tt is None:
        return None
    return 1 if tt == 0 else (0 if tt == e else None)


@exact_params("eps0", "t")
def grr_p_eval(ctx: Any, eps0: Any, t: Any) -> Any:
    _check_t(eps0, t)
    end = _grr_end(eps0, t)
    return ctx.num(end) if end is not None else grr_p(ctx, to_ctx(ctx, eps0), to_ctx(ctx, t))


@exact_params("eps0", "t")
def grr_q_eval(ctx: Any, eps0: Any, t: Any) -> Any:
    _check_t(eps0, t)
    end = _grr_end(eps0, t)
    return ctx.num(end) if end is not None else grr_q(ctx, to_ctx(ctx, eps0), to_ctx(ctx, t))


def grr_pair(ctx: Any, eps0: Any, t: Any) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """The two output laws ``(RR(0), RR(1))`` of ``RR_{eps0,t}`` on ``{0, 1}``."""
    return ((grr_p(ctx, eps0, t), grr_1mp(ctx, eps0, t)),
            (grr_q(ctx, eps0, t), grr_1mq(ctx, eps0, t)))


# Binomial sums. Under RR_{eps0,t}(0)^k the number i of "ones" is Bin(k, pi) with pi = 1 - p_t;
# the privacy loss of a transcript with i ones is L_i = k t - i eps0, and the law under RR(1)^k
# is the same count with probability P(i) e^{-L_i}.


def _negligible(ctx: Any) -> Any:
    return ctx.num(Fraction(1, 2 ** (int(ctx.prec) + 16)))


def _tail(ctx: Any, total: Any, bound: Any) -> Any:
    """``total + [0, bound]`` in a rigorous context; a negligible remainder is dropped otherwise."""
    if _rigorous(ctx):
        return total + ctx.hull(ctx.zero, bound)
    return total


def _log_binom_pmf(ctx: Any, n: int, i: int, log_pi: Any, log_1mpi: Any) -> Any:
    lb = ctx.lgamma(ctx.num(n + 1)) - ctx.lgamma(ctx.num(i + 1)) - ctx.lgamma(ctx.num(n - i + 1))
    out = lb
    if i:
        out = out + i * log_pi
    if n - i:
        out = out + (n - i) * log_1mpi
    return out


def _delta_at_t(ctx: Any, eps0: Any, k: int, t: Any, eps: Any,
                t_exact: Fraction | None = None, eps0_exact: Fraction | None = None) -> Any:
    """``delta(t) = sum_i C(k,i) (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)_+`` for one common t
    (the Lemma 3.1 objective with equal t): ``sum_{i <= m} P(i) (1 - e^{eps - L_i})`` over
    ``i ~ Bin(k, 1-p)``, ``L_i = k t - i eps0``; the positive terms are the prefix
    ``i < (k t - eps)/eps0``.

    The walk starts at the mode of the binomial (clamped to the prefix) and goes both ways,
    with the weights ``1 - e^{eps - k t} e^{i eps0}`` by recurrence. The pmf ratio to the next
    index decreases along either direction, so once it is ``r < 1`` the remaining terms sum to
    at most ``P(i) r/(1 - r)``; a direction stops when that is certified below
    ``2^-(prec+16)`` times the partial sum, and a rigorous context adds ``[0, P(i) r/(1-r)]``.
    """
    base = ctx.pos(-ctx.expm1(eps))  # the value at t = 0 (p = q = 1) and at t = eps0
    if t_exact is not None and eps0_exact is not None and t_exact in (0, eps0_exact):
        return base
    if ctx.le(t, ctx.zero) is True or ctx.le(eps0, t) is True:
        return base
    pi = grr_1mp(ctx, eps0, t)
    # the positive prefix: i <= m; [m_lo, m_hi] brackets m when the inputs are balls
    tl, th = float_bounds(t)
    el, eh = float_bounds(eps0)
    gl, gh = float_bounds(eps)
    top_hi = (k * th - gl) / el
    top_lo = (k * tl - gh) / eh
    m_hi = min(k, math.ceil(top_hi))
    m_lo = max(-1, math.floor(top_lo) - 2)
    if m_hi < 0:
        return ctx.zero
    zero, one = ctx.zero, ctx.one
    ew0 = ctx.exp(eps - k * t)  # e^{eps - L_0}
    rr = ctx.exp(eps0)
    log_pi, log_1mpi = ctx.log(pi), ctx.log1p(-pi)
    odds = pi / (one - pi)
    tiny = _negligible(ctx)
    s = min(m_hi, max(0, int((k + 1) * approx_float(pi))))
    p_s = ctx.exp(_log_binom_pmf(ctx, k, s, log_pi, log_1mpi))
    ew_s = ew0 * ctx.exp(s * eps0)

    def w(i: int, ew: Any) -> Any:
        x = one - ew
        return ctx.pos(x) if i >= m_lo else x

    total = p_s * w(s, ew_s)
    p, i, ew = p_s, s, ew_s
    while i < m_hi:
        if (i - s) % 8 == 7:
            r = odds * (k - i) / (i + 1)
            if ctx.lt(r, one) is True:
                rest = p * r / (one - r)
                if ctx.le(rest, tiny * total) is True:
                    total = _tail(ctx, total, rest)
                    break
        p = p * odds * (k - i) / (i + 1)
        i += 1
        ew = ew * rr
        total = total + p * w(i, ew)
    p, i, ew = p_s, s, ew_s
    while i > 0:
        if (s - i) % 8 == 7:
            r = i / ((k - i + 1) * odds)
            if ctx.lt(r, one) is True:
                rest = p * r / (one - r)
                if ctx.le(rest, tiny * total) is True:
                    total = _tail(ctx, total, rest)
                    break
        p = p * i / ((k - i + 1) * odds)
        i -= 1
        ew = ew / rr
        total = total + p * w(i, ew)
    return ctx.max(total, zero) if _rigorous(ctx) else total


@exact_params("eps0", "t")
def l31_delta_t(ctx: Any, eps0: Any, k: int, t: Any, eps: Any) -> Any:
    """DDR-L31 with equal t: ``sum_{i=0}^{k} C(k,i) (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)_+``,
    ``p = p_{eps0,t}``, ``q = q_{eps0,t}`` ([DDR] arXiv 1909.13830, Lemma 3.1 with t_i = t): the
    exact privacy profile of k-fold ``RR_{eps0,t}``."""
    _check_t(eps0, t)
    e0, tt = to_ctx(ctx, eps0), to_ctx(ctx, t)
    return _delta_at_t(ctx, e0, k, tt, to_ctx(ctx, eps), _exact_value(t), _exact_value(eps0))


def _mp_fraction(x: Any) -> Fraction:
    """The exact rational value of an mpmath number."""
    man, exp = x.man_exp
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def log_ratios(ctx: Any, p: Sequence[Any], q: Sequence[Any]) -> list[Any]:
    """``ln(P(y)/Q(y))`` for every output (full support)."""
    return [ctx.log(a / b) for a, b in zip(p, q, strict=True)]


def br_by_pairs(ctx: Any, p: Sequence[Any], q: Sequence[Any]) -> Any:
    """The BR parameter of one ordered pair from the definition ([DDR] Def. 2.2): the largest
    ``ln(P(y)/Q(y)) - ln(P(y')/Q(y'))`` over all pairs of outputs ``(y, y')``."""
    lr = log_ratios(ctx, p, q)
    return ctx.max(*(a - b for a in lr for b in lr))


def br_window(ctx: Any, p: Sequence[Any], q: Sequence[Any]) -> Any:
    """The window width ``max_y ln(P/Q) - min_y ln(P/Q)`` ([DDR] Cor. 2.1)."""
    lr = log_ratios(ctx, p, q)
    return ctx.max(*lr) - ctx.min(*lr)


def dp_level(ctx: Any, p: Sequence[Any], q: Sequence[Any]) -> Any:
    """``max_y |ln(P(y)/Q(y))|``: the pure-DP level of the pair (both orders)."""
    return ctx.max(*(ctx.abs(v) for v in log_ratios(ctx, p, q)))


def _em_laws(ctx: Any, rows: Sequence[Sequence[Any]], scale: Any) -> list[list[Any]]:
    """``P[M(x)=y] ∝ exp(scale u(x, y))`` for every row ``u(x, .)``."""
    out = []
    for row in rows:
        w = [ctx.exp(scale * u) for u in row]
        z = ctx.fsum(w)
        out.append([v / z for v in w])
    return out


def range_of(rows: Sequence[Sequence[Any]], pairs: Sequence[tuple[int, int]],
             mx: Callable[..., Any] = max, mn: Callable[..., Any] = min) -> Any:
    """``Range(u) = max_{x~x'} max_{y,y'} (u(x,y) - u(x',y)) - (u(x,y') - u(x',y'))`` ([DDR]
    Prop. 1), over both orders of each neighbouring pair, exactly (rationals; ``mx``/``mn``
    are the max and min of the number type, e.g. sympy's for the z3 route)."""
    best = None
    for a, b in pairs:
        for x, xp in ((a, b), (b, a)):
            d = [u - v for u, v in zip(rows[x], rows[xp], strict=True)]
            r = mx(*d) - mn(*d)
            best = r if best is None else mx(best, r)
    assert best is not None
    return best


def sensitivity_of(rows: Sequence[Sequence[Any]], pairs: Sequence[tuple[int, int]],
                   mx: Callable[..., Any] = max) -> Any:
    """``Delta u = max_y max_{x~x'} |u(x,y) - u(x',y)|``."""
    return mx(*(abs(u - v) for a, b in pairs for u, v in zip(rows[a], rows[b], strict=True)))


def _kfold_grr(ctx: Any, eps_list: Sequence[Any], t_list: Sequence[Any]
               ) -> tuple[list[Any], list[Any]]:
    """The product laws of ``RR_{eps_i,t_i}`` over ``{0,1}^k`` (enumeration)."""
    P: list[Any] = [ctx.one]
    Q: list[Any] = [ctx.one]
    for e, t in zip(eps_list, t_list, strict=True):
        (a, b), (c, d) = grr_pair(ctx, e, t)
        P = [x * y for x in P for y in (a, b)]
        Q = [x * y for x in Q for y in (c, d)]
    return P, Q


def het_objective(ctx: Any, eps_list: Sequence[Any], t_list: Sequence[Any], eps: Any) -> Any:
    """The Lemma 3.1 objective ``sum_y (prod_i P_i(y_i) - e^eps prod_i Q_i(y_i))_+`` by
    enumeration of ``{0,1}^k`` ([DDR] Lemma 3.1)."""
    P, Q = _kfold_grr(ctx, eps_list, t_list)
    return finite.hockey_stick(ctx, P, Q, eps)


__all__ = [
    "br_by_pairs",
    "br_window",
    "dp_level",
    "grr_1mp",
    "grr_1mq",
    "grr_p",
    "grr_p_eval",
    "grr_pair",
    "grr_q",
    "grr_q_eval",
    "het_objective",
    "l31_delta_t",
    "log_ratios",
    "range_of",
    "sensitivity_of",
]
