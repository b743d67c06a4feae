"""Region proofs (z3) that the output laws and test mechanisms of the foundations claims are what
they say (no Theorem here): the claims of :mod:`~dpverify.theorems.foundations.mutation_guards`,
until now searched only, as polynomial identities built from the SAME formula bodies evaluated in
the sympy context.

Main results
------------
- :func:`clamped_law_problem` (PAR claim 5): the clamped geometric law sums to 1, with
  ``a = e^-eps in (0, 1)``, every ``eps > 0``.
- :func:`adaptive_law_problem` (SMITH-ADAPT-COMP claim 3): the transcript law of every adaptive
  RR strategy tree of depth ``k`` sums to 1, every flip pattern, both inputs, every step
  parameter ``z = e^{eps_i f} > 0`` (denominators cleared: ``N = D`` with ``D > 0``).
- :func:`bayes_em_reference_problem` (SMITH-BAYES claim 4): the indicator-utility exponential
  mechanism equals ``e^{eps u/2}/(3 e^{eps/2} + 3)``, with ``w = e^{eps/2} >= 1``, every
  ``eps >= 0``.

References
----------
- [McS] F. McSherry, *Privacy Integrated Queries*, SIGMOD 2009 (no arXiv), parallel composition.
- [SmithLN] A. Smith, lecture notes (no arXiv): Lemma 1.1 (transcript factorisation), Thm 3.1
  (the test mechanism).
"""

from __future__ import annotations

import itertools
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.adaptive_rr import adaptive_rr_transcripts
from dpverify.theorems.formulas.bayes_posterior import BITS3, EM_OUTPUTS, bayes_em_mechanism
from dpverify.theorems.formulas.parallel_composition import clamped_geometric
from dpverify.theorems.symbolic import exp_as_powers, over_common_denominator


def _eq(a: Any, b: Any) -> Any:
    import sympy as sp

    return sp.Eq(a, b, evaluate=False)


def clamped_law_problem(max_s: int, max_width: int) -> SmtProblem:
    """``sum_o clamped_geometric(eps, s, 0, s + width)[o] = 1`` for every ``s <= max_s``,
    ``width <= max_width`` (the whole integer domain of the claim) and every ``eps > 0``: the
    law is evaluated at ``eps = -ln a`` so that ``e^-eps = a`` exactly, ``0 < a < 1``."""
    import sympy as sp

    ctx = SymCtx()
    a = sp.Symbol("a", positive=True)
    goals = [_eq(ctx.fsum(clamped_geometric(ctx, -sp.log(a), s, 0, s + width)), 1)
             for s in range(max_s + 1) for width in range(max_width + 1)]
    return SmtProblem({"a": "real"}, (sp.Lt(a, 1),), sp.And(*goals),
                      ("a = e^-eps in (0, 1): every eps > 0",
                       f"all s in 0..{max_s}, width in 0..{max_width}"))


def _cleared_eq(lhs: Any, rhs: Any) -> tuple[Any, ...]:
    """``lhs = rhs`` for rational functions as ``N_l D_r = N_r D_l`` with both denominators
    proved positive (so the cross-multiplied identity is the identity itself)."""
    import sympy as sp

    nl, dl = over_common_denominator(lhs)
    nr, dr = over_common_denominator(rhs)
    return (sp.Gt(dl, 0), sp.Gt(dr, 0), _eq(sp.expand(nl * dr), sp.expand(nr * dl)))


