"""Certified FFT composition of discrete PLDs with an error relative to the tilted masses.

Exponential tilting commutes with convolution: for ``w_i = e^{lam h i}`` (grid step h, index i),
``(x w) * (y w) = (x * y) w`` in exact arithmetic, because ``w_i w_j = w_{i+j}``. The FFT
round-off bound ``E`` of :mod:`.fft` is absolute and uniform *in the tilted coordinates*, so
after untilting it becomes ``E e^{-lam h k}`` at index k: small (relative accuracy about
``u polylog(n)``) where the tilted mass peaks. For a composed PLD close to ``N(m, v)`` and a
query at ``eps``, ``lam = (eps - m) / v`` puts that peak at ``eps``, where the masses that decide
``delta(eps)`` sit; in general we take the saddle point (tilted mean = eps,
:func:`saddle_tilt`). Every factor of one composition uses the same ``lam``, so errors made in
early products stay small relative to the tilted masses of later ones.

Error analysis of one product (:func:`tilted_convolve`)
-------------------------------------------------------
Inputs ``x, y >= 0`` (float64, read as exact dyadics); the exact product is ``c = x * y``.

1. **Weights.** ``W_i`` are floats with ``|W_i - e^{lam h i}| <= alpha e^{lam h i}``: two
   tables ``A_a = e^{lam h T a}``, ``B_b = e^{lam h b}`` are computed in arb, rounded to float
   and their relative errors bounded in arb; ``W_{aT+b} = fl(A_a B_b)`` adds one rounding
   (Higham 2002, Sec. 2.2: ``fl(ab) = ab (1 + d)``, ``|d| <= u``, normal range; the weights lie
   in ``[1, e^600]``). So ``rho_ij = W_i W_j / W_{i+j}`` lies in ``[(1-alpha)^2/(1+alpha),
   (1+alpha)^2/(1-alpha)]``: the rounding of the weights is a componentwise relative error.
2. **Tilting.** ``X_i = fl(x_i fl(W_i 2^s))``: the power-of-two scaling is exact (checked:
   normal range), the product has ``X_i = x_i W_i 2^s (1 + d_i) + e_i``, ``|d_i| <= u``,
   ``|e_i| <= 2^-1075`` (underflow). So ``sum_i X_i Y_{k-i} = 2^{s+t} W_k c~_k (1 +- u)^2 + R``
   with ``c~_k = sum x_i y_j rho_ij`` between ``rho_lo c_k`` and ``rho_hi c_k`` and
   ``|R| <= 2^-1074 (||X||_1 + ||Y||_1 + 1)``.
3. **Convolution.** The FFT product ``C^`` of ``X, Y`` satisfies ``|C^_k - (X * Y)_k| <= E`` with
   ``E`` = :func:`.fft.convolution_error_bound` (Higham 2002, Thm 24.2 and Lemma 3.5, with the
   stated assumption on pocketfft; see :mod:`.fft`).
4. **Untilting.** Hence ``c_k <= (C^_k + E + R) / (2^{s+t} W_k) * (1+alpha)/((1-alpha)^2
   (1-u)^2)`` and ``c_k >= (C^_k - E - R) / (2^{s+t} W_k) * (1-alpha)/((1+alpha)^2 (1+u)^2)``.
   The constants are formed in exact rationals and rounded outward; every float operation of
   the untilting is followed by ``nextafter`` outward (a rounded-to-nearest result is within
   half an ulp, subnormals included), so ``hi_k >= c_k >= lo_k >= 0`` holds for the computed
   vectors, with overflow giving ``+inf`` (never used, see 5).
5. **Far tails.** Where ``E e^{-lam h k}`` exceeds the mass (far below the tilted peak) the
   upper values are useless. The upper PLD only needs to dominate in the order of upper tails
   (moving mass to a *higher* loss keeps every hockey-stick value an upper bound, for every
   later composition too: convolution preserves this order), so below the first index ``K``
   with ``lo_K >= hi_K - lo_K`` the masses are moved up to ``K``, and above the first index
   ``K'`` after the last such one where the mass above is at most the tail budget, to
   ``+inf``; their masses ``sum_{i+j<K} x_i y_j`` and ``sum_{i+j>K'} x_i y_j``
   are bounded by one dot product each, of ``x`` with the cumulative sums of ``y`` (sums of
   nonnegative terms: relative error ``gamma_n``, Higham 2002, Sec. 3.1, 4.2; rounded
   outward). The lower PLD keeps ``lo`` (mass may always be dropped from a post-processing).
   Short factors (``min(len) <= DIRECT_MAX``) use the direct, componentwise-relative
   convolution of :mod:`.fft` instead.

Repeated squaring applies this bound at every product (each to already rounded factors, so
errors propagate by construction); trimming and the ``+inf`` atom are as in :class:`.FloatPLD`.

Measured limits (why ``auto`` keeps an exact pass whenever the tilted one misses the target):
the bound of step 3 is normwise, ``~ u p ||X||_2 ||Y||_1``. Subsampled Gaussians put most of
their mass near the loss ``log(1 - q)`` for ``k << 1/q`` steps, and tilting at the final query
does not flatten that comb: the masses that decide ``delta`` sit far below the tilted
2-norm, the relative error grows by ~3x per squaring (q = 0.05, sigma = 1, h = 1/256: 1e-10
after one product, 7e-7 after seven), and on scenario C the enclosure stalls near relative
width 2e-4 (upper end) while the exact path reaches 5e-6. Splitting off the largest entries
(``SPIKES``, convolved directly with a componentwise bound) gains ~15x, not enough.

References: N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM 2002
(Sec. 2.2, 3.1, 4.2, Lemma 3.5, Thm 24.2); [S22] T. Steinke, arXiv 2210.00597v4, Sec. 3
(composition of PLDs is convolution); FFT accounting of PLDs: A. Koskela, J. Jalko,
A. Honkela, *Computing tight differential privacy guarantees using FFT*, arXiv 1906.03049
(AISTATS 2020; version not checked here). Exponential tilting (``w_i w_j = w_{i+j}``) is the
classical change of measure; no source is claimed for its use here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import _arb, fdot, float_outward
from dpverify.theorems.numerics.pld.fft import (
    DIRECT_MAX,
    TINY,
    FloatPLD,
    U,
    _gamma,
    convolution_error_bound,
    convolve_outward,
)

MAX_EXPONENT = 600.0  # weights up to e^600 (float64 normal range ends near e^709)
_TABLES: dict[Fraction, tuple[np.ndarray, float]] = {}


def _float_rel(x: flint.arb) -> tuple[float, float]:
    """The float nearest to the ball's midpoint and a bound on its relative error."""
    f = float(x.mid())
    err = (flint.arb(f) - x).abs_upper() / x.lower()  # arb of a float: exact
    return f, float(err.upper()) * (1 + 4 * U) + TINY


