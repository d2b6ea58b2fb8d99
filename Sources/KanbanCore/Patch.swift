// What a change did, exactly and compactly, so that it can be taken back or done again:
// the history keeps one patch per change.
//
// For every board whose cards changed, a patch keeps the cards before and after in the
// stretches that differ, in order, each a run of cards between cards both versions share
// (the common prefix and suffix and the cards kept in between are left out); for the
// archive, in the one stretch that differs; for the boards themselves, their ids, titles
// and limits in order before and after.
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

/// A stretch of a list of cards that differs between two versions.
public struct Stretch<Element: Hashable & Sendable>: Hashable, Sendable {
    /// How many cards come before it, the same in both versions; in a list of stretches,
    /// how many come between the end of the stretch before it and its start.
    public var offset: Int
    /// The id of the card just before it (a card both versions share), if any: where the
    /// stretch goes when the list has changed since.
    public var anchor: ItemID?
    /// For a stretch at the start of a board's list (no anchor), the id of the card just
    /// after it, which both versions share, if any: where the stretch goes, before it, when
    /// cards came to the top of the list since. `nil` in records of older versions.
    public var next: ItemID?
    public var before: [Element]
    public var after: [Element]

    public init(offset: Int, anchor: ItemID?, next: ItemID? = nil, before: [Element], after: [Element]) {
        self.offset = offset
        self.anchor = anchor
        self.next = next
        self.before = before
        self.after = after
    }

    /// The same stretch, the other way round: the cards around it are the same both ways.
    var reversed: Stretch {
        Stretch(offset: offset, anchor: anchor, next: next, before: after, after: before)
    }
}

/// The exact difference between two kanbans.
public struct Patch: Hashable, Sendable {
    /// The boards, in order, before and after.
    public var boardsBefore: [BoardHeader]
    public var boardsAfter: [BoardHeader]
    /// The cards of each board whose cards changed: the stretches that differ, in order.
    public var cards: [BoardID: [Stretch<Item>]]
    /// The archive, if it changed.
    public var archive: Stretch<ArchivedItem>?

    public init(
        boardsBefore: [BoardHeader], boardsAfter: [BoardHeader], cards: [BoardID: [Stretch<Item>]],
        archive: Stretch<ArchivedItem>?
    ) {
        self.boardsBefore = boardsBefore
        self.boardsAfter = boardsAfter
        self.cards = cards
        self.archive = archive
    }

