import KanbanCore

/// What the terminal view shows of one card, escaped and ready to lay out.
struct CardText: Equatable {
    /// The card's index on its board, for `BOARD:N`; a filter that hides cards before it keeps it.
    var index: Int
    var id: String
    var title: String
    /// Shown after the title: the words of its sets, each after its sign (`#label`), escaped.
    var words: [String] = []
    /// The due date as shown, `MM-DD`.
    var due: String? = nil
    /// Whether the due date is before today: it is highlighted.
    var overdue = false
}

/// What the terminal view shows of one board: its header and the cards shown.
struct BoardText: Equatable {
    var title: String
    /// The cards on the board, for the header; all of them, even when fewer are shown.
    var count: Int
    var limit: Int?
    var cards: [CardText]
    /// Whether `cards` are the ones a filter kept: the header counts them against the
    /// board's, and a board where none matched shows its header alone.
    var filtered = false

    /// Whether the board is at or over its limit: the header is red.
    var isFull: Bool { limit.map { count >= $0 } ?? false }

    /// Whether the view says `(empty)` under the header: a board without cards, unfiltered.
    var showsEmpty: Bool { cards.isEmpty && !filtered }
}

extension BoardText {
    /// The view of `board`, showing the cards at `indices` (all when `nil`): the one place
    /// that decides what each card shows. Stored text is escaped here, so no escape sequence
    /// from the file reaches the terminal. With `today`, overdue cards are marked.
    init(_ board: Board, showing indices: [Int]? = nil, today: Day? = nil) {
        self.init(
            title: Self.marked(board.conflicts) + Escape.visible(board.title), count: board.items.count,
            limit: board.limit,
            cards: (indices ?? Array(board.items.indices)).map { index in
                let item = board.items[index]
                return CardText(
                    index: index, id: item.id.rawValue, title: Self.marked(item.conflicts) + Escape.visible(item.title),
                    words: item.signedWords(Escape.visible), due: item.due?.monthAndDay,
                    overdue: today.map { item.isOverdue(today: $0) } ?? false)
            })
    }

    /// `! ` before the title of a card or board with a recorded conflict (README: Working
    /// together), else nothing.
    static func marked(_ conflicts: Conflicts) -> String {
        conflicts.isEmpty ? "" : "! "
    }

    /// The view of a filtered board: every card keeps its index on the board. `filtered`
    /// says whether a filter chose the cards (the header then counts them).
    init(_ filtered: FilteredBoard, today: Day, filtered isFiltered: Bool = true) {
        self.init(filtered.board, showing: filtered.indices, today: today)
        self.filtered = isFiltered
    }
}
