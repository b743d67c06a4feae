"""Shared pieces of FMT21-NUM and SHUFFLE-RR-EXACT (:mod:`.shuffle_exact`): parameters with
their cost limits, cached claim terms, the exhaustive exact predicates over the finite domains,
the SMT problems built from the product's coefficient code, and small term transformers.

Finite domains. The exhaustive claims take ``x0 = e^eps0`` and ``x = e^eps`` rational, so every
delta is an exact rational: :data:`X_PAIRS` (16 pairs ``1 <= x <= x0``, ``x0`` in {3/2, 2, 3,
5}) times a stated range of n (and k). Certifying every point of such a domain with exact
rationals is a proof by exhaustive enumeration of that domain, and only of it.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Compare,
    Generated,
    Points,
    SmtProblem,
    Tol,
)
from dpverify.theorems.ctx import ArbCtx
from dpverify.theorems.formulas.shuffle_exact import (
    FMT21_MAX_N,
    RR_BINARY_MAX_N,
    clone_delta_double_sum_exact,
    clone_delta_exact,
    fmt21_num_delta,
    fmt21_num_eps,
    rr_binary_delta_exact,
    rr_kary_delta_exact,
    shuffle_rr_delta,
    shuffle_rr_delta_ctx,
    shuffle_rr_eps,
)
from dpverify.theorems.numerics.shuffle import (
    clone_coefficients,
    clone_double_sum,
    rr_binary_profile,
    rr_kary_values,
)
from dpverify.theorems.params import K_ALPHABET, N_USERS
from dpverify.theorems.values import exact_params

FAMILY = "shuffle_discrete"

N_CLONES = dataclasses.replace(
    N_USERS, ceiling=FMT21_MAX_N,
    limit_reason="a cost limit of dpverify: the clone-pair sum walks a window of about "
    "17 sqrt(n) values of c per delta; n = 10^6 takes about 1 s per delta in arb")
N_RR = dataclasses.replace(
    N_USERS, ceiling=RR_BINARY_MAX_N,
    limit_reason="a cost limit of dpverify: exact enumeration of shuffled binary RR costs "
    "O(n^2) terms (about 3 s at n = 500); k-ary RR is limited further by C(n+k-2, k-1) "
    "C(n+k-1, k-1) <= 10^5")
# The inverses evaluate delta 15 to 25 times per precision: their limits keep `dpverify eval`
# within its 50 s (measured: FMT21-NUM.eps at n = 10^5 about 1 s, at 10^6 over 50 s;
# SHUFFLE-RR-EXACT.eps at n = 200 about 5 s, at 500 about 30 s).
N_CLONES_EPS = dataclasses.replace(
    N_USERS, ceiling=10**5,
    limit_reason="a cost limit of dpverify: the eps search evaluates the clone-pair delta 15 to "
    "25 times per precision; n = 10^6 takes over 50 s")
N_RR_EPS = dataclasses.replace(
    N_USERS, ceiling=300,
    limit_reason="a cost limit of dpverify: the eps search evaluates the exact shuffled-RR delta "
    "15 to 25 times per precision; n = 500 takes about 30 s")
K_RR = dataclasses.replace(K_ALPHABET, default="2", ceiling=20,
                           limit_reason="a cost limit of dpverify: the k-ary enumeration")

X_PAIRS = tuple((x0, x) for x0 in (Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5))
                for x in (Fraction(1), Fraction(6, 5), Fraction(3, 2), Fraction(2), Fraction(4))
                if x <= x0)
X_DOMAIN = "x0 = e^eps0 in {3/2, 2, 3, 5}, x = e^eps in {1, 6/5, 3/2, 2, 4} with x <= x0"


def const(value: str) -> Any:
    return lambda ctx, **_: ctx.num(value)


# ------------------------------------------------------------------------------------------
# cached arb evaluations (the same value appears in several checks of one claim)


_FORMULAS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "fmt21_delta": (fmt21_num_delta, ("eps0", "n", "eps")),
    "fmt21_eps": (fmt21_num_eps, ("eps0", "n", "delta")),
    "rr_delta": (shuffle_rr_delta, ("eps0", "n", "eps", "k")),
    "rr_eps": (shuffle_rr_eps, ("eps0", "n", "delta", "k")),
}


@functools.lru_cache(maxsize=256)
def arb_cached(name: str, prec: int, args: tuple[Any, ...]) -> Any:
    formula, keys = _FORMULAS[name]
    return ArbCtx(prec).run(formula, **dict(zip(keys, args, strict=True)))


def term(name: str) -> Any:
    """A claim term evaluating ``name`` at the point's exact parameters (cached in arb)."""
    formula, keys = _FORMULAS[name]

    @exact_params("eps0", "eps", "delta")
    def term(ctx: Any, **point: Any) -> Any:
        point = {"k": 2, **point}
        args = tuple(point[k] for k in keys)
        if ctx.name == "arb":
            return arb_cached(name, int(ctx.prec), args)
        return formula(ctx, *args)

    return term


