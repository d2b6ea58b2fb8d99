import KanbanCore
import Testing

@testable import kanban

private func board(_ title: String, limit: Int? = nil, _ items: [(String, String)]) -> Board {
    Board(
        id: ItemID("B\(title.unicodeScalars.count)\(title.utf8.first ?? 0)")!, title: title, limit: limit,
        items: items.map { Item(id: ItemID($0.0)!, title: $0.1) })
}

private let plain = Style(enabled: false)

private let sample = [
    board("Todo", [("k3f9", "Database Migration"), ("p2x1", "Schema Design")]),
    board("In Progress", limit: 1, [("a1b2", "Analytics")]),
    board("Done", []),
]

@Suite struct BoardViewText {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case stackedSectionsShowIndexIdAndTitle
        case columnsStandSideBySideWithinTheWidth
        case aHugeLimitOrAWideTitleStaysInsideItsColumn
        case narrowTerminalsStack
        case notATerminalStacksWhateverTheWidth
        case longTitlesWrapInsideTheirColumn
        case colorOnlyWhenEnabled
        case tsvHasSevenFieldsPerItemAndKeepsIndexesWhenFiltered
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .stackedSectionsShowIndexIdAndTitle: stackedSectionsShowIndexIdAndTitle()
        case .columnsStandSideBySideWithinTheWidth: try columnsStandSideBySideWithinTheWidth()
        case .aHugeLimitOrAWideTitleStaysInsideItsColumn: try aHugeLimitOrAWideTitleStaysInsideItsColumn()
        case .narrowTerminalsStack: narrowTerminalsStack()
        case .notATerminalStacksWhateverTheWidth: notATerminalStacksWhateverTheWidth()
        case .longTitlesWrapInsideTheirColumn: try longTitlesWrapInsideTheirColumn()
        case .colorOnlyWhenEnabled: colorOnlyWhenEnabled()
        case .tsvHasSevenFieldsPerItemAndKeepsIndexesWhenFiltered:
            try tsvHasSevenFieldsPerItemAndKeepsIndexesWhenFiltered()
        }
    }

    func stackedSectionsShowIndexIdAndTitle() {
        let text = BoardView.stacked(sample, style: plain)
        expectTrue(
            text == """
                Todo (2)
                  0  k3f9  Database Migration
                  1  p2x1  Schema Design

                In Progress (1/1)
                  0  a1b2  Analytics

                Done (0)
                  (empty)

                """)
    }

    func columnsStandSideBySideWithinTheWidth() throws {
        let text = try require(BoardView.columns(sample, width: 80, style: plain))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        expectTrue(lines.count == 4)  // header, rule, two cards
        expectTrue(lines[0].hasPrefix("Todo (2)"))
        expectTrue(lines[0].contains("│ In Progress (1/1)"))
        expectTrue(lines[0].contains("│ Done (0)"))
        expectTrue(lines[2].contains("k3f9 Database Migration"))
        expectTrue(lines[2].contains("a1b2 Analytics"))
        expectTrue(lines[2].contains("(empty)"))
        for line in lines {
            expectTrue(DisplayWidth.of(String(line)) <= 80, "too wide: \(line)")
            expectTrue(line.last != " ")
        }
    }

    func aHugeLimitOrAWideTitleStaysInsideItsColumn() throws {
        let boards = [
            board("漢字漢字漢字漢字漢字漢字", limit: Int.max, [("k3f9", "x")]),
            board("In Progress", limit: 100_000_000_000, []), board("Done", []),
        ]
        for width in [54, 60, 70, 80] {
            let text = try require(BoardView.columns(boards, width: width, style: plain))
            for line in text.split(separator: "\n") {
                expectTrue(DisplayWidth.of(String(line)) <= width, "\(width): \(line)")
            }
        }
    }

    func narrowTerminalsStack() {
        expectTrue(BoardView.columns(sample, width: 40, style: plain) == nil)
        let terminal = Terminal(isTerminal: true, width: 40, color: false)
        expectEqual(BoardView.render(sample, on: terminal), BoardView.stacked(sample, style: plain))
    }

    func notATerminalStacksWhateverTheWidth() {
        let terminal = Terminal(isTerminal: false, width: 200, color: false)
        expectEqual(BoardView.render(sample, on: terminal), BoardView.stacked(sample, style: plain))
    }

    func longTitlesWrapInsideTheirColumn() throws {
        let long = [
            board("A", [("k3f9", "a title much longer than any column could ever hold in one line")]), board("B", []),
        ]
        let text = try require(BoardView.columns(long, width: 50, style: plain))
        let lines = text.split(separator: "\n")
        expectTrue(lines.count > 3)
        for line in lines { expectTrue(DisplayWidth.of(String(line)) <= 50) }
        expectTrue(lines[3].hasPrefix("     "))  // continuation lines are indented past the id
    }

    func colorOnlyWhenEnabled() {
        expectTrue(!BoardView.stacked(sample, style: plain).contains("\u{1B}"))
        expectTrue(BoardView.stacked(sample, style: Style(enabled: true)).contains("\u{1B}["))
    }

    func tsvHasSevenFieldsPerItemAndKeepsIndexesWhenFiltered() throws {
        var labelled = sample
        labelled[0].items[1].labels = ["bug", "p1"]
        labelled[0].items[1].due = Day(iso: "2026-12-01")
        let all = labelled.map { FilteredBoard(board: $0, indices: Array($0.items.indices)) }
        expectTrue(
            TSV.boards(all) == """
                Todo\t0\tk3f9\tDatabase Migration\t\t\t\t
                Todo\t1\tp2x1\tSchema Design\tbug,p1\t2026-12-01\t\t
                In Progress\t0\ta1b2\tAnalytics\t\t\t\t

                """)
        let filtered = [FilteredBoard(board: labelled[0], indices: [1])]
        expectEqual(TSV.boards(filtered), "Todo\t1\tp2x1\tSchema Design\tbug,p1\t2026-12-01\t\t\n")
        // The last column names the fields with a recorded conflict (README: Working together).
        let title = try require(ConflictField(rawValue: "title"))
        labelled[0].items[1].conflicts[title] = RecordedConflict(field: title, base: nil, theirs: .line("x"))
        let due = try require(ConflictField(rawValue: "due"))
        labelled[0].items[1].conflicts[due] = RecordedConflict(field: due, base: nil, theirs: nil)
        let conflicted = [FilteredBoard(board: labelled[0], indices: [1])]
        expectEqual(TSV.boards(conflicted), "Todo\t1\tp2x1\tSchema Design\tbug,p1\t2026-12-01\tdue,title\t\n")
        // And the one after it, the names the card is assigned to.
        labelled[0].items[1].assignees = ["bob", "alice"]
        expectTrue(
            TSV.boards(conflicted.map { _ in FilteredBoard(board: labelled[0], indices: [1]) })
                == "Todo\t1\tp2x1\tSchema Design\tbug,p1\t2026-12-01\tdue,title\talice,bob\n")
    }
}

