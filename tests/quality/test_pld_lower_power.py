"""Tester's power on the vectorised lower one-step PLD (theorems/numerics/pld/lower.py): planted
wrong constructions must be flagged by the exact arb re-check of tests/test_pld_lower.py, which
passes the correct one on the same pairs and grids.

Planted:
- a bin's own share without the fraction lent to the atom below (``1 - g_{j+1}`` instead of
  ``1 - f_{j-1} - g_{j+1}``: outcomes counted twice);
- deficit bins emitted at their target without borrowing from the bin above (their loss is
  below their grid point).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import lower
from tests.test_pld_lower import _plans, violations

CASES = [(pld.SubsampledGaussian(Fraction(256, 60000), Fraction(11, 10), "add"), Fraction(1, 256)),
         (pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "remove"), Fraction(1, 128))]


def _share_without_loan(f: np.ndarray, g: np.ndarray) -> np.ndarray:
    return np.maximum(lower.down(1.0 - lower._shifted(g, 1)), 0.0)


def _total_violations(monkeypatch: pytest.MonkeyPatch) -> int:
    total = 0
    for pair, h in CASES:
        for plan, ilo in _plans(monkeypatch, pair, h):
            total += len(violations(pair, h, plan, ilo))
    return total


def test_correct_construction_passes(monkeypatch) -> None:
    assert _total_violations(monkeypatch) == 0


def test_double_counted_share_is_caught(monkeypatch) -> None:
    monkeypatch.setattr(lower, "_share", _share_without_loan)
    assert _total_violations(monkeypatch) > 0


def test_missing_borrowing_is_caught(monkeypatch) -> None:
    original = lower._borrowing

    def planted(bins, t, e_hi):
        x, surplus, f = original(bins, t, e_hi)
        return x, surplus, np.where(surplus, f, 0.0)

    monkeypatch.setattr(lower, "_borrowing", planted)
    assert _total_violations(monkeypatch) > 0
