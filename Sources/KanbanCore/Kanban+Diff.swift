// What changed from one kanban to another, card by card, in the words of the change
// reports: what `kanban diff` prints, for two files or two git revisions of one.

extension Kanban {
    /// The changes that turn `old` into `new`: cards added, removed, archived, restored,
    /// moved (to another board, or to another place in its own) and edited field by field;
    /// boards added, removed, renamed, moved, re-limited and given a role. Cards and boards are matched by id.
    ///
    /// A card counts as moved within its board only when it is outside a longest common
    /// subsequence of the board's old and new order: the fewest moves that explain the new
    /// order. A card whose index shifted because others moved, came or went is not listed.
    ///
    ///     // old Todo: [A, B, C, D]    new Todo: [D, A, B, C]
    ///     Kanban.diff(from: old, to: new).items   // D only: Todo:3 -> Todo:0
    ///
    /// A card that is edited but not moved is reported at its new place (`from` and `to`
    /// alike); so is a board that is renamed or re-limited but not moved. Every board
    /// change carries the board's id.
    ///
    /// - Returns: removed and archived cards first (in their old order), then the cards of
    ///   the new boards (in their new order), then changes inside the archive; boards removed
    ///   first, then the new boards in order.
    /// - Complexity: O(*n* log *n*), where *n* is the number of cards.
    public static func diff(from old: Kanban, to new: Kanban) -> Change {
        let before = CardLists(old)
        let after = CardLists(new)
        return Change(items: itemChanges(before, after), boards: boardChanges(before, after))
    }

    private static func boardChanges(_ before: CardLists, _ after: CardLists) -> [BoardChange] {
        let old = before.kanban
        let new = after.kanban
        var changes: [BoardChange] = []
        for (index, board) in old.boards.enumerated() where after.boardIndex[board.id] == nil {
            changes.append(BoardChange(title: board.title, from: index, to: nil, limit: board.limit, id: board.id))
        }
        let stayed = new.boardsStayed(since: before)
        for (index, board) in new.boards.enumerated() {
            guard let oldIndex = before.boardIndex[board.id] else {
                changes.append(BoardChange(title: board.title, from: nil, to: index, limit: board.limit, id: board.id))
                continue
            }
            let previous = old.boards[oldIndex]
            let renamed = previous.title != board.title
            let relimited = previous.limit != board.limit
            let conflicts = ConflictChange(from: previous.conflicts, to: board.conflicts)
            let recast = previous.role != board.role
            guard !stayed[index] || renamed || relimited || recast || conflicts != nil else { continue }
            changes.append(
                BoardChange(
                    title: board.title, from: stayed[index] ? index : oldIndex, to: index, limit: board.limit,
                    previousTitle: renamed ? previous.title : nil,
                    limitChange: relimited ? LimitChange(from: previous.limit, to: board.limit) : nil, id: board.id,
                    conflictChange: conflicts, roleChange: recast ? RoleChange(from: previous.role, to: board.role) : nil))
        }
        return changes
    }

    private static func itemChanges(_ before: CardLists, _ after: CardLists) -> [ItemChange] {
        let old = before.kanban
        let new = after.kanban
        var changes: [ItemChange] = []
        // Cards that left the boards: removed, or archived.
        for board in old.boards {
            for (index, item) in board.items.enumerated() {
                let from = Slot(board: board.title, index: index)
                guard let place = after.places[item.id] else {
                    changes.append(ItemChange(id: item.id, title: item.title, from: from, to: nil))
                    continue
                }
                guard place.list == after.archive else { continue }
                let now = after.item(at: place)
                changes.append(
                    ItemChange(
                        id: item.id, title: now.title, from: from, to: nil, edits: item.edits(to: now),
                        archive: .archived))
            }
        }
        // Archived cards gone from the file.
        for archived in old.archive where after.places[archived.item.id] == nil {
            changes.append(
                ItemChange(id: archived.item.id, title: archived.item.title, from: nil, to: nil, archive: .restored))
        }
        // The cards of the new boards: added, restored, moved, edited.
        let stayed = after.stayed(since: before)
        for (list, board) in new.boards.enumerated() {
            for (index, item) in board.items.enumerated() {
                let to = Slot(board: board.title, index: index)
                guard let place = before.places[item.id] else {
                    changes.append(ItemChange(id: item.id, title: item.title, from: nil, to: to))
                    continue
                }
                let previous = before.item(at: place)
                let edits = previous.edits(to: item)
                let conflicts = ConflictChange(from: previous.conflicts, to: item.conflicts)
                if place.list == before.archive {
                    changes.append(
                        ItemChange(
                            id: item.id, title: item.title, from: nil, to: to, edits: edits, archive: .restored,
                            conflictChange: conflicts))
                } else if !stayed[list][index] {
                    let from = Slot(board: old.boards[place.list].title, index: place.index)
                    changes.append(
                        ItemChange(
                            id: item.id, title: item.title, from: from, to: to, edits: edits, conflictChange: conflicts))
                } else if !edits.isEmpty || conflicts != nil {
                    changes.append(
                        ItemChange(
                            id: item.id, title: item.title, from: to, to: to, edits: edits, conflictChange: conflicts))
                }
            }
        }
        // Changes inside the archive: cards new to the file found there, and edits.
        for archived in new.archive {
            let item = archived.item
            guard let place = before.places[item.id] else {
                changes.append(ItemChange(id: item.id, title: item.title, from: nil, to: nil, archive: .archived))
                continue
            }
            guard place.list == before.archive else { continue }
            let previous = before.item(at: place)
            let edits = previous.edits(to: item)
            let conflicts = ConflictChange(from: previous.conflicts, to: item.conflicts)
            if !edits.isEmpty || conflicts != nil {
                changes.append(
                    ItemChange(
                        id: item.id, title: item.title, from: nil, to: nil, edits: edits, conflictChange: conflicts))
            }
        }
        return changes
    }
}
