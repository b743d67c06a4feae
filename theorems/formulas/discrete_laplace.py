"""The discrete Laplace (two-sided geometric) mechanism ``DLap(b)``, ``P[Y = y] = tanh(a/2)
e^{-a|y|}`` with ``a = 1/b``: exact privacy profile at integer sensitivity, its inverse, the
variance, and the independent routes (enumeration with a rigorous tail, the two-point PLD).

References: catalogue DLAP (derived). The pmf and privacy loss as read in dp_accounting
``DiscreteLaplacePrivacyLoss`` (snapshot b5b0286e; pmf ``Z e^{-a|x|}``, ``Z = (e^a - 1)/(e^a +
1)``, loss ``a(|x - s| - |x|)``) and in the [CKS20] authors' ``discretegauss.sample_dlaplace``
(IBM/discrete-gaussian-differential-privacy, commit cb190d2); the variance as in their
``plots.dl_var``.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.formulas.lattice_sums import (
    laplace_cutoff,
    with_tail,
)


def dlap_pmf(ctx: Any, a: Any, x: int) -> Any:
    """``P[Y = x] = tanh(a/2) e^{-a|x|}`` (catalogue DLAP; dp_accounting, CKS20 code)."""
    return ctx.tanh(a / 2) * ctx.exp(-a * abs(x))


def dlap_delta(ctx: Any, b: Any, eps: Any, sensitivity: int) -> Any:
    """Exact profile of ``f + DLap(b)`` at integer sensitivity ``s`` (catalogue DLAP, derived):
    ``(1/(1 + e^{-a})) (1 - e^{eps - a s})_+ + tanh(a/2) sum_{x=1}^{s-1} (e^{-a x} - e^{eps -
    a(s - x)})_+``. Derivation: ``sum_x (P(x) - e^eps P(x - s))_+``; on ``x <= 0`` every term
    is ``Z e^{a x}(1 - e^{eps - a s})_+`` (geometric sum ``Z/(1 - e^{-a}) = 1/(1 + e^{-a})``),
    on ``x >= s`` no term is positive for ``eps >= 0``."""
    a = 1 / b
    s = sensitivity
    head = ctx.pos(-ctx.expm1(eps - a * s)) / (1 + ctx.exp(-a))
    if s == 1:
        return head
    middle = ctx.fsum(ctx.pos(ctx.exp(-a * x) - ctx.exp(eps - a * (s - x))) for x in range(1, s))
    return head + ctx.tanh(a / 2) * middle


def dlap_eps(ctx: Any, b: Any, delta: Any, sensitivity: int) -> Any:
    """Least ``eps >= 0`` with ``dlap_delta(b, eps, s) <= delta`` (catalogue DLAP). For ``s =
    1``: ``max(0, log(e^a - delta (e^a + 1)))`` (the inverse of ``(e^a - e^eps)/(e^a + 1)``).
    For ``s >= 2`` (derived): the term ``x`` of :func:`dlap_delta` is positive iff ``eps < a(s
    - 2x)``, so on ``I_k = [max(0, a(s - 2k - 2)), a(s - 2k))`` the profile is ``C_k - e^eps
    D_k`` with ``C_k = 1/(1 + e^{-a}) + tanh(a/2) sum_{x<=k} e^{-a x}``, ``D_k = e^{-a s}/(1 +
    e^{-a}) + tanh(a/2) sum_{x<=k} e^{-a(s-x)}``; the piece holding ``delta`` is found by
    comparing with the profile at the left ends, and ``eps = log((C_k - delta)/D_k)``. The
    selection is a chain of ``piecewise_lt``: where a ball comparison is undecided the hull of
    both sides is returned (each is exact on its side; the profile is continuous), and in the
    sym context the chain is a nested ``Piecewise`` (the z3 round trip of claim DLAP 7)."""
    if sensitivity == 1:
        inner = dlap_eps_argument(ctx, b, delta)
        return ctx.piecewise_lt(inner, ctx.one, lambda: ctx.zero, lambda: ctx.log(inner))
    a = 1 / b
    s = sensitivity

    def from_piece(k: int) -> Any:
        c, d = dlap_piece(ctx, b, s, k)

        def inverse() -> Any:
            return ctx.log((c - delta) / d)

        if 2 * k + 2 >= s:  # the last piece reaches eps = 0
            return ctx.piecewise_lt(delta, c - d, inverse, lambda: ctx.zero)
        # delta below the profile at the left end of I_k: piece k; else a piece further left
        left = c - ctx.exp(a * (s - 2 * k - 2)) * d
        return ctx.piecewise_lt(delta, left, inverse, lambda: from_piece(k + 1))

    return from_piece(0)


def dlap_piece(ctx: Any, b: Any, sensitivity: int, k: int) -> tuple[Any, Any]:
    """``(C_k, D_k)`` with ``dlap_delta = C_k - e^eps D_k`` on the piece ``I_k = [max(0, a(s - 2k
    - 2)), a(s - 2k))`` (see :func:`dlap_eps`; derived)."""
    a = 1 / b
    s = sensitivity
    t = ctx.tanh(a / 2)
    head = 1 / (1 + ctx.exp(-a))
    c = head + t * ctx.fsum(ctx.exp(-a * x) for x in range(1, k + 1))
    d = ctx.exp(-a * s) * head + t * ctx.fsum(ctx.exp(-a * (s - x)) for x in range(1, k + 1))
    return c, d


def dlap_eps_argument(ctx: Any, b: Any, delta: Any) -> Any:
    """``e^a - delta (e^a + 1)``: ``e^eps`` at the s = 1 inverse (catalogue DLAP)."""
    ea = ctx.exp(1 / b)
    return ea - delta * (ea + 1)


def dlap_variance(ctx: Any, b: Any) -> Any:
    """``Var[DLap(b)] = 2 e^a/(e^a - 1)^2`` (catalogue DLAP; [CKS20] authors' ``plots.dl_var``)."""
    a = 1 / b
    return 2 * ctx.exp(a) / ctx.expm1(a) ** 2


# ------------------------------------------------------------------------------------------
# independent routes


def dlap_delta_enum(ctx: Any, b: Any, eps: Any, sensitivity: int) -> Any:
    """``sum_x (P(x) - e^eps P(x - s))_+`` by direct enumeration over ``|x| <= N``; the omitted
    terms are each at most ``P(x)``, so the remainder lies in ``[0, P(|Y| > N)]`` with
    ``P(|Y| > N) = 2 e^{-a N}/(e^a + 1)`` (added as a ball in arb)."""
    a = 1 / b
    n = laplace_cutoff(ctx, b) + sensitivity
    z = ctx.exp(eps)
    total = ctx.fsum(ctx.pos(dlap_pmf(ctx, a, x) - z * dlap_pmf(ctx, a, x - sensitivity))
                     for x in range(-n, n + 1))
    return with_tail(ctx, total, 2 * ctx.exp(-a * n) / (ctx.exp(a) + 1))


def dlap_variance_enum(ctx: Any, b: Any) -> Any:
    """``sum_x x^2 P(x)`` over ``|x| <= N`` plus the rigorous tail ``2 Z (N+1)^2 e^{-a(N+1)}/(1
    - r)``, ``r = (1 + 1/(N+1))^2 e^{-a}`` (:mod:`.lattice_sums`)."""
    a = 1 / b
    n = laplace_cutoff(ctx, b)
    total = 2 * ctx.fsum(ctx.num(x * x) * dlap_pmf(ctx, a, x) for x in range(1, n + 1))
    m = ctx.num(n + 1)
    ratio = ctx.pow(1 + 1 / m, 2) * ctx.exp(-a)
    tail = 2 * ctx.tanh(a / 2) * m * m * ctx.exp(-a * m) / (1 - ratio)
    return with_tail(ctx, total, tail)


def dlap_pld_pair(ctx: Any, b: Any) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """The two-point privacy-loss pair of ``DLap(b)`` at sensitivity 1, by grouping the
    enumerated pmf by its loss value ``a(|x - 1| - |x|)``: ``+a`` on ``x <= 0``, ``-a`` on ``x >=
    1``. Returns ``((P(L = a), P(L = -a)), (Q(L = a), Q(L = -a)))`` with ``Q = P(. - 1)``; the
    masses are enumerated sums with their rigorous tails."""
    a = 1 / b
    n = laplace_cutoff(ctx, b)
    tail = ctx.exp(-a * n) / (ctx.exp(a) + 1)  # P(Y < -n) = P(Y > n)
    left = with_tail(ctx, ctx.fsum(dlap_pmf(ctx, a, x) for x in range(-n, 1)), tail)
    right = with_tail(ctx, ctx.fsum(dlap_pmf(ctx, a, x) for x in range(1, n + 1)), tail)
    q_left = with_tail(ctx, ctx.fsum(dlap_pmf(ctx, a, x - 1) for x in range(-n, 1)), tail)
    q_right = with_tail(ctx, ctx.fsum(dlap_pmf(ctx, a, x - 1) for x in range(1, n + 1)),
                        tail * ctx.exp(a))  # Q(x > n) = P(Y >= n)
    return (left, right), (q_left, q_right)
