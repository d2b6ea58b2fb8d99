import Foundation
import Glibc
import Testing

// The built binary, run as a child process in a temporary directory: the tutorial, the
// stdin rules, the JSON shapes of mutating commands, positions, and help.

@Suite("Tutorial, end to end")
struct TutorialTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case tutorialScenarioLeavesExactlyTheExpectedBoards
        case aliasesRunTheirCommands
        case kanbanAloneListsOrHelpsAndTheShortFormsWork
        case colorAlwaysIsTheOnlyWayToGetEscapeCodesOffATerminal
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .tutorialScenarioLeavesExactlyTheExpectedBoards: try tutorialScenarioLeavesExactlyTheExpectedBoards()
        case .aliasesRunTheirCommands: try aliasesRunTheirCommands()
        case .kanbanAloneListsOrHelpsAndTheShortFormsWork: try kanbanAloneListsOrHelpsAndTheShortFormsWork()
        case .colorAlwaysIsTheOnlyWayToGetEscapeCodesOffATerminal:
            try colorAlwaysIsTheOnlyWayToGetEscapeCodesOffATerminal()
        }
    }

    func tutorialScenarioLeavesExactlyTheExpectedBoards() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }

        // init --sample creates kanban.json and shows the boards.
        let created = try sandbox.run("init", "--sample")
        expectEqual(created.status, 0, "\(created)")
        expectTrue(created.err.isEmpty)
        expectTrue(sandbox.exists("kanban.json"))
        for title in sampleLayout.flatMap(\.items) + sampleLayout.map(\.title) {
            expectTrue(created.out.contains(title), "init --sample should show \(title)")
        }
        let initial = try sandbox.boards()
        expectEqual(initial.layout, sampleLayout)
        let analyticsID = try initial.id(of: "Analytics")

        // list, not on a terminal: plain stacked text, every card with its id, in order.
        let list = try sandbox.run(["list"], environment: ["TERM": "xterm-256color", "COLUMNS": "200"])
        expectEqual(list.status, 0, "\(list)")
        expectTrue(list.err.isEmpty)
        expectTrue(!containsEscape(list.stdout), "no escape codes when stdout is not a terminal")
        let lines = list.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var previousLine = -1
        for board in initial {
            let header = try require(lines.firstIndex { $0.hasPrefix(board.title) }, "no header for \(board.title)")
            expectTrue(header > previousLine, "boards are stacked in order")
            previousLine = header
            for (title, id) in zip(board.items, board.ids) {
                let matching = lines.indices.filter { lines[$0].hasSuffix(title) }
                expectEqual(matching.count, 1, "\(title) should be on exactly one line (stacked, not side by side)")
                guard let line = matching.first else { continue }
                expectTrue(line > previousLine, "\(title) should follow the previous card of \(board.title)")
                expectTrue(lines[line].contains(id), "the line of \(title) shows its id \(id)")
                previousLine = line
            }
        }

        try sandbox.succeed("move", "Analytics", "--to", "Done", "--at", "0")
        try sandbox.succeed("move", "Schema Design", "--to", "Todo", "--at", "3")
        expectTrue(
            try sandbox.boards().layout == [
                BoardColumn(
                    "Todo", ["Database Migration", "Storage Management", "Model Abstraction", "Schema Design"]),
                BoardColumn("In Progress", ["Push Notification", "Machine Learning"]),
                BoardColumn("Done", ["Analytics", "System Architecture", "Alert & Debugging"]),
            ])

        // Two cards from stdin, in order, on top.
        try sandbox.succeed("add", "--to", "Todo", "--at", "0", stdin: "Write docs\nShip it\n")
        expectTrue(
            try sandbox.boards()[0].items == [
                "Write docs", "Ship it", "Database Migration", "Storage Management", "Model Abstraction",
                "Schema Design",
            ])

        // copy gives a new id; the original stays.
        let beforeCopy = try sandbox.boards()
        let storageID = try beforeCopy.id(of: "Storage Management")
        try sandbox.succeed("copy", storageID, "--to", "Done")
        let afterCopy = try sandbox.boards()
        let copyID = try require(afterCopy[2].ids.last)
        expectEqual(afterCopy[2].items.last, "Storage Management")
        expectTrue(copyID != storageID)
        expectTrue(!beforeCopy.allIDs.contains(copyID))
        expectEqual(afterCopy[0], beforeCopy[0], "the original stays where it was")

        try sandbox.succeed("board", "add", "Review", "--at", "2", "--limit", "2")
        try expectEqual(sandbox.boards().map(\.title), ["Todo", "In Progress", "Review", "Done"])

        // Three cards into a board limited to two: refused whole, file untouched.
        let before = try sandbox.snapshot()
        let refused = try sandbox.run("move", "Push Notification", "Machine Learning", "Analytics", "--to", "Review")
        expectEqual(refused.status, 1, "\(refused)")
        expectTrue(refused.stdout.isEmpty)
        expectTrue(refused.err.hasPrefix("kanban: error: "), "\(refused.err)")
        try expectEqual(sandbox.snapshot(), before)
        let refusedJSON = try sandbox.run(
            "move", "Push Notification", "Machine Learning", "Analytics", "--to", "Review", "--json")
        try expectJSONError(refusedJSON, exit: 1, code: "wip_limit")
        try expectEqual(sandbox.snapshot(), before)

        // list --json, read the way `jq '.boards[0].items[0].title'` would.
        let json = try sandbox.succeed("list", "--json")
        let document = try jsonObject(json)
        let boards = try require(document["boards"] as? [[String: Any]])
        let firstItems = try require(boards.first?["items"] as? [[String: Any]])
        expectEqual(firstItems.first?["title"] as? String, "Write docs")

        let final = try sandbox.boards()
        expectTrue(
            final.layout == [
                BoardColumn(
                    "Todo",
                    [
                        "Write docs", "Ship it", "Database Migration", "Storage Management", "Model Abstraction",
                        "Schema Design",
                    ]),
                BoardColumn("In Progress", ["Push Notification", "Machine Learning"]),
                BoardColumn("Review", [], limit: 2),
                BoardColumn("Done", ["Analytics", "System Architecture", "Alert & Debugging", "Storage Management"]),
            ])
        try expectEqual(final.id(of: "Analytics"), analyticsID, "ids are stable across moves")
        expectEqual(Set(final.allIDs).count, final.allIDs.count, "ids are unique")
        expectTrue(final.allIDs.allSatisfy { !$0.isEmpty && $0.count <= 8 }, "ids are at most 8 characters")

        // list --tsv: board, index, id, title, labels, due, conflicts, assignees on every line,
        // matching the document.
        let tsv = try sandbox.succeed("list", "--tsv")
        let rows = tsv.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        expectTrue(rows.allSatisfy { $0.count == 8 }, "\(tsv)")
        let expectedRows = final.flatMap { board in
            board.items.indices.map { [board.title, String($0), board.ids[$0], board.items[$0], "", "", "", ""] }
        }
        expectEqual(rows, expectedRows)
        expectTrue(tsv.hasSuffix("\n"))
    }

    func aliasesRunTheirCommands() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try expectEqual(sandbox.succeed("ls", "--tsv"), sandbox.succeed("list", "--tsv"))
        try sandbox.succeed("mv", "Analytics", "--to", "Done")
        try sandbox.succeed("cp", "Analytics", "--to", "Todo", "--top")
        try sandbox.succeed("rm", "Done:2")
        expectTrue(
            try sandbox.boards().layout == [
                BoardColumn(
                    "Todo",
                    ["Analytics", "Database Migration", "Schema Design", "Storage Management", "Model Abstraction"]),
                BoardColumn("In Progress", ["Push Notification", "Machine Learning"]),
                BoardColumn("Done", ["System Architecture", "Alert & Debugging"]),
            ])
    }

    /// SPEC §3: `kanban` alone lists the boards when there is a kanban file, and shows the
    /// help summary (exit 0, nothing created) when there is none; the shorter forms of SPEC
    /// §2 (`mv ITEM… BOARD`, `--at -1`, the start of an id) work from the command line.
    func kanbanAloneListsOrHelpsAndTheShortFormsWork() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let help = try sandbox.run([])
        expectTrue(help.status == 0 && help.err.isEmpty, "\(help)")
        expectTrue(help.out.contains("Usage: kanban COMMAND") && help.out.contains("\n  move ITEM…"), "\(help.out)")
        expectTrue(try sandbox.entries().isEmpty, "no file was made")

        try sandbox.initSample()
        try expectEqual(sandbox.succeed([]), sandbox.succeed("list"))
        let analytics = try sandbox.boards().id(of: "Analytics")
        try sandbox.succeed("mv", String(analytics.prefix(4)), "Todo", "--at", "-1")
        try sandbox.succeed("mv", "Schema Design", "Done", "--at", "-2")
        expectTrue(
            try sandbox.boards().layout == [
                BoardColumn("Todo", ["Database Migration", "Storage Management", "Model Abstraction", "Analytics"]),
                BoardColumn("In Progress", ["Push Notification", "Machine Learning"]),
                BoardColumn("Done", ["System Architecture", "Schema Design", "Alert & Debugging"]),
            ])
    }

    func colorAlwaysIsTheOnlyWayToGetEscapeCodesOffATerminal() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        // The no-escape checks elsewhere mean something only if color can be produced at all.
        expectTrue(containsEscape(try sandbox.run(["list", "--color", "always"]).stdout))
        expectTrue(!containsEscape(try sandbox.run(["list", "--color", "auto"]).stdout))
        expectTrue(!containsEscape(try sandbox.run(["list", "--color", "never"]).stdout))
        let noColor = try sandbox.run(["list", "--color", "auto"], environment: ["NO_COLOR": "1", "TERM": "xterm"])
        expectTrue(!containsEscape(noColor.stdout))
    }
}

