"""Rendering of an accountant audit (``dpverify audit``): Markdown and self-contained HTML.

Both render from the audit's records (the JSON of ``dpverify audit --format json``) plus a small
``meta`` dict (scenario set, options, command, scenario descriptions, baseline comparison); they
never re-run anything. The HTML page draws, per accountant, an inline SVG plot of its claimed
epsilon against the certified epsilon (log-log): the diagonal is the truth, a point below it is
an under-report (UNSOUND when it is below the certified lower bound), the dashed line is the
loose factor. :func:`markdown_section` and :func:`html_section` give the audit as a section that
another report can embed.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from dpverify.verifiers.accountants.audit import checked

VERDICT_ORDER = ("UNSOUND", "ERROR", "INCONCLUSIVE", "LOOSE", "SOUND", "UNSUPPORTED")
COLOR = {"SOUND": "#1a7f37", "LOOSE": "#b35900", "UNSOUND": "#c62828", "ERROR": "#7b1fa2",
         "UNSUPPORTED": "#6b6b6b", "INCONCLUSIVE": "#8a6d00"}


def _num(x: Any, digits: int = 6) -> str:
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}g}"


def _ref(r: dict[str, Any]) -> str:
    ref = r.get("reference")
    if not ref:
        return "—"
    return f"[{_num(ref[0], 8)}, {_num(ref[1], 8)}]"


def _margin(r: dict[str, Any]) -> str:
    m = r.get("margin")
    if not m:
        if r.get("ratio") is not None:
            return f"x{_num(r['ratio'], 3)}"
        return ""
    rel = m.get("relative")
    rel_s = f" ({_num(100 * rel, 3)}%)" if isinstance(rel, int | float) else ""
    return f"−{_num(m.get('absolute'), 4)}{rel_s}"


def counts(records: Sequence[dict[str, Any]]) -> dict[str, int]:
    out = {v: 0 for v in VERDICT_ORDER}
    for r in records:
        out[r["verdict"]] = out.get(r["verdict"], 0) + 1
    return out


def per_accountant(records: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        out.setdefault(r["accountant"], []).append(r)
    return out


def no_findings_text(records: Sequence[dict[str, Any]]) -> str:
    if not checked(records):
        return ("Nothing was checked: no query was judged against a certified reference "
                "(see the summary: UNSUPPORTED, ERROR, INCONCLUSIVE).")
    return "No accountant under-reports (no UNSOUND), no errors."


def status_text(records: Sequence[dict[str, Any]], meta: dict[str, Any]) -> str:
    c = counts(records)
    parts = [f"{n} {v}" for v, n in c.items() if n]
    n_acc = len(per_accountant(records))
    head = (f"{len(records)} queries of {n_acc} accountant(s): " + ", ".join(parts)
            + f"; {checked(records)} checked against a certified reference"
            if records else "no queries")
    base = meta.get("baseline")
    if base is not None:
        n = len(base.get("regressions", []))
        head += f"; baseline: {n} regression(s) in {base.get('compared', 0)} compared"
    return head


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _meta_lines(meta: dict[str, Any]) -> list[str]:
    lines = []
    if meta.get("scenarios"):
        lines.append(f"- scenario set: `{meta['scenarios']}` "
                     f"({len(meta.get('cases', []))} scenarios)")
    opts = []
    if meta.get("timeout") is not None:
        opts.append(f"per-call timeout {_num(meta['timeout'])} s")
    if meta.get("loose_factor") is not None:
        opts.append(f"LOOSE above {_num(meta['loose_factor'])} x the certified upper bound")
    if meta.get("rtol") is not None:
        opts.append(f"float tolerance rtol {_num(meta['rtol'])}")
    if opts:
        lines.append("- " + "; ".join(opts))
    if meta.get("command"):
        lines.append(f"- command: `{meta['command']}`")
    if meta.get("seconds") is not None:
        lines.append(f"- wall time: {_num(meta['seconds'], 3)} s")
    if meta.get("executor"):
        ex = meta["executor"]
        where = f" at {ex['scheduler']}" if ex.get("scheduler") else ""
        lines.append(f"- executor: {ex['name']}{where}, {ex['workers']} workers")
    return lines


# ------------------------------------------------------------------------------------------
# Markdown


def markdown_section(records: Sequence[dict[str, Any]], meta: dict[str, Any],
                     level: int = 2) -> str:
    h = "#" * level
    out: list[str] = [f"**{status_text(records, meta)}**", ""]
    if meta.get("gate"):
        out += [f"**{meta['gate']}**", ""]
    out += _meta_lines(meta)
    out.append("")
    findings = [r for r in records if r["verdict"] in ("UNSOUND", "ERROR", "INCONCLUSIVE")]
    out.append(f"{h} Findings")
    out.append("")
    if findings:
        out.append("| accountant | scenario | query | verdict | claimed | certified [lo, hi] "
                   "| margin | detail |")
        out.append("|---|---|---|---|---|---|---|---|")
        for r in findings:
            out.append(f"| {_cell(r['accountant'])} | {_cell(r['scenario'])} | "
                       f"{_cell(r['query'])} | **{r['verdict']}** | {_num(r.get('claimed'), 10)}"
                       f" | {_ref(r)} | {_margin(r)} | {_cell(r.get('detail', ''))} |")
        out.append("")
        cmds = sorted({r["reproduce"] for r in findings if r.get("reproduce")})
        if cmds:
            out.append("Reproduce:")
            out.append("")
            out += [f"    {c}" for c in cmds]
            out.append("")
    else:
        out.append(no_findings_text(records))
        out.append("")
    out.append(f"{h} Summary per accountant")
    out.append("")
    out.append("| accountant | " + " | ".join(VERDICT_ORDER) + " |")
    out.append("|---|" + "---|" * len(VERDICT_ORDER))
    for acc, recs in per_accountant(records).items():
        c = counts(recs)
        out.append(f"| {_cell(acc)} | " + " | ".join(str(c[v]) for v in VERDICT_ORDER) + " |")
    out.append("")
    base = meta.get("baseline")
    if base is not None:
        out.append(f"{h} Baseline comparison")
        out.append("")
        regs = base.get("regressions", [])
        out.append(f"{base.get('compared', 0)} records compared (value tolerance "
                   f"{_num(base.get('tolerance'))} relative); {len(regs)} regression(s).")
        out.append("")
        if regs:
            out.append("| accountant | scenario | query | change |")
            out.append("|---|---|---|---|")
            for g in regs:
                out.append(f"| {_cell(g['accountant'])} | {_cell(g['scenario'])} | "
                           f"{_cell(g['query'])} | {_cell(g['detail'])} |")
            out.append("")
        for name in ("only_in_baseline", "only_in_new"):
            if base.get(name):
                out.append(f"{name.replace('_', ' ')}: {len(base[name])} record(s)")
        out.append("")
    out.append(f"{h} All results")
    for acc, recs in per_accountant(records).items():
        out.append("")
        out.append(f"{h}# {acc}")
        out.append("")
        out.append("| scenario | query | verdict | claimed | certified [lo, hi] | seconds "
                   "| detail |")
        out.append("|---|---|---|---|---|---|---|")
        for r in recs:
            out.append(f"| {_cell(r['scenario'])} | {_cell(r['query'])} | {r['verdict']} | "
                       f"{_num(r.get('claimed'), 10)} | {_ref(r)} | {_num(r.get('seconds'), 3)}"
                       f" | {_cell(r.get('detail', ''))} |")
    cases = meta.get("cases") or []
    if cases:
        out.append("")
        out.append(f"{h} Scenarios")
        out.append("")
        for c in cases:
            note = f" — {c['note']}" if c.get("note") else ""
            out.append(f"- `{c['id']}`: {c.get('description', '')}{note}")
    out.append("")
    return "\n".join(out)


def render_markdown(records: Sequence[dict[str, Any]], meta: dict[str, Any]) -> str:
    return "# dpverify accountant audit\n\n" + markdown_section(records, meta)


# ------------------------------------------------------------------------------------------
# HTML with inline SVG


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:0 auto;
 max-width:1200px;padding:0 1em 3em;color:#1f2328;line-height:1.4}
h2{border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:1.6em}
.status{padding:.6em 1em;border-radius:6px;font-weight:600;margin:.6em 0}
.ok{background:#dafbe1;border:1px solid #1a7f37}.bad{background:#ffebe9;border:1px solid #c62828}
table{border-collapse:collapse;width:100%;font-size:.9em}
th,td{border-bottom:1px solid #d8dee4;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
.badge{display:inline-block;padding:1px 7px;border-radius:10px;color:#fff;font-size:.85em}
.plots{display:flex;flex-wrap:wrap;gap:1em}.plot{border:1px solid #d8dee4;border-radius:6px;
 padding:.4em}
code{background:#f6f8fa;padding:1px 4px;border-radius:4px}
"""


