"""Fast certified composition of discrete PLDs: float64 FFT convolution with an a-priori bound.

:class:`FloatPLD` holds the masses of an upper or lower discrete PLD as float64 numbers (each an
exact dyadic rational, read as the mass itself). Composition convolves them by a real FFT
(``numpy.fft.rfft`` / ``irfft``, pocketfft) and then rounds **outward** by a proven bound on the
round-off: the upper PLD's masses get ``+ E`` (so no coefficient can be below the exact
convolution of its inputs), the lower PLD's masses get ``- E`` and are floored at 0. Every
hockey-stick value ``sum_z m(z) (1 - e^{eps - z})_+ + m(+inf)`` of a composition is a polynomial
with nonnegative coefficients in the masses of its factors, hence monotone in every mass: a PLD
whose masses dominate (are dominated by) the exact masses of a dominating pair (of a
post-processing) still bounds every profile from above (below). So the construction of
:mod:`.discretize` stays as it is and only the convolution changes.

Error analysis (the bound ``E`` of :func:`convolution_error_bound`)
---------------------------------------------------------------------
``c = x * y`` is computed as ``c^ = fl(n^-1 F* fl(fl(F x) . fl(F y)))`` with zero padding to
``n = 2^p >= len(x) + len(y) - 1``, ``F`` the unnormalised DFT (``F/sqrt n`` is unitary).

1. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM 2002, Sec. 24.1,
   Theorem 24.2: for the radix-2 Cooley-Tukey FFT with computed weights ``|w^ - w| <= mu``,
   ``||y^ - y||_2 <= (p eta / (1 - p eta)) ||y||_2`` with ``eta = mu + gamma_4 (sqrt 2 + mu)``,
   ``gamma_m = m u / (1 - m u)``, ``u = 2^-53``. Call this factor ``e_n``. We use it with the
   pessimistic weight error ``mu = 4u`` (pocketfft computes its twiddles by an accurate sin/cos
   routine, well within 1 ulp) and multiply ``e_n`` by ``SAFETY = 4``, because pocketfft is a
   mixed-radix (4, 2, 3, 5) real transform rather than the complex radix-2 algorithm of the
   theorem: a radix-4 butterfly is two radix-2 levels with fewer roundings, and a real
   transform of length n is a complex one of length n/2 plus one twiddle pass (one more level,
   absorbed by ``p = ceil(log2 n)`` levels and the factor 4). **This transfer of Theorem 24.2 to
   pocketfft is an assumption about the library, not a proof**; the tests check the bound
   against the exact ``fmpz_poly`` path. Brisebarre, Joldes, Muller, Nanes, Picot, *Error
   analysis of some operations involved in the Cooley-Tukey FFT*, ACM TOMS 46(2), 2020, give
   sharper constants of the same form (our ``e_n`` is looser than theirs).
2. Higham Lemma 3.5: a complex product has ``|fl(ab) - ab| <= sqrt 2 gamma_2 |a||b|``.
3. With ``X = F x``, ``||X||_2 = sqrt n ||x||_2`` and ``||X||_inf <= ||x||_1``, the errors
   ``X^ = X + E_x``, ``||E_x||_2 <= e_n sqrt n ||x||_2`` (same for y), the product and the
   inverse transform (the scaling by ``1/n = 2^-p`` is exact) give
   ``||c^ - c||_inf <= ||c^ - c||_2 <= e_n (||x||_2 ||y||_1 + ||x||_1 ||y||_2)
   + e_n^2 sqrt n ||x||_2 ||y||_2 + (g + e_n (1 + g)) (1 + e_n) ||x||_2 (||y||_1 + e_n sqrt n
   ||y||_2)``, ``g = sqrt 2 gamma_2`` (and the same with x, y swapped; we take the smaller).
   The norms are computed in floating point and enlarged by ``(1 + (n + 2) u)`` (Higham
   Sec. 3.1, any summation order); the whole bound is doubled to cover its own evaluation, and
   an absolute ``8 n p 2^-1074`` covers subnormal underflow in the transforms.

So ``E ~ 3 SAFETY p (4 + 4 sqrt 2) u ||x||_2`` for probability vectors. It is absolute, the same
for every coefficient: where the masses are far below it (deep tails) the upper PLD's
coefficient becomes ``[0, E]`` and is counted as ``E`` (mass is never lost), the lower PLD's
becomes 0. Short factors (``min(len) <= DIRECT_MAX``) are convolved directly instead
(``numpy.convolve``), whose error is componentwise relative: ``|c^_k - c_k| <= gamma_m c_k``
for nonnegative data, ``m = min(len(x), len(y))`` (Higham Sec. 3.1, inner products), so small
masses keep their accuracy there. Repeated squaring applies the bound at every product, to the
already rounded factors, so errors propagate by construction. Tails are trimmed as in
:class:`~.discrete.DiscretePLD` with their (enlarged) float sums accounted: upper, the left tail
moves up to the first kept point, the right tail to ``+inf``; lower, dropped. The ``+inf`` atom
is kept as an exact rational. The result converts to a :class:`~.discrete.DiscretePLD` (ceil /
floor of ``m 2^B``) for the certified ball-arithmetic queries.

Measured (why the default stays exact): the bound is absolute and the same for every
coefficient, while the masses that decide ``delta ~ 1e-5`` sit in the tail of the composed PLD,
far below ``||x||_2``. For the add pair of (q = 0.05, sigma = 1), k = 200, h = 1/1024 the FFT
path is 6x faster than ``fmpz_poly`` but its upper delta at eps = 4.76 is 1.0288e-5 against
1.0188e-5 (1 %), its lower one 1e-4 below; at scenario C's grid for width 1e-4 (k = 14062,
h = 3/32768) the round-off-only mass moved to ``+inf`` alone exceeds delta = 1e-5. The tilted
variant (:mod:`.tilted`: exponentially tilted masses, rigorous weights, the same bound) makes the
error relative near the query; its own measured limits are stated there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.numerics.pld._arith import U, fdot, float_outward
from dpverify.theorems.numerics.pld.discrete import DiscretePLD

MU_ULPS = 4  # assumed weight (twiddle) error, in units of u
SAFETY = 4.0  # factor on Higham's e_n for pocketfft's mixed-radix real transforms
MAX_LENGTH = 1 << 23  # up-front limit on the length of a composed PLD
DIRECT_MAX = 48  # factors at most this long are convolved directly (componentwise bound)
TINY = 2.0**-1074


def _gamma(m: int) -> float:
    return m * U / (1 - m * U)


def fft_error_factor(n: int) -> float:
    """``SAFETY * e_n``: Higham (2002) Thm 24.2's relative 2-norm error of one FFT of length
    ``n`` (rounded up to a power of 2), with weight error ``MU_ULPS u``."""
    p = max(1, math.ceil(math.log2(max(n, 2))))
    mu = MU_ULPS * U
    eta = mu + _gamma(4) * (math.sqrt(2) + mu)
    t = p * eta
    if t >= 0.5:
        raise ValueError(f"FFT length {n} too large for the error bound")
    return SAFETY * t / (1 - t)


def _norms(x: np.ndarray) -> tuple[float, float]:
    """Upper bounds of ``||x||_1`` and ``||x||_2`` for ``x >= 0``."""
    grow = 1 + (len(x) + 2) * U * 2
    s1 = float(np.sum(x)) * grow
    s2 = math.sqrt(fdot(x, x) * grow) * grow
    return s1, s2


def convolution_error_bound(n: int, x: np.ndarray, y: np.ndarray) -> float:
    """A bound on ``max_k |c^_k - c_k|`` of the FFT convolution of length ``n`` of ``x, y >=
    0`` (module docstring, step 3)."""
    e = fft_error_factor(n)
    g = math.sqrt(2) * _gamma(2)
    x1, x2 = _norms(x)
    y1, y2 = _norms(y)
    rn = math.sqrt(n)
    cross = e * (x2 * y1 + x1 * y2) + e * e * rn * x2 * y2
    tail = (g + e * (1 + g)) * (1 + e) * min(x2 * (y1 + e * rn * y2), y2 * (x1 + e * rn * x2))
    p = max(1, math.ceil(math.log2(max(n, 2))))
    return 2 * (cross + tail) + 8 * n * p * TINY


def _direct_error_factor(x: np.ndarray, y: np.ndarray) -> float:
    """``gamma_m`` (doubled, for the evaluation of the bound) of the direct convolution."""
    return 2 * _gamma(min(len(x), len(y)) + 1)


def convolve_outward(x: np.ndarray, y: np.ndarray, upper: bool,
                     error_bound: Any = None) -> np.ndarray:
    """Masses that dominate (``upper``) or are dominated by the exact convolution ``x * y``.

    ``error_bound`` (tests only) replaces :func:`convolution_error_bound` for the FFT branch.
    """
    m = len(x) + len(y) - 1
    if min(len(x), len(y)) <= DIRECT_MAX:
        c = np.convolve(x, y)
        rel = _direct_error_factor(x, y)
        under = min(len(x), len(y)) * 2 * TINY  # underflow in the products
        c = c * (1 + rel) + under if upper else c * (1 - rel) - under
        c = np.nextafter(c, np.inf if upper else -np.inf)
        return np.maximum(c, 0.0)
    n = 1 << max(1, math.ceil(math.log2(m)))
    c = np.fft.irfft(np.fft.rfft(x, n) * np.fft.rfft(y, n), n)[:m]
    bound = (convolution_error_bound if error_bound is None else error_bound)(n, x, y)
    if upper:
        c = np.nextafter(c + bound, np.inf)
    else:
        c = np.nextafter(c - bound, -np.inf)
    return np.maximum(c, 0.0)


def _fsum(x: np.ndarray, up: bool = True) -> Fraction:
    """An exact rational upper (lower) bound of ``sum(x)``, ``x >= 0`` floats."""
    rel = Fraction((len(x) + 2) * 2, 2**53)
    return Fraction(float(np.sum(x))) * (1 + rel if up else 1 - rel)


@dataclass
class FloatPLD:
    """Masses ``masses[i]`` (float64, exact dyadics) at losses ``shift + i h``, ``inf`` (exact)
    at ``+inf``. ``kind``: "upper" or "lower" as for :class:`DiscretePLD`; ``trim`` is the
    tail budget (a mass) of one truncation per side."""

    kind: str
    h: Fraction
    shift: Fraction
    masses: np.ndarray
    inf: Fraction
    trim: float
    steps: int = 1
    _discrete: Any = field(default=None, repr=False)

    @classmethod
    def from_discrete(cls, d: DiscretePLD) -> FloatPLD:
        """The same PLD in floats, rounded outward (exact for integers below ``2^53``; every
        larger one is moved one float outward, whether or not its nearest float was exact)."""
        if d.B > 900:
            raise ValueError("mass units below 2^-900 do not fit float64 outward rounding")
        v = d.unit_floats()  # nearest floats of the integers: exact below 2^53
        v = np.where(v < 2.0**53, v, np.nextafter(v, np.inf if d.kind == "upper" else 0.0))
        return cls(d.kind, d.h, d.shift, np.ldexp(v, -d.B), Fraction(d.inf, 2**d.B),
                   d.trim * 2.0**-d.B, d.steps)

    def __len__(self) -> int:
        return len(self.masses)

    def _convolve(self, other: FloatPLD, upper: bool, error_bound: Any
                  ) -> tuple[np.ndarray, int, dict[str, Any], Fraction]:
        """The outward-rounded product's masses, the index of its first one, fields of the
        result to update and a mass moved to ``+inf`` (a hook for :class:`.tilted.TiltedPLD`)."""
        c = convolve_outward(self.masses, other.masses, upper, error_bound)
        return c, 0, {}, Fraction(0)

    def _noise(self, c: np.ndarray) -> float:
        """Outer coefficients at most this may be pure round-off (see :meth:`_trimmed`)."""
        return 2 * float(np.min(c)) if self.kind == "upper" and len(c) else 0.0

    def compose(self, other: FloatPLD, error_bound: Any = None) -> FloatPLD:
        if (self.kind, self.h) != (other.kind, other.h):
            raise ValueError("only PLDs of the same kind and grid compose")
        upper = self.kind == "upper"
        if len(self) + len(other) - 1 > MAX_LENGTH:
            raise PrecisionExhausted(f"an FFT composition would hold more than {MAX_LENGTH} "
                                     f"masses")
        c, first, extra, above = self._convolve(other, upper, error_bound)
        ta, tb = _fsum(self.masses, upper), _fsum(other.masses, upper)
        inf = _round_fraction(self.inf * (tb + other.inf) + ta * other.inf + above, upper)
        out = replace(self, shift=self.shift + other.shift + first * self.h, masses=c, inf=inf,
                      trim=max(self.trim, other.trim), steps=self.steps + other.steps,
                      _discrete=None, **extra)
        return out._trimmed(self._noise(c))

    def _trimmed(self, noise: float = 0.0) -> FloatPLD:
        """Trim tails of total mass at most ``trim``; for the upper kind also the outer runs of
        coefficients at most ``noise`` (the round-off bound of the last product: there the
        exact mass may be 0), whose mass is accounted like any tail."""
        c = self.masses
        n = len(c)
        if n == 0:
            return self
        if noise > 0 and self.kind == "upper":
            big = np.flatnonzero(c > noise)
            if len(big):
                budget = self.trim + (n - len(big)) * noise * 2
                trimmed = replace(self, trim=budget, _discrete=None)._trimmed()
                trimmed.trim = self.trim
                return trimmed
        cs = np.cumsum(c)
        i = int(np.searchsorted(cs, self.trim, side="right"))  # c[:i] sums to <= trim
        rs = np.cumsum(c[::-1])
        j = int(np.searchsorted(rs, self.trim, side="right"))  # c[n-j:] sums to <= trim
        if i + j >= n:
            i, j = min(i, n - 1), 0
            j = min(j, n - 1 - i)
        if i == 0 and j == 0:
            return self
        kept = c[i:n - j].copy()
        inf = self.inf
        if self.kind == "upper":
            if i:
                left = _fsum(c[:i])
                kept[0] = float_outward(Fraction(kept[0]) + left, True)
            if j:
                inf = inf + _fsum(c[n - j:])
        return replace(self, shift=self.shift + i * self.h, masses=kept, inf=inf,
                       _discrete=None)

    def self_compose(self, k: int, error_bound: Any = None) -> FloatPLD:
        """The k-fold composition by repeated squaring (each product rounded outward)."""
        if k < 1:
            raise ValueError("k must be >= 1")
        result: FloatPLD | None = None
        base = self
        while True:
            if k & 1:
                result = base if result is None else result.compose(base, error_bound)
            k >>= 1
            if not k:
                break
            base = base.compose(base, error_bound)
        assert result is not None
        return result

    def to_discrete(self) -> DiscretePLD:
        """The same bounds as a :class:`DiscretePLD` in units ``2^-B`` (ceil for upper, floor
        for lower), ``B`` chosen so that the largest mass has 62 bits."""
        if self._discrete is None:
            top = float(np.max(self.masses)) if len(self.masses) else 1.0
            top = top if top > 0 else 1.0
            b = 61 - math.frexp(top)[1]
            scaled = np.ldexp(self.masses, b)
            ints = np.ceil(scaled) if self.kind == "upper" else np.floor(scaled)
            inf_units = self.inf * 2**b
            inf = math.ceil(inf_units) if self.kind == "upper" else math.floor(inf_units)
            poly = flint.fmpz_poly([int(v) for v in ints.astype(np.int64).tolist()])
            if b < 0:
                raise ValueError("masses above 2^61 cannot occur in a PLD")
            self._discrete = DiscretePLD(self.kind, self.h, self.shift, poly, inf, b, 0,
                                         self.steps)
        return self._discrete


def _round_fraction(x: Fraction, up: bool, bits: int = 256) -> Fraction:
    """Round an exact nonnegative rational outward to a multiple of ``2^-bits``."""
    scaled = x * 2**bits
    v = math.ceil(scaled) if up else math.floor(scaled)
    return Fraction(v, 2**bits)


__all__ = ["FloatPLD", "convolution_error_bound", "convolve_outward", "fft_error_factor"]
