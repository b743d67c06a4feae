"""The bound under test: a formula string, a Python callable or a catalogue evaluator.

A target is evaluated at exact points (``name -> Fraction | int | tuple``, named as the bound
names its parameters) and returns a :class:`TargetValue`: the claimed number as an exact interval
(a callable's float is its claim, exactly; a formula or catalogue evaluator is enclosed in arb
balls), or the problem that prevented it (it raised, hung past the per-evaluation timeout,
returned NaN, a negative or complex number, or something that is not a number). A formula string
also encloses its range over a whole box (:meth:`FormulaTarget.box`), which is what the proof
uses.

Formula strings are parsed by sympy after every token has been checked against a whitelist:
the functions ``exp, expm1, log, log1p, sqrt, erfc, Phi, min, max``, the operators
``+ - * / ^ **`` and parentheses, numbers (taken exactly: ``0.1`` is 1/10) and the parameter
names. Anything else is an ``InvalidParameter`` naming the token.
"""

from __future__ import annotations

import importlib
import io
import math
import re
import threading
import tokenize
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import PrecisionExhausted, Unsupported, arb_endpoints, arb_precision
from dpverify.theorems.errors import DpVerifyError, InvalidParameter, UnknownName

FUNCTIONS = ("exp", "expm1", "log", "log1p", "sqrt", "erfc", "Phi", "min", "max")
OPERATORS = ("+", "-", "*", "/", "^", "**", "(", ")", ",")
DEFAULT_EVAL_TIMEOUT = 10.0


@dataclass(frozen=True)
class TargetValue:
    """A claimed value ``lo <= claim <= hi`` (exact), or the ``problem`` at this point."""

    lo: Fraction | float | None = None
    hi: Fraction | float | None = None
    problem: str | None = None  # raised | timeout | nan | negative | complex | not_a_number
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.problem is None


def _problem(kind: str, detail: str) -> TargetValue:
    return TargetValue(problem=kind, detail=detail[:300])


def _checked(lo: Fraction | float, hi: Fraction | float) -> TargetValue:
    if hi < 0:
        return _problem("negative", f"the bound is negative: {float(hi):.6g}")
    return TargetValue(lo, hi)


# ------------------------------------------------------------------------------------------
# formula strings


def _tokens(text: str) -> list[tokenize.TokenInfo]:
    try:
        return [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER,
                                  tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, IndentationError, SyntaxError) as e:
        raise InvalidParameter(f"formula {text!r} cannot be read: {e}") from None


def parse_formula(text: str, names: tuple[str, ...]) -> Any:
    """The sympy expression of a whitelisted formula over the parameters ``names``."""
    import sympy as sp
    from sympy.parsing.sympy_parser import (
        convert_xor,
        parse_expr,
        rationalize,
        standard_transformations,
    )

    if not text.strip():
        raise InvalidParameter("the formula is empty")
    for tok in _tokens(text):
        if tok.type == tokenize.NAME:
            if tok.string not in FUNCTIONS and tok.string not in names:
                raise InvalidParameter(
                    f"unknown name {tok.string!r} in the formula (functions: "
                    f"{', '.join(FUNCTIONS)}; parameters: {', '.join(names)})")
        elif tok.type == tokenize.NUMBER:
            if re.search(r"[jJ]", tok.string):
                raise InvalidParameter(f"complex number {tok.string!r} in the formula")
        elif tok.type == tokenize.OP:
            if tok.string not in OPERATORS:
                raise InvalidParameter(f"operator {tok.string!r} is not allowed in the formula "
                                       f"(allowed: {' '.join(OPERATORS)})")
        else:
            raise InvalidParameter(f"token {tok.string!r} is not allowed in the formula")
    local: dict[str, Any] = {n: sp.Symbol(n, real=True) for n in names}
    local.update({
        "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "erfc": sp.erfc,
        "expm1": lambda x: sp.exp(x) - 1, "log1p": lambda x: sp.log(1 + x),
        "Phi": lambda x: sp.erfc(-x / sp.sqrt(2)) / 2, "min": sp.Min, "max": sp.Max})
    try:
        expr = parse_expr(text, local_dict=local, global_dict={
            "Integer": sp.Integer, "Float": sp.Float, "Rational": sp.Rational,
            "Symbol": sp.Symbol, "Function": sp.Function},
            transformations=(*standard_transformations, convert_xor, rationalize))
    except (SyntaxError, TypeError, ValueError) as e:
        raise InvalidParameter(f"formula {text!r} cannot be parsed: {e}") from None
    if not isinstance(expr, sp.Expr):
        raise InvalidParameter(f"formula {text!r} is not a number-valued expression")
    return expr