@Suite struct EscapingStoredText {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case controlCharactersBecomeVisibleEscapes
        case noViewPrintsARawEscape
        case errorMessagesEscapeValues
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .controlCharactersBecomeVisibleEscapes: controlCharactersBecomeVisibleEscapes()
        case .noViewPrintsARawEscape: try noViewPrintsARawEscape()
        case .errorMessagesEscapeValues: errorMessagesEscapeValues()
        }
    }

    static let hostile = "evil\u{1B}]0;pwned\u{07}\u{1B}[2J tab\there \u{9B}31m"

    func controlCharactersBecomeVisibleEscapes() {
        let visible = Escape.visible(Self.hostile)
        expectTrue(!visible.unicodeScalars.contains { $0.isControl })
        expectEqual(visible, "evil\\u{1B}]0;pwned\\u{7}\\u{1B}[2J tab\\there \\u{9B}31m")
        expectEqual(Escape.visible("plain — ünïcode 漢字"), "plain — ünïcode 漢字")
    }

    /// Not controls, but they reorder or break the line they are printed in.
    @Test(
        arguments: [
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C, 0x2028,
            0x2029,
        ] as [UInt32])
    func bidirectionalControlsAndLineSeparatorsBecomeVisibleEscapes(_ value: UInt32) throws {
        let scalar = try require(Unicode.Scalar(value))
        let hex = String(value, radix: 16, uppercase: true)
        expectEqual(Escape.visible("a" + String(Character(scalar)) + "b"), "a\\u{\(hex)}b")
        // Neighbours that change nothing stay as they are.
        expectEqual(Escape.visible("a\u{2027}\u{202F}\u{200D}\u{2065}b"), "a\u{2027}\u{202F}\u{200D}\u{2065}b")
    }

    func noViewPrintsARawEscape() throws {
        let boards = [board(Self.hostile, [("k3f9", Self.hostile)])]
        for text in [
            BoardView.stacked(boards, style: plain),
            TSV.boards(boards.map { FilteredBoard(board: $0, indices: Array($0.items.indices)) }),
            try require(BoardView.columns(boards, width: 80, style: plain)),
        ] {
            expectTrue(!text.unicodeScalars.contains { $0.isControl && $0 != "\n" && $0 != "\t" })
        }
        expectTrue(
            TSV.boards(boards.map { FilteredBoard(board: $0, indices: Array($0.items.indices)) })
                .split(separator: "\t", omittingEmptySubsequences: false).count == 8)
    }

    func errorMessagesEscapeValues() {
        let error = CLIError.refused(.boardNotFound(name: Self.hostile, suggestions: [], boards: [Self.hostile]))
        expectTrue(!error.message.unicodeScalars.contains { $0.isControl })
    }
}

