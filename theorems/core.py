"""The theorem model: sources, parameter domains, evaluators, claims and theorems.

A theorem is data. Its formulas are plain functions ``f(ctx, **params)`` written once against
the arithmetic-context protocol of :mod:`theorems.ctx`; its claims are values from
:mod:`theorems.claims` that the verifiers know how to check.

Main results
------------
- :class:`Theorem`, :class:`Source`, :class:`Evaluator` and the parameter domains
  :class:`Real`, :class:`Int`, :class:`Choice`, :class:`RealList`.
- :func:`parse_number`: exact parsing of decimal literals and fractions (never through binary
  floating point), as the catalogue's evaluation contract requires.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import DpVerifyError as DpVerifyError
from dpverify.theorems.errors import InvalidParameter as InvalidParameter
from dpverify.theorems.errors import UnknownName as UnknownName

# --------------------------------------------------------------------------------------------
# Errors




# --------------------------------------------------------------------------------------------
# Exact numbers

_DECIMAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def parse_number(text: str, name: str = "value") -> Fraction:
    """Parse a decimal literal (``0.01``, ``1e-5``) or a fraction (``256/60000``) exactly."""
    s = text.strip()
    try:
        if "/" in s:
            num, _, den = s.partition("/")
            if not (_DECIMAL.match(num) and _DECIMAL.match(den)):
                raise ValueError
            d = Fraction(den)
            if d == 0:
                raise InvalidParameter(f"{name} has a zero denominator; got {text}")
            return Fraction(num) / d
        if not _DECIMAL.match(s):
            raise ValueError
        return Fraction(s)
    except (ValueError, ZeroDivisionError):
        raise InvalidParameter(
            f"{name} must be a decimal number or a fraction like 256/60000; got {text!r}"
        ) from None


def fmt_fraction(x: Fraction | int) -> str:
    """A short exact string for a parameter value (decimal when finite, else p/q)."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    scale = max(twos, fives)
    digits = abs(x.numerator) * 10**scale // x.denominator
    s = str(digits).rjust(scale + 1, "0")
    sign = "-" if x < 0 else ""
    return f"{sign}{s[:-scale]}.{s[-scale:]}"


# --------------------------------------------------------------------------------------------
# Parameter domains (the hypotheses of a theorem)

_INF = None  # an unbounded end of an interval


@dataclass(frozen=True)
class Real:
    """A real parameter in an interval; ``lo``/``hi`` of ``None`` mean unbounded."""

    name: str
    lo: Fraction | int | None = None
    hi: Fraction | int | None = None
    lo_open: bool = False
    hi_open: bool = False
    default: str | None = None
    doc: str = ""

    def describe(self) -> str:
        lo = "-inf" if self.lo is None else fmt_fraction(self.lo)
        hi = "inf" if self.hi is None else fmt_fraction(self.hi)
        left = "(" if (self.lo_open or self.lo is None) else "["
        right = ")" if (self.hi_open or self.hi is None) else "]"
        return f"{left}{lo}, {hi}{right}"

    def contains(self, x: Fraction) -> bool:
        if self.lo is not None and (x < self.lo or (self.lo_open and x == self.lo)):
            return False
        return not (self.hi is not None and (x > self.hi or (self.hi_open and x == self.hi)))

    def parse(self, text: str) -> Fraction:
        return self.check(parse_number(text, self.name))

    def check(self, x: Fraction | int | str) -> Fraction:
        x = parse_number(x, self.name) if isinstance(x, str) else Fraction(x)
        if not self.contains(x):
            raise InvalidParameter(
                f"{self.name} must be in {self.describe()}; got {fmt_fraction(x)}"
            )
        return x

    def show(self, x: Fraction) -> str:
        return fmt_fraction(x)


@dataclass(frozen=True)
class Int:
    """An integer parameter in ``[lo, hi]`` (``hi=None``: unbounded)."""

    name: str
    lo: int | None = None
    hi: int | None = None
    default: str | None = None
    doc: str = ""

    def describe(self) -> str:
        lo = "-inf" if self.lo is None else str(self.lo)
        hi = "inf" if self.hi is None else str(self.hi)
        return f"integers in [{lo}, {hi}]" if self.hi is not None else f"an integer >= {lo}"

    def parse(self, text: str) -> int:
        s = text.strip()
        if not re.fullmatch(r"[+-]?\d+", s):
            raise InvalidParameter(f"{self.name} must be {self.describe()}; got {text!r}")
        return self.check(int(s))

    def check(self, x: int | Fraction | str) -> int:
        if isinstance(x, str):
            return self.parse(x)
        if Fraction(x).denominator != 1:
            raise InvalidParameter(f"{self.name} must be {self.describe()}; got {x}")
        x = int(x)
        if (self.lo is not None and x < self.lo) or (self.hi is not None and x > self.hi):
            raise InvalidParameter(f"{self.name} must be {self.describe()}; got {x}")
        return x

    def show(self, x: int) -> str:
        return str(x)


@dataclass(frozen=True)
class Choice:
    """A parameter taking one of a fixed set of string values."""

    name: str
    options: tuple[str, ...]
    default: str | None = None
    doc: str = ""

    def describe(self) -> str:
        return "one of " + ", ".join(self.options)

    def parse(self, text: str) -> str:
        return self.check(text)

    def check(self, x: str) -> str:
        if x not in self.options:
            raise InvalidParameter(f"{self.name} must be {self.describe()}; got {x!r}")
        return x

    def show(self, x: str) -> str:
        return x