def _iv_ends(iv: Any) -> tuple[Fraction, Fraction]:
    lo = flint.arb(iv.lo).lower()
    hi = flint.arb(iv.hi).upper()
    if not (lo.is_finite() and hi.is_finite()):
        raise PrecisionExhausted("the enclosure of the bound is not finite")
    return arb_endpoints(lo)[0], arb_endpoints(hi)[1]


class FormulaTarget:
    """A whitelisted formula string, enclosed rigorously at points and over boxes."""

    kind = "formula"

    def __init__(self, text: str, names: tuple[str, ...]) -> None:
        from dpverify.verifiers.interval import compile_interval

        self.text = text
        self.expr = parse_formula(text, names)
        self.names = tuple(sorted(s.name for s in self.expr.free_symbols))
        try:
            self._f = compile_interval(self.expr)
        except Unsupported as e:
            raise InvalidParameter(f"formula {text!r} cannot be evaluated: {e}") from None

    def _env(self, box: Mapping[str, tuple[Any, Any]]) -> dict[str, Any]:
        from dpverify.verifiers.interval import Iv

        env = {}
        for n in self.names:
            lo, hi = box[n]
            env[n] = Iv.exact(Fraction(lo), Fraction(hi))
        return env

    def box(self, box: Mapping[str, tuple[Any, Any]], prec: int = 128
            ) -> tuple[Fraction, Fraction] | None:
        """A certified range of the formula over a box (None: not finite there)."""
        try:
            with arb_precision(prec):
                return _iv_ends(self._f(self._env(box)))
        except (PrecisionExhausted, ArithmeticError, ValueError, Unsupported):
            return None

    def at(self, args: Mapping[str, Any], prec: int = 128) -> TargetValue:
        got = self.box({n: (args[n], args[n]) for n in self.names}, prec)
        if got is None:
            return _problem("nan", "the formula is undefined or not finite at this point")
        return _checked(*got)


# ------------------------------------------------------------------------------------------
# callables


def _to_exact(x: Any) -> TargetValue:
    import mpmath

    if isinstance(x, bool):
        return _problem("not_a_number", f"returned a bool ({x})")
    if isinstance(x, complex | mpmath.mpc):
        return _problem("complex", f"returned a complex number {x}")
    if isinstance(x, int | Fraction):
        v = Fraction(x)
        return _checked(v, v)
    if isinstance(x, Decimal):
        if not x.is_finite():
            return _problem("nan", f"returned {x}")
        v = Fraction(x)
        return _checked(v, v)
    if isinstance(x, mpmath.mpf):
        if mpmath.isnan(x):
            return _problem("nan", "returned NaN")
        if mpmath.isinf(x):
            return _checked(math.inf, math.inf) if x > 0 else _problem("negative", "-inf")
        man, exp = x.man_exp
        v = Fraction(int(man)) * Fraction(2) ** int(exp)
        return _checked(v, v)
    try:
        f = float(x)
    except (TypeError, ValueError):
        if hasattr(x, "imag"):
            return _problem("complex", f"returned {x!r}")
        return _problem("not_a_number", f"returned {type(x).__name__} {x!r}")
    if math.isnan(f):
        return _problem("nan", "returned NaN")
    if math.isinf(f):
        return _checked(math.inf, math.inf) if f > 0 else _problem("negative", "returned -inf")
    v = Fraction(f)
    return _checked(v, v)


