"""The classic Gaussian calibration of Dwork & Roth, its exact delta and the threshold
``eps*(delta)`` above which it is unsound.

Main results
------------
- :func:`classic_sigma`: ``sigma = sqrt(2 ln(1.25/delta))/eps`` ([DR14] Thm A.1, eps in (0, 1)).
- :func:`classic_true_delta`: the exact delta at eps of that sigma (BW-ANALYTIC-GAUSS).
- :func:`classic_eps_star`: the root ``eps* > 1`` of ``true_delta(eps, delta) = delta``.

References
----------
- [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of Differential Privacy* (2014, no
  arXiv), Thm A.1.
- [BW18] B. Balle, Y.-X. Wang, *Improving the Gaussian Mechanism for Differential Privacy*,
  arXiv 1805.06530v2, Thm 8 (exact Gaussian profile).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.errors import InvalidParameter
from dpverify.theorems.formulas.gaussian import gauss_delta


def classic_sigma(ctx: Any, eps: Any, delta: Any) -> Any:
    """Classic noise multiplier ``sigma = sqrt(2 ln(1.25/delta))/eps`` ([DR14] Thm A.1, no
    arXiv; stated there for eps in (0, 1) only; the boundary case ``c^2 = 2 ln(1.25/delta)``)."""
    return ctx.sqrt(2 * ctx.log(ctx.num(Fraction(5, 4)) / delta)) / eps


def classic_true_delta(ctx: Any, eps: Any, delta: Any) -> Any:
    """Exact delta at eps of the classic sigma: ``BW-ANALYTIC-GAUSS.delta(sigma(eps, delta),
    eps)`` ([BW18] arXiv 1805.06530v2, Thm 8)."""
    return gauss_delta(ctx, classic_sigma(ctx, eps, delta), eps)


def classic_eps_star(ctx: Any, delta: Any) -> Any:
    """The root ``eps* > 1`` of ``true_delta(eps, delta) = delta`` (catalogue DR-CLASSIC-GAUSS,
    [DERIVED] from [DR14] Thm A.1 and [BW18] arXiv 1805.06530v2 Thm 8).

    Bracketed by doubling from eps = 2 (2, 4, 8, ...), then bisected with this context's
    comparisons (a certified enclosure in arb). ``true_delta/delta`` is increasing in eps
    (claims 1, 3 and 5 check the sign pattern around the root).
    """
    before = ctx.le(delta, classic_true_delta(ctx, ctx.num(2), delta))
    if before is None:
        raise PrecisionExhausted("cannot decide the sign of true_delta - delta at eps = 2")
    if before:
        raise InvalidParameter("true_delta(2, delta) >= delta: the root is not above 2")
    return ctx.solve(lambda e: classic_true_delta(ctx, e, delta), delta, lo=2, hi=4,
                     decreasing=False)
