"""Finding where a bound is wrong: certified point decisions and the search that drives them.

:class:`Checker` decides one point: the target's claim against the reference's enclosure, at
rising precision. ``violated`` only when the enclosures are disjoint on the wrong side (for an
upper bound: the reference's certified lower end exceeds the bound's upper end), ``sound`` when
they are disjoint on the right side, ``unresolved`` when they still overlap at the highest
precision (the margin is below the certification resolution), or the target's ``problem``.

The search (:func:`search`) runs, until a violation is certified or its share of the budget is
spent: the corners and edge midpoints of the region and its centre; a hypothesis search (integer
and log-scale strategies, ``target()`` on the relative margin so that generation climbs towards
the worst point, shrinking of a violation); then adaptive refinement — a local search around the
worst margins found, with steps halving each round — so that a flaw confined to a small part of
the region is found without a fixed grid.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpverify.verifiers.bounds.references import INF, Reference
from dpverify.verifiers.bounds.region import Point, Region
from dpverify.verifiers.bounds.remote import Outcome, Remote, enclosure, prefetch
from dpverify.verifiers.bounds.target import Target, TargetValue
from dpverify.verifiers.draws import seed_only_draws

PRECISIONS = (128, 384, 1024)
MAX_HUNG = 3  # hung target calls after which the target is no longer called
DIVERSITY = 0.2  # least distance (unit cube, max norm) between two refinement seeds


@dataclass
class PointResult:
    point: Point
    status: str  # sound | violated | unresolved | target_problem | reference_error
    target: TargetValue
    reference: tuple[Any, Any] | None = None
    detail: str = ""

    @property
    def margin(self) -> float:
        """Relative margin (bound - optimum)/optimum for an upper bound, the opposite for a
        lower bound; negative is a violation. ``inf`` where it cannot be formed."""
        return self._margin

    _margin: float = math.inf

    @property
    def ratio(self) -> float | None:
        """target/optimum at the midpoints (None when the optimum is 0 or infinite)."""
        return self._ratio

    _ratio: float | None = None


def _mid(lo: Any, hi: Any) -> float:
    if lo == INF or hi == INF:
        return INF
    return float((Fraction(lo) + Fraction(hi)) / 2)


@dataclass
class Checker:
    """Decides points (cached) and keeps every result."""

    ref: Reference
    target: Target
    to_target: Callable[[Point], dict[str, Any]]
    lower: bool = False
    results: dict[tuple[Any, ...], PointResult] = field(default_factory=dict)
    remote: Remote | None = None  # batches of reference evaluations sent to an executor

    @staticmethod
    def key(point: Point) -> tuple[Any, ...]:
        return tuple(sorted((k, tuple(v) if isinstance(v, list | tuple) else v)
                            for k, v in point.items()))

    def stopped(self) -> bool:
        return getattr(self.target, "hung", 0) >= MAX_HUNG

    def check(self, point: Point) -> PointResult:
        key = self.key(point)
        hit = self.results.get(key)
        if hit is None:
            hit = self._check(point)
            self.results[key] = hit
        return hit

    def _check(self, point: Point) -> PointResult:
        args = self.to_target(point)
        tv = self.target.at(args, PRECISIONS[0])
        if not tv.ok:
            return PointResult(point, "target_problem", tv, detail=tv.detail)
        ref: tuple[Any, Any] | None = None
        for i, prec in enumerate(PRECISIONS):
            if i and self.target.kind != "callable":
                tv = self.target.at(args, prec)
                if not tv.ok:
                    return PointResult(point, "target_problem", tv, detail=tv.detail)
            how, got = self._enclosure(point, prec)
            if how == "exhausted" and i + 1 < len(PRECISIONS):
                continue
            if how != "ok":
                return PointResult(point, "reference_error", tv, None, got)
            ref = got
            status = self._decide(tv, ref)
            if status != "unresolved" or self.ref.resolution_bits:
                break
        assert ref is not None
        res = PointResult(point, status, tv, ref)
        t, r = _mid(tv.lo, tv.hi), _mid(*ref)
        if r == INF or t == INF:
            res._margin = math.inf if (t == INF) != self.lower else -math.inf
        else:
            scale = max(abs(r), 1e-300)
            res._margin = ((t - r) if not self.lower else (r - t)) / scale
            res._ratio = t / r if r > 0 else (1.0 if t == 0 else None)
        return res

    def _enclosure(self, point: Point, prec: int) -> Outcome:
        if self.remote is not None:
            hit = self.remote.outcomes.get((self.key(point), prec))
            if hit is not None:
                return hit
        return enclosure(self.ref, point, prec)

    def prefetch(self, points: list[Point], deadline: float) -> int:
        """The reference enclosures of points not decided yet, computed in one batch on the
        remote executor (nothing without one): see :mod:`.remote`."""
        fresh = [(self.key(p), p) for p in points if self.key(p) not in self.results]
        return prefetch(self.remote, fresh, PRECISIONS, deadline)

    def _decide(self, tv: TargetValue, ref: tuple[Any, Any]) -> str:
        t_lo, t_hi = tv.lo, tv.hi
        r_lo, r_hi = ref
        if not self.lower:
            if r_lo > t_hi:
                return "violated"
            return "sound" if t_lo >= r_hi else "unresolved"
        if t_lo > r_hi:
            return "violated"
        return "sound" if t_hi <= r_lo else "unresolved"

    # -- summaries -----------------------------------------------------------------------
    def violations(self) -> list[PointResult]:
        return sorted((r for r in self.results.values() if r.status == "violated"),
                      key=lambda r: r.margin)

    def ranked(self) -> list[PointResult]:
        """Evaluated points, worst margin first."""
        return sorted((r for r in self.results.values() if r.reference is not None),
                      key=lambda r: r.margin)


# ------------------------------------------------------------------------------------------
# the search


@dataclass(frozen=True)
class SearchPlan:
    examples: int
    refine_rounds: int
    refine_seeds: int
    refine_neighbours: int
    max_corners: int = 64
    spread: int = 256  # quasi-random points covering the region before hypothesis


@dataclass
class SearchLog:
    seed: int
    corners: int = 0
    spread: int = 0
    examples: int = 0
    refined: int = 0
    seconds: float = 0.0
    complete: bool = False
    stop_reason: str = ""
    phases: list[str] = field(default_factory=list)


def _corner_units(region: Region, cap: int) -> list[dict[str, float]]:
    names = [d.name for d in region.dims]
    out: list[dict[str, float]] = [{n: 0.5 for n in names}]
    for combo in itertools.islice(itertools.product((0.0, 1.0), repeat=len(names)), cap):
        out.append(dict(zip(names, combo, strict=True)))
    for i, n in enumerate(names):  # edge midpoints: one coordinate at 1/2, the rest corners
        others = names[:i] + names[i + 1:]
        for combo in itertools.islice(itertools.product((0.0, 1.0), repeat=len(others)),
                                      max(1, cap // max(1, len(names)))):
            out.append({n: 0.5, **dict(zip(others, combo, strict=True))})
    return out


_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


def _halton(i: int, base: int) -> float:
    f, r = 1.0, 0.0
    while i > 0:
        f /= base
        r += f * (i % base)
        i //= base
    return r


def _spread_units(region: Region, n: int, seed: int) -> list[dict[str, float]]:
    """A randomly shifted Halton sequence: even coverage of the unit cube, so that a flaw in a
    small part of the region is sampled even where hypothesis' targeting looks elsewhere."""
    rng = random.Random(seed)
    shift = [rng.random() for _ in region.dims]
    return [{d.name: (_halton(i, _PRIMES[j % len(_PRIMES)]) + shift[j]) % 1.0
             for j, d in enumerate(region.dims)} for i in range(1, n + 1)]