@Suite struct MeasuringText {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case wrapBreaksAtSpacesAndSplitsLongWords
        case aHugeTitleWrapsWholeAndCompactCutsIt
        case truncateKeepsWithinWidth
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .wrapBreaksAtSpacesAndSplitsLongWords: wrapBreaksAtSpacesAndSplitsLongWords()
        case .aHugeTitleWrapsWholeAndCompactCutsIt: try aHugeTitleWrapsWholeAndCompactCutsIt()
        case .truncateKeepsWithinWidth: truncateKeepsWithinWidth()
        }
    }

    @Test(arguments: [("abc", 3), ("漢字", 4), ("👍", 2), ("é", 1), ("e\u{301}", 1), ("", 0)])
    func displayWidth(_ text: String, _ width: Int) {
        expectEqual(DisplayWidth.of(text), width)
    }

    func wrapBreaksAtSpacesAndSplitsLongWords() {
        expectEqual(BoardView.wrap("one two three", width: 7), ["one two", "three"])
        expectEqual(BoardView.wrap("abcdefghij", width: 4), ["abcd", "efgh", "ij"])
        expectEqual(BoardView.wrap("", width: 4), [""])
        expectEqual(BoardView.wrap("ab cd", width: 5), ["ab cd"])
        expectEqual(BoardView.wrap("漢字漢字", width: 3), ["漢", "字", "漢", "字"])
    }

    func aHugeTitleWrapsWholeAndCompactCutsIt() throws {
        let huge = [board("A", [("k3f9", String(repeating: "x", count: 200_000))]), board("B", [])]
        let text = try require(BoardView.columns(huge, width: 60, style: plain))
        let lines = text.split(separator: "\n")
        // B takes its 7 columns ("(empty)"), A the other 50: 43 after "0 k3f9 ".
        expectEqual(lines.count, 2 + (200_000 + 42) / 43)
        expectTrue(!text.contains("…"))
        for line in lines { expectTrue(DisplayWidth.of(String(line)) <= 60) }
        let compact = try require(
            BoardView.columns(huge.map { BoardText($0) }, width: 60, style: plain, compact: true))
        expectEqual(compact.split(separator: "\n").count, 3)
        expectTrue(compact.split(separator: "\n")[2].hasSuffix("x… │ (empty)"))
    }

    func truncateKeepsWithinWidth() {
        expectEqual(BoardView.truncate("In Progress", to: 5), "In P…")
        expectEqual(BoardView.truncate("Todo", to: 5), "Todo")
        expectTrue(DisplayWidth.of(BoardView.truncate("漢字漢字漢字", to: 5)) <= 5)
    }
}

