"""Exact privacy-loss distributions of products of randomized responses RR(eps_i).

- :func:`subset_sum_delta`: the ``2^k`` subset sum of [MV] arXiv 1507.03113, Thm 1.5 over exact
  rational privacy losses, by meet in the middle.
- :func:`lattice_delta`: the knapsack dynamic program over the lattice
  ``step Z`` when the eps_i are multiples of a common step (work bounded by
  ``MV_MAX_LATTICE_WORK`` cell updates).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.core import InvalidParameter
from dpverify.theorems.numerics.binomial import log1pexp
from dpverify.theorems.values import approx_float, float_bounds

# Exact MV-OPT / MV-APPROX lattice dynamic program: at most this many cell updates
# (k times the number of lattice points, 2 * sum_i a_i + 1).
MV_MAX_LATTICE_WORK = 4_000_000


# ==========================================================================================
# Subset enumeration (meet in the middle) and the lattice dynamic program


def _half_atoms(eps_half: Sequence[Fraction]) -> dict[Fraction, int]:
    """Exact privacy losses ``sum_S eps_i - sum_{not S} eps_i`` over the subsets of a half, with
    their multiplicities."""
    atoms: dict[Fraction, int] = {Fraction(0): 1}
    for e in eps_half:
        nxt: dict[Fraction, int] = {}
        for loss, c in atoms.items():
            for v in (loss + e, loss - e):
                nxt[v] = nxt.get(v, 0) + c
        atoms = nxt
    return atoms


# _half_weights by context type, precision (flint's working precision for arb) and half: an
# eps search (MV-OPT.eps, Comp.eps of GCE-D4) evaluates the same eps_list ~30 times per point
_HALF_WEIGHTS: dict[tuple[Any, ...], list[tuple[Fraction, Any, Any]]] = {}
_HALF_WEIGHTS_ENTRIES = 64


def _half_key(ctx: Any, eps_half: Sequence[Fraction]) -> tuple[Any, ...]:
    return (type(ctx), getattr(ctx, "prec", None),
            flint.ctx.prec if ctx.name == "arb" else None, tuple(eps_half))


def _half_weights(ctx: Any, eps_half: Sequence[Fraction]) -> list[tuple[Fraction, Any, Any]]:
    """``(L, w(L), w(L) e^-L)`` sorted by L, ``w(L) = count(L) e^{(L + E)/2}/prod(1 + e^eps_i)``
    (the P-probability of the loss L within the half; ``w e^-L`` is its Q-probability).
    Memoised (:data:`_HALF_WEIGHTS`): the values are immutable numbers of the context, the
    same ones a new computation at the same precision returns."""
    key = _half_key(ctx, eps_half)
    out = _HALF_WEIGHTS.get(key)
    if out is None:
        if len(_HALF_WEIGHTS) >= _HALF_WEIGHTS_ENTRIES:
            _HALF_WEIGHTS.clear()
        out = _HALF_WEIGHTS[key] = _compute_half_weights(ctx, eps_half)
    return out


def _compute_half_weights(ctx: Any, eps_half: Sequence[Fraction]) -> list[tuple[Fraction, Any,
                                                                                  Any]]:
    atoms = _half_atoms(eps_half)
    big_e = sum(eps_half, Fraction(0))
    log_norm = ctx.fsum(log1pexp(ctx, ctx.num(e)) for e in eps_half) if eps_half else ctx.zero
    out = []
    for loss in sorted(atoms):
        c = ctx.num(atoms[loss])
        out.append((loss, c * ctx.exp(ctx.num((loss + big_e) / 2) - log_norm),
                    c * ctx.exp(ctx.num((big_e - loss) / 2) - log_norm)))
    return out


_HALF_LOSSES: dict[tuple[Any, ...], tuple[list[Any], list[float], list[Any], list[Any]]] = {}


def _half_losses(ctx: Any, eps_half: Sequence[Fraction]) -> tuple[list[Any], list[float],
                                                                  list[Any], list[Any]]:
    """The losses of :func:`_half_weights` as numbers of the context and as floats, and the
    suffix sums of both weights (``W[m] = sum_{j >= m} w_j``, ``V[m]`` likewise), memoised with
    the weights (same key and bound): an eps search asks for the same halves at every step."""
    key = _half_key(ctx, eps_half)
    out = _HALF_LOSSES.get(key)
    if out is None:
        weights = _half_weights(ctx, eps_half)
        n = len(weights)
        suffix_w = [ctx.zero] * (n + 1)
        suffix_v = [ctx.zero] * (n + 1)
        for m in range(n - 1, -1, -1):
            suffix_w[m] = suffix_w[m + 1] + weights[m][1]
            suffix_v[m] = suffix_v[m + 1] + weights[m][2]
        if len(_HALF_LOSSES) >= _HALF_WEIGHTS_ENTRIES:
            _HALF_LOSSES.clear()
        out = _HALF_LOSSES[key] = ([ctx.num(loss) for loss, _, _ in weights],
                                   [float(loss) for loss, _, _ in weights], suffix_w, suffix_v)
    return out


def subset_sum_delta(ctx: Any, eps_list: Sequence[Fraction], eps: Any) -> Any:
    """``sum_S (e^{sum_S eps_i} - e^eps e^{sum_{not S} eps_i})_+ / prod(1 + e^eps_i)`` over all
    ``2^k`` subsets ([MV] Thm 1.5), organised as meet in the middle: the subsets of each half
    are enumerated exactly; for each loss ``L1`` of the first half, the second-half losses
    ``L2 > eps - L1`` contribute ``W - e^{eps - L1} V`` (suffix sums of the P- and Q-weights)
    and the few whose comparison the balls cannot decide are added one by one with ``(.)_+``.
    """
    h = len(eps_list) // 2
    first = _half_weights(ctx, eps_list[:h])
    losses1 = _half_losses(ctx, eps_list[:h])[0]
    second = _half_weights(ctx, eps_list[h:])
    losses2, floats2, suffix_w, suffix_v = _half_losses(ctx, eps_list[h:])
    n = len(second)
    total = ctx.zero
    for (_, w1, _), loss1 in zip(first, losses1, strict=True):
        t = eps - loss1
        guess = bisect.bisect_right(floats2, approx_float(t))
        lo = guess
        while lo > 0 and ctx.lt(t, losses2[lo - 1]) is not False:
            lo -= 1
        hi = max(guess, lo)
        while hi < n and ctx.lt(t, losses2[hi]) is not True:
            hi += 1
        part = suffix_w[hi] - ctx.exp(t) * suffix_v[hi] if hi < n else ctx.zero
        for m in range(lo, hi):
            part = part + second[m][1] * ctx.pos(-ctx.expm1(t - losses2[m]))
        total = total + w1 * part
    return total


def rational_gcd(values: Sequence[Fraction]) -> Fraction:
    nonzero = [v for v in values if v != 0]
    if not nonzero:
        return Fraction(1)
    den = math.lcm(*(v.denominator for v in nonzero))
    return Fraction(math.gcd(*(v.numerator * (den // v.denominator) for v in nonzero)), den)


def _lattice_law(ctx: Any, multiples: Sequence[int], step: Fraction) -> tuple[int, list[Any]]:
    """The law of ``S = sum_i s_i a_i`` (``s_i = +1`` with probability ``e^{a_i step}/(1 +
    e^{a_i step})``, else ``-1``) by a knapsack dynamic program: returns ``(offset, probs)``
    with ``P(S = m - offset) = probs[m]``. Only products and sums of positive numbers."""
    total = sum(multiples)
    probs = [ctx.zero] * (2 * total + 1)
    probs[total] = ctx.one
    st = ctx.num(step)
    reach = 0
    for a in multiples:
        if a == 0:
            continue
        up = 1 / (1 + ctx.exp(-a * st))
        down = 1 / (1 + ctx.exp(a * st))
        new = [ctx.zero] * len(probs)
        for m in range(total - reach, total + reach + 1):
            w = probs[m]
            new[m + a] = new[m + a] + w * up
            new[m - a] = new[m - a] + w * down
        probs = new
        reach += a
    return total, probs


def lattice_delta(ctx: Any, multiples: Sequence[int], step: Fraction, eps: Any) -> Any:
    """``sum_s P(S = s) (1 - e^{eps - s step})_+`` for the lattice law of :func:`_lattice_law`."""
    work = len(multiples) * (2 * sum(multiples) + 1)
    if work > MV_MAX_LATTICE_WORK:
        raise InvalidParameter(
            f"the privacy-loss lattice is too fine: k*(2*sum(a_i)+1) = {work} cell updates, "
            f"at most {MV_MAX_LATTICE_WORK} are accepted (use a coarser step)")
    offset, probs = _lattice_law(ctx, multiples, step)
    st = ctx.num(step)
    s_min = math.floor(float_bounds(eps)[0] / float(step)) - 1  # atoms s step <= eps vanish
    terms = []
    for m in range(max(0, s_min + offset), len(probs)):
        s = m - offset
        if ctx.lt(eps, s * st) is False:
            continue
        terms.append(probs[m] * ctx.pos(-ctx.expm1(eps - s * st)))
    return ctx.fsum(terms) if terms else ctx.zero
