"""The ``dpverify`` command line: ``list``, ``show``, ``eval``, ``run``, ``report``.

Exit codes: 0 all claims as expected; 1 a claim came out unexpectedly; 2 usage or bad input (a
one-line message naming the parameter, flag or file and the reason, no traceback); 3 internal
error, or an ``eval`` that reached its time limit or precision ceiling (never a value); 130
interrupted (Ctrl-C; 143 for SIGTERM), the previous reports intact. ``--format json`` puts only
JSON on stdout; a closed stdout (``| head``) ends quietly. ``NO_COLOR`` is honoured.

The CLI lives in ``reports`` because it renders reports: imports flow reports → verifiers →
theorems, never back.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any, NoReturn

from dpverify.reports.eval_cli import EVAL_TIMEOUT, EvalInconclusive, cmd_eval, positive_seconds
from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.errors import DpVerifyError, InvalidParameter, UsageError


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C (cleanup on the way out) but exit 143."""

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143
# A whole-catalogue run refreshes the committed snapshot; any other run writes elsewhere.
DEFAULT_OUT = "reports/catalogue"
DEFAULT_PARTIAL_OUT = "dpverify-report"
# The committed catalogue snapshot, shipped as package data: `show` reads it from any directory.
SNAPSHOT = Path(__file__).resolve().parent / "catalogue" / "latest.json"




class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _color(text: str, code: str, stream: Any) -> str:
    if os.environ.get("NO_COLOR") or not (hasattr(stream, "isatty") and stream.isatty()):
        return text
    return f"\033[{code}m{text}\033[0m"


# ------------------------------------------------------------------------------------------
# list / show


def cmd_list(args: argparse.Namespace) -> int:
    from dpverify.theorems import all_theorems, families

    if args.family and args.family not in families():
        raise InvalidParameter(f"family must be one of {', '.join(families())}; got {args.family}")
    rows = [th for th in all_theorems() if not args.family or th.family == args.family]
    if args.format == "json":
        print(json.dumps([{
            "id": th.id, "title": th.title, "family": th.family, "types": list(th.types),
            "encoded": th.encoded, "evaluators": [e.signature() for e in th.evaluators],
            "claims": len(th.claims), "aliases": list(th.aliases)} for th in rows]))
        return EXIT_OK
    for th in rows:
        mark = "" if th.encoded else "  (not encoded yet)"
        evs = "; ".join(e.signature() for e in th.evaluators) or "—"
        print(f"{th.id:<20} {th.family:<14} {'/'.join(th.types):<18} {evs}{mark}")
    return EXIT_OK


def _last_verdicts(run_path: str | None, theorem_id: str) -> dict[int, dict[str, Any]]:
    from dpverify.reports.io import load_run

    if run_path is not None:
        doc = load_run(run_path, "--run")
    elif SNAPSHOT.exists():
        doc = load_run(SNAPSHOT, "the catalogue snapshot")
    else:
        return {}
    for th in doc["theorems"]:
        if th["id"] == theorem_id:
            return {c["number"]: c for c in th["claims"]}
    return {}


def cmd_show(args: argparse.Namespace) -> int:
    from dpverify.theorems import get

    if not args.id.strip():
        raise InvalidParameter(f"show needs a theorem ID; got {args.id!r}")
    th = get(args.id)
    last = _last_verdicts(args.run, th.id)
    if args.format == "json":
        print(json.dumps({
            "id": th.id, "title": th.title, "family": th.family, "source": th.source.cite(),
            "types": list(th.types), "confidence": list(th.confidence),
            "statement": th.statement, "domain": th.domain, "aliases": list(th.aliases),
            "encoded": th.encoded,
            "evaluators": [{"signature": e.signature(), "doc": e.doc} for e in th.evaluators],
            "claims": [{"number": c.number, "text": c.text, "expected": c.expected,
                        "routes": list(c.routes()),
                        "last_verdict": last.get(c.number, {}).get("headline")}
                       for c in th.claims]}))
        return EXIT_OK
    print(f"{th.id} — {th.title}")
    if th.aliases:
        print(f"aliases: {', '.join(th.aliases)}")
    print(f"family: {th.family}    tags: {', '.join(th.types)} {', '.join(th.confidence)}")
    print(f"source: {th.source.cite()}")
    if not th.encoded:
        print("status: indexed from the catalogue, not encoded yet")
        if th.notes:
            print(th.notes)
        return EXIT_OK
    print(f"\nstatement: {th.statement}")
    print(f"domain: {th.domain}")
    print("\nevaluators:" if th.evaluators else "\nevaluators: none")
    for e in th.evaluators:
        print(f"  {e.signature()}  — {e.doc}")
        for p in e.params:
            print(f"      {p.name}: {p.describe()}{_limit_text(p)}")
    print("\nclaims:")
    for c in th.claims:
        lv = last.get(c.number)
        verdict = f"[last: {lv['headline']}]" if lv else "[not run yet]"
        exp = " (expected: refuted — an erratum)" if c.expected == "refuted" else ""
        print(f"  {c.number}. {c.text}{exp}")
        print(f"     routes: {', '.join(c.routes())} {verdict}")
    if th.notes:
        print(f"\nnotes: {th.notes}")
    return EXIT_OK


