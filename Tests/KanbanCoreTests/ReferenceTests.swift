import Testing

@testable import KanbanCore

@Suite("Item and board references")
struct ReferenceTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case everyItemIsFoundByIdByTitleAndByPosition
        case theTutorialsMoveFindsAnalytics
        case anIdWinsOverATitle
        case aTitleWinsOverAPosition
        case titlesMatchExactlyAndCaseSensitively
        case anUnknownReferenceSuggestsCloseMatchesAndNeverResolvesFuzzily
        case anUnknownIdSuggestsTheCloseId
        case aReferenceNothingIsCloseToHasNoSuggestions
        case aScopeLimitsTheTitleSearchToOneBoard
        case anAmbiguousTitleListsCandidatesAndTheTotal
        case twoMatchesListBoth
        case aPositionSplitsAtTheLastColon
        case aPositionNamesItsBoardCaseInsensitively
        case aPositionTooLargeForAnIndexNamesNothing
        case aPositionInAnEmptyBoardIsOutOfRange
        case aPositionInAnUnknownBoardIsBoardNotFound
        case severalReferencesResolveAgainstTheKanbanBeforeAnyChange
        case severalReferencesKeepOrderAndDuplicates
        case oneBadReferenceFailsTheWholeList
        case aPrefixOfSeveralIDsListsThemAll
        case aPrefixComesAfterAnIDATitleAndAPosition
        case aPrefixNamesCardsOnBoardsOnly
        case prefixesResolveAmongOtherReferences
        case anArchivedPrefixOfSeveralIDsIsAmbiguous
        case boardsAreFoundExactlyThenIgnoringCaseThenByID
        case anUnknownBoardSuggestsCloseTitlesAndListsAll
        case closestSuggestionsAreOrderedBestFirstAndLimited
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .everyItemIsFoundByIdByTitleAndByPosition: try everyItemIsFoundByIdByTitleAndByPosition()
        case .theTutorialsMoveFindsAnalytics: try theTutorialsMoveFindsAnalytics()
        case .anIdWinsOverATitle: try anIdWinsOverATitle()
        case .aTitleWinsOverAPosition: try aTitleWinsOverAPosition()
        case .titlesMatchExactlyAndCaseSensitively: try titlesMatchExactlyAndCaseSensitively()
        case .anUnknownReferenceSuggestsCloseMatchesAndNeverResolvesFuzzily:
            try anUnknownReferenceSuggestsCloseMatchesAndNeverResolvesFuzzily()
        case .anUnknownIdSuggestsTheCloseId: try anUnknownIdSuggestsTheCloseId()
        case .aReferenceNothingIsCloseToHasNoSuggestions: try aReferenceNothingIsCloseToHasNoSuggestions()
        case .aScopeLimitsTheTitleSearchToOneBoard: try aScopeLimitsTheTitleSearchToOneBoard()
        case .anAmbiguousTitleListsCandidatesAndTheTotal: try anAmbiguousTitleListsCandidatesAndTheTotal()
        case .twoMatchesListBoth: try twoMatchesListBoth()
        case .aPositionSplitsAtTheLastColon: try aPositionSplitsAtTheLastColon()
        case .aPositionNamesItsBoardCaseInsensitively: try aPositionNamesItsBoardCaseInsensitively()
        case .aPositionTooLargeForAnIndexNamesNothing: try aPositionTooLargeForAnIndexNamesNothing()
        case .aPositionInAnEmptyBoardIsOutOfRange: try aPositionInAnEmptyBoardIsOutOfRange()
        case .aPositionInAnUnknownBoardIsBoardNotFound: try aPositionInAnUnknownBoardIsBoardNotFound()
        case .severalReferencesResolveAgainstTheKanbanBeforeAnyChange:
            try severalReferencesResolveAgainstTheKanbanBeforeAnyChange()
        case .severalReferencesKeepOrderAndDuplicates: try severalReferencesKeepOrderAndDuplicates()
        case .oneBadReferenceFailsTheWholeList: try oneBadReferenceFailsTheWholeList()
        case .aPrefixOfSeveralIDsListsThemAll: try aPrefixOfSeveralIDsListsThemAll()
        case .aPrefixComesAfterAnIDATitleAndAPosition: try aPrefixComesAfterAnIDATitleAndAPosition()
        case .aPrefixNamesCardsOnBoardsOnly: try aPrefixNamesCardsOnBoardsOnly()
        case .prefixesResolveAmongOtherReferences: try prefixesResolveAmongOtherReferences()
        case .anArchivedPrefixOfSeveralIDsIsAmbiguous: try anArchivedPrefixOfSeveralIDsIsAmbiguous()
        case .boardsAreFoundExactlyThenIgnoringCaseThenByID: try boardsAreFoundExactlyThenIgnoringCaseThenByID()
        case .anUnknownBoardSuggestsCloseTitlesAndListsAll: try anUnknownBoardSuggestsCloseTitlesAndListsAll()
        case .closestSuggestionsAreOrderedBestFirstAndLimited: closestSuggestionsAreOrderedBestFirstAndLimited()
        }
    }

    /// The tutorial's data with readable ids.
    func sample() throws -> Kanban {
        try makeKanban(
            [["t0a1", "t1a1", "t2a1", "t3a1"], ["p0a1", "p1a1", "p2a1"], ["d0a1", "d1a1"]],
            titles: ["Todo", "In Progress", "Done"],
            itemTitles: [
                "t0a1": "Database Migration", "t1a1": "Schema Design", "t2a1": "Storage Management",
                "t3a1": "Model Abstraction", "p0a1": "Push Notification", "p1a1": "Analytics",
                "p2a1": "Machine Learning", "d0a1": "System Architecture", "d1a1": "Alert & Debugging",
            ])
    }

    // MARK: - Resolution order

    func everyItemIsFoundByIdByTitleAndByPosition() throws {
        let kanban = try sample()
        for location in allLocations(kanban) {
            let item = kanban[location]
            try expectEqual(kanban.locate(item.id.rawValue), location)
            try expectEqual(kanban.locate(item.title), location)
            try expectEqual(kanban.locate("\(kanban.boards[location.board].title):\(location.index)"), location)
        }
    }

    func theTutorialsMoveFindsAnalytics() throws {
        var kanban = try sample()
        let done = try kanban.boardIndex(named: "Done")
        let analytics = try kanban.locate("Analytics")
        try kanban.move([analytics], to: done, at: .index(0))
        expectEqual(kanban.boards[2].items.map(\.title), ["Analytics", "System Architecture", "Alert & Debugging"])
    }

    func anIdWinsOverATitle() throws {
        // "b2" is both the id of Doing's item and the title of Todo's.
        let kanban = try makeKanban([["a1"], ["b2"]], itemTitles: ["a1": "b2"])
        try expectEqual(kanban.locate("b2"), Location(board: 1, index: 0))
    }

    func aTitleWinsOverAPosition() throws {
        let kanban = try makeKanban([["a1", "a2"], ["b1"]], itemTitles: ["b1": "Todo:0"])
        try expectEqual(kanban.locate("Todo:0"), Location(board: 1, index: 0))
        try expectEqual(kanban.locate("Todo:1"), Location(board: 0, index: 1))
    }

    func titlesMatchExactlyAndCaseSensitively() throws {
        let kanban = try sample()
        for reference in ["analytics", "ANALYTICS", "Analytics ", " Analytics", "Analytic"] {
            let error = #expect(throws: KanbanError.self) { try kanban.locate(reference) }
            guard case .itemNotFound(let name, let suggestions) = error else {
                Issue.record("expected itemNotFound for \(reference), got \(String(describing: error))")
                continue
            }
            expectEqual(name, reference)
            expectEqual(suggestions.first?.title, "Analytics", "\(reference)")
        }
    }

    func anUnknownReferenceSuggestsCloseMatchesAndNeverResolvesFuzzily() throws {
        let kanban = try sample()
        let error = #expect(throws: KanbanError.self) { try kanban.locate("Analitics") }
        guard case .itemNotFound(let reference, let suggestions) = error else {
            Issue.record("expected itemNotFound, got \(String(describing: error))")
            return
        }
        expectEqual(reference, "Analitics")
        expectTrue(suggestions.first == Candidate(id: ItemID("p1a1")!, title: "Analytics", board: "In Progress", index: 1))
        expectTrue(suggestions.count <= 3)
    }

    func anUnknownIdSuggestsTheCloseId() throws {
        let kanban = try sample()
        let error = #expect(throws: KanbanError.self) { try kanban.locate("p1b1") }
        guard case .itemNotFound(_, let suggestions) = error else {
            Issue.record("expected itemNotFound, got \(String(describing: error))")
            return
        }
        expectTrue(suggestions.contains { $0.id.rawValue == "p1a1" })
    }

    func aReferenceNothingIsCloseToHasNoSuggestions() throws {
        let kanban = try sample()
        #expect(throws: KanbanError.itemNotFound(reference: "zzzzzzzzzzzz", suggestions: [])) {
            try kanban.locate("zzzzzzzzzzzz")
        }
    }

    // MARK: - Scope

    func aScopeLimitsTheTitleSearchToOneBoard() throws {
        let kanban = try makeKanban(
            [["a1", "a2"], ["b1"], ["c1"]], itemTitles: ["a1": "Fix", "a2": "Other", "b1": "Fix", "c1": "Only here"])
        try expectEqual(kanban.locate("Fix", within: 1), Location(board: 1, index: 0))
        try expectEqual(kanban.locate("Fix", within: 0), Location(board: 0, index: 0))
        let error = #expect(throws: KanbanError.self) { try kanban.locate("Only here", within: 0) }
        guard case .itemNotFound = error else {
            Issue.record("a title outside the scope was found: \(String(describing: error))")
            return
        }
        // Ids are found anywhere, scope or not.
        try expectEqual(kanban.locate("c1", within: 0), Location(board: 2, index: 0))
    }

    // MARK: - Ambiguity

    func anAmbiguousTitleListsCandidatesAndTheTotal() throws {
        let ids = (0..<12).map { "f\($0)x" }
        var titles = Dictionary(uniqueKeysWithValues: ids.map { ($0, "Fix") })
        titles["f5x"] = "Fix it"
        let kanban = try makeKanban([Array(ids[..<6]), Array(ids[6...])], itemTitles: titles)
        let error = #expect(throws: KanbanError.self) { try kanban.locate("Fix") }
        guard case .ambiguousItem(let reference, let candidates, let total) = error else {
            Issue.record("expected ambiguousItem, got \(String(describing: error))")
            return
        }
        expectEqual(reference, "Fix")
        expectEqual(total, 11)
        expectTrue(candidates.count >= 2 && candidates.count <= total)
        let matching = allLocations(kanban).filter { kanban[$0].title == "Fix" }.map { candidate(kanban, $0) }
        expectEqual(candidates, Array(matching.prefix(candidates.count)))
    }

    func twoMatchesListBoth() throws {
        let kanban = try makeKanban([["a1"], ["b1"]], itemTitles: ["a1": "Fix", "b1": "Fix"])
        #expect(
            throws: KanbanError.ambiguousItem(
                reference: "Fix",
                candidates: [
                    Candidate(id: ItemID("a1")!, title: "Fix", board: "Todo", index: 0),
                    Candidate(id: ItemID("b1")!, title: "Fix", board: "Doing", index: 0),
                ], total: 2)
        ) { try kanban.locate("Fix") }
    }

    // MARK: - BOARD:N

    func aPositionSplitsAtTheLastColon() throws {
        let kanban = try makeKanban([["a1", "a2"], ["b1", "b2", "b3"]], titles: ["Q1: Goals", "Q1: Goals:Stretch"])
        try expectEqual(kanban.locate("Q1: Goals:1"), Location(board: 0, index: 1))
        try expectEqual(kanban.locate("Q1: Goals:Stretch:2"), Location(board: 1, index: 2))
    }

    func aPositionNamesItsBoardCaseInsensitively() throws {
        let kanban = try sample()
        try expectEqual(kanban.locate("in progress:2"), Location(board: 1, index: 2))
    }

    @Test(
        arguments: [
            ("Todo:4", 4, "Todo", 0...3), ("Done:2", 2, "Done", 0...1),
        ] as [(String, Int, String, ClosedRange<Int>)])
    func aPositionOutOfRangeIsAnError(reference: String, index: Int, board: String, range: ClosedRange<Int>) throws {
        let kanban = try sample()
        #expect(throws: KanbanError.indexOutOfRange(index: index, board: board, range: range)) {
            try kanban.locate(reference)
        }
    }

    /// A number too large for an index is not reported as some other, smaller index.
    func aPositionTooLargeForAnIndexNamesNothing() throws {
        let kanban = try sample()
        #expect(throws: KanbanError.itemNotFound(reference: "Done:99999999999999999999999", suggestions: [])) {
            try kanban.locate("Done:99999999999999999999999")
        }
    }

    func aPositionInAnEmptyBoardIsOutOfRange() throws {
        let kanban = try makeKanban([["a1"], []])
        #expect(throws: KanbanError.indexOutOfRange(index: 0, board: "Doing", range: nil)) {
            try kanban.locate("Doing:0")
        }
    }

    func aPositionInAnUnknownBoardIsBoardNotFound() throws {
        let kanban = try sample()
        let error = #expect(throws: KanbanError.self) { try kanban.locate("Dnoe:1") }
        guard case .boardNotFound(let name, let suggestions, let boards) = error else {
            Issue.record("expected boardNotFound, got \(String(describing: error))")
            return
        }
        expectEqual(name, "Dnoe")
        expectEqual(suggestions.first, "Done")
        expectEqual(boards, ["Todo", "In Progress", "Done"])
    }

    @Test(arguments: ["Todo:", ":0", "Todo:-1", "Todo:+1", "Todo:1a", "Todo: 1", "Todo:١"])
    func somethingThatIsNotAPositionIsNotFound(reference: String) throws {
        let kanban = try sample()
        let error = #expect(throws: KanbanError.self) { try kanban.locate(reference) }
        guard case .itemNotFound(let name, _) = error else {
            Issue.record("expected itemNotFound for \(reference), got \(String(describing: error))")
            return
        }
        expectEqual(name, reference)
    }

    // MARK: - Several references

    func severalReferencesResolveAgainstTheKanbanBeforeAnyChange() throws {
        var kanban = try sample()
        let locations = try kanban.locate(["Todo:0", "Todo:1"])
        expectEqual(locations, [Location(board: 0, index: 0), Location(board: 0, index: 1)])
        try kanban.move(locations, to: 2)
        expectEqual(kanban.boards[0].items.map(\.title), ["Storage Management", "Model Abstraction"])
        expectEqual(kanban.boards[2].items.map(\.title).suffix(2), ["Database Migration", "Schema Design"])
    }

    func severalReferencesKeepOrderAndDuplicates() throws {
        let kanban = try sample()
        let locations = try kanban.locate(["Done:1", "t0a1", "Analytics", "t0a1"])
        expectTrue(
            locations == [
                Location(board: 2, index: 1), Location(board: 0, index: 0), Location(board: 1, index: 1),
                Location(board: 0, index: 0),
            ])
        try expectEqual(kanban.locate([]), [])
    }

    func oneBadReferenceFailsTheWholeList() throws {
        let kanban = try sample()
        let error = #expect(throws: KanbanError.self) { try kanban.locate(["Todo:0", "Nope", "Done:0"]) }
        guard case .itemNotFound(let reference, _) = error else {
            Issue.record("expected itemNotFound, got \(String(describing: error))")
            return
        }
        expectEqual(reference, "Nope")
    }

    // MARK: - Id prefixes

    /// Ids that share beginnings: k3f9p2 and k3f1zz share `k3f`; abc is the start of abcdef.
    func prefixed() throws -> Kanban {
        try makeKanban(
            [["k3f9p2", "p2x1q7", "abc"], ["k3f1zz", "abcdef", "x9"]],
            itemTitles: [
                "k3f9p2": "One", "p2x1q7": "Two", "abc": "Three", "k3f1zz": "Four", "abcdef": "Five", "x9": "p2x",
            ])
    }

    @Test(arguments: [
        ("k3f9", Location(board: 0, index: 0)), ("k3f9p", Location(board: 0, index: 0)),
        ("k3f1", Location(board: 1, index: 0)),
        ("p2x1", Location(board: 0, index: 1)), ("p2x1q", Location(board: 0, index: 1)),
        ("abcd", Location(board: 1, index: 1)),
    ])
    func aPrefixOfOneIDResolves(reference: String, location: Location) throws {
        try expectEqual(prefixed().locate(reference), location)
    }

    func aPrefixOfSeveralIDsListsThemAll() throws {
        let kanban = try prefixed()
        #expect(
            throws: KanbanError.ambiguousPrefix(
                reference: "k3f",
                candidates: [
                    Candidate(id: ItemID("k3f9p2")!, title: "One", board: "Todo", index: 0),
                    Candidate(id: ItemID("k3f1zz")!, title: "Four", board: "Doing", index: 0),
                ], total: 2)
        ) { try kanban.locate("k3f") }
    }

    @Test(arguments: ["k3", "p2", "k", "x", "ab"])
    func aPrefixNeedsThreeCharacters(reference: String) throws {
        let error = #expect(throws: KanbanError.self) { try prefixed().locate(reference) }
        guard case .itemNotFound(let name, _) = error else {
            Issue.record("expected itemNotFound for \(reference), got \(String(describing: error))")
            return
        }
        expectEqual(name, reference)
    }

    func aPrefixComesAfterAnIDATitleAndAPosition() throws {
        let kanban = try prefixed()
        // `abc` is an id, and the start of abcdef.
        try expectEqual(kanban.locate("abc"), Location(board: 0, index: 2))
        // `p2x` is a title, and the start of p2x1q7.
        try expectEqual(kanban.locate("p2x"), Location(board: 1, index: 2))
        // A title or a position that names nothing is not taken for a prefix either.
        #expect(throws: KanbanError.indexOutOfRange(index: 7, board: "Todo", range: 0...2)) {
            try kanban.locate("Todo:7")
        }
    }

    func aPrefixNamesCardsOnBoardsOnly() throws {
        var kanban = try makeKanban([["k3f9p2"], []])
        kanban.boards[1].id = try require(ItemID("brd123"))
        for reference in ["brd", "brd12", "k3f9p2x", "k3f-", "k3 f"] {
            let error = #expect(throws: KanbanError.self) { try kanban.locate(reference) }
            guard case .itemNotFound = error else {
                Issue.record("\(reference): expected itemNotFound, got \(String(describing: error))")
                continue
            }
        }
        try kanban.archive([Location(board: 0, index: 0)], now: Timestamp(seconds: 0))
        #expect(throws: KanbanError.self) { try kanban.locate("k3f") }
        try expectEqual(kanban.locateArchived(["k3f"]), [0])
    }

    func prefixesResolveAmongOtherReferences() throws {
        let kanban = try prefixed()
        expectTrue(
            try kanban.locate(["x9", "k3f9", "Todo:1", "Five", "abcd"]) == [
                Location(board: 1, index: 2), Location(board: 0, index: 0), Location(board: 0, index: 1),
                Location(board: 1, index: 1), Location(board: 1, index: 1),
            ])
    }

    func anArchivedPrefixOfSeveralIDsIsAmbiguous() throws {
        var kanban = try prefixed()
        try kanban.archive([Location(board: 0, index: 0), Location(board: 1, index: 0)], now: Timestamp(seconds: 0))
        let error = #expect(throws: KanbanError.self) { try kanban.locateArchived(["k3f"]) }
        guard case .ambiguousPrefix("k3f", let candidates, 2) = error else {
            Issue.record("expected ambiguousPrefix, got \(String(describing: error))")
            return
        }
        expectEqual(candidates.map(\.id.rawValue), ["k3f9p2", "k3f1zz"])
        expectTrue(candidates.allSatisfy { $0.index == nil })
        try expectEqual(kanban.locateArchived(["k3f1"]), [1])
    }

    // MARK: - Boards

    func boardsAreFoundExactlyThenIgnoringCaseThenByID() throws {
        var kanban = try sample()
        try expectEqual(kanban.boardIndex(named: "In Progress"), 1)
        try expectEqual(kanban.boardIndex(named: "in progress"), 1)
        try expectEqual(kanban.boardIndex(named: "DONE"), 2)
        try expectEqual(kanban.boardIndex(named: kanban.boards[1].id.rawValue), 1)
        // A title wins over another board's id.
        try kanban.renameBoard(0, to: Title(kanban.boards[2].id.rawValue))
        try expectEqual(kanban.boardIndex(named: kanban.boards[2].id.rawValue), 0)
    }

    func anUnknownBoardSuggestsCloseTitlesAndListsAll() throws {
        let kanban = try sample()
        #expect(
            throws: KanbanError.boardNotFound(name: "doing", suggestions: [], boards: ["Todo", "In Progress", "Done"])
        ) { try kanban.boardIndex(named: "doing") }
        let error = #expect(throws: KanbanError.self) { try kanban.boardIndex(named: "In Progres") }
        guard case .boardNotFound(_, let suggestions, _) = error else {
            Issue.record("expected boardNotFound, got \(String(describing: error))")
            return
        }
        expectEqual(suggestions, ["In Progress"])
    }

    @Test(
        arguments: [
            ("Analytics", "Analytics", 0), ("analytics", "Analytics", 0), ("Anal", "Analytics", 1),
            ("Analitics", "Analytics", 2), ("Anlaytics", "Analytics", 2), ("Analytcs", "Analytics", 2),
            ("Dnoe", "Done", 2),
        ] as [(String, String, Int)])
    func suggestionDistanceRanksCloseWords(word: String, candidate: String, distance: Int) {
        expectEqual(Suggestions.distance(word, candidate), distance)
    }

    @Test(arguments: [("xyz", "Analytics"), ("Done", "Todo"), ("ab", "ba c"), ("Machine", "Learning")])
    func suggestionDistanceRejectsFarWords(word: String, candidate: String) {
        expectTrue(Suggestions.distance(word, candidate) == nil)
    }

    func closestSuggestionsAreOrderedBestFirstAndLimited() {
        let candidates = ["Done", "Dome", "Doen", "Dine", "Todo", "done"]
        expectEqual(Suggestions.closest(to: "done", among: candidates), ["Done", "done", "Dome"])
        expectEqual(Suggestions.closest(to: "done", among: candidates, limit: 1), ["Done"])
        expectTrue(Suggestions.closest(to: "qqqq", among: candidates).isEmpty)
    }
}
