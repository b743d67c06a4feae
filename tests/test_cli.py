"""The command line: exit codes, one-line errors, JSON output, NO_COLOR, atomic writes and the
report formats.

Exit codes 1 and 3 come from theorems planted in the registry by the ``planted`` fixture (it
patches ``theorems._registry``): a wrong claim, an erratum that unexpectedly holds, a term that
crashes.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

import dpverify.theorems as theorems
from dpverify.reports import cli
from dpverify.reports.cli import main
from dpverify.reports.io import write_atomic
from dpverify.reports.schema import validate
from dpverify.theorems.claims import Claim, Compare, Points
from dpverify.theorems.core import Source, Theorem
from dpverify.theorems.errors import InvalidParameter

REPO = Path(__file__).resolve().parents[1]


def _square(ctx, x, **_):
    return x * x


def _four(ctx, **_):
    return ctx.num(4)


def _boom(ctx, **_):
    raise RuntimeError("planted crash")


def _planted(id_: str, *claims: Claim) -> Theorem:
    return Theorem(id=id_, title=f"planted theorem {id_}", family="quality",
                   source=Source("tests/test_cli.py", "planted"), types=("BOUND",),
                   confidence=("HIGH",), statement="planted by a test", domain="x real",
                   claims=claims)


PLANTED = (
    _planted(
        "PLANTED-OK",
        Claim(1, "x^2 >= 0 at x in {-2, 0, 3}",
              (Compare(_square, "ge", lambda ctx, **_: ctx.zero,
                       Points(({"x": "-2"}, {"x": "0"}, {"x": "3"})), "numeric",
                       lhs_name="x^2", rhs_name="0"),)),
        Claim(2, "erratum: x^2 <= 4 at x = 3",
              (Compare(_square, "le", _four, Points(({"x": "3"},)), "numeric",
                       lhs_name="x^2", rhs_name="4"),), expected="refuted"),
    ),
    _planted(
        "PLANTED-WRONG",
        Claim(1, "wrong: x^2 <= 4 at x = 3",
              (Compare(_square, "le", _four, Points(({"x": "3"},)), "numeric",
                       lhs_name="x^2", rhs_name="4"),)),
    ),
    _planted(
        "PLANTED-ERRATUM-HOLDS",
        Claim(1, "said to be an erratum, but x^2 <= 4 holds at x = 1",
              (Compare(_square, "le", _four, Points(({"x": "1"},)), "numeric"),),
              expected="refuted"),
    ),
    _planted(
        "PLANTED-CRASH",
        Claim(1, "a term that raises",
              (Compare(_boom, "le", _four, Points(({"x": "1"},)), "numeric"),)),
    ),
)


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> None:
    by_id, aliases = theorems._registry()
    patched = ({**by_id, **{th.id: th for th in PLANTED}}, aliases)
    monkeypatch.setattr(theorems, "_registry", lambda: patched)


@pytest.fixture
def no_plots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skip the HTML plots where a test is about something else (they cost ~1 s a page)."""
    from dpverify.reports import html

    monkeypatch.setattr(html, "_draw_plots", lambda doc, deadline: html.Plots())


def _run(tmp_path: Path, *ids: str, fmt: str = "text") -> int:
    return main(["run", *ids, "--jobs", "1", "--out", str(tmp_path), "--format", fmt])


def _one_line_error(err: str) -> None:
    assert err.startswith("dpverify: "), err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err


# ------------------------------------------------------------------------------------------
# exit codes


def test_exit_0_when_every_claim_is_as_expected(planted, no_plots, tmp_path, capsys):
    assert _run(tmp_path, "PLANTED-OK") == 0
    doc = json.loads((tmp_path / "latest.json").read_text())
    claims = {c["number"]: c for c in doc["theorems"][0]["claims"]}
    assert claims[1]["headline"] == "certified"  # arb at its listed points: not a proof
    assert (claims[2]["headline"], claims[2]["outcome"]) == ("failed", "as_expected")
    assert doc["exit_code"] == 0
    assert validate(doc) == []


