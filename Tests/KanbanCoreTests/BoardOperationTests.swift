import Testing

@testable import KanbanCore

@Suite("Board operations")
struct BoardOperationTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case renameBoardChangesOnlyTheTitle
        case renamingABoardsCaseOnlyIsAllowed
        case renamingABoardToItsOwnTitleIsNotEffective
        case renamingABoardToAnotherBoardsTitleInAnyCaseIsRefused
        case removingAnEmptyBoardNeedsNoForce
        case removingABoardWithItemsNeedsForce
        case aRemovedBoardsTitleCanBeUsedAgain
        case aKanbanRefusesDuplicateBoardTitlesAndItemIDs
        case theSampleIsTheTutorialsData
        case keepingBoardsKeepsEachOnceInTheOrderAsked
        case isFullMeansAtOrOverTheLimit
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .renameBoardChangesOnlyTheTitle: try renameBoardChangesOnlyTheTitle()
        case .renamingABoardsCaseOnlyIsAllowed: try renamingABoardsCaseOnlyIsAllowed()
        case .renamingABoardToItsOwnTitleIsNotEffective: try renamingABoardToItsOwnTitleIsNotEffective()
        case .renamingABoardToAnotherBoardsTitleInAnyCaseIsRefused:
            try renamingABoardToAnotherBoardsTitleInAnyCaseIsRefused()
        case .removingAnEmptyBoardNeedsNoForce: try removingAnEmptyBoardNeedsNoForce()
        case .removingABoardWithItemsNeedsForce: try removingABoardWithItemsNeedsForce()
        case .aRemovedBoardsTitleCanBeUsedAgain: try aRemovedBoardsTitleCanBeUsedAgain()
        case .aKanbanRefusesDuplicateBoardTitlesAndItemIDs: try aKanbanRefusesDuplicateBoardTitlesAndItemIDs()
        case .theSampleIsTheTutorialsData: try theSampleIsTheTutorialsData()
        case .keepingBoardsKeepsEachOnceInTheOrderAsked: try keepingBoardsKeepsEachOnceInTheOrderAsked()
        case .isFullMeansAtOrOverTheLimit: isFullMeansAtOrOverTheLimit()
        }
    }

    /// Boards as the reference sees them: title, limit and item ids.
    struct BoardSketch: Equatable {
        var title: String
        var limit: Int?
        var ids: [String]
    }

    func sketch(_ kanban: Kanban) -> [BoardSketch] {
        kanban.boards.map { BoardSketch(title: $0.title, limit: $0.limit, ids: $0.items.map(\.id.rawValue)) }
    }

    // MARK: - Add

    @Test(arguments: 0...3)
    func addBoardInsertsAnEmptyBoardAtEveryValidIndexAndRefusesOthers(count: Int) throws {
        let kanban = try makeKanban(counts: Array(repeating: 1, count: count))
        for index in [nil, Int.min, -1] + (0...(count + 2)).map(Optional.some) {
            var after = kanban
            let limit: Int? = (index ?? 0) % 2 == 0 ? 2 : nil
            let title = try Title(" New ")
            let result = Result { () throws(KanbanError) in try after.addBoard(title, at: index, limit: limit) }
            switch result {
            case .success(let change):
                let landing = index ?? count
                try require((0...count).contains(landing), "added at \(String(describing: index))")
                var expected = sketch(kanban)
                expected.insert(BoardSketch(title: "New", limit: limit, ids: []), at: landing)
                expectEqual(sketch(after), expected)
                expectEqual(change.boards, [BoardChange(title: "New", from: nil, to: landing, limit: limit)])
                expectTrue(change.items.isEmpty)
                expectTrue(change.isEffective)
            case .failure(let error):
                let index = try require(index)
                expectTrue(!(0...count).contains(index))
                expectEqual(error, .boardIndexOutOfRange(index: index, range: 0...count))
                expectEqual(after, kanban)
            }
        }
    }

    @Test(arguments: ["Todo", "todo", "TODO", "  tOdO  ", "Done", "DONE"])
    func addBoardRefusesATitleThatDiffersOnlyInCase(title: String) throws {
        var kanban = try makeKanban([[], [], []], titles: ["Todo", "Doing", "Done"])
        let before = kanban
        let existing = title.lowercased().contains("todo") ? "Todo" : "Done"
        #expect(throws: KanbanError.duplicateBoard(title: try Title(title).text, existing: existing)) {
            try kanban.addBoard(Title(title))
        }
        expectEqual(kanban, before)
    }

    // MARK: - Rename

    func renameBoardChangesOnlyTheTitle() throws {
        var kanban = try makeKanban(counts: [1, 2], limits: [nil, 3])
        let change = try kanban.renameBoard(1, to: Title("In Progress"))
        expectEqual(kanban.boards.map(\.title), ["Todo", "In Progress"])
        expectEqual(kanban.boards[1].limit, 3)
        expectEqual(layout(kanban), idLayout(counts: [1, 2]))
        expectTrue(
            change.boards == [
                BoardChange(title: "In Progress", from: 1, to: 1, limit: 3, previousTitle: "Doing")
            ])
        expectTrue(change.isEffective)
    }

    func renamingABoardsCaseOnlyIsAllowed() throws {
        var kanban = try makeKanban(counts: [0, 0])
        let change = try kanban.renameBoard(0, to: Title("TODO"))
        expectEqual(kanban.boards.map(\.title), ["TODO", "Doing"])
        expectTrue(change.isEffective)
    }

    func renamingABoardToItsOwnTitleIsNotEffective() throws {
        var kanban = try makeKanban(counts: [0, 0])
        let change = try kanban.renameBoard(1, to: Title("Doing"))
        expectEqual(kanban, (try makeKanban(counts: [0, 0])))
        expectTrue(!change.isEffective)
    }

    func renamingABoardToAnotherBoardsTitleInAnyCaseIsRefused() throws {
        let kanban = try makeKanban(counts: [1, 1, 1])
        for board in kanban.boards.indices {
            for other in kanban.boards.indices where other != board {
                for title in [kanban.boards[other].title, kanban.boards[other].title.uppercased()] {
                    var after = kanban
                    #expect(throws: KanbanError.duplicateBoard(title: title, existing: kanban.boards[other].title)) {
                        try after.renameBoard(board, to: Title(title))
                    }
                    expectEqual(after, kanban)
                }
            }
        }
    }

    // MARK: - Move

    @Test(arguments: 1...4)
    func moveBoardMatchesRemoveThenInsertForEveryPair(count: Int) throws {
        let kanban = try makeKanban(counts: Array(1...count), limits: Array(0..<count))
        for board in 0..<count {
            for index in -1...count {
                var after = kanban
                if (0..<count).contains(index) {
                    let change = try after.moveBoard(board, to: index)
                    var expected = sketch(kanban)
                    expected.insert(expected.remove(at: board), at: index)
                    expectEqual(sketch(after), expected)
                    expectTrue(
                        change.boards == [
                            BoardChange(title: kanban.boards[board].title, from: board, to: index, limit: board)
                        ])
                    expectEqual(change.isEffective, (board != index))
                    expectEqual(change.isEffective, (after != kanban))
                } else {
                    #expect(throws: KanbanError.boardIndexOutOfRange(index: index, range: 0...(count - 1))) {
                        try after.moveBoard(board, to: index)
                    }
                    expectEqual(after, kanban)
                }
            }
        }
    }

    // MARK: - Limit

    @Test(arguments: [nil, 0, 1, 5] as [Int?], [nil, 0, 1, 5] as [Int?])
    func setLimitReportsTheLimitBeforeAndAfter(from: Int?, to: Int?) throws {
        var kanban = try makeKanban(counts: [2, 3], limits: [nil, from])
        let change = try kanban.setLimit(of: 1, to: to)
        expectEqual(kanban.boards[1].limit, to)
        expectTrue(kanban.boards[0].limit == nil)
        expectEqual(layout(kanban), idLayout(counts: [2, 3]))
        expectTrue(
            change.boards == [
                BoardChange(title: "Doing", from: 1, to: 1, limit: to, limitChange: LimitChange(from: from, to: to))
            ])
        expectEqual(change.isEffective, (from != to))
    }

    // MARK: - Remove

    func removingAnEmptyBoardNeedsNoForce() throws {
        var kanban = try makeKanban(counts: [1, 0, 1], limits: [nil, 4, nil])
        let change = try kanban.removeBoard(1)
        expectEqual(kanban.boards.map(\.title), ["Todo", "Done"])
        expectEqual(change.boards, [BoardChange(title: "Doing", from: 1, to: nil, limit: 4)])
        expectTrue(change.items.isEmpty)
        expectTrue(change.isEffective)
    }

    func removingABoardWithItemsNeedsForce() throws {
        var kanban = try makeKanban(counts: [1, 2, 1])
        let before = kanban
        #expect(throws: KanbanError.boardNotEmpty(board: "Doing", count: 2)) {
            try kanban.removeBoard(1)
        }
        expectEqual(kanban, before)
        let change = try kanban.removeBoard(1, force: true)
        expectEqual(layout(kanban), [["a0"], ["c0"]])
        expectEqual(kanban.boards.map(\.title), ["Todo", "Done"])
        expectEqual(change.items.map(\.id.rawValue), ["b0", "b1"])
        expectEqual(change.items.map(\.from), [Slot(board: "Doing", index: 0), Slot(board: "Doing", index: 1)])
        expectTrue(change.items.allSatisfy { $0.to == nil })
        expectEqual(change.boards.map(\.to), [nil])
    }

    @Test(arguments: 0...3)
    func removeBoardWithoutForceRefusesAnyBoardWithItems(count: Int) throws {
        let kanban = try makeKanban(counts: [1, count])
        for force in [false, true] {
            var after = kanban
            let result = Result { () throws(KanbanError) in try after.removeBoard(1, force: force) }
            if count > 0 && !force {
                #expect(throws: KanbanError.boardNotEmpty(board: "Doing", count: count)) { try result.get() }
                expectEqual(after, kanban)
            } else {
                let change = try result.get()
                expectEqual(layout(after), [["a0"]])
                expectEqual(change.items.count, count)
                expectTrue(change.isEffective)
            }
        }
    }

    func aRemovedBoardsTitleCanBeUsedAgain() throws {
        var kanban = try makeKanban(counts: [0, 0])
        try kanban.removeBoard(0)
        try kanban.addBoard(Title("todo"), at: 0)
        expectEqual(kanban.boards.map(\.title), ["todo", "Doing"])
    }

    // MARK: - Building kanbans

    func aKanbanRefusesDuplicateBoardTitlesAndItemIDs() throws {
        #expect(throws: KanbanError.duplicateBoard(title: "TODO", existing: "Todo")) {
            try Kanban(boards: [Board(title: "Todo"), Board(title: "TODO")])
        }
        let id = try require(ItemID("x1"))
        #expect(throws: KanbanError.duplicateID(id)) {
            try Kanban(boards: [
                Board(title: "A", items: [Item(id: id, title: "one")]),
                Board(title: "B", items: [Item(id: id, title: "two")]),
            ])
        }
        #expect(throws: KanbanError.duplicateBoard(title: "doing", existing: "Doing")) {
            try Kanban(boardTitles: [Title("Doing"), Title("doing")])
        }
    }

    func theSampleIsTheTutorialsData() throws {
        var generator = SeededGenerator(seed: 1)
        let sample = Kanban.sample(now: nil, using: &generator)
        expectEqual(sample.boards.map(\.title), ["Todo", "In Progress", "Done"])
        expectTrue(
            sample.boards.map { $0.items.map(\.title) } == [
                ["Database Migration", "Schema Design", "Storage Management", "Model Abstraction"],
                ["Push Notification", "Analytics", "Machine Learning"],
                ["System Architecture", "Alert & Debugging"],
            ])
        expectTrue(sample.boards.allSatisfy { $0.limit == nil })
        expectEqual(sample.itemCount, 9)
        #expect(throws: Never.self) { try sample.validate() }
        expectEqual(Kanban.defaultBoardTitles, ["Todo", "In Progress", "Done"])
    }

    func keepingBoardsKeepsEachOnceInTheOrderAsked() throws {
        let kanban = try makeKanban(counts: [1, 2, 3])
        let kept = kanban.keepingBoards(at: [2, 0, 2])
        expectEqual(kept.boards.map(\.title), ["Done", "Todo"])
        expectEqual(layout(kept), [["c0", "c1", "c2"], ["a0"]])
    }

    func isFullMeansAtOrOverTheLimit() {
        expectTrue(!Board(title: "a").isFull)
        expectTrue(Board(title: "a", limit: 0).isFull)
        let item = Item(id: ItemID("a1")!, title: "x")
        expectTrue(!Board(title: "a", limit: 2, items: [item]).isFull)
        expectTrue(Board(title: "a", limit: 1, items: [item]).isFull)
    }
}
