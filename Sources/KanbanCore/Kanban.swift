/// A whole kanban: an ordered array of boards and an archive of put-away cards, as stored
/// in one file.
///
/// A `Kanban` always satisfies its invariants (see `Kanban+Invariants.swift`): titles are
/// not blank, board titles are unique when compared case-insensitively, ids are unique
/// across boards, items and the archive, limits are not negative. The initializer and the
/// decoders check them; every mutating method keeps them.
public struct Kanban: Hashable, Sendable {
    /// The boards, left to right.
    public internal(set) var boards: [Board]
    /// Cards put away, oldest first.
    public internal(set) var archive: [ArchivedItem]

    /// Creates a kanban after checking its invariants.
    ///
    /// - Throws: the first broken invariant, as a ``KanbanError``.
    public init(boards: [Board], archive: [ArchivedItem] = []) throws(KanbanError) {
        try Self.checkInvariants(boards: boards, archive: archive)
        self.boards = boards
        self.archive = archive
    }

    /// Creates a kanban whose invariants the caller has already checked.
    init(trusted boards: [Board], archive: [ArchivedItem] = []) {
        self.boards = boards
        self.archive = archive
    }

    /// An empty kanban with one empty board per title, with new ids from `generator`.
    ///
    /// - Throws: ``KanbanError/duplicateBoard(title:existing:)`` when two titles clash.
    public init(boardTitles: [Title], using generator: inout some RandomNumberGenerator) throws(KanbanError) {
        let ids = Kanban(trusted: []).newIDs(count: boardTitles.count, using: &generator)
        try self.init(boards: zip(ids, boardTitles).map { Board(id: $0, title: $1.text) })
    }

    /// A kanban with no boards and an empty archive.
    public static let empty = Kanban(trusted: [])

    /// The number of items on all boards (the archive not counted).
    public var itemCount: Int {
        boards.reduce(0) { $0 + $1.items.count }
    }

    /// A kanban of only the boards at `indices`, in that order, each once, and the archived
    /// cards that left them.
    public func keepingBoards(at indices: [Int]) -> Kanban {
        let kept = indices.uniqued().filter(boards.indices.contains).map { boards[$0] }
        let ids = Set(kept.map(\.id))
        return Kanban(trusted: kept, archive: archive.filter { ids.contains($0.board) })
    }

    /// The archive alone, with no boards.
    public var archiveOnly: Kanban {
        Kanban(trusted: [], archive: archive)
    }

    /// The item at `location`.
    public subscript(location: Location) -> Item {
        boards[location.board].items[location.index]
    }

    /// The index of the board with `id`, if there is one.
    public func boardIndex(id: BoardID) -> Int? {
        boards.firstIndex { $0.id == id }
    }

    /// Whether `location` names an item of this kanban.
    public func contains(_ location: Location) -> Bool {
        boards.indices.contains(location.board) && boards[location.board].items.indices.contains(location.index)
    }

    /// Where an item is, for reports: the board's title and the item's index.
    func slot(_ location: Location) -> Slot {
        Slot(board: boards[location.board].title, index: location.index)
    }
}

/// The address of an item: the index of its board and its index in that board.
public struct Location: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var board: Int
    public var index: Int

    public init(board: Int, index: Int) {
        self.board = board
        self.index = index
    }

    public static func < (lhs: Location, rhs: Location) -> Bool {
        (lhs.board, lhs.index) < (rhs.board, rhs.index)
    }

    public var description: String { "\(board):\(index)" }
}

// MARK: - The sample

extension Kanban {
    /// The boards and items of the original tutorial, with ids from `generator`; the cards
    /// were created and entered their boards at `now`.
    public static func sample(now: Timestamp?, using generator: inout some RandomNumberGenerator) -> Kanban {
        let titles = [
            ("Todo", ["Database Migration", "Schema Design", "Storage Management", "Model Abstraction"]),
            ("In Progress", ["Push Notification", "Analytics", "Machine Learning"]),
            ("Done", ["System Architecture", "Alert & Debugging"]),
        ]
        let empty = Kanban(trusted: [])
        var ids = empty.newIDs(count: titles.reduce(titles.count) { $0 + $1.1.count }, using: &generator)[...]
        return Kanban(
            trusted: titles.map { title, items in
                let board = ids.popFirst()!
                return Board(
                    id: board, title: title,
                    items: items.map {
                        var item = Item(id: ids.popFirst()!, title: $0, created: now)
                        item.arrive(on: board, at: now)
                        return item
                    })
            })
    }

    /// The board titles `kanban init` uses when none are given.
    public static let defaultBoardTitles = ["Todo", "In Progress", "Done"]
}
