"""The Poisson-subsampled Gaussian: its exact one-step profile in both directions (closed forms
through the Gaussian profile at a shifted threshold, and direct quadratures), its RDP curve
(binomial sum at integer orders, [MTZ19] series and rigorous ``acb`` quadrature at fractional
orders) and the RDP-based (eps, delta) over the standard order grid.

References: [BBG] arXiv 1807.01647v2, Thm 2 (the one-step closed forms are derived from it;
catalogue SGM-1STEP-EXACT); [MTZ19] arXiv 1908.10530v1, Sec. 3; [BBGHS20] arXiv 1905.09982,
Thm 21; [Mir17] arXiv 1702.07476v3, Prop. 3.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import MpCtx, PrecisionExhausted, Unsupported
from dpverify.theorems.errors import NoConvergence
from dpverify.theorems.formulas.conversions import balle_eps, mir_eps
from dpverify.theorems.formulas.gaussian import gauss_delta, normal_pdf
from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.integers import as_int
from dpverify.theorems.numerics.quadrature import acb_window_integral, window_width


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


def sgm1_add_quad(ctx: Any, q: Any, sigma: Any, eps: Any, **_: Any) -> Any:
    """``∫ (mix - e^eps N0)_+`` by quadrature over ``y >= y*``, where the likelihood ratio
    ``1 - q + q e^{(2y-1)/(2 s^2)}`` exceeds ``e^eps``: rigorous ``acb.integral`` on a window
    plus the bound ``Phi(-(Y-1)/s)`` of the tail beyond it (arb), or mpmath quadrature (mp)."""
    ee = ctx.exp(eps)
    ystar = ctx.num(Fraction(1, 2)) + sigma**2 * ctx.log((ctx.expm1(eps) + q) / q)
    if ctx.name == "arb":
        top = ystar + 2 + sigma * window_width()
        c = 1 / (sigma * (2 * flint.arb.pi()).sqrt())

        def g(y: flint.acb) -> flint.acb:
            e0 = (-(y * y) / (2 * sigma**2)).exp()
            e1 = (-((y - 1) ** 2) / (2 * sigma**2)).exp()
            return c * ((1 - q - ee) * e0 + q * e1)

        return acb_window_integral(g, ystar, top, pld._phi(-(top - 1) / sigma))

    def f(y: Any) -> Any:
        return (1 - q) * normal_pdf(ctx, y, 0, sigma) + q * normal_pdf(ctx, y, 1, sigma) \
            - ee * normal_pdf(ctx, y, 0, sigma)

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
        bottom = y2 - 2 - sigma * window_width()
        k = 1 / (sigma * (2 * flint.arb.pi()).sqrt())

        def g(y: flint.acb) -> flint.acb:
            e0 = (-(y * y) / (2 * sigma**2)).exp()
            e1 = (-((y - 1) ** 2) / (2 * sigma**2)).exp()
            return k * ((1 - ee * (1 - q)) * e0 - ee * q * e1)

        return acb_window_integral(g, bottom, y2, pld._phi(bottom / sigma))

    def f(y: Any) -> Any:
        return normal_pdf(ctx, y, 0, sigma) - ee * ((1 - q) * normal_pdf(ctx, y, 0, sigma)
                                               + q * normal_pdf(ctx, y, 1, sigma))

    return ctx.quad(f, [-ctx.inf, y2 - 10 * sigma, y2])


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
    try:  # mpmath's limit: ten terms per decimal digit of the working precision
        tail = m.nsum(term, [head_n, m.inf], method="alternating", strict=True)
    except m.NoConvergence:
        raise NoConvergence(f"the alternating tail of the [MTZ19] series did not converge "
                            f"within {10 * m.dps} terms at {ctx.prec} bits") from None
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
    # the integrand's constants, built once rather than at each of its ~1000 evaluations
    # (the same balls: 2 s^2 is exact, 1 - q and acb(power) are what each call built)
    two_s2, one_minus_q, power_c = 2 * s2, one - q, flint.acb(power)

    def f(y: flint.acb, analytic: bool) -> flint.acb:
        r = ((2 * y - 1) / two_s2).exp()
        base = one_minus_q + q * r
        return base.pow(power_c, analytic=analytic) * (-(y * y) / two_s2).exp() / two_pi_s

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
            return ctx.pow(1 - q + q * r, power) * normal_pdf(ctx, y, 0, sigma)

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
    a = as_int(ctx, alpha)
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


def sgm_eps_exact(ctx: Any, q: Any, sigma: Any, delta: Any) -> Any:
    """The exact eps of one Poisson-subsampled Gaussian step under add/remove (catalogue
    SGM-1STEP-EXACT, derived from [BBG] arXiv 1807.01647v2): least eps >= 0 whose profile,
    the maximum over both orders of the dominating pair, is at most delta."""
    return sgm1_eps(ctx, q, sigma, delta)


def sgm_eps_rdp(ctx: Any, q: Any, sigma: Any, delta: Any) -> Any:
    """One step: MTZ-SGM-RDP at the integer orders 2..128 ([MTZ19] arXiv 1908.10530, Sec. 3.3,
    binomial expansion), converted by BALLE20-CONV and minimised over the orders."""
    return ctx.min(*(balle_eps(ctx, ctx.num(a), sgm_rdp_binomial(ctx, q, sigma, a), delta)
                     for a in range(2, 129)))
