"""TEMPORARY shim, to be deleted at merge: theorems/foundations.py (split on another branch, not
edited here) still imports these names from the deleted ``theorems.mechanisms``. They live in
:mod:`dpverify.theorems.formulas.gaussian`, :mod:`~dpverify.theorems.formulas.gdp` and
:mod:`~dpverify.theorems.formulas.laplace`. It defines no theorem.
"""

from __future__ import annotations

from dpverify.theorems.formulas.gaussian import (
    gauss_delta,
    gauss_delta_output_quad,
    gauss_delta_pld_quad,
    gauss_tail,
)
from dpverify.theorems.formulas.gdp import gdp_delta
from dpverify.theorems.formulas.laplace import laplace_delta

__all__ = ["gauss_delta", "gauss_delta_output_quad", "gauss_delta_pld_quad", "gauss_tail",
           "gdp_delta", "laplace_delta"]
