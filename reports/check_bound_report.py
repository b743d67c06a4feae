"""Rendering of a check-bound document: text (terminal), JSON, Markdown, self-contained HTML.

Renders the document only (never re-checks): the verdict box, the counterexample table, the
tightness ratios beside the catalogue's known bounds, and in HTML inline SVG plots of target vs
optimum vs known bounds along each parameter through the focus point (the counterexample, or the
loosest point) and a heat map of the ratio over the two widest parameters. The SVG helpers are
those of :mod:`reports.html`.
"""

from __future__ import annotations

import html
import json
import math
from typing import Any

FORMATS = ("text", "json", "md", "html")


def _num(x: Any) -> str:
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


def _point(d: dict[str, Any], skip: tuple[str, ...] = ()) -> str:
    return ", ".join(f"{k}={_num(v)}" for k, v in d.items() if k not in skip)


CX_KEYS = ("bound", "reference", "margin", "relative_margin", "reproduce")


def _lines(doc: dict[str, Any]) -> list[tuple[str, str]]:
    t = doc["tightness"]
    rows = [("verdict", f"{doc['verdict'].upper()} — {doc['message']}"),
            ("bound", f"{doc['target']['text']} ({doc['target']['kind']}, "
                      f"{'lower' if doc['lower'] else 'upper'} bound on {doc['kind']})"),
            ("against", f"{doc['against']['name']}: {doc['against']['description']}"),
            ("region", _point({k: f"{v['lo']}..{v['hi']}" for k, v in
                               doc["region"]["parameters"].items()} | doc["region"]["fixed"])),
            ("tightness", f"ratio bound/optimum min {_num(t['min'])}, median "
                          f"{_num(t['median'])}, max {_num(t['max'])} over {t['points']} points"
                          + (f"; loosest at {_point(t['worst'], ('ratio',))}" if t.get("worst")
                             else ""))]
    s = doc["search"]
    rows.append(("search", f"{s['corners']} corners/edges, {s['spread']} quasi-random points, "
                           f"{s['examples']} hypothesis examples, "
                           f"{s['refined']} refinement points, {s['seconds']} s, seed "
                           f"{s['seed']} ({s['stop_reason']})"))
    if doc.get("proof"):
        p = doc["proof"]
        rows.append(("proof", f"{p['status']}: {p['reason']} ({p['boxes']} boxes, "
                              f"{p['seconds']} s)"))
    pts = doc["points"]
    rows.append(("points", ", ".join(f"{k} {v}" for k, v in pts.items())))
    return rows


def render_text(doc: dict[str, Any]) -> str:
    out = [f"{k:>10}: {v}" for k, v in _lines(doc)]
    cx = doc.get("counterexample")
    if cx:
        out.append(f"{'counterex.':>10}: {_point(cx, CX_KEYS)}")
        out.append(f"{'':>10}  bound {_num(cx['bound'])} < certified optimum in "
                   f"[{_num(cx['reference'][0])}, {_num(cx['reference'][1])}] (margin "
                   f"{_num(cx['margin'])}, relative {_num(cx['relative_margin'])})"
                   if not doc["lower"] else
                   f"{'':>10}  bound {_num(cx['bound'])} > certified optimum in "
                   f"[{_num(cx['reference'][0])}, {_num(cx['reference'][1])}] (margin "
                   f"{_num(cx['margin'])})")
        out.append(f"{'reproduce':>10}: {cx['reproduce']}")
    for kb in doc["known_bounds"]:
        out.append(f"{'known':>10}: {kb['label']} ({kb['id']}): ratio min {_num(kb['min'])}, "
                   f"median {_num(kb['median'])}, max {_num(kb['max'])}; the bound is tighter "
                   f"at {_num(kb['target_tighter_fraction'])} of {kb['points']} grid points")
    return "\n".join(out) + "\n"


def render_json(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, allow_nan=False, default=str) + "\n"


def _md_table(header: list[str], rows: list[list[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_num(c) for c in r) + " |" for r in rows]
    return out


def render_markdown(doc: dict[str, Any]) -> str:
    out = ["# dpverify check-bound", "", f"**{doc['verdict'].upper()}** — {doc['message']}", ""]
    out += _md_table(["", ""], [[k, v] for k, v in _lines(doc)[1:]])
    cx = doc.get("counterexample")
    if cx:
        out += ["", "## Counterexample (certified)", ""]
        out += _md_table(["parameter", "value"], [[k, v] for k, v in cx.items()
                                                  if k not in CX_KEYS])
        out += ["", f"bound {_num(cx['bound'])}; optimum in [{_num(cx['reference'][0])}, "
                    f"{_num(cx['reference'][1])}]; margin {_num(cx['margin'])}", "",
                f"Reproduce: `{cx['reproduce']}`"]
    out += ["", "## Tightness and known bounds", ""]
    t = doc["tightness"]
    rows = [["this bound", "—", t["min"], t["median"], t["max"], "—"]]
    rows += [[kb["label"], kb["id"], kb["min"], kb["median"], kb["max"],
              kb["target_tighter_fraction"]] for kb in doc["known_bounds"]]
    out += _md_table(["bound", "id", "min ratio", "median", "max", "this bound tighter at"],
                     rows)
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------
# HTML


def _curve_figure(curve: dict[str, Any], index: int) -> str:
    from dpverify.reports.html.figures import _new_figure, _rc, _svg

    with _rc():
        fig, ax = _new_figure(6.0, 3.2)
        for name, ys in curve["series"].items():
            pts = [(x, y) for x, y in zip(curve["x"], ys, strict=True)
                   if y is not None and isinstance(x, int | float) and math.isfinite(y)]
            if not pts:
                continue
            style = {"target": dict(lw=2.2, color="#c62828"),
                     "optimum": dict(lw=2.2, color="#1a7f37", ls="--")}.get(name, dict(lw=1))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=name, **style)
        if curve["log_scale"]:
            ax.set_xscale("log")
        ax.set_xlabel(curve["parameter"])
        ax.legend(fontsize=7)
        return _svg(fig, index)


