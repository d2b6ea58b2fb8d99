import Testing

@testable import KanbanCore

// Cards with content (SPEC §7): edit, archive and restore, and what add, copy and move do
// to a card's fields and timestamps.

/// An id written in a test.
func id(_ text: String) -> ItemID { ItemID(text)! }

let earlier = Timestamp(rfc3339: "2026-11-20T09:00:00Z")!
let now = Timestamp(rfc3339: "2026-11-23T10:00:00Z")!

/// Todo: a card with every field and a bare one; Doing (limit 2, full); Done, empty.
func contentKanban() throws -> Kanban {
    let full = Item(
        id: id("full01"), title: "Full", labels: ["bug", "P1"], due: Day(year: 2026, month: 12, day: 1),
        created: earlier, entered: earlier, note: "line 1\nline 2")
    let bare = Item(id: id("bare01"), title: "Bare")
    return try Kanban(boards: [
        Board(id: id("todo"), title: "Todo", items: [full, bare]),
        Board(
            id: id("doing"), title: "Doing", limit: 2,
            items: [
                Item(id: id("doin01"), title: "Doing one", created: earlier, entered: earlier),
                Item(id: id("doin02"), title: "Doing two", created: earlier, entered: earlier),
            ]),
        Board(id: id("done"), title: "Done"),
    ])
}

let fullCard = Location(board: 0, index: 0)
let bareCard = Location(board: 0, index: 1)

