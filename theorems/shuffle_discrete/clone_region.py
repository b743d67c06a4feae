"""FMT21-NUM claim 6 over every real ``x0 = e^eps0 > 1``, ``1 <= x = e^eps <= x0``, for each n
in 1..:data:`CLONE_REGION_MAX_N`: the O(1)-per-c recurrence (:func:`numerics.shuffle.clone_walk`)
equals the direct double sum (:func:`numerics.shuffle.clone_double_sum`) as functions.

Both depend on (x0, x) through ``beta = (x0 - x)/((x0 - 1)(1 + x))`` in [0, 1/2] only in their
branches: the recurrence's thresholds ``floor(beta (c + 1))`` and the signs of the double sum's
terms ``P_c(a) - x Q_c(a)``, which by claim 7 (z3) are those of ``beta (c + 1) - a``. On each
open cell of [0, 1/2] between consecutive fractions ``a/(c + 1)``, ``c + 1 <= n``, every branch
is fixed, and both sides are then rational functions of (x0, x), affine in x (x enters only
through ``alpha, gamma`` of :func:`clone_coefficients` and ``P - x Q``, times x-free factors).
So their difference ``A(x0) + x B(x0)`` vanishes identically iff it vanishes, as an element of
``Q(x0)``, at two values of x: each side is computed in the field ``Q(x0)`` (sympy's exact
arithmetic) at ``x = 1 + 1/(8 n^2)`` and ``1 + 1/(16 n^2)`` (close enough to 1 that every cell
is reached), the recurrence with the cell's midpoint as its threshold and each positive part of
the double sum resolved by the term's sign at a point of the cell, and compared exactly. Both
sides are continuous (sums of positive parts; a threshold term vanishes at its threshold), so
the identity extends to the ends of the cells.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Points, SmtProblem
from dpverify.theorems.numerics.shuffle import (
    CloneState,
    add_report,
    clone_coefficients,
    clone_double_sum,
    clone_pmfs,
    clone_walk,
    count_vectors,
    rr_kary_pair,
    rr_kary_rows,
)
from dpverify.theorems.shuffle_discrete.ratfunc import RatFunc

CLONE_REGION_MAX_N = 12
# the n of the claim: its whole finite domain (x0 and x are quantified inside the check)
CLONE_N_DOMAIN = Points(tuple({"n": n} for n in range(1, CLONE_REGION_MAX_N + 1)),
                        covers_domain=True)


@functools.lru_cache(maxsize=4)
def _exact_pmfs(n: int) -> dict[tuple[int, int], tuple[RatFunc, RatFunc]]:
    """:func:`clone_pmfs` over Q(x0) (read only; consecutive n of claim 9 share them through
    the cache, the other checks reuse them within a point)."""
    return clone_pmfs(RatFunc(flint.fmpq_poly([0, 1])), n, RatFunc.lift)


def beta_cells(n: int) -> list[Fraction]:
    """The midpoints of the open cells of [0, 1/2] cut by the fractions ``a/(c + 1)``."""
    cuts = sorted({Fraction(1, 2)} | {Fraction(a, c) for c in range(1, n + 1)
                                      for a in range(c + 1) if Fraction(a, c) <= Fraction(1, 2)})
    return [(lo + hi) / 2 for lo, hi in itertools.pairwise(cuts)]


def recurrence_is_double_sum_everywhere(ctx: Any, n: int, **_: Any) -> bool:
    """At this n, on every cell and at both values of x: recurrence == double sum in Q(x0)."""
    x0 = RatFunc(flint.fmpq_poly([0, 1]))
    one, zero = RatFunc.lift(1), RatFunc.lift(0)
    pmfs = _exact_pmfs(n)  # the laws depend on neither x nor the cell
    for x_value in (1 + Fraction(1, 8 * n * n), 1 + Fraction(1, 16 * n * n)):
        x = RatFunc.lift(x_value)
        alpha, gamma, _ = clone_coefficients(x0, x)
        for beta in beta_cells(n):
            u = beta * (1 + x_value)  # x0 at which beta(x0, x_value) is this midpoint
            if not 0 < u < 1:
                return False
            point = (x_value - u) / (1 - u)

            def pos(t: Any, point: Fraction = point) -> Any:  # the sign is the cell's
                return t if t.sign_at(point) > 0 else zero

            start = CloneState(0, -1, zero, zero, one, (1 - 1 / x0) ** (n - 1))
            walk, _ = clone_walk(alpha, gamma, beta, n, 1 / (x0 - 1), start, n - 1, pos)
            direct = clone_double_sum(x0, n, x, pos, RatFunc.lift, pmfs)
            if walk != direct:
                return False
    return True


# ------------------------------------------------------------------------------------------
# claim 9: delta nonincreasing in n and in eps

CLONE_MONO_MAX_N = 30
CLONE_MONO_DOMAIN = Points(tuple({"n": n} for n in range(1, CLONE_MONO_MAX_N + 1)),
                           covers_domain=True)


def positive_beyond_one(f: RatFunc) -> bool:
    """``f(x0) >= 0`` for every ``x0 > 1``: with ``x0 = 1 + e``, the numerator's and the
    denominator's coefficients in e have one sign (a certificate, not a search)."""
    shift = flint.fmpq_poly([1, 1])
    num, den = f.num(shift).coeffs(), f.den(shift).coeffs()
    if all(c >= 0 for c in num) and all(c >= 0 for c in den):
        return True
    return all(c <= 0 for c in num) and all(c <= 0 for c in den)