def _limit_text(p: Any) -> str:
    """The cost limit of a parameter inside its domain, for ``show``."""
    floor, ceiling = getattr(p, "floor", None), getattr(p, "ceiling", None)
    if floor is None and ceiling is not None and getattr(p, "lo", None) is not None:
        floor = p.lo
    if floor is None and ceiling is None:
        return ""
    from dpverify.theorems.core import fmt_fraction

    lo = "-inf" if floor is None else fmt_fraction(floor)
    hi = "inf" if ceiling is None else fmt_fraction(ceiling)
    return f"; dpverify evaluates [{lo}, {hi}] (a cost limit)"


# ------------------------------------------------------------------------------------------
# run / report


def cmd_run(args: argparse.Namespace) -> int:
    from dpverify.reports import html, markdown
    from dpverify.reports.baseline import weakenings
    from dpverify.reports.html.ahead import plots_ahead
    from dpverify.reports.io import check_report_folder, dump_json, load_run, publish_set
    from dpverify.theorems import get
    from dpverify.verifiers.dispatch import PROFILES
    from dpverify.verifiers.executors import open_executor
    from dpverify.verifiers.runner import Progress, assemble, execute, plan

    if args.jobs < 0:
        raise InvalidParameter(f"--jobs must be >= 0 (0: one per core); got {args.jobs}")
    if args.jobs > 256:
        raise InvalidParameter(f"--jobs must be at most 256; got {args.jobs}")
    if args.timeout is not None:
        positive_seconds("--timeout", args.timeout)
    if args.claim is not None and len(args.ids) != 1:
        raise InvalidParameter(f"--claim {args.claim} needs exactly one theorem id")
    ids = [get(i).id for i in args.ids] if args.ids else None
    baseline = load_run(args.baseline, "--baseline") if args.baseline else None
    full = ids is None and not args.route
    out = Path(args.out if args.out is not None else
               DEFAULT_OUT if full else DEFAULT_PARTIAL_OUT)
    check_report_folder(out, "--out")  # before the run, not after it
    profile = PROFILES[args.profile]
    tasks = plan(ids, claim=args.claim, routes=args.route)
    if args.claim is not None and not tasks:
        raise InvalidParameter(f"--claim {args.claim} matches no claim of {', '.join(ids or [])}")
    if not tasks:
        raise InvalidParameter("the selection has no check to run (--route "
                               f"{', '.join(args.route or [])} matches none)")
    progress = Progress(len(tasks))
    started = time.monotonic()
    with open_executor(args.executor, args.workers, args.scheduler, args.jobs) as backend, \
            plots_ahead([(t.theorem, t.claim, t.check) for t in tasks],
                        backend.name == "local" and backend.workers > 1) as ahead:

        def on_result(v: Any) -> None:
            progress.update(v)
            if ahead is not None:
                ahead.feed(v)

        verdicts = execute(tasks, profile, seed=args.seed, on_result=on_result,
                           task_seconds=args.timeout, executor=backend.executor)
        command = "dpverify " + " ".join(sys.argv[1:]) if args.argv is None else args.argv
        doc = assemble(tasks, verdicts, profile, command, time.monotonic() - started, ids,
                       executor=backend.describe())
        drawn = ahead.collect(doc) if ahead is not None else None
    # render everything before writing anything: a failure leaves the previous set intact
    texts = {"latest.json": dump_json(doc), "latest.md": markdown.render(doc),
             "latest.html": html.render(doc, drawn=drawn)}
    publish_set(out, texts)
    try:
        if args.format == "json":
            print(json.dumps(doc))
        else:
            line = markdown.status_line(doc).replace("**", "")
            code = {0: "32", 1: "31", 3: "35"}.get(doc["exit_code"], "0")
            print(_color(line, code, sys.stdout))
            print(f"reports: {out / 'latest.json'}, {out / 'latest.md'}, {out / 'latest.html'}")
        sys.stdout.flush()
    except BrokenPipeError:  # `| head`: the reports are written; the run's status stands
        _silence_stdout()
    if baseline is not None:
        weaker = weakenings(baseline, doc, routes=args.route, selected=args.claim is not None)
        for line in weaker:
            print(f"dpverify: weaker than the baseline: {line}", file=sys.stderr)
        if weaker and doc["exit_code"] == 0:
            return 1
    return doc["exit_code"]


