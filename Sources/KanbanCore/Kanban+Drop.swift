// The drop cases of the drag-and-drop design, as mutating methods.
//
// | drop in the app                                  | method                 |
// | ------------------------------------------------ | ---------------------- |
// | same table: source and destination index paths   | `move` (same board)    |
// | other table, source known from the local context | `move` (other board)   |
// | external drop: text from outside the app         | `insert`               |
// | no destination index path                        | `DropPosition.bottom`  |
// | drop proposal `.copy`                            | `copy`                 |
// | drop proposal `.forbidden`                       | a full board throws    |
// | several dragged rows                             | a selection, in order  |
// | drop on the trash                                | `remove`               |
//
// Each method checks everything first and throws before touching anything, so a
// kanban is never half changed; then it returns what it did.

/// Where dropped items land in the destination board.
public enum DropPosition: Hashable, Sendable {
    /// The final index of the first dropped item, counted after the moved items have been
    /// taken out: `0...count`, where `count` is the board's count after removal. A negative
    /// index counts from the end: `count + 1 + index` (`-1` is the bottom).
    case index(Int)
    /// The top of the board.
    case top
    /// The bottom of the board (a drop with no destination index path).
    case bottom
    /// Just before this item, which must be in the destination board and not moved.
    case before(Location)
    /// Just after this item, which must be in the destination board and not moved.
    case after(Location)
}

extension Kanban {
    // MARK: - Move

    /// Moves a selection of items into a board, keeping the selection's order: a
    /// same-board reorder, a cross-board move, or both at once.
    ///
    /// The selected items are taken out of their boards, then inserted contiguously at
    /// `position` in `destination`. An index position counts the destination *after* the
    /// selection has been taken out, so it is the final index of the first moved item:
    ///
    ///     // Todo: [A, B, C, D]
    ///     try kanban.move([Todo:0], to: todo, at: .index(2), now: now)   // Todo: [B, C, A, D]
    ///     try kanban.move([Todo:0, Todo:1], to: done, now: now)          // Todo: [C, D], Done: [..., A, B]
    ///
    /// A location selected twice is moved once. Moving items to where they already are
    /// succeeds and reports a change that is not effective. Items that arrive from another
    /// board have entered it `now`, and their trails say so; a reorder within a board changes
    /// neither.
    ///
    /// - Parameters:
    ///   - selection: the items to move, in the order they should land.
    ///   - destination: the index of the destination board.
    ///   - position: where in the destination; `.bottom` when the drop has none.
    ///   - force: take the destination past its WIP limit.
    ///   - now: the time, for the `entered` and trail of items from other boards.
    /// - Returns: each moved item's board and index before and after.
    /// - Throws: ``KanbanError/indexOutOfRange(index:board:range:)``, an anchor error, or
    ///   ``KanbanError/wipLimit(board:limit:current:resulting:)`` when items from other
    ///   boards would take the destination past its limit. Nothing changes when it throws.
    /// - Complexity: O(*m* + *k*), where *m* is the size of the boards involved and *k*
    ///   the size of the selection.
    @discardableResult
    public mutating func move(
        _ selection: [Location], to destination: Int, at position: DropPosition = .bottom, force: Bool = false,
        now: Timestamp? = nil
    ) throws(KanbanError) -> Change {
        try checkBoard(destination)
        try check(selection)
        let selection = selection.uniqued()
        let index = try insertionIndex(position, in: destination, takingOut: selection)
        let incoming = selection.count(where: { $0.board != destination })
        try checkLimit(of: destination, incoming: incoming, force: force)

        var moved = selection.map { self[$0] }
        for (offset, location) in selection.enumerated() where location.board != destination {
            moved[offset].arrive(on: boards[destination].id, at: now)
        }
        let origins = selection.map(slot)
        removeItems(at: selection)
        boards[destination].items.insert(contentsOf: moved, at: index)
        let board = boards[destination].title
        return Change(
            items: moved.enumerated().map { offset, item in
                ItemChange(
                    id: item.id, title: item.title, from: origins[offset],
                    to: Slot(board: board, index: index + offset))
            })
    }

    // MARK: - Copy

