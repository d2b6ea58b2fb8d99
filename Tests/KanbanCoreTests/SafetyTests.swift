import Testing

@testable import KanbanCore

// The public API never traps on a value a caller can pass: stale locations, board indexes
// out of range, negative limits, an empty kanban. Each is refused with an error, and the
// kanban is left as it was.

@Suite("No traps on what a caller can pass")
struct SafetyTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case anEmptyKanbanRefusesEverythingThatNeedsABoard
        case staleLocationsAreRefused
        case boardIndexesOutOfRangeAreRefused
        case negativeLimitsAreRefused
        case aKanbanBuiltFromPartsIsChecked
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .anEmptyKanbanRefusesEverythingThatNeedsABoard: try anEmptyKanbanRefusesEverythingThatNeedsABoard()
        case .staleLocationsAreRefused: try staleLocationsAreRefused()
        case .boardIndexesOutOfRangeAreRefused: try boardIndexesOutOfRangeAreRefused()
        case .negativeLimitsAreRefused: try negativeLimitsAreRefused()
        case .aKanbanBuiltFromPartsIsChecked: try aKanbanBuiltFromPartsIsChecked()
        }
    }

    /// Runs `body` on a copy of `kanban` and expects it to throw and change nothing.
    func expectRefused(
        _ kanban: Kanban, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout Kanban) throws(KanbanError) -> Void
    ) {
        var copy = kanban
        #expect(throws: KanbanError.self, "\(what)", sourceLocation: sourceLocation) { try body(&copy) }
        expectTrue(copy == kanban, "\(what)", sourceLocation: sourceLocation)
    }

    static let badBoards = [-1, 3, Int.min, Int.max]
    static let staleLocations = [
        Location(board: 0, index: 2), Location(board: 0, index: -1), Location(board: 2, index: 0),
        Location(board: 3, index: 0), Location(board: -1, index: 0), Location(board: Int.max, index: Int.min),
    ]

    func anEmptyKanbanRefusesEverythingThatNeedsABoard() throws {
        let empty = try Kanban(boards: [])
        var generator = SeededGenerator(seed: 1)
        expectRefused(empty, "moveBoard") { (k) throws(KanbanError) in try k.moveBoard(0, to: 0) }
        expectRefused(empty, "renameBoard") { (k) throws(KanbanError) in try k.renameBoard(0, to: Title("x")) }
        expectRefused(empty, "setLimit") { (k) throws(KanbanError) in try k.setLimit(of: 0, to: 1) }
        expectRefused(empty, "removeBoard") { (k) throws(KanbanError) in try k.removeBoard(0, force: true) }
        expectRefused(empty, "insert") { (k) throws(KanbanError) in
            try k.insert([CardContent(title: Title("x"))], into: 0, using: &generator)
        }
        expectRefused(empty, "move") { (k) throws(KanbanError) in try k.move([], to: 0) }
        expectRefused(empty, "restore") { (k) throws(KanbanError) in try k.restore([0], now: Timestamp(seconds: 0)) }
        expectRefused(empty, "cards") { (k) throws(KanbanError) in _ = try k.cards(of: 0, enteredBefore: nil) }
        expectRefused(empty, "dropPosition") { (k) throws(KanbanError) in _ = try k.dropPosition(.top, in: 0) }
        #expect(throws: KanbanError.noBoards) { try empty.defaultBoard(nil) }
        expectTrue(empty.candidate(at: Location(board: 0, index: 0)) == nil)
        expectTrue(empty.archivedCandidate(at: 0) == nil)
        expectTrue(empty.keepingBoards(at: [0, -1]).boards.isEmpty)
        expectTrue(empty.newIDs(count: -3, using: &generator).isEmpty)
        try expectEqual(empty.locate([]), [])
        #expect(throws: KanbanError.self) { try empty.locate("x", within: 5) }
        var kanban = empty
        try kanban.addBoard(Title("First"), at: 0)
        expectEqual(kanban.boards.count, 1)
    }

    func staleLocationsAreRefused() throws {
        let kanban = try makeKanban(counts: [2, 1, 0])
        var generator = SeededGenerator(seed: 2)
        let good = Location(board: 0, index: 0)
        for stale in Self.staleLocations {
            let what = "\(stale)"
            expectTrue(kanban.candidate(at: stale) == nil, "\(what)")
            expectTrue(!kanban.contains(stale), "\(what)")
            expectRefused(kanban, "move \(what)") { (k) throws(KanbanError) in try k.move([good, stale], to: 1) }
            expectRefused(kanban, "copy \(what)") { (k) throws(KanbanError) in
                try k.copy([stale], to: 1, using: &generator)
            }
            expectRefused(kanban, "remove \(what)") { (k) throws(KanbanError) in try k.remove([good, stale]) }
            expectRefused(kanban, "rename \(what)") { (k) throws(KanbanError) in try k.rename(stale, to: Title("x")) }
            expectRefused(kanban, "edit \(what)") { (k) throws(KanbanError) in try k.edit(stale, CardEdits()) }
            expectRefused(kanban, "archive \(what)") { (k) throws(KanbanError) in
                try k.archive([good, stale], now: Timestamp(seconds: 0))
            }
            for position in [DropPosition.before(stale), .after(stale)] {
                expectRefused(kanban, "move to \(position)") { (k) throws(KanbanError) in
                    try k.move([good], to: 0, at: position)
                }
                expectRefused(kanban, "insert at \(position)") { (k) throws(KanbanError) in
                    try k.insert([CardContent(title: Title("x"))], into: 0, at: position, using: &generator)
                }
            }
        }
    }

    func boardIndexesOutOfRangeAreRefused() throws {
        let kanban = try makeKanban(counts: [2, 1, 0])
        var generator = SeededGenerator(seed: 3)
        let card = Location(board: 0, index: 0)
        for board in Self.badBoards {
            expectRefused(kanban, "move to \(board)") { (k) throws(KanbanError) in try k.move([card], to: board) }
            expectRefused(kanban, "copy to \(board)") { (k) throws(KanbanError) in
                try k.copy([card], to: board, using: &generator)
            }
            expectRefused(kanban, "insert into \(board)") { (k) throws(KanbanError) in
                try k.insert([CardContent(title: Title("x"))], into: board, using: &generator)
            }
            expectRefused(kanban, "moveBoard \(board)") { (k) throws(KanbanError) in try k.moveBoard(board, to: 0) }
            expectRefused(kanban, "moveBoard to \(board)") { (k) throws(KanbanError) in try k.moveBoard(0, to: board) }
            expectRefused(kanban, "addBoard at \(board)") { (k) throws(KanbanError) in
                try k.addBoard(Title("New"), at: board == 3 ? 4 : board)
            }
            expectRefused(kanban, "renameBoard \(board)") { (k) throws(KanbanError) in
                try k.renameBoard(board, to: Title("x"))
            }
            expectRefused(kanban, "setLimit \(board)") { (k) throws(KanbanError) in try k.setLimit(of: board, to: 1) }
            expectRefused(kanban, "removeBoard \(board)") { (k) throws(KanbanError) in
                try k.removeBoard(board, force: true)
            }
            expectRefused(kanban, "cards of \(board)") { (k) throws(KanbanError) in
                _ = try k.cards(of: board, enteredBefore: nil)
            }
            // Anchors are looked up in the board, and one found elsewhere would be named with it.
            for position in [Position.before("Card a0"), .after("a1"), .top, .at(0), nil] {
                expectRefused(kanban, "dropPosition \(String(describing: position)) in \(board)") {
                    (k) throws(KanbanError) in
                    _ = try k.dropPosition(position, in: board)
                }
            }
        }
        var archived = kanban
        try archived.archive([card], now: Timestamp(seconds: 0))
        for board in Self.badBoards {
            expectRefused(archived, "restore to \(board)") { (k) throws(KanbanError) in
                try k.restore([0], to: board, now: Timestamp(seconds: 0))
            }
        }
        expectEqual(kanban.keepingBoards(at: [Int.min, 2, 9, 0]).boards.map(\.title), ["Done", "Todo"])
        expectTrue(kanban.boardIndex(id: ItemID("nope")!) == nil)
    }

    func negativeLimitsAreRefused() throws {
        let kanban = try makeKanban(counts: [1])
        for limit in [-1, Int.min] {
            expectRefused(kanban, "addBoard limit \(limit)") { (k) throws(KanbanError) in
                try k.addBoard(Title("New"), limit: limit)
            }
            expectRefused(kanban, "setLimit \(limit)") { (k) throws(KanbanError) in try k.setLimit(of: 0, to: limit) }
            #expect(
                throws: KanbanError.invalidValue(kind: .limit, value: String(limit), reason: "a limit is 0 or more")
            ) { try Kanban(boards: [Board(title: "T", limit: limit)]) }
        }
        try expectEqual(Kanban(boards: [Board(title: "T", limit: 0)]).boards[0].limit, 0)
    }

    func aKanbanBuiltFromPartsIsChecked() throws {
        let item = Item(id: ItemID("a1")!, title: "x")
        #expect(throws: KanbanError.self) { try Kanban(boards: [Board(title: " \t")]) }
        #expect(throws: KanbanError.self) {
            try Kanban(boards: [Board(title: "T", items: [Item(id: ItemID("a2")!, title: "")])])
        }
        #expect(throws: KanbanError.self) {
            try Kanban(boards: [Board(title: "T", items: [Item(id: ItemID("a2")!, title: "x", note: "\u{1B}")])])
        }
        #expect(throws: KanbanError.duplicateID(ItemID("a1")!)) {
            try Kanban(boards: [Board(id: ItemID("a1")!, title: "T", items: [item])])
        }
        #expect(throws: KanbanError.duplicateID(ItemID("a1")!)) {
            try Kanban(
                boards: [Board(title: "T", items: [item])],
                archive: [ArchivedItem(item: item, board: ItemID("b")!, archived: Timestamp(seconds: 0))])
        }
        #expect(throws: KanbanError.self) {
            try Kanban(
                boards: [],
                archive: [
                    ArchivedItem(
                        item: Item(id: ItemID("a1")!, title: ""), board: ItemID("b")!, archived: Timestamp(seconds: 0))
                ])
        }
    }
}
