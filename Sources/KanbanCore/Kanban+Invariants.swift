extension Kanban {
    /// Checks the invariants every kanban keeps: unique board titles (case-insensitively)
    /// and unique item ids.
    ///
    /// - Throws: the first violation found.
    /// - Complexity: O(*n*) where *n* is the number of items.
    static func checkInvariants(of boards: [Board]) throws(KanbanError) {
        var titles: [String: String] = [:]
        for board in boards {
            if let existing = titles.updateValue(board.title, forKey: board.title.boardKey) {
                throw .duplicateBoard(title: board.title, existing: existing)
            }
        }
        var ids = Set<ItemID>(minimumCapacity: boards.reduce(0) { $0 + $1.items.count })
        for board in boards {
            for item in board.items where !ids.insert(item.id).inserted {
                throw .duplicateItemID(item.id)
            }
        }
    }

    /// Checks this kanban's invariants again; for tests and for callers that doubt.
    public func validate() throws(KanbanError) {
        try Self.checkInvariants(of: boards)
    }
}
