"""The window of a Fourier composition (:mod:`.fourier`, step 4): the float locator of the
tilted composition's tails (:class:`_Chernoff`, from blocks of consecutive entries by Bennett's
lemma, :func:`_locate`), the float model's shorter windows (:func:`_model_length`) and the
rigorous Chernoff bounds of the aliased mass outside the window (:meth:`_Chernoff.tail`,
:func:`_window`, at most ``TAIL``). The error analysis is step 4 of :mod:`.fourier`'s
docstring; only the exponent of each bound and the window's placement come from floats."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import _arb, _dyadic_floor, fdot
from dpverify.theorems.numerics.pld.fft import MAX_LENGTH, TINY, U
from dpverify.theorems.numerics.pld.fourier_pld import _PREC, _sum_up, _up_nonneg
from dpverify.theorems.numerics.pld.log_mgf import _log_support
from dpverify.theorems.numerics.pld.tilted import MAX_EXPONENT, weights

TAIL = 2.0**-45  # aliased tilted mass allowed outside the window (l1, vs masses ~ 1)


@dataclass
class _Part:
    """One part, tilted and scaled: ``xh`` (unfolded floats), ``scale`` = ``s_j``, ``a`` its
    componentwise relative error, ``k`` its steps."""

    xh: np.ndarray
    scale: float
    a: float
    k: int
    underflow: bool



def _mean(parts: Sequence[_Part]) -> float:
    """The float mean (index units) of the tilted composition (a locator)."""
    return sum(p.k * fdot(p.xh, np.arange(len(p.xh), dtype=float))
               / float(np.sum(p.xh)) for p in parts)


def _mgf_up(xh: np.ndarray, theta: Fraction) -> float:
    """An upper bound of ``sum_i xh_i e^{theta i}``."""
    w, alpha = weights(theta, len(xh))
    under = len(xh) * TINY * math.exp(MAX_EXPONENT)  # the underflowed e_i of step 1
    return float(_up_nonneg(_sum_up(xh * w) * (1 + alpha) * (1 + 2 * U) + under))


def _variance(xh: np.ndarray) -> float:
    """The float variance of the index under the normalised masses ``xh`` (a locator)."""
    idx = np.arange(len(xh), dtype=float)
    total = float(np.sum(xh))
    mean = fdot(xh, idx) / total
    idx -= mean
    return max(fdot(xh, idx * idx) / total, 0.0)


BLOCK_SPREAD = 8  # locator blocks span at most 1 / BLOCK_SPREAD of a part's tilted std


def _blocks(xh: np.ndarray, var: float | None = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """``(log Y_B, c_B, v_B, w)`` over the blocks ``B`` of ``b`` consecutive entries with
    positive mass: ``Y_B`` the block's mass, ``c_B`` its centroid (a float index), ``v_B`` the
    variance of the index under the block's normalised masses, ``w = b - 1`` the width of every
    block; ``b`` the largest power of 2 at most ``1 / BLOCK_SPREAD`` of the tilted one-step
    standard deviation (``b = 1``: the entries themselves, ``c_B = i``, ``v_B = 0``); ``var``,
    if given, is that variance (:func:`_variance`)."""
    std = math.sqrt(_variance(xh) if var is None else var)
    b = 1 << max(0, math.floor(math.log2(max(std / BLOCK_SPREAD, 1.0))))
    if b == 1:
        lv, pos = _log_support(xh)
        return lv, pos, np.zeros(len(lv)), 0.0
    rows = -(-len(xh) // b)
    y = np.zeros(rows * b)
    y[:len(xh)] = xh
    y = y.reshape(rows, b)
    mass = y.sum(axis=1)
    pos = np.flatnonzero(mass > 0)
    j = np.arange(b, dtype=float)
    m, y = mass[pos], y[pos]
    first = np.sum(y * j, axis=1) / m  # the centroid within the block (no BLAS: _arith.fdot)
    var = np.maximum(np.sum(y * (j * j), axis=1) / m - first * first, 0.0)
    return np.log(m), pos.astype(float) * b + first, var, float(b - 1)


Blocks = tuple[int, int, np.ndarray, np.ndarray, np.ndarray, float]  # k, span, lv, c, v, w


class _Chernoff:
    """Float upper estimates of the log-MGFs of the tilted composition on a grid of exponents
    (a locator for the window and the exponent of each tail bound; the bound itself is
    :meth:`tail`). Computed on blocks of consecutive entries (:func:`_blocks`): within a
    block the index ``X`` (under the block's normalised masses) has ``|X - c_B| <= w``, so by
    Bennett's lemma (G. Bennett, JASA 57 (1962), eq. 8; Boucheron, Lugosi, Massart,
    *Concentration Inequalities*, OUP 2013, Thm 2.9's proof) ``log sum_{i in B} y_i
    e^{+-th i} <= log Y_B +- th c_B + v_B phi(th w) / w^2``, ``phi(x) = e^x - 1 - x``: the
    log-sum-exp of these over the blocks bounds a part's log-MGF from above (in exact
    arithmetic; second order ``th^2 v_B / 2``, the entries' own spread), so the locator never
    places the window tighter than the entries would, at ``1 / b`` of their exponentials."""

    def __init__(self, parts: Sequence[_Part], variances: Sequence[float] | None = None,
                 keep: tuple[float, float] | None = None,
                 blocks: Sequence[Blocks] | None = None) -> None:
        """``variances``: the parts' one-step variances if known (:func:`_variance`); ``keep``:
        only the grid exponents in ``[lo, hi]`` (a coarser locator, for probes); ``blocks``:
        each part's ``(k, span, lv, c, v, w)`` given (as :func:`_blocks`; a locator of laws
        known by their blocks only, without :meth:`tail`), instead of the ``parts``'."""
        self.parts = parts
        if blocks is None:
            blocks = [(p.k, len(p.xh) - 1,
                       *_blocks(p.xh, None if variances is None else variances[j]))
                      for j, p in enumerate(parts)]
        span = max(b[1] for b in blocks) + 1
        self.thetas = (MAX_EXPONENT / max(span - 1, 1)) * 2.0 ** (-np.arange(48) / 2)
        if keep is not None:
            inside = self.thetas[(self.thetas >= keep[0]) & (self.thetas <= keep[1])]
            self.thetas = inside if len(inside) else self.thetas[-1:]
        self.right = np.zeros(len(self.thetas))  # log sum_I g_I e^{th I}, from above
        self.left = np.zeros(len(self.thetas))  # log sum_I g_I e^{-th I}, from above
        for k, _span, lv, idx, var, w in blocks:
            e = np.empty(len(lv))  # one scratch array: the same float operations in place
            for i, th in enumerate(self.thetas.tolist()):
                x = th * w
                phi = math.expm1(x) - x if x > 0 else 0.0
                spread = lv + var * (phi / (w * w)) if phi > 0 else lv
                for sign, out in ((1.0, self.right), (-1.0, self.left)):
                    np.multiply(idx, sign * th, out=e)
                    e += spread
                    top = float(e.max())
                    e -= top
                    np.exp(e, out=e)
                    out[i] += k * (top + math.log(float(e.sum())))

    def log_bound(self, at: int, right: bool) -> tuple[float, float]:
        """The least float log-bound over the grid of the mass at ``>= at`` (``right``) or
        ``< at``, and its exponent."""
        vals = self.right - self.thetas * at if right else self.left + self.thetas * (at - 1)
        i = int(np.argmin(vals))
        return float(vals[i]), float(self.thetas[i])

    def tail(self, at: int, right: bool) -> flint.arb:
        """A Chernoff bound of the mass of ``g`` (the composition of the exact tilted ``y``)
        at indices ``>= at`` (``right``) or ``< at``, enclosed in arb (step 4)."""
        theta = _dyadic_floor(self.log_bound(at, right)[1], 40)
        if theta <= 0:
            return flint.arb(1)
        with arb_precision(_PREC):
            log_b = -_arb(theta) * at if right else _arb(theta) * (at - 1)
            for p in self.parts:
                v = p.xh if right else p.xh[::-1]
                m = _arb(Fraction(_mgf_up(v, theta))).log()
                if not right:
                    m -= _arb(theta) * (len(p.xh) - 1)
                log_b += (m - (1 - _arb(Fraction(p.a))).log()) * p.k
            return log_b.exp()


