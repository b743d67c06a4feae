"""Loss pairs of the audit: re-exports of the PLD engine's (the subsampled pair moved to
:mod:`dpverify.theorems.numerics.pld.subsampled`, so that ``dpverify eval`` can use it too)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify.theorems.numerics.pld import SubsampledPair, _span


def span(x: Any) -> tuple[Fraction, Fraction]:
    """Exact endpoints of a number or ball (re-exported for the reference module)."""
    return _span(x)


__all__ = ["SubsampledPair", "span"]
