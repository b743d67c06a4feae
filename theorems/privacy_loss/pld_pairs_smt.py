"""Region proofs (z3) of the finite-pair identities of STK-PLD-DEF and STK-APPROX-PLD (no
Theorem here), for EVERY pair of laws on a small number of outputs, from the SAME claim terms
evaluated in the sympy context.

Two exact rewritings make the terms polynomial:

- logarithms of probabilities: ``log(P_i/Q_i)`` is expanded (positive symbols) to ``log P_i -
  log Q_i`` and each ``log P_i``, ``log Q_i`` replaced by a free real ``L``: an identity proved
  for all real ``L`` holds at the true logarithms (:func:`log_abstraction`);
- ``eps = log x`` with ``x = e^eps > 0`` (every real eps), and each relation holding a
  logarithm rewritten as ``e^{lhs - rhs} R 1`` (exp is increasing;
  :func:`~dpverify.theorems.symbolic.exp_relations`), so ``eps < log(P/Q)`` becomes ``x Q/P
  < 1``.

Outputs with ``P(y) = 0`` or ``Q(y) = 0`` are handled by enumerating the zero patterns (the
terms treat an exact zero specially: no atom, or a loss of ``+inf``).

References
----------
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 3, 3.3.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.symbolic import exp_relations

Term = Callable[..., Any]


def log_abstraction(*exprs: Any, prefix: str = "L") -> tuple[tuple[Any, ...], list[Any]]:
    """``exprs`` with their logarithms expanded and each ``log s`` of a positive symbol ``s``
    replaced by one fresh real ``L_s`` (any other logarithm raises ``ValueError``)."""
    import sympy as sp

    expanded = [sp.expand_log(sp.sympify(e), force=True) for e in exprs]
    logs = sorted({n for e in expanded for n in sp.preorder_traversal(e)
                   if isinstance(n, sp.log)}, key=str)
    new = {}
    for node in logs:
        if not (node.args[0].is_Symbol and node.args[0].is_positive):
            raise ValueError(f"cannot abstract {node}: not the log of a positive symbol")
        new[node] = sp.Symbol(f"{prefix}_{node.args[0]}", real=True)
    return tuple(e.xreplace(new) for e in expanded), list(new.values())


def _pair(n: int, tag: str = "") -> tuple[list[Any], list[Any], list[Any]]:
    import sympy as sp

    p = list(sp.symbols(f"p{tag}_1:{n + 1}", positive=True))
    q = list(sp.symbols(f"q{tag}_1:{n + 1}", positive=True))
    return p, q, [sp.Eq(sum(p), 1), sp.Eq(sum(q), 1)]


def reverse_moment_problem(g_rev: Term, g_fwd: Term, moment: Term, n: int) -> SmtProblem:
    """``E[g(Z')] = E[g(-Z) e^{-Z}]`` (``moment(ctx, p, q, g)`` = E[g(Z)] over the PLD atoms of
    ``(p, q)``) for every full-support pair on ``n`` outputs and every real ``c`` (the
    indicator's threshold), logarithms abstracted."""
    import sympy as sp

    ctx = SymCtx()
    p, q, hyps = _pair(n)
    c = sp.Symbol("c", real=True)
    g, h = g_rev(ctx, c=c), g_fwd(ctx, c=c)
    lhs = moment(ctx, q, p, g)
    rhs = moment(ctx, p, q, lambda z: h(z) * ctx.exp(-z))
    (lhs, rhs), logs = log_abstraction(lhs, rhs)
    goal = sp.Eq(lhs, rhs, evaluate=False)
    return SmtProblem({str(v): "real" for v in (*p, *q, c, *logs)}, tuple(hyps), goal,
                      (f"every full-support pair on {n} outputs", "log P_i, log Q_i replaced by "
                       "free reals (log(P/Q) = log P - log Q)"))


# The zero patterns of one output: both positive, P = 0 < Q, Q = 0 < P.
_KINDS = ("pq", "q", "p")


def _patterned_pair(kinds: tuple[str, ...], tag: str) -> tuple[list[Any], list[Any], list[Any]]:
    import sympy as sp

    p, q, _ = _pair(len(kinds), tag)
    zero = sp.Integer(0)
    p = [pi if "p" in k else zero for pi, k in zip(p, kinds, strict=True)]
    q = [qi if "q" in k else zero for qi, k in zip(q, kinds, strict=True)]
    return p, q, [sp.Eq(sum(p), 1), sp.Eq(sum(q), 1)]


def zero_patterns(n: int) -> list[tuple[str, ...]]:
    """Zero patterns of a pair on ``n`` outputs up to order (the identities are sums over
    outputs), leaving out those where P or Q would have no mass."""
    return [ks for ks in itertools.combinations_with_replacement(_KINDS, n)
            if any("p" in k for k in ks) and any("q" in k for k in ks)]


def two_term_problem(two_term: Term, hockey_stick: Term, n: int) -> SmtProblem:
    """``two_term(p, q, eps) = hockey_stick(p, q, eps)`` for every pair on ``n`` outputs, every
    zero pattern (each its own variables) and every real ``eps = log x``."""
    import sympy as sp

    ctx = SymCtx()
    x = sp.Symbol("x", positive=True)
    hyps: list[Any] = []
    goals = []
    variables: dict[str, str] = {"x": "real"}
    for t, kinds in enumerate(zero_patterns(n)):
        p, q, pair_hyps = _patterned_pair(kinds, str(t))
        hyps += pair_hyps
        variables.update({str(v): "real" for v in (*p, *q) if v.is_Symbol})
        lhs = exp_relations(two_term(ctx, p, q, sp.log(x)), sp.Dummy("eps"), x)
        goals.append(sp.Eq(lhs, hockey_stick(ctx, p, q, sp.log(x)), evaluate=False))
    return SmtProblem(variables, tuple(hyps), sp.And(*goals),
                      ("x = e^eps > 0: every real eps",
                       f"pairs on {n} outputs, every zero pattern (P = 0 or Q = 0 on an output)",
                       "eps < log(P/Q) as x Q/P < 1 and log(Q/P) < -eps as x Q/P < 1 (exp is "
                       "increasing)"))


def _below(value: Any, bound: Any) -> Any:
    """``value <= bound`` with a ``Max`` and ``Abs`` on the left split exactly into conjuncts
    (``max_i a_i <= b`` iff every ``a_i <= b``; ``|a| <= b`` iff ``a <= b`` and ``-a <= b``)."""
    import sympy as sp

    if isinstance(value, sp.Max):
        return sp.And(*(_below(a, bound) for a in value.args))
    if isinstance(value, sp.Abs):
        return sp.And(_below(value.args[0], bound), _below(-value.args[0], bound))
    return sp.Le(value, bound)


def pure_level_iff_problem(max_log_ratio: Term, hockey_stick_events: Term,
                           n: int) -> SmtProblem:
    """``max_y |log(P/Q)| <= eps`` iff ``H_{e^eps}(P||Q) <= 0`` and ``H_{e^eps}(Q||P) <= 0``
    (both by enumeration of all events), for every full-support pair on ``n`` outputs and every
    real ``eps = log x``; the level's relations are split (:func:`_below`) and written as ``e^{lhs
    - rhs} <= 1`` (exp is increasing)."""
    import sympy as sp

    ctx = SymCtx()
    p, q, hyps = _pair(n)
    x = sp.Symbol("x", positive=True)
    eps = sp.log(x)
    level = exp_relations(_below(max_log_ratio(ctx, p, q), eps), sp.Dummy("eps"), x)
    zero = sp.Integer(0)
    both = sp.And(sp.Le(hockey_stick_events(ctx, p, q, eps), zero),
                  sp.Le(hockey_stick_events(ctx, q, p, eps), zero))
    return SmtProblem({str(v): "real" for v in (*p, *q, x)}, tuple(hyps),
                      sp.And(sp.Implies(level, both), sp.Implies(both, level)),
                      ("x = e^eps > 0: every real eps", f"every full-support pair on {n} outputs",
                       "max_i |a_i| <= eps split into a_i <= eps, -a_i <= eps, each as "
                       "e^{a_i - eps} <= 1"))
