"""Claim terms that pin down helpers the composition bounds only use inside a square root
(added after the formula-mutation harness, ``bench/mutation.py``, found a survivor).

- :func:`log_inv_round_trip`: ``delta e^{log_inv(delta)}`` (1: ``log_inv`` is ``log(1/delta)``,
  the inverse of ``L -> e^{-L}``). Every advanced-composition bound (DRV-ADV, STK-ADV-PURE,
  STK-ADV-APPROX, KOV-34) takes ``sqrt(2 k log(1/delta))``: with a wrong sign the square root
  of a negative ball is NaN and their claims only turn undecided, never false; this identity
  sees the helper directly.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import Box
from dpverify.theorems.formulas.advanced_composition import log_inv


def log_inv_round_trip(ctx: Any, delta: Any, **_: Any) -> Any:
    return delta * ctx.exp(log_inv(ctx, delta))


LOG_INV_BOX = Box(reals={"delta": ("1e-300", "1")}, log_scale=frozenset({"delta"}))
