"""The tilt of a Fourier composition chosen for cost (:func:`cost_tilt`) and the check after
composing that keeps it (:func:`within_budget`). Only the CPU depends on the choice: every tilt
``lam >= 0`` gives a rigorous enclosure (:mod:`.fourier`, step 1); nothing here is a bound.

The saddle tilt ``lam_s`` (:func:`.fourier.fourier_tilt`) maximises the query's dot product but
skews the tilted law: on scenario B (issue 14) its right tail needs a 2^21-point window, while
at ``lam = 6`` a 2^20 one holds the same tails (``TAIL``) for half the transforms' cost. The
price is accuracy: a query's errors are absolute in the tilted, normalised masses (step 4's
``eta_T`` by Cauchy-Schwarz, step 5's dot-product rounding, the tails), and its value, the dot
product, is ``dot = (delta - inf) e^{lam eps - K(lam)}`` (step 5 with ``C B0 = e^{K(lam) - lam
z_{I0}}``, ``K`` the composed log-MGF of the loss, ``z_{I0}`` within ``h`` of ``eps``), largest
at the saddle. So the relative error ``r`` of a query grows as ``lam`` leaves the saddle, and
moves the certified eps by about ``r / s``, ``s = -d log delta / d eps``; the saddle-point
approximation ``delta ~ e^{-(lam_s eps - K(lam_s))}`` gives ``s ~ lam_s`` (measured on B's add
direction: 12.5 at ``lam_s = 8.19``, so ``lam_s`` overstates the shift).

The choice (:func:`cost_tilt`): ``lam_c``, the largest ``lam`` in ``[lam_s / 2, lam_s)``
(bisection, ``STEPS`` halvings) whose float locator window (:func:`.fourier_window._locate`) is half
the saddle's and whose predicted relative error ``r`` (below)
moves eps by at most ``TILT_BUDGET`` of the target width, ``r / lam_s <= TILT_BUDGET target
eps``, per end; the saddle if there is none, or if already at ``lam_s / 2`` the window
does not halve (``GAUSS_REACH`` tilted standard deviations exceed half of it, or the locator
says so). The probes are cheap: the untilted masses are cut into blocks once
(:func:`coarse`), every probe tilts the blocks (:class:`Probe`; ``lam h w`` is ~2e-3 on B, so
the second order is ample for a predictor) and its locator keeps the grid exponents ``th``
with ``th sigma`` in ``THETA_RANGE`` (B's add direction: 17 ms for the whole search, the
composition it saves ~70 ms per kind). Nothing of a probe enters the composition: the
window composed is the rigorous one of :func:`.fourier_window._window` at the tilt chosen. The
prediction: ``r ~ (te + sp) / dot``, ``te = (K + 1) e_n ||g||_2 sqrt(min(n, 1 + 1 / (2 lam
h)))`` (step 4's ``eta_T sqrt(count / n)`` with ``||D||_2 ~ K e_n ||Y||_2``, Parseval
``||Y||_2 = sqrt(n) ||g||_2`` and ``||g||_2^2 ~ 1 / (2 sqrt(pi) sigma)``, ``sigma`` the tilted
composed standard deviation: only the modulus of the characteristic function enters, whose
logarithm has no odd cumulants, so the skew does not), ``sp = 2 gamma_m``, ``m = min(n,
DECAY_CUT / (lam h))`` (step 5's rounding of the dot product over the query weights' decay).
It needs the query's ``delta`` (an eps query); a delta query keeps the saddle. The check
(:func:`within_budget`): after composing at ``lam_c``, the same query point read by both
formulas of step 5 (upper and lower) gives ``r`` itself; over the budget, the caller recomposes
at the saddle. Measured on B's add direction (h = 1/65536, ``target = 1e-5``, eps 0.94714):
``lam_s = 8.19`` (2^21 points, measured ``r = 7.2e-7``), cost tilt 6.40 (2^20 points, ``r =
2.3e-6``, budget 3.9e-6; predicted within 10 % of measured from ``lam = 5`` to 7, the saddle's
30 % under: its heavy right tail inflates ``sigma``); the certified ends (bisection on
``delta_at``) move out by 1.1e-7 each, width 5.58e-6 -> 5.81e-6.

The driver's budget (:func:`cost_tilts`, ``budget``): a pass whose width the h^2 law predicts
(:func:`.enclose._tilt_budget`) lets the tilt spend a share of the predicted slack per end
instead of ``TILT_BUDGET``, and the search then also tries a QUARTER of the saddle's window
(the largest tilt in ``[lam_s / 4, lam_s / 2)``), tried first; a check miss there recomposes
at the half window's tilt, a miss there at the saddle. Measured (eps_bound of each kind at
h = 1/65536, one composition per tilt): B's add direction reaches 2^19 points only at ``lam
<= 3.07`` (2^20 from 3.1 to 6.5), where the query's error is ``r = 3.5e-5`` (predicted 3.7e-5)
and each end moves out by 2.27e-6 (2.4e-6 relative; width 5.86e-6 at the saddle, 6.05e-6 at
6.40, 6.61e-6 at 5, 7.77e-6 at 4, 1.06e-5 at 3: over B's target 1e-5), so B's budget (7.2e-7
per end) keeps the half window. A (7/65536) and C (9/262144) have windows set by their
tilted standard deviations (2^17 and 2^19 from ``lam_s / 2`` down to ``lam_s / 20``): no
quarter either; K1e6 and HET are near-Gaussian (``GAUSS_REACH``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from dpverify.theorems.numerics.pld._arith import fdot
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.fft import _gamma, fft_error_factor
from dpverify.theorems.numerics.pld.fourier import FourierPLD
from dpverify.theorems.numerics.pld.fourier_pld import DECAY_CUT
from dpverify.theorems.numerics.pld.fourier_window import Blocks, _blocks, _Chernoff, _locate
from dpverify.theorems.numerics.pld.log_mgf import dyadic_tilt, increasing_root
from dpverify.theorems.numerics.pld.tilted import MAX_EXPONENT

TILT_BUDGET = 1 / 20  # per end: a cost tilt may move the query's eps by this much of the
#                       target width (both ends: 1/10; the driver's MARGIN leaves ~19 %)
STEPS = 4  # bisection steps on [lam_s / 2, lam_s]: lam_c within lam_s / 32 of the largest
THETA_RANGE = (1 / 16, 256.0)  # a probe's locator keeps the exponents th with th sigma in
#   this range (sigma: the tilted composed std; the bounds at e^-33 use ~1 (heavy tails) to
#   ~30 (light ones)): a window at least the full grid's, at ~2/5 of its cost
GAUSS_REACH = 12.0  # a window cannot halve if 2 x 6 tilted standard deviations exceed half
#                     of it (a tail at e^-33 reaches ~8 of a near-Gaussian law)
SADDLE_REACH = 1 / 16  # blocked_saddle's probes are kept where lam h w is at most this (the
#                       third order, (lam h w)^3 / 6 per block, is then below 1e-3 of the
#                       second; B's add direction: 1e-3)
MIN_WINDOW = 1 << 16  # saddle windows below this are kept (halving them saves less than
#                       the search costs: ~1 ms per probe on 2^16-point windows)


@dataclasses.dataclass
class Coarse:
    """One part's untilted masses in blocks (:func:`.fourier_window._blocks` of its normalised
    masses, the blocks' widths from their standard deviation): ``lx`` the log of each block's
    mass, ``c`` its centroid, ``v`` its variance, ``w`` the width; the part's ``shift`` (loss
    of index 0), steps ``k`` and ``span`` (its last index)."""

    lx: np.ndarray
    c: np.ndarray
    v: np.ndarray
    w: float
    shift: float
    k: int
    span: int


def coarse(ones: Sequence[tuple[DiscretePLD, int]]) -> list[Coarse]:
    """:class:`Coarse` of every part (once per search: every probe tilts these blocks)."""
    out = []
    for one, k in ones:
        x = np.ldexp(one.unit_floats(), -one.B)
        total = float(np.sum(x))
        lv, c, v, w = _blocks(x / total)
        out.append(Coarse(lv + math.log(total), c, v, w, float(one.shift), k, len(x) - 1))
    return out


@dataclasses.dataclass
class Probe:
    """The float view of one tilt ``lam``, without composing: the parts' blocks tilted (in
    floats, to second order in ``lam h w``: a block's log-MGF ``lam h c_B + (lam h)^2 v_B /
    2``, its tilted centroid ``c_B + lam h v_B``), ``gain = sum_j k_j log s_j - lam S0`` (so
    ``lam eps - K(lam) = gain + lam eps``), the tilted composed mean and standard deviation
    ``sigma`` in grid steps."""

    lam: Fraction
    blocks: list[Blocks]
    gain: float
    mean: float
    sigma: float

    @property
    def steps(self) -> int:
        return sum(b[0] for b in self.blocks)

    def window(self) -> int:
        """The float locator's window length (:func:`.fourier_window._locate` on the blocks; a power
        of 2, before the rigorous tails may double it)."""
        sigma = max(self.sigma, 1.0)
        ch = _Chernoff([], keep=(THETA_RANGE[0] / sigma, THETA_RANGE[1] / sigma),
                       blocks=self.blocks)
        return _locate(sum(b[0] * b[1] for b in self.blocks), ch, self.mean)[1]


def probe(parts: Sequence[Coarse], h: Fraction, lam: Fraction) -> Probe:
    """:class:`Probe` of the composition of the blocked ``parts`` (:func:`coarse`) tilted by
    ``lam``."""
    lam_h = float(lam * h)
    blocks: list[Blocks] = []
    gain = mean = var = 0.0
    for p in parts:
        e = p.lx + lam_h * p.c + (0.5 * lam_h * lam_h) * p.v
        top = float(e.max())
        log_m = top + math.log(float(np.sum(np.exp(e - top))))
        e -= log_m  # the log of the tilted, normalised block masses
        wts = np.exp(e)
        c = p.c + lam_h * p.v
        m = fdot(wts, c)
        var += p.k * fdot(wts, p.v + (c - m) ** 2)
        mean += p.k * m
        gain -= p.k * (log_m + float(lam) * p.shift)
        blocks.append((p.k, p.span, e, c, p.v, p.w))
    return Probe(lam, blocks, gain, mean, math.sqrt(var))


def predicted_error(p: Probe, n: int, h: Fraction, eps: float, delta: float) -> float:
    """The predicted relative error ``r`` of a query at ``(eps, delta)`` of the composition
    tilted by ``p.lam`` on a window of ``n`` points (module docstring; a float estimate, never
    a bound)."""
    lam_h = float(p.lam * h)
    steps = p.steps
    count = min(n, 1 + 1 / (2 * lam_h)) if lam_h > 0 else n
    norm_g = (2 * math.sqrt(math.pi) * max(p.sigma, 1.0)) ** -0.5
    te = (steps + 1) * fft_error_factor(n) * norm_g * math.sqrt(count)
    m = min(n, DECAY_CUT / lam_h) if lam_h > 0 else n
    log_dot = math.log(delta) + p.gain + float(p.lam) * eps
    return (te + 2 * _gamma(int(m) + 2)) * math.exp(min(-log_dot, 700.0))


def allowed_error(lam_s: Fraction, eps: float, target: float,
                  budget: float | None = None) -> float:
    """The largest relative error ``r`` of a query that moves its eps by at most ``budget``
    (relative, per end; without it ``TILT_BUDGET`` of the target width): ``r / s <= budget
    eps``, ``s ~ lam_s``."""
    share = TILT_BUDGET * target if budget is None else budget
    return share * float(lam_s) * eps


def blocked_saddle(parts: Sequence[Coarse], h: Fraction, center: float) -> Fraction | None:
    """The saddle tilt of :func:`.fourier.fourier_tilt` (the ``lam`` whose tilted composed mean
    is ``center``, capped at the same ``MAX_EXPONENT / 2 / span``, a dyadic with 8 significant
    bits) from the blocked masses (:func:`coarse`, shared with the cost search) instead of
    the entries: each evaluation of the tilted mean and variance is a :func:`probe`, ~1/100
    of a pass over the one-step masses (B's add direction at h = 2^-16: 15 ms -> 2 ms, the
    same dyadic). The probes are second order in ``lam h w``; None (the caller then runs
    :func:`.fourier.fourier_tilt`) where that exceeds ``SADDLE_REACH`` at the tilt found.
    Safeguarded Newton on ``[0, lam_max]`` (as ``fourier_tilt``). A float locator: any tilt
    gives a rigorous composition."""
    if not math.isfinite(center):
        return Fraction(0)
    hf = float(h)
    lam_max = MAX_EXPONENT / 2 / max(max(p.span for p in parts) * hf, 1e-9)
    base = sum(p.k * p.shift for p in parts)

    def moments(lam: float) -> tuple[float, float]:
        got = probe(parts, h, Fraction(lam))
        return base + hf * got.mean - center, (hf * got.sigma) ** 2

    first = moments(0.0)
    if first[0] >= 0:
        return Fraction(0)
    x = increasing_root(moments, lam_max, first)
    if x <= 0 or max(x * hf * p.w for p in parts) > SADDLE_REACH:
        return None if x > 0 else Fraction(0)
    return dyadic_tilt(x)


def cost_tilt(ones: Sequence[tuple[DiscretePLD, int]], lam_s: Fraction, eps: float,
              delta: float | None, target: float,
              parts: Sequence[Coarse] | None = None) -> Fraction:
    """The tilt to compose ``ones`` at for a query near ``(eps, delta)`` with relative target
    width ``target``: ``lam_c`` (the largest tilt below the saddle ``lam_s`` whose window is
    half the saddle's) when its predicted error is within budget, else ``lam_s``. Without a
    target, a delta, a positive saddle or eps, or on a saddle window below ``MIN_WINDOW``:
    ``lam_s`` (the behaviour without a cost tilt). ``parts``: :func:`coarse` of ``ones``, if
    already computed."""
    got = cost_tilts(ones, lam_s, eps, delta, target, parts)
    return got[-1] if got else lam_s


def cost_tilts(ones: Sequence[tuple[DiscretePLD, int]], lam_s: Fraction, eps: float,
               delta: float | None, target: float, parts: Sequence[Coarse] | None = None,
               budget: float | None = None) -> list[Fraction]:
    """The cost tilts to try, cheapest first (the caller composes at each in turn until one
    passes :func:`within_budget`, else at ``lam_s``): with the driver's ``budget`` (a
    relative shift of eps per end, :func:`allowed_error`) the largest tilt in ``[lam_s / 4,
    lam_s / 2)`` whose window is a QUARTER of the saddle's, if its predicted error fits;
    then :func:`cost_tilt`'s half-window tilt (a miss at a quarter recomposes at the next
    larger window, not at the saddle). Empty where :func:`cost_tilt` keeps the saddle."""
    if target <= 0 or delta is None or not delta > 0 or lam_s <= 0 or not eps > 0:
        return []
    h = ones[0][0].h
    parts = coarse(ones) if parts is None else parts
    n_s = probe(parts, h, lam_s).window()
    if n_s < MIN_WINDOW:
        return []
    allowed = allowed_error(lam_s, eps, target, budget)
    low = probe(parts, h, lam_s / 2)
    half = _largest_within(parts, h, low, lam_s, n_s // 2, eps, delta, allowed)
    if half is None:
        return []
    if budget is None or predicted_error(low, n_s // 4, h, eps, delta) > allowed:
        return [half]  # the error only grows below lam_s / 2: no quarter window fits
    quarter = _largest_within(parts, h, probe(parts, h, lam_s / 4), lam_s / 2, n_s // 4, eps,
                              delta, allowed)
    return [half] if quarter is None else [quarter, half]


def _largest_within(parts: Sequence[Coarse], h: Fraction, low: Probe, high: Fraction, n: int,
                    eps: float, delta: float, allowed: float) -> Fraction | None:
    """The largest tilt in ``[low.lam, high)`` (within ``(high - low.lam) / 2^STEPS``) whose
    window is at most ``n`` and whose predicted error on ``n`` points is within ``allowed``;
    None if not even ``low.lam``'s window is."""
    if GAUSS_REACH * low.sigma > n or low.window() > n:
        return None  # not even the bracket's low end shrinks the window
    # the window grows with lam, the predicted error falls: the tilts kept are those of
    # [lam_err, lam_win]; bisection for lam_win on [low, high], a probe whose error is over
    # budget (lam < lam_err) needs no window
    lo, hi = low.lam, high
    best = lo if predicted_error(low, n, h, eps, delta) <= allowed else None
    for _ in range(STEPS):
        mid = (lo + hi) / 2
        got = probe(parts, h, mid)
        if predicted_error(got, n, h, eps, delta) > allowed:
            lo = mid
        elif got.window() <= n:
            lo, best = mid, mid
        else:
            hi = mid
    return best


