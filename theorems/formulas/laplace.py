"""The Laplace mechanism: exact privacy profile and its inverse, the PLD (atoms and continuous
part), the hockey-stick divergence by three quadratures and the two-term form, and the RDP curve.

References: catalogue STK-LAPLACE (derived; consistent with [S22] arXiv 2210.00597v4, Sec. 3);
[Mir17] arXiv 1702.07476v3, Prop. 6 / Table II and Def. 3.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import Unsupported
from dpverify.theorems.numerics.quadrature import (
    LOG2,
    absolute_accuracy,
    acb_window_integral,
    exp_cutoff,
)


def laplace_delta(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """Exact privacy profile of ``Lap(0, b)`` vs ``Lap(Delta, b)``, ``eps0 = Delta/b``
    (catalogue STK-LAPLACE, derived; consistent with [S22] arXiv 2210.00597v4, Sec. 3):

    ``1 - e^eps`` for ``eps < -eps0``; ``1 - e^{(eps - eps0)/2}`` for ``-eps0 <= eps < eps0``;
    ``0`` for ``eps >= eps0``. Derivation: the privacy loss is ``eps0`` on ``y <= 0``,
    ``(Delta - 2y)/b`` on ``(0, Delta)`` and ``-eps0`` on ``y >= Delta``, so ``p > e^eps q``
    on ``y < (Delta - eps b)/2``, and integrating the two densities there gives the middle
    branch. The profile is continuous and the same in both orders (reflection ``y -> Delta -
    y``).
    """
    eps0 = sensitivity / b
    return ctx.piecewise_lt(
        eps, eps0,
        lambda: ctx.piecewise_lt(eps, -eps0, lambda: -ctx.expm1(eps),
                                 lambda: -ctx.expm1((eps - eps0) / 2)),
        lambda: ctx.zero,
    )


def laplace_eps(ctx: Any, b: Any, delta: Any, sensitivity: Any) -> Any:
    """Least eps >= 0 with ``laplace_delta(b, eps) <= delta``: ``max(0, eps0 + 2 ln(1 -
    delta))`` (catalogue STK-LAPLACE, derived: the inverse of the middle branch, clipped at 0
    where ``delta >= 1 - e^{-eps0/2} = laplace_delta(b, 0)``)."""
    eps0 = sensitivity / b
    return ctx.max(ctx.zero, eps0 + 2 * ctx.log1p(-delta))


def _laplace_densities(ctx: Any, b: Any, sensitivity: Any) -> tuple[Any, Any]:
    def p(y: Any) -> Any:
        return ctx.exp(-ctx.abs(y) / b) / (2 * b)

    def q(y: Any) -> Any:
        return ctx.exp(-ctx.abs(y - sensitivity) / b) / (2 * b)

    return p, q


def _laplace_breakpoints(ctx: Any, b: Any, sensitivity: Any, extra: list[Any]) -> list[Any]:
    """Kinks ``0, Delta`` and the given points inside ``(0, Delta)``, within the window
    ``[-T b, Delta + T b]``."""
    t = exp_cutoff(ctx) * b
    inner = sorted({x for x in extra if 0 < x < sensitivity})
    return [-t, ctx.zero, *inner, sensitivity, sensitivity + t]


def laplace_delta_output_quad(ctx: Any, b: Any, eps: Any, sensitivity: Any,
                              reverse: bool = False) -> Any:
    """``∫ (p - e^eps q)_+`` (``reverse``: ``∫ (q - e^eps p)_+``) for ``p = Lap(0, b)``, ``q =
    Lap(Delta, b)``, by quadrature (the hockey-stick divergence; catalogue DEF-DP). The kinks of
    the positive part, ``(Delta -/+ eps b)/2``, are breakpoints when inside ``(0, Delta)``."""
    p, q = _laplace_densities(ctx, b, sensitivity)
    if reverse:
        p, q = q, p
    ee = ctx.exp(eps)
    kinks = [(sensitivity - eps * b) / 2, (sensitivity + eps * b) / 2]
    if ctx.name == "arb":
        return _arb_pieces(ctx, b, sensitivity, kinks, reverse,
                           lambda lp, lq: lambda y: (ctx.exp(lp(y)) - ee * ctx.exp(lq(y)))
                           / (2 * b), positive_part=True)
    small = _laplace_small_bits(b, sensitivity)
    return ctx.quad(lambda y: absolute_accuracy(ctx, small(y),
                                                 lambda: ctx.pos(p(y) - ee * q(y))),
                    _laplace_breakpoints(ctx, b, sensitivity, kinks))


def _arb_breakpoints(ctx: Any, b: Any, sensitivity: Any, kinks: list[Any]) -> list[Any]:
    """:func:`_laplace_breakpoints` with balls: a kink is kept when certainly inside ``(0,
    Delta)``, dropped when certainly outside, and two kinks must be certainly ordered or the
    same exact point; anything else is left to mpmath (Unsupported): a piece must never hide a
    sign change."""
    inner: list[Any] = []
    for x in kinks:
        if ctx.le(x, ctx.zero) is True or ctx.le(sensitivity, x) is True:
            continue
        if ctx.lt(ctx.zero, x) is not True or ctx.lt(x, sensitivity) is not True:
            raise Unsupported("a Laplace kink is not separated from 0 or Delta at this precision")
        if any(y.is_exact() and x.is_exact() and y == x for y in inner):
            continue
        if any(ctx.lt(x, y) is not True and ctx.lt(y, x) is not True for y in inner):
            raise Unsupported("two Laplace kinks are not separated at this precision")
        inner.append(x)
    inner.sort(key=lambda x: float(x.mid()))
    t = exp_cutoff(ctx) * b
    return [-t, ctx.zero, *inner, sensitivity, sensitivity + t]


def _arb_pieces(ctx: Any, b: Any, sensitivity: Any, kinks: list[Any], reverse: bool,
                piece: Any, positive_part: bool = False, tail: Any = None) -> Any:
    """The arb branch of the Laplace quadratures: rigorous ``acb.integral`` on each piece
    between the breakpoints of :func:`_laplace_breakpoints` (``[-T b, 0, kinks, Delta, Delta +
    T b]``), where ``|y|`` and ``|y - Delta|`` have fixed signs, so ``piece(lp, lq)`` built from
    the log-densities ``lp = -|y|/b``, ``lq = -|y - Delta|/b`` of that piece (linear) is
    entire. ``positive_part``: the integrand is ``(piece)_+``,
    whose sign is constant on each piece (it changes only at the kinks); a piece whose sign the
    balls do not decide is left to mpmath (Unsupported). Beyond the window the integrand is
    at most ``p`` (or ``q``) and ``tail`` (default ``e^{-T}``, both sides: ``[0, tail]``)
    bounds it."""
    pts = _arb_breakpoints(ctx, b, sensitivity, kinks)
    total = ctx.zero
    for u, v in itertools.pairwise(pts):
        mid = (u + v) / 2
        sp = 1 if ctx.lt(ctx.zero, mid) is True else -1  # |y| = sp y on this piece
        sq = 1 if ctx.lt(sensitivity, mid) is True else -1

        def lp(y: Any, sp: int = sp) -> Any:
            return -(sp * y) / b

        def lq(y: Any, sq: int = sq) -> Any:
            return -(sq * (y - sensitivity)) / b

        f = piece(lq, lp) if reverse else piece(lp, lq)
        if positive_part:
            at_mid = f(mid)
            if ctx.lt(at_mid, ctx.zero) is True:
                continue
            if ctx.lt(ctx.zero, at_mid) is not True:
                raise Unsupported("the sign of the Laplace integrand is undecided on a piece")
        total = total + acb_window_integral(f, u, v, ctx.zero)
    if tail is None:
        tail = ctx.exp(-exp_cutoff(ctx))  # each side: at most e^{-T}/2
    return total + ctx.hull(ctx.zero, tail)


def _laplace_small_bits(b: Any, sensitivity: Any) -> Any:
    """``y -> log2`` of the decay ``e^{-d/b}`` at distance ``d`` outside ``[0, Delta]``: both
    Laplace densities (and ``p^alpha q^{1-alpha}``) fall by this factor from their value at the
    nearer kink."""
    fb, fd = float(b), float(sensitivity)

    def small(y: Any) -> float:
        fy = float(y)
        dist = -fy if fy < 0 else (fy - fd if fy > fd else 0.0)
        return dist / fb / LOG2

    return small


def laplace_delta_pld_quad(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """``E[max(0, 1 - e^{eps - Z})]`` for the Laplace PLD ([S22] arXiv 2210.00597v4, Sec. 3.3):
    atoms ``+eps0`` (mass 1/2, outputs ``y <= 0``) and ``-eps0`` (mass ``e^{-eps0}/2``, ``y >=
    Delta``), plus the continuous part ``Z = (Delta - 2y)/b`` for ``y ~ p`` on ``(0, Delta)``,
    integrated over y."""
    eps0 = sensitivity / b

    def gain(z: Any) -> Any:
        return ctx.pos(-ctx.expm1(eps - z))

    atoms = gain(eps0) / 2 + gain(-eps0) * ctx.exp(-eps0) / 2
    y0 = (sensitivity - eps * b) / 2
    if ctx.name == "arb":  # rigorous: the gain's sign is fixed on each side of y0
        pts = [ctx.zero, *_arb_breakpoints(ctx, b, sensitivity, [y0])[2:-2], sensitivity]
        cont = ctx.zero
        for u, v in itertools.pairwise(pts):
            mid = (u + v) / 2
            if ctx.lt((sensitivity - 2 * mid) / b, eps) is True:
                continue  # no gain on this piece
            if ctx.lt(eps, (sensitivity - 2 * mid) / b) is not True:
                raise Unsupported("the sign of the Laplace PLD gain is undecided on a piece")
            cont = cont + acb_window_integral(
                lambda y: -ctx.expm1(eps - (sensitivity - 2 * y) / b) * ctx.exp(-y / b) / (2 * b),
                u, v, ctx.zero)
        return atoms + cont
    pts = [ctx.zero, *([y0] if 0 < y0 < sensitivity else []), sensitivity]
    cont = ctx.quad(lambda y: gain((sensitivity - 2 * y) / b) * ctx.exp(-y / b) / (2 * b), pts)
    return atoms + cont


def laplace_loss_survival(ctx: Any, b: Any, sensitivity: Any, z: Any) -> Any:
    """``P[Z > z]`` for ``Z ~ PrivLoss(Lap(0, b)||Lap(Delta, b))``: the loss is nonincreasing in
    the output y, so ``{Z > z} = {Y < (Delta - z b)/2}`` for ``|z| < eps0``, and the Laplace CDF
    ``1 - e^{-y/b}/2`` (``y >= 0``) gives ``1 - e^{-(eps0 - z)/2}/2``; 0 for ``z >= eps0``, 1 for
    ``z < -eps0``."""
    eps0 = sensitivity / b
    return ctx.piecewise_lt(
        z, eps0,
        lambda: ctx.piecewise_lt(z, -eps0, lambda: ctx.one,
                                 lambda: 1 - ctx.exp(-(eps0 - z) / 2) / 2),
        lambda: ctx.zero,
    )


def laplace_reverse_loss_cdf(ctx: Any, b: Any, sensitivity: Any, z: Any) -> Any:
    """``P[Z' < z]`` for ``Z' ~ PrivLoss(Lap(Delta, b)||Lap(0, b))``: ``Z' < z`` iff the forward
    loss at ``Y' ~ Lap(Delta, b)`` exceeds ``-z``, i.e. ``Y' < (Delta + z b)/2``; the CDF of
    ``Lap(Delta, b)`` below Delta is ``e^{(y - Delta)/b}/2``, giving ``e^{-(eps0 - z)/2}/2`` for
    ``|z| <= eps0``; 1 for ``z > eps0``, 0 for ``z <= -eps0``."""
    eps0 = sensitivity / b
    return ctx.piecewise_lt(
        -eps0, z,
        lambda: ctx.piecewise_lt(eps0, z, lambda: ctx.one,
                                 lambda: ctx.exp(-(eps0 - z) / 2) / 2),
        lambda: ctx.zero,
    )


def laplace_delta_two_term(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """``P[Z > eps] - e^eps P[Z' < -eps]`` for the Laplace pair ([S22] arXiv 2210.00597v4,
    Sec. 3.3, second form), from the two Laplace CDFs."""
    return (laplace_loss_survival(ctx, b, sensitivity, eps)
            - ctx.exp(eps) * laplace_reverse_loss_cdf(ctx, b, sensitivity, -eps))


def laplace_delta_tail_quad(ctx: Any, b: Any, eps: Any, sensitivity: Any) -> Any:
    """``∫_eps^∞ e^{eps - z} P[Z > z] dz`` for the Laplace PLD ([S22] arXiv 2210.00597v4,
    Sec. 3.3, third form); ``P[Z > z] = 0`` above ``eps0``, so the range is finite."""
    eps0 = sensitivity / b
    if not eps < eps0:
        return ctx.zero
    pts = [eps, -eps0, eps0] if eps < -eps0 else [eps, eps0]
    return ctx.quad(lambda z: ctx.exp(eps - z) * laplace_loss_survival(ctx, b, sensitivity, z),
                    pts)


def laplace_rdp_tau(ctx: Any, b: Any, alpha: Any, sensitivity: Any) -> Any:
    """RDP curve of the Laplace mechanism ([Mir17] arXiv 1702.07476v3, Prop. 6 / Table II),
    ``eps0 = sensitivity/b``:
    ``(1/(alpha-1)) log(alpha/(2alpha-1) e^{(alpha-1) eps0} + (alpha-1)/(2alpha-1)
    e^{-alpha eps0})``."""
    eps0 = sensitivity / b
    inner = (alpha / (2 * alpha - 1) * ctx.exp((alpha - 1) * eps0)
             + (alpha - 1) / (2 * alpha - 1) * ctx.exp(-alpha * eps0))
    return ctx.log(inner) / (alpha - 1)


def laplace_renyi_quad(ctx: Any, b: Any, alpha: Any, sensitivity: Any) -> Any:
    """``D_alpha(Lap(0, b)||Lap(Delta, b))`` by quadrature of ``p^alpha q^{1-alpha}`` in log
    space ([Mir17] arXiv 1702.07476v3, Def. 3), with breakpoints at the kinks 0 and Delta."""
    def integrand(y: Any) -> Any:
        lp = -ctx.abs(y) / b
        lq = -ctx.abs(y - sensitivity) / b
        return ctx.exp(alpha * lp + (1 - alpha) * lq) / (2 * b)

    if ctx.name == "arb":  # the tails beyond -T b and Delta + T b in closed form (exponentials)
        t = exp_cutoff(ctx) * b
        tails = (ctx.exp((-t + (alpha - 1) * sensitivity) / b)
                 + ctx.exp((-t - alpha * sensitivity) / b)) / 2
        total = _arb_pieces(ctx, b, sensitivity, [], False,
                            lambda lp, lq: lambda y: ctx.exp(alpha * lp(y) + (1 - alpha) * lq(y))
                            / (2 * b), tail=tails)
        return ctx.log(total) / (alpha - 1)
    small = _laplace_small_bits(b, sensitivity)
    total = ctx.quad(lambda y: absolute_accuracy(ctx, small(y), lambda: integrand(y)),
                     _laplace_breakpoints(ctx, b, sensitivity, []))
    return ctx.log(total) / (alpha - 1)


def laplace_moment(ctx: Any, b: Any, j: int) -> Any:
    """``e^{(j-1) tau_j}`` of Laplace with scale b, sensitivity 1: ``j/(2j-1) e^{(j-1)/b} +
    (j-1)/(2j-1) e^{-j/b}`` ([Mir17] arXiv 1702.07476v3, Prop. 6)."""
    return (ctx.num(Fraction(j, 2 * j - 1)) * ctx.exp((j - 1) / b)
            + ctx.num(Fraction(j - 1, 2 * j - 1)) * ctx.exp(-j / b))
