// Settling recorded conflicts (README: Working together): `kanban resolve` keeps ours (the
// value the field has) or takes theirs (the value the conflict recorded), and drops the
// record; editing a field settles its conflict with the new value.

/// The recorded conflicts a change added or settled on one card or board.
public struct ConflictChange: Hashable, Sendable {
    /// The fields whose conflict is new, or other than before.
    public var recorded: [ConflictField]
    /// The fields whose conflict is gone.
    public var resolved: [ConflictField]

    /// The difference from `before` to `after`; `nil` when they are the same.
    public init?(from before: Conflicts, to after: Conflicts) {
        guard before != after else { return nil }
        recorded = after.entries.filter { before[$0.field] != $0 }.map(\.field)
        resolved = before.fields.filter { after[$0] == nil }
    }
}

/// What a card or board of a kanban holding a recorded conflict is, for `resolve`.
public enum ConflictHolder: Hashable, Sendable {
    case card(Location)
    case archivedCard(Int)
    case board(Int)
}

extension Kanban {
    /// Settles the recorded conflicts of a card or board: `side` `.ours` keeps each field's
    /// value, `.theirs` sets it to theirs; the records go. `fields` limits it to those.
    ///
    /// - Throws: ``KanbanError/conflict(_:)`` when there is no recorded conflict to settle
    ///   (on the fields asked for); ``KanbanError/duplicateBoard(title:existing:)`` when
    ///   theirs' board title is another board's.
    @discardableResult
    public mutating func resolveConflicts(
        of holder: ConflictHolder, taking side: MergeSide, fields: [ConflictField]? = nil
    ) throws(KanbanError) -> Change {
        func settle(_ conflicts: Conflicts, _ name: String) throws(KanbanError) -> [RecordedConflict] {
            let chosen = conflicts.entries.filter { fields?.contains($0.field) ?? true }
            guard !chosen.isEmpty else {
                let which = fields.map { " on " + $0.map(\.rawValue).joined(separator: ", ") } ?? ""
                throw .conflict("\(name) has no recorded conflict\(which); nothing to resolve")
            }
            return chosen
        }
        switch holder {
        case .card(let location):
            try check([location])
            let before = self[location]
            let after = try Self.settled(before, try settle(before.conflicts, Self.named(before)), side)
            boards[location.board].items[location.index] = after
            return Change(items: [
                ItemChange(
                    id: after.id, title: after.title, from: slot(location), to: slot(location),
                    edits: before.edits(to: after), conflictChange: ConflictChange(from: before.conflicts, to: after.conflicts))
            ])
        case .archivedCard(let index):
            guard archive.indices.contains(index) else { throw .invalidLocation("no archived card at index \(index)") }
            let before = archive[index].item
            let after = try Self.settled(before, try settle(before.conflicts, Self.named(before)), side)
            archive[index].item = after
            return Change(items: [
                ItemChange(
                    id: after.id, title: after.title, from: nil, to: nil, edits: before.edits(to: after),
                    conflictChange: ConflictChange(from: before.conflicts, to: after.conflicts))
            ])
        case .board(let index):
            try checkBoard(index)
            let before = boards[index]
            var after = before
            for entry in try settle(before.conflicts, "board \(JSON.quoted(before.title)) (\(before.id))") {
                if side == .theirs { after.setConflictValue(entry.theirs, of: entry.field) }
                after.conflicts[entry.field] = nil
            }
            if after.title != before.title {
                try checkUnique(try Title(after.title), except: index)
            }
            try Self.checkLimit(after.limit)
            boards[index] = after
            return Change(boards: [
                BoardChange(
                    title: after.title, from: index, to: index, limit: after.limit,
                    previousTitle: after.title != before.title ? before.title : nil,
                    limitChange: after.limit != before.limit ? LimitChange(from: before.limit, to: after.limit) : nil,
                    conflictChange: ConflictChange(from: before.conflicts, to: after.conflicts),
                    roleChange: after.role != before.role ? RoleChange(from: before.role, to: after.role) : nil)
            ])
        }
    }

    /// What `reference` names for `resolve`: a card (on a board, or in the archive), tried
    /// first, else a board.
    ///
    /// - Throws: the card's lookup error when neither a card nor a board matches.
    public func conflictHolder(_ reference: String) throws(KanbanError) -> ConflictHolder {
        do {
            return .card(try locate(reference))
        } catch {
            if case .itemArchived = error, let index = try? locateArchived([reference]).first {
                return .archivedCard(index)
            }
            guard case .itemNotFound = error, let board = try? boardIndex(named: reference) else { throw error }
            return .board(board)
        }
    }

    private static func named(_ item: Item) -> String { "\(JSON.quoted(item.title)) (\(item.id))" }

    /// `item` with `entries` settled, taking `side`.
    private static func settled(_ item: Item, _ entries: [RecordedConflict], _ side: MergeSide) throws(KanbanError)
        -> Item
    {
        var item = item
        for entry in entries {
            if side == .theirs { item.setConflictValue(entry.theirs, of: entry.field) }
            item.conflicts[entry.field] = nil
        }
        return item
    }
}