def _plain(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_plain(x) for x in v]
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    return float(v)


class CallableTarget:
    """A Python callable called with keyword arguments (floats, ints, lists of floats); each
    call runs in a daemon thread so that a hang is cut at ``timeout`` seconds and recorded."""

    kind = "callable"

    def __init__(self, fn: Callable[..., Any], text: str, timeout: float) -> None:
        self.fn = fn
        self.text = text
        self.timeout = timeout
        self.names: tuple[str, ...] = ()
        self.hung = 0

    def at(self, args: Mapping[str, Any], prec: int = 128) -> TargetValue:
        kwargs = {k: _plain(v) for k, v in args.items()}
        box: dict[str, Any] = {}

        def call() -> None:
            try:
                box["value"] = self.fn(**kwargs)
            except BaseException as e:  # the target's failure is data
                box["error"] = e

        t = threading.Thread(target=call, daemon=True, name="check-bound-target")
        t.start()
        t.join(self.timeout)
        if t.is_alive():
            self.hung += 1
            return _problem("timeout", f"no answer within {self.timeout:g} s")
        if "error" in box:
            e = box["error"]
            return _problem("raised", f"{type(e).__name__}: {e}")
        return _to_exact(box["value"])


class CatalogueTarget:
    """A catalogue evaluator ``ID.NAME``, enclosed in arb balls."""

    kind = "catalogue"

    def __init__(self, text: str) -> None:
        from dpverify.verifiers.bounds.references import catalogue_evaluator

        self.text = text
        self.theorem, self.evaluator = catalogue_evaluator(text)
        self.required = tuple(p.name for p in self.evaluator.params if p.default is None)
        self.names = tuple(p.name for p in self.evaluator.params)

    def at(self, args: Mapping[str, Any], prec: int = 128) -> TargetValue:
        from dpverify.verifiers.bounds.references import evaluator_enclosure

        try:
            lo, hi = evaluator_enclosure(self.evaluator, args, prec)
        except (DpVerifyError, ArithmeticError, ValueError) as e:
            return _problem("raised", f"{type(e).__name__}: {e}")
        return _checked(lo, hi)


Target = FormulaTarget | CallableTarget | CatalogueTarget

_CALLABLE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
_CATALOGUE = re.compile(r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*(\.\w+)?$")


def load_callable(spec: str) -> Callable[..., Any]:
    """``module:function`` (``module.sub:Class.attr`` also works)."""
    mod_name, _, attr = spec.partition(":")
    try:
        obj: Any = importlib.import_module(mod_name)
    except ImportError as e:
        raise InvalidParameter(f"TARGET {spec}: cannot import module {mod_name!r} ({e})") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InvalidParameter(f"TARGET {spec}: module {mod_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise InvalidParameter(f"TARGET {spec}: {attr!r} is not callable")
    return obj


def make_target(target: Any, names: tuple[str, ...],
                timeout: float = DEFAULT_EVAL_TIMEOUT) -> Target:
    """The target from a callable or a string (``module:function``, ``ID.NAME``, a formula)."""
    if timeout <= 0:
        raise InvalidParameter(f"the per-evaluation timeout must be > 0; got {timeout}")
    if callable(target):
        name = getattr(target, "__qualname__", None) or repr(target)
        mod = getattr(target, "__module__", None)
        text = f"{mod}:{name}" if mod and "<" not in name else name
        return CallableTarget(target, text, timeout)
    if not isinstance(target, str):
        raise InvalidParameter(f"TARGET must be a callable or a string; got "
                               f"{type(target).__name__}")
    text = target.strip()
    if _CALLABLE.match(text):
        return CallableTarget(load_callable(text), text, timeout)
    if _CATALOGUE.match(text) and text not in names:
        try:
            return CatalogueTarget(text)
        except UnknownName:
            pass
    return FormulaTarget(text, names)


__all__ = ["FUNCTIONS", "CallableTarget", "CatalogueTarget", "FormulaTarget", "Target",
           "TargetValue", "load_callable", "make_target", "parse_formula"]
