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
    /// taken out: `0...count`, where `count` is the board's count after removal.
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
    ///     try kanban.move([Todo:0], to: todo, at: .index(2))   // Todo: [B, C, A, D]
    ///     try kanban.move([Todo:0, Todo:1], to: done)          // Todo: [C, D], Done: [..., A, B]
    ///
    /// A location selected twice is moved once. Moving items to where they already are
    /// succeeds and reports a change that is not effective.
    ///
    /// - Parameters:
    ///   - selection: the items to move, in the order they should land.
    ///   - destination: the index of the destination board.
    ///   - position: where in the destination; `.bottom` when the drop has none.
    ///   - force: take the destination past its WIP limit.
    /// - Returns: each moved item's board and index before and after.
    /// - Throws: ``KanbanError/indexOutOfRange(index:board:range:)``, an anchor error, or
    ///   ``KanbanError/wipLimit(board:limit:current:resulting:)`` when items from other
    ///   boards would take the destination past its limit. Nothing changes when it throws.
    /// - Complexity: O(*m* + *k*), where *m* is the size of the boards involved and *k*
    ///   the size of the selection.
    @discardableResult
    public mutating func move(
        _ selection: [Location], to destination: Int, at position: DropPosition = .bottom, force: Bool = false
    ) throws(KanbanError) -> Change {
        let selection = selection.uniqued()
        let index = try insertionIndex(position, in: destination, takingOut: selection)
        let incoming = selection.count(where: { $0.board != destination })
        try checkLimit(of: destination, incoming: incoming, force: force)

        let moved = selection.map { self[$0] }
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
    /// Nothing is taken out, so an index position counts the destination as it is. A
    /// location selected twice is copied twice.
    ///
    /// - Returns: each new card, with `from` the original's place and `copyOf` its id.
    /// - Throws: as ``move(_:to:at:force:)``; every copy counts against the WIP limit.
    @discardableResult
    public mutating func copy(
        _ selection: [Location], to destination: Int, at position: DropPosition = .bottom, force: Bool = false,
        using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> Change {
        let originals = selection.map { self[$0] }
        let origins = selection.map(slot)
        let copies = try dropNewItems(
            titled: originals.map(\.title), into: destination, at: position, force: force, using: &generator)
        return Change(
            items: copies.enumerated().map { offset, copy in
                ItemChange(
                    id: copy.item.id, title: copy.item.title, from: origins[offset], to: copy.slot,
                    copyOf: originals[offset].id)
            })
    }

    // MARK: - External drop

    /// Inserts new items built from text that came from outside (arguments or stdin).
    ///
    /// - Returns: each new item, with `from` set to `nil`.
    /// - Throws: ``KanbanError/indexOutOfRange(index:board:range:)``, an anchor error, or
    ///   ``KanbanError/wipLimit(board:limit:current:resulting:)``.
    /// - Complexity: O(*n* + *k*): new ids are checked against every item once.
    @discardableResult
    public mutating func insert(
        _ titles: [Title], into destination: Int, at position: DropPosition = .bottom, force: Bool = false,
        using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> Change {
        let items = try dropNewItems(
            titled: titles.map(\.text), into: destination, at: position, force: force, using: &generator)
        return Change(items: items.map { ItemChange(id: $0.item.id, title: $0.item.title, from: nil, to: $0.slot) })
    }

    /// Inserts new items with new ids, for copies and external drops alike.
    private mutating func dropNewItems(
        titled titles: [String], into destination: Int, at position: DropPosition, force: Bool,
        using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> [(item: Item, slot: Slot)] {
        let index = try insertionIndex(position, in: destination, takingOut: [])
        try checkLimit(of: destination, incoming: titles.count, force: force)
        let ids = newIDs(count: titles.count, using: &generator)
        let items = zip(ids, titles).map { Item(id: $0, title: $1) }
        boards[destination].items.insert(contentsOf: items, at: index)
        let board = boards[destination].title
        return items.enumerated().map { ($1, Slot(board: board, index: index + $0)) }
    }

    // MARK: - Trash

    /// Removes items (a drop on the trash). A location selected twice is removed once.
    ///
    /// - Returns: each removed item, with `to` set to `nil`.
    @discardableResult
    public mutating func remove(_ selection: [Location]) -> Change {
        let selection = selection.uniqued()
        let changes = selection.map { location in
            let item = self[location]
            return ItemChange(id: item.id, title: item.title, from: slot(location), to: nil)
        }
        removeItems(at: selection)
        return Change(items: changes)
    }

    /// Gives an item a new title; its id and place stay.
    @discardableResult
    public mutating func rename(_ location: Location, to title: Title) -> Change {
        let previous = self[location].title
        boards[location.board].items[location.index].title = title.text
        let item = self[location]
        return Change(items: [
            ItemChange(
                id: item.id, title: item.title, from: slot(location), to: slot(location), previousTitle: previous)
        ])
    }

    // MARK: - Shared checks

    /// The index in `destination` where dropped items go, once `selection` is taken out.
    private func insertionIndex(
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
            guard (0...remaining).contains(index) else {
                throw .indexOutOfRange(index: index, board: board.title, range: 0...remaining)
            }
            return index
        case .before(let anchor), .after(let anchor):
            guard anchor.board == destination else {
                throw .anchorNotInBoard(anchor: candidate(at: anchor), board: board.title)
            }
            guard !selection.contains(anchor) else {
                throw .anchorIsMoved(anchor: candidate(at: anchor))
            }
            let index = anchor.index - selection.count(where: { $0.board == destination && $0.index < anchor.index })
            if case .after = position { return index + 1 }
            return index
        }
    }

    /// Throws when `incoming` items would take `destination` past its limit.
    private func checkLimit(of destination: Int, incoming: Int, force: Bool) throws(KanbanError) {
        let board = boards[destination]
        guard !force, incoming > 0, let limit = board.limit, board.items.count + incoming > limit else { return }
        throw .wipLimit(
            board: board.title, limit: limit, current: board.items.count, resulting: board.items.count + incoming)
    }

    /// Takes the items at `locations` (distinct) out of their boards.
    private mutating func removeItems(at locations: [Location]) {
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
