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
