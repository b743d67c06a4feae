"""Self-contained HTML rendering of a run: one file, no external assets.

The page has the run's status line, one table per family with a verdict badge per claim, the
evidence of every check in ``<details>`` blocks (counterexamples opened first), and inline SVG
plots drawn with matplotlib (imported lazily, without pyplot):

- the privacy curves ``delta(eps)`` of the primitive mechanisms: the Gaussian mechanism
  (``theorems.mechanisms.gauss_delta``, sigma in {0.5, 1, 2}) and the Laplace mechanism when
  the registry has it encoded (``STK-LAPLACE.delta``);
- for every claim that is refuted by design (a catalogue erratum) or came out ``failed`` with a
  counterexample that has numeric parameters: the claim's *violation* along one parameter,
  the others held at the counterexample. The check's two sides are evaluated at points around
  the counterexample (``theorems.get(id).claims[...].checks[...]``); the parameter shown is
  the first one along which the violation changes sign, and the crossing is located by
  bisection (e.g. DR-CLASSIC-GAUSS: ``true_delta/delta - 1`` over eps crosses 0 at eps*).

Reports render from the run JSON only: the plots evaluate theorem formulas, they do not re-run
any verification and never change a verdict. A plot that cannot be drawn (a formula that no
longer exists, a term that raises, a time limit) is skipped with a note in the page and a
warning on the ``dpverify.reports`` logger; it never breaks the report.
"""

from __future__ import annotations

import html
import io
import json
import logging
import math
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from dpverify.reports.markdown import status_line

LOG = logging.getLogger("dpverify.reports")

PLOT_SECONDS = 30.0  # all plots of one report together
MARGIN_PLOT_SECONDS = 6.0  # one margin plot
GAUSS_SIGMAS = ("0.5", "1", "2")
LAPLACE_SCALES = ("0.5", "1", "2")
CURVE_EPS_MAX = 6
CURVE_POINTS = 121
SCAN_COARSE = 25
SCAN_FINE = 101
MP_BITS = 200
# whose counterexample a margin plot is centred on: curated points before searched ones
ROUTE_PREFERENCE = {"numeric": 0, "oracle": 1, "property": 2, "interval": 3, "smt": 4}

BADGE = {
    "proved": ("proved", "#1a7f37"),
    "passed": ("passed", "#2f6fb5"),
    "failed": ("failed", "#c62828"),
    "inconclusive": ("inconclusive", "#8a6d00"),
    "not_applicable": ("n/a", "#6b6b6b"),
    "error": ("error", "#7b1fa2"),
}
OUTCOME = {
    "as_expected": ("as expected", "#1a7f37"),
    "unexpected": ("UNEXPECTED", "#c62828"),
    "inconclusive": ("undecided", "#8a6d00"),
    "error": ("crashed", "#7b1fa2"),
}

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:0 auto;
 max-width:1200px;padding:0 1em 3em;color:#1f2328;line-height:1.4}
