"""``dpverify eval``: one evaluator at one point, bounded in time.

The evaluation runs in a forked child (:func:`verifiers.limited.call_limited`) with a time limit
(``--timeout``, default :data:`EVAL_TIMEOUT`): at the limit, or when the child dies, the result is
:class:`EvalInconclusive` (exit 3, one line, no value), never a hang. ``--rel-width`` goes to an
evaluator that takes a ``rel_width`` (a parameter, or a keyword of its formula) and is refused
otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from dpverify.theorems.errors import DpVerifyError, InvalidParameter

EXIT_OK = 0
EVAL_TIMEOUT = 50.0  # seconds: `dpverify eval` never runs longer unless --timeout says so


class EvalInconclusive(DpVerifyError):
    """An evaluation that ended without a value (time limit, memory): exit 3, one line."""


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
    from dpverify.verifiers.evaluation import evaluate, evaluate_each

    theorem_name, _, evaluator_name = args.target.partition(".")
    if not theorem_name.strip():
        raise InvalidParameter(f"eval needs a target ID[.EVALUATOR]; got {args.target!r}")
    th = get(theorem_name)
    if not th.encoded:
        raise InvalidParameter(f"{th.id} is not encoded yet: it has no evaluators to run")
    ev = th.evaluator(evaluator_name or None)
    given = _parse_assignments(args.params)
    if args.digits < 1 or args.digits > 1000:
        raise InvalidParameter(f"--digits must be in [1, 1000]; got {args.digits}")
    seconds = positive_seconds("--timeout", args.timeout)
    extra = _rel_width(args.rel_width, ev, f"{th.id}.{ev.name}", given)
    bound = bind(ev.params, given, f"{th.id}.{ev.name}")
    key = f"{th.id}.{ev.name}"
    if ev.vector is not None:
        results = _evaluate_limited(lambda: evaluate_each(ev, {**bound, **extra}, args.digits,
                                                          key=key), seconds, key)
        _print_vector(args, th.id, ev, given, bound, results)
        return EXIT_OK
    result = _evaluate_limited(lambda: evaluate(ev, {**bound, **extra}, args.digits, key=key),
                               seconds, key)
    if result.note:
        print(f"dpverify: note: {result.note}", file=sys.stderr)
    if args.format == "json":
        shown = _shown_params(ev, given, bound)
        print(json.dumps({"theorem": th.id, "evaluator": ev.name, "params": shown,
                          "value": result.value,
                          "enclosure": list(result.enclosure) if result.enclosure else None,
                          "note": result.note or None}))
    elif (ev.enclosure_only or result.note) and result.enclosure:
        print(f"{result.value}  (enclosure [{result.enclosure[0]}, {result.enclosure[1]}])")
    else:
        print(result.value)
    return EXIT_OK


def _shown_params(ev: Any, given: dict[str, str], bound: dict[str, Any]) -> dict[str, Any]:
    shown: dict[str, Any] = {}
    for p in ev.params:
        if p.name in given:
            raw = given[p.name]
            shown[p.name] = raw.split(",") if p.__class__.__name__ == "RealList" else raw
        else:
            shown[p.name] = p.show(bound[p.name])
    return shown


def _print_vector(args: argparse.Namespace, tid: str, ev: Any, given: dict[str, str],
                  bound: dict[str, Any], results: list[Any]) -> None:
    """One value per entry of the vector parameter: a line each (plain), or JSON arrays
    ``value`` and ``enclosure`` (an entry ``null`` where no enclosure was computed)."""
    notes = [r.note for r in results if r.note]
    for note in dict.fromkeys(notes):
        print(f"dpverify: note: {note}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"theorem": tid, "evaluator": ev.name,
                          "params": _shown_params(ev, given, bound),
                          "value": [r.value for r in results],
                          "enclosure": [list(r.enclosure) if r.enclosure else None
                                        for r in results],
                          "note": "; ".join(dict.fromkeys(notes)) or None}))
        return
    for r in results:
        print(r.value)


def positive_seconds(flag: str, value: float | None) -> float:
    import math

    if value is None:
        return EVAL_TIMEOUT
    if not math.isfinite(value) or value <= 0:
        raise InvalidParameter(f"{flag} must be a finite number of seconds > 0; got {value}")
    return value


def _rel_width(value: float | None, ev: Any, key: str, given: dict[str, str]) -> dict[str, Any]:
    """``--rel-width``: a parameter of the evaluator, or a keyword its formula accepts."""
    import inspect
    import math

    if value is None:
        return {}
    if not math.isfinite(value) or not 0 < value < 1:
        raise InvalidParameter(f"--rel-width must be in (0, 1); got {value}")
    if any(p.name == "rel_width" for p in ev.params):
        given["rel_width"] = repr(value)
        return {}
    try:
        accepts = "rel_width" in inspect.signature(ev.formula).parameters
    except (TypeError, ValueError):
        accepts = False
    if not accepts:
        raise InvalidParameter(f"--rel-width: {key} has no rel_width parameter (only engines "
                               "with a discretisation accuracy take one)")
    return {"rel_width": value}


def _evaluate_limited(call: Any, seconds: float, key: str) -> Any:
    from dpverify.verifiers.limited import ChildDied, TimeLimit, call_limited

    try:
        return call_limited(call, seconds)
    except TimeLimit:
        raise EvalInconclusive(f"time limit: {key} did not finish within {seconds:g} s "
                               "(inconclusive; raise --timeout to wait longer)") from None
    except ChildDied as e:
        raise EvalInconclusive(f"{key}: {e}") from None
