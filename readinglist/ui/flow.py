"""A row of controls that wraps onto another row where its width runs out, instead of being cut or of
widening its pane past the window (the detail pane's state buttons were clipped at 700×500: their one row was
the pane's minimum, and the window could not honour it beside the map).

Each item keeps at least its minimum width (a button: its whole label). The room a row has left over takes
its items up to their preferred widths, in order, and then goes to its expanding items (a stretch), as a
box layout's would. The layout's minimum is its widest item, as many rows high as its width needs now: the
pane above it (a splitter) learns of a second row as of any other minimum."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QSpacerItem, QWidget

DEFAULT_SPACING = 6  # where neither the layout nor its parent says


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._width = -1  # the width last laid out at: the height its rows need is the minimum's

    # ---- QLayout's items ----

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)
        self.invalidate()

    def addStretch(self) -> None:
        """Room that takes what the items of its row leave (a stretch in a box layout)."""
        self.addItem(QSpacerItem(0, 0, QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum))

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        if not 0 <= index < len(self._items):
            return None
        item = self._items.pop(index)
        self.invalidate()
        return item

    # ---- sizes ----

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), place=False)

    def minimumSize(self) -> QSize:
        margins = self.contentsMargins()
        widest = max((item.minimumSize().width() for item in self._shown()), default=0)
        width = widest + margins.left() + margins.right()
        return QSize(width, self.heightForWidth(max(self._width, width) if self._width > 0 else 1 << 20))

    def sizeHint(self) -> QSize:
        """One row of every item at its preferred width (as high as the width laid out at needs)."""
        margins = self.contentsMargins()
        items = self._shown()
        width = sum(item.sizeHint().width() for item in items) + self._gap() * max(len(items) - 1, 0)
        width += margins.left() + margins.right()
        return QSize(width, max(self.minimumSize().height(), self.heightForWidth(width)))

    def rows(self) -> int:
        """How many rows the items take at the width laid out at now."""
        return len(self._rows(self._content_width(self.geometry())))

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        before = self.heightForWidth(self._width) if self._width > 0 else None
        self._width = rect.width()
        self._arrange(rect, place=True)
        if before is not None and self.heightForWidth(self._width) != before:
            self.invalidate()  # another row, or one fewer: the minimum's height changes with it

    # ---- laying out ----

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty() or item.spacerItem() is not None]

    def _gap(self) -> int:
        spacing = self.spacing()
        return spacing if spacing >= 0 else DEFAULT_SPACING

    def _content_width(self, rect: QRect) -> int:
        margins = self.contentsMargins()
        return rect.width() - margins.left() - margins.right()

    def _rows(self, width: int) -> list[list[QLayoutItem]]:
        """The items in rows, each as many as fit in `width` at their minimum widths (at least one a row)."""
        rows: list[list[QLayoutItem]] = []
        row: list[QLayoutItem] = []
        used = 0
        for item in self._shown():
            need = item.minimumSize().width()
            gap = self._gap() if row and item.spacerItem() is None else 0
            if row and used + gap + need > width:
                rows.append(row)
                row, used, gap = [], 0, 0
            if not row and item.spacerItem() is not None:
                continue  # a stretch at a row's start: nothing to push
            row.append(item)
            used += gap + need
        if row:
            rows.append(row)
        return rows

    def _arrange(self, rect: QRect, place: bool) -> int:
        """Lay the items out in `rect` (if `place`); the height they take, margins included."""
        margins = self.contentsMargins()
        width = self._content_width(rect)
        gap = self._gap()
        y = rect.top() + margins.top()
        rows = self._rows(width)
        for row in rows:
            height = max(item.sizeHint().height() for item in row)
            if place:
                self._place(row, QRect(rect.left() + margins.left(), y, width, height))
            y += height + gap
        if rows:
            y -= gap
        return y - rect.top() + margins.bottom()

    def _place(self, row: list[QLayoutItem], area: QRect) -> None:
        gaps = [self._gap() if i and item.spacerItem() is None else 0 for i, item in enumerate(row)]
        widths = [item.minimumSize().width() for item in row]
        left = area.width() - sum(widths) - sum(gaps)
        for i, item in enumerate(row):  # up to its preferred width, in order
            grow = max(min(left, item.sizeHint().width() - widths[i]), 0)
            widths[i] += grow
            left -= grow
        expanding = [i for i, item in enumerate(row) if item.expandingDirections() & Qt.Orientation.Horizontal]
        for n, i in enumerate(expanding):  # then the rest to the stretches
            share = left // (len(expanding) - n)
            widths[i] += share
            left -= share
        x = area.left()
        for item, width, gap in zip(row, widths, gaps, strict=True):
            x += gap
            height = min(area.height(), item.maximumSize().height())
            item.setGeometry(QRect(x, area.top() + (area.height() - height) // 2, width, height))
            x += width
