"""Parallel composition: its guarantee, the finite mechanisms that witness it, and the
multi-database example in which composing the worst m mechanisms (GCE) beats it.

Main results
------------
- :func:`par_eps`: ``max_i eps_i`` (add/remove) or ``2 max_i eps_i`` (replace-one).
- :func:`clamped_geometric`: the law of a count released with clamped two-sided geometric
  (discrete Laplace) noise, so that joint output spaces stay finite.
- :func:`joint_pure_eps`: the exact pure eps of a product release over given neighbouring pairs,
  by enumeration of all joint outputs.
- :func:`gce_homogeneous_rr_delta`, :func:`gce_homogeneous_rr_eps`: the exact profile of the
  k-fold composition of eps0-DP and its closed-form inverse.
- :func:`gce_multi_database_eps`, :func:`par_multi_database_eps`: the two guarantees of the
  multi-database example.

References
----------
- [McS] F. McSherry, *Privacy Integrated Queries*, SIGMOD 2009 (no arXiv), parallel composition.
- [GCE] V. Hartmann, V. Bindschaedler, R. West, arXiv 2209.13697 (version not recorded), Def. 5,
  Thm 2, Sec. V-A1.
- [KOV] P. Kairouz, S. Oh, P. Viswanath, arXiv 1311.0776v4, Thm 3.3; [MV] J. Murtagh,
  S. Vadhan, arXiv 1507.03113, Thm 1.4 (exact k-fold RR profile).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from dpverify.theorems.ctx import PrecisionExhausted


def par_eps(ctx: Any, eps_list: Sequence[Any], neighboring: str) -> Any:
    """Parallel composition ([McS] SIGMOD 2009, no arXiv; [GCE] arXiv 2209.13697 Def. 5, Thm 2
    with heterogeneous eps_i): ``max_i eps_i`` under add/remove; ``2 max_i eps_i`` under
    replace-one (a changed record can move between chunks; catalogue [DERIVED] form)."""
    top = ctx.max(*eps_list)
    return top if neighboring == "add_remove" else 2 * top


def clamped_geometric(ctx: Any, eps: Any, s: int, lo: int, hi: int) -> tuple[Any, ...]:
    """Output law on ``{lo..hi}`` of ``clamp(s + Z)``, Z two-sided geometric with
    ``P[Z = z] ∝ e^{-eps |z|}`` (discrete Laplace, sensitivity 1): ``c a^{|o - s|}`` inside,
    ``a^{s - lo}/(1 + a)`` and ``a^{hi - s}/(1 + a)`` at the ends, ``a = e^-eps``,
    ``c = (1 - a)/(1 + a)``; requires ``lo <= s <= hi``. A one-point range is a point mass."""
    if lo == hi:
        return (ctx.one,)
    a = ctx.exp(-eps)
    c = (1 - a) / (1 + a)
    out = []
    for o in range(lo, hi + 1):
        if o == lo:
            out.append(ctx.pow(a, s - lo) / (1 + a))
        elif o == hi:
            out.append(ctx.pow(a, hi - s) / (1 + a))
        else:
            out.append(c * ctx.pow(a, abs(o - s)))
    return tuple(out)


def joint_pure_eps(ctx: Any, eps_list: Sequence[Any], ranges: Sequence[tuple[int, int]],
                   pairs: set[tuple[tuple[int, ...], tuple[int, ...]]]) -> Any:
    """Exact pure eps of the joint release ``(M_1(S_1), ..., M_k(S_k))`` over the given pairs of
    chunk-sum vectors: ``ln max |P(o)/Q(o)|`` over all joint outputs, by enumeration. Chunk i
    releases its sum by :func:`clamped_geometric` with ``eps_list[i]`` on ``ranges[i]``."""
    cache: dict[tuple[int, int], tuple[Any, ...]] = {}

    def law(i: int, s: int) -> tuple[Any, ...]:
        if (i, s) not in cache:
            cache[(i, s)] = clamped_geometric(ctx, eps_list[i], s, *ranges[i])
        return cache[(i, s)]

    extremes = []
    for s1, s2 in sorted(pairs):
        # P(o)/Q(o) of the product laws is the product of the per-chunk ratios
        per_chunk = [[a / b for a, b in zip(law(i, u), law(i, v), strict=True)]
                     for i, (u, v) in enumerate(zip(s1, s2, strict=True))]
        joint = [_product(ctx, rs) for rs in itertools.product(*per_chunk)]
        extremes += [ctx.max(*joint), 1 / ctx.min(*joint)]
    return ctx.log(ctx.max(ctx.one, *extremes))


def _product(ctx: Any, xs: Sequence[Any]) -> Any:
    out = xs[0]
    for x in xs[1:]:
        out = out * x
    return out


def gce_homogeneous_rr_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """Exact profile of the k-fold composition of eps0-DP (k-fold RR(eps0)): ``sum_i C(k,i)
    (e^{(k-i) eps0} - e^{eps + i eps0})_+ / (1 + e^eps0)^k`` ([KOV] arXiv 1311.0776 Thm 3.3;
    [MV] arXiv 1507.03113 Thm 1.4, pure case)."""
    terms = (ctx.binomial(k, i) * ctx.pos(ctx.exp((k - i) * eps0) - ctx.exp(eps + i * eps0))
             for i in range(k + 1))
    return ctx.fsum(terms) / ctx.pow(1 + ctx.exp(eps0), k)


def gce_homogeneous_rr_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """Least eps >= 0 with ``gce_homogeneous_rr_delta(eps0, k, eps) <= delta``, in closed form.

    With ``p = e^eps0/(1 + e^eps0)``, ``q = 1 - p``, ``A_i = C(k,i) p^{k-i} q^i`` and
    ``B_i = C(k,i) p^i q^{k-i}``, the profile is ``sum_i (A_i - e^eps B_i)_+``. The terms change
    sign once (positive for small i), so it is the maximum over prefixes j of ``PA_j - e^eps
    PB_j`` (prefix sums). Hence ``delta(eps) <= delta`` iff ``e^eps >= (PA_j - delta)/PB_j``
    for every j, and the least such eps is ``max(0, max_j ln((PA_j - delta)/PB_j))`` over the j
    with ``PA_j > delta`` ([KOV] arXiv 1311.0776 Thm 3.3, inverted; [DERIVED]).
    """
    z0 = ctx.exp(eps0)
    p, q = z0 / (1 + z0), 1 / (1 + z0)
    pa, pb = ctx.zero, ctx.zero
    best = ctx.zero
    for i in range(k + 1):
        c = ctx.binomial(k, i)
        pa = pa + c * ctx.pow(p, k - i) * ctx.pow(q, i)
        pb = pb + c * ctx.pow(p, i) * ctx.pow(q, k - i)
        above = ctx.lt(delta, pa)
        if above is None:
            raise PrecisionExhausted("cannot decide PA_j > delta")
        if above:
            best = ctx.max(best, ctx.log((pa - delta) / pb))
    return best


def gce_multi_database_eps(ctx: Any, eps0: Any, m: int, delta: Any, neighboring: str,
                           **_: Any) -> Any:
    """GCE guarantee when each individual is in at most m of the databases ([GCE] arXiv
    2209.13697 Sec. V-A1, catalogue GCE-PARCMP): the optimal composition of the worst
    ``s = m`` (add/remove) or ``2m`` (replace-one) eps0-DP mechanisms, inverted at delta."""
    s = m if neighboring == "add_remove" else 2 * m
    return gce_homogeneous_rr_eps(ctx, eps0, s, delta)


def par_multi_database_eps(ctx: Any, eps0: Any, m: int, neighboring: str, **_: Any) -> Any:
    """Parallel composition in the multi-database example ([GCE] Sec. V-A1): merged databases
    differ in up to m (add/remove) or 2m (replace-one) records, so Def. 5 gives ``s eps0``."""
    s = m if neighboring == "add_remove" else 2 * m
    return s * eps0
