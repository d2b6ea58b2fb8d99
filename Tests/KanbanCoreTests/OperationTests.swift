import Testing

@testable import KanbanCore

// `Kanban.apply`: every `Operation` resolves its references against the kanban as it is,
// then makes the change the drop methods make; nothing changes when it throws.

@Suite("Operations")
struct OperationTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case addGivesEachNewCardTheContentsFieldsByName
        case addMakesCardsWithTheirContentOnTheNamedBoardOrTheFirst
        case addNeedsABoardAndRespectsTheLimit
        case moveResolvesEveryReferenceFirst
        case moveFindsTitlesInTheBoardItIsToldToLookIn
        case anAnchorOnAnotherBoardIsNamedWhereItIs
        case copyMakesNewCardsWithTheContent
        case removeAndRename
        case editResolvesTheDueDateAgainstToday
        case archiveCardsOrABoardsOldCards
        case restoreFindsArchivedCards
        case boardOperations
        case aRefusedOperationChangesNothing
        case operationsAreNamedAsTheirCommands
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .addGivesEachNewCardTheContentsFieldsByName: try addGivesEachNewCardTheContentsFieldsByName()
        case .addMakesCardsWithTheirContentOnTheNamedBoardOrTheFirst:
            try addMakesCardsWithTheirContentOnTheNamedBoardOrTheFirst()
        case .addNeedsABoardAndRespectsTheLimit: try addNeedsABoardAndRespectsTheLimit()
        case .moveResolvesEveryReferenceFirst: try moveResolvesEveryReferenceFirst()
        case .moveFindsTitlesInTheBoardItIsToldToLookIn: try moveFindsTitlesInTheBoardItIsToldToLookIn()
        case .anAnchorOnAnotherBoardIsNamedWhereItIs: try anAnchorOnAnotherBoardIsNamedWhereItIs()
        case .copyMakesNewCardsWithTheContent: try copyMakesNewCardsWithTheContent()
        case .removeAndRename: try removeAndRename()
        case .editResolvesTheDueDateAgainstToday: try editResolvesTheDueDateAgainstToday()
        case .archiveCardsOrABoardsOldCards: try archiveCardsOrABoardsOldCards()
        case .restoreFindsArchivedCards: try restoreFindsArchivedCards()
        case .boardOperations: try boardOperations()
        case .aRefusedOperationChangesNothing: try aRefusedOperationChangesNothing()
        case .operationsAreNamedAsTheirCommands: try operationsAreNamedAsTheirCommands()
        }
    }

    static let clock = Moment(
        now: Timestamp(rfc3339: "2026-11-23T10:00:00Z")!, today: Day(year: 2026, month: 11, day: 23)!)

    /// The tutorial's boards with readable ids; In Progress has a limit of 3 (it is full),
    /// and a card from Done is archived.
    static func kanban() throws -> Kanban {
        var kanban = try makeKanban(
            [["t0a1", "t1a1", "t2a1", "t3a1"], ["p0a1", "p1a1", "p2a1"], ["d0a1", "d1a1", "d2a1"]],
            titles: ["Todo", "In Progress", "Done"], limits: [nil, 3, nil],
            itemTitles: [
                "t0a1": "Database Migration", "t1a1": "Schema Design", "t2a1": "Storage Management",
                "t3a1": "Model Abstraction", "p0a1": "Push Notification", "p1a1": "Analytics",
                "p2a1": "Machine Learning", "d0a1": "System Architecture", "d1a1": "Alert & Debugging",
                "d2a1": "Old",
            ])
        try kanban.archive([Location(board: 2, index: 2)], now: clock.now.adding(seconds: -86_400))
        return kanban
    }

    /// Applies `operation` to the sample and to a copy the same change is made to directly,
    /// and expects the same kanban and the same change.
    @discardableResult
    func expectApply(
        _ operation: Operation, sameAs direct: (inout Kanban) throws(KanbanError) -> Change,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Kanban {
        var applied = try Self.kanban()
        var generator = SeededGenerator(seed: 1)
        let change = try applied.apply(operation, at: Self.clock, using: &generator)
        var expected = try Self.kanban()
        let expectedChange = try direct(&expected)
        expectTrue(applied == expected, sourceLocation: sourceLocation)
        expectTrue(change == expectedChange, sourceLocation: sourceLocation)
        expectTrue(change.isEffective, sourceLocation: sourceLocation)
        #expect(throws: Never.self, sourceLocation: sourceLocation) { try applied.validate() }
        return applied
    }

    /// A new card's content is its fields' values by name, whatever the field.
    func addGivesEachNewCardTheContentsFieldsByName() throws {
        let content = NewCardContent([
            "labels": .value(.words(["x"])), "assignees": .value(.words(["al"])), "due": .day(.inDays(1)),
            "note": .value(.text("n")),
        ])
        expectTrue(content == NewCardContent(labels: ["x"], assignees: ["al"], due: .inDays(1), note: "n"))
        expectTrue(NewCardContent(["labels": .value(.words([])), "note": .value(.text(nil))]) == NewCardContent())
        var kanban = try Self.kanban()
        var generator = SeededGenerator(seed: 1)
        try kanban.apply(
            .add(titles: [try Title("One"), try Title("Two")], to: "Done", position: .top, content: content),
            at: Self.clock, using: &generator)
        for card in kanban.boards[2].items.prefix(2) {
            expectTrue(card.labels == ["x"] && card.assignees == ["al"] && card.note == "n")
            expectTrue(card.due == Self.clock.today.adding(days: 1))
            expectTrue(card.created == Self.clock.now && card.entered == Self.clock.now)
        }
        expectTrue(kanban.boards[2].items.prefix(2).map(\.title) == ["One", "Two"])
    }

    func addMakesCardsWithTheirContentOnTheNamedBoardOrTheFirst() throws {
        let titles = [try Title("One"), try Title("Two")]
        let after = try expectApply(
            .add(
                titles: titles, to: "done", position: .at(-1),
                content: NewCardContent(labels: ["x"], due: .inDays(1), note: "n"), force: false)
        ) { (kanban) throws(KanbanError) in
            var generator = SeededGenerator(seed: 1)
            let cards = titles.map {
                CardContent(title: $0, labels: ["x"], due: Day(year: 2026, month: 11, day: 24), note: "n")
            }
            return try kanban.insert(cards, into: 2, at: .bottom, now: Self.clock.now, using: &generator)
        }
        expectEqual(after.boards[2].items.map(\.title), ["System Architecture", "Alert & Debugging", "One", "Two"])
        expectTrue(after.boards[2].items[2].due?.description == "2026-11-24")
        expectTrue(
            after.boards[2].items[3].created == Self.clock.now && after.boards[2].items[3].entered == Self.clock.now)
        let first = try expectApply(.add(titles: titles, to: nil, position: .top)) { (kanban) throws(KanbanError) in
            var generator = SeededGenerator(seed: 1)
            return try kanban.insert(titles, into: 0, at: .top, now: Self.clock.now, using: &generator)
        }
        expectEqual(first.boards[0].items.map(\.title).prefix(2), ["One", "Two"])
    }

    func addNeedsABoardAndRespectsTheLimit() throws {
        var empty = try Kanban(boards: [])
        var generator = SeededGenerator(seed: 1)
        #expect(throws: KanbanError.noBoards) {
            try empty.apply(.add(titles: [Title("x")], to: nil, position: nil), at: Self.clock, using: &generator)
        }
        var kanban = try Self.kanban()
        let before = kanban
        #expect(throws: KanbanError.wipLimit(board: "In Progress", limit: 3, current: 3, resulting: 4)) {
            try kanban.apply(
                .add(titles: [Title("x")], to: "In Progress", position: nil), at: Self.clock, using: &generator)
        }
        expectTrue(kanban == before)
        try kanban.apply(
            .add(titles: [Title("x")], to: "In Progress", position: nil, force: true), at: Self.clock, using: &generator
        )
        expectTrue(kanban.boards[1].items.count == 4)
    }

    func moveResolvesEveryReferenceFirst() throws {
        // SPEC §2: `move Todo:0 Todo:1 --to Done` moves the first two cards.
        let after = try expectApply(.move(items: ["Todo:0", "Todo:1"], to: "Done", position: .at(0))) {
            (kanban) throws(KanbanError) in
            try kanban.move(
                [Location(board: 0, index: 0), Location(board: 0, index: 1)], to: 2, at: .index(0), now: Self.clock.now)
        }
        expectEqual(layout(after), [["t2a1", "t3a1"], ["p0a1", "p1a1", "p2a1"], ["t0a1", "t1a1", "d0a1", "d1a1"]])
        expectEqual(after.boards[2].items[0].entered, Self.clock.now)
    }

    func moveFindsTitlesInTheBoardItIsToldToLookIn() throws {
        try expectApply(.move(items: ["Analytics", "t3a1"], to: "Done", from: "In Progress", position: .after("d0a1")))
        {
            (kanban) throws(KanbanError) in
            try kanban.move(
                [Location(board: 1, index: 1), Location(board: 0, index: 3)], to: 2,
                at: .after(Location(board: 2, index: 0)),
                now: Self.clock.now)
        }
        var kanban = try Self.kanban()
        var generator = SeededGenerator(seed: 1)
        #expect(throws: KanbanError.self) {
            try kanban.apply(.move(items: ["Analytics"], to: "Done", from: "Todo"), at: Self.clock, using: &generator)
        }
    }

    func anAnchorOnAnotherBoardIsNamedWhereItIs() throws {
        var kanban = try Self.kanban()
        let before = kanban
        var generator = SeededGenerator(seed: 1)
        #expect(
            throws: KanbanError.anchorNotInBoard(
                anchor: Candidate(id: ItemID("p1a1")!, title: "Analytics", board: "In Progress", index: 1),
                board: "Done")
        ) {
            try kanban.apply(
                .move(items: ["Todo:0"], to: "Done", position: .before("Analytics")), at: Self.clock, using: &generator)
        }
        expectEqual(kanban, before)
    }

    func copyMakesNewCardsWithTheContent() throws {
        let after = try expectApply(.copy(items: ["Analytics", "Todo:0"], to: "Todo", position: .top)) {
            (kanban) throws(KanbanError) in
            var generator = SeededGenerator(seed: 1)
            return try kanban.copy(
                [Location(board: 1, index: 1), Location(board: 0, index: 0)], to: 0, at: .top, now: Self.clock.now,
                using: &generator)
        }
        expectTrue(
            after.boards[0].items.prefix(3).map(\.title) == ["Analytics", "Database Migration", "Database Migration"])
    }

    func removeAndRename() throws {
        let removed = try expectApply(.remove(items: ["Done:1", "Analytics"])) { (kanban) throws(KanbanError) in
            try kanban.remove([Location(board: 2, index: 1), Location(board: 1, index: 1)])
        }
        expectEqual(layout(removed), [["t0a1", "t1a1", "t2a1", "t3a1"], ["p0a1", "p2a1"], ["d0a1"]])
        let renamed = try expectApply(.rename(item: "Analytics", title: try Title("Metrics"), from: "in progress")) {
            (kanban) throws(KanbanError) in try kanban.rename(Location(board: 1, index: 1), to: Title("Metrics"))
        }
        expectEqual(renamed.boards[1].items[1].title, "Metrics")
    }

    func editResolvesTheDueDateAgainstToday() throws {
        let edits = EditInput(note: .set("n"), words: ["labels": WordEdits(add: ["bug"], remove: [])], due: .inDays(7))
        let after = try expectApply(.edit(item: "p1a", edits: edits)) { (kanban) throws(KanbanError) in
            try kanban.edit(
                Location(board: 1, index: 1),
                CardEdits(note: .set("n"), words: ["labels": WordEdits(add: ["bug"])], due: .some(Day(year: 2026, month: 11, day: 30))))
        }
        expectTrue(after.boards[1].items[1].due?.description == "2026-11-30")
        expectTrue(edits.resolved(today: Self.clock.today).due == .some(Day(year: 2026, month: 11, day: 30)))
        expectEqual(EditInput(due: DueInput.none).resolved(today: Self.clock.today).due, .some(nil))
        expectTrue(EditInput().resolved(today: Self.clock.today).due == nil)
        expectTrue(EditInput().isEmpty && !edits.isEmpty)
    }

    func archiveCardsOrABoardsOldCards() throws {
        let after = try expectApply(.archive(items: ["Analytics", "t0a1"])) { (kanban) throws(KanbanError) in
            try kanban.archive([Location(board: 1, index: 1), Location(board: 0, index: 0)], now: Self.clock.now)
        }
        expectEqual(after.archive.map(\.item.id.rawValue), ["d2a1", "p1a1", "t0a1"])
        expectEqual(after.archive.last?.archived, Self.clock.now)
        // The cards of the sample entered no board (an older file's), so all count as old.
        let board = try expectApply(.archiveBoard(board: "Todo", olderThan: try Age("1d"))) {
            (kanban) throws(KanbanError) in
            try kanban.archive((0..<4).map { Location(board: 0, index: $0) }, now: Self.clock.now)
        }
        expectTrue(board.boards[0].items.isEmpty)
        // Cards that entered an hour ago are not older than a day.
        var kanban = try Self.kanban()
        var generator = SeededGenerator(seed: 1)
        try kanban.move([Location(board: 0, index: 0)], to: 2, now: Self.clock.now.adding(seconds: -3600))
        try kanban.apply(.archiveBoard(board: "Done", olderThan: try Age("1d")), at: Self.clock, using: &generator)
        expectEqual(layout(kanban)[2], ["t0a1"])
        try kanban.apply(.archiveBoard(board: "Done"), at: Self.clock, using: &generator)
        expectTrue(layout(kanban)[2].isEmpty)
    }

    func restoreFindsArchivedCards() throws {
        let after = try expectApply(.restore(items: ["Old"], to: "Todo")) { (kanban) throws(KanbanError) in
            try kanban.restore([0], to: 0, now: Self.clock.now)
        }
        expectEqual(layout(after)[0].last, "d2a1")
        try expectApply(.restore(items: ["d2a"])) { (kanban) throws(KanbanError) in
            try kanban.restore([0], now: Self.clock.now)
        }
        var kanban = try Self.kanban()
        var generator = SeededGenerator(seed: 1)
        #expect(throws: KanbanError.wipLimit(board: "In Progress", limit: 3, current: 3, resulting: 4)) {
            try kanban.apply(.restore(items: ["d2a1"], to: "In Progress"), at: Self.clock, using: &generator)
        }
        try kanban.apply(.restore(items: ["d2a1"], to: "In Progress", force: true), at: Self.clock, using: &generator)
        expectEqual(layout(kanban)[1].last, "d2a1")
    }

    func boardOperations() throws {
        let added = try expectApply(.boardAdd(title: try Title("Review"), at: 2, limit: 4)) {
            (kanban) throws(KanbanError) in
            var generator = SeededGenerator(seed: 1)
            return try kanban.addBoard(Title("Review"), at: 2, limit: 4, using: &generator)
        }
        expectEqual(added.boards.map(\.title), ["Todo", "In Progress", "Review", "Done"])
        let renamed = try expectApply(.boardRename(board: "todo", title: try Title("Backlog"))) {
            (kanban) throws(KanbanError) in try kanban.renameBoard(0, to: Title("Backlog"))
        }
        expectEqual(renamed.boards[0].title, "Backlog")
        let moved = try expectApply(.boardMove(board: "Done", at: 0)) { (kanban) throws(KanbanError) in
            try kanban.moveBoard(2, to: 0)
        }
        expectEqual(moved.boards.map(\.title), ["Done", "Todo", "In Progress"])
        let limited = try expectApply(.boardLimit(board: "In Progress", limit: nil)) { (kanban) throws(KanbanError) in
            try kanban.setLimit(of: 1, to: nil)
        }
        expectTrue(limited.boards[1].limit == nil)
        let removed = try expectApply(.boardRemove(board: "Done", force: true)) { (kanban) throws(KanbanError) in
            try kanban.removeBoard(2, force: true)
        }
        expectEqual(removed.boards.map(\.title), ["Todo", "In Progress"])
        // By id, too.
        let byID = try Self.kanban().boards[2].id.rawValue
        try expectApply(.boardMove(board: byID, at: 1)) { (kanban) throws(KanbanError) in try kanban.moveBoard(2, to: 1)
        }
    }

    func aRefusedOperationChangesNothing() throws {
        let operations: [Operation] = [
            .move(items: ["Todo:0", "Nope"], to: "Done"), .move(items: ["Todo:0"], to: "Nowhere"),
            .move(items: ["Todo:0"], to: "Done", position: .at(9)), .copy(items: ["Todo:0"], to: "In Progress"),
            .remove(items: ["Todo:9"]), .rename(item: "Old", title: try Title("x")),
            .edit(item: "Analytics", edits: EditInput(words: ["labels": WordEdits(add: ["a b"])])), .archive(items: ["Old"]),
            .archiveBoard(board: "Nowhere"), .restore(items: ["Analytics"]), .restore(items: ["Old"], to: "Nowhere"),
            .boardAdd(title: try Title("done")), .boardAdd(title: try Title("X"), at: 9),
            .boardAdd(title: try Title("X"), limit: -1), .boardRename(board: "Todo", title: try Title("DONE")),
            .boardMove(board: "Todo", at: 3), .boardLimit(board: "Todo", limit: -2), .boardRemove(board: "Todo"),
            .add(titles: [try Title("x")], to: "Todo", position: .before("Analytics")),
        ]
        for operation in operations {
            var kanban = try Self.kanban()
            var generator = SeededGenerator(seed: 1)
            #expect(throws: KanbanError.self, "\(operation)") {
                try kanban.apply(operation, at: Self.clock, using: &generator)
            }
            expectEqual(kanban, (try Self.kanban()), "\(operation)")
        }
    }

    func operationsAreNamedAsTheirCommands() throws {
        let title = try Title("x")
        let names: [(Operation, String)] = [
            (.add(titles: [], to: nil, position: nil), "add"), (.move(items: [], to: "x"), "move"),
            (.copy(items: [], to: "x"), "copy"), (.remove(items: []), "remove"),
            (.rename(item: "x", title: title), "rename"),
            (.edit(item: "x", edits: EditInput()), "edit"), (.archive(items: []), "archive"),
            (.archiveBoard(board: "x"), "archive"), (.restore(items: []), "restore"),
            (.boardAdd(title: title), "board add"),
            (.boardRename(board: "x", title: title), "board rename"), (.boardMove(board: "x", at: 0), "board move"),
            (.boardLimit(board: "x", limit: nil), "board limit"), (.boardRemove(board: "x"), "board remove"),
        ]
        for (operation, name) in names {
            expectEqual(operation.name, name)
        }
    }
}
