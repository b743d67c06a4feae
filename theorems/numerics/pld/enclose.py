"""Enclosures with an automatic grid: the refinement driver (:func:`_refine`),
:func:`enclose_eps` and :func:`enclose_delta` and their heterogeneous forms. The one-step and
composed PLDs are in :mod:`.composition`, one pass at a fixed step in :mod:`.passes` (their
public names are re-exported here)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.numerics.pld._arith import Number, _arb, _span
from dpverify.theorems.numerics.pld.composition import (
    _CACHE,
    DEFAULT_METHOD,
    METHODS,
    Part,
    composed_pld,
    composed_plds,
    composition_pld,
    one_step_plds,
)
from dpverify.theorems.numerics.pld.discretize import MAX_BINS
from dpverify.theorems.numerics.pld.fourier_cost import TILT_BUDGET
from dpverify.theorems.numerics.pld.pairs import LossPair, sgm_pairs
from dpverify.theorems.numerics.pld.passes import (
    _delta_pass,
    _delta_pass_parts,
    _eps_pass,
    _eps_pass_parts,
    _plan,
    _steps,
    fourier_or_exact,
)
from dpverify.theorems.numerics.pld.predict import predicted_pass

__all__ = [
    "DEFAULT_METHOD",
    "FIRST_BINS",
    "MARGIN",
    "METHODS",
    "_CACHE",
    "Enclosure",
    "Part",
    "_delta_pass",
    "_eps_pass",
    "_plan",
    "_steps",
    "composed_pld",
    "composed_plds",
    "composition_pld",
    "enclose_delta",
    "enclose_delta_composition",
    "enclose_eps",
    "enclose_eps_composition",
    "fourier_or_exact",
    "one_step_plds",
    "sgm_composition",
]


@dataclass
class Enclosure:
    """A rigorous enclosure ``[lo, hi]`` (exact rationals) and how it was obtained."""

    lo: Fraction
    hi: Fraction
    h: Fraction
    seconds: float
    passes: list[dict[str, Any]] = field(default_factory=list)
    model: dict[str, Any] | None = None  # the float model that chose the first step (no bound)
    steps: list[Fraction] | None = None  # the last pass's step of each direction's upper end

    def rel_width(self) -> float:
        if self.hi == 0:
            return 0.0
        return float((self.hi - self.lo) / self.hi)

    def ball(self) -> flint.arb:
        return _arb(self.lo).union(_arb(self.hi))



def _scale(pair: LossPair) -> float:
    """A float spread of the one-step loss under P (interdecile range / 2.56)."""
    a = pair.quantile(0.1)
    b = pair.quantile(0.1, upper=True)
    return max((b - a) / 2.56, 1e-12)


def _dyadic_step(x: float) -> Fraction:
    """The largest 2^-n, or 3 * 2^-n, not above x (so that steps keep few bits)."""
    e = math.floor(math.log2(x))
    a = Fraction(2) ** e
    b = Fraction(3, 2) * a
    return b if b <= x else a


def _predicted_step(x: float) -> Fraction:
    """The largest ``m 2^-n`` with ``m`` in {1, 9/8, ..., 15/8} not above x: the refinement's
    predicted step, quantised finely (a pass costs about h^-1.7, so every overshoot of the
    prediction is paid; still a dyadic with four bits, see :func:`.taylor.taylor_exact_step`)."""
    e = math.floor(math.log2(x))
    a = Fraction(2) ** e
    for m in range(15, 8, -1):
        if Fraction(m, 8) * a <= x:
            return Fraction(m, 8) * a
    return a



FIRST_BINS = 20_000  # at most this many in the first pass


def _initial_step(pairs: Sequence[LossPair], k: int, rel_width: float = 1e-3) -> Fraction:
    """A quarter of the one-step spread (a cheap first pass: the refinement then predicts the
    step from the measured width), coarser for coarser targets (the width is second order in
    h)."""
    s = min(_scale(p) for p in pairs)
    step = s / 4 * min(4.0, max(1.0, math.sqrt(rel_width / 1e-3)))
    # a first pass never needs more than FIRST_BINS grid points per direction
    span = max(_span_estimate(p) for p in pairs)
    return _dyadic_step(max(step, span / FIRST_BINS))


MARGIN = 0.9  # predicted step / step of the h^2 law: measured (bench/bench_pld.py, issue 14)
#               the model's h^2 law overpredicts the rigorous width at the chosen step on all
#               five bench items (actual / predicted: A 0.87, B 0.85, C 0.96, K1e6 0.85, HET
#               0.96); 0.97 would save 0-5 % CPU (only the discretisation follows h: the
#               Fourier windows are powers of two) but leave ~6 % for what the model does not
#               see, and a composition at a cost tilt (:mod:`.fourier_cost`) may spend a
#               tenth of the target width or half the predicted slack (_tilt_budget); a miss
#               costs a second pass


TILT_SHARE = 1 / 2  # of the slack the h^2 law predicts (target - predicted width, per end) a
#                    Fourier cost tilt may spend (:func:`_tilt_budget`); the rest stays for
#                    the law's misses (it overpredicts on all five bench items: MARGIN)


def _tilt_budget(rel_width: float, expect: dict[str, float]) -> float | None:
    """The relative shift of eps per end a Fourier cost tilt may spend in the pass now run
    (:mod:`.fourier_cost`): ``TILT_SHARE`` of ``(rel_width - predicted) / 2``, at least the
    default ``TILT_BUDGET`` of the target; None without a prediction (the default rule)."""
    predicted = expect.get("width")
    if predicted is None:
        return None
    return max(TILT_BUDGET * rel_width, TILT_SHARE * (rel_width - predicted) / 2)


MODEL_METHODS = ("fourier", "exact")  # the methods whose first step the float model chooses
#   (the model composes as "fourier" does; "exact" has the same discretisation law)
MODEL_COST = 7.0  # CPU of a rigorous pass / CPU of the float model at the same step, at most
#                  (measured on the bench/bench_pld.py items at their first step, both
#                  directions in full, after the model got cheaper (model2): A 3.4, B 4.7, C
#                  4.9, K1e6 3.0, HET 5.8; 7 leaves room): the budget check of a pass chosen
#                  from the model


def _refine(pairs: Sequence[LossPair], k: int, run: Any, rel_width: float,
            max_seconds: float, h: Fraction | None,
            predict: Callable[[Fraction], tuple[float, float] | None] | None = None,
            expect: dict[str, float] | None = None) -> Enclosure:
    """Passes at decreasing steps until the intersected enclosure meets ``rel_width``.

    The next step is the coarsest predicted to meet the target (width ~ c h^2, times
    ``MARGIN``). The first step: ``predict(h0)`` (a float model of the pass at the coarse step
    ``h0``, :mod:`.predict`; never part of an enclosure) gives ``c``, and the first rigorous
    pass is at the step predicted from it; without a model, a rigorous pass at ``h0`` measures
    ``c`` (a miss of the model costs a further pass, as a miss of the law always did). The
    budget ``max_seconds`` is CPU seconds of this process (a loaded machine must not force
    extra, coarser passes): a pass whose predicted CPU cost (the last pass's CPU time, or
    ``MODEL_COST`` times the model's, times ``(h / new_h)^1.7``) exceeds the remaining budget
    is replaced by the finest one predicted to fit; no pass starts once the budget is spent,
    and the number of passes is finite (every pass refines by at least 3/4; the grid size is
    capped), and none starts once ``max_seconds`` of wall time have passed either: the budget
    is a bound, never a hang.

    ``run(h)`` returns the pass's ``(lo, hi)``, optionally followed by the step of each
    direction's upper end (recorded in the pass and the Enclosure): a direction dominated by
    another may be decided at a coarser step than ``h`` (:class:`_DirectionSteps`,
    :func:`.passes._pass_parts`). Every end is certified at its own step, so every pass's
    ``(lo, hi)`` encloses the maximum over the directions, and so does the intersection.

    ``expect`` (if given) holds, while ``run(h)`` runs, the width predicted for that pass
    (``"width"``: ``c h^2`` from the model or the last pass, without ``MARGIN``; absent without
    a prediction): a float that only steers cost (:func:`_tilt_budget`), never a bound."""
    started_cpu = time.process_time()
    started = time.monotonic()
    fixed = h is not None
    h = h if h is not None else _initial_step(pairs, k, rel_width)
    model: dict[str, Any] | None = None
    if not fixed and predict is not None:
        c0 = time.process_time()
        got = predict(h)
        cpu = time.process_time() - c0
        if got is not None and got[1] > 0:
            width = (got[1] - got[0]) / got[1]
            model = {"h": str(h), "lo": got[0], "hi": got[1], "rel_width": width,
                     "cpu": round(cpu, 3)}
            if width > rel_width:
                remaining = max_seconds - (time.process_time() - started_cpu)
                h = _next_step(pairs, h, width, rel_width, MODEL_COST * cpu, remaining) or h
    passes: list[dict[str, Any]] = []
    lo, hi = Fraction(0), Fraction(-1)
    law = None  # (step, width) of the h^2 law's last measurement
    if model is not None and model["rel_width"] > 0:
        law = (Fraction(model["h"]), model["rel_width"])
    while True:
        if expect is not None:
            expect.pop("width", None)
            if law is not None:
                expect["width"] = law[1] * float(h / law[0]) ** 2
        t0, c0 = time.monotonic(), time.process_time()
        got = run(h)
        p_lo, p_hi = got[0], got[1]
        steps = list(got[2]) if len(got) > 2 else None
        dt, cpu = time.monotonic() - t0, time.process_time() - c0
        # every pass is rigorous, so is their intersection (grids of different steps need
        # not nest: a finer pass may stick out of a coarser one, never out of the truth)
        lo = max(lo, p_lo)
        hi = p_hi if not passes else min(hi, p_hi)
        width = float((hi - lo) / hi) if hi > 0 else 0.0
        passes.append({"h": str(h), "lo": float(p_lo), "hi": float(p_hi), "rel_width": width,
                       "seconds": round(dt, 3), "cpu": round(cpu, 3)})
        if steps is not None:
            passes[-1]["steps"] = [str(s) for s in steps]
        law = (h, width)
        if fixed or width <= rel_width:
            break
        if time.monotonic() - started >= max_seconds:  # never past the budget in wall time
            break
        remaining = max_seconds - (time.process_time() - started_cpu)
        new_h = _next_step(pairs, h, width, rel_width, cpu, remaining)
        if new_h is None:
            break
        h = new_h
    return Enclosure(lo, hi, h, time.monotonic() - started, passes, model, steps)


def _next_step(pairs: Sequence[LossPair], h: Fraction, width: float, rel_width: float,
               cpu: float, remaining: float) -> Fraction | None:
    """The step after one of relative width ``width`` at step ``h`` that cost ``cpu`` seconds:
    the coarsest predicted to meet ``rel_width`` by the h^2 law (times ``MARGIN``), within the
    size limit and the ``remaining`` CPU budget; None if no step refines within them."""
    factor = math.sqrt(rel_width / width) * MARGIN if width > 0 else 0.5
    factor = min(max(factor, 1 / 32), 0.7)
    new_h = _predicted_step(float(h) * factor)
    span = max(_span_estimate(p) for p in pairs)
    if span / float(new_h) > MAX_BINS:  # the finest step within the size limit instead
        new_h = _dyadic_step(span / MAX_BINS) * 2
        if new_h > h * Fraction(3, 4):
            return None
    cost = max(cpu, 1e-3)
    if cost * (float(h) / float(new_h)) ** 1.7 > remaining:
        # the finest step predicted to fit the remaining budget, if it still refines
        fit = float(h) * (max(remaining, 0.0) / cost) ** (-1 / 1.7)
        if fit <= 0 or _dyadic_step(1.5 * fit) > h * Fraction(3, 4):
            return None
        new_h = _dyadic_step(1.5 * fit)  # >= fit: within the budget
    return new_h


def _span_estimate(pair: LossPair) -> float:
    return pair.quantile(1e-12, upper=True) - pair.quantile(1e-12)


def enclose_eps(pairs: Sequence[LossPair], k: int, delta: Number, rel_width: float = 1e-3,
                max_seconds: float = 100.0, h: Fraction | None = None,
                upper_only: bool = False, method: str = DEFAULT_METHOD) -> Enclosure:
    """A rigorous enclosure of the least ``eps >= 0`` with ``max_pairs delta_k(eps) <= delta``.

    The grid step is refined until the relative width is at most ``rel_width`` or the time
    budget (``max_seconds`` of CPU, also a bound in wall time, :func:`_refine`) or the size
    budget runs out (the enclosure is then wider, and still rigorous); ``h`` fixes it.
    ``upper_only``: one pass, only the certified upper end (the lower end is then 0).
    ``method``: "exact" (``fmpz_poly``), "fft" (:mod:`.fft`), "tilted" (:mod:`.tilted`) or
    "auto" (a tilted pass, kept when it meets ``rel_width``, else an exact one as well).
    """
    return enclose_eps_composition([[(p, k)] for p in pairs], delta, rel_width, max_seconds, h,
                                   upper_only, method)


def enclose_delta(pairs: Sequence[LossPair], k: int, eps: Number, rel_width: float = 1e-3,
                  max_seconds: float = 100.0, h: Fraction | None = None,
                  method: str = DEFAULT_METHOD) -> Enclosure:
    """A rigorous enclosure of ``max_pairs delta_k(eps)`` (hockey-stick of the k-fold
    composition at ``e^eps``)."""
    return enclose_delta_composition([[(p, k)] for p in pairs], eps, rel_width, max_seconds, h,
                                     method)


class _DirectionSteps:
    """The coarser step at which each dominated direction's upper end is tried first in the
    next pass (:func:`.passes._pass_parts`): a direction whose upper end was below the lower
    end of the maximum, in the float model (its upper model, or the pessimistic Chernoff
    estimate standing for it, :func:`.predict.predicted_pass`) or in a rigorous pass, keeps
    that step (the model's, or the one its end was certified at); a direction that was not
    below is refined with the others. The choice only decides what is computed: every end of a
    pass is certified at its own step, and a coarse upper end is used only where it is at most
    the pass's certified lower end."""

    def __init__(self) -> None:
        self.coarse: dict[int, Fraction] = {}
        self.record: dict[str, Any] = {}  # filled by each pass: "his", "steps"

    def from_model(self, step: Fraction, got: tuple[float, float, list[float]]) -> None:
        lo, _hi, his = got
        self.coarse = {d: step for d, v in enumerate(his) if v < lo}

    def after_pass(self, lo: Fraction) -> list[Fraction]:
        """The pass's step of each direction (recorded); the next pass's coarse steps."""
        his, steps = self.record.pop("his"), self.record.pop("steps")
        self.coarse = {d: steps[d] for d, v in enumerate(his) if v < lo}
        return list(steps)


def _all_pairs(directions: Sequence[Sequence[Part]]) -> list[LossPair]:
    return [pair for parts in directions for pair, _k in parts]


def _check_directions(directions: Sequence[Sequence[Part]]) -> None:
    if not directions or any(not parts for parts in directions):
        raise ValueError("every direction needs at least one (pair, k) part")
    for parts in directions:
        for _pair, k in parts:
            if int(k) != k or k < 1:
                raise ValueError(f"k must be an integer >= 1; got {k!r}")


def enclose_eps_composition(directions: Sequence[Sequence[Part]], delta: Number,
                            rel_width: float = 1e-3, max_seconds: float = 100.0,
                            h: Fraction | None = None, upper_only: bool = False,
                            method: str = DEFAULT_METHOD) -> Enclosure:
    """:func:`enclose_eps` for a heterogeneous composition: ``directions`` lists, for each
    direction of the neighbouring relation (e.g. add, remove), the parts ``(pair_j, k_j)``
    composed in that direction; the profile is the maximum over the directions."""
    _check_directions(directions)
    pairs = _all_pairs(directions)
    k = _steps(directions)
    d_lo = float(_span(delta)[0])
    abs_tol = d_lo * 2.0**-24
    if upper_only:
        started = time.monotonic()
        step = h if h is not None else _initial_step(pairs, k, rel_width)
        lo, hi = _eps_pass_parts(directions, delta, step, abs_tol, True, method)
        return Enclosure(lo, hi, step, time.monotonic() - started)
    hint: list[float] = []  # the previous pass's (or model's) midpoint: where the next tilts
    state: dict[str, bool] = {}
    d_float = float(d_lo)
    held = _DirectionSteps()
    expect: dict[str, float] = {}

    def model(step: Fraction) -> tuple[float, float] | None:
        got = predicted_pass(directions, step, _plan(k, abs_tol)[1],
                             lambda pld: pld.eps_float(d_float), None, d_float)
        if got is not None and got[1] > 0:
            hint.append((got[0] + got[1]) / 2)
            held.from_model(step, got)
        return got[:2] if got is not None else None

    def run(step: Fraction) -> tuple[Fraction, Fraction, list[Fraction]]:
        lo, hi = _eps_pass_parts(directions, delta, step, abs_tol, False, method,
                                 hint[-1] if hint else None, rel_width, state, held.coarse,
                                 held.record, _tilt_budget(rel_width, expect))
        if 0 < hi:
            hint.append(float((lo + hi) / 2))
        return lo, hi, held.after_pass(lo)

    return _refine(pairs, k, run, rel_width, max_seconds, h,
                   model if method in MODEL_METHODS else None, expect)


def enclose_delta_composition(directions: Sequence[Sequence[Part]], eps: Number,
                              rel_width: float = 1e-3, max_seconds: float = 100.0,
                              h: Fraction | None = None,
                              method: str = DEFAULT_METHOD) -> Enclosure:
    """:func:`enclose_delta` for a heterogeneous composition (``directions`` as in
    :func:`enclose_eps_composition`)."""
    _check_directions(directions)
    pairs = _all_pairs(directions)
    k = _steps(directions)
    # first looks at the magnitude (upper bounds only) set the integer scale and the tails
    step0 = h if h is not None else _initial_step(pairs, k, rel_width)
    abs_tol = 2.0**-40
    for _ in range(8):
        look = "fourier" if method == "fourier" else "exact"
        _, hi0 = _delta_pass_parts(directions, eps, step0, abs_tol, True, look)
        if hi0 >= abs_tol * 2.0**20 or abs_tol < 2.0**-300:
            break
        abs_tol = max(float(hi0) * 2.0**-24, abs_tol * 2.0**-40)
    abs_tol = min(abs_tol, float(hi0) * 2.0**-24) if hi0 > 0 else abs_tol
    state: dict[str, bool] = {}
    e_lo, e_hi = _span(eps)
    held = _DirectionSteps()

    def model(step: Fraction) -> tuple[float, float] | None:
        got = predicted_pass(directions, step, _plan(k, abs_tol)[1],
                             lambda pld: float(pld.delta_bound(eps).mid()),
                             float((e_lo + e_hi) / 2), 1e-6)
        if got is not None:
            held.from_model(step, got)
        return got[:2] if got is not None else None

    def run(step: Fraction) -> tuple[Fraction, Fraction, list[Fraction]]:
        lo, hi = _delta_pass_parts(directions, eps, step, abs_tol, False, method, rel_width,
                                   state, held.coarse, held.record)
        return lo, hi, held.after_pass(lo)

    return _refine(pairs, k, run, rel_width, max_seconds, h,
                   model if method in MODEL_METHODS else None)


def sgm_composition(parts: Sequence[tuple[Number, Number, int]],
                    neighboring: str = "add_remove") -> list[list[Part]]:
    """The directions of a heterogeneous composition of Poisson-subsampled Gaussians
    ``(q_j, sigma_j)``, ``k_j`` steps each, for :func:`enclose_eps_composition`: every
    mechanism sees the same neighbouring datasets, so each direction composes the pairs of
    that direction ([S22] arXiv 2210.00597v4, Sec. 3)."""
    if not parts:
        raise ValueError("parts must not be empty")
    per_part = [sgm_pairs(q, sigma, neighboring) for q, sigma, _k in parts]
    return [[(pairs[d], k) for pairs, (_q, _s, k) in zip(per_part, parts, strict=True)]
            for d in range(len(per_part[0]))]
