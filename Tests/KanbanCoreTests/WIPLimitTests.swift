import Testing

@testable import KanbanCore

@Suite("WIP limits")
struct WIPLimitTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aFullBoardRefusesAnInsert
        case aFullBoardRefusesACopyFromAnotherBoardOrItself
        case aFullBoardRefusesAMoveFromAnotherBoard
        case reorderingInsideAFullBoardIsAllowed
        case movingOutOfAFullBoardIsAllowed
        case aSwapThroughAFullBoardNeedsOnlyTheIncomingCount
        case forceOverridesTheLimit
        case aCommandThatWouldPassTheLimitIsRefusedWhole
        case aLimitOfZeroRefusesEverythingIncoming
        case aBoardOverItsLimitStillAllowsReorderingAndLeaving
        case addingNothingToAFullBoardIsAllowed
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aFullBoardRefusesAnInsert: try aFullBoardRefusesAnInsert()
        case .aFullBoardRefusesACopyFromAnotherBoardOrItself: try aFullBoardRefusesACopyFromAnotherBoardOrItself()
        case .aFullBoardRefusesAMoveFromAnotherBoard: try aFullBoardRefusesAMoveFromAnotherBoard()
        case .reorderingInsideAFullBoardIsAllowed: try reorderingInsideAFullBoardIsAllowed()
        case .movingOutOfAFullBoardIsAllowed: try movingOutOfAFullBoardIsAllowed()
        case .aSwapThroughAFullBoardNeedsOnlyTheIncomingCount: try aSwapThroughAFullBoardNeedsOnlyTheIncomingCount()
        case .forceOverridesTheLimit: try forceOverridesTheLimit()
        case .aCommandThatWouldPassTheLimitIsRefusedWhole: try aCommandThatWouldPassTheLimitIsRefusedWhole()
        case .aLimitOfZeroRefusesEverythingIncoming: try aLimitOfZeroRefusesEverythingIncoming()
        case .aBoardOverItsLimitStillAllowsReorderingAndLeaving: try aBoardOverItsLimitStillAllowsReorderingAndLeaving()
        case .addingNothingToAFullBoardIsAllowed: try addingNothingToAFullBoardIsAllowed()
        }
    }

    /// Todo holds 3 items (no limit), Doing is at its limit of 2.
    func fullDoing() throws -> Kanban {
        try makeKanban(counts: [3, 2], limits: [nil, 2])
    }

    func aFullBoardRefusesAnInsert() throws {
        var kanban = try fullDoing()
        var generator = SeededGenerator(seed: 1)
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 2, resulting: 3)) {
            try kanban.insert([Title("New")], into: 1, using: &generator)
        }
        expectEqual(kanban, (try fullDoing()))
    }

    func aFullBoardRefusesACopyFromAnotherBoardOrItself() throws {
        var kanban = try fullDoing()
        var generator = SeededGenerator(seed: 1)
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 2, resulting: 3)) {
            try kanban.copy([Location(board: 0, index: 0)], to: 1, using: &generator)
        }
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 2, resulting: 3)) {
            try kanban.copy([Location(board: 1, index: 0)], to: 1, using: &generator)
        }
        expectEqual(kanban, (try fullDoing()))
    }

    func aFullBoardRefusesAMoveFromAnotherBoard() throws {
        var kanban = try fullDoing()
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 2, resulting: 4)) {
            try kanban.move([Location(board: 0, index: 0), Location(board: 0, index: 2)], to: 1, at: .top)
        }
        expectEqual(kanban, (try fullDoing()))
    }

    func reorderingInsideAFullBoardIsAllowed() throws {
        var kanban = try fullDoing()
        try kanban.move([Location(board: 1, index: 1)], to: 1, at: .top)
        expectEqual(layout(kanban), [["a0", "a1", "a2"], ["b1", "b0"]])
    }

    func movingOutOfAFullBoardIsAllowed() throws {
        var kanban = try fullDoing()
        try kanban.move([Location(board: 1, index: 0)], to: 0)
        expectEqual(layout(kanban), [["a0", "a1", "a2", "b0"], ["b1"]])
        // With room again, one item may come in.
        try kanban.move([Location(board: 0, index: 0)], to: 1)
        expectEqual(layout(kanban), [["a1", "a2", "b0"], ["b1", "a0"]])
    }

    func aSwapThroughAFullBoardNeedsOnlyTheIncomingCount() throws {
        // One item in from Todo and one reordered inside Doing: only the one from Todo counts.
        var kanban = try makeKanban(counts: [1, 1], limits: [nil, 2])
        try kanban.move([Location(board: 1, index: 0), Location(board: 0, index: 0)], to: 1)
        expectEqual(layout(kanban), [[], ["b0", "a0"]])
    }

    func forceOverridesTheLimit() throws {
        var kanban = try fullDoing()
        var generator = SeededGenerator(seed: 1)
        try kanban.insert([Title("New")], into: 1, force: true, using: &generator)
        try kanban.copy([Location(board: 0, index: 0)], to: 1, force: true, using: &generator)
        try kanban.move([Location(board: 0, index: 1)], to: 1, force: true)
        expectEqual(kanban.boards[1].items.count, 5)
        expectEqual(kanban.boards[1].limit, 2)
    }

    func aCommandThatWouldPassTheLimitIsRefusedWhole() throws {
        var kanban = try makeKanban(counts: [3, 0], limits: [nil, 2])
        let before = kanban
        var generator = SeededGenerator(seed: 1)
        let all = allLocations(kanban)
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 0, resulting: 3)) {
            try kanban.move(all, to: 1)
        }
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 0, resulting: 3)) {
            try kanban.copy(all, to: 1, using: &generator)
        }
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 0, resulting: 3)) {
            try kanban.insert([Title("x"), Title("y"), Title("z")], into: 1, using: &generator)
        }
        expectEqual(kanban, before)
        // Exactly up to the limit is fine.
        try kanban.move(Array(all.prefix(2)), to: 1)
        expectEqual(kanban.boards[1].items.count, 2)
    }

    func aLimitOfZeroRefusesEverythingIncoming() throws {
        var kanban = try makeKanban(counts: [1, 0], limits: [nil, 0])
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 0, current: 0, resulting: 1)) {
            try kanban.move([Location(board: 0, index: 0)], to: 1)
        }
    }

    func aBoardOverItsLimitStillAllowsReorderingAndLeaving() throws {
        var kanban = try makeKanban(counts: [1, 3])
        try kanban.setLimit(of: 1, to: 1)
        try kanban.move([Location(board: 1, index: 2)], to: 1, at: .index(0))
        expectEqual(layout(kanban)[1], ["b2", "b0", "b1"])
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 1, current: 3, resulting: 4)) {
            try kanban.move([Location(board: 0, index: 0)], to: 1)
        }
        try kanban.move([Location(board: 1, index: 0), Location(board: 1, index: 1)], to: 0)
        expectEqual(layout(kanban), [["a0", "b2", "b0"], ["b1"]])
    }

    func addingNothingToAFullBoardIsAllowed() throws {
        var kanban = try fullDoing()
        var generator = SeededGenerator(seed: 1)
        let change = try kanban.insert([CardContent](), into: 1, using: &generator)
        expectTrue(!change.isEffective)
        expectEqual(kanban, (try fullDoing()))
    }

    /// Every combination of a destination's count and limit with items coming from
    /// another board and from the destination itself, compared with the reference rule:
    /// refused iff `!force && incoming > 0 && count + incoming > limit`.
    @Test(arguments: [nil, 0, 1, 2, 3, 4] as [Int?], [false, true])
    func limitsMatchTheReferenceRule(limit: Int?, force: Bool) throws {
        for count in 0...3 {
            for fromOther in 0...3 {
                for fromSame in 0...count {
                    let kanban = try makeKanban(counts: [3, count], limits: [nil, limit])
                    let selection =
                        (0..<fromOther).map { Location(board: 0, index: $0) }
                        + (0..<fromSame).map { Location(board: 1, index: $0) }
                    let seed = UInt64(count * 100 + fromOther * 10 + fromSame)
                    for position in [DropPosition.top, .bottom, .index(0)] {
                        try checkMove(kanban, selection, to: 1, at: position, force: force)
                        try checkCopy(kanban, selection, to: 1, at: position, force: force, seed: seed)
                        let cards = try (0..<fromOther).map { CardContent(title: try Title("New \($0)")) }
                        try checkInsert(kanban, cards, into: 1, at: position, force: force, seed: seed)
                    }
                    // The rule itself, spelled out once more independently of the checks above.
                    var after = kanban
                    let refused = !force && fromOther > 0 && limit.map { count + fromOther > $0 } == true
                    let thrown: KanbanError?
                    do {
                        try after.move(selection, to: 1, force: force)
                        thrown = nil
                    } catch {
                        thrown = error
                    }
                    expectTrue(
                        (thrown != nil) == refused,
                        "count \(count), limit \(String(describing: limit)), in \(fromOther)")
                }
            }
        }
    }
}
