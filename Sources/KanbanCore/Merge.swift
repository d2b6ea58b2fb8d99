// What a 3-way merge gives back: the merged kanban, notes on what it decided, and the
// conflicts it left for a person (SPEC §8).

/// One of the two versions a merge combines.
public enum MergeSide: String, Hashable, Sendable {
    /// The version being merged into (git's `%A`, the current branch).
    case ours
    /// The version being merged in (git's `%B`).
    case theirs
}

/// The formats the three versions were read in. Boards of a file in an older format have
/// ids derived from its bytes, so a merge matches those boards by title too.
public struct MergeFormats: Hashable, Sendable {
    public var base: KanbanFile.Format
    public var ours: KanbanFile.Format
    public var theirs: KanbanFile.Format

    public init(
        base: KanbanFile.Format = .current, ours: KanbanFile.Format = .current, theirs: KanbanFile.Format = .current
    ) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }
}

/// A field changed on both sides to different values (SPEC §8 rule 8). The merged kanban
/// keeps ours; `theirs` is what taking theirs would set.
public struct MergeConflict: Hashable, Sendable {
    /// What the conflict is about.
    public enum Subject: Hashable, Sendable {
        /// A card, with its title in the merged kanban and whether it is in the archive.
        case card(ItemID, title: String, archived: Bool)
        /// A board, with its title in the merged kanban.
        case board(BoardID, title: String)
    }

    /// The field and its two values.
    public enum Values: Hashable, Sendable {
        /// A card's or a board's field changed on both sides: ours and theirs, values of
        /// the field's kind.
        case field(ConflictField, ours: FieldValue, theirs: FieldValue)
        /// Two different boards ended up with the same title (ignoring case): one from each
        /// side, or one kept by the merge. This one was given `given` instead of `wanted`.
        case boardTitleTaken(wanted: String, given: String)

        /// The field a recorded conflict names; `nil` for a title taken by another board.
        public var field: ConflictField? {
            switch self {
            case .field(let field, _, _): field
            case .boardTitleTaken: nil
            }
        }
    }

    public var subject: Subject
    public var values: Values

    public init(subject: Subject, values: Values) {
        self.subject = subject
        self.values = values
    }
}

/// Something a merge decided that a person may want to know; not a conflict.
public enum MergeNote: Hashable, Sendable {
    /// A card moved on both sides to different places: it is where `kept` put it, the side
    /// whose move was later (its `entered`, or `archived`), or ours when equal or unknown.
    /// `ours` and `theirs` name where each side put it: a board's title, or nil for the archive.
    case movedOnBothSides(id: ItemID, title: String, kept: MergeSide, ours: String?, theirs: String?)
    /// A card one side removed and the other changed: kept, with the change.
    case keptChangedCard(id: ItemID, title: String, removedBy: MergeSide)
    /// A board one side removed and the other changed or gave cards: kept.
    case keptBoard(id: BoardID, title: String, removedBy: MergeSide)
    /// A board moved on both sides to different places: it is where ours put it.
    case boardMovedOnBothSides(id: BoardID, title: String)
    /// Boards added on both sides with the same title (ignoring case) became one board.
    case joinedBoards(title: String, id: BoardID, theirs: BoardID)
    /// A board holds more cards than its WIP limit after the merge.
    case overLimit(board: String, count: Int, limit: Int)
    /// An id stood for two different cards or boards; the one from theirs (or the one
    /// the merge kept from a removal) was given a new id.
    case newID(title: String, was: ItemID, now: ItemID, isBoard: Bool)
}

/// The outcome of ``Kanban/merge(base:ours:theirs:formats:)``.
public struct MergeResult: Hashable, Sendable {
    /// The merged kanban; always valid.
    public var kanban: Kanban
    /// What the merge decided on its own, in a stable order.
    public var notes: [MergeNote]
    /// The fields changed on both sides to different values; the kanban keeps ours.
    public var conflicts: [MergeConflict]

    public init(kanban: Kanban, notes: [MergeNote], conflicts: [MergeConflict]) {
        self.kanban = kanban
        self.notes = notes
        self.conflicts = conflicts
    }
}

extension MergeConflict.Subject {
    /// What messages call a field of this card or board: `the due date`.
    public func noun(of field: ConflictField) -> String {
        switch self {
        case .card: CardField.named(field, in: CardField.all)?.noun ?? field.rawValue
        case .board: BoardField.named(field, in: BoardField.all)?.noun ?? field.rawValue
        }
    }
}
