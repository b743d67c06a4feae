"""Baseline comparison of two audits (``dpverify audit --baseline``, the pytest plugin's
``baseline=``): a verdict that weakens or a claimed value that moves beyond a tolerance.

Records are matched by accountant *spec* (its import path or built-in name), scenario id and
query; a record whose spec the baseline lacks is matched by accountant name instead, so a
baseline survives a moved import path. Claimed values are compared as exact rationals (a
value past the float range is a decimal string in the JSON), never through a float ratio.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.core import InvalidParameter
from dpverify.verifiers.accountants.judge import json_number, show

# strength for --baseline: a verdict weakens when its rank falls
RANK = {"SOUND": 5, "LOOSE": 4, "UNSUPPORTED": 3, "ERROR": 1, "UNSOUND": 0}


def _spec_key(r: dict[str, Any]) -> tuple[str, str, str]:
    return (str(r.get("spec") or r["accountant"]), str(r["scenario"]), str(r["query"]))


def _name_key(r: dict[str, Any]) -> tuple[str, str, str]:
    return (str(r["accountant"]), str(r["scenario"]), str(r["query"]))


def claimed_value(x: Any) -> Fraction | float | None:
    """The exact value of a record's ``claimed`` (a number or a decimal string)."""
    if x is None or isinstance(x, bool):
        return None
    if isinstance(x, str):
        try:
            f = float(x)
        except ValueError:
            return None
        if not math.isfinite(f):
            return f
        try:
            return Fraction(x)
        except ValueError:
            return Fraction(f)
    if isinstance(x, float):
        return x if not math.isfinite(x) else Fraction(x)
    if isinstance(x, int):
        return Fraction(x)
    return None


def _moved(a: Fraction | float, b: Fraction | float, tolerance: float
           ) -> tuple[bool, float | str]:
    """Whether ``b`` moved from ``a`` by more than ``tolerance`` relative, and by how much."""
    if isinstance(a, float) or isinstance(b, float):  # inf or nan on a side
        same = (a == b) or (isinstance(a, float) and isinstance(b, float)
                            and math.isnan(a) and math.isnan(b))
        return not same, 0.0 if same else "inf"
    if a == 0:
        return b != 0, "inf" if b else 0.0
    rel = abs(b - a) / abs(a)
    return rel > Fraction(tolerance), json_number(rel)  # type: ignore[return-value]


def compare(old: Sequence[dict[str, Any]], new: Sequence[dict[str, Any]],
            tolerance: float = 1e-6) -> dict[str, Any]:
    """Regressions of ``new`` against a baseline ``old``.

    A regression is a verdict that weakens (SOUND > LOOSE > UNSUPPORTED > ERROR > UNSOUND;
    INCONCLUSIVE on either side is not compared) or a claimed value that moves by more than
    ``tolerance`` relative to the old one (either direction). Records in only one of the runs
    are listed, not counted as regressions.
    """
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and tolerance >= 0):
        raise InvalidParameter(f"--tolerance must be a finite number >= 0; got {tolerance!r}")
    by_spec = {_spec_key(r): r for r in old}
    by_name = {_name_key(r): r for r in old}
    matched: set[int] = set()
    unmatched_new: list[str] = []
    regressions: list[dict[str, Any]] = []
    for r in new:
        o = by_spec.get(_spec_key(r)) or by_name.get(_name_key(r))
        key = _name_key(r)
        if o is None:
            unmatched_new.append("/".join(key))
            continue
        matched.add(id(o))
        where = {"accountant": key[0], "scenario": key[1], "query": key[2]}
        ov, nv = o.get("verdict"), r.get("verdict")
        if ov in RANK and nv in RANK and RANK[nv] < RANK[ov]:
            regressions.append({**where, "kind": "verdict", "old": ov, "new": nv,
                                "detail": f"verdict weakened: {ov} -> {nv}"})
            continue
        a, b = claimed_value(o.get("claimed")), claimed_value(r.get("claimed"))
        if a is None or b is None:
            continue
        moved, rel = _moved(a, b, tolerance)
        if moved:
            rel_s = f"{rel:.3g}" if isinstance(rel, float) else rel
            regressions.append({**where, "kind": "value", "old": o.get("claimed"),
                                "new": r.get("claimed"),
                                "detail": f"claimed value moved {show(a)} -> {show(b)} "
                                          f"(relative {rel_s} > {tolerance:g})"})
    return {
        "regressions": regressions,
        "only_in_baseline": sorted("/".join(_name_key(r)) for r in old if id(r) not in matched),
        "only_in_new": sorted(unmatched_new),
        "compared": len(matched),
        "tolerance": tolerance,
    }


def load_records(data: Any, source: str = "baseline") -> list[dict[str, Any]]:
    """Records from a decoded audit JSON (a list of records, or ``{"records": [...]}``)."""
    if isinstance(data, dict) and isinstance(data.get("records"), list):
        data = data["records"]
    if not isinstance(data, list):
        raise InvalidParameter(f"{source} must be the JSON of a dpverify audit (a list of "
                               "records)")
    for i, r in enumerate(data, 1):
        if not isinstance(r, dict) or not {"accountant", "scenario", "query",
                                           "verdict"} <= r.keys():
            raise InvalidParameter(f"{source}: record {i} is not an audit record (needs "
                                   "accountant, scenario, query, verdict)")
    return data


__all__ = ["RANK", "claimed_value", "compare", "load_records"]
