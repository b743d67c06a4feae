"""Closed-form amplification-by-shuffling bounds: EFMRTT19, the privacy blanket (BBGN19,
Hoeffding form) and hiding among the clones (FMT21 Thm 3.1 and the authors'-code variant).

Shuffle-model conventions (catalogue ``shuffle_discrete.md``): n users each apply an
eps0-DP local randomizer; the analyst sees the multiset of reports; neighbouring datasets
differ in one user's record (replace-one); eps, delta are the central parameters.

References
----------
- [EFMRTT19] Erlingsson, Feldman, Mironov, Raghunathan, Talwar, Thakurta, arXiv 1811.12469
  (theorem number not recovered); formula and range read in BorjaBalle/amplification-by-shuffling
  ``shuffleddp/amplification_bounds.py`` class ``Erlingsson`` (commit 1778a0d).
- [BBGN19] Balle, Bell, Gascón, Nissim, arXiv 1903.02837, Sec. 5 (theorem number not
  recovered); read in the same code, ``Hoeffding.get_delta`` and ``shuffleddp/mechanisms.py``
  (``LDPMechanism``, ``RRMechanism``, ``LaplaceMechanism``: ``get_gamma``, ``get_range_l``).
- [FMT21] Feldman, McMillan, Talwar, arXiv 2012.12803, Thm 3.1 (number as cited by the
  SmartNoise/OpenDP ``compose_epsilon_theoretical``); the variant read in
  apple/ml-shuffling-amplification ``computeamplification.closedformanalysis`` (commit 993d285).

Every formula takes ``n`` as a Python int or a context number (a ball over a range of n in
the interval verifier), and refuses a point outside its regime with :class:`InvalidParameter`
only where the context decides the comparison (never on an undecided ball).
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.errors import InvalidParameter

# ------------------------------------------------------------------------------------------
# helpers


def _num(ctx: Any, x: Any) -> Any:
    """An integer count (n, k) as a context number; context numbers pass through."""
    return ctx.num(x) if isinstance(x, int) and not isinstance(x, bool) else x


def _refuse_if(ctx_decision: bool | None, message: str) -> None:
    if ctx_decision is True:
        raise InvalidParameter(message)


# ------------------------------------------------------------------------------------------
# EFMRTT19


def efmrtt19_eps_value(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    """``12 eps0 sqrt(log(1/delta)/n)`` without the regime checks ([EFMRTT19] arXiv 1811.12469,
    theorem number not recovered; read in ``amplification_bounds.Erlingsson.get_eps``)."""
    return 12 * eps0 * ctx.sqrt(-ctx.log(delta) / _num(ctx, n))


def efmrtt19_delta_value(ctx: Any, eps0: Any, n: Any, eps: Any) -> Any:
    """``exp(-n (eps/(12 eps0))^2)`` without the regime checks ([EFMRTT19] arXiv 1811.12469;
    read in ``amplification_bounds.Erlingsson.get_delta``)."""
    r = eps / (12 * eps0)
    return ctx.exp(-_num(ctx, n) * r * r)


def efmrtt19_eps(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    """EFMRTT19 central epsilon ``12 eps0 sqrt(log(1/delta)/n)`` for eps0 in (0, 1/2], n >= 1000,
    delta in (0, 1/100] ([EFMRTT19] arXiv 1811.12469, (version not verified), theorem number not
    recovered; formula and range read in BorjaBalle/amplification-by-shuffling 1778a0d,
    ``Erlingsson.get_eps``). A result above eps0 (no amplification) is refused, as the authors'
    range check ``eps <= eps0`` does."""
    eps = efmrtt19_eps_value(ctx, eps0, n, delta)
    _refuse_if(ctx.lt(eps0, eps),
               "EFMRTT19 gives no amplification here: 12 eps0 sqrt(log(1/delta)/n) exceeds eps0 "
               "(n must be >= 144 log(1/delta)); got n = " + str(n))
    return eps


def efmrtt19_delta(ctx: Any, eps0: Any, n: Any, eps: Any) -> Any:
    """EFMRTT19 ``delta(eps) = exp(-n (eps/(12 eps0))^2)`` for eps <= eps0 and a result <= 1/100
    ([EFMRTT19] arXiv 1811.12469, theorem number not recovered; read in
    ``Erlingsson.get_delta``, BorjaBalle/amplification-by-shuffling 1778a0d)."""
    _refuse_if(ctx.lt(eps0, eps), "eps must be in [0, eps0] for EFMRTT19")
    delta = efmrtt19_delta_value(ctx, eps0, n, eps)
    _refuse_if(ctx.lt(ctx.num("0.01"), delta),
               "EFMRTT19 holds only for delta <= 0.01: eps must be >= 12 eps0 "
               "sqrt(log(100)/n) here")
    return delta


# ------------------------------------------------------------------------------------------
# BBGN19 privacy blanket, Hoeffding form


def _two_sinh(ctx: Any, x: Any) -> Any:
    """``e^x - e^{-x}`` without cancellation for small x."""
    return ctx.expm1(x) - ctx.expm1(-x)


def blanket_log_parts(ctx: Any, gamma_lb: Any, b: Any, eps: Any) -> tuple[Any, Any]:
    """The Hoeffding form as ``log delta = P - log n + n Q`` with ``P = log(b^2/(4 a gamma_lb))``
    and ``Q = log(1 - gamma_lb (1 - exp(-2a^2/b^2)))``, ``a = e^eps - 1`` (the two parts do not
    depend on n: claims compare them to cover every n at once)."""
    a = ctx.expm1(eps)
    big_p = ctx.log(b * b / (4 * a * gamma_lb))
    big_q = ctx.log1p(gamma_lb * ctx.expm1(-2 * a * a / (b * b)))  # 1 - e^{-u} = -expm1(-u)
    return big_p, big_q


def blanket_hoeffding_delta(ctx: Any, gamma_lb: Any, b: Any, n: Any, eps: Any) -> Any:
    """``(1/(gamma_lb n)) b^2/(4a) (1 - gamma_lb (1 - exp(-2a^2/b^2)))^n``, ``a = e^eps - 1``
    ([BBGN19] arXiv 1903.02837, Sec. 5, Hoeffding form, theorem number not recovered; read in
    BorjaBalle/amplification-by-shuffling 1778a0d, ``Hoeffding.get_delta``), unclipped, as
    ``exp(P - log n + n Q)`` from :func:`blanket_log_parts` (n may be a ball)."""
    nn = _num(ctx, n)
    big_p, big_q = blanket_log_parts(ctx, gamma_lb, b, eps)
    return _hoeffding_from_parts(ctx, big_p, big_q, nn, ctx.log(nn))


def _hoeffding_from_parts(ctx: Any, big_p: Any, big_q: Any, nn: Any, log_n: Any) -> Any:
    return ctx.exp(big_p - log_n + nn * big_q)


def _blanket_delta_of_eps(ctx: Any, gamma_lb: Any, scale: Any, n: Any) -> Any:
    """``eps -> blanket_hoeffding_delta(gamma_lb, (e^eps + 1) scale, n, eps)`` with the parts
    that do not depend on eps evaluated once (the inverses bisect on it)."""
    nn = _num(ctx, n)
    log_n = ctx.log(nn)

    def delta_of(eps: Any) -> Any:
        big_p, big_q = blanket_log_parts(ctx, gamma_lb, _blanket_range(ctx, scale, eps), eps)
        return _hoeffding_from_parts(ctx, big_p, big_q, nn, log_n)

    return delta_of


def _blanket_range(ctx: Any, scale: Any, eps: Any) -> Any:
    """``b = (e^eps + 1) scale``: every randomizer's range constant has this form."""
    return (ctx.exp(eps) + 1) * scale


