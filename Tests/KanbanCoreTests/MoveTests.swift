import Testing

@testable import KanbanCore

@Suite("Moving items, checked against the reference model")
struct MoveTests {
    /// Every single move on every kanban of three boards with 0 to 4 items: every source,
    /// every destination, every index in and just out of range, both ends, and every item
    /// of the kanban as a `before`/`after` anchor.
    @Test(arguments: smallShapes)
    func everySingleMoveMatchesTheReference(shape: Shape) throws {
        let kanban = try makeKanban(counts: shape.counts)
        let locations = allLocations(kanban)
        for source in locations {
            for destination in kanban.boards.indices {
                let remaining = kanban.boards[destination].items.count - (source.board == destination ? 1 : 0)
                var positions: [DropPosition] = [.top, .bottom, .index(Int.min), .index(Int.max)]
                positions += (-1...(remaining + 2)).map(DropPosition.index)
                positions += locations.flatMap { [DropPosition.before($0), .after($0)] }
                for position in positions {
                    try checkMove(kanban, [source], to: destination, at: position)
                }
            }
        }
    }

    /// The same, with the moved item selected twice: `move` takes it once.
    @Test(arguments: [Shape([2, 0, 1]), Shape([3, 3, 0]), Shape([1, 4, 2])])
    func aLocationSelectedTwiceMovesOnce(shape: Shape) throws {
        let kanban = try makeKanban(counts: shape.counts)
        for source in allLocations(kanban) {
            for destination in kanban.boards.indices {
                for index in -1...(kanban.boards[destination].items.count + 1) {
                    try checkMove(kanban, [source, source], to: destination, at: .index(index))
                }
            }
        }
    }

    @Test func outOfRangeIndexReportsTheValidRangeAfterRemoval() throws {
        var kanban = try makeKanban(counts: [4, 2])
        let before = kanban
        // Todo holds 4; with one of them taken out, 0...3 is valid.
        #expect(throws: KanbanError.indexOutOfRange(index: 4, board: "Todo", range: 0...3)) {
            try kanban.move([Location(board: 0, index: 1)], to: 0, at: .index(4))
        }
        // From another board nothing is taken out of Todo, so 4 is valid and 5 is not.
        #expect(throws: KanbanError.indexOutOfRange(index: 5, board: "Todo", range: 0...4)) {
            try kanban.move([Location(board: 1, index: 0)], to: 0, at: .index(5))
        }
        #expect(throws: KanbanError.indexOutOfRange(index: -1, board: "Todo", range: 0...4)) {
            try kanban.move([Location(board: 1, index: 0)], to: 0, at: .index(-1))
        }
        #expect(kanban == before)
    }

    @Test func theDocumentedExampleMovesTheFirstCardToIndexTwo() throws {
        var kanban = try makeKanban([["A", "B", "C", "D"], []])
        try kanban.move([Location(board: 0, index: 0)], to: 0, at: .index(2))
        #expect(layout(kanban) == [["B", "C", "A", "D"], []])
        try kanban.move([Location(board: 0, index: 0), Location(board: 0, index: 1)], to: 1)
        #expect(layout(kanban) == [["A", "D"], ["B", "C"]])
    }

    @Test func movingAnItemToWhereItIsChangesNothingAndIsNotEffective() throws {
        let kanban = try makeKanban(counts: [3, 1])
        for location in allLocations(kanban) {
            let board = location.board
            let count = kanban.boards[board].items.count
            let item = kanban[location]
            var samePlace: [DropPosition] = [.index(location.index)]
            if location.index == 0 { samePlace.append(.top) }
            if location.index == count - 1 { samePlace.append(.bottom) }
            if location.index > 0 { samePlace.append(.after(Location(board: board, index: location.index - 1))) }
            if location.index < count - 1 {
                samePlace.append(.before(Location(board: board, index: location.index + 1)))
            }
            for position in samePlace {
                var after = kanban
                let change = try after.move([location], to: board, at: position)
                #expect(after == kanban)
                #expect(!change.isEffective)
                #expect(
                    change.items == [
                        ItemChange(
                            id: item.id, title: item.title, from: slot(kanban, location), to: slot(kanban, location))
                    ])
            }
        }
    }

    @Test func aRealMoveIsEffective() throws {
        var kanban = try makeKanban(counts: [3, 1])
        let change = try kanban.move([Location(board: 0, index: 0)], to: 0, at: .index(1))
        #expect(change.isEffective)
        #expect(change.items.map(\.to) == [Slot(board: "Todo", index: 1)])
    }

    @Test func movingNothingChangesNothing() throws {
        var kanban = try makeKanban(counts: [2, 2], limits: [nil, 2])
        let change = try kanban.move([], to: 1)
        #expect(change.items.isEmpty)
        #expect(!change.isEffective)
        #expect(kanban == (try makeKanban(counts: [2, 2], limits: [nil, 2])))
    }

    @Test func anAnchorThatIsMovedIsRefused() throws {
        var kanban = try makeKanban(counts: [3])
        let before = kanban
        let anchor = Location(board: 0, index: 1)
        #expect(throws: KanbanError.anchorIsMoved(anchor: candidate(kanban, anchor))) {
            try kanban.move([Location(board: 0, index: 0), anchor], to: 0, at: .after(anchor))
        }
        #expect(kanban == before)
    }

    @Test func anAnchorInAnotherBoardIsRefused() throws {
        var kanban = try makeKanban(counts: [2, 2])
        let before = kanban
        let anchor = Location(board: 1, index: 1)
        #expect(throws: KanbanError.anchorNotInBoard(anchor: candidate(kanban, anchor), board: "Todo")) {
            try kanban.move([Location(board: 1, index: 0)], to: 0, at: .before(anchor))
        }
        #expect(kanban == before)
    }
}
