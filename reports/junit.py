"""JUnit XML rendering of a run: one test suite per family, one test case per claim.

An unexpected outcome is a ``failure``, a crashed verifier an ``error``, an undecided claim a
``skipped`` case with its reason; a refuted-by-design claim (a catalogue erratum) whose
counterexample was found passes. Text is stripped of the characters XML 1.0 cannot carry, so
the file always parses.
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree as ET

# XML 1.0 allows tab, newline, carriage return and the ranges below; nothing else.
_INVALID_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(s: Any) -> str:
    return _INVALID_XML.sub("\ufffd", str(s))


def render(doc: dict[str, Any]) -> str:
    suites = ET.Element("testsuites", name="dpverify", time=str(doc["duration_seconds"]),
                        timestamp=_text(doc["created"]))
    by_family: dict[str, ET.Element] = {}
    for th in doc["theorems"]:
        for c in th["claims"]:
            suite = by_family.get(th["family"])
            if suite is None:
                suite = ET.SubElement(suites, "testsuite", name=_text(th["family"]),
                                      timestamp=_text(doc["created"]))
                props = ET.SubElement(suite, "properties")
                for name in ("profile", "command", "schema"):
                    ET.SubElement(props, "property", name=name, value=_text(doc[name]))
                by_family[th["family"]] = suite
            seconds = sum(v["seconds"] for v in c["verdicts"])
            case = ET.SubElement(suite, "testcase", classname=_text(th["id"]),
                                 name=f"claim {c['number']}",
                                 time=f"{seconds:.3f}")
            summary = _text("; ".join(f"{v['route']}: {v['summary']}" for v in c["verdicts"]))
            if c["outcome"] == "unexpected":
                ET.SubElement(case, "failure", type=c["headline"],
                              message=_text(f"{c['headline']} (expected {c['expected']})")
                              ).text = summary + _reproduce(c)
            elif c["outcome"] == "error":
                tb = "\n".join(v["evidence"].get("traceback", "") for v in c["verdicts"])
                ET.SubElement(case, "error", message="verifier crashed").text = _text(
                    summary + ("\n" + tb if tb.strip() else ""))
            elif c["outcome"] == "inconclusive":
                ET.SubElement(case, "skipped", message=_text(f"{c['headline']}: {summary}"))
            ET.SubElement(case, "system-out").text = _text(
                f"{c['text']}\n{c['headline']}: {summary}")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in by_family.values():
        cases = suite.findall("testcase")
        counts = {
            "tests": len(cases),
            "failures": sum(1 for c in cases if c.find("failure") is not None),
            "errors": sum(1 for c in cases if c.find("error") is not None),
            "skipped": sum(1 for c in cases if c.find("skipped") is not None),
        }
        for k, n in counts.items():
            suite.set(k, str(n))
            totals[k] += n
        suite.set("time", f"{sum(float(c.get('time', 0)) for c in cases):.3f}")
    for k, n in totals.items():
        suites.set(k, str(n))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


def _reproduce(c: dict[str, Any]) -> str:
    cmds = [v["evidence"]["reproduce"] for v in c["verdicts"]
            if isinstance(v.get("evidence", {}).get("reproduce"), str)]
    return "".join(f"\nreproduce: {_text(cmd)}" for cmd in dict.fromkeys(cmds))