def relative_error(four: FourierPLD, eps: float) -> float:
    """The relative half-width ``(U - L) / (U + L)`` of the finite-loss part of ``delta(eps)``
    by the upper and lower formulas of step 5 on the same composed window (the errors of the
    composition and of the query: transforms, tails, ``(1 +- a)^K``); ``inf`` where the
    point is outside the window or the lower formula is not positive."""
    at = Fraction(eps)
    four._weights()  # the query tables, computed once: the copies below share them
    ends = [float(dataclasses.replace(four, kind=kind).delta_at(at).mid())
            for kind in ("upper", "lower")]
    inf = float(four.inf.mid())
    up, lo = ends[0] - inf, ends[1] - inf
    if not lo > 0 or not up >= lo:
        return math.inf
    return (up - lo) / (up + lo)


def within_budget(four: FourierPLD, lam_s: Fraction, eps: float, target: float,
                  budget: float | None = None) -> bool:
    """Whether the composition ``four`` (at a cost tilt) keeps the query at ``eps`` within the
    budget (:func:`allowed_error`)."""
    return relative_error(four, eps) <= allowed_error(lam_s, eps, target, budget)


__all__ = ["Coarse", "Probe", "allowed_error", "blocked_saddle", "coarse", "cost_tilt",
           "cost_tilts",
           "predicted_error", "probe", "relative_error", "within_budget"]
