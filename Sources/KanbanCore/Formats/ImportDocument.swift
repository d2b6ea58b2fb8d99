// What an import brings in, whatever it was read from (a Trello board, a Markdown board, a
// CSV file, a kanban file): boards of cards and archived cards, already checked, not yet
// given ids. `Kanban.importing(_:now:force:using:)` adds it in one step.

/// Boards and cards read from another tool's file, ready to add to a kanban.
public struct ImportDocument: Hashable, Sendable {
    /// Boards in order; a board whose title matches one of the kanban's (ignoring case)
    /// adds its cards to that board.
    public var boards: [ImportedBoard]
    /// Cards that were archived (closed) where they came from.
    public var archive: [ImportedArchivedCard]
    /// What the source held that kanban has no place for, counted, in the order to name
    /// them, e.g. 12 `comment`s. Only counts above zero.
    public var leftOut: [LeftOut]

    public init(boards: [ImportedBoard] = [], archive: [ImportedArchivedCard] = [], leftOut: [LeftOut] = []) {
        self.boards = boards
        self.archive = archive
        self.leftOut = leftOut
    }

    /// The number of cards, on boards and archived.
    public var cardCount: Int {
        boards.reduce(archive.count) { $0 + $1.cards.count }
    }
}

/// Things of one kind that an import left out, and how many.
public struct LeftOut: Hashable, Sendable {
    /// What one of them is: `comment`, `attachment`.
    public var what: String
    public var count: Int

    public init(_ what: String, _ count: Int) {
        self.what = what
        self.count = count
    }

    /// `1 comment`, `12 comments`.
    public var description: String { "\(count) \(what)\(count == 1 ? "" : "s")" }
}

/// A board to import: its title, a WIP limit for a new board, and its cards in order.
public struct ImportedBoard: Hashable, Sendable {
    public var title: Title
    /// The WIP limit, given to the board if it is new; an existing board keeps its own.
    public var limit: Int?
    public var cards: [CardContent]
    /// The history of the cards whose source keeps one, by index in ``cards``.
    public var histories: [Int: ImportedHistory]

    public init(
        title: Title, limit: Int? = nil, cards: [CardContent] = [], histories: [Int: ImportedHistory] = [:]
    ) {
        self.title = title
        self.limit = limit
        self.cards = cards
        self.histories = histories
    }
}

/// What the source of an import knows of a card's past: when it was created, and which of
/// the imported boards it entered and when (README: Export and import).
public struct ImportedHistory: Hashable, Sendable {
    /// One arrival: an imported board, by title, and when.
    public struct Arrival: Hashable, Sendable {
        public var board: Title
        public var time: Timestamp

        public init(board: Title, time: Timestamp) {
            self.board = board
            self.time = time
        }
    }

    public var created: Timestamp?
    /// Oldest first; empty when the source holds none.
    public var arrivals: [Arrival]

    public init(created: Timestamp?, arrivals: [Arrival] = []) {
        self.created = created
        self.arrivals = arrivals
    }
}

/// A card that goes straight to the archive.
public struct ImportedArchivedCard: Hashable, Sendable {
    public var card: CardContent
    /// The title of the imported board it was archived from; `nil` when that board is not
    /// imported (a closed Trello list), so restoring it needs `--to`.
    public var board: Title?
    /// Its history, when the source keeps one.
    public var history: ImportedHistory?

    public init(card: CardContent, board: Title? = nil, history: ImportedHistory? = nil) {
        self.card = card
        self.board = board
        self.history = history
    }
}

/// A file an import reader refused: where, and what is wrong there.
///
/// The readers are a layer of their own, outside the kanban's rules, so they have their own
/// error; its ``location`` is a line for text formats and a JSON path for JSON ones.
public struct ImportError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Location: Hashable, Sendable {
        /// A 1-based line of the file.
        case line(Int)
        /// A JSON path: `$.cards[3].idList`.
        case path(String)
        /// The file as a whole.
        case file
    }

    public var location: Location
    public var message: String

    public init(_ location: Location, _ message: String) {
        self.location = location
        self.message = message
    }

    /// What is wrong with a title, note or label a reader refused, as a message.
    static func reason(_ error: KanbanError) -> String {
        error.description
    }

    /// `line 12: unterminated quoted field`, `$.cards[3]: …`, or the message alone.
    public var description: String {
        switch location {
        case .line(let line): "line \(line): \(message)"
        case .path(let path): "\(path): \(message)"
        case .file: message
        }
    }
}

