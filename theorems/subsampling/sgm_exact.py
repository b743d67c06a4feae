"""SGM-1STEP-EXACT: the exact one-step profile of the Poisson-subsampled Gaussian in both
directions, against direct quadrature.

Formulas: :mod:`dpverify.theorems.formulas.subsampled_gaussian`.
"""

from __future__ import annotations

from dpverify.theorems.claims import Box, Claim, Compare, Points, Tol
from dpverify.theorems.core import Choice, Evaluator, Theorem
from dpverify.theorems.formulas.subsampled_gaussian import (
    sgm1_add,
    sgm1_add_quad,
    sgm1_delta,
    sgm1_eps,
    sgm1_remove,
    sgm1_remove_quad,
)
from dpverify.theorems.params import DELTA, EPS, SIGMA, Q
from dpverify.theorems.refs import BBG, cite
from dpverify.theorems.subsampling.common import FAMILY, SGM_GRID


def _sgm1_claims() -> tuple[Claim, ...]:
    return (
        Claim(1, "Both closed forms equal the direct hockey-stick quadrature to 1e-35 "
                 "(absolute), (q, s) in {(0.01, 1), (0.1, 0.8), (0.5, 2)}, eps in "
                 "{0.01, 0.1, 1}.",
              (Compare(sgm1_add, "eq", sgm1_add_quad, SGM_GRID, "numeric", Tol.abs("1e-35"),
                       "add closed form", "quadrature of H(mix||N0)"),
               Compare(sgm1_remove, "eq", sgm1_remove_quad, SGM_GRID, "numeric",
                       Tol.abs("1e-35"), "remove closed form", "quadrature of H(N0||mix)")),
              scope="instance"),
        Claim(2, "remove <= add in the same cases.",
              (Compare(sgm1_remove, "le", sgm1_add, SGM_GRID, "numeric", lhs_name="remove",
                       rhs_name="add"),), scope="instance"),
        Claim(3, "remove <= add over the box q in [0.001, 1], s in [0.5, 10], eps in [0, 5] "
                 "(searched on q <= 0.999, eps >= 0.001: on the faces q = 1 and eps = 0 the two "
                 "directions are equal, which balls cannot certify as <=).",
              (Compare(sgm1_remove, "le", sgm1_add,
                       Box(reals={"q": ("0.001", "0.999"), "sigma": ("0.5", "10"),
                                  "eps": ("0.001", "5")}, log_scale=frozenset({"q", "sigma"})),
                       "property", lhs_name="remove", rhs_name="add"),)),
        Claim(4, "eps(0.01, 1, 1e-5) = 0.19945 (compare 0.95628 from RDP, BALLE20-CONV claim 3).",
              (Compare(sgm1_eps, "eq", lambda ctx, **_: ctx.num("0.19945"),
                       Points(({"q": "0.01", "sigma": "1", "delta": "1e-5"},)), "numeric",
                       Tol.abs("5e-6"), "SGM-1STEP-EXACT.eps(0.01, 1, 1e-5)", "0.19945"),),
              scope="instance"),
    )


DIRECTION_MAX = Choice("direction", ("add", "remove", "max"), default="max",
                       doc="add (mix vs N0), remove (N0 vs mix) or their maximum")


SGM_1STEP_EXACT = Theorem(
    id="SGM-1STEP-EXACT",
    title="Exact one-step privacy profile of the Poisson-subsampled Gaussian",
    family=FAMILY,
    source=cite(BBG, "derived from advanced joint convexity (Thm 2); no theorem number"),
    types=("EXACT",),
    confidence=("DERIVED",),
    statement="add (mix vs N0): q delta_G(log(1 + (e^eps - 1)/q)); remove (N0 vs mix): with a = "
              "e^eps (1-q), (1 - a) delta_G(log(e^eps q/(1 - a))) if a < 1, else 0; delta_G = "
              "BW-ANALYTIC-GAUSS with mu = 1/s; the profile is the maximum.",
    domain="q in (0, 1], s > 0, eps >= 0",
    evaluators=(
        Evaluator("delta", (Q, SIGMA, EPS, DIRECTION_MAX), sgm1_delta,
                  "add, remove, or their maximum (default)"),
        Evaluator("eps", (Q, SIGMA, DELTA), sgm1_eps,
                  "least eps >= 0 with max(add, remove) <= delta"),
    ),
    claims=_sgm1_claims(),
    notes="Claim 3 is searched by the property route only: interval branch and bound on the "
          "closed forms (3000 boxes, about 40 s) certified no box where the remove direction "
          "is positive (the Gaussian profile's box enclosures cancel), and the faces q = 1 and "
          "eps = 0, where both directions are equal, cannot be certified as <= by balls.",
)
