"""High-precision evaluation and certified comparison at points.

Main results
------------
- :func:`decide_compare` / :func:`decide_predicate`: decide a check at one point. In arb the
  decision is certified by ball arithmetic and raised in precision until the balls decide it;
  it is then re-decided at a higher precision and must agree (a safeguard against a context
  bug, not a source of rigour). Where a term needs mpmath (quadrature), the decision is made at
  two precisions with a margin equal to the observed change between them, and must agree.
- :func:`evaluate`: ``dpverify eval`` — an evaluator to D significant digits with a rigorous
  enclosure (arb at rising precision until the ball is narrow enough) when the formula runs in
  arb, otherwise mpmath at two precisions that must agree to D digits.
- :func:`verify_points`: the ``numeric`` route over explicit points. When every point is
  certified in arb, the finite claim is ``proved``; otherwise at most ``passed``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Compare, Points, Predicate, Tol
from dpverify.theorems.core import Evaluator, InvalidParameter, fmt_fraction
from dpverify.theorems.ctx import (
    ArbCtx,
    MpCtx,
    PrecisionExhausted,
    Unsupported,
    arb_endpoints,
    arb_precision,
    digits_to_bits,
)
from dpverify.verifiers.verdict import Budget, Status

GUARD_BITS = 32


@dataclass
class PointDecision:
    """The decision of a check at one point."""

    holds: bool | None  # None: undecided within the precision ceiling
    certified: bool  # decided by arb (rigorous) rather than mpmath at two precisions
    prec: int
    lhs: str = ""
    rhs: str = ""
    margin: str = ""  # rhs - lhs for le/lt (ge/gt: lhs - rhs); tol - |lhs - rhs| for eq
    note: str = ""


# ------------------------------------------------------------------------------------------
# helpers


def show_point(point: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-able, exact rendering of a point's parameters."""
    out: dict[str, Any] = {}
    for k, v in point.items():
        if isinstance(v, Fraction):
            out[k] = fmt_fraction(v)
        elif isinstance(v, tuple | list):
            out[k] = [fmt_fraction(x) if isinstance(x, Fraction) else _show_any(x) for x in v]
        else:
            out[k] = _show_any(v)
    return out


def _show_any(v: Any) -> Any:
    if isinstance(v, int | str | bool) or v is None:
        return v
    if isinstance(v, Fraction):
        return fmt_fraction(v)
    if isinstance(v, tuple | list):
        return [_show_any(x) for x in v]
    return str(v)


def exact_point(point: Mapping[str, Any]) -> dict[str, Any]:
    """Convert string values of a point (``"1e-5"``) to exact Fractions; keep the rest."""
    from dpverify.theorems.core import parse_number

    out: dict[str, Any] = {}
    for k, v in point.items():
        if isinstance(v, str) and k not in ("neighboring", "direction"):
            try:
                out[k] = parse_number(v, k)
            except ValueError:
                out[k] = v
        elif isinstance(v, float):
            out[k] = Fraction(v)
        else:
            out[k] = v
    return out


def arb_str(x: flint.arb, digits: int = 20) -> str:
    if not x.is_finite():
        return str(x)
    return x.str(digits, radius=False)


def _tol_arb(tol: Tol | None, ref: flint.arb) -> flint.arb:
    if tol is None:
        return flint.arb(0)
    t = flint.arb(0)
    if tol.abs_tol:
        t += flint.arb(flint.fmpq(tol.abs_tol.numerator, tol.abs_tol.denominator))
    if tol.rel_tol:
        t += abs(ref) * flint.arb(flint.fmpq(tol.rel_tol.numerator, tol.rel_tol.denominator))
    return t


def _decide_arb(
    lhs: flint.arb, op: str, rhs: flint.arb, tol: Tol | None
) -> tuple[bool | None, str]:
    if op == "eq":
        diff = abs(lhs - rhs)
        t = _tol_arb(tol, rhs)
        if tol is None:  # exact equality can only be refuted, or certified when both are exact
            if lhs.is_exact() and rhs.is_exact():
                return bool(lhs == rhs), arb_str(diff, 6)
            return (False if diff > 0 else None), arb_str(diff, 6)
        margin = arb_str(t - diff, 6)
        if diff.upper() <= t.lower():
            return True, margin
        if diff.lower() > t.upper():
            return False, margin
        return None, margin
    if op in ("ge", "gt"):
        lhs, rhs, op = rhs, lhs, {"ge": "le", "gt": "lt"}[op]
    margin = arb_str(rhs - lhs, 6)
    if op == "le":
        if lhs <= rhs:
            return True, margin
        if lhs > rhs:
            return False, margin
    else:
        if lhs < rhs:
            return True, margin
        if lhs >= rhs:
            return False, margin
    return None, margin


