"""The certified-reference cache, the shipped references, the thorough scenario set and the
progress bar of ``dpverify audit``."""

from __future__ import annotations

import io
import json
import multiprocessing
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from dpverify.verifiers.accountants import cache
from dpverify.verifiers.accountants.cache import ReferenceStore, key_of, material
from dpverify.verifiers.accountants.reference import Bound, Reference
from dpverify.verifiers.accountants.scenario import MECHANISMS
from dpverify.verifiers.accountants.sets import DELTAS, scenario_set
from tests.test_audit import CLOSED, MIXED

G10 = CLOSED[0]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(tmp_path / "cache"))


def test_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: Any) -> None:
    assert cache.cache_dir() == tmp_path / "cache"
    monkeypatch.delenv("DPVERIFY_CACHE_DIR")
    import platformdirs

    assert cache.cache_dir() == Path(platformdirs.user_cache_dir("dpverify"))


def test_a_reference_is_computed_once_then_read_from_disk(tmp_path: Path) -> None:
    first = ReferenceStore(2e-2, 10)
    a = first.get(G10.scenario, "epsilon", 1e-5)
    assert first.counts["computed"] == 1
    files = list((tmp_path / "cache" / "references").rglob("*.json"))
    assert len(files) == 1 and not list((tmp_path / "cache").rglob("*.tmp"))
    second = ReferenceStore(2e-2, 10)
    b = second.get(G10.scenario, "epsilon", 1e-5)
    assert second.counts == {"shipped": 0, "disk": 1, "computed": 0, "write_errors": 0}
    assert (a.lo, a.hi) == (b.lo, b.hi) and isinstance(b.lo, Fraction)
    # another width, query or scenario is another key
    keys = {key_of(material(G10.scenario, "epsilon", 1e-5, 2e-2)),
            key_of(material(G10.scenario, "epsilon", 1e-5, 1e-3)),
            key_of(material(G10.scenario, "delta", 1e-5, 2e-2)),
            key_of(material(CLOSED[1].scenario, "epsilon", 1e-5, 2e-2))}
    assert len(keys) == 4


def test_corrupt_or_foreign_entries_are_recomputed(tmp_path: Path) -> None:
    store = ReferenceStore(2e-2, 10)
    good = store.get(G10.scenario, "delta", 1.0)
    (path,) = (tmp_path / "cache" / "references").rglob("*.json")
    for junk in ("{not json", json.dumps({"key": "another", "lo": "0/1", "hi": "1/1",
                                          "method": "m"}),
                 json.dumps({"key": json.loads(path.read_text())["key"], "lo": "1/1",
                             "hi": "0/1", "method": "inverted"})):
        path.write_text(junk)
        fresh = ReferenceStore(2e-2, 10)
        again = fresh.get(G10.scenario, "delta", 1.0)
        assert fresh.counts["computed"] == 1 and (again.lo, again.hi) == (good.lo, good.hi)


def test_no_cache_neither_reads_nor_writes(tmp_path: Path) -> None:
    store = ReferenceStore(2e-2, 10, use_cache=False)
    store.get(G10.scenario, "epsilon", 1e-5)
    store.get(G10.scenario, "epsilon", 1e-5)
    assert store.counts["computed"] == 2 and not (tmp_path / "cache").exists()