@Suite("Editing a card")
struct EditTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theTitle
        case labelsAddedAndRemovedIgnoringCase
        case emptyWordEditsAreNoEdits
        case anInvalidLabelChangesNothing
        case theNoteSetWithCRLFReadAsLF
        case theNoteAppendedAsALine
        case theNoteCleared
        case appendingNothingToNoNoteChangesNothing
        case aNoteThatBreaksItsRulesChangesNothing
        case theDueDateSetAndCleared
        case everyFieldAtOnceIsReportedInTheFilesOrder
        case anEditThatChangesNothingIsNotEffective
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theTitle: try theTitle()
        case .labelsAddedAndRemovedIgnoringCase: try labelsAddedAndRemovedIgnoringCase()
        case .emptyWordEditsAreNoEdits: try emptyWordEditsAreNoEdits()
        case .anInvalidLabelChangesNothing: try anInvalidLabelChangesNothing()
        case .theNoteSetWithCRLFReadAsLF: try theNoteSetWithCRLFReadAsLF()
        case .theNoteAppendedAsALine: try theNoteAppendedAsALine()
        case .theNoteCleared: try theNoteCleared()
        case .appendingNothingToNoNoteChangesNothing: try appendingNothingToNoNoteChangesNothing()
        case .aNoteThatBreaksItsRulesChangesNothing: try aNoteThatBreaksItsRulesChangesNothing()
        case .theDueDateSetAndCleared: try theDueDateSetAndCleared()
        case .everyFieldAtOnceIsReportedInTheFilesOrder: try everyFieldAtOnceIsReportedInTheFilesOrder()
        case .anEditThatChangesNothingIsNotEffective: try anEditThatChangesNothingIsNotEffective()
        }
    }

    /// Edits the card at `location` and checks that nothing but its fields changed.
    func edited(_ location: Location, _ edits: CardEdits) throws -> (card: Item, change: Change) {
        var kanban = try contentKanban()
        let before = kanban
        let change = try kanban.edit(location, edits)
        for other in allLocations(before) where other != location {
            expectTrue(kanban[other] == before[other])
        }
        expectTrue(kanban[location].id == before[location].id)
        expectTrue(kanban[location].created == before[location].created)
        expectTrue(kanban[location].entered == before[location].entered)
        expectTrue(change.items.map(\.id) == [before[location].id])
        expectTrue(change.items.map(\.from) == [slot(before, location)])
        expectTrue(change.items.map(\.to) == [slot(before, location)])
        expectTrue(change.items.map(\.title) == [kanban[location].title])
        expectTrue(change.boards.isEmpty)
        expectTrue(change.isEffective == (kanban != before))
        return (kanban[location], change)
    }

    func theTitle() throws {
        let (card, change) = try edited(bareCard, CardEdits(title: Title("  Renamed \t")))
        expectTrue(card.title == "Renamed")
        expectTrue(change.items[0].edits == [.title(from: "Bare", to: "Renamed")])
        expectTrue(change.items[0].previousTitle == "Bare")
    }

    func labelsAddedAndRemovedIgnoringCase() throws {
        let (card, change) = try edited(fullCard, CardEdits(words: ["labels": WordEdits(add: ["Docs", "BUG"], remove: ["p1"])]))
        expectTrue(card.labels.names == ["bug", "Docs"])
        expectTrue(change.items[0].edits == [.labels(from: ["bug", "P1"], to: ["bug", "Docs"])])
    }

    /// Each set of words is edited by its field's name, its words checked as what they are
    /// (README: Cards with content).
    @Test(arguments: CardField.all.filter { $0.kind == .words }.map(\.name))
    func everySetOfWordsIsEditedByItsName(_ name: String) throws {
        let field = try require(CardField.all.first { $0.name == name })
        var edits = CardEdits()
        edits[words: name].add = ["Docs", "new"]
        let (card, change) = try edited(fullCard, edits)
        let access = try require(field.words)
        expectTrue(access.get(card) == access.get(try contentKanban()[fullCard]).union(["Docs", "new"]))
        expectTrue(change.items[0].edits.map(\.field) == [name])
        edits[words: name] = WordEdits(remove: ["DOCS"])
        var kanban = try contentKanban()
        try kanban.edit(fullCard, CardEdits(words: [name: WordEdits(add: ["Docs"])]))
        try kanban.edit(fullCard, edits)
        expectTrue(kanban[fullCard] == (try contentKanban())[fullCard])
        let noun = field.word == .assignee ? "a name" : "a label"
        #expect(throws: KanbanError.invalidValue(kind: field.word!, value: "not ok", reason: "\(noun) is one word, without spaces")) {
            try kanban.edit(fullCard, CardEdits(words: [name: WordEdits(add: ["not ok"])]))
        }
    }

    @Test(arguments: CardField.all.filter { $0.kind == .day }.map(\.name))
    func everyDateIsEditedByItsName(_ name: String) throws {
        let field = try require(CardField.all.first { $0.name == name })
        let day = try require(Day(year: 2027, month: 1, day: 2))
        let (dated, change) = try edited(bareCard, CardEdits(dates: [name: .some(day)]))
        expectTrue(field.value(dated) == .day(day))
        expectTrue(change.items[0].edits.map(\.field) == [name])
        let (cleared, _) = try edited(fullCard, CardEdits(dates: [name: Day?.none]))
        expectTrue(field.value(cleared) == .day(nil))
    }

    func emptyWordEditsAreNoEdits() throws {
        var edits = CardEdits(words: ["labels": WordEdits()])
        expectTrue(edits == CardEdits() && edits.isEmpty && edits.fields.isEmpty)
        edits[words: "assignees"].add = ["al"]
        edits[words: "assignees"].add = []
        expectTrue(edits == CardEdits())
        expectTrue(CardEdits(title: try Title("T"), words: ["labels": WordEdits(add: ["x"])], due: .some(nil)).fields == ["title", "labels", "due"])
    }

    func anInvalidLabelChangesNothing() throws {
        var kanban = try contentKanban()
        let before = kanban
        #expect(throws: KanbanError.self) {
            try kanban.edit(fullCard, CardEdits(title: Title("New"), words: ["labels": WordEdits(add: ["ok", "not ok"])]))
        }
        expectTrue(kanban == before)
    }

    func theNoteSetWithCRLFReadAsLF() throws {
        let (card, change) = try edited(fullCard, CardEdits(note: .set("one\r\ntwo")))
        expectTrue(card.note == "one\ntwo")
        expectTrue(change.items[0].edits == [.note(from: "line 1\nline 2", to: "one\ntwo")])
    }

    func theNoteAppendedAsALine() throws {
        expectTrue(try edited(fullCard, CardEdits(note: .append("line 3"))).card.note == "line 1\nline 2\nline 3")
        let (card, change) = try edited(bareCard, CardEdits(note: .append("first")))
        expectTrue(card.note == "first")
        expectTrue(change.items[0].edits == [.note(from: nil, to: "first")])
    }

    func theNoteCleared() throws {
        let (card, change) = try edited(fullCard, CardEdits(note: .set("")))
        expectTrue(card.note == nil)
        expectTrue(change.items[0].edits == [.note(from: "line 1\nline 2", to: nil)])
    }

    func appendingNothingToNoNoteChangesNothing() throws {
        let (card, change) = try edited(bareCard, CardEdits(note: .append("")))
        expectTrue(card.note == nil)
        expectTrue(change.items[0].edits.isEmpty)
        expectTrue(!change.isEffective)
    }

    func aNoteThatBreaksItsRulesChangesNothing() throws {
        var kanban = try contentKanban()
        let before = kanban
        for edit in [
            NoteEdit.set("bell \u{7}"), .append("\u{1B}[31m"), .set(String(repeating: "x", count: 65_537)),
            .append(String(repeating: "x", count: 65_536 - 13)),  // 13 bytes there, one more for the line feed
        ] {
            let error = #expect(throws: KanbanError.self) { try kanban.edit(fullCard, CardEdits(note: edit)) }
            guard case .invalidValue(.note, _, _) = error else {
                Issue.record("expected invalidValue(.note), got \(String(describing: error))")
                continue
            }
        }
        expectTrue(kanban == before)
        // Exactly 64 KiB is fine.
        try kanban.edit(fullCard, CardEdits(note: .append(String(repeating: "x", count: 65_536 - 14))))
        expectTrue(kanban[fullCard].note?.utf8.count == 65_536)
    }

    func theDueDateSetAndCleared() throws {
        let day = try require(Day(year: 2027, month: 1, day: 15))
        let (set, setChange) = try edited(bareCard, CardEdits(due: .some(day)))
        expectTrue(set.due == day)
        expectTrue(setChange.items[0].edits == [.due(from: nil, to: day)])
        let (cleared, clearChange) = try edited(fullCard, CardEdits(due: .some(nil)))
        expectTrue(cleared.due == nil)
        expectTrue(clearChange.items[0].edits == [.due(from: Day(year: 2026, month: 12, day: 1), to: nil)])
        expectTrue(try edited(fullCard, CardEdits(due: nil)).card.due == Day(year: 2026, month: 12, day: 1))
    }

    func everyFieldAtOnceIsReportedInTheFilesOrder() throws {
        let day = try require(Day(year: 2027, month: 1, day: 15))
        let (card, change) = try edited(
            fullCard,
            CardEdits(
                title: Title("All"), note: .append("3"), words: ["labels": WordEdits(add: ["new"], remove: ["BUG"])], due: .some(day)))
        expectTrue(
            card
                == Item(
                    id: id("full01"), title: "All", labels: ["new", "P1"], due: day, created: earlier, entered: earlier,
                    note: "line 1\nline 2\n3"))
        expectTrue(change.items[0].edits.map(\.field) == ["title", "labels", "due", "note"])
    }

    func anEditThatChangesNothingIsNotEffective() throws {
        let day = Day(year: 2026, month: 12, day: 1)
        for edits in [
            CardEdits(), CardEdits(title: try Title("Full")), CardEdits(words: ["labels": WordEdits(add: ["BUG"])]),
            CardEdits(words: ["labels": WordEdits(remove: ["absent"])]), CardEdits(due: .some(day)), CardEdits(note: .set("line 1\r\nline 2")),
        ] {
            let (_, change) = try edited(fullCard, edits)
            expectTrue(change.items[0].edits.isEmpty, "\(edits)")
            expectTrue(!change.isEffective, "\(edits)")
        }
    }
}