def _badge(v: str) -> str:
    return f'<span class="badge" style="background:{COLOR.get(v, "#444")}">{html.escape(v)}</span>'


def _plot_points(recs: Sequence[dict[str, Any]]) -> list[tuple[float, float, float, float,
                                                              dict[str, Any]]]:
    pts = []
    for r in recs:
        if not str(r.get("query", "")).startswith("epsilon@") or not r.get("reference"):
            continue
        c, ref = r.get("claimed"), r["reference"]
        if not all(isinstance(x, int | float) for x in (c, ref[0], ref[1])):
            continue
        lo, hi = float(ref[0]), float(ref[1])
        if c <= 0 or hi <= 0:
            continue
        pts.append((max(lo, hi * 1e-6), hi, float(c), math.sqrt(max(lo, hi * 1e-6) * hi), r))
    return pts


def svg_plot(accountant: str, recs: Sequence[dict[str, Any]], loose_factor: float = 1.5,
             size: tuple[int, int] = (380, 320)) -> str:
    """Claimed vs certified epsilon (log-log) for one accountant; '' when nothing to plot."""
    pts = _plot_points(recs)
    if not pts:
        return ""
    w, h = size
    ml, mr, mt, mb = 56, 14, 26, 44
    vals = [v for p in pts for v in (p[0], p[1], p[2])]
    lo_v, hi_v = min(vals), max(vals)
    a, b = math.floor(math.log10(lo_v) * 4) / 4 - 0.1, math.ceil(math.log10(hi_v) * 4) / 4 + 0.1
    if b - a < 0.5:
        a, b = a - 0.25, b + 0.25

    def x(v: float) -> float:
        return ml + (math.log10(v) - a) / (b - a) * (w - ml - mr)

    def y(v: float) -> float:
        return h - mb - (math.log10(v) - a) / (b - a) * (h - mt - mb)

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
         f'viewBox="0 0 {w} {h}" role="img" aria-label="claimed vs certified epsilon, '
         f'{html.escape(accountant)}">',
         f'<text x="{w / 2:.0f}" y="16" text-anchor="middle" font-size="13" '
         f'font-weight="600">{html.escape(accountant)}</text>',
         f'<rect x="{ml}" y="{mt}" width="{w - ml - mr}" height="{h - mt - mb}" fill="none" '
         f'stroke="#8c959f"/>']
    # ticks at powers of ten and their 2x, 5x
    for e in range(math.floor(a), math.ceil(b) + 1):
        for m in (1, 2, 5):
            v = m * 10.0**e
            lv = math.log10(v)
            if not a <= lv <= b:
                continue
            label = f"{v:g}"
            s.append(f'<line x1="{x(v):.1f}" y1="{h - mb}" x2="{x(v):.1f}" y2="{mt}" '
                     f'stroke="#eaeef2"/>')
            s.append(f'<line x1="{ml}" y1="{y(v):.1f}" x2="{w - mr}" y2="{y(v):.1f}" '
                     f'stroke="#eaeef2"/>')
            s.append(f'<text x="{x(v):.1f}" y="{h - mb + 14}" font-size="10" '
                     f'text-anchor="middle">{label}</text>')
            s.append(f'<text x="{ml - 4}" y="{y(v) + 3:.1f}" font-size="10" '
                     f'text-anchor="end">{label}</text>')
    v0, v1 = 10.0**a, 10.0**b
    s.append(f'<line x1="{x(v0):.1f}" y1="{y(v0):.1f}" x2="{x(v1):.1f}" y2="{y(v1):.1f}" '
             f'stroke="#1f2328" stroke-width="1.2"><title>claimed = certified (truth)</title>'
             '</line>')
    v1f = v1 / loose_factor
    s.append(f'<line x1="{x(v0):.1f}" y1="{y(v0 * loose_factor):.1f}" x2="{x(v1f):.1f}" '
             f'y2="{y(v1):.1f}" stroke="#b35900" stroke-dasharray="4 3"><title>'
             f'{loose_factor:g} x certified (LOOSE above)</title></line>')
    for lo, hi, c, mid, r in pts:
        col = COLOR.get(r["verdict"], "#444")
        # the certified interval as a horizontal bar at the claimed height
        s.append(f'<line x1="{x(lo):.1f}" y1="{y(c):.1f}" x2="{x(hi):.1f}" y2="{y(c):.1f}" '
                 f'stroke="{col}" stroke-width="3" opacity=".45"/>')
        tip = (f"{r['scenario']} {r['query']}: {r['verdict']}, claimed {_num(c)}, "
               f"certified [{_num(lo)}, {_num(hi)}]")
        s.append(f'<circle cx="{x(mid):.1f}" cy="{y(c):.1f}" r="4" fill="{col}" '
                 f'stroke="#fff"><title>{html.escape(tip)}</title></circle>')
    lx = ml + 6
    for name in ("SOUND", "LOOSE", "UNSOUND"):
        s.append(f'<circle cx="{lx + 4}" cy="{mt + 10}" r="4" fill="{COLOR[name]}"/>'
                 f'<text x="{lx + 11}" y="{mt + 14}" font-size="10">{name}</text>')
        lx += 20 + 6.5 * len(name)
    s.append(f'<text x="{(ml + w - mr) / 2:.0f}" y="{h - 8}" font-size="11" '
             'text-anchor="middle">certified epsilon</text>')
    s.append(f'<text x="14" y="{(mt + h - mb) / 2:.0f}" font-size="11" text-anchor="middle" '
             f'transform="rotate(-90 14 {(mt + h - mb) / 2:.0f})">claimed epsilon</text>')
    s.append("</svg>")
    return "".join(s)


