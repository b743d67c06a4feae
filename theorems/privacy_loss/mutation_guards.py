"""Claim terms added after the formula-mutation harness (``bench/mutation.py``) found a survivor:
the Gaussian density helper ``formulas.gaussian.normal_pdf`` (the PLD density of STK-PLD-GAUSS,
used by the quadrature routes of many families) was only ever evaluated at ``mean = 0`` or
inside integrals that a density centred at the wrong place still passes.

- :func:`pdf_mirror_gap`: ``phi(m + d; m, s) - phi(m - d; m, s)`` (0: symmetric about its mean).
- :func:`pdf_peak_scaled`: ``s sqrt(2 pi) phi(m; m, s)`` (1: the peak value at the mean).
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import Box
from dpverify.theorems.formulas.gaussian import normal_pdf


def pdf_mirror_gap(ctx: Any, mean: Any, d: Any, sd: Any, **_: Any) -> Any:
    return normal_pdf(ctx, mean + d, mean, sd) - normal_pdf(ctx, mean - d, mean, sd)


def pdf_peak_scaled(ctx: Any, mean: Any, sd: Any, **_: Any) -> Any:
    return normal_pdf(ctx, mean, mean, sd) * sd * ctx.sqrt(2 * ctx.pi)


PDF_BOX = Box(reals={"mean": ("-5", "5"), "d": ("0", "5"), "sd": ("1/10", "10")},
              log_scale=frozenset({"sd"}))
