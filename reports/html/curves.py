"""The fixed plots: privacy curves of the primitive mechanisms and two catalogue figures.

``delta(eps)`` of the Gaussian mechanism (sigma in {0.5, 1, 2}) and of the Laplace mechanism
when the registry has it encoded (``STK-LAPLACE.delta``); the hospital example against ``m``
(GCE) and DDR Figure 1.
"""

from __future__ import annotations

from fractions import Fraction

from dpverify.reports.html.figures import MP_BITS, Figure, Plots, _mp_value, _new_figure, _rc, _svg

GAUSS_SIGMAS = ("0.5", "1", "2")
LAPLACE_SCALES = ("0.5", "1", "2")
CURVE_EPS_MAX = 6
CURVE_POINTS = 121


def _privacy_curves(drawn: Plots) -> Figure:
    from dpverify.theorems.formulas.gaussian import gauss_delta

    xs = [Fraction(CURVE_EPS_MAX * i, CURVE_POINTS - 1) for i in range(CURVE_POINTS)]
    curves: list[tuple[str, str, list[float], list[float]]] = []
    for s in GAUSS_SIGMAS:
        sigma = Fraction(s)
        ys = [float(_mp_value(gauss_delta, {"sigma": sigma, "eps": x})) for x in xs]
        curves.append((f"Gaussian, sigma = {s}", "-", [float(x) for x in xs], ys))
    laplace = _laplace_curves(xs, drawn)
    curves += laplace
    with _rc():
        fig, ax = _new_figure()
        for label, style, cx, cy in curves:
            pts = [(x, y) for x, y in zip(cx, cy, strict=True) if y > 1e-16]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label)
        ax.set_yscale("log")
        ax.set_ylim(1e-16, 1.5)
        ax.set_xlabel("eps")
        ax.set_ylabel("delta(eps)")
        ax.legend(loc="lower left", fontsize=8)
        svg = _svg(fig, 0)
    what = "Gaussian (BW-ANALYTIC-GAUSS.delta)"
    if laplace:
        what += " and Laplace (STK-LAPLACE.delta)"
    return Figure(
        "plot-privacy-curves", "Privacy curves delta(eps) of the primitive mechanisms", svg,
        f"Exact privacy profiles of the {what}, sensitivity 1, evaluated in mpmath at "
        f"{MP_BITS} bits; values below 1e-16 are not drawn.")


HOSPITAL = {"eps0": "0.01", "n": 1000, "delta": "1e-6",
            "m": [1, 5, 10, 25, 50, 100, 200, 365, 500, 730, 1000]}
FIG1_EPS0, FIG1_DELTA = "0.1", "1e-6"
FIG1_BUDGETS = ["1", "2", "3", "5", "10", "20"]
FIG1_LABELS = {"basic": "basic", "dp_optcomp": "DP-OptComp (KOV, eps0)",
               "dr19": "DR19 (DRV-KL)", "dr19_kovkl": "DR19 (KOV-KL)", "optkl": "OptKL",
               "mgf": "MGF", "br_optcomp": "BR-OptComp (DDR-T3)",
               "dp_optcomp_half": "DP-OptComp (eps0/2)"}


def _hospital_figure(index: int) -> Figure:
    """[GCE] Sec. V-A1: the guarantee for 'each person in at most m of n databases' against m,
    beside classic composition over all n databases and parallel composition."""
    from dpverify.theorems.formulas.hdp import hospital_series

    h = HOSPITAL
    series = hospital_series(h["eps0"], h["n"], h["delta"], h["m"])
    labels = {"hdp": "GCE guarantee: optimal composition of the worst m (GCE-V1)",
              "classic_optimal": "classic optimal composition over all n (KOV-EPS)",
              "classic_basic": "classic basic composition (n eps0)",
              "parallel": "parallel composition (m eps0, pure DP only)"}
    with _rc():
        fig, ax = _new_figure()
        for key, label in labels.items():
            ax.plot(series["m"], series[key], "-o" if key == "hdp" else "--", label=label,
                    markersize=3)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("m (databases an individual can be in)")
        ax.set_ylabel(f"eps at delta = {h['delta']}")
        ax.legend(loc="upper left", fontsize=7)
        svg = _svg(fig, index)
    return Figure("plot-hospital", "Hospital example: guarantee against m", svg,
                  f"n = {h['n']} databases, eps0 = {h['eps0']} per database, delta = "
                  f"{h['delta']} (add/remove); m = 365 is the paper's example (GCE-PARCMP claim "
                  "1: 0.790 against 3.65 from parallel composition). Computed by "
                  "theorems.formulas.hdp.hospital_series in mpmath.")


def _figure1_figure(index: int) -> Figure:
    """[DDR] Fig. 1: how many eps0-BR queries fit in a budget, per composition bound."""
    from dpverify.theorems.formulas.br_figure1 import figure1_series

    series = figure1_series(FIG1_EPS0, FIG1_BUDGETS, FIG1_DELTA)
    xs = [float(b) for b in FIG1_BUDGETS]
    with _rc():
        fig, ax = _new_figure()
        for key, label in FIG1_LABELS.items():
            ax.plot(xs, series[key], "-o", label=label, markersize=3)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("budget eps")
        ax.set_ylabel("queries that fit")
        ax.legend(loc="upper left", fontsize=7)
        svg = _svg(fig, index)
    last = -1
    br, dp, dr19 = (series[k][last] for k in ("br_optcomp", "dp_optcomp", "dr19"))
    return Figure("plot-figure1", "DDR Figure 1: eps0-BR queries that fit a budget", svg,
                  f"eps0 = {FIG1_EPS0}, delta = {FIG1_DELTA} (the paper's parameters were not "
                  f"recovered). At budget {FIG1_BUDGETS[last]}: BR-OptComp/DP-OptComp = "
                  f"{br / dp:.2f} (paper: about 4x), BR-OptComp/DR19 = {br / dr19:.2f} (paper: "
                  "about 2x at small budgets; see the DDR-FIG1 claims). Double-precision "
                  "searches of theorems.formulas.br_figure1.figure1_series.")


def _laplace_curves(xs: list[Fraction], drawn: Plots) -> list[tuple[str, str, list[float],
                                                                     list[float]]]:
    from dpverify.theorems import get
    from dpverify.theorems.core import Real, UnknownName, bind

    try:
        th = get("STK-LAPLACE")
    except UnknownName:
        return []
    if not th.encoded:
        return []
    try:
        ev = th.evaluator("delta")
    except UnknownName:
        drawn.note("STK-LAPLACE has no 'delta' evaluator; no Laplace curve")
        return []
    free = [p for p in ev.params if p.name != "eps" and p.default is None]
    if len(free) != 1 or not isinstance(free[0], Real) or "eps" not in {p.name for p in
                                                                         ev.params}:
        drawn.note(f"STK-LAPLACE.{ev.signature()}: expected one scale parameter besides eps; "
                   "no Laplace curve")
        return []
    scale = free[0].name
    out = []
    for b in LAPLACE_SCALES:
        ys = []
        for x in xs:
            params = bind(ev.params, {scale: b, "eps": x}, f"STK-LAPLACE.{ev.name}")
            ys.append(float(_mp_value(ev.formula, params)))
        out.append((f"Laplace, {scale} = {b}", "--", [float(x) for x in xs], ys))
    return out
