"""JUnit XML rendering of a run: one test case per claim; an unexpected outcome is a failure,
an error verdict an error, an inconclusive one a skip (with its reason)."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET


def render(doc: dict[str, Any]) -> str:
    suites = ET.Element("testsuites", name="dpverify", time=str(doc["duration_seconds"]))
    by_family: dict[str, ET.Element] = {}
    for th in doc["theorems"]:
        for c in th["claims"]:
            suite = by_family.get(th["family"])
            if suite is None:
                suite = ET.SubElement(suites, "testsuite", name=th["family"])
                by_family[th["family"]] = suite
            seconds = sum(v["seconds"] for v in c["verdicts"])
            case = ET.SubElement(suite, "testcase", classname=th["id"],
                                 name=f"claim {c['number']}", time=f"{seconds:.3f}")
            summary = "; ".join(v["summary"] for v in c["verdicts"])
            if c["outcome"] == "unexpected":
                ET.SubElement(case, "failure", message=f"{c['headline']} (expected "
                              f"{c['expected']})").text = summary
            elif c["outcome"] == "error":
                ET.SubElement(case, "error", message="verifier crashed").text = summary
            elif c["outcome"] == "inconclusive":
                ET.SubElement(case, "skipped", message=summary)
            ET.SubElement(case, "system-out").text = f"{c['headline']}: {summary}"
    for suite in by_family.values():
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        suite.set("errors", str(sum(1 for c in cases if c.find("error") is not None)))
        suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"
