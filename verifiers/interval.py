"""The ``interval`` route: rigorous branch and bound over a box with arb balls.

Each side of a comparison is evaluated in :class:`~theorems.ctx.ArbCtx` with interval inputs,
which encloses its range over the whole sub-box. A sub-box is certified when the enclosures
decide the comparison for all of it; otherwise its midpoint is checked (a certified failure
there is a counterexample) and the box is split along its widest side (geometrically for
``log_scale`` parameters). Integer parameters are enumerated over their stated range.

Verdicts: ``proved`` only when every sub-box of the whole region is certified; ``failed`` with a
point certified to violate the claim (re-checked at higher precision); otherwise
``inconclusive`` with the undecided boxes in the evidence.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from theorems.claims import Box, Compare, Predicate
from theorems.ctx import ArbCtx, Interval, PrecisionExhausted, Unsupported, arb_precision
from verifiers.numeric import _decide_arb, decide, show_point
from verifiers.verdict import Budget, Status

START_BITS = 96


@dataclass
class SubBox:
    reals: dict[str, tuple[Fraction, Fraction]]
    ints: dict[str, int]
    depth: int = 0

    def point(self) -> dict[str, Any]:
        p: dict[str, Any] = dict(self.ints)
        for k, (lo, hi) in self.reals.items():
            p[k] = (lo + hi) / 2
        return p

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: [_f(lo), _f(hi)] for k, (lo, hi) in self.reals.items()}
        d.update(self.ints)
        return d


def _f(x: Fraction) -> str:
    return f"{float(x):.6g}"


def _int_assignments(box: Box) -> Iterator[dict[str, int]]:
    names = list(box.ints)
    ranges = [range(lo, hi + 1) for lo, hi in (box.ints[n] for n in names)]
    for combo in itertools.product(*ranges):
        yield dict(zip(names, combo, strict=True))


def _width(name: str, lo: Fraction, hi: Fraction, log_scale: frozenset[str]) -> float:
    if name in log_scale and lo > 0:
        return math.log(float(hi) / float(lo))
    return float(hi - lo)


def _split(sub: SubBox, log_scale: frozenset[str]) -> tuple[SubBox, SubBox]:
    name = max(sub.reals, key=lambda n: _width(n, *sub.reals[n], log_scale))
    lo, hi = sub.reals[name]
    if name in log_scale and lo > 0:
        mid = Fraction(math.sqrt(float(lo) * float(hi)))
        if not lo < mid < hi:
            mid = (lo + hi) / 2
    else:
        mid = (lo + hi) / 2
    left = dict(sub.reals)
    right = dict(sub.reals)
    left[name] = (lo, mid)
    right[name] = (mid, hi)
    return SubBox(left, sub.ints, sub.depth + 1), SubBox(right, sub.ints, sub.depth + 1)


def _box_params(sub: SubBox, fixed: Mapping[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {k: Interval(lo, hi) for k, (lo, hi) in sub.reals.items()}
    params.update(sub.ints)
    for k, v in fixed.items():
        params[k] = Fraction(v) if isinstance(v, str) else v
    return params


def decide_box(check: Compare | Predicate, params: Mapping[str, Any], prec: int) -> bool | None:
    """Certified decision for a whole box: True/False for every point, None if undecided."""
    ctx = ArbCtx(prec)
    try:
        if isinstance(check, Predicate):
            return ctx.run(check.test, **params)
        lhs = ctx.run(check.lhs, **params)
        rhs = ctx.run(check.rhs, **params)
    except (PrecisionExhausted, ZeroDivisionError, ValueError):
        return None
    with arb_precision(prec):
        holds, _ = _decide_arb(flint.arb(lhs), check.op, flint.arb(rhs), check.tol)
    return holds


def verify_box(
    check: Compare | Predicate, box: Box, budget: Budget
) -> tuple[Status, str, dict[str, Any]]:
    if isinstance(check, Compare) and check.op == "eq":
        return (Status.NOT_APPLICABLE,
                "branch and bound certifies inequalities, not equalities", {})
    fixed = {k: v for k, v in box.fixed.items()}
    base = {k: (Fraction(lo), Fraction(hi)) for k, (lo, hi) in box.reals.items()}
    counter = itertools.count()
    heap: list[tuple[int, int, SubBox]] = []
    for ints in _int_assignments(box):
        heapq.heappush(heap, (0, next(counter), SubBox(dict(base), ints)))
    certified = 0
    processed = 0
    max_depth = 0
    undecided: list[SubBox] = []
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
                certified += 1
                continue
            point = {**sub.point(), **{k: (Fraction(v) if isinstance(v, str) else v)
                                        for k, v in fixed.items()}}
            if box.constraint is not None and not box.constraint(point):
                pass
            else:
                d = decide(check, point, 30, budget.max_bits)
                if d.holds is False:
                    return Status.FAILED, f"certified counterexample at {show_point(point)}", {
                        "counterexample": show_point(point), "lhs": d.lhs, "rhs": d.rhs,
                        "margin": d.margin, "certified": d.certified, "boxes": processed,
                        "region": box.describe()}
            if not sub.reals or sub.depth >= 60:
                undecided.append(sub)
                continue
            for child in _split(sub, box.log_scale):
                heapq.heappush(heap, (child.depth, next(counter), child))
    except Unsupported as e:
        return Status.NOT_APPLICABLE, f"a term cannot be evaluated over a box: {e}", {}
    evidence: dict[str, Any] = {"region": box.describe(), "boxes_processed": processed,
                                "boxes_certified": certified, "max_depth": max_depth}
    if undecided:
        evidence["undecided_boxes"] = [s.describe() for s in undecided[:10]]
        evidence["undecided_count"] = len(undecided)
        return (Status.INCONCLUSIVE,
                f"{len(undecided)} sub-boxes undecided after {processed} boxes", evidence)
    return (Status.PROVED,
            f"certified on every sub-box of {box.describe()} ({certified} leaf boxes)", evidence)
