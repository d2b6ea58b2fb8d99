import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

// `kanban merge` and `kanban diff` on files, run as the built binary: git's merge-driver
// contract (result over OURS, exit 0/1/65, OURS untouched on 65), determinism across
// processes, and the parsing of the new commands.

@Suite("merge and diff on files, end to end")
struct MergeCommandTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aSuggestedCommandReadsBackInEveryShellAsItsWords
        case aCleanMergeExits0AndWritesTheResult
        case theSameInputsGiveTheSameBytesInEveryProcess
        case conflictsExit1WithAValidFileAndTheCommandsThatTakeTheirs
        case anUnreadableInputExits65AndLeavesOursUntouched
        case notesGoToStandardErrorAndJSONToStandardOutput
        case diffOfTwoFilesListsTheChangesAndExitCodeSaysWhetherThereAreAny
        case theNewCommandsParse
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aSuggestedCommandReadsBackInEveryShellAsItsWords: try aSuggestedCommandReadsBackInEveryShellAsItsWords()
        case .aCleanMergeExits0AndWritesTheResult: try aCleanMergeExits0AndWritesTheResult()
        case .theSameInputsGiveTheSameBytesInEveryProcess: try theSameInputsGiveTheSameBytesInEveryProcess()
        case .conflictsExit1WithAValidFileAndTheCommandsThatTakeTheirs:
            try conflictsExit1WithAValidFileAndTheCommandsThatTakeTheirs()
        case .anUnreadableInputExits65AndLeavesOursUntouched: try anUnreadableInputExits65AndLeavesOursUntouched()
        case .notesGoToStandardErrorAndJSONToStandardOutput: try notesGoToStandardErrorAndJSONToStandardOutput()
        case .diffOfTwoFilesListsTheChangesAndExitCodeSaysWhetherThereAreAny:
            try diffOfTwoFilesListsTheChangesAndExitCodeSaysWhetherThereAreAny()
        case .theNewCommandsParse: try theNewCommandsParse()
        }
    }

    /// A sandbox with base.json (the sample), ours.json and theirs.json made from it by
    /// `ours` and `theirs` (kanban argument lists, each run with `-f` on that copy; theirs
    /// a minute later than ours).
    private func sides(_ ours: [[String]], _ theirs: [[String]]) throws -> KanbanSandbox {
        let sandbox = try KanbanSandbox(inProcess: true)
        try sandbox.succeed(["init", "--sample", "-q", "-f", "base.json"])
        try sandbox.write(try sandbox.bytes("base.json"), to: "ours.json")
        try sandbox.write(try sandbox.bytes("base.json"), to: "theirs.json")
        for arguments in ours {
            try sandbox.succeed(
                arguments + ["-f", "ours.json", "-q"], environment: ["KANBAN_NOW": "2026-11-23T11:00:00Z"])
        }
        for arguments in theirs {
            try sandbox.succeed(
                arguments + ["-f", "theirs.json", "-q"], environment: ["KANBAN_NOW": "2026-11-23T12:00:00Z"])
        }
        return sandbox
    }

    /// The command a conflict suggests carries their title, from another clone's file: pasted
    /// at a prompt (README: Security), it reads back as its words and runs nothing.
    func aSuggestedCommandReadsBackInEveryShellAsItsWords() throws {
        let theirs = "Wow!! $(touch canary) it'\u{301}s"
        let sandbox = try sides([["rename", "Analytics", "Ours"]], [["rename", "Analytics", theirs]])
        defer { sandbox.remove() }
        let merged = try sandbox.run(["merge", "base.json", "ours.json", "theirs.json", "-o", "out.json", "--json"])
        expectEqual(merged.status, 1, "\(merged)")
        let report = try require(try JSONSerialization.jsonObject(with: Data(merged.stdout)) as? [String: Any])
        let conflict = try require((report["conflicts"] as? [[String: Any]])?.first)
        let command = try require(conflict["command"] as? String)
        let id = try require(conflict["card"] as? String)
        try expectShellsRead([(command, ["kanban", "-f", "out.json", "resolve", id, "--theirs"])])
    }

    func aCleanMergeExits0AndWritesTheResult() throws {
        let sandbox = try sides(
            [["add", "Ours", "--to", "Todo"], ["move", "Analytics", "--to", "Done"]],
            [["add", "Theirs", "--to", "Todo"], ["move", "Push Notification", "--to", "Done", "--at", "0"]])
        defer { sandbox.remove() }
        let merged = try sandbox.run(["merge", "base.json", "ours.json", "theirs.json", "-o", "out.json"])
        expectEqual(merged.status, 0, "\(merged)")
        expectTrue(merged.stdout.isEmpty && merged.stderr.isEmpty)
        let boards = try sandbox.fileBoards("out.json")
        expectTrue(
            boards.layout == [
                BoardColumn(
                    "Todo",
                    [
                        "Database Migration", "Schema Design", "Storage Management", "Model Abstraction", "Ours",
                        "Theirs",
                    ]),
                BoardColumn("In Progress", ["Machine Learning"]),
                BoardColumn("Done", ["Push Notification", "System Architecture", "Alert & Debugging", "Analytics"]),
            ])
        guard case .success = CheckedFile.check(try sandbox.bytes("out.json")) else {
            Issue.record("the merged file is not a canonical kanban file")
            return
        }
        // Without -o, the merged file goes to standard output, the same bytes.
        let printed = try sandbox.run(["merge", "base.json", "ours.json", "theirs.json"])
        expectTrue(try printed.status == 0 && printed.stdout == sandbox.bytes("out.json"))
    }

    func theSameInputsGiveTheSameBytesInEveryProcess() throws {
        // Each process hashes with its own random seed: nothing may depend on it.
        let sandbox = try sides(
            [
                ["add", "A1", "A2", "--to", "Done", "--top"], ["move", "Todo:0", "Todo:2", "--to", "In Progress"],
                ["board", "add", "Review", "--at", "1"], ["rename", "Analytics", "Ours"], ["archive", "Done:3"],
            ],
            [
                ["add", "B1", "--to", "Done", "--top"], ["move", "Todo:3", "Todo:1", "--to", "Done", "--at", "1"],
                ["board", "add", "review"], ["rename", "Analytics", "Theirs"], ["board", "move", "Done", "--at", "0"],
            ])
        defer { sandbox.remove() }
        var outputs: Set<[UInt8]> = []
        for _ in 0..<6 {
            let result = try sandbox.run(["merge", "base.json", "ours.json", "theirs.json"])
            expectEqual(result.status, 1, "\(result)")
            outputs.insert(result.stdout)
        }
        expectEqual(outputs.count, 1)
    }

    func conflictsExit1WithAValidFileAndTheCommandsThatTakeTheirs() throws {
        let sandbox = try sides(
            [["rename", "Analytics", "Our title"], ["edit", "Schema Design", "--due", "2026-12-01"]],
            [["rename", "Analytics", "Their 'title'"], ["edit", "Schema Design", "--due", "2026-12-24"]])
        defer { sandbox.remove() }
        let merged = try sandbox.run(["merge", "--git", "base.json", "ours.json", "theirs.json", "kanban.json"])
        expectEqual(merged.status, 1, "\(merged)")
        expectTrue(merged.stdout.isEmpty)
        let boards = try sandbox.fileBoards("ours.json")
        let id = try boards.id(of: "Our title")
        let lines = merged.err.split(separator: "\n").map(String.init)
        expectEqual(lines.count, 3, "\(merged.err)")
        expectTrue(
            lines.contains(
                "kanban: conflict: 'Our title' (\(id)): the title changed on both sides: ours 'Our title', "
                    + "theirs 'Their 'title''; kept ours; to take theirs: kanban resolve \(id) --theirs"),
            "\(merged.err)")
        expectTrue(lines.contains { $0.contains("ours 2026-12-01, theirs 2026-12-24") && $0.hasSuffix("--theirs") })
        expectEqual(lines.last?.contains("git add kanban.json"), true)
        // The file is valid, and the command printed takes theirs.
        try sandbox.succeed(["-f", "ours.json", "resolve", id, "--theirs", "-q"])
        try expectEqual(sandbox.fileBoards("ours.json").id(of: "Their 'title'"), id)
        let resolved = try sandbox.run(["-f", "ours.json", "resolve", id])
        expectTrue(resolved.status == 1 && resolved.err.contains("no recorded conflict"), "\(resolved)")
    }

    func anUnreadableInputExits65AndLeavesOursUntouched() throws {
        let sandbox = try sides([["add", "Ours"]], [["add", "Theirs"]])
        defer { sandbox.remove() }
        try sandbox.write("{\"version\": 2, \"boards\": [", to: "broken.json")
        let before = try sandbox.snapshot("ours.json")
        for (base, theirs) in [
            ("base.json", "broken.json"), ("broken.json", "theirs.json"), ("base.json", "missing.json"),
        ] {
            let result = try sandbox.run(["merge", "--git", base, "ours.json", theirs, "kanban.json"])
            expectEqual(result.status, 65, "\(result)")
            expectTrue(result.err.hasPrefix("kanban: error: "))
            try expectEqual(sandbox.snapshot("ours.json"), before)
        }
        // git gives an empty base for a file added on both branches: a kanban with no boards.
        try sandbox.write("", to: "empty.json")
        let added = try sandbox.run(["merge", "--git", "empty.json", "ours.json", "theirs.json", "kanban.json"])
        expectEqual(added.status, 0, "\(added)")
        try expectEqual(sandbox.fileBoards("ours.json").map(\.title), ["Todo", "In Progress", "Done"])
    }

    func notesGoToStandardErrorAndJSONToStandardOutput() throws {
        let sandbox = try sides(
            [["move", "Analytics", "--to", "Todo"], ["board", "limit", "Done", "2"]],
            [["move", "Analytics", "--to", "Done"]])
        defer { sandbox.remove() }
        let merged = try sandbox.run(["merge", "base.json", "ours.json", "theirs.json", "-o", "out.json"])
        expectEqual(merged.status, 0, "\(merged)")
        expectTrue(merged.err.contains("kanban: note: 'Analytics'"))
        expectTrue(merged.err.contains("'Done' holds 3 cards after the merge, over its limit of 2"))
        let json = try sandbox.run(["merge", "base.json", "ours.json", "theirs.json", "-o", "out.json", "--json"])
        expectTrue(json.status == 0 && json.stderr.isEmpty, "\(json)")
        let object = try jsonObject(json.out)
        expectEqual(object["command"] as? String, "merge")
        expectEqual((object["notes"] as? [String])?.count, 2)
        expectEqual((object["conflicts"] as? [Any])?.isEmpty, true)
        let refused = try sandbox.run(["merge", "base.json", "ours.json", "theirs.json", "--json"])
        expectEqual(refused.status, 64)
    }

    func diffOfTwoFilesListsTheChangesAndExitCodeSaysWhetherThereAreAny() throws {
        let sandbox = try sides(
            [
                ["move", "Analytics", "--to", "Done", "--at", "0"], ["edit", "Schema Design", "--label", "db"],
                ["board", "rename", "Done", "Shipped"], ["archive", "Todo:0"],
            ], [])
        defer { sandbox.remove() }
        let diff = try sandbox.run(["diff", "base.json", "ours.json"])
        expectEqual(diff.status, 0, "\(diff)")
        let ids = try sandbox.fileBoards("base.json")
        expectTrue(
            diff.out.split(separator: "\n").map(String.init) == [
                "renamed board 'Done' to 'Shipped'",
                "archived \(try ids.id(of: "Database Migration")) 'Database Migration' from Todo:0",
                "edited \(try ids.id(of: "Schema Design")) 'Schema Design' (labels +db)",
                "moved \(try ids.id(of: "Analytics")) 'Analytics': In Progress:1 -> Shipped:0",
            ])
        try expectEqual(sandbox.run(["diff", "base.json", "ours.json", "--exit-code"]).status, 1)
        try expectEqual(sandbox.run(["diff", "base.json", "theirs.json", "--exit-code"]).status, 0)
        let json = try jsonObject(try sandbox.succeed(["diff", "base.json", "ours.json", "--json"]))
        expectEqual((json["items"] as? [Any])?.count, 3)
        let boards = try require(json["boards"] as? [[String: Any]])
        expectEqual(boards.first?["previousTitle"] as? String, "Done")
        expectEqual(boards.first?["id"] as? String, ids.last?.boardID)
    }

    func theNewCommandsParse() throws {
        expectTrue(
            try Parser.parse(["merge", "a", "b", "c", "-o", "out"]).command
                == .merge(MergeRequest(base: "a", ours: "b", theirs: "c", output: "out", gitPath: nil)))
        expectTrue(
            try Parser.parse(["merge", "--git", "a", "b", "c", "p"]).command
                == .merge(MergeRequest(base: "a", ours: "b", theirs: "c", output: nil, gitPath: "p")))
        try expectEqual(Parser.parse(["diff"]).command, .diff(DiffRequest(old: nil, new: nil, exitCode: false)))
        expectTrue(
            try Parser.parse(["diff", "HEAD~1", "--exit-code"]).command
                == .diff(DiffRequest(old: "HEAD~1", new: nil, exitCode: true)))
        try expectEqual(Parser.parse(["git", "setup", "--dry-run"]).command, .gitSetup(dryRun: true))
        try expectEqual(Parser.parse(["git", "check"]).command, .gitCheck)
        for bad in [
            ["merge", "a", "b"], ["merge", "--git", "a", "b", "c"], ["merge", "--git", "a", "b", "c", "p", "-o", "x"],
            ["diff", "a", "b", "c"], ["git"], ["git", "frob"], ["git", "check", "x"],
        ] {
            #expect(throws: CLIError.self, "\(bad)") { try Parser.parse(bad) }
        }
        expectTrue(try Help.text(for: ["git"]).contains("git setup"))
        expectTrue(try Help.text(for: ["merge"]).contains("--git"))
    }
}

