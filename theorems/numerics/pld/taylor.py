"""Bin masses of a one-step PLD by blockwise Taylor expansion: one arb power series per block of
grid points, float64 evaluation at the points with a rigorous error bound.

The one-step discretisation (:mod:`.discretize`) needs, at every fine grid point ``z``, the
connect-the-dots split of the step-h bin ``(z, z + h]`` (upper PLD)

    p_hi = e^h (M_P - e^z M_Q) / (e^h - 1),   p_lo = (e^{z+h} M_Q - M_P) / (e^h - 1),

and the P- and Q-mass ``p_step = M_P``, ``q_step = M_Q`` of the centred bin ``(z - h/2, z +
h/2]`` (lower PLD), where ``M_P(x) = F_P(x + h) - F_P(x)``, ``M_Q`` likewise, and ``F_P, F_Q``
are the loss CDFs of the pair: ``p_lo``, ``p_hi`` at the grid points (even half-steps),
``p_step``, ``q_step`` at the half-way points (odd half-steps; two CDF series per block, at
``x0`` and ``x0 + h``). Calling arb's ``erfc`` at each grid point (~40 µs with the Python
around it) was most of the discretisation's time. Here a block of consecutive grid points
around a grid point ``x0``, all within ``|t| <= r`` of it, is handled by one expansion of each
quantity ``g``:

1. ``g(x0 + t) = sum_{i<N} c_i t^i + R_N(t)``; the ``c_i = g^(i)(x0)/i!`` are computed as arb
   balls by power-series arithmetic (``flint.arb_series``: ``exp``, ``log``, ``erfc`` of
   truncated series are rigorous for every coefficient) at the exact point ``x0``;
2. the Lagrange remainder is ``R_N(t) = g^(N)(xi)/N! t^N`` for some ``xi`` between ``x0`` and
   ``x0 + t``. Each quantity is an integral of the P-density ``f_P = F_P'`` of the loss against
   a nonnegative kernel over the loss interval of its bin, because ``f_Q(u) = e^-u f_P(u)``
   (for a set A of finite losses, ``P[L in A] = int_{L in A} (dP/dQ) dQ = int_{L in A} e^L
   dQ`` by the definition ``L = log(dP/dQ)``, so ``dP_L = e^u dQ_L``; a test checks it on the
   pairs' series):
   ``p_hi(z) = e^h/(e^h-1) int_0^h (1 - e^-s) f_P(z+s) ds``,
   ``p_lo(z) = 1/(e^h-1) int_0^h (e^(h-s) - 1) f_P(z+s) ds``, ``p_step(z) = int_0^h f_P(z+s)
   ds`` and ``q_step`` likewise with ``f_Q``. Differentiating under the integral,
   ``|g^(N)(xi)| <= K sup |f^(N)(u)|`` over ``u`` in ``[xi, xi + h]`` with the kernel's total
   weight ``K`` (``(e^h - 1 - h)/(e^h - 1)``, ``(h e^h - e^h + 1)/(e^h - 1)``, ``h``, ``h``;
   :func:`kernel_weights`), and ``f^(N)(u)/N! = (N+1) c_{N+1}(u)`` with ``c_{N+1}`` the
   Taylor coefficient of degree N + 1 of the CDF. The CDFs' series evaluated at the *ball*
   ``U = [x0 - r, x0 + r + h]`` give a coefficient ``c_{N+1}(U)`` that contains it for every
   ``u`` in U, so ``|R_N(t)| <= K (N+1) |c_{N+1}(U)| r^N`` (one series of the CDFs on a ball
   per block; a ball that the functions cannot be evaluated on, e.g. one that reaches the edge
   of the support of the loss, gives a non-finite bound and the block is split, down to single
   bins that go back to the point-by-point arb route). (The previous bound evaluated the
   quantities themselves on the ball: their differences of CDFs and the division by
   ``e^h - 1`` made it ~``r/h`` times and more too wide, and it cost three series on the ball.)
3. the floats ``c~_i`` nearest the midpoints differ from the ``c_i`` by at most
   ``e_i = |c_i - c~_i| <= rad(c_i) + |c~_i| 2^-52 + 2^-1074``, which adds ``sum_i e_i r^i``
   (these sums are bounded in float64 with outward rounding, :func:`_block_errors`);
4. the polynomial with float coefficients ``c~_i``, ``i < d`` (the block's degree ``d - 1``
   after step 5), is evaluated by Horner's rule in float64 at the exact float abscissae ``t``
   (multiples of ``h/2``, dyadic); its rounding error is at most ``gamma_{2(d-1)} S(|t|)``,
   ``S(x) = sum_{i<d} |c~_i| x^i``, with ``gamma_n = n u / (1 - n u)``, ``u = 2^-53`` (N. J.
   Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM 2002, Sec. 5.1,
   eq. (5.3) / Thm 5.1: Horner's rule for a polynomial of degree n errs by at most ``gamma_{2n}
   sum |a_i| |x|^i``, valid without underflow; the bound used to be ``gamma_{2N}`` whatever
   the degree), and ``S(|t|) <= S(r)`` (one value per block: S is increasing). ``S(r)`` itself
   is evaluated by Horner in float64 (at most ``gamma_{2(d-1)}`` relative error, so it is
   multiplied by ``1 + 2 gamma_{2(d-1)}``; :func:`horner_factor`); ``2^-1000`` is added per
   point against underflow (no point value
   needs to be resolved below ``2^-(bits+4)``), and the final ``v +- err`` is widened by
   ``2^-51 |v| + 2^-40 err`` so that its own rounding stays outward;
5. the terms of degree ``>= d`` are not evaluated when ``T_d = sum_{i>=d} |c~_i| r^i`` (in arb)
   is below the remainder's tolerance (below; for all four quantities, one d per block): they
   add at most
   ``T_d`` at every ``|t| <= r``, which joins the constant error.

So each enclosure is ``v +- (gamma''_d S(r) + T_d + sum_i e_i r^i + K (N+1) |c_{N+1}(U)| r^N +
2^-1000)``. The
quantities are differences of CDFs computed in arb before any float enters, so there is no
cancellation in float: the float error is relative to the bin's own mass (~2^-50), which is all
the composition needs (a relative error rho per bin moves a k-fold composition's delta by a
relative ``(1 + rho)^k - 1``, ~1e-11 at k = 14062 for rho = 2^-50; measured on scenario C's
one-step PLDs: the fast upper PLD's total mass exceeds the point-by-point one's by 1.5e-15).
The block radius adapts: a block is halved when its remainder exceeds ``REL_TOL |c_0| +
2^-(bits+4)``, and the terms of degree ``>= d`` are dropped while ``T_d`` stays below the same
tolerance (``REL_TOL = 2^-48``: a relative error of at most ~2^-46 per bin, ~1e-10 in the delta
of 14062 steps, far below the widths of the discretisation; accuracy, not soundness: any
accepted bound is rigorous. With the remainder bound of step 2, blocks at 2^-48 are as large
as the former ones at 2^-44, so the bins' enclosures are tighter at the same cost); after a
success the next radius is predicted from the ratio of the remainder to its tolerance (``r^(N+4)``
growth: the ball's bound grows a little faster than ``r^N``; at most doubled); below
``MIN_BLOCK`` half steps the point-by-point route takes over for a stretch that grows with each
failure.
The abscissae ``t`` must be exact floats: the route is used only for dyadic steps h with at
most 37 significant bits (:func:`taylor_exact_step`).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import PREC, U, UnitAccumulator, _arb, up
from dpverify.theorems.numerics.pld.lower import Bins

TERMS = 20  # N: Taylor terms per block (the remainder is the term of degree N)
MAX_BLOCK = 32768  # half-steps per block at most (measured on B's add pair at h = 1/65536,
#                   upper + lower CPU, least of 7: 4096 0.128-0.134 s, 8192 0.122, 16384 0.110,
#                   32768 0.108-0.114, 65536 0.118 s; its tails' blocks of 4096 were at 1e-6 ..
#                   1e-25 of their tolerance;
#                   B's width moves by 1e-5 of itself). Soundness does not depend on it:
#                   the abscissae stay exact floats (taylor_exact_step: numerators of at most
#                   53 - 16 = 37 bits), r < 4 is checked per block (_block), and the bounds of
#                   steps 2-5 hold for every r
MIN_BLOCK = 16  # half steps: below this the point-by-point route is cheaper
SAFETY = 0.002  # aimed remainder / tolerance of the next block (measured on the fine passes
#                of C and A: 0.02 gave 148 and 122 block evaluations, the blocks shrinking
#                towards an edge failing every other time; 0.002 gives 126 and 105; with the
#                blocks of up to 32768 half steps 0.05 saved ~4 ms on B's, C's, A's add pairs
#                but cost ~15 ms on HET's four pairs at h = 3/16384: kept at 0.002)
REL_TOL = 2.0**-48  # remainder tolerance relative to the value (accuracy, not soundness)
EARLY_REJECT = 8.0  # a block whose remainder exceeds this many times an estimate of its
#                     tolerance (from the density on the ball) skips its point series
_TINY = 2.0**-1000


def horner_factor(d: int) -> float:
    """``gamma'' = gamma_{2(d-1)} (1 + 2 gamma_{2(d-1)}) (1 + 2^-40)`` for a polynomial with d
    coefficients (degree ``d - 1``: Higham 2002, eq. (5.3), Horner's rule for degree n has the
    error ``gamma_{2n} S(|t|)``), ``gamma_n = n u / (1 - n u)``; the factor ``1 + 2 gamma``
    covers the float evaluation of ``S(r)`` (the same rule, relative error ``gamma``: ``S <=
    S~ / (1 - gamma) <= S~ (1 + 2 gamma)``), ``1 + 2^-40`` the rounding of the product. (The
    bound was ``gamma_{2N}`` with N = ``TERMS`` for every block, 2N/(2(d-1)) times wider for
    the short polynomials of the tails.) Below 1 ulp of its exact value's upper end: the
    terms are rounded up by a factor ``1 + 2^-40`` which dominates."""
    n = 2 * max(d - 1, 0)
    gamma = n * U / (1 - n * U)
    return gamma * (1 + 2 * gamma) * (1 + 2.0**-40)

# the quantities per block: the connect-the-dots split of the step-h bin from a grid point
# (upper PLD; at even half-steps) and the P- and Q-mass of the step-h bin from a half-way point,
# i.e. of the centred bin (z_t - h/2, z_t + h/2] (lower PLD; at odd half-steps)
QUANTITIES = ("p_lo", "p_hi", "p_step", "q_step")

SeriesCdf = Callable[[flint.arb_series], tuple[flint.arb_series, flint.arb_series]]


@dataclass
class FineBins:
    """Float enclosures ``[lo, hi]`` of the quantities of a run of ``n`` grid steps starting at
    grid index ``start``, index k of each array at half-step ``m = 2 k`` for ``p_lo``, ``p_hi``
    (of the step-h bin from ``z_{start + k}``) and at ``m = 2 k + 1`` for ``p_step``,
    ``q_step`` (P- and Q-mass of the step-h bin from there: the centred bin of grid point
    ``start + k + 1``). The step masses are evaluated on first use (:meth:`bounds`: the
    driver builds the lower PLD of one direction only), from the same blocks."""

    start: int
    lo: dict[str, np.ndarray]
    hi: dict[str, np.ndarray]
    pending: Callable[[], None] | None = None

    def bounds(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` of the quantity ``name`` (evaluating the step masses if pending)."""
        if name in ("p_step", "q_step") and self.pending is not None:
            finish, self.pending = self.pending, None
            finish()
        return self.lo[name], self.hi[name]