    /// The patch from `before` to `after`.
    ///
    /// - Complexity: O(*b* + *m* log *m*): boards whose cards are the same array cost
    ///   nothing, and a changed board costs the length of its common prefix and suffix, and
    ///   *m* log *m* for the *m* cards between.
    public init(from before: Kanban, to after: Kanban) {
        boardsBefore = before.boards.map(BoardHeader.init)
        boardsAfter = after.boards.map(BoardHeader.init)
        var cards: [BoardID: [Stretch<Item>]] = [:]
        let old = Dictionary(before.boards.map { ($0.id, $0.items) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.boards.map { ($0.id, $0.items) }, uniquingKeysWith: { first, _ in first })
        for id in Set(old.keys).union(new.keys) {
            let (from, to) = (old[id] ?? [], new[id] ?? [])
            if from == to { continue }
            cards[id] = Self.stretches(from, to)
        }
        self.cards = cards
        archive =
            before.archive == after.archive
            ? nil
            : Self.stretch(before.archive, after.archive)
    }

    /// Whether the patch changes nothing.
    public var isEmpty: Bool {
        boardsBefore == boardsAfter && cards.isEmpty && archive == nil
    }

    /// The same patch, the other way round.
    public var reversed: Patch {
        Patch(
            boardsBefore: boardsAfter, boardsAfter: boardsBefore,
            cards: cards.mapValues { $0.map(\.reversed) }, archive: archive?.reversed)
    }

    /// The lengths of the common prefix and suffix of two lists. `line` gives a card's
    /// kept line: two cards that keep the same line of the same file are equal without
    /// comparing their fields, which is nearly every card of a command.
    private static func commonEnds<Element: Equatable>(
        _ before: [Element], _ after: [Element], line: (UnsafePointer<Element>) -> KeptLine
    ) -> (prefix: Int, suffix: Int) {
        // Compared where they are: a card passed by value would be copied (its strings
        // retained and released) for each comparison.
        before.withUnsafeBufferPointer { before in
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
    }

    /// The one stretch between the common prefix and suffix (the archive's).
    private static func stretch(_ before: [ArchivedItem], _ after: [ArchivedItem]) -> Stretch<ArchivedItem> {
        let (prefix, suffix) = commonEnds(before, after, line: { $0.pointee.item.line })
        return Stretch(
            offset: prefix, anchor: prefix > 0 ? before[prefix - 1].item.id : nil,
            before: Array(before[prefix..<before.count - suffix]), after: Array(after[prefix..<after.count - suffix]))
    }

    /// The runs of a board's cards that differ, in order. Between the common prefix and
    /// suffix, the cards kept are a longest run of cards, in the same order on both sides,
    /// that are the same card unchanged (ids are unique on a board, so it is a longest
    /// increasing subsequence of their old places in the new order); every run of other
    /// cards between two kept ones is a stretch. A change here and there on a long board
    /// keeps only the cards it changed, not all those between.
    static func stretches(_ before: [Item], _ after: [Item]) -> [Stretch<Item>] {
        let (prefix, suffix) = commonEnds(before, after, line: { $0.pointee.line })
        let (oldEnd, newEnd) = (before.count - suffix, after.count - suffix)
        // The old place of each card of the old middle, by id; then, in the new order, the
        // old places of the cards that are there unchanged.
        var oldPlaces = ItemIDMap<Int>(expected: oldEnd - prefix)
        for index in prefix..<oldEnd { oldPlaces[before[index].id] = index }
        var pairs: [(old: Int, new: Int)] = []
        for index in prefix..<newEnd {
            if let old = oldPlaces[after[index].id],
                before[old].line.isSame(as: after[index].line) || before[old] == after[index]
            {
                pairs.append((old, index))
            }
        }
        let kept = LongestIncreasingSubsequence.mask(pairs.map(\.old))
        var stretches: [Stretch<Item>] = []
        var (old, new) = (prefix, prefix)  // where the next stretch may start
        var shared = prefix  // the cards both share since the last stretch
        for (pair, isKept) in zip(pairs, kept) where isKept {
            if pair.old > old || pair.new > new {
                stretches.append(
                    Stretch(
                        offset: shared, anchor: old > 0 ? before[old - 1].id : nil,
                        next: old > 0 ? nil : before[pair.old].id,
                        before: Array(before[old..<pair.old]), after: Array(after[new..<pair.new])))
                shared = 0
            }
            (old, new) = (pair.old + 1, pair.new + 1)
            shared += 1
        }
        if old < oldEnd || new < newEnd {
            stretches.append(
                Stretch(
                    offset: shared, anchor: old > 0 ? before[old - 1].id : nil,
                    next: old > 0 || oldEnd == before.count ? nil : before[oldEnd].id,
                    before: Array(before[old..<oldEnd]), after: Array(after[new..<newEnd])))
        }
        return stretches
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
        for (id, stretches) in cards {
            guard let applied = Self.apply(stretches, to: items[id] ?? []) else { return nil }
            items[id] = applied
        }
        var archived = kanban.archive
        if let archive {
            guard let applied = Self.apply([archive], to: archived) else { return nil }
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

    /// `list` with each stretch's `before` cards, which must be there, replaced by its
    /// `after` cards; `nil` when one is not there.
    private static func apply<Element>(_ stretches: [Stretch<Element>], to list: [Element]) -> [Element]? {
        var result: [Element] = []
        var next = 0  // the first card of `list` not in `result` yet
        for stretch in stretches {
            guard stretch.offset >= 0, stretch.offset <= list.count - next - stretch.before.count else {
                return nil
            }
            let start = next + stretch.offset
            let end = start + stretch.before.count
            guard list[start..<end].elementsEqual(stretch.before) else { return nil }
            if stretches.count == 1 {
                // One stretch, as most commands make: the list's own storage, changed in place.
                result = list
                result.replaceSubrange(start..<end, with: stretch.after)
                return result
            }
            result.append(contentsOf: list[next..<start])
            result.append(contentsOf: stretch.after)
            next = end
        }
        result.append(contentsOf: list[next...])
        return result
    }
}
