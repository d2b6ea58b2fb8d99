import Foundation
import KanbanCore
import Testing

@testable import kanban

// Recorded conflicts on the command line (README: Working together, "What conflicts, and
// how to resolve it"): list marks them, show shows them, resolve settles them, diff and
// export carry them, and the interactive board settles the card under the cursor.

@Suite struct ConflictCommands {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case listMarksConflictsAndFiltersThem
        case showGivesBaseOursAndTheirs
        case resolveSettlesInOneUndoableTransaction
        case batchEditAndDiffSpeakOfConflicts
        case theBoardSettlesTheCardUnderTheCursor
        case completionOffersResolveAndItsFields
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .listMarksConflictsAndFiltersThem: try listMarksConflictsAndFiltersThem()
        case .showGivesBaseOursAndTheirs: try showGivesBaseOursAndTheirs()
        case .resolveSettlesInOneUndoableTransaction: try resolveSettlesInOneUndoableTransaction()
        case .batchEditAndDiffSpeakOfConflicts: try batchEditAndDiffSpeakOfConflicts()
        case .theBoardSettlesTheCardUnderTheCursor: try theBoardSettlesTheCardUnderTheCursor()
        case .completionOffersResolveAndItsFields: completionOffersResolveAndItsFields()
        }
    }

    static let file = """
        {
          "version": 2,
          "boards": [
            {
              "id": "b1",
              "title": "Todo",
              "limit": 3,
              "conflict": {"limit": {"base": null, "theirs": 5}},
              "items": [
                {"id": "a1", "title": "Analytics", "note": "ours", "conflict": {"note": {"base": null, "theirs": "theirs"}, "title": {"base": "A", "theirs": "Metrics"}}},
                {"id": "a2", "title": "Plain"}
              ]
            }
          ],
          "archive": []
        }

        """

    private func sandbox() throws -> KanbanSandbox {
        let sandbox = try KanbanSandbox(inProcess: true)
        try sandbox.write(Self.file)
        return sandbox
    }

    func listMarksConflictsAndFiltersThem() throws {
        let sandbox = try sandbox()
        defer { sandbox.remove() }
        let text = try sandbox.succeed("list", "--color", "never")
        expectTrue(text.contains("! Todo (2/3)"), "\(text)")
        expectTrue(text.contains("a1  ! Analytics") && text.contains("a2  Plain"), "\(text)")
        expectTrue(try sandbox.succeed("list", "--tsv") == "Todo\t0\ta1\tAnalytics\t\t\tnote,title\t\nTodo\t1\ta2\tPlain\t\t\t\t\n")
        try expectEqual(sandbox.succeed("list", "--conflicts", "--tsv"), "Todo\t0\ta1\tAnalytics\t\t\tnote,title\t\n")
        let json = try sandbox.succeed("list", "--conflicts", "--json")
        expectTrue(json.contains(#""conflict": {"note": {"base": null, "theirs": "theirs"}"#) && !json.contains("Plain"))
    }

    func showGivesBaseOursAndTheirs() throws {
        let sandbox = try sandbox()
        defer { sandbox.remove() }
        let text = try sandbox.succeed("show", "a1", "--color", "never")
        expectTrue(text.contains("conflict note: base none, ours 'ours', theirs 'theirs'"), "\(text)")
        expectTrue(text.contains("conflict title: base 'A', ours 'Analytics', theirs 'Metrics'"), "\(text)")
        let json = try sandbox.succeed("show", "a1", "--json")
        expectTrue(json.contains(#""conflict":{"note":{"base":null,"theirs":"theirs"}"#) || json.contains(#""conflict": {"note": {"base": null, "theirs": "theirs"}"#), "\(json)")
        expectTrue(try sandbox.succeed("export", "--format", "json").contains(#""conflict": {"limit": {"base": null, "theirs": 5}}"#))
    }

    func resolveSettlesInOneUndoableTransaction() throws {
        let sandbox = try sandbox()
        defer { sandbox.remove() }
        let before = try sandbox.bytes()
        expectTrue(try sandbox.succeed("resolve", "a1", "--theirs", "--dry-run").hasPrefix("would resolve the conflict on a1"))
        try expectEqual(sandbox.bytes(), before, "a dry run writes nothing")
        let report = try jsonObject(try sandbox.succeed("resolve", "a1", "--theirs", "--field", "title", "--json"))
        expectTrue(report["command"] as? String == "resolve" && report["changed"] as? Bool == true)
        let item = try require((report["items"] as? [[String: Any]])?.first)
        expectEqual((item["conflicts"] as? [String: [String]])?["resolved"], ["title"])
        expectTrue(try sandbox.succeed("list", "--tsv").hasPrefix("Todo\t0\ta1\tMetrics\t\t\tnote\t\n"))
        try sandbox.succeed("undo", "-q")
        try expectEqual(sandbox.bytes(), before, "undo brings the record back")
        try sandbox.succeed("resolve", "a1", "-q")
        expectTrue(try sandbox.succeed("list", "--tsv").hasPrefix("Todo\t0\ta1\tAnalytics\t\t\t\t\n"))
        let again = try sandbox.run(["resolve", "a1"])
        expectTrue(again.status == 1 && again.err.contains("no recorded conflict"), "\(again)")
        let plain = try sandbox.run(["resolve", "a2", "--json"])
        expectEqual(plain.status, 1)
        // A board: not a card's title, so the board.
        try sandbox.succeed("resolve", "Todo", "--theirs", "-q")
        try expectEqual(sandbox.fileBoards()[0].limit, 5)
        let unknown = try sandbox.run(["resolve", "a1", "--field", "labels"])
        expectEqual(unknown.status, 64, "\(unknown)")
    }

    func batchEditAndDiffSpeakOfConflicts() throws {
        let sandbox = try sandbox()
        defer { sandbox.remove() }
        try sandbox.write(Self.file, to: "old.json")
        try sandbox.succeed(["batch", "-q"], stdin: Array("resolve a1 --field note\nboard limit Todo 4\n".utf8))
        try sandbox.succeed("edit", "a1", "--title", "Renamed", "-q")
        expectTrue(!String(decoding: try sandbox.bytes(), as: UTF8.self).contains("\"conflict\""), "every record settled")
        let diff = try sandbox.succeed("diff", "old.json", "kanban.json")
        expectTrue(diff.contains("resolved the conflict on board 'Todo' (limit)"), "\(diff)")
        expectTrue(diff.contains("(conflict resolved: note, title)"), "\(diff)")
        let back = try sandbox.succeed("diff", "kanban.json", "old.json")
        expectTrue(back.contains("conflict recorded on board 'Todo' (limit)"), "\(back)")
        let json = try sandbox.succeed("diff", "kanban.json", "old.json", "--json")
        expectTrue(json.contains(#""conflicts":{"recorded":["note","title"],"resolved":[]}"#), "\(json)")
    }

    func theBoardSettlesTheCardUnderTheCursor() throws {
        let kanban = try KanbanFile.decode(Array(Self.file.utf8)).kanban
        var harness = UIHarness(kanban)
        harness.keys("j")  // Plain: nothing to settle
        harness.keys("R")
        expectEqual(harness.kanban, kanban)
        harness.keys("kT")
        expectTrue(harness.kanban.boards[0].items[0].title == "Metrics" && harness.kanban.boards[0].items[0].conflicts.isEmpty)
        expectTrue(BoardUI.keyHelp.contains { $0.keys == "R  T" })
    }

    func completionOffersResolveAndItsFields() {
        expectEqual(CompletionContext(words: ["resolve", ""]).target, .value([.item, .board]))
        expectTrue(CompletionContext(words: ["resolve", "a1", "--field", ""]).target == .value([.words(["due", "limit", "note", "role", "title"])]))
        expectTrue(Commands.named("resolve") != nil)
    }
}

@Suite struct ConflictMarksOnTheBoard {
    /// A board too large to measure whole keeps its measure until its header changes;
    /// settling its recorded conflict changes the header ('!' goes).
    @Test func aLargeBoardsHeaderLosesItsMarkWhenTheConflictIsSettled() throws {
        let titles = (0..<(BoardUI.sampleSize + 10)).map { "Card \($0)" }
        var board = UIHarness.kanban([("Todo", titles)]).boards[0]
        let limit = try require(ConflictField(rawValue: "limit"))
        board.conflicts[limit] = RecordedConflict(field: limit, base: nil, theirs: .number(4))
        let kanban = try Kanban(boards: [board])
        var harness = UIHarness(kanban, width: 80, height: 24)
        expectTrue(harness.screen.contains { $0.contains("! Todo") }, "\(harness.screen)")
        var settled = kanban
        try settled.resolveConflicts(of: .board(0), taking: .ours)
        _ = harness.ui.handle(.outcome(.changed(settled, report: "resolved")))
        expectTrue(!harness.screen.contains { $0.contains("! Todo") }, "\(harness.screen)")
        expectTrue(harness.screen.contains { $0.contains("Todo") })
    }
}