def taylor_exact_step(h: Fraction) -> bool:
    """Whether every abscissa ``m h / 2`` (``|m| <= MAX_BLOCK``) is an exact float: h a dyadic
    whose numerator has at most ``53 - MAX_BLOCK.bit_length()`` bits (37; the grid steps of
    :mod:`.enclose` have 2 or 3)."""
    num, den = h.numerator, h.denominator
    return h > 0 and den & (den - 1) == 0 and num < 2**(53 - MAX_BLOCK.bit_length()) \
        and den < 2**900


def _series(cdf: SeriesCdf, x0: flint.arb, h: flint.arb) -> list[list[flint.arb]]:
    """Coefficients of degree ``< TERMS`` of the four quantities at ``z = x0 + t`` (x0 an
    exact point)."""
    if flint.ctx.cap < TERMS:
        raise RuntimeError("the series length must include every evaluated term")
    t = flint.arb_series([x0, 1])
    p0, q0 = cdf(t)
    p1, q1 = cdf(t + h)
    mp_, mq = p1 - p0, q1 - q0
    ew = h.exp()
    em = ew - 1
    ez = t.exp()
    p_hi = (mp_ - ez * mq) * (ew / em)
    p_lo = (ez * mq * ew - mp_) / em
    out = []
    for s in (p_lo, p_hi, mp_, mq):
        c = s.coeffs()[:TERMS]
        out.append(c + [flint.arb(0)] * (TERMS - len(c)))
    return out


