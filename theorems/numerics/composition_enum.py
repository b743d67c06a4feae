"""Oracles by exhaustive enumeration of finite compositions: k-fold and heterogeneous
randomized response (``2^k`` outputs), the worst (eps0, delta0) four-output mechanism of
[KOV] arXiv 1311.0776v4, Thm 3.3 (``4^k`` outputs), and random adaptive compositions in exact
rationals (k <= 4).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.numerics.finite import hockey_stick, product, randomized_response
from dpverify.theorems.values import exact_params, to_ctx

# ==========================================================================================
# Oracles: exact enumeration of finite compositions


def _kfold(ctx: Any, pairs: Sequence[tuple[Sequence[Any], Sequence[Any]]]) -> tuple[Any, Any]:
    big_p, big_q = pairs[0]
    for p, q in pairs[1:]:
        big_p, big_q = product(big_p, p), product(big_q, q)
    return big_p, big_q


def rr_kfold_delta_enum(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """Hockey-stick divergence of k-fold RR(eps0) by enumeration of its ``2^k`` outputs."""
    big_p, big_q = _kfold(ctx, [randomized_response(ctx, to_ctx(ctx, eps0))] * k)
    return hockey_stick(ctx, big_p, big_q, to_ctx(ctx, eps))


def worst_mechanism(ctx: Any, eps0: Any, delta0: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The (eps0, delta0) four-output mechanism of [KOV] v4, Thm 3.3 (supplement, Sec. 5.1):
    ``P = (delta0, (1-delta0) e^eps0/(1+e^eps0), (1-delta0)/(1+e^eps0), 0)`` and its mirror Q."""
    y = ctx.exp(eps0)
    d0 = delta0
    hi = (1 - d0) * y / (1 + y)
    lo = (1 - d0) / (1 + y)
    return (d0, hi, lo, ctx.zero), (ctx.zero, lo, hi, d0)


def worst_kfold_delta_enum(ctx: Any, eps0: Any, delta0: Any, k: int, eps: Any) -> Any:
    """Hockey-stick divergence of the k-fold worst (eps0, delta0) mechanism over ``4^k``
    outputs."""
    pair = worst_mechanism(ctx, to_ctx(ctx, eps0), to_ctx(ctx, delta0))
    big_p, big_q = _kfold(ctx, [pair] * k)
    return hockey_stick(ctx, big_p, big_q, to_ctx(ctx, eps))


def het_rr_delta_enum(ctx: Any, eps_list: Sequence[Any], eps: Any) -> Any:
    """Hockey-stick divergence of the product of RR(eps_i) over its ``2^k`` outputs."""
    pairs = [randomized_response(ctx, to_ctx(ctx, e)) for e in eps_list]
    big_p, big_q = _kfold(ctx, pairs)
    return hockey_stick(ctx, big_p, big_q, to_ctx(ctx, eps))


def het_worst_delta_enum(ctx: Any, eps_list: Sequence[Any], delta_list: Sequence[Any],
                         eps: Any) -> Any:
    """Hockey-stick divergence of the product of the worst (eps_i, delta_i) mechanisms over its
    ``4^k`` outputs."""
    pairs = [worst_mechanism(ctx, to_ctx(ctx, e), to_ctx(ctx, d))
             for e, d in zip(eps_list, delta_list, strict=True)]
    big_p, big_q = _kfold(ctx, pairs)
    return hockey_stick(ctx, big_p, big_q, to_ctx(ctx, eps))


def _rational_hockey(p: Sequence[Fraction], q: Sequence[Fraction], r: Fraction) -> Fraction:
    return sum((max(a - r * b, Fraction(0)) for a, b in zip(p, q, strict=True)), Fraction(0))


