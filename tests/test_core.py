"""The theorem model: exact parsing, domains, binding and the registry."""

from fractions import Fraction

import pytest

from dpverify.theorems import all_theorems, get, resolve
from dpverify.theorems.core import (
    Choice,
    Int,
    InvalidParameter,
    Real,
    RealList,
    UnknownName,
    bind,
    fmt_fraction,
    parse_number,
)
from dpverify.theorems.index import INDEX


@pytest.mark.parametrize(
    ("text", "value"),
    [("0.01", Fraction(1, 100)), ("1e-5", Fraction(1, 100000)), ("256/60000", Fraction(256, 60000)),
     ("3", Fraction(3)), ("-2.5E1", Fraction(-25)), (".5", Fraction(1, 2))],
)
def test_parse_number_is_exact(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["abc", "1e", "", "1/0", "0x10", "nan", "inf", "1,2"])
def test_parse_number_rejects(text):
    with pytest.raises(InvalidParameter):
        parse_number(text, "eps")


def test_fmt_fraction_round_trips():
    for x in [Fraction(1, 100000), Fraction(256, 60000), Fraction(-7, 4), Fraction(3)]:
        assert parse_number(fmt_fraction(x)) == x


def test_real_domain_messages():
    delta = Real("delta", lo=0, hi=1, lo_open=True, hi_open=True)
    with pytest.raises(InvalidParameter, match=r"^delta must be in \(0, 1\); got 1.5$"):
        delta.parse("1.5")
    with pytest.raises(InvalidParameter, match="got 0"):
        delta.parse("0")
    assert delta.parse("1e-10") == Fraction(1, 10**10)
    sigma = Real("sigma", lo=0, lo_open=True)
    with pytest.raises(InvalidParameter, match=r"sigma must be in \(0, inf\); got -1"):
        sigma.parse("-1")


def test_int_choice_list_domains():
    k = Int("k", lo=1)
    assert k.parse("7") == 7
    for bad in ["0", "1.5", "x"]:
        with pytest.raises(InvalidParameter, match=r"^k must be"):
            k.parse(bad)
    c = Choice("neighboring", ("add_remove", "replace_one"))
    with pytest.raises(InvalidParameter, match="neighboring must be one of"):
        c.parse("swap")
    lst = RealList("eps_list", Real("eps_list", lo=0))
    assert lst.parse("0.3,0.5") == (Fraction(3, 10), Fraction(1, 2))
    for bad in ["0.3,,0.5", "0.3,-1", ""]:
        with pytest.raises(InvalidParameter, match="eps_list"):
            lst.parse(bad)


def test_bind_fills_defaults_and_rejects_unknown_and_missing():
    params = (Real("b", lo=0, lo_open=True), Real("sensitivity", lo=0, lo_open=True, default="1"))
    assert bind(params, {"b": "2"}) == {"b": Fraction(2), "sensitivity": Fraction(1)}
    with pytest.raises(InvalidParameter, match="unknown parameter 'x'"):
        bind(params, {"b": "2", "x": "1"})
    with pytest.raises(InvalidParameter, match="missing parameter b"):
        bind(params, {})


def test_every_catalogue_id_and_alias_resolves():
    ids = [t.id for t in all_theorems()]
    assert ids == [row[0] for row in INDEX]
    assert len(ids) == len(set(ids)) == 108
    for row in INDEX:
        for alias in row[6]:
            assert resolve(alias) == row[0]
    assert get("STK-GAUSS-EXACT").id == "BW-ANALYTIC-GAUSS"
    with pytest.raises(UnknownName):
        get("NOT-AN-ID")


def test_encoded_theorems_cite_sources_and_number_claims():
    for th in all_theorems():
        if not th.encoded:
            continue
        assert th.source.locator, th.id
        numbers = [c.number for c in th.claims]
        assert numbers == sorted(numbers), th.id
        for ev in th.evaluators:
            assert ev.formula.__doc__ or ev.doc, f"{th.id}.{ev.name} has no documentation"