h1{margin-bottom:.2em}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:1.6em}
.status{padding:.6em 1em;border-radius:6px;font-weight:600;margin:.6em 0}
.exit0{background:#dafbe1;border:1px solid #1a7f37}.exit1{background:#ffebe9;border:1px solid
 #c62828}.exit3{background:#fbefff;border:1px solid #7b1fa2}
table{border-collapse:collapse;width:100%;font-size:.92em}
th,td{border-bottom:1px solid #d8dee4;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
.meta td{border:none;padding:1px 8px 1px 0}.meta td:first-child{color:#57606a}
.badge{display:inline-block;padding:1px 7px;border-radius:10px;color:#fff;font-size:.85em;
 font-weight:600;white-space:nowrap}
tr.unexpected{background:#fff1f0}tr.error{background:#fbefff}
details{margin:.25em 0}summary{cursor:pointer}
pre{background:#f6f8fa;padding:.5em;overflow-x:auto;font-size:.85em;margin:.3em 0}
code{background:#f6f8fa;padding:0 3px}
.cx{border-left:3px solid #c62828;padding-left:.6em}
.muted{color:#57606a;font-size:.9em}
figure{margin:1em 0;border:1px solid #d8dee4;border-radius:6px;padding:.5em}
figure svg{max-width:100%;height:auto}
figcaption{font-size:.9em;color:#57606a}
.note{color:#8a6d00}
"""


@dataclass
class Figure:
    anchor: str
    title: str
    svg: str
    caption: str


@dataclass
class Plots:
    figures: list[Figure] = field(default_factory=list)
    margin_anchor: dict[tuple[str, int], str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        LOG.warning("report plot skipped: %s", text)
        self.notes.append(text)


class _Skip(Exception):
    """A plot that does not apply (said in a note, not an error)."""


# ------------------------------------------------------------------------------------------
# the page


def render(doc: dict[str, Any], plots: bool = True, plot_seconds: float = PLOT_SECONDS) -> str:
    """The HTML page of a run document (``plots=False``: tables and evidence only)."""
    drawn = _draw_plots(doc, time.monotonic() + plot_seconds) if plots else Plots()
    e = html.escape
    status = status_line(doc).replace("**", "")
    parts = [
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>dpverify report — {e(doc['profile'])} run</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>dpverify verification report</h1>",
        f"<div class='status exit{int(doc['exit_code'])}'>{e(status)}</div>",
        _meta(doc),
        _counts(doc),
    ]
    families: dict[str, list[dict[str, Any]]] = {}
    for th in doc["theorems"]:
        families.setdefault(th["family"], []).append(th)
    toc = [f"<a href='#family-{e(f)}'>{e(f)}</a>" for f in families]
    if drawn.figures:
        toc.append("<a href='#plots'>plots</a>")
    parts.append(f"<p class='muted'>Families: {' · '.join(toc)}</p>")
    parts.append(_findings(doc))
    for family, theorems in families.items():
        parts.append(_family_section(family, theorems, drawn))
    if drawn.figures or drawn.notes:
        parts.append(_plots_section(drawn))
    parts.append(
        "<p class='muted'>Rendered from the run document (schema "
        f"<code>{e(doc['schema'])}</code>); verification was not re-run for this page. The "
        "plots evaluate the theorems' formulas at the run's counterexamples.</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _badge(kind: str, table: Mapping[str, tuple[str, str]] = BADGE) -> str:
    label, color = table.get(kind, (kind, "#6b6b6b"))
    return f"<span class='badge' style='background:{color}'>{html.escape(label)}</span>"


def _meta(doc: dict[str, Any]) -> str:
    e = html.escape
    env = doc.get("environment", {})
    pkgs = ", ".join(f"{k} {v}" for k, v in env.get("packages", {}).items() if v)
    rows = [("command", f"<code>{e(doc['command'])}</code>"),
            ("created", e(doc["created"])),
            ("profile", e(doc["profile"])),
            ("duration", f"{doc['duration_seconds']} s, {doc['summary']['tasks']} checks"),
            ("python", e(f"{env.get('python', '?')} on {env.get('platform', '?')}")),
            ("packages", e(pkgs))]
    body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f"<table class='meta'>{body}</table>"


def _counts(doc: dict[str, Any]) -> str:
    h = doc["summary"]["headlines"]
    o = doc["summary"]["outcomes"]
    heads = " ".join(f"{_badge(k)} {n}" for k, n in h.items() if n)
    outs = " ".join(f"{_badge(k, OUTCOME)} {n}" for k, n in o.items() if n)
    return f"<p>Headlines: {heads or 'none'} &nbsp;·&nbsp; Outcomes: {outs or 'none'}</p>"


def _claim_anchor(tid: str, number: int) -> str:
    return f"claim-{tid}-{number}"


def _findings(doc: dict[str, Any]) -> str:
    e = html.escape
    items = []
    for th in doc["theorems"]:
        for c in th["claims"]:
            failed = any(v["status"] in ("failed", "error") for v in c["verdicts"])
            if c["outcome"] in ("unexpected", "error") or failed:
                why = ("erratum, refuted as expected" if c["outcome"] == "as_expected"
                       else c["outcome"])
                items.append(
                    f"<li><a href='#{_claim_anchor(th['id'], c['number'])}'>{e(th['id'])} "
                    f"claim {c['number']}</a> {_badge(c['headline'])} "
                    f"{_badge(c['outcome'], OUTCOME)} <span class='muted'>{e(why)}</span></li>")
    if not items:
        return "<h2>Findings</h2><p>No counterexample and no crash in this run.</p>"
    return f"<h2>Findings</h2><ul>{''.join(items)}</ul>"


def _family_section(family: str, theorems: list[dict[str, Any]], drawn: Plots) -> str:
    e = html.escape
    rows = []
    empty = []
    for th in theorems:
        if not th["claims"]:
            empty.append(th["id"] + ("" if th["encoded"] else "*"))
            continue
        for c in th["claims"]:
            rows.append(_claim_row(th, c, drawn))
    out = [f"<h2 id='family-{e(family)}'>{e(family)}</h2>"]
    if rows:
        out.append("<table><tr><th>theorem</th><th>#</th><th>claim</th><th>expected</th>"
                   "<th>verdict</th><th>outcome</th><th>routes</th></tr>")
        out += rows
        out.append("</table>")
    if empty:
        out.append(f"<p class='muted'>No claims checked in this run for: {e(', '.join(empty))}"
                   " (* not encoded yet).</p>")
    return "\n".join(out)


def _claim_row(th: dict[str, Any], c: dict[str, Any], drawn: Plots) -> str:
    e = html.escape
    anchor = _claim_anchor(th["id"], c["number"])
    expected = "refuted (erratum)" if c["expected"] == "refuted" else "holds"
    plot = drawn.margin_anchor.get((th["id"], c["number"]))
    plot_link = f" · <a href='#{plot}'>margin plot</a>" if plot else ""
    details = "".join(_verdict_details(c, v) for v in c["verdicts"])
    return (
        f"<tr id='{e(anchor)}' class='{e(c['outcome'])}'>"
        f"<td><b>{e(th['id'])}</b><br><span class='muted' title='{e(th['source'])}'>"
        f"{e(th['title'])}</span></td>"
        f"<td>{c['number']}</td>"
        f"<td>{e(c['text'])}{details}<span class='muted'>{plot_link}</span></td>"
        f"<td>{e(expected)}</td><td>{_badge(c['headline'])}</td>"
        f"<td>{_badge(c['outcome'], OUTCOME)}</td><td>{e(', '.join(c['routes']))}</td></tr>")


def _verdict_details(c: dict[str, Any], v: dict[str, Any]) -> str:
    e = html.escape
    ev = dict(v.get("evidence") or {})
    tb = ev.pop("traceback", None)
    seed = f", seed {v['seed']}" if v.get("seed") is not None else ""
    head = (f"check {v['check']} ({e(v['route'])}): {_badge(v['status'])} "
            f"<span class='muted'>{e(v['summary'])} — {v['seconds']} s{seed}</span>")
    body = []
    cx = ev.get("counterexample")
    if v["status"] == "failed" and cx is not None:
        rows = "".join(f"<tr><td>{e(str(k))}</td><td><code>{e(_short_json(x))}</code></td></tr>"
                       for k, x in (cx.items() if isinstance(cx, dict) else [("point", cx)]))
        sides = "".join(
            f"<tr><td>{name}</td><td><code>{e(str(ev[name]))}</code></td></tr>"
            for name in ("lhs", "rhs", "margin", "certified") if name in ev)
        erratum = (" (the claim is a catalogue erratum: this counterexample is the expected "
                   "finding)" if c["expected"] == "refuted" else "")
        body.append(f"<div class='cx'><b>Counterexample</b>{e(erratum)}<table>{rows}{sides}"
                    "</table>")
        if "reproduce" in ev:
            body.append(f"reproduce: <code>{e(ev['reproduce'])}</code>")
        body.append("</div>")
    body.append(f"<pre>{e(json.dumps(ev, indent=1, ensure_ascii=False))}</pre>")
    if tb:
        body.append(f"<pre>{e(tb)}</pre>")
    opened = " open" if v["status"] in ("failed", "error") else ""
    return f"<details{opened}><summary>{head}</summary>{''.join(body)}</details>"


def _short_json(x: Any) -> str:
    s = x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)
    return s if len(s) <= 300 else s[:297] + "..."


def _plots_section(drawn: Plots) -> str:
    e = html.escape
    out = ["<h2 id='plots'>Plots</h2>"]
    for f in drawn.figures:
        out.append(f"<figure id='{e(f.anchor)}'><b>{e(f.title)}</b>{f.svg}"
                   f"<figcaption>{e(f.caption)}</figcaption></figure>")
    if drawn.notes:
        out.append("<h3>Plot notes</h3><ul>")
        out += [f"<li class='note'>{e(n)}</li>" for n in drawn.notes]
        out.append("</ul>")
    return "\n".join(out)


# ------------------------------------------------------------------------------------------
# plots


def _draw_plots(doc: dict[str, Any], deadline: float) -> Plots:
    drawn = Plots()
    try:
        import matplotlib  # noqa: F401  (lazy: only when a page with plots is rendered)
    except ImportError as exc:
        drawn.note(f"matplotlib is not available ({exc}); no plots")
        return drawn
    try:
        drawn.figures.append(_privacy_curves(drawn))
    except Exception as exc:
        drawn.note(f"privacy curves: {type(exc).__name__}: {exc}")
    ids = {th["id"] for th in doc["theorems"] if th["claims"]}
    for needed, draw, what in ((("GCE-PARCMP", "GCE-V1"), _hospital_figure, "hospital example"),
                               (("DDR-FIG1",), _figure1_figure, "Figure 1")):
        if not ids.intersection(needed):
            continue
        try:
            drawn.figures.append(draw(len(drawn.figures)))
        except Exception as exc:
            drawn.note(f"{what}: {type(exc).__name__}: {exc}")
    for th in doc["theorems"]:
        for c in th["claims"]:
            if not (c["expected"] == "refuted" or c["headline"] == "failed"):
                continue
            label = f"{th['id']} claim {c['number']}"
            failed = sorted((v for v in c["verdicts"] if v["status"] == "failed"
                             and isinstance(v.get("evidence", {}).get("counterexample"), dict)),
                            key=lambda v: ROUTE_PREFERENCE.get(v["route"], 9))
            if not failed:
                drawn.note(f"{label}: no counterexample with named parameters in the run "
                           f"(headline {c['headline']}); no margin plot")
                continue
            if time.monotonic() > deadline:
                drawn.note(f"{label}: the time for plots ran out; no margin plot")
                continue
            try:
                fig = _margin_figure(th["id"], c, failed[0],
                                     min(deadline, time.monotonic() + MARGIN_PLOT_SECONDS),
                                     len(drawn.figures))
            except _Skip as exc:
                drawn.note(f"{label}: {exc}")
                continue
            except Exception as exc:
                drawn.note(f"{label}: margin plot failed: {type(exc).__name__}: {exc}")
                continue
            drawn.figures.append(fig)
            drawn.margin_anchor[(th["id"], c["number"])] = fig.anchor
    return drawn


def _svg(fig: Any, index: int) -> str:
    """The figure as inline SVG, its element ids made unique within the page."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    prefix = f"f{index}-"
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', text)
    text = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", text)
    return re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}{m.group(1)}"', text)


def _new_figure(width: float = 7.0, height: float = 3.6) -> Any:
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(width, height))
    return fig, fig.add_subplot()


def _rc() -> Any:
    import matplotlib

    return matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "dpverify",
                                  "font.size": 9, "axes.grid": True, "grid.alpha": 0.3})


@cache
def _mp_ctx(bits: int) -> Any:
    from dpverify.theorems.ctx import MpCtx

    return MpCtx(bits)  # building an mpmath context costs ~1 ms: one per precision


def _mp_value(formula: Callable[..., Any], params: Mapping[str, Any], bits: int = MP_BITS) -> Any:
    ctx = _mp_ctx(bits)
    if ctx.m.prec != bits:  # a formula left the precision changed: start afresh
        _mp_ctx.cache_clear()
        ctx = _mp_ctx(bits)
    return ctx.run(formula, **params)


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
    from dpverify.theorems.hypothesis_dp import hospital_series

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
                  "theorems.hypothesis_dp.hospital_series in mpmath.")


def _figure1_figure(index: int) -> Figure:
    """[DDR] Fig. 1: how many eps0-BR queries fit in a budget, per composition bound."""
    from dpverify.theorems.bounded_range import figure1_series

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
                  "searches of theorems.bounded_range.figure1_series.")


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


# -- margin plots --------------------------------------------------------------------------


def _exact_point(shown: Mapping[str, Any]) -> dict[str, Any]:
    """Invert ``verifiers.numeric.show_point``: exact strings back to Fractions."""
    from dpverify.theorems.core import DpVerifyError, parse_number

    def one(k: str, v: Any) -> Any:
        if isinstance(v, bool) or v is None:
            return v
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            return Fraction(v)
        if isinstance(v, str):
            try:
                return parse_number(v, k)
            except DpVerifyError:
                return v
        if isinstance(v, list):
            return tuple(one(k, x) for x in v)
        return v

    return {k: one(k, v) for k, v in shown.items()}


class _Violation:
    """How much a comparison is broken at a point, as a float (> 0: broken).

    ``le``/``lt``: ``(lhs - rhs)/|rhs|`` (``lhs - rhs`` when ``rhs`` is 0 at the
    counterexample); ``ge``/``gt`` the same with the sides swapped; ``eq``:
    ``log10(|lhs - rhs| / tol)`` (``|lhs - rhs|`` on a log axis for an exact equality).
    """

    def __init__(self, check: Any, cx: Mapping[str, Any]) -> None:
        self.check = check
        self.error = ""  # the first evaluation error, for the note when nothing evaluates
        bits = MP_BITS
        if check.tol is not None:
            bits = max(bits, int(check.tol.digits() * 3.33) + 32)
        self.bits = bits
        self.relative = False
        if check.op == "eq":
            tol = check.tol
            self.exact_eq = tol is None or (tol.abs_tol == 0 and tol.rel_tol == 0)
            self.label = (f"|{check.lhs_name} − {check.rhs_name}|" if self.exact_eq else
                          f"log10(|{check.lhs_name} − {check.rhs_name}| / tol)")
            return
        self.exact_eq = False
        _, b = self._sides(cx)
        self.relative = b != 0
        big, small = ((check.lhs_name, check.rhs_name) if check.op in ("le", "lt")
                      else (check.rhs_name, check.lhs_name))
        self.label = (f"({big} − {small}) / |{small}|" if self.relative
                      else f"{big} − {small}")

    def _sides(self, point: Mapping[str, Any]) -> tuple[Any, Any]:
        lhs = _mp_value(self.check.lhs, point, self.bits)
        rhs = _mp_value(self.check.rhs, point, self.bits)
        return (lhs, rhs) if self.check.op in ("le", "lt", "eq") else (rhs, lhs)

    def __call__(self, point: Mapping[str, Any]) -> float | None:
        try:
            a, b = self._sides(point)
            if self.check.op == "eq":
                diff = abs(a - b)
                if self.exact_eq:
                    return float(diff)
                tol = self.check.tol
                t = float(tol.abs_tol) + float(tol.rel_tol) * abs(float(b))
                if diff == 0:
                    return None
                return float(math.log10(float(diff)) - math.log10(t))
            if self.relative:
                if b == 0:
                    return None
                return float((a - b) / abs(b))
            return float(a - b)
        except Exception as exc:  # outside the formula's domain: no value at this point
            self.error = self.error or f"{type(exc).__name__}: {exc}"
            return None


def _scan_values(region: Any, name: str, x: Fraction | int, n: int) -> tuple[list[Any], bool]:
    """Values of ``name`` to scan: the Box's range when the check has one, else around x."""
    from dpverify.theorems.claims import Box

    if isinstance(x, int):
        lo, hi = max(1, x // 3), max(x * 2, x + 6)
        if isinstance(region, Box) and name in region.ints:
            lo, hi = region.ints[name]
        step = max(1, (hi - lo) // n)
        return list(range(lo, hi + 1, step)), False
    log = False
    if isinstance(region, Box) and name in region.reals:
        lo, hi = (Fraction(region.reals[name][0]), Fraction(region.reals[name][1]))
        log = name in region.log_scale and lo > 0
    elif x > 0 and x < Fraction(1, 1000):
        lo, hi, log = x / 1000, x * 1000, True
    elif x > 0:
        lo, hi = Fraction(0), 2 * x
    elif x < 0:
        lo, hi = 2 * x, Fraction(0)
    else:
        lo, hi = Fraction(-1), Fraction(1)
    if log:
        a, b = math.log(lo), math.log(hi)
        vals = [Fraction(math.exp(a + (b - a) * i / (n - 1))) for i in range(n)]
        vals[0], vals[-1] = lo, hi
    else:
        vals = [lo + (hi - lo) * Fraction(i, n - 1) for i in range(n)]
    if x not in vals and lo <= x <= hi:
        vals = sorted([*vals, x])
    return vals, log


def _scan(violation: _Violation, cx: Mapping[str, Any], name: str, values: list[Any],
          deadline: float) -> tuple[list[Any], list[float]]:
    xs, ys = [], []
    for v in values:
        if time.monotonic() > deadline:
            break
        y = violation({**cx, name: v})
        if y is not None and math.isfinite(y):
            xs.append(v)
            ys.append(y)
    return xs, ys


def _sign_changes(xs: list[Any], ys: list[float]) -> list[tuple[Any, Any]]:
    return [(xs[i], xs[i + 1]) for i in range(len(xs) - 1)
            if (ys[i] > 0) != (ys[i + 1] > 0)]


def _bisect(violation: _Violation, cx: Mapping[str, Any], name: str, a: Fraction,
            b: Fraction, deadline: float) -> Fraction | None:
    ya = violation({**cx, name: a})
    if ya is None:
        return None
    for _ in range(48):
        if time.monotonic() > deadline or abs(b - a) <= abs(b) * Fraction(1, 10**9):
            break
        m = (a + b) / 2
        m = Fraction(float(m))  # keep the denominators small
        ym = violation({**cx, name: m})
        if ym is None:
            return None
        if (ym > 0) == (ya > 0):
            a, ya = m, ym
        else:
            b = m
    return (a + b) / 2


def _margin_figure(tid: str, c: dict[str, Any], verdict: dict[str, Any], deadline: float,
                   index: int) -> Figure:
    from dpverify.theorems import get
    from dpverify.theorems.claims import Compare

    theorem = get(tid)
    claim = next((cl for cl in theorem.claims if cl.number == c["number"]), None)
    if claim is None or verdict["check"] >= len(claim.checks):
        raise _Skip("the claim or check of the run is not in the catalogue any more")
    check = claim.checks[verdict["check"]]
    if not isinstance(check, Compare):
        raise _Skip(f"check {verdict['check']} is not a comparison of two formulas")
    recorded = verdict["evidence"].get("check")
    if recorded is not None and recorded != check.describe():
        raise _Skip(f"check {verdict['check']} changed since the run ({recorded!r} then, "
                    f"{check.describe()!r} now)")
    shown = verdict["evidence"]["counterexample"]
    cx = _exact_point(shown)
    candidates = [k for k, v in cx.items() if isinstance(v, Fraction)]
    candidates += [k for k, v in cx.items() if isinstance(v, int) and not isinstance(v, bool)]
    if not candidates:
        raise _Skip("the counterexample has no numeric scalar parameter to vary")
    violation = _Violation(check, cx)
    chosen = None
    for name in candidates:
        values, _ = _scan_values(check.region, name, cx[name], SCAN_COARSE)
        xs, ys = _scan(violation, cx, name, values, deadline)
        if _sign_changes(xs, ys):
            chosen = name
            break
    chosen = chosen or candidates[0]
    values, log = _scan_values(check.region, chosen, cx[chosen], SCAN_FINE)
    xs, ys = _scan(violation, cx, chosen, values, deadline)
    if len(xs) < 2:
        raise _Skip(f"the check's sides could not be evaluated along {chosen}"
                    + (f" ({violation.error})" if violation.error else ""))
    crossings = []
    if not isinstance(cx[chosen], int) and not violation.exact_eq:
        for a, b in _sign_changes(xs, ys)[:4]:
            root = _bisect(violation, cx, chosen, a, b, deadline)
            if root is not None:
                crossings.append(root)
    partial = len(xs) < len(values) and time.monotonic() > deadline
    with _rc():
        fig, ax = _new_figure()
        fx = [float(x) for x in xs]
        ax.plot(fx, ys, "-", color="#2f6fb5", lw=1.5, label=violation.label)
        if not violation.exact_eq:
            ax.axhline(0, color="#c62828", lw=0.8)
            ymax = max(max(ys), 0)
            if ymax > 0:
                ax.axhspan(0, ymax * 1.05 + 1e-300, color="#c62828", alpha=0.08,
                           label="claim broken")
        x0 = float(cx[chosen])
        y0 = violation(cx)
        ax.axvline(x0, color="#555555", ls=":", lw=0.8)
        if y0 is not None:
            ax.plot([x0], [y0], "o", color="#c62828", label="counterexample")
        for i, r in enumerate(crossings):
            ax.axvline(float(r), color="#1a7f37", ls="--", lw=0.8,
                       label=f"sign change at {chosen} ≈ {float(r):.6g}" if i < 2 else None)
        if log:
            ax.set_xscale("log")
        if violation.exact_eq:
            ax.set_yscale("log")
        elif max(abs(y) for y in ys) > 10:
            ax.set_yscale("symlog", linthresh=1.0)
        ax.set_xlabel(chosen)
        ax.set_ylabel(violation.label)
        ax.legend(loc="best", fontsize=8)
        svg = _svg(fig, index)
    others = ", ".join(f"{k} = {_short_json(v)}" for k, v in shown.items() if k != chosen)
    cross_txt = ("; the sign changes at " + ", ".join(f"{chosen} ≈ {float(r):.6g}"
                                                     for r in crossings)) if crossings else ""
    broken = ("The claim is broken wherever the difference is not 0." if violation.exact_eq
              else "The claim is broken where the curve is above 0.")
    erratum = (" The claim is a catalogue erratum (expected refuted)."
               if c["expected"] == "refuted" else "")
    return Figure(
        f"plot-margin-{tid}-{c['number']}",
        f"{tid} claim {c['number']}: violation along {chosen}",
        svg,
        f"Check {verdict['check']} ({verdict['route']}): {check.describe()}. {broken} Other "
        f"parameters at the counterexample ({others or 'none'}); the dotted line marks the "
        f"counterexample{cross_txt}.{erratum}"
        + (" The scan stopped at the time limit." if partial else ""))