extension Kanban {
    /// Adds an import: each board's cards go to the bottom of the board with the same title
    /// (ignoring case), or to a new board added at the end with the imported limit; archived
    /// cards go to the archive. Every card gets a new id and was created and entered `now`,
    /// its trail starting there, unless the document gives its history (``ImportedHistory``):
    /// then it was created then, and its trail is its arrivals on the boards imported.
    ///
    /// A document's boards are taken in order, so two with the same title (ignoring case)
    /// end up as one board.
    ///
    /// - Parameters:
    ///   - force: take existing boards past their WIP limits instead of refusing.
    /// - Returns: each new board, each card on a board, and each archived card (`from` and
    ///   `to` both `nil`, `archive` `.archived`).
    /// - Throws: ``KanbanError/wipLimit(board:limit:current:resulting:)`` when cards would
    ///   take an existing board past its limit; nothing changes then.
    /// - Complexity: O(*n* + *k*) for *n* items in the kanban and *k* imported cards.
    @discardableResult
    public mutating func importing(
        _ document: ImportDocument, now: Timestamp, force: Bool = false,
        using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> Change {
        // Plan first: which board each imported board lands on, existing or new.
        var indexByKey: [String: Int] = [:]
        for (index, board) in boards.enumerated() where indexByKey[board.title.boardKey] == nil {
            indexByKey[board.title.boardKey] = index
        }
        var newBoards: [ImportedBoard] = []
        var targets: [Int] = []
        var incoming: [Int: Int] = [:]
        for board in document.boards {
            let key = board.title.text.boardKey
            if let index = indexByKey[key] {
                targets.append(index)
            } else {
                let index = boards.count + newBoards.count
                indexByKey[key] = index
                newBoards.append(board)
                targets.append(index)
            }
            incoming[targets.last!, default: 0] += board.cards.count
        }
        for (index, count) in incoming.sorted(by: { $0.key < $1.key }) where index < boards.count {
            try checkLimit(of: index, incoming: count, force: force)
        }
        for board in newBoards where board.limit.map({ $0 < 0 }) ?? false {
            throw .invalidValue(kind: .limit, value: String(board.limit!), reason: "a limit is 0 or more")
        }
        // Archived cards whose board is not imported point at an id no board has.
        let goneBoard = document.archive.contains { $0.board.map { indexByKey[$0.text.boardKey] == nil } ?? true }
        var ids = newIDs(
            count: newBoards.count + document.cardCount + (goneBoard ? 1 : 0), using: &generator)[...]

        var change = Change()
        for board in newBoards {
            boards.append(Board(id: ids.removeFirst(), title: board.title.text, limit: board.limit))
            change.boards.append(
                BoardChange(title: board.title.text, from: nil, to: boards.count - 1, limit: board.limit))
        }
        let boardIDs = indexByKey.mapValues { boards[$0].id }
        for (board, target) in zip(document.boards, targets) {
            for (index, card) in board.cards.enumerated() {
                var item = Self.item(card, id: ids.removeFirst(), on: boards[target].id, now: now)
                if let history = board.histories[index] { item.take(history, boards: boardIDs) }
                boards[target].items.append(item)
                change.items.append(
                    ItemChange(
                        id: item.id, title: item.title, from: nil,
                        to: Slot(board: boards[target].title, index: boards[target].items.count - 1)))
            }
        }
        let gone = goneBoard ? ids.removeFirst() : nil
        for archived in document.archive {
            let board = archived.board.flatMap { indexByKey[$0.text.boardKey] }.map { boards[$0].id } ?? gone!
            var item = Self.item(archived.card, id: ids.removeFirst(), on: board, now: now)
            if let history = archived.history { item.take(history, boards: boardIDs) }
            archive.append(ArchivedItem(item: item, board: board, archived: now))
            change.items.append(
                ItemChange(id: item.id, title: item.title, from: nil, to: nil, archive: .archived))
        }
        return change
    }

    /// A new card of `card`'s content, created `now` and arrived then on `board`.
    private static func item(_ card: CardContent, id: ItemID, on board: BoardID, now: Timestamp) -> Item {
        // An empty note is no note, as `edit` makes it.
        var item = card.fields
        item.id = id
        item.title = card.title.text
        item.created = now
        item.entered = nil
        item.trail = []
        item.arrive(on: board, at: now)
        if item.note?.isEmpty == true { item.note = nil }
        return item
    }
}

extension Item {
    /// The card's past as an import gives it: its creation time (unknown: its first arrival),
    /// and its arrivals on the boards imported (`boards`: their ids by ``String/boardKey``) as
    /// its trail, the last one its `entered`. Arrivals on boards not imported are left out;
    /// with none left, the card keeps the arrival it was given.
    fileprivate mutating func take(_ history: ImportedHistory, boards: [String: BoardID]) {
        let trail = TrailEntry.ordered(
            history.arrivals.compactMap { arrival in
                boards[arrival.board.text.boardKey].map { TrailEntry(board: $0, time: arrival.time) }
            })
        if let created = history.created ?? trail.first?.time { self.created = created }
        guard let last = trail.last else { return }
        self.trail = trail
        entered = last.time
    }
}
