"""Hypothesis DP bounds ([GCE]): Comp = MV-OPT on index sets and the worst allowed pair of
databases (GCE-D4, GCE-V1..V3), parallel composition (GCE-PARCMP), the uniform prior in closed
form (GCE-E34, GCE-C7), simple composition inside Thm 3 (GCE-C6) and Thm 3 with MV-OPT
(GCE-T3).

Statements not recovered from the paper (catalogue open questions 7-9) are implemented as the
catalogue derives them (the display of Thm 3 and its reverse direction, the Cor. 6/7 split, the
closed form of the Cor. 7 delta); the family :mod:`dpverify.theorems.hypothesis_dp` checks each
against exact enumeration.

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, *On the Choice of Databases in Differential
  Privacy Composition*, arXiv 2209.13697 (version not recorded): Def. 4, Sec. V-A (Ex. 1-3,
  V-A1), Sec. V-B (Eq. 3-4, Thm 3, Cor. 6-7).
- [MV] J. Murtagh, S. Vadhan, arXiv 1507.03113 (version not verified), Thm 1.5 (MV-OPT).
- [KOV] P. Kairouz, S. Oh, P. Viswanath, arXiv 1311.0776v4, Thm 3.3 (KOV-OPT, KOV-EPS).
- [BBG18] B. Balle, G. Barthe, M. Gaboardi, arXiv 1807.01647v2, Thm 8 (Poisson subsampling:
  ``(log(1 + q(e^eps - 1)), q delta)``), used at rate 1/2.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.core import (
    InvalidParameter,
)
from dpverify.theorems.ctx import Unsupported
from dpverify.theorems.formulas.kov_mv import kov_delta, kov_eps, mv_delta, mv_eps
from dpverify.theorems.numerics import gce
from dpverify.theorems.values import approx_float, exact_params, is_exact, to_ctx

# Subset enumeration limit of the "maximum over index sets of size s" with heterogeneous
# (eps_i, delta_i) (with equal deltas the s largest eps_i are the maximiser: GCE-D4).
MAX_SUBSETS = 5000
# Term limit of the grouped MV-OPT sum used by Thm 3 (GCE-T3) over all n classes.
MAX_T3_TERMS = 5_000


def _exact_tuple(v: Any, name: str) -> tuple[Fraction, ...]:
    if isinstance(v, tuple | list) and all(is_exact(x) for x in v):
        return tuple(Fraction(x) for x in v)
    raise Unsupported(f"{name} must be given exactly (rationals) to this formula")


def _deltas(eps_list: Sequence[Fraction], delta_list: Any) -> tuple[Fraction, ...]:
    """``delta_list`` exactly, zeros when empty; its length must match."""
    if delta_list in ((), None, ""):
        return (Fraction(0),) * len(eps_list)
    deltas = _exact_tuple(delta_list, "delta_list")
    if len(deltas) != len(eps_list):
        raise InvalidParameter(f"delta_list must have the length of eps_list ({len(eps_list)}); "
                               f"got {len(deltas)} entries")
    return deltas


def weights(n: int) -> list[Fraction]:
    """``w_i = 2^{n-i}/(2^n - 1)``, i = 1..n: the mass of the class 'first 1 at position i'
    under ``U*`` ([GCE] Thm 3)."""
    return [Fraction(2 ** (n - i), 2**n - 1) for i in range(1, n + 1)]


# ==========================================================================================
# Comp = MV-OPT on index sets (GCE-D4), and the worst allowed pair (GCE-V1..V3)


def s_at_most(n: int, m: int, neighboring: str) -> int:
    if m > n:
        raise InvalidParameter(f"m must be at most n = len(eps_list) = {n}; got {m}")
    return m if neighboring == "add_remove" else min(2 * m, n)


def candidate_sets(eps_list: Sequence[Fraction], deltas: Sequence[Fraction],
                   s: int) -> list[tuple[int, ...]]:
    """Index sets of size ``s`` among which the worst Comp is attained.

    With equal deltas, Comp = MV-OPT is nondecreasing in each eps_i (GCE-D4), so the s
    largest eps_i suffice. Otherwise every s-subset is a candidate (deduplicated by the
    multiset of its (eps_i, delta_i)), at most ``MAX_SUBSETS`` of them.
    """
    n = len(eps_list)
    order = sorted(range(n), key=lambda i: (eps_list[i], deltas[i]), reverse=True)
    if len(set(deltas)) <= 1:
        return [tuple(sorted(order[:s]))]
    if math.comb(n, s) > MAX_SUBSETS:
        raise InvalidParameter(
            f"with unequal delta_i the worst {s} of {n} mechanisms is searched over all "
            f"C({n},{s}) = {math.comb(n, s)} index sets; at most {MAX_SUBSETS} are accepted "
            "(give equal delta_i, or fewer mechanisms)")
    seen: dict[tuple[tuple[Fraction, Fraction], ...], tuple[int, ...]] = {}
    for idx in itertools.combinations(range(n), s):
        key = tuple(sorted((eps_list[i], deltas[i]) for i in idx))
        seen.setdefault(key, idx)
    return list(seen.values())


def comp_delta(ctx: Any, eps_sub: Sequence[Fraction], deltas_sub: Sequence[Fraction],
               eps: Any) -> Any:
    """Comp = the optimal composition of the given rounds at ``eps``: KOV-DELTA when they are
    homogeneous ([KOV] arXiv 1311.0776v4, Thm 3.3), MV-OPT otherwise ([MV] Thm 1.5)."""
    if len(set(eps_sub)) == 1 and len(set(deltas_sub)) == 1:
        return kov_delta(ctx, ctx.num(eps_sub[0]), deltas_sub[0], len(eps_sub), eps)
    return mv_delta(ctx, tuple(eps_sub), eps, tuple(deltas_sub))


def comp_eps(ctx: Any, eps_sub: Sequence[Fraction], deltas_sub: Sequence[Fraction],
             delta: Fraction) -> Any:
    """Comp in eps form at ``delta``: KOV-EPS when homogeneous (exact piecewise inverse),
    MV-OPT.eps otherwise."""
    if len(set(eps_sub)) == 1 and len(set(deltas_sub)) == 1:
        if eps_sub[0] == 0:
            keep = (1 - deltas_sub[0]) ** len(eps_sub)
            return ctx.zero if delta >= 1 - keep else ctx.inf
        return kov_eps(ctx, ctx.num(eps_sub[0]), deltas_sub[0], len(eps_sub), delta)
    return mv_eps(ctx, tuple(eps_sub), delta, tuple(deltas_sub))


def comp_delta_sets(ctx: Any, eps_list: Sequence[Fraction], deltas: Sequence[Fraction],
                    sets: Sequence[Sequence[int]], eps: Any) -> Any:
    """``max_{I in sets} Comp.delta(eps_I, eps, delta_I)`` (GCE-D4)."""
    vals = [comp_delta(ctx, [eps_list[i] for i in idx], [deltas[i] for i in idx], eps)
            for idx in sets]
    return ctx.max(*vals) if len(vals) > 1 else vals[0]


def comp_eps_sets(ctx: Any, eps_list: Sequence[Fraction], deltas: Sequence[Fraction],
                  sets: Sequence[Sequence[int]], delta: Fraction) -> Any:
    """``max_{I in sets} Comp.eps(eps_I, delta, delta_I)`` (fix delta, maximise eps: GCE-D4)."""
    vals = [comp_eps(ctx, [eps_list[i] for i in idx], [deltas[i] for i in idx], delta)
            for idx in sets]
    return ctx.max(*vals) if len(vals) > 1 else vals[0]


@exact_params("eps_list", "delta_list")
def v1_delta(ctx: Any, eps_list: Any, m: int, eps: Any, neighboring: str = "add_remove",
             delta_list: Any = ()) -> Any:
    """GCE-V1 ([GCE] arXiv 2209.13697, Sec. V-A, Ex. 1): ``max_{|I| = s} MV-OPT.delta(eps_I,
    eps, delta_I)`` with ``s = m`` (add/remove: the worst pair is ``(0, b)``, ``|b| = m``) or
    ``s = min(2m, n)`` (replace-one: two m-subsets)."""
    eps_list = _exact_tuple(eps_list, "eps_list")
    deltas = _deltas(eps_list, delta_list)
    s = s_at_most(len(eps_list), m, neighboring)
    return comp_delta_sets(ctx, eps_list, deltas, candidate_sets(eps_list, deltas, s),
                           to_ctx(ctx, eps))


@exact_params("eps_list", "delta_list", "delta")
def v1_eps(ctx: Any, eps_list: Any, m: int, delta: Any, neighboring: str = "add_remove",
           delta_list: Any = ()) -> Any:
    """GCE-V1 eps form ([GCE] arXiv 2209.13697, Sec. V-A, Ex. 1): ``max_{|I| = s}
    MV-OPT.eps(eps_I, delta, delta_I)``."""
    eps_list = _exact_tuple(eps_list, "eps_list")
    deltas = _deltas(eps_list, delta_list)
    s = s_at_most(len(eps_list), m, neighboring)
    return comp_eps_sets(ctx, eps_list, deltas, candidate_sets(eps_list, deltas, s),
                         Fraction(delta))


@exact_params("eps_list")
def v2_delta(ctx: Any, eps_list: Any, eps: Any, neighboring: str = "add_remove") -> Any:
    """GCE-V2 ([GCE] arXiv 2209.13697, Sec. V-A, Ex. 2): ``B = {0} ∪ {e_i}``; add/remove:
    ``max_i MV-OPT.delta_pure([eps_i], eps)``; replace-one: ``max_{i != j}
    MV-OPT.delta_pure([eps_i, eps_j], eps)`` (= GCE-V1 with m = 1)."""
    return v1_delta(ctx, eps_list, 1, eps, neighboring)


@exact_params("eps_list", "delta")
def v2_eps(ctx: Any, eps_list: Any, delta: Any, neighboring: str = "add_remove") -> Any:
    """GCE-V2 eps form: ``max MV-OPT.eps`` over the same index sets as :func:`v2_delta`."""
    return v1_eps(ctx, eps_list, 1, delta, neighboring)


def group_sets(common: Sequence[int], groups: Sequence[Sequence[int]],
               neighboring: str) -> list[tuple[int, ...]]:
    """The differing rounds of the allowed pairs of GCE-V3 generalised to k groups:
    ``B = {0} ∪ {1_{C ∪ G_j}}``; add/remove: ``C ∪ G_j``; replace-one also ``G_j ∪ G_l``."""
    sets = [tuple(sorted({*common, *g})) for g in groups]
    if neighboring == "replace_one":
        sets += [tuple(sorted({*g, *h})) for g, h in itertools.combinations(groups, 2)]
    out: list[tuple[int, ...]] = []
    for idx in sets:
        if idx and idx not in out:
            out.append(idx)
    return out


def _v3_inputs(eps_c: Any, eps_a: Any, eps_p: Any, neighboring: str
               ) -> tuple[tuple[Fraction, ...], list[tuple[int, ...]]]:
    c = _exact_tuple(eps_c, "eps_c")
    a = _exact_tuple(eps_a, "eps_a")
    p = _exact_tuple(eps_p, "eps_p")
    idx_c = tuple(range(len(c)))
    idx_a = tuple(range(len(c), len(c) + len(a)))
    idx_p = tuple(range(len(c) + len(a), len(c) + len(a) + len(p)))
    return c + a + p, group_sets(idx_c, (idx_a, idx_p), neighboring)


@exact_params("eps_c", "eps_a", "eps_p")
def v3_delta(ctx: Any, eps_c: Any, eps_a: Any, eps_p: Any, eps: Any,
             neighboring: str = "add_remove") -> Any:
    """GCE-V3 ([GCE] arXiv 2209.13697, Sec. V-A, Ex. 3): ``B = {0, 1_{C∪A}, 1_{C∪P}}``;
    add/remove ``max(MV(C∪A), MV(C∪P))``; replace-one also ``MV(A∪P)`` (pure mechanisms;
    the rounds of C, A, P are given by their eps lists)."""
    eps_list, sets = _v3_inputs(eps_c, eps_a, eps_p, neighboring)
    return comp_delta_sets(ctx, eps_list, (Fraction(0),) * len(eps_list), sets, to_ctx(ctx, eps))


@exact_params("eps_c", "eps_a", "eps_p", "delta")
def v3_eps(ctx: Any, eps_c: Any, eps_a: Any, eps_p: Any, delta: Any,
           neighboring: str = "add_remove") -> Any:
    """GCE-V3 eps form: ``max MV-OPT.eps`` over the index sets of :func:`v3_delta`."""
    eps_list, sets = _v3_inputs(eps_c, eps_a, eps_p, neighboring)
    return comp_eps_sets(ctx, eps_list, (Fraction(0),) * len(eps_list), sets, Fraction(delta))


# ==========================================================================================
# GCE-PARCMP


def _s_parallel(m: int, neighboring: str) -> int:
    return m if neighboring == "add_remove" else 2 * m


@exact_params("delta")
def parcmp_eps(ctx: Any, eps0: Any, m: int, delta: Any, neighboring: str = "add_remove") -> Any:
    """GCE-PARCMP ([GCE] arXiv 2209.13697, Sec. V-A1): the GCE guarantee with the optimal
    homogeneous Comp, ``KOV-EPS.eps(eps0, 0, s, delta)``, ``s = m`` or ``2m``."""
    return kov_eps(ctx, eps0, Fraction(0), _s_parallel(m, neighboring), Fraction(delta))


def parcmp_eps_parallel(ctx: Any, eps0: Any, m: int, neighboring: str = "add_remove") -> Any:
    """Parallel composition with group privacy ([GCE] Sec. V-A1, Def. 5): ``s * eps0``."""
    return _s_parallel(m, neighboring) * eps0


# ==========================================================================================
# GCE-E34 and GCE-C7: the uniform prior in closed form


def e34_eps(ctx: Any, eps0: Any, n: int) -> Any:
    """[GCE] arXiv 2209.13697, Sec. V-B, Eq. (4) (= Cor. 7, eps part): ``ln(((1 + e^eps0)^n -
    1)/(2^n - 1))``, computed as ``log1p(2^n expm1(n log1p(expm1(eps0)/2))/(2^n - 1))``
    (no cancellation for small eps0)."""
    t = ctx.expm1(n * ctx.log1p(ctx.expm1(eps0) / 2))
    return ctx.log1p(ctx.num(2**n) * t / (2**n - 1))


def e34_eps_reverse(ctx: Any, eps0: Any, n: int) -> Any:
    """The other direction of Eq. (4) (derived, GCE-E34): ``ln((2^n - 1)/((1 + e^-eps0)^n -
    1)) = -e34_eps(-eps0, n)``."""
    return -e34_eps(ctx, -eps0, n)


def e34_factor(ctx: Any, eps0: Any, n: int) -> Any:
    """The improvement factor over simple composition: ``n eps0 / eps_HDP``."""
    return n * eps0 / e34_eps(ctx, eps0, n)


def e34_enumeration(ctx: Any, eps0: Any, n: int) -> Any:
    """Eq. (3) by enumeration of ``{0,1}^n \\ {0}``: ``ln((1/(2^n-1)) sum_{b != 0}
    e^{|b| eps0})``."""
    terms = [ctx.exp(sum(b) * eps0) for b in gce.vectors(n) if any(b)]
    return ctx.log(ctx.fsum(terms) / (2**n - 1))


def c7_eps(ctx: Any, eps0: Any, n: int) -> Any:
    """[GCE] arXiv 2209.13697, Cor. 7 (Eq. 5 to 6): the homogeneous sum of Cor. 6 in closed
    form, ``ln(((1+e^eps0)^n - 1)/(2^n - 1))`` (equal to Eq. (4), as the paper says)."""
    return e34_eps(ctx, eps0, n)


@exact_params("delta0")
def c7_delta(ctx: Any, delta0: Any, n: int) -> Any:
    """[GCE] Cor. 7, delta part (closed form derived in the catalogue, not the paper's
    display): ``sum_i w_i (delta0 + (n-i) delta0/2) = n 2^{n-1} delta0/(2^n - 1)``."""
    if is_exact(delta0):
        return ctx.num(Fraction(n * 2 ** (n - 1), 2**n - 1) * Fraction(delta0))
    return ctx.num(Fraction(n * 2 ** (n - 1), 2**n - 1)) * delta0


# ==========================================================================================
# GCE-C6: simple composition inside each summand of Thm 3


def subsampled_eps(ctx: Any, eps_j: Any) -> Any:
    """``ln(1 + (e^eps_j - 1)/2)``: the pure parameter of ``M_j^{1/2}`` ([BBG18]
    arXiv 1807.01647v2, Thm 8, rate 1/2)."""
    return ctx.log1p(ctx.expm1(eps_j) / 2)


def c6_eps_primes(ctx: Any, eps_list: Sequence[Any]) -> list[Any]:
    """``eps_i' = eps_i + sum_{j > i} ln(1 + (e^{eps_j} - 1)/2)`` ([GCE] Cor. 6)."""
    n = len(eps_list)
    subs = [subsampled_eps(ctx, e) for e in eps_list]
    out = []
    tail = ctx.zero
    for i in range(n - 1, -1, -1):
        out.append(eps_list[i] + tail)
        tail = tail + subs[i]
    out.reverse()
    return out


