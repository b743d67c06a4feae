"""Adaptive compositions of randomized response: the law of the full transcript of a strategy
tree.

Main results
------------
- :func:`adaptive_rr_transcripts`: the probabilities of all ``2^k`` transcripts.

References
----------
- [SmithLN] A. Smith, lecture notes (no arXiv), Lemma 1.1 (the factorisation of
  ``P[A(x) = a]`` over the steps of an adaptive composition).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any


def adaptive_rr_transcripts(ctx: Any, eps_list: Sequence[Any], frac: Sequence[Any],
                            flip: Sequence[int], bit: int) -> tuple[Any, ...]:
    """Probabilities of all ``2^k`` transcripts of an adaptive RR strategy tree on input ``bit``.

    At step i with history h (node ``2^i - 1 + h`` in binary), the strategy runs RR with
    parameter ``eps_list[i] * frac[node]`` (never above the budget) on ``bit XOR flip[node]``.
    The transcript probability is the product of the step probabilities ([SmithLN] Lemma 1.1's
    factorisation, no arXiv).
    """
    k = len(eps_list)
    out = []
    for t in itertools.product((0, 1), repeat=k):
        prob = ctx.one
        for i in range(k):
            node = (1 << i) - 1 + int("".join(map(str, t[:i])) or "0", 2)
            z = ctx.exp(eps_list[i] * frac[node])
            truth = bit ^ flip[node]
            prob = prob * (z if t[i] == truth else ctx.one) / (1 + z)
        out.append(prob)
    return tuple(out)
