"""The name-and-shame mechanism NS_delta0: each record ``(i, x_i)`` is published independently
with probability delta0. It is (0, delta0)-DP (delta-additive secrecy) with a flat privacy
profile, yet reveals the published records exactly.

Main results
------------
- :func:`name_shame_delta`: the flat profile ``delta(eps) = delta0``.
- :func:`name_shame_pair`, :func:`name_shame_profile`: the single-record pair and its exact
  both-order hockey-stick profile.
- :func:`name_shame_law`: the output law on n records.

References
----------
- [SmithLN] A. Smith, lecture notes (no arXiv), Eq. 8, Ex. 3.3.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from dpverify.theorems.numerics.finite import hockey_stick


def name_shame_delta(ctx: Any, delta0: Any, eps: Any) -> Any:
    """Flat privacy profile ``delta(eps) = delta0`` of the name-and-shame mechanism NS_delta0
    ([SmithLN] Eq. 8, Ex. 3.3, no arXiv)."""
    return delta0


def name_shame_pair(ctx: Any, delta0: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Single record: outputs ((i, 1), (i, 0), ⊥); x_i = 1 vs x_i = 0."""
    rest = 1 - delta0
    return (delta0, ctx.zero, rest), (ctx.zero, delta0, rest)


def name_shame_profile(ctx: Any, delta0: Any, eps: Any, **_: Any) -> Any:
    """Both-order hockey-stick ``max(H_{e^eps}(P||Q), H_{e^eps}(Q||P))`` of the single-record
    pair ([SmithLN] Ex. 3.3)."""
    p, q = name_shame_pair(ctx, delta0)
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def name_shame_law(ctx: Any, delta0: Any, x: Sequence[int]
                   ) -> dict[tuple[tuple[int, int], ...], Any]:
    """Output law of NS_delta0 on records x: each ``(i, x_i)`` published independently with
    probability delta0; an output is the tuple of published pairs."""
    out = {}
    for mask in itertools.product((0, 1), repeat=len(x)):
        key = tuple((i, x[i]) for i in range(len(x)) if mask[i])
        prob = ctx.one
        for bit in mask:
            prob = prob * (delta0 if bit else 1 - delta0)
        out[key] = prob
    return out