def generic_blanket_scale(ctx: Any, eps0: Any) -> tuple[Any, Any]:
    """``(gamma_lb, b / (e^eps + 1))`` of :func:`generic_blanket_constants` (eps-free)."""
    return ctx.exp(-eps0), _two_sinh(ctx, eps0)


def generic_blanket_constants(ctx: Any, eps0: Any, eps: Any) -> tuple[Any, Any]:
    """``(gamma_lb, b)`` of a generic eps0-DP randomizer: ``e^{-eps0}`` and ``(e^eps + 1)(e^eps0
    - e^{-eps0})`` (``mechanisms.LDPMechanism.get_gamma/get_range_l``, 1778a0d)."""
    gamma, scale = generic_blanket_scale(ctx, eps0)
    return gamma, _blanket_range(ctx, scale, eps)


def rr_blanket_scale(ctx: Any, eps0: Any, k: Any) -> tuple[Any, Any]:
    """``(gamma, b / (e^eps + 1))`` of :func:`rr_blanket_constants` (eps-free)."""
    kk = _num(ctx, k)
    one_minus_gamma = ctx.expm1(eps0) / (ctx.exp(eps0) + kk - 1)
    return rr_blanket_gamma(ctx, eps0, kk), one_minus_gamma * kk


def rr_blanket_constants(ctx: Any, eps0: Any, k: Any, eps: Any) -> tuple[Any, Any]:
    """``(gamma, b)`` of k-ary RR: ``k/(e^eps0 + k - 1)`` and ``(1 - gamma) k (e^eps + 1)`` with
    ``1 - gamma = (e^eps0 - 1)/(e^eps0 + k - 1)`` (``mechanisms.RRMechanism``, 1778a0d)."""
    gamma, scale = rr_blanket_scale(ctx, eps0, k)
    return gamma, _blanket_range(ctx, scale, eps)


