"""Claim terms added after the formula-mutation harness (``bench/mutation.py``) found a survivor:
the Gaussian density helper ``formulas.gaussian.normal_pdf`` (the PLD density of STK-PLD-GAUSS,
used by the quadrature routes of many families) was only ever evaluated at ``mean = 0`` or
inside integrals that a density centred at the wrong place still passes.

- :func:`pdf_mirror_gap`: ``phi(m + d; m, s) - phi(m - d; m, s)`` (0: symmetric about its mean).
- :func:`pdf_peak_scaled`: ``s sqrt(2 pi) phi(m; m, s)`` (1: the peak value at the mean).

And (seed 2 of the second push) ``formulas.conversions.bs16_delta_shift`` with ``a = x/(2 rho)``
mutated to ``x rho/2`` survived: BS16-L36's claims bound it one-sidedly (below the Chernoff
delta) or through its own inverse (a round trip that the same wrong ``a`` passes).

- :func:`bs16_delta_cleared`: the quoted delta with the denominator cleared of ``a`` (equal).
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import Box, SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.gaussian import normal_pdf
from dpverify.theorems.symbolic import polynomial_roots


def pdf_mirror_gap(ctx: Any, mean: Any, d: Any, sd: Any, **_: Any) -> Any:
    return normal_pdf(ctx, mean + d, mean, sd) - normal_pdf(ctx, mean - d, mean, sd)


def pdf_peak_scaled(ctx: Any, mean: Any, sd: Any, **_: Any) -> Any:
    return normal_pdf(ctx, mean, mean, sd) * sd * ctx.sqrt(2 * ctx.pi)


def pdf_problem(part: str) -> SmtProblem:
    """STK-PLD-GAUSS claim 4, one part, for every real m, d and s > 0: ``pdf_mirror_gap = 0``
    (``"symmetric"``) or ``pdf_peak_scaled = 1`` (``"peak"``), the SAME bodies evaluated in the
    sympy context (sympy cancels ``e^{-(+-d/s)^2/2}`` and ``e^0``), pi written as a free ``P >
    0`` and each square root as an auxiliary ``r_i >= 0``. A body that leaves an exponential is
    outside the polynomial fragment (not proved)."""
    import sympy as sp

    ctx = SymCtx()
    mean, d = sp.symbols("m d", real=True)
    sd, pi_ = sp.symbols("s P", positive=True)
    if part == "symmetric":
        value, target = pdf_mirror_gap(ctx, mean, d, sd), 0
    else:
        value, target = pdf_peak_scaled(ctx, mean, sd), 1
    hyps, value, roots = polynomial_roots(sp.simplify(value.subs(sp.pi, pi_)))
    return SmtProblem({str(v): "real" for v in (mean, d, sd, pi_, *roots)},
                      (sp.Gt(sd, 0), sp.Gt(pi_, 0), *hyps), sp.Eq(value, target, evaluate=False),
                      ("P = pi > 0 (any positive)", f"part {part}"))


PDF_BOX = Box(reals={"mean": ("-5", "5"), "d": ("0", "5"), "sd": ("1/10", "10")},
              log_scale=frozenset({"sd"}))


def bs16_delta_cleared(ctx: Any, rho: Any, x: Any, **_: Any) -> Any:
    """The quoted [BS16] Lemma 3.6 delta at ``eps = rho + x`` with its denominator multiplied by
    ``2 rho`` (``1 + a = (eps + rho)/(2 rho)``): ``4 rho e^{-x^2/(4 rho)}/(eps + rho + sqrt((eps
    + rho)^2 + 16 rho/pi))`` — the same number from another arrangement, no ``a``."""
    s = x + 2 * rho  # eps + rho
    return 4 * rho * ctx.exp(-(x**2) / (4 * rho)) / (s + ctx.sqrt(s**2 + 16 * rho / ctx.pi))


BS16_BOX = Box(reals={"rho": ("1e-4", "50"), "x": ("0", "50")}, log_scale=frozenset({"rho"}))
