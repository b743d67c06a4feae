"""The region a bound is checked on: real and integer ranges, fixed values, defaults.

Ranges are exact (a decimal is taken as written: ``0.01`` is 1/100). Points of the region are
drawn through the unit cube: a coordinate ``u`` in [0, 1] maps linearly, geometrically for
log-scale (delta-like) parameters, or to the nearest integer; a real coordinate is rounded to a
float and taken as the exact decimal of that float, so a callable target sees exactly the point
the reference is evaluated at.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import InvalidParameter
from dpverify.verifiers.bounds.references import ParamSpec, Reference, list_value

Point = dict[str, Any]


def exact_number(x: Any, name: str) -> Fraction:
    """A number exactly as written (a float as the decimal of its repr)."""
    if isinstance(x, bool):
        raise InvalidParameter(f"{name} must be a number; got {x!r}")
    if isinstance(x, float):
        if not math.isfinite(x):
            raise InvalidParameter(f"{name} must be finite; got {x!r}")
        return Fraction(repr(x))
    try:
        return Fraction(str(x).strip()) if not isinstance(x, int | Fraction) else Fraction(x)
    except (ValueError, ZeroDivisionError):
        raise InvalidParameter(f"{name} must be a number; got {x!r}") from None


@dataclass(frozen=True)
class Dim:
    """One searched parameter."""

    name: str
    lo: Fraction
    hi: Fraction
    integer: bool = False
    log: bool = False

    def value(self, u: float) -> Fraction | int:
        u = min(max(u, 0.0), 1.0)
        if self.integer:
            return int(min(max(round(float(self.lo) + u * float(self.hi - self.lo)),
                               int(self.lo)), int(self.hi)))
        if u == 0.0:
            return self.lo
        if u == 1.0:
            return self.hi
        if self.log:
            a, b = math.log(self.lo), math.log(self.hi)
            x = math.exp(a + u * (b - a))
        else:
            x = float(self.lo) + u * float(self.hi - self.lo)
        v = Fraction(repr(x))
        return min(max(v, self.lo), self.hi)

    def unit(self, v: Any) -> float:
        if self.hi == self.lo:
            return 0.0
        if self.log:
            a, b = math.log(self.lo), math.log(self.hi)
            return (math.log(v) - a) / (b - a)
        return float((Fraction(v) - self.lo) / (self.hi - self.lo))

    def describe(self) -> dict[str, Any]:
        show: Any = int if self.integer else float
        return {"lo": show(self.lo), "hi": show(self.hi), "integer": self.integer,
                "log_scale": self.log}


@dataclass(frozen=True)
class Region:
    dims: tuple[Dim, ...]
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def point(self, units: Mapping[str, float]) -> Point:
        return {**{d.name: d.value(units[d.name]) for d in self.dims}, **self.fixed}

    def describe(self) -> dict[str, Any]:
        return {"parameters": {d.name: d.describe() for d in self.dims},
                "fixed": {k: show_value(v) for k, v in self.fixed.items()}}


def show_value(v: Any) -> Any:
    """A point value for JSON: ints stay ints, lists become lists, reals floats (the reals of a
    region are decimals of floats, so the float is exact) or exact strings otherwise."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, tuple | list):
        return [show_value(x) for x in v]
    if isinstance(v, Fraction):
        f = float(v)
        return f if Fraction(repr(f)) == v else f"{v.numerator}/{v.denominator}"
    return v


def parse_range(text: str, name: str) -> tuple[Fraction, Fraction]:
    lo, sep, hi = str(text).partition("..")
    if not sep:
        raise InvalidParameter(f"--region {name}: expected LO..HI; got {text!r}")
    return exact_number(lo, name), exact_number(hi, name)


def _check_domain(spec: ParamSpec, x: Fraction, ref: Reference) -> None:
    if spec.integer and x.denominator != 1:
        raise InvalidParameter(f"{spec.name} must be an integer for {ref.name}; got {x}")
    if not spec.contains(x):
        raise InvalidParameter(f"{spec.name} must be in {spec.domain()} for {ref.name}; got "
                               f"{float(x):g}")


def build_region(ref: Reference, ranges: Mapping[str, Any], fixed: Mapping[str, Any]) -> Region:
    """The region from ``name -> (lo, hi) | "LO..HI"`` and ``name -> value`` (reference names).

    Every reference parameter must be ranged, fixed or have a default; ranges must be
    non-empty, inside the parameter's domain, integer for integer parameters.
    """
    dims: list[Dim] = []
    fixed_out: dict[str, Any] = {}
    for name in list(ranges) + list(fixed):
        ref.spec(name)  # an unknown name is an error naming it
        if name in ranges and name in fixed:
            raise InvalidParameter(f"{name} is both ranged and fixed")
    for spec in ref.params:
        name = spec.name
        if name in ranges:
            r = ranges[name]
            if spec.is_list:
                raise InvalidParameter(f"{name} is a list: give it with --fixed {name}=a,b,c")
            lo, hi = parse_range(r, name) if isinstance(r, str) else (
                exact_number(r[0], name), exact_number(r[1], name))
            if lo > hi:
                raise InvalidParameter(f"--region {name}: empty or inverted range "
                                       f"{float(lo):g}..{float(hi):g}")
            _check_domain(spec, lo, ref)
            _check_domain(spec, hi, ref)
            if lo == hi:
                fixed_out[name] = int(lo) if spec.integer else lo
                continue
            dims.append(Dim(name, lo, hi, spec.integer, spec.log_scale and lo > 0))
        elif name in fixed:
            v = fixed[name]
            if spec.is_list:
                fixed_out[name] = list_value(v if isinstance(v, str) else ",".join(
                    str(x) for x in v), name)
                continue
            x = exact_number(v, name)
            _check_domain(spec, x, ref)
            fixed_out[name] = int(x) if spec.integer else x
        elif spec.default is not None:
            fixed_out[name] = spec.default if not isinstance(spec.default, str) else (
                exact_number(spec.default, name))
        else:
            raise InvalidParameter(f"parameter {name} of {ref.name} needs --region "
                                   f"{name}=LO..HI or --fixed {name}=VALUE ({spec.domain()})")
    return Region(tuple(dims), fixed_out)


__all__ = ["Dim", "Point", "Region", "build_region", "exact_number", "parse_range",
           "show_value"]