FMT21_DELTA = term("fmt21_delta")
FMT21_EPS = term("fmt21_eps")
RR_DELTA = term("rr_delta")


def rr_kary_k2(ctx: Any, eps0: Any, n: int, eps: Any, **_: Any) -> Any:
    return shuffle_rr_delta_ctx(ctx, eps0, n, eps, 2, enumerate_k2=True)


def double_sum(ctx: Any, eps0: Any, n: int, eps: Any, **_: Any) -> Any:
    return clone_double_sum(ctx.exp(eps0), n, ctx.exp(eps), ctx.pos, ctx.num)


# ------------------------------------------------------------------------------------------
# exhaustive exact predicates


@exact_params("x0", "x")
def recurrence_is_double_sum(ctx: Any, x0: Fraction, x: Fraction, **_: Any) -> bool:
    return all(clone_delta_exact(x0, n, x) == clone_delta_double_sum_exact(x0, n, x)
               for n in range(1, 13))


@exact_params("x0", "x")
def clone_above_rr(ctx: Any, x0: Fraction, x: Fraction, **_: Any) -> bool:
    for n in range(1, 11):
        clone = clone_delta_exact(x0, n, x)
        if clone < rr_binary_delta_exact(x0, n, x)[0]:
            return False
        if n <= 5 and clone < rr_kary_delta_exact(x0, n, x, 3)[0]:
            return False
    return True


def next_x(x0: Fraction, x: Fraction) -> Fraction:
    """The next larger x of the grid (or x0 itself), for monotonicity in eps."""
    bigger = [y for _, y in X_PAIRS if y > x and y <= x0]
    return min(bigger) if bigger else x0


@exact_params("x0", "x")
def clone_monotone(ctx: Any, x0: Fraction, x: Fraction, **_: Any) -> bool:
    y = next_x(x0, x)
    seq = [clone_delta_exact(x0, n, x) for n in range(1, 31)]
    in_n = all(a >= b for a, b in itertools.pairwise(seq))
    in_x = all(clone_delta_exact(x0, n, y) <= seq[n - 1] for n in range(1, 31))
    return in_n and in_x


@exact_params("x0", "x")
def rr_monotone(ctx: Any, x0: Fraction, x: Fraction, **_: Any) -> bool:
    y = next_x(x0, x)
    seq = [rr_binary_delta_exact(x0, n, x)[0] for n in range(2, 31)]
    in_n = all(a >= b for a, b in itertools.pairwise(seq))
    in_x = all(rr_binary_delta_exact(x0, n, y)[0] <= seq[n - 2] for n in range(2, 31))
    return in_n and in_x


@exact_params("x0", "x")
def binary_is_enumeration(ctx: Any, x0: Fraction, x: Fraction, **_: Any) -> bool:
    """The binary m-formula (one order, reversal symmetry) equals the two-order enumeration
    with k = 2; both are at most the one-user (local) delta (x0 - x)_+/(x0 + 1)."""
    local = max(x0 - x, Fraction(0)) / (x0 + 1)
    for n in range(1, 11):
        binary = rr_binary_delta_exact(x0, n, x)[0]
        if binary != rr_kary_delta_exact(x0, n, x, 2)[0] or binary > local:
            return False
    return True


@exact_params("x0", "x")
def kary_below_local(ctx: Any, x0: Fraction, x: Fraction, **_: Any) -> bool:
    """Shuffling is post-processing of the n reports: delta_n <= delta_1 = (x0 - x)_+/(x0 + k
    - 1), with equality at n = 1 (k = 3, n <= 5; k = 4, n <= 3)."""
    for k, top in ((3, 5), (4, 3)):
        local = max(x0 - x, Fraction(0)) / (x0 + k - 1)
        if rr_kary_delta_exact(x0, 1, x, k)[0] != local:
            return False
        if any(rr_kary_delta_exact(x0, n, x, k)[0] > local for n in range(2, top + 1)):
            return False
    return True


# a grid of the real parameters (x0 = e^eps0, x = e^eps), not their whole domain: exact
# enumeration there certifies these points; it proves nothing between them
PAIR_POINTS = Points(tuple({"x0": x0, "x": x} for x0, x in X_PAIRS))


def draw_small(rng: random.Random) -> dict[str, Any]:
    x0 = Fraction(rng.randint(11, 60), 10)
    x = 1 + (x0 - 1) * Fraction(rng.randint(0, 20), 20)
    return {"x0": x0, "x": x, "n": rng.randint(2, 14), "k": rng.choice((2, 2, 3))}


