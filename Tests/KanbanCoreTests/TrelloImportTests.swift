import Foundation
import Testing

@testable import KanbanCore

// Every rule of the Trello mapping (SPEC §12), on a board export built by hand from Trello's
// format: Tests/Fixtures/trello-board.json ("Website Relaunch": six lists, one archived,
// `pos` values out of array order and fractional, named, unnamed and empty labels,
// checklists, due dates, archived cards, the usual mass of fields kanban ignores).

enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}

/// The UTC date of an instant: the local date where the time zone is UTC.
let utcDay: @Sendable (Timestamp) -> Day = { $0.utcDay }

@Suite("Trello import")
struct TrelloImportTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case openListsBecomeBoardsInPosOrder
        case cardsFollowTheirListsPosOrder
        case closedCardsGoToTheArchiveRememberingTheirBoard
        case cardsOfClosedListsGoToTheArchiveWithoutABoard
        case nameIsTheTitleAndDescTheNote
        case checklistsAreAppendedToTheNoteInPosOrder
        case labelNamesBecomeLabelsWithSpacesAsDashes
        case unnamedLabelsBecomeTheirColor
        case labelsGivenOnlyByIdAreLookedUpOnTheBoard
        case dueBecomesTheLocalDateOfTheInstant
        case aNumericSoftLimitBecomesTheWIPLimit
        case labelTextIsMadeALabel
        case aCardExportIsRefusedAsNotABoard
        case truncatedJSONIsRefusedAtItsLine
        case aPositionOutOfRangeIsSaidToBeOutOfRange
        case importingGivesNewIdsTimesAndBoardsAtTheEnd
        case importingPastAWIPLimitIsRefusedWholeUnlessForced
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .openListsBecomeBoardsInPosOrder: openListsBecomeBoardsInPosOrder()
        case .cardsFollowTheirListsPosOrder: try cardsFollowTheirListsPosOrder()
        case .closedCardsGoToTheArchiveRememberingTheirBoard: try closedCardsGoToTheArchiveRememberingTheirBoard()
        case .cardsOfClosedListsGoToTheArchiveWithoutABoard: cardsOfClosedListsGoToTheArchiveWithoutABoard()
        case .nameIsTheTitleAndDescTheNote: try nameIsTheTitleAndDescTheNote()
        case .checklistsAreAppendedToTheNoteInPosOrder: try checklistsAreAppendedToTheNoteInPosOrder()
        case .labelNamesBecomeLabelsWithSpacesAsDashes: try labelNamesBecomeLabelsWithSpacesAsDashes()
        case .unnamedLabelsBecomeTheirColor: try unnamedLabelsBecomeTheirColor()
        case .labelsGivenOnlyByIdAreLookedUpOnTheBoard: try labelsGivenOnlyByIdAreLookedUpOnTheBoard()
        case .dueBecomesTheLocalDateOfTheInstant: try dueBecomesTheLocalDateOfTheInstant()
        case .aNumericSoftLimitBecomesTheWIPLimit: try aNumericSoftLimitBecomesTheWIPLimit()
        case .labelTextIsMadeALabel: labelTextIsMadeALabel()
        case .aCardExportIsRefusedAsNotABoard: try aCardExportIsRefusedAsNotABoard()
        case .truncatedJSONIsRefusedAtItsLine: try truncatedJSONIsRefusedAtItsLine()
        case .aPositionOutOfRangeIsSaidToBeOutOfRange: try aPositionOutOfRangeIsSaidToBeOutOfRange()
        case .importingGivesNewIdsTimesAndBoardsAtTheEnd: try importingGivesNewIdsTimesAndBoardsAtTheEnd()
        case .importingPastAWIPLimitIsRefusedWholeUnlessForced: try importingPastAWIPLimitIsRefusedWholeUnlessForced()
        }
    }

    let document: ImportDocument

    init() throws {
        document = try TrelloImport.read(try Fixtures.bytes("trello-board.json"), localDay: utcDay)
    }

    private func board(_ title: String) throws -> ImportedBoard {
        try require(document.boards.first { $0.title.text == title }, "no board \(title)")
    }

    private func card(_ title: String) throws -> CardContent {
        let cards = document.boards.flatMap(\.cards) + document.archive.map(\.card)
        return try require(cards.first { $0.title.text == title }, "no card \(title)")
    }

    func openListsBecomeBoardsInPosOrder() {
        // Array order: Done, Backlog, Old Ideas (closed), In Progress, Review, To Do (pos 65536.5).
        expectEqual(document.boards.map(\.title.text), ["Backlog", "To Do", "In Progress", "Review", "Done"])
    }

    func cardsFollowTheirListsPosOrder() throws {
        try expectEqual(board("Done").cards.map(\.title.text), ["Register domain", "Set up CI pipeline"])
        try expectEqual(board("To Do").cards.map(\.title.text), ["Accessibility audit", "Update privacy policy"])
        try expectEqual(board("In Progress").cards.map(\.title.text), ["Design new landing page", "Fix login redirect"])
        expectTrue(try board("Backlog").cards.map(\.title.text) == ["Write launch announcement", "Migrate blog comments"])
    }

    func closedCardsGoToTheArchiveRememberingTheirBoard() throws {
        let archived = try require(document.archive.first { $0.card.title.text == "Old newsletter template" })
        expectEqual(archived.board?.text, "Backlog")
        expectTrue(try !board("Backlog").cards.contains { $0.title.text == "Old newsletter template" })
    }

    func cardsOfClosedListsGoToTheArchiveWithoutABoard() {
        expectTrue(!document.boards.contains { $0.title.text == "Old Ideas" })
        let fromClosedList = document.archive.filter { $0.board == nil }.map(\.card.title.text)
        // Both cards of the closed list, archived or not, in pos order.
        expectEqual(fromClosedList, ["Podcast page", "Try a dark theme"])
        expectEqual(document.archive.count, 3)
    }

    func nameIsTheTitleAndDescTheNote() throws {
        try expectEqual(card("Write launch announcement").note, "Draft for the blog and the newsletter.")
        expectTrue(try card("Migrate blog comments").note == nil)
        expectTrue(try card("Choose a CMS").note == "Compared three.\nPicked one.")  // CRLF read as LF
    }

    func checklistsAreAppendedToTheNoteInPosOrder() throws {
        expectTrue(
            try card("Fix login redirect").note == """
                Users land on /home instead of the page they asked for.

                See the support ticket.

                Steps
                - [x] Reproduce
                - [ ] Patch the middleware
                - [ ] Write a test
                """)
        // Two checklists, Assets before Mockups by pos; no description.
        expectTrue(
            try card("Design new landing page").note == """
                Assets
                - [x] Hero photo
                - [ ] Logo in SVG

                Mockups
                - [x] Desktop
                - [ ] Mobile
                """)
    }

    func labelNamesBecomeLabelsWithSpacesAsDashes() throws {
        try expectEqual(card("Write launch announcement").labels.names, ["front-end"])
        try expectEqual(card("Fix login redirect").labels.names, ["bug", "Urgent-today"])
    }

    func unnamedLabelsBecomeTheirColor() throws {
        try expectEqual(card("Set up CI pipeline").labels.names, ["green"])
        // A label with neither a name nor a color gives nothing.
        try expectEqual(card("Design new landing page").labels.names, ["front-end", "green"])
    }

    func labelsGivenOnlyByIdAreLookedUpOnTheBoard() throws {
        try expectEqual(card("Register domain").labels.names, ["bug"])
    }

    func dueBecomesTheLocalDateOfTheInstant() throws {
        try expectEqual(card("Set up CI pipeline").due, Day(year: 2026, month: 11, day: 2))
        try expectEqual(card("Fix login redirect").due, Day(year: 2026, month: 11, day: 30))
        expectTrue(try card("Copy review").due == nil)
        // 2026-11-30T23:30Z is already December 1st two hours east of UTC.
        let east = try TrelloImport.read(try Fixtures.bytes("trello-board.json")) {
            $0.adding(seconds: 2 * 3600).utcDay
        }
        let fix = east.boards.flatMap(\.cards).first { $0.title.text == "Fix login redirect" }
        expectEqual(fix?.due, Day(year: 2026, month: 12, day: 1))
    }

    func aNumericSoftLimitBecomesTheWIPLimit() throws {
        try expectEqual(board("In Progress").limit, 3)
        expectTrue(try board("Review").limit == 2)  // given as the string "2"
        expectTrue(try board("Done").limit == nil)  // null
        let odd = """
            {"lists": [{"id": "a", "name": "A", "softLimit": "lots"}, {"id": "b", "name": "B", "softLimit": 2.5},
            {"id": "c", "name": "C", "softLimit": -1}, {"id": "d", "name": "D", "softLimit": 0}], "cards": []}
            """
        let limits = try TrelloImport.read(Array(odd.utf8), localDay: utcDay).boards.map(\.limit)
        expectEqual(limits, [nil, nil, nil, 0])
    }

    func labelTextIsMadeALabel() {
        expectEqual(TrelloImport.label("front end"), "front-end")
        expectEqual(TrelloImport.label("  a , b  "), "a-b")
        expectEqual(TrelloImport.label("-leading dash"), "leading-dash")
        expectEqual(TrelloImport.label(String(repeating: "x", count: 40)), String(repeating: "x", count: 32))
        expectTrue(TrelloImport.label("   ") == nil)
    }

    // MARK: - Refusals

    func aCardExportIsRefusedAsNotABoard() throws {
        let error = try #require(throws: ImportError.self) {
            try TrelloImport.read(try Fixtures.bytes("trello-card.json"), localDay: utcDay)
        }
        expectEqual(error.location, .path("$"))
        expectTrue(error.message.contains("Trello card, not a board"))
    }

    func truncatedJSONIsRefusedAtItsLine() throws {
        let bytes = Array(try Fixtures.bytes("trello-board.json").prefix(5000))
        let lines = bytes.filter { $0 == 0x0A }.count + 1
        let error = try #require(throws: ImportError.self) { try TrelloImport.read(bytes, localDay: utcDay) }
        guard case .line(let line) = error.location else {
            Issue.record("expected a line, got \(error)")
            return
        }
        expectTrue((1...lines).contains(line))
    }

    @Test(arguments: [
        (#"{"lists": [], "cards": [{"name": "x", "idList": "nope"}]}"#, "$.cards[0].idList"),
        (#"{"lists": [{"id": "a", "name": 3}], "cards": []}"#, "$.lists[0].name"),
        (#"{"lists": [{"id": "a", "name": "A"}], "cards": [{"idList": "a"}]}"#, "$.cards[0]"),
        (#"{"lists": [{"id": "a", "name": "A"}], "cards": [{"idList": "a", "name": " "}]}"#, "$.cards[0].name"),
        (#"{"lists": {}, "cards": []}"#, "$.lists"),
        (
            #"{"lists": [{"id": "a", "name": "A"}], "cards": [{"idList": "a", "name": "x", "due": "soon"}]}"#,
            "$.cards[0].due"
        ),
        (
            #"{"lists": [], "cards": [], "checklists": [{"idCard": "c", "checkItems": [{"state": "complete"}]}]}"#,
            "$.checklists[0].checkItems[0]"
        ),
        (#"[1, 2]"#, "$"),
        (#"{"name": "a board without lists"}"#, "$"),
    ])
    func aValueThatIsNotWhatTrelloWritesIsRefusedAtItsPath(json: String, path: String) throws {
        let error = try #require(throws: ImportError.self) { try TrelloImport.read(Array(json.utf8), localDay: utcDay) }
        expectEqual(error.location, .path(path), "\(error)")
    }

    /// As the kanban file's reader does (README: Export and import), a key given twice is
    /// refused, naming the key and where it is, rather than the last one silently counting.
    @Test(arguments: [
        (#"{"lists": [], "cards": [], "lists": []}"#, #"duplicate key "lists" in $"#),
        (
            "{\"lists\": [{\"id\": \"a\", \"name\": \"A\"}],\n \"cards\": [{\"idList\": \"a\", \"name\": \"x\", \"name\": \"y\"}]}",
            #"duplicate key "name" in $.cards[0]"#
        ),
        (#"{"lists": [{"id": "a", "name": "A", "x": {"a b": 1, "a b": 2}}], "cards": []}"#, #"in $.lists[0].x"#),
    ])
    func aRepeatedKeyIsRefusedNamingTheKeyAndItsPath(json: String, expected: String) throws {
        let error = try #require(throws: ImportError.self) { try TrelloImport.read(Array(json.utf8), localDay: utcDay) }
        expectTrue(error.message.contains(expected), "\(error)")
        if json.contains("\n") { expectTrue(error.location == .line(2), "\(error)") }
    }

    func aPositionOutOfRangeIsSaidToBeOutOfRange() throws {
        let json = #"{"lists": [{"id": "a", "name": "A", "pos": 1e999}], "cards": []}"#
        let error = try #require(throws: ImportError.self) { try TrelloImport.read(Array(json.utf8), localDay: utcDay) }
        expectEqual(error.location, .path("$.lists[0].pos"), "\(error)")
        expectTrue(error.message.contains("out of range"), "\(error)")
        expectTrue(!error.message.contains("found a number"), "\(error)")
    }

    // MARK: - Into a kanban

    func importingGivesNewIdsTimesAndBoardsAtTheEnd() throws {
        var kanban = try Kanban(boardTitles: [try Title("Todo"), try Title("done")])
        let now = Timestamp(seconds: 1_800_000_000)
        var generator = SeededGenerator(seed: 7)
        let change = try kanban.importing(document, now: now, using: &generator)
        try kanban.validate()
        // "Done" joins the existing "done"; the other four are new, at the end, in order.
        expectEqual(kanban.boards.map(\.title), ["Todo", "done", "Backlog", "To Do", "In Progress", "Review"])
        expectEqual(kanban.boards[1].items.map(\.title), ["Register domain", "Set up CI pipeline"])
        expectEqual(kanban.boards[4].limit, 3)
        expectEqual(change.boards.count, 4)
        expectEqual(change.items.count, 13)
        expectTrue(change.isEffective)
        let items = kanban.boards.flatMap(\.items) + kanban.archive.map(\.item)
        // Created when their Trello ids say (README: Export and import), not now.
        let created = Timestamp(rfc3339: "2024-10-23T07:21:22Z")
        expectTrue(items.allSatisfy { $0.created == created && $0.entered == $0.trail.last?.time && $0.entered != nil })
        expectEqual(Set(items.map(\.id)).count, 13)
        // Archived cards: the closed card keeps its board; the closed list's cards name a board
        // that is not there, so restoring them asks for --to.
        let backlog = try require(kanban.boards.first { $0.title == "Backlog" })
        let newsletter = try require(kanban.archive.first { $0.item.title == "Old newsletter template" })
        expectEqual(newsletter.board, backlog.id)
        let podcast = try require(kanban.archive.first { $0.item.title == "Podcast page" })
        expectTrue(kanban.boardIndex(id: podcast.board) == nil)
        expectTrue(kanban.archive.allSatisfy { $0.archived == now })
    }

    func importingPastAWIPLimitIsRefusedWholeUnlessForced() throws {
        var kanban = try Kanban(boards: [Board(title: "Done", limit: 1)])
        let before = kanban
        var generator = SeededGenerator(seed: 7)
        #expect(throws: KanbanError.wipLimit(board: "Done", limit: 1, current: 0, resulting: 2)) {
            try kanban.importing(document, now: Timestamp(seconds: 0), using: &generator)
        }
        expectEqual(kanban, before)
        try kanban.importing(document, now: Timestamp(seconds: 0), force: true, using: &generator)
        expectEqual(kanban.boards[0].items.count, 2)
    }
}

@Suite("Trello import: what is done and what is left out")
struct TrelloCompletedAndLeftOutTests {
    static let export = """
        {"lists": [{"id": "l1", "name": "Doing", "pos": 1}],
         "cards": [
           {"id": "c1", "name": "Shipped", "idList": "l1", "pos": 1, "desc": "Release notes.",
            "due": "2026-11-20T12:00:00.000Z", "dueComplete": true, "idMembers": ["m1", "m2"],
            "attachments": [{"id": "a1"}, {"id": "a2"}]},
           {"id": "c2", "name": "Late", "idList": "l1", "pos": 2, "due": "2026-11-21T12:00:00.000Z",
            "dueComplete": false, "badges": {"attachments": 1}},
           {"id": "c3", "name": "Done, no note", "idList": "l1", "pos": 3, "due": "2026-11-22T12:00:00.000Z",
            "dueComplete": true}],
         "actions": [{"type": "commentCard", "data": {"text": "nice"}}, {"type": "updateCard"},
                     {"type": "commentCard", "data": {"text": "ok"}}]}
        """

    @Test func aDueDateMarkedCompleteIsNotSetAndTheNoteSaysSo() throws {
        let document = try TrelloImport.read(Array(Self.export.utf8), localDay: utcDay)
        let cards = document.boards[0].cards
        expectTrue(cards[0].due == nil)
        expectEqual(cards[0].note, "Release notes.\n\nDue 2026-11-20, marked complete in Trello")
        expectEqual(cards[1].due, Day(year: 2026, month: 11, day: 21))
        expectTrue(cards[1].note == nil)
        expectTrue(cards[2].due == nil)
        expectEqual(cards[2].note, "Due 2026-11-22, marked complete in Trello")
    }

    @Test func commentsAttachmentsAndMembersAreCounted() throws {
        let document = try TrelloImport.read(Array(Self.export.utf8), localDay: utcDay)
        expectEqual(document.leftOut, [LeftOut("comment", 2), LeftOut("attachment", 3), LeftOut("card member", 2)])
        let bare = try TrelloImport.read(
            Array(#"{"lists": [{"id": "l", "name": "A"}], "cards": []}"#.utf8), localDay: utcDay)
        expectTrue(bare.leftOut.isEmpty)
    }
}

@Suite("Trello import: a card's history")
struct TrelloHistoryTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aTrelloIdBeginsWithItsCreationTime
        case aCardKeepsItsCreationTrailAndEnteredFromTheActions
        case anActionDateThatIsNotATimeIsRefusedAtItsPath
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aTrelloIdBeginsWithItsCreationTime: aTrelloIdBeginsWithItsCreationTime()
        case .aCardKeepsItsCreationTrailAndEnteredFromTheActions:
            try aCardKeepsItsCreationTrailAndEnteredFromTheActions()
        case .anActionDateThatIsNotATimeIsRefusedAtItsPath: anActionDateThatIsNotATimeIsRefusedAtItsPath()
        }
    }

    /// Lists A, B (open) and Z (closed); card 1 was created on A, moved to Z, then to B; card 2
    /// came from another board onto A; card 3 has no action; card 4 is on Z.
    static let export = #"""
        {"lists": [{"id": "la", "name": "A", "pos": 1}, {"id": "lb", "name": "B", "pos": 2},
                   {"id": "lz", "name": "Z", "pos": 3, "closed": true}],
         "cards": [{"id": "5f000000aaaaaaaaaaaaaaaa", "name": "One", "idList": "lb"},
                   {"id": "5f000100bbbbbbbbbbbbbbbb", "name": "Two", "idList": "la"},
                   {"id": "5f000200cccccccccccccccc", "name": "Three", "idList": "lb"},
                   {"id": "5f000300dddddddddddddddd", "name": "Four", "idList": "lz"},
                   {"id": "card-5", "name": "Five", "idList": "la"}],
         "actions": [
           {"type": "updateCard", "date": "2020-07-07T00:00:00.000Z",
            "data": {"card": {"id": "5f000000aaaaaaaaaaaaaaaa"}, "listBefore": {"id": "lz"}, "listAfter": {"id": "lb"}}},
           {"type": "moveCardToBoard", "date": "2020-07-06T12:00:00.000Z",
            "data": {"card": {"id": "5f000100bbbbbbbbbbbbbbbb"}, "list": {"id": "la"}, "boardSource": {"id": "x"}}},
           {"type": "updateCard", "date": "2020-07-06T00:00:00.000Z",
            "data": {"card": {"id": "5f000000aaaaaaaaaaaaaaaa"}, "listBefore": {"id": "la"}, "listAfter": {"id": "lz"}}},
           {"type": "updateCard", "date": "2020-07-05T12:00:00.000Z",
            "data": {"card": {"id": "5f000200cccccccccccccccc", "closed": false}, "old": {"closed": true}}},
           {"type": "commentCard", "date": "2020-07-05T06:00:00.000Z",
            "data": {"card": {"id": "5f000000aaaaaaaaaaaaaaaa"}, "list": {"id": "la"}, "text": "hi"}},
           {"type": "createCard", "date": "2020-07-05T00:00:00.000Z",
            "data": {"card": {"id": "5f000000aaaaaaaaaaaaaaaa"}, "list": {"id": "la"}}},
           {"type": "createCard", "date": "2020-07-04T00:00:00.000Z",
            "data": {"card": {"id": "card-5"}, "list": {"id": "la"}}}
         ]}
        """#

    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    func aTrelloIdBeginsWithItsCreationTime() {
        expectEqual(TrelloImport.creationTime(ofCardID: "5f000000aaaaaaaaaaaaaaaa"), Self.time("2020-07-04T04:05:20Z"))
        expectEqual(TrelloImport.creationTime(ofCardID: "6718a3f20c1e4b5d9a7f00cb"), Self.time("2024-10-23T07:21:22Z"))
        expectTrue(TrelloImport.creationTime(ofCardID: "card-1") == nil)
        expectTrue(TrelloImport.creationTime(ofCardID: "zz000000aaaa") == nil)
    }

    func aCardKeepsItsCreationTrailAndEnteredFromTheActions() throws {
        let document = try TrelloImport.read(Array(Self.export.utf8), localDay: utcDay)
        var kanban = Kanban.empty
        var generator = SeededGenerator(seed: 31)
        let now = Self.time("2026-11-23T10:00:00Z")
        try kanban.importing(document, now: now, using: &generator)
        let (a, b) = (kanban.boards[0].id, kanban.boards[1].id)
        let cards = Dictionary(uniqueKeysWithValues: (kanban.boards.flatMap(\.items) + kanban.archive.map(\.item)).map { ($0.title, $0) })
        let one = try require(cards["One"])
        expectEqual(one.created, Self.time("2020-07-04T04:05:20Z"))
        // Its stay on the closed list Z is left out: no board was made of it.
        expectEqual(
            one.trail, [TrailEntry(board: a, time: Self.time("2020-07-05T00:00:00Z")), TrailEntry(board: b, time: Self.time("2020-07-07T00:00:00Z"))])
        expectEqual(one.entered, Self.time("2020-07-07T00:00:00Z"))
        let two = try require(cards["Two"])
        expectEqual(two.trail, [TrailEntry(board: a, time: Self.time("2020-07-06T12:00:00Z"))])
        expectEqual(two.entered, Self.time("2020-07-06T12:00:00Z"))
        // No action: the trail starts at its creation on its list.
        let three = try require(cards["Three"])
        expectEqual(three.trail, [TrailEntry(board: b, time: Self.time("2020-07-04T04:13:52Z"))])
        expectEqual(three.entered, three.created)
        // On a closed list, with no action: archived, its board not imported, it arrives now.
        let four = try require(cards["Four"])
        expectEqual(four.created, Self.time("2020-07-04T04:18:08Z"))
        expectEqual(four.trail.map(\.time), [now])
        // An id that holds no time: created when it was first seen on a list.
        let five = try require(cards["Five"])
        expectEqual(five.created, Self.time("2020-07-04T00:00:00Z"))
        expectEqual(five.trail, [TrailEntry(board: a, time: Self.time("2020-07-04T00:00:00Z"))])
        try kanban.validate()
    }

    func anActionDateThatIsNotATimeIsRefusedAtItsPath() {
        let json = Self.export.replacingOccurrences(of: "2020-07-06T12:00:00.000Z", with: "yesterday")
        #expect {
            try TrelloImport.read(Array(json.utf8), localDay: utcDay)
        } throws: { error in
            (error as? ImportError)?.description.hasPrefix("$.actions[1].date: ") == true
                && "\(error)".contains("\"yesterday\"")
        }
    }
}
