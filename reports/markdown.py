"""Markdown rendering of a run: a status line, per-family tables, counterexamples in details
blocks. Fits a CI job summary (GitHub's ``$GITHUB_STEP_SUMMARY``)."""

from __future__ import annotations

import json
from typing import Any

ICON = {
    "proved": "✅ proved",
    "passed": "☑️ passed",
    "failed": "❌ failed",
    "inconclusive": "❔ inconclusive",
    "not_applicable": "➖ n/a",
    "error": "💥 error",
}


def status_line(doc: dict[str, Any]) -> str:
    s = doc["summary"]
    o = s["outcomes"]
    h = s["headlines"]
    verdict = {0: "all claims as expected", 1: "a claim came out unexpectedly",
               3: "a verifier crashed"}.get(doc["exit_code"], "?")
    return (f"**dpverify {doc['profile']} run: {verdict}** — {s['claims']} claims: "
            f"{h['proved']} proved, {h['passed']} passed, {h['failed']} failed "
            f"({o['as_expected']} as expected overall, {o['unexpected']} unexpected), "
            f"{h['inconclusive']} inconclusive, {h['error']} errors; "
            f"{s['theorems_encoded']}/{s['theorems_total']} theorems encoded; "
            f"{doc['duration_seconds']} s.")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(doc: dict[str, Any]) -> str:
    out = ["# dpverify verification report", "", status_line(doc), "",
           f"Command: `{doc['command']}` · created {doc['created']} · schema `{doc['schema']}`",
           ""]
    families: dict[str, list[dict[str, Any]]] = {}
    for th in doc["theorems"]:
        if th["claims"]:
            families.setdefault(th["family"], []).append(th)
    findings: list[str] = []
    for family, theorems in families.items():
        out += [f"## {family}", "", "| theorem | claim | expected | verdict | routes | summary |",
                "|---|---|---|---|---|---|"]
        for th in theorems:
            for c in th["claims"]:
                mark = ICON.get(c["headline"], c["headline"])
                if c["outcome"] == "unexpected":
                    mark += " ⚠️ unexpected"
                summary = "; ".join(v["summary"] for v in c["verdicts"])[:300]
                out.append(f"| {th['id']} | {c['number']} | {c['expected']} | {mark} | "
                           f"{', '.join(c['routes'])} | {_cell(summary)} |")
                for v in c["verdicts"]:
                    if v["status"] in ("failed", "error") or "undecided_boxes" in v["evidence"]:
                        findings.append(_details(th, c, v))
        out.append("")
    if findings:
        out += ["## Counterexamples, errors and undecided regions", "", *findings]
    return "\n".join(out) + "\n"


def _details(th: dict[str, Any], c: dict[str, Any], v: dict[str, Any]) -> str:
    title = (f"{th['id']} claim {c['number']} ({v['route']}): {v['status']}"
             + (" — expected (erratum)" if c["expected"] == "refuted" else ""))
    ev = {k: val for k, val in v["evidence"].items() if k != "traceback"}
    body = json.dumps(ev, indent=1, ensure_ascii=False)
    tb = v["evidence"].get("traceback")
    extra = f"\n\n```\n{tb}\n```" if tb else ""
    return (f"<details><summary>{title}</summary>\n\n{c['text']}\n\n```json\n{body}\n```"
            f"{extra}\n</details>\n")