// MARK: - Positions

@Suite("Positions, end to end")
struct PositionTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case referencesResolveAgainstTheKanbanBeforeTheCommand
        case atCountsAfterTheMovedItemsAreTakenOut
        case topBottomBeforeAndAfterPlaceItems
        case addWithoutToGoesToTheBottomOfTheFirstBoard
        case forceGoesPastAWIPLimitAndReorderingInsideAFullBoardWorks
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .referencesResolveAgainstTheKanbanBeforeTheCommand: try referencesResolveAgainstTheKanbanBeforeTheCommand()
        case .atCountsAfterTheMovedItemsAreTakenOut: try atCountsAfterTheMovedItemsAreTakenOut()
        case .topBottomBeforeAndAfterPlaceItems: try topBottomBeforeAndAfterPlaceItems()
        case .addWithoutToGoesToTheBottomOfTheFirstBoard: try addWithoutToGoesToTheBottomOfTheFirstBoard()
        case .forceGoesPastAWIPLimitAndReorderingInsideAFullBoardWorks:
            try forceGoesPastAWIPLimitAndReorderingInsideAFullBoardWorks()
        }
    }

    func referencesResolveAgainstTheKanbanBeforeTheCommand() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("move", "Todo:0", "Todo:1", "--to", "Done")
        let boards = try sandbox.boards()
        expectEqual(boards[0].items, ["Storage Management", "Model Abstraction"])
        expectTrue(boards[2].items == ["System Architecture", "Alert & Debugging", "Database Migration", "Schema Design"])
    }

    func atCountsAfterTheMovedItemsAreTakenOut() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        // Todo has 4 cards; without the moved one, 3, so --at 3 is the bottom and --at 4 is refused.
        try sandbox.succeed("move", "Database Migration", "--to", "Todo", "--at", "3")
        expectTrue(
            try sandbox.boards()[0].items == [
                "Schema Design", "Storage Management", "Model Abstraction", "Database Migration",
            ])
        let before = try sandbox.snapshot()
        try expectJSONError(
            try sandbox.run("move", "Schema Design", "--to", "Todo", "--at", "4", "--json"), exit: 1,
            code: "out_of_range")
        try expectEqual(sandbox.snapshot(), before)
    }

    func topBottomBeforeAndAfterPlaceItems() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "B", "--to", "Done", "--before", "Alert & Debugging")
        try sandbox.succeed("add", "A", "--to", "Done", "--after", "System Architecture")
        try sandbox.succeed("add", "T", "--to", "Done", "--top")
        try sandbox.succeed("add", "Z", "--to", "Done", "--bottom")
        try expectEqual(sandbox.boards()[2].items, ["T", "System Architecture", "A", "B", "Alert & Debugging", "Z"])
        let before = try sandbox.snapshot()
        // --before names an item in the destination board.
        let wrongBoard = try sandbox.run("add", "X", "--to", "Done", "--before", "Analytics", "--json")
        expectEqual(wrongBoard.status, 1, "\(wrongBoard)")
        try expectEqual(sandbox.snapshot(), before)
    }

    func addWithoutToGoesToTheBottomOfTheFirstBoard() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("board", "move", "Done", "--at", "0")
        try sandbox.succeed("add", "New card")
        let boards = try sandbox.boards()
        expectEqual(boards.map(\.title), ["Done", "Todo", "In Progress"])
        expectEqual(boards[0].items, ["System Architecture", "Alert & Debugging", "New card"])
    }

    func forceGoesPastAWIPLimitAndReorderingInsideAFullBoardWorks() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("board", "limit", "Done", "2")
        try sandbox.succeed("move", "Alert & Debugging", "--to", "Done", "--top")
        try sandbox.succeed("move", "Analytics", "--to", "Done", "--force")
        try sandbox.succeed("move", "Done:0", "--to", "Todo")
        try expectEqual(sandbox.boards()[2].items, ["System Architecture", "Analytics"])
    }
}

