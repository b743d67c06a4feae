"""The report's family plots: the hospital example (issue 4) and DDR Figure 1 (issue 5)."""

import json
from pathlib import Path

from dpverify.reports.html import _figure1_figure, _hospital_figure, render

SNAPSHOT = Path(__file__).resolve().parent.parent / "reports" / "catalogue" / "latest.json"


def test_hospital_and_figure1_plots_are_in_the_catalogue_report():
    page = render(json.loads(SNAPSHOT.read_text()))
    assert "id='plot-hospital'" in page
    assert "id='plot-figure1'" in page


def test_figure1_caption_reports_the_papers_ratio():
    caption = _figure1_figure(0).caption
    ratio = float(caption.split("BR-OptComp/DP-OptComp = ")[1].split(" ")[0])
    assert 3.5 <= ratio <= 4.2  # [DDR]: "about 4x" at large budgets


def test_hospital_plot_is_drawn_as_svg():
    fig = _hospital_figure(0)
    assert fig.svg.startswith("<svg") and "m = 365" in fig.caption


def test_a_margin_crossing_is_found_to_its_digits_in_few_evaluations():
    import math
    import time
    from fractions import Fraction

    from dpverify.reports.html.margin import CROSSING_DIGITS, _bisect

    calls = []

    def violation(point):
        calls.append(point["x"])
        return float(point["x"]) ** 3 - 2.0  # crosses at 2^(1/3)

    root = _bisect(violation, {}, "x", Fraction(1), Fraction(2), time.monotonic() + 60)
    assert abs(float(root) - 2 ** (1 / 3)) <= 2 * 10.0 ** -CROSSING_DIGITS
    assert len(calls) < 20  # bisection takes ~25
    assert math.isclose(float(root), 1.259921, rel_tol=1e-6)


def _snapshot_part(ids):
    doc = json.loads(SNAPSHOT.read_text())
    doc["theorems"] = [th for th in doc["theorems"] if th["id"] in ids]
    return doc


def _verdicts(doc):
    from dpverify.verifiers.verdict import Verdict

    return [Verdict.from_dict(v) for th in doc["theorems"] for c in th["claims"]
            for v in c["verdicts"]]


def test_plots_drawn_ahead_in_any_order_make_the_page_drawn_after():
    from dpverify.reports.html.ahead import plots_ahead

    doc = _snapshot_part({"BLOG-DEF", "BS16-L36", "DR-CLASSIC-GAUSS", "DEF-DP"})
    verdicts = _verdicts(doc)
    with plots_ahead([(v.theorem, v.claim, v.check) for v in verdicts], True) as ahead:
        for v in reversed(verdicts):  # arrival order is not the page's order
            ahead.feed(v)
        assert len(ahead.sent) == 3  # the three errata, and nothing else
        page = render(doc, drawn=ahead.collect(doc))
    assert page.count("<figure") == 4  # the privacy curves and three margin plots
    assert page == render(doc)  # the same figures, their SVG ids renumbered to their place


def test_plots_the_process_did_not_draw_are_drawn_after():
    from dpverify.reports.html.ahead import plots_ahead

    doc = _snapshot_part({"BLOG-DEF", "BS16-L36"})
    verdicts = _verdicts(doc)
    with plots_ahead([(v.theorem, v.claim, v.check) for v in verdicts], True) as ahead:
        for v in verdicts[:-1]:
            ahead.feed(v)
        ahead.proc.kill()
        ahead.proc.join()
        ahead.feed(verdicts[-1])
        page = render(doc, drawn=ahead.collect(doc))
    assert page == render(doc)


def test_notes_drawn_ahead_are_logged_once_when_collected(caplog):
    from dpverify.reports.html.ahead import plots_ahead

    doc = _snapshot_part({"DRS-DUALITY"})  # claim 5: its check is not a comparison
    verdicts = _verdicts(doc)
    with plots_ahead([(v.theorem, v.claim, v.check) for v in verdicts], True) as ahead:
        for v in verdicts:
            ahead.feed(v)
        caplog.clear()
        drawn = ahead.collect(doc)
    logged = [r.getMessage() for r in caplog.records if "plot skipped" in r.getMessage()]
    assert drawn.notes and len(logged) == len(drawn.notes)
    assert all(n in m for n, m in zip(drawn.notes, logged, strict=True))