def c6_delta_primes(delta_list: Sequence[Fraction]) -> list[Fraction]:
    """``delta_i' = delta_i + sum_{j > i} delta_j/2`` ([GCE] Cor. 6), exactly."""
    n = len(delta_list)
    return [Fraction(delta_list[i]) + sum((Fraction(d) for d in delta_list[i + 1:]),
                                          Fraction(0)) / 2 for i in range(n)]


def c6_eps(ctx: Any, eps_list: Any) -> Any:
    """[GCE] arXiv 2209.13697, Cor. 6 with Thm 3 (direction U* vs 0): ``ln sum_i w_i
    e^{eps_i'}``, ``w_i = 2^{n-i}/(2^n-1)``."""
    primes = c6_eps_primes(ctx, eps_list)
    w = weights(len(eps_list))
    return ctx.logsumexp([ctx.log(ctx.num(wi)) + e for wi, e in zip(w, primes, strict=True)])


@exact_params("delta_list")
def c6_delta(ctx: Any, delta_list: Any) -> Any:
    """[GCE] Cor. 6 with Thm 3: ``sum_i w_i delta_i'`` (exact rational)."""
    deltas = _exact_tuple(delta_list, "delta_list")
    w = weights(len(deltas))
    return ctx.num(sum((wi * d for wi, d in zip(w, c6_delta_primes(deltas), strict=True)),
                       Fraction(0)))