def kernel_weights(h: flint.arb) -> list[flint.arb]:
    """``K`` per quantity (order of ``QUANTITIES``): the quantity's N-th derivative is at most
    ``K sup |f^(N)|`` over the loss interval of its bin (module docstring, step 2)."""
    em = h.expm1()
    return [(em - h) / em, (h * (em + 1) - em) / em, h, h]


def _remainders(cdf: SeriesCdf, x0: flint.arb, r: flint.arb, h: flint.arb,
                kernels: Sequence[flint.arb]) -> tuple[list[flint.arb], list[float]] | None:
    """Upper bounds of ``|g^(N)(xi)/N!| r^N`` for the four quantities g and every xi within r
    of x0 (module docstring, step 2): ``K (N + 1) |c_{N+1}(U)| r^N`` with ``c_{N+1}(U)`` the
    coefficient of degree N + 1 of ``F_P`` (``F_Q`` for ``q_step``) on the ball ``U = [x0 - r,
    x0 + r + h]``; None if not finite (U reaches where the CDFs are not analytic). Also float
    estimates ``K sup_U f`` of the quantities' sizes (to reject hopeless blocks early: a
    locator, never a bound)."""
    if flint.ctx.cap < TERMS + 2:
        raise RuntimeError("the series length must include the remainder term")
    u = x0 + h / 2 + (r + h / 2) * flint.arb(0, 1)
    fp, fq = cdf(flint.arb_series([u, 1]))
    top, density = [], []
    for s in (fp, fq):
        c = s.coeffs()
        # coefficients beyond the stored ones are exact zeros (the cap is above TERMS + 1)
        top.append(abs(c[TERMS + 1]) if len(c) > TERMS + 1 else flint.arb(0))
        density.append(float(abs(c[1]).upper()) if len(c) > 1 else 0.0)
    scale = (TERMS + 1) * r.upper() ** TERMS
    rems = [k * top[0] * scale for k in kernels[:3]] + [kernels[3] * top[1] * scale]
    if not all(rem.is_finite() for rem in rems):
        return None
    sizes = [float(k.upper()) * density[0] for k in kernels[:3]]
    return [rem.upper() for rem in rems], [*sizes, float(kernels[3].upper()) * density[1]]


