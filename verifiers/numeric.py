"""High-precision evaluation and certified comparison at points.

Main results
------------
- :func:`decide_compare` / :func:`decide_predicate`: decide a check at one point. In arb the
  decision is certified by ball arithmetic and raised in precision until the balls decide it;
  it is then re-decided at a higher precision and must agree (a safeguard against a context
  bug, not a source of rigour). Where a term needs mpmath (quadrature), the decision is made at
  two precisions with a margin equal to the observed change between them, and must agree.
- :func:`evaluate` (``dpverify eval``) lives in :mod:`verifiers.evaluation`; importing it from
  here still works.
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
from dpverify.theorems.core import fmt_fraction
from dpverify.theorems.ctx import (
    ArbCtx,
    MpCtx,
    PrecisionExhausted,
    Unsupported,
    arb_precision,
    digits_to_bits,
)
from dpverify.theorems.errors import NoConvergence
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


# Points and instances listed in a certified verdict's evidence (a longer list is cut).
MAX_LISTED = 50

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
    if tol is not None:  # lhs <= rhs + t: a bound certified to within the tolerance
        rhs = rhs + _tol_arb(tol, rhs)
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


def _tol_float(tol: Tol | None, ref: Any) -> Any:
    """``abs_tol + rel_tol |ref|`` in floats (0 without a tolerance), as :func:`_tol_arb`."""
    return 0 if tol is None else float(tol.abs_tol) + float(tol.rel_tol) * abs(ref)


def _decide_mp(
    lhs: Any, rhs: Any, err: Any, op: str, tol: Tol | None
) -> tuple[bool | None, str]:
    """Decide with an error estimate ``err`` on ``lhs - rhs`` (from two precisions)."""
    if op == "eq":
        t = _tol_float(tol, rhs)
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
    if tol is not None:  # lhs <= rhs + t (as in _decide_arb)
        m = m + _tol_float(tol, rhs)
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
    lhs = rhs = None
    margin = ""
    while prec <= max_bits:
        try:
            lhs, rhs = _arb_sides(check, point, prec)
        except PrecisionExhausted:
            prec *= 2
            continue
        except NoConvergence as exc:  # an engine's own limit (branch and bound's seconds):
            return PointDecision(None, True, prec, note=f"undecided: {exc}")  # more bits repeat it
        with arb_precision(prec):
            holds, margin = _decide_arb(lhs, check.op, rhs, check.tol)
        if holds is not None:
            # One decision suffices: both sides are rigorous balls, so a decision cannot change
            # with the precision (the rigour of the ctx primitives is tested in tests/test_ctx.py;
            # a second evaluation at prec + 64 bits cost ~20 % of a numeric run, guarding nothing).
            return PointDecision(holds, True, prec, arb_str(lhs), arb_str(rhs), margin)
        prec *= 2
    if lhs is None or rhs is None:
        return PointDecision(None, True, prec // 2,
                             note="no enclosure at any precision up to the ceiling")
    return PointDecision(None, True, prec // 2, arb_str(lhs), arb_str(rhs), margin,
                         note="undecided at the precision ceiling")


def _decide_compare_mp(
    check: Compare, point: Mapping[str, Any], prec: int, max_bits: int
) -> PointDecision:
    previous: tuple[int, Any] | None = None  # (precision, error estimate) of the last level
    while prec <= max_bits:
        lo_ctx, hi_ctx = MpCtx(prec), MpCtx(2 * prec)
        try:
            l1, r1 = lo_ctx.run(check.lhs, **point), lo_ctx.run(check.rhs, **point)
            l2, r2 = hi_ctx.run(check.lhs, **point), hi_ctx.run(check.rhs, **point)
        except NoConvergence as exc:  # its limit grows with the precision: escalating would
            return PointDecision(None, False, prec, note=f"undecided: {exc}")  # cost more
        scale = max(abs(l2), abs(r2), hi_ctx.m.mpf(2) ** (-prec))
        err = abs(l1 - l2) + abs(r1 - r2) + scale * hi_ctx.m.mpf(2) ** (-(prec - 8))
        d1, margin = _decide_mp(l2, r2, err, check.op, check.tol)
        d0, _ = _decide_mp(l1, r1, 2 * err, check.op, check.tol)
        if d1 is not None and d0 == d1:
            return PointDecision(d1, False, prec, _mp_str(l2), _mp_str(r2), margin,
                                 note=f"mpmath at {prec} and {2 * prec} bits agree")
        if previous is not None and not_converging(previous[1], err, previous[0]):
            return PointDecision(None, False, prec, _mp_str(l2), _mp_str(r2), margin,
                                 note=f"undecided: the two precisions disagree by "
                                      f"{_mp_str(previous[1])} at {previous[0]} bits and by "
                                      f"{_mp_str(err)} at {prec} bits, so the error is not a "
                                      "rounding error (an inner approximation such as a "
                                      "quadrature does not converge); more precision would "
                                      "not decide it")
        previous = (prec, err)
        prec *= 2
    return PointDecision(None, False, prec // 2, note="undecided at the precision ceiling")


def not_converging(err_before: Any, err_now: Any, prec_before: int) -> bool:
    """Whether doubling the precision from ``prec_before`` bits failed to shrink the observed
    disagreement between two precisions by at least ``2^{-prec_before/2}``. A rounding error
    shrinks by about ``2^{-prec_before}`` per doubling; an error that does not is that of an
    approximation (a quadrature at a kink it does not know, a truncated series) that escalating
    to the ceiling (each level costs several times the last) would not remove: the up-front
    limit on the precision escalation."""
    import mpmath

    return bool(err_now > mpmath.ldexp(err_before, -(prec_before // 2)))


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
                except NoConvergence as exc:
                    return PointDecision(None, True, prec, note=f"undecided: {exc}")
                if res is not None:  # decided on rigorous balls: final (see _decide_compare_arb)
                    return PointDecision(bool(res), True, prec)
                prec *= 2
            return PointDecision(None, True, prec // 2, note="undecided at the precision ceiling")
        except Unsupported:
            prec = digits_to_bits(digits) + GUARD_BITS
    while prec <= max_bits:
        try:
            a = MpCtx(prec).run(check.test, **point)
            b = MpCtx(2 * prec).run(check.test, **point)
        except NoConvergence as exc:
            return PointDecision(None, False, prec, note=f"undecided: {exc}")
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
    """Check every explicit point. All certified in arb: ``certified`` (these points only), or
    ``proved`` when the points are the claim's entire finite domain (``covers_domain``)."""
    decided = 0
    certified_all = True
    undecided: list[dict[str, Any]] = []
    why = ""  # the first undecided point's reason
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
            why = why or d.note
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
        evidence["undecided_why"] = why or "undecided at the precision ceiling"
        return (Status.INCONCLUSIVE,
                f"{len(undecided)} of {len(region)} points undecided "
                f"({why or 'at the precision ceiling'})", evidence)
    if certified_all and region.covers_domain:
        evidence["region"] = {"kind": "finite domain", "points": len(region),
                              "covered_by": "exhaustive enumeration, each point in arb"}
        return (Status.PROVED,
                f"proved by exhaustive enumeration: all {decided} points of the finite domain "
                "certified in arb ball arithmetic", evidence)
    if certified_all:
        evidence["points"] = [show_point(exact_point(p)) for p in region.points[:MAX_LISTED]]
        return (Status.CERTIFIED,
                f"certified by arb ball arithmetic at the {decided} listed points only",
                evidence)
    return Status.PASSED, f"holds at all {decided} points (mpmath at two precisions)", evidence


def _margin_key(m: str) -> float:
    try:
        return float(m.split("+/-")[0].strip("[] "))
    except ValueError:
        return math.inf
