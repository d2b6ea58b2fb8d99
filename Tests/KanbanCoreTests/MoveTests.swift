import Testing

@testable import KanbanCore

@Suite("Moving items, checked against the reference model")
struct MoveTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case outOfRangeIndexReportsTheValidRangeAfterRemoval
        case negativeIndexesCountFromTheBottom
        case theDocumentedExampleMovesTheFirstCardToIndexTwo
        case movingAnItemToWhereItIsChangesNothingAndIsNotEffective
        case aRealMoveIsEffective
        case movingNothingChangesNothing
        case anAnchorThatIsMovedIsRefused
        case anAnchorInAnotherBoardIsRefused
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .outOfRangeIndexReportsTheValidRangeAfterRemoval: try outOfRangeIndexReportsTheValidRangeAfterRemoval()
        case .negativeIndexesCountFromTheBottom: try negativeIndexesCountFromTheBottom()
        case .theDocumentedExampleMovesTheFirstCardToIndexTwo: try theDocumentedExampleMovesTheFirstCardToIndexTwo()
        case .movingAnItemToWhereItIsChangesNothingAndIsNotEffective:
            try movingAnItemToWhereItIsChangesNothingAndIsNotEffective()
        case .aRealMoveIsEffective: try aRealMoveIsEffective()
        case .movingNothingChangesNothing: try movingNothingChangesNothing()
        case .anAnchorThatIsMovedIsRefused: try anAnchorThatIsMovedIsRefused()
        case .anAnchorInAnotherBoardIsRefused: try anAnchorInAnotherBoardIsRefused()
        }
    }

    /// Every single move on every kanban of three boards with 0 to 4 items: every source,
    /// every destination, every index in range and one past it at both ends (negative ones
    /// counting from the bottom), the extremes, both ends, and every item of the kanban as a
    /// `before`/`after` anchor.
    @Test(arguments: smallShapes)
    func everySingleMoveMatchesTheReference(shape: Shape) throws {
        let kanban = try makeKanban(counts: shape.counts)
        let fixture = Fixture(kanban)
        let locations = allLocations(kanban)
        for source in locations {
            for destination in kanban.boards.indices {
                let remaining = kanban.boards[destination].items.count - (source.board == destination ? 1 : 0)
                var positions: [DropPosition] = [.top, .bottom, .index(Int.min), .index(Int.max)]
                positions += (-(remaining + 2)...(remaining + 1)).map(DropPosition.index)
                positions += locations.flatMap { [DropPosition.before($0), .after($0)] }
                for position in positions {
                    try checkMove(fixture, [source], to: destination, at: position)
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
                let count = kanban.boards[destination].items.count
                for index in -(count + 2)...(count + 1) {
                    try checkMove(kanban, [source, source], to: destination, at: .index(index))
                }
            }
        }
    }

    func outOfRangeIndexReportsTheValidRangeAfterRemoval() throws {
        var kanban = try makeKanban(counts: [4, 2])
        let before = kanban
        // Todo holds 4; with one of them taken out, 3 are left: 0...3 from the top, -1...-4
        // from the bottom.
        #expect(throws: KanbanError.indexOutOfRange(index: 4, board: "Todo", range: -4...3)) {
            try kanban.move([Location(board: 0, index: 1)], to: 0, at: .index(4))
        }
        #expect(throws: KanbanError.indexOutOfRange(index: -5, board: "Todo", range: -4...3)) {
            try kanban.move([Location(board: 0, index: 1)], to: 0, at: .index(-5))
        }
        // From another board nothing is taken out of Todo, so 4 and -5 are valid, 5 and -6 not.
        #expect(throws: KanbanError.indexOutOfRange(index: 5, board: "Todo", range: -5...4)) {
            try kanban.move([Location(board: 1, index: 0)], to: 0, at: .index(5))
        }
        #expect(throws: KanbanError.indexOutOfRange(index: -6, board: "Todo", range: -5...4)) {
            try kanban.move([Location(board: 1, index: 0)], to: 0, at: .index(-6))
        }
        #expect(throws: KanbanError.indexOutOfRange(index: Int.min, board: "Todo", range: -5...4)) {
            try kanban.move([Location(board: 1, index: 0)], to: 0, at: .index(Int.min))
        }
        expectEqual(kanban, before)
    }

    /// SPEC §2's examples: `--at -1` is the bottom, `--at -2` just above the last item.
    func negativeIndexesCountFromTheBottom() throws {
        var kanban = try makeKanban([["A", "B", "C", "D"], ["X"]])
        try kanban.move([Location(board: 1, index: 0)], to: 0, at: .index(-1))
        expectEqual(layout(kanban), [["A", "B", "C", "D", "X"], []])
        try kanban.move([Location(board: 0, index: 4)], to: 1)
        try kanban.move([Location(board: 1, index: 0)], to: 0, at: .index(-2))
        expectEqual(layout(kanban), [["A", "B", "C", "X", "D"], []])
        // Counted after the moved item is taken out: A to -1 goes below D.
        try kanban.move([Location(board: 0, index: 0)], to: 0, at: .index(-1))
        expectEqual(layout(kanban), [["B", "C", "X", "D", "A"], []])
        // -(count + 1) is the top.
        try kanban.move([Location(board: 0, index: 4)], to: 0, at: .index(-5))
        expectEqual(layout(kanban), [["A", "B", "C", "X", "D"], []])
        var generator = SeededGenerator(seed: 1)
        try kanban.insert([Title("Y")], into: 1, at: .index(-1), using: &generator)
        try kanban.insert([Title("Z")], into: 1, at: .index(-2), using: &generator)
        expectEqual(kanban.boards[1].items.map(\.title), ["Z", "Y"])
        try kanban.copy([Location(board: 0, index: 0)], to: 0, at: .index(-2), using: &generator)
        expectEqual(kanban.boards[0].items.map(\.title), ["Card A", "Card B", "Card C", "Card X", "Card A", "Card D"])
    }

    func theDocumentedExampleMovesTheFirstCardToIndexTwo() throws {
        var kanban = try makeKanban([["A", "B", "C", "D"], []])
        try kanban.move([Location(board: 0, index: 0)], to: 0, at: .index(2))
        expectEqual(layout(kanban), [["B", "C", "A", "D"], []])
        try kanban.move([Location(board: 0, index: 0), Location(board: 0, index: 1)], to: 1)
        expectEqual(layout(kanban), [["A", "D"], ["B", "C"]])
    }

    func movingAnItemToWhereItIsChangesNothingAndIsNotEffective() throws {
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
                expectEqual(after, kanban)
                expectTrue(!change.isEffective)
                expectTrue(
                    change.items == [
                        ItemChange(
                            id: item.id, title: item.title, from: slot(kanban, location), to: slot(kanban, location))
                    ])
            }
        }
    }

    func aRealMoveIsEffective() throws {
        var kanban = try makeKanban(counts: [3, 1])
        let change = try kanban.move([Location(board: 0, index: 0)], to: 0, at: .index(1))
        expectTrue(change.isEffective)
        expectEqual(change.items.map(\.to), [Slot(board: "Todo", index: 1)])
    }

    func movingNothingChangesNothing() throws {
        var kanban = try makeKanban(counts: [2, 2], limits: [nil, 2])
        let change = try kanban.move([], to: 1)
        expectTrue(change.items.isEmpty)
        expectTrue(!change.isEffective)
        expectEqual(kanban, (try makeKanban(counts: [2, 2], limits: [nil, 2])))
    }

    func anAnchorThatIsMovedIsRefused() throws {
        var kanban = try makeKanban(counts: [3])
        let before = kanban
        let anchor = Location(board: 0, index: 1)
        #expect(throws: KanbanError.anchorIsMoved(anchor: candidate(kanban, anchor))) {
            try kanban.move([Location(board: 0, index: 0), anchor], to: 0, at: .after(anchor))
        }
        expectEqual(kanban, before)
    }

    func anAnchorInAnotherBoardIsRefused() throws {
        var kanban = try makeKanban(counts: [2, 2])
        let before = kanban
        let anchor = Location(board: 1, index: 1)
        #expect(throws: KanbanError.anchorNotInBoard(anchor: candidate(kanban, anchor), board: "Todo")) {
            try kanban.move([Location(board: 1, index: 0)], to: 0, at: .before(anchor))
        }
        expectEqual(kanban, before)
    }
}
