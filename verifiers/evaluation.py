"""``dpverify eval``: an evaluator to D significant digits with a rigorous enclosure.

Main results
------------
- :func:`evaluate`: arb at rising precision until the ball is narrow enough (successive balls
  intersected: an enclosure only narrows) when the formula runs in arb, otherwise mpmath at two
  precisions that must agree to D digits; an enclosure-only engine once, with a note when its
  enclosure supports fewer digits than asked. Exact zeros, nan, overflow to inf and negative
  values of non-negative quantities are recognised (see :func:`evaluate`).
- :func:`intersect`: the intersection of two rigorous enclosures of one value.
- :func:`format_value`: an exact rational to D significant digits.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.core import Evaluator, InvalidParameter
from dpverify.theorems.ctx import (
    ArbCtx,
    MpCtx,
    PrecisionExhausted,
    Unsupported,
    arb_endpoints,
    arb_precision,
    digits_to_bits,
)
from dpverify.verifiers.numeric import GUARD_BITS


@dataclass
class Evaluation:
    value: str
    enclosure: tuple[str, str] | None
    prec: int
    exact: Fraction | None = None
    note: str = ""  # e.g. fewer digits than asked, or 0 only to within the enclosure


def _round_fraction(x: Fraction, sig: int, direction: str) -> str:
    """``x`` to ``sig`` significant digits, rounded floor/ceil/nearest, as a decimal string.

    Exact integer arithmetic with a single power of ten, so huge exponents stay cheap.
    """
    if x == 0:
        return "0"
    neg = x < 0
    a = -x if neg else x
    num, den = a.numerator, a.denominator
    e = math.floor((num.bit_length() - den.bit_length()) * math.log10(2))
    shift = sig - 1 - e
    big_n, big_d = (num * 10**shift, den) if shift >= 0 else (num, den * 10 ** (-shift))
    while big_n < big_d * 10 ** (sig - 1):  # the estimate of e was one too high
        big_n *= 10
        e -= 1
    while big_n >= big_d * 10**sig:  # one too low
        big_d *= 10
        e += 1
    q, r = divmod(big_n, big_d)
    if direction == "nearest":
        n = q + (1 if 2 * r >= big_d else 0)
    else:
        down = (direction == "floor") != neg
        n = q if (down or r == 0) else q + 1
    if n == 10**sig:  # rounding carried into a new digit
        n //= 10
        e += 1
    digits = str(n)
    sign = "-" if neg else ""
    if -5 <= e < sig + 2 and e < 21:
        point = e + 1  # digits before the decimal point
        if point <= 0:
            body = "0." + "0" * (-point) + digits
        elif point >= len(digits):
            body = digits + "0" * (point - len(digits))
        else:
            body = digits[:point] + "." + digits[point:]
        return sign + body
    mant = digits[0] + ("." + digits[1:] if sig > 1 else "")
    return f"{sign}{mant}e{e:+d}".replace("e+", "e")


def format_value(x: Fraction, digits: int) -> str:
    return _round_fraction(x, digits, "nearest")


def evaluate(
    evaluator: Evaluator, params: Mapping[str, Any], digits: int = 15, max_bits: int = 65536,
    key: str = "",
) -> Evaluation:
    """Evaluate to ``digits`` significant digits, with a rigorous enclosure where possible.

    An evaluator marked ``enclosure_only`` is evaluated once in arb: its value is the midpoint
    of the ball to as many digits as the ball supports (at most ``digits``; ``note`` says when
    that is fewer). A value whose enclosure still contains 0 at ``max_bits`` is reported as 0
    with that enclosure (an arb ball that is exactly 0 at once). The result is refused
    (:class:`InvalidParameter`, naming the parameters) when it is nan, when it overflows, or
    when it is negative for an evaluator whose value is non-negative by definition
    (``theorems.limits.NONNEGATIVE``): those are points outside what the formula evaluates.
    ``key`` ("ID.evaluator") also refuses +inf unless ``theorems.limits.MAY_BE_INFINITE``
    lists the evaluator (without a key, +inf is returned as it is).
    """
    prec = digits_to_bits(digits) + GUARD_BITS
    try:
        if evaluator.enclosure_only:
            result = _evaluate_enclosure(evaluator, params, digits, prec)
        else:
            try:
                result = _evaluate_arb(evaluator, params, digits, prec, max_bits)
            except Unsupported:
                result = _evaluate_mp(evaluator, params, digits, prec, max_bits)
    except (OverflowError, ZeroDivisionError, FloatingPointError) as e:
        raise InvalidParameter(
            f"{key or evaluator.name} cannot be evaluated at {_show_params(params)}: the formula's "
            f"arithmetic overflowed ({e}); these parameters are outside its numeric range"
        ) from None
    return _refuse_impossible(evaluator, params, result, key)


def evaluate_each(evaluator: Evaluator, params: Mapping[str, Any], digits: int = 15,
                  max_bits: int = 65536, key: str = "") -> list[Evaluation]:
    """A vector evaluator (``evaluator.vector = (list name, scalar name)``): one
    :func:`evaluate` per entry of the list parameter, in its order."""
    if evaluator.vector is None:
        return [evaluate(evaluator, params, digits, max_bits, key)]
    list_name, scalar = evaluator.vector
    rest = {k: v for k, v in params.items() if k != list_name}
    return [evaluate(evaluator, {**rest, scalar: x}, digits, max_bits, key)
            for x in params[list_name]]


def _show_params(params: Mapping[str, Any]) -> str:
    """The parameters of an evaluation, short (for one-line messages)."""
    from dpverify.theorems.display import short_fraction

    def one(v: Any) -> str:
        if isinstance(v, Fraction | int) and not isinstance(v, bool):
            return short_fraction(v)
        if isinstance(v, tuple | list):
            inner = ",".join(one(x) for x in v[:4])
            return inner + (f",... ({len(v)} entries)" if len(v) > 4 else "")
        return str(v)

    return ", ".join(f"{k}={one(v)}" for k, v in params.items()) or "no parameters"


def _refuse_impossible(evaluator: Evaluator, params: Mapping[str, Any],
                       result: Evaluation, key: str) -> Evaluation:
    from dpverify.theorems.limits import MAY_BE_INFINITE, NONNEGATIVE

    where = f"{key or evaluator.name} at {_show_params(params)}"
    if result.value in ("nan", "-inf") or "nan" in result.value:
        raise InvalidParameter(f"{where} is not a number ({result.value}): these parameters "
                               "are outside the formula's numeric range")
    if result.value == "inf" and key and key not in MAY_BE_INFINITE:
        raise InvalidParameter(f"{where} overflowed to inf although the value is finite there: "
                               "these parameters are outside the formula's numeric range")
    if (evaluator.name.startswith("delta") and result.exact is not None and result.exact > 1
            and not result.note):
        result.note = (f"{evaluator.name} above 1: the bound is vacuous at these parameters "
                       "(any mechanism is (eps, 1)-DP)")
    if result.value.startswith("-") and evaluator.name in NONNEGATIVE:
        hi = result.enclosure[1] if result.enclosure else result.value
        if hi.startswith("-"):
            raise InvalidParameter(
                f"{where} is negative ({result.value}), but {evaluator.name} >= 0 by "
                "definition: the bound is vacuous at these parameters (they are outside its "
                "useful range)")
    return result


def _evaluate_enclosure(evaluator: Evaluator, params: Mapping[str, Any], digits: int,
                        prec: int) -> Evaluation:
    """One arb evaluation of an enclosure-valued formula (its width is not a matter of
    precision): the midpoint to the digits the ball supports and the outward-rounded ends."""
    with arb_precision(prec):
        x = flint.arb(ArbCtx(prec).run(evaluator.formula, **params))
    if _is_pos_inf(x):
        return Evaluation("inf", ("inf", "inf"), prec)
    if not x.is_finite():
        return Evaluation("nan", None, prec)
    lo, hi = arb_endpoints(x)
    mid = (lo + hi) / 2
    width = hi - lo
    if width == 0:
        sig = digits
    elif mid == 0:
        sig = 1
    else:
        sig = max(1, min(digits, math.floor(math.log10(abs(mid) / width))))
    # one more digit while the rounded midpoint would leave the enclosure
    while sig < digits and not lo <= Fraction(format_value(mid, sig)) <= hi:
        sig += 1
    note = ""
    if sig < digits:
        note = (f"{sig} of the {digits} digits asked: the engine's enclosure is not narrower "
                "(its width is set by its discretisation, not by --digits"
                + ("; pass --rel-width to refine it)" if _accepts_rel_width(evaluator)
                   else ")"))
    return Evaluation(format_value(mid, sig),
                      (_round_fraction(lo, sig + 3, "floor"), _round_fraction(hi, sig + 3, "ceil")),
                      prec, mid, note)


def _accepts_rel_width(evaluator: Evaluator) -> bool:
    import inspect

    if any(p.name == "rel_width" for p in evaluator.params):
        return True
    try:
        return "rel_width" in inspect.signature(evaluator.formula).parameters
    except (TypeError, ValueError):
        return False


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def intersect(a: tuple[Fraction, Fraction] | None, b: tuple[Fraction, Fraction]
              ) -> tuple[Fraction, Fraction]:
    """The intersection of two rigorous enclosures of one value: a later, finer enclosure
    never widens what an earlier one proved. Disjoint enclosures mean a bug of the engine."""
    if a is None:
        return b
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    if lo > hi:
        raise AssertionError(f"rigorous enclosures are disjoint: {a} and {b}")
    return lo, hi


def _evaluate_arb(evaluator: Evaluator, params: Mapping[str, Any], digits: int, prec: int,
                  max_bits: int) -> Evaluation:
    target = Fraction(1, 10 ** (digits + 2))
    last: flint.arb | None = None
    known: tuple[Fraction, Fraction] | None = None  # the intersection of every enclosure
    while prec <= max_bits:
        try:
            raw = ArbCtx(prec).run(evaluator.formula, **params)
        except PrecisionExhausted:
            prec *= 2
            continue
        if _is_int(raw):
            return Evaluation(str(raw), (str(raw), str(raw)), prec, Fraction(raw))
        with arb_precision(prec):
            x = flint.arb(raw)
        last = x
        if x.is_zero():
            return Evaluation("0", ("0", "0"), prec, Fraction(0))
        if x.is_finite():
            known = intersect(known, arb_endpoints(x))
            lo, hi = known
            mid = (lo + hi) / 2
            width = hi - lo
            if width == 0 or (mid != 0 and width <= abs(mid) * target):
                return Evaluation(
                    format_value(mid, digits),
                    (_round_fraction(lo, digits + 3, "floor"),
                     _round_fraction(hi, digits + 3, "ceil")),
                    prec,
                    mid,
                )
        elif _is_pos_inf(x):
            return Evaluation("inf", ("inf", "inf"), prec)
        elif x.mid().is_nan() if hasattr(x.mid(), "is_nan") else False:
            return Evaluation("nan", None, prec)
        prec *= 2
    if known is not None and known[0] <= 0 <= known[1]:
        # still not separated from 0 at the ceiling: 0 to within a tiny rigorous enclosure
        lo, hi = known
        return Evaluation("0", (_round_fraction(lo, 3, "floor"), _round_fraction(hi, 3, "ceil")),
                          max_bits, Fraction(0),
                          f"0 to within the enclosure: the ball contains 0 at every precision "
                          f"up to {max_bits} bits (not certified exactly 0)")
    raise PrecisionExhausted(
        f"the enclosure did not reach {digits} digits within {max_bits} bits: {last}"
    )


def _is_pos_inf(x: flint.arb) -> bool:
    return x.mid().is_finite() is False and x.mid() > 0


def _evaluate_mp(evaluator: Evaluator, params: Mapping[str, Any], digits: int, prec: int,
                 max_bits: int) -> Evaluation:
    import mpmath

    while prec <= max_bits:
        a = MpCtx(prec).run(evaluator.formula, **params)
        b = MpCtx(prec + 64).run(evaluator.formula, **params)
        if _is_int(a):
            return Evaluation(str(a), None, prec, Fraction(a))
        if mpmath.isnan(b) or mpmath.isnan(a):
            return Evaluation("nan", None, prec)
        if mpmath.isinf(b):
            return Evaluation("inf" if b > 0 else "-inf", None, prec)
        fa = Fraction(*mpmath.mpf(a).as_integer_ratio())
        fb = Fraction(*mpmath.mpf(b).as_integer_ratio())
        if format_value(fa, digits) == format_value(fb, digits) and (
            fb == 0 or abs(fa - fb) <= abs(fb) * Fraction(1, 10 ** (digits + 2))
        ):
            return Evaluation(format_value(fb, digits), None, prec, fb)
        prec *= 2
    raise PrecisionExhausted(f"mpmath did not agree to {digits} digits within {max_bits} bits")
