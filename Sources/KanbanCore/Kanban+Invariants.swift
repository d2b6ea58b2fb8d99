// The invariants of a kanban, each written once. The file reader (which reports the line
// of a violation), the Codable conformances and `Kanban(boards:archive:)` all check them
// through `InvariantChecker`, so they cannot disagree.

/// Checks a kanban's invariants as its parts come in, one board, item or archived card at a
/// time: titles not blank, limits not negative, notes within their rules, board titles
/// unique ignoring case, ids unique across boards, items and the archive.
///
/// Ids are checked one by one as they come, or, `deferringIDs`, left to the caller, which
/// checks the finished kanban's ids all at once (``Kanban/idsRepeat``): a file's million ids
/// each looked up as it comes would miss the cache every time, while the check at the end
/// works through one cache-sized part at a time, and gathers the ids only then.
struct InvariantChecker {
    private var ids: ItemIDSet
    /// Whether the ids' check is left to the end.
    private let deferringIDs: Bool
    private var boardTitles: [String: String] = [:]

    /// A checker sized for about `expectedIDs` ids.
    init(expectedIDs: Int, deferringIDs: Bool = false) {
        self.deferringIDs = deferringIDs
        ids = ItemIDSet(expected: deferringIDs ? 0 : expectedIDs)
    }

    /// Checks a board's own fields (not its items).
    mutating func checkBoard(id: BoardID, title: String, limit: Int?) throws(KanbanError) {
        try checkBoardFields(title: title, limit: limit)
        try checkID(id)
    }

    /// Checks a board's title (not blank, unique ignoring case) and limit (0 or more).
    mutating func checkBoardFields(title: String, limit: Int?) throws(KanbanError) {
        guard !title.isBlank else { throw .invalidTitle(title: title, reason: .empty) }
        if let limit, limit < 0 {
            throw .invalidValue(kind: .limit, value: String(limit), reason: "a limit is 0 or more")
        }
        if let existing = boardTitles.updateValue(title, forKey: title.boardKey) {
            throw .duplicateBoard(title: title, existing: existing)
        }
    }

    /// Checks an item, on a board or in the archive.
    mutating func checkItem(_ item: Item) throws(KanbanError) {
        // A deferred card is as its line was when reading checked it: only its id is checked
        // again, against the others.
        if item.isDeferred { return try checkID(item.id) }
        try checkItem(id: item.id, title: item.title, note: item.note)
    }

    /// Checks the parts of an item that have rules across fields or items, before the item
    /// is made (the file reader's fast path).
    mutating func checkItem(id: ItemID, title: String, note: String?) throws(KanbanError) {
        guard !title.isBlank else { throw .invalidTitle(title: title, reason: .empty) }
        if let note, let problem = Note.problem(with: note) {
            throw .invalidValue(kind: .note, value: String(note.prefix(40)), reason: problem)
        }
        try checkID(id)
    }

    /// Checks that `id` is not used yet, and records it (deferring: neither).
    mutating func checkID(_ id: ItemID) throws(KanbanError) {
        if deferringIDs { return }
        guard ids.insert(id) else { throw .duplicateID(id) }
    }
}

extension Kanban {
    /// Whether any id comes twice among the boards (but a board of an older file, which has
    /// none yet), the cards and the archive: the check a reader deferring ids leaves to the end.
    ///
    /// - Complexity: O(*n*) where *n* is the number of items.
    var idsRepeat: Bool {
        var ids: [UInt64] = []
        ids.reserveCapacity(boards.count + itemCount + archive.count)
        for board in boards {
            if board.id.packed != 0 { ids.append(board.id.packed) }
            board.items.withUnsafeBufferPointer { items in
                for index in items.indices { ids.append(items[index].id.packed) }
            }
        }
        for index in archive.indices { ids.append(archive[index].item.id.packed) }
        return ItemIDSet.containsRepeats(ids)
    }

    /// Checks every invariant of a kanban made of `boards` and `archive`.
    ///
    /// - Throws: the first violation found.
    /// - Complexity: O(*n*) where *n* is the number of items.
    static func checkInvariants(boards: [Board], archive: [ArchivedItem]) throws(KanbanError) {
        var checker = InvariantChecker(
            expectedIDs: boards.reduce(archive.count + boards.count) { $0 + $1.items.count })
        for board in boards {
            try checker.checkBoard(id: board.id, title: board.title, limit: board.limit)
            for item in board.items { try checker.checkItem(item) }
        }
        for archived in archive { try checker.checkItem(archived.item) }
    }

    /// Checks this kanban's invariants again; for tests and for callers that doubt.
    public func validate() throws(KanbanError) {
        try Self.checkInvariants(boards: boards, archive: archive)
    }
}
