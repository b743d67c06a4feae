"""The command line under bad input: a property test over argv, and the reproducers of the
hardening issue as regression tests.

The property test runs each command line in a real process with a time limit and judges it
with :func:`tests.cli_corpus.judge` (exit in {0, 1, 2}, no traceback, a one-line exit-2
message naming the parameter, flag or file, no nan). Profiles: ``DPVERIFY_FUZZ=ci`` (default,
a few examples, the file stays under a minute) and ``DPVERIFY_FUZZ=thorough`` (hundreds, with
real ``run`` invocations). ``bench/fuzz_cli_corpus.py`` runs thousands in-process.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpverify.reports.cli import main
from dpverify.theorems import all_theorems
from tests.cli_corpus import (
    DIGITS,
    EDGE_NUMBERS,
    REL_WIDTHS,
    SANE,
    TIMEOUTS,
    generate,
    judge,
    prepare_files,
)

REPO = Path(__file__).resolve().parents[1]
PROFILE = os.environ.get("DPVERIFY_FUZZ", "ci")
EXAMPLES = {"ci": 10, "thorough": 400}[PROFILE]
LIMIT = 60.0  # seconds per command line

EVALUATORS = [(f"{th.id}.{e.name}", tuple(p.name for p in e.params))
              for th in all_theorems() for e in th.evaluators]
VALUES = st.sampled_from(EDGE_NUMBERS) | st.sampled_from(sorted(set(SANE.values())))


def _cli(argv: list[str], cwd: Path, timeout: float = LIMIT) -> tuple[int | None, str, str]:
    try:
        p = subprocess.run([sys.executable, "-m", "dpverify", *argv], capture_output=True,
                           text=True, cwd=cwd, timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired as e:
        return None, str(e.stdout or ""), str(e.stderr or "")
    return p.returncode, p.stdout, p.stderr


@st.composite
def eval_argv(draw: st.DrawFn) -> list[str]:
    target, names = draw(st.sampled_from(EVALUATORS))
    argv = ["eval", target]
    for name in names:
        if draw(st.booleans()):
            argv.append(f"{name}={SANE.get(name, '1')}")
        else:
            argv.append(f"{name}={draw(VALUES)}")
    flag = draw(st.sampled_from(("", "--digits", "--timeout", "--rel-width", "--format")))
    if flag:
        pool = {"--digits": DIGITS, "--timeout": TIMEOUTS, "--rel-width": REL_WIDTHS,
                "--format": ("json", "text", "xml")}[flag]
        argv += [flag, draw(st.sampled_from(pool))]
    return argv


@pytest.fixture(scope="module")
def corpus_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return prepare_files(tmp_path_factory.mktemp("files"))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=PROFILE == "ci",
          suppress_health_check=list(HealthCheck))
@given(argv=eval_argv() | st.randoms(use_true_random=False).map(lambda r: ("gen", r)))
def test_any_command_line_ends_cleanly(argv, corpus_files, tmp_path_factory):
    if isinstance(argv, tuple):  # another subcommand, from the shared generator
        rng: random.Random = argv[1]
        out = tmp_path_factory.mktemp("out")
        argv = generate(rng, 1, corpus_files, out)[0]
        if argv[0] == "run" and PROFILE == "ci":
            argv += ["--timeout", "-1"]  # ci: refused up front, never a real run
    cwd = tmp_path_factory.mktemp("cwd")
    started = time.monotonic()
    rc, out_text, err = _cli(argv, cwd)
    # an honest "time limit" (exit 3) at the default limit is bounded time, not a failure
    assert judge(argv, rc, out_text, err) in (None, "review-inf", "time limit (default)"), (
        f"{argv!r}: exit {rc} after {time.monotonic() - started:.0f} s\n{err[-500:]}")


# ------------------------------------------------------------------------------------------
# the reproducers, in-process


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("dpverify: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(("argv", "words"), [
    (["eval", "BW-ANALYTIC-GAUSS.eps", "sigma=1", "delta=1e5000"], ["delta", "10^1000"]),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1e5000", "eps=1"], ["sigma", "exponent"]),
    (["eval", "DDR-C31.kl", "eps0=1e-400000", "t=0.5"], ["eps0", "exponent"]),
    (["eval", "DDR-T5.delta", "eps0=1e999999", "k=10", "eps=1"], ["eps0"]),
    (["eval", "BS16-L36.eps", "rho=1e5000", "delta=1e-5"], ["rho"]),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=nan", "eps=1"], ["sigma", "finite"]),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=inf"], ["eps", "finite"]),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=" + "1" * 5000, "eps=1"], ["sigma"]),
    (["eval", "KOV-DELTA.delta", "eps0=1", "delta0=1e-6", "k=" + "9" * 30, "eps=1"], ["k"]),
    (["eval", "BASIC.delta", "delta_list=1e-3,1e5000"], ["delta_list"]),
    (["eval", "BASIC.delta", "delta_list=1e-3,,1e-3"], ["delta_list", "empty"]),
    (["eval", "BASIC.delta", "delta_list=" + ",".join(["1e-9"] * 1001)],
     ["delta_list", "at most 1000"]),
    (["eval", "DDR-T3.eps", "eps0=1e308", "k=10", "delta=1e-5"], ["eps0"]),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=1", "--timeout", "nan"], ["--timeout"]),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=1", "--timeout", "-1"], ["--timeout"]),
    (["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=1", "--rel-width", "1e-3"],
     ["--rel-width", "no rel_width"]),
    (["eval", "SGM-PLD-COMP.eps", "q=0.01", "sigma=1", "k=10", "delta=1e-5", "--rel-width",
      "inf"], ["--rel-width"]),
    (["eval", "DDR-FIG1.k_optkl", "eps0=4.9e-324", "eps=1", "delta=1e-5"], ["eps/eps0"]),
    (["eval", "DDR-FIG1.k_br_optcomp", "eps0=1e-30", "eps=1", "delta=1e-5"], ["eps/eps0"]),
    (["eval", "BALLE20-CONV.delta", "alpha=2", "tau=1e400", "eps=1"], ["tau", "cost limit"]),
    (["eval", "STK-HT.delta", "sigma=123456789", "eps=1"], ["sigma", "cost limit"]),
    (["eval", "CKS20-CONV.delta", "rho=1e-30", "eps=1"], ["rho", "cost limit"]),
    (["eval", "STK-BASIC-OPT.mass", "k=1000000000000"], ["k must be at most 10000000"]),
    (["eval", "DDR-T3.eps", "eps0=1", "k=1000", "delta=1e-5"], ["k must be at most 200"]),
    (["eval", "MV-APPROX.delta_upper", "eps_list=1e308", "eps=1", "step=0.1"], ["eps_list"]),
    (["hdp", "--eps-list", "1e-3,1e5000", "--constraint", "at-most", "--delta", "1e-5"],
     ["--eps-list"]),
    (["eval", "GCE-E34.factor", "eps0=1", "n=1000000000000"], ["n must be at most"]),
    (["eval", "GCE-PARCMP.eps", "eps0=1", "m=1000000000000", "delta=1e-5"],
     ["m must be at most"]),
    (["show", ""], ["show needs a theorem ID"]),
    (["eval", ".", "eps=1"], ["eval needs a target"]),
    (["run", "KOV-EPS", "--timeout", "-1"], ["--timeout"]),
    (["run", "KOV-EPS", "--timeout", "inf"], ["--timeout"]),
    (["run", "KOV-EPS", "KOV-DELTA", "--claim", "1"], ["--claim"]),
])
def test_bad_values_are_refused_naming_the_parameter(argv, words, capsys, tmp_path,
                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = _error(capsys)
    for w in words:
        assert w in err, err


@pytest.mark.parametrize("argv", [
    ["eval", "DDR-C31.kl", "eps0=1", "t=1"],
    ["eval", "STK-PDP-ZCDP.tau", "eps0=0", "alpha=2"],
])
def test_an_exact_zero_is_not_a_precision_failure(argv, capsys):
    assert main([*argv, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["value"] == "0"
    lo, hi = (float(x) for x in doc["enclosure"])
    assert lo <= 0 <= hi and hi - lo < 1e-300


def test_eval_time_limit_is_inconclusive_exit_3(capsys):
    started = time.monotonic()
    rc = main(["eval", "KOV-DELTA.delta", "eps0=1", "delta0=1e-6", "k=100000000000", "eps=1",
               "--timeout", "1"])
    assert time.monotonic() - started < 20
    err = capsys.readouterr().err
    assert rc in (2, 3), err
    assert ("time limit" in err) if rc == 3 else ("k must be at most" in err)


def test_enclosure_only_engine_says_why_it_gives_fewer_digits(capsys):
    assert main(["eval", "SGM-PLD-COMP.eps", "q=0.01", "sigma=1", "k=10", "delta=1e-5",
                 "--digits", "12", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["note"] and "of the 12 digits asked" in doc["note"]
    lo, hi = (float(x) for x in doc["enclosure"])
    assert lo <= float(doc["value"]) <= hi


def test_enclosures_only_narrow():
    from fractions import Fraction as F

    from dpverify.verifiers.evaluation import intersect

    assert intersect(None, (F(1), F(3))) == (F(1), F(3))
    assert intersect((F(1), F(3)), (F(2), F(5))) == (F(2), F(3))
    with pytest.raises(AssertionError, match="disjoint"):
        intersect((F(1), F(2)), (F(3), F(4)))


# ------------------------------------------------------------------------------------------
# files


@pytest.mark.parametrize(("name", "words"), [
    ("missing", ["not found"]), ("dir", ["is a directory"]), ("nonutf8.json", ["not UTF-8"]),
    ("nested.json", ["nested too deep"]), ("wrong-schema.json", ["not a valid", "$"]),
    ("v999.json", ["dpverify-run/999", "dpverify-run/1"]), ("empty.json", ["not valid JSON"]),
    ("list.json", ["no 'schema'"]), ("bigint.json", ["not valid JSON", "digits"]),
    ("nan.json", ["NaN"]), ("fifo", ["a fifo"]), ("devzero", ["a device"]),
    ("theorems-not-list.json", ["not a valid"]),
])
@pytest.mark.parametrize("command", ["show", "report"])
def test_bad_run_files_are_refused_naming_the_file(name, words, command, corpus_files, capsys):
    path = corpus_files[name]
    argv = (["show", "KOV-EPS", "--run", path] if command == "show" else ["report", path])
    assert main(argv) == 2
    err = _error(capsys)
    assert path in err, err
    for w in words:
        assert w in err, err


@pytest.mark.parametrize("kind", ["symlink", "dir", "fifo"])
def test_report_refuses_to_replace_what_is_not_a_regular_file(kind, tmp_path, capsys):
    target = tmp_path / "out.md"
    real = tmp_path / "real.md"
    real.write_text("keep me")
    if kind == "symlink":
        target.symlink_to(real)
    elif kind == "dir":
        target.mkdir()
    else:
        os.mkfifo(target)
    snapshot = REPO / "reports" / "catalogue" / "latest.json"
    assert main(["report", str(snapshot), "--output", str(target)]) == 2
    err = _error(capsys)
    assert str(target) in err and f"a {kind}" in err.replace("a dir", "a directory"), err
    assert real.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md", "real.md"]


def test_run_validates_out_before_running(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    started = time.monotonic()
    assert main(["run", "KOV-EPS", "--jobs", "1", "--out", str(tmp_path)]) == 2
    assert time.monotonic() - started < 5
    assert "holds other files" in _error(capsys)
    afile = tmp_path / "notes.txt"
    assert main(["run", "KOV-EPS", "--jobs", "1", "--out", str(afile)]) == 2
    assert "not a folder" in _error(capsys)


def test_publish_set_swaps_the_whole_set(tmp_path):
    from dpverify.reports.io import publish_set

    out = tmp_path / "reports"
    publish_set(out, {"latest.json": "1", "latest.md": "1", "latest.html": "1"})
    publish_set(out, {"latest.json": "2", "latest.md": "2", "latest.html": "2"})
    assert {p.name: p.read_text() for p in out.iterdir()} == {
        "latest.json": "2", "latest.md": "2", "latest.html": "2"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]  # no temporary left


def test_a_kill_between_files_leaves_the_old_set(tmp_path):
    """The process dies after writing two of the three new files: the old set is intact."""
    from dpverify.reports.io import publish_set

    out = tmp_path / "reports"
    publish_set(out, {"latest.json": "old", "latest.md": "old", "latest.html": "old"})
    script = (
        "import os\n"
        "from dpverify.reports import io\n"
        "calls = []\n"
        "real = io._write_file\n"
        "def dying(path, text):\n"
        "    calls.append(path)\n"
        "    if len(calls) == 3: os._exit(9)\n"
        "    real(path, text)\n"
        "io._write_file = dying\n"
        f"io.publish_set({str(out)!r}, {{n: 'new' for n in io.REPORT_SET}})\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, timeout=60)
    assert proc.returncode == 9
    assert {p.read_text() for p in out.iterdir()} == {"old"}
    from dpverify.reports.io import publish_set as again

    again(out, {"latest.json": "3", "latest.md": "3", "latest.html": "3"})  # cleans up
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]


# ------------------------------------------------------------------------------------------
# processes: broken pipe, Ctrl-C


def test_broken_pipe_is_quiet(tmp_path):
    proc = subprocess.run(
        f"{sys.executable} -m dpverify list --format json | head -c 10", shell=True,
        capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr
    proc = subprocess.run(
        f"{sys.executable} -m dpverify list | head -n 1", shell=True,
        capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.stderr == "", proc.stderr


def test_ctrl_c_exits_130_and_kills_the_evaluation(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "dpverify", "eval", "KOV-DELTA.delta", "eps0=1", "delta0=1e-6",
         "k=100000000000", "eps=1", "--timeout", "60"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    if proc.returncode == 2:  # a cost limit refused k before any work
        assert "k must be at most" in err
        return
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err


# ------------------------------------------------------------------------------------------
# nothing outlives the command


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _start_grandchild_and_hang(pid_file: str) -> None:
    child = subprocess.Popen(["sleep", "300"])
    Path(pid_file).write_text(str(child.pid))
    time.sleep(300)


def test_a_timed_out_evaluation_takes_its_children_with_it(tmp_path):
    from dpverify.verifiers.limited import TimeLimit, call_limited

    pid_file = tmp_path / "pid"
    with pytest.raises(TimeLimit):
        call_limited(lambda: _start_grandchild_and_hang(str(pid_file)), 2)
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid)


def test_runner_workers_and_their_children_die_at_the_budget(tmp_path, monkeypatch):
    from dpverify.verifiers import runner
    from dpverify.verifiers.dispatch import PROFILES

    pid_file = tmp_path / "pid"

    def hanging_check(*args, **kwargs):
        _start_grandchild_and_hang(str(pid_file))

    monkeypatch.setattr(runner, "run_check", hanging_check)
    monkeypatch.setattr(runner, "KILL_GRACE_SECONDS", 0.5)
    task = runner.Task("KOV-EPS", 1, 0, "numeric")
    [verdict] = runner.execute([task], PROFILES["quick"], jobs=2, task_seconds=1)
    assert verdict.status.value == "inconclusive"
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid)


def test_a_partial_run_into_a_closed_pipe_is_quiet_and_never_writes_the_snapshot(tmp_path):
    """`dpverify run ID` writes ./dpverify-report/ (not reports/catalogue/), and a reader that
    closes the pipe early ends it quietly with the reports written."""
    proc = subprocess.run(
        f"{sys.executable} -m dpverify run KOV-EPS --jobs 1 --timeout 5 --format json "
        "| head -c 20", shell=True, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr
    out = tmp_path / "dpverify-report"
    assert sorted(p.name for p in out.iterdir()) == ["latest.html", "latest.json", "latest.md"]
    assert not (tmp_path / "reports").exists()