def weights(lam_h: Fraction, n: int, cache: bool = True) -> tuple[np.ndarray, float]:
    """Floats ``W_i ~ e^{lam_h i}``, ``i < n``, and ``alpha`` with ``|W_i / e^{lam_h i} - 1|
    <= alpha`` (module docstring, step 1; cached per ``lam_h``, a longer table serving a
    shorter one; ``cache=False`` neither reads nor writes the cache: a function of ``(lam_h,
    n)`` alone, which leaves the cached tables to the compositions)."""
    if lam_h < 0:
        raise ValueError(f"the tilt must be >= 0; got {lam_h}")
    if float(lam_h) * max(n - 1, 0) > MAX_EXPONENT:
        raise PrecisionExhausted(f"tilted weights up to e^{float(lam_h) * (n - 1):.0f} "
                                 f"exceed the float range")
    hit = _TABLES.get(lam_h) if cache else None
    if hit is not None and len(hit[0]) >= n:
        return hit[0][:n], hit[1]
    t = max(1, math.isqrt(max(n - 1, 0)) + 1)
    with arb_precision(96):
        lh = _arb(lam_h)
        step = (lh * t).exp()
        a_tab, b_tab, alpha_a, alpha_b = [], [], 0.0, 0.0
        acc = flint.arb(1)
        for _ in range(t):
            f, e = _float_rel(acc)
            a_tab.append(f)
            alpha_a = max(alpha_a, e)
            acc *= step
        acc, step = flint.arb(1), lh.exp()  # products of balls: the radii stay rigorous
        for _ in range(t):
            f, e = _float_rel(acc)
            b_tab.append(f)
            alpha_b = max(alpha_b, e)
            acc *= step
    table = np.outer(np.array(a_tab), np.array(b_tab)).ravel()
    # in exact rationals: in floats 1 + u rounds to 1 and alpha would vanish
    alpha = float_outward((1 + Fraction(alpha_a)) * (1 + Fraction(alpha_b)) * (1 + Fraction(U)) - 1,
                     True)
    if cache:
        if len(_TABLES) > 8:
            _TABLES.clear()
        _TABLES[lam_h] = (table, alpha)
    return table[:n], alpha


