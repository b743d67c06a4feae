"""Warm a process up before it forks its workers.

A pool run forks its workers from this process (:mod:`~dpverify.verifiers.runner`), so
whatever a check loads on first use — lazily imported modules (hypothesis loads
``numpy.random``, sympy loads its combinatorics and units on first simplification), caches of
sympy and hypothesis — is otherwise paid again by every worker. :func:`warm_up` runs each route
once on a tiny planted check in the parent, so the forked workers inherit that state. Its
results are discarded: it decides nothing about the catalogue. (hypothesis's draws do not
depend on which modules are loaded: :mod:`~dpverify.verifiers.draws`.)
"""

from __future__ import annotations

from typing import Any

import sympy

from dpverify.theorems.claims import Box, Compare, Points, Smt, SmtProblem
from dpverify.verifiers import smt
from dpverify.verifiers.interval import verify_box as interval_box
from dpverify.verifiers.numeric import verify_points
from dpverify.verifiers.property import verify_box as property_box
from dpverify.verifiers.verdict import Budget, Status


def _exp(ctx: Any, x: Any) -> Any:
    return ctx.exp(x)


def _one_plus(ctx: Any, x: Any) -> Any:
    return ctx.one + x


def _problem() -> SmtProblem:
    x = sympy.Symbol("x", real=True)
    return SmtProblem({"x": "real"}, (x >= 0, x <= 1), sympy.simplify(x**2 <= x + 1))


def warm_up() -> list[Status]:
    """Run the numeric, property, interval and smt routes once on ``exp(x) >= 1 + x``
    (and an SMT problem over a real), in this process; their statuses, for a test."""
    box = Box(reals={"x": ("-1", "1")})
    points = Points(({"x": "1/2"},))
    budget = Budget(seconds=5.0, examples=5, boxes=64)
    return [
        verify_points(Compare(_exp, "ge", _one_plus, points, "numeric"), points, budget)[0],
        property_box(Compare(_exp, "ge", _one_plus, box, "property"), box, budget, 0)[0],
        interval_box(Compare(_exp, "ge", _one_plus, box, "interval"), box, budget)[0],
        smt.verify(Smt(_problem, "x^2 <= x + 1 on [0, 1]"), budget)[0],
    ]

