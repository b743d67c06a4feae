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

from dpverify.theorems.display import fmt_fraction as fmt_fraction
from dpverify.theorems.display import short_fraction as short_fraction
from dpverify.theorems.errors import DpVerifyError as DpVerifyError
from dpverify.theorems.errors import InvalidParameter as InvalidParameter
from dpverify.theorems.errors import UnknownName as UnknownName

# --------------------------------------------------------------------------------------------
# Errors




# --------------------------------------------------------------------------------------------
# Exact numbers

_DECIMAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_NOT_FINITE = re.compile(r"^[+-]?(nan|inf|infinity)$", re.IGNORECASE)

# Limits of a number written on the command line (or in a point of a claim). They keep every
# exact value far below Python's 4300-digit int-string limit and make the cost of exact
# arithmetic on it predictable; no formula of the catalogue is meaningful beyond them.
MAX_DIGITS = 1000  # significant digits in one decimal literal (each side of a fraction)
MAX_EXPONENT = 1000  # |decimal exponent| of a literal: values within 10^-1000 .. 10^1000
MAX_INT_DIGITS = 18  # digits of an integer parameter (counts, orders): below 10^18
MAX_LIST = 1000  # entries of a list parameter (eps_list, ...), unless an evaluator says less


def _decimal(part: str, name: str, text: str) -> Fraction:
    """One decimal literal, refused past the digit and exponent limits before any big
    integer is built."""
    m = _DECIMAL.match(part)
    if not m:
        raise ValueError
    mantissa, exp_part = m.group(1), m.group(2)
    digits = mantissa.replace(".", "").lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise InvalidParameter(
            f"{name} has {len(digits)} significant digits, more than the limit of {MAX_DIGITS}; "
            f"got {_clip(text)}")
    exponent = 0
    if exp_part:
        e_digits = exp_part[1:].lstrip("+-").lstrip("0")
        if len(e_digits) > 6:
            raise InvalidParameter(
                f"{name} must be within 10^-{MAX_EXPONENT} .. 10^{MAX_EXPONENT} in magnitude "
                f"(exponent limit); got {_clip(text)}")
        exponent = int(exp_part[1:])
    if digits:
        whole = mantissa.split(".")[0].lstrip("+-").lstrip("0")
        lead = len(whole) - 1 if whole else -(len(mantissa.split(".")[1]) -
                                              len(mantissa.split(".")[1].lstrip("0")) + 1)
        magnitude = lead + exponent
        if abs(magnitude) > MAX_EXPONENT:
            raise InvalidParameter(
                f"{name} must be within 10^-{MAX_EXPONENT} .. 10^{MAX_EXPONENT} in magnitude "
                f"(exponent limit); got {_clip(text)}")
    return Fraction(part)


def _clip(text: str, n: int = 40) -> str:
    """A user's value in a message, shortened: a 5000-digit literal stays one short line."""
    text = repr(text) if text.strip() != text or not text else text
    return text if len(text) <= n else f"{text[:n // 2]}...{text[-8:]} ({len(text)} chars)"


