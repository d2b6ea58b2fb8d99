/// A whole kanban: an ordered array of boards, as stored in one file.
///
/// A `Kanban` always satisfies its invariants: board titles are unique when compared
/// case-insensitively and item ids are unique across all boards. The initializer and
/// the decoders check them; every mutating method keeps them.
public struct Kanban: Hashable, Sendable {
    /// The boards, left to right.
    public internal(set) var boards: [Board]

    /// Creates a kanban after checking its invariants.
    ///
    /// - Throws: ``KanbanError/duplicateBoard(title:existing:)`` or
    ///   ``KanbanError/duplicateItemID(_:)``.
    public init(boards: [Board]) throws(KanbanError) {
        try Self.checkInvariants(of: boards)
        self.boards = boards
    }

    /// Creates a kanban whose invariants the caller has already checked.
    init(trusted boards: [Board]) {
        self.boards = boards
    }

    /// An empty kanban with one empty board per title.
    ///
    /// - Throws: ``KanbanError/duplicateBoard(title:existing:)`` when two titles clash.
    public init(boardTitles: [Title]) throws(KanbanError) {
        try self.init(boards: boardTitles.map { Board(title: $0.text) })
    }

    /// The number of items on all boards.
    public var itemCount: Int {
        boards.reduce(0) { $0 + $1.items.count }
    }

    /// A kanban of only the boards at `indices`, in that order, each once.
    public func keepingBoards(at indices: [Int]) -> Kanban {
        Kanban(trusted: indices.uniqued().map { boards[$0] })
    }

    /// The item at `location`.
    public subscript(location: Location) -> Item {
        boards[location.board].items[location.index]
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
    /// The boards and items of the original tutorial, with ids from `generator`.
    public static func sample(using generator: inout some RandomNumberGenerator) -> Kanban {
        let titles = [
            ("Todo", ["Database Migration", "Schema Design", "Storage Management", "Model Abstraction"]),
            ("In Progress", ["Push Notification", "Analytics", "Machine Learning"]),
            ("Done", ["System Architecture", "Alert & Debugging"]),
        ]
        let empty = Kanban(trusted: [])
        var ids = empty.newIDs(count: titles.reduce(0) { $0 + $1.1.count }, using: &generator)[...]
        return Kanban(
            trusted: titles.map { title, items in
                Board(title: title, items: items.map { Item(id: ids.popFirst()!, title: $0) })
            })
    }

    /// The board titles `kanban init` uses when none are given.
    public static let defaultBoardTitles = ["Todo", "In Progress", "Done"]
}
