"""How tight a bound is, where, and against the catalogue's known bounds.

The ratio target/optimum is taken at the midpoints of the certified enclosures, on a grid of
the region (log-spaced for log-scale parameters) refined adaptively towards the loosest point,
together with every point the search evaluated. The catalogue's known bounds of the same
quantity (reached through the registry: ``dpverify.theorems.get(ID).evaluator(NAME)``) are
evaluated on the grid, so the report says where the new bound is tighter or looser than each.
Plot data: target, optimum and known bounds along each parameter through a focus point, and a
grid of the ratio over the two widest parameters.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import DpVerifyError
from dpverify.verifiers.bounds.references import INF, KnownBound, Reference, evaluator_enclosure
from dpverify.verifiers.bounds.region import Dim, Point, Region, show_value
from dpverify.verifiers.bounds.search import Checker, PointResult

CURVE_POINTS = 25
HEAT_POINTS = 12


def grid_points(region: Region, per_dim: int, cap: int = 4000) -> list[Point]:
    axes = []
    for d in region.dims:
        n = per_dim if not d.integer else min(per_dim, int(d.hi - d.lo) + 1)
        axes.append([d.value(i / max(n - 1, 1)) for i in range(n)])
    pts = []
    for combo in itertools.islice(itertools.product(*axes), cap):
        pts.append({**dict(zip((d.name for d in region.dims), combo, strict=True)),
                    **region.fixed})
    return pts


def _stats(values: list[float]) -> dict[str, Any] | None:
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def ratio_summary(results: list[PointResult], lower: bool) -> dict[str, Any]:
    """min/median/max of target/optimum and the loosest point (largest ratio for an upper
    bound, smallest for a lower bound)."""
    rated = [r for r in results if r.ratio is not None and math.isfinite(r.ratio)]
    out: dict[str, Any] = {"points": len(rated),
                           "optimum_zero_points": sum(1 for r in results if r.reference
                                                      is not None and r.ratio is None)}
    s = _stats([r.ratio for r in rated])  # type: ignore[misc]
    if s is None:
        out.update(min=None, median=None, max=None, worst=None)
        return out
    out.update(s)
    worst = (min if lower else max)(rated, key=lambda r: r.ratio)  # type: ignore[arg-type]
    out["worst"] = {**{k: show_value(v) for k, v in worst.point.items()},
                    "ratio": worst.ratio}
    return out


def _mid(lo: Any, hi: Any) -> float:
    return INF if INF in (lo, hi) else float((Fraction(lo) + Fraction(hi)) / 2)


def known_value(kb: KnownBound, point: Point) -> float | None:
    from dpverify.verifiers.bounds.references import catalogue_evaluator

    args = kb.args(point)
    if args is None:
        return None
    try:
        _, ev = catalogue_evaluator(f"{kb.theorem}.{kb.evaluator}")
        return _mid(*evaluator_enclosure(ev, args, 128))
    except (DpVerifyError, ArithmeticError, ValueError, TypeError):
        return None


def known_bounds(ref: Reference, checker: Checker, points: list[Point], deadline: float
                 ) -> list[dict[str, Any]]:
    """Per known bound: its ratio to the optimum and how often the target is tighter."""
    out = []
    for kb in ref.known:
        ratios, wins, compared = [], 0, 0
        for pt in points:
            if time.monotonic() > deadline:
                break
            r = checker.check(pt)
            if r.reference is None or r.ratio is None or not r.target.ok:
                continue
            v = known_value(kb, pt)
            if v is None:
                continue
            opt = _mid(*r.reference)
            if opt <= 0 or opt == INF:
                continue
            ratios.append(v / opt)
            compared += 1
            wins += _mid(r.target.lo, r.target.hi) < v
        row: dict[str, Any] = {"id": f"{kb.theorem}.{kb.evaluator}", "label": kb.label,
                               "points": compared}
        row.update(_stats(ratios) or {"min": None, "median": None, "max": None})
        row["target_tighter_fraction"] = wins / compared if compared else None
        out.append(row)
    return out


def _axis(d: Dim, n: int) -> list[Any]:
    n = n if not d.integer else min(n, int(d.hi - d.lo) + 1)
    vals = [d.value(i / max(n - 1, 1)) for i in range(n)]
    return sorted(set(vals))


def curves(ref: Reference, checker: Checker, region: Region, focus: Mapping[str, Any],
           deadline: float) -> list[dict[str, Any]]:
    """Target, optimum and known bounds along each parameter through ``focus``."""
    out = []
    for d in region.dims:
        xs, series = [], {"target": [], "optimum": []}  # type: ignore[var-annotated]
        for kb in ref.known:
            series[kb.label] = []
        for x in _axis(d, CURVE_POINTS):
            if time.monotonic() > deadline:
                break
            pt = {**focus, d.name: x}
            r = checker.check(pt)
            if r.reference is None or not r.target.ok:
                continue
            xs.append(show_value(x))
            series["target"].append(_mid(r.target.lo, r.target.hi))
            series["optimum"].append(_mid(*r.reference))
            for kb in ref.known:
                series[kb.label].append(known_value(kb, pt))
        out.append({"parameter": d.name, "log_scale": d.log, "x": xs, "series": series})
    return out


def widest(region: Region) -> list[Dim]:
    def span(d: Dim) -> float:
        if d.integer:
            return math.log(float(d.hi) / float(d.lo)) if d.lo > 0 else float(d.hi - d.lo)
        if d.log:
            return math.log(d.hi / d.lo)
        return float(d.hi - d.lo) / max(abs(float(d.hi)), 1e-300) * 3
    return sorted(region.dims, key=span, reverse=True)[:2]


def heatmap(checker: Checker, region: Region, focus: Mapping[str, Any], deadline: float
            ) -> dict[str, Any] | None:
    dims = widest(region)
    if len(dims) < 2:
        return None
    a, b = dims
    xs, ys = _axis(a, HEAT_POINTS), _axis(b, HEAT_POINTS)
    grid: list[list[float | None]] = []
    for y in ys:
        row: list[float | None] = []
        for x in xs:
            if time.monotonic() > deadline:
                return None
            r = checker.check({**focus, a.name: x, b.name: y})
            row.append(r.ratio if r.ratio is not None and math.isfinite(r.ratio) else None)
        grid.append(row)
    return {"x": {"parameter": a.name, "log_scale": a.log, "values": [show_value(v) for v in xs]},
            "y": {"parameter": b.name, "log_scale": b.log, "values": [show_value(v) for v in ys]},
            "ratio": grid}


def focus_point(results: list[PointResult], summary: Mapping[str, Any], region: Region,
                violation: PointResult | None) -> dict[str, Any]:
    if violation is not None:
        return dict(violation.point)
    worst = summary.get("worst")
    if worst:
        for r in results:
            if r.ratio == worst["ratio"]:
                return dict(r.point)
    return region.point({d.name: 0.5 for d in region.dims})


__all__: list[str] = ["curves", "focus_point", "grid_points", "heatmap", "known_bounds",
                      "ratio_summary"]