def _decide_mp(
    lhs: Any, rhs: Any, err: Any, op: str, tol: Tol | None
) -> tuple[bool | None, str]:
    """Decide with an error estimate ``err`` on ``lhs - rhs`` (from two precisions)."""
    if op == "eq":
        t = 0 if tol is None else float(tol.abs_tol) + float(tol.rel_tol) * abs(rhs)
        diff = abs(lhs - rhs)
        margin = t - diff
        if diff + err <= t:
            return True, f"{float(margin):.6g}"
        if diff - err > t:
            return False, f"{float(margin):.6g}"
        return None, f"{float(margin):.6g}"
    if op in ("ge", "gt"):
        lhs, rhs, op = rhs, lhs, {"ge": "le", "gt": "lt"}[op]
    m = rhs - lhs
    if m > err or (op == "le" and m >= 0 and err == 0):
        return True, f"{float(m):.6g}"
    if m < -err or (op == "lt" and m <= 0 and err == 0):
        return False, f"{float(m):.6g}"
    return None, f"{float(m):.6g}"


def start_bits(check: Compare | Predicate, digits: int) -> int:
    tol = getattr(check, "tol", None)
    want = max(digits, tol.digits() if tol else 0)
    return digits_to_bits(want) + GUARD_BITS


# ------------------------------------------------------------------------------------------
# deciding one point


def decide_compare(
    check: Compare, point: Mapping[str, Any], digits: int = 30, max_bits: int = 4096
) -> PointDecision:
    prec = start_bits(check, digits)
    if check.ctx == "arb":
        try:
            return _decide_compare_arb(check, point, prec, max_bits)
        except Unsupported:
            pass
    return _decide_compare_mp(check, point, prec, max_bits)


def _arb_sides(check: Compare, point: Mapping[str, Any], prec: int) -> tuple[Any, Any]:
    ctx = ArbCtx(prec)
    lhs = ctx.run(check.lhs, **point)
    rhs = ctx.run(check.rhs, **point)
    return flint.arb(lhs), flint.arb(rhs)


def _decide_compare_arb(
    check: Compare, point: Mapping[str, Any], prec: int, max_bits: int
) -> PointDecision:
    while prec <= max_bits:
        try:
            lhs, rhs = _arb_sides(check, point, prec)
        except PrecisionExhausted:
            prec *= 2
            continue
        with arb_precision(prec):
            holds, margin = _decide_arb(lhs, check.op, rhs, check.tol)
        if holds is not None:
            # re-decide at a higher precision: the same answer is required
            lhs2, rhs2 = _arb_sides(check, point, prec + 64)
            with arb_precision(prec + 64):
                holds2, _ = _decide_arb(lhs2, check.op, rhs2, check.tol)
            if holds2 is not None and holds2 != holds:
                raise AssertionError(f"arb decisions differ between {prec} and {prec + 64} bits")
            return PointDecision(holds, True, prec, arb_str(lhs), arb_str(rhs), margin)
        prec *= 2
    return PointDecision(None, True, prec // 2, arb_str(lhs), arb_str(rhs), margin,
                         note="undecided at the precision ceiling")


