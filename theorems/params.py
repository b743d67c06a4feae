"""The catalogue's parameter names with their standard domains (catalogue README, table).

Entries narrow or widen a domain where their statement says so, with ``dataclasses.replace``.
"""

from __future__ import annotations

from fractions import Fraction

from dpverify.theorems.core import Choice, Int, Real, RealList

EPS0 = Real("eps0", lo=0, doc="per-mechanism epsilon")
EPS0_POS = Real("eps0", lo=0, lo_open=True, doc="per-mechanism epsilon")
DELTA0 = Real("delta0", lo=0, hi=1, hi_open=True, doc="per-mechanism delta")
EPS_LIST = RealList("eps_list", Real("eps_list", lo=0), doc="per-mechanism epsilons")
DELTA_LIST = RealList(
    "delta_list", Real("delta_list", lo=0, hi=1, hi_open=True), doc="per-mechanism deltas"
)
K = Int("k", lo=1, doc="number of mechanisms / steps")
EPS = Real("eps", lo=0, doc="global epsilon at which a delta is evaluated")
EPS_REAL = Real("eps", doc="global epsilon (any real)")
DELTA = Real("delta", lo=0, hi=1, lo_open=True, hi_open=True, doc="target delta")
SIGMA = Real("sigma", lo=0, lo_open=True, doc="noise multiplier = noise std / sensitivity")
SENSITIVITY = Real("sensitivity", lo=0, lo_open=True, default="1", doc="sensitivity")
B = Real("b", lo=0, lo_open=True, doc="Laplace scale")
MU = Real("mu", lo=0, lo_open=True, doc="GDP parameter")
RHO = Real("rho", lo=0, lo_open=True, doc="zCDP parameter")
ALPHA = Real("alpha", lo=1, lo_open=True, doc="Renyi order")
Q = Real("q", lo=0, hi=1, lo_open=True, doc="sampling rate")
TAU = Real("tau", lo=0, doc="an RDP value at order alpha")
N = Int("n", lo=1, doc="number of rounds / databases")
M = Int("m", lo=1, doc="at most m databases")
NEIGHBORING = Choice("neighboring", ("add_remove", "replace_one"), default="add_remove")
DIRECTION = Choice("direction", ("add", "remove"))

HALF = Fraction(1, 2)