class _Found(Exception):
    pass


def _hypothesis(checker: Checker, region: Region, plan: SearchPlan, log: SearchLog,
                deadline: float) -> None:
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    fields: dict[str, Any] = {}
    for d in region.dims:
        if d.integer:
            fields[d.name] = st.one_of(st.sampled_from([int(d.lo), int(d.hi)]),
                                       st.integers(int(d.lo), int(d.hi)))
        else:
            fields[d.name] = st.one_of(st.sampled_from([0.0, 1.0]),
                                       st.floats(0.0, 1.0, allow_nan=False))

    @settings(max_examples=plan.examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), derandomize=False,
              phases=(Phase.generate, Phase.target, Phase.shrink), report_multiple_bugs=False)
    @hseed(log.seed)
    @given(st.fixed_dictionaries(fields))
    def run(draw: dict[str, Any]) -> None:
        if time.monotonic() > deadline or checker.stopped():
            return
        units = {d.name: (d.unit(draw[d.name]) if d.integer else draw[d.name])
                 for d in region.dims}
        r = checker.check(region.point(units))
        log.examples += 1
        if r.status == "violated":
            raise _Found()
        if math.isfinite(r.margin):
            target(-r.margin, label="relative margin (negated)")

    try:
        with seed_only_draws():  # the points drawn depend on the seed, not on what is loaded
            run()
    except _Found:
        pass