def laplace_blanket_scale(ctx: Any, eps0: Any) -> tuple[Any, Any]:
    """``(gamma, b / (e^eps + 1))`` of :func:`laplace_blanket_constants` (eps-free)."""
    h = eps0 / 2
    return ctx.exp(-h), _two_sinh(ctx, h)


def laplace_blanket_constants(ctx: Any, eps0: Any, eps: Any) -> tuple[Any, Any]:
    """``(gamma, b)`` of the Laplace mechanism on [0, 1] with scale 1/eps0: ``e^{-eps0/2}`` and
    ``(e^eps + 1)(e^{eps0/2} - e^{-eps0/2})`` (``mechanisms.LaplaceMechanism``, 1778a0d)."""
    gamma, scale = laplace_blanket_scale(ctx, eps0)
    return gamma, _blanket_range(ctx, scale, eps)


def _check_eps_below_eps0(ctx: Any, eps0: Any, eps: Any) -> None:
    _refuse_if(ctx.le(eps, ctx.zero), "eps must be in (0, eps0) for BBGN19-BLANKET; got eps <= 0")
    _refuse_if(ctx.le(eps0, eps), "eps must be in (0, eps0) for BBGN19-BLANKET; got eps >= eps0")


def generic_blanket_delta(ctx: Any, eps0: Any, n: Any, eps: Any) -> Any:
    """Generic eps0-DP randomizer ([BBGN19] arXiv 1903.02837 Sec. 5): the constants of
    :func:`generic_blanket_constants` in :func:`blanket_hoeffding_delta`; no domain check."""
    gamma, b = generic_blanket_constants(ctx, eps0, eps)
    return blanket_hoeffding_delta(ctx, gamma, b, n, eps)


def rr_blanket_gamma(ctx: Any, eps0: Any, k: Any) -> Any:
    """Blanket probability of k-ary RR ``k/(e^eps0 + k - 1)`` (``RRMechanism.get_gamma``)."""
    kk = _num(ctx, k)
    return kk / (ctx.exp(eps0) + kk - 1)


def rr_blanket_delta(ctx: Any, eps0: Any, k: Any, n: Any, eps: Any) -> Any:
    """k-ary RR ([BBGN19] arXiv 1903.02837 Sec. 5): the constants of
    :func:`rr_blanket_constants` in :func:`blanket_hoeffding_delta`; no domain check."""
    gamma, b = rr_blanket_constants(ctx, eps0, k, eps)
    return blanket_hoeffding_delta(ctx, gamma, b, n, eps)


