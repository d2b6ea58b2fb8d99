import Foundation
import Glibc
import Testing

// The history (SPEC §9) where the other suites leave gaps: dry runs of undo and redo,
// `log -n`, an import as one change, undo after git changed the file (a real merge, a
// real checkout), and `diff REV` where git cannot help (SPEC §8, README's exit codes).

extension KanbanSandbox {
    /// `kanban log --json`, which must succeed: its entries, newest first.
    func logEntries(_ extra: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let output = try succeed(["log", "--json"] + extra, sourceLocation: sourceLocation)
        return try require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]],
            "not a JSON array: \(output)",
            sourceLocation: sourceLocation)
    }
}

@Suite(.serialized) struct HistoryDryRunsAndLog {
    @Test func undoAndRedoDryRunsWriteNothingAndSayWhatTheyWouldDo() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let removed = try sandbox.succeed("rm", "Storage Management", "Model Abstraction")
        // README: "removed ID 'TITLE' from Todo:N", one line per card.
        let removals = removed.split(separator: "\n").map(String.init)
        try require(removals.count == 2 && removals.allSatisfy { $0.hasPrefix("removed ") }, "\(removed)")
        let command = "kanban rm 'Storage Management' 'Model Abstraction'"

        // undo --dry-run: what undo would take back, in the words of the change, and nothing written.
        let file = try sandbox.snapshot()
        let history = try sandbox.snapshot(".kanban.json.history")
        let undoDry = try sandbox.succeed("undo", "--dry-run")
        let wouldAdd = removals.map {
            "    would add " + String($0.dropFirst("removed ".count)).replacing(" from ", with: " at ")
        }
        expectEqual(undoDry, (["would take back #1: \(command)"] + wouldAdd).map { $0 + "\n" }.joined(), "\(undoDry)")
        let undoJSON = try jsonObject(try sandbox.succeed("undo", "--dry-run", "--json"))
        expectEqual(undoJSON["command"] as? String, "undo")
        expectEqual(undoJSON["dryRun"] as? Bool, true)
        expectEqual(undoJSON["changed"] as? Bool, true)
        expectEqual(undoJSON["entries"] as? [Int], [1])
        expectTrue(
            (undoJSON["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
                == ["Storage Management", "Model Abstraction"])
        try expectEqual(sandbox.snapshot(), file, "undo --dry-run wrote the file")
        try expectEqual(sandbox.snapshot(".kanban.json.history"), history, "undo --dry-run wrote the history")
        try expectEqual(sandbox.logEntries().count, 1, "a dry run is no entry")

        // The real undo takes back what the dry run said.
        let undo = try sandbox.succeed("undo")
        expectTrue(undo == undoDry.replacing("would take back", with: "took back").replacing("would add ", with: "added "))
        try expectEqual(sandbox.boards().layout, sampleLayout)

        // redo --dry-run: what redo would do again, as the command said it, and nothing written.
        let undone = try sandbox.snapshot()
        let undoneHistory = try sandbox.snapshot(".kanban.json.history")
        let redoDry = try sandbox.succeed("redo", "--dry-run")
        let wouldRemove = removals.map { "    would remove " + String($0.dropFirst("removed ".count)) }
        expectEqual(redoDry, (["would do again #1: \(command)"] + wouldRemove).map { $0 + "\n" }.joined(), "\(redoDry)")
        let redoJSON = try jsonObject(try sandbox.succeed("redo", "--dry-run", "--json"))
        expectEqual(redoJSON["command"] as? String, "redo")
        expectEqual(redoJSON["dryRun"] as? Bool, true)
        expectEqual(redoJSON["changed"] as? Bool, true)
        expectEqual(redoJSON["entries"] as? [Int], [1])
        try expectEqual(sandbox.snapshot(), undone, "redo --dry-run wrote the file")
        try expectEqual(sandbox.snapshot(".kanban.json.history"), undoneHistory, "redo --dry-run wrote the history")
        try expectEqual(sandbox.logEntries().count, 2)

        // The real redo does it again; the dry runs left nothing in the way.
        try sandbox.succeed("redo")
        try expectEqual(sandbox.bytes(), file.bytes, "redo gives back the file the rm wrote")
        // With nothing to do, a dry run says so and writes nothing either.
        let after = try sandbox.snapshot(".kanban.json.history")
        try expectEqual(sandbox.succeed("redo", "--dry-run"), "nothing to redo\n")
        try expectEqual(sandbox.snapshot(".kanban.json.history"), after)
    }

    @Test func logDashNShowsTheNNewestEntriesNewestFirst() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        for number in 1...5 {
            try sandbox.succeed(
                ["add", "Card \(number)", "--to", "Done"],
                environment: ["USER": "alice", "KANBAN_NOW": "2026-11-23T10:0\(number):00Z"])
        }
        let log = try sandbox.succeed("log", "-n", "3")
        let headings = log.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        // README: "#25  2026-11-23T17:48:33Z  alice  kanban rm …", then the change lines, indented.
        expectTrue(
            headings == [
                "#5  2026-11-23T10:05:00Z  alice  kanban add 'Card 5' --to Done",
                "#4  2026-11-23T10:04:00Z  alice  kanban add 'Card 4' --to Done",
                "#3  2026-11-23T10:03:00Z  alice  kanban add 'Card 3' --to Done",
            ], "\(log)")
        let changes = log.split(separator: "\n").filter { $0.hasPrefix("    ") }
        expectEqual(changes.count, 3, "one change line per entry: \(log)")
        expectTrue(
            changes.first?.hasPrefix("    added ") == true && changes.first?.hasSuffix(" 'Card 5' at Done:6") == true)

        try expectEqual(sandbox.logEntries("-n", "3").map { $0["number"] as? Int }, [5, 4, 3])
        expectTrue(
            try sandbox.logEntries("-n", "1").map { $0["command"] as? [String] } == [["add", "Card 5", "--to", "Done"]])
        expectTrue(
            try sandbox.logEntries("-n", "9").map { $0["number"] as? Int } == [5, 4, 3, 2, 1], "N past the end: all")
        try expectEqual(sandbox.logEntries().map { $0["number"] as? Int }, [5, 4, 3, 2, 1])
        try expectJSONError(try sandbox.run(["log", "-n", "three", "--json"]), exit: 64, code: "usage")
    }
}

