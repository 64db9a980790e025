"""The sidebar's Topics section: the library's topics, largest first, each with its papers counted and how
many are left to triage ("140 · 12 to triage": unread with no priority, as the status bar's "triaged N of M"
and the Suggested view count them). Picking one filters the papers; the filter combines with the
query and with the sidebar's state or tag (Zotero's tag selector under its collections works the same way).

The section keeps its own choice (`topic`), apart from the sidebar's entry, so that a state and a topic
are picked together. Topics keep their ids across recomputes (readinglist.topics), so the topic picked
stays picked when they are computed again; one that is gone falls back to all topics.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QPainter, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from readinglist.papers import STATE_LABELS, STATES, Topic
from readinglist.ui.fitting import elide

TopicRole = Qt.ItemDataRole.UserRole + 20  # the topic's id; -1 on the "All topics" entry
CountsRole = Qt.ItemDataRole.UserRole + 21  # "140 · 12 to triage"
TriagedRole = Qt.ItemDataRole.UserRole + 22  # the share of its papers triaged (a state or a priority), 0–1
ALL_TOPICS = -1


def counts_text(size: int, untriaged: int) -> str:
    """A topic's papers and how many are left to triage: "140 · 12 to triage"."""
    return f"{size:,} · {untriaged:,} to triage"


def topic_tooltip(topic: Topic) -> str:
    counts = " · ".join(f"{topic.counts.get(s, 0):,} {STATE_LABELS[s].lower()}" for s in STATES)
    if topic.prioritized:
        counts += f" ({topic.prioritized:,} of them with a priority)"
    return f"{topic.label}\n{topic.size:,} papers: {counts}\n(topic:{topic.id} in a query)"


