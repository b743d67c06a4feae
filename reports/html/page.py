"""The HTML of a report page: status, counts, findings, one table per family, evidence."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Any

from dpverify.reports.html.figures import Plots, _short_json

BADGE = {
    "proved": ("proved", "#1a7f37"),
    "certified": ("certified", "#1f6f78"),
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