def _locate(total: int, ch: _Chernoff, mean: float) -> tuple[int, int]:
    """The float locator's window ``(o, n)`` of a composition on indices ``0 .. total`` with
    tilted mean ``mean``: ``o`` the highest start whose left tail is within a quarter of
    ``TAIL`` (the tilted laws are skewed), ``n`` the least power of 2 whose right tail is too
    (at most the power of 2 covering the whole composition)."""
    cap = 1 << max(6, math.ceil(math.log2(total + 1)))
    if cap <= 1 << 12:
        return 0, cap
    goal = math.log(TAIL / 4)
    lo, hi = 0, max(0, min(math.floor(mean), total))
    if ch.log_bound(hi, False)[0] <= goal:
        lo = hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ch.log_bound(mid, False)[0] <= goal else (lo, mid)
    o, n = lo, 64
    while n < cap and o + n <= total and ch.log_bound(o + n, True)[0] > goal:
        n *= 2
    return o, n


MODEL_LENGTHS = (5, 6)  # eighths of the locator's power of 2 a model's window may take instead:
#   pocketfft's radices 5 and 3 (measured, rfft + irfft: 0.44 and 0.68 of the CPU at 2^18)


def _model_length(o: int, n: int, total: int, ch: _Chernoff) -> int:
    """A float model's window length: the least of ``MODEL_LENGTHS`` eighths of the locator's
    ``n`` (a power of 2) and ``n`` itself whose right tail is within ``TAIL`` (so the model's
    aliased mass is at most ``TAIL`` on each side, as the rigorous window's total; on scenario
    B ~1e-12 of a query's tilted sum), from the same float locator."""
    if n <= 1 << 12:
        return n
    for eighths in MODEL_LENGTHS:
        m = n // 8 * eighths
        if o + m > total or ch.log_bound(o + m, True)[0] <= math.log(TAIL):
            return m
    return n


