"""Certified references: two-sided enclosures of the true eps(delta) and delta(eps) of a scenario.

``delta(eps)`` is the privacy profile of the composition (the supremum of the hockey-stick
divergence over neighbouring pairs, both orders) and ``eps(delta)`` the least ``eps >= 0`` with
``delta(eps) <= delta``. Every reference is a rigorous interval ``[lo, hi]`` of exact rationals
(python-flint ball arithmetic, or exact integer PLD arithmetic), obtained by the first route that
applies:

1. **Gaussian closed form** — only unsampled Gaussian events: the composition is the Gaussian
   mechanism with ``mu = c sqrt(sum_i count_i / sigma_i^2)`` (``c = 2`` under ``replace_one``,
   catalogue README scenario conventions), so ``delta(eps)`` is BW-ANALYTIC-GAUSS at
   ``sigma = 1/mu`` ([BW18] arXiv 1805.06530v2, Thm 8;
   :func:`theorems.formulas.gaussian.gauss_delta`, ``gauss_eps``).
2. **KOV / MV** — only unsampled ``randomized_response``, ``pure_dp`` and ``approx_dp`` events:
   k-fold RR(eps0) is the worst case of eps0-DP mechanisms ([KOV] arXiv 1311.0776v4, Thm 3.3;
   [MV] arXiv 1507.03113, Thms 1.4 and 1.5; :func:`theorems.composition.kov_delta`,
   ``kov_eps``, ``mv_delta_pure``, ``mv_eps``).
3. **Laplace closed form** — a single unsampled Laplace step (catalogue STK-LAPLACE;
   :func:`theorems.formulas.laplace.laplace_delta`, ``laplace_eps``), sensitivity 2 under
   ``replace_one``.
4. **Certified PLD engine** otherwise (Laplace compositions, subsampled Gaussian, subsampled
   Laplace and randomized response under add/remove, the discrete Laplace and discrete Gaussian
   (:mod:`theorems.numerics.pld.discrete_pairs`), mixtures, replace-one): the upper and lower
   discrete PLDs of :mod:`theorems.pld` of every event, composed exactly, one composition per
   direction of the neighbouring relation, the profile being their maximum.

``approx_dp`` parameters factor out exactly in every route: the worst (eps0, delta0) pair is
``delta0`` times a point where Q vanishes, ``delta0`` times one where P vanishes, and
``1 - delta0`` times RR(eps0) ([KOV] v4, Thm 3.3), so for any composition
``delta(eps) = 1 - prod_i (1 - delta0_i) (1 - delta_rest(eps))`` where the rest has every
approx_dp event replaced by pure eps0-DP.

Numbers of a scenario are read exactly as the decimals written in its JSON
(:func:`verifiers.accountants.scenario.exact`).

References
----------
- [BW18] B. Balle, Y.-X. Wang, arXiv 1805.06530v2, Thm 8.
- [KOV] P. Kairouz, S. Oh, P. Viswanath, arXiv 1311.0776v4, Thm 3.3.
- [MV] J. Murtagh, S. Vadhan, arXiv 1507.03113, Thms 1.4-1.5.
- [S22] T. Steinke, arXiv 2210.00597v4, Secs. 3-4 (PLDs, composition as convolution).
- [ZDW22] Y. Zhu, J. Dong, Y.-X. Wang, arXiv 2106.08567v3, Thm 10 (subsampled dominating pairs).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.core import InvalidParameter
from dpverify.theorems.ctx import ArbCtx, PrecisionExhausted, arb_endpoints, arb_precision
from dpverify.theorems.numerics import pld as pld_engine
from dpverify.theorems.numerics.pld import _dyadic_step, fourier_or_exact
from dpverify.verifiers.accountants.pairs import SubsampledPair, span
from dpverify.verifiers.accountants.scenario import Event, Scenario, exact

INF = math.inf
Value = Fraction | float  # a Fraction, or math.inf

DEFAULT_REL_WIDTH = 1e-3
DEFAULT_SECONDS = 60.0
MAX_BINS = 400_000  # one-step grid points per pair (memory guard)


@dataclass(frozen=True)
class Bound:
    """A certified enclosure ``lo <= true value <= hi`` (exact; ``math.inf`` allowed)."""

    lo: Value
    hi: Value
    method: str
    seconds: float = 0.0
    passes: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    def floats(self) -> tuple[float, float]:
        """Outward-rounded floats ``[lo, hi]``."""
        return _float_down(self.lo), _float_up(self.hi)

    def rel_width(self) -> float:
        if self.hi == INF or self.lo == INF:
            return 0.0 if self.lo == self.hi else INF
        if self.hi == 0:
            return 0.0
        return float((Fraction(self.hi) - Fraction(self.lo)) / Fraction(self.hi))


def _float_down(x: Value) -> float:
    if x == INF:
        return INF
    f = float(x)
    if Fraction(f) > x:
        f = math.nextafter(f, -INF)
    return f


def _float_up(x: Value) -> float:
    if x == INF:
        return INF
    f = float(x)
    if Fraction(f) < x:
        f = math.nextafter(f, INF)
    return f


# ------------------------------------------------------------------------------------------
# what the reference covers


def unsupported_reason(scenario: Scenario) -> str | None:
    """Why no certified reference exists for a scenario (None: it is covered)."""
    for i, ev in enumerate(scenario.events, 1):
        if ev.sampling is None:
            continue
        if ev.mechanism == "approx_dp" and ev.delta0:
            return (f"event {i}: Poisson subsampling of an approx_dp event (delta0 > 0) has no "
                    "certified reference here")
        if scenario.neighboring == "replace_one" and ev.mechanism != "gaussian":
            return (f"event {i}: Poisson subsampling of a {ev.mechanism} event under "
                    "replace_one has no certified reference here (only the Gaussian's)")
    return None


def check_supported(scenario: Scenario, where: str = "") -> None:
    reason = unsupported_reason(scenario)
    if reason:
        raise InvalidParameter(f"{where}{reason}")


# ------------------------------------------------------------------------------------------
# arb helpers


def _enclose(thunk: Callable[[ArbCtx], Any], what: str,
             precs: tuple[int, ...] = (128, 256, 512, 1024, 2048)) -> tuple[Value, Value]:
    """Exact endpoints of the ball ``thunk(ctx)`` at rising precision until it is narrow."""
    last: Any = None
    for prec in precs:
        ctx = ArbCtx(prec)
        try:
            with arb_precision(prec):
                raw = thunk(ctx)
                x = flint.arb(raw)
        except PrecisionExhausted as e:
            last = e
            continue
        if not x.is_finite():
            if x.mid().is_finite() is False and x.mid() > 0 and x.rad() == 0:
                return INF, INF
            last = x
            continue
        lo, hi = arb_endpoints(x)
        scale = max(abs(lo), abs(hi))
        if hi - lo <= scale * Fraction(1, 2 ** (prec // 3)) or hi == lo:
            return lo, hi
        last = x
    if last is not None and not isinstance(last, Exception) and flint.arb(last).is_finite():
        return arb_endpoints(flint.arb(last))  # wide, still rigorous
    raise PrecisionExhausted(f"{what}: no finite enclosure up to {precs[-1]} bits ({last})")


def _approx_factor(scenario: Scenario) -> Fraction:
    """``K = prod_i (1 - delta0_i)^count_i`` (exact)."""
    k = Fraction(1)
    for ev in scenario.events:
        if ev.mechanism == "approx_dp" and ev.delta0:
            k *= (1 - exact(ev.delta0)) ** ev.count
    return k


def _pure_eps(ev: Event) -> Fraction:
    return exact(ev.eps0)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# the engine


class Reference:
    """Certified references of one scenario; results are cached per query."""

    def __init__(self, scenario: Scenario, rel_width: float = DEFAULT_REL_WIDTH,
                 max_seconds: float = DEFAULT_SECONDS, force_pld: bool = False) -> None:
        check_supported(scenario)
        self.scenario = scenario
        self.rel_width = rel_width
        self.max_seconds = max_seconds
        self.K = _approx_factor(scenario)
        self.route = "pld" if force_pld else self._route()
        self._eps_cache: dict[Fraction, Bound] = {}
        self._delta_cache: dict[Fraction, Bound] = {}
        self._pld_cache: dict[tuple[Any, ...], list[tuple[Any, Any]]] = {}

    # -- routing -------------------------------------------------------------------------
    def _route(self) -> str:
        evs = self.scenario.events
        sampled = any(e.sampling is not None for e in evs)
        mechs = {e.mechanism for e in evs}
        if not sampled and mechs == {"gaussian"}:
            return "gaussian"
        if not sampled and mechs <= {"randomized_response", "pure_dp", "approx_dp"}:
            eps = {_pure_eps(e) for e in evs}
            return "kov" if len(eps) == 1 else "mv"
        if not sampled and mechs == {"laplace"} and len(evs) == 1 and evs[0].count == 1:
            return "laplace"
        return "pld"

    def describe_route(self) -> str:
        return {
            "gaussian": "Gaussian closed form (BW18 Thm 8 at mu = c*sqrt(sum count/sigma^2))",
            "kov": "KOV/MV optimal homogeneous composition (exact)",
            "mv": "MV optimal heterogeneous composition (exact)",
            "laplace": "Laplace closed form (STK-LAPLACE)",
            "pld": "certified PLD engine",
        }[self.route]

    # -- public queries ------------------------------------------------------------------
    def epsilon(self, delta: float | Fraction) -> Bound:
        d = exact(delta) if isinstance(delta, float | int) else Fraction(delta)
        if not 0 < d < 1:
            raise InvalidParameter(f"delta must be in (0, 1); got {delta}")
        hit = self._eps_cache.get(d)
        if hit is None:
            t0 = time.monotonic()
            hit = self._epsilon(d)
            hit = Bound(hit.lo, hit.hi, hit.method, time.monotonic() - t0, hit.passes)
            self._eps_cache[d] = hit
        return hit

    def delta(self, epsilon: float | Fraction) -> Bound:
        e = exact(epsilon) if isinstance(epsilon, float | int) else Fraction(epsilon)
        if e < 0:
            raise InvalidParameter(f"epsilon must be >= 0; got {epsilon}")
        hit = self._delta_cache.get(e)
        if hit is None:
            t0 = time.monotonic()
            hit = self._delta(e)
            hit = Bound(hit.lo, hit.hi, hit.method, time.monotonic() - t0, hit.passes)
            self._delta_cache[e] = hit
        return hit

    # -- eps -----------------------------------------------------------------------------
    def _target(self, delta: Fraction) -> Fraction | None:
        """``T`` with ``delta(eps) <= delta  iff  delta_rest(eps) <= T``; None if T < 0."""
        if self.K == 1:
            return delta
        t = 1 - (1 - delta) / self.K
        return None if t < 0 else t

    def _max_loss(self) -> Value:
        """The largest privacy loss of the pure rest (its eps at delta 0)."""
        if self.route in ("kov", "mv"):
            return sum((_pure_eps(e) * e.count for e in self.scenario.events), Fraction(0))
        return INF

    def _epsilon(self, delta: Fraction) -> Bound:
        t = self._target(delta)
        name = self.describe_route()
        if t is None:
            return Bound(INF, INF, f"{name}: delta < 1 - prod(1 - delta0)^count, so eps = inf")
        if t == 0:
            m = self._max_loss()
            return Bound(m, m, f"{name}: delta = 1 - prod(1 - delta0)^count exactly")
        if self.route == "gaussian":
            from dpverify.theorems.formulas.gaussian import gauss_eps

            lo, hi = _enclose(lambda c: gauss_eps(c, 1 / self._mu(c), c.num(t)), "gauss_eps")
            return Bound(max(lo, Fraction(0)), hi, name)
        if self.route == "laplace":
            from dpverify.theorems.formulas.laplace import laplace_eps

            b, s = self._laplace()
            lo, hi = _enclose(lambda c: laplace_eps(c, c.num(b), c.num(t), c.num(s)),
                              "laplace_eps")
            return Bound(max(lo, Fraction(0)), hi, name)
        if self.route == "kov":
            from dpverify.theorems.formulas.kov_mv import kov_eps

            e0 = _pure_eps(self.scenario.events[0])
            k = self.scenario.total_count()
            lo, hi = _enclose(lambda c: c.run(kov_eps, eps0=e0, delta0=Fraction(0), k=k,
                                              delta=t), "kov_eps")
            return Bound(max(lo, Fraction(0)), hi, name)
        if self.route == "mv":
            from dpverify.theorems.formulas.kov_mv import mv_eps

            eps_list = self._eps_list()
            try:
                lo, hi = _enclose(lambda c: c.run(mv_eps, eps_list=eps_list, delta=t),
                                  "mv_eps")
                return Bound(max(lo, Fraction(0)), hi, name)
            except InvalidParameter:
                pass  # too large for the exact MV optimum: fall through to the PLD engine
        return self._pld_epsilon(t)

    # -- delta ---------------------------------------------------------------------------
    def _lift(self, lo: Value, hi: Value) -> tuple[Value, Value]:
        """``1 - K (1 - x)`` applied to both ends (monotone)."""
        if self.K == 1:
            return lo, hi
        return 1 - self.K * (1 - Fraction(lo)), 1 - self.K * (1 - Fraction(hi))

    def _delta(self, eps: Fraction) -> Bound:
        name = self.describe_route()
        if self.route == "gaussian":
            from dpverify.theorems.formulas.gaussian import gauss_delta

            lo, hi = _enclose(lambda c: gauss_delta(c, 1 / self._mu(c), c.num(eps)),
                              "gauss_delta")
        elif self.route == "laplace":
            from dpverify.theorems.formulas.laplace import laplace_delta

            b, s = self._laplace()
            lo, hi = _enclose(lambda c: laplace_delta(c, c.num(b), c.num(eps), c.num(s)),
                              "laplace_delta")
        elif self.route == "kov":
            from dpverify.theorems.formulas.kov_mv import kov_delta

            e0 = _pure_eps(self.scenario.events[0])
            k = self.scenario.total_count()
            lo, hi = _enclose(lambda c: c.run(kov_delta, eps0=e0, delta0=Fraction(0), k=k,
                                              eps=eps), "kov_delta")
        else:
            done = False
            if self.route == "mv":
                from dpverify.theorems.formulas.kov_mv import mv_delta_pure

                eps_list = self._eps_list()
                try:
                    lo, hi = _enclose(lambda c: c.run(mv_delta_pure, eps_list=eps_list,
                                                      eps=eps), "mv_delta")
                    done = True
                except InvalidParameter:
                    pass
            if not done:
                return self._pld_delta(eps)
        lo, hi = max(Fraction(lo), Fraction(0)), min(Fraction(hi), Fraction(1))
        lo, hi = self._lift(lo, hi)
        return Bound(lo, hi, name)

    # -- closed-form helpers -------------------------------------------------------------
    def _mu(self, ctx: ArbCtx) -> Any:
        s = ctx.zero
        for ev in self.scenario.events:
            sig = ctx.num(exact(ev.sigma))  # type: ignore[arg-type]
            s = s + ev.count / (sig * sig)
        c = 2 if self.scenario.neighboring == "replace_one" else 1
        return c * ctx.sqrt(s)

    def _laplace(self) -> tuple[Fraction, Fraction]:
        ev = self.scenario.events[0]
        s = Fraction(2) if self.scenario.neighboring == "replace_one" else Fraction(1)
        return exact(ev.b), s  # type: ignore[arg-type]

    def _eps_list(self) -> tuple[Fraction, ...]:
        out: list[Fraction] = []
        for ev in self.scenario.events:
            out.extend([_pure_eps(ev)] * ev.count)
        return tuple(out)

    # -- the PLD engine ------------------------------------------------------------------
    def _directions(self) -> dict[str, list[tuple[Any, int]]]:
        from dpverify.theorems.numerics.pld import (
            DiscreteGaussian,
            DiscreteLaplace,
            Laplace,
            RandomizedResponse,
            SubsampledGaussian,
        )

        rel = self.scenario.neighboring
        dirs = ("add", "remove") if rel == "add_remove" else ("replace",)
        out: dict[str, list[tuple[Any, int]]] = {d: [] for d in dirs}
        for ev in self.scenario.events:
            q = None if ev.sampling is None else exact(ev.sampling.q)
            for d in dirs:
                if ev.mechanism == "gaussian":
                    sig = exact(ev.sigma)  # type: ignore[arg-type]
                    if q is None or q == 1:
                        pair: Any = SubsampledGaussian(Fraction(1), sig / 2 if rel ==
                                                       "replace_one" else sig, "add")
                    else:
                        pair = SubsampledGaussian(q, sig, d)
                elif ev.mechanism in ("laplace", "discrete_laplace", "discrete_gaussian"):
                    sens = Fraction(2) if rel == "replace_one" else Fraction(1)
                    kind = {"laplace": Laplace, "discrete_laplace": DiscreteLaplace,
                            "discrete_gaussian": DiscreteGaussian}[ev.mechanism]
                    scale = ev.sigma if ev.mechanism == "discrete_gaussian" else ev.b
                    base: Any = kind(exact(scale), sens)  # type: ignore[arg-type]
                    pair = base if q is None or q == 1 else SubsampledPair(base, q, d)
                else:
                    base = RandomizedResponse(_pure_eps(ev))
                    pair = base if q is None or q == 1 else SubsampledPair(base, q, d)
                out[d].append((pair, ev.count))
        # merge equal pairs
        merged: dict[str, list[tuple[Any, int]]] = {}
        for d, items in out.items():
            acc: dict[Any, list[Any]] = {}
            for pair, count in items:
                key = pair.key()
                if key in acc:
                    acc[key][1] += count
                else:
                    acc[key] = [pair, count]
            merged[d] = [(p, c) for p, c in acc.values()]
        # a direction whose multiset of pairs equals another's gives the same profile
        seen: dict[Any, str] = {}
        unique: dict[str, list[tuple[Any, int]]] = {}
        for d, items in merged.items():
            sig = tuple(sorted((repr(p.key()), c) for p, c in items))
            if sig not in seen:
                seen[sig] = d
                unique[d] = items
        return unique

    def _plan(self, abs_tol: float, directions: dict[str, list[tuple[Any, int]]]
              ) -> tuple[int, float]:
        ops = 0
        for items in directions.values():
            ops = max(ops, sum(2 * max(1, c.bit_length()) for _, c in items) + len(items))
        bits = max(64, math.ceil(math.log2(ops * 4e6 / abs_tol)) + 2)
        tail = abs_tol / (8 * ops)
        return bits, tail

    def _composed(self, h: Fraction, bits: int, tail: float,
                  directions: dict[str, list[tuple[Any, int]]], method: str = "exact",
                  center: float | None = None, delta: Fraction | None = None
                  ) -> list[tuple[Any, Any]]:
        """The upper and lower PLDs of every direction, composed by ``method`` (the engine's
        default for the queries; "fourier" aims at ``center`` or at the eps of ``delta``)."""
        from dpverify.theorems.numerics.pld import composition_pld, one_step_plds

        key = (h, bits, tail, method, center, delta)
        hit = self._pld_cache.get(key)
        if hit is not None:
            return hit
        out = []
        for items in directions.values():
            parts = list(items)
            for pair, _count in parts:
                one_step_plds(pair, h, bits, tail, lower=True)  # one discretisation for both
            out.append(tuple(composition_pld(parts, h, bits, tail, kind, method, center, delta)
                             for kind in ("upper", "lower")))
        if len(self._pld_cache) > 4:
            self._pld_cache.pop(next(iter(self._pld_cache)))
        self._pld_cache[key] = out
        return out

    def _initial_step(self, directions: dict[str, list[tuple[Any, int]]]) -> Fraction:
        scales = []
        for items in directions.values():
            for pair, _ in items:
                a = pair.quantile(0.1)
                b = pair.quantile(0.1, upper=True)
                scales.append(max((b - a) / 2.56, 1e-12))
        return _dyadic_step(min(scales) / 12)

    def _span_estimate(self, directions: dict[str, list[tuple[Any, int]]]) -> float:
        return max(p.quantile(1e-12, upper=True) - p.quantile(1e-12)
                   for items in directions.values() for p, _ in items)

    def _refine(self, run: Callable[[Fraction], tuple[Value, Value]],
                directions: dict[str, list[tuple[Any, int]]]) -> Bound:
        """Passes at decreasing steps until the relative width is met. ``max_seconds`` counts
        this process's CPU seconds, as the engine's driver does (``pld.enclose._refine``): on a
        loaded machine, waiting for a core must not stop the refinement early and leave a wider
        reference (and so more inconclusive audit checks); a pass predicted (from the last
        pass's CPU time) to overrun the budget is not started, and none starts once
        ``max_seconds`` of wall time have passed either: a bound, never a hang."""
        started, started_cpu = time.monotonic(), time.process_time()
        h = self._initial_step(directions)
        span_est = self._span_estimate(directions)
        passes: list[dict[str, Any]] = []
        lo: Value = Fraction(0)
        hi: Value = INF
        while True:
            t0, c0 = time.monotonic(), time.process_time()
            try:
                lo, hi = run(h)
            except PrecisionExhausted as e:
                passes.append({"h": str(h), "error": str(e)})
                if passes and len(passes) > 3:
                    raise
                h = _dyadic_step(float(h) / 2)
                continue
            dt, cpu = time.monotonic() - t0, time.process_time() - c0
            width = float((Fraction(hi) - Fraction(lo)) / Fraction(hi)) if hi not in (0, INF) \
                else 0.0
            passes.append({"h": str(h), "lo": float(lo), "hi": float(hi),
                           "rel_width": width, "seconds": round(dt, 3), "cpu": round(cpu, 3)})
            if width <= self.rel_width:
                break
            factor = math.sqrt(self.rel_width / width) * 0.8 if width > 0 else 0.5
            factor = min(max(factor, 1 / 8), 0.7)
            new_h = _dyadic_step(float(h) * factor)
            spent = time.process_time() - started_cpu
            predicted = max(cpu, 1e-3) * (float(h) / float(new_h)) ** 1.7
            if (span_est / float(new_h) > MAX_BINS or spent + predicted > self.max_seconds
                    or time.monotonic() - started >= self.max_seconds):
                break
            h = new_h
        kinds = sorted({type(p).__name__ for items in directions.values() for p, _ in items})
        method = (f"certified PLD engine ({', '.join(kinds)}; {len(directions)} direction(s); "
                  f"h = {h}; relative width {passes[-1].get('rel_width', 0):.2g})")
        return Bound(lo, hi, method, time.monotonic() - started, tuple(passes))

    def _pld_epsilon(self, t: Fraction) -> Bound:
        directions = self._directions()
        abs_tol = float(t) * 2.0**-24
        # bucket the plan so that nearby deltas share their composed PLDs
        abs_tol = 2.0 ** (16 * math.floor(math.log2(abs_tol) / 16))
        bits, tail = self._plan(abs_tol, directions)

        def ends(h: Fraction, method: str) -> tuple[Value, Value]:
            lo: Value = Fraction(0)
            hi: Value = Fraction(0)
            for up, low in self._composed(h, bits, tail, directions, method, delta=t):
                hi = max(hi, up.eps_bound(t))
                lo = max(lo, low.eps_bound(t))
            return lo, hi

        return self._refine(
            lambda h: fourier_or_exact(lambda m: ends(h, m), pld_engine.DEFAULT_METHOD),
            directions)

    def _pld_delta(self, eps: Fraction) -> Bound:
        directions = self._directions()
        h0 = self._initial_step(directions) * 4  # a coarse first look at the magnitude
        bits0, tail0 = self._plan(2.0**-60, directions)
        center = float(eps)
        first = fourier_or_exact(lambda m: max(
            span(up.delta_bound(eps))[1]
            for up, _ in self._composed(h0, bits0, tail0, directions, m, center)),
            pld_engine.DEFAULT_METHOD)
        abs_tol = max(float(first), 1e-300) * 2.0**-24 if first > 0 else 2.0**-80
        abs_tol = max(2.0 ** (16 * math.floor(math.log2(abs_tol) / 16)), 2.0**-1000)
        bits, tail = self._plan(abs_tol, directions)

        def ends(h: Fraction, method: str) -> tuple[Value, Value]:
            lo = hi = Fraction(0)
            for up, low in self._composed(h, bits, tail, directions, method, center):
                hi = max(hi, span(up.delta_bound(eps))[1])
                lo = max(lo, span(low.delta_bound(eps))[0])
            lo, hi = max(lo, Fraction(0)), min(hi, Fraction(1))
            return self._lift(lo, hi)

        return self._refine(
            lambda h: fourier_or_exact(lambda m: ends(h, m), pld_engine.DEFAULT_METHOD),
            directions)


# ------------------------------------------------------------------------------------------
# cached entry points


@functools.lru_cache(maxsize=128)
def _reference(scenario_json: str, rel_width: float, max_seconds: float) -> Reference:
    return Reference(Scenario.from_json(scenario_json), rel_width, max_seconds)


def reference_for(scenario: Scenario, rel_width: float = DEFAULT_REL_WIDTH,
                  max_seconds: float = DEFAULT_SECONDS) -> Reference:
    """The (cached) reference of a scenario, keyed by its canonical JSON."""
    return _reference(scenario.to_json(), rel_width, max_seconds)


def reference_epsilon(scenario: Scenario, delta: float, **opts: Any) -> Bound:
    return reference_for(scenario, **opts).epsilon(delta)


def reference_delta(scenario: Scenario, epsilon: float, **opts: Any) -> Bound:
    return reference_for(scenario, **opts).delta(epsilon)


__all__ = [
    "Bound",
    "Reference",
    "check_supported",
    "reference_delta",
    "reference_epsilon",
    "reference_for",
    "unsupported_reason",
]
