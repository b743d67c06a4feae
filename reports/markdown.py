"""Markdown rendering of a run: a status line, the findings first, per-family tables, then
counterexamples, crashes and undecided regions in ``<details>`` blocks.

Fits a CI job summary (GitHub's ``$GITHUB_STEP_SUMMARY``): GitHub-flavoured tables, no
external assets, and the page is capped below the 1 MiB a step summary may hold — the details
that do not fit are listed by name, with a pointer to the HTML and JSON reports.
"""

from __future__ import annotations

import html
import json
from typing import Any

ICON = {
    "proved": "✅ proved",
    "certified": "🔷 certified",
    "passed": "☑️ passed",
    "failed": "❌ failed",
    "inconclusive": "❔ inconclusive",
    "not_applicable": "➖ n/a",
    "error": "💥 error",
}
MAX_BYTES = 900_000  # GitHub step summaries hold at most 1 MiB
SUMMARY_CHARS = 300


def status_line(doc: dict[str, Any]) -> str:
    s = doc["summary"]
    o = s["outcomes"]
    h = s["headlines"]
    verdict = {0: "all claims as expected", 1: "a claim came out unexpectedly",
               3: "a verifier crashed"}.get(doc["exit_code"], "?")
    return (f"**dpverify {doc['profile']} run: {verdict}** — {s['claims']} claims: "
            f"{h['proved']} proved, {h.get('certified', 0)} certified, {h['passed']} passed, "
            f"{h['failed']} failed "
            f"({o['as_expected']} as expected overall, {o['unexpected']} unexpected), "
            f"{h['inconclusive']} inconclusive, {h['error']} errors; "
            f"{s['theorems_encoded']}/{s['theorems_total']} theorems encoded; "
            f"{doc['duration_seconds']} s.")


def _cell(text: str) -> str:
    """Text safe inside a table cell: no pipes, no newlines, no HTML."""
    return html.escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def _mark(c: dict[str, Any]) -> str:
    mark = ICON.get(c["headline"], c["headline"])
    if c["outcome"] == "unexpected":
        mark += " ⚠️ **unexpected**"
    elif c["headline"] == "failed" and c["expected"] == "refuted":
        mark += " (erratum, as expected)"
    return mark


def _summary(c: dict[str, Any]) -> str:
    seen: list[str] = []
    for v in c["verdicts"]:
        s = f"{v['route']}: {v['summary']}"
        if s not in seen:
            seen.append(s)
    text = "; ".join(seen)
    return text if len(text) <= SUMMARY_CHARS else text[:SUMMARY_CHARS - 1] + "…"


def render(doc: dict[str, Any]) -> str:
    out = ["# dpverify verification report", "", status_line(doc), "",
           f"Command: `{doc['command']}` · created {doc['created']} · schema `{doc['schema']}`",
           ""]
    out += _findings(doc)
    out += _coverage(doc)
    families: dict[str, list[dict[str, Any]]] = {}
    not_checked: list[str] = []
    for th in doc["theorems"]:
        if th["claims"]:
            families.setdefault(th["family"], []).append(th)
        else:
            not_checked.append(th["id"])
    details: list[tuple[str, str]] = []
    for family, theorems in families.items():
        out += [f"## {family}", "",
                "| theorem | claim | scope | expected | verdict | routes | summary |",
                "|---|---|---|---|---|---|---|"]
        for th in theorems:
            for c in th["claims"]:
                out.append(f"| {_cell(th['id'])} | {c['number']} | {c.get('scope', '')} | "
                           f"{c['expected']} | {_mark(c)} | {', '.join(c['routes'])} | "
                           f"{_cell(_summary(c))} |")
                for v in c["verdicts"]:
                    if v["status"] in ("failed", "error") or "undecided_boxes" in v["evidence"]:
                        details.append((_title(th, c, v), _details(th, c, v)))
        out.append("")
    if not_checked:
        out += [f"{len(not_checked)} catalogue entries have no claim in this run (not encoded "
                "yet or not selected).", ""]
    if details:
        out += ["## Counterexamples, errors and undecided regions", ""]
        size = len("\n".join(out).encode())
        omitted: list[str] = []
        for title, block in details:
            n = len(block.encode())
            if omitted or size + n > MAX_BYTES:
                omitted.append(title)
                continue
            out.append(block)
            size += n
        if omitted:
            out += [f"{len(omitted)} more blocks omitted to fit a CI job summary (see the "
                    "HTML or JSON report): " + "; ".join(_cell(t) for t in omitted[:200]), ""]
    return "\n".join(out) + "\n"


