"""Self-contained HTML rendering of a run (one file, no external assets)."""

from __future__ import annotations

import html
from typing import Any

from reports.markdown import status_line


def render(doc: dict[str, Any]) -> str:
    rows = []
    for th in doc["theorems"]:
        for c in th["claims"]:
            summary = "; ".join(v["summary"] for v in c["verdicts"])
            rows.append(
                f"<tr class='{c['headline']} {c['outcome']}'><td>{html.escape(th['id'])}</td>"
                f"<td>{c['number']}</td><td>{c['expected']}</td><td>{c['headline']}</td>"
                f"<td>{html.escape(summary)}</td></tr>")
    title = html.escape(status_line(doc).replace("**", ""))
    return ("<!doctype html><html><head><meta charset='utf-8'><title>dpverify report</title>"
            "<style>body{font-family:sans-serif}td{border-bottom:1px solid #ddd;padding:2px 6px}"
            ".failed.unexpected{background:#fdd}.failed.as_expected{background:#ffe}"
            "</style></head><body>"
            f"<h1>dpverify report</h1><p>{title}</p><table>"
            "<tr><th>theorem</th><th>claim</th><th>expected</th><th>verdict</th><th>summary</th>"
            f"</tr>{''.join(rows)}</table></body></html>\n")