def test_exit_1_when_a_claim_fails(planted, no_plots, tmp_path, capsys):
    assert _run(tmp_path, "PLANTED-OK", "PLANTED-WRONG") == 1
    doc = json.loads((tmp_path / "latest.json").read_text())
    assert doc["summary"]["outcomes"]["unexpected"] == 1
    assert "a claim came out unexpectedly" in capsys.readouterr().out


def test_exit_1_when_an_erratum_holds(planted, no_plots, tmp_path, capsys):
    assert _run(tmp_path, "PLANTED-ERRATUM-HOLDS") == 1


def test_exit_3_when_a_verifier_crashes(planted, no_plots, tmp_path, capsys):
    assert _run(tmp_path, "PLANTED-CRASH", "PLANTED-WRONG") == 3
    doc = json.loads((tmp_path / "latest.json").read_text())
    verdict = doc["theorems"][0]["claims"][0]["verdicts"][0]
    assert verdict["status"] == "error"
    assert "planted crash" in verdict["evidence"]["traceback"]


def test_exit_3_on_an_internal_error_without_traceback(monkeypatch, capsys):
    def broken(args):
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(cli, "cmd_list", broken)
    monkeypatch.delenv("DPVERIFY_DEBUG", raising=False)
    assert main(["list"]) == 3
    err = capsys.readouterr().err
    _one_line_error(err)
    assert "internal error: ZeroDivisionError: planted" in err


BAD_INPUT = [
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=-1", "eps=1"], "sigma must be in (0, inf)"),
    (["eval", "BW-ANALYTIC-GAUSS.eps", "sigma=1", "delta=1.5"],
     "delta must be in (0, 1); got 1.5"),
    (["eval", "NO-SUCH-ID.delta", "sigma=1"], "unknown theorem id 'NO-SUCH-ID'"),
    (["eval", "BW-ANALYTIC-GAUSS.nope", "sigma=1", "eps=1"], "unknown evaluator 'nope'"),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1"], "missing parameter eps"),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=abc"],
     "eps must be a decimal number"),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=1", "mu=2"], "unknown parameter 'mu'"),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=1", "--format", "xml"],
     "invalid choice: 'xml'"),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=1", "--digits", "0"], "--digits"),
    (["report", "missing.json"], "run file not found: missing.json"),
    (["report", "x.json", "--format", "pdf"], "invalid choice: 'pdf'"),
    (["show", "NO-SUCH-ID"], "unknown theorem id"),
    (["list", "--family", "nope"], "family must be one of"),
    (["run", "NO-SUCH-ID"], "unknown theorem id"),
    (["run", "--jobs", "-1"], "--jobs must be >= 0"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_INPUT, ids=[" ".join(a) or "(none)"
                                                              for a, _ in BAD_INPUT])
def test_exit_2_on_bad_input_with_a_one_line_message(argv, message, capsys, tmp_path,
                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)  # `report missing.json` must not find a file by accident
    assert main(argv) == 2
    captured = capsys.readouterr()
    _one_line_error(captured.err)
    assert message in captured.err
    assert captured.out == ""


def test_bad_input_in_a_real_process():
    """The installed entry point: exit status 2, one line on stderr, nothing on stdout."""
    proc = subprocess.run(
        [sys.executable, "-m", "dpverify", "eval", "BW-ANALYTIC-GAUSS.eps", "sigma=1",
         "delta=1.5"], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "dpverify: error: delta must be in (0, 1); got 1.5\n"


def test_report_rejects_a_document_that_breaks_the_schema(planted, no_plots, tmp_path, capsys):
    assert _run(tmp_path, "PLANTED-OK") == 0
    doc = json.loads((tmp_path / "latest.json").read_text())
    doc["theorems"][0]["claims"][0]["headline"] = "probably"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["report", str(bad)]) == 2
    err = capsys.readouterr().err
    _one_line_error(err)
    assert "headline: must be one of" in err
    bad.write_text("{not json")
    assert main(["report", str(bad)]) == 2
    _one_line_error(capsys.readouterr().err)


