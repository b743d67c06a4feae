"""Certified k-fold accounting of the Poisson-subsampled Gaussian with the PLD engine of
:mod:`dpverify.theorems.numerics.pld`: rigorous enclosures ``[lo, hi]`` of eps(delta) and
delta(eps) ([S22] arXiv 2210.00597v4, Sec. 4, composition by convolution; [DGKKM22] arXiv
2207.04380v1, discretisation).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify.theorems.ctx import Interval, Unsupported
from dpverify.theorems.numerics import pld
from dpverify.theorems.values import exact_params


def arb_param(v: Any) -> Any:
    """An exact parameter for the PLD engine: Fractions stay exact, intervals become balls."""
    if isinstance(v, Interval):
        lo = pld._arb(v.lo)
        return lo.union(pld._arb(v.hi))
    if isinstance(v, str):
        return Fraction(v)
    return v


DEFAULT_REL_WIDTH = 1e-3
MAX_SECONDS = 100.0


@exact_params("q", "sigma", "delta")
def pld_eps(ctx: Any, q: Any, sigma: Any, k: int, delta: Any,
            neighboring: str = "add_remove", rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified eps(delta) of k steps of the Poisson-subsampled Gaussian: the ball ``[lo,
    hi]`` of :func:`dpverify.theorems.numerics.pld.enclose_eps` (relative width 1e-3 by
    default; [S22] arXiv 2210.00597v4 Sec. 4 composition by convolution, [DGKKM22]
    discretisation). ``rel_width``: the requested relative width of the enclosure."""
    return pld_eps_enclosure(ctx, q, sigma, k, delta, neighboring, rel_width).ball()


@exact_params("q", "sigma", "eps")
def pld_delta(ctx: Any, q: Any, sigma: Any, k: int, eps: Any,
              neighboring: str = "add_remove", rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified delta(eps) of k steps of the Poisson-subsampled Gaussian (max over the
    directions of the relation); ``rel_width``: the requested relative width."""
    arb_only(ctx)
    enc = pld.enclose_delta(pld.sgm_pairs(arb_param(q), arb_param(sigma), neighboring), k,
                            arb_param(eps), rel_width, MAX_SECONDS)
    return enc.ball()


def arb_only(ctx: Any) -> None:
    if ctx.name != "arb":
        raise Unsupported("certified PLD accounting returns arb enclosures only")


_ENCLOSURES: dict[tuple[Any, ...], pld.Enclosure] = {}


def pld_eps_enclosure(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, neighboring: str,
                       rel_width: float, h: Fraction | None = None,
                       upper_only: bool = False) -> pld.Enclosure:
    arb_only(ctx)
    key = (str(q), str(sigma), k, str(delta), neighboring, rel_width, h, upper_only)
    hit = _ENCLOSURES.get(key)
    if hit is None:
        pairs = pld.sgm_pairs(arb_param(q), arb_param(sigma), neighboring)
        hit = pld.enclose_eps(pairs, k, arb_param(delta), rel_width, MAX_SECONDS, h,
                              upper_only=upper_only)
        if len(_ENCLOSURES) > 256:
            _ENCLOSURES.clear()
        _ENCLOSURES[key] = hit
    return hit
