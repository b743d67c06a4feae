"""The privacy budget of DP Lloyd (k-means) with T iterations.

Main results
------------
- :func:`lloyd_eps_step`: the per-release budget ``eps/(2T)``.
- :func:`lloyd_b`: the Laplace scale per entry ``4T/eps``.

References
----------
- [SmithLN] A. Smith, lecture notes (no arXiv), Algorithm 2, Prop. 2.1.
"""

from __future__ import annotations

from typing import Any


def lloyd_eps_step(ctx: Any, eps: Any, k: Any) -> Any:
    """Per-release budget ``eps' = eps/(2T)`` of DP Lloyd with T = k iterations ([SmithLN]
    Alg. 2, Prop. 2.1, no arXiv)."""
    return eps / (2 * k)


def lloyd_b(ctx: Any, eps: Any, k: Any) -> Any:
    """Laplace scale per entry ``Lap(2/eps') = 4T/eps`` (sensitivity 2 under replace-one;
    [SmithLN] Alg. 2, Prop. 2.1)."""
    return 4 * k / eps