def cmd_report(args: argparse.Namespace) -> int:
    from dpverify.reports.io import check_output_file, load_run, write_atomic

    if args.output is not None:
        check_output_file(args.output)
    doc = load_run(args.run)
    if args.format == "md":
        from dpverify.reports.markdown import render
    elif args.format == "html":
        from dpverify.reports.html import render
    else:
        from dpverify.reports.junit import render
    text = render(doc)
    if args.output:
        write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


# ------------------------------------------------------------------------------------------
# hdp


def cmd_hdp(args: argparse.Namespace) -> int:
    """The HDP calculator (GCE-HDPCALC): the guarantee for a hypothesis set given by a
    membership constraint, next to classic and parallel composition."""
    from dpverify.theorems.core import Evaluator
    from dpverify.theorems.formulas.hdp import hdp_query, hdp_rows
    from dpverify.verifiers.evaluation import evaluate

    if args.digits < 1 or args.digits > 100:
        raise InvalidParameter(f"--digits must be in [1, 100]; got {args.digits}")
    try:
        q = hdp_query(args.eps_list, args.constraint, delta_list=args.delta_list, m=args.m,
                      common=args.common, groups=args.group or (),
                      neighboring=args.neighboring, delta=args.delta, eps=args.eps)
    except InvalidParameter as e:  # name the flags the user typed, not the formula's names
        raise InvalidParameter(_flag_names(str(e))) from None
    target, given = ("eps", ("delta", args.delta)) if q.delta is not None else (
        "delta", ("eps", args.eps))
    rows = hdp_rows(q)
    results: list[dict[str, Any]] = []
    for row in rows:
        value, note = None, row.note
        if row.formula is not None:
            ev = Evaluator(row.key, (), lambda ctx, f=row.formula: f(ctx), row.label)
            try:
                value = evaluate(ev, {}, args.digits).value
            except InvalidParameter as e:
                if row.key == "hdp":
                    raise
                note = f"n/a: {e}"
        results.append({"key": row.key, "label": row.label, target: value, "note": note})
    hypotheses = rows[0].note
    if args.format == "json":
        print(json.dumps({"n": q.n, "constraint": q.constraint, "neighboring": q.neighboring,
                          "given": {given[0]: given[1]}, "computed": target,
                          "hypotheses": hypotheses, "rows": results}))
        return EXIT_OK
    print(f"{target} at {given[0]} = {given[1]}, n = {q.n} rounds")
    print(f"hypotheses: {hypotheses}")
    width = max(len(r["label"]) for r in results)
    for r in results:
        shown = f"{target} = {r[target]}" if r[target] is not None else "—"
        extra = "" if r["key"] == "hdp" else f"   ({r['note']})"
        print(f"  {r['label']:<{width}}  {shown}{extra}")
    return EXIT_OK


def _flag_names(message: str) -> str:
    import re

    return re.sub(r"(?<![-\w])(eps_list|delta_list|eps|delta|m|common|group)(?![-\w])",
                  lambda m: "--" + m.group().replace("_", "-"), message, count=1)


