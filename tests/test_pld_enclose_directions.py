"""Per-direction steps of the PLD enclosure (issue 14): a direction dominated by another is
decided at a coarser step (its certified upper end there is at most the pass's certified lower
end), otherwise refined as the others; the pass's ends, the record of each direction's step and
the driver's choice of the coarse directions (float model, previous pass)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import composition, enclose, passes, predict

DELTA = Fraction(1, 10**5)
ABS_TOL = 1e-5 * 2.0**-24
H, COARSE = Fraction(1, 128), Fraction(1, 64)


def _directions() -> list[list[pld.Part]]:
    """Add/remove of a subsampled Gaussian: the add direction (0) dominates (eps ~0.9 vs ~0.55
    at delta 1e-5)."""
    return pld.sgm_composition([(Fraction(1, 100), Fraction(1), 200)])


def _ends(draw_n: int, data: st.DataObject
          ) -> tuple[list[Fraction], list[Fraction], list[Fraction], list[Fraction]]:
    """Per direction: a lower end <= the true value <= the upper end, and a cheaper (coarser)
    upper end >= the true value."""
    ints = st.integers(min_value=0, max_value=40)
    truth = [Fraction(data.draw(ints)) for _ in range(draw_n)]
    lows = [t - data.draw(ints) for t in truth]
    highs = [t + data.draw(ints) for t in truth]
    cheap = [t + data.draw(ints) for t in truth]
    return truth, lows, highs, cheap


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=1, max_value=4), st.data())
def test_max_over_directions_encloses_the_maximum(n: int, data: st.DataObject) -> None:
    """With cheaper upper ends for any subset of the directions: ``lo <= max truth <= hi``; the
    lower end is the one without them (a direction decided early cannot raise it), the upper
    end is not above it (when some direction has no cheap end), each direction's reported end
    is an upper end of it, and a direction decided early has neither end computed."""
    truth, lows, highs, cheap = _ends(n, data)
    early_set = data.draw(st.sets(st.integers(min_value=0, max_value=n - 1)))
    called: list[tuple[str, int]] = []

    def upper(d: int) -> Fraction:
        called.append(("upper", d))
        return highs[d]

    def lower(d: int) -> Fraction:
        called.append(("lower", d))
        return lows[d]

    early = {d: (lambda d=d: cheap[d]) for d in early_set}
    lo, hi, ends, decided = passes._max_over_directions(n, upper, lower, Fraction(-100), early)
    assert not any(d in decided for _kind, d in called)
    ref_lo, ref_hi, _ref_ends, _ = passes._max_over_directions(n, upper, lower, Fraction(-100))
    assert lo <= max(truth) <= hi
    assert lo == ref_lo
    if len(early_set) < n:
        assert hi <= ref_hi
    assert all(ends[d] >= truth[d] for d in range(n))
    assert decided <= early_set
    assert all(cheap[d] <= lo and ends[d] == cheap[d] for d in decided)


def test_max_over_directions_decides_a_dominated_direction_early() -> None:
    calls: list[tuple[str, int]] = []

    def upper(d: int) -> Fraction:
        calls.append(("upper", d))
        return Fraction([10, 5][d])

    def lower(d: int) -> Fraction:
        calls.append(("lower", d))
        return Fraction([9, 4][d])

    lo, hi, ends, decided = passes._max_over_directions(2, upper, lower, Fraction(0),
                                                        {1: lambda: Fraction(6)})
    assert (lo, hi, ends, decided) == (9, 10, [10, 6], {1})
    assert calls == [("upper", 0), ("lower", 0)]
    # a cheap end above the lower end: the direction is refined, its end the smaller one
    calls.clear()
    lo, hi, ends, decided = passes._max_over_directions(2, upper, lower, Fraction(0),
                                                        {1: lambda: Fraction(95, 10)})
    assert (lo, hi, ends, decided) == (9, 10, [10, 5], set())
    assert calls == [("upper", 0), ("lower", 0), ("upper", 1)]


def _recording_one_steps(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Fraction]]:
    """Record (direction, step) of every one-step discretisation built from now on."""
    built: list[tuple[str, Fraction]] = []
    original = composition._OneStep

    class Recording(original):  # type: ignore[misc, valid-type]
        def __init__(self, pair: pld.LossPair, h: Fraction, bits: int, tail: float) -> None:
            built.append((pair.direction, h))
            super().__init__(pair, h, bits, tail)

    monkeypatch.setattr(composition, "_OneStep", Recording)
    return built


def test_a_dominated_direction_at_a_coarse_step_gives_the_fine_pass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The remove direction held at 2h: its upper end there is below the add direction's lower
    end, so it is decided at 2h (never discretised at h), and the pass is the all-fine one."""
    directions = _directions()
    pld._CACHE.clear()
    fine = passes._eps_pass_parts(directions, DELTA, H, ABS_TOL, False, "fourier")
    pld._CACHE.clear()
    built = _recording_one_steps(monkeypatch)
    record: dict = {}
    got = passes._eps_pass_parts(directions, DELTA, H, ABS_TOL, False, "fourier",
                                 coarse={1: COARSE}, record=record)
    assert got == fine
    assert record["steps"] == [H, COARSE]
    assert record["his"][1] <= got[0] < record["his"][0] == got[1]
    assert sorted(set(built)) == [("add", H), ("remove", COARSE)]  # no remove at H