def laplace_blanket_delta(ctx: Any, eps0: Any, n: Any, eps: Any) -> Any:
    """Laplace on [0, 1] with scale 1/eps0 ([BBGN19] arXiv 1903.02837 Sec. 5): the constants of
    :func:`laplace_blanket_constants` in :func:`blanket_hoeffding_delta`; no domain check."""
    gamma, b = laplace_blanket_constants(ctx, eps0, eps)
    return blanket_hoeffding_delta(ctx, gamma, b, n, eps)


def bbgn19_delta(ctx: Any, eps0: Any, n: Any, eps: Any) -> Any:
    """[BBGN19] arXiv 1903.02837 (version not verified), Sec. 5, Hoeffding form for every
    eps0-DP local randomizer (:func:`generic_blanket_delta`), unclipped, for eps in (0, eps0).
    """
    _check_eps_below_eps0(ctx, eps0, eps)
    return generic_blanket_delta(ctx, eps0, n, eps)


def bbgn19_delta_rr(ctx: Any, eps0: Any, k: Any, n: Any, eps: Any) -> Any:
    """[BBGN19] arXiv 1903.02837, Sec. 5, Hoeffding form with the k-ary RR blanket constants
    (:func:`rr_blanket_delta`), unclipped, for eps in (0, eps0)."""
    _check_eps_below_eps0(ctx, eps0, eps)
    return rr_blanket_delta(ctx, eps0, k, n, eps)


def bbgn19_delta_laplace(ctx: Any, eps0: Any, n: Any, eps: Any) -> Any:
    """[BBGN19] arXiv 1903.02837, Sec. 5, Hoeffding form with the Laplace blanket constants
    (:func:`laplace_blanket_delta`), unclipped, for eps in (0, eps0)."""
    _check_eps_below_eps0(ctx, eps0, eps)
    return laplace_blanket_delta(ctx, eps0, n, eps)


def blanket_eps(ctx: Any, delta_of: Any, eps0: Any, delta: Any) -> Any:
    """Least eps in (0, eps0) with ``min(1, delta_of(eps)) <= delta``, by bisection
    (``ctx.solve``) on the clipped value: the unclipped bound is not monotone where it exceeds 1
    (catalogue BBGN19-BLANKET claim 4). Refused when even eps -> eps0 does not reach delta (the
    bound is continuous in eps, so its value at eps0 is the limit from below)."""

    def clipped(e: Any) -> Any:
        e = ctx.min(e, eps0)  # past eps0 the crossing has been passed: keep f monotone there
        if ctx.le(e, ctx.zero) is True:
            return ctx.one  # a = e^eps - 1 = 0: the bound is +inf
        return ctx.min(ctx.one, delta_of(e))

    _refuse_if(ctx.lt(delta, clipped(eps0)),
               "BBGN19-BLANKET gives no eps below eps0 at this delta (the bound at eps -> eps0 "
               "exceeds delta: n too small)")
    return ctx.solve(clipped, delta, lo=0, decreasing=True)