def c6_eps_reverse(ctx: Any, eps_list: Any) -> Any:
    """The reverse direction (0 vs U*, derived; catalogue GCE-T3): ``-ln sum_i w_i
    e^{-eps_i'}``."""
    primes = c6_eps_primes(ctx, eps_list)
    w = weights(len(eps_list))
    return -ctx.logsumexp([ctx.log(ctx.num(wi)) - e for wi, e in zip(w, primes, strict=True)])


@exact_params("delta_list")
def c6_delta_reverse(ctx: Any, eps_list: Any, delta_list: Any) -> Any:
    """The reverse delta (derived): ``sum_i w_i e^{-eps_i'} delta_i' / sum_i w_i
    e^{-eps_i'}``."""
    deltas = _exact_tuple(delta_list, "delta_list")
    if len(deltas) != len(eps_list):
        raise InvalidParameter(f"delta_list must have the length of eps_list ({len(eps_list)}); "
                               f"got {len(deltas)} entries")
    primes = c6_eps_primes(ctx, eps_list)
    w = weights(len(eps_list))
    top = min(primes, key=approx_float)
    num = ctx.fsum(ctx.num(wi * d) * ctx.exp(top - e)
                   for wi, d, e in zip(w, c6_delta_primes(deltas), primes, strict=True))
    den = ctx.fsum(ctx.num(wi) * ctx.exp(top - e) for wi, e in zip(w, primes, strict=True))
    return num / den