@pytest.mark.parametrize("method", ["fourier", "exact", "auto"])
def test_a_dominant_direction_held_coarse_is_refined(method: str) -> None:
    """A coarse step for the dominant direction (a wrong guess): its coarse upper end is above
    the lower end of the maximum, so it is refined at h; the pass is the all-fine one. With
    the dominated direction held, the pass is the all-fine one too, for every method."""
    directions = _directions()
    pld._CACHE.clear()
    fine = passes._eps_pass_parts(directions, DELTA, H, ABS_TOL, False, method, 0.9, 1e-4)
    for held, steps in (({0: COARSE}, [H, H]), ({1: COARSE}, [H, COARSE])):
        record: dict = {}
        got = passes._eps_pass_parts(directions, DELTA, H, ABS_TOL, False, method, 0.9, 1e-4,
                                     coarse=held, record=record)
        assert got == fine
        assert record["steps"] == steps


def test_delta_pass_with_a_coarse_direction() -> None:
    directions = _directions()
    eps = Fraction(9, 10)
    pld._CACHE.clear()
    fine = passes._delta_pass_parts(directions, eps, H, 2.0**-40, False, "fourier")
    record: dict = {}
    got = passes._delta_pass_parts(directions, eps, H, 2.0**-40, False, "fourier",
                                   coarse={1: COARSE}, record=record)
    assert got == fine and record["steps"] == [H, COARSE]


def test_model_reports_each_direction_and_decides_the_dominated_one_by_chernoff() -> None:
    """The float model's third value is each direction's upper end; without a centre the
    dominated direction is decided by its (pessimistic) Chernoff estimate, which is above its
    composed upper model and below the model's lower end."""
    directions = _directions()
    _bits, tail = pld._plan(200, ABS_TOL)
    got = predict.predicted_pass(directions, H, tail, lambda f: f.eps_float(1e-5), None, 1e-5)
    assert got is not None
    lo, hi, his = got
    assert his[0] == hi and his[1] < lo
    centred = predict.predicted_pass(directions, H, tail, lambda f: f.eps_float(1e-5),
                                     (lo + hi) / 2, 1e-5)
    assert centred is not None
    assert centred[2][1] < his[1]  # the composed upper model is below the Chernoff estimate


def test_driver_records_the_steps_and_holds_the_dominated_direction() -> None:
    """With the model: the dominated direction is decided at the model's step in the first
    rigorous pass (recorded in the pass and the Enclosure), the enclosure meets the target."""
    pld._CACHE.clear()
    enc = pld.enclose_eps_composition(_directions(), DELTA, rel_width=1e-4)
    assert enc.model is not None and enc.rel_width() <= 1e-4
    model_h = Fraction(enc.model["h"])
    assert enc.steps == [enc.h, model_h] and model_h > enc.h
    assert enc.passes[-1]["steps"] == [str(enc.h), str(model_h)]


def test_driver_without_a_model_holds_it_at_the_first_pass_step() -> None:
    """Without a model (method "tilted"), the first pass refines every direction; the next
    pass holds the dominated direction at the first pass's step."""
    pld._CACHE.clear()
    enc = pld.enclose_eps_composition(_directions(), DELTA, rel_width=1e-4, method="tilted")
    assert enc.model is None and len(enc.passes) >= 2
    first = enc.passes[0]
    assert first["steps"] == [first["h"], first["h"]]
    assert enc.passes[1]["steps"] == [enc.passes[1]["h"], first["h"]]


def test_delta_driver_records_the_steps() -> None:
    pld._CACHE.clear()
    enc = pld.enclose_delta_composition(_directions(), Fraction(9, 10), rel_width=1e-3)
    assert enc.model is not None and enc.steps is not None
    assert enc.steps[0] == enc.h and enc.steps[1] == Fraction(enc.model["h"]) > enc.h


def test_a_fixed_step_refines_every_direction() -> None:
    pld._CACHE.clear()
    enc = pld.enclose_eps_composition(_directions(), DELTA, h=H)
    assert enc.steps == [H, H]


def test_direction_steps_follow_the_pass() -> None:
    held = enclose._DirectionSteps()
    held.from_model(COARSE, (1.0, 1.1, [1.1, 0.5]))
    assert held.coarse == {1: COARSE}
    held.record.update(his=[Fraction(11, 10), Fraction(12, 10)], steps=[H, H])
    assert held.after_pass(Fraction(1)) == [H, H]
    assert held.coarse == {}  # the remove direction was not below: refined next time too
    held.record.update(his=[Fraction(11, 10), Fraction(1, 2)], steps=[H, COARSE])
    held.after_pass(Fraction(1))
    assert held.coarse == {1: COARSE}


def test_upper_only_pass_puts_every_direction_at_h() -> None:
    """Without lower ends there is nothing to compare a coarse end with: every direction is
    refined, and the upper end is the all-fine one."""
    directions = _directions()
    pld._CACHE.clear()
    fine = passes._eps_pass_parts(directions, DELTA, H, ABS_TOL, True, "fourier")
    record: dict = {}
    got = passes._eps_pass_parts(directions, DELTA, H, ABS_TOL, True, "fourier",
                                 coarse={1: COARSE}, record=record)
    assert got == fine and record["steps"] == [H, H]
