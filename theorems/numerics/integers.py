"""Recognising integer values among the number types of the contexts.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import MpCtx


def as_int(ctx: Any, x: Any) -> int | None:
    """x as a Python int when it is (certainly) an integer, else None."""
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else None
    if isinstance(x, flint.arb):
        return int(x.unique_fmpz()) if x.is_exact() and x.is_integer() else None
    if isinstance(ctx, MpCtx):
        return int(x) if ctx.m.isint(x) else None
    return None
