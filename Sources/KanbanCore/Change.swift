/// Where an item is or was, for reports: a board's title and an index in it.
public struct Slot: Hashable, Sendable, CustomStringConvertible {
    public var board: String
    public var index: Int

    public init(board: String, index: Int) {
        self.board = board
        self.index = index
    }

    /// `BOARD:N`, the same form an item reference takes.
    public var description: String { "\(board):\(index)" }
}

/// What happened to one item, like a row in a table view's batch update.
public struct ItemChange: Hashable, Sendable {
    /// The item's id (for a copy, the new card's id).
    public var id: ItemID
    /// The item's title after the change.
    public var title: String
    /// Where the item was; `nil` for a new item (added, or the card a copy made), or one
    /// restored from the archive.
    public var from: Slot?
    /// Where the item is now; `nil` for a removed or archived item.
    ///
    /// A diff also reports changes that stay inside the archive, with neither `from` nor
    /// `to`: a card edited there (`edits`), a new card found there (`archive` is
    /// `.archived`), and a card that left the archive and the file (`archive` is `.restored`).
    public var to: Slot?
    /// For a copy: the id of the item it was copied from.
    public var copyOf: ItemID?
    /// The fields changed in place: title, labels, due date, note.
    public var edits: [FieldEdit]
    /// Whether the item went to the archive (`to` is `nil`) or came back from it (`from` is `nil`).
    public var archive: ArchiveMove?
    /// The recorded conflicts added or settled (README: Working together).
    public var conflictChange: ConflictChange?

    public init(
        id: ItemID, title: String, from: Slot?, to: Slot?, copyOf: ItemID? = nil, edits: [FieldEdit] = [],
        archive: ArchiveMove? = nil, conflictChange: ConflictChange? = nil
    ) {
        self.conflictChange = conflictChange
        self.id = id
        self.title = title
        self.from = from
        self.to = to
        self.copyOf = copyOf
        self.edits = edits
        self.archive = archive
    }

    /// For a retitled item: the title before.
    public var previousTitle: String? {
        for edit in edits where edit.field == "title" {
            if case .line(let previous) = edit.from { return previous }
        }
        return nil
    }

    /// Whether this item differs after the change. A copy always is: it is a new card,
    /// even when it lands at its original's index.
    public var isEffective: Bool {
        copyOf != nil || from != to || archive != nil || edits.contains(where: \.isEffective) || conflictChange != nil
    }
}

/// A card going to the archive or coming back.
public enum ArchiveMove: Hashable, Sendable {
    case archived
    case restored
}

/// A limit before and after a change.
public struct LimitChange: Hashable, Sendable {
    public var from: Int?
    public var to: Int?

    public init(from: Int?, to: Int?) {
        self.from = from
        self.to = to
    }
}

/// A board's role before and after a change (`nil`: the default by its place).
public struct RoleChange: Hashable, Sendable {
    public var from: BoardRole?
    public var to: BoardRole?

    public init(from: BoardRole?, to: BoardRole?) {
        self.from = from
        self.to = to
    }
}

/// What happened to one board.
public struct BoardChange: Hashable, Sendable {
    /// The board's title after the change (before it, for a removed board).
    public var title: String
    /// The board's index before; `nil` for a new board.
    public var from: Int?
    /// The board's index after; `nil` for a removed board.
    public var to: Int?
    /// The board's limit after the change.
    public var limit: Int?
    /// For a rename: the title before.
    public var previousTitle: String?
    /// For a limit change: the limit before and after.
    public var limitChange: LimitChange?
    /// The board's id, when the change was found by comparing two kanbans (a diff).
    public var id: BoardID?
    /// The recorded conflicts added or settled (README: Working together).
    public var conflictChange: ConflictChange?
    /// For a role change: the role before and after (README: Flow).
    public var roleChange: RoleChange?

    public init(
        title: String, from: Int?, to: Int?, limit: Int?, previousTitle: String? = nil,
        limitChange: LimitChange? = nil, id: BoardID? = nil, conflictChange: ConflictChange? = nil,
        roleChange: RoleChange? = nil
    ) {
        self.conflictChange = conflictChange
        self.roleChange = roleChange
        self.title = title
        self.from = from
        self.to = to
        self.limit = limit
        self.previousTitle = previousTitle
        self.limitChange = limitChange
        self.id = id
    }

    /// Whether this board differs after the change.
    public var isEffective: Bool {
        from != to || (previousTitle.map { $0 != title } ?? false)
            || (limitChange.map { $0.from != $0.to } ?? false) || conflictChange != nil
            || (roleChange.map { $0.from != $0.to } ?? false)
    }
}

/// What a mutating method did: every affected item and board, with where it was and is.
public struct Change: Hashable, Sendable {
    public var items: [ItemChange]
    public var boards: [BoardChange]

    public init(items: [ItemChange] = [], boards: [BoardChange] = []) {
        self.items = items
        self.boards = boards
    }

    /// Whether the kanban differs after the change; a change that is not effective
    /// (moving an item to where it already is) needs no write.
    public var isEffective: Bool {
        items.contains(where: \.isEffective) || boards.contains(where: \.isEffective)
    }
}
