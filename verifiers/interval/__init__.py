"""The ``interval`` route: rigorous branch and bound over a box with arb balls.

Each side of a comparison is evaluated in :class:`~theorems.ctx.ArbCtx` with interval inputs,
which encloses its range over the whole sub-box. A sub-box is certified when the enclosures
decide the comparison for all of it. Otherwise the difference ``g`` (``rhs - lhs`` for ``le``/
``lt``, ``lhs - rhs`` for ``ge``/``gt``; the claim is ``g >= 0`` or ``g > 0``) is bounded below
by **monotonicity pruning** and the **mean-value form**:

- if a partial derivative ``dg/dx`` has a certified sign on the sub-box, ``g`` is monotone in
  ``x`` there and its minimum lies on one face: the interval of ``x`` is replaced by that
  endpoint (the worst case for the claim). The sign of a derivative is certified the same way,
  with higher derivatives a few levels deep, and from the signs of the factors of a product
  (``(e^x - 1)^2 >= 0``). This is what proves bounds that are tight on a face (``g = 0`` at
  ``eps0 = 0``, at ``q = 0``), where no enclosure of ``g`` alone can;
- on what remains, ``g(c) + sum_i g_i(B) (B_i - c_i)`` (``c`` the centre) encloses ``g``,
  intersected with the natural enclosure (the centred form is tight on small boxes, the
  natural one can be tighter on wide ones; both hold).

Before the search on each integer assignment, a parameter whose margin derivative has a
certified sign over the **whole** box is fixed to its worst end (:mod:`.monotone`): the sign
is declared by the claim (``Box.monotone``, a hint that is certified over sub-boxes and
ignored, with a note, when it cannot be) or derived (one enclosure of the derivative), and
only where ``g`` is continuous on the whole box.

Derivatives come from sympy: the terms are evaluated in :class:`~theorems.ctx.SymCtx` over
symbols carrying the sign assumptions of the whole box, normalised (expanded, exponentials
merged; ``sympy.simplify`` while small and cheap), differentiated with ``sympy.diff`` and
evaluated by :func:`compile_interval` over intervals whose ends are arb balls (so that an end
that is exactly 0 stays 0 and monotone functions are evaluated at both ends). Two safeguards,
not sources of rigour: the symbolic ``g`` must agree with the arb evaluation of the terms at a
few points, and a derivative with the difference quotient of its function (mean-value
theorem). Where sympy cannot represent a term (``ctx.solve``, ``ctx.quad``, a Python branch on
a value), first derivatives come from forward-mode automatic differentiation over arb balls
(:class:`DualCtx`, with the implicit-function rule for ``ctx.solve``); where neither works,
there is no pruning. Derivatives are used only where ``g`` is continuous on the sub-box: every
``Piecewise`` branch decided there (sympy drops the condition of a ``Piecewise`` whose branches
have equal derivatives, so a jump would otherwise go unseen), no step function, a finite
enclosure of the derivative.

Integer parameters are enumerated over their stated range; a sub-box that stays undecided is
split along the side of largest smear ``sup |g_i(B)| * width_i`` (Ratschek and Rokne's
heuristic, where derivatives are known), else its widest side (geometrically for
``log_scale`` parameters). Sub-boxes are not spread over worker processes: the runner already
runs each task in a forked worker of its pool, and a pool inside a pool worker would
oversubscribe the machine (and daemonic pool workers cannot fork children).

Verdicts: ``proved`` only when every sub-box of the whole region is certified; ``failed`` with a
point certified to violate the claim (a sub-box midpoint, or the worst-case corner found by
monotonicity), re-checked at higher precision by :func:`verifiers.numeric.decide`; otherwise
``inconclusive`` with the undecided boxes in the evidence. The evidence counts the boxes
processed, certified directly, pruned by monotonicity and certified by the mean-value form,
and the boxes per second.

Main results
------------
- :func:`verify_box`: the route, called by :mod:`verifiers.dispatch`.
- :func:`compile_interval`: a sympy expression as a rigorous function of intervals
  (:class:`Iv`); :func:`compile_arb` the same over arb balls.
- :class:`DualCtx`: the formula context of dual numbers over arb balls (value and gradient).
"""

from __future__ import annotations

from dpverify.verifiers.interval.boxes import SubBox, decide_box
from dpverify.verifiers.interval.dual import Dual, DualCtx
from dpverify.verifiers.interval.enclosure import Iv, compile_arb, compile_interval
from dpverify.verifiers.interval.route import verify_box

__all__ = ["Dual", "DualCtx", "Iv", "SubBox", "compile_arb", "compile_interval", "decide_box",
           "verify_box"]
