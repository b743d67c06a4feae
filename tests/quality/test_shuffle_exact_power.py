"""Tester's power on FMT21-NUM and SHUFFLE-RR-EXACT: planted wrong shuffle formulas must come
out ``failed`` (certified counterexample) on the regions and routes the registered claims use,
while the correct formulas are proved, certified or pass there.

Planted:
- the clone-pair threshold with ``(x0 + 1)`` for ``(x0 - 1)`` in beta (the walk sums the wrong
  terms), against the exact double sum on the finite domain of FMT21-NUM claim 6;
- the clone-pair binomial weights stepped with ``p`` instead of ``p/(1 - p)``, same check;
- binary shuffled RR with the others' law ``(w z + 1 - w)^(n-1)`` whatever m (the m holders
  of 1 treated as holders of 0), against the two-order enumeration (SHUFFLE-RR-EXACT claim 6);
- a universal shuffle bound that drops the log(1/delta) factor (``eps = eps0/sqrt(n)``),
  against the exact shuffled-RR oracle: its delta at that eps exceeds the target (the sound
  FMT21-NUM.eps passes the same check).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from dpverify.theorems.claims import Check, Compare, Points, Predicate
from dpverify.theorems.ctx.arb import arb_endpoints
from dpverify.theorems.formulas.shuffle_exact import (
    clone_delta_double_sum_exact,
    clone_delta_exact,
    fmt21_num_eps,
    rr_kary_delta_exact,
    shuffle_rr_delta,
)
from dpverify.theorems.numerics.shuffle import clone_coefficients, clone_start_exact, clone_walk
from dpverify.theorems.shuffle_discrete.exact_checks import PAIR_POINTS
from dpverify.theorems.values import exact_params
from dpverify.verifiers.verdict import Status
from tests.common.planted import planted_verdict


def _run(check: Check) -> Status:
    return planted_verdict(check, "shuffle_discrete").status


def _pos(v: Fraction) -> Fraction:
    return max(v, Fraction(0))


def clone_wrong_beta(x0: Fraction, n: int, x: Fraction) -> Fraction:
    if x >= x0:
        return Fraction(0)
    alpha, gamma, _ = clone_coefficients(x0, x)
    beta = (x0 - x) / ((x0 + 1) * (1 + x))
    return clone_walk(alpha, gamma, beta, n, 1 / (x0 - 1), clone_start_exact(x0, n), n - 1,
                      _pos)[0]


def clone_wrong_weights(x0: Fraction, n: int, x: Fraction) -> Fraction:
    if x >= x0:
        return Fraction(0)
    alpha, gamma, beta = clone_coefficients(x0, x)
    return clone_walk(alpha, gamma, beta, n, 1 / x0, clone_start_exact(x0, n), n - 1, _pos)[0]


def rr_binary_wrong(x0: Fraction, n: int, x: Fraction) -> Fraction:
    w = x0 / (x0 + 1)
    v = 1 - w
    coeffs = [Fraction(1)]
    for _ in range(n - 1):
        coeffs = [a + b for a, b in zip([v * c for c in coeffs] + [Fraction(0)],
                                        [Fraction(0)] + [w * c for c in coeffs], strict=True)]
    alpha, gamma = w - x * v, v - x * w
    padded = [Fraction(0), *coeffs, Fraction(0)]
    return sum((_pos(alpha * padded[j + 1] + gamma * padded[j]) for j in range(n + 1)),
               Fraction(0))


def _recurrence_vs_double_sum(walk: Any) -> Any:
    @exact_params("x0", "x")
    def test(ctx: Any, x0: Fraction, x: Fraction, **_: Any) -> bool:
        return all(walk(x0, n, x) == clone_delta_double_sum_exact(x0, n, x)
                   for n in range(1, 13))

    return test


def _binary_vs_enumeration(binary: Any) -> Any:
    @exact_params("x0", "x")
    def test(ctx: Any, x0: Fraction, x: Fraction, **_: Any) -> bool:
        return all(binary(x0, n, x) == rr_kary_delta_exact(x0, n, x, 2)[0]
                   for n in range(1, 11))

    return test


def _right_binary(x0: Fraction, n: int, x: Fraction) -> Fraction:
    from dpverify.theorems.formulas.shuffle_exact import rr_binary_delta_exact

    return rr_binary_delta_exact(x0, n, x)[0]


def _oracle_at_bound(wrong: bool) -> Any:
    """The exact shuffled-RR delta at a universal bound's eps (the upper end of its ball, so
    that a sound bound passes): the right bound is FMT21-NUM.eps, the wrong one drops the
    log(1/delta) factor, ``eps = eps0/sqrt(n)``."""

    @exact_params("eps0", "delta")
    def term(ctx: Any, eps0: Any, n: int, delta: Any, **_: Any) -> Any:
        e = (ctx.num(eps0) / ctx.sqrt(ctx.num(n)) if wrong
             else fmt21_num_eps(ctx, Fraction(eps0), n, Fraction(delta)))
        hi = arb_endpoints(e)[1] if ctx.name == "arb" else Fraction(str(e))
        return shuffle_rr_delta(ctx, Fraction(eps0), n, min(hi, Fraction(eps0)))

    return term


BOUND_POINTS = Points(({"eps0": "1", "n": 100, "delta": "1e-6"},
                       {"eps0": "0.5", "n": 200, "delta": "1e-8"}))


def _cases(right: bool) -> list[Check]:
    return [
        Predicate(_recurrence_vs_double_sum(clone_delta_exact if right else clone_wrong_beta),
                  PAIR_POINTS, "oracle", "recurrence == double sum"),
        Predicate(_recurrence_vs_double_sum(clone_delta_exact if right
                                            else clone_wrong_weights),
                  PAIR_POINTS, "oracle", "recurrence == double sum"),
        Predicate(_binary_vs_enumeration(_right_binary if right else rr_binary_wrong),
                  PAIR_POINTS, "oracle", "m-formula == enumeration"),
        Compare(_oracle_at_bound(not right), "le", lambda ctx, delta, **_: delta, BOUND_POINTS,
                "oracle", lhs_name="exact shuffled RR delta at the bound's eps",
                rhs_name="delta"),
    ]


NAMES = ["clone_beta_x0_plus_1", "clone_weights_p", "rr_binary_ignores_m",
         "bound_without_log_factor"]


@pytest.mark.parametrize("i", range(len(NAMES)), ids=NAMES)
def test_planted_wrong_formula_is_caught(i: int) -> None:
    assert _run(_cases(False)[i]) is Status.FAILED


@pytest.mark.parametrize("i", range(len(NAMES)), ids=NAMES)
def test_correct_formula_is_not_refuted(i: int) -> None:
    assert _run(_cases(True)[i]) in (Status.CERTIFIED, Status.PASSED, Status.PROVED)
