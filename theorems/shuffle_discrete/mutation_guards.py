"""Claim terms that pin down engine internals the other shuffle claims only see through a
maximum (added after the formula-mutation harness, ``bench/mutation.py``, found survivors).

- :func:`count_vectors_are_canonical`: :func:`numerics.shuffle.count_vectors` yields each
  canonical count vector (``c_0 >= c_1``, ``c_2 >= c_3 >= ... >= c_{k-1}``, sum ``total``)
  exactly once and nothing else, against a brute-force filter of all compositions of ``total``
  into k parts (stars and bars). A generator that also yields non-canonical vectors leaves the
  maximum over count vectors unchanged (the values repeat under the symmetries) and only costs
  time, so the value claims cannot see it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from typing import Any

from dpverify.theorems.claims import Points
from dpverify.theorems.numerics.shuffle import count_vectors

COUNT_VECTORS_MAX_K, COUNT_VECTORS_MAX_TOTAL = 6, 10
# the claim's whole finite domain
COUNT_VECTORS_DOMAIN = Points(tuple({"k": k, "total": t}
                                    for k in range(2, COUNT_VECTORS_MAX_K + 1)
                                    for t in range(COUNT_VECTORS_MAX_TOTAL + 1)),
                              covers_domain=True)


def _compositions(k: int, total: int) -> Iterator[tuple[int, ...]]:
    """Every ``c`` in N^k with sum ``total``: bars at ``k - 1`` of ``total + k - 1`` places."""
    for bars in itertools.combinations(range(total + k - 1), k - 1):
        ends = (-1, *bars, total + k - 1)
        yield tuple(ends[i + 1] - ends[i] - 1 for i in range(k))


def _canonical(c: tuple[int, ...]) -> bool:
    return c[0] >= c[1] and all(c[i] >= c[i + 1] for i in range(2, len(c) - 1))


def count_vectors_are_canonical(ctx: Any, k: int, total: int, **_: Any) -> bool:
    """``count_vectors(k, total)``, as a multiset, equals the canonical compositions."""
    got = Counter(count_vectors(k, total))
    return got == Counter(c for c in _compositions(k, total) if _canonical(c))
