"""The exponential mechanism's output law.

Main results
------------
- :func:`exp_mech`: ``P[y] ∝ exp(eps u(y)/(2 Delta_u))`` on a finite output set, normalised in
  log space.

References
----------
- [MT07] F. McSherry, K. Talwar, *Mechanism Design via Differential Privacy*, FOCS 2007 (no
  arXiv); [DDR] J. Dong, D. Durfee, R. Rogers, arXiv 1909.13830 (version not recorded),
  Def. 2.3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def exp_mech(ctx: Any, eps: Any, utility: Sequence[Any], sensitivity: Any = 1) -> tuple[Any, ...]:
    """Exponential mechanism ``P[y] ∝ exp(eps u(y)/(2 Delta_u))`` (McSherry–Talwar 2007, no
    arXiv; [DDR] arXiv 1909.13830 Def. 2.3), normalised in log space."""
    logits = [eps * u / (2 * sensitivity) for u in utility]
    top = ctx.max(*logits)
    weights = [ctx.exp(v - top) for v in logits]
    total = ctx.fsum(weights)
    return tuple(w / total for w in weights)
