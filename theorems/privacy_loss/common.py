"""Helpers shared by the claim terms of the privacy_loss family: quadrature tolerances, the
Gaussian and Laplace claim points, constants and SMT symbols.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dpverify.theorems.claims import Points, Tol
from dpverify.theorems.formulas.gaussian import gauss_eps
from dpverify.theorems.refs import BW18

FAMILY = "privacy_loss"

# The theorem numbering of [BW18] that the entries cite was checked in v2.
BW18_V2 = replace(BW18, version="v2")


# Quadrature routes are checked at this tolerance (the catalogue's 1e-40..1e-45 were observed at
# 50 digits; at that precision each mpmath quadrature costs seconds, too slow for the quick run).
QUAD_TOL = Tol.abs("1e-30")
QUAD_TOL_REL = Tol.rel("1e-30")


# The four regimes of STK-HT claim 1, as noise multipliers (Delta, sigma) -> sigma/Delta.
GAUSS_REGIMES = Points((
    {"sigma": "1", "eps": "1"},
    {"sigma": "0.5", "eps": "3"},
    {"sigma": "2.5", "eps": "0.3"},
    {"sigma": "0.2", "eps": "40"},
))

# The four (eps0, eps) points of STK-LAPLACE's claims; Delta = 1, b = 1/eps0.
LAPLACE_POINTS = Points((
    {"eps0": "1", "eps": "0.3"},
    {"eps0": "2", "eps": "0"},
    {"eps0": "0.5", "eps": "0.49"},
    {"eps0": "3", "eps": "3.5"},
))


def laplace_term(route: Any) -> Any:
    """A Laplace term at ``b = 1/eps0``, sensitivity 1 (the catalogue's claim points)."""
    return lambda ctx, eps0, eps, **_: route(ctx, 1 / eps0, eps, ctx.one)


CONV_REGIMES = Points(({"rho": "0.01", "delta": "1e-6"}, {"rho": "0.5", "delta": "1e-5"},
                        {"rho": "2", "delta": "1e-10"}, {"rho": "0.001", "delta": "1e-3"}))


def gauss_eps_at_rho(ctx: Any, rho: Any, delta: Any) -> Any:
    """BW-ANALYTIC-GAUSS.eps for the Gaussian whose rho is given (sigma = 1/sqrt(2 rho))."""
    return gauss_eps(ctx, 1 / ctx.sqrt(2 * rho), delta)


def const(value: str) -> Any:
    return lambda ctx, **_: ctx.num(value)


def sym(*names: str) -> Any:
    import sympy

    return sympy.symbols(names, real=True)