@Suite(.serialized) struct ImportIsOneChange {
    static let markdown = """
        ---
        kanban-plugin: board
        ---

        ## Todo

        - [ ] Imported one #imp

        ## Later (3)

        - [ ] Imported two @{2026-12-24}
            A note.
        - [ ] Imported three

        """

    static let csv =
        "board,title,labels,due,note\r\nTodo,Imported one,imp,,\r\nLater,Imported two,,2026-12-24,A note.\r\n"
        + "Later,Imported three,,,\r\n"

    @Test(arguments: [("cards.md", markdown), ("cards.csv", csv)])
    func anImportIsOneEntryThatOneUndoTakesBackWhole(_ name: String, _ content: String) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "Before the import")
        try sandbox.write(content, to: name)
        let before = try sandbox.bytes()

        try sandbox.succeed("import", name)
        let imported = try sandbox.boards()
        var expected = sampleLayout
        expected[0].items += ["Before the import", "Imported one"]
        expected.append(
            BoardColumn("Later", ["Imported two", "Imported three"], limit: name.hasSuffix(".md") ? 3 : nil))
        expectEqual(imported.layout, expected)

        let entries = try sandbox.logEntries()
        expectEqual(entries.count, 2, "the import is one entry: \(entries)")
        expectEqual(entries.first?["command"] as? [String], ["import", name])
        expectEqual(entries.first?["kind"] as? String, "change")
        let lines = try require(entries.first?["lines"] as? [String])
        for title in ["Later", "Imported one", "Imported two", "Imported three"] {
            expectTrue(lines.contains { $0.contains("'\(title)'") }, "the entry says what came in: \(lines)")
        }

        let undo = try sandbox.succeed("undo")
        expectTrue(undo.hasPrefix("took back #2: kanban import \(name)\n"), "\(undo)")
        try expectEqual(sandbox.bytes(), before, "one undo takes back the whole import, byte for byte")
        try sandbox.succeed("redo")
        try expectEqual(sandbox.boards().layout, expected, "one redo does it all again")
        try expectEqual(sandbox.boards().allIDs, imported.allIDs)
    }
}

