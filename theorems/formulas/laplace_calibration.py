"""The Laplace mechanism's calibration and its pointwise log-likelihood ratio.

Main results
------------
- :func:`laplace_b`: the scale ``b = sensitivity/eps`` that makes ``f(x) + Lap(b)`` eps-DP.
- :func:`laplace_density`, :func:`laplace_llr`: the density of ``Lap(mean, b)`` and the
  log-likelihood ratio of ``Lap(0, b)`` vs ``Lap(s, b)`` read off the two densities.

The exact privacy profile of the Laplace mechanism (STK-LAPLACE) is ``laplace_delta`` of
``dpverify.theorems.formulas.laplace``.

References
----------
- [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of Differential Privacy* (2014, no
  arXiv), Thm 3.6; [Blog] the introductory blog post (no arXiv), "f(x) + Lap(s/eps)".
"""

from __future__ import annotations

from typing import Any


def laplace_b(ctx: Any, eps: Any, sensitivity: Any) -> Any:
    """Laplace scale ``b = sensitivity/eps`` ([Blog] "f(x) + Lap(s/eps)"; [DR14] Thm 3.6, no
    arXiv)."""
    return sensitivity / eps


def laplace_density(ctx: Any, y: Any, mean: Any, b: Any) -> Any:
    """Density of ``Lap(mean, b)``: ``exp(-|y - mean|/b)/(2b)``."""
    return ctx.exp(-ctx.abs(y - mean) / b) / (2 * b)


def laplace_llr(ctx: Any, y: Any, b: Any, sensitivity: Any, **_: Any) -> Any:
    """Pointwise ``ln(p(y)/q(y))`` of ``Lap(0, b)`` vs ``Lap(s, b)``, from the densities."""
    return ctx.log(laplace_density(ctx, y, ctx.zero, b)
                   / laplace_density(ctx, y, sensitivity, b))