# ==========================================================================================
# GCE-T3: Thm 3 with MV-OPT (pure or approximate) as Comp, at a common eps_i' = eps


def _mv_grouped_pure(ctx: Any, groups: Sequence[tuple[Any, int]], eps: Any) -> Any:
    """MV-OPT's LHS ([MV] Thm 1.5) for ``count`` copies of each value: ``sum_k prod_v
    C(c_v, k_v) e^{A - N} (1 - e^{eps + B - A})_+`` with ``A = sum k_v e_v``, ``B = sum (c_v -
    k_v) e_v``, ``N = sum c_v ln(1 + e^{e_v})`` (the ``2^k`` subset sum grouped by value)."""
    log_norm = ctx.fsum(c * ctx.log1p(ctx.exp(e)) for e, c in groups)
    total = ctx.zero
    for ks in itertools.product(*(range(c + 1) for _, c in groups)):
        a = ctx.fsum(k * e for k, (e, _) in zip(ks, groups, strict=True))
        b = ctx.fsum((c - k) * e for k, (e, c) in zip(ks, groups, strict=True))
        if ctx.lt(eps + b, a) is False:
            continue
        mult = math.prod(math.comb(c, k) for k, (_, c) in zip(ks, groups, strict=True))
        total = total + ctx.num(mult) * ctx.exp(a - log_norm) * ctx.pos(-ctx.expm1(eps + b - a))
    return total


