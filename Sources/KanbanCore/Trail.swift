/// One arrival of a card on a board: which board and when. A card's trail lists them oldest
/// first; the flow figures are computed from trails (README: Flow).
public struct TrailEntry: Hashable, Comparable, Sendable {
    /// The board the card entered (it may have been removed since).
    public var board: BoardID
    /// When it entered.
    public var time: Timestamp

    public init(board: BoardID, time: Timestamp) {
        self.board = board
        self.time = time
    }

    /// Ordered by time, then by board id (the ids' own order, which is their text's), so that
    /// a union of two trails has one order.
    public static func < (lhs: TrailEntry, rhs: TrailEntry) -> Bool {
        lhs.time != rhs.time ? lhs.time < rhs.time : lhs.board < rhs.board
    }
}

extension TrailEntry {
    /// `entries` oldest first, each once: how a trail is kept, whatever order it was read or
    /// merged in.
    public static func ordered(_ entries: some Sequence<TrailEntry>) -> [TrailEntry] {
        var sorted = entries.sorted()
        var kept = 0
        for index in sorted.indices where kept == 0 || sorted[kept - 1] != sorted[index] {
            sorted[kept] = sorted[index]
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }

    /// Whether `entries` are oldest first, each once (as ``ordered(_:)`` leaves them).
    static func areOrdered(_ entries: [TrailEntry]) -> Bool {
        zip(entries, entries.dropFirst()).allSatisfy { $0 < $1 }
    }
}

/// What a board stands for in the flow of work: not started, in progress, or finished
/// (README: Flow).
public enum BoardRole: String, CaseIterable, Hashable, Sendable {
    case backlog, active, done

    /// The roles as messages list them: `backlog, active or done`.
    public static let expected = "backlog, active or done"

    /// The role a board has when none is set: the first board is the backlog, the last is
    /// done, those between are in progress. A kanban of one board has a backlog only.
    public static func byDefault(boardAt index: Int, of count: Int) -> BoardRole {
        if index == 0 { return .backlog }
        return index == count - 1 ? .done : .active
    }
}