def adaptive_law_problem(k: int) -> SmtProblem:
    """``sum_t P(t) = 1`` for the transcripts of :func:`adaptive_rr_transcripts` of depth ``k``,
    for every flip pattern of the ``2^k - 1`` nodes and both inputs; each node's step parameter
    is a free ``z_node = e^{eps_i f_node} > 0`` (the body is evaluated at ``eps_i = 1``,
    ``f_node = ln z_node``), which covers every budget and every fraction."""
    import sympy as sp

    ctx = SymCtx()
    nodes = 2**k - 1
    z = sp.symbols(f"z0:{nodes}", positive=True)
    frac = [sp.log(v) for v in z]
    goals: list[Any] = []
    for flip in itertools.product((0, 1), repeat=nodes):
        for bit in (0, 1):
            law = adaptive_rr_transcripts(ctx, [ctx.one] * k, frac, flip, bit)
            goals += _cleared_eq(ctx.fsum(law), sp.Integer(1))
    # the distinct goals as built: sympy's And would put each of the 2^(2^k) relations in
    # canonical form (most of the build at k = 3), an orientation z3 does not need
    distinct = [g for g in dict.fromkeys(goals) if g is not sp.true]
    return SmtProblem({str(v): "real" for v in z}, (), sp.And(*distinct, evaluate=False),
                      (f"z_node = e^(eps_i f_node) > 0 for each of the {nodes} nodes (every "
                       "budget, every fraction)", f"all {2**nodes} flip patterns, inputs 0 and 1",
                       "sum_t P(t) = 1 as N = D with D > 0 (denominators cleared)"))


def bayes_em_reference_problem() -> SmtProblem:
    """``M(a|x) = (w if x_{floor(a/2)} = a mod 2 else 1)/(3 w + 3)`` for every ``x in {0,1}^3``
    and output ``a``, with ``M = bayes_em_mechanism`` for ``h_j(v, a) = [a = 2j + v]`` evaluated
    at ``eps = 2 t``, ``t >= 0``, and ``e^{-t} = 1/w``, ``w = e^t = e^{eps/2} >= 1``."""
    import sympy as sp

    ctx = SymCtx()
    t = sp.Symbol("t", nonnegative=True)
    w = sp.Symbol("w", positive=True)
    h = [ctx.one if a == 2 * j + v else ctx.zero
         for j in range(3) for v in (0, 1) for a in range(EM_OUTPUTS)]
    mech = bayes_em_mechanism(ctx, h, 2 * t)
    goals = [_eq(exp_as_powers(mech[x][a], t, w),
                 (w if x[a // 2] == a % 2 else sp.Integer(1)) / (3 * w + 3))
             for x in BITS3 for a in range(EM_OUTPUTS)]
    return SmtProblem({"w": "real"}, (sp.Ge(w, 1),), sp.And(*goals),
                      ("eps = 2t, t >= 0; w = e^t = e^(eps/2) >= 1: every eps >= 0",
                       "all 8 inputs x, all 6 outputs a"))


def par_joint_eps_problem(joint_eps: Any, par_eps: Any,
                          size_patterns: tuple[tuple[int, ...], ...]) -> SmtProblem:
    """PAR claim 1 for every given partition shape (``sizes[i]`` record types in chunk i): the
    exact joint pure eps of the count releases under add/remove (``joint_eps(ctx, eps_list,
    sizes)``, all neighbouring pairs enumerated) equals ``par_eps(ctx, eps_list,
    "add_remove")``, for every ``eps_i = -ln a_i > 0``. Both sides are exponentiated (exp is
    increasing, so ``e^{max_i t_i} = max_i e^{t_i}``), which leaves maxima of rational
    functions of the ``a_i``; each shape has its own variables."""
    import sympy as sp

    ctx = SymCtx()
    hyps: list[Any] = []
    goals = []
    variables: dict[str, str] = {}
    for t, sizes in enumerate(size_patterns):
        a = sp.symbols(f"a{t}_0:{len(sizes)}", positive=True)
        hyps += [sp.Lt(v, 1) for v in a]
        variables.update({str(v): "real" for v in a})
        eps_list = [-sp.log(v) for v in a]
        lhs = sp.exp(joint_eps(ctx, eps_list, sizes))
        rhs = par_eps(ctx, eps_list, "add_remove")
        rhs = (sp.Max(*(sp.exp(arg) for arg in rhs.args)) if isinstance(rhs, sp.Max)
               else sp.exp(rhs))
        goals.append(sp.Eq(lhs, rhs, evaluate=False))
    shapes = ", ".join(str(s) for s in size_patterns)
    return SmtProblem(variables, tuple(hyps), sp.And(*goals),
                      ("a_i = e^-eps_i in (0, 1): every eps_i > 0",
                       f"partition shapes (record types per chunk): {shapes}",
                       "both sides exponentiated: e^(max_i t_i) = max_i e^(t_i)"))
