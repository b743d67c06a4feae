"""Claim terms that pin down output laws and test mechanisms the other foundations claims only
bound from one side (added after the formula-mutation harness, ``bench/mutation.py``, found
survivors: a DP bound keeps holding for many wrong "laws", so the laws themselves are checked).

- :func:`clamped_geometric_mass_defect`: the clamped two-sided geometric law of PAR sums to 1.
- :func:`adaptive_rr_mass_defect`: the transcript law of an adaptive RR strategy tree
  (SMITH-ADAPT-COMP) sums to 1 on either input.
- :func:`bayes_em_reference_gap`: the SMITH-BAYES test mechanism against a closed form: with
  ``h_j(v, a) = 1`` if ``a = 2j + v`` else 0, ``u(x, a) = [x_{floor(a/2)} = a mod 2]``, exactly
  three outputs have utility 1, and ``M(a|x) = e^{eps u(x,a)/2} / (3 e^{eps/2} + 3)``.
- :func:`posterior_ratio_reference_gap`: SMITH-BAYES's ``posterior_ratio_max`` (likelihood-ratio
  extremes times a normaliser ratio) against the posteriors written out by Bayes' rule, for
  random mechanisms and priors (its other claims only bound it from above).
- :func:`rr_eps_round_trip`: the closed-form inverse ``gce_homogeneous_rr_eps`` of PAR claim 3
  against the profile it inverts (a round trip): the claim compares it only with
  ``s eps0`` and two printed values.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Box
from dpverify.theorems.ctx import ArbCtx, Unsupported
from dpverify.theorems.formulas.adaptive_rr import adaptive_rr_transcripts
from dpverify.theorems.formulas.bayes_posterior import (
    BITS3,
    EM_OUTPUTS,
    bayes_em_mechanism,
    posterior_ratio_max,
    replace_record,
)
from dpverify.theorems.formulas.parallel_composition import (
    clamped_geometric,
    gce_homogeneous_rr_delta,
    gce_homogeneous_rr_eps,
)


def clamped_geometric_mass_defect(ctx: Any, eps: Any, s: int, width: int, **_: Any) -> Any:
    """``sum_o P[clamp(s + Z) = o] - 1`` on ``{0..s + width}`` (0 for a probability law)."""
    return ctx.fsum(clamped_geometric(ctx, eps, s, 0, s + width)) - 1


CLAMPED_BOX = Box(reals={"eps": ("1/100", "5")}, ints={"s": (0, 6), "width": (0, 6)},
                  log_scale=frozenset({"eps"}))


def adaptive_rr_mass_defect(ctx: Any, inst: int, k: int, **_: Any) -> Any:
    """The larger ``|sum_t P(t) - 1|`` of the two inputs, for a random strategy tree of depth k
    (eps_i in [0, 3], fractions in [0, 1], random flips; seeded by ``inst``)."""
    rng = random.Random(int(inst))
    eps_list = [ctx.num(rng.randint(0, 3000)) / 1000 for _ in range(k)]
    frac = [ctx.num(rng.randint(0, 1000)) / 1000 for _ in range(2**k - 1)]
    flip = [rng.randint(0, 1) for _ in range(2**k - 1)]
    return ctx.max(*(abs(ctx.fsum(adaptive_rr_transcripts(ctx, eps_list, frac, flip, bit)) - 1)
                     for bit in (0, 1)))


ADAPTIVE_BOX = Box(ints={"inst": (0, 10**9), "k": (1, 5)})


def bayes_em_reference_gap(ctx: Any, eps: Any, **_: Any) -> Any:
    """``max_{x, a} |M(a|x) - e^{eps u(x,a)/2}/(3 e^{eps/2} + 3)|`` for the indicator utility
    ``h_j(v, a) = [a = 2j + v]`` (laid out as the mechanism reads it: ``h[(2j + v) 6 + a]``)."""
    h = [ctx.one if a == 2 * j + v else ctx.zero
         for j in range(3) for v in (0, 1) for a in range(EM_OUTPUTS)]
    mech = bayes_em_mechanism(ctx, h, eps)
    half = ctx.exp(eps / 2)
    norm = 3 * half + 3
    gaps = [abs(mech[x][a] - (half if x[a // 2] == a % 2 else ctx.one) / norm)
            for x in BITS3 for a in range(EM_OUTPUTS)]
    return ctx.max(*gaps)


BAYES_BOX = Box(reals={"eps": ("0", "10")})


def posterior_ratio_reference_gap(ctx: Any, inst: int, **_: Any) -> Any:
    """``|posterior_ratio_max - max |ln p_{-i}(x|a)/p(x|a)||`` with the posteriors ``p(x|a) =
    pi(x) M(a|x)/sum_x' pi(x') M(a|x')`` and ``p_{-i}(x|a)`` (the output drawn from
    ``M(.|x^(i))``, x_i replaced by 0) written out by Bayes' rule ([SmithLN] Thm 3.1), for a
    random mechanism on {0,1}^3 with 6 outputs and 3 random priors, all positive rationals
    (seeded by ``inst``)."""
    rng = random.Random(int(inst))

    def law(n: int) -> list[Any]:
        w = [rng.randint(1, 1000) for _ in range(n)]
        return [ctx.num(Fraction(x, sum(w))) for x in w]

    mech = {x: law(EM_OUTPUTS) for x in BITS3}
    priors = [law(len(BITS3)) for _ in range(3)]
    best = ctx.zero
    for prior in priors:
        for i in range(3):
            for a in range(EM_OUTPUTS):
                joint = [w * mech[x][a] for w, x in zip(prior, BITS3, strict=True)]
                joint_i = [w * mech[replace_record(x, i, 0)][a]
                           for w, x in zip(prior, BITS3, strict=True)]
                total, total_i = ctx.fsum(joint), ctx.fsum(joint_i)
                for j, ji in zip(joint, joint_i, strict=True):
                    best = ctx.max(best, abs(ctx.log((ji / total_i) / (j / total))))
    return abs(posterior_ratio_max(ctx, mech, priors, BITS3) - best)


INSTANCE_BOX = Box(ints={"inst": (0, 10**9)})


ROUND_TRIP_REL = flint.arb(10) ** -20  # the inverse is closed-form: only rounding separates them


def rr_eps_round_trip(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> bool | None:
    """Is ``eps = gce_homogeneous_rr_eps(eps0, k, delta)`` the least eps >= 0 with
    ``gce_homogeneous_rr_delta(eps0, k, eps) <= delta``? It must be a finite number >= 0; where
    it is > 0 the profile (continuous, strictly decreasing while positive) must equal delta there
    (relative 1e-20), where it is 0 the profile at 0 must be <= delta. None when the balls do
    not decide it."""
    if not isinstance(ctx, ArbCtx):
        raise Unsupported("the round trip is decided on arb balls")
    eps = flint.arb(gce_homogeneous_rr_eps(ctx, eps0, k, delta))
    if not eps.is_finite() or eps < 0:
        return False
    back = flint.arb(gce_homogeneous_rr_delta(ctx, eps0, k, eps))
    if eps == 0:
        return ctx.le(back, delta)
    if not eps > 0:
        return None
    gap, allowed = abs(back - delta), ROUND_TRIP_REL * flint.arb(delta)
    return True if gap < allowed else False if gap > allowed else None


ROUND_TRIP_BOX = Box(reals={"eps0": ("1/20", "2"), "delta": ("1e-12", "9/10")},
                     ints={"k": (1, 30)}, log_scale=frozenset({"delta"}))
