"""Power of the cost-tilt tests (tests/test_pld_fourier_cost.py): planted faults in
theorems/numerics/pld/fourier_cost.py and in the window of theorems/numerics/pld/fourier.py at
the cost tilt must make their checks fail.

- the aliased tail of the cost tilt's (halved) window not counted (the rigorous Chernoff tails
  set to 0, ``TAIL`` 1/2 so that the locator's window stays short): the wrapped-around mass
  puts the lower bound above the exact value;
- the check after composing skipped (``within_budget`` always true) with a wrong prediction
  (0): the composition then carries an error over its budget, which the budget check of the
  test reports.

Not detectable by comparison, measured: the blocked locator without Bennett's term on blocks
of 4 standard deviations (``BLOCK_SPREAD`` 1/4) together with the rigorous tails set to 0
leaves the lower bounds on the right side at 2.5 .. 3.5: the window it places holds all but
a mass far below the query's error terms; only the rigorous tails (:meth:`.fourier_window._Chernoff
.tail`, planted above) vouch for a window.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import flint
import pytest

from dpverify.theorems.numerics.pld import fourier, fourier_cost, fourier_window
from tests.test_pld_fourier_cost import EPS, H, _composition, _ones, exact_composition


@pytest.fixture(autouse=True)
def _small_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fourier_cost, "MIN_WINDOW", 1 << 10)


def check_lower_side(kind: str = "lower") -> None:
    """The composition at the cost tilt is on the right side of the exact one at 2.5 .. 3.5."""
    ones = _ones(kind)
    exact = exact_composition(ones)
    delta = float(exact.delta_at(Fraction(EPS)).mid())
    lam_s = fourier.fourier_tilt(_ones("upper"), EPS)
    lam = fourier_cost.cost_tilt(_ones("upper"), lam_s, EPS, delta, 1e-3)
    assert lam < lam_s
    four = fourier.compose_fourier(ones, lam)
    for e in ("2.5", "3", "3.5"):
        got, ex = four.delta_bound(Fraction(e)), exact.delta_at(Fraction(e))
        if kind == "upper":
            assert got.upper() >= ex.upper(), e
        else:
            assert got.lower() <= ex.lower(), e


def test_unplanted_checks_pass() -> None:
    check_lower_side("lower")
    check_lower_side("upper")
    got = _composition(1e-3)
    lam_s = fourier.fourier_tilt(_ones("upper"), EPS)
    assert fourier_cost.relative_error(got, EPS) <= fourier_cost.allowed_error(lam_s, EPS, 1e-3)


def test_uncounted_aliased_tail_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fourier_window._Chernoff, "tail", lambda *_a, **_k: flint.arb(0))
    monkeypatch.setattr(fourier_window, "TAIL", 0.5)
    with pytest.raises(AssertionError):
        check_lower_side("lower")


def test_skipped_check_after_composing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fourier_cost, "predicted_error", lambda *_a, **_k: 0.0)
    monkeypatch.setattr(fourier_cost, "TILT_BUDGET", 1e-12)
    from dpverify.theorems.numerics.pld import composition

    monkeypatch.setattr(composition, "within_budget", lambda *_a, **_k: True)
    got = _composition(1e-3)
    lam_s = fourier.fourier_tilt(_ones("upper"), EPS)
    with pytest.raises(AssertionError):
        assert fourier_cost.relative_error(got, EPS) <= fourier_cost.allowed_error(
            lam_s, EPS, 1e-3)
    assert got.lam_h != lam_s * H


def test_blocked_saddle_test_catches_blocks_at_their_midpoints(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the probes take each block at its midpoint instead of its centroid, without
    its spread (``c_B - w / 2``, ``v_B = 0``): the blocked saddle then misses the entries' by
    more than the test's one unit in 8 bits on at least one case. (Dropping only the spread,
    ``v_B = 0``, is not detectable at 8 bits: ``lam h v_B`` moves a centroid by ~1e-3 of a
    block, measured.)"""
    from tests.test_pld_fourier_cost import SADDLE_CASES, check_blocked_saddle

    real = fourier_cost.probe

    def planted(parts, h, lam):  # type: ignore[no-untyped-def]
        flat = [dataclasses.replace(p, c=p.c - p.w / 2, v=p.v * 0.0) for p in parts]
        got = real(flat, h, lam)
        return got

    monkeypatch.setattr(fourier_cost, "probe", planted)
    failed = 0
    for pair, center in SADDLE_CASES:
        try:
            check_blocked_saddle(pair, center)
        except AssertionError:
            failed += 1
    assert failed > 0


def test_skipped_check_with_a_budget_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: with the driver's budget, the check after composing skipped (always true)
    and the predictions 0: the quarter window's composition then carries an error over the
    budget, which tests/test_pld_fourier_cost.py's budget test reports."""
    from dpverify.theorems.numerics.pld import composition
    from tests.test_pld_fourier_cost import test_a_budgeted_composition_stays_within_its_budget

    test_a_budgeted_composition_stays_within_its_budget()  # unplanted: passes
    monkeypatch.setattr(fourier_cost, "predicted_error", lambda *_a, **_k: 0.0)
    monkeypatch.setattr(composition, "within_budget", lambda *_a, **_k: True)
    with pytest.raises(AssertionError):
        test_a_budgeted_composition_stays_within_its_budget()