# ------------------------------------------------------------------------------------------
# --format json


def _single_json(out: str):
    assert out.endswith("\n") and out.count("\n") == 1, "one JSON document on one line"
    return json.loads(out)


def test_json_output_of_eval(capsys):
    assert main(["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=1", "--format", "json"]) == 0
    doc = _single_json(capsys.readouterr().out)
    assert isinstance(doc, dict)
    assert doc["theorem"] == "BW-ANALYTIC-GAUSS" and doc["params"] == {"sigma": "1", "eps": "1"}


def test_json_output_of_run(planted, no_plots, tmp_path, capsys):
    assert _run(tmp_path, "PLANTED-OK", fmt="json") == 0
    captured = capsys.readouterr()
    doc = _single_json(captured.out)
    assert isinstance(doc, dict) and doc["schema"] == "dpverify-run/2"
    assert validate(doc) == []
    assert "checks done" in captured.err  # progress goes to stderr, never stdout


def test_json_output_of_list(capsys):
    assert main(["list", "--format", "json"]) == 0
    rows = _single_json(capsys.readouterr().out)
    assert isinstance(rows, list)  # one JSON document: the catalogue as an array of entries
    assert all(isinstance(r, dict) and "id" in r for r in rows)
    assert "BW-ANALYTIC-GAUSS" in {r["id"] for r in rows}


def test_json_output_of_show(capsys, tmp_path):
    assert main(["show", "STK-GAUSS-EXACT", "--format", "json"]) == 0
    doc = _single_json(capsys.readouterr().out)
    assert isinstance(doc, dict) and doc["id"] == "BW-ANALYTIC-GAUSS"


def test_show_refuses_a_missing_run_file(capsys, tmp_path):
    assert main(["show", "KOV-EPS", "--run", str(tmp_path / "none.json")]) == 2
    assert "none.json" in capsys.readouterr().err