// MARK: - References and ids

@Suite("References and ids, end to end")
struct ItemReferenceTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case anAmbiguousTitleListsTheCandidatesWithIDsAndPositions
        case anUnknownReferenceSuggestsCloseMatchesButNeverResolvesFuzzily
        case boardsMatchIgnoringCaseWhenNoTitleMatchesExactly
        case idsOfRemovedItemsAreNeverHandedOutAgain
        case twoCopiesEditedIndependentlyHandOutDifferentIDs
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .anAmbiguousTitleListsTheCandidatesWithIDsAndPositions:
            try anAmbiguousTitleListsTheCandidatesWithIDsAndPositions()
        case .anUnknownReferenceSuggestsCloseMatchesButNeverResolvesFuzzily:
            try anUnknownReferenceSuggestsCloseMatchesButNeverResolvesFuzzily()
        case .boardsMatchIgnoringCaseWhenNoTitleMatchesExactly: try boardsMatchIgnoringCaseWhenNoTitleMatchesExactly()
        case .idsOfRemovedItemsAreNeverHandedOutAgain: try idsOfRemovedItemsAreNeverHandedOutAgain()
        case .twoCopiesEditedIndependentlyHandOutDifferentIDs: try twoCopiesEditedIndependentlyHandOutDifferentIDs()
        }
    }

    func anAmbiguousTitleListsTheCandidatesWithIDsAndPositions() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "Analytics", "--to", "Done")
        let boards = try sandbox.boards()
        let message = try expectJSONError(
            try sandbox.run("move", "Analytics", "--to", "Todo", "--json"), exit: 1, code: "ambiguous")
        expectTrue(message.contains(boards[1].ids[1]) && message.contains("In Progress:1"), "\(message)")
        expectTrue(message.contains(boards[2].ids[2]) && message.contains("Done:2"), "\(message)")
        // --from narrows the search; BOARD:N and ids always work.
        try sandbox.succeed("move", "Analytics", "--from", "Done", "--to", "Todo", "--top")
        try expectEqual(sandbox.boards()[0].ids.first, boards[2].ids[2])
    }

    func anUnknownReferenceSuggestsCloseMatchesButNeverResolvesFuzzily() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let message = try expectJSONError(
            try sandbox.run("move", "Analytcs", "--to", "Done", "--json"), exit: 1, code: "not_found")
        expectTrue(message.contains("Analytics"), "suggests the close title: \(message)")
        let board = try expectJSONError(
            try sandbox.run("move", "Analytics", "--to", "Dnoe", "--json"), exit: 1, code: "not_found")
        expectTrue(board.contains("Done"), "suggests the close board: \(board)")
        try expectEqual(sandbox.snapshot(), before)
    }

    func boardsMatchIgnoringCaseWhenNoTitleMatchesExactly() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "x", "--to", "in progress")
        try sandbox.succeed("board", "add", "  Review  ")
        try expectEqual(sandbox.boards().map(\.title), ["Todo", "In Progress", "Done", "Review"])
        try expectEqual(sandbox.boards()[1].items.last, "x")
    }

    func idsOfRemovedItemsAreNeverHandedOutAgain() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.succeed("init", "-q")
        var seen: Set<String> = []
        for round in 0..<5 {
            try sandbox.succeed("add", "card \(round)")
            let id = try require(try sandbox.boards()[0].ids.first)
            expectTrue(!seen.contains(id), "id \(id) was handed out twice")
            seen.insert(id)
            try sandbox.succeed("remove", id)
        }
    }

    func twoCopiesEditedIndependentlyHandOutDifferentIDs() throws {
        let first = try KanbanSandbox(inProcess: true)
        defer { first.remove() }
        let second = try KanbanSandbox(inProcess: true)
        defer { second.remove() }
        try first.initSample()
        try second.write(try first.bytes())
        let lines = (0..<20).map { "branch card \($0)" }.joined(separator: "\n")
        try first.succeed("add", "--to", "Todo", stdin: lines)
        try second.succeed("add", "--to", "Todo", stdin: lines)
        let firstIDs = Set(try first.boards()[0].ids.suffix(20))
        let secondIDs = Set(try second.boards()[0].ids.suffix(20))
        expectTrue(firstIDs.count == 20 && secondIDs.count == 20)
        expectTrue(firstIDs.isDisjoint(with: secondIDs), "a merge of the two branches would have clashing ids")
    }
}