@dataclass(frozen=True)
class RealList:
    """A comma-separated list of reals, each in ``element``'s interval."""

    name: str
    element: Real
    min_len: int = 1
    max_len: int | None = None
    default: str | None = None
    doc: str = ""

    def describe(self) -> str:
        return f"a comma-separated list of numbers in {self.element.describe()}"

    def parse(self, text: str) -> tuple[Fraction, ...]:
        if text.strip() == "" and self.min_len == 0:
            return ()  # an optional list given as "" (the default of e.g. [delta_list])
        parts = [p for p in text.split(",")]
        if any(p.strip() == "" for p in parts):
            raise InvalidParameter(f"{self.name} must be {self.describe()}; got {text!r}")
        return self.check(tuple(parse_number(p, self.name) for p in parts))

    def check(self, xs: Sequence[Fraction | int | str] | str) -> tuple[Fraction, ...]:
        if isinstance(xs, str):
            return self.parse(xs)
        values = tuple(self.element.check(x) for x in xs)
        if len(values) < self.min_len or (self.max_len is not None and len(values) > self.max_len):
            bound = f"at most {self.max_len}" if self.max_len is not None else "any number of"
            raise InvalidParameter(
                f"{self.name} must have at least {self.min_len} and {bound} entries; "
                f"got {len(values)}"
            )
        return values

    def show(self, xs: tuple[Fraction, ...]) -> list[str]:
        return [fmt_fraction(x) for x in xs]


Param = Real | Int | Choice | RealList


def bind(params: Sequence[Param], given: Mapping[str, Any], what: str = "") -> dict[str, Any]:
    """Validate ``given`` against ``params``: fill defaults, reject unknown and missing names.

    Values may be strings (parsed exactly) or already-typed numbers.
    """
    known = {p.name for p in params}
    for name in given:
        if name not in known:
            expected = ", ".join(p.name for p in params) or "no parameters"
            raise InvalidParameter(f"unknown parameter {name!r} for {what}; expected {expected}")
    out: dict[str, Any] = {}
    for p in params:
        if p.name in given:
            out[p.name] = p.check(given[p.name])
        elif p.default is not None:
            out[p.name] = p.check(p.default)
        else:
            raise InvalidParameter(f"missing parameter {p.name} ({p.describe()}) for {what}")
    return out


# --------------------------------------------------------------------------------------------
# Sources, evaluators, theorems


@dataclass(frozen=True)
class Source:
    """Where a statement comes from: paper, arXiv id and version, and the exact locator."""

    paper: str
    locator: str
    arxiv: str | None = None
    version: str | None = None

    def cite(self) -> str:
        version = self.version or " (version not verified)"
        ax = f", arXiv {self.arxiv}{version}" if self.arxiv else ""
        return f"{self.paper}{ax}, {self.locator}"


Formula = Callable[..., Any]  # f(ctx, **params) -> ctx number


@dataclass(frozen=True)
class Evaluator:
    """A formula exposed on the command line as ``ID.name``."""

    name: str
    params: tuple[Param, ...]
    formula: Formula
    doc: str
    integer_valued: bool = False
    # The formula returns an enclosure of fixed accuracy (e.g. a discretisation), not a value
    # that rising precision can narrow: ``dpverify eval`` evaluates it once and reports the
    # midpoint to the digits the ball supports, with the enclosure.
    enclosure_only: bool = False

    def signature(self) -> str:
        parts = []
        for p in self.params:
            parts.append(f"{p.name}={p.default}" if p.default is not None else p.name)
        return f"{self.name}({', '.join(parts)})"


TYPE_TAGS = ("EXACT", "TIGHT", "BOUND", "APPROX", "DEFINITION", "ALGORITHM")
CONFIDENCE_TAGS = ("CONFIRMED", "HIGH", "DERIVED", "UNCERTAIN")


@dataclass(frozen=True)
class Theorem:
    """One catalogue entry: id, statement, source, domain, evaluators and claims."""

    id: str
    title: str
    family: str
    source: Source
    types: tuple[str, ...]
    confidence: tuple[str, ...]
    statement: str
    domain: str
    evaluators: tuple[Evaluator, ...] = ()
    claims: tuple[Any, ...] = ()  # theorems.claims.Claim; typed loosely to avoid a cycle
    aliases: tuple[str, ...] = ()
    notes: str = ""
    encoded: bool = True  # False: indexed from the catalogue, formulas not yet encoded

    def __post_init__(self) -> None:
        for t in self.types:
            if t not in TYPE_TAGS:
                raise ValueError(f"{self.id}: unknown type tag {t}")
        for c in self.confidence:
            if c not in CONFIDENCE_TAGS:
                raise ValueError(f"{self.id}: unknown confidence tag {c}")
        names = [e.name for e in self.evaluators]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.id}: duplicate evaluator names")
        numbers = [c.number for c in self.claims]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"{self.id}: duplicate claim numbers {numbers}")

    def evaluator(self, name: str | None) -> Evaluator:
        if not self.evaluators:
            raise UnknownName(f"{self.id} has no evaluators")
        if name is None:
            return self.evaluators[0]
        for e in self.evaluators:
            if e.name == name:
                return e
        names = ", ".join(e.name for e in self.evaluators)
        raise UnknownName(f"unknown evaluator {name!r} of {self.id}; expected one of {names}")


@dataclass(frozen=True)
class Family:
    """A module of theorems, as the registry collects them."""

    name: str
    theorems: tuple[Theorem, ...] = field(default_factory=tuple)
