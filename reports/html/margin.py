"""Margin plots: a refuted claim's violation along one parameter around its counterexample.

The check's two sides are evaluated at points around the counterexample; the parameter shown
is the first one along which the violation changes sign, and the crossing is located by
bisection.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dpverify.reports.html.figures import (
    Figure,
    _mp_value,
    _new_figure,
    _rc,
    _short_json,
    _Skip,
    _svg,
)

# The coarse grid (a parameter with no sign change is passed over after it) is every other
# point of the fine one, and values are memoised: the fine scan evaluates 16 new points.
SCAN_COARSE = 17
SCAN_FINE = 2 * SCAN_COARSE - 1
CROSSING_DIGITS = 7  # a crossing is shown to 6 significant digits
# A plotted value is a float (53 bits); 96 bits leave 43 for cancellation inside the formulas
# (the catalogue's crossings agree with 200 bits to the digits shown, in a third less time).
# An equality with a tolerance still gets the bits its tolerance needs.
MARGIN_BITS = 96


def _exact_point(shown: Mapping[str, Any]) -> dict[str, Any]:
    """Invert ``verifiers.numeric.show_point``: exact strings back to Fractions."""
    from dpverify.theorems.core import DpVerifyError, parse_number

    def one(k: str, v: Any) -> Any:
        if isinstance(v, bool) or v is None:
            return v
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            return Fraction(v)
        if isinstance(v, str):
            try:
                return parse_number(v, k)
            except DpVerifyError:
                return v
        if isinstance(v, list):
            return tuple(one(k, x) for x in v)
        return v

    return {k: one(k, v) for k, v in shown.items()}


class _Violation:
    """How much a comparison is broken at a point, as a float (> 0: broken).

    ``le``/``lt``: ``(lhs - rhs)/|rhs|`` (``lhs - rhs`` when ``rhs`` is 0 at the
    counterexample); ``ge``/``gt`` the same with the sides swapped; ``eq``:
    ``log10(|lhs - rhs| / tol)`` (``|lhs - rhs|`` on a log axis for an exact equality).
    """

    def __init__(self, check: Any, cx: Mapping[str, Any]) -> None:
        self.check = check
        self.memo: dict[tuple[tuple[str, Any], ...], float | None] = {}
        self.error = ""  # the first evaluation error, for the note when nothing evaluates
        bits = MARGIN_BITS
        if check.tol is not None:
            bits = max(bits, int(check.tol.digits() * 3.33) + 32)
        self.bits = bits
        self.relative = False
        if check.op == "eq":
            tol = check.tol
            self.exact_eq = tol is None or (tol.abs_tol == 0 and tol.rel_tol == 0)
            self.label = (f"|{check.lhs_name} − {check.rhs_name}|" if self.exact_eq else
                          f"log10(|{check.lhs_name} − {check.rhs_name}| / tol)")
            return
        self.exact_eq = False
        _, b = self._sides(cx)
        self.relative = b != 0
        big, small = ((check.lhs_name, check.rhs_name) if check.op in ("le", "lt")
                      else (check.rhs_name, check.lhs_name))
        self.label = (f"({big} − {small}) / |{small}|" if self.relative
                      else f"{big} − {small}")

    def _sides(self, point: Mapping[str, Any]) -> tuple[Any, Any]:
        lhs = _mp_value(self.check.lhs, point, self.bits)
        rhs = _mp_value(self.check.rhs, point, self.bits)
        return (lhs, rhs) if self.check.op in ("le", "lt", "eq") else (rhs, lhs)

    def __call__(self, point: Mapping[str, Any]) -> float | None:
        key = tuple(sorted(point.items()))
        try:
            return self.memo[key]
        except TypeError:  # an unhashable parameter value: not memoised
            return self._value(point)
        except KeyError:
            pass
        self.memo[key] = value = self._value(point)
        return value

    def _value(self, point: Mapping[str, Any]) -> float | None:
        try:
            a, b = self._sides(point)
            if self.check.op == "eq":
                diff = abs(a - b)
                if self.exact_eq:
                    return float(diff)
                tol = self.check.tol
                t = float(tol.abs_tol) + float(tol.rel_tol) * abs(float(b))
                if diff == 0:
                    return None
                return float(math.log10(float(diff)) - math.log10(t))
            if self.relative:
                if b == 0:
                    return None
                return float((a - b) / abs(b))
            return float(a - b)
        except Exception as exc:  # outside the formula's domain: no value at this point
            self.error = self.error or f"{type(exc).__name__}: {exc}"
            return None


def _scan_values(region: Any, name: str, x: Fraction | int, n: int) -> tuple[list[Any], bool]:
    """Values of ``name`` to scan: the Box's range when the check has one, else around x."""
    from dpverify.theorems.claims import Box

    if isinstance(x, int):
        lo, hi = max(1, x // 3), max(x * 2, x + 6)
        if isinstance(region, Box) and name in region.ints:
            lo, hi = region.ints[name]
        step = max(1, (hi - lo) // n)
        return list(range(lo, hi + 1, step)), False
    log = False
    if isinstance(region, Box) and name in region.reals:
        lo, hi = (Fraction(region.reals[name][0]), Fraction(region.reals[name][1]))
        log = name in region.log_scale and lo > 0
    elif x > 0 and x < Fraction(1, 1000):
        lo, hi, log = x / 1000, x * 1000, True
    elif x > 0:
        lo, hi = Fraction(0), 2 * x
    elif x < 0:
        lo, hi = 2 * x, Fraction(0)
    else:
        lo, hi = Fraction(-1), Fraction(1)
    if log:
        a, b = math.log(lo), math.log(hi)
        vals = [Fraction(math.exp(a + (b - a) * i / (n - 1))) for i in range(n)]
        vals[0], vals[-1] = lo, hi
    else:
        vals = [lo + (hi - lo) * Fraction(i, n - 1) for i in range(n)]
    if x not in vals and lo <= x <= hi:
        vals = sorted([*vals, x])
    return vals, log


def _scan(violation: _Violation, cx: Mapping[str, Any], name: str, values: list[Any],
          deadline: float) -> tuple[list[Any], list[float]]:
    xs, ys = [], []
    for v in values:
        if time.monotonic() > deadline:
            break
        y = violation({**cx, name: v})
        if y is not None and math.isfinite(y):
            xs.append(v)
            ys.append(y)
    return xs, ys


def _sign_changes(xs: list[Any], ys: list[float]) -> list[tuple[Any, Any]]:
    return [(xs[i], xs[i + 1]) for i in range(len(xs) - 1)
            if (ys[i] > 0) != (ys[i + 1] > 0)]


def _bisect(violation: _Violation, cx: Mapping[str, Any], name: str, a: Fraction,
            b: Fraction, deadline: float) -> Fraction | None:
    """A sign change of the violation in ``[a, b]`` (its two ends of opposite signs) to
    ``CROSSING_DIGITS`` digits, by regula falsi with the Illinois rule (the bracket always
    holds a sign change; a few evaluations instead of bisection's ~30)."""
    ya, yb = violation({**cx, name: a}), violation({**cx, name: b})
    if ya is None or yb is None:
        return None
    side = 0
    for _ in range(48):
        if time.monotonic() > deadline or \
                abs(b - a) <= max(abs(a), abs(b)) * Fraction(1, 10**CROSSING_DIGITS):
            break
        m = a + (b - a) * Fraction(ya / (ya - yb)) if ya != yb else (a + b) / 2
        if not a < m < b and not b < m < a:
            m = (a + b) / 2
        m = Fraction(float(m))  # keep the denominators small
        ym = violation({**cx, name: m})
        if ym is None:
            return None
        if (ym > 0) == (ya > 0):
            a, ya = m, ym
            if side == -1:
                yb /= 2
            side = -1
        else:
            b, yb = m, ym
            if side == 1:
                ya /= 2
            side = 1
    return (a + b) / 2


def _margin_figure(tid: str, c: dict[str, Any], verdict: dict[str, Any], deadline: float,
                   index: int) -> Figure:
    from dpverify.theorems import get
    from dpverify.theorems.claims import Compare

    theorem = get(tid)
    claim = next((cl for cl in theorem.claims if cl.number == c["number"]), None)
    if claim is None or verdict["check"] >= len(claim.checks):
        raise _Skip("the claim or check of the run is not in the catalogue any more")
    check = claim.checks[verdict["check"]]
    if not isinstance(check, Compare):
        raise _Skip(f"check {verdict['check']} is not a comparison of two formulas")
    recorded = verdict["evidence"].get("check")
    if recorded is not None and recorded != check.describe():
        raise _Skip(f"check {verdict['check']} changed since the run ({recorded!r} then, "
                    f"{check.describe()!r} now)")
    shown = verdict["evidence"]["counterexample"]
    cx = _exact_point(shown)
    candidates = [k for k, v in cx.items() if isinstance(v, Fraction)]
    candidates += [k for k, v in cx.items() if isinstance(v, int) and not isinstance(v, bool)]
    if not candidates:
        raise _Skip("the counterexample has no numeric scalar parameter to vary")
    violation = _Violation(check, cx)
    chosen = None
    for name in candidates:
        values, _ = _scan_values(check.region, name, cx[name], SCAN_COARSE)
        xs, ys = _scan(violation, cx, name, values, deadline)
        if _sign_changes(xs, ys):
            chosen = name
            break
    chosen = chosen or candidates[0]
    values, log = _scan_values(check.region, chosen, cx[chosen], SCAN_FINE)
    xs, ys = _scan(violation, cx, chosen, values, deadline)
    if len(xs) < 2:
        raise _Skip(f"the check's sides could not be evaluated along {chosen}"
                    + (f" ({violation.error})" if violation.error else ""))
    crossings = []
    if not isinstance(cx[chosen], int) and not violation.exact_eq:
        for a, b in _sign_changes(xs, ys)[:4]:
            root = _bisect(violation, cx, chosen, a, b, deadline)
            if root is not None:
                crossings.append(root)
    partial = len(xs) < len(values) and time.monotonic() > deadline
    with _rc():
        fig, ax = _new_figure()
        fx = [float(x) for x in xs]
        ax.plot(fx, ys, "-", color="#2f6fb5", lw=1.5, label=violation.label)
        if not violation.exact_eq:
            ax.axhline(0, color="#c62828", lw=0.8)
            ymax = max(max(ys), 0)
            if ymax > 0:
                ax.axhspan(0, ymax * 1.05 + 1e-300, color="#c62828", alpha=0.08,
                           label="claim broken")
        x0 = float(cx[chosen])
        y0 = violation(cx)
        ax.axvline(x0, color="#555555", ls=":", lw=0.8)
        if y0 is not None:
            ax.plot([x0], [y0], "o", color="#c62828", label="counterexample")
        for i, r in enumerate(crossings):
            ax.axvline(float(r), color="#1a7f37", ls="--", lw=0.8,
                       label=f"sign change at {chosen} ≈ {float(r):.6g}" if i < 2 else None)
        if log:
            ax.set_xscale("log")
        if violation.exact_eq:
            ax.set_yscale("log")
        elif max(abs(y) for y in ys) > 10:
            ax.set_yscale("symlog", linthresh=1.0)
        ax.set_xlabel(chosen)
        ax.set_ylabel(violation.label)
        ax.legend(loc="best", fontsize=8)
        svg = _svg(fig, index)
    others = ", ".join(f"{k} = {_short_json(v)}" for k, v in shown.items() if k != chosen)
    cross_txt = ("; the sign changes at " + ", ".join(f"{chosen} ≈ {float(r):.6g}"
                                                     for r in crossings)) if crossings else ""
    broken = ("The claim is broken wherever the difference is not 0." if violation.exact_eq
              else "The claim is broken where the curve is above 0.")
    erratum = (" The claim is a catalogue erratum (expected refuted)."
               if c["expected"] == "refuted" else "")
    return Figure(
        f"plot-margin-{tid}-{c['number']}",
        f"{tid} claim {c['number']}: violation along {chosen}",
        svg,
        f"Check {verdict['check']} ({verdict['route']}): {check.describe()}. {broken} Other "
        f"parameters at the counterexample ({others or 'none'}); the dotted line marks the "
        f"counterexample{cross_txt}.{erratum}"
        + (" The scan stopped at the time limit." if partial else ""))
