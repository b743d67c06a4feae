"""Claim terms and constants shared by the foundations theorems (no Theorem here): the family
name, the open-eps parameter, the exact tolerance, rational-to-context conversion, seeded
instances and the eps grid of the name-and-shame checks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Tol
from dpverify.theorems.params import EPS

FAMILY = "foundations"

EPS_POS = replace(EPS, lo_open=True)
TINY = Tol.abs("1e-30")

# eps at which SMITH-NAME-SHAME claim 2 and BLOG-DEF claim 2 exhibit their violations
BAYES_EPS_GRID = (Fraction(0), Fraction(1), Fraction(10), Fraction(1000))


def nums(ctx: Any, xs: Sequence[Fraction]) -> tuple[Any, ...]:
    """Exact rationals as numbers of ``ctx``."""
    return tuple(ctx.num(x) for x in xs)


def seeded(inst: int) -> random.Random:
    """The random generator of the instance drawn from the integer seed ``inst``."""
    return random.Random(inst)
