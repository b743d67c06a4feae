"""The branch-and-bound driver of the ``interval`` route: :func:`verify_box`."""

from __future__ import annotations

import heapq
import itertools
import time
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Compare, Predicate
from dpverify.theorems.ctx import Unsupported
from dpverify.verifiers.interval.boxes import (
    START_BITS,
    SubBox,
    _box_params,
    _fixed_values,
    _int_assignments,
    _split,
    decide_box,
)
from dpverify.verifiers.interval.monotone import reduce_box
from dpverify.verifiers.interval.pruning import (
    _Memo,
    _prove,
    _Pruner,
    _pruning_depth,
    _Trace,
    smear,
)
from dpverify.verifiers.numeric import decide, show_point
from dpverify.verifiers.verdict import Budget, Status


def verify_box(
    check: Compare | Predicate, box: Box, budget: Budget, split: str = "smear",
    reduce: bool = True,
) -> tuple[Status, str, dict[str, Any]]:
    """Branch and bound over ``box`` (module :mod:`verifiers.interval`). ``split`` is
    ``"smear"`` (the side of largest ``sup |dg/dx_i| * width_i``, where derivatives are known)
    or ``"widest"``; ``reduce`` first fixes parameters with a certified monotone margin over
    the whole box (declared in ``box.monotone`` or derived, :mod:`.monotone`). Both only change
    how fast the search closes, never what a verdict means (``bench/bench_branch_bound.py``
    compares them)."""
    if split not in ("smear", "widest"):
        raise ValueError(f"split must be 'smear' or 'widest'; got {split!r}")
    if isinstance(check, Compare) and check.op == "eq":
        return (Status.NOT_APPLICABLE,
                "branch and bound certifies inequalities, not equalities", {})
    started = time.monotonic()
    fixed = _fixed_values(box.fixed)
    base = {k: (Fraction(lo), Fraction(hi)) for k, (lo, hi) in box.reals.items()}
    pruner = _Pruner(check, box, fixed) if isinstance(check, Compare) else None
    strict = isinstance(check, Compare) and check.op in ("lt", "gt")
    counter = itertools.count()
    heap: list[tuple[int, int, SubBox]] = []
    for ints in _int_assignments(box):
        heapq.heappush(heap, (0, next(counter), SubBox(dict(base), ints)))
    stats = {"direct": 0, "enclosure": 0, "monotonicity": 0, "mean-value": 0,
             "monotonicity+mean-value": 0, "face point": 0}
    reductions: list[dict[str, Any]] = []
    reduction_notes: list[str] = []
    processed = 0
    max_depth = 0
    undecided: list[SubBox] = []

    def evidence() -> dict[str, Any]:
        secs = time.monotonic() - started
        ev: dict[str, Any] = {
            "region": box.describe(), "boxes_processed": processed,
            "boxes_certified": sum(stats.values()),
            "boxes_certified_directly": stats["direct"],
            "boxes_pruned_by_monotonicity": stats["monotonicity"]
            + stats["monotonicity+mean-value"] + stats["face point"],
            "boxes_certified_by_mean_value_form": stats["mean-value"],
            "boxes_certified_by_symbolic_enclosure": stats["enclosure"],
            "boxes_certified_at_a_monotone_corner": stats["face point"],
            "max_depth": max_depth, "seconds": round(secs, 3),
            "boxes_per_second": round(processed / secs, 1) if secs > 0 else None,
            "split": split if pruner is not None else "widest",
        }
        if reductions:
            ev["monotone_faces"] = reductions[:20]
        if reduction_notes:
            ev["monotonicity_notes"] = reduction_notes
        if pruner is not None:
            kinds = sorted({e.kind for e in pruner.engines.values() if e is not None})
            ev["derivatives"] = ", ".join(kinds) or "none"
            if pruner.notes:
                ev["derivative_notes"] = pruner.notes
        return ev

    def failed(point: dict[str, Any], d: Any, how: str) -> tuple[Status, str, dict[str, Any]]:
        ev = evidence()
        ev.update({"counterexample": show_point(point), "lhs": d.lhs, "rhs": d.rhs,
                   "margin": d.margin, "certified": d.certified, "found_by": how})
        return Status.FAILED, f"certified counterexample at {show_point(point)}", ev

    def violates(point: dict[str, Any]) -> Any:
        if box.constraint is not None and not box.constraint(point):
            return None
        d = decide(check, point, 30, budget.max_bits)
        return d if d.holds is False else None

    try:
        while heap:
            if budget.expired() or processed >= budget.boxes:
                undecided.extend(s for _, _, s in heap)
                break
            _, _, sub = heapq.heappop(heap)
            processed += 1
            max_depth = max(max_depth, sub.depth)
            params = _box_params(sub, fixed)
            holds = decide_box(check, params, START_BITS)
            if holds is None and sub.depth > 30:
                holds = decide_box(check, params, 4 * START_BITS)
            if holds is True:
                stats["direct"] += 1
                continue
            engine = memo = None
            if holds is None and pruner is not None and sub.reals:
                engine = pruner.engine(sub.ints)
            if engine is not None:
                for attempt in ("box", "face"):
                    trace = _Trace()
                    memo = _Memo(engine, START_BITS, time.monotonic() + budget.remaining())
                    r = _prove(memo, engine.root, dict(sub.reals), 1, strict,
                               _pruning_depth(len(sub.free())), trace)
                    if r is not None or attempt == "face" or not reduce or sub.depth > 0:
                        break
                    # undecided on a whole top-level box: decide it on its monotone face
                    red = reduce_box(engine, dict(sub.reals), dict(box.monotone),
                                     time.monotonic() + budget.remaining())
                    reduction_notes.extend(n for n in red.notes if n not in reduction_notes)
                    if not red.steps:
                        break
                    reductions.append({**sub.ints, "fixed": red.steps})
                    sub = SubBox(red.face, sub.ints, 0)
                    if not sub.free():
                        break
                if r is True:
                    stats[trace.how] += 1
                    continue
                if r is False and trace.face is not None:
                    corner = SubBox({n: (lo, lo) if lo == hi else (lo, hi)
                                     for n, (lo, hi) in trace.face.items()}, sub.ints)
                    point = {**corner.point(), **fixed}
                    d = violates(point)
                    if d is not None:
                        return failed(point, d, f"worst case by {trace.how}")
                if not sub.free():
                    point = {**sub.point(), **fixed}
                    d = decide(check, point, 30, budget.max_bits)
                    if d.holds is True and d.certified:
                        stats["face point"] += 1
                        continue
            point = {**sub.point(), **fixed}
            d = violates(point)
            if d is not None:
                return failed(point, d, "sub-box midpoint")
            if not sub.free() or sub.depth >= 60:
                undecided.append(sub)
                continue
            scores = smear(memo, sub.reals) if memo is not None and split == "smear" else None
            for child in _split(sub, box.log_scale, scores):
                heapq.heappush(heap, (child.depth, next(counter), child))
    except Unsupported as e:
        return Status.NOT_APPLICABLE, f"a term cannot be evaluated over a box: {e}", {}
    ev = evidence()
    if undecided:
        ev["undecided_boxes"] = [s.describe() for s in undecided[:10]]
        ev["undecided_count"] = len(undecided)
        return (Status.INCONCLUSIVE,
                f"{len(undecided)} sub-boxes undecided after {processed} boxes", ev)
    return (Status.PROVED,
            f"certified on every sub-box of {box.describe()} ({processed} boxes, "
            f"{ev['boxes_pruned_by_monotonicity']} by monotonicity)", ev)
