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
