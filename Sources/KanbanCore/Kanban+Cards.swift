// A card's content changed in place, and cards put away in the archive and brought back.

/// Changes to one card's fields, as `kanban edit` gives them; what is `nil` or empty stays.
/// `Due` is how a new date is given: as typed (``DueInput``, `tomorrow`, until the
/// operation runs: ``EditInput``), or as a date (`Day?`, `nil` clearing it: ``CardEdits``).
/// The title and the note are fields of their own here, each edited its own way (a title
/// checked when typed, a note set or appended to); the sets of words and the dates are
/// edited alike, by field name (``CardField``).
public struct CardChanges<Due: Hashable & Sendable>: Hashable, Sendable {
    public var title: Title?
    public var note: NoteEdit?
    /// Words to add to and take from each set of words (``CardField`` of kind `words`), by
    /// field name; none are empty.
    public private(set) var words: [String: WordEdits]
    /// New dates (``CardField`` of kind `day`), by field name.
    public var dates: [String: Due]

    public init(
        title: Title? = nil, note: NoteEdit? = nil, words: [String: WordEdits] = [:], dates: [String: Due] = [:],
        due: Due? = nil
    ) {
        self.title = title
        self.note = note
        self.words = words.filter { !$0.value.isEmpty }
        self.dates = dates
        if let due { self.dates["due"] = due }
    }

    /// A new due date.
    public var due: Due? {
        get { dates["due"] }
        set { dates["due"] = newValue }
    }

    /// The words to add to and take from the set of words `field` names.
    public subscript(words field: String) -> WordEdits {
        get { words[field] ?? WordEdits() }
        set { words[field] = newValue.isEmpty ? nil : newValue }
    }

    /// Whether there is nothing to change: no field in ``fields``, without building the list
    /// (`edit` asks once per line of a batch).
    public var isEmpty: Bool { title == nil && note == nil && words.isEmpty && dates.isEmpty }

    /// The names of the fields it changes.
    public var fields: [String] {
        (title == nil ? [] : ["title"]) + (note == nil ? [] : ["note"]) + words.keys.sorted()
            + dates.keys.sorted()
    }
}

/// Words to add to a set of words and take from it.
public struct WordEdits: Hashable, Sendable {
    /// Words to add (each valid).
    public var add: [String]
    /// Words to take away, ignoring case.
    public var remove: [String]

    public init(add: [String] = [], remove: [String] = []) {
        self.add = add
        self.remove = remove
    }

    public var isEmpty: Bool { add.isEmpty && remove.isEmpty }
}

/// Changes to a card's fields, ready to apply: a new due date is a date, or `.some(nil)` to clear it.
public typealias CardEdits = CardChanges<Day?>

/// Changes to a card's fields as typed: the due date not yet resolved against today.
public typealias EditInput = CardChanges<DueInput>

extension CardChanges where Due == DueInput {
    /// The edits, with the due date resolved against `today`.
    public func resolved(today: Day) -> CardEdits {
        CardEdits(title: title, note: note, words: words, dates: dates.mapValues { $0.resolved(today: today) })
    }
}

/// What `edit` does to a note.
public enum NoteEdit: Hashable, Sendable {
    /// Replaces it (an empty text clears it).
    case set(String)
    /// Adds a line (or more) at its end.
    case append(String)
}

extension Kanban {
    // MARK: - Edit

    /// Changes a card's fields in place; its id and place stay.
    ///
    /// - Returns: the card, with an edit for each field whose value changed.
    /// - Throws: ``KanbanError/invalidValue(kind:value:reason:)`` when a label or the
    ///   resulting note breaks its rule; nothing changes then.
    @discardableResult
    public mutating func edit(_ location: Location, _ edits: CardEdits) throws(KanbanError) -> Change {
        try check([location])
        // Read once: the report compares every field of the card before and after.
        var before = self[location]
        before.readFields()
        let after = try before.applying(edits)
        boards[location.board].items[location.index] = after
        return Change(items: [
            ItemChange(
                id: after.id, title: after.title, from: slot(location), to: slot(location),
                edits: before.edits(to: after),
                conflictChange: ConflictChange(from: before.conflicts, to: after.conflicts))
        ])
    }

    // MARK: - Archive

    /// Puts cards away in the archive: they leave their boards (freeing WIP room), keep
    /// their ids, and remember the board they left and when. A location selected twice is
    /// archived once.
    ///
    /// - Returns: each card, from its place to the archive.
    @discardableResult
    public mutating func archive(_ selection: [Location], now: Timestamp) throws(KanbanError) -> Change {
        try check(selection)
        let selection = selection.uniqued()
        var changes: [ItemChange] = []
        for location in selection {
            let item = self[location]
            archive.append(ArchivedItem(item: item, board: boards[location.board].id, archived: now))
            changes.append(
                ItemChange(id: item.id, title: item.title, from: slot(location), to: nil, archive: .archived))
        }
        removeItems(at: selection)
        return Change(items: changes)
    }

