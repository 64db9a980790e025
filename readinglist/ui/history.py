"""Back and Forward over the places the reader has been: a place is a query, the sidebar's filter and the
paper shown.

A place is recorded once the reader rests on it (REST_MS), so that j/k through a list, or a query typed a
key at a time, is one step and not one per paper or per key; following a link records where the reader was
and where the link led at once, so that the paper it left is always one Back away. Going back or forward
records nothing: arriving at the place it went to is not a new step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from readinglist.ui.sidebar import Filter

REST_MS = 1200
LIMIT = 200


@dataclass(frozen=True)
class Place:
    query: str
    filter: Filter
    paper: int | None


class History(QObject):
    changed = Signal()  # whether there is a way back or forward may have changed

    def __init__(self, here: Callable[[], Place], parent: QObject | None = None):
        """`here` says where the reader is now."""
        super().__init__(parent)
        self._here = here
        self._places: list[Place] = []
        self._at = -1
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REST_MS)
        self._timer.timeout.connect(self.record)

    @property
    def can_go_back(self) -> bool:
        return self._at > 0 or (self._at == 0 and self._moved())

    @property
    def can_go_forward(self) -> bool:
        return self._at < len(self._places) - 1 and not self._moved()

    def _moved(self) -> bool:
        """The reader is somewhere not yet recorded."""
        return 0 <= self._at < len(self._places) and self._here() != self._places[self._at]

    def moved(self) -> None:
        """The place may have changed: it is recorded once the reader rests there."""
        self._timer.start()
        self.changed.emit()

    def record(self) -> None:
        """Record where the reader is now, if it is not where the last step left them."""
        self._timer.stop()
        here = self._here()
        if self._at >= 0 and self._places[self._at] == here:
            return
        if self._at >= 0 and self._places[self._at].query == here.query and self._places[self._at].paper is None:
            self._places[self._at] = here  # the results of a query, then the paper first shown in them: one place
        else:
            del self._places[self._at + 1 :]
            self._places.append(here)
            if len(self._places) > LIMIT:
                del self._places[0]
            self._at = len(self._places) - 1
        self.changed.emit()

    def step(self, by: int) -> Place | None:
        """The place `by` steps back (-1) or forward (+1), which the caller then shows; None if there is none."""
        if by < 0 and self._moved():
            self.record()  # where the reader is now is one Forward away from where they go
        target = self._at + by
        if not 0 <= target < len(self._places):
            return None
        self._timer.stop()
        self._at = target
        self.changed.emit()
        return self._places[target]

    def arrived(self) -> None:
        """The place stepped to is shown: what the window did to get there is not a new step."""
        self._timer.stop()
        if 0 <= self._at < len(self._places):
            self._places[self._at] = self._here()
        self.changed.emit()
