"""How exact numbers are shown: parameter values in messages, reports and reproduce commands
(decimal when the fraction has a finite decimal expansion, else ``p/q``; shortened for huge
values in messages)."""

from __future__ import annotations

from fractions import Fraction


def fmt_fraction(x: Fraction | int) -> str:
    """A short exact string for a parameter value (decimal when finite, else p/q)."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    scale = max(twos, fives)
    digits = abs(x.numerator) * 10**scale // x.denominator
    s = str(digits).rjust(scale + 1, "0")
    sign = "-" if x < 0 else ""
    return f"{sign}{s[:-scale]}.{s[-scale:]}"


def short_fraction(x: Fraction | int) -> str:
    """:func:`fmt_fraction` when short, else about 6 significant digits (for messages)."""
    text = fmt_fraction(x)
    if len(text) <= 40:
        return text
    x = Fraction(x)
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    e10 = int(e * 0.30102999566398120)
    scaled = a / Fraction(10) ** e10
    while scaled >= 10:
        scaled /= 10
        e10 += 1
    while scaled < 1:
        scaled *= 10
        e10 -= 1
    return f"{sign}{float(scaled):.6g}e{e10}"
