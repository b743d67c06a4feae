"""The ``dpverify`` command line: ``list``, ``show``, ``eval``, ``run``, ``report``.

Exit codes: 0 all claims as expected; 1 a claim came out unexpectedly; 2 usage or bad input (a
one-line message naming the parameter and its domain, no traceback); 3 internal error.
``--format json`` puts only JSON on stdout. ``NO_COLOR`` is honoured.

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

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.errors import DpVerifyError, InvalidParameter, UsageError

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
DEFAULT_OUT = "reports/catalogue"
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

    path = Path(run_path) if run_path else SNAPSHOT
    if not path.exists():
        if run_path:
            raise InvalidParameter(f"--run {run_path}: no such file")
        return {}
    doc = load_run(path)
    for th in doc["theorems"]:
        if th["id"] == theorem_id:
            return {c["number"]: c for c in th["claims"]}
    return {}


def cmd_show(args: argparse.Namespace) -> int:
    from dpverify.theorems import get

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
            print(f"      {p.name}: {p.describe()}")
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


# ------------------------------------------------------------------------------------------
# eval


def _parse_assignments(items: list[str]) -> dict[str, str]:
    given: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise InvalidParameter(f"parameters are given as name=value; got {item!r}")
        if name in given:
            raise InvalidParameter(f"parameter {name} given twice")
        given[name] = value
    return given


def cmd_eval(args: argparse.Namespace) -> int:
    from dpverify.theorems import get
    from dpverify.theorems.core import bind
    from dpverify.verifiers.numeric import evaluate

    theorem_name, _, evaluator_name = args.target.partition(".")
    th = get(theorem_name)
    if not th.encoded:
        raise InvalidParameter(f"{th.id} is not encoded yet: it has no evaluators to run")
    ev = th.evaluator(evaluator_name or None)
    given = _parse_assignments(args.params)
    if args.digits < 1 or args.digits > 1000:
        raise InvalidParameter(f"--digits must be in [1, 1000]; got {args.digits}")
    bound = bind(ev.params, given, f"{th.id}.{ev.name}")
    result = evaluate(ev, bound, args.digits)
    if args.format == "json":
        shown: dict[str, Any] = {}
        for p in ev.params:
            if p.name in given:
                raw = given[p.name]
                shown[p.name] = raw.split(",") if p.__class__.__name__ == "RealList" else raw
            else:
                v = p.show(bound[p.name])
                shown[p.name] = v
        print(json.dumps({"theorem": th.id, "evaluator": ev.name, "params": shown,
                          "value": result.value,
                          "enclosure": list(result.enclosure) if result.enclosure else None}))
    elif ev.enclosure_only and result.enclosure:
        print(f"{result.value}  (enclosure [{result.enclosure[0]}, {result.enclosure[1]}])")
    else:
        print(result.value)
    return EXIT_OK


# ------------------------------------------------------------------------------------------
# run / report


def cmd_run(args: argparse.Namespace) -> int:
    from dpverify.reports import html, markdown
    from dpverify.reports.baseline import weakenings
    from dpverify.reports.io import dump_json, load_run, write_atomic
    from dpverify.theorems import get
    from dpverify.verifiers.dispatch import PROFILES
    from dpverify.verifiers.executors import open_executor
    from dpverify.verifiers.runner import Progress, assemble, execute, plan

    if args.jobs < 0:
        raise InvalidParameter(f"--jobs must be >= 0 (0: one per core); got {args.jobs}")
    ids = [get(i).id for i in args.ids] if args.ids else None
    baseline = load_run(args.baseline) if args.baseline else None
    profile = PROFILES[args.profile]
    tasks = plan(ids, claim=args.claim, routes=args.route)
    if args.claim is not None and not tasks:
        raise InvalidParameter(f"--claim {args.claim} matches no claim of {', '.join(ids or [])}")
    progress = Progress(len(tasks))
    started = time.monotonic()
    with open_executor(args.executor, args.workers, args.scheduler, args.jobs) as backend:
        verdicts = execute(tasks, profile, seed=args.seed, on_result=progress.update,
                           task_seconds=args.timeout, executor=backend.executor)
    command = "dpverify " + " ".join(sys.argv[1:]) if args.argv is None else args.argv
    doc = assemble(tasks, verdicts, profile, command, time.monotonic() - started, ids,
                   executor=backend.describe())
    out = Path(args.out)
    # render everything before writing anything: a failure leaves the previous set intact
    texts = {"latest.json": dump_json(doc), "latest.md": markdown.render(doc),
             "latest.html": html.render(doc)}
    for name, text in texts.items():
        write_atomic(out / name, text)
    if args.format == "json":
        print(json.dumps(doc))
    else:
        line = markdown.status_line(doc).replace("**", "")
        code = {0: "32", 1: "31", 3: "35"}.get(doc["exit_code"], "0")
        print(_color(line, code, sys.stdout))
        print(f"reports: {out / 'latest.json'}, {out / 'latest.md'}, {out / 'latest.html'}")
    if baseline is not None:
        weaker = weakenings(baseline, doc)
        for line in weaker:
            print(f"dpverify: weaker than the baseline: {line}", file=sys.stderr)
        if weaker and doc["exit_code"] == 0:
            return 1
    return doc["exit_code"]


def cmd_report(args: argparse.Namespace) -> int:
    from dpverify.reports.io import load_run, write_atomic
    from dpverify.reports.schema import SCHEMA_ID, validate

    doc = load_run(args.run)
    problems = validate(doc)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InvalidParameter(f"{args.run} is not a valid {SCHEMA_ID} run document: "
                               f"{problems[0]}{more}")
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
    from dpverify.verifiers.numeric import evaluate

    if args.digits < 1 or args.digits > 100:
        raise InvalidParameter(f"--digits must be in [1, 100]; got {args.digits}")
    q = hdp_query(args.eps_list, args.constraint, delta_list=args.delta_list, m=args.m,
                  common=args.common, groups=args.group or (), neighboring=args.neighboring,
                  delta=args.delta, eps=args.eps)
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
    s.add_argument("--digits", type=int, default=15)
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.set_defaults(func=cmd_eval)

    s = sub.add_parser("run", help="check the claims of the catalogue (or of some ids)")
    s.add_argument("ids", nargs="*")
    s.add_argument("--profile", choices=("quick", "thorough"), default="quick")
    s.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per core; "
                   "1: serial, in-process, for debugging)")
    s.add_argument("--out", default=DEFAULT_OUT, help=f"report folder (default {DEFAULT_OUT})")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.add_argument("--claim", type=int, help="only this claim number (with one id)")
    s.add_argument("--route", action="append",
                   choices=("oracle", "numeric", "property", "smt", "interval"))
    s.add_argument("--seed", type=int, help="override the seeds derived from task ids")
    s.add_argument("--baseline", metavar="OLD.json",
                   help="exit 1 when a claim's verdict weakens against this earlier run")
    s.add_argument("--timeout", type=float, help="seconds per task (default: the profile's)")
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
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and args.command == "eval" and all("=" in x and not x.startswith("-")
                                                     for x in extra):
            args.params += extra  # name=value items given after an option
        elif extra:
            raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
        return int(args.func(args))
    except PrecisionExhausted as e:
        print(f"dpverify: precision ran out: {e}", file=sys.stderr)
        return EXIT_INTERNAL
    except DpVerifyError as e:
        print(f"dpverify: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("dpverify: interrupted", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as e:
        if os.environ.get("DPVERIFY_DEBUG"):
            traceback.print_exc()
        print(f"dpverify: internal error: {type(e).__name__}: {e} "
              "(set DPVERIFY_DEBUG=1 for a traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
