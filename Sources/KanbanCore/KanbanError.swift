/// A problem a user can cause: a reference that names nothing, a position that does not
/// exist, a board that refuses, a title or a file that breaks the rules.
///
/// Every throwing method of KanbanCore throws this type only, and leaves the kanban
/// unchanged when it does. `precondition` is kept for programming errors.
public enum KanbanError: Error, Equatable, Sendable {
    /// No item matches the reference; `suggestions` are close titles or ids, best first.
    case itemNotFound(reference: String, suggestions: [Candidate])
    /// The reference names no card on a board but a card of the archive, which only
    /// `show`, `restore` and `list --archived` see.
    case itemArchived(reference: String, card: Candidate)
    /// An item title matches several items; `total` counts them all, `candidates` lists the first few.
    case ambiguousItem(reference: String, candidates: [Candidate], total: Int)
    /// No board matches the name; `suggestions` are close board titles.
    case boardNotFound(name: String, suggestions: [String], boards: [String])
    /// A `BOARD:N` reference or an `--at N` position outside `range` of the named board.
    case indexOutOfRange(index: Int, board: String, range: ClosedRange<Int>?)
    /// A board position outside `0...boardCount - 1` (or `0...boardCount` when adding).
    case boardIndexOutOfRange(index: Int, range: ClosedRange<Int>?)
    /// A `--before`/`--after` anchor that is not in the destination board `board`.
    case anchorNotInBoard(anchor: Candidate, board: String)
    /// A `--before`/`--after` anchor that is itself one of the items being moved.
    case anchorIsMoved(anchor: Candidate)
    /// An id prefix of at least 3 characters matches several items.
    case ambiguousPrefix(reference: String, candidates: [Candidate], total: Int)
    /// The board is at its WIP limit and would end up with `resulting` items.
    case wipLimit(board: String, limit: Int, current: Int, resulting: Int)
    /// The board still holds `count` items; removing it needs `force`.
    case boardNotEmpty(board: String, count: Int)
    /// Another board already has this title (board titles compare case-insensitively).
    case duplicateBoard(title: String, existing: String)
    /// The kanban has no boards, so there is nowhere to put an item.
    case noBoards
    /// Two items, boards or archived cards share an id.
    case duplicateID(ItemID)
    /// A value typed by a user (a label, a due date, a note, an age, a limit) that breaks its rule.
    case invalidValue(kind: ValueKind, value: String, reason: String)
    /// A card of the archive that `restore` cannot put back: the board it left is gone.
    case restoreNeedsBoard(item: Candidate)
    /// A card that `restore` was asked for is on a board, not in the archive.
    case notArchived(Candidate)
    /// A change that cannot be made because what it was based on changed meanwhile.
    case conflict(String)
    /// A location or board index that does not exist in this kanban: a caller's mistake.
    case invalidLocation(String)
    /// A title typed by a user that breaks the title rules.
    case invalidTitle(title: String, reason: TitleProblem)
    /// The file is not valid JSON or breaks the schema or an invariant; `line` is 1-based.
    case corruptFile(line: Int, message: String)
    /// The file was written by a newer kanban.
    case unsupportedVersion(Int)
}

/// An item named in an error message: its id, title and where it is (for an archived card,
/// the board it left and `index` `nil`).
public struct Candidate: Equatable, Sendable {
    public var id: ItemID
    public var title: String
    public var board: String
    public var index: Int?

    public init(id: ItemID, title: String, board: String, index: Int?) {
        self.id = id
        self.title = title
        self.board = board
        self.index = index
    }
}

/// Why a title was refused.
public enum TitleProblem: Equatable, Sendable {
    /// Nothing is left once surrounding whitespace is trimmed.
    case empty
    /// A control character (C0 other than tab, DEL or C1) at this 0-based offset, counted
    /// in Unicode scalars of the title as given.
    case controlCharacter(Unicode.Scalar, offset: Int)
    /// A line or paragraph separator (U+2028, U+2029) at this offset, counted as above.
    case lineSeparator(Unicode.Scalar, offset: Int)
    /// A bidirectional embedding, override or isolate control (U+202A–U+202E,
    /// U+2066–U+2069) at this offset, counted as above.
    case directionalFormatting(Unicode.Scalar, offset: Int)
    /// Something is left, but nothing that shows: only zero-width or format characters.
    case invisible
}

extension TitleProblem {
    /// What is wrong with `title`, in words, after "title '…' ": `has a right-to-left
    /// override (U+202E) at character 2; remove it`. The position counts characters from 1.
    public func explanation(in title: String) -> String {
        switch self {
        case .empty: return "is empty"
        case .invisible: return "has no visible character"
        case .controlCharacter(let scalar, let offset), .lineSeparator(let scalar, let offset),
            .directionalFormatting(let scalar, let offset):
            let position = String(title.unicodeScalars.prefix(offset)).count + 1
            return "has \(scalar.nameInWords) at character \(position); remove it (a title is one line of plain text)"
        }
    }
}

extension KanbanError: CustomStringConvertible {
    /// The error in words, for messages that cannot use the command line's (an import
    /// reader's, a decoder's): never a Swift rendering of the enum.
    public var description: String {
        switch self {
        case .invalidTitle(let title, .empty): "a title cannot be empty" + (title.isEmpty ? "" : " or only white space")
        case .invalidTitle(let title, let problem): "title \(JSON.quoted(title)) \(problem.explanation(in: title))"
        case .invalidValue(let kind, let value, let reason): "invalid \(kind.rawValue) \(JSON.quoted(value)): \(reason)"
        case .duplicateID(let id): "duplicate id \(JSON.quoted(id.rawValue))"
        case .duplicateBoard(let title, let existing):
            "duplicate board title \(JSON.quoted(title)) (board titles ignore case; also \(JSON.quoted(existing)))"
        case .corruptFile(let line, let message): "line \(line): \(message)"
        case .unsupportedVersion(let version): "kanban file version \(version) is newer than this kanban reads"
        case .itemNotFound(let reference, _): "no item \(JSON.quoted(reference))"
        case .boardNotFound(let name, _, _): "no board named \(JSON.quoted(name))"
        case .wipLimit(let board, let limit, _, let resulting):
            "\(JSON.quoted(board)) is limited to \(limit) items; this would make \(resulting)"
        case .conflict(let message), .invalidLocation(let message): message
        // The rest come from commands, whose messages the command line words in full.
        default: "the kanban refused the change"
        }
    }
}

/// What kind of value ``KanbanError/invalidValue(kind:value:reason:)`` is about.
public enum ValueKind: String, Equatable, Sendable {
    case label, assignee, due, note, age, limit, time
    /// The text form of a card that `edit` opens in an editor.
    case form = "card text"
}
