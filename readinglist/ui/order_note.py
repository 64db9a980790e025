"""Which order the papers are in, said at the right end of the line under the search field: ranked by
relevance (in the order added, without a query), or sorted by a column with a link back to rank order.
The header's sort indicator alone cannot say "rank order": it is then simply absent."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from readinglist.ui.search_bar import link_button


class OrderNote(QWidget):
    relevanceRequested = Signal()  # the link back to rank order was clicked
    interestRequested = Signal()  # the link back to predicted interest (the Suggested view's own order)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.label = QLabel(self)
        self.label.setObjectName("orderLabel")
        self.label.setStyleSheet("color: gray;")
        self.button = link_button("Relevance", self)
        self.button.setObjectName("relevanceButton")
        self.button.clicked.connect(self._clicked)
        self._back_to_interest = False
        self.button.hide()
        layout.addWidget(self.label)
        layout.addWidget(self.button)

    def show_order(
        self,
        column: str | None,
        descending: bool,
        query: bool,
        suggested: str = "",
        unranked: bool = False,
        queue: bool = False,
        provisional: bool = False,
    ) -> None:
        """`column` is the label of the column sorted by (None: the results' own order); `query` whether
        the results are a query's (rank order) or every paper (the order they were added); `suggested`:
        "view" for the Suggested view, "sort" for the Suggested sort of any view (by predicted interest),
        "view by relevance" for a query's untriaged papers in rank order, asked for in the Suggested view;
        `unranked`: there is no predicted interest yet (nothing to learn from), so the papers keep their own order;
        `queue`: the queued papers without a query, by priority and then in the order added (Library.search);
        `provisional`: a query's papers found while the index is built, titles first (SearchResult.provisional)."""
        own = "Relevance" if query else "Priority" if queue else "Order added"
        self._back_to_interest = column is None and suggested == "view by relevance"
        if column is None and suggested and unranked:
            own_order = "Ranked by relevance" if query else "In the order added"
            self.label.setText(f"{own_order} · no predicted interest yet")
            self.button.hide()
        elif self._back_to_interest:
            self.label.setText("Ranked by relevance · back to")
            self._link_to_interest()
        elif column is None and suggested == "view" and query:  # a query typed: its best matches on a click
            self.label.setText("By predicted interest · rank by")
            self.button.setText(own)
            self.button.setToolTip("The untriaged papers that match, best matches first")
            self.button.show()
        elif column is None and suggested:
            self.label.setText("By predicted interest" + (" · back to" if suggested == "sort" else ""))
            self.button.setText(own)
            self.button.setToolTip("Rank order: the best matches first" if query else "")
            self.button.setVisible(suggested == "sort")
        elif column is None:
            self.label.setText(
                "Titles first, not ranked yet"
                if provisional
                else "Ranked by relevance"
                if query
                else "By priority, then in the order added"
                if queue
                else "In the order added"
            )
            self.button.hide()
        else:
            self.label.setText(f"Sorted by {column}, {'descending' if descending else 'ascending'} · back to")
            if suggested == "view":  # the Suggested view's own order is what the link brings back
                self._link_to_interest()
            else:
                self.button.setText(own)
                self.button.setToolTip(
                    "Rank order: the best matches first" if query else "Every paper in the order it was added"
                )
                self.button.show()

    def _link_to_interest(self) -> None:
        self.button.setText("Predicted interest")
        self.button.setToolTip("The Suggested view's own order: the papers you are likeliest to want first")
        self.button.show()

    def _clicked(self) -> None:
        (self.interestRequested if self._back_to_interest else self.relevanceRequested).emit()