def _block(cdf: SeriesCdf, off: flint.arb, hb: flint.arb, center: int, half_r: int,
           bits: int, kernels: Sequence[flint.arb]
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float, float] | float:
    """The float coefficients and their radii (4 x N), the remainders and their tolerances
    (4), the radius r of the block centred at half-step index ``center`` with radius ``half_r``
    half-steps (for :func:`_block_errors`, called on all the blocks of a run at once) and the
    largest ratio of a remainder to its tolerance (a float estimate, for the choice of the next
    block); if not accurate, that ratio (``inf`` if unknown)."""
    x0 = off + _arb(Fraction(center, 2)) * hb
    r = _arb(Fraction(half_r, 2)) * hb
    if not r < 4:  # keeps the underflow term 2^-1000 above its worst propagation
        return math.inf
    ru = r.upper()
    # the remainders first (one series on a ball): a block that fails costs little
    flint.ctx.cap = TERMS + 2
    got = _remainders(cdf, x0, r, hb, kernels)
    if got is None:
        return math.inf
    rems, sizes = got
    floor = flint.arb(2) ** (-bits - 4)
    floor_f = 2.0 ** (-bits - 4)
    estimate = max(float(rem) / (size * REL_TOL + floor_f)
                   for rem, size in zip(rems, sizes, strict=True))
    if estimate > EARLY_REJECT:  # hopeless: skip the point series (accuracy only)
        return estimate
    flint.ctx.cap = TERMS
    at_point = _series(cdf, x0, hb)
    nq = len(QUANTITIES)
    mids, rads = np.empty((nq, TERMS)), np.empty((nq, TERMS))
    rem_f, tol_f = np.empty(nq), np.empty(nq)
    for qi, (cs, rem) in enumerate(zip(at_point, rems, strict=True)):
        if not all(c.is_finite() for c in cs[:TERMS]):
            return math.inf
        tol = abs(cs[0]).lower() * REL_TOL + floor
        rem_f[qi], tol_f[qi] = float(rem.upper()), float(tol.lower())
        if not rem < tol:
            return max(rem_f[qi] / max(tol_f[qi], floor_f), 1.0)
        mids[qi] = [float(c) for c in cs[:TERMS]]  # the midpoint, rounded to nearest
        rads[qi] = [float(c.rad()) for c in cs[:TERMS]]
    if not np.all(np.abs(mids) < 1e250):  # no overflow in Horner (|t| < 4, N terms)
        return math.inf
    return mids, rads, rem_f, tol_f, float(ru), float(np.max(rem_f / tol_f))


