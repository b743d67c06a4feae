"""The ``smt`` route: :func:`verify` proves ``hypotheses ⇒ goal`` or refutes it."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from dpverify.theorems.claims import Smt, SmtProblem
from dpverify.theorems.errors import TranslationError
from dpverify.verifiers.smt.model import _confirm, _problem_symbols, _rational_model
from dpverify.verifiers.smt.translate import _translate, _Translation
from dpverify.verifiers.verdict import Budget, Status


def _assumption_hypotheses(symbols: Iterable[Any], problem: SmtProblem) -> list[tuple[str, Any]]:
    """sympy sign assumptions of the symbols, as relations (sympy may have used them)."""
    import sympy as sp

    out: list[tuple[str, Any]] = []
    for s in sorted(symbols, key=lambda s: s.name):
        if s.is_integer and problem.variables.get(s.name) == "real":
            raise TranslationError(f"symbol {s.name} is declared integer in sympy but real in "
                                   "the problem; declare it 'int'")
        if s.is_positive:
            out.append((f"assume {s.name} > 0", sp.Gt(s, 0, evaluate=False)))
        elif s.is_nonnegative:
            out.append((f"assume {s.name} >= 0", sp.Ge(s, 0, evaluate=False)))
        if s.is_negative:
            out.append((f"assume {s.name} < 0", sp.Lt(s, 0, evaluate=False)))
        elif s.is_nonpositive:
            out.append((f"assume {s.name} <= 0", sp.Le(s, 0, evaluate=False)))
        if s.is_nonzero and not (s.is_positive or s.is_negative):
            out.append((f"assume {s.name} != 0", sp.Ne(s, 0, evaluate=False)))
    return out


def verify(check: Smt, budget: Budget) -> tuple[Status, str, dict[str, Any]]:
    """Prove ``hypotheses ⇒ goal`` (unsat of its negation) or refute it with a checked model."""
    import sympy as sp
    import z3

    started = time.monotonic()
    problem = check.build()
    evidence: dict[str, Any] = {
        "goal": str(problem.goal),
        "hypotheses": [str(h) for h in problem.hypotheses],
        "substitutions": list(problem.substitutions),
        "variables": dict(problem.variables),
        "z3_version": z3.get_version_string(),
    }
    bad = {k: v for k, v in problem.variables.items() if v not in ("real", "int")}
    if bad:
        return Status.NOT_APPLICABLE, f"variable types must be 'real' or 'int'; got {bad}", evidence
    try:
        symbols = _problem_symbols(problem)
        undeclared = sorted(s.name for s in symbols if s.name not in problem.variables)
        if undeclared:
            raise TranslationError(f"undeclared variables: {', '.join(undeclared)}")
        # a fresh z3 Context per problem: z3's search depends on the ids of its terms, so in the
        # shared main context the verdict would depend on what the process solved before
        zctx = z3.Context()
        variables = {n: (z3.Int(n, zctx) if t == "int" else z3.Real(n, zctx))
                     for n, t in problem.variables.items()}
        tr = _Translation(variables, zctx)
        hyps: list[tuple[str, Any, Any]] = []  # (name, sympy relation, z3 bool)
        for i, h in enumerate(problem.hypotheses, 1):
            hyps.append((f"h{i}: {h}", h, _translate(sp.sympify(h), tr)))
        for name, rel in _assumption_hypotheses(symbols, problem):
            hyps.append((name, rel, _translate(rel, tr)))
        goal = _translate(sp.sympify(problem.goal), tr)
    except TranslationError as e:
        return Status.NOT_APPLICABLE, f"not a polynomial problem: {e}", evidence
    all_real = all(t == "real" for t in problem.variables.values())
    logic = "QF_NRA" if all_real else "QF_NIRA"
    solver = z3.SolverFor("QF_NRA", ctx=tr.ctx) if all_real else z3.Solver(ctx=tr.ctx)
    timeout_ms = max(1, int(min(budget.remaining(), budget.seconds) * 1000))
    solver.set("timeout", timeout_ms)
    tracked: dict[str, str] = {}
    for name, _rel, z in hyps:
        tag = f"t{len(tracked)}"
        tracked[tag] = name
        solver.assert_and_track(z, z3.Bool(tag, tr.ctx))
    for name, z, text in tr.domain:
        tag = f"t{len(tracked)}"
        tracked[tag] = f"{name}: {text}"
        solver.assert_and_track(z, z3.Bool(tag, tr.ctx))
    if tr.domain:
        evidence["domain_conditions"] = [text for _, _, text in tr.domain]
    solver.add(z3.Not(goal))
    result = solver.check()
    evidence["logic"] = logic
    evidence["timeout_ms"] = timeout_ms
    if result == z3.unsat:
        core = sorted(tracked[str(b)] for b in solver.unsat_core())
        evidence["unsat_core"] = core
        evidence["seconds"] = round(time.monotonic() - started, 3)
        if core and _vacuous(hyps, tr, budget):
            return (Status.NOT_APPLICABLE,
                    "the hypotheses are unsatisfiable by themselves: the claim holds vacuously",
                    evidence)
        used = f"using {len(core)} of {len(tracked)} hypotheses" if tracked else "unconditionally"
        evidence["region"] = {"kind": "semialgebraic set",
                              "variables": dict(problem.variables),
                              "conditions": [name for name, _r, _z in hyps]
                              + evidence.get("domain_conditions", []),
                              "covered_by": "z3 unsat of hypotheses ∧ ¬goal (every point)"}
        return Status.PROVED, f"z3 ({logic}): hypotheses ∧ ¬goal is unsat ({used})", evidence
    if result == z3.unknown:
        evidence["reason_unknown"] = solver.reason_unknown()
        evidence["seconds"] = round(time.monotonic() - started, 3)
        return (Status.INCONCLUSIVE, f"z3 returned unknown ({solver.reason_unknown()})",
                evidence)
    model = _rational_model(solver, variables, budget)
    evidence["seconds"] = round(time.monotonic() - started, 3)
    return _confirm(check, problem, hyps, model, evidence)


def _vacuous(hyps: list[tuple[str, Any, Any]], tr: _Translation, budget: Budget) -> bool:
    import z3

    s = z3.SolverFor("QF_NRA", ctx=tr.ctx) \
        if all(not z3.is_int(v) for v in tr.variables.values()) else z3.Solver(ctx=tr.ctx)
    s.set("timeout", max(1, int(min(budget.remaining(), 10.0) * 1000)))
    for _, _, z in hyps:
        s.add(z)
    for _, z, _ in tr.domain:
        s.add(z)
    return s.check() == z3.unsat
