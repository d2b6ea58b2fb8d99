// A change to a kanban as a command names it, with references and positions as typed,
// and how it runs: resolve the references, then call one drop method. The command line,
// a batch of commands and the interactive board all go through `apply`.

/// A position as typed: `--at N`, `--top`, `--bottom`, `--before ITEM`, `--after ITEM`.
public enum Position: Hashable, Sendable {
    /// The final index of the first item; negative counts from the end (`-1`: the bottom).
    case at(Int)
    case top
    case bottom
    case before(String)
    case after(String)
}

/// The clock a change runs at: the instant (for `created`, `entered`, `archived`) and the
/// local date (for due dates such as `tomorrow`).
public struct Moment: Hashable, Sendable {
    public var now: Timestamp
    public var today: Day

    public init(now: Timestamp, today: Day) {
        self.now = now
        self.today = today
    }
}

/// A field's value as typed: a value, or a date as typed (`tomorrow`), which is a date once
/// the operation runs.
public enum FieldInput: Hashable, Sendable {
    case value(FieldValue)
    case day(DueInput)

    /// The value, with a date as typed resolved against `today`.
    public func resolved(today: Day) -> FieldValue {
        switch self {
        case .value(let value): value
        case .day(let input): .day(input.resolved(today: today))
        }
    }
}

/// What new cards are given besides their titles, as typed: the fields' values by name
/// (``CardField``); a field not in it is none. A new card field needs nothing here.
public struct NewCardContent: Hashable, Sendable {
    public var values: [String: FieldInput]

    /// Content with these values; a value that is its kind's none is not given.
    public init(_ values: [String: FieldInput] = [:]) {
        self.values = [:]
        for (name, value) in values { self[name] = value }
    }

    /// Written in code, with the fields spelled out.
    public init(labels: Labels = [], assignees: Labels = [], due: DueInput? = nil, note: String? = nil) {
        self.init([
            "labels": .value(.words(labels.names)), "assignees": .value(.words(assignees.names)),
            "note": .value(.text(note)),
        ])
        self["due"] = due.map { .day($0) }
    }

    /// A field's value as typed; `nil`: not given (setting its kind's none is not giving it,
    /// so that content compares equal however it was made).
    public subscript(name: String) -> FieldInput? {
        get { values[name] }
        set {
            if case .value(let value) = newValue, value.isNone {
                // Most adds give no field: nothing to hash or take away then.
                if !values.isEmpty { values[name] = nil }
            } else {
                values[name] = newValue
            }
        }
    }

    /// The fields, resolved against `today`, on a card that is nothing else (see ``CardContent``).
    func resolved(today: Day) -> Item {
        var card = CardContent.blank
        guard !values.isEmpty else { return card }
        for field in CardField.all {
            if let input = values[field.name] { field.set(&card, input.resolved(today: today)) }
        }
        return card
    }
}

/// One change to a kanban, as a command gives it.
public enum Operation: Hashable, Sendable {
    /// New cards from text (the external drop), each with the same content besides its title.
    case add(
        titles: [Title], to: String?, position: Position?, content: NewCardContent = NewCardContent(),
        force: Bool = false)
    case move(items: [String], to: String, from: String? = nil, position: Position? = nil, force: Bool = false)
    case copy(items: [String], to: String, from: String? = nil, position: Position? = nil, force: Bool = false)
    case remove(items: [String], from: String? = nil)
    case rename(item: String, title: Title, from: String? = nil)
    case edit(item: String, from: String? = nil, edits: EditInput)
    case archive(items: [String], from: String? = nil)
    /// Every card of a board, or those that entered it more than `olderThan` ago.
    case archiveBoard(board: String, olderThan: Age? = nil)
    case restore(items: [String], to: String? = nil, force: Bool = false)
    case boardAdd(title: Title, at: Int? = nil, limit: Int? = nil)
    case boardRename(board: String, title: Title)
    case boardMove(board: String, at: Int)
    case boardLimit(board: String, limit: Int?)
    /// Sets a board's role in the flow of work; `nil`: back to the default (README: Flow).
    case boardRole(board: String, role: BoardRole?)
    case boardRemove(board: String, force: Bool = false)
    /// Settles the recorded conflicts of a card (tried first) or a board, keeping ours or
    /// taking theirs; `fields` empty: every field (README: Working together).
    case resolve(reference: String, side: MergeSide = .ours, fields: [ConflictField] = [])

    /// The command's name, as typed and reported: `move`, `board add`.
    public var name: String {
        switch self {
        case .add: "add"
        case .move: "move"
        case .copy: "copy"
        case .remove: "remove"
        case .rename: "rename"
        case .edit: "edit"
        case .archive, .archiveBoard: "archive"
        case .restore: "restore"
        case .boardAdd: "board add"
        case .boardRename: "board rename"
        case .boardMove: "board move"
        case .boardLimit: "board limit"
        case .boardRole: "board role"
        case .boardRemove: "board remove"
        case .resolve: "resolve"
        }
    }
}