@exact_params("x0", "x")
def clone_above_rr_random(ctx: Any, x0: Fraction, x: Fraction, n: int, k: int,
                           **_: Any) -> bool:
    rr = (rr_binary_delta_exact(x0, n, x)[0] if k == 2
          else rr_kary_delta_exact(x0, min(n, 8), x, 3)[0])
    return clone_delta_exact(x0, n if k == 2 else min(n, 8), x) >= rr


SMALL_RANDOM = Generated(draw_small, 25, "random exact instances: x0 = e^eps0 in [1.1, 6] "
                         "(tenths), x = e^eps on a 1/20 grid of [1, x0], n in 2..14 (k = 3: n "
                         "<= 8), k in {2, 3}")


# ------------------------------------------------------------------------------------------
# SMT: the threshold form and delta(eps0) = 0, from the same coefficient code


def threshold_problem() -> SmtProblem:
    """``P_c(a) - x Q_c(a) >= 0 <=> a <= beta (c + 1)`` for real ``0 <= a <= c + 1``, where (for
    ``1 <= a <= c``) ``P_c(a) - x Q_c(a) = (b_c(a)/(c + 1 - a)) (alpha (c + 1 - a) + gamma a)``
    since ``b_c(a - 1)/b_c(a) = a/(c + 1 - a)``; alpha, gamma, beta from the product's
    :func:`clone_coefficients`."""
    import sympy as sp

    x0, x, a, c = sp.symbols("x0 x a c", real=True)
    alpha, gamma, beta = clone_coefficients(x0, x)
    sign = alpha * (c + 1 - a) + gamma * a
    below = sp.Le(a, beta * (c + 1))
    goal = sp.And(sp.Or(sp.Not(sp.Ge(sign, 0)), below), sp.Or(sp.Not(below), sp.Ge(sign, 0)))
    hyps = (sp.Gt(x0, 1), sp.Ge(x, 1), sp.Le(x, x0), sp.Ge(c, 0), sp.Ge(a, 0), sp.Le(a, c + 1))
    return SmtProblem({"x0": "real", "x": "real", "a": "real", "c": "real"}, hyps, goal,
                      ("x0 = e^eps0", "x = e^eps", "a, c relaxed to reals"))


def zero_beyond_problem() -> SmtProblem:
    """Every term ``alpha b_c(a) + gamma b_c(a - 1)`` is <= 0 once ``x >= x0`` (b's >= 0)."""
    import sympy as sp

    x0, x, b1, b0 = sp.symbols("x0 x b1 b0", real=True)
    alpha, gamma, _ = clone_coefficients(x0, x)
    hyps = (sp.Gt(x0, 1), sp.Ge(x, x0), sp.Ge(b1, 0), sp.Ge(b0, 0))
    return SmtProblem({"x0": "real", "x": "real", "b1": "real", "b0": "real"}, hyps,
                      sp.Le(alpha * b1 + gamma * b0, 0),
                      ("x0 = e^eps0", "x = e^eps", "b1 = b_c(a), b0 = b_c(a-1)"))


RR_SMT_MAX_N = 4  # n = 5 does not close within 30 s (z3 nlsat, measured)


def rr_below_local_problem(n: int) -> SmtProblem:
    """Every ``H_x(P_m || Q_m)`` of the binary m-formula (:func:`rr_binary_profile`, evaluated
    on sympy symbols, ``pos`` as ``Max(., 0)``) is ``<= (x0 - x)/(x0 + 1)`` for every real
    ``x0 > 1``, ``1 <= x <= x0``, at this n."""
    import sympy as sp

    x0, x = sp.symbols("x0 x", real=True)
    profile = rr_binary_profile(x0, n, x, lambda t: sp.Max(sp.together(t), 0), sp.Integer(1))
    local = (x0 - x) / (x0 + 1)
    return SmtProblem({"x0": "real", "x": "real"}, (sp.Gt(x0, 1), sp.Ge(x, 1), sp.Le(x, x0)),
                      sp.And(*(sp.Le(h, local) for h in profile)),
                      ("x0 = e^eps0", "x = e^eps", f"n = {n}"))


def shift_n(term: Any) -> Any:
    @exact_params("eps0", "eps")
    def shifted(ctx: Any, n: int, **kw: Any) -> Any:
        return term(ctx, n=n + 1, **kw)

    return shifted


def half_eps(term: Any) -> Any:
    @exact_params("eps0", "eps")
    def shifted(ctx: Any, eps0: Any, eps: Any, **kw: Any) -> Any:
        return term(ctx, eps0=eps0, eps=(eps + eps0) / 2, **kw)

    return shifted


