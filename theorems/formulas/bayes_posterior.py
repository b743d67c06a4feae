"""Bayesian semantics of pure DP: posteriors with one record replaced by a default value, and
the exponential mechanism used to test them.

Main results
------------
- :func:`bayes_em_mechanism`: an exponential mechanism on ``{0,1}^3`` with 6 outputs.
- :func:`replace_record`: ``x`` with ``x_i`` replaced by a value.
- :func:`posterior_ratio_max`: ``max |ln p_{-i}(x|a)/p(x|a)|`` over records, outputs and priors.

References
----------
- [SmithLN] A. Smith, lecture notes (no arXiv), Thm 3.1.
- [MT07] F. McSherry, K. Talwar, *Mechanism Design via Differential Privacy*, FOCS 2007 (no
  arXiv).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from dpverify.theorems.formulas.exponential_mechanism import exp_mech

BITS3 = tuple(itertools.product((0, 1), repeat=3))
EM_OUTPUTS = 6


def bayes_em_mechanism(ctx: Any, h: Sequence[Any], eps: Any) -> dict[tuple[int, ...], Any]:
    """Exponential mechanism on ``{0,1}^3`` with 6 outputs and utility ``u(x, a) = sum_j
    h_j(x_j, a)``, ``h_j in [0, 1]`` (sensitivity 1 under replace-one), run with factor eps/2
    ([SmithLN] Thm 3.1's test mechanism; McSherry–Talwar)."""
    def hj(j: int, v: int, a: int) -> Any:
        return h[(j * 2 + v) * EM_OUTPUTS + a]

    return {x: exp_mech(ctx, eps, [ctx.fsum(hj(j, x[j], a) for j in range(3))
                                   for a in range(EM_OUTPUTS)])
            for x in BITS3}


def replace_record(x: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """The dataset ``x`` with record ``x_i`` replaced by ``value``."""
    return (*x[:i], value, *x[i + 1:])


def posterior_ratio_max(ctx: Any, mech: dict[tuple[int, ...], Any],
                        priors: Sequence[Sequence[Any]], points: Sequence[tuple[int, ...]],
                        default: int = 0) -> Any:
    """``max |ln p_{-i}(x|a)/p(x|a)|`` over x, a, i and the given priors, where p_{-i} is the
    posterior had x_i been replaced by ``default`` ([SmithLN] Thm 3.1).

    ``p_{-i}(x|a)/p(x|a) = [M(a|x^{(i)})/M(a|x)] [sum_x' pi(x') M(a|x')/sum_x' pi(x')
    M(a|x'^{(i)})]``: the prior cancels from the first factor, so the extremes over x are the
    extremes of the likelihood ratio times the normaliser ratio.
    """
    n = len(points[0])
    n_out = len(mech[points[0]])
    best = ctx.one
    for i in range(n):
        for a in range(n_out):
            lik = [mech[x][a] for x in points]
            lik_i = [mech[replace_record(x, i, default)][a] for x in points]
            ratios = [li / lx for li, lx in zip(lik_i, lik, strict=True)]
            hi, lo = ctx.max(*ratios), ctx.min(*ratios)
            for prior in priors:
                norm = ctx.fsum(w * lx for w, lx in zip(prior, lik, strict=True))
                norm_i = ctx.fsum(w * li for w, li in zip(prior, lik_i, strict=True))
                c = norm / norm_i
                best = ctx.max(best, hi * c, 1 / (lo * c))
    return ctx.log(best)