/// Quotes followed by a combining mark: one character to Swift (`'` and U+0301 is not `'`),
/// but a quote to a shell, to CSV and to git. Each is escaped as the quote it is.
@Suite("quotes followed by a combining mark")
struct CombiningMarkQuoting {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case suggestedCommandsReadBackInBashAsTheirWords
        case gitPatternsEscapeGlobsAndQuotesWithAMarkAfterThem
        case replacingEveryFindsTheScalarInsideACharacter
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .suggestedCommandsReadBackInBashAsTheirWords: try suggestedCommandsReadBackInBashAsTheirWords()
        case .gitPatternsEscapeGlobsAndQuotesWithAMarkAfterThem: gitPatternsEscapeGlobsAndQuotesWithAMarkAfterThem()
        case .replacingEveryFindsTheScalarInsideACharacter: replacingEveryFindsTheScalarInsideACharacter()
        }
    }

    /// The commands a merge suggests (`kanban rename ID 'their title'`) carry titles from
    /// another clone's file: pasted in bash, each word reads back as itself and runs nothing.
    func suggestedCommandsReadBackInBashAsTheirWords() throws {
        let words = [
            "it'\u{301}s", "x'\u{301}; touch pwned; echo '", "'\u{301}", "\u{301}'", "plain", "two words",
            "line\nbreak'\u{301}", "",
        ]
        try expectShellsReadBack(words, quotedBy: ShellQuote.word)
    }

    func gitPatternsEscapeGlobsAndQuotesWithAMarkAfterThem() {
        // In lets: #expect's own rendering of a literal trips over such a quote.
        let glob = GitSetupStep.ignorePattern("a*\u{301}b?")
        let quote = GitSetupStep.attributePattern("x\"\u{301} y")
        let blank = GitSetupStep.attributePattern("x \u{301}y")
        let (escapedGlob, escapedQuote, quotedBlank) = ("a\\*\u{301}b\\?", "\"x\\\"\u{301} y\"", "\"x \u{301}y\"")
        expectEqual(glob, escapedGlob)
        expectEqual(quote, escapedQuote)
        // A blank followed by a mark still splits a line of .gitattributes: quoted.
        expectEqual(blank, quotedBlank)
    }

    func replacingEveryFindsTheScalarInsideACharacter() {
        // In lets: #expect's own rendering of a literal trips over such a quote.
        let marked = "a\"\u{301}b\""
        let doubled = "a\"\"\u{301}b\"\""
        let byCharacter = "a\"\u{301}b\"\""
        expectEqual(marked.replacingEvery("\"", with: "\"\""), doubled)
        expectEqual(marked.replacing("\"", with: "\"\""), byCharacter, "what `replacing` does instead")
        expectEqual("plain".replacingEvery("\"", with: "\"\""), "plain")
    }
}