def test_an_unwritable_cache_is_only_slower(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    store = ReferenceStore(2e-2, 10, directory=blocker)
    b = store.get(G10.scenario, "epsilon", 1e-5)
    assert b.lo > 0 and store.counts["write_errors"] == 1


def _fill(args: tuple[str, int]) -> str:
    directory, _ = args
    store = ReferenceStore(2e-2, 10, directory=Path(directory))
    b = store.get(MIXED.scenario, "delta", 1.0)
    return f"{b.lo}|{b.hi}"


def test_concurrent_processes_share_the_cache_safely(tmp_path: Path) -> None:
    with multiprocessing.get_context("fork").Pool(3) as pool:
        results = pool.map(_fill, [(str(tmp_path / "shared"), i) for i in range(3)])
    files = list((tmp_path / "shared").rglob("*"))
    assert not [f for f in files if f.name.endswith(".tmp")]
    (path,) = [f for f in files if f.suffix == ".json"]
    stored = cache.decode(json.loads(path.read_text()),
                          material(MIXED.scenario, "delta", 1.0, 2e-2))
    assert stored is not None and f"{stored.lo}|{stored.hi}" in results


def test_shipped_references_equal_recomputed_ones() -> None:
    entries = json.loads(cache.SHIPPED.read_text())["entries"]
    cases, opts = scenario_set("quick")
    seen = 0
    for case in cases:
        ref = Reference(case.scenario, opts["rel_width"], opts["ref_seconds"])
        if ref.route == "pld" and seen >= 4:
            continue
        for kind, values in (("epsilon", case.deltas), ("delta", case.epsilons)):
            for v in values:
                text = material(case.scenario, kind, v, opts["rel_width"])
                shipped = cache.decode(entries[key_of(text)], text)
                fresh = ref.epsilon(v) if kind == "epsilon" else ref.delta(v)
                assert shipped is not None
                if ref.route == "pld":  # a time budget may stop the refinement elsewhere:
                    assert shipped.lo <= fresh.hi and fresh.lo <= shipped.hi  # both hold
                else:
                    assert (shipped.lo, shipped.hi) == (fresh.lo, fresh.hi), (case.id, kind)
                seen += 1
    assert seen >= 8


@pytest.mark.parametrize("name", ["quick", "thorough"])
def test_the_shipped_references_cover_the_built_in_sets(name: str) -> None:
    entries = json.loads(cache.SHIPPED.read_text())["entries"]
    cases, opts = scenario_set(name)
    missing = [(case.id, kind, v) for case in cases
               for kind, values in (("epsilon", case.deltas), ("delta", case.epsilons))
               for v in values
               if key_of(material(case.scenario, kind, v, opts["rel_width"])) not in entries]
    assert not missing


def test_huge_exact_bounds_are_stored_rounded_outward() -> None:
    x = (1 - Fraction(1, 10**8)) ** 1000  # a 27 000-bit denominator
    lo, hi = cache.round_out(x, up=False), cache.round_out(x, up=True)
    assert lo <= x <= hi and (hi - lo) / x < Fraction(1, 2**500)
    assert max(hi.numerator.bit_length(), hi.denominator.bit_length()) < 2000
    bound = Bound(x, x + Fraction(1, 10**9), "t")
    text = material(G10.scenario, "delta", 1.0, 0.5)
    back = cache.decode(json.loads(json.dumps(cache.encode(bound, text))), text)
    assert back is not None and back.lo <= x and back.hi >= x + Fraction(1, 10**9)


def test_the_thorough_set_covers_the_grid() -> None:
    cases, _ = scenario_set("thorough")
    assert len(cases) >= 120 and len({c.id for c in cases}) == len(cases)
    events = [(c.scenario.neighboring, e) for c in cases for e in c.scenario.events]
    kinds = {(rel, e.mechanism, e.sampling is not None) for rel, e in events}
    for mech in MECHANISMS:
        for rel in ("add_remove", "replace_one"):
            assert (rel, mech, False) in kinds, (rel, mech)
    for mech in ("gaussian", "laplace", "randomized_response", "discrete_laplace",
                 "discrete_gaussian"):
        assert ("add_remove", mech, True) in kinds
    assert ("replace_one", "gaussian", True) in kinds
    assert any(len({e.mechanism for e in c.scenario.events}) > 1 for c in cases)
    assert {d for c in cases for d in c.deltas} == set(DELTAS)
    counts = {e.count for _, e in events}
    assert {1, 10, 100, 1000, 10**4, 10**5} <= counts
    sigmas = {e.sigma for _, e in events if e.sigma}
    qs = {e.sampling.q for _, e in events if e.sampling}
    assert min(sigmas) == 0.3 and max(sigmas) == 50 and min(qs) == 1e-4 and max(qs) == 1


def test_the_progress_bar_is_one_line_on_a_terminal_only() -> None:
    from dpverify.reports.audit_cli import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    rec = {"accountant": "a", "scenario": "s", "query": "q", "verdict": "SOUND"}
    tty = Tty()
    p = Progress(3, tty)
    for v in ("SOUND", "UNSOUND", "SOUND"):
        p.update({**rec, "verdict": v})
    p.close()
    assert "\n" not in tty.getvalue() and "3/3" in tty.getvalue()
    assert "1 UNSOUND" in tty.getvalue()
    log = io.StringIO()
    p = Progress(3, log)
    for v in ("SOUND", "UNSOUND", "SOUND"):
        p.update({**rec, "verdict": v})
    assert log.getvalue() == "audit: UNSOUND: a  s  q\n"  # no bar, the finding only
