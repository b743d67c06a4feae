"""Arithmetic contexts: one formula, several arithmetics.

Every formula of the catalogue is written once as ``f(ctx, **params)`` against the protocol
:class:`Ctx` (:mod:`.base`) and evaluated in one context per module, as mpmath keeps
``ctx_mp``/``ctx_fp``/``ctx_iv``:

- :class:`MpCtx` (:mod:`.mp`): mpmath at a stated precision (a private ``MPContext``, no
  global state);
- :class:`ArbCtx` (:mod:`.arb`): python-flint ``arb`` balls, a rigorous enclosure. Comparisons
  return ``True``/``False`` only when the balls decide them, ``None`` (undecided) otherwise; a
  branch on an undecided comparison takes the hull of both branches, which stays rigorous;
- :class:`FloatCtx` (:mod:`.fp`): plain floats, only to mirror what accountants compute;
- :class:`SymCtx` (:mod:`.sym`): sympy expressions, for derivatives and the polynomial forms
  given to z3.

Inputs are exact :class:`fractions.Fraction` values (or intervals of them for :class:`ArbCtx`,
which is how the interval verifier evaluates a formula over a whole box).

Main results
------------
- the contexts above and :func:`make_ctx`;
- ``ctx.solve``: the least ``x >= lo`` at which a monotone formula crosses a target, by
  bisection with certified comparisons (an enclosure of the crossing in ``ArbCtx``).
"""

from __future__ import annotations

from dpverify.theorems.ctx.arb import ArbCtx, arb_endpoints, arb_precision, arb_to_fraction
from dpverify.theorems.ctx.base import Ctx, Interval, Number, digits_to_bits
from dpverify.theorems.ctx.fp import FloatCtx
from dpverify.theorems.ctx.mp import MpCtx
from dpverify.theorems.ctx.sym import SymCtx
from dpverify.theorems.errors import PrecisionExhausted, Unsupported

__all__ = [
    "ArbCtx",
    "Ctx",
    "FloatCtx",
    "Interval",
    "MpCtx",
    "Number",
    "PrecisionExhausted",
    "SymCtx",
    "Unsupported",
    "arb_endpoints",
    "arb_precision",
    "arb_to_fraction",
    "digits_to_bits",
    "make_ctx",
]


def make_ctx(name: str, prec: int = 113) -> Ctx:
    """A context by name: ``mp``, ``arb``, ``fp`` or ``sym``."""
    if name == "mp":
        return MpCtx(prec)
    if name == "arb":
        return ArbCtx(prec)
    if name == "fp":
        return FloatCtx()
    if name == "sym":
        return SymCtx()
    raise ValueError(f"unknown context {name!r}")
