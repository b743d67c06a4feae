"""The one adapter through which check-bound reaches the catalogue's exact formulas.

The formulas are moving to ``dpverify.theorems.formulas`` (``kov_mv``, ``gaussian``); only the
imports below change when they do.
"""

from __future__ import annotations

from dpverify.theorems.composition import kov_delta, kov_eps, mv_delta, mv_eps
from dpverify.theorems.mechanisms import gauss_delta, gauss_eps

__all__ = ["gauss_delta", "gauss_eps", "kov_delta", "kov_eps", "mv_delta", "mv_eps"]