// MARK: - Standard input

@Suite("Standard input, end to end")
struct StandardInputTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case linesAreTrimmedBlankLinesSkippedAndOrderKept
        case dashReadsStandardInputInPlace
        case eachTextArgumentIsOneItem
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .linesAreTrimmedBlankLinesSkippedAndOrderKept: try linesAreTrimmedBlankLinesSkippedAndOrderKept()
        case .dashReadsStandardInputInPlace: try dashReadsStandardInputInPlace()
        case .eachTextArgumentIsOneItem: try eachTextArgumentIsOneItem()
        }
    }

    func linesAreTrimmedBlankLinesSkippedAndOrderKept() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let input = "  first card\r\n\r\n   \r\nsecond card  \r\n\t \n\tthird card\r\nlast, no newline"
        try sandbox.succeed("add", "--to", "Done", stdin: input)
        expectTrue(
            try sandbox.boards()[2].items == [
                "System Architecture", "Alert & Debugging", "first card", "second card", "third card",
                "last, no newline",
            ])
    }

    func dashReadsStandardInputInPlace() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "one", "-", "two", "--to", "Done", "--top", stdin: "x\ny\n")
        try expectEqual(sandbox.boards()[2].items, ["one", "x", "y", "two", "System Architecture", "Alert & Debugging"])
    }

    static let badInputs: [(String, [UInt8])] = [
        ("invalid UTF-8", Array("good line\nbad ".utf8) + [0xFF, 0xFE, 0x0A] as [UInt8]),
        ("a lone continuation byte", Array("fine\n".utf8) + [0x80, 0x41, 0x0A] as [UInt8]),
        ("an escape sequence", Array("fine\nred \u{1B}[31m card\n".utf8)),
        ("a bell", Array("fine\nbell \u{07}\n".utf8)),
        ("a C1 control", Array("fine\nc1 \u{85} card\n".utf8)),
    ]

    @Test(arguments: badInputs)
    func badInputIsRefusedWholeAndNothingIsWritten(_ name: String, _ input: [UInt8]) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let entries = try sandbox.entries()
        let result = try sandbox.run(["add", "--to", "Todo", "--json"], stdin: input)
        let message = try expectJSONError(result, exit: 65, code: "bad_input")
        expectTrue(message.contains("line 2"), "the message names the bad line: \(message)")
        try expectEqual(sandbox.snapshot(), before)
        try expectEqual(sandbox.entries(), entries, "no temporary file is left")
        let text = try sandbox.run(["add", "--to", "Todo"], stdin: input)
        expectEqual(text.status, 65)
        expectTrue(text.err.hasPrefix("kanban: error: "))
        expectTrue(!containsEscape(text.stderr), "the offending text is not echoed raw")
        try expectEqual(sandbox.snapshot(), before)
    }

    @Test(arguments: ["", "\n", "  \n\r\n\t\n"])
    func emptyInputAddsNothingAndDoesNotRewriteTheFile(_ input: String) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let result = try sandbox.run("add", "--to", "Todo", stdin: input)
        expectEqual(result.status, 0, "\(result)")
        try expectEqual(sandbox.snapshot(), before)
    }

    func eachTextArgumentIsOneItem() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "  spaced out  ", "two words", "--to", "Done", stdin: "ignored\n")
        expectTrue(
            try sandbox.boards()[2].items == ["System Architecture", "Alert & Debugging", "spaced out", "two words"])
    }
}