    /// The cards of `board` that entered it before `cutoff` (all of them when `nil`), top
    /// first. A card from an older file, with no `entered` time, counts as old.
    public func cards(of board: Int, enteredBefore cutoff: Timestamp?) throws(KanbanError) -> [Location] {
        try checkBoard(board)
        return boards[board].items.indices.compactMap { index in
            let item = boards[board].items[index]
            guard let cutoff, let entered = item.entered else { return Location(board: board, index: index) }
            return entered < cutoff ? Location(board: board, index: index) : nil
        }
    }

    /// Brings archived cards back, at the bottom of the board each left, or of `destination`
    /// for all; they enter it `now`, their trails going on there. WIP limits apply unless `force`.
    ///
    /// - Parameter selection: indices into ``archive``; one given twice is restored once.
    /// - Throws: ``KanbanError/restoreNeedsBoard(item:)`` when a card's board is gone and no
    ///   destination is given; ``KanbanError/wipLimit(board:limit:current:resulting:)``.
    @discardableResult
    public mutating func restore(
        _ selection: [Int], to destination: Int? = nil, force: Bool = false, now: Timestamp
    ) throws(KanbanError) -> Change {
        let selection = selection.uniqued()
        for index in selection where !archive.indices.contains(index) {
            throw .invalidLocation("no archived card at index \(index)")
        }
        if let destination { try checkBoard(destination) }
        var targets: [Int] = []
        for index in selection {
            let archived = archive[index]
            guard let target = destination ?? boardIndex(id: archived.board) else {
                throw .restoreNeedsBoard(item: archivedCandidate(index))
            }
            targets.append(target)
        }
        for board in targets.uniqued() {
            try checkLimit(of: board, incoming: targets.count(where: { $0 == board }), force: force)
        }
        var changes: [ItemChange] = []
        for (index, target) in zip(selection, targets) {
            var item = archive[index].item
            item.arrive(on: boards[target].id, at: now)
            boards[target].items.append(item)
            changes.append(
                ItemChange(
                    id: item.id, title: item.title, from: nil,
                    to: Slot(board: boards[target].title, index: boards[target].items.count - 1), archive: .restored))
        }
        let restored = Set(selection)
        archive = archive.enumerated().filter { !restored.contains($0.offset) }.map(\.element)
        return Change(items: changes)
    }

    /// The archived card at `index` in ``archive``, named for an error message: the board it
    /// left (or its id, if gone); `nil` if there is none.
    public func archivedCandidate(at index: Int) -> Candidate? {
        archive.indices.contains(index) ? archivedCandidate(index) : nil
    }

    /// The archived card at `index`, which must exist, named for an error message.
    func archivedCandidate(_ index: Int) -> Candidate {
        let archived = archive[index]
        let board = boardIndex(id: archived.board).map { boards[$0].title } ?? archived.board.rawValue
        return Candidate(id: archived.item.id, title: archived.item.title, board: board, index: nil)
    }
}

extension Item {
    /// The card with `edits` applied.
    ///
    /// - Throws: ``KanbanError/invalidValue(kind:value:reason:)`` for an invalid word (a
    ///   label, a name) or note.
    public func applying(_ edits: CardEdits) throws(KanbanError) -> Item {
        var item = self
        item.readFields()  // the edits read fields before they set them
        if let title = edits.title { item.title = title.text }
        switch edits.note {
        case nil: break
        case .set(let text):
            let note = try Note.checked(text)
            item.note = note.isEmpty ? nil : note
        case .append(let text):
            let addition = try Note.checked(text)
            if let note = item.note {
                item.note = try Note.checked(note.isEmpty ? addition : note + "\n" + addition, stored: true)
            } else if !addition.isEmpty {
                // Appending nothing to no note leaves no note, rather than an empty one.
                item.note = addition
            }
        }
        if !edits.words.isEmpty {
            for field in CardField.all {
                guard let access = field.words, let change = edits.words[field.name] else { continue }
                var words = access.get(item)
                for word in change.remove { words.remove(word) }
                for word in change.add { words.insert(try Labels.checked(word, as: field.word ?? .label)) }
                access.set(&item, words)
            }
        }
        if !edits.dates.isEmpty {
            for field in CardField.all where field.kind == .day {
                if let day = edits.dates[field.name] { field.set(&item, .day(day)) }
            }
        }
        // Editing a field settles its recorded conflict with the new value.
        if !item.conflicts.isEmpty {
            for field in edits.fields { item.conflicts.settle(field) }
        }
        return item
    }
}