// MARK: - Undo after git changed the file

@Suite("Undo after git changed the file", .serialized, .enabled(if: GitProgram.path != nil, "git is not installed"))
struct UndoAfterGit {
    /// The teammate's kanban: the sample with a card renamed and another moved, committed
    /// in a clone of the sandbox's repository and fetched back as branch `teammate`.
    private static let teammateLayout = [
        BoardColumn("Todo", ["Database Migration", "Schema v2", "Storage Management", "Model Abstraction"]),
        BoardColumn("In Progress", ["Push Notification", "Machine Learning"]),
        BoardColumn("Done", ["System Architecture", "Alert & Debugging", "Analytics"]),
    ]

    private func teammateBranch(_ sandbox: KanbanSandbox) throws {
        // (The clone is not named after the branch: `kanban diff NAME` takes a path that exists for a file.)
        try sandbox.git("clone", "-q", sandbox.path, "clone")
        try sandbox.kanban("rename", "Schema Design", "Schema v2", "-q", at: "2026-11-23T11:00:00Z", in: "clone")
        try sandbox.kanban("move", "Analytics", "--to", "Done", "-q", at: "2026-11-23T11:01:00Z", in: "clone")
        try sandbox.git("commit", "-q", "-am", "teammate", in: "clone")
        try sandbox.git("fetch", "-q", sandbox.path("clone"), "main:teammate")
        expectTrue(
            try BoardColumn.parse(try sandbox.git("show", "teammate:kanban.json").stdout).layout == Self.teammateLayout)
    }

    /// Whether the file is the teammate's kanban exactly: as `kanban diff` sees it, and byte for byte.
    private func expectTeammatesFile(_ sandbox: KanbanSandbox, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let diff = try sandbox.run(["diff", "teammate", "--exit-code"])
        expectTrue(diff.status == 0 && diff.out.isEmpty, "\(diff)", sourceLocation: sourceLocation)
        expectTrue(
            try sandbox.bytes() == sandbox.git("show", "teammate:kanban.json").stdout,
            "the same kanban, so the same bytes", sourceLocation: sourceLocation)
    }

    @Test func undoAfterAGitMergeTakesBackOnlyKanbansOwnChange() throws {
        // Spawned: git runs kanban as the merge driver `git setup` registers by the path of
        // the program that ran it.
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.sampleRepository()
        try teammateBranch(sandbox)
        try sandbox.kanban("add", "Mine", "--to", "Todo", "-q", at: "2026-11-23T12:00:00Z")
        try sandbox.git("commit", "-q", "-am", "mine")
        let merge = try sandbox.git("merge", "--no-edit", "teammate")
        expectTrue(!merge.out.contains("CONFLICT"), "\(merge)")
        var merged = Self.teammateLayout
        merged[0].items.append("Mine")
        try expectEqual(sandbox.boards().layout, merged)
        expectTrue(
            try sandbox.logEntries().map { $0["command"] as? [String] } == [["add", "Mine", "--to", "Todo", "-q"]],
            "the merge is no entry")

        let undo = try sandbox.succeed("undo")
        expectTrue(undo.hasPrefix("took back #1: kanban add Mine --to Todo -q\n"), "\(undo)")
        expectEqual(undo.split(separator: "\n").count, 2, "one line for the card taken back: \(undo)")
        // The rename and the move that came with the merge stay.
        try expectTeammatesFile(sandbox)
        try sandbox.succeed("redo")
        try expectEqual(sandbox.boards().layout, merged)
    }