def _tilt(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, int]:
    """``fl(x_i fl(w_i 2^s))`` with ``s`` bringing the largest tilted value near 1."""
    top = float(np.max(x * w)) if len(x) else 0.0
    s = -math.frexp(top)[1] if top > 0 else 0
    ws = np.ldexp(w, s)
    if not (np.all(np.isfinite(ws)) and float(np.min(ws)) >= 2.0**-1022):
        raise PrecisionExhausted("tilted weights left the normal float range")
    return x * ws, s


SPIKES = 16  # at most this many large entries per factor are convolved directly


def _spikes(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The indices of the largest entries (at least ``max / 64``, at most ``SPIKES``) and
    ``t`` without them: a few large masses would dominate the 2-norm in the FFT bound."""
    top = float(np.max(t)) if len(t) else 0.0
    idx = np.flatnonzero(t >= top * 2.0**-6) if top > 0 else np.zeros(0, dtype=np.int64)
    if len(idx) > SPIKES:
        idx = idx[np.argsort(t[idx])[-SPIKES:]]
    rest = t.copy()
    rest[idx] = 0.0
    return idx, rest


def tilted_convolve(x: np.ndarray, y: np.ndarray, lam_h: Fraction, upper: bool,
                    budget: float = 0.0) -> tuple[np.ndarray, np.ndarray, int, Fraction]:
    """``(hi, lo, K, above)``: ``hi`` (starting at index ``K``) plus the mass ``above`` at
    ``+inf`` dominates ``x * y`` in the order of upper tails (step 5), ``lo`` (from index 0) is
    dominated by it coefficientwise. ``upper=False`` skips step 5 (``hi`` is then
    coefficientwise, ``K = 0``, ``above = 0``)."""
    m = len(x) + len(y) - 1
    if min(len(x), len(y)) <= DIRECT_MAX:
        return (convolve_outward(x, y, True), convolve_outward(x, y, False), 0, Fraction(0))
    w, alpha = weights(lam_h, m)
    tx, sx = _tilt(x, w[:len(x)])
    ty, sy = _tilt(y, w[:len(y)])
    n = 1 << max(1, math.ceil(math.log2(m)))
    ix, rx = _spikes(tx)
    iy, ry = _spikes(ty)
    c = np.fft.irfft(np.fft.rfft(rx, n) * np.fft.rfft(ry, n), n)[:m]
    err = convolution_error_bound(n, rx, ry)
    direct = np.zeros(m)
    for i in ix.tolist():  # x = spikes + rest, y likewise: x*y = spikes_x*y + rest_x*spikes_y
        direct[i:i + len(ty)] += tx[i] * ty
    for j in iy.tolist():
        direct[j:j + len(rx)] += ty[j] * rx
    g = 2 * _gamma(len(ix) + len(iy) + 1)
    err += TINY * (float(np.sum(tx)) + float(np.sum(ty)) + 1 + len(ix) + len(iy)) * 2
    a, uu = Fraction(alpha), Fraction(U)
    k_hi = float_outward((1 + a) / ((1 - a) ** 2 * (1 - uu) ** 2), True)
    k_lo = float_outward((1 - a) / ((1 + a) ** 2 * (1 + uu) ** 2), False)
    inf, ninf = math.inf, -math.inf
    with np.errstate(over="ignore", under="ignore"):
        hi = np.nextafter(np.nextafter(c + err, inf) + np.nextafter(direct * (1 + g), inf), inf)
        hi = np.nextafter(hi / w, inf)
        hi = np.nextafter(hi * k_hi, inf)
        hi = np.nextafter(np.ldexp(hi, -sx), inf)
        hi = np.nextafter(np.ldexp(hi, -sy), inf)
        lo = np.nextafter(np.nextafter(c - err, ninf) + np.nextafter(direct * (1 - g), ninf),
                          ninf)
        lo = np.maximum(lo, 0.0)
        lo = np.nextafter(lo / w, ninf)
        lo = np.nextafter(lo * k_lo, ninf)
        lo = np.nextafter(np.ldexp(lo, -sx), ninf)
        lo = np.maximum(np.nextafter(np.ldexp(lo, -sy), ninf), 0.0)
    if not upper:
        return hi, lo, 0, 0.0
    good = np.flatnonzero((lo > 0) & (lo >= hi - lo))
    if not len(good):
        return hi, lo, 0, 0.0
    first = int(good[0])
    xr, yr = x[::-1], y[::-1]
    cyr = np.cumsum(yr)
    last = _right_cut(xr, cyr, m, int(good[-1]), budget)
    kept = hi[first:last + 1].copy()
    if first > 0:
        below = _mass_below(x, np.cumsum(y), first)
        kept[0] = float_outward(Fraction(float(kept[0])) + below, True)
    above = _mass_below(xr, cyr, m - 1 - last) if last < m - 1 else Fraction(0)
    return kept, lo, first, above


def _mass_below(x: np.ndarray, cy: np.ndarray, k: int) -> Fraction:
    """An upper bound on ``sum_{i + j < k} x_i y_j`` (``x, y >= 0``, ``cy = cumsum(y)``): one
    dot product of ``x`` with the cumulative sums of ``y``; both are sums of nonnegative terms,
    so their computed values are within ``gamma_n`` (relative) of the exact ones (Higham
    2002, Sec. 3.1 and 4.2); rounded up."""
    n = min(k, len(x))
    if n <= 0:
        return Fraction(0)
    i0 = min(max(k - len(cy), 0), n)  # x_i with i < i0 meet all of y
    v = float(np.sum(x[:i0])) * float(cy[-1]) if i0 else 0.0
    if i0 < n:  # x_i, i0 <= i < n, meets cy[k - 1 - i]
        stop = k - 1 - n
        v += fdot(x[i0:n], cy[k - 1 - i0:stop if stop >= 0 else None:-1])
    grow = 1 + 4 * (len(cy) + n + 4) * U
    return Fraction(math.nextafter(v * grow, math.inf)) + Fraction(TINY) * (len(cy) + n + 4) * 2


def _right_cut(xr: np.ndarray, cyr: np.ndarray, m: int, start: int, budget: float) -> int:
    """The least index ``t >= start`` of the product whose mass above (:func:`_mass_below` on
    the reversed factors) is at most ``budget`` (bisection: that mass decreases in t), else
    the last index ``m - 1``."""
    def above(t: int) -> float:
        return float(_mass_below(xr, cyr, m - 1 - t))

    lo, hi = start, m - 1
    if above(lo) <= budget:
        return lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if above(mid) <= budget else (mid, hi)
    return hi


@dataclass
class TiltedPLD(FloatPLD):
    """A :class:`.FloatPLD` composed by :func:`tilted_convolve` with tilt ``lam`` (per unit of
    loss, an exact dyadic >= 0); ``center`` is the loss where the tilted mass is meant to peak
    (informational)."""

    lam: Fraction = Fraction(0)
    center: float = 0.0

    @classmethod
    def tilted(cls, base: FloatPLD, lam: Fraction, center: float) -> TiltedPLD:
        fields = {f: getattr(base, f) for f in ("kind", "h", "shift", "masses", "inf", "trim",
                                                "steps")}
        return cls(**fields, lam=lam, center=center)

    def _convolve(self, other: FloatPLD, upper: bool, error_bound: Any
                  ) -> tuple[np.ndarray, int, dict[str, Any]]:
        if not isinstance(other, TiltedPLD) or other.lam != self.lam:
            raise ValueError("only PLDs of the same tilt compose")
        hi, lo, k, above = tilted_convolve(self.masses, other.masses, self.lam * self.h, upper,
                                           max(self.trim, other.trim))
        return (hi if upper else lo), k, {}, above

    def _noise(self, c: np.ndarray) -> float:
        return 0.0


def _log_mgf(d: FloatPLD, lam: float) -> tuple[float, float]:
    """``(log sum m_i e^{lam z_i}, tilted mean)`` of the finite masses (floats)."""
    z = float(d.shift) + float(d.h) * np.arange(len(d.masses))
    with np.errstate(divide="ignore"):
        a = np.log(d.masses) + lam * z
    top = float(np.max(a))
    e = np.exp(a - top)
    tot = float(np.sum(e))
    return top + math.log(tot), fdot(e, z) / tot


def saddle_tilt(parts: Sequence[tuple[FloatPLD, int]], center: float, lam_max: float
                ) -> Fraction:
    """The tilt ``lam`` in ``[0, lam_max]`` whose tilted composed law has mean ``center``:
    ``sum_j k_j m_j(lam) = center`` with ``m_j`` the tilted mean of one step (increasing in
    lam; bisection in floats, a locator), as a short dyadic."""
    def mean(lam: float) -> float:
        return sum(k * _log_mgf(d, lam)[1] for d, k in parts)

    if not math.isfinite(center) or mean(0.0) >= center:
        return Fraction(0)
    lo, hi = 0.0, lam_max
    if mean(hi) <= center:
        lo = hi
    for _ in range(60):
        if hi - lo <= 1e-6 * max(hi, 1e-9):
            break
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mean(mid) < center else (lo, mid)
    return Fraction(math.floor(lo * 2**20), 2**20)


def _plain_square(c: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, int]:
    """The float convolution, without its outer entries below ``1e-14`` of its largest (and
    the number of entries dropped on the left)."""
    n = 1 << max(1, math.ceil(math.log2(len(c) + len(d) - 1)))
    out = np.fft.irfft(np.fft.rfft(c, n) * np.fft.rfft(d, n), n)[:len(c) + len(d) - 1]
    keep = np.flatnonzero(out > 1e-14 * float(np.max(out)))  # the float noise floor
    return np.maximum(out[keep[0]:keep[-1] + 1], 0.0), int(keep[0])


def float_eps_estimate(parts: Sequence[tuple[FloatPLD, int]], delta: float) -> float:
    """A float estimate (no bound) of eps at ``delta`` of the composition: plain FFT
    convolutions of the one-step masses, the profile read off the result (a locator for the
    tilt of the first pass)."""
    acc: np.ndarray | None = None
    shift, inf_keep, h = 0.0, 1.0, float(parts[0][0].h)
    offset = 0
    for d, k in parts:
        base, result, kk = d.masses, None, k
        b_off = r_off = 0
        while True:
            if kk & 1:
                if result is None:
                    result, r_off = base, b_off
                else:
                    result, o = _plain_square(result, base)
                    r_off += b_off + o
            kk >>= 1
            if not kk:
                break
            base, o = _plain_square(base, base)
            b_off = 2 * b_off + o
        assert result is not None
        if acc is None:
            acc, offset = result, r_off
        else:
            acc, o = _plain_square(acc, result)
            offset += r_off + o
        shift += k * float(d.shift)
        inf_keep *= (1 - min(float(d.inf), 1.0)) ** k
    assert acc is not None
    inf = 1 - inf_keep
    z = shift + h * (offset + np.arange(len(acc)))
    # delta(z_i) = sum_{l > i} c_l (1 - e^{z_i - z_l}) + inf, from the right
    s0 = np.concatenate([np.cumsum(acc[::-1])[::-1][1:], [0.0]])
    with np.errstate(divide="ignore"):
        a = np.log(acc) - z
    lse = np.concatenate([np.logaddexp.accumulate(a[::-1])[::-1][1:], [-np.inf]])
    prof = s0 - np.exp(lse + z) + inf
    above = np.flatnonzero(prof > delta)
    return float(z[above[-1]] + h) if len(above) else float(z[0])


__all__ = ["TiltedPLD", "float_eps_estimate", "saddle_tilt", "tilted_convolve", "weights"]
