"""Self-contained HTML rendering of a run: one file, no external assets.

The page has the run's status line, one table per family with a verdict badge per claim, the
evidence of every check in ``<details>`` blocks (counterexamples opened first), and inline SVG
plots drawn with matplotlib (imported lazily, without pyplot):

- the privacy curves ``delta(eps)`` of the primitive mechanisms: the Gaussian mechanism
  (``theorems.formulas.gaussian.gauss_delta``, sigma in {0.5, 1, 2}) and the Laplace mechanism when
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

Modules: :mod:`.page` (the HTML of tables and evidence), :mod:`.figures` (figures as inline
SVG), :mod:`.curves` (privacy curves and the catalogue's figures), :mod:`.margin` (margin plots
of refuted claims), :mod:`.ahead` (the same plots drawn while a run's checks run).
:func:`render` and :func:`_draw_plots` live here and call the plot makers through this
module's namespace, so that ``from dpverify.reports import html`` and ``html.render(doc)``
keep working and a test can replace one plot maker on ``html``.
"""

from __future__ import annotations

import html
import time
from typing import Any

from dpverify.reports.html.curves import _figure1_figure, _hospital_figure, _privacy_curves
from dpverify.reports.html.figures import Figure, Plots, _Skip
from dpverify.reports.html.margin import _margin_figure
from dpverify.reports.html.page import (
    CSS,
    _counts,
    _family_section,
    _findings,
    _meta,
    _plots_section,
)
from dpverify.reports.markdown import status_line

__all__ = ["MARGIN_PLOT_SECONDS", "PLOT_SECONDS", "ROUTE_PREFERENCE", "Figure", "Plots",
           "_draw_plots", "_figure1_figure", "_hospital_figure", "_margin_figure",
           "_privacy_curves", "render"]

PLOT_SECONDS = 30.0  # all plots of one report together
MARGIN_PLOT_SECONDS = 6.0  # one margin plot


# whose counterexample a margin plot is centred on: curated points before searched ones
ROUTE_PREFERENCE = {"numeric": 0, "oracle": 1, "property": 2, "interval": 3, "smt": 4}


def render(doc: dict[str, Any], plots: bool = True, plot_seconds: float = PLOT_SECONDS,
           drawn: Plots | None = None) -> str:
    """The HTML page of a run document (``plots=False``: tables and evidence only;
    ``drawn``: the plots already drawn for ``doc``, by :mod:`.ahead`)."""
    if drawn is None:
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


def _draw_plots(doc: dict[str, Any], deadline: float) -> Plots:
    drawn = Plots()
    if not _matplotlib(drawn):
        return drawn
    _fixed_figures({th["id"] for th in doc["theorems"] if th["claims"]}, drawn)
    for th in doc["theorems"]:
        for c in th["claims"]:
            if _wants_margin(c):
                _claim_figure(th["id"], c, drawn, deadline)
    return drawn


def _matplotlib(drawn: Plots) -> bool:
    try:
        import matplotlib  # noqa: F401  (lazy: only when a page with plots is rendered)
    except ImportError as exc:
        drawn.note(f"matplotlib is not available ({exc}); no plots")
        return False
    return True


def _fixed_figures(ids: set[str], drawn: Plots) -> None:
    """The figures that do not depend on the verdicts: the privacy curves, and the catalogue
    figures of the theorems ``ids`` (those with a claim in the run)."""
    try:
        drawn.figures.append(_privacy_curves(drawn))
    except Exception as exc:
        drawn.note(f"privacy curves: {type(exc).__name__}: {exc}")
    for needed, draw, what in ((("GCE-PARCMP", "GCE-V1"), _hospital_figure, "hospital example"),
                               (("DDR-FIG1",), _figure1_figure, "Figure 1")):
        if not ids.intersection(needed):
            continue
        try:
            drawn.figures.append(draw(len(drawn.figures)))
        except Exception as exc:
            drawn.note(f"{what}: {type(exc).__name__}: {exc}")


def _wants_margin(c: dict[str, Any]) -> bool:
    """A claim of the run document that gets a margin plot (or a note saying why not)."""
    return bool(c["expected"] == "refuted" or c["headline"] == "failed")


def _claim_figure(tid: str, c: dict[str, Any], drawn: Plots, deadline: float) -> None:
    """The margin plot of one claim (:func:`_wants_margin`) added to ``drawn``, or a note."""
    label = f"{tid} claim {c['number']}"
    failed = sorted((v for v in c["verdicts"] if v["status"] == "failed"
                     and isinstance(v.get("evidence", {}).get("counterexample"), dict)),
                    key=lambda v: ROUTE_PREFERENCE.get(v["route"], 9))
    if not failed:
        drawn.note(f"{label}: no counterexample with named parameters in the run "
                   f"(headline {c['headline']}); no margin plot")
        return
    if time.monotonic() > deadline:
        drawn.note(f"{label}: the time for plots ran out; no margin plot")
        return
    try:
        fig = _margin_figure(tid, c, failed[0],
                             min(deadline, time.monotonic() + MARGIN_PLOT_SECONDS),
                             len(drawn.figures))
    except _Skip as exc:
        drawn.note(f"{label}: {exc}")
        return
    except Exception as exc:
        drawn.note(f"{label}: margin plot failed: {type(exc).__name__}: {exc}")
        return
    drawn.figures.append(fig)
    drawn.margin_anchor[(tid, c["number"])] = fig.anchor
