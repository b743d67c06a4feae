"""Certified PLD composition in the Fourier domain: one forward FFT per part, a pointwise power,
one inverse FFT, on exponentially tilted masses, with an l1 error budget.

Inputs: the one-step upper (or lower) :class:`~.discrete.DiscretePLD` of every part ``j`` (exact
masses ``x_i = poly[i] 2^-B`` at losses ``shift_j + i h``, an atom at ``+inf``) and its number of
steps ``k_j``; ``K = sum_j k_j``. Composition is convolution ([S22] Steinke, arXiv 2210.00597v4,
Sec. 3); FFT accounting of PLDs follows Koskela, Jalko, Honkela, arXiv 1906.03049 (v1 read).
Here every step of the float computation carries a proven bound, so the result is an enclosure.
All indices below are grid indices: the composed index ``I`` has loss ``S0 + I h``,
``S0 = sum_j k_j shift_j``.

1. **Tilt** by ``lam >= 0`` (any value is rigorous, only the accuracy depends on it):
   ``y_i = x_i e^{lam h i} s_j`` with a float scale ``s_j ~ 1 / sum_i x_i e^{lam h i}``.
   Computed: ``x^_i = fl(fl(x_i W_i) s_j)``, ``W_i`` from :func:`.tilted.weights` (relative
   error ``alpha``, proven in arb), ``x_i`` converted from its integer (relative ``u``). So
   ``x^_i = y_i (1 + d_i) + e_i``, ``|d_i| <= a_j = (1 + u)^3 (1 + alpha) - 1`` (Higham 2002,
   Sec. 2.2) and ``|e_i| <= 2^-1074`` (underflow). The vectors are folded modulo the FFT length
   ``n`` (sums of nonnegative floats: relative ``gamma_r``, ``r`` the number of terms, Higham
   Sec. 3.1; folding commutes with circular convolution). Every composed coefficient is a
   polynomial with nonnegative coefficients of degree ``K`` in the inputs, so the exact circular
   composition ``f^`` of the computed folded vectors satisfies ``fold(g) (1 - a)^K <= f^ <=
   fold(g) (1 + a)^K`` (``g``: composition of the ``y``), plus an l1 term ``eta_in`` for the
   ``e_i``: ``||(F + e)^{*} - F^{*}||_1 <= prod_j (||F_j|| + ||e_j||)^{k_j} - prod_j
   ||F_j||^{k_j}``. The true composed masses are ``c_I = C e^{-lam h I} g_I``, ``C = prod_j
   s_j^{-k_j}`` (in arb). The ``+inf`` atoms compose separately: ``prod_j T_j^{k_j} - prod_j
   F_j^{k_j}`` (T total, F finite mass; exact integers, arb).
2. **Forward FFT** (``numpy.fft.rfft``, pocketfft, length ``n = 2^p``). Higham's proof of
   Thm 24.2 (Sec. 24.1) writes the computed transform as ``(A_p + dA_p)...(A_1 + dA_1) x`` with
   ``|dA_l| <= eta |A_l|`` componentwise and ``|A_p|...|A_1|`` the all-ones matrix (up to the
   bit-reversal permutation), so every coefficient has ``|X^_j - X_j| <= ((1 + eta)^p - 1)
   ||x||_1 <= e' = e_n ||x||_1`` with ``e_n`` = :func:`.fft.fft_error_factor` (which includes
   ``SAFETY``): **the same declared assumption about pocketfft as** :mod:`.fft` (weight error
   ``MU_ULPS u``; the mixed-radix real transform within ``SAFETY`` times the radix-2 bound).
3. **Power** ``P_j = X_j^{k_j}`` by binary powering with complex products (Higham Lemma 3.5:
   relative error ``g = sqrt 2 gamma_2`` each, with or without FMA; ``m <= 2 log2 k``
   products): ``|P^ - X^^k| <= ((1 + g)^m - 1) |X^|^k``; and ``|X^^k - X^k| <= k e'
   (|X^| + e')^{k-1}``. Subnormal results add at most ``4 2^-1074`` per product, propagated by
   factors of modulus at most ``G = max(1, max|X^| + e')^k (1 + g)^m``. Parts multiply with
   the product rule ``|prod P^ - prod P| <= sum_j D_j prod_{l != j} (|P^_l| + D_l)`` plus the
   rounding of the ``J - 1`` products. A coefficient whose bound ``r_j = |X^_j| + e'``
   (rounded up) is at most ``c = 2^(-CUT_BITS / k_j)`` is not powered: ``P^_j = 0`` with
   ``D_j = c^k`` (rounded up), since ``|X_j^k| <= r_j^k <= c^k``; on the long windows of
   large k almost every coefficient is such (only the few others are powered), and ``c^k
   <= 2^-200`` is far below every other term. Every such bound is evaluated in floats rounded
   upward (after every operation at least one float up, :func:`.fourier_pld._up_nonneg`,
   every operand being a magnitude; ``|z|`` from ``re^2 + im^2`` and the correctly
   rounded ``sqrt``; no libm function enters a bound).
4. **Inverse FFT and the l1 budget**: ``||v - f^||_1 <= sqrt n ||v - f^||_2 <= ||D||_2 + e_n
   ||Y^||_2`` (``F^-1`` has 2-norm ``n^-1/2``; Higham Thm 24.2 for the inverse transform,
   same assumption), the norms over the full Hermitian spectrum. The window ``[o, o + n)``
   (index ``o + t`` read at position ``t``): the tilted mass of ``g`` outside it (aliased
   onto it, where it only ever adds) is bounded by Chernoff, ``sum_{I >= T} g_I <= prod_j
   Y_j(e^th)^{k_j} e^{-th T}``, ``th > 0``, and the left side with ``e^{-th}``, each ``Y_j``
   enclosed from the ``x^`` (weights of :func:`.tilted.weights`, ``gamma_L`` for the sum)
   and divided by ``(1 - a)^{k_j}``. The tilted laws are skewed (measured: scenario B's add
   direction has a left tail of e^-76 at 2.7 standard deviations, a right one needing ~20),
   so ``o`` is the highest start whose left tail is negligible and ``n`` the least power of
   2 whose right tail is (a locator: float upper estimates of the log-MGFs on a grid of
   ``th``, from blocks of consecutive entries by Bennett's lemma; only the exponent ``th`` of
   each bound comes from it); ``n`` doubles until the rigorous tails sum to at most ``TAIL``
   (:mod:`.fourier_window`).
5. **Queries** without untilting: ``delta(eps) = C sum_I g_I m_I + inf``, ``m_I = e^{-lam h I}
   (1 - e^{eps - z_I})_+ <= B0 = e^{-lam h I0}``, ``I0`` the first index with ``z_I > eps``.
   With ``B0`` factored out, ``m'_t = e^{-lam h (t - t0)} (1 - rho e^{-h (t - t0)})`` in
   ``[0, 1]`` is computed from rigorous weight tables (absolute error ``beta``), the dot
   product with ``gamma_n`` (Higham Sec. 3.1); the eps search reads the same sum, over the
   clipped window ``max(v, 0)`` (as ``f^ >= 0``, clipping keeps the bound on ``v - f^``), off
   two suffix sums with rounding relative to each (:mod:`.fourier_pld`, "Query table").
   Upper: ``C B0 [(dot + beta' ||v||_1 + eta_c)
   / (1 - a)^K + R] + inf``; lower: ``C B0 [(dot - beta' ||v||_1 - eta_c) / (1 + a)^K - L - R]
   + inf`` (the aliased mass only ever adds to the window). ``eta_c = eta_in + |sum_{t >= t0}
   (v_t - f^_t) m'_t|``, the second term by Cauchy-Schwarz at most ``||v - f^||_2 ||m'||_2 <=
   (eta_T / sqrt n) sqrt(min(n - t0, 1 + 1 / (2 lam h)))`` (``eta_T = ||D||_2 + e_n ||Y^||_2``
   of step 4; ``0 <= m'_t <= e^{-lam h (t - t0)}``, so ``||m'||_2^2 <= 1 / (1 - e^{-2 lam h})
   <= 1 + 1 / (2 lam h)`` as ``1 - e^{-x} >= x / (1 + x)``): the query weights decay over
   ``~1 / (lam h)`` positions, so the transform errors count ``sqrt(1 / (2 lam h n))`` of
   their l1 bound ``eta_T`` (measured: 0.06 on scenario C, 0.02 on B's add direction, whose
   width lost the ~35 % the l1 form added at 1e-5). A query below the window's first
   loss returns the trivial bound (1 upper, 0 lower), never a wrong number; far from the
   tilt a bound is legal but loose. ``eps(delta)``: candidates at growing offsets from a
   float locator, then bisection between the last failure and the first success of the
   certified predicate (the true profile is monotone; the bound need not be).

The tilt is the saddle point of the query (:func:`.log_mgf.fourier_tilt`), or below it where
the window halves within an error budget (:mod:`.fourier_cost`: a choice for cost, step 1);
without a previous pass the query's eps is located by the RDP-style conversion of the composed
log-MGF (:func:`.log_mgf.chernoff_eps`), which needs no convolution of the whole composition.
A float model of the composition (``model``, :class:`FourierModel`, for :mod:`.predict`) runs
the same steps 1-4 on the same window with the error bookkeeping skipped; it bounds nothing.

References: N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM 2002,
Sec. 2.2, 3.1, Lemma 3.5, Sec. 24.1 Thm 24.2 and its proof; A. Koskela, J. Jalko, A. Honkela,
arXiv 1906.03049 (FFT accounting); [S22] T. Steinke, arXiv 2210.00597v4, Sec. 3.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import (
    Number,
    _arb,
    float_outward,
)
from dpverify.theorems.numerics.pld.discrete import DiscretePLD
from dpverify.theorems.numerics.pld.fft import (
    TINY,
    U,
    _gamma,
    fft_error_factor,
)
from dpverify.theorems.numerics.pld.fourier_pld import (
    _PREC,
    _UP_FACTOR,
    FourierPLD,
    _sum_up,
    _up_nonneg,
)
from dpverify.theorems.numerics.pld.fourier_window import (
    _mean,
    _Part,
    _window,
)
from dpverify.theorems.numerics.pld.log_mgf import chernoff_eps, fourier_tilt
from dpverify.theorems.numerics.pld.tilted import weights

CUT_BITS = 200  # a coefficient with |X^_j| + e' <= 2^(-CUT_BITS / k) is not powered: its k-th
#                 power is at most 2^-CUT_BITS (counted as error; step 3)


def _rel_up(base: float, power: int) -> float:
    """``(1 + base)^power - 1`` rounded up (exact rationals for small powers)."""
    if power <= 64:
        return float_outward((1 + Fraction(base)) ** power - 1, True)
    with arb_precision(_PREC):
        return float(((_arb(Fraction(base)) + 1) ** power - 1).upper()) * (1 + 4 * U)


def _abs_up(z: np.ndarray) -> np.ndarray:
    """An upper bound of ``|z|``: ``up(sqrt(up(up(re^2) + up(im^2))))``, ``up`` =
    :func:`.fourier_pld._up_nonneg` (the same operations, in place on two arrays)."""
    sq, im = np.multiply(z.real, z.real), np.multiply(z.imag, z.imag)
    for v in (sq, im):
        _up_in_place(v)
    sq += im
    del im
    _up_in_place(sq)
    np.sqrt(sq, out=sq)
    return _up_in_place(sq)


def _up_in_place(v: np.ndarray) -> np.ndarray:
    """:func:`.fourier_pld._up_nonneg` of ``v >= 0``, in place (the same two operations)."""
    v *= _UP_FACTOR
    v += 2.0**-1074
    return v


def _pow_up(r: np.ndarray, k: int) -> np.ndarray:
    """An upper bound of ``r^k`` for ``r >= 0`` (binary powering, each product rounded up)."""
    out = np.ones_like(r)
    base = r.copy()
    while k:
        if k & 1:
            out = _up_nonneg(out * base)
        k >>= 1
        if k:
            base = _up_nonneg(base * base)
    return out


def _power(z: np.ndarray, k: int) -> tuple[np.ndarray, int]:
    """``z^k`` by binary powering and the number of complex products."""
    out, base, m = None, z, 0
    while True:
        if k & 1:
            if out is None:
                out = base
            else:
                out, m = out * base, m + 1
        k >>= 1
        if not k:
            break
        base, m = base * base, m + 1
    assert out is not None
    return out, m


def _norm2_up(v: np.ndarray) -> float:
    """An upper bound of the 2-norm of the full Hermitian spectrum of the half spectrum ``v >=
    0`` (real rfft length ``n`` even: bins 0 and n/2 once, the others twice)."""
    sq = _up_nonneg(v * v)
    s = _sum_up(sq[1:-1]) * 2 + float(sq[0]) + float(sq[-1])
    return float(_up_nonneg(math.sqrt(_up_nonneg(s * (1 + 4 * U)))))


def _tilted_part(one: DiscretePLD, k: int, lam_h: Fraction) -> _Part:
    if one.B > 1000:
        raise PrecisionExhausted("mass units below 2^-1000 do not fit float64")
    x = np.ldexp(one.unit_floats(), -one.B)  # nearest floats: relative error u
    if not len(x) or float(np.sum(x)) <= 0:
        raise PrecisionExhausted("a part has no finite mass")
    w, alpha = weights(lam_h, len(x))
    t = x * w
    s = 1.0 / float(np.sum(t))
    xh = t * s
    a = float_outward((1 + Fraction(U)) ** 3 * (1 + Fraction(alpha)) - 1, True)
    under = bool(np.any((x > 0) & (xh < 2.0**-1022)))
    return _Part(xh, s, a, k, under)


def _inf_mass(ones: Sequence[tuple[DiscretePLD, int]]) -> flint.arb:
    with arb_precision(_PREC):
        total = finite = flint.arb(1)
        for one, k in ones:
            unit = flint.arb(2) ** (-one.B)
            fin = _arb(one.total_units() - one.inf) * unit  # without building the poly
            total *= (fin + _arb(int(one.inf)) * unit) ** k
            finite *= fin ** k
        return total - finite


class _Errors:
    """The error bookkeeping of :func:`compose_fourier` (steps 1-4): the relative error ``a``,
    the l1 term ``eta_in`` of the underflowed inputs, and per part the bound ``D_j`` of its
    powered spectrum and ``|P^_j|``; ``eta_T`` at the end (:meth:`eta`)."""

    def __init__(self, parts: Sequence[_Part], n: int) -> None:
        self.a = max(p.a for p in parts)
        self.g = math.sqrt(2) * _gamma(2)
        self.e_n = fft_error_factor(n)
        self.pieces: list[tuple[np.ndarray, np.ndarray]] = []  # (|P^_j| upper, D_j)
        self.norms_t, self.norms_f = flint.arb(1), flint.arb(1)

    def magnitudes(self, p: _Part, rows: int, folded: np.ndarray, x: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, float]:
        """``(|X^_j| up, r_j, e')`` of the part's spectrum ``x`` (``r_j >= |X_j|, |X^_j|``);
        records the fold's relative error and the l1 norms of step 1."""
        self.a = max(self.a, float_outward(
            (1 + Fraction(p.a)) * (1 + Fraction(_gamma(rows + 1))) - 1, True))
        l1 = _sum_up(folded)
        under = len(p.xh) * TINY if p.underflow else 0.0
        with arb_precision(_PREC):
            self.norms_t *= _arb(Fraction(l1 + under)) ** p.k
            self.norms_f *= _arb(Fraction(l1)) ** p.k
        e1 = self.e_n * l1
        ax = _abs_up(x)
        return ax, _up_nonneg(ax + e1), e1

    def power(self, p: _Part, ax: np.ndarray, r: np.ndarray, e1: float, keep: np.ndarray,
              pws: np.ndarray, m: int) -> None:
        """Records ``D_j`` (step 3; ``c^k`` where not powered) and ``|P^_j|`` (0 there)."""
        cut_k = float(_pow_up(np.array([_cut(p.k)]), p.k)[0])
        axs = ax[keep]
        gm = _rel_up(self.g, m)
        grow = float(_up_nonneg(max(1.0, float(np.max(ax)) + e1)))
        big = float(_up_nonneg(float(_pow_up(np.array([grow]), p.k)[0]) * (1 + gm)))
        near = _pow_up(r[keep], p.k - 1)  # also bounds |X^|^(k-1)
        ds = _up_nonneg(_up_nonneg(p.k * e1) * near)
        ds = _up_nonneg(ds + _up_nonneg(gm * _up_nonneg(near * axs)) + m * 4 * TINY * big)
        d = np.full(len(ax), cut_k)
        d[keep] = ds
        apw = np.zeros(len(ax))
        apw[keep] = _abs_up(pws)
        self.pieces.append((apw, d))

    def eta_in(self) -> float:
        with arb_precision(_PREC):
            eta_in = (self.norms_t - self.norms_f).upper()
        return float(_up_nonneg(float(eta_in)))  # eta_in: an exact upper end, >= 0

    def eta(self, spectrum: np.ndarray) -> float:
        """``eta_T`` of step 4: the product rule over the parts and the inverse transform."""
        pieces = self.pieces
        total_d = np.zeros(len(spectrum))
        for j, (_aj, dj) in enumerate(pieces):
            term = dj
            for l_, (al, dl) in enumerate(pieces):
                if l_ != j:
                    term = _up_nonneg(term * _up_nonneg(al + dl))
            total_d = _up_nonneg(total_d + term)
        if len(pieces) > 1:
            prod_a = pieces[0][0]
            for al, _dl in pieces[1:]:
                prod_a = _up_nonneg(prod_a * al)
            total_d = _up_nonneg(total_d + _up_nonneg(_rel_up(self.g, len(pieces) - 1)
                                                      * prod_a))
        nz = np.flatnonzero(spectrum)  # the coefficients not powered are exact zeros: |0| = 0
        a_spec = np.zeros(len(spectrum))
        a_spec[nz] = _abs_up(spectrum[nz])
        return float(_up_nonneg(_norm2_up(total_d) + _up_nonneg(self.e_n * _norm2_up(a_spec))))


def _cut(k: int) -> float:
    """``c = 2^(-CUT_BITS / k)``: a coefficient at most ``c`` in modulus is not powered (its
    k-th power is at most ``c^k``; step 3). Any float: the bound is ``c^k``, rounded up."""
    return 2.0 ** (-CUT_BITS / k)


def _folded(xh: np.ndarray, n: int) -> tuple[np.ndarray, int]:
    """``xh`` folded modulo ``n`` (sums of its rows of length ``n``) and the number of rows."""
    rows = -(-len(xh) // n)
    folded = np.zeros(rows * n)
    folded[:len(xh)] = xh
    return (folded.reshape(rows, n).sum(axis=0) if rows > 1 else folded), rows


class FourierModel(FourierPLD):
    """A float model of a composition (:func:`compose_fourier` with ``model``; the float model
    of a pass, :mod:`.predict`): the window of the same tilt, fold, transforms, power and
    inverse, with every error term taken as 0, so it bounds nothing. Its float locator
    (:meth:`eps_float`) and the midpoints of its ``delta_at`` balls are the model's
    estimates: each ball has an infinite radius, so no certified comparison can hold on it;
    :meth:`eps_bound` (a certified query) raises."""

    def eps_bound(self, delta: Number, lower_limit: Fraction = Fraction(0)) -> Fraction:
        raise TypeError("a float model of a composition certifies nothing")

    def delta_at(self, eps: Fraction) -> flint.arb:
        return flint.arb(super().delta_at(eps).mid(), math.inf)


def _inf_mass_float(ones: Sequence[tuple[DiscretePLD, int]]) -> float:
    """The float ``prod_j T_j^{k_j} - prod_j F_j^{k_j}`` (total and finite masses) as
    ``-T expm1(sum_j k_j log1p(-inf_j / T_j))``: no cancellation."""
    log_t = log_ratio = 0.0
    for one, k in ones:
        fin = float(np.sum(one.unit_floats()))
        total = fin + float(one.inf)
        if total <= 0:
            return 0.0
        log_t += k * (math.log(total) - one.B * math.log(2))
        log_ratio += k * math.log1p(-float(one.inf) / total)
    return -math.exp(log_t) * math.expm1(log_ratio)


def compose_fourier(ones: Sequence[tuple[DiscretePLD, int]], lam: Fraction,
                    model: bool = False, window: tuple[int, int] | None = None
                    ) -> FourierPLD:
    """The composition of the one-step PLDs ``ones`` (``(pld, k)``, one kind and grid)
    tilted by ``lam`` (per unit of loss, a dyadic >= 0), see the module docstring; with
    ``model``, its float model (:class:`FourierModel`: the same computation of the window,
    the error bookkeeping of :class:`_Errors`, the Chernoff tails in arb and the exact
    ``+inf`` atom skipped; B's add direction ~0.0144 -> ~0.009 s); a model may be given its
    ``window`` ``(o, n)`` (e.g. the upper model's for the lower one: no locator)."""
    kinds = {(one.kind, one.h) for one, _k in ones}
    if len(kinds) != 1:
        raise ValueError("only PLDs of the same kind and grid compose")
    kind, h = kinds.pop()
    lam_h = lam * h
    parts = [_tilted_part(one, k, lam_h) for one, k in ones]
    if model and window is not None:  # o clamped to the composition
        o, n, left, right = window[0], window[1], flint.arb(0), flint.arb(0)
        o = max(0, min(o, sum(p.k * (len(p.xh) - 1) for p in parts) + 1 - n))
    else:
        o, n, left, right = _window(parts, _mean(parts), model)
    errors = None if model else _Errors(parts, n)
    spectrum = None
    for p in parts:
        folded, rows = _folded(p.xh, n)
        x = np.fft.rfft(folded)
        if errors is None:
            ax = r = np.abs(x)
            e1 = 0.0
        else:
            ax, r, e1 = errors.magnitudes(p, rows, folded, x)
        del folded
        # negligible coefficients: where r <= cut, |X^k| <= cut^k; their power is taken as 0
        # (with the error cut^k, step 3)
        keep = np.flatnonzero(r > _cut(p.k))
        pws, m = _power(x[keep], p.k)
        if errors is not None:
            errors.power(p, ax, r, e1, keep, pws, m)
        del x, ax, r
        pw = np.zeros(n // 2 + 1, dtype=complex)
        pw[keep] = pws
        spectrum = pw if spectrum is None else spectrum * pw
        del pw, pws
    assert spectrum is not None
    eta = 0.0 if errors is None else errors.eta(spectrum)
    values = np.roll(np.fft.irfft(spectrum, n), -(o % n))
    with arb_precision(_PREC):
        log_c = -_arb(lam_h * o)
        for p in parts:
            log_c -= _arb(Fraction(p.scale)).log() * p.k
    shift = sum((one.shift * k for one, k in ones), Fraction(0))
    k_all = sum(p.k for p in parts)
    if errors is None:
        return FourierModel(kind, h, shift + o * h, lam_h, values, log_c, 0.0, k_all, 0.0,
                            left, right, flint.arb(_inf_mass_float(ones)))
    return FourierPLD(kind, h, shift + o * h, lam_h, values, log_c, errors.a, k_all, eta, left,
                      right, _inf_mass(ones), errors.eta_in())


__all__ = ["FourierModel", "FourierPLD", "chernoff_eps", "compose_fourier", "fourier_tilt"]
