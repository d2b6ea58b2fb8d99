// `kanban list` filters: which cards to show. A filtered view keeps every board and every
// card's index on its board, so `BOARD:N` references read off it still work.

/// Conditions on cards, all of which must hold (AND).
public struct CardFilter: Hashable, Sendable {
    /// Labels the card must all have (ignoring case).
    public var labels: [String]
    /// Names one of which the card must be assigned to (ignoring case); empty: any card.
    public var assignees: [String]
    /// Text the title or the note (every field of text) must contain, ignoring case.
    public var grep: String?
    /// A date the due date must be before.
    public var dueBefore: DueInput?
    /// Only cards due before today.
    public var overdue: Bool
    /// Only cards that entered their board more than this long ago (cards from older files,
    /// with no `entered` time, count as old).
    public var olderThan: Age?
    /// List the archive instead of the boards.
    public var archived: Bool
    /// Only cards with a recorded conflict (README: Working together).
    public var conflicts: Bool

    public init(
        labels: [String] = [], assignees: [String] = [], grep: String? = nil, dueBefore: DueInput? = nil,
        overdue: Bool = false, olderThan: Age? = nil, archived: Bool = false, conflicts: Bool = false
    ) {
        self.conflicts = conflicts
        self.labels = labels
        self.assignees = assignees
        self.grep = grep
        self.dueBefore = dueBefore
        self.overdue = overdue
        self.olderThan = olderThan
        self.archived = archived
    }

    /// Whether no condition is set (the archive switch aside).
    public var selectsAll: Bool {
        labels.isEmpty && assignees.isEmpty && grep == nil && dueBefore == nil && !overdue && olderThan == nil && !conflicts
    }

    /// The fields `grep` searches: those of text, a line or several (the title, the note).
    private static let searched = CardField.all.filter { $0.kind == .line || $0.kind == .text }

    /// Whether `item` passes every condition, at `clock`.
    public func matches(_ item: Item, clock: Moment) -> Bool {
        for label in labels where !item.labels.contains(label) { return false }
        if !assignees.isEmpty && !assignees.contains(where: item.assignees.contains) { return false }
        if let grep {
            let needle = grep.lowercased()
            guard Self.searched.contains(where: { $0.value(item).plain?.lowercased().contains(needle) ?? false })
            else { return false }
        }
        if let dueBefore {
            guard let due = item.due, let limit = dueBefore.resolved(today: clock.today), due < limit else {
                return false
            }
        }
        if overdue && !item.isOverdue(today: clock.today) { return false }
        if conflicts && item.conflicts.isEmpty { return false }
        if let olderThan, let entered = item.entered, entered >= clock.now.adding(seconds: -olderThan.seconds) {
            return false
        }
        return true
    }
}

/// A board as a filtered view shows it: the board, and the indices of its cards that match.
public struct FilteredBoard: Hashable, Sendable {
    /// The whole board.
    public var board: Board
    /// The indices of the cards shown, in order.
    public var indices: [Int]

    public init(board: Board, indices: [Int]) {
        self.board = board
        self.indices = indices
    }

    /// The cards shown, each with its index on the board.
    public var cards: [(index: Int, item: Item)] {
        indices.map { ($0, board.items[$0]) }
    }
}

extension Kanban {
    /// The boards with only the cards that match `filter`, each with its index on its board.
    public func filtered(_ filter: CardFilter, clock: Moment) -> [FilteredBoard] {
        boards.map { board in
            guard !filter.selectsAll else { return FilteredBoard(board: board, indices: Array(board.items.indices)) }
            return FilteredBoard(
                board: board, indices: board.items.indices.filter { filter.matches(board.items[$0], clock: clock) })
        }
    }

    /// The archived cards that match `filter`, each with its index in the archive.
    public func filteredArchive(_ filter: CardFilter, clock: Moment) -> [(index: Int, archived: ArchivedItem)] {
        archive.indices.compactMap { index in
            filter.selectsAll || filter.matches(archive[index].item, clock: clock) ? (index, archive[index]) : nil
        }
    }

    /// The kanban with only the cards (on boards and in the archive) that match `filter`.
    public func keeping(_ filter: CardFilter, clock: Moment) -> Kanban {
        guard !filter.selectsAll else { return self }
        var result = self
        for index in result.boards.indices {
            result.boards[index].items.removeAll { !filter.matches($0, clock: clock) }
        }
        result.archive.removeAll { !filter.matches($0.item, clock: clock) }
        return result
    }
}
