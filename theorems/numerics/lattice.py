"""Lattice enclosures of a two-branch maximum recursion, with float64 outward margins.

The recursion is ``V_j(m) = max_i [p_i V_{j-1}(m - i) + q_i V_{j-1}(m - i + n)]`` on the lattice
``m h`` (``h = eps0/n``), with the exact boundary ``V_j(m) = 1 - e^{m h}`` to the left
([DDR] arXiv 1909.13830, Lemma 3.2, through DDR-L32). Two tables are kept per level:

- a lower bound, the exact value in arb of the adversary that takes the float argmax at every
  lattice state (any choice gives a valid lower bound);
- an upper bound, the shifted recursion in IEEE-754 binary64 with the coefficients rounded up
  and every level multiplied by ``1 + 2^-50`` plus ``2^-1000``: rigorous under IEEE arithmetic.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import ArbCtx, Unsupported, arb_precision


def _np() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy comes with matplotlib
        raise Unsupported("the DDR-L32 lattice needs numpy") from None
    return numpy


def _up(x: float) -> float:
    return math.nextafter(x, math.inf)


def lattice_init(eps0: Fraction, n: int, prec: int, max_k: int, p_arb: list[Any],
                 q_arb: list[Any]) -> dict[str, Any]:
    """Level 0 of the lattice with ``h = eps0/n``: ``p_arb[i]`` and ``q_arb[i]`` enclose the
    probabilities of the two branches at ``t = i h`` (their end points are set to the exact
    0 and 1); levels up to ``max_k`` can be reached."""
    np = _np()
    ctx = ArbCtx(prec)
    with arb_precision(prec):
        h = eps0 / n
        p_arb[0], q_arb[0] = flint.arb(1), flint.arb(0)
        p_arb[n], q_arb[n] = flint.arb(0), flint.arb(1)
        R = (max_k + 2) * n  # index range [-R, R] covers every lookup
        # exact boundary values: delta_A(j, x) = 1 - e^x for x <= -j eps0, 0 for x >= j eps0
        left_arb = [-ctx.expm1(ctx.num(m * h)) for m in range(-R, 1)]
        left_up = np.zeros(2 * R + 1)
        left_up[:R + 1] = [_up(float(v.upper())) for v in left_arb]
        lb = left_arb + [flint.arb(0)] * R  # level 0, indexed m + R
    return {
        "prec": prec, "n": n, "R": R, "level": 0,
        "p_arb": p_arb, "q_arb": q_arb,
        "p_f": np.array([float(v.mid()) for v in p_arb]),
        "q_f": np.array([float(v.mid()) for v in q_arb]),
        "p_hi": np.array([_up(float(v.upper())) for v in p_arb]),
        "q_hi": np.array([_up(float(v.upper())) for v in q_arb]),
        "left_arb": left_arb, "left_up": left_up,
        "lb": lb, "lbf": np.array([float(v.mid()) for v in lb]),
        "ub": np.where(np.arange(-R, R + 1) <= 0, left_up, 0.0),
        "out": {},
    }


def lattice_step(st: dict[str, Any]) -> None:
    """Advance the lattice state by one level of the recursion."""
    np = _np()
    n, R, prec = st["n"], st["R"], st["prec"]
    j = st["level"] + 1
    p_f, q_f, p_hi, q_hi = st["p_f"], st["q_f"], st["p_hi"], st["q_hi"]
    p_arb, q_arb = st["p_arb"], st["q_arb"]
    lbf, ub_prev, lb_prev = st["lbf"], st["ub"], st["lb"]
    with arb_precision(prec):
        band = np.arange(-j * n, j * n + 1)
        idx0 = band + R
        best = np.full(band.size, -1.0)
        arg = np.zeros(band.size, dtype=np.int64)
        ub = np.zeros(band.size)
        for i in range(n + 1):
            cand = p_f[i] * lbf[idx0 - i] + q_f[i] * lbf[idx0 - i + n]
            better = cand > best
            best = np.where(better, cand, best)
            arg = np.where(better, i, arg)
            if i < n:
                u = p_hi[i] * ub_prev[idx0 - i - 1] + q_hi[i + 1] * ub_prev[idx0 - i - 1 + n]
                ub = np.maximum(ub, u)
        ub = np.minimum(ub * (1 + 2.0 ** -50) + 2.0 ** -1000, 1.0)
        lb_new = list(st["left_arb"]) + [flint.arb(0)] * R  # boundary of level j
        for pos, idx in enumerate(idx0.tolist()):
            i = int(arg[pos])
            lb_new[idx] = p_arb[i] * lb_prev[idx - i] + q_arb[i] * lb_prev[idx - i + n]
        # the left boundary of level j starts at m = -j n: entries below are exact 1 - e^x
        full_ub = np.where(np.arange(-R, R + 1) <= -j * n, st["left_up"], 0.0)
        full_ub[idx0] = ub
        st["lb"], st["ub"], st["level"] = lb_new, full_ub, j
        st["lbf"] = np.array([float(v.mid()) for v in lb_new])
        off = j * n
        st["out"][j] = (lb_new[R - off:R + off + 1], full_ub[R - off:R + off + 1].copy(), off)