def t3_work(eps_list: Sequence[Fraction]) -> int:
    """The number of terms of Thm 3 with the grouped MV-OPT sum (all classes)."""
    n = len(eps_list)
    total = 0
    for i in range(n):
        counts: dict[Fraction, int] = {}
        for e in eps_list[i + 1:]:
            counts[e] = counts.get(e, 0) + 1
        total += 2 * math.prod(c + 1 for c in counts.values())
    return total


def _t3_classes(ctx: Any, eps_list: Sequence[Fraction], deltas: Sequence[Fraction]
                ) -> list[tuple[list[tuple[Any, int]], Fraction]]:
    """Per class i: the grouped eps values of ``(M_i, M_{i+1}^{1/2}, ..., M_n^{1/2})`` and
    the product of ``1 - delta`` of the class (``delta_j/2`` for a subsampled round)."""
    n = len(eps_list)
    work = t3_work(eps_list)
    if work > MAX_T3_TERMS:
        raise InvalidParameter(
            f"Thm 3 with MV-OPT needs {work} terms here (at most {MAX_T3_TERMS} are accepted): "
            "use fewer distinct eps_i or fewer rounds, or GCE-C7/GCE-C6 (simple composition "
            "inside Thm 3, closed form)")
    classes = []
    for i in range(n):
        counts: dict[Fraction, int] = {}
        for j in range(i + 1, n):
            counts[eps_list[j]] = counts.get(eps_list[j], 0) + 1
        groups = [(to_ctx(ctx, eps_list[i]), 1)]
        groups += [(subsampled_eps(ctx, ctx.num(e)), c) for e, c in sorted(counts.items())]
        keep = 1 - deltas[i]
        for j in range(i + 1, n):
            keep *= 1 - deltas[j] / 2
        classes.append((groups, keep))
    return classes


