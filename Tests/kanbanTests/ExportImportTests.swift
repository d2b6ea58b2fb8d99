import Foundation
import Glibc
import Testing

// export, import and init --import, end to end: the built binary on real files.

enum ImportFixtures {
    static let trello = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/trello-board.json").path
    static let trelloCard = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/trello-card.json").path
}

@Suite("Export and import, end to end")
struct ExportImportTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case exportWritesMarkdownByDefaultAndOnlyTheBoardsNamed
        case exportToAFileNeverReplacesOneWithoutForce
        case exportRefusesToWriteOverTheKanbanFileOrIntoNowhere
        case importAddsCardsToBoardsOfTheSameTitleAndNewBoardsAtTheEnd
        case importIsAllOrNothingAcrossItsFiles
        case importDryRunWritesNothingAndWIPLimitsHoldUnlessForced
        case aTrelloBoardMovesOverInOneCommand
        case importReadsStandardInput
        case aMissingFileIsNamed
        case exportThenImportIntoANewKanbanGivesTheSameBoards
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .exportWritesMarkdownByDefaultAndOnlyTheBoardsNamed:
            try exportWritesMarkdownByDefaultAndOnlyTheBoardsNamed()
        case .exportToAFileNeverReplacesOneWithoutForce: try exportToAFileNeverReplacesOneWithoutForce()
        case .exportRefusesToWriteOverTheKanbanFileOrIntoNowhere:
            try exportRefusesToWriteOverTheKanbanFileOrIntoNowhere()
        case .importAddsCardsToBoardsOfTheSameTitleAndNewBoardsAtTheEnd:
            try importAddsCardsToBoardsOfTheSameTitleAndNewBoardsAtTheEnd()
        case .importIsAllOrNothingAcrossItsFiles: try importIsAllOrNothingAcrossItsFiles()
        case .importDryRunWritesNothingAndWIPLimitsHoldUnlessForced:
            try importDryRunWritesNothingAndWIPLimitsHoldUnlessForced()
        case .aTrelloBoardMovesOverInOneCommand: try aTrelloBoardMovesOverInOneCommand()
        case .importReadsStandardInput: try importReadsStandardInput()
        case .aMissingFileIsNamed: try aMissingFileIsNamed()
        case .exportThenImportIntoANewKanbanGivesTheSameBoards: try exportThenImportIntoANewKanbanGivesTheSameBoards()
        }
    }

    // MARK: - Export

    func exportWritesMarkdownByDefaultAndOnlyTheBoardsNamed() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let markdown = try sandbox.succeed("export")
        expectTrue(markdown.hasPrefix("---\nkanban-plugin: board\n---\n\n## Todo\n\n- [ ] Database Migration\n"))
        expectTrue(markdown.contains("## Done\n\n- [ ] System Architecture\n- [ ] Alert & Debugging\n"))
        let csv = try sandbox.succeed("export", "--format", "csv", "done", "Todo")
        let lines = csv.split(separator: "\r\n")
        expectEqual(lines.first, "board,index,id,title,labels,due,created,entered,note,assignees")
        let boards: [String] = lines.dropFirst().map { (line: Substring) in String(line.split(separator: ",")[0]) }
        expectEqual(boards, ["Done", "Done", "Todo", "Todo", "Todo", "Todo"])
        expectTrue(try sandbox.succeed("export", "--format", "json").utf8.elementsEqual(try sandbox.bytes()))
        let unknown = try sandbox.run("export", "Nope")
        expectTrue(unknown.status == 1 && unknown.stdout.isEmpty, "\(unknown)")
        let badFormat = try sandbox.run("export", "--format", "yaml")
        expectEqual(badFormat.status, 64, "\(badFormat)")
    }

    func exportToAFileNeverReplacesOneWithoutForce() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let report = try sandbox.succeed("export", "-o", "board.md")
        expectEqual(report, "wrote 'board.md': 3 boards, 9 cards as markdown\n")
        try expectEqual(sandbox.bytes("board.md"), Array(try sandbox.succeed("export").utf8))
        try sandbox.succeed("move", "Analytics", "--to", "Done", "--at", "0", "-q")
        let again = try sandbox.run("export", "-o", "board.md", "--json")
        expectTrue(try expectJSONError(again, exit: 73, code: "exists").contains("--force"))
        expectTrue(!String(decoding: try sandbox.bytes("board.md"), as: UTF8.self).contains("## Done\n\n- [ ] Analytics"))
        // --force replaces it, keeping its permissions.
        chmod(sandbox.path("board.md"), 0o640)
        let json = try sandbox.succeed("export", "-o", "board.md", "--force", "--json")
        let object = try jsonObject(json)
        expectTrue(object["file"] as? String == "board.md" && object["cards"] as? Int == 9)
        expectTrue(String(decoding: try sandbox.bytes("board.md"), as: UTF8.self).contains("## Done\n\n- [ ] Analytics"))
        try expectEqual(sandbox.snapshot("board.md").mode & 0o777, 0o640)
        expectTrue(try sandbox.entries().filter { $0.hasPrefix(".board.md") }.isEmpty, "no temporary file is left")
    }

    func exportRefusesToWriteOverTheKanbanFileOrIntoNowhere() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let overKanban = try sandbox.run("export", "--format", "json", "-o", "kanban.json", "--force")
        expectTrue(overKanban.status == 73 && overKanban.err.contains("is the kanban file"), "\(overKanban)")
        try expectEqual(sandbox.snapshot(), before)
        let nowhere = try sandbox.run("export", "-o", "missing/board.md")
        expectEqual(nowhere.status, 73, "\(nowhere)")
        let forceAlone = try sandbox.run("export", "--force")
        expectEqual(forceAlone.status, 64, "\(forceAlone)")
        expectTrue(try sandbox.succeed("export", "-o", "-").hasPrefix("---\n"))
    }

    // MARK: - Import

    func importAddsCardsToBoardsOfTheSameTitleAndNewBoardsAtTheEnd() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.write(
            "---\nkanban-plugin: board\n---\n\n## todo\n\n- [ ] Imported #new @{2026-12-24}\n    its note\n\n"
                + "## Later (2)\n\n- [ ] Someday\n\n***\n\n## Archive\n\n- [ ] Put away\n", to: "more.md")
        let output = try sandbox.succeed("import", "more.md")
        expectTrue(output.contains("added board 'Later' at index 3 with limit 2\n"))
        expectTrue(output.contains("' at Todo:4\n") && output.contains("'Put away' to the archive\n"))
        let boards = try sandbox.boards()
        expectTrue(
            boards.layout == sampleLayout.map { $0.title == "Todo" ? BoardColumn("Todo", $0.items + ["Imported"]) : $0 }
                + [BoardColumn("Later", ["Someday"], limit: 2)])
        let show = try sandbox.succeed("show", "Imported", "--json")
        expectTrue(show.contains("\"labels\": [\"new\"]"))
        expectTrue(show.contains("\"due\": \"2026-12-24\"") && show.contains("\"note\": \"its note\""))
        expectTrue(show.contains("\"created\": \"2026-11-23T10:00:00Z\", \"entered\": \"2026-11-23T10:00:00Z\""))
        expectTrue(try sandbox.succeed("list", "--archived", "--tsv").contains("Put away"))
    }

    func importIsAllOrNothingAcrossItsFiles() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.write("board,title\nTodo,One\n", to: "good.csv")
        try sandbox.write("board,title\nTodo,Two\nTodo,\"never closed\n", to: "bad.csv")
        let before = try sandbox.snapshot()
        let result = try sandbox.run("import", "good.csv", "bad.csv")
        expectEqual(result.status, 65, "\(result)")
        expectTrue(result.err.contains("'bad.csv': line 3: a quoted field") && result.err.contains("nothing was imported"))
        expectTrue(result.stdout.isEmpty)
        try expectEqual(sandbox.snapshot(), before)
        // Both good: one transaction, one write.
        let both = try sandbox.succeed("import", "good.csv", "good.csv", "--json")
        try expectEqual(jsonObject(both)["command"] as? String, "import")
        try expectEqual(sandbox.boards()[0].items.suffix(2), ["One", "One"])
    }

    func importDryRunWritesNothingAndWIPLimitsHoldUnlessForced() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("board", "limit", "Done", "2", "-q")
        try sandbox.write("board,title\nDone,Extra\n", to: "done.csv")
        let before = try sandbox.snapshot()
        let dry = try sandbox.succeed("import", "done.csv", "--dry-run", "--force")
        expectTrue(dry.contains("would add"))
        try expectEqual(sandbox.snapshot(), before)
        let refused = try sandbox.run("import", "done.csv")
        expectTrue(refused.status == 1 && refused.err.contains("limited to 2"), "\(refused)")
        try expectEqual(sandbox.snapshot(), before)
        try sandbox.succeed("import", "done.csv", "--force", "-q")
        try expectEqual(sandbox.boards()[2].items.last, "Extra")
    }

    func aTrelloBoardMovesOverInOneCommand() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let output = try sandbox.succeed(["init", "--import", ImportFixtures.trello])
        expectTrue(output.hasPrefix("created 'kanban.json'\n"))
        let boards = try sandbox.boards()
        expectEqual(boards.map(\.title), ["Backlog", "To Do", "In Progress", "Review", "Done"])
        expectEqual(boards.map(\.limit), [nil, nil, 3, 2, nil])
        try expectEqual(sandbox.succeed("list", "--archived", "--tsv").split(separator: "\n").count, 3)
        let again = try sandbox.run(["init", "--import", ImportFixtures.trello])
        expectEqual(again.status, 73, "\(again)")
        let conflicting = try sandbox.run(["init", "--import", ImportFixtures.trello, "--sample", "-f", "x.json"])
        expectEqual(conflicting.status, 64, "\(conflicting)")
    }

    func importReadsStandardInput() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed(
            ["import", "-", "--format", "csv", "-q"], stdin: Array("board,title\nDone,From stdin\n".utf8))
        try expectEqual(sandbox.boards()[2].items.last, "From stdin")
    }

    /// The four kinds of bad input of the issue, each refused with 65, naming the file and
    /// where, writing nothing.
    @Test(arguments: [
        ("truncated.json", "{\"lists\": [{\"id\": \"a\", \"name\": \"A\"}],\n\"cards\": [{\"name\": \"x\"", "line 2"),
        ("header.csv", "title,board,colour\nx,Todo,red\n", "line 1"),
        ("notes.md", "# Meeting notes\n\nWe talked about the roadmap.\n", "line 3"),
        ("card.json", "", "$:"),
    ])
    func badInputIsRefusedNamingTheFileAndWhere(name: String, content: String, place: String) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        if name == "card.json" {
            try sandbox.write(try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportFixtures.trelloCard))), to: name)
        } else {
            try sandbox.write(content, to: name)
        }
        let before = try sandbox.snapshot()
        let result = try sandbox.run("import", name)
        expectEqual(result.status, 65, "\(result)")
        expectTrue(result.err.contains("'\(name)': \(place)"), "\(result.err)")
        try expectEqual(sandbox.snapshot(), before)
        let json = try sandbox.run("import", name, "--json")
        try expectJSONError(json, exit: 65, code: "bad_input")
        let fresh = try sandbox.run("init", "--import", name, "-f", "new.json")
        expectTrue(fresh.status == 65 && !sandbox.exists("new.json"), "\(fresh)")
    }

    func aMissingFileIsNamed() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let result = try sandbox.run("import", "nope.md")
        expectTrue(result.status == 66 && result.err.contains("'nope.md'"), "\(result)")
    }

    func exportThenImportIntoANewKanbanGivesTheSameBoards() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("edit", "Analytics", "--label", "data", "--due", "2026-12-31", "--note", "a\nb", "-q")
        try sandbox.succeed("board", "limit", "In Progress", "4", "-q")
        for format in ["markdown", "csv", "json"] {
            try sandbox.succeed("export", "--format", format, "-o", "out.\(format)", "-q")
            try sandbox.succeed("init", "--import", "out.\(format)", "-f", "\(format).json", "-q")
            let original = try sandbox.fileBoards()
            let copy = try sandbox.fileBoards("\(format).json")
            expectEqual(copy.map(\.title), original.map(\.title), "\(format)")
            expectEqual(copy.map(\.items), original.map(\.items), "\(format)")
            expectTrue(Set(copy.allIDs).isDisjoint(with: original.allIDs), "\(format): new ids")
            let show = try sandbox.succeed("show", "Analytics", "-f", "\(format).json")
            expectTrue(
                show.contains("#data") && show.contains("2026-12-31") && show.contains("  a\n  b"), "\(format): \(show)"
            )
        }
    }
}
