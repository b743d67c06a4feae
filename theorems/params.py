"""The catalogue's parameter names with their standard domains (catalogue README, table).

Entries narrow or widen a domain where their statement says so, with ``dataclasses.replace``.
"""

from __future__ import annotations

from fractions import Fraction

from dpverify.theorems.core import Choice, Int, Real, RealList

# Cost limits (not hypotheses of any theorem): the upper ends below are where exact evaluation
# stops finishing in the 50 s of `dpverify eval` (measured with bench/fuzz_cli_corpus.py-style
# timing); the message of a refusal gives the reason.
K_MAX = 10**7
K_REASON = ("a cost limit of dpverify: exact sums and products over k terms take about 2 s "
            "per 10^6 terms")
EPS_MAX = 1000
GAUSS_REASON = ("a cost limit of dpverify: Gaussian tails at such noise levels need more than "
                "the 65536-bit precision ceiling (sigma = 1000 takes 1 s, 10^4 over 30 s; "
                "sigma = 10^-3 takes 2 s, 10^-6 over 30 s)")
RHO_REASON = ("a cost limit of dpverify: conversions at such rho need more than the "
              "precision ceiling (rho = 10^-7 takes 5 s, 10^-9 over 30 s)")
EPS_REASON = ("a cost limit of dpverify: |eps| beyond 1000 (e^1000) is no privacy guarantee, and "
              "exact evaluation at such magnitudes does not finish")

EPS0 = Real("eps0", lo=0, doc="per-mechanism epsilon", ceiling=EPS_MAX,
            limit_reason=EPS_REASON)
EPS0_POS = Real("eps0", lo=0, lo_open=True, doc="per-mechanism epsilon", ceiling=EPS_MAX,
                limit_reason=EPS_REASON)
DELTA0 = Real("delta0", lo=0, hi=1, hi_open=True, doc="per-mechanism delta")
EPS_LIST = RealList("eps_list", Real("eps_list", lo=0, ceiling=EPS_MAX, limit_reason=EPS_REASON),
                    doc="per-mechanism epsilons")
DELTA_LIST = RealList(
    "delta_list", Real("delta_list", lo=0, hi=1, hi_open=True), doc="per-mechanism deltas"
)
K = Int("k", lo=1, doc="number of mechanisms / steps", ceiling=K_MAX, limit_reason=K_REASON)
EPS = Real("eps", lo=0, doc="global epsilon at which a delta is evaluated", ceiling=EPS_MAX,
           limit_reason=EPS_REASON)
EPS_REAL = Real("eps", doc="global epsilon (any real)", floor=-EPS_MAX, ceiling=EPS_MAX,
                limit_reason=EPS_REASON)
DELTA = Real("delta", lo=0, hi=1, lo_open=True, hi_open=True, doc="target delta")
SIGMA = Real("sigma", lo=0, lo_open=True, doc="noise multiplier = noise std / sensitivity",
             floor=Fraction(1, 1000), ceiling=1000, limit_reason=GAUSS_REASON)
SENSITIVITY = Real("sensitivity", lo=0, lo_open=True, default="1", doc="sensitivity")
B = Real("b", lo=0, lo_open=True, doc="Laplace scale")
MU = Real("mu", lo=0, lo_open=True, doc="GDP parameter", floor=Fraction(1, 1000), ceiling=1000,
          limit_reason=GAUSS_REASON)
RHO = Real("rho", lo=0, lo_open=True, doc="zCDP parameter", floor=Fraction(1, 10**7),
           ceiling=10**6, limit_reason=RHO_REASON)
ALPHA = Real("alpha", lo=1, lo_open=True, doc="Renyi order")
# not in the catalogue README's table (issue 16): the orders of a vector evaluator
ORDERS = RealList("orders", Real("orders", lo=1, lo_open=True), max_len=256,
                  doc="Renyi orders alpha > 1, comma-separated (one value per order)")
Q = Real("q", lo=0, hi=1, lo_open=True, doc="sampling rate")
Q_ONE = Real("q", lo=0, hi=1, lo_open=True, default="1",
             doc="Poisson sampling rate (1: no sampling)")
TAU = Real("tau", lo=0, doc="an RDP value at order alpha", ceiling=10**6,
           limit_reason="a cost limit of dpverify: conversions at tau = 10^6 take 1 s, at "
           "10^400 over 50 s")
N = Int("n", lo=1, doc="number of rounds / databases (GCE)", ceiling=10**8,
        limit_reason="a cost limit of dpverify: sums over n rounds take about 4 s at n = 10^8, "
        "40 s at 10^9")
# Shuffle model (catalogue shuffle_discrete.md): n users each apply an eps0-DP local randomizer
# (eps0 is the local parameter, eps and delta the central ones); k-ary randomized response has
# an alphabet of k >= 2 values. No cost limit: the closed forms cost the same for every n.
N_USERS = Int("n", lo=1, doc="number of users (shuffle model)")
K_ALPHABET = Int("k", lo=2, doc="alphabet size of k-ary randomized response")
EPS0_LOCAL = Real("eps0", lo=0, lo_open=True, doc="local epsilon of each user's randomizer "
                  "(shuffle model)", ceiling=EPS_MAX, limit_reason=EPS_REASON)
M = Int("m", lo=1, doc="at most m databases", ceiling=10**6,
        limit_reason="a cost limit of dpverify: GCE-PARCMP takes 37 s at m = 10^7")
NEIGHBORING = Choice("neighboring", ("add_remove", "replace_one"), default="add_remove")
DIRECTION = Choice("direction", ("add", "remove"))

HALF = Fraction(1, 2)

# Discrete mechanisms (catalogue shuffle_discrete.md): b and sigma are SCALES, sensitivity an
# integer.
DISCRETE_REASON = ("a cost limit of dpverify: the exact discrete sums take about s (sensitivity) "
                   "or 15 sigma terms per evaluation, and the inverses about 100 evaluations")
B_DISCRETE = Real("b", lo=0, lo_open=True, floor=Fraction(1, 1000), ceiling=10**4,
                  limit_reason=DISCRETE_REASON,
                  doc="scale of the discrete Laplace distribution, P[x] proportional to "
                      "e^{-|x|/b}")
SIGMA_SCALE = Real("sigma", lo=0, lo_open=True, floor=Fraction(1, 1000), ceiling=1000,
                   limit_reason=DISCRETE_REASON,
                   doc="scale parameter of the discrete Gaussian N_Z(0, sigma^2), P[x] "
                       "proportional to e^{-x^2/(2 sigma^2)} (not its standard deviation, "
                       "which is slightly smaller)")
SENSITIVITY_INT = Int("sensitivity", lo=1, default="1", ceiling=1000,
                      limit_reason=DISCRETE_REASON,
                      doc="integer sensitivity of an integer-valued query (discrete mechanisms)")
ALPHA_INT = Int("alpha", lo=2, ceiling=1000, doc="integer Renyi order >= 2",
                limit_reason="a cost limit of dpverify: the bound sums alpha binomial terms "
                             "(alpha = 10^4 takes over 30 s)")
Q_WOR = Real("q", lo=0, hi=1, lo_open=True,
             doc="sample fraction m/n (sampling without replacement)")
