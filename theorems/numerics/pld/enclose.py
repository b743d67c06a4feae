"""Enclosures with an automatic grid: one-step and composed PLDs (cached), the refinement
driver, :func:`enclose_eps` and :func:`enclose_delta`."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

import flint

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.numerics.pld._arith import Number, _arb, _span
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.discretize import MAX_BINS, discretize, grid_for
from dpverify.theorems.numerics.pld.fft import MAX_LENGTH, FloatPLD
from dpverify.theorems.numerics.pld.fourier import chernoff_eps, compose_fourier, fourier_tilt
from dpverify.theorems.numerics.pld.pairs import LossPair, sgm_pairs
from dpverify.theorems.numerics.pld.tilted import (
    MAX_EXPONENT,
    TiltedPLD,
    float_eps_estimate,
    saddle_tilt,
)


@dataclass
class Enclosure:
    """A rigorous enclosure ``[lo, hi]`` (exact rationals) and how it was obtained."""

    lo: Fraction
    hi: Fraction
    h: Fraction
    seconds: float
    passes: list[dict[str, Any]] = field(default_factory=list)

    def rel_width(self) -> float:
        if self.hi == 0:
            return 0.0
        return float((self.hi - self.lo) / self.hi)

    def ball(self) -> flint.arb:
        return _arb(self.lo).union(_arb(self.hi))


_CACHE: dict[tuple[Any, ...], Any] = {}
_CACHE_ORDER: list[tuple[Any, ...]] = []
_CACHE_MAX = 12


def _cached(key: tuple[Any, ...], make: Any) -> Any:
    hit = _CACHE.get(key)
    if hit is None:
        hit = make()
        _CACHE[key] = hit
        _CACHE_ORDER.append(key)
        while len(_CACHE_ORDER) > _CACHE_MAX:
            _CACHE.pop(_CACHE_ORDER.pop(0), None)
    return hit


def one_step_plds(pair: LossPair, h: Fraction, bits: int, tail: float,
                  lower: bool = True) -> tuple[DiscretePLD, DiscretePLD | None]:
    """The upper and lower one-step PLDs on the grid of step h aligned for ``pair`` (cached),
    with the truncation budget ``tail`` (a P-mass per side and per truncation)."""
    both = _CACHE.get(("one", pair.key(), h, bits, tail, True))
    if both is not None:
        return both

    def make() -> tuple[DiscretePLD, DiscretePLD | None]:
        up, lo = discretize(pair, grid_for(pair, h), bits, tail, lower=lower)
        trim = max(1, int(tail * 2.0**bits))
        up.trim = trim
        if lo is not None:
            lo.trim = trim
            lo = lo._trimmed()
        return up._trimmed(), lo

    return _cached(("one", pair.key(), h, bits, tail, lower), make)


METHODS = ("exact", "fft", "tilted", "auto", "fourier")
# "fft": untilted float FFT, its absolute bound swamps the tails at delta ~ 1e-5 (see .fft);
# "tilted": the FFT on exponentially tilted masses (.tilted), needs the query's location;
# "auto": in the driver, a tilted pass first, kept when its (rigorous) enclosure meets the
# target width, else an exact pass on the same (cached) one-step PLDs, intersected; elsewhere
# "exact". "fourier" (.fourier): one FFT per part, a pointwise power and one inverse FFT on
# tilted masses with an l1 error budget; the driver's DEFAULT because, measured on
# bench/bench_pld.py (README, issue 14), it meets every width target of the exact path and
# costs less CPU on every item (up to 3x less at k = 10^6); a composition or query it cannot
# do (size limit, float range) falls back to "exact" (:func:`_one_end`). The functions that
# return composed PLDs for further composition (composed_pld(s), composition_pld) keep
# "exact" as their default: a Fourier PLD answers queries only.
DEFAULT_METHOD = "fourier"
T = TypeVar("T")
_FALLBACK = (PrecisionExhausted, ValueError, OverflowError, FloatingPointError)


def _method(method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    return method


def _float_composed(pair: LossPair, k: int, h: Fraction, bits: int, tail: float,
                    kind: str, tilt: tuple[Fraction, float] | None = None) -> FloatPLD:
    """The k-fold composition by FFT with outward rounding (cached; see :mod:`.fft`), tilted
    by ``tilt = (lam, centre)`` (:mod:`.tilted`) if given."""

    def make() -> FloatPLD:
        upper, lower = one_step_plds(pair, h, bits, tail, lower=kind == "lower")
        one = upper if kind == "upper" else lower
        assert one is not None
        start = FloatPLD.from_discrete(one)
        if tilt is not None:
            start = TiltedPLD.tilted(start, tilt[0], tilt[1])
        return start.self_compose(k)

    return _cached(("f", pair.key(), k, h, bits, tail, kind, tilt), make)


def _tilt(parts: Sequence[Part], h: Fraction, bits: int, tail: float,
          center: float | None, delta: Number | None) -> tuple[Fraction, float]:
    """The tilt of :mod:`.tilted` for the composition of ``parts``: the saddle point whose
    tilted mean is ``center`` (without it, a float estimate of eps at ``delta``), capped so that
    the weights stay in the float range."""
    ones = [(FloatPLD.from_discrete(one_step_plds(pair, h, bits, tail, lower=False)[0]), k)
            for pair, k in parts]
    if center is None:
        d = float(_span(delta)[0]) if delta is not None else 1e-6
        key = ("locate", tuple((pair.key(), k) for pair, k in parts), h, bits, tail, d)
        center = _cached(key, lambda: float_eps_estimate(ones, d))
    span = sum(k * len(one) for one, k in ones) * float(h)  # at most the composed span
    span = min(span, 2.0 * MAX_LENGTH * float(h))
    return saddle_tilt(ones, center, MAX_EXPONENT / 2 / max(span, 1e-9)), center


def _tilted_composition(parts: Sequence[Part], h: Fraction, bits: int, tail: float,
                        kind: str, tilt: tuple[Fraction, float]) -> FloatPLD:
    acc = None
    for pair, k in parts:
        f = _float_composed(pair, k, h, bits, tail, kind, tilt)
        acc = f if acc is None else acc.compose(f)
    assert acc is not None
    return acc


def composed_pld(pair: LossPair, k: int, h: Fraction, bits: int, tail: float,
                 kind: str, method: str = "exact", center: float | None = None,
                 delta: Number | None = None) -> DiscretePLD:
    """The ``kind`` ("upper" or "lower") PLD of the k-fold composition of ``pair`` (cached);
    ``method`` "exact" (``fmpz_poly``), "fft" (float FFT, outward-rounded, :mod:`.fft`),
    "tilted" or "auto" (:func:`composition_pld`; aimed at the loss ``center`` or at the eps of
    ``delta``, without either "auto" is "exact")."""
    if _method(method) != "exact":
        return composition_pld([(pair, k)], h, bits, tail, kind, method, center, delta)
    return _exact_composed(pair, k, h, bits, tail, kind)


def _exact_composed(pair: LossPair, k: int, h: Fraction, bits: int, tail: float,
                    kind: str) -> DiscretePLD:

    def make() -> DiscretePLD:
        upper, lower = one_step_plds(pair, h, bits, tail, lower=kind == "lower")
        one = upper if kind == "upper" else lower
        assert one is not None
        return one.self_compose(k)

    return _cached(("k", pair.key(), k, h, bits, tail, kind), make)


def composed_plds(pair: LossPair, k: int, h: Fraction, bits: int,
                  tail: float, method: str = "exact", center: float | None = None,
                  delta: Number | None = None) -> tuple[DiscretePLD, DiscretePLD]:
    """The upper and lower PLDs of the k-fold composition of ``pair``."""
    one_step_plds(pair, h, bits, tail, lower=True)  # one discretisation for both
    return (composed_pld(pair, k, h, bits, tail, "upper", method, center, delta),
            composed_pld(pair, k, h, bits, tail, "lower", method, center, delta))


Part = tuple[LossPair, int]  # a loss pair and its number of steps


def _fourier_composition(parts: Sequence[Part], h: Fraction, bits: int, tail: float, kind: str,
                         center: float | None, delta: Number | None) -> Any:
    """:func:`.fourier.compose_fourier` of the cached one-step PLDs, tilted at ``center`` (or
    at a Chernoff estimate of the eps of ``delta``)."""
    key = tuple((pair.key(), k) for pair, k in parts)
    ups = [(one_step_plds(pair, h, bits, tail, lower=kind == "lower")[0], k) for pair, k in parts]
    if center is None:
        d = float(_span(delta)[0]) if delta is not None else 1e-6
        center = _cached(("chernoff", key, h, bits, tail, d), lambda: chernoff_eps(ups, d))
    lam = _cached(("lam", key, h, bits, tail, center), lambda: fourier_tilt(ups, center))

    def make() -> Any:
        ones = ups
        if kind == "lower":
            ones = [(one_step_plds(pair, h, bits, tail)[1], k) for pair, k in parts]
        return compose_fourier(ones, lam)

    return _cached(("four", key, h, bits, tail, kind, lam), make)


def composition_pld(parts: Sequence[Part], h: Fraction, bits: int, tail: float, kind: str,
                    method: str = "exact", center: float | None = None,
                    delta: Number | None = None) -> Any:
    """The ``kind`` PLD of the heterogeneous composition of ``pair_j`` ``k_j`` times each.

    "tilted" aims the tilt at the loss ``center`` (or at the eps of ``delta``); "auto" is
    "exact" here (the driver's passes try "tilted" first, :func:`_pass_parts`); "fourier"
    returns a :class:`.fourier.FourierPLD` (queries only: ``delta_bound``, ``eps_bound``)."""
    method = _method(method)
    if method == "fourier":
        return _fourier_composition(parts, h, bits, tail, kind, center, delta)
    if method == "tilted":
        if center is None and delta is None:
            raise ValueError("the tilted method needs the query's eps (center) or delta")
        tilt = _tilt(parts, h, bits, tail, center, delta)
        return _tilted_composition(parts, h, bits, tail, kind, tilt).to_discrete()
    if method == "auto":
        method = "exact"
    if len(parts) == 1 and method == "exact":
        return _exact_composed(parts[0][0], parts[0][1], h, bits, tail, kind)
    if method == "fft":
        acc = None
        for pair, k in parts:
            f = _float_composed(pair, k, h, bits, tail, kind)
            acc = f if acc is None else acc.compose(f)
        assert acc is not None
        return acc.to_discrete()
    out = None
    for pair, k in parts:
        d = _exact_composed(pair, k, h, bits, tail, kind)
        out = d if out is None else out.compose(d)
    assert out is not None
    return out


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


def _plan(k: int, abs_tol: float) -> tuple[int, float]:
    ops = 2 * max(1, k.bit_length())
    bits = max(64, math.ceil(math.log2(ops * 4e6 / abs_tol)) + 2)
    tail = abs_tol / (8 * ops)
    return bits, tail


def _steps(directions: Sequence[Sequence[Part]]) -> int:
    return max(sum(k for _, k in parts) for parts in directions)


def _pass_parts(directions: Sequence[Sequence[Part]], at: Number, h: Fraction, abs_tol: float,
                upper_only: bool, method: str,
                bound: Callable[[Any, Number], tuple[Fraction, Fraction]],
                center: float | None = None, delta: Number | None = None,
                target: float = 0.0, state: dict[str, bool] | None = None
                ) -> tuple[Fraction, Fraction]:
    """One pass at step ``h``: the maximum over the directions of the upper PLD's bound, and of
    the lower PLD's (skipped with ``upper_only``); ``bound`` reads one end of one PLD's
    enclosure as an exact ``(lo, hi)`` pair; ``center``/``delta`` locate the query for the
    tilted method (:func:`composition_pld`).

    "auto": a tilted pass, kept if it meets the relative width ``target``; otherwise (or if
    it fails: size, float range) an exact pass, intersected with it (both are rigorous). Once
    a tilted pass is more than 1.5 times as wide as the exact one (round-off dominates; it
    only grows on finer grids), ``state`` (shared by the passes of one enclosure) turns the
    tilted attempts off."""
    method = _method(method)
    state = {} if state is None else state
    if method == "auto" and (upper_only or not state.get("tilted", True)):
        method = "exact"
    if method == "auto":
        t_lo, t_hi = Fraction(0), Fraction(1) if delta is None else Fraction(10**9)
        try:
            t_lo, t_hi = _pass_parts(directions, at, h, abs_tol, upper_only, "tilted", bound,
                                     center, delta)
            if not upper_only and t_hi > 0 and (t_hi - t_lo) / t_hi <= target:
                return t_lo, t_hi
        except _FALLBACK:
            pass
        e_lo, e_hi = _pass_parts(directions, at, h, abs_tol, upper_only, "exact", bound)
        if t_hi - t_lo > Fraction(3, 2) * (e_hi - e_lo):
            state["tilted"] = False
        return max(e_lo, t_lo), min(e_hi, t_hi)
    bits, tail = _plan(_steps(directions), abs_tol)
    lo = Fraction(0)
    his = []
    for parts in directions:
        if not upper_only:
            for pair, _k in parts:
                one_step_plds(pair, h, bits, tail, lower=True)  # one discretisation for both
        his.append(_one_end(parts, h, bits, tail, "upper", method, center, delta,
                            lambda pld: bound(pld, at)[1]))
    if not upper_only:
        # the lower end is the maximum over the directions of their lower bounds, each at most
        # its direction's upper bound: a direction whose upper bound does not exceed the best
        # lower bound so far cannot raise it, and its lower PLD is not composed
        for d in sorted(range(len(directions)), key=lambda i: his[i], reverse=True):
            if his[d] <= lo:
                continue
            lo = max(lo, _one_end(directions[d], h, bits, tail, "lower", method, center, delta,
                                  lambda pld: bound(pld, at)[0]))
    return lo, max(Fraction(0), *his)


FOURIER_MIN_SIZE = 500_000  # composed length x bits below which "fourier" composes exactly:
#   measured (SGM one-step PLDs, q 0.1 / 0.5, h 1/4 .. 1/512, k 1 .. 256, the eps(1e-5) query
#   of one end, CPU): exact costs 0.1-3.4 ms below 4.4e5, where Fourier pays its fixed
#   2.3-4.6 ms (tilt, window, transforms); the two cross between 7e5 and 1.7e6.


def _composed_size(parts: Sequence[Part], h: Fraction, bits: int, tail: float,
                   kind: str) -> int:
    """Length of the composition of the (cached) one-step PLDs times their bits."""
    size = 0
    for pair, k in parts:
        upper, lower = one_step_plds(pair, h, bits, tail, lower=kind == "lower")
        one = upper if kind == "upper" else lower
        assert one is not None
        size += k * len(one)
    return size * bits


def _one_end(parts: Sequence[Part], h: Fraction, bits: int, tail: float, kind: str,
             method: str, center: float | None, delta: Number | None,
             read: Callable[[Any], Fraction]) -> Fraction:
    """One end of one direction's enclosure; "fourier" composes exactly below
    ``FOURIER_MIN_SIZE`` (cheaper there; both rigorous), and a "fourier" composition or query
    that fails (window beyond its size limit, weights out of the float range, window too short
    for the query) falls back to the exact path, which is rigorous too."""
    if method == "fourier" and _composed_size(parts, h, bits, tail, kind) < FOURIER_MIN_SIZE:
        method = "exact"
    return fourier_or_exact(
        lambda m: read(composition_pld(parts, h, bits, tail, kind, m, center, delta)), method)


def fourier_or_exact(body: Callable[[str], T], method: str) -> T:
    """``body(method)``; for "fourier", ``body("exact")`` where the Fourier composition or a
    query of it cannot be done (window beyond its size limit, weights out of the float range,
    window too short for the query): both are rigorous. Other methods are not retried."""
    if method == "fourier":
        try:
            return body(method)
        except _FALLBACK:
            method = "exact"
    return body(method)


def _eps_pass_parts(directions: Sequence[Sequence[Part]], delta: Number, h: Fraction,
                    abs_tol: float, upper_only: bool = False,
                    method: str = "exact", center: float | None = None,
                    target: float = 0.0, state: dict[str, bool] | None = None
                    ) -> tuple[Fraction, Fraction]:
    def eps_of(pld: Any, d: Number) -> tuple[Fraction, Fraction]:
        e = pld.eps_bound(d)
        return e, e

    return _pass_parts(directions, delta, h, abs_tol, upper_only, method, eps_of, center,
                       delta, target, state)


def _delta_pass_parts(directions: Sequence[Sequence[Part]], eps: Number, h: Fraction,
                      abs_tol: float, upper_only: bool = False,
                      method: str = "exact", target: float = 0.0,
                      state: dict[str, bool] | None = None) -> tuple[Fraction, Fraction]:
    def delta_of(pld: Any, e: Number) -> tuple[Fraction, Fraction]:
        return _span(pld.delta_bound(e))

    e_lo, e_hi = _span(eps)
    lo, hi = _pass_parts(directions, eps, h, abs_tol, upper_only, method, delta_of,
                         float((e_lo + e_hi) / 2), None, target, state)
    return max(lo, Fraction(0)), min(hi, Fraction(1))


def _eps_pass(pairs: Sequence[LossPair], k: int, delta: Number, h: Fraction,
              abs_tol: float, upper_only: bool = False,
              method: str = "exact") -> tuple[Fraction, Fraction]:
    return _eps_pass_parts([[(p, k)] for p in pairs], delta, h, abs_tol, upper_only, method)


def _delta_pass(pairs: Sequence[LossPair], k: int, eps: Number, h: Fraction,
                abs_tol: float, upper_only: bool = False,
                method: str = "exact") -> tuple[Fraction, Fraction]:
    return _delta_pass_parts([[(p, k)] for p in pairs], eps, h, abs_tol, upper_only, method)


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
#               the width follows c h^2 within 10 % on C, K1e6 and HET; on B the Fourier
#               route's own error adds ~40 % at its fine grid, which 0.9 (with the
#               quantisation of _predicted_step) still absorbs; a miss costs a third pass


def _refine(pairs: Sequence[LossPair], k: int, run: Any, rel_width: float,
            max_seconds: float, h: Fraction | None) -> Enclosure:
    """Passes at decreasing steps until the intersected enclosure meets ``rel_width``.

    The next step is the coarsest predicted to meet the target (width ~ c h^2, times
    ``MARGIN``). The budget ``max_seconds`` is CPU seconds of this process (a loaded machine
    must not force extra, coarser passes): a pass whose predicted CPU cost (the last pass's
    CPU time times ``(h / new_h)^1.7``) exceeds the remaining budget is replaced by the
    finest one predicted to fit; no pass starts once the budget is spent, and the number of
    passes is finite (every pass refines by at least 3/4; the grid size is capped), and none
    starts once ``max_seconds`` of wall time have passed either: the budget is a bound, never
    a hang."""
    started_cpu = time.process_time()
    started = time.monotonic()
    fixed = h is not None
    h = h if h is not None else _initial_step(pairs, k, rel_width)
    passes: list[dict[str, Any]] = []
    lo, hi = Fraction(0), Fraction(-1)
    while True:
        t0, c0 = time.monotonic(), time.process_time()
        p_lo, p_hi = run(h)
        dt, cpu = time.monotonic() - t0, time.process_time() - c0
        # every pass is rigorous, so is their intersection (grids of different steps need
        # not nest: a finer pass may stick out of a coarser one, never out of the truth)
        lo = max(lo, p_lo)
        hi = p_hi if not passes else min(hi, p_hi)
        width = float((hi - lo) / hi) if hi > 0 else 0.0
        passes.append({"h": str(h), "lo": float(p_lo), "hi": float(p_hi), "rel_width": width,
                       "seconds": round(dt, 3), "cpu": round(cpu, 3)})
        if fixed or width <= rel_width:
            break
        # the width is second order in h: predict the step that meets the target
        factor = math.sqrt(rel_width / width) * MARGIN if width > 0 else 0.5
        factor = min(max(factor, 1 / 32), 0.7)
        new_h = _predicted_step(float(h) * factor)
        span = max(_span_estimate(p) for p in pairs)
        if span / float(new_h) > MAX_BINS:  # the finest step within the size limit instead
            new_h = _dyadic_step(span / MAX_BINS) * 2
            if new_h > h * Fraction(3, 4):
                break
        remaining = max_seconds - (time.process_time() - started_cpu)
        if time.monotonic() - started >= max_seconds:  # and never past it in wall time
            break
        cost = max(cpu, 1e-3)
        if cost * (float(h) / float(new_h)) ** 1.7 > remaining:
            # the finest step predicted to fit the remaining budget, if it still refines
            fit = float(h) * (max(remaining, 0.0) / cost) ** (-1 / 1.7)
            if fit <= 0 or _dyadic_step(1.5 * fit) > h * Fraction(3, 4):
                break
            new_h = _dyadic_step(1.5 * fit)  # >= fit: within the budget
        h = new_h
    return Enclosure(lo, hi, h, time.monotonic() - started, passes)


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
    hint: list[float] = []  # the previous pass's midpoint: where the next one tilts
    state: dict[str, bool] = {}

    def run(step: Fraction) -> tuple[Fraction, Fraction]:
        lo, hi = _eps_pass_parts(directions, delta, step, abs_tol, False, method,
                                 hint[-1] if hint else None, rel_width, state)
        if 0 < hi:
            hint.append(float((lo + hi) / 2))
        return lo, hi

    return _refine(pairs, k, run, rel_width, max_seconds, h)


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
    return _refine(pairs, k,
                   lambda step: _delta_pass_parts(directions, eps, step, abs_tol, False, method,
                                                  rel_width, state),
                   rel_width, max_seconds, h)


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
