"""Helpers shared by the claim terms of the subsampling family: finite witness pairs (mixtures,
subsampled RR, the LEAK base), SMT symbols, the claim grids of the subsampled Gaussian and
the certified upper end of its PLD enclosure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dpverify.theorems.claims import Points
from dpverify.theorems.formulas.subsampled_gaussian_pld import pld_eps_enclosure
from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.finite import (  # noqa: F401 (leak_pair, mixture: re-exported)
    hockey_stick,
    leak_pair,
    mixture,
    randomized_response,
)
from dpverify.theorems.values import exact_params

FAMILY = "subsampling"


def both_orders(ctx: Any, p: Sequence[Any], q: Sequence[Any], eps: Any) -> Any:
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def sub_rr_pair(ctx: Any, eps0: Any, q: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``((1-q) RR(0) + q RR(1), RR(0))``: eps0-RR of the inclusion bit, Poisson-subsampled."""
    rr1, rr0 = randomized_response(ctx, eps0)
    return mixture(q, rr0, rr1), tuple(rr0)


def sym(*names: str) -> Any:
    import sympy as sp

    return [sp.Symbol(n, real=True) for n in names]


SGM_GRID = Points(tuple({"q": q, "sigma": s, "eps": e}
                        for q, s in (("0.01", "1"), ("0.1", "0.8"), ("0.5", "2"))
                        for e in ("0.01", "0.1", "1")))


RDP_GRID = Points(tuple({"q": q, "sigma": s, "alpha": a}
                        for q, s in (("0.01", "1"), ("0.001", "0.8"), ("0.2", "2"), ("0.5", "0.7"))
                        for a in (2, 3, 8, 20)))


def pld_eps_hi(rel_width: float) -> Callable[..., Any]:
    """The certified upper end of the PLD enclosure on a grid meant for ``rel_width`` (only the
    upper PLD is composed)."""

    @exact_params("q", "sigma", "delta")
    def hi(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> Any:
        enc = pld_eps_enclosure(ctx, q, sigma, k, delta, "add_remove", rel_width,
                                 upper_only=True)
        return pld._arb(enc.hi)
    return hi
