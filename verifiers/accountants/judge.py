"""Judging one claim against a certified enclosure, for every value an accountant may answer.

A claim arrives exact (an ``int``, a ``Fraction``, or a ``float`` that may be inf or NaN; see
:func:`verifiers.accountants.calls.pack`) and is compared with the exact ends of the enclosure
``[lo, hi]`` as rationals: no float conversion of a claim, a difference or a ratio that can
overflow. Ratios are reported in log space (``log10`` of the ratio) and their float form only
when it is a float; a magnitude past the float range is written as a decimal string
(``"1.0e+400"``). See :mod:`verifiers.accountants.audit` for the verdicts.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from dpverify.verifiers.accountants.reference import Bound

ATOL = {"epsilon": Fraction(1, 10**9), "delta": Fraction(1, 10**15),
        "tpr": Fraction(1, 10**15), "gdp_mu": Fraction(1, 10**9)}
PROBABILITIES = ("delta", "tpr")  # claims that may not exceed 1
LOG10_FLOAT_MAX = 308.0


def log10_of(x: Fraction | int) -> float:
    """``log10(x)`` of a positive rational of any size (no float overflow)."""
    x = Fraction(x)
    return (math.log10(x.numerator) - math.log10(x.denominator))


def show(x: Any, digits: int = 10) -> str:
    """A short decimal of a number of any size: ``1.25``, ``3.1e-300``, ``1.0e+400``."""
    if isinstance(x, float):
        return repr(x) if not math.isfinite(x) else f"{x:.{digits}g}"
    x = Fraction(x)
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    lg = log10_of(abs(x))
    if -300 < lg < LOG10_FLOAT_MAX:
        return f"{float(x):.{digits}g}"
    e = math.floor(lg)
    mant = abs(x) / Fraction(10) ** e
    return f"{sign}{float(mant):.{min(digits, 6)}f}e{e:+d}"


def json_number(x: Any) -> float | int | str | None:
    """A claim or a margin as JSON: a float when it is one without loss of magnitude, else
    a decimal string (``"nan"``, ``"inf"``, ``"1.0e+400"``)."""
    if x is None:
        return None
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(x, int) and abs(x) < 2**53:
        return x
    x = Fraction(x)
    if x == 0:
        return 0.0
    lg = log10_of(abs(x))
    if -307 < lg < LOG10_FLOAT_MAX:
        return float(x)
    return show(x)


def _relative(num: Fraction, den: Fraction) -> float | str:
    """``num / den`` as a float, or its decimal string when it is past the float range."""
    if den == 0:
        return "inf"
    r = num / den
    if r == 0:
        return 0.0
    return json_number(r)  # type: ignore[return-value]


def judge(kind: str, claimed: Any, ref: Bound, loose_factor: float, rtol: float
          ) -> tuple[str, str, dict[str, Any]]:
    """``(verdict, detail, extra)`` of a claim (exact number or float) against ``ref``."""
    what = kind if kind in ATOL else "delta"
    lo, hi = ref.lo, ref.hi
    if isinstance(claimed, float):
        if math.isnan(claimed):
            return "ERROR", f"the claimed {what} is NaN", {}
        if math.isinf(claimed):
            if claimed < 0:
                return "ERROR", f"the claimed {what} is negative (-inf)", {}
            if kind == "epsilon" and hi == math.inf:
                return "SOUND", "eps = inf is the true value (delta below the delta0 mass)", \
                    {"certified": True}
            if kind == "gdp_mu" and hi == math.inf:
                return "SOUND", "mu = inf (no GDP guarantee); the certified upper end is not " \
                                "finite either", {"certified": False}
            if kind == "gdp_mu":
                return "LOOSE", (f"the claimed mu is inf (no GDP guarantee) where the "
                                 f"certified mu is <= {show(hi, 6)}"), \
                    {"ratio": "inf", "certified": True}
            return "ERROR", f"the claimed {what} is inf where a finite value is due " \
                            f"(true value <= {show(hi, 6)})", {}
    c = Fraction(claimed)
    if c < 0:
        return "ERROR", f"the claimed {what} is negative ({show(c)})", {}
    if kind in PROBABILITIES and c > 1 + Fraction(1, 10**12):
        return "ERROR", f"the claimed {what} {show(c)} is above 1", {}
    atol = ATOL.get(kind, ATOL["delta"])
    if lo == math.inf:
        return "UNSOUND", f"the true {what} is inf (no finite epsilon reaches this delta); " \
                          f"claimed {show(c)}", \
            {"margin": {"absolute": "inf", "relative": "inf"}}
    lo_f = Fraction(lo)
    if c < lo_f:
        short = lo_f - c
        if short <= Fraction(rtol) * lo_f + atol:
            return "SOUND", f"{show(short, 3)} below the certified lower bound: within the " \
                            f"float tolerance (rtol {rtol:g}, atol {float(atol):g})", \
                {"certified": False}
        rel = _relative(short, lo_f)
        pct = f"{100 * rel:.3g}%" if isinstance(rel, float) else "100%"
        return "UNSOUND", (f"claimed {what} {show(c)} is below the certified lower bound "
                           f"{show(lo_f)} of the true {what} (short by {show(short, 4)}, "
                           f"{pct})"), \
            {"margin": {"absolute": json_number(short), "relative": rel}}
    if hi == math.inf:
        return "SOUND", "the true value may be infinite; the claim is above the lower bound", \
            {"certified": False}
    hi_f = Fraction(hi)
    if c > Fraction(loose_factor) * hi_f + atol:
        if hi_f > 0:
            log_ratio = log10_of(c) - log10_of(hi_f)
            ratio: float | str = json_number(c / hi_f) if log_ratio < LOG10_FLOAT_MAX \
                else show(c / hi_f, 4)
            shown = f" (ratio {show(c / hi_f, 3)})"
        else:
            log_ratio, ratio, shown = math.inf, "inf", ""
        extra: dict[str, Any] = {"ratio": ratio, "certified": True}
        if math.isfinite(log_ratio):
            extra["log10_ratio"] = round(log_ratio, 6)
        return "LOOSE", (f"claimed {what} {show(c, 6)} is above {loose_factor:g} x the "
                         f"certified upper bound {show(hi_f, 6)}{shown}"), extra
    if c >= hi_f:
        return "SOUND", "at or above the certified upper bound", {"certified": True}
    return "SOUND", "inside the certified enclosure (consistent with the true value)", \
        {"certified": False}


__all__ = ["json_number", "judge", "log10_of", "show"]
