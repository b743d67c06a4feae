"""The report's figures drawn in a forked process while the run's checks are still running.

After the checks, :func:`~dpverify.reports.html.render` spends ~5 s of CPU on its plots (the
margin plots of refuted claims evaluate their formulas, the privacy curves ~700 mpmath values,
matplotlib's SVG output) on one core while the other one idles. :func:`plots_ahead` forks one
process when a pool run starts; it draws the figures that do not depend on the verdicts at
once, then the margin plot of each claim that needs one (:func:`~dpverify.reports.html.
_wants_margin`) as soon as the claim's last verdict has arrived: the parent sends it that
claim's entry of the run document (:func:`~dpverify.verifiers.runner.claim_entry`), nothing
else. :meth:`PlotsAhead.collect` returns the :class:`Plots` that ``render`` would draw from the
finished document: the same figures in the same order, their SVG ids renumbered to their place
in the page. A claim whose entry differs from the document's, or that the process did not draw
(it died, or did not answer in time), is drawn then, in the parent, as before.

The plots' time limits (``PLOT_SECONDS`` for all, ``MARGIN_PLOT_SECONDS`` for one) count the
seconds spent drawing, not the seconds spent waiting for verdicts.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

from dpverify.reports import html
from dpverify.reports.html.figures import LOG, Plots, _renumber
from dpverify.theorems import get
from dpverify.verifiers.limited import die_with_parent
from dpverify.verifiers.runner import claim_entry
from dpverify.verifiers.verdict import Verdict

COLLECT_GRACE_SECONDS = 5.0  # beyond the plots' own limit, for the answer to arrive
_Key = tuple[str, int]


class PlotsAhead:
    """A forked plotting process fed with the claims of a run as they complete."""

    def __init__(self, tasks: Iterable[tuple[str, int, int]]) -> None:
        tasks = list(tasks)
        self.expected = Counter((tid, claim) for tid, claim, _ in tasks)
        self.arrived: dict[_Key, list[Verdict]] = {}
        self.sent: dict[_Key, dict[str, Any]] = {}
        self.conn, child = mp.get_context("fork").Pipe()
        self.proc = mp.get_context("fork").Process(
            target=_draw_ahead, args=(child, {tid for tid, _, _ in tasks}), daemon=True)
        self.proc.start()
        child.close()
        self.alive = True

    def feed(self, verdict: Verdict) -> None:
        """Record a verdict; a claim complete with it goes to the process if it has a plot."""
        key = (verdict.theorem, verdict.claim)
        got = self.arrived.setdefault(key, [])
        got.append(verdict)
        if not self.alive or len(got) != self.expected[key]:
            return
        try:
            claim = next(c for c in get(verdict.theorem).claims if c.number == verdict.claim)
            entry = claim_entry(claim, sorted(got, key=lambda v: v.check))
            if html._wants_margin(entry):
                self.conn.send(("claim", verdict.theorem, entry))
                self.sent[key] = entry
        except Exception:  # never the run's failure: collect() draws what the process lacks
            self.alive = False

    def collect(self, doc: dict[str, Any]) -> Plots:
        """The page's plots for the finished run document ``doc``."""
        fixed, per_claim = self._answer()
        deadline = time.monotonic() + html.PLOT_SECONDS
        if fixed is None:
            return html._draw_plots(doc, deadline)
        drawn = Plots()
        _take(drawn, fixed, log=True)
        for th in doc["theorems"]:
            for c in th["claims"]:
                if not html._wants_margin(c):
                    continue
                key = (th["id"], c["number"])
                part = per_claim.get(key) if self.sent.get(key) == c else None
                if part is None:  # drawn here: its notes are logged as they are made
                    part = Plots()
                    html._claim_figure(th["id"], c, part, deadline)
                    _take(drawn, part, log=False)
                else:
                    _take(drawn, part, log=True)
        return drawn

    def _answer(self) -> tuple[Plots | None, dict[_Key, Plots]]:
        if not self.alive:
            return None, {}
        try:
            self.conn.send(("end",))
            if self.conn.poll(html.PLOT_SECONDS + COLLECT_GRACE_SECONDS):
                return self.conn.recv()
        except (OSError, EOFError):
            pass
        return None, {}

    def close(self) -> None:
        self.conn.close()
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(1)


@contextmanager
def plots_ahead(tasks: Iterable[tuple[str, int, int]], enabled: bool) -> Iterator[
        PlotsAhead | None]:
    """A :class:`PlotsAhead` for the run of ``tasks`` (``None`` when not ``enabled``), whose
    process never outlives the block."""
    ahead = PlotsAhead(tasks) if enabled else None
    try:
        yield ahead
    finally:
        if ahead is not None:
            ahead.close()


def _take(drawn: Plots, part: Plots, log: bool) -> None:
    """Append ``part``'s figures (renumbered to their place), anchors and notes to ``drawn``;
    ``log``: the notes were made in the plotting process, whose log is silent (a warning amid
    the run's progress line), and are logged now, when ``render`` would have logged them."""
    for index, fig in enumerate(part.figures):
        fig.svg = _renumber(fig.svg, index, len(drawn.figures))
        drawn.figures.append(fig)
    drawn.margin_anchor.update(part.margin_anchor)
    for text in part.notes:
        if log:
            drawn.note(text)
        else:
            drawn.notes.append(text)


def _draw_ahead(conn: Connection, ids: set[str]) -> None:
    """The plotting process: the fixed figures, then one claim per message until ``end``."""
    die_with_parent()
    LOG.disabled = True  # the parent logs the notes when it collects them
    spent = 0.0  # seconds spent drawing: the plots' time limit counts these
    fixed = Plots()
    per_claim: dict[_Key, Plots] = {}
    started = time.monotonic()
    can_draw = html._matplotlib(fixed)
    if can_draw:
        html._fixed_figures(ids, fixed)
    spent += time.monotonic() - started
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg[0] == "end":
            conn.send((fixed, per_claim))
            return
        _, tid, entry = msg
        part = per_claim[(tid, entry["number"])] = Plots()
        if can_draw:
            started = time.monotonic()
            html._claim_figure(tid, entry, part, started + max(0.0, html.PLOT_SECONDS - spent))
            spent += time.monotonic() - started