// MARK: - JSON output of mutating commands

@Suite("JSON output, end to end")
struct JSONOutputTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case moveReportsEachItemFromAndTo
        case addReportsNoOriginAndCopyReportsItsOriginal
        case renameReportsThePreviousTitleAndRemoveReportsNoDestination
        case boardCommandsReportBoards
        case dryRunReportsTheChangeAndWritesNothing
        case initDryRunCreatesNothing
        case movingAnItemWhereItAlreadyIsChangesNothingAndDoesNotRewrite
        case listJSONIsTheFileDocument
        case initReportsTheCreatedBoardsAndItems
        case quietPrintsNothingOnSuccess
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .moveReportsEachItemFromAndTo: try moveReportsEachItemFromAndTo()
        case .addReportsNoOriginAndCopyReportsItsOriginal: try addReportsNoOriginAndCopyReportsItsOriginal()
        case .renameReportsThePreviousTitleAndRemoveReportsNoDestination:
            try renameReportsThePreviousTitleAndRemoveReportsNoDestination()
        case .boardCommandsReportBoards: try boardCommandsReportBoards()
        case .dryRunReportsTheChangeAndWritesNothing: try dryRunReportsTheChangeAndWritesNothing()
        case .initDryRunCreatesNothing: try initDryRunCreatesNothing()
        case .movingAnItemWhereItAlreadyIsChangesNothingAndDoesNotRewrite:
            try movingAnItemWhereItAlreadyIsChangesNothingAndDoesNotRewrite()
        case .listJSONIsTheFileDocument: try listJSONIsTheFileDocument()
        case .initReportsTheCreatedBoardsAndItems: try initReportsTheCreatedBoardsAndItems()
        case .quietPrintsNothingOnSuccess: try quietPrintsNothingOnSuccess()
        }
    }

    /// The one JSON object a successful `--json` command prints on stdout.
    private func report(
        _ sandbox: KanbanSandbox, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> [String: Any]
    {
        let result = try sandbox.run(arguments + ["--json"])
        try require(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        expectTrue(result.err.isEmpty, sourceLocation: sourceLocation)
        expectTrue(
            result.out.hasSuffix("\n") && result.out.dropLast().split(separator: "\n").count == 1,
            "one line of JSON: \(result.out)", sourceLocation: sourceLocation)
        let object = try jsonObject(result.out, sourceLocation: sourceLocation)
        for key in ["command", "file", "dryRun", "changed", "boards", "items"] {
            expectTrue(object[key] != nil, "missing \(key) in \(result.out)", sourceLocation: sourceLocation)
        }
        return object
    }

    private func items(_ object: [String: Any]) throws -> [[String: Any]] {
        try require(object["items"] as? [[String: Any]])
    }

    private func boards(_ object: [String: Any]) throws -> [[String: Any]] {
        try require(object["boards"] as? [[String: Any]])
    }

    private func slot(_ value: Any?) -> Slot? {
        guard let value = value as? [String: Any], let board = value["board"] as? String,
            let index = value["index"] as? Int
        else { return nil }
        return Slot(board: board, index: index)
    }

    private struct Slot: Equatable {
        var board: String
        var index: Int
    }

    func moveReportsEachItemFromAndTo() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let ids = try sandbox.boards()
        let object = try report(sandbox, "move", "Machine Learning", "Push Notification", "--to", "Done", "--at", "1")
        expectEqual(object["command"] as? String, "move")
        expectEqual(object["file"] as? String, sandbox.file)
        expectEqual(object["dryRun"] as? Bool, false)
        expectEqual(object["changed"] as? Bool, true)
        expectTrue(try boards(object).isEmpty)
        let moved = try items(object)
        try require(moved.count == 2)
        expectEqual(moved[0]["id"] as? String, (try ids.id(of: "Machine Learning")))
        expectEqual(moved[0]["title"] as? String, "Machine Learning")
        expectEqual(slot(moved[0]["from"]), Slot(board: "In Progress", index: 2))
        expectEqual(slot(moved[0]["to"]), Slot(board: "Done", index: 1))
        expectEqual(moved[1]["id"] as? String, (try ids.id(of: "Push Notification")))
        expectEqual(slot(moved[1]["from"]), Slot(board: "In Progress", index: 0))
        expectEqual(slot(moved[1]["to"]), Slot(board: "Done", index: 2))
        expectTrue(
            try sandbox.boards()[2].items == [
                "System Architecture", "Machine Learning", "Push Notification", "Alert & Debugging",
            ])
    }

    func addReportsNoOriginAndCopyReportsItsOriginal() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.boards()
        let added = try items(try report(sandbox, "add", "Fresh", "--to", "Done", "--top"))
        try require(added.count == 1)
        expectTrue(added[0]["from"] is NSNull)
        expectEqual(slot(added[0]["to"]), Slot(board: "Done", index: 0))
        let newID = try require(added[0]["id"] as? String)
        expectTrue(!before.allIDs.contains(newID))

        let original = try before.id(of: "Analytics")
        let object = try report(sandbox, "copy", original, "--to", "Todo", "--at", "1")
        expectEqual(object["command"] as? String, "copy")
        let copied = try items(object)
        try require(copied.count == 1)
        expectEqual(copied[0]["copyOf"] as? String, original)
        expectEqual(copied[0]["title"] as? String, "Analytics")
        expectEqual(slot(copied[0]["from"]), Slot(board: "In Progress", index: 1))
        expectEqual(slot(copied[0]["to"]), Slot(board: "Todo", index: 1))
        let copyID = try require(copied[0]["id"] as? String)
        expectTrue(copyID != original && copyID != newID && !before.allIDs.contains(copyID))
        try expectEqual(sandbox.boards()[0].ids[1], copyID)
    }

    func renameReportsThePreviousTitleAndRemoveReportsNoDestination() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let analytics = try sandbox.boards().id(of: "Analytics")
        let renamed = try items(try report(sandbox, "rename", "Analytics", "Analytics dashboard"))
        expectEqual(renamed.first?["id"] as? String, analytics, "a rename keeps the id")
        expectEqual(renamed.first?["previousTitle"] as? String, "Analytics")
        expectEqual(renamed.first?["title"] as? String, "Analytics dashboard")
        expectEqual(slot(renamed.first?["to"]), Slot(board: "In Progress", index: 1))

        let removed = try items(try report(sandbox, "remove", "Done:1"))
        expectEqual(removed.first?["title"] as? String, "Alert & Debugging")
        expectEqual(slot(removed.first?["from"]), Slot(board: "Done", index: 1))
        expectTrue(removed.first?["to"] is NSNull)
        try expectEqual(sandbox.boards()[2].items, ["System Architecture"])
    }

    func boardCommandsReportBoards() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let added = try report(sandbox, "board", "add", "Review", "--at", "2", "--limit", "2")
        expectEqual(added["command"] as? String, "board add")
        let board = try require(try boards(added).first)
        expectEqual(board["title"] as? String, "Review")
        expectTrue(board["from"] is NSNull)
        expectEqual(board["to"] as? Int, 2)
        expectEqual(board["limit"] as? Int, 2)

        let limited = try require(try boards(try report(sandbox, "board", "limit", "Review", "3")).first)
        expectEqual(limited["limit"] as? Int, 3)
        expectEqual(limited["previousLimit"] as? Int, 2)
        let cleared = try require(try boards(try report(sandbox, "board", "limit", "Review", "none")).first)
        expectTrue(cleared["limit"] is NSNull)
        expectEqual(cleared["previousLimit"] as? Int, 3)

        let renamed = try require(try boards(try report(sandbox, "board", "rename", "Review", "QA")).first)
        expectEqual(renamed["title"] as? String, "QA")
        expectEqual(renamed["previousTitle"] as? String, "Review")

        let moved = try require(try boards(try report(sandbox, "board", "move", "QA", "--at", "0")).first)
        expectEqual(moved["from"] as? Int, 2)
        expectEqual(moved["to"] as? Int, 0)

        let removed = try require(try boards(try report(sandbox, "board", "remove", "QA")).first)
        expectEqual(removed["from"] as? Int, 0)
        expectTrue(removed["to"] is NSNull)
        try expectEqual(sandbox.boards().layout, sampleLayout)
    }

    func dryRunReportsTheChangeAndWritesNothing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let object = try report(sandbox, "move", "Analytics", "--to", "Done", "--at", "0", "--dry-run")
        expectEqual(object["dryRun"] as? Bool, true)
        expectEqual(object["changed"] as? Bool, true)
        expectEqual(slot(try items(object).first?["to"]), Slot(board: "Done", index: 0))
        try expectEqual(sandbox.snapshot(), before)

        for arguments in [
            ["add", "x", "--dry-run"], ["copy", "Analytics", "--to", "Done", "--dry-run"],
            ["remove", "Todo:0", "--dry-run"],
            ["rename", "Todo:0", "y", "--dry-run"], ["board", "add", "R", "--dry-run"],
            ["board", "rename", "Done", "D", "--dry-run"],
            ["board", "move", "Done", "--at", "0", "--dry-run"], ["board", "limit", "Done", "1", "--dry-run"],
            ["board", "remove", "Done", "--force", "--dry-run"],
        ] {
            let result = try sandbox.run(arguments)
            expectEqual(result.status, 0, "\(arguments): \(result)")
            try expectEqual(sandbox.snapshot(), before, "\(arguments) wrote the file")
        }
        expectTrue(try sandbox.entries() == ["kanban.json"] || sandbox.entries() == [".kanban.json.lock", "kanban.json"])
    }

    func initDryRunCreatesNothing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let object = try report(sandbox, "init", "--sample", "--dry-run")
        expectEqual(object["dryRun"] as? Bool, true)
        expectTrue(try sandbox.entries().isEmpty)
    }

    func movingAnItemWhereItAlreadyIsChangesNothingAndDoesNotRewrite() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        // Dated a day back, so that any write, even within the clock's last tick, shows in mtime.
        let yesterday = timespec(tv_sec: time(nil) - 86_400, tv_nsec: 0)
        var dayBefore = [yesterday, yesterday]
        try require(utimensat(AT_FDCWD, sandbox.file, &dayBefore, 0) == 0)
        let before = try sandbox.snapshot()
        let object = try report(sandbox, "move", "Analytics", "--to", "In Progress", "--at", "1")
        expectEqual(object["changed"] as? Bool, false)
        let item = try require(try items(object).first)
        expectEqual(slot(item["from"]), Slot(board: "In Progress", index: 1))
        expectEqual(slot(item["to"]), Slot(board: "In Progress", index: 1))
        try expectEqual(sandbox.snapshot(), before)
        for arguments in [
            ["rename", "Analytics", "Analytics"], ["board", "move", "Done", "--at", "2"],
            ["board", "limit", "Done", "none"],
            ["move", "Todo:0", "Todo:1", "--to", "Todo", "--top"],
        ] {
            let result = try sandbox.run(arguments)
            expectEqual(result.status, 0, "\(arguments): \(result)")
            try expectEqual(sandbox.snapshot(), before, "\(arguments) rewrote the file")
        }
    }

    func listJSONIsTheFileDocument() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("board", "limit", "Done", "5")
        let listed = try JSONSerialization.jsonObject(with: Data(try sandbox.succeed("list", "--json").utf8))
        let file = try JSONSerialization.jsonObject(with: Data(try sandbox.bytes()))
        expectEqual((listed as? NSDictionary)?.isEqual(file), true)
        try expectEqual(sandbox.boards(), sandbox.fileBoards())

        let some = try BoardColumn.parse(Array(try sandbox.succeed("list", "Done", "todo", "--json").utf8))
        expectEqual(Set(some.map(\.title)), ["Done", "Todo"])
        expectEqual(some.first { $0.title == "Done" }?.limit, 5)
    }

    func initReportsTheCreatedBoardsAndItems() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let object = try report(sandbox, "init", "--sample")
        expectEqual(object["command"] as? String, "init")
        try expectEqual(boards(object).compactMap { $0["title"] as? String }, sampleLayout.map(\.title))
        try expectEqual(items(object).compactMap { $0["title"] as? String }, sampleLayout.flatMap(\.items))
        try expectEqual(items(object).compactMap { $0["id"] as? String }, sandbox.boards().allIDs)
    }

    func quietPrintsNothingOnSuccess() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let result = try sandbox.run("move", "Analytics", "--to", "Done", "-q")
        expectEqual(result.status, 0)
        expectTrue(result.stdout.isEmpty && result.stderr.isEmpty)
        try expectEqual(sandbox.boards()[2].items.last, "Analytics")
    }
}