@Suite("Archive and restore")
struct ArchiveTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case archivedCardsLeaveTheirBoardsKeepingEverythingAndRememberWhereAndWhen
        case anArchivedCardsIDIsNotGivenAgain
        case archivedCardsKeepTheirIDsButAreOnlyFoundAsArchived
        case archivingFreesRoomUnderTheLimit
        case cardsThatEnteredBeforeATimeIncludeThoseWithoutOne
        case restoredCardsGoToTheBottomOfTheBoardTheyLeftAndEnterItNow
        case restoredCardsGoWhereTheyAreSent
        case restoringIntoAFullBoardNeedsForce
        case everyCardCountsAgainstTheLimitOfTheBoardItGoesTo
        case aCardWhoseBoardIsGoneNeedsADestination
        case aSelectionThatIsNotInTheArchiveIsRefused
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .archivedCardsLeaveTheirBoardsKeepingEverythingAndRememberWhereAndWhen:
            try archivedCardsLeaveTheirBoardsKeepingEverythingAndRememberWhereAndWhen()
        case .anArchivedCardsIDIsNotGivenAgain: try anArchivedCardsIDIsNotGivenAgain()
        case .archivedCardsKeepTheirIDsButAreOnlyFoundAsArchived:
            try archivedCardsKeepTheirIDsButAreOnlyFoundAsArchived()
        case .archivingFreesRoomUnderTheLimit: try archivingFreesRoomUnderTheLimit()
        case .cardsThatEnteredBeforeATimeIncludeThoseWithoutOne: try cardsThatEnteredBeforeATimeIncludeThoseWithoutOne()
        case .restoredCardsGoToTheBottomOfTheBoardTheyLeftAndEnterItNow:
            try restoredCardsGoToTheBottomOfTheBoardTheyLeftAndEnterItNow()
        case .restoredCardsGoWhereTheyAreSent: try restoredCardsGoWhereTheyAreSent()
        case .restoringIntoAFullBoardNeedsForce: try restoringIntoAFullBoardNeedsForce()
        case .everyCardCountsAgainstTheLimitOfTheBoardItGoesTo: try everyCardCountsAgainstTheLimitOfTheBoardItGoesTo()
        case .aCardWhoseBoardIsGoneNeedsADestination: try aCardWhoseBoardIsGoneNeedsADestination()
        case .aSelectionThatIsNotInTheArchiveIsRefused: try aSelectionThatIsNotInTheArchiveIsRefused()
        }
    }

    func archivedCardsLeaveTheirBoardsKeepingEverythingAndRememberWhereAndWhen() throws {
        var kanban = try contentKanban()
        let before = kanban
        let change = try kanban.archive([Location(board: 1, index: 1), fullCard, fullCard], now: now)
        expectTrue(layout(kanban) == [["bare01"], ["doin01"], []])
        expectTrue(
            kanban.archive == [
                ArchivedItem(item: before[Location(board: 1, index: 1)], board: id("doing"), archived: now),
                ArchivedItem(item: before[fullCard], board: id("todo"), archived: now),
            ])
        expectTrue(
            change.items == [
                ItemChange(
                    id: id("doin02"), title: "Doing two", from: Slot(board: "Doing", index: 1), to: nil,
                    archive: .archived),
                ItemChange(
                    id: id("full01"), title: "Full", from: Slot(board: "Todo", index: 0), to: nil, archive: .archived),
            ])
        expectTrue(change.isEffective)
        #expect(throws: Never.self) { try kanban.validate() }
    }

    func anArchivedCardsIDIsNotGivenAgain() throws {
        // The generator's first id is the id of a card, then archived: it is drawn again.
        var recorder = RecordingGenerator(base: SeededGenerator(seed: 5))
        let first = Kanban(trusted: []).newIDs(count: 1, using: &recorder)[0]
        var kanban = try Kanban(boards: [Board(title: "T", items: [Item(id: first, title: "x")])])
        try kanban.archive([Location(board: 0, index: 0)], now: now)
        var generator = ScriptedGenerator(script: recorder.recorded, fallback: SeededGenerator(seed: 6))
        expectTrue(kanban.newIDs(count: 1, using: &generator) != [first])
        expectTrue(generator.position > recorder.recorded.count)
    }

    func archivedCardsKeepTheirIDsButAreOnlyFoundAsArchived() throws {
        var kanban = try contentKanban()
        try kanban.archive([fullCard], now: now)
        #expect(throws: KanbanError.duplicateID(id("full01"))) {
            try Kanban(
                boards: kanban.boards + [Board(title: "X", items: [Item(id: id("full01"), title: "x")])],
                archive: kanban.archive)
        }
        // Other commands do not see it, and say where it is: in the archive.
        for reference in ["full01", "Full", "ful"] {
            let error = #expect(throws: KanbanError.self) { try kanban.locate(reference) }
            guard case .itemArchived(reference, let card) = error, card.id == id("full01") else {
                Issue.record("\(reference): expected itemArchived, got \(String(describing: error))")
                continue
            }
            expectTrue(try kanban.locateArchived([reference]) == [0])
            expectTrue(try kanban.locateAnywhere([reference]) == [.archive(0)])
        }
        expectTrue(try kanban.locateAnywhere(["bare01"]) == [.board(Location(board: 0, index: 0))])
        #expect(throws: KanbanError.notArchived(candidate(kanban, Location(board: 0, index: 0)))) {
            try kanban.locateArchived(["Bare"])
        }
    }

    func archivingFreesRoomUnderTheLimit() throws {
        var kanban = try contentKanban()
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 2, resulting: 3)) {
            try kanban.move([bareCard], to: 1)
        }
        try kanban.archive([Location(board: 1, index: 0)], now: now)
        try kanban.move([bareCard], to: 1)
        expectTrue(layout(kanban)[1] == ["doin02", "bare01"])
    }

    func cardsThatEnteredBeforeATimeIncludeThoseWithoutOne() throws {
        var kanban = try contentKanban()
        // Todo: Full (entered earlier), Bare (no time), Doing one (entered now).
        try kanban.move([Location(board: 1, index: 0)], to: 0, now: now)
        expectTrue(try kanban.cards(of: 0, enteredBefore: nil).map(\.index) == [0, 1, 2])
        expectTrue(try kanban.cards(of: 0, enteredBefore: now).map(\.index) == [0, 1])
        expectTrue(try kanban.cards(of: 0, enteredBefore: earlier).map(\.index) == [1])
        expectTrue(try kanban.cards(of: 0, enteredBefore: now.adding(seconds: 1)).map(\.index) == [0, 1, 2])
        expectTrue(try kanban.cards(of: 2, enteredBefore: nil).isEmpty)
        #expect(throws: KanbanError.self) { try kanban.cards(of: 3, enteredBefore: nil) }
    }

    /// The kanban with Full and Doing two archived.
    func withArchive() throws -> Kanban {
        var kanban = try contentKanban()
        try kanban.archive([fullCard, Location(board: 1, index: 1)], now: earlier.adding(seconds: 60))
        return kanban
    }

    func restoredCardsGoToTheBottomOfTheBoardTheyLeftAndEnterItNow() throws {
        var kanban = try withArchive()
        let archived = kanban.archive
        // Boards reordered meanwhile: a card goes back to its board, found by id.
        try kanban.moveBoard(0, to: 2)
        let change = try kanban.restore([1, 0], now: now)
        expectTrue(layout(kanban) == [["doin01", "doin02"], [], ["bare01", "full01"]])
        expectTrue(kanban.archive.isEmpty)
        var full = archived[0].item
        full.entered = now
        full.trail = [TrailEntry(board: id("todo"), time: now)]
        expectTrue(kanban[Location(board: 2, index: 1)] == full)
        expectTrue(kanban[Location(board: 2, index: 1)].created == earlier)
        expectTrue(kanban[Location(board: 0, index: 1)].entered == now)
        expectTrue(
            change.items == [
                ItemChange(
                    id: id("doin02"), title: "Doing two", from: nil, to: Slot(board: "Doing", index: 1),
                    archive: .restored),
                ItemChange(
                    id: id("full01"), title: "Full", from: nil, to: Slot(board: "Todo", index: 1), archive: .restored),
            ])
        expectTrue(change.isEffective)
    }

    func restoredCardsGoWhereTheyAreSent() throws {
        var kanban = try withArchive()
        try kanban.restore([0, 1, 0], to: 2, now: now)
        expectTrue(layout(kanban) == [["bare01"], ["doin01"], ["full01", "doin02"]])
        expectTrue(kanban.archive.isEmpty)
    }

    func restoringIntoAFullBoardNeedsForce() throws {
        var kanban = try withArchive()
        try kanban.move([bareCard.with(index: 0)], to: 1)  // Doing is full again
        let before = kanban
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 2, resulting: 3)) {
            try kanban.restore([1], now: now)
        }
        #expect(throws: KanbanError.wipLimit(board: "Doing", limit: 2, current: 2, resulting: 4)) {
            try kanban.restore([0, 1], to: 1, now: now)
        }
        expectTrue(kanban == before)
        try kanban.restore([0, 1], to: 1, force: true, now: now)
        expectTrue(layout(kanban)[1] == ["doin01", "bare01", "full01", "doin02"])
    }

    func everyCardCountsAgainstTheLimitOfTheBoardItGoesTo() throws {
        var kanban = try withArchive()
        try kanban.setLimit(of: 0, to: 1)  // Todo holds Bare
        // Full goes back to Todo (full), Doing two to Doing (room for one): refused whole.
        #expect(throws: KanbanError.wipLimit(board: "Todo", limit: 1, current: 1, resulting: 2)) {
            try kanban.restore([0, 1], now: now)
        }
        try kanban.restore([1], now: now)
        expectTrue(layout(kanban)[1] == ["doin01", "doin02"])
    }

    func aCardWhoseBoardIsGoneNeedsADestination() throws {
        var kanban = try withArchive()
        try kanban.removeBoard(1, force: true)
        let before = kanban
        #expect(
            throws: KanbanError.restoreNeedsBoard(
                item: Candidate(id: id("doin02"), title: "Doing two", board: "doing", index: nil))
        ) { try kanban.restore([0, 1], now: now) }
        expectTrue(kanban == before)
        expectTrue(
            kanban.archivedCandidate(at: 1)
                == Candidate(id: id("doin02"), title: "Doing two", board: "doing", index: nil))
        expectTrue(
            kanban.archivedCandidate(at: 0) == Candidate(id: id("full01"), title: "Full", board: "Todo", index: nil))
        try kanban.restore([1], to: 1, now: now)
        expectTrue(layout(kanban) == [["bare01"], ["doin02"]])
    }

    func aSelectionThatIsNotInTheArchiveIsRefused() throws {
        var kanban = try withArchive()
        let before = kanban
        for selection in [[2], [-1], [0, 5], [Int.min]] {
            #expect(throws: KanbanError.self) { try kanban.restore(selection, now: now) }
        }
        #expect(throws: KanbanError.self) { try kanban.restore([0], to: 7, now: now) }
        expectTrue(kanban == before)
        expectTrue(kanban.archivedCandidate(at: 2) == nil)
        expectTrue(kanban.archivedCandidate(at: -1) == nil)
    }
}

