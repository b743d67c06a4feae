"""Trade-off functions (f-DP): the (eps, delta) and Gaussian curves, the Laplace curve, the
primal-dual conversion by numerical maximisation, and amplification by subsampling of an RR base
([DRS] J. Dong, A. Roth, W. J. Su, Gaussian Differential Privacy, arXiv 1905.02383; theorem
numbers recalled, not read: Prop. 2.5, Def. 2.6, Prop. 2.12, Thm 4.2).

Every curve is evaluated at ``fpr``, the type-I error (false-positive rate) a in [0, 1].
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from dpverify.theorems.errors import InvalidParameter

# Phi^{-1} is searched on [-40, 40]: Phi(-40) < 1e-349, below every probability handled here.
_NINV_LO, _NINV_HI = -40, 40


def check_fpr(ctx: Any, fpr: Any) -> None:
    if ctx.lt(fpr, ctx.zero) is True or ctx.lt(ctx.one, fpr) is True:
        raise InvalidParameter(f"fpr must be in [0, 1]; got {fpr}")


def _ninv_bisect(ctx: Any, p: Any) -> Any:
    return ctx.solve(lambda x: ctx.ncdf(x), p, lo=_NINV_LO, hi=_NINV_HI, decreasing=False)


def _ninv_arb_direct(ctx: Any, p: Any) -> Any:
    """``Phi^{-1}(p) = -sqrt(2) erfcinv(2p)`` as one rigorous arb ball (flint's
    ``arb_hypgeom_erfcinv``), or None when that ball is not finite or wider than the radius
    ``2^{16-prec} (1 + |x|)`` from which the certified Newton route below starts (whose ball is
    never narrower): so the ball returned is never wider than that route's, at about a fifth of
    its cost. Wide input balls (branch and bound) take the Newton/bisection route as before, and
    so do the tails outside ``(1e-300, 1 - 1e-16)`` (bisection, narrower still)."""
    x = -(2 * p).erfcinv() * ctx.sqrt(ctx.num(2))
    if not x.is_finite():
        return None
    if (x.rad() <= ctx.num(2) ** (16 - ctx.prec) * (1 + abs(x.mid()))) is not True:
        return None
    return x


def ninv(ctx: Any, p: Any) -> Any:
    """``Phi^{-1}(p)`` for p in (0, 1). In arb, first flint's rigorous ``erfcinv``
    (:func:`_ninv_arb_direct`), kept when its ball is no wider than the route that follows.
    Else Newton steps on exact points from the float64 quantile; in arb the result is then
    certified: a ball ``[x - r, x + r]`` is returned only once ``Phi(x - r) < p < Phi(x + r)``
    is decided (Phi is increasing), else bisection with the context's comparisons. Tails come
    from ``erfc``, accurate far below 1e-300. In the sym context, the exact quantile ``-sqrt(2)
    erfcinv(2p)``."""
    if ctx.name == "sym":
        return ctx.ninv(p)
    pf = float(ctx.midpoint(p, p))
    if not 1e-300 < pf < 1 - 1e-16:
        return _ninv_bisect(ctx, p)
    if ctx.name == "arb":
        direct = _ninv_arb_direct(ctx, p)
        if direct is not None:
            return direct
    x = ctx.num(Fraction(NormalDist().inv_cdf(pf)))
    c = 1 / ctx.sqrt(2 * ctx.pi)
    for _ in range(max(3, math.ceil(math.log2(ctx.prec / 40)) + 3)):
        step = x - (ctx.ncdf(x) - p) / (c * ctx.exp(-x * x / 2))
        step = ctx.midpoint(step, step)  # an exact point in arb (the ball's centre)
        if bool(step == x):  # a fixed point: every further step would return x again
            break
        x = step
    if ctx.name != "arb":
        return x
    r = ctx.num(2) ** (16 - ctx.prec) * (1 + ctx.abs(x))
    for _ in range(6):
        lo, hi = x - r, x + r
        if ctx.lt(ctx.ncdf(lo), p) is True and ctx.lt(p, ctx.ncdf(hi)) is True:
            return ctx.hull(lo, hi)
        r = r * 256
    return _ninv_bisect(ctx, p)


def f_approx(ctx: Any, eps: Any, delta: Any, fpr: Any) -> Any:
    """``f_{eps,delta}(a) = max(0, 1 - delta - e^eps a, e^{-eps}(1 - delta - a))``: (eps, delta)-DP
    is f_{eps,delta}-DP ([DRS] arXiv 1905.02383, Prop. 2.5, number recalled; formula read in
    autodp ``converter.approxdp_to_fdp``, commit 06489ea)."""
    check_fpr(ctx, fpr)
    x = ctx.exp(eps)
    return ctx.max(ctx.zero, 1 - delta - x * fpr, (1 - delta - fpr) / x)


def f_gauss(ctx: Any, mu: Any, fpr: Any) -> Any:
    """``G_mu(a) = Phi(Phi^{-1}(1 - a) - mu) = Phi(-Phi^{-1}(a) - mu)`` ([DRS] arXiv 1905.02383,
    Def. 2.6, number recalled; autodp ``fdp_bank.fDP_gaussian``)."""
    check_fpr(ctx, fpr)
    if ctx.le(fpr, ctx.zero) is True:
        return ctx.one
    if ctx.le(ctx.one, fpr) is True:
        return ctx.zero
    return ctx.ncdf(-ninv(ctx, fpr) - mu)


def tpr_gauss(ctx: Any, mu: Any, fpr: Any) -> Any:
    """``1 - G_mu(a) = Phi(Phi^{-1}(a) + mu)``, computed directly (never as ``1 - G_mu``, which
    loses every digit in the tail a -> 0) (dp_accounting ``get_true_positive_rates``)."""
    check_fpr(ctx, fpr)
    if ctx.le(fpr, ctx.zero) is True:
        return ctx.zero
    if ctx.le(ctx.one, fpr) is True:
        return ctx.one
    return ctx.ncdf(ninv(ctx, fpr) + mu)


# ------------------------------------------------------------------------------------------
# Laplace


def _laplace_mu(ctx: Any, b: Any, sensitivity: Any) -> Any:
    if ctx.le(b, ctx.zero) is True:
        raise InvalidParameter(f"b must be > 0; got {b}")
    if ctx.le(sensitivity, ctx.zero) is True:
        raise InvalidParameter(f"sensitivity must be > 0; got {sensitivity}")
    return sensitivity / b


def laplace_tradeoff_mu(ctx: Any, mu: Any, fpr: Any) -> Any:
    """``T(Lap(0,1), Lap(mu,1))(a)``: ``1 - e^mu a`` on ``[0, e^{-mu}/2]``, ``e^{-mu}/(4a)`` on
    ``[e^{-mu}/2, 1/2]``, ``e^{-mu}(1 - a)`` on ``[1/2, 1]`` (derived from ``F(F^{-1}(1-a) - mu)``,
    [DRS] arXiv 1905.02383, Sec. 2 Laplace example, location recalled)."""
    check_fpr(ctx, fpr)
    em = ctx.exp(-mu)
    half = ctx.num("1/2")
    return ctx.piecewise_lt(
        fpr, em / 2, lambda: 1 - fpr / em,
        lambda: ctx.piecewise_lt(fpr, half, lambda: em / (4 * fpr), lambda: em * (1 - fpr)))


def laplace_tradeoff_cdf(ctx: Any, mu: Any, fpr: Any) -> Any:
    """Second route: ``F(F^{-1}(1 - a) - mu)`` with F the Lap(0, 1) CDF and its inverse written
    out (F(x) = e^x/2 for x < 0, 1 - e^{-x}/2 for x >= 0)."""
    u = 1 - fpr
    half = ctx.num("1/2")
    finv = ctx.piecewise_lt(u, half, lambda: ctx.log(2 * u), lambda: -ctx.log(2 * (1 - u)))
    x = finv - mu
    return ctx.piecewise_lt(x, ctx.zero, lambda: ctx.exp(x) / 2, lambda: 1 - ctx.exp(-x) / 2)


def laplace_f(ctx: Any, b: Any, fpr: Any, sensitivity: Any) -> Any:
    """Trade-off function of the Laplace mechanism Lap(b), sensitivity s: mu = s/b."""
    return laplace_tradeoff_mu(ctx, _laplace_mu(ctx, b, sensitivity), fpr)


def laplace_mu_gdp(ctx: Any, b: Any, sensitivity: Any) -> Any:
    """``-2 Phi^{-1}(e^{-mu/2}/2)``: the least mu' with ``T_Lap >= G_{mu'}``, attained at the fixed
    point ``a = e^{-mu/2}/2`` (derived in the catalogue, DRS-LAPLACE-FDP)."""
    mu = _laplace_mu(ctx, b, sensitivity)
    return -2 * ninv(ctx, ctx.exp(-mu / 2) / 2)


# ------------------------------------------------------------------------------------------
# Duality by golden-section maximisation (routes independent of the tangent-line closed forms)

_GOLD = "0.6180339887498948482045868343656381177203091798057628621354486227"


def golden_max(ctx: Any, g: Callable[[Any], Any], lo: Any, hi: Any) -> Any:
    """``max g`` over ``[lo, hi]`` for unimodal g, by golden-section search: the bracket [a, b]
    keeps the maximiser while every comparison is decided; the location error after n steps is
    0.618^n (hi - lo), so ``0.75 * prec`` steps reach the working precision in value (g is flat
    at the maximum). In mpmath the value at the better inner point is returned; in arb the
    enclosure ``g([a, b])`` of g over the final bracket, which contains the supremum (an
    undecided comparison stops the search with the bracket still valid)."""
    r = ctx.num(_GOLD)

    def point(x: Any) -> Any:
        return ctx.midpoint(x, x)  # an exact point in arb: g is evaluated at points, not balls

    a, b = lo, hi
    c, d = point(b - r * (b - a)), point(a + r * (b - a))
    gc, gd = g(c), g(d)
    for _ in range(int(0.75 * ctx.prec) + 12):
        left_lower = ctx.lt(gc, gd)
        if left_lower is None and ctx.name == "arb":
            break
        if left_lower is True:
            a, c, gc = c, d, gd
            d = point(a + r * (b - a))
            gd = g(d)
        else:
            b, d, gd = d, c, gc
            c = point(b - r * (b - a))
            gc = g(c)
    if ctx.name == "arb":
        return g(ctx.hull(a, b))
    return ctx.max(gc, gd)


def delta_gauss_golden(ctx: Any, mu: Any, eps: Any) -> Any:
    """``sup_a [1 - G_mu(a) - e^eps a]`` over the curve points ``(a, G_mu(a)) = (Phi(-s),
    Phi(s - mu))``, s real: the Neyman-Pearson threshold tests, maximised by golden section
    ([DRS] arXiv 1905.02383, Prop. 2.12, number recalled)."""
    x = ctx.exp(eps)

    def g(s: Any) -> Any:
        return ctx.ncdf(mu - s) - x * ctx.ncdf(-s)  # 1 - Phi(s - mu), tail-accurate

    return ctx.max(ctx.zero, golden_max(ctx, g, ctx.num(-40), ctx.num(40)))


def f_gauss_dual(ctx: Any, mu: Any, fpr: Any) -> Any:
    """``sup_{eps in [0, 20]} f_{eps, delta_mu(eps)}(fpr)`` with ``delta_mu`` the GDP profile
    (DRS-GDP.delta): the dual-to-primal conversion ([DRS] Prop. 2.12 and the proposition
    following it, numbers recalled; autodp ``converter.approxdp_func_to_fdp``)."""
    from dpverify.theorems.formulas.gdp import gdp_delta

    check_fpr(ctx, fpr)
    return golden_max(ctx, lambda e: f_approx(ctx, e, gdp_delta(ctx, mu, e), fpr),
                      ctx.zero, ctx.num(20))


def delta_laplace_golden(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """``sup_a [1 - T_Lap(a) - e^eps a]`` by golden section over a in [0, 1] (DRS-DUALITY)."""
    mu = _laplace_mu(ctx, b, sensitivity)
    x = ctx.exp(eps)
    return ctx.max(ctx.zero, golden_max(
        ctx, lambda a: 1 - laplace_tradeoff_mu(ctx, mu, a) - x * a, ctx.zero, ctx.one))


# ------------------------------------------------------------------------------------------
# Subsampling of an RR base ([DRS] Thm 4.2, number recalled; explicit form derived)


def _check_q(ctx: Any, q: Any) -> None:
    if ctx.le(q, ctx.zero) is True or ctx.lt(ctx.one, q) is True:
        raise InvalidParameter(f"q must be in (0, 1]; got {q}")


def subsample_rr_vertices(ctx: Any, eps0: Any, q: Any) -> tuple[tuple[Any, Any], ...]:
    """Vertices of ``C_q(f_{eps0,0})``: (0, 1), (x1, y1), (y1, x1), (1, 0) with
    ``x1 = 1/(1 + e^eps0)``, ``y1 = q x1 + (1 - q)(1 - x1)``."""
    _check_q(ctx, q)
    x1 = 1 / (1 + ctx.exp(eps0))
    y1 = q * x1 + (1 - q) * (1 - x1)
    return ((ctx.zero, ctx.one), (x1, y1), (y1, x1), (ctx.one, ctx.zero))


def interpolate(ctx: Any, vertices: Any, fpr: Any) -> Any:
    """The piecewise-linear curve through ``vertices`` (increasing first coordinate) at fpr.

    Where ``fpr <= a1`` is undecided (an arb ball over a vertex, a sympy symbol) the segment
    and the rest of the curve are combined by ``ctx.piecewise_lt``: their hull in arb (each
    encloses the curve on its side of the vertex), a ``Piecewise`` in the sym context."""
    check_fpr(ctx, fpr)

    def from_segment(i: int) -> Any:
        if i == len(vertices) - 1:
            return vertices[-1][1]
        (a0, b0), (a1, b1) = vertices[i], vertices[i + 1]

        def segment() -> Any:
            vertical = ctx.le(a1, a0)
            if vertical is True:
                return b1
            if vertical is None and ctx.name == "arb":
                return ctx.hull(b0, b1)  # a segment of undecided width: values between its ends
            return b0 + (b1 - b0) * (fpr - a0) / (a1 - a0)

        return ctx.piecewise_lt(a1, fpr, lambda: from_segment(i + 1), segment)

    return from_segment(0)


def subsample_rr_f(ctx: Any, eps0: Any, q: Any, fpr: Any) -> Any:
    """``C_q(f_{eps0,0})(fpr)`` ([DRS] arXiv 1905.02383, Thm 4.2, number recalled)."""
    return interpolate(ctx, subsample_rr_vertices(ctx, eps0, q), fpr)


def subsample_rr_delta(ctx: Any, eps0: Any, q: Any, eps: Any) -> Any:
    """``1 + C_q(f_{eps0,0})*(-e^eps) = max over the vertices of 1 - y - e^eps x`` (a convex
    piecewise-linear curve's conjugate is attained at a vertex)."""
    x = ctx.exp(eps)
    return ctx.max(*(1 - b - x * a for a, b in subsample_rr_vertices(ctx, eps0, q)))


def subsample_rr_bbg(ctx: Any, eps0: Any, q: Any, fpr: Any) -> Any:
    """``f_{eps', 0}(fpr)`` with ``eps' = log(1 + q(e^eps0 - 1))`` (BBG-T9 amplification)."""
    eps1 = ctx.log1p(q * ctx.expm1(eps0))
    return f_approx(ctx, eps1, ctx.zero, fpr)


# ------------------------------------------------------------------------------------------
# Subsampling of a general base ([DRS] Thm 4.2, number recalled): C_q(f) = min{f_q, f_q^{-1}}**


def _cross(ctx: Any, o: Any, a: Any, b: Any) -> Any:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def lower_hull(ctx: Any, points: Any) -> list[tuple[Any, Any]]:
    """Vertices of the lower convex hull of ``points`` (monotone chain, by increasing first
    coordinate). A turn whose sign the context cannot decide (balls of collinear points) is
    decided on the midpoints: dropping or keeping a point that lies within the balls' width of
    the hull changes the curve by no more than that width."""
    def mid(x: Any) -> float:
        return float(ctx.midpoint(x, x))

    pts = sorted(points, key=lambda v: (mid(v[0]), mid(v[1])))
    hull: list[tuple[Any, Any]] = []
    for v in pts:
        while len(hull) >= 2:
            turn = _cross(ctx, hull[-2], hull[-1], v)
            keep = ctx.lt(ctx.zero, turn)
            if keep is None:
                keep = mid(turn) > 0
            if keep:
                break
            hull.pop()
        hull.append(v)
    return hull


def _check_delta(ctx: Any, delta: Any, name: str = "delta0") -> None:
    if ctx.lt(delta, ctx.zero) is True or ctx.lt(ctx.one, delta) is True:
        raise InvalidParameter(f"{name} must be in [0, 1]; got {delta}")


def subsample_approx_points(ctx: Any, eps0: Any, delta0: Any, q: Any) -> list[tuple[Any, Any]]:
    """The points whose lower convex hull is ``C_q(f_{eps0,delta0})`` ([DRS] arXiv 1905.02383,
    Thm 4.2, number recalled): the vertices of ``f_q = q f + (1 - q) Id`` followed by their
    mirror images (the vertices of ``f_q^{-1}``), in the same order; the epigraph of
    ``min{f_q, f_q^{-1}}`` is the union of the two epigraphs, so its convex envelope is the hull
    of both vertex sets. f's vertices: (0, 1 - delta0), its kink ``(x*, x*)`` with ``x* = (1 -
    delta0)/(1 + e^eps0)``, (1 - delta0, 0), (1, 0)."""
    _check_q(ctx, q)
    _check_delta(ctx, delta0)
    if ctx.lt(eps0, ctx.zero) is True:
        raise InvalidParameter(f"eps0 must be >= 0; got {eps0}")
    kink = (1 - delta0) / (1 + ctx.exp(eps0))
    f_vertices = ((ctx.zero, 1 - delta0), (kink, kink), (1 - delta0, ctx.zero),
                  (ctx.one, ctx.zero))
    fq = [(a, q * b + (1 - q) * (1 - a)) for a, b in f_vertices]
    return fq + [(b, a) for a, b in fq]


def subsample_approx_vertices(ctx: Any, eps0: Any, delta0: Any, q: Any) -> list[tuple[Any, Any]]:
    """Vertices of ``C_q(f_{eps0,delta0})``: the lower convex hull of
    :func:`subsample_approx_points`."""
    return lower_hull(ctx, subsample_approx_points(ctx, eps0, delta0, q))


def subsample_approx_f(ctx: Any, eps0: Any, delta0: Any, q: Any, fpr: Any) -> Any:
    """``C_q(f_{eps0,delta0})(fpr)`` with ``C_q(f) = min{f_q, f_q^{-1}}**``, ``f_q = q f + (1 - q)
    Id``: (eps0, delta0)-DP on datasets of size m, subsampled without replacement to rate q =
    m/n, replace-one ([DRS] J. Dong, A. Roth, W. J. Su, arXiv 1905.02383, Thm 4.2, number
    recalled)."""
    return interpolate(ctx, subsample_approx_vertices(ctx, eps0, delta0, q), fpr)


def subsample_gauss_fq(ctx: Any, mu: Any, q: Any, fpr: Any) -> Any:
    """``f_q(t) = q G_mu(t) + (1 - q)(1 - t)`` ([DRS] arXiv 1905.02383, Thm 4.2, number
    recalled: the mixture whose symmetrized hull is C_q)."""
    return q * f_gauss(ctx, mu, fpr) + (1 - q) * (1 - fpr)


def subsample_gauss_f(ctx: Any, q: Any, sigma: Any, fpr: Any) -> Any:
    """``C_q(G_{1/sigma})(fpr)`` by the explicit form for a symmetric base ([DRS] J. Dong, A. Roth,
    W. J. Su, arXiv 1905.02383, Thm 4.2 and the explicit form after it, recalled
    [UNCERTAIN]): with ``x* = Phi(-mu/2)`` (where ``f_q`` has slope -1, for every q) and ``y* =
    f_q(x*)``: ``f_q`` on [0, x*], the line ``x* + y* - fpr`` on [x*, y*], ``f_q^{-1}`` on
    [y*, 1]. ``f_q^{-1}(y)`` is ``Phi(z)`` for the z where ``q Phi(-z - mu) + (1 - q) Phi(-z) =
    y`` (bisection in z, Phi increasing)."""
    _check_q(ctx, q)
    check_fpr(ctx, fpr)
    if ctx.le(sigma, ctx.zero) is True:
        raise InvalidParameter(f"sigma must be > 0; got {sigma}")
    mu = 1 / sigma
    x_star = ctx.ncdf(-mu / 2)
    y_star = subsample_gauss_fq(ctx, mu, q, x_star)

    def inverse() -> Any:
        if ctx.le(ctx.one, fpr) is True:
            return ctx.zero
        z = ctx.solve(lambda z: q * ctx.ncdf(-z - mu) + (1 - q) * ctx.ncdf(-z), fpr,
                      lo=_NINV_LO, hi=_NINV_HI - _NINV_LO, decreasing=True)
        return ctx.ncdf(z)

    def middle() -> Any:
        return ctx.piecewise_lt(y_star, fpr, inverse, lambda: x_star + y_star - fpr)

    return ctx.piecewise_lt(x_star, fpr, middle, lambda: subsample_gauss_fq(ctx, mu, q, fpr))
