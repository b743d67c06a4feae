"""Group privacy: the guarantee for datasets that differ in k records.

Main results
------------
- :func:`group_eps`: ``k eps0`` (pure DP).
- :func:`group_delta`: ``k e^{(k-1) eps0} delta0`` (approximate DP).

References
----------
- [SmithLN] A. Smith, lecture notes (no arXiv), Lemma 1.7 (pure DP).
- [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of Differential Privacy* (2014, no
  arXiv), Sec. 2.3 (the approximate-DP analogue, standard).
"""

from __future__ import annotations

from typing import Any


def group_eps(ctx: Any, eps0: Any, k: int) -> Any:
    """Group privacy for pure DP: ``k eps0`` ([SmithLN] Lemma 1.7, no arXiv)."""
    return k * eps0


def group_delta(ctx: Any, eps0: Any, delta0: Any, k: int) -> Any:
    """Approximate-DP group privacy: ``k e^{(k-1) eps0} delta0`` (standard; not in [SmithLN],
    cf. [DR14] Sec. 2.3, no arXiv)."""
    return k * ctx.exp((k - 1) * eps0) * delta0
