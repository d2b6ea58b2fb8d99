// The boards themselves: the collection view's cells, added, renamed, reordered, limited
// and removed.

extension Kanban {
    /// Adds an empty board at `index` (`0...boards.count`), or at the end, with a new id.
    ///
    /// - Throws: ``KanbanError/duplicateBoard(title:existing:)``,
    ///   ``KanbanError/boardIndexOutOfRange(index:range:)``, or
    ///   ``KanbanError/invalidValue(kind:value:reason:)`` for a negative limit.
    @discardableResult
    public mutating func addBoard(
        _ title: Title, at index: Int? = nil, limit: Int? = nil, using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> Change {
        try Self.checkLimit(limit)
        try checkUnique(title, except: nil)
        let index = index ?? boards.count
        guard (0...boards.count).contains(index) else {
            throw .boardIndexOutOfRange(index: index, range: 0...boards.count)
        }
        boards.insert(Board(id: newIDs(count: 1, using: &generator)[0], title: title.text, limit: limit), at: index)
        return Change(boards: [BoardChange(title: title.text, from: nil, to: index, limit: limit)])
    }

    /// Renames a board; a change of case only is allowed.
    ///
    /// - Throws: ``KanbanError/duplicateBoard(title:existing:)`` when another board has the title.
    @discardableResult
    public mutating func renameBoard(_ board: Int, to title: Title) throws(KanbanError) -> Change {
        try checkBoard(board)
        try checkUnique(title, except: board)
        let previous = boards[board].title
        let conflicts = boards[board].conflicts
        boards[board].title = title.text
        boards[board].conflicts.settle("title")  // a rename settles a recorded conflict of the title
        return Change(boards: [
            BoardChange(
                title: title.text, from: board, to: board, limit: boards[board].limit, previousTitle: previous,
                conflictChange: ConflictChange(from: conflicts, to: boards[board].conflicts))
        ])
    }

    /// Moves a board to `index` (`0...boards.count - 1`), the others keeping their order.
    ///
    /// - Throws: ``KanbanError/boardIndexOutOfRange(index:range:)``.
    @discardableResult
    public mutating func moveBoard(_ board: Int, to index: Int) throws(KanbanError) -> Change {
        try checkBoard(board)
        guard (0..<boards.count).contains(index) else {
            throw .boardIndexOutOfRange(index: index, range: 0...(boards.count - 1))
        }
        let moved = boards.remove(at: board)
        boards.insert(moved, at: index)
        return Change(boards: [BoardChange(title: moved.title, from: board, to: index, limit: moved.limit)])
    }

    /// Sets or clears a board's WIP limit. A limit below the current count is allowed:
    /// the board then refuses incoming items until enough have left.
    ///
    /// - Throws: ``KanbanError/invalidValue(kind:value:reason:)`` for a negative limit.
    @discardableResult
    public mutating func setLimit(of board: Int, to limit: Int?) throws(KanbanError) -> Change {
        try checkBoard(board)
        try Self.checkLimit(limit)
        let previous = boards[board].limit
        let conflicts = boards[board].conflicts
        boards[board].limit = limit
        boards[board].conflicts.settle("limit")  // a new limit settles a recorded conflict of the limit
        return Change(boards: [
            BoardChange(
                title: boards[board].title, from: board, to: board, limit: limit,
                limitChange: LimitChange(from: previous, to: limit),
                conflictChange: ConflictChange(from: conflicts, to: boards[board].conflicts))
        ])
    }

    /// Sets a board's role in the flow of work; `nil` gives it back its default by its place
    /// (README: Flow).
    ///
    /// - Returns: the board, with its role before and after.
    /// - Throws: ``KanbanError/boardIndexOutOfRange(index:range:)`` for a bad index.
    @discardableResult
    public mutating func setRole(of board: Int, to role: BoardRole?) throws(KanbanError) -> Change {
        try checkBoard(board)
        let previous = boards[board].role
        let conflicts = boards[board].conflicts
        boards[board].role = role
        boards[board].conflicts.settle("role")  // a new role settles a recorded conflict of the role
        return Change(boards: [
            BoardChange(
                title: boards[board].title, from: board, to: board, limit: boards[board].limit,
                conflictChange: ConflictChange(from: conflicts, to: boards[board].conflicts),
                roleChange: RoleChange(from: previous, to: role))
        ])
    }

    /// The role of the board at `index` in the flow of work: the one set on it, else the
    /// default by its place (README: Flow).
    public func role(ofBoard index: Int) -> BoardRole {
        boards[index].role ?? .byDefault(boardAt: index, of: boards.count)
    }

    /// Removes a board; with `force`, also the items on it.
    ///
    /// - Returns: the board, and each item removed with it.
    /// - Throws: ``KanbanError/boardNotEmpty(board:count:)`` for a board with items, unless `force`.
    @discardableResult
    public mutating func removeBoard(_ board: Int, force: Bool = false) throws(KanbanError) -> Change {
        try checkBoard(board)
        let removed = boards[board]
        guard removed.items.isEmpty || force else {
            throw .boardNotEmpty(board: removed.title, count: removed.items.count)
        }
        let items = removed.items.enumerated().map { index, item in
            ItemChange(id: item.id, title: item.title, from: Slot(board: removed.title, index: index), to: nil)
        }
        boards.remove(at: board)
        return Change(
            items: items, boards: [BoardChange(title: removed.title, from: board, to: nil, limit: removed.limit)])
    }

    /// Throws for a negative limit: the rule the file's invariants check too.
    static func checkLimit(_ limit: Int?) throws(KanbanError) {
        var checker = InvariantChecker(expectedIDs: 0)
        try checker.checkBoardFields(title: "-", limit: limit)
    }

    /// Throws when a board other than `except` has `title`, ignoring case.
    func checkUnique(_ title: Title, except: Int?) throws(KanbanError) {
        let key = title.text.boardKey
        for (index, board) in boards.enumerated() where index != except && board.title.boardKey == key {
            throw .duplicateBoard(title: title.text, existing: board.title)
        }
    }
}