REGION_ROUTES = ("smt", "interval")


def _coverage(doc: dict[str, Any]) -> list[str]:
    """Universal claims by headline, and those not proved over a region with the reason."""
    counts: dict[str, int] = {}
    why: list[str] = []
    for th in doc["theorems"]:
        for c in th["claims"]:
            if c.get("scope", "universal") != "universal" or c["expected"] != "holds":
                continue
            counts[c["headline"]] = counts.get(c["headline"], 0) + 1
            if c["headline"] == "proved":
                continue
            tried = [f"{v['route']}: {v['summary']}" for v in c["verdicts"]
                     if v["route"] in REGION_ROUTES]
            reason = "; ".join(tried) if tried else "no region proof attempted"
            why.append(f"- {_cell(th['id'])} claim {c['number']} ({c['headline']}): "
                       f"{_cell(reason[:SUMMARY_CHARS])}")
    total = sum(counts.values())
    if not total:
        return []
    shown = ", ".join(f"{counts[k]} {k}" for k in ICON if k in counts)
    lines = ["## Coverage", "",
             f"{total} universal claims (expected to hold): {shown}; "
             f"{100 * counts.get('proved', 0) / total:.0f} % proved over a stated region.", ""]
    if why:
        lines += ["<details><summary>Not proved, and why</summary>", "", *why, "",
                  "</details>", ""]
    return lines


def _findings(doc: dict[str, Any]) -> list[str]:
    lines = []
    for th in doc["theorems"]:
        for c in th["claims"]:
            if c["outcome"] in ("unexpected", "error"):
                wanted = "hold" if c["expected"] == "holds" else "be refuted"
                what = ("crashed" if c["outcome"] == "error" else
                        f"{c['headline']} although expected to {wanted}")
                lines.append(f"- **{_cell(th['id'])} claim {c['number']}**: {_cell(what)} — "
                             f"{_cell(_summary(c))}")
    if not lines:
        return []
    return ["## Findings", "", *lines, ""]


def _title(th: dict[str, Any], c: dict[str, Any], v: dict[str, Any]) -> str:
    return (f"{th['id']} claim {c['number']} ({v['route']}): {v['status']}"
            + (" — expected (erratum)" if c["expected"] == "refuted"
               and v["status"] == "failed" else ""))


def _compact_json(ev: dict[str, Any]) -> str:
    """One top-level key per line, values on one line: short and still valid JSON."""
    items = [f" {json.dumps(k)}: {json.dumps(val, ensure_ascii=False)}" for k, val in ev.items()]
    return "{\n" + ",\n".join(items) + "\n}"


def _details(th: dict[str, Any], c: dict[str, Any], v: dict[str, Any]) -> str:
    ev = {k: val for k, val in v["evidence"].items() if k not in ("traceback", "reproduce")}
    body = _compact_json(ev)
    reproduce = v["evidence"].get("reproduce")
    repro = f"\n\nReproduce: `{reproduce}`" if reproduce else ""
    tb = v["evidence"].get("traceback")
    extra = f"\n\n```\n{tb}\n```" if tb else ""
    text = html.escape(c["text"], quote=False)
    return (f"<details><summary>{html.escape(_title(th, c, v))}</summary>\n\n{text}\n\n"
            f"```json\n{body}\n```{repro}{extra}\n</details>\n")