class _TopicDelegate(QStyledItemDelegate):
    """Each topic as its name over its counts (muted), with a thin bar of the share triaged."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(option.rect.width(), 2 * option.fontMetrics.height() + 9)

    @staticmethod
    def lines(option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> tuple[str, str]:
        """The name and the counts as drawn in the entry's width: each cut with "…" at a word's end where it
        is too long (the counts were clipped mid-word: "to triag"); the tooltip has the name and counts whole."""
        width = option.rect.width() - 8
        metrics = option.fontMetrics
        return elide(metrics, option.text, width), elide(metrics, str(index.data(CountsRole) or ""), width)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        name, counts = self.lines(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette = opt.palette
        text = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        muted = text if selected else palette.color(QPalette.ColorRole.PlaceholderText)
        rect = opt.rect.adjusted(4, 2, -4, -3)
        line = opt.fontMetrics.height()
        painter.save()
        painter.setPen(text)
        top = QRect(rect.left(), rect.top(), rect.width(), line)
        painter.drawText(top, Qt.AlignmentFlag.AlignVCenter, name)
        painter.setPen(muted)
        below = QRect(rect.left(), rect.top() + line, rect.width(), line)
        painter.drawText(below, Qt.AlignmentFlag.AlignVCenter, counts)
        share = index.data(TriagedRole)
        if isinstance(share, float):  # the share triaged, as a thin bar under the counts
            width = max(rect.width() - opt.fontMetrics.horizontalAdvance(counts) - 10, 0)
            bar = QRect(rect.right() - width, below.center().y() - 1, width, 3)
            if width > 12:
                track = palette.color(QPalette.ColorRole.Mid)
                painter.fillRect(bar, track)
                painter.fillRect(QRect(bar.left(), bar.top(), round(bar.width() * share), bar.height()),
                                 palette.color(QPalette.ColorRole.Highlight) if not selected else text)  # fmt: skip
        painter.restore()


class _TopicFilter(QSortFilterProxyModel):
    """The filter field narrows the topics by their names; "All topics" always stays."""

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        index = self.sourceModel().index(source_row, 0, source_parent)
        if index.data(TopicRole) == ALL_TOPICS:
            return True
        return super().filterAcceptsRow(source_row, source_parent)


class TopicsSection(QWidget):
    """The Topics section: a heading with a recompute button, a filter field and the list of topics."""

    topicChanged = Signal(object)  # int | None: the topic picked (None: all topics)
    computeRequested = Signal()  # the user asked for topics to be computed again

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("topicsSection")
        self._topic: int | None = None
        self._topics: dict[int, Topic] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(3)
        heading = QHBoxLayout()
        heading.setContentsMargins(4, 0, 0, 0)
        self.title = QLabel("Topics", self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.recomputeButton = QToolButton(self)
        self.recomputeButton.setObjectName("topicsRecompute")
        self.recomputeButton.setText("⟳")
        self.recomputeButton.setAutoRaise(True)
        self.recomputeButton.setToolTip("Compute the topics again (they are computed after each import)")
        self.recomputeButton.clicked.connect(self.computeRequested)
        heading.addWidget(self.title, 1)
        heading.addWidget(self.recomputeButton)
        self.filterField = QLineEdit(self)
        self.filterField.setObjectName("topicsFilter")
        self.filterField.setPlaceholderText("Filter topics")
        self.filterField.setClearButtonEnabled(True)
        self.entries = QStandardItemModel(self)
        self._proxy = _TopicFilter(self)
        self._proxy.setSourceModel(self.entries)
        self._proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filterField.textChanged.connect(self._filter_changed)
        self.list = QTreeView(self)
        self.list.setObjectName("topicList")
        self.list.setModel(self._proxy)
        self.list.setHeaderHidden(True)
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(False)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self._delegate = _TopicDelegate(self.list)
        self.list.setItemDelegate(self._delegate)
        self.list.selectionModel().currentChanged.connect(self._current_changed)
        self.placeholder = QLabel(self)
        self.placeholder.setObjectName("topicsPlaceholder")
        self.placeholder.setWordWrap(True)
        self.placeholder.setTextFormat(Qt.TextFormat.RichText)
        self.placeholder.linkActivated.connect(lambda _link: self.computeRequested.emit())
        self.placeholder.setContentsMargins(4, 0, 4, 0)
        self.noMatchNote = QLabel(self)  # a filter that leaves no topic says so (the list shows "All topics" only)
        self.noMatchNote.setObjectName("topicsNoMatch")
        self.noMatchNote.setWordWrap(True)
        self.noMatchNote.setContentsMargins(4, 0, 4, 0)
        self.noMatchNote.hide()
        self.unplacedNote = QLabel(self)  # papers that came after the topics were computed: in none yet
        self.unplacedNote.setObjectName("topicsUnplaced")
        self.unplacedNote.setWordWrap(True)
        self.unplacedNote.setContentsMargins(4, 0, 4, 0)
        self.unplacedNote.hide()
        self._unplaced = 0
        self._library_papers = 0  # the library's papers (0: not told), for what "All topics" leaves out
        self._computing = False
        for widget in (self.unplacedNote, self.filterField, self.noMatchNote, self.list, self.placeholder):
            layout.addWidget(widget)
        layout.insertLayout(0, heading)
        self.set_topics([])

    # ---- what is picked ----

    @property
    def topic(self) -> int | None:
        """The topic the papers are filtered by (None: all topics)."""
        return self._topic

    @property
    def picked(self) -> Topic | None:
        """The topic picked, with its name and counts (None: all topics)."""
        return self._topics.get(self._topic) if self._topic is not None else None

    def topic_named(self, topic_id: int) -> Topic | None:
        return self._topics.get(topic_id)

    @property
    def topics(self) -> list[Topic]:
        return list(self._topics.values())

    def set_topic(self, topic_id: int | None) -> None:
        """Filter by this topic (None: all), selecting its entry; topicChanged is emitted if it changed."""
        if topic_id is not None and topic_id not in self._topics:
            topic_id = None
        if topic_id is not None and not self._proxy.filterAcceptsRow(self._row_of(topic_id), QModelIndex()):
            self.filterField.clear()  # a topic asked for from elsewhere (the detail pane) is shown
        self.list.setCurrentIndex(self._proxy.mapFromSource(self._index_of(topic_id)))
        if topic_id != self._topic:  # the entry was current already (or the list is empty)
            self._topic = topic_id
            self.topicChanged.emit(topic_id)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        value = current.data(TopicRole)
        topic_id = None if value in (None, ALL_TOPICS) else int(value)
        if topic_id != self._topic:
            self._topic = topic_id
            self.topicChanged.emit(topic_id)

    # ---- the topics ----

    def set_topics(self, topics: list[Topic], computing: bool = False) -> None:
        """The topics as they are now (largest first). The topic picked stays picked if it is still there;
        if it is gone, all topics are shown again (topicChanged says so)."""
        self._topics = {t.id: t for t in topics}
        self.title.setText(f"Topics ({len(topics)})" if topics else "Topics")
        filtering = len(topics) > 12
        if not filtering and self.filterField.text():
            self.filterField.clear()  # a hidden filter never filters (its text left would hide every topic)
        self.list.selectionModel().blockSignals(True)
        try:
            self._fill(topics)
        finally:
            self.list.selectionModel().blockSignals(False)
        has = bool(topics)
        self._show_unplaced()
        self.list.setVisible(has)
        self.filterField.setVisible(filtering)
        self._show_no_match()
        self.placeholder.setVisible(not has)
        if computing:
            self.placeholder.setText("Grouping the papers into topics…")
        else:
            self.placeholder.setText(
                "Topics group the papers by what they are about. They are computed after an import; "
                "<a href='compute'>compute them now</a>."
            )
        if self._topic is not None and self._topic not in self._topics:
            self._topic = None
            self.topicChanged.emit(None)

    def _filter_changed(self, text: str) -> None:
        self._proxy.setFilterFixedString(text)
        self._show_no_match()

    @property
    def no_match_text(self) -> str:
        """What the section says when the filter's text leaves no topic ("" otherwise)."""
        text = self.filterField.text().strip()
        if not text or not self._topics or self._proxy.rowCount() > 1:
            return ""
        return f"No topic's name has “{text}” (clear the filter to see all {len(self._topics):,})."

    def _show_no_match(self) -> None:
        text = self.no_match_text
        self.noMatchNote.setText(text)
        self.noMatchNote.setVisible(bool(text))

    def set_computing(self, computing: bool) -> None:
        """While topics are computed the recompute button waits; with none yet, the section says so."""
        self._computing = computing
        self.recomputeButton.setEnabled(not computing)
        if not self._topics:
            self.set_topics([], computing)
        self._show_unplaced()

    def set_unplaced(self, count: int, library_papers: int = 0) -> None:
        """How many papers came after the topics were computed (in no topic, not counted by "All topics"
        until the next computation): the section says so above the list. With the library's papers, the
        "All topics" entry's tooltip says which papers it leaves out and why."""
        self._unplaced, self._library_papers = count, library_papers
        self._show_unplaced()
        root = self.entries.invisibleRootItem()
        if self._topics and root.rowCount():
            root.child(0).setToolTip(self.all_tooltip)

    @property
    def all_tooltip(self) -> str:
        """The "All topics" entry's tooltip: its papers of the library's, and why the others are in none."""
        total = sum(t.size for t in self._topics.values())
        if not self._library_papers or total >= self._library_papers:
            return "Papers of every topic"
        out = [f"Papers of every topic: {total:,} of the library's {self._library_papers:,}"]
        short = self._library_papers - total - self._unplaced
        if short > 0:
            out.append(f"{short:,} with too little text to tell a topic (no abstract, or a few words)")
        if self._unplaced:
            out.append(f"{self._unplaced:,} added since the topics were computed")
        return "\n".join(out)

    @property
    def unplaced_text(self) -> str:
        """What the section says of the papers in no topic yet ("" when there are none)."""
        n = self._unplaced
        if not n or not self._topics:
            return ""
        what = f"{n:,} new paper{'s' if n != 1 else ''}"  # added since the topics were computed (the tooltip)
        return (
            f"{what}: placing {'them' if n != 1 else 'it'} in topics…"
            if self._computing
            else f"{what} in no topic yet (⟳)."
        )

    def _show_unplaced(self) -> None:
        text = self.unplaced_text
        self.unplacedNote.setText(text)
        self.unplacedNote.setToolTip("Added since the topics were computed: they join topics at the next computation")
        self.unplacedNote.setVisible(bool(text))

    def _fill(self, topics: list[Topic]) -> None:
        """Update the entries in place (the scroll position and the current entry stay)."""
        root = self.entries.invisibleRootItem()
        if not topics:
            self.entries.clear()
            return
        wanted = [ALL_TOPICS] + [t.id for t in topics]
        if [root.child(r).data(TopicRole) for r in range(root.rowCount())] != wanted:
            self.entries.clear()
            for tid in wanted:
                item = QStandardItem()
                item.setEditable(False)
                item.setData(tid, TopicRole)
                self.entries.appendRow(item)
            root = self.entries.invisibleRootItem()  # clear() made a new one
        total = sum(t.size for t in topics)
        untriaged = sum(t.untriaged for t in topics)
        self._set_item(root.child(0), "All topics", total, untriaged, self.all_tooltip)
        for row, topic in enumerate(topics, start=1):
            self._set_item(root.child(row), topic.label, topic.size, topic.untriaged, topic_tooltip(topic))
        self.list.setCurrentIndex(self._proxy.mapFromSource(self._index_of(self._topic)))

    @staticmethod
    def _set_item(item: QStandardItem, name: str, size: int, untriaged: int, tooltip: str) -> None:
        if item.text() != name:
            item.setText(name)
        if item.data(CountsRole) != (counts := counts_text(size, untriaged)):
            item.setData(counts, CountsRole)
            item.setData((size - untriaged) / size if size else 0.0, TriagedRole)
        if item.toolTip() != tooltip:
            item.setToolTip(tooltip)

    def _row_of(self, topic_id: int | None) -> int:
        root = self.entries.invisibleRootItem()
        want = ALL_TOPICS if topic_id is None else topic_id
        return next((r for r in range(root.rowCount()) if root.child(r).data(TopicRole) == want), -1)

    def _index_of(self, topic_id: int | None) -> QModelIndex:
        row = self._row_of(topic_id)
        return self.entries.index(row, 0) if row >= 0 else QModelIndex()

    def shown_lines(self, topic_id: int | None) -> tuple[str, str]:
        """The topic's name and counts as its entry shows them at the list's width now (cut to fit)."""
        index = self._proxy.mapFromSource(self._index_of(topic_id))
        option = QStyleOptionViewItem()
        option.initFrom(self.list)
        option.rect = self.list.visualRect(index)
        self._delegate.initStyleOption(option, index)
        return self._delegate.lines(option, index)

    def visual_rect(self, topic_id: int | None) -> QRect:
        """Where the topic's entry is drawn in the list's viewport."""
        index = self._proxy.mapFromSource(self._index_of(topic_id))
        self.list.scrollTo(index)
        return self.list.visualRect(index)
