"""One pass of the enclosure drivers at a fixed grid step: the maximum over the directions of
the upper PLDs' bounds and of the lower PLDs' (:func:`_pass_parts`; a dominated direction may be
decided by its certified upper end at a coarser step, :func:`_max_over_directions`), one end by
"fourier" with the exact path below a size and as the fallback (:func:`_one_end`,
:func:`fourier_or_exact`), the integer scale and tails of a pass (:func:`_plan`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.numerics.pld._arith import Number, _span
from dpverify.theorems.numerics.pld.composition import (
    Part,
    _method,
    composition_pld,
    one_step_plds,
)
from dpverify.theorems.numerics.pld.pairs import LossPair

T = TypeVar("T")
N = TypeVar("N", Fraction, float)
_FALLBACK = (PrecisionExhausted, ValueError, OverflowError, FloatingPointError)


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
                target: float = 0.0, state: dict[str, bool] | None = None,
                coarse: Mapping[int, Fraction] | None = None,
                record: dict[str, Any] | None = None,
                budget: float | None = None) -> tuple[Fraction, Fraction]:
    """One pass at step ``h``: the maximum over the directions of the upper PLD's bound, and of
    the lower PLD's (skipped with ``upper_only``); ``bound`` reads one end of one PLD's
    enclosure as an exact ``(lo, hi)`` pair; ``center``/``delta`` locate the query for the
    tilted method (:func:`composition_pld`).

    ``coarse`` maps a direction expected to be dominated to a coarser step: its upper end at
    that step is computed after the other directions' ends, and where it is at most the pass's
    lower end it is that direction's end (a certified upper bound at its own step; the
    direction's lower end cannot raise the maximum), otherwise the direction is refined at
    ``h`` as the others (:func:`_max_over_directions`; with ``upper_only`` there is no lower
    end to compare with, and every direction is at ``h``). ``record`` receives each
    direction's upper end (``"his"``) and its step (``"steps"``). ``budget``: the share of
    the target width per end that a Fourier composition's cost tilt may spend
    (:mod:`.fourier_cost`; None: its ``TILT_BUDGET``).

    "auto": a tilted pass, kept if it meets the relative width ``target``; otherwise (or if
    it fails: size, float range) an exact pass, intersected with it (both are rigorous; the
    ``record`` is the last one's). Once a tilted pass is more than 1.5 times as wide as the
    exact one (round-off dominates; it only grows on finer grids), ``state`` (shared by the
    passes of one enclosure) turns the tilted attempts off."""
    method = _method(method)
    state = {} if state is None else state
    if method == "auto" and (upper_only or not state.get("tilted", True)):
        method = "exact"
    if method == "auto":
        t_lo, t_hi = Fraction(0), Fraction(1) if delta is None else Fraction(10**9)
        try:
            t_lo, t_hi = _pass_parts(directions, at, h, abs_tol, upper_only, "tilted", bound,
                                     center, delta, coarse=coarse, record=record)
            if not upper_only and t_hi > 0 and (t_hi - t_lo) / t_hi <= target:
                return t_lo, t_hi
        except _FALLBACK:
            pass
        e_lo, e_hi = _pass_parts(directions, at, h, abs_tol, upper_only, "exact", bound,
                                 coarse=coarse, record=record)
        if t_hi - t_lo > Fraction(3, 2) * (e_hi - e_lo):
            state["tilted"] = False
        return max(e_lo, t_lo), min(e_hi, t_hi)
    bits, tail = _plan(_steps(directions), abs_tol)

    def upper(d: int, step: Fraction = h) -> Fraction:  # the lower one-step PLDs: by lower(d)
        return _one_end(directions[d], step, bits, tail, "upper", method, center, delta,
                        lambda pld: bound(pld, at)[1], target, budget)

    def lower(d: int) -> Fraction:
        return _one_end(directions[d], h, bits, tail, "lower", method, center, delta,
                        lambda pld: bound(pld, at)[0], target, budget)

    held = {} if upper_only else {d: step for d, step in (coarse or {}).items()
                                  if 0 <= d < len(directions) and step > h}
    lo, hi, his, early = _max_over_directions(
        len(directions), upper, None if upper_only else lower, Fraction(0),
        {d: (lambda d=d, step=step: upper(d, step)) for d, step in held.items()})
    if record is not None:
        record["his"] = his
        record["steps"] = [held[d] if d in early else h for d in range(len(directions))]
    return lo, hi


def _max_over_directions(n: int, upper: Callable[[int], N], lower: Callable[[int], N] | None,
                         zero: N, early: Mapping[int, Callable[[], N]] | None = None
                         ) -> tuple[N, N, list[N], set[int]]:
    """``(max_d lower(d), max_d upper(d))``, both at least ``zero`` (the lower end ``zero``
    without ``lower``), each direction's upper end, and the directions decided early.

    Every direction's lower end is at most its true value, which is at most its upper end: a
    direction whose upper end does not exceed the best lower end so far cannot raise it, and
    ``lower`` is not called for it. ``early`` gives, for some directions, a cheaper upper end
    (e.g. at a coarser step): those directions come after the others, and one whose cheaper
    upper end is at most the best lower end then is decided by it (``upper`` and ``lower`` are
    not called for it); otherwise it is treated as the others, its upper end the smaller of the
    two (both are upper ends)."""
    early = early or {}
    first = [d for d in range(n) if d not in early]
    his: dict[int, N] = {d: upper(d) for d in first}
    lo = zero
    if lower is not None:
        for d in sorted(first, key=lambda i: his[i], reverse=True):
            if his[d] > lo:
                lo = max(lo, lower(d))
    decided: set[int] = set()
    for d in sorted(early):
        cheap = early[d]()
        if lower is not None and cheap <= lo:
            his[d] = cheap
            decided.add(d)
            continue
        his[d] = min(cheap, upper(d))
        if lower is not None and his[d] > lo:
            lo = max(lo, lower(d))
    ends = [his[d] for d in range(n)]
    return lo, max(zero, *ends), ends, decided


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
             read: Callable[[Any], Fraction], target: float = 0.0,
             budget: float | None = None) -> Fraction:
    """One end of one direction's enclosure (``target``: the relative width of the
    enclosure, for the Fourier route's cost tilt, :mod:`.fourier_cost`); "fourier" composes
    exactly below
    ``FOURIER_MIN_SIZE`` (cheaper there; both rigorous), and a "fourier" composition or query
    that fails (window beyond its size limit, weights out of the float range, window too short
    for the query) falls back to the exact path, which is rigorous too."""
    if method == "fourier" and _composed_size(parts, h, bits, tail, kind) < FOURIER_MIN_SIZE:
        method = "exact"
    return fourier_or_exact(
        lambda m: read(composition_pld(parts, h, bits, tail, kind, m, center, delta, target,
                                       budget)),
        method)


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
                    target: float = 0.0, state: dict[str, bool] | None = None,
                    coarse: Mapping[int, Fraction] | None = None,
                    record: dict[str, Any] | None = None,
                    budget: float | None = None) -> tuple[Fraction, Fraction]:
    def eps_of(pld: Any, d: Number) -> tuple[Fraction, Fraction]:
        e = pld.eps_bound(d)
        return e, e

    return _pass_parts(directions, delta, h, abs_tol, upper_only, method, eps_of, center,
                       delta, target, state, coarse, record, budget)


def _delta_pass_parts(directions: Sequence[Sequence[Part]], eps: Number, h: Fraction,
                      abs_tol: float, upper_only: bool = False,
                      method: str = "exact", target: float = 0.0,
                      state: dict[str, bool] | None = None,
                      coarse: Mapping[int, Fraction] | None = None,
                      record: dict[str, Any] | None = None) -> tuple[Fraction, Fraction]:
    def delta_of(pld: Any, e: Number) -> tuple[Fraction, Fraction]:
        return _span(pld.delta_bound(e))

    e_lo, e_hi = _span(eps)
    lo, hi = _pass_parts(directions, eps, h, abs_tol, upper_only, method, delta_of,
                         float((e_lo + e_hi) / 2), None, target, state, coarse, record)
    return max(lo, Fraction(0)), min(hi, Fraction(1))


def _eps_pass(pairs: Sequence[LossPair], k: int, delta: Number, h: Fraction,
              abs_tol: float, upper_only: bool = False,
              method: str = "exact") -> tuple[Fraction, Fraction]:
    return _eps_pass_parts([[(p, k)] for p in pairs], delta, h, abs_tol, upper_only, method)


def _delta_pass(pairs: Sequence[LossPair], k: int, eps: Number, h: Fraction,
                abs_tol: float, upper_only: bool = False,
                method: str = "exact") -> tuple[Fraction, Fraction]:
    return _delta_pass_parts([[(p, k)] for p in pairs], eps, h, abs_tol, upper_only, method)