extension Kanban {
    /// Runs one operation: resolves its references against this kanban as it is, then
    /// makes the change. Nothing changes when it throws.
    ///
    /// `hints`: see ``locate(_:within:hints:)-([String],_,_)``; a batch keeps them from line to line.
    ///
    /// - Returns: what changed.
    /// - Throws: whatever the references or the drop method refuse.
    @discardableResult
    public mutating func apply(
        _ operation: Operation, at clock: Moment, using generator: inout some RandomNumberGenerator,
        hints: CardHints? = nil
    ) throws(KanbanError) -> Change {
        switch operation {
        case .add(let titles, let to, let position, let content, let force):
            let destination = try defaultBoard(to)
            // Resolved once: each card is a copy of it with its title.
            let fields = content.resolved(today: clock.today)
            let cards = titles.map { CardContent(title: $0, fields: fields) }
            return try insert(
                cards, into: destination, at: try dropPosition(position, in: destination, hints: hints), force: force,
                now: clock.now, using: &generator)
        case .move(let items, let to, let from, let position, let force),
            .copy(let items, let to, let from, let position, let force):
            let destination = try boardIndex(named: to)
            let selection = try locate(items, within: try from.map(boardIndex(named:)), hints: hints)
            let drop = try dropPosition(position, in: destination, hints: hints)
            if case .copy = operation {
                return try copy(
                    selection, to: destination, at: drop, force: force, now: clock.now, using: &generator)
            }
            return try move(selection, to: destination, at: drop, force: force, now: clock.now)
        case .remove(let items, let from):
            return try remove(try locate(items, within: try from.map(boardIndex(named:)), hints: hints))
        case .rename(let item, let title, let from):
            return try rename(try locate(item, within: try from.map(boardIndex(named:)), hints: hints), to: title)
        case .edit(let item, let from, let edits):
            return try edit(
                try locate(item, within: try from.map(boardIndex(named:)), hints: hints),
                edits.resolved(today: clock.today))
        case .archive(let items, let from):
            return try archive(
                try locate(items, within: try from.map(boardIndex(named:)), hints: hints), now: clock.now)
        case .archiveBoard(let board, let age):
            let cutoff = age.map { clock.now.adding(seconds: -$0.seconds) }
            return try archive(try cards(of: try boardIndex(named: board), enteredBefore: cutoff), now: clock.now)
        case .restore(let items, let to, let force):
            return try restore(
                try locateArchived(items), to: try to.map(boardIndex(named:)), force: force, now: clock.now)
        case .boardAdd(let title, let index, let limit):
            return try addBoard(title, at: index, limit: limit, using: &generator)
        case .boardRename(let board, let title):
            return try renameBoard(try boardIndex(named: board), to: title)
        case .boardMove(let board, let index):
            return try moveBoard(try boardIndex(named: board), to: index)
        case .boardLimit(let board, let limit):
            return try setLimit(of: try boardIndex(named: board), to: limit)
        case .boardRole(let board, let role):
            return try setRole(of: try boardIndex(named: board), to: role)
        case .boardRemove(let board, let force):
            return try removeBoard(try boardIndex(named: board), force: force)
        case .resolve(let reference, let side, let fields):
            return try resolveConflicts(
                of: try conflictHolder(reference), taking: side, fields: fields.isEmpty ? nil : fields)
        }
    }

    /// The board new cards go to: the named one, else the first.
    ///
    /// - Throws: ``KanbanError/noBoards`` when there is none.
    public func defaultBoard(_ name: String?) throws(KanbanError) -> Int {
        if let name { return try boardIndex(named: name) }
        guard !boards.isEmpty else { throw .noBoards }
        return 0
    }

    /// A typed position made concrete; `--before`/`--after` items are looked up in `board`,
    /// and one found elsewhere is named with where it is rather than reported missing.
    public func dropPosition(
        _ position: Position?, in board: Int, hints: CardHints? = nil
    ) throws(KanbanError) -> DropPosition {
        try checkBoard(board)
        return switch position {
        case nil, .bottom: .bottom
        case .top: .top
        case .at(let index): .index(index)
        case .before(let reference): .before(try anchor(reference, in: board, hints: hints))
        case .after(let reference): .after(try anchor(reference, in: board, hints: hints))
        }
    }

    private func anchor(_ reference: String, in board: Int, hints: CardHints?) throws(KanbanError) -> Location {
        do {
            return try locate(reference, within: board, hints: hints)
        } catch {
            guard error.namesNoCardOnABoard, let elsewhere = try? locate(reference, hints: hints) else { throw error }
            throw .anchorNotInBoard(anchor: candidate(elsewhere), board: boards[board].title)
        }
    }
}