    /// Copies a selection of items into a board, each copy with a new id (drop proposal `.copy`).
    ///
    /// A copy has the original's title, labels, due date and note, and was created and
    /// entered its board `now`: its trail starts there. Nothing is taken out, so an index position counts the
    /// destination as it is. A location selected twice is copied twice.
    ///
    /// - Returns: each new card, with `from` the original's place and `copyOf` its id.
    /// - Throws: as ``move(_:to:at:force:now:)``; every copy counts against the WIP limit.
    @discardableResult
    public mutating func copy(
        _ selection: [Location], to destination: Int, at position: DropPosition = .bottom, force: Bool = false,
        now: Timestamp? = nil, using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> Change {
        try checkBoard(destination)
        try check(selection)
        let originals = selection.map { self[$0] }
        let origins = selection.map(slot)
        let copies = try dropNewItems(originals, into: destination, at: position, force: force, now: now, using: &generator)
        return Change(
            items: copies.enumerated().map { offset, copy in
                ItemChange(
                    id: copy.item.id, title: copy.item.title, from: origins[offset], to: copy.slot,
                    copyOf: originals[offset].id)
            })
    }

    // MARK: - External drop

    /// Inserts new items built from what came from outside (arguments or stdin): each gets
    /// a new id and was created and entered its board `now`.
    ///
    /// - Returns: each new item, with `from` set to `nil`.
    /// - Throws: ``KanbanError/indexOutOfRange(index:board:range:)``, an anchor error,
    ///   ``KanbanError/wipLimit(board:limit:current:resulting:)``, or
    ///   ``KanbanError/invalidValue(kind:value:reason:)`` for a note that breaks its rules.
    /// - Complexity: O(*n* + *k*): new ids are checked against every item once.
    @discardableResult
    public mutating func insert(
        _ cards: [CardContent], into destination: Int, at position: DropPosition = .bottom, force: Bool = false,
        now: Timestamp? = nil, using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> Change {
        try checkBoard(destination)
        var items: [Item] = []
        items.reserveCapacity(cards.count)
        for card in cards {
            var item = card.fields
            item.title = card.title.text
            // A note given in code has not been through `Note.checked` as typed ones have.
            if let note = item.note { item.note = try Note.checked(note) }
            items.append(item)
        }
        let added = try dropNewItems(items, into: destination, at: position, force: force, now: now, using: &generator)
        return Change(items: added.map { ItemChange(id: $0.item.id, title: $0.item.title, from: nil, to: $0.slot) })
    }

    /// Inserts copies of `items` with new ids, created and entered `now`, for copies and
    /// external drops alike.
    private mutating func dropNewItems(
        _ items: [Item], into destination: Int, at position: DropPosition, force: Bool, now: Timestamp?,
        using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> [(item: Item, slot: Slot)] {
        let index = try insertionIndex(position, in: destination, takingOut: [])
        try checkLimit(of: destination, incoming: items.count, force: force)
        let ids = newIDs(count: items.count, using: &generator)
        let board = boards[destination].id
        let new = zip(ids, items).map { id, item in
            var item = item
            item.id = id
            item.created = now
            // A new card, even a copy, starts its own trail.
            item.entered = nil
            item.trail = []
            item.arrive(on: board, at: now)
            return item
        }
        boards[destination].items.insert(contentsOf: new, at: index)
        let title = boards[destination].title
        return new.enumerated().map { ($1, Slot(board: title, index: index + $0)) }
    }

    // MARK: - Trash

    /// Removes items (a drop on the trash). A location selected twice is removed once.
    ///
    /// - Returns: each removed item, with `to` set to `nil`.
    /// - Throws: ``KanbanError/invalidLocation(_:)`` for a location that is not in the kanban.
    @discardableResult
    public mutating func remove(_ selection: [Location]) throws(KanbanError) -> Change {
        try check(selection)
        let selection = selection.uniqued()
        let changes = selection.map { location in
            let item = self[location]
            return ItemChange(id: item.id, title: item.title, from: slot(location), to: nil)
        }
        removeItems(at: selection)
        return Change(items: changes)
    }

    /// Gives an item a new title; its id and place stay.
    ///
    /// - Throws: ``KanbanError/invalidLocation(_:)`` for a location that is not in the kanban.
    @discardableResult
    public mutating func rename(_ location: Location, to title: Title) throws(KanbanError) -> Change {
        try edit(location, CardEdits(title: title))
    }

    // MARK: - Shared checks

    /// The index in `destination` where dropped items go, once `selection` is taken out.
    func insertionIndex(
        _ position: DropPosition, in destination: Int, takingOut selection: [Location]
    ) throws(KanbanError) -> Int {
        let board = boards[destination]
        let remaining = board.items.count - selection.count(where: { $0.board == destination })
        switch position {
        case .top:
            return 0
        case .bottom:
            return remaining
        case .index(let index):
            let resolved = index < 0 ? remaining + 1 + index : index
            guard (0...remaining).contains(resolved) else {
                throw .indexOutOfRange(index: index, board: board.title, range: -(remaining + 1)...remaining)
            }
            return resolved
        case .before(let anchor), .after(let anchor):
            try check([anchor])
            guard anchor.board == destination else {
                throw .anchorNotInBoard(anchor: candidate(anchor), board: board.title)
            }
            guard !selection.contains(anchor) else {
                throw .anchorIsMoved(anchor: candidate(anchor))
            }
            let index = anchor.index - selection.count(where: { $0.board == destination && $0.index < anchor.index })
            if case .after = position { return index + 1 }
            return index
        }
    }

    /// Throws when `incoming` items would take `destination` past its limit.
    func checkLimit(of destination: Int, incoming: Int, force: Bool) throws(KanbanError) {
        let board = boards[destination]
        guard !force, incoming > 0, let limit = board.limit, board.items.count + incoming > limit else { return }
        throw .wipLimit(
            board: board.title, limit: limit, current: board.items.count, resulting: board.items.count + incoming)
    }

    /// Throws unless every location names an item of this kanban.
    func check(_ locations: [Location]) throws(KanbanError) {
        for location in locations where !contains(location) {
            throw .invalidLocation("no item at board \(location.board), index \(location.index)")
        }
    }

    /// Throws unless `board` is the index of a board.
    func checkBoard(_ board: Int) throws(KanbanError) {
        guard boards.indices.contains(board) else {
            throw .invalidLocation("no board at index \(board); there are \(boards.count)")
        }
    }

    /// Takes the items at `locations` (distinct) out of their boards.
    mutating func removeItems(at locations: [Location]) {
        var byBoard: [Int: Set<Int>] = [:]
        for location in locations {
            byBoard[location.board, default: []].insert(location.index)
        }
        for (board, indices) in byBoard {
            if indices.count == 1 {
                boards[board].items.remove(at: indices.first!)
            } else {
                boards[board].items = boards[board].items.enumerated()
                    .filter { !indices.contains($0.offset) }.map(\.element)
            }
        }
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, first occurrences kept in order.
    func uniqued() -> [Element] {
        var seen = Set<Element>(minimumCapacity: count)
        return filter { seen.insert($0).inserted }
    }
}
