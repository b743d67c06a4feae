"""Finite distributions: the exact objects of the oracle route.

Distributions are tuples of probabilities (exact :class:`~fractions.Fraction` values when drawn,
context numbers inside a formula). Everything here is a formula ``f(ctx, ...)`` or a seeded
generator of exact instances.

Main results
------------
- :func:`hockey_stick` (``sum_y (P(y) - e^eps Q(y))_+``) and :func:`hockey_stick_events` (the
  maximum over all ``2^|Y|`` events, by enumeration): DEF-DP's two forms.
- :func:`renyi`, :func:`max_log_ratio`, :func:`privacy_loss_atoms`, :func:`product`,
  :func:`push_forward`: Rényi divergence, pure-DP level, PLD atoms, independent composition
  and post-processing by a Markov kernel.
- :func:`randomized_response`: RR(eps) of the catalogue's conventions.
- generators: :func:`random_distribution`, :func:`random_pair`, :func:`random_kernel`,
  :func:`random_eps_dp_pair`.

References
----------
- [S22] T. Steinke, arXiv 2210.00597v4, Secs. 2–3 (hockey-stick divergence, privacy loss).
- [Mir17] I. Mironov, *Rényi Differential Privacy*, arXiv 1702.07476v3, Def. 3.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

Dist = Sequence[Any]


# ------------------------------------------------------------------------------------------
# formulas


def hockey_stick(ctx: Any, p: Dist, q: Dist, eps: Any) -> Any:
    """``H_{e^eps}(P||Q) = sum_y max(P(y) - e^eps Q(y), 0)`` (catalogue DEF-DP)."""
    z = ctx.exp(eps)
    return ctx.fsum(ctx.pos(pi - z * qi) for pi, qi in zip(p, q, strict=True))


def hockey_stick_events(ctx: Any, p: Dist, q: Dist, eps: Any) -> Any:
    """``max_S P(S) - e^eps Q(S)`` over all ``2^|Y|`` events S, by enumeration."""
    z = ctx.exp(eps)
    best = ctx.zero  # the empty event
    n = len(p)
    for mask in range(1, 2**n):
        members = [i for i in range(n) if mask >> i & 1]
        value = ctx.fsum(p[i] for i in members) - z * ctx.fsum(q[i] for i in members)
        best = ctx.max(best, value)
    return best


def renyi(ctx: Any, p: Dist, q: Dist, alpha: Any) -> Any:
    """``D_alpha(P||Q) = log(sum_y P(y)^alpha Q(y)^(1-alpha))/(alpha - 1)`` ([Mir17] Def. 3);
    requires ``Q(y) > 0`` wherever ``P(y) > 0``."""
    total = ctx.fsum(ctx.pow(pi, alpha) * ctx.pow(qi, 1 - alpha)
                     for pi, qi in zip(p, q, strict=True) if not _is_zero(pi))
    return ctx.log(total) / (alpha - 1)


def max_log_ratio(ctx: Any, p: Dist, q: Dist) -> Any:
    """``max_y |log(P(y)/Q(y))|`` over the common support: the pure-DP level of the pair."""
    return ctx.max(*(ctx.abs(ctx.log(pi / qi)) for pi, qi in zip(p, q, strict=True)
                     if not (_is_zero(pi) and _is_zero(qi))))


def privacy_loss_atoms(ctx: Any, p: Dist, q: Dist) -> list[tuple[Any, Any]]:
    """The PLD of ``(P, Q)`` as ``(loss, probability)`` atoms over outputs with ``P(y) > 0``
    (``loss = +inf`` where ``Q(y) = 0``) — [S22] Sec. 3."""
    atoms = []
    for pi, qi in zip(p, q, strict=True):
        if _is_zero(pi):
            continue
        atoms.append((ctx.inf if _is_zero(qi) else ctx.log(pi / qi), pi))
    return atoms


def product(p: Dist, q: Dist) -> tuple[Any, ...]:
    """The product distribution of two independent outputs (row-major)."""
    return tuple(a * b for a, b in itertools.product(p, q))


def push_forward(p: Dist, kernel: Sequence[Sequence[Any]]) -> tuple[Any, ...]:
    """``(B P)(z) = sum_y P(y) B(z | y)`` for a Markov kernel given as rows ``B[y][z]``."""
    width = len(kernel[0])
    return tuple(sum((p[y] * kernel[y][z] for y in range(len(p))), p[0] * 0)
                 for z in range(width))


def randomized_response(ctx: Any, eps0: Any) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """RR(eps0): ``P = (e^eps0, 1)/(1 + e^eps0)``, ``Q = (1, e^eps0)/(1 + e^eps0)``."""
    z = ctx.exp(eps0)
    return (z / (1 + z), 1 / (1 + z)), (1 / (1 + z), z / (1 + z))


def leak_pair(ctx: Any, eps0: Any, delta0: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """BBG-T8 claim 2's base (also DRS-SUBSAMPLE claim 5's witness): outputs (LEAK, 1, 0);
    ``Pin`` when u is present, ``Pout`` otherwise."""
    z = ctx.exp(eps0)
    pin = (delta0, (1 - delta0) * z / (1 + z), (1 - delta0) / (1 + z))
    pout = (ctx.zero, 1 / (1 + z), z / (1 + z))
    return pin, pout


def mixture(q: Any, a: Sequence[Any], b: Sequence[Any]) -> tuple[Any, ...]:
    """``(1-q) a + q b``."""
    return tuple((1 - q) * x + q * y for x, y in zip(a, b, strict=True))


def _is_zero(x: Any) -> bool:
    try:
        return bool(x == 0)
    except TypeError:
        return False


# ------------------------------------------------------------------------------------------
# exact random instances


def random_distribution(rng: random.Random, n: int, denominator: int = 997,
                        allow_zero: bool = False) -> tuple[Fraction, ...]:
    """A random distribution on ``n`` points with rational probabilities."""
    lo = 0 if allow_zero else 1
    weights = [rng.randint(lo, denominator) for _ in range(n)]
    if sum(weights) == 0:
        weights[0] = 1
    total = sum(weights)
    return tuple(Fraction(w, total) for w in weights)


def random_pair(rng: random.Random, n: int | None = None,
                allow_zero: bool = False) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    n = n or rng.randint(2, 6)
    return random_distribution(rng, n, allow_zero=allow_zero), random_distribution(
        rng, n, allow_zero=allow_zero)


def random_kernel(rng: random.Random, n_in: int, n_out: int) -> tuple[tuple[Fraction, ...], ...]:
    """A random Markov kernel: ``n_in`` rows, each a distribution on ``n_out`` points."""
    return tuple(random_distribution(rng, n_out, allow_zero=True) for _ in range(n_in))


def random_eps_dp_pair(rng: random.Random, eps_num: int, eps_den: int,
                       n: int | None = None) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """A random pair with every ratio ``P(y)/Q(y)`` in ``[e^-eps, e^eps]`` where
    ``e^eps >= 1 + eps_num/eps_den`` (the ratio bound is rational and exact: eps-DP holds for
    any eps with ``e^eps >= 1 + eps_num/eps_den``)."""
    n = n or rng.randint(2, 5)
    r = 1 + Fraction(eps_num, eps_den)
    while True:
        q = random_distribution(rng, n)
        factors = [Fraction(rng.randint(0, 1000), 1000) for _ in range(n)]
        raw = [qi * (1 / r + (r - 1 / r) * f) for qi, f in zip(q, factors, strict=True)]
        total = sum(raw)
        p = tuple(x / total for x in raw)
        if all(1 / r <= pi / qi <= r for pi, qi in zip(p, q, strict=True)):
            return p, q
