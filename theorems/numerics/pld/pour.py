"""The previous lower one-step PLD: merged bins poured in loss order into atoms, one bin at a
time in arb (kept as the reference route of the tests, ``discretize(..., pour=True)``; the
default is the vectorised neighbour exchange of :mod:`.lower`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import flint

from dpverify.theorems.numerics.pld._arith import _arb, _units


def _lower_masses(p: Sequence[flint.arb], q: Sequence[flint.arb], ez: Sequence[flint.arb],
                  bits: int, z0: Fraction = Fraction(0), h: Fraction = Fraction(1),
                  downward: bool = False) -> list[int]:
    """Masses of the lower PLD at the grid points ``z_i = z0 + i h`` (``ez[i] = e^{z_i}``) from
    merged bins ``(p_j, q_j)``: P- and Q-masses of consecutive loss intervals, in increasing
    order.

    The bins are poured, in order, into atoms: an atom starts from what is left of the previous
    one, takes the grid point just above its current loss as target ``z``, and takes whole bins,
    then the fraction ``f`` of one bin with ``f (p_j - e^z q_j) >= e^z Q - P``, so that its loss
    ``log(P/Q)`` is certified ``>= z``; it is emitted at ``z``. Every atom is a randomised merge
    of outcomes (a post-processing of the pair) whose loss is at least its grid point, and the
    loss of each atom is close to its grid point, so the construction keeps the mean of the loss
    to second order. Fractions are exact dyadics chosen on the safe side of the balls; the mass
    left at the top is emitted at the highest grid point certified below its loss, or dropped.
    """
    # (arb's ``<`` and ``<=`` are True only when certain for every value of the balls)
    nb = len(p)  # bins, in increasing loss order
    n = len(ez)  # grid points
    zero, one = flint.arb(0), flint.arb(1)
    out = [0] * n
    hb = _arb(h)
    zb0 = _arb(z0)
    z0f, hf = float(z0), float(h)
    pool_p, pool_q = zero, zero

    def loss_index(pp: flint.arb, qq: flint.arb, floor: bool = False) -> int | None:
        """The index of the grid point just above (``floor``: below) a float estimate of the
        pool's loss."""
        if not (zero < pp):
            return None
        if not (zero < qq):
            return n - 1
        pm, qm = float(pp.mid()), float(qq.mid())
        if pm > 0 and qm > 0:  # a locator only: the atoms are certified where they are made
            x = (math.log(pm) - math.log(qm) - z0f) / hf
        else:
            x = float(((pp / qq).log() - zb0).mid() / hb.mid())
        if not math.isfinite(x):
            return n - 1
        if floor:
            return min(math.floor(x + 1e-9), n - 1)
        return min(max(math.ceil(x - 1e-9), 0), n - 1)

    def emit(pp: flint.arb, qq: flint.arb, i: int) -> None:
        """Emit the pool at the highest grid point <= i (at most 4 below) certified below its
        loss; drop it if there is none (dropping mass keeps a lower bound)."""
        if not (zero < pp):
            return
        for j in range(i, max(i - 5, -1), -1):
            if ez[j] * qq <= pp:
                out[j] += _units(pp, bits, False)
                return

    if not downward:
        j = 0
        while j < nb:
            # the pool: what is left of the previous atom; its target
            if not (zero < pool_p):
                pool_p, pool_q = p[j], q[j]
                j += 1
                continue
            t = loss_index(pool_p, pool_q)
            if t is None:
                pool_p, pool_q = p[j], q[j]
                j += 1
                continue
            zt = ez[t]
            if zt * pool_q <= pool_p:  # already at or above its target
                emit(pool_p, pool_q, t)
                pool_p, pool_q = zero, zero
                continue
            deficit = zt * pool_q - pool_p
            den = p[j] - zt * q[j]
            if zero < den:
                f = (deficit.upper() / den.lower()).upper()
                if f < one:
                    # f den >= deficit for the true values: the atom's loss is >= z_t by
                    # construction (a re-check on the balls could not see the tiny margin)
                    out[t] += _units(pool_p + f * p[j], bits, False)
                    rest = (one - f).lower()
                    pool_p, pool_q = rest * p[j], rest * q[j]
                    j += 1
                    continue
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]  # the whole bin joins the atom
            j += 1
        if zero < pool_p:
            t = loss_index(pool_p, pool_q)
            emit(pool_p, pool_q, n - 1 if t is None else t)
        return out
    # downward: from the top, each atom targets the grid point just below its loss and takes
    # lower bins while its loss stays >= the target
    j = nb - 1
    while j >= 0:
        if not (zero < pool_p):
            pool_p, pool_q = p[j], q[j]
            j -= 1
            continue
        t = loss_index(pool_p, pool_q, floor=True)
        if t is None or t < 0:
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]
            j -= 1
            continue
        stop = max(t - 5, -1)
        while t > stop and not (ez[t] * pool_q <= pool_p):
            t -= 1
        if t <= stop:
            pool_p, pool_q = pool_p + p[j], pool_q + q[j]
            j -= 1
            continue
        zt = ez[t]
        surplus = pool_p - zt * pool_q
        cost = zt * q[j] - p[j]
        if zero < cost:
            f = (surplus.lower() / cost.upper()).lower()
            if f < one:
                if zero < f:
                    # f cost <= surplus for the true values: the loss stays >= z_t
                    out[t] += _units(pool_p + f * p[j], bits, False)
                    rest = (one - f).lower()  # at most what is left of bin j
                    pool_p, pool_q = rest * p[j], rest * q[j]
                else:
                    out[t] += _units(pool_p, bits, False)
                    pool_p, pool_q = p[j], q[j]
                j -= 1
                continue
        pool_p, pool_q = pool_p + p[j], pool_q + q[j]  # the whole bin joins the atom
        j -= 1
    if zero < pool_p:
        t = loss_index(pool_p, pool_q, floor=True)
        emit(pool_p, pool_q, n - 1 if t is None else min(t, n - 1))
    return out