@Suite struct Reports {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case textNamesTheItemAndBothPlaces
        case jsonHasTheDocumentedShape
        case boardChangesInJSON
        case errorJSONIsOneObject
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) {
        switch check {
        case .textNamesTheItemAndBothPlaces: textNamesTheItemAndBothPlaces()
        case .jsonHasTheDocumentedShape: jsonHasTheDocumentedShape()
        case .boardChangesInJSON: boardChangesInJSON()
        case .errorJSONIsOneObject: errorJSONIsOneObject()
        }
    }

    private let moved = ItemChange(
        id: ItemID("k3f9")!, title: "Analytics", from: Slot(board: "In Progress", index: 1),
        to: Slot(board: "Done", index: 0))

    func textNamesTheItemAndBothPlaces() {
        let report = Report(command: "move", change: Change(items: [moved]), dryRun: false, file: "kanban.json")
        expectEqual(report.text(style: plain), "moved k3f9 'Analytics': In Progress:1 -> Done:0\n")
        let dry = Report(command: "move", change: Change(items: [moved]), dryRun: true, file: "kanban.json")
        expectTrue(dry.text(style: plain).hasPrefix("would move k3f9"))
    }

    func jsonHasTheDocumentedShape() {
        let report = Report(command: "move", change: Change(items: [moved]), dryRun: false, file: "kanban.json")
        expectTrue(
            report.json()
                == #"{"command":"move","file":"kanban.json","dryRun":false,"changed":true,"boards":[],"items":[{"id":"k3f9","title":"Analytics","from":{"board":"In Progress","index":1},"to":{"board":"Done","index":0}}]}"#
                + "\n")
    }

    func boardChangesInJSON() {
        let change = Change(boards: [
            BoardChange(title: "Review", from: 2, to: 2, limit: 2, limitChange: LimitChange(from: nil, to: 2))
        ])
        let json = Report(command: "board limit", change: change, dryRun: false, file: "k.json").json()
        expectTrue(json.contains(#""boards":[{"title":"Review","from":2,"to":2,"limit":2,"previousLimit":null}]"#))
    }

    func errorJSONIsOneObject() {
        expectTrue(
            errorJSON(code: "not_found", message: "no item 'x'")
                == #"{"error":{"code":"not_found","message":"no item 'x'"}}"# + "\n")
    }
}

@Suite struct ExitCodes {
    /// SPEC §5's table, and §4's JSON codes, written out: the exit code of each kind of refusal.
    /// (`conflict` and `no_history` are the codes of §8's and §9's refusals.)
    static let specExitForCode: [String: Int32] = [
        "not_found": 1, "ambiguous": 1, "out_of_range": 1, "wip_limit": 1, "not_empty": 1, "duplicate": 1,
        "conflict": 1, "usage": 64, "bad_input": 65, "corrupt_file": 65, "no_history": 65, "no_file": 66,
        "exists": 73, "locked": 75,
    ]

    /// What SPEC says each kind of core refusal is, case by case. The switch is exhaustive:
    /// a new kind of refusal does not compile until the SPEC's word for it is written here.
    static func specCode(_ error: KanbanError) -> String {
        switch error {
        case .itemNotFound, .itemArchived, .boardNotFound, .noBoards, .anchorNotInBoard, .notArchived,
            .restoreNeedsBoard, .invalidLocation:
            "not_found"  // "unknown … item/board"
        case .ambiguousItem, .ambiguousPrefix: "ambiguous"
        case .indexOutOfRange, .boardIndexOutOfRange, .anchorIsMoved: "out_of_range"
        case .wipLimit: "wip_limit"
        case .boardNotEmpty: "not_empty"
        case .duplicateBoard: "duplicate"
        case .conflict: "conflict"
        case .invalidTitle, .invalidValue: "bad_input"  // "invalid input text"
        case .duplicateID, .corruptFile, .unsupportedVersion: "corrupt_file"  // "corrupt or unsupported kanban file"
        }
    }

    /// One refusal of every kind (``specCode(_:)`` checks that none is missing).
    static let refusals: [KanbanError] = {
        let candidate = Candidate(id: ItemID("a1")!, title: "x", board: "A", index: 0)
        return [
            .itemNotFound(reference: "x", suggestions: []),
            .itemArchived(reference: "x", card: Candidate(id: ItemID("a1")!, title: "x", board: "A", index: nil)),
            .ambiguousItem(reference: "x", candidates: [candidate], total: 2),
            .ambiguousPrefix(reference: "a1b", candidates: [candidate], total: 2),
            .boardNotFound(name: "x", suggestions: [], boards: []),
            .indexOutOfRange(index: 9, board: "A", range: 0...1),
            .boardIndexOutOfRange(index: 9, range: 0...1),
            .anchorNotInBoard(anchor: candidate, board: "B"),
            .anchorIsMoved(anchor: candidate),
            .wipLimit(board: "A", limit: 1, current: 1, resulting: 2),
            .boardNotEmpty(board: "A", count: 1),
            .duplicateBoard(title: "a", existing: "A"),
            .noBoards,
            .duplicateID(ItemID("a1")!),
            .invalidValue(kind: .label, value: "a b", reason: "one word"),
            .restoreNeedsBoard(item: candidate),
            .notArchived(candidate),
            .conflict("changed since"),
            .invalidLocation("no board at index 9"),
            .invalidTitle(title: "", reason: .empty),
            .corruptFile(line: 1, message: "x"),
            .unsupportedVersion(3),
        ]
    }()

    @Test func everyRefusalExitsWithTheCodeSPECGivesItsKind() {
        for error in Self.refusals {
            let (exit, code) = CLIError.refused(error).status
            expectEqual(code, Self.specCode(error), "\(error)")
            expectEqual(exit.rawValue, Self.specExitForCode[code], "\(error): \(code)")
            expectTrue(!CLIError.refused(error).message.isEmpty)
        }
    }

    @Test func fileAndUsageErrorsExitWithTheCodeOfTheirKind() {
        let cases: [(CLIError, String)] = [
            (.usage("x", command: nil), "usage"), (.badInput("x"), "bad_input"),
            (.corruptFile(path: "k", line: 1, message: "x"), "corrupt_file"),
            (.unsupportedVersion(path: "k", version: 3), "corrupt_file"), (.noFile("x"), "no_file"),
            (.exists(path: "k"), "exists"), (.locked(path: "k", seconds: 5), "locked"),
            (.historyUnavailable("x"), "no_history"),
            (.atLine(3, .usage("x", command: "batch")), "usage"),
            (.atLine(2, .refused(.wipLimit(board: "A", limit: 1, current: 1, resulting: 2))), "wip_limit"),
        ]
        for (error, code) in cases {
            expectEqual(error.status.code, code, "\(error)")
            expectEqual(error.status.exit.rawValue, Self.specExitForCode[code], "\(error)")
        }
        // `io` is 73 when a file cannot be created, 74 when it cannot be read or written.
        expectTrue(CLIError.cannotCreate("x").status.exit.rawValue == 73 && CLIError.cannotCreate("x").status.code == "io")
        expectTrue(CLIError.io("x").status.exit.rawValue == 74 && CLIError.io("x").status.code == "io")
        expectEqual(CLIError.atLine(7, .io("x")).message, "line 7: x")
    }
}