def clone_monotone_everywhere(ctx: Any, n: int, **_: Any) -> bool:
    """At this n, for every real ``x0 > 1`` (as elements of Q(x0)): every ``Q(c, a)`` of
    :func:`clone_pmfs` is >= 0, so ``delta = sum pos(P - x Q)`` is nonincreasing in x; and the
    laws at n + 1 are the laws at n moved by one more clone, the same kernel for P and Q:
    ``L_{n+1}(c, a) = (1 - p) L_n(c, a) + (p/2) (L_n(c-1, a) + L_n(c-1, a-1))``, ``p = 1/x0``,
    weights >= 0 with sum 1, so by :func:`kernel_problem` (z3) ``delta_{n+1} <= delta_n``."""
    x0 = RatFunc(flint.fmpq_poly([0, 1]))
    now, nxt = _exact_pmfs(n), _exact_pmfs(n + 1)
    if not all(positive_beyond_one(q) and positive_beyond_one(p) for p, q in now.values()):
        return False
    p = 1 / x0
    zero = RatFunc.lift(0)
    for (c, a), pair in nxt.items():
        for i in (0, 1):
            moved = ((1 - p) * now.get((c, a), (zero, zero))[i]
                     + p / 2 * (now.get((c - 1, a), (zero, zero))[i]
                                + now.get((c - 1, a - 1), (zero, zero))[i]))
            if moved != pair[i]:
                return False
    return positive_beyond_one(1 - p) and positive_beyond_one(p)


def kernel_problem() -> SmtProblem:
    """``pos(S + k t) <= pos(S) + k pos(t)`` for ``k >= 0``: by induction over the terms,
    ``pos(sum_i k_i t_i) <= sum_i k_i pos(t_i)``; summed over the new outcomes (each old
    outcome's weights sum to 1), a kernel does not increase ``H = sum pos(P - x Q)``."""
    import sympy as sp

    s, k, t = sp.symbols("S k t", real=True)
    goal = sp.Le(sp.Max(s + k * t, 0), sp.Max(s, 0) + k * sp.Max(t, 0))
    return SmtProblem({"S": "real", "k": "real", "t": "real"}, (sp.Ge(k, 0),), goal,
                      ("t = P - x Q at an outcome", "k: a kernel weight",
                       "S: the partial sum of the other terms"))


# ------------------------------------------------------------------------------------------
# claim 8: the clone pair dominates shuffled RR (RR's pair is the clone pair post-processed)

CLONE_RR_DOMAIN = Points(tuple({"k": 2, "n": n} for n in range(1, 11))
                         + tuple({"k": 3, "n": n} for n in range(1, 6)), covers_domain=True)


def _subset_laws(law_of: list[Any], counts: tuple[int, ...], size: int, one: Any) -> Any:
    """The histogram law of the reports of a uniform random subset of ``size`` of the users
    (``counts[v]`` of them hold v), each reporting by ``law_of[v]``."""
    total = math.comb(sum(counts), size)
    out: dict[tuple[int, ...], Any] = {}
    for pick in itertools.product(*(range(cv + 1) for cv in counts)):
        if sum(pick) != size:
            continue
        weight = one * math.prod(math.comb(cv, s) for cv, s in zip(counts, pick, strict=True))
        law: dict[tuple[int, ...], Any] = {(0,) * len(counts): weight / total}
        for v, s in enumerate(pick):
            for _ in range(s):
                law = add_report(law, law_of[v])
        for h, mass in law.items():
            out[h] = out[h] + mass if h in out else mass
    return out


