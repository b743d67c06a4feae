"""dpverify's pytest plugin (``pytest11`` entry point ``dpverify``): an accountant project asserts
in its own test suite that its accountant is SOUND on a scenario set.

Nothing is imported at collection time beyond pytest itself: the audit machinery (python-flint,
the certified references) loads on the first use of the fixture.

Usage::

    def test_accountant_is_sound(dpverify_audit):
        dpverify_audit(MyAccountant(), scenarios="quick")   # fails on UNSOUND / ERROR

    @pytest.mark.dpverify(scenarios="tests/my_scenarios.json", timeout=30, strict=True)
    def test_accountant_is_tight(dpverify_audit):
        dpverify_audit(MyAccountant())                       # marker gives the defaults

``scenarios`` is ``"quick"``, ``"thorough"``, a path to a scenario JSON file, or a list of
scenario entries (``{"id", "scenario", "deltas", "epsilons"}``). The fixture returns the audit's
records. It fails the test, listing the offending records, on ``UNSOUND``, ``ERROR`` or
``INCONCLUSIVE``; with ``strict=True`` also on ``LOOSE`` and ``UNSUPPORTED``. It also fails when
no query was judged against a certified reference (the accountant answered nothing: every
query UNSUPPORTED, say) unless ``allow_unsupported=True``.

Baseline mode: with ``baseline="tests/audit-baseline.json"`` (an earlier audit's JSON, e.g. of
``dpverify audit --format json -o ...``) the test also fails when a verdict weakens or a claimed
value moves by more than ``tolerance`` (relative, default 1e-6) — like ``dpverify audit
--baseline``. A missing baseline fails the test; ``update_baseline=True`` writes the current
records there instead (atomically) and compares nothing. Outside a fixture,
:func:`assert_sound` does the same; every option may also be given in the marker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

MARKER = "dpverify"
FAIL_ON = ("UNSOUND", "ERROR", "INCONCLUSIVE")
STRICT_FAIL_ON = (*FAIL_ON, "LOOSE", "UNSUPPORTED")


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(scenarios='quick', ids=None, timeout=60, loose_factor=1.5, strict=False, "
        "allow_unsupported=False, baseline=None, tolerance=1e-6, update_baseline=False): "
        "defaults of the dpverify_audit fixture (accountant audit against certified "
        "references)")


def _cases(scenarios: Any) -> tuple[list[Any], dict[str, Any], str]:
    from dpverify.verifiers.accountants.scenario import ScenarioCase, parse_cases
    from dpverify.verifiers.accountants.sets import scenario_set

    if isinstance(scenarios, str):
        cases, opts = scenario_set(scenarios)
        return cases, opts, scenarios
    items = list(scenarios)
    if items and all(isinstance(c, ScenarioCase) for c in items):
        return items, {}, "FILE"
    return parse_cases(items, "scenarios"), {}, "FILE"


def audit_accountant(accountant: Any, scenarios: Any = "quick", *, ids: Any = None,
                     timeout: float = 60.0, loose_factor: float = 1.5,
                     executor: Any = None) -> list[dict[str, Any]]:
    """Run the audit of one accountant and return its records (``executor``: where the
    missing certified references are computed, see ``dpverify.audit``)."""
    return audit_accountants([accountant], scenarios, ids=ids, timeout=timeout,
                             loose_factor=loose_factor, executor=executor)


def audit_accountants(accountants: Sequence[Any], scenarios: Any = "quick", *, ids: Any = None,
                      timeout: float = 60.0, loose_factor: float = 1.5,
                      executor: Any = None) -> list[dict[str, Any]]:
    """The records of every accountant, audited one after the other against one reference
    store: each certified reference is computed (or prefetched on ``executor``) once."""
    from dpverify.verifiers.accountants.audit import Audit, AuditOptions, Named
    from dpverify.verifiers.accountants.cache import ReferenceStore

    cases, opts, label = _cases(scenarios)
    if ids:
        wanted = {ids} if isinstance(ids, str) else set(ids)
        cases = [c for c in cases if c.id in wanted]
        if not cases:
            raise ValueError(f"no scenario with id in {sorted(wanted)}")
    options = AuditOptions(timeout=timeout, loose_factor=loose_factor, scenarios_label=label,
                           **opts)
    store = ReferenceStore(options.rel_width, options.ref_seconds)
    if executor is not None:
        from dpverify.verifiers.accountants.remote import prefetch_references
        from dpverify.verifiers.executors import backend_for

        with backend_for(executor) as backend:
            prefetch_references(store, cases, backend.executor)
    records: list[dict[str, Any]] = []
    for accountant in accountants:
        name = str(getattr(accountant, "name", "") or type(accountant).__name__)
        records += Audit([Named(name, accountant)], cases, options, reference=store.bound).run()
    return records


def _failure_text(bad: list[dict[str, Any]], total: int) -> str:
    lines = [f"dpverify audit: {len(bad)} of {total} queries failed:"]
    for r in bad:
        ref = r.get("reference")
        ref_s = f" certified [{ref[0]}, {ref[1]}]" if ref else ""
        lines.append(f"  {r['verdict']}: {r['scenario']} {r['query']} claimed "
                     f"{r.get('claimed')}{ref_s} — {r.get('detail', '')}")
    return "\n".join(lines)


def _nothing_checked(records: list[dict[str, Any]]) -> str:
    from collections import Counter

    why = ", ".join(f"{n} {v}" for v, n in Counter(r["verdict"] for r in records).items())
    return (f"dpverify audit: nothing was checked: none of the {len(records)} queries was "
            f"judged against a certified reference ({why or 'no queries'}); the accountant "
            "answered nothing it could be checked on (pass allow_unsupported=True to accept)")


def _check_baseline(records: list[dict[str, Any]], baseline: Any, tolerance: float,
                    update: bool) -> str | None:
    """The failure text of a baseline comparison (None: no regression)."""
    import json
    from pathlib import Path

    from dpverify.verifiers.accountants.baseline import compare, load_records
    from dpverify.verifiers.accountants.cache import write_json_atomic

    path = Path(baseline)
    if update:
        write_json_atomic(path, records)
        return None
    try:
        old = load_records(json.loads(path.read_text(encoding="utf-8")), str(path))
    except FileNotFoundError:
        return (f"dpverify audit: baseline {path} does not exist (write it with "
                "update_baseline=True, or dpverify audit --format json -o it)")
    except (OSError, ValueError) as e:
        return f"dpverify audit: cannot read baseline {path}: {e}"
    cmp = compare(old, records, tolerance)
    regs = cmp["regressions"]
    if not regs:
        return None
    lines = [f"dpverify audit: {len(regs)} regression(s) against baseline {path} "
             f"({cmp['compared']} records compared):"]
    lines += [f"  {g['scenario']} {g['query']}: {g['detail']}" for g in regs]
    return "\n".join(lines)


def assert_sound(accountant: Any, scenarios: Any = "quick", *, ids: Any = None,
                 timeout: float = 60.0, loose_factor: float = 1.5,
                 strict: bool = False, allow_unsupported: bool = False,
                 baseline: Any = None, tolerance: float = 1e-6,
                 update_baseline: bool = False) -> list[dict[str, Any]]:
    """Audit ``accountant``; ``pytest.fail`` on UNSOUND, ERROR or INCONCLUSIVE (and, with
    ``strict``, LOOSE or UNSUPPORTED), when nothing was checked (unless
    ``allow_unsupported``), and on a regression against ``baseline``. Returns the records."""
    from dpverify.verifiers.accountants.audit import checked

    records = audit_accountant(accountant, scenarios, ids=ids, timeout=timeout,
                               loose_factor=loose_factor)
    fail_on = STRICT_FAIL_ON if strict else FAIL_ON
    bad = [r for r in records if r["verdict"] in fail_on]
    problems = [_failure_text(bad, len(records))] if bad else []
    if not allow_unsupported and not checked(records):
        problems.append(_nothing_checked(records))
    if baseline is not None:
        text = _check_baseline(records, baseline, tolerance, update_baseline)
        if text:
            problems.append(text)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
    return records


@pytest.fixture
def dpverify_audit(request: Any) -> Any:
    """A callable ``(accountant, scenarios=..., **options) -> records`` that fails the test
    when the accountant is not SOUND; defaults come from the ``dpverify`` marker."""
    marker = request.node.get_closest_marker(MARKER)
    defaults: dict[str, Any] = dict(marker.kwargs) if marker else {}
    if marker and marker.args:
        defaults.setdefault("scenarios", marker.args[0])

    def run(accountant: Any, scenarios: Any = None, **options: Any) -> list[dict[str, Any]]:
        kw = {**defaults, **options}
        sc = scenarios if scenarios is not None else kw.pop("scenarios", "quick")
        kw.pop("scenarios", None)
        return assert_sound(accountant, sc, **kw)

    return run