def _row(cells: Sequence[str]) -> str:
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def html_section(records: Sequence[dict[str, Any]], meta: dict[str, Any]) -> str:
    esc = html.escape
    bad = any(r["verdict"] in ("UNSOUND", "ERROR") for r in records) or not checked(records) \
        or bool(meta.get("gate"))
    base = meta.get("baseline")
    if base is not None:
        bad = bool(base.get("regressions"))
    out = [f'<div class="status {"bad" if bad else "ok"}">{esc(status_text(records, meta))}'
           "</div>"]
    if meta.get("gate"):
        out.append(f'<div class="status bad">{esc(meta["gate"])}</div>')
    out.append("<ul>")
    for line in _meta_lines(meta):
        out.append(f"<li>{esc(line[2:]).replace('`', '')}</li>")
    out.append("</ul>")
    findings = [r for r in records if r["verdict"] in ("UNSOUND", "ERROR", "INCONCLUSIVE")]
    out.append("<h2>Findings</h2>")
    if findings:
        out.append("<table><tr><th>accountant</th><th>scenario</th><th>query</th><th>verdict"
                   "</th><th>claimed</th><th>certified [lo, hi]</th><th>margin</th><th>detail"
                   "</th><th>reproduce</th></tr>")
        for r in findings:
            out.append(_row([esc(r["accountant"]), esc(r["scenario"]), esc(r["query"]),
                             _badge(r["verdict"]), esc(_num(r.get("claimed"), 10)),
                             esc(_ref(r)), esc(_margin(r)), esc(r.get("detail", "")),
                             f"<code>{esc(r.get('reproduce', ''))}</code>"]))
        out.append("</table>")
    else:
        out.append(f"<p>{esc(no_findings_text(records))}</p>")
    out.append("<h2>Claimed vs certified epsilon</h2>")
    lf = float(meta.get("loose_factor") or 1.5)
    plots = [svg_plot(acc, recs, lf) for acc, recs in per_accountant(records).items()]
    plots = [p for p in plots if p]
    if plots:
        out.append("<p>Each point is an epsilon query: x is the certified epsilon (the bar is "
                   "its enclosure), y the accountant's claim. Below the diagonal the accountant "
                   "under-reports; above the dashed line it is loose.</p>")
        out.append('<div class="plots">' + "".join(f'<div class="plot">{p}</div>'
                                                   for p in plots) + "</div>")
    else:
        out.append("<p>No epsilon query with a numeric claim to plot.</p>")
    out.append("<h2>Summary per accountant</h2><table><tr><th>accountant</th>"
               + "".join(f"<th>{v}</th>" for v in VERDICT_ORDER) + "</tr>")
    for acc, recs in per_accountant(records).items():
        c = counts(recs)
        out.append(_row([esc(acc)] + [str(c[v]) for v in VERDICT_ORDER]))
    out.append("</table>")
    if base is not None:
        regs = base.get("regressions", [])
        out.append(f"<h2>Baseline comparison</h2><p>{base.get('compared', 0)} records compared;"
                   f" {len(regs)} regression(s).</p>")
        if regs:
            out.append("<table><tr><th>accountant</th><th>scenario</th><th>query</th>"
                       "<th>change</th></tr>")
            for g in regs:
                out.append(_row([esc(g["accountant"]), esc(g["scenario"]), esc(g["query"]),
                                 esc(g["detail"])]))
            out.append("</table>")
    out.append("<h2>All results</h2>")
    for acc, recs in per_accountant(records).items():
        out.append(f"<h3>{esc(acc)}</h3><table><tr><th>scenario</th><th>query</th>"
                   "<th>verdict</th><th>claimed</th><th>certified [lo, hi]</th><th>s</th>"
                   "<th>detail</th></tr>")
        for r in recs:
            out.append(_row([esc(r["scenario"]), esc(r["query"]), _badge(r["verdict"]),
                             esc(_num(r.get("claimed"), 10)), esc(_ref(r)),
                             esc(_num(r.get("seconds"), 3)), esc(r.get("detail", ""))]))
        out.append("</table>")
    cases = meta.get("cases") or []
    if cases:
        out.append("<h2>Scenarios</h2><ul>")
        for c in cases:
            note = f" — {esc(c['note'])}" if c.get("note") else ""
            out.append(f"<li><code>{esc(c['id'])}</code>: {esc(c.get('description', ''))}"
                       f"{note}</li>")
        out.append("</ul>")
    return "\n".join(out)


def render_html(records: Sequence[dict[str, Any]], meta: dict[str, Any]) -> str:
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>dpverify accountant audit</title>"
            f"<style>{CSS}</style></head><body><h1>dpverify accountant audit</h1>\n"
            + html_section(records, meta) + "\n</body></html>\n")


__all__ = ["html_section", "markdown_section", "render_html", "render_markdown", "svg_plot"]