def round_trip(delta_name: str, eps_name: str) -> Any:
    """``eps(eps0, n, delta(eps0, n, s eps0))`` with the delta ball's exact midpoint as the
    target (the point carries ``s`` in (0, 1) instead of eps)."""
    delta_term, eps_term = term(delta_name), term(eps_name)

    @exact_params("eps0", "s")
    def back(ctx: Any, eps0: Any, n: int, s: Any, **kw: Any) -> Any:
        d = delta_term(ctx, eps0=eps0, n=n, eps=s * eps0, **kw)
        return eps_term(ctx, eps0=eps0, n=n, delta=fraction_mid(d), **kw)

    return back


def s_eps(ctx: Any, eps0: Any, s: Any, **_: Any) -> Any:
    return s * eps0


def fraction_mid(x: Any) -> Fraction:
    from dpverify.theorems.ctx.arb import arb_to_fraction

    if hasattr(x, "mid"):
        return arb_to_fraction(x.mid())
    return Fraction(str(x))


def eps_value_checks(eps0: str, n: int, delta: str, value: str,
                      *intervals: tuple[str, str]) -> tuple[Compare, ...]:
    """FMT21-NUM.eps at one point: equal to the catalogue value (1e-15) and inside each
    interval."""
    pt = Points(({"eps0": eps0, "n": n, "delta": delta},))
    checks = [Compare(FMT21_EPS, "eq", const(value), pt, "numeric", Tol.abs("1e-15"),
                      "FMT21-NUM.eps", value)]
    for lo, hi in intervals:
        checks += [Compare(FMT21_EPS, "ge", const(lo), pt, "numeric", None, "FMT21-NUM.eps", lo),
                   Compare(FMT21_EPS, "le", const(hi), pt, "numeric", None, "FMT21-NUM.eps", hi)]
    return tuple(checks)


def value_table(values: dict[tuple[str, int, str, int], str]) -> Any:
    """A term returning the catalogue's value at the point ``(eps0, n, eps, k)``."""

    @exact_params("eps0", "eps")
    def term(ctx: Any, eps0: Any, n: int, eps: Any, k: int = 2, **_: Any) -> Any:
        for (e0, nn, e, kk), v in values.items():
            if (Fraction(e0), nn, Fraction(e), kk) == (Fraction(eps0), n, Fraction(eps), k):
                return ctx.num(v)
        raise KeyError("no catalogue value at this point")

    return term


def pts(rows: dict[tuple[str, int, str, int], Any]) -> Points:
    """The points ``(eps0, n, eps, k)`` of a table of catalogue rows."""
    return Points(tuple({"eps0": e0, "n": n, "eps": e, "k": k} for e0, n, e, k in rows))


def column(rows: dict[tuple[str, int, str, int], tuple[Any, ...]], i: int) -> Any:
    """The term of column i of a table of catalogue rows."""
    return value_table({key: row[i] for key, row in rows.items()})


@exact_params("eps0", "eps")
def worst_m_is(ctx: Any, eps0: Any, n: int, eps: Any, m: int, **_: Any) -> bool | None:
    """The two-order value ``T(i) = max(H(P_i || Q_i), H(Q_i || P_i)) = max(prof[i],
    prof[n-1-i])`` is largest at m (and at its mirror n - 1 - m, the same pair reversed): every
    other i is certified strictly below."""
    x0, x = ctx.exp(ctx.num(eps0)), ctx.exp(ctx.num(eps))
    poly = "arb" if ctx.name == "arb" else "list"
    prof = rr_binary_profile(x0, n, x, ctx.pos, ctx.one, poly=poly)
    two = [ctx.max(prof[i], prof[n - 1 - i]) for i in range(n)]
    for i, value in enumerate(two):
        if i not in (m, n - 1 - m):
            below = ctx.lt(value, two[m])
            if below is not True:
                return below
    return True


@exact_params("eps0", "eps")
def worst_c_is(ctx: Any, eps0: Any, n: int, eps: Any, k: int, c: tuple[int, ...],
                **_: Any) -> bool | None:
    """The enumeration's maximum is at c (in canonical form: the values 0, 1 and the values
    2..k-1 each sorted decreasingly): every other canonical count vector is certified below."""
    canonical = tuple(sorted(c[:2], reverse=True)) + tuple(sorted(c[2:], reverse=True))
    x0, x = ctx.exp(ctx.num(eps0)), ctx.exp(ctx.num(eps))
    values = dict(rr_kary_values(x0, n, x, k, ctx.pos, ctx.max, ctx.one))
    for other, value in values.items():
        if other != canonical:
            below = ctx.lt(value, values[canonical])
            if below is not True:
                return below
    return True


