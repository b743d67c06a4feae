"""Claim terms that pin down engine internals the other shuffle claims only see through a
maximum (added after the formula-mutation harness, ``bench/mutation.py``, found survivors).

- :func:`count_vectors_are_canonical`: :func:`numerics.shuffle.count_vectors` yields each
  canonical count vector (``c_0 >= c_1``, ``c_2 >= c_3 >= ... >= c_{k-1}``, sum ``total``)
  exactly once and nothing else, against a brute-force filter of all compositions of ``total``
  into k parts (stars and bars). A generator that also yields non-canonical vectors leaves the
  maximum over count vectors unchanged (the values repeat under the symmetries) and only costs
  time, so the value claims cannot see it.
- :func:`dg_mp_route_gap`: the non-rigorous (mpmath) route of the discrete Gaussian normalizer
  and variance, which drops the truncated tail instead of enclosing it, agrees with the arb
  enclosure to ``2^-240`` relative (at 256 bits the tails it drops are below ``2^-296``). The
  arb claims cannot see a cut-off that is too small (the rigorous tail bound absorbs it into a
  wider ball); the dropped tail of the mp route can.
- :func:`gauss_tail_sandwich`: the tail bound of :mod:`formulas.lattice_sums` against the
  directly summed terms: ``S_N <= f(M)/(1 - r) <= S_N/(1 - r)`` with ``S_N = sum_{j<N} f(M +
  j)`` (a lower bound on the tail; it contains ``f(M)``) and ``r`` recomputed here. A bound too
  large only widens the arb balls (their claims turn undecided), one too small makes them wrong
  by less than their tolerances; the sandwich sees both.
- :func:`binomial_tail_sandwich`: the same for the geometric bound on the binomial mass below
  the window of FMT21-NUM (``formulas.shuffle_exact._geometric_tail``): ``S <= B(c0) r/(1 - r)
  <= S/(1 - r)``, ``S = sum_{c < c0} B(c)`` summed directly, ``B = Bin(n - 1, e^-eps0)``,
  ``r = B(c0 - 1)/B(c0) < 1``.
- :func:`binomial_window_leftover`: the window ``[c_lo, c_hi]`` of FMT21-NUM leaves out at most
  ``2^-(bits + 30)`` of the mass of ``Bin(n - 1, e^-eps0)`` (the omitted pmf summed directly in
  arb); a window too narrow leaves a ball that no precision narrows (undecided, not wrong).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Points
from dpverify.theorems.ctx import MpCtx
from dpverify.theorems.formulas.discrete_gaussian import dg_normalizer_direct, dg_variance_direct
from dpverify.theorems.formulas.lattice_sums import gauss_lattice_tail
from dpverify.theorems.formulas.shuffle_exact import _geometric_tail, _window
from dpverify.theorems.numerics.shuffle import count_vectors
from dpverify.theorems.values import exact_params

COUNT_VECTORS_MAX_K, COUNT_VECTORS_MAX_TOTAL = 6, 10
# the claim's whole finite domain
COUNT_VECTORS_DOMAIN = Points(tuple({"k": k, "total": t}
                                    for k in range(2, COUNT_VECTORS_MAX_K + 1)
                                    for t in range(COUNT_VECTORS_MAX_TOTAL + 1)),
                              covers_domain=True)


def _compositions(k: int, total: int) -> Iterator[tuple[int, ...]]:
    """Every ``c`` in N^k with sum ``total``: bars at ``k - 1`` of ``total + k - 1`` places."""
    for bars in itertools.combinations(range(total + k - 1), k - 1):
        ends = (-1, *bars, total + k - 1)
        yield tuple(ends[i + 1] - ends[i] - 1 for i in range(k))


def _canonical(c: tuple[int, ...]) -> bool:
    return c[0] >= c[1] and all(c[i] >= c[i + 1] for i in range(2, len(c) - 1))


def count_vectors_are_canonical(ctx: Any, k: int, total: int, **_: Any) -> bool:
    """``count_vectors(k, total)``, as a multiset, equals the canonical compositions."""
    got = Counter(count_vectors(k, total))
    return got == Counter(c for c in _compositions(k, total) if _canonical(c))


# rounding at 256 bits: about 2^-256 relative (measured), 2^-247 at worst for 660 terms
MP_ROUTE_BITS, MP_ROUTE_TOL = 256, Fraction(1, 2**240)
DG_MP_BOX = Box(reals={"v": ("1/20", "1000")}, log_scale=frozenset({"v"}))


# the mp values of dg_mp_route_gap by exact v: they do not depend on the precision of ctx, which
# the verifier raises (~3 evaluations a point) until the comparison at 2^-240 is decided
_MP_ROUTE_VALUES: dict[Fraction, tuple[Fraction, Fraction]] = {}
_MP_ROUTE_ENTRIES = 256


def _mp_route_values(v: Fraction) -> tuple[Fraction, Fraction]:
    """The exact values of the mp results of ``Z(v)`` and ``Var(v)`` at :data:`MP_ROUTE_BITS`."""
    out = _MP_ROUTE_VALUES.get(v)
    if out is None:
        mp = MpCtx(MP_ROUTE_BITS)
        values = []
        for series in (dg_normalizer_direct, dg_variance_direct):
            man, exp = series(mp, mp.num(v)).man_exp
            values.append(Fraction(int(man)) * Fraction(2) ** int(exp))
        if len(_MP_ROUTE_VALUES) >= _MP_ROUTE_ENTRIES:
            _MP_ROUTE_VALUES.clear()
        out = _MP_ROUTE_VALUES[v] = (values[0], values[1])
    return out


@exact_params("v")
def dg_mp_route_gap(ctx: Any, v: Fraction, **_: Any) -> Any:
    """The larger relative gap ``|mp - arb|/arb`` of ``Z(v)`` and ``Var(v)`` (direct series),
    the mp values at :data:`MP_ROUTE_BITS` bits, read exactly into ``ctx``."""
    gaps = []
    for series, mp_value in zip((dg_normalizer_direct, dg_variance_direct),
                                _mp_route_values(v), strict=True):
        exact = ctx.num(mp_value)
        rigorous = series(ctx, ctx.num(v))
        gaps.append(abs(exact - rigorous) / rigorous)
    return ctx.max(*gaps)


TAIL_TERMS = 40
TAIL_BOX = Box(reals={"v": ("1", "1000")}, ints={"k2": (0, 1), "extra": (0, 20)},
               log_scale=frozenset({"v"}))


@exact_params("v")
def gauss_tail_sandwich(ctx: Any, v: Fraction, k2: int, extra: int, **_: Any) -> Any:
    """``min(bound - S_N, S_N/(1 - r) - bound)/S_N`` (>= 0 when the bound is right) for ``f(u)
    = u^k e^{-u^2/(2v)}``, ``k = 2 k2``, at the cut-off ``M = isqrt(ceil(k v)) + 1 + extra``
    (so ``M >= 1``, ``M^2 >= k v``)."""
    k = 2 * k2
    m = math.isqrt(math.ceil(k * v)) + 1 + extra
    vv = ctx.num(v)
    bound = gauss_lattice_tail(ctx, vv, m, k)
    partial = ctx.fsum(ctx.num(u) ** k * ctx.exp(-ctx.num(u * u) / (2 * vv))
                       for u in range(m, m + TAIL_TERMS))
    r = (1 + 1 / ctx.num(m)) ** k * ctx.exp(-ctx.num(2 * m + 1) / (2 * vv))
    return ctx.min(bound - partial, partial / (1 - r) - bound) / partial


BINOMIAL_TAIL_BOX = Box(reals={"eps0": ("1/5", "3"), "at": ("1/10", "9/10")},
                        ints={"n": (20, 400)})


@exact_params("eps0", "at")
def binomial_tail_sandwich(ctx: Any, eps0: Fraction, n: int, at: Fraction, **_: Any) -> Any:
    """``min(bound - S, S/(1 - r) - bound)/S`` (> 0 when the bound is right: S has at least
    two terms) at ``c0 = 2 + floor(at (mode - 2))``, below the mode ``floor(n e^-eps0)`` of
    ``Bin(n - 1, e^-eps0)``; ``n`` is raised until the mode is at least 3."""
    p = ctx.exp(-ctx.num(eps0))
    n = max(n, math.ceil(4 * math.exp(float(eps0))))  # mode >= 3
    mode = math.floor(n * math.exp(-float(eps0)))
    c0 = 2 + math.floor(at * (mode - 2))
    mass = [ctx.num(math.comb(n - 1, c)) * p**c * (1 - p) ** (n - 1 - c) for c in range(c0 + 1)]
    below = ctx.fsum(mass[:c0])
    r = mass[c0 - 1] / mass[c0]
    bound = _geometric_tail(ctx, mass[c0], r)
    return ctx.min(bound - below, below / (1 - r) - bound) / below


WINDOW_BITS = 200
WINDOW_BOX = Box(reals={"eps0": ("1/5", "3")}, ints={"n": (2, 400)})


@exact_params("eps0")
def binomial_window_leftover(ctx: Any, eps0: Fraction, n: int, **_: Any) -> Any:
    """``2^(bits + 30)`` times the mass of ``Bin(n - 1, e^-eps0)`` outside ``_window(n, eps0,
    bits)`` at ``bits = WINDOW_BITS`` (at most 1 when the window is right)."""
    c_lo, c_hi = _window(n, float(eps0), WINDOW_BITS)
    p = ctx.exp(-ctx.num(eps0))
    left_out = [c for c in range(n) if c < c_lo or c > c_hi]
    mass = ctx.fsum(ctx.num(math.comb(n - 1, c)) * p**c * (1 - p) ** (n - 1 - c)
                    for c in left_out) if left_out else ctx.zero
    return mass * ctx.num(2 ** (WINDOW_BITS + 30))