def parse_number(text: str, name: str = "value") -> Fraction:
    """Parse a decimal literal (``0.01``, ``1e-5``) or a fraction (``256/60000``) exactly.

    Refuses, naming ``name``: non-numbers, nan and infinities, literals past
    :data:`MAX_DIGITS` significant digits or :data:`MAX_EXPONENT` in decimal exponent (checked
    on the text, before a big integer is built), and a zero denominator.
    """
    s = text.strip()
    if _NOT_FINITE.match(s):
        raise InvalidParameter(f"{name} must be a finite number; got {_clip(text)}")
    if len(s) > 4 * MAX_DIGITS:
        raise InvalidParameter(
            f"{name} is {len(s)} characters long, more than a number within the limits "
            f"({MAX_DIGITS} digits) can be; got {_clip(text)}")
    try:
        if "/" in s:
            num, _, den = s.partition("/")
            d = _decimal(den, name, text)
            n = _decimal(num, name, text)
            if d == 0:
                raise InvalidParameter(f"{name} has a zero denominator; got {_clip(text)}")
            return n / d
        return _decimal(s, name, text)
    except (ValueError, ZeroDivisionError) as e:
        if isinstance(e, InvalidParameter):
            raise
        raise InvalidParameter(
            f"{name} must be a decimal number or a fraction like 256/60000; got {_clip(text)}"
        ) from None


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
    # Cost limits of dpverify inside the domain (not hypotheses of the theorem): values below
    # ``floor`` or above ``ceiling`` are refused with ``limit_reason``
    floor: Fraction | int | None = None
    ceiling: Fraction | int | None = None
    limit_reason: str = ""

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
                f"{self.name} must be in {self.describe()}; got {short_fraction(x)}"
            )
        if (self.floor is not None and x < self.floor) or (
                self.ceiling is not None and x > self.ceiling):
            floor = self.floor if self.floor is not None else self.lo
            lo = "(-inf" if floor is None else ("(" if self.floor is None and self.lo_open
                                                 else "[") + fmt_fraction(floor)
            hi = "inf)" if self.ceiling is None else fmt_fraction(self.ceiling) + "]"
            raise InvalidParameter(f"{self.name} must be in {lo}, {hi} ({self.limit_reason}); "
                                   f"got {short_fraction(x)}")
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
    # a cost limit of dpverify inside the domain (not a hypothesis of the theorem): values
    # above ``ceiling`` are refused with ``limit_reason``
    ceiling: int | None = None
    limit_reason: str = ""

    def describe(self) -> str:
        lo = "-inf" if self.lo is None else str(self.lo)
        hi = "inf" if self.hi is None else str(self.hi)
        return f"integers in [{lo}, {hi}]" if self.hi is not None else f"an integer >= {lo}"

    def parse(self, text: str) -> int:
        s = text.strip()
        if not re.fullmatch(r"[+-]?\d+", s):
            raise InvalidParameter(f"{self.name} must be {self.describe()}; got {_clip(text)}")
        if len(s.lstrip("+-").lstrip("0")) > MAX_INT_DIGITS:
            raise InvalidParameter(f"{self.name} must be {self.describe()} and have at most "
                                   f"{MAX_INT_DIGITS} digits; got {_clip(text)}")
        return self.check(int(s))

    def check(self, x: int | Fraction | str) -> int:
        if isinstance(x, str):
            return self.parse(x)
        if Fraction(x).denominator != 1:
            raise InvalidParameter(
                f"{self.name} must be {self.describe()}; got {short_fraction(Fraction(x))}")
        x = int(x)
        if (self.lo is not None and x < self.lo) or (self.hi is not None and x > self.hi):
            raise InvalidParameter(
                f"{self.name} must be {self.describe()}; got {short_fraction(x)}")
        if self.ceiling is not None and x > self.ceiling:
            raise InvalidParameter(f"{self.name} must be at most {self.ceiling} "
                                   f"({self.limit_reason}); got {short_fraction(x)}")
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
    max_len: int | None = MAX_LIST
    default: str | None = None
    doc: str = ""

    def describe(self) -> str:
        return f"a comma-separated list of numbers in {self.element.describe()}"

    def parse(self, text: str) -> tuple[Fraction, ...]:
        if text.strip() == "" and self.min_len == 0:
            return ()  # an optional list given as "" (the default of e.g. [delta_list])
        if self.max_len is not None and text.count(",") >= self.max_len:
            raise InvalidParameter(f"{self.name} must have at most {self.max_len} entries "
                                   f"(a cost limit); got {text.count(',') + 1}")
        parts = [p for p in text.split(",")]
        if any(p.strip() == "" for p in parts):
            raise InvalidParameter(f"{self.name} must be {self.describe()}: an entry is empty; "
                                   f"got {_clip(text)}")
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
    from dpverify.theorems.limits import check as check_limits

    check_limits(what, out)
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
    # ``(list parameter, formula argument)``: the evaluator returns one value per entry of the
    # list parameter, the formula being called with each entry as the scalar argument
    # (``dpverify eval`` prints one value per line; JSON ``value``/``enclosure`` are arrays).
    vector: tuple[str, str] | None = None

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
