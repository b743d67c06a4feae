"""Soundness over the whole region by interval branch and bound.

For a formula target and a reference that is monotone in every parameter
(:attr:`Reference.box_capable`), a box is certified when the formula's enclosure over the box
(interval arithmetic over arb-ball ends, :func:`verifiers.interval.compile_interval`) lies on the
right side of the reference's range over the box, which monotonicity encloses by two corners
(:meth:`Reference.enclose_box`). Undecided boxes are split along their widest side (in log
space for log-scale parameters, at an integer for integer ones); a box whose midpoint is a
certified violation ends the proof. ``proved`` only when every box of the region is certified.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.errors import DpVerifyError
from dpverify.verifiers.bounds.references import INF, Reference
from dpverify.verifiers.bounds.region import Region, show_value
from dpverify.verifiers.bounds.target import FormulaTarget

MAX_DEPTH = 80


@dataclass
class ProofLog:
    status: str = "not_attempted"  # proved | incomplete | violated | not_applicable
    reason: str = ""
    boxes: int = 0
    certified: int = 0
    max_depth: int = 0
    seconds: float = 0.0
    undecided: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason, "boxes": self.boxes,
                "certified_boxes": self.certified, "max_depth": self.max_depth,
                "seconds": round(self.seconds, 3), "undecided_examples": self.undecided[:5]}


Box = dict[str, tuple[Any, Any]]


def _geometric(lo: Any, hi: Any) -> bool:
    """Positive ranges are split geometrically: the reference's relative change across a box,
    which decides whether the box is certified, scales with hi/lo, not with hi - lo."""
    return lo > 0 and hi > 2 * lo


def _width(lo: Any, hi: Any, full: tuple[Any, Any], log: bool) -> float:
    """How much the box's side can move a privacy quantity: log(hi/lo) for a positive range
    (eps0, k, sigma), log(log(1/lo)/log(1/hi)) for a log-scale delta-like range (eps depends
    on delta through log(1/delta)), the normalised width otherwise. It orders the splits only."""
    if hi <= lo:
        return 0.0
    if log and hi < 1:
        return math.log(math.log(1 / float(lo)) / math.log(1 / float(hi)))
    if _geometric(*full) and lo > 0:
        return math.log(hi / lo)
    return float((hi - lo) / (full[1] - full[0]))


def _split(box: Box, region: Region) -> list[Box] | None:
    best, best_w = None, 0.0
    for d in region.dims:
        w = _width(*box[d.name], (d.lo, d.hi), d.log)
        if w > best_w:
            best, best_w = d, w
    if best is None:
        return None
    lo, hi = box[best.name]
    geometric = _geometric(best.lo, best.hi) and lo > 0
    if best.integer:
        mid = math.isqrt(lo * hi) if geometric else (lo + hi) // 2
        mid = min(max(mid, lo), hi - 1)
        halves = ((lo, mid), (mid + 1, hi))
    else:
        if geometric:
            m = Fraction(repr(math.sqrt(float(lo) * float(hi))))
        else:
            m = Fraction(repr(float((lo + hi) / 2)))
        if not lo < m < hi:
            m = (lo + hi) / 2
        halves = ((lo, m), (m, hi))
    return [{**box, best.name: h} for h in halves]


def _midpoint(box: Box, region: Region) -> dict[str, Any]:
    out: dict[str, Any] = dict(region.fixed)
    for d in region.dims:
        lo, hi = box[d.name]
        if d.integer:
            out[d.name] = (lo + hi) // 2
        else:
            out[d.name] = (lo + hi) / 2
    return out


def prove(target: FormulaTarget, ref: Reference, region: Region, lower: bool,
          to_target: Callable[[dict[str, Any]], dict[str, Any]],
          is_violation: Callable[[dict[str, Any]], bool],
          deadline: float, max_boxes: int, progress: Callable[[str], None]) -> ProofLog:
    log = ProofLog()
    started = time.monotonic()
    fixed_box: Box = {k: (v, v) for k, v in region.fixed.items()}
    root: Box = {**fixed_box, **{d.name: ((int(d.lo), int(d.hi)) if d.integer else (d.lo, d.hi))
                                 for d in region.dims}}
    counter = itertools.count()
    heap: list[tuple[int, int, Box]] = [(0, next(counter), root)]
    last_note = started
    corners: dict[tuple[Any, ...], Any] = {}
    while heap:
        if time.monotonic() > deadline or log.boxes >= max_boxes:
            log.status = "incomplete"
            log.reason = (f"{len(heap)} boxes left undecided when the proof's share of the "
                          f"budget ran out ({log.boxes} boxes processed)")
            log.undecided = [{k: [show_value(Fraction(a)), show_value(Fraction(b))]
                              for k, (a, b) in b_.items() if k in {d.name for d in region.dims}}
                             for _, _, b_ in heap[:5]]
            break
        depth, _, box = heapq.heappop(heap)
        log.boxes += 1
        log.max_depth = max(log.max_depth, depth)
        if time.monotonic() - last_note > 5:
            progress(f"proof: {log.boxes} boxes, {len(heap)} open, depth {depth}")
            last_note = time.monotonic()
        t = target.box(to_target(box))
        try:
            r_lo, r_hi = ref.enclose_box(box, cache=corners)
        except (PrecisionExhausted, DpVerifyError, ArithmeticError, ValueError):
            r_lo, r_hi = None, None
        if t is not None and r_lo is not None:
            if (t[0] >= r_hi) if not lower else (r_hi != INF and t[1] <= r_lo):
                log.certified += 1
                continue
            wrong = (t[1] < r_lo) if not lower else (r_hi != INF and t[0] > r_hi)
            # the whole box is on the wrong side: its midpoint is a counterexample
            if wrong and is_violation(_midpoint(box, region)):
                log.status, log.reason = "violated", "a box midpoint is a certified violation"
                break
        children = _split(box, region) if depth < MAX_DEPTH else None
        if not children:
            log.status = "incomplete"
            log.reason = "a box could not be certified down to the smallest split"
            log.undecided = [{k: [show_value(Fraction(a)), show_value(Fraction(b))]
                              for k, (a, b) in box.items()}]
            break
        for c in children:
            heapq.heappush(heap, (depth + 1, next(counter), c))
    else:
        log.status = "proved"
        log.reason = f"every one of {log.certified} boxes certified"
    log.seconds = time.monotonic() - started
    return log


__all__ = ["ProofLog", "prove"]
