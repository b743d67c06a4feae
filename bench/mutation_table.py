"""The table of ``bench/mutation.py``: counts per family (or per family and seed, and pooled)
and the two rates over the non-equivalent mutants."""

from __future__ import annotations

COLUMNS = ("killed", "killed_by_owner", "weakened", "survived", "equivalent", "timed_out")


def table(totals: dict[str, dict[str, int]]) -> str:
    """The Markdown table per family (or per family and seed, and pooled). Both rates are over
    the non-equivalent mutants: the kill rate counts killed mutants (also by the owner family);
    the detection rate adds those detected by weakening (``dpverify run --baseline`` exits
    1)."""
    lines = ["| family | mutants | killed | killed by the owner family | detected by weakening "
             "| survived | equivalent | timed out | kill rate | detection rate |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for family, c in totals.items():
        n = sum(c[k] for k in COLUMNS)  # a replayed site whose code is gone is no mutant
        live = n - c["equivalent"]
        killed = c["killed"] + c["killed_by_owner"]
        rate = f"{100 * killed / live:.0f} %" if live else "—"
        detected = f"{100 * (killed + c['weakened']) / live:.0f} %" if live else "—"
        lines.append(f"| {family} | {n} | {c['killed']} | {c['killed_by_owner']} "
                     f"| {c['weakened']} | {c['survived']} | {c['equivalent']} "
                     f"| {c['timed_out']} | {rate} | {detected} |")
    return "\n".join(lines)


def per_seed(totals: dict[str, dict[str, int]], families: list[str]
              ) -> dict[str, dict[str, int]]:
    """One row per family when its rows come from one seed; else one per seed, then pooled."""
    out: dict[str, dict[str, int]] = {}
    for f in families:
        seeds = sorted(key for key in totals if key.startswith(f"{f} (seed "))
        if len(seeds) > 1:
            out.update({key: totals[key] for key in seeds})
            out[f"{f} (pooled)"] = totals[f]
        elif f in totals:
            out[f] = totals[f]
    return out
