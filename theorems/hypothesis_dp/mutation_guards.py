"""Claim terms added after the formula-mutation harness (``bench/mutation.py``, seed 2) found
survivors in the evaluators this family's theorems rest on:

- the MV-OPT inverse ``formulas.kov_mv.mv_eps`` (GCE-D4's ``e*``) was only used one-sidedly:
  with its bisection started at 1 instead of 0 it returns 1 for every answer below 1, and no
  check compared it with the forward evaluator. :func:`mv_round_trip` is ``MV-OPT.eps(eps_I,
  MV-OPT.delta_pure(eps_I, e))`` (``e`` for every ``e`` below ``sum eps_I``: delta_pure is
  strictly decreasing there, so the least eps with ``delta_pure <= delta`` is ``e``);
- the binomial-law engine ``numerics.binomial`` (KOV-EPS, hence GCE-PARCMP's eps, sums the
  law of the count with it) walked down from the mode with a wrong ratio unseen, because the
  checks only ever compared its results one-sidedly or where the walk goes up. :func:
  `engine_sum` / :func:`direct_sum` and :func:`engine_suffix` / :func:`direct_suffix` compare
  it with the sums taken term by term from the binomial coefficients (no mode, no ratios, no
  truncation): ``sum_{i=lo}^{hi} P(i) w(i)`` with ``P(i) = C(k, i) e^{i eps0}/(1 + e^eps0)^k``
  ([KOV] arXiv 1311.0776v4, Thm 3.3: the count of eps0-RR outputs that favour the first
  hypothesis) and the suffix sums ``A_j = sum_{i>=j} P(i)``, ``B_j = sum_{i>=j} P(i)
  e^{-eps0 (2i - k)}`` of KOV-EPS.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box
from dpverify.theorems.formulas.kov_mv import mv_delta_pure, mv_eps
from dpverify.theorems.numerics.binomial import binomial_sum, suffix_sums
from dpverify.theorems.values import exact_params

Instance = Callable[[int, int], tuple[Fraction, ...]]


def mv_round_trip(instance: Instance) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``(MV-OPT.eps(L, MV-OPT.delta_pure(L, t sum(L))), t sum(L))`` as two claim terms, for
    the eps list ``L = instance(seed, s)``."""

    @exact_params("seed")
    def there_and_back(ctx: Any, seed: int, s: int, t: Any, **_: Any) -> Any:
        eps_list = instance(int(seed), s)
        return mv_eps(ctx, eps_list, mv_delta_pure(ctx, eps_list, t * ctx.num(sum(eps_list))))

    @exact_params("seed")
    def target(ctx: Any, seed: int, s: int, t: Any, **_: Any) -> Any:
        return t * ctx.num(sum(instance(int(seed), s)))

    return there_and_back, target


MV_ROUND_TRIP_BOX = Box(ints={"seed": (0, 10**9), "s": (1, 5)}, reals={"t": ("0", "0.95")})


def _range(k: int, lo: int, hi: int) -> tuple[int, int]:
    """``lo`` and ``hi`` clamped to ``0 <= lo <= hi <= k``."""
    lo = min(lo, k)
    return lo, min(max(hi, lo), k)


def _pmf(ctx: Any, eps0: Any, k: int, i: int) -> Any:
    return ctx.binomial(k, i) * ctx.exp(i * eps0) / ctx.pow(1 + ctx.exp(eps0), k)


def _weight(ctx: Any, k: int, i: int) -> Any:
    return ctx.num(Fraction(i + 1, k + 1))


def engine_sum(ctx: Any, eps0: Any, k: int, lo: int, hi: int, **_: Any) -> Any:
    """``numerics.binomial.binomial_sum`` over ``[lo, hi]`` with weights ``(i + 1)/(k + 1)``."""
    lo, hi = _range(k, lo, hi)
    return binomial_sum(ctx, eps0, k, lo, hi, lambda i: _weight(ctx, k, i))


def direct_sum(ctx: Any, eps0: Any, k: int, lo: int, hi: int, **_: Any) -> Any:
    lo, hi = _range(k, lo, hi)
    return ctx.fsum(_pmf(ctx, eps0, k, i) * _weight(ctx, k, i) for i in range(lo, hi + 1))


def engine_suffix(ctx: Any, eps0: Any, k: int, lo: int, hi: int, which: str = "A",
                  **_: Any) -> Any:
    """``sum_{j=lo}^{hi}`` of ``A_j`` (``which = "A"``) or ``B_j`` of ``suffix_sums``."""
    lo, hi = _range(k, lo, hi)
    big_a, big_b = suffix_sums(ctx, eps0, k, lo, hi)
    return ctx.fsum(big_a if which == "A" else big_b)


def direct_suffix(ctx: Any, eps0: Any, k: int, lo: int, hi: int, which: str = "A",
                  **_: Any) -> Any:
    lo, hi = _range(k, lo, hi)
    terms = [_pmf(ctx, eps0, k, i) * (ctx.one if which == "A" else ctx.exp(-(2 * i - k) * eps0))
             for i in range(k + 1)]
    return ctx.fsum(ctx.fsum(terms[j:]) for j in range(lo, hi + 1))


ENGINE_BOX = Box(reals={"eps0": ("0.01", "5")}, ints={"k": (1, 150), "lo": (0, 150),
                                                      "hi": (0, 150)},
                 log_scale=frozenset({"eps0"}))
