"""Claims are values, not code: what is asserted, on which region, by which route.

A :class:`Claim` is one numbered claim of a catalogue entry. It holds one or more
:class:`Check` values, each naming the verification route the catalogue suggests:

- :class:`Compare`: ``lhs OP rhs`` with ``OP`` in ``le, lt, eq, ge, gt`` over a region —
  explicit :class:`Points` (the ``numeric`` route), a :class:`Box` (``property`` samples it,
  ``interval`` covers it by branch and bound) or :class:`Generated` random finite instances
  (the ``oracle`` route, by exact enumeration inside the terms).
- :class:`Predicate`: a formula that returns ``True``/``False``/``None`` (undecided) at a
  point, for structural statements that are not one comparison.
- :class:`Smt`: a polynomial claim handed to z3 (``hypotheses ⇒ goal`` over the reals).

Checks of one claim verify the same statement by several routes (the strongest verdict is the
claim's), unless they name different ``part`` s: a claim that is a conjunction ("eps <= eps0,
and eps <= the closed form") gives each conjunct its own part, and its headline is that of its
weakest part, so a proof of one conjunct never headlines a claim whose other conjunct was only
certified at points.

Terms are formulas ``term(ctx, **point) -> number`` written against :mod:`theorems.ctx`, so the
same term is evaluated in mpmath, in arb balls (rigorously, also over whole boxes) or in floats.
A formula from the paper and an independent route (oracle, quadrature, second closed form) are
the two sides of one comparison: that is how a wrong transcription is caught.

A claim's ``expected`` outcome is ``holds`` or ``refuted``: catalogue errata (the classic Gaussian
calibration above eps*(delta), the blog's misstated definition) are encoded as the erroneous
statement with ``expected="refuted"``, so the report shows the counterexample as a finding while
the run passes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

Op = Literal["le", "lt", "eq", "ge", "gt"]
Route = Literal["oracle", "numeric", "property", "smt", "interval"]
Expected = Literal["holds", "refuted"]
Scope = Literal["universal", "instance"]
Term = Callable[..., Any]

ROUTES: tuple[str, ...] = ("oracle", "numeric", "property", "smt", "interval")
OP_SYMBOL = {"le": "<=", "lt": "<", "eq": "==", "ge": ">=", "gt": ">"}


# ------------------------------------------------------------------------------------------
# Regions


@dataclass(frozen=True)
class Points:
    """Explicit points; values are exact strings (``"1e-5"``, ``"256/60000"``) or ints."""

    points: tuple[Mapping[str, Any], ...]
    # True only when these points are the claim's ENTIRE (finite) domain: then certifying every
    # point is a proof by exhaustive enumeration; otherwise it certifies these points only.
    covers_domain: bool = False

    def __len__(self) -> int:
        return len(self.points)


@dataclass(frozen=True)
class Box:
    """A box of parameters: real intervals (exact ends), integer ranges and fixed values.

    ``log_scale`` names real parameters sampled and split geometrically (e.g. delta in
    [1e-15, 0.9]); ``constraint`` restricts the box (a point outside it is skipped, a sub-box
    for which it is false everywhere is discarded by the interval verifier only if
    ``constraint_box`` says so).

    ``monotone`` declares, for real parameters, the sign (+1 or -1) of the partial derivative
    of a comparison's margin (``rhs - lhs`` for le/lt, ``lhs - rhs`` for ge/gt): a hint to the
    ``interval`` route, which certifies it (the derivative enclosed over sub-boxes of the whole
    box) before deciding the claim on the face where the margin is least, and ignores it (with
    a note in the evidence) when it cannot. Never a source of rigour.
    """

    reals: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    ints: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    log_scale: frozenset[str] = frozenset()
    constraint: Callable[[Mapping[str, Any]], bool] | None = None
    monotone: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, sign in self.monotone.items():
            if name not in self.reals or sign not in (1, -1):
                raise ValueError(f"Box.monotone: {name!r} must be a real parameter of the box "
                                 f"and its sign +1 or -1; got {sign!r}")

    def describe(self) -> str:
        parts = [f"{k} in [{lo}, {hi}]" for k, (lo, hi) in self.reals.items()]
        parts += [f"{k} in {{{lo}..{hi}}}" for k, (lo, hi) in self.ints.items()]
        parts += [f"{k} = {v}" for k, v in self.fixed.items()]
        return ", ".join(parts)


@dataclass(frozen=True)
class Generated:
    """Random finite instances: ``draw(rng)`` returns one point (exact values)."""

    draw: Callable[[random.Random], Mapping[str, Any]]
    count: int = 200
    description: str = "random finite instances"


Region = Points | Box | Generated


# ------------------------------------------------------------------------------------------
# Checks


@dataclass(frozen=True)
class Tol:
    """A stated tolerance ``t = abs_tol + rel_tol*|rhs|``: of an equality, ``|lhs - rhs| <= t``; of
    an order, ``lhs <= rhs + t`` (a bound certified to within ``t``)."""

    abs_tol: Fraction = Fraction(0)
    rel_tol: Fraction = Fraction(0)

    @staticmethod
    def abs(x: str) -> Tol:
        return Tol(abs_tol=Fraction(x))

    @staticmethod
    def rel(x: str) -> Tol:
        return Tol(rel_tol=Fraction(x))

    def digits(self) -> int:
        """Decimal digits of working precision the tolerance asks for."""
        t = self.rel_tol or self.abs_tol
        if t == 0:
            return 30
        import math

        return max(15, math.ceil(-math.log10(float(t))) + 5)

    def describe(self) -> str:
        parts = []
        if self.abs_tol:
            parts.append(f"abs {float(self.abs_tol):.0e}")
        if self.rel_tol:
            parts.append(f"rel {float(self.rel_tol):.0e}")
        return " + ".join(parts) or "exact"


@dataclass(frozen=True)
class Compare:
    """``lhs OP rhs`` at every point of ``region``."""

    lhs: Term
    op: Op
    rhs: Term
    region: Region
    route: Route
    tol: Tol | None = None  # eq: |lhs - rhs| <= t; le/lt (ge/gt): lhs <= rhs + t, a bound
    #                        certified to within t (where equality is attained, balls cannot
    #                        certify lhs <= rhs); without tol the order is certified strictly
    lhs_name: str = "lhs"
    rhs_name: str = "rhs"
    ctx: Literal["arb", "mp"] = "arb"  # "mp" where a side needs quadrature
    part: str = ""  # the conjunct of the claim this check verifies (module docstring)

    def describe(self) -> str:
        tol = f" (tol {self.tol.describe()})" if self.tol else ""
        return f"{self.lhs_name} {OP_SYMBOL[self.op]} {self.rhs_name}{tol}"


@dataclass(frozen=True)
class Predicate:
    """``test(ctx, **point)`` returns True (holds), False (fails) or None (undecided)."""

    test: Term
    region: Region
    route: Route
    description: str
    ctx: Literal["arb", "mp"] = "arb"
    part: str = ""

    def describe(self) -> str:
        return self.description


@dataclass(frozen=True)
class SmtProblem:
    """``hypotheses ⇒ goal`` over real (or integer) variables, as sympy relations.

    ``variables`` maps each name to ``"real"`` or ``"int"``; ``substitutions`` records how the
    polynomial form was obtained (e.g. ``x = e^eps0``) for the report.
    """

    variables: Mapping[str, str]
    hypotheses: tuple[Any, ...]
    goal: Any
    substitutions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Smt:
    """A claim proved (unsat of ``hypotheses ∧ ¬goal``) or refuted (a model) by z3."""

    build: Callable[[], SmtProblem]
    description: str
    route: Route = "smt"
    check_model: Term | None = None  # re-check a z3 model in mpmath: returns True if it fails
    part: str = ""

    def describe(self) -> str:
        return self.description


Check = Compare | Predicate | Smt


@dataclass(frozen=True)
class Claim:
    """A numbered claim of a catalogue entry with the checks that verify it."""

    number: int
    text: str
    checks: tuple[Check, ...]
    expected: Expected = "holds"
    # "universal": a statement for all parameters of a domain; "instance": a value or a
    # comparison at stated points (a paper's table, a worked example).
    scope: Scope = "universal"

    def routes(self) -> tuple[str, ...]:
        seen: list[str] = []
        for c in self.checks:
            if c.route not in seen:
                seen.append(c.route)
        return tuple(seen)


def points(*pts: Mapping[str, Any]) -> Points:
    return Points(tuple(pts))


def grid(**axes: list[Any]) -> Points:
    """The Cartesian product of the given axes, as explicit points."""
    import itertools

    names = list(axes)
    return Points(tuple(dict(zip(names, combo, strict=True))
                        for combo in itertools.product(*(axes[n] for n in names))))


def eq_checks(lhs: Term, rhs: Term, box: Box, tol: str,
              lhs_name: str, rhs_name: str) -> tuple[Compare, ...]:
    """``|lhs - rhs| <= tol`` over ``box``: searched as an equality (property, two-sided) and
    proved as the two inequalities ``lhs <= rhs + tol`` and ``lhs >= rhs - tol`` (interval)."""
    t = Fraction(tol)

    def up(ctx: Any, **kw: Any) -> Any:
        return rhs(ctx, **kw) + ctx.num(t)

    def down(ctx: Any, **kw: Any) -> Any:
        return rhs(ctx, **kw) - ctx.num(t)

    return (Compare(lhs, "eq", rhs, box, "property", Tol.abs(tol), lhs_name, rhs_name),
            Compare(lhs, "le", up, box, "interval", lhs_name=lhs_name,
                    rhs_name=f"{rhs_name} + {tol}"),
            Compare(lhs, "ge", down, box, "interval", lhs_name=lhs_name,
                    rhs_name=f"{rhs_name} - {tol}"))