# ------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from dpverify.verifiers.executors import add_executor_arguments

    p = _Parser(prog="dpverify", description="Verify the composition and amplification "
                "theorems of differential privacy.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("list", help="list the catalogue")
    s.add_argument("--family")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("show", help="explain one theorem")
    s.add_argument("id")
    s.add_argument("--run", help="a run JSON whose verdicts to show (default: the snapshot)")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.set_defaults(func=cmd_show)

    s = sub.add_parser("eval", help="evaluate a formula: ID[.EVALUATOR] name=value ...")
    s.add_argument("target")
    s.add_argument("params", nargs="*")
    s.add_argument("--digits", type=int, default=15, help="significant digits (1..1000); an "
                   "enclosure-only engine prints the digits its enclosure supports")
    s.add_argument("--timeout", type=float, help=f"seconds (default {EVAL_TIMEOUT:g}); at the "
                   "limit: exit 3, 'time limit', no value")
    s.add_argument("--rel-width", type=float, help="relative width of the enclosure, for "
                   "evaluators that take a rel_width (the PLD engine)")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.set_defaults(func=cmd_eval)

    s = sub.add_parser("run", help="check the claims of the catalogue (or of some ids)")
    s.add_argument("ids", nargs="*")
    s.add_argument("--profile", choices=("quick", "thorough"), default="quick")
    s.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per core; "
                   "1: serial, in-process, for debugging)")
    s.add_argument("--out", help=f"report folder, replaced whole (default: {DEFAULT_OUT} "
                   f"for a whole-catalogue run, ./{DEFAULT_PARTIAL_OUT} otherwise)")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.add_argument("--claim", type=int, help="only this claim number (with one id)")
    s.add_argument("--route", action="append",
                   choices=("oracle", "numeric", "property", "smt", "interval"))
    s.add_argument("--seed", type=int, help="override the seeds derived from task ids")
    s.add_argument("--baseline", metavar="OLD.json",
                   help="exit 1 when a claim's verdict weakens against this earlier run")
    s.add_argument("--timeout", type=float, help="seconds per task, > 0 (default: the "
                   "profile's)")
    add_executor_arguments(s)
    s.set_defaults(func=cmd_run, argv=None)

    s = sub.add_parser("report", help="render a run: RUN.json --format md|html|junit")
    s.add_argument("run")
    s.add_argument("--format", choices=("md", "html", "junit"), default="md")
    s.add_argument("--output", "-o")
    s.set_defaults(func=cmd_report)

    s = sub.add_parser("hdp", help="HDP guarantee for a choice of databases, beside classic and "
                       "parallel composition")
    s.add_argument("--eps-list", required=True, help="per-round eps_i, comma-separated")
    s.add_argument("--delta-list", help="per-round delta_i, comma-separated (default zeros)")
    s.add_argument("--constraint", required=True,
                   choices=("at-most", "exactly-one", "groups", "uniform-nonzero"))
    s.add_argument("--m", type=int, help="at-most: each individual in at most m databases")
    s.add_argument("--common", help="groups: 1-based rounds every member is in")
    s.add_argument("--group", action="append", help="groups: 1-based rounds of one group "
                   "(repeat for each group)")
    s.add_argument("--neighboring", choices=("add_remove", "replace_one"), default="add_remove")
    s.add_argument("--delta", help="compute eps at this delta")
    s.add_argument("--eps", help="compute delta at this eps")
    s.add_argument("--digits", type=int, default=6)
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.set_defaults(func=cmd_hdp)

    __import__("dpverify.reports.audit_cli", fromlist=["register"]).register(sub)

    from dpverify.reports.check_bound_cli import add_parser as add_check_bound

    add_check_bound(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    restore = _on_sigterm()
    try:
        return _main(argv)
    finally:
        restore()
        _flush_stdout()


def _on_sigterm() -> Any:
    """SIGTERM raises :class:`Terminated` (cleanup runs, exit 143) while main runs."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum: int, frame: Any) -> None:
        raise Terminated()

    old = signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, old)


def _flush_stdout() -> None:
    """A reader that closed the pipe (``| head``) ends the output quietly."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and args.command == "eval" and all("=" in x and not x.startswith("-")
                                                     for x in extra):
            args.params += extra  # name=value items given after an option
        elif extra:
            raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
        return int(args.func(args))
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except PrecisionExhausted as e:
        print(f"dpverify: precision ran out: {_one_line(e)}", file=sys.stderr)
        return EXIT_INTERNAL
    except EvalInconclusive as e:
        print(f"dpverify: {_one_line(e)}", file=sys.stderr)
        return EXIT_INTERNAL
    except DpVerifyError as e:
        print(f"dpverify: error: {_one_line(e)}", file=sys.stderr)
        return EXIT_USAGE
    except Terminated:
        print("dpverify: terminated (the previous reports are intact)", file=sys.stderr)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print("dpverify: interrupted (the previous reports are intact)", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError:
        print("dpverify: internal error: out of memory", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as e:
        if os.environ.get("DPVERIFY_DEBUG"):
            traceback.print_exc()
        print(f"dpverify: internal error: {type(e).__name__}: {_one_line(e)} "
              "(set DPVERIFY_DEBUG=1 for a traceback)", file=sys.stderr)
        return EXIT_INTERNAL


def _one_line(e: BaseException, limit: int = 400) -> str:
    """A message on one line, a huge number in it shortened to its head and digit count."""
    import re

    text = " ".join(str(e).split())
    text = re.sub(r"\d{41,}", lambda m: f"{m.group()[:8]}...({len(m.group())} digits)", text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


if __name__ == "__main__":
    sys.exit(main())