def _heat_figure(heat: dict[str, Any], index: int) -> str:
    from dpverify.reports.html.figures import _new_figure, _rc, _svg

    with _rc():
        fig, ax = _new_figure(6.0, 4.0)
        data = [[math.nan if v is None else v for v in row] for row in heat["ratio"]]
        im = ax.imshow(data, origin="lower", aspect="auto", cmap="RdYlGn_r")
        xs, ys = heat["x"]["values"], heat["y"]["values"]
        ax.set_xticks(range(len(xs)), [f"{v:.3g}" for v in xs], rotation=60, fontsize=7)
        ax.set_yticks(range(len(ys)), [f"{v:.3g}" for v in ys], fontsize=7)
        ax.set_xlabel(heat["x"]["parameter"])
        ax.set_ylabel(heat["y"]["parameter"])
        ax.grid(False)
        fig.colorbar(im, ax=ax, label="bound / optimum")
        return _svg(fig, index)


def render_html(doc: dict[str, Any]) -> str:
    from dpverify.reports.html.page import CSS

    e = html.escape
    cls = {"proved": "exit0", "passed": "exit0", "failed": "exit1"}.get(doc["verdict"], "exit3")
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>dpverify check-bound"
             f"</title><style>{CSS}</style></head><body><h1>check-bound</h1>",
             f"<div class='status {cls}'>{e(doc['verdict'].upper())} — {e(doc['message'])}"
             "</div><table class='meta'>"]
    parts += [f"<tr><td>{e(k)}</td><td>{e(str(v))}</td></tr>" for k, v in _lines(doc)[1:]]
    parts.append("</table>")
    cx = doc.get("counterexample")
    if cx:
        parts.append("<h2>Counterexample (certified)</h2><div class='cx'><table>")
        parts += [f"<tr><td>{e(k)}</td><td>{e(_num(v))}</td></tr>" for k, v in cx.items()
                  if k != "reproduce"]
        parts.append(f"</table><pre>{e(cx['reproduce'])}</pre></div>")
    parts.append("<h2>Tightness and known bounds</h2><table><tr><th>bound</th><th>min</th>"
                 "<th>median</th><th>max</th><th>this bound tighter at</th></tr>")
    t = doc["tightness"]
    parts.append(f"<tr><td>this bound</td><td>{_num(t['min'])}</td><td>{_num(t['median'])}"
                 f"</td><td>{_num(t['max'])}</td><td>—</td></tr>")
    for kb in doc["known_bounds"]:
        parts.append(f"<tr><td>{e(kb['label'])} <code>{e(kb['id'])}</code></td><td>"
                     f"{_num(kb['min'])}</td><td>{_num(kb['median'])}</td><td>"
                     f"{_num(kb['max'])}</td><td>{_num(kb['target_tighter_fraction'])}</td></tr>")
    parts.append("</table>")
    plots = doc.get("plots") or {}
    if plots.get("curves") or plots.get("heatmap"):
        parts.append(f"<h2>Plots</h2><p class='muted'>through {e(_point(plots['focus']))}</p>")
        for i, c in enumerate(plots.get("curves", [])):
            parts.append(f"<figure>{_curve_figure(c, i)}<figcaption>bound, optimum and known "
                         f"bounds along {e(c['parameter'])}</figcaption></figure>")
        if plots.get("heatmap"):
            parts.append(f"<figure>{_heat_figure(plots['heatmap'], 99)}<figcaption>ratio "
                         "bound/optimum</figcaption></figure>")
    parts.append(f"<details><summary>document</summary><pre>{e(render_json(doc))}</pre>"
                 "</details></body></html>")
    return "\n".join(parts) + "\n"


def render(doc: dict[str, Any], fmt: str) -> str:
    return {"text": render_text, "json": render_json, "md": render_markdown,
            "html": render_html}[fmt](doc)


__all__ = ["FORMATS", "render", "render_html", "render_json", "render_markdown", "render_text",
           "validate"]


def validate(doc: Any) -> list[str]:
    """Problems of ``doc`` against ``schema/check-bound-v1.schema.json`` (empty: valid), with
    the schema-subset validator of :mod:`reports.schema`."""
    from pathlib import Path

    from dpverify.reports.schema import _check

    path = Path(__file__).with_name("schema") / "check-bound-v1.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    problems: list[str] = []
    _check(doc, schema, schema, "$", problems)
    return problems