    @Test func undoAfterAGitCheckoutTakesBackOnlyKanbansOwnChange() throws {
        // Spawned: git runs kanban as the merge driver `git setup` registers by the path of
        // the program that ran it.
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.sampleRepository()
        try teammateBranch(sandbox)
        try sandbox.kanban("add", "Mine", "--to", "Todo", "-q", at: "2026-11-23T12:00:00Z")
        // The card goes along to the teammate's branch: stashed, checked out, popped (a merge).
        try sandbox.git("stash", "-q")
        try expectEqual(sandbox.boards().layout, sampleLayout)
        try sandbox.git("checkout", "-q", "teammate")
        try expectEqual(sandbox.boards().layout, Self.teammateLayout)
        try sandbox.git("stash", "pop", "-q")
        var carried = Self.teammateLayout
        carried[0].items.append("Mine")
        try expectEqual(sandbox.boards().layout, carried)
        try expectEqual(sandbox.logEntries().count, 1, "git's changes are no entries")

        let undo = try sandbox.succeed("undo")
        expectTrue(undo.hasPrefix("took back #1: kanban add Mine --to Todo -q\n"), "\(undo)")
        // What the checkout brought stays: the file is the branch's, and git sees no change.
        try expectTeammatesFile(sandbox)
        expectTrue(try sandbox.git("status", "--porcelain", "--untracked-files=no").out.isEmpty)
    }
}

// MARK: - diff REV where git cannot help

@Suite(.serialized, .enabled(if: GitProgram.path != nil, "git is not installed"))
struct DiffWithoutGit {
    @Test func diffOfARevisionOutsideAGitWorkTreeExits1WithCodeGit() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "Card")
        let file = try sandbox.snapshot()
        let history = try sandbox.snapshot(".kanban.json.history")
        let entries = try sandbox.entries()
        // git must not find a repository above the sandbox either.
        let outside = ["GIT_CEILING_DIRECTORIES": (sandbox.path as NSString).deletingLastPathComponent]
        for arguments in [["diff", "HEAD~1"], ["diff", "main", "kanban.json"], ["diff"]] {
            let json = try sandbox.run(arguments + ["--json"], environment: outside)
            let message = try expectJSONError(json, exit: 1, code: "git")
            expectTrue(message.contains("not in a git work tree"), "\(arguments): \(message)")
            let text = try sandbox.run(arguments, environment: outside)
            expectEqual(text.status, 1, "\(arguments): \(text)")
            expectTrue(text.stdout.isEmpty, "\(arguments): \(text)")
            expectTrue(
                text.err.hasPrefix("kanban: error: ") && text.err.contains("kanban.json")
                    && text.err.contains("not in a git work tree"), "\(arguments): \(text)")
        }
        try expectEqual(sandbox.snapshot(), file, "nothing written")
        try expectEqual(sandbox.snapshot(".kanban.json.history"), history, "no history entry")
        try expectEqual(sandbox.entries(), entries, "no file made")
    }

    @Test func diffOfARevisionWithoutGitOnPathSaysGitIsMissing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.sampleRepository()
        try sandbox.kanban("add", "Card", "-q")
        // A PATH that leads somewhere, but not to git; kanban itself is started by its full path.
        try FileManager.default.createDirectory(atPath: sandbox.path("bin"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("bin/ls"), withDestinationPath: "/bin/ls")
        let noGit = ["PATH": sandbox.path("bin")]
        expectTrue(try sandbox.kanban("diff").hasPrefix("added "), "with git: the card, since HEAD")
        let file = try sandbox.snapshot()
        let history = try sandbox.snapshot(".kanban.json.history")
        for arguments in [["diff", "HEAD"], ["diff"], ["diff", "HEAD:kanban.json", "kanban.json"]] {
            let json = try sandbox.run(arguments + ["--json"], environment: noGit)
            let message = try expectJSONError(json, exit: 1, code: "git")
            expectTrue(message.contains("git is not installed"), "\(arguments): \(message)")
            let text = try sandbox.run(arguments, environment: noGit)
            expectTrue(text.status == 1 && text.stdout.isEmpty, "\(arguments): \(text)")
            expectTrue(
                text.err.hasPrefix("kanban: error: ") && text.err.contains("git is not installed"),
                "\(arguments): \(text)")
        }
        try expectEqual(sandbox.snapshot(), file, "nothing written")
        try expectEqual(sandbox.snapshot(".kanban.json.history"), history)
        // Files need no git.
        try sandbox.write(file.bytes, to: "copy.json")
        try expectEqual(sandbox.run(["diff", "copy.json", "kanban.json", "--exit-code"], environment: noGit).status, 0)
    }
}
