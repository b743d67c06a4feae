"""Tester's power on the per-direction steps of a PLD pass (theorems/numerics/pld/passes.py,
``_max_over_directions`` with cheaper upper ends): planted wrong combinations must be flagged by
the check used in tests/test_pld_enclose_directions.py (a pass with coarse directions against
the all-fine pass at the same step: both are rigorous, so they must intersect, and deciding a
dominated direction early must not widen the pass), which the correct code passes on the same
cases.

Planted:
- the pass's upper end taken over the directions computed first only (a held direction refined
  at h is left out of the maximum: unsound when the held direction is the dominant one);
- every held direction decided at its coarse step without comparing its upper end there with
  the pass's lower end (its lower end is skipped although it could raise the maximum: the
  pass widens; still rigorous, and caught).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import passes

DELTA = Fraction(1, 10**5)
ABS_TOL = 1e-5 * 2.0**-24
H, COARSE = Fraction(1, 128), Fraction(1, 64)
HELD = [{1: COARSE}, {0: COARSE}, {0: COARSE, 1: COARSE}]  # right, wrong and both guessed


def _violations() -> int:
    directions = pld.sgm_composition([(Fraction(1, 100), Fraction(1), 200)])
    fine = passes._eps_pass_parts(directions, DELTA, H, ABS_TOL, False, "fourier")
    bad = 0
    for held in HELD:
        lo, hi = passes._eps_pass_parts(directions, DELTA, H, ABS_TOL, False, "fourier",
                                        coarse=held)
        if hi < fine[0] or lo > fine[1]:  # two rigorous enclosures that do not meet
            bad += 1
        elif held == {1: COARSE} and (lo, hi) != fine:  # a dominated direction held: same pass
            bad += 1
        elif hi - lo > 2 * (fine[1] - fine[0]):  # a wrong guess may cost time, not width
            bad += 1
    return bad


ORIGINAL = passes._max_over_directions


def _upper_over_first_only(n, upper, lower, zero, early=None):
    lo, _hi, ends, decided = ORIGINAL(n, upper, lower, zero, early)
    first = [ends[d] for d in range(n) if d not in (early or {})]
    return lo, max(zero, *first) if first else zero, ends, decided


def _early_without_the_check(n, upper, lower, zero, early=None):
    early = early or {}
    first = [d for d in range(n) if d not in early]
    his = {d: upper(d) for d in first}
    lo = zero
    for d in sorted(first, key=lambda i: his[i], reverse=True):
        if his[d] > lo:
            lo = max(lo, lower(d))
    for d in sorted(early):
        his[d] = early[d]()  # planted: no comparison with lo, the direction is never refined
    ends = [his[d] for d in range(n)]
    return lo, max(zero, *ends), ends, set(early)


def test_correct_combination_passes() -> None:
    pld._CACHE.clear()
    assert _violations() == 0


@pytest.mark.parametrize("planted", [_upper_over_first_only, _early_without_the_check])
def test_planted_combination_is_caught(monkeypatch: pytest.MonkeyPatch, planted) -> None:
    pld._CACHE.clear()
    monkeypatch.setattr(passes, "_max_over_directions", planted)
    assert _violations() > 0