@Suite("What drops do to a card's fields")
struct DropContentTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aCopyHasTheOriginalsContentAndIsCreatedAndEntersNow
        case aMoveToAnotherBoardEntersItNowAndAReorderDoesNot
        case addedCardsGetTheirContentAndAreCreatedAndEnterNow
        case anAddedCardWhoseNoteBreaksItsRulesIsRefused
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aCopyHasTheOriginalsContentAndIsCreatedAndEntersNow:
            try aCopyHasTheOriginalsContentAndIsCreatedAndEntersNow()
        case .aMoveToAnotherBoardEntersItNowAndAReorderDoesNot: try aMoveToAnotherBoardEntersItNowAndAReorderDoesNot()
        case .addedCardsGetTheirContentAndAreCreatedAndEnterNow: try addedCardsGetTheirContentAndAreCreatedAndEnterNow()
        case .anAddedCardWhoseNoteBreaksItsRulesIsRefused: try anAddedCardWhoseNoteBreaksItsRulesIsRefused()
        }
    }

    func aCopyHasTheOriginalsContentAndIsCreatedAndEntersNow() throws {
        var kanban = try contentKanban()
        var generator = SeededGenerator(seed: 7)
        let change = try kanban.copy([fullCard], to: 2, now: now, using: &generator)
        let original = try contentKanban()[fullCard]
        let copy = kanban[Location(board: 2, index: 0)]
        expectTrue(copy.id == change.items[0].id && copy.id != original.id)
        expectTrue(
            copy
                == Item(
                    id: copy.id, title: original.title, labels: original.labels, due: original.due, created: now,
                    entered: now, trail: [TrailEntry(board: id("done"), time: now)],
                    note: original.note))
        expectTrue(kanban[fullCard] == original)
        expectTrue(change.items[0].copyOf == original.id)
    }

    func aMoveToAnotherBoardEntersItNowAndAReorderDoesNot() throws {
        var kanban = try contentKanban()
        try kanban.move([fullCard], to: 2, now: now)
        let moved = kanban[Location(board: 2, index: 0)]
        expectTrue(moved.entered == now)
        expectTrue(moved.created == earlier)
        expectTrue(moved.labels == ["bug", "P1"] && moved.note == "line 1\nline 2")
        try kanban.move([Location(board: 1, index: 1)], to: 1, at: .top, now: now)
        expectTrue(kanban[Location(board: 1, index: 0)].id == id("doin02"))
        expectTrue(kanban[Location(board: 1, index: 0)].entered == earlier)
        // A move with one card from another board and one reordered: only the first enters.
        try kanban.move(
            [Location(board: 0, index: 0), Location(board: 1, index: 1)], to: 1, force: true,
            now: now.adding(seconds: 5))
        expectTrue(layout(kanban)[1] == ["doin02", "bare01", "doin01"])
        expectTrue(kanban.boards[1].items.map(\.entered) == [earlier, now.adding(seconds: 5), earlier])
    }

    func addedCardsGetTheirContentAndAreCreatedAndEnterNow() throws {
        var kanban = try contentKanban()
        var generator = SeededGenerator(seed: 8)
        let day = Day(year: 2026, month: 12, day: 24)
        try kanban.insert(
            [
                CardContent(title: try Title("One"), labels: ["x", "Y"], due: day, note: "a\r\nb"),
                CardContent(title: try Title("Two")),
            ], into: 2, now: now, using: &generator)
        let (one, two) = (kanban[Location(board: 2, index: 0)], kanban[Location(board: 2, index: 1)])
        expectTrue(
            one
                == Item(
                    id: one.id, title: "One", labels: ["x", "Y"], due: day, created: now, entered: now,
                    trail: [TrailEntry(board: id("done"), time: now)], note: "a\nb"))
        expectTrue(
            two == Item(id: two.id, title: "Two", created: now, entered: now, trail: [TrailEntry(board: id("done"), time: now)]))
    }

    func anAddedCardWhoseNoteBreaksItsRulesIsRefused() throws {
        var kanban = try contentKanban()
        let before = kanban
        var generator = SeededGenerator(seed: 9)
        for note in ["bell\u{7}", String(repeating: "x", count: 65_537), "\r"] {
            let error = #expect(throws: KanbanError.self) {
                try kanban.insert(
                    [CardContent(title: try Title("ok")), CardContent(title: try Title("bad"), note: note)], into: 2,
                    now: now, using: &generator)
            }
            guard case .invalidValue(.note, _, _) = error else {
                Issue.record("expected invalidValue(.note), got \(String(describing: error))")
                continue
            }
        }
        expectTrue(kanban == before)
        #expect(throws: Never.self) { try kanban.validate() }
    }
}

extension Location {
    func with(index: Int) -> Location { Location(board: board, index: index) }
}