def _block_errors(coeffs: np.ndarray, rads: np.ndarray, rem_f: np.ndarray, tol_f: np.ndarray,
                  r: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The degrees and constant errors of blocks (float64, rounded outward; Higham 2002, Sec.
    2.2 and eq. (4.4): a sum of n positive floats in any order is at most its computed value
    times ``1 + 2 n u``): ``c~_i`` is the nearest float of the ball's midpoint, so ``e_i <=
    rad_i + |c~_i| 2^-52 + 2^-1074``; the powers ``r^i``, the terms and the sums are bounded
    above step by step; the remainder ``rem_f`` (the nearest float of its arb upper end) is
    rounded up. All the blocks of a run at once (blocks x quantities x N; every operation is
    elementwise or along the last axis, so each block gets the bits it would get alone); the
    coefficients from the degree on are set to zero."""
    grow = 1 + 2 * (TERMS + 1) * U
    r_up = np.nextafter(r, np.inf)
    power = np.ones(len(r))
    powers = [power]
    for _ in range(1, TERMS):
        power = np.nextafter(power * r_up, np.inf)
        powers.append(power)
    rp = np.stack(powers, axis=1)[:, None, :]  # blocks x 1 x N
    e = up(up(up(rads) + np.abs(coeffs) * 2.0**-52) + 2.0**-1074)
    err = up(np.sum(up(e * rp), axis=2) * grow)
    terms = up(np.abs(coeffs) * rp)
    tails = up(np.cumsum(terms[:, :, ::-1], axis=2)[:, :, ::-1] * grow)  # [..., d]: i >= d
    tails = np.concatenate([tails, np.zeros((*tails.shape[:2], 1))], axis=2)
    fits = np.all(tails < tol_f[:, :, None], axis=1)  # blocks x (N + 1)
    degree = np.argmax(fits[:, 1:], axis=1) + 1  # the smallest d >= 1 (d = TERMS always fits)
    at_degree = np.take_along_axis(tails, degree[:, None, None], axis=2)[:, :, 0]
    const = up(up(up(err + at_degree) + up(rem_f)) + _TINY)
    out = np.where(np.arange(TERMS) < degree[:, None, None], coeffs, 0.0)
    return out, const, degree


def fine_bins(cdf: SeriesCdf, offset: Fraction, h: Fraction, runs: Sequence[tuple[int, int]],
              bits: int, slow: Callable[[int], Sequence[flint.arb]]) -> list[FineBins]:
    """Enclosures of the quantities on every run ``[a, b)`` of grid steps (indices relative to
    the grid, losses ``offset + i h``). ``cdf`` gives the loss CDFs ``(F_P, F_Q)`` as series;
    ``slow(m)`` gives the four quantities at absolute half-step m as arb balls (the
    point-by-point route, used where no block is accurate)."""
    out = []
    cap = flint.ctx.cap
    # the series lengths are set by each block (TERMS + 2 on the ball, TERMS at the point)
    try:
        with arb_precision(PREC):
            out = _fine_bins(cdf, _arb(offset), _arb(h), float(h), runs, bits, slow)
    finally:
        flint.ctx.cap = cap
    return out


def _fine_bins(cdf: SeriesCdf, off: flint.arb, hb: flint.arb, h: float,
               runs: Sequence[tuple[int, int]], bits: int,
               slow: Callable[[int], Sequence[flint.arb]]) -> list[FineBins]:
    kernels = kernel_weights(hb)
    return [_run_bins(cdf, off, hb, h, a, b, bits, slow, kernels) for a, b in runs]


def _run_bins(cdf: SeriesCdf, off: flint.arb, hb: flint.arb, h: float, a: int, b: int,
              bits: int, slow: Callable[[int], Sequence[flint.arb]],
              kernels: Sequence[flint.arb]) -> FineBins:
    """One run: blocks grown while accurate (:func:`_next_size`), shrunk when not; below
    ``MIN_BLOCK`` half steps go point by point, more of them after each further failure (a
    block costs
    about as much as ``MIN_BLOCK`` points of the point-by-point route, so hopeless stretches,
    e.g. coarse grids or the edge of the support, cost at most a small fraction more). The
    blocks and the stretches cover every half step of the run, so every entry of the arrays
    is written (by a block's evaluation or the point route); the step masses (odd half steps)
    are evaluated when first read (:meth:`FineBins.bounds`)."""
    n_half = 2 * (b - a)
    lo = {name: np.empty(b - a) for name in QUANTITIES}
    hi = {name: np.empty(b - a) for name in QUANTITIES}
    accepted: list[tuple[int, int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                         float, float]]] = []
    points: list[int] = []  # the half steps of the point-by-point route
    m, size, fails = 0, MIN_BLOCK, 0
    while m < n_half:
        size = min(size, n_half - m)
        if size >= MIN_BLOCK:
            half_r = (size + 1) // 2
            got = _block(cdf, off, hb, 2 * a + m + half_r, half_r, bits, kernels)
            if not isinstance(got, float):
                accepted.append((m, size, got))
                m += size
                size, fails = _next_size(size, got[5]), 0
                continue
            if size > MIN_BLOCK:
                size = _smaller_size(size, got)
                continue
        stretch = min(MIN_BLOCK << min(fails, 4), n_half - m)
        points.extend(range(m, m + stretch))
        m += stretch
        size, fails = MIN_BLOCK, fails + 1
    blocks: list[tuple[int, int, np.ndarray, np.ndarray, int]] = []
    if accepted:  # the degrees and constant errors of all the blocks at once
        coeffs, const, degree = _block_errors(
            *(np.stack([got[i] for _m, _s, got in accepted]) for i in range(4)),
            np.array([got[4] for _m, _s, got in accepted]))
        blocks = [(m0, s0, coeffs[k], const[k], int(degree[k]))
                  for k, (m0, s0, _got) in enumerate(accepted)]

    def fill(parity: int) -> None:
        """The quantities of one parity (0: the splits, 1: the step masses): the blocks' Horner
        values, the point route at its half steps and wherever a value is not finite."""
        if blocks:
            _evaluate(blocks, h, lo, hi, parity)
        names = QUANTITIES[2 * parity:2 * parity + 2]
        for j in points:
            if j % 2 == parity:
                _slow_into(slow, 2 * a + j, j, lo, hi)
        finite = np.ones(b - a, dtype=bool)
        for name in names:
            finite &= np.isfinite(lo[name]) & np.isfinite(hi[name])
        for k in np.flatnonzero(~finite).tolist():
            _slow_into(slow, 2 * a + 2 * k + parity, 2 * k + parity, lo, hi)

    def fill_steps() -> None:
        with arb_precision(PREC):
            fill(1)

    fill(0)
    return FineBins(a, lo, hi, fill_steps)


def _next_size(size: int, ratio: float) -> int:
    """The next block after an accepted one whose largest remainder was ``ratio`` times its
    tolerance: the ball's bound grows a little faster than ``r^N`` (measured: ~``r^(N+3)``),
    so the radius is scaled by ``(SAFETY / ratio)^(1/(N+4))``, at most doubled (accuracy only:
    every block is checked)."""
    grow = 2.0 if ratio <= 0 else min(2.0, (SAFETY / ratio) ** (1 / (TERMS + 4)))
    return max(MIN_BLOCK, min(MAX_BLOCK, int(size * grow)))


def _smaller_size(size: int, ratio: float) -> int:
    """The next try after a block whose remainder was ``ratio`` (>= 1, or an estimate) times
    its tolerance: scaled like :func:`_next_size` (by 1/4 to 7/8), halved if the ratio is
    unknown (``inf``: e.g. the ball reached the edge of the support)."""
    if not math.isfinite(ratio):
        return max(MIN_BLOCK, size // 2)
    shrink = min(0.875, max(0.25, (SAFETY / ratio) ** (1 / (TERMS + 4))))
    return max(MIN_BLOCK, int(size * shrink))


def _slow_into(slow: Callable[[int], Sequence[flint.arb]], m: int, j: int,
               lo: dict[str, np.ndarray], hi: dict[str, np.ndarray]) -> None:
    """The quantities of half step ``j`` of the run (absolute half step ``m``) from arb: the
    splits at even j, the step masses at odd j (array index ``j // 2``)."""
    names = QUANTITIES[2 * (j % 2):2 * (j % 2) + 2]
    values = slow(m)[2 * (j % 2):2 * (j % 2) + 2]
    for name, v in zip(names, values, strict=True):
        lo[name][j // 2] = np.nextafter(float(v.lower()), -np.inf)
        hi[name][j // 2] = np.nextafter(float(v.upper()), np.inf)


def _evaluate(blocks: Sequence[tuple[int, int, np.ndarray, np.ndarray, int]], h: float,
              lo: dict[str, np.ndarray], hi: dict[str, np.ndarray], parity: int) -> None:
    """Horner in float64 at the half-steps of every block (up to its degree), with the error
    bound of the module docstring: ``p_lo``, ``p_hi`` at the grid points (even half-steps of the
    run, ``parity`` 0) or ``p_step``, ``q_step`` half-way between them (odd half-steps,
    ``parity`` 1), the only ones used. The blocks of one size, degree and parity of start
    share their abscissae (broadcast, no gather), and the rounding term uses ``S(r) >=
    S(|t|)`` per block."""
    qs = slice(2 * parity, 2 * parity + 2)
    names = QUANTITIES[qs]
    groups: dict[tuple[int, int, int], list[int]] = {}
    for k, (m, s, _c, _e, d) in enumerate(blocks):
        groups.setdefault((s, d, m % 2), []).append(k)
    for (s, d, start_parity), ks in groups.items():
        half_r = (s + 1) // 2
        # the block's half steps of the wanted parity of the run
        where = np.arange((parity - start_parity) % 2, s, 2)
        if not len(where):
            continue
        r = half_r * (h / 2)  # >= |t| (exact)
        tt = (where - half_r) * (h / 2)  # exact: small integers times a dyadic step
        coeffs = np.stack([blocks[k][2][qs] for k in ks])  # blocks x 2 quantities x N
        const = np.stack([blocks[k][3][qs] for k in ks])  # blocks x 2 quantities
        sr = np.abs(coeffs[:, :, d - 1])
        for i in range(d - 2, -1, -1):
            sr = sr * r + np.abs(coeffs[:, :, i])
        err0 = (horner_factor(d) * sr + const + _TINY) * (1 + 2.0**-40)  # blocks x quantities
        v = np.empty((len(ks), 2, len(where)))
        v[...] = coeffs[:, :, d - 1:d]
        for i in range(d - 2, -1, -1):
            v *= tt
            v += coeffs[:, :, i:i + 1]
        err = np.abs(v)
        err *= 2.0**-51
        err += err0[:, :, None]
        w = len(where)
        for row, k in enumerate(ks):  # a block's entries are consecutive: (m + where) // 2
            first = (blocks[k][0] + int(where[0])) // 2
            for qi, name in enumerate(names):
                np.subtract(v[row, qi], err[row, qi], out=lo[name][first:first + w])
                np.add(v[row, qi], err[row, qi], out=hi[name][first:first + w])


class FineTable:
    """The fine bins of :func:`fine_bins` as the discretisation uses them: upper units of the
    step-h bins, lower (P, Q) float enclosures of the bins made of one or two half steps."""

    def __init__(self, runs: Sequence[FineBins] = ()) -> None:
        self.runs = list(runs)  # in increasing order of start, disjoint
        self._starts = [r.start for r in self.runs]
        self._ends = [r.start + len(r.lo["p_lo"]) for r in self.runs]

    def _run(self, a: Fraction | int, b: Fraction | int) -> FineBins | None:
        i = bisect.bisect_right(self._starts, a) - 1
        if i >= 0 and b <= self._ends[i]:
            return self.runs[i]
        return None

    def run_end(self, a: Fraction | int) -> int | None:
        """The end (grid index) of the run that starts at or below ``a``, nearest to it."""
        i = bisect.bisect_right(self._starts, a) - 1
        return self._ends[i] if i >= 0 else None

    def uncovered(self, cells: Sequence[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
        """The cells ``(a, b, fine)`` that are coarse or not in one run (:meth:`covers`, for
        all the cells at once)."""
        if not self.runs:
            return list(cells)
        a = np.array([c[0] for c in cells])
        b = np.array([c[1] for c in cells])
        i = np.searchsorted(np.array(self._starts), a, side="right") - 1
        ends = np.array(self._ends)[np.maximum(i, 0)]
        covered = (i >= 0) & (b <= ends) & np.array([c[2] for c in cells], dtype=bool)
        return [c for c, cov in zip(cells, covered.tolist(), strict=True) if not cov]

    def covers(self, a: Fraction | int, b: Fraction | int) -> bool:
        """Whether the cell ``[a, b]`` (grid indices) lies in one run."""
        return self._run(a, b) is not None

    def add_upper(self, acc: UnitAccumulator, ilo: int) -> None:
        """Add the units of every step-h bin of the runs (ceil of the upper ends, clipped at
        0) to ``acc`` (indexed from grid point ``ilo``)."""
        scale = 2.0**acc.bits  # exact: a power of two, the products below are exact
        for run in self.runs:
            for name, shift in (("p_lo", 0), ("p_hi", 1)):
                x = run.bounds(name)[1] * scale
                if not np.all(np.isfinite(x)):
                    raise PrecisionExhausted("a fine bin's enclosure is not finite")
                base = run.start - ilo + shift
                np.ceil(x, out=x)
                acc.add_floats(base, np.maximum(x, 0.0, out=x))

    def lower_bins(self, a: Fraction | int, b: Fraction | int, ilo: int) -> Bins:
        """The centred lower bins ``[t - 1/2, t + 1/2]`` of the grid points ``t = a + 1 .. b -
        1`` of the fine cells ``[a, b]`` (in one run; the half bins at the ends are the
        caller's), from ``p_step``, ``q_step`` at the odd half-steps; grid indices relative to
        ``ilo``."""
        run = self._run(a, b)
        if run is None:
            raise ValueError(f"the cells [{a}, {b}] are not in one run")
        c0, c1 = int(a - run.start), int(b - run.start) - 1
        out = []
        for name in ("p_step", "q_step"):
            lo, hi = run.bounds(name)
            b_lo, b_hi = lo[c0:c1], hi[c0:c1]
            if not (np.all(np.isfinite(b_lo)) and np.all(np.isfinite(b_hi))):
                raise PrecisionExhausted("a fine bin's enclosure is not finite")
            out += [np.maximum(b_lo, 0.0), b_hi]
        centre = float(a) - ilo + np.arange(1, int(b - a))
        return Bins(*out, centre - 0.5, centre + 0.5)
