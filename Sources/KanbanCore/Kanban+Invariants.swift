extension Kanban {
    /// Checks the invariants every kanban keeps: no blank titles, unique board titles
    /// (case-insensitively) and unique item ids.
    ///
    /// - Throws: the first violation found.
    /// - Complexity: O(*n*) where *n* is the number of items.
    static func checkInvariants(of boards: [Board]) throws(KanbanError) {
        for title in boards.lazy.flatMap({ [$0.title] + $0.items.map(\.title) }) where title.isBlank {
            throw .invalidTitle(title: title, reason: .empty)
        }
        var titles: [String: String] = [:]
        for board in boards {
            if let existing = titles.updateValue(board.title, forKey: board.title.boardKey) {
                throw .duplicateBoard(title: board.title, existing: existing)
            }
        }
        var ids = ItemIDSet(expected: boards.reduce(0) { $0 + $1.items.count })
        for board in boards {
            for item in board.items where !ids.insert(item.id) {
                throw .duplicateItemID(item.id)
            }
        }
    }

    /// Checks this kanban's invariants again; for tests and for callers that doubt.
    public func validate() throws(KanbanError) {
        try Self.checkInvariants(of: boards)
    }
}