def clone_dominates_rr(ctx: Any, k: int, n: int, **_: Any) -> bool:
    """At (k, n), in Q(x0) (every real x0 > 1): with ``w = x0/(x0 + 1)``, ``p = 1/x0``, the
    RR rows are ``R(0) = w Q0 + (1 - w) Q1``, ``R(1) = (1 - w) Q0 + w Q1`` with Q0, Q1 >= 0, and
    ``R(v) = p (Q0 + Q1)/2 + (1 - p) L_v`` with ``L_v >= 0`` (the FMT21 decomposition). So for
    every count vector of the others, both orders of the RR pair are the clone pair (P, Q) of
    :func:`clone_pmfs` (symmetric: ``Q(c, a) = P(c, c + 1 - a)``) moved by one kernel: from
    ``(c, a)``, a draws of Q1, ``c + 1 - a`` of Q0 and the reports L of a uniform subset of
    ``n - 1 - c`` others; checked exactly (rows >= 0, mass 1, every histogram's mass). With
    :func:`kernel_problem` (z3) ``H(RR pair) <= H(P || Q)`` for every x = e^eps."""
    x0 = RatFunc(flint.fmpq_poly([0, 1]))
    one, zero = RatFunc.lift(1), RatFunc.lift(0)
    pair = _exact_pmfs(n)
    if any(q != pair.get((c, c + 1 - a), (zero, zero))[0] for (c, a), (_, q) in pair.items()):
        return False
    rows = rr_kary_rows(x0, k, one)
    w, p = x0 / (x0 + 1), 1 / x0
    q0 = [(w * rows[0][j] - (1 - w) * rows[1][j]) / (2 * w - 1) for j in range(k)]
    q1 = [(w * rows[1][j] - (1 - w) * rows[0][j]) / (2 * w - 1) for j in range(k)]
    ell = [[(rows[v][j] - p * (q0[j] + q1[j]) / 2) / (1 - p) for j in range(k)]
           for v in range(k)]
    if not all(positive_beyond_one(t) for t in (*q0, *q1, *(t for row in ell for t in row),
                                                p, 1 - p)):
        return False
    if any(rows[0][j] != w * q0[j] + (1 - w) * q1[j] or rows[1][j] != (1 - w) * q0[j] + w * q1[j]
           for j in range(k)):
        return False
    draws = {}  # the law of the (c, a) draws does not depend on the others' counts
    for c, a in pair:
        law: dict[tuple[int, ...], Any] = {(0,) * k: one}
        for _ in range(a):  # a counts the Q1 draws in the pair as encoded (P_c(a) = w
            law = add_report(law, q1)  # b_c(a) + (1 - w) b_c(a - 1): a = A + 1 - Delta)
        for _ in range(c + 1 - a):
            law = add_report(law, q0)
        draws[(c, a)] = law
    for cv in count_vectors(k, n - 1):
        kernels = {}
        rests: dict[int, Any] = {}  # the subset's law depends on c only
        for c, a in pair:
            law = draws[(c, a)]
            if c not in rests:
                rests[c] = _subset_laws(ell, cv, n - 1 - c, one)
            rest = rests[c]
            kernels[(c, a)] = {}
            for h1, m1 in law.items():
                for h2, m2 in rest.items():
                    h = tuple(u + v for u, v in zip(h1, h2, strict=True))
                    kernels[(c, a)][h] = kernels[(c, a)].get(h, zero) + m1 * m2
        if any(sum(kern.values(), zero) != one for kern in kernels.values()):
            return False
        p_rr, q_rr = rr_kary_pair(x0, k, cv, one)
        for h in set(p_rr) | {h for kern in kernels.values() for h in kern}:
            moved_p = sum((pair[o][0] * kern.get(h, zero) for o, kern in kernels.items()), zero)
            moved_q = sum((pair[o][1] * kern.get(h, zero) for o, kern in kernels.items()), zero)
            if moved_p != p_rr.get(h, zero) or moved_q != q_rr.get(h, zero):
                return False
    return True
