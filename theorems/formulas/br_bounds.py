"""Closed-form bounds for adaptive BR composition: OptKL, the MGF bound, DR19.

- :func:`kl_sup`, :func:`kl_t`, :func:`optkl_eps`: OptKL ([DDR] Cor. 3.1; the expression matches
  public code that cites it as "Proposition 4" of the ICML version,
  http://proceedings.mlr.press/v119/dong20a).
- :func:`mgf_eps`, :func:`mgf_delta`: the MGF bound ([DDR] Thm 5, Chernoff form with the closed
  form maximiser t*), with the Chernoff parameter found by golden section and a secant step.
- :func:`dr19_eps` and variants: the "DR19" bound as plotted in [DDR] Fig. 1.

References
----------
- [DDR] J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
  Mechanisms and the Cost of Adaptivity*, arXiv 1909.13830 (version not verified; ICML 2020,
  PMLR 119), Cor. 3.1, Thm 5, Fig. 1.
- [DR19] D. Durfee, R. Rogers, *Practical Differentially Private Top-k Selection with
  Pay-what-you-get Composition*, arXiv 1905.04273 (version not verified; NeurIPS 2019).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import FloatCtx, MpCtx, Unsupported, arb_to_fraction
from dpverify.theorems.formulas.bounded_range import (
    _check_t,
    _clip_min,
    _exact_value,
    _mp_fraction,
    _wide,
    grr_1mp,
    grr_1mq,
    grr_p,
    grr_q,
)
from dpverify.theorems.numerics.search import golden_section_max, secant_root_increasing
from dpverify.theorems.values import approx_float, exact_params, to_ctx


def _log_inv(ctx: Any, delta: Any) -> Any:
    return -ctx.log(delta)


def kl_sup(ctx: Any, eps0: Any) -> Any:
    """``sup_t KL(RR_{eps0,t}(0) || RR_{eps0,t}(1)) = x - 1 - ln x`` with ``x = eps0/(1 -
    e^{-eps0})`` ([DDR] arXiv 1909.13830, Cor. 3.1; the expression of public code citing the
    ICML version's Prop. 4). About ``eps0^2/8``; arb raises precision through the cancellation."""
    x = eps0 / (-ctx.expm1(-eps0))
    return x - 1 - ctx.log(x)


def kl_sup_alt(ctx: Any, eps0: Any) -> Any:
    """The second closed form ``ln((e^eps0 - 1)/eps0) - 1 + eps0/(e^eps0 - 1)`` (the KL at its
    maximiser ``t* = ln((e^eps0 - 1)/eps0)``)."""
    m = ctx.expm1(eps0)
    return ctx.log(m / eps0) - 1 + eps0 / m


@exact_params("eps0", "t")
def kl_t(ctx: Any, eps0: Any, t: Any) -> Any:
    """``KL(RR_{eps0,t}(0) || RR_{eps0,t}(1)) = t - eps0 (e^t - 1)/(e^eps0 - 1)`` (= ``p t + (1-p)(t
    - eps0)``; [DDR] Cor. 3.1)."""
    _check_t(eps0, t)
    e, tt = to_ctx(ctx, eps0), to_ctx(ctx, t)
    return tt - e * ctx.expm1(tt) / ctx.expm1(e)


def kl_direct(ctx: Any, eps0: Any, t: Any) -> Any:
    """``p ln(p/q) + (1-p) ln((1-p)/(1-q))`` from the GRR probabilities (0 < t < eps0)."""
    p, mp_ = grr_p(ctx, eps0, t), grr_1mp(ctx, eps0, t)
    q, mq = grr_q(ctx, eps0, t), grr_1mq(ctx, eps0, t)
    return p * ctx.log(p / q) + mp_ * ctx.log(mp_ / mq)


def optkl_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DDR-C31: ``min(k eps0, k kl_sup(eps0) + sqrt((k eps0^2/2) ln(1/delta)))`` ([DDR] arXiv
    1909.13830, Cor. 3.1: KL bias term plus Azuma-Hoeffding with range eps0)."""
    e0, d = to_ctx(ctx, eps0), to_ctx(ctx, delta)
    raw = k * kl_sup(ctx, e0) + ctx.sqrt(k * e0 * e0 / 2 * _log_inv(ctx, d))
    return _clip_min(ctx, k * e0, raw)


def mgf_t_star(ctx: Any, eps0: Any, lam: Any) -> Any:
    """The maximiser over t of ``p_t e^{lam t} + (1 - p_t) e^{lam (t - eps0)}``: ``t* = eps0 +
    ln(lam (e^{-lam eps0} + A)/(A (1 + lam)))``, ``A = (1 - e^{-lam eps0})/(1 - e^{-eps0})``,
    clipped to [0, eps0] (catalogue DDR-T5; derived from ``h'(t) = 0``)."""
    A = ctx.expm1(-lam * eps0) / ctx.expm1(-eps0)
    t = eps0 + ctx.log(lam * (ctx.exp(-lam * eps0) + A) / (A * (1 + lam)))
    return ctx.max(ctx.zero, ctx.min(eps0, t))


def mgf_log_h(ctx: Any, eps0: Any, lam: Any, t: Any) -> Any:
    """``ln(p_t e^{lam t} + (1 - p_t) e^{lam (t - eps0)}) = lam t + ln(p_t + (1 - p_t) e^{-lam
    eps0})``: the log-MGF at lam of the privacy loss of ``RR_{eps0,t}``."""
    return lam * t + ctx.log(grr_p(ctx, eps0, t) + grr_1mp(ctx, eps0, t) * ctx.exp(-lam * eps0))


def mgf_log_m(ctx: Any, eps0: Any, lam: Any) -> Any:
    """``ln M(lam) = sup_t ln h(t)`` at the closed-form maximiser."""
    return mgf_log_h(ctx, eps0, lam, mgf_t_star(ctx, eps0, lam))


def mgf_dlog_m(ctx: Any, eps0: Any, lam: Any) -> Any:
    """``d/dlam ln M(lam)`` at the maximiser (envelope theorem): ``t* - eps0 (1-p) e^{-lam eps0}/
    (p + (1-p) e^{-lam eps0})``."""
    t = mgf_t_star(ctx, eps0, lam)
    w = grr_1mp(ctx, eps0, t) * ctx.exp(-lam * eps0)
    return t - eps0 * w / (grr_p(ctx, eps0, t) + w)


def _mgf_argmin(ctx: Any, objective: Callable[[Any, Any], Any],
                stationary: Callable[[Any, Any], Any]) -> Fraction:
    """A minimiser lam of a unimodal objective over ``ln lam in [-14, 10]``: golden section in
    doubles, then (outside the float context) the secant method on the increasing stationarity
    function in mpmath at the working precision. Any lam gives a valid bound; this one is
    within the working precision of the minimiser."""
    f = FloatCtx()
    u = golden_section_max(lambda v: -float(objective(f, math.exp(v))), -14.0, 10.0, 80)
    if isinstance(ctx, FloatCtx):
        return Fraction(math.exp(u))
    m = MpCtx(max(int(ctx.prec), 64) + 10)
    lam0 = m.num(Fraction(math.exp(u)))
    lo, hi = lam0 * m.num(Fraction(99, 100)), lam0 * m.num(Fraction(101, 100))
    if u <= -13.9 or u >= 9.9 or not stationary(m, lo) < 0 < stationary(m, hi):
        return Fraction(math.exp(u))  # at an end of the search range: keep the float value
    lam = secant_root_increasing(lambda x: stationary(m, x), lo, hi, lam0,
                           lam0 * m.num(Fraction(1000001, 1000000)), 200)
    return _mp_fraction(lam)


@functools.lru_cache(maxsize=4096)
def _mgf_lam_eps(eps0: Fraction, k: int, delta: Fraction, prec: int, fp: bool) -> Fraction:
    ctx: Any = FloatCtx() if fp else MpCtx(prec)

    def obj(c: Any, lam: Any) -> Any:
        e0, d = c.num(eps0), c.num(delta)
        return (k * mgf_log_m(c, e0, lam) + _log_inv(c, d)) / lam

    def stat(c: Any, lam: Any) -> Any:  # lam^2 d/dlam of obj, increasing in lam
        e0, d = c.num(eps0), c.num(delta)
        return k * lam * mgf_dlog_m(c, e0, lam) - k * mgf_log_m(c, e0, lam) - _log_inv(c, d)

    return _mgf_argmin(ctx, obj, stat)


@functools.lru_cache(maxsize=4096)
def _mgf_lam_delta(eps0: Fraction, k: int, eps: Fraction, prec: int, fp: bool) -> Fraction:
    ctx: Any = FloatCtx() if fp else MpCtx(prec)

    def obj(c: Any, lam: Any) -> Any:
        return k * mgf_log_m(c, c.num(eps0), lam) - lam * c.num(eps)

    def stat(c: Any, lam: Any) -> Any:  # d/dlam of obj, increasing (ln M is convex)
        return k * mgf_dlog_m(c, c.num(eps0), lam) - c.num(eps)

    return _mgf_argmin(ctx, obj, stat)


def _as_fraction_param(ctx: Any, v: Any, name: str) -> Fraction:
    e = _exact_value(v)
    if e is not None:
        return e
    if isinstance(ctx, FloatCtx) or isinstance(v, float):
        return Fraction(approx_float(v))
    if isinstance(v, flint.arb):  # before mpf: arb also has a man_exp (a method)
        if not _wide(v):
            return arb_to_fraction(v.mid())
    elif hasattr(v, "man_exp"):
        return _mp_fraction(v)
    raise Unsupported(f"{name} must be a point for the MGF search")


@exact_params("eps0", "delta")
def mgf_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DDR-T5 (reconstruction): ``min(k eps0, inf_{lam > 0} (k ln M(lam) + ln(1/delta))/lam)``
    with ``M(lam) = sup_t (p_t e^{lam t} + (1 - p_t) e^{lam (t - eps0)})`` ([DDR] arXiv 1909.13830,
    Thm 5, as the Chernoff bound on the adaptive privacy-loss martingale). Every lam gives a
    valid bound; lam is found by golden section over ``ln lam in [-14, 10]`` (the objective is
    quasi-convex) and the value is the bound at that lam, within the working precision of the
    infimum (secant refinement of the stationarity condition, ``d/dlam ln M`` by the envelope
    theorem)."""
    e0 = _as_fraction_param(ctx, eps0, "eps0")
    d = _as_fraction_param(ctx, delta, "delta")
    lam = _mgf_lam_eps(e0, k, d, max(int(ctx.prec), 64), isinstance(ctx, FloatCtx))
    E0, D, L = to_ctx(ctx, eps0), to_ctx(ctx, delta), ctx.num(lam)
    raw = (k * mgf_log_m(ctx, E0, L) + _log_inv(ctx, D)) / L
    return _clip_min(ctx, k * E0, raw)


@exact_params("eps0", "eps")
def mgf_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """DDR-T5 solved for delta (derived): ``min(1, inf_{lam > 0} exp(k ln M(lam) - lam eps))``
    (golden section over ``ln lam``; the objective is convex in lam)."""
    e0 = _as_fraction_param(ctx, eps0, "eps0")
    g = _as_fraction_param(ctx, eps, "eps")
    lam = _mgf_lam_delta(e0, k, g, max(int(ctx.prec), 64), isinstance(ctx, FloatCtx))
    E0, G, L = to_ctx(ctx, eps0), to_ctx(ctx, eps), ctx.num(lam)
    return ctx.min(ctx.one, ctx.exp(k * mgf_log_m(ctx, E0, L) - L * G))


def dr19_eps_raw(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """``k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta))``: the DRV bias term with the BR
    Azuma term (catalogue DR19-BR, reconstruction)."""
    return k * eps0 * ctx.expm1(eps0) + eps0 * ctx.sqrt(k * _log_inv(ctx, delta) / 2)


def dr19_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DR19-BR (DRV-KL variant): ``min(k eps0, k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta)))``
    ([DR19] arXiv 1905.04273 as plotted in [DDR] Fig. 1; the catalogue's reconstruction)."""
    e0, d = to_ctx(ctx, eps0), to_ctx(ctx, delta)
    return _clip_min(ctx, k * e0, dr19_eps_raw(ctx, e0, k, d))


def dr19_eps_het(ctx: Any, eps_list: Sequence[Any], delta: Any) -> Any:
    """DR19-BR heterogeneous: ``sum_i eps_i (e^eps_i - 1) + sqrt((1/2) sum_i eps_i^2 ln(1/delta))``
    (unclipped; catalogue DR19-BR)."""
    bias = ctx.fsum(e * ctx.expm1(e) for e in eps_list)
    sq = ctx.fsum(e * e for e in eps_list)
    return bias + ctx.sqrt(sq * _log_inv(ctx, delta) / 2)


def dr19_eps_kovkl(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """DR19-BR, KOV-KL variant: ``min(k eps0, k eps0 (e^eps0 - 1)/(e^eps0 + 1) + eps0 sqrt((k/2)
    ln(1/delta)))`` (the alternative reconstruction of the catalogue)."""
    e0, d = to_ctx(ctx, eps0), to_ctx(ctx, delta)
    raw = k * e0 * ctx.tanh(e0 / 2) + e0 * ctx.sqrt(k * _log_inv(ctx, d) / 2)
    return _clip_min(ctx, k * e0, raw)
