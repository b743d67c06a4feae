"""The ``smt`` route: polynomial claims proved or refuted by z3.

A claim arrives as an :class:`~theorems.claims.SmtProblem`: sympy relations over named real (or
integer) variables, ``hypotheses ⇒ goal``, usually obtained from a formula by substituting
``x = e^eps`` (see :func:`substitute_exp`) and clearing positive denominators (see
:func:`polynomial_le`). The relations are translated to z3 (only polynomial arithmetic:
``+``, ``*``, integer powers, rational constants, rational roots through an auxiliary variable,
``Abs``/``Max``/``Min``/``Piecewise`` as if-then-else, ``< <= > >= == !=``,
``and``/``or``/``not``/``implies``; anything else is rejected and the check is
``not_applicable``), the hypotheses are asserted each tracked by a named boolean, and
``not goal`` is asserted. Then:

- ``unsat``: ``proved``; the unsat core names the hypotheses actually used. Hypotheses that
  are unsatisfiable by themselves make the claim vacuous: ``not_applicable``, never ``proved``;
- ``sat``: the model is made rational where z3 allows (algebraic values are pinned to their
  40-digit approximations when that stays a model), then the hypotheses and the negated goal
  are re-checked exactly (rational arithmetic) or rigorously (arb balls of radius 1e-40 around
  algebraic approximations), and in mpmath at 256 bits, and by the check's ``check_model`` (the
  original, non-polynomial claim in mpmath) when it has one. Only a confirmed model is a
  ``failed`` verdict; otherwise ``inconclusive``;
- ``unknown`` (timeout, incompleteness of non-linear integer arithmetic): ``inconclusive``.

Domain conditions are explicit: a division asserts its denominator is nonzero and a root its
radicand is nonnegative (sympy's principal roots), each tracked like a hypothesis and listed in
the evidence; sign assumptions of sympy symbols (``positive=True``) become tracked hypotheses
too, since sympy may already have used them.

Main results
------------
- :func:`verify`: the route, called by :mod:`verifiers.dispatch`.
- :func:`polynomial_le`, :func:`polynomial_lt`, :func:`clear_denominators`,
  :func:`substitute_exp`, :func:`positive_symbols`: helpers for authors of ``[smt]`` claims.
"""

from __future__ import annotations

from dpverify.theorems.errors import TranslationError
from dpverify.verifiers.smt.helpers import (
    clear_denominators,
    polynomial_le,
    polynomial_lt,
    positive_symbols,
    substitute_exp,
)
from dpverify.verifiers.smt.route import verify

__all__ = ["TranslationError", "clear_denominators", "polynomial_le", "polynomial_lt",
           "positive_symbols", "substitute_exp", "verify"]