def _decide_compare_mp(
    check: Compare, point: Mapping[str, Any], prec: int, max_bits: int
) -> PointDecision:
    while prec <= max_bits:
        lo_ctx, hi_ctx = MpCtx(prec), MpCtx(2 * prec)
        l1, r1 = lo_ctx.run(check.lhs, **point), lo_ctx.run(check.rhs, **point)
        l2, r2 = hi_ctx.run(check.lhs, **point), hi_ctx.run(check.rhs, **point)
        scale = max(abs(l2), abs(r2), hi_ctx.m.mpf(2) ** (-prec))
        err = abs(l1 - l2) + abs(r1 - r2) + scale * hi_ctx.m.mpf(2) ** (-(prec - 8))
        d1, margin = _decide_mp(l2, r2, err, check.op, check.tol)
        d0, _ = _decide_mp(l1, r1, 2 * err, check.op, check.tol)
        if d1 is not None and d0 == d1:
            return PointDecision(d1, False, prec, _mp_str(l2), _mp_str(r2), margin,
                                 note=f"mpmath at {prec} and {2 * prec} bits agree")
        prec *= 2
    return PointDecision(None, False, prec // 2, note="undecided at the precision ceiling")


def _mp_str(x: Any) -> str:
    import mpmath

    return mpmath.nstr(x, 20)


def decide_predicate(
    check: Predicate, point: Mapping[str, Any], digits: int = 30, max_bits: int = 4096
) -> PointDecision:
    prec = digits_to_bits(digits) + GUARD_BITS
    if check.ctx == "arb":
        try:
            while prec <= max_bits:
                try:
                    res = ArbCtx(prec).run(check.test, **point)
                except PrecisionExhausted:
                    res = None
                if res is not None:
                    again = ArbCtx(prec + 64).run(check.test, **point)
                    if again is not None and again != res:
                        raise AssertionError("arb predicate differs between precisions")
                    return PointDecision(bool(res), True, prec)
                prec *= 2
            return PointDecision(None, True, prec // 2, note="undecided at the precision ceiling")
        except Unsupported:
            prec = digits_to_bits(digits) + GUARD_BITS
    while prec <= max_bits:
        a = MpCtx(prec).run(check.test, **point)
        b = MpCtx(2 * prec).run(check.test, **point)
        if a is not None and a == b:
            return PointDecision(bool(a), False, prec, note=f"mpmath at {prec} and {2 * prec} bits")
        prec *= 2
    return PointDecision(None, False, prec // 2, note="undecided at the precision ceiling")


def decide(check: Compare | Predicate, point: Mapping[str, Any], digits: int = 30,
           max_bits: int = 4096) -> PointDecision:
    if isinstance(check, Compare):
        return decide_compare(check, point, digits, max_bits)
    return decide_predicate(check, point, digits, max_bits)


# ------------------------------------------------------------------------------------------
# the numeric route


def verify_points(
    check: Compare | Predicate, region: Points, budget: Budget, digits: int = 30
) -> tuple[Status, str, dict[str, Any]]:
    """Check every explicit point. All certified in arb: ``proved`` (a finite region)."""
    decided = 0
    certified_all = True
    undecided: list[dict[str, Any]] = []
    worst: tuple[str, dict[str, Any]] | None = None
    for raw in region.points:
        if budget.expired():
            return (Status.INCONCLUSIVE,
                    f"time budget ran out after {decided} of {len(region)} points",
                    {"points_checked": decided, "points_total": len(region)})
        point = exact_point(raw)
        d = decide(check, point, digits, budget.max_bits)
        if d.holds is False:
            return Status.FAILED, f"fails at {show_point(point)}", {
                "counterexample": show_point(point),
                "lhs": d.lhs,
                "rhs": d.rhs,
                "margin": d.margin,
                "certified": d.certified,
                "precision_bits": d.prec,
                "points_checked": decided + 1,
            }
        if d.holds is None:
            undecided.append(show_point(point))
            continue
        decided += 1
        certified_all &= d.certified
        if d.margin and (worst is None or _margin_key(d.margin) < _margin_key(worst[0])):
            worst = (d.margin, show_point(point))
    evidence: dict[str, Any] = {
        "points_checked": decided,
        "points_total": len(region),
        "certified": certified_all,
    }
    if worst:
        evidence["smallest_margin"] = {"margin": worst[0], "at": worst[1]}
    if undecided:
        evidence["undecided"] = undecided[:20]
        return (Status.INCONCLUSIVE,
                f"{len(undecided)} of {len(region)} points undecided at the precision ceiling",
                evidence)
    if certified_all:
        return (Status.PROVED,
                f"certified by arb ball arithmetic at all {decided} points of the finite region",
                evidence)
    return Status.PASSED, f"holds at all {decided} points (mpmath at two precisions)", evidence


def _margin_key(m: str) -> float:
    try:
        return float(m.split("+/-")[0].strip("[] "))
    except ValueError:
        return math.inf


# ------------------------------------------------------------------------------------------
# dpverify eval


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


def _show_params(params: Mapping[str, Any]) -> str:
    """The parameters of an evaluation, short (for one-line messages)."""
    from dpverify.theorems.core import short_fraction

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
