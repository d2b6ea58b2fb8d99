// Taking a change back (undo) or doing it again (redo) on a kanban that may have changed
// since: exactly when the places the change touched are as it left them, else as a 3-way
// merge, like `git revert`: the base is the kanban as the change left it, ours the kanban
// now, theirs the kanban as it was before the change, both rebuilt around the kanban now.

extension Kanban {
    /// This kanban with `patch` taken back.
    ///
    /// - Throws: ``KanbanError/conflict(_:)`` when what the change did was changed since in a
    ///   way that conflicts (README: "What conflicts"); nothing changes then. Any other error
    ///   says the patch does not fit this kanban (a damaged history): applied, it would
    ///   break an invariant (a card twice, a blank title, a negative limit), so it is not.
    public func reverting(_ patch: Patch) throws(KanbanError) -> Kanban {
        try applyingAsMerge(patch.reversed)
    }

    /// This kanban with `patch` done again.
    ///
    /// - Throws: ``KanbanError/conflict(_:)``, as ``reverting(_:)``.
    public func reapplying(_ patch: Patch) throws(KanbanError) -> Kanban {
        try applyingAsMerge(patch)
    }

    /// `patch` applied: exactly where it can be, else as the merge of the change into this kanban.
    /// Every kanban made on the way is checked before it is used: a patch read from a damaged
    /// history may name a card twice or carry values no kanban may hold.
    private func applyingAsMerge(_ patch: Patch) throws(KanbanError) -> Kanban {
        if let exact = patch.exactlyApplied(to: self) { return exact }
        let base = patch.rebuilding(self, as: .before)
        let theirs = patch.rebuilding(self, as: .after)
        try base.validate()
        try theirs.validate()
        let result = Kanban.merge(base: base, ours: self, theirs: theirs)
        guard result.conflicts.isEmpty else {
            let cards = result.conflicts.map { conflict -> String in
                switch conflict.subject {
                case .card(let id, let title, _): "'\(title)' (\(id))"
                case .board(_, let title): "board '\(title)'"
                }
            }
            throw .conflict(
                "what it changed was changed again since: \(cards.uniqued().joined(separator: ", "))")
        }
        try result.kanban.validate()
        return result.kanban
    }
}

extension Patch {
    /// One side of a patch.
    enum Side {
        case before, after
    }

    /// `kanban` with what this patch changed put as it was on `side`: every card the patch
    /// names taken out and put back where that side had it (after the card that came before
    /// the changed stretch, which both sides share), and the boards it names given that
    /// side's titles, limits and order. Elsewhere `kanban` is left as it is.
    func rebuilding(_ kanban: Kanban, as side: Side) -> Kanban {
        let headers = side == .before ? boardsBefore : boardsAfter
        let otherHeaders = side == .before ? boardsAfter : boardsBefore
        let changedHeaders = Set(boardsBefore).symmetricDifference(boardsAfter).map(\.id)
        var touched = Set<ItemID>()
        for stretches in cards.values {
            for stretch in stretches { for item in stretch.before + stretch.after { touched.insert(item.id) } }
        }
        if let archive { for archived in archive.before + archive.after { touched.insert(archived.item.id) } }

        // The boards: those only the other side has go, those only this side has come back.
        let sideIDs = Set(headers.map(\.id))
        let otherIDs = Set(otherHeaders.map(\.id))
        var boards = kanban.boards.filter { !(otherIDs.contains($0.id) && !sideIDs.contains($0.id)) }
        for (index, header) in headers.enumerated() where !boards.contains(where: { $0.id == header.id }) {
            let previous = headers[..<index].last { header in boards.contains { $0.id == header.id } }
            let position = previous.flatMap { previous in boards.firstIndex { $0.id == previous.id } }.map { $0 + 1 } ?? 0
            boards.insert(header.board, at: position)
        }
        for index in boards.indices {
            if let header = headers.first(where: { $0.id == boards[index].id }), changedHeaders.contains(header.id) {
                header.setFields(of: &boards[index])
            }
            boards[index].items.removeAll { touched.contains($0.id) }
        }
        // This side's order for the boards it has, in the places they take now.
        let order = headers.map(\.id).filter { id in boards.contains { $0.id == id } }
        let places = boards.indices.filter { sideIDs.contains(boards[$0].id) }
        let reordered = order.compactMap { id in boards.first { $0.id == id } }
        for (place, board) in zip(places, reordered) { boards[place] = board }

        // The cards: each stretch put back after its anchor (or, with the anchor gone, where
        // it was on this side), in order.
        for (id, stretches) in cards {
            guard let board = boards.firstIndex(where: { $0.id == id }) else { continue }
            var place = 0  // where the stretch was on this side, counted from the list's start
            for stretch in stretches {
                let items = side == .before ? stretch.before : stretch.after
                place &+= stretch.offset  // wrapping: a damaged offset is clamped below, never trapped on
                let at =
                    stretch.anchor.flatMap { anchor in boards[board].items.firstIndex { $0.id == anchor } }
                    .map { $0 + 1 } ?? stretch.next.flatMap { next in boards[board].items.firstIndex { $0.id == next } }
                    ?? min(max(0, place), boards[board].items.count)
                boards[board].items.insert(contentsOf: items, at: at)
                place &+= items.count
            }
        }
        var archived = kanban.archive.filter { !touched.contains($0.item.id) }
        if let archive {
            let items = side == .before ? archive.before : archive.after
            let at = archive.anchor.flatMap { anchor in archived.firstIndex { $0.item.id == anchor } }
                .map { $0 + 1 } ?? min(max(0, archive.offset), archived.count)
            archived.insert(contentsOf: items, at: at)
        }
        return Kanban(trusted: boards, archive: archived)
    }
}
