// What a change did, exactly and compactly, so that it can be taken back or done again:
// the history keeps one patch per change.
//
// For every board whose cards changed (and for the archive), a patch keeps the cards
// before and after in the one stretch that differs (the common prefix and suffix are left
// out); for the boards themselves, their ids, titles and limits in order before and after.
// Applying a patch backwards to the kanban it produced gives back the kanban it came from,
// card for card, timestamps included. Its size is that of what changed, not of the file.

/// A board's own fields, without its cards.
public struct BoardHeader: Hashable, Sendable {
    public var id: BoardID
    public var title: String
    public var limit: Int?
    /// The board's recorded conflicts.
    public var conflicts: Conflicts
    /// The board's role, when set (README: Flow).
    public var role: BoardRole?

    public init(id: BoardID, title: String, limit: Int?, conflicts: Conflicts = Conflicts(), role: BoardRole? = nil) {
        self.id = id
        self.title = title
        self.limit = limit
        self.conflicts = conflicts
        self.role = role
    }

    init(_ board: Board) {
        self.init(id: board.id, title: board.title, limit: board.limit, conflicts: board.conflicts, role: board.role)
    }

    /// An empty board with these fields.
    var board: Board {
        var board = Board(id: id, title: title, limit: limit, role: role)
        board.conflicts = conflicts
        return board
    }

    /// Gives `board` these fields (not its id, nor its cards).
    func setFields(of board: inout Board) {
        board.title = title
        board.limit = limit
        board.role = role
        board.conflicts = conflicts
    }
}

/// The stretch of a list of cards that differs between two versions.
public struct Stretch<Element: Hashable & Sendable>: Hashable, Sendable {
    /// How many cards come before it, the same in both versions.
    public var offset: Int
    /// The id of the card just before it (the last of the common prefix), if any: where the
    /// stretch goes when the list has changed since.
    public var anchor: ItemID?
    public var before: [Element]
    public var after: [Element]

    public init(offset: Int, anchor: ItemID?, before: [Element], after: [Element]) {
        self.offset = offset
        self.anchor = anchor
        self.before = before
        self.after = after
    }
}

/// The exact difference between two kanbans.
public struct Patch: Hashable, Sendable {
    /// The boards, in order, before and after.
    public var boardsBefore: [BoardHeader]
    public var boardsAfter: [BoardHeader]
    /// The cards of each board whose cards changed.
    public var cards: [BoardID: Stretch<Item>]
    /// The archive, if it changed.
    public var archive: Stretch<ArchivedItem>?

    public init(
        boardsBefore: [BoardHeader], boardsAfter: [BoardHeader], cards: [BoardID: Stretch<Item>],
        archive: Stretch<ArchivedItem>?
    ) {
        self.boardsBefore = boardsBefore
        self.boardsAfter = boardsAfter
        self.cards = cards
        self.archive = archive
    }

    /// The patch from `before` to `after`.
    ///
    /// - Complexity: O(*b* + *m*): boards whose cards are the same array cost nothing, and a
    ///   changed board costs the length of its common prefix and suffix and the stretch between.
    public init(from before: Kanban, to after: Kanban) {
        boardsBefore = before.boards.map(BoardHeader.init)
        boardsAfter = after.boards.map(BoardHeader.init)
        var cards: [BoardID: Stretch<Item>] = [:]
        let old = Dictionary(before.boards.map { ($0.id, $0.items) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.boards.map { ($0.id, $0.items) }, uniquingKeysWith: { first, _ in first })
        for id in Set(old.keys).union(new.keys) {
            let (from, to) = (old[id] ?? [], new[id] ?? [])
            if from == to { continue }
            cards[id] = Self.stretch(from, to, id: \.id, line: { $0.pointee.line })
        }
        self.cards = cards
        archive =
            before.archive == after.archive
            ? nil
            : Self.stretch(
                before.archive, after.archive, id: \.item.id, line: { $0.pointee.item.line })
    }

    /// Whether the patch changes nothing.
    public var isEmpty: Bool {
        boardsBefore == boardsAfter && cards.isEmpty && archive == nil
    }

    /// The same patch, the other way round.
    public var reversed: Patch {
        Patch(
            boardsBefore: boardsAfter, boardsAfter: boardsBefore,
            cards: cards.mapValues {
                Stretch(offset: $0.offset, anchor: $0.anchor, before: $0.after, after: $0.before)
            },
            archive: archive.map { Stretch(offset: $0.offset, anchor: $0.anchor, before: $0.after, after: $0.before) })
    }

    /// `line` gives a card's kept line: two cards that keep the same line of the same file
    /// are equal without comparing their fields, which is nearly every card of a command.
    private static func stretch<Element>(
        _ before: [Element], _ after: [Element], id: (Element) -> ItemID,
        line: (UnsafePointer<Element>) -> KeptLine
    ) -> Stretch<Element> {
        // Compared where they are: a card passed by value would be copied (its strings
        // retained and released) for each comparison.
        let (prefix, suffix) = before.withUnsafeBufferPointer { before in
            after.withUnsafeBufferPointer { after in
                func same(_ a: Int, _ b: Int) -> Bool {
                    line(before.baseAddress! + a).isSame(as: line(after.baseAddress! + b)) || before[a] == after[b]
                }
                var prefix = 0
                let shorter = min(before.count, after.count)
                while prefix < shorter && same(prefix, prefix) { prefix += 1 }
                var suffix = 0
                while suffix < shorter - prefix && same(before.count - 1 - suffix, after.count - 1 - suffix) {
                    suffix += 1
                }
                return (prefix, suffix)
            }
        }
        return Stretch(
            offset: prefix, anchor: prefix > 0 ? id(before[prefix - 1]) : nil,
            before: Array(before[prefix..<before.count - suffix]), after: Array(after[prefix..<after.count - suffix]))
    }

    // MARK: - Applying

    /// The kanban as it was before this patch, if `kanban` is exactly what the patch
    /// produced where it changed things; `nil` otherwise.
    public func exactlyUndone(from kanban: Kanban) -> Kanban? {
        reversed.exactlyApplied(to: kanban)
    }

    /// `kanban` with the patch applied, if `kanban` is exactly what the patch starts from
    /// where it changes things (elsewhere it may differ); `nil` otherwise.
    public func exactlyApplied(to kanban: Kanban) -> Kanban? {
        guard kanban.boards.map(BoardHeader.init) == boardsBefore else { return nil }
        var items: [BoardID: [Item]] = [:]
        for board in kanban.boards { items[board.id] = board.items }
        for (id, stretch) in cards {
            guard let applied = Self.apply(stretch, to: items[id] ?? []) else { return nil }
            items[id] = applied
        }
        var archived = kanban.archive
        if let archive {
            guard let applied = Self.apply(archive, to: archived) else { return nil }
            archived = applied
        }
        let boards = boardsAfter.map { header in
            var board = header.board
            board.items = items[header.id] ?? []
            return board
        }
        guard (try? Kanban.checkInvariants(boards: boards, archive: archived)) != nil else { return nil }
        return Kanban(trusted: boards, archive: archived)
    }

    private static func apply<Element>(_ stretch: Stretch<Element>, to list: [Element]) -> [Element]? {
        guard stretch.offset >= 0, stretch.offset <= list.count - stretch.before.count else {
            return nil
        }
        let end = stretch.offset + stretch.before.count
        guard list[stretch.offset..<end].elementsEqual(stretch.before) else { return nil }
        var result = list
        result.replaceSubrange(stretch.offset..<end, with: stretch.after)
        return result
    }
}
