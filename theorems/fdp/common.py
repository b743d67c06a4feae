"""Shared pieces of the fdp family: the ``fpr`` parameter, random finite pairs, constants."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Generated
from dpverify.theorems.core import Real

FAMILY = "fdp"

FPR = Real("fpr", lo=0, hi=1,
           doc="type-I error (false-positive rate) at which a trade-off function is evaluated")

# fpr grid used by the finite-pair predicates
FPR_GRID = tuple(Fraction(i, 20) for i in range(21))


def _random_dist(rng: random.Random, n: int, zeros: bool) -> tuple[Fraction, ...]:
    w = [rng.randint(0 if zeros else 1, 9) for _ in range(n)]
    if sum(w) == 0:
        w[0] = 1
    s = sum(w)
    return tuple(Fraction(x, s) for x in w)


def _draw_pair(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(2, 8)
    zeros = rng.random() < 0.3
    return {"p": _random_dist(rng, n, zeros), "q": _random_dist(rng, n, zeros),
            "x": Fraction(rng.randint(100, 400), 100), "delta": Fraction(rng.randint(0, 30), 100)}


PAIRS = Generated(_draw_pair, 150, "random rational pairs (P, Q) on 2 to 8 outcomes (zeros "
                  "allowed), x = e^eps rational in [1, 4], delta in [0, 0.3]")


def const(value: str) -> Any:
    return lambda ctx, **_: ctx.num(value)