def _refine(checker: Checker, region: Region, plan: SearchPlan, log: SearchLog,
            deadline: float, score: Callable[[Any], float]) -> None:
    """Local search around the points of lowest ``score``, steps halving every round."""
    rng = random.Random(log.seed)
    pool = [r for r in checker.ranked() if math.isfinite(score(r))]
    pool.sort(key=score)
    seeds: list[dict[str, float]] = []
    for r in pool:  # the worst margins, spread out: one seed per neighbourhood
        units = {d.name: d.unit(r.point[d.name]) for d in region.dims}
        if all(max(abs(units[n] - s[n]) for n in units) >= DIVERSITY for s in seeds):
            seeds.append(units)
        if len(seeds) >= plan.refine_seeds:
            break
    step = 0.25
    for _ in range(plan.refine_rounds):
        nxt = []
        for units in seeds:
            best_u, best = units, score(checker.check(region.point(units)))
            for _ in range(plan.refine_neighbours):
                if time.monotonic() > deadline or checker.stopped():
                    return
                cand = {}
                for d in region.dims:
                    u = units[d.name] + rng.gauss(0.0, step)
                    if d.integer and d.hi > d.lo:  # move by at least one where it can
                        u = units[d.name] + math.copysign(
                            max(abs(u - units[d.name]), 1 / float(d.hi - d.lo)),
                            u - units[d.name])
                    cand[d.name] = min(max(u, 0.0), 1.0)
                r = checker.check(region.point(cand))
                log.refined += 1
                if r.status == "violated" and score is _margin_score:
                    return
                s = score(r)
                if s < best:
                    best_u, best = cand, s
            nxt.append(best_u)
        seeds = nxt
        step /= 2


def _margin_score(r: PointResult) -> float:
    return r.margin


def search(checker: Checker, region: Region, plan: SearchPlan, seed: int, deadline: float,
           progress: Callable[[str], None]) -> SearchLog:
    """Corners and edges, hypothesis, adaptive refinement; stops at a certified violation."""
    log = SearchLog(seed)
    started = time.monotonic()

    def found() -> bool:
        return any(r.status == "violated" for r in checker.results.values())

    def out_of_time() -> bool:
        return time.monotonic() > deadline

    corners = _corner_units(region, plan.max_corners)
    checker.prefetch([region.point(u) for u in corners], deadline)
    for units in corners:
        if out_of_time() or checker.stopped():
            break
        checker.check(region.point(units))
        log.corners += 1
    log.phases.append("corners and edges")
    progress(f"corners and edges: {log.corners} points")
    if region.dims and not found():
        spread = _spread_units(region, plan.spread, seed)
        checker.prefetch([region.point(u) for u in spread], deadline)
        for units in spread:
            if out_of_time() or checker.stopped() or found():
                break
            checker.check(region.point(units))
            log.spread += 1
        log.phases.append("quasi-random spread")
        progress(f"quasi-random spread: {log.spread} points")
    if region.dims and not found() and not out_of_time() and not checker.stopped():
        _hypothesis(checker, region, plan, log, deadline)
        log.phases.append("hypothesis")
        progress(f"hypothesis search: {log.examples} examples")
    if region.dims and not found() and not out_of_time() and not checker.stopped():
        _refine(checker, region, plan, log, deadline, _margin_score)
        log.phases.append("adaptive refinement")
        progress(f"adaptive refinement: {log.refined} points")
    log.seconds = time.monotonic() - started
    if found():
        log.complete, log.stop_reason = True, "certified violation"
    elif checker.stopped():
        log.stop_reason = f"the target hung {MAX_HUNG} times: no further calls"
    elif out_of_time():
        log.stop_reason = "time budget spent before the search completed"
    else:
        log.complete, log.stop_reason = True, "search completed"
    return log


def refine_by(checker: Checker, region: Region, plan: SearchPlan, seed: int, deadline: float,
              score: Callable[[PointResult], float]) -> int:
    """Adaptive refinement towards the lowest ``score`` (e.g. the negated ratio)."""
    log = SearchLog(seed)
    _refine(checker, region, plan, log, deadline, score)
    return log.refined


__all__ = ["Checker", "PointResult", "SearchLog", "SearchPlan", "refine_by", "search"]
