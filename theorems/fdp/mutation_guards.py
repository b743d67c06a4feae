"""Claim terms added after the formula-mutation harness (``bench/mutation.py``) found a survivor
in ``formulas.tradeoff_composition.rr_hom_vertices``: the complements ``1 - a_t = P(J < t)`` and
``1 - b_t = Q(J >= t)``, summed directly for accuracy, were only read through a conjugate whose
claims a shifted complement still passes.

- :func:`rr_complement_defect`: ``max_t max(|a_t + (1 - a_t) - 1|, |b_t + (1 - b_t) - 1|)`` over
  the vertices of ``f_{eps0,0}^{⊗k}`` (0: each complement is the complement of its coordinate).
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import Box
from dpverify.theorems.formulas.tradeoff_composition import rr_hom_vertices


def rr_complement_defect(ctx: Any, eps0: Any, k: int, **_: Any) -> Any:
    vertices = rr_hom_vertices(ctx, eps0, k, with_complements=True)
    return ctx.max(*(ctx.max(abs(a + ca - 1), abs(b + cb - 1)) for a, b, ca, cb in vertices))


RR_COMPLEMENT_BOX = Box(reals={"eps0": ("1/100", "3")}, ints={"k": (1, 30)})