def _random_mechanism(rng: random.Random, r: Fraction, delta0: Fraction
                      ) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """A random (log r, delta0)-DP pair on at most 4 outputs, checked exactly.

    Either the worst mechanism mixed with a random distribution U (``(1-lam) W + lam U`` on both
    sides keeps (eps0, delta0)-DP: the hockey-stick divergence is jointly convex and ``H_r(U ||
    U) = 0`` for ``r >= 1``) or a random pair whose ratios lie in ``[1/r, r]`` with a
    delta0-sized mass moved to private outputs; accepted only if both have mass 1 and
    both hockey-stick divergences at ``r`` are at most delta0 (exact rationals). A mixture is
    valid by construction, so one that fails the test is a bug (``RuntimeError``), never a
    silent retry that would leave the caller with the other branch only.
    """
    while True:
        n = rng.randint(2, 4)
        mixture = rng.random() < 0.5
        if mixture:
            lam = Fraction(rng.randint(1, 50), 100)
            u = [Fraction(rng.randint(1, 20)) for _ in range(4)]
            u = [x / sum(u) for x in u]
            w_p = (delta0, (1 - delta0) * r / (1 + r), (1 - delta0) / (1 + r), Fraction(0))
            w_q = (Fraction(0), (1 - delta0) / (1 + r), (1 - delta0) * r / (1 + r), delta0)
            p = tuple((1 - lam) * a + lam * b for a, b in zip(w_p, u, strict=True))
            q = tuple((1 - lam) * a + lam * b for a, b in zip(w_q, u, strict=True))
        else:
            base_q = [Fraction(rng.randint(1, 50)) for _ in range(n)]
            base_q = [x / sum(base_q) for x in base_q]
            f = [Fraction(rng.randint(0, 1000), 1000) for _ in range(n)]
            raw = [qi * (1 / r + (r - 1 / r) * fi) for qi, fi in zip(base_q, f, strict=True)]
            base_p = [x / sum(raw) for x in raw]
            a = Fraction(rng.randint(0, 100), 100) * delta0
            p = tuple([(1 - a) * x for x in base_p] + [a, Fraction(0)])[:4]
            q = tuple([(1 - a) * x for x in base_q] + [Fraction(0), a])[:4]
            if len(p) < n + 2:
                continue
        if _is_dp_pair(p, q, r, delta0):
            return p, q
        if mixture:
            raise RuntimeError(f"the mixture of the worst (log {r}, {delta0}) mechanism with "
                               f"lam = {lam} is not a (log r, delta0)-DP pair of laws: {p}, {q}")


def _is_dp_pair(p: Sequence[Fraction], q: Sequence[Fraction], r: Fraction, delta0: Fraction
                ) -> bool:
    """Whether ``p`` and ``q`` (nonnegative by construction) have mass 1 and both hockey-stick
    divergences at ``r`` at most ``delta0`` (exact)."""
    laws = sum(p) == 1 and sum(q) == 1
    return laws and _rational_hockey(p, q, r) <= delta0 and _rational_hockey(q, p, r) <= delta0


def adaptive_transcript(r: Fraction, delta0: Fraction, k: int, tree: int
                        ) -> tuple[list[Fraction], list[Fraction]]:
    """The laws of the transcript of k adaptively chosen (log r, delta0)-DP mechanisms: the
    mechanism at each step is drawn from a generator seeded by ``tree`` and the transcript
    prefix (a history-dependent choice). Exact rationals over at most ``4^k`` transcripts."""
    laws: list[tuple[tuple[int, ...], Fraction, Fraction]] = [((), Fraction(1), Fraction(1))]
    for _ in range(k):
        nxt = []
        for prefix, pp, qq in laws:
            rng = random.Random(f"{tree}/{prefix}")
            p, q = _random_mechanism(rng, r, delta0)
            for y, (a, b) in enumerate(zip(p, q, strict=True)):
                if a or b:
                    nxt.append(((*prefix, y), pp * a, qq * b))
        laws = nxt
    return [pp for _, pp, _ in laws], [qq for _, _, qq in laws]


@exact_params("r", "delta0")
def adaptive_delta(ctx: Any, r: Any, delta0: Any, k: int, eps: Any, tree: int, **_: Any) -> Any:
    """Exact hockey-stick divergence of a random adaptive composition (both orders)."""
    big_p, big_q = adaptive_transcript(Fraction(r), Fraction(delta0), k, tree)
    p = [ctx.num(x) for x in big_p]
    q = [ctx.num(x) for x in big_q]
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))
