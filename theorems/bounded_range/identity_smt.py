"""Region proofs (z3) of bounded-range identities that were searched only (no Theorem here),
from the SAME formula bodies evaluated in the sympy context.

Main results
------------
- :func:`dr19_het_equal_problem` (DR19-BR claim 2): ``eps_het((eps0,)*k, delta)`` equals the
  unclipped homogeneous ``dr19_eps_raw(eps0, k, delta)`` for every ``eps0 > 0``, every ``delta in
  (0, 1)`` (``L = ln(1/delta) > 0``) and each given k; ``e^eps0`` is kept as one free real ``x``
  (it enters both sides only through the bias ``e^eps0 - 1``, so a proof for every x is
  stronger) and each square root as ``r >= 0`` with ``r^2`` its radicand.

References
----------
- [DR19] J. Dong, A. Roth, et al. as plotted in [DDR] J. Dong, D. Durfee, R. Rogers, arXiv
  1909.13830 (version not recorded), Fig. 1 (the catalogue's reconstruction of DR19-BR).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.br_bounds import dr19_eps_het, dr19_eps_raw
from dpverify.theorems.symbolic import polynomial_roots


def dr19_het_equal_problem(ks: Sequence[int]) -> SmtProblem:
    """``dr19_eps_het([eps0]*k, delta) = dr19_eps_raw(eps0, k, delta)`` for each ``k`` in
    ``ks``, every ``eps0 > 0`` and ``delta = e^-L``, ``L > 0``."""
    import sympy as sp

    ctx = SymCtx()
    eps0, big_l, x = sp.symbols("eps0 L x", real=True)
    delta = sp.exp(-big_l)
    hyps: list[Any] = [sp.Gt(eps0, 0), sp.Gt(big_l, 0)]
    roots: list[Any] = []
    goals = []
    for k in ks:
        sides = []
        for name, value in (("h", dr19_eps_het(ctx, [eps0] * k, delta)),
                            ("r", dr19_eps_raw(ctx, eps0, k, delta))):
            side_hyps, side, syms = polynomial_roots(value.subs(sp.exp(eps0), x), f"{name}{k}_")
            hyps += side_hyps
            roots += syms
            sides.append(side)
        goals.append(sp.Eq(*sides, evaluate=False))
    return SmtProblem({str(v): "real" for v in (eps0, big_l, x, *roots)}, tuple(hyps),
                      sp.And(*goals),
                      ("delta = e^-L, L > 0: every delta in (0, 1)",
                       "e^eps0 kept as a free real x (the same bias on both sides)",
                       "each square root r >= 0 with r^2 = its radicand",
                       f"k in {{{', '.join(map(str, ks))}}}"))