// MARK: - Help and version

@Suite("Help and version, end to end")
struct HelpTests {
    @Test(arguments: [
        ["help"], ["help", "move"], ["move", "--help"], ["move", "-h"], ["--help"], ["--version"],
        ["help", "board"], ["board", "add", "--help"], ["help", "list"],
    ])
    func helpAndVersionExitZeroOnStdout(_ arguments: [String]) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let result = try sandbox.run(arguments)
        expectEqual(result.status, 0, "\(result)")
        expectTrue(!result.out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        expectTrue(result.stderr.isEmpty)
        expectTrue(try sandbox.entries().isEmpty, "help needs no kanban file and makes none")
    }

    @Test func helpNamesEveryCommandAndCommandHelpDescribesItsOptions() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let overview = try sandbox.succeed("help")
        for command in ["init", "list", "add", "move", "copy", "remove", "rename", "board"] {
            expectTrue(overview.contains(command), "help should name \(command)")
        }
        let move = try sandbox.succeed("help", "move")
        expectTrue(move.contains("--to"))
        expectTrue(move.contains("--at"))
        try expectEqual(sandbox.succeed("move", "--help"), move)
        let version = try sandbox.succeed("--version")
        expectTrue(version.contains(/\d+\.\d+\.\d+/))
    }

    @Test func helpOnAnUnknownCommandIsAUsageError() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try expectJSONError(try sandbox.run("help", "frobnicate", "--json"), exit: 64, code: "usage")
    }
}
