"""Suggestions in the window: the interest ranking kept up to date in the background, and the order it gives
a view (the dialog that edits "my interests" is ui/interests.py).

`Suggester` re-ranks on the window's worker pool after the marks change (an edit, its undo, another process,
an import, new interests). Marks come in bursts — x, x, x while triaging — so a re-rank starts once they
pause for COALESCE_MS (at most MAX_WAIT_MS after the first), one runs at a time, and a change meanwhile
starts one more after it. An edit that leaves the marks and interests as they were (a tag, a note) costs one
read of the marks and no ranking. The UI thread only receives the finished Ranking (`rankingChanged`) and
orders a view's ids by it (`arrange`: a set look-up or one numpy sort).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from readinglist.library import Library
from readinglist.papers import NOTHING_TO_LEARN, NothingToLearn, SearchResult
from readinglist.ui import runtime
from readinglist.ui.workers import Runner

if TYPE_CHECKING:
    from readinglist.interest import Ranking, Suggestion

COALESCE_MS = 120  # marks closer together than this are one change
MAX_WAIT_MS = 400  # …but a steady stream of marks still re-ranks this soon after the first


class Suggester(QObject):
    """The latest interest ranking of the library (`ranking`, None while there is nothing to learn from or
    before the first), re-ranked in the background when the marks or the interests change."""

    rankingChanged = Signal()  # a new ranking (or none: see `reason`) has been taken in
    failed = Signal(str)

    def __init__(self, library: Library, runner: Runner, parent: QObject | None = None):
        super().__init__(parent)
        self._library = library
        self._runner = runner
        self._ranking: Ranking | None = None
        self._reason: str | None = NOTHING_TO_LEARN
        self._running = False
        self._due = False  # a change came while a re-rank ran: one more after it
        self._force = False  # the next re-rank runs even if the marks are as they were (new papers, new text)
        self._forced = False  # the re-rank running is such a one
        self._seen: object = None  # the marks and interests the ranking was made from
        self._first_change: float | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._start)
        self.reranks = 0  # rankings made (benchmarks and tests count them)

    @property
    def ranking(self) -> Ranking | None:
        return self._ranking

    @property
    def reason(self) -> str | None:
        """Why there is no ranking (nothing to learn from yet, or a failure), else None."""
        return self._reason

    @property
    def idle(self) -> bool:
        return not self._running and not self._timer.isActive() and not self._due

    def schedule(self, force: bool = False) -> None:
        """The marks may have changed: re-rank once they pause. `force`: even if they are as they were (papers
        imported, interests edited)."""
        self._force = self._force or force
        now = time.monotonic()
        if not self._timer.isActive():
            self._first_change = now
        waited_ms = (now - (self._first_change or now)) * 1000
        self._timer.start(max(0, min(COALESCE_MS, int(MAX_WAIT_MS - waited_ms))))

    def stop(self) -> None:
        """No more re-ranks (the window closes)."""
        self._timer.stop()
        self._due = False

    def _start(self) -> None:
        if self._running:
            self._due = True
            return
        self._running = True
        force, self._force = self._force, False
        self._forced = force
        library, seen = self._library, self._seen

        def rank() -> tuple[object, Ranking | None, str | None] | None:
            marks = library.marks()
            key = (marks, tuple(library.interests()))
            if key == seen and not force:
                return None  # a tag or a note: the ranking stands
            try:
                ranking = library.suggestions(marks=marks)
            except NothingToLearn as exc:
                return key, None, str(exc)
            ranking.every_score()  # here, not on the UI thread when a view is sorted by it
            if len(ranking):
                ranking.explain(ranking.head(1)[0])  # the first explanation gathers the marked papers' terms
            return key, ranking, None

        self._runner.run(rank, self._ranked, self._rank_failed)

    def _finish(self) -> None:
        self._running = False
        if self._due:
            self._due = False
            self._start()

    def _ranked(self, outcome: tuple[object, Ranking | None, str | None] | None) -> None:
        if outcome is not None:
            self._seen, self._ranking, self._reason = outcome
            self.reranks += 1
            if self._forced:  # the first ranking (or one after an import) loaded what the session keeps:
                runtime.freeze_long_lived()  # the cyclic collector's full passes skip it from now on
        self._finish()
        if outcome is not None:
            self.rankingChanged.emit()

    def _rank_failed(self, exc: Exception) -> None:
        self._ranking, self._reason, self._seen = None, f"Suggestions failed: {exc}", None
        self._finish()
        self.failed.emit(str(exc))
        self.rankingChanged.emit()

    # ---- what the window asks of the ranking ----

    def arrange(self, result: SearchResult, untriaged_only: bool, by_interest: bool = True) -> SearchResult:
        """The results in predicted-interest order, with the ranking's scores: only the untriaged papers
        (the Suggested view), or every paper of the results (the Suggested sort of any view). Not
        `by_interest`: the untriaged papers in the results' own order (a query's, ranked by relevance).
        Without a ranking the results stay as they are."""
        ranking = self._ranking
        if ranking is None:
            return result
        if untriaged_only and not by_interest:
            kept = set(ranking.among(result.ids)[0])
            rows = [k for k, i in enumerate(result.ids) if i in kept]
            return replace(
                result,
                ids=[result.ids[k] for k in rows],
                scores=[result.scores[k] for k in rows] if result.scores else [],
                matched=[result.matched[k] for k in rows] if len(result.matched) == len(result.ids) else [],
            )
        result = result.most_words()  # closest matches: those with most words, by interest (the line says how many)
        if untriaged_only:
            ids, scores = ranking.among(result.ids)
        else:
            ids, scores = ranking.order(result.ids)
        return replace(result, ids=ids, scores=scores, matched=result.matched[:1] * len(ids))

    def explain(self, paper_id: int) -> Suggestion | None:
        """Why this paper is suggested, if it is one of the ranking's (untriaged) papers."""
        ranking = self._ranking
        if ranking is None or ranking.score(paper_id) is None:
            return None
        return ranking.explain(paper_id)


def reason_text(reason: str | None) -> str:
    """What the Suggested view says while it has no ranking."""
    if reason is None or reason == NOTHING_TO_LEARN:
        return ("Nothing to learn from yet (library order meanwhile): mark a few papers read (r) or skipped (x), "
                "or set your interests.")  # fmt: skip
    return reason