def test_show_reads_the_packaged_snapshot_from_any_directory(tmp_path):
    out = subprocess.run([sys.executable, "-m", "dpverify", "show", "KOV-DELTA"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "[last: proved]" in out.stdout and "[not run yet]" not in out.stdout


# ------------------------------------------------------------------------------------------
# NO_COLOR


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("no_color", [False, True])
def test_no_color_is_honoured(planted, no_plots, tmp_path, monkeypatch, no_color):
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    tty = _Tty()
    monkeypatch.setattr(sys, "stdout", tty)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert _run(tmp_path, "PLANTED-OK") == 0
    assert ("\033[" in tty.getvalue()) is not no_color
    assert "all claims as expected" in tty.getvalue()


# ------------------------------------------------------------------------------------------
# atomic writes


def test_write_atomic_keeps_the_previous_file_when_the_rename_fails(tmp_path, monkeypatch):
    target = tmp_path / "latest.json"
    write_atomic(target, "old\n")

    def crash(src, dst):
        raise OSError("disk full (planted)")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(InvalidParameter, match=r"cannot write .*latest.json: disk full"):
        write_atomic(target, "new\n")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.json"]  # no temp file left


def test_write_atomic_survives_a_process_killed_mid_write(tmp_path):
    target = tmp_path / "latest.json"
    write_atomic(target, "old\n")
    script = textwrap.dedent(f"""
        import os
        from dpverify.reports.io import write_atomic
        os.fsync = lambda fd: os._exit(9)  # the process dies between write and rename
        write_atomic({str(target)!r}, "new\\n" * 100000)
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, timeout=60)
    assert proc.returncode == 9
    assert target.read_text() == "old\n"


def test_a_failing_renderer_leaves_the_previous_reports_intact(planted, no_plots, tmp_path,
                                                                monkeypatch, capsys):
    assert _run(tmp_path, "PLANTED-OK") == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert set(before) == {"latest.json", "latest.md", "latest.html"}
    from dpverify.reports import html

    def crash(doc, **kw):
        raise RuntimeError("renderer crashed (planted)")

    monkeypatch.setattr(html, "render", crash)
    assert _run(tmp_path, "PLANTED-OK", "PLANTED-WRONG") == 3
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


# ------------------------------------------------------------------------------------------
# dpverify report


@pytest.fixture(scope="module")
def run_file(tmp_path_factory) -> Path:
    """A run of two planted theorems (one wrong), made once for the report tests."""
    from dpverify.reports import html

    out = tmp_path_factory.mktemp("run")
    by_id, aliases = theorems._registry()
    patched = ({**by_id, **{th.id: th for th in PLANTED}}, aliases)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(theorems, "_registry", lambda: patched)
        mp.setattr(html, "_draw_plots", lambda doc, deadline: html.Plots())
        mp.setattr(sys, "stdout", io.StringIO())
        mp.setattr(sys, "stderr", io.StringIO())
        assert _run(out, "PLANTED-OK", "PLANTED-WRONG") == 1
    return out / "latest.json"


def test_report_markdown(run_file, capsys):
    assert main(["report", str(run_file), "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# dpverify verification report")
    assert "a claim came out unexpectedly" in md
    assert "| PLANTED-WRONG | 1 | universal | holds | ❌ failed ⚠️ **unexpected** |" in md
    assert "<details><summary>PLANTED-WRONG claim 1 (numeric): failed</summary>" in md
    assert "Reproduce: `dpverify run PLANTED-WRONG --claim 1" in md


def test_report_junit_parses_as_xml(run_file, capsys):
    assert main(["report", str(run_file), "--format", "junit"]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    assert root.tag == "testsuites"
    cases = root.findall(".//testcase")
    assert len(cases) == 3
    failing = [c for c in cases if c.find("failure") is not None]
    assert [(c.get("classname"), c.get("name")) for c in failing] == [("PLANTED-WRONG",
                                                                       "claim 1")]
    assert root.get("tests") == "3" and root.get("failures") == "1"


def test_report_html_is_self_contained_with_plots(planted, run_file, tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["report", str(run_file), "--format", "html", "-o", str(out)]) == 0
    page = out.read_text()
    assert page.startswith("<!doctype html>")
    assert "<svg" in page or "<img" in page
    assert "plot-privacy-curves" in page
    # the erratum's margin plot: x^2/4 - 1 changes sign at x = 2
    assert "id='plot-margin-PLANTED-OK-2'" in page
    assert "the sign changes at x ≈ 2" in page
    assert "id='plot-margin-PLANTED-WRONG-1'" in page
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:|//)", page)  # no external assets
    assert "<script" not in page


def test_html_plot_failures_become_notes(planted, run_file, monkeypatch):
    from dpverify.reports import html

    def broken(*a, **kw):
        raise RuntimeError("plot engine down (planted)")

    monkeypatch.setattr(html, "_margin_figure", broken)
    monkeypatch.setattr(html, "_privacy_curves", broken)
    page = html.render(json.loads(run_file.read_text()))
    assert "plot engine down (planted)" in page
    assert "PLANTED-WRONG" in page and "<svg" not in page


def test_a_pool_run_draws_its_plots_ahead_into_the_same_page(planted, tmp_path, monkeypatch,
                                                             capsys):
    from dpverify.reports import html

    drawn_here = []
    claim_figure = html._claim_figure

    def counted(*a, **kw):  # a forked plotting process counts in its own copy
        drawn_here.append(a[0])
        return claim_figure(*a, **kw)

    monkeypatch.setattr(html, "_claim_figure", counted)
    assert main(["run", "PLANTED-OK", "PLANTED-WRONG", "--jobs", "2", "--out",
                 str(tmp_path)]) == 1
    assert drawn_here == []  # both margin plots came from the plotting process
    page = (tmp_path / "latest.html").read_text()
    assert "id='plot-margin-PLANTED-OK-2'" in page and "id='plot-margin-PLANTED-WRONG-1'" in page
    assert page == html.render(json.loads((tmp_path / "latest.json").read_text()))