@exact_params("eps_list", "delta_list")
def t3_delta(ctx: Any, eps_list: Any, eps: Any, delta_list: Any = ()) -> Any:
    """[GCE] arXiv 2209.13697, Thm 3 at a common ``eps_i' = eps`` with Comp = MV-OPT:
    ``sum_i w_i MV-OPT.delta([eps_i, s(eps_{i+1}), ..., s(eps_n)], eps, [delta_i,
    delta_{i+1}/2, ...])``, ``s(e) = ln(1 + (e^e - 1)/2)`` ([BBG18] Thm 8, rate 1/2). Both
    directions of HDP for (delta_0, U*) hold with these (eps, delta)."""
    eps_list = _exact_tuple(eps_list, "eps_list")
    deltas = _deltas(eps_list, delta_list)
    eps = to_ctx(ctx, eps)
    w = weights(len(eps_list))
    total = ctx.zero
    for wi, (groups, keep) in zip(w, _t3_classes(ctx, eps_list, deltas), strict=True):
        pure = _mv_grouped_pure(ctx, groups, eps)
        total = total + ctx.num(wi * (1 - keep)) + ctx.num(wi * keep) * pure
    return total


@exact_params("eps_list", "delta_list", "delta")
def t3_eps(ctx: Any, eps_list: Any, delta: Any, delta_list: Any = ()) -> Any:
    """Least ``eps >= 0`` with :func:`t3_delta` ``<= delta`` (bisection; the sum is
    nonincreasing in eps); ``inf`` below the floor ``sum_i w_i (1 - prod(1 - delta))``."""
    eps_list = _exact_tuple(eps_list, "eps_list")
    deltas = _deltas(eps_list, delta_list)
    delta = Fraction(delta)
    w = weights(len(eps_list))
    classes = _t3_classes(ctx, eps_list, deltas)
    floor = sum((wi * (1 - keep) for wi, (_, keep) in zip(w, classes, strict=True)),
                Fraction(0))
    if delta < floor:
        return ctx.inf
    top = sum(eps_list, Fraction(0))  # every privacy loss is at most sum_i eps_i
    if delta == floor:
        # every pure part must vanish: eps >= the largest privacy loss of every class
        losses = [ctx.num(eps_list[i]) + ctx.fsum(subsampled_eps(ctx, ctx.num(e))
                                                  for e in eps_list[i + 1:])
                  for i in range(len(eps_list))]
        return ctx.max(*losses) if len(losses) > 1 else losses[0]

    def f(e: Any) -> Any:
        return t3_delta(ctx, eps_list, e, deltas)

    return ctx.solve(f, ctx.num(delta), lo=0, hi=max(top, Fraction(1)))