def bbgn19_eps(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    """Inverse of :func:`bbgn19_delta`: least eps in (0, eps0) with min(1, delta(eps)) <= delta."""
    return blanket_eps(ctx, _blanket_delta_of_eps(ctx, *generic_blanket_scale(ctx, eps0), n),
                       eps0, delta)


def bbgn19_eps_rr(ctx: Any, eps0: Any, k: Any, n: Any, delta: Any) -> Any:
    """Inverse of :func:`bbgn19_delta_rr` (k-ary RR constants)."""
    return blanket_eps(ctx, _blanket_delta_of_eps(ctx, *rr_blanket_scale(ctx, eps0, k), n),
                       eps0, delta)


def bbgn19_eps_laplace(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    """Inverse of :func:`bbgn19_delta_laplace` (Laplace constants)."""
    return blanket_eps(ctx, _blanket_delta_of_eps(ctx, *laplace_blanket_scale(ctx, eps0), n),
                       eps0, delta)


# ------------------------------------------------------------------------------------------
# FMT21 hiding among the clones, closed forms


def fmt21_eps0_max(ctx: Any, n: Any, delta: Any) -> Any:
    """Regime edge of [FMT21] Thm 3.1: ``log(n/(16 log(2/delta)))`` ([FMT21] arXiv 2012.12803,
    Thm 3.1 as cited by SmartNoise/OpenDP ``shuffle_amplification``, "epsilon_constraint");
    refused when ``n <= 16 log(2/delta)`` (the regime is empty)."""
    ratio = _num(ctx, n) / (16 * ctx.log(2 / delta))
    _refuse_if(ctx.le(ratio, ctx.one),
               "n must exceed 16 log(2/delta) for FMT21-CLONES (empty regime eps0 <= "
               "log(n/(16 log(2/delta))))")
    return ctx.log(ratio)


def fmt21_eps_value(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    """``log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 log(4/delta)/n) + 8 e^eps0/n))``
    without the regime check; ``(e^x - 1)/(e^x + 1) = tanh(x/2)``."""
    nn = _num(ctx, n)
    x = ctx.exp(eps0)
    return ctx.log1p(ctx.tanh(eps0 / 2) * 8 * (ctx.sqrt(x * ctx.log(4 / delta) / nn) + x / nn))


def fmt21_eps(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    """[FMT21] arXiv 2012.12803 (version not verified), Thm 3.1 (number and formula as in the
    SmartNoise/OpenDP ``compose_epsilon_theoretical``, "theorem 3.1"): for eps0 <=
    log(n/(16 log(2/delta))) the shuffled output is (eps, delta)-DP with
    ``eps = log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 log(4/delta)/n) + 8 e^eps0/n))``."""
    top = fmt21_eps0_max(ctx, n, delta)
    _refuse_if(ctx.lt(top, eps0),
               "eps0 must be <= log(n/(16 log(2/delta))) for FMT21-CLONES (see eps0_max)")
    return fmt21_eps_value(ctx, eps0, n, delta)


def fmt21_eps_code_value(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    """The authors'-code variant without the regime check: ``a = 8 sqrt(e^eps0 log(4/delta)/n)``,
    ``c = 8 e^eps0/n``, ``e1 = log(1 + a + c)``, ``log(1 + (1 - e^{-eps0})/(1 + e^{-eps0 - e1})
    (a + c))``."""
    nn = _num(ctx, n)
    x = ctx.exp(eps0)
    s = 8 * ctx.sqrt(x * ctx.log(4 / delta) / nn) + 8 * x / nn
    e1 = ctx.log1p(s)
    return ctx.log1p(-ctx.expm1(-eps0) / (1 + ctx.exp(-eps0 - e1)) * s)


def fmt21_eps0_max_code(ctx: Any, n: Any, delta: Any) -> Any:
    """Regime edge of the authors' code: ``log(n/(16 log(4/delta)))`` (``closedformanalysis``)."""
    ratio = _num(ctx, n) / (16 * ctx.log(4 / delta))
    _refuse_if(ctx.le(ratio, ctx.one),
               "n must exceed 16 log(4/delta) for FMT21-CLONES.eps_code (empty regime)")
    return ctx.log(ratio)


def fmt21_eps_code(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    """[FMT21] arXiv 2012.12803, the closed form as implemented by the authors in
    apple/ml-shuffling-amplification ``computeamplification.closedformanalysis`` (commit
    993d285); regime ``eps0 <= log(n/(16 log(4/delta)))`` (the code prints a warning and returns
    eps0 outside it; here: a domain error)."""
    top = fmt21_eps0_max_code(ctx, n, delta)
    _refuse_if(ctx.lt(top, eps0),
               "eps0 must be <= log(n/(16 log(4/delta))) for FMT21-CLONES.eps_code")
    return fmt21_eps_code_value(ctx, eps0, n, delta)