def _window(parts: Sequence[_Part], mean: float, model: bool = False
            ) -> tuple[int, int, flint.arb, flint.arb]:
    """``(o, n, left, right)``: the window and the Chernoff tails outside it: the locator's
    (:func:`_locate`), ``n`` doubled until the rigorous tails sum to at most ``TAIL``; for a
    ``model``, the locator's window and no tails (0: the model bounds nothing)."""
    total = sum(p.k * (len(p.xh) - 1) for p in parts)
    ch = _Chernoff(parts)
    o, n = _locate(total, ch, mean)
    if model:
        n = _model_length(o, n, total, ch)
        if n > MAX_LENGTH:
            raise PrecisionExhausted(f"a Fourier window would hold more than {MAX_LENGTH} "
                                     f"points")
        return max(0, min(o, total + 1 - n)), n, flint.arb(0), flint.arb(0)
    while True:
        if n > MAX_LENGTH:
            raise PrecisionExhausted(f"a Fourier window would hold more than {MAX_LENGTH} "
                                     f"points")
        o = max(0, min(o, total + 1 - n))
        left = ch.tail(o, False) if o > 0 else flint.arb(0)
        right = ch.tail(o + n, True) if o + n <= total else flint.arb(0)
        if (left + right).upper() <= TAIL or (o == 0 and o + n > total):
            return o, n, left, right
        n *= 2
