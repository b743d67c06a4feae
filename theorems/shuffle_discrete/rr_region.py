"""SHUFFLE-RR-EXACT claim 6 over every real ``x0 = e^eps0 > 1``, ``1 <= x = e^eps <= x0``, for
each n in 1..:data:`RR_REGION_MAX_N`, from the product's own code
(:mod:`dpverify.theorems.numerics.shuffle`) evaluated on symbols:

- the binary m-formula and the k = 2 enumeration have the same positive-part arguments: the
  term at histogram ``(a, b)`` of ``H(Hist(c + e_0) || Hist(c + e_1))`` is the m-formula's term
  ``b`` at ``m = c_1``, and that of the reversed order its term ``a`` at ``m = n - 1 - c_1``,
  as elements of the rational function field ``Q(x0, x)`` (exact, :mod:`.ratfunc`: an
  identity for every real x0, x where defined). Over the canonical c the two orders reach every
  m, so the two maxima are equal (:func:`terms_identity`);
- each ``pos(alpha X(j) + gamma X(j-1)) <= alpha X(j)`` for ``X >= 0`` (``alpha >= 0 >=
  gamma``), proved by z3 as the step of the running sum, for every n (:func:`step_problem`);
- every law X_m of :func:`rr_binary_laws` is ``>= 0`` with total mass 1 for ``x0 > 1`` (z3,
  :func:`laws_problem`). Hence ``H_x(P_m || Q_m) <= alpha sum_j X_m(j) = (x0 - x)/(x0 + 1)``.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Points, SmtProblem
from dpverify.theorems.numerics.shuffle import (
    count_vectors,
    hockey_terms,
    rr_binary_coefficients,
    rr_binary_laws,
    rr_kary_law,
    rr_kary_pair,
)
from dpverify.theorems.shuffle_discrete.ratfunc import RatFunc, factored_sympy, field_generators

RR_REGION_MAX_N = 10
# the n of the claim: its whole finite domain (x0 and x are quantified inside each check)
N_DOMAIN = Points(tuple({"n": n} for n in range(1, RR_REGION_MAX_N + 1)), covers_domain=True)


def terms_identity(ctx: Any, n: int, **_: Any) -> bool:
    """At this n, the k = 2 enumeration's positive-part arguments (both orders, every canonical
    c, every histogram) equal the m-formula's, in ``Q(x0, x)``; and the two orders reach every
    m."""
    x0, x = field_generators("x0", "x")
    one = x0**0
    _, _, alpha, gamma = rr_binary_coefficients(x0, x, one)
    profile = [hockey_terms(alpha, gamma, xm) for xm in rr_binary_laws(x0, n, one)]
    reached: set[int] = set()
    for c in count_vectors(2, n - 1):
        p, q = rr_kary_pair(x0, 2, c, one)
        m = c[1]
        reached |= {m, n - 1 - m}
        if len(p) != n + 1 or set(p) != set(q):
            return False
        for (a, b), mass in p.items():
            forward, backward = mass - x * q[(a, b)], q[(a, b)] - x * mass
            if forward != profile[m][b] or backward != profile[n - 1 - m][a]:
                return False
    return reached == set(range(n))


def _coefficients() -> tuple[Any, Any, Any, Any, tuple[Any, ...]]:
    import sympy as sp

    x0, x = sp.symbols("x0 x", real=True)
    _, _, alpha, gamma = rr_binary_coefficients(x0, x, sp.Integer(1))
    hyps = (sp.Gt(x0, 1), sp.Ge(x, 1), sp.Le(x, x0))
    return x0, x, sp.factor(sp.cancel(alpha)), sp.factor(sp.cancel(gamma)), hyps


def step_problem() -> SmtProblem:
    """The three shapes of :func:`hockey_terms` (first ``alpha X_0``, middle ``alpha X_j + gamma
    X_{j-1}``, last ``gamma X_{n-1}``, all present for a list of length 2): ``pos(first) <=
    alpha X_0``; ``S <= alpha T`` implies ``S + pos(middle) <= alpha (T + X_j)``; ``pos(last)
    <= 0``; and ``alpha = (x0 - x)/(x0 + 1)``. By induction on j, for every n, ``H_x(P || Q) <=
    alpha sum_j X(j)`` for any ``X >= 0``."""
    import sympy as sp

    x0, x, alpha, gamma, hyps = _coefficients()
    s, t, xp, xc = sp.symbols("S T Xp Xc", real=True)
    first, middle, last = hockey_terms(alpha, gamma, [xp, xc])
    goal = sp.And(sp.Le(sp.Max(first, 0), alpha * xp),
                  sp.Le(s + sp.Max(middle, 0), alpha * (t + xc)),
                  sp.Le(sp.Max(last, 0), 0),
                  sp.Eq(sp.factor(alpha - (x0 - x) / (x0 + 1)), 0))
    return SmtProblem({"x0": "real", "x": "real", "S": "real", "T": "real", "Xp": "real",
                       "Xc": "real"},
                      (*hyps, sp.Ge(xp, 0), sp.Ge(xc, 0), sp.Le(s, alpha * t)), goal,
                      ("x0 = e^eps0", "x = e^eps", "S, T: running sums of H and of X",
                       "Xp, Xc: X(j-1), X(j)"))


def laws_problem() -> SmtProblem:
    """Every coefficient of every law X_m (:func:`rr_binary_laws`, n in 1..RR_REGION_MAX_N) is
    ``>= 0`` and each law sums to 1, for every real ``x0 > 1``."""
    import sympy as sp

    x0 = sp.Symbol("x0", real=True)
    goals = []
    for n in range(1, RR_REGION_MAX_N + 1):
        for xm in _exact_laws(n):  # in Q(x0), then factored: what sympy.factor(cancel) gives
            goals.append(sp.Eq(factored_sympy(sum(xm), x0), 1))
            goals += [sp.Ge(factored_sympy(c, x0), 0) for c in xm]
    return SmtProblem({"x0": "real"}, (sp.Gt(x0, 1),), sp.And(*goals),
                      ("x0 = e^eps0", f"n in 1..{RR_REGION_MAX_N}"))


# ------------------------------------------------------------------------------------------
# claim 7: k-ary shuffling is post-processing, delta_n <= delta_1

# the (k, n) of claim 7: its whole finite domain (x0, x quantified inside the check)
KARY_DOMAIN = Points(tuple({"k": 3, "n": n} for n in range(1, 6))
                     + tuple({"k": 4, "n": n} for n in range(1, 4)), covers_domain=True)


def _nonnegative(value: Any) -> bool:
    """Every coefficient of the numerator and of the denominator of an element of ``Q(e, d)``
    has one sign: then its value is >= 0 for every ``e, d >= 0`` where it is defined."""
    num, den = value.num.coeffs(), value.den.coeffs()
    if all(c >= 0 for c in num) and all(c > 0 for c in den):
        return True
    return all(c <= 0 for c in num) and all(c < 0 for c in den)


def kary_below_local_everywhere(ctx: Any, k: int, n: int, **_: Any) -> bool:
    """At (k, n): with ``x0 = 1 + e``, ``x = 1 + d`` (e > 0, d >= 0) in ``Q(e, d)``, for every
    canonical c and both orders of the pair (:func:`rr_kary_pair`): the law of the others
    (:func:`rr_kary_law`) is >= 0 with mass 1, and each term ``p(h) - x q(h)`` is at most
    ``U(h) = (x0 - x)/(x0 + k - 1) law(h - e_i)`` (i the value user 1 holds in p), a
    difference >= 0 by the signs of its coefficients. With ``U >= 0`` (x <= x0), ``H(p || q) <=
    sum_h U(h) = (x0 - x)/(x0 + k - 1)``. At n = 1 the term at ``e_i`` is that value itself,
    so delta_1 equals it."""
    e, d = field_generators("e", "d")
    one = e**0
    x0, x = 1 + e, 1 + d
    local = (x0 - x) / (x0 + k - 1)
    for c in count_vectors(k, n - 1):
        law = rr_kary_law(x0, k, c, one)
        if sum(law.values()) != one or not all(_nonnegative(v) for v in law.values()):
            return False
        p, q = rr_kary_pair(x0, k, c, one)
        for first, second, i in ((p, q, 0), (q, p, 1)):
            for h, mass in first.items():
                below = tuple(hv - (j == i) for j, hv in enumerate(h))
                bound = local * law[below] if min(below) >= 0 else 0 * one
                if not _nonnegative(bound - (mass - x * second[h])):
                    return False
            if n == 1 and first[tuple(int(j == i) for j in range(k))] - x * second[
                    tuple(int(j == i) for j in range(k))] != local:
                return False
    return True


# ------------------------------------------------------------------------------------------
# claim 5: delta_n nonincreasing in eps and in n

RR_MONO_MAX_N = 30
RR_MONO_DOMAIN = Points(tuple({"n": n} for n in range(2, RR_MONO_MAX_N + 1)), covers_domain=True)


@functools.lru_cache(maxsize=4)
def _exact_laws(n: int) -> list[list[Any]]:
    """:func:`rr_binary_laws` over Q(x0) (consecutive n share their laws through the cache),
    from their closed form: with ``w = x0/(x0 + 1)``, ``X_m(z) = (x0 z + 1)^m (z +
    x0)^(n-1-m) / (x0 + 1)^(n-1)``, so ``X_m(j)`` is ``sum_i C(m, i) C(n-1-m, j-i)
    x0^(n-1-m-j+2i)`` over ``(x0 + 1)^(n-1)``, reduced (:class:`RatFunc` is canonical: the
    same elements as the products of :func:`rr_binary_laws`, without its ~n^3 field
    operations; tests/test_shuffle_regions.py compares the two)."""
    import flint

    den = flint.fmpq_poly([1, 1]) ** (n - 1)
    laws = []
    for m in range(n):
        rest = n - 1 - m
        row = []
        for j in range(n):
            coeffs = [0] * n
            for i in range(max(0, j - rest), min(m, j) + 1):
                coeffs[rest - j + 2 * i] += math.comb(m, i) * math.comb(rest, j - i)
            row.append(RatFunc(flint.fmpq_poly(coeffs), den))
        laws.append(row)
    return laws


@functools.lru_cache(maxsize=6)
def _exact_terms(n: int, x_value: Fraction) -> list[list[Any]]:
    """:func:`hockey_terms` of every law of :func:`_exact_laws` at ``x = x_value`` (the terms
    at n + 1 of one n are those at n of the next)."""
    import flint

    x0, one = RatFunc(flint.fmpq_poly([0, 1])), RatFunc.lift(1)
    _, _, alpha, gamma = rr_binary_coefficients(x0, RatFunc.lift(x_value), one)
    return [hockey_terms(alpha, gamma, xm) for xm in _exact_laws(n)]


def rr_monotone_everywhere(ctx: Any, n: int, **_: Any) -> bool:
    """At this n, for every real ``x0 > 1`` (elements of Q(x0), :class:`RatFunc`): w, v and
    every law X_m are >= 0, so each term ``alpha X(j) + gamma X(j-1)`` is nonincreasing in x
    (``alpha = w - x v``, ``gamma = v - x w``: slopes -v, -w, checked at x = 1, 2, 3). For
    n < RR_MONO_MAX_N, the terms at n + 1 are
    those at n moved by one more user, ``t'(j) = k0 t(j) + k1 t(j-1)`` with ``(k0, k1) = (w,
    v)`` (the new user holds 0; m' = m) or ``(v, w)`` (holds 1; m' = n from m = n - 1),
    checked exactly at two values of x (the terms are affine in x); with the z3 kernel lemma
    (:func:`clone_region.kernel_problem`) ``delta_{n+1} <= delta_n``."""
    import flint

    from dpverify.theorems.shuffle_discrete.clone_region import positive_beyond_one

    x0 = RatFunc(flint.fmpq_poly([0, 1]))
    one = RatFunc.lift(1)
    w, v, _, _ = rr_binary_coefficients(x0, one, one)
    laws = _exact_laws(n)
    if not (positive_beyond_one(w) and positive_beyond_one(v) and w + v == one):
        return False
    if not all(positive_beyond_one(c) for xm in laws for c in xm):
        return False
    coeffs = [rr_binary_coefficients(x0, RatFunc.lift(t), one)[2:] for t in (1, 2, 3)]
    for (a1, g1), (a2, g2) in itertools.pairwise(coeffs):  # slopes -v and -w in x
        if a2 - a1 != -v or g2 - g1 != -w:
            return False
    if n >= RR_MONO_MAX_N:
        return True
    for x_value in (Fraction(1), Fraction(2)):
        terms, nxt_terms = _exact_terms(n, x_value), _exact_terms(n + 1, x_value)
        for m_new in range(n + 1):
            m, (k0, k1) = (m_new, (w, v)) if m_new < n else (n - 1, (v, w))
            old, new = terms[m], nxt_terms[m_new]
            padded = [0 * one, *old, 0 * one]
            if any(new[j] != k0 * padded[j + 1] + k1 * padded[j] for j in range(len(new))):
                return False
    return True
