"""The one-step and composed PLDs of the enclosure drivers, by composition method (cached):
``one_step_plds``, ``composed_pld(s)``, ``composition_pld`` and the methods' constants."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.numerics.pld._arith import Number, _span
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.discretize import discretize_deferred, grid_for
from dpverify.theorems.numerics.pld.fft import MAX_LENGTH, FloatPLD
from dpverify.theorems.numerics.pld.fourier import chernoff_eps, compose_fourier, fourier_tilt
from dpverify.theorems.numerics.pld.fourier_cost import (
    blocked_saddle,
    coarse,
    cost_tilts,
    within_budget,
)
from dpverify.theorems.numerics.pld.pairs import LossPair
from dpverify.theorems.numerics.pld.tilted import (
    MAX_EXPONENT,
    TiltedPLD,
    float_eps_estimate,
    saddle_tilt,
)

Part = tuple[LossPair, int]  # a loss pair and its number of steps

_CACHE: dict[tuple[Any, ...], Any] = {}
_CACHE_ORDER: list[tuple[Any, ...]] = []
_CACHE_MAX = 12


_DECISIONS: dict[tuple[Any, ...], Any] = {}  # the cost tilts and budget verdicts (small
#   values, :func:`_fourier_composition`): apart from _CACHE, whose few slots hold one-step
#   PLDs and compositions (an extra entry there could evict a one-step PLD still needed)


def _decided(key: tuple[Any, ...], make: Any) -> Any:
    if key not in _DECISIONS:
        if len(_DECISIONS) >= 64:
            _DECISIONS.clear()
        _DECISIONS[key] = make()
    return _DECISIONS[key]


def _cached(key: tuple[Any, ...], make: Any) -> Any:
    hit = _CACHE.get(key)
    if hit is None:
        hit = make()
        _CACHE[key] = hit
        _CACHE_ORDER.append(key)
        while len(_CACHE_ORDER) > _CACHE_MAX:
            _CACHE.pop(_CACHE_ORDER.pop(0), None)
    return hit


class _OneStep:
    """The cached one-step PLDs of one pair and grid: the upper built at once, the lower on
    first use from the same discretisation (:func:`.discretize.discretize_deferred`)."""

    def __init__(self, pair: LossPair, h: Fraction, bits: int, tail: float) -> None:
        up, self._finish = discretize_deferred(pair, grid_for(pair, h), bits, tail)
        self.trim = max(1, int(tail * 2.0**bits))
        up.trim = self.trim
        self.upper = up._trimmed()
        self.lower: DiscretePLD | None = None

    def with_lower(self) -> DiscretePLD:
        if self.lower is None:
            assert self._finish is not None
            lo = self._finish()
            lo.trim = self.trim
            self.lower, self._finish = lo._trimmed(), None  # the tables are no longer needed
        return self.lower


def one_step_plds(pair: LossPair, h: Fraction, bits: int, tail: float,
                  lower: bool = True) -> tuple[DiscretePLD, DiscretePLD | None]:
    """The upper and lower one-step PLDs on the grid of step h aligned for ``pair`` (cached),
    with the truncation budget ``tail`` (a P-mass per side and per truncation). The lower PLD
    is built on the first call with ``lower`` (from the cached discretisation: the upper PLD
    is not redone); without ``lower`` it is None unless already built."""
    one = _cached(("one", pair.key(), h, bits, tail), lambda: _OneStep(pair, h, bits, tail))
    return one.upper, one.with_lower() if lower else one.lower


METHODS = ("exact", "fft", "tilted", "auto", "fourier")
# "fft": untilted float FFT, its absolute bound swamps the tails at delta ~ 1e-5 (see .fft);
# "tilted": the FFT on exponentially tilted masses (.tilted), needs the query's location;
# "auto": in the driver, a tilted pass first, kept when its (rigorous) enclosure meets the
# target width, else an exact pass on the same (cached) one-step PLDs, intersected; elsewhere
# "exact". "fourier" (.fourier): one FFT per part, a pointwise power and one inverse FFT on
# tilted masses with an l1 error budget; the driver's DEFAULT because, measured on
# bench/bench_pld.py (README, issue 14), it meets every width target of the exact path and
# costs less CPU on every item (up to 3x less at k = 10^6); a composition or query it cannot
# do (size limit, float range) falls back to "exact" (:func:`.passes._one_end`). The functions that
# return composed PLDs for further composition (composed_pld(s), composition_pld) keep
# "exact" as their default: a Fourier PLD answers queries only.
DEFAULT_METHOD = "fourier"


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
    return (composed_pld(pair, k, h, bits, tail, "upper", method, center, delta),
            composed_pld(pair, k, h, bits, tail, "lower", method, center, delta))


def _fourier_composition(parts: Sequence[Part], h: Fraction, bits: int, tail: float, kind: str,
                         center: float | None, delta: Number | None,
                         target: float = 0.0, budget: float | None = None) -> Any:
    """:func:`.fourier.compose_fourier` of the cached one-step PLDs, tilted at the saddle of
    ``center`` (or of a Chernoff estimate of the eps of ``delta``; with a target, found on the
    cost search's blocks, :func:`.fourier_cost.blocked_saddle`); with a relative target
    width ``target > 0`` and ``delta``, at the cost tilt of :func:`.fourier_cost.cost_tilt`
    instead when its predicted error is within budget, kept when the composition's measured
    error is too (:func:`.fourier_cost.within_budget`, on the first kind composed), else
    recomposed at the next candidate (:func:`.fourier_cost.cost_tilts`) or the saddle.
    ``budget``: the driver's share of the target width per end for the tilt (relative;
    None: ``TILT_BUDGET`` of ``target``), which also lets the search try quarter windows."""
    key = tuple((pair.key(), k) for pair, k in parts)
    ups = [(one_step_plds(pair, h, bits, tail, lower=kind == "lower")[0], k) for pair, k in parts]
    d = float(_span(delta)[0]) if delta is not None else 1e-6
    if center is None:
        center = _cached(("chernoff", key, h, bits, tail, d), lambda: chernoff_eps(ups, d))
    eps = center
    lam_s: Fraction | None = None
    blocks = None
    if target > 0 and delta is not None:  # the blocks serve the saddle and the cost search
        blocks = _decided(("coarse", key, h, bits, tail), lambda: coarse(ups))
        lam_s = _decided(("saddle", key, h, bits, tail, eps),
                         lambda: blocked_saddle(blocks, h, eps))
    if lam_s is None:
        lam_s = _cached(("lam", key, h, bits, tail, eps), lambda: fourier_tilt(ups, eps))
    lams: list[Fraction] = []
    if target > 0 and delta is not None:
        lams = _decided(("cost", key, h, bits, tail, eps, d, target, lam_s, budget),
                        lambda: cost_tilts(ups, lam_s, eps, d, target, blocks, budget))

    def compose(at: Fraction) -> Any:
        ones = ups
        if kind == "lower":
            ones = [(one_step_plds(pair, h, bits, tail)[1], k) for pair, k in parts]
        return _cached(("four", key, h, bits, tail, kind, at), lambda: compose_fourier(ones, at))

    # one check per tilt for both kinds: they share the tilt and the window, and their errors
    # agree to 1e-4 (measured, B's add direction); a failed check sends both to the next
    # candidate (a larger window), the last to the saddle
    for lam in lams:
        verdict = ("within", key, h, bits, tail, eps, target, budget, lam)
        if _DECISIONS.get(verdict) is False:
            continue
        four = compose(lam)
        if _decided(verdict, lambda four=four: within_budget(four, lam_s, eps, target, budget)):
            return four
    return compose(lam_s)


def composition_pld(parts: Sequence[Part], h: Fraction, bits: int, tail: float, kind: str,
                    method: str = "exact", center: float | None = None,
                    delta: Number | None = None, target: float = 0.0,
                    budget: float | None = None) -> Any:
    """The ``kind`` PLD of the heterogeneous composition of ``pair_j`` ``k_j`` times each.

    "tilted" aims the tilt at the loss ``center`` (or at the eps of ``delta``); "auto" is
    "exact" here (the driver's passes try "tilted" first, :func:`.passes._pass_parts`); "fourier"
    returns a :class:`.fourier.FourierPLD` (queries only: ``delta_bound``, ``eps_bound``),
    tilted for cost where the query's relative ``target`` width (> 0) and ``delta`` are given
    (:mod:`.fourier_cost`; ``target = 0``, the default, keeps the saddle tilt; ``budget``: the
    driver's error budget per end, :func:`_fourier_composition`)."""
    method = _method(method)
    if method == "fourier":
        return _fourier_composition(parts, h, bits, tail, kind, center, delta, target,
                                    budget)
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
