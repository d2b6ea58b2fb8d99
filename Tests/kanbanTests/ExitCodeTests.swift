import Foundation
import Glibc
import Testing

// Every exit code of SPEC §5 with its JSON error code, and nothing written on any error.

/// A command that must fail on the sample kanban, after `setup` commands have succeeded.
struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    var setup: [[String]] = []
    var arguments: [String]
    var exit: Int32
    var code: String

    var testDescription: String { "\(name): kanban \(arguments.joined(separator: " ")) → \(exit) \(code)" }

    static let all: [Refusal] = [
        // 1: refused
        Refusal(name: "unknown item", arguments: ["move", "Nope", "--to", "Done"], exit: 1, code: "not_found"),
        Refusal(
            name: "unknown board", arguments: ["move", "Analytics", "--to", "Nowhere"], exit: 1, code: "not_found"),
        Refusal(
            name: "unknown --from board", arguments: ["move", "Analytics", "--from", "Nowhere", "--to", "Done"],
            exit: 1, code: "not_found"),
        Refusal(
            name: "title searched in the wrong board", arguments: ["remove", "Analytics", "--from", "Todo"], exit: 1,
            code: "not_found"),
        Refusal(name: "no fuzzy item match", arguments: ["remove", "analytics"], exit: 1, code: "not_found"),
        Refusal(
            name: "ambiguous title", setup: [["add", "Analytics", "--to", "Done"]],
            arguments: ["move", "Analytics", "--to", "Todo"], exit: 1, code: "ambiguous"),
        Refusal(
            name: "--at past the end", arguments: ["move", "Analytics", "--to", "Done", "--at", "3"], exit: 1,
            code: "out_of_range"),
        Refusal(
            name: "add --at past the end", arguments: ["add", "x", "--to", "Done", "--at", "3"], exit: 1,
            code: "out_of_range"),
        Refusal(
            name: "board --at past the end", arguments: ["board", "move", "Done", "--at", "3"], exit: 1,
            code: "out_of_range"),
        Refusal(
            name: "board add --at past the end", arguments: ["board", "add", "Later", "--at", "4"], exit: 1,
            code: "out_of_range"),
        Refusal(
            name: "WIP limit on move", setup: [["board", "limit", "Done", "2"]],
            arguments: ["move", "Analytics", "--to", "Done"], exit: 1, code: "wip_limit"),
        Refusal(
            name: "WIP limit on add", setup: [["board", "limit", "Todo", "5"]],
            arguments: ["add", "one", "two", "--to", "Todo"], exit: 1, code: "wip_limit"),
        Refusal(
            name: "WIP limit on copy", setup: [["board", "limit", "Done", "2"]],
            arguments: ["copy", "Done:0", "--to", "Done"], exit: 1, code: "wip_limit"),
        Refusal(name: "non-empty board", arguments: ["board", "remove", "Todo"], exit: 1, code: "not_empty"),
        Refusal(name: "duplicate board", arguments: ["board", "add", "done"], exit: 1, code: "duplicate"),
        Refusal(
            name: "duplicate board by rename", arguments: ["board", "rename", "Todo", "DONE"], exit: 1,
            code: "duplicate"),
        // 64: usage
        Refusal(name: "unknown command", arguments: ["frobnicate"], exit: 64, code: "usage"),
        Refusal(
            name: "unknown option", arguments: ["move", "Analytics", "--to", "Done", "--sideways"], exit: 64,
            code: "usage"),
        Refusal(name: "option of another command", arguments: ["list", "--to", "Done"], exit: 64, code: "usage"),
        Refusal(name: "missing --to", arguments: ["move", "Analytics"], exit: 64, code: "usage"),
        Refusal(name: "missing ITEM", arguments: ["move", "--to", "Done"], exit: 64, code: "usage"),
        Refusal(name: "missing option value", arguments: ["move", "Analytics", "--to"], exit: 64, code: "usage"),
        Refusal(name: "missing NEW_TITLE", arguments: ["rename", "Analytics"], exit: 64, code: "usage"),
        Refusal(name: "extra argument", arguments: ["board", "add", "A", "B"], exit: 64, code: "usage"),
        Refusal(
            name: "word for --at", arguments: ["move", "Analytics", "--to", "Done", "--at", "first"], exit: 64,
            code: "usage"),
        Refusal(
            name: "--at past the top, from the end", arguments: ["move", "Analytics", "--to", "Done", "--at", "-4"],
            exit: 1, code: "out_of_range"),
        Refusal(name: "empty --at", arguments: ["add", "x", "--at="], exit: 64, code: "usage"),
        Refusal(
            name: "two positions", arguments: ["move", "Analytics", "--to", "Done", "--at", "0", "--top"], exit: 64,
            code: "usage"),
        Refusal(name: "word for a limit", arguments: ["board", "limit", "Done", "lots"], exit: 64, code: "usage"),
        Refusal(name: "bad --color", arguments: ["list", "--color", "sometimes"], exit: 64, code: "usage"),
        // 65: bad input text
        Refusal(name: "escape in a TEXT argument", arguments: ["add", "red \u{1B}[31m"], exit: 65, code: "bad_input"),
        Refusal(name: "newline in a TEXT argument", arguments: ["add", "two\nlines"], exit: 65, code: "bad_input"),
        Refusal(name: "blank new title", arguments: ["rename", "Analytics", "   "], exit: 65, code: "bad_input"),
    ]
}

@Suite("Exit codes, end to end")
struct ExitCodeTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case successExitsZeroWithDataOnStdoutOnly
        case corruptFileIsNamedWithItsLineAndLeftUntouched
        case newerFileVersionIsRefusedAndLeftUntouched
        case noFileAnywhereExits66AndCreatesNothing
        case initNeverOverwritesAFile
        case initDoesNotCreateMissingDirectories
        case aWriteThatFailsExits74AndKeepsTheOldFile
        case somethingInTheWayOfATemporaryFileBlocksNothing
        case aKanbanFileThatCannotBeReadExits74
        case aLockHeldPastTheWaitExits75AndWritesNothing
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .successExitsZeroWithDataOnStdoutOnly: try successExitsZeroWithDataOnStdoutOnly()
        case .corruptFileIsNamedWithItsLineAndLeftUntouched: try corruptFileIsNamedWithItsLineAndLeftUntouched()
        case .newerFileVersionIsRefusedAndLeftUntouched: try newerFileVersionIsRefusedAndLeftUntouched()
        case .noFileAnywhereExits66AndCreatesNothing: try noFileAnywhereExits66AndCreatesNothing()
        case .initNeverOverwritesAFile: try initNeverOverwritesAFile()
        case .initDoesNotCreateMissingDirectories: try initDoesNotCreateMissingDirectories()
        case .aWriteThatFailsExits74AndKeepsTheOldFile: try aWriteThatFailsExits74AndKeepsTheOldFile()
        case .somethingInTheWayOfATemporaryFileBlocksNothing: try somethingInTheWayOfATemporaryFileBlocksNothing()
        case .aKanbanFileThatCannotBeReadExits74: try aKanbanFileThatCannotBeReadExits74()
        case .aLockHeldPastTheWaitExits75AndWritesNothing: try aLockHeldPastTheWaitExits75AndWritesNothing()
        }
    }

    func successExitsZeroWithDataOnStdoutOnly() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let result = try sandbox.run("move", "Analytics", "--to", "Done", "--json")
        expectEqual(result.status, 0)
        expectTrue(result.stderr.isEmpty)
        try expectEqual(jsonObject(result.out)["command"] as? String, "move")
    }

    @Test(arguments: Refusal.all)
    func refusalExitsWithItsCodeAndWritesNothing(_ refusal: Refusal) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        for step in refusal.setup { try sandbox.succeed(step) }
        let before = try sandbox.snapshot()
        let entries = try sandbox.entries()

        try expectJSONError(try sandbox.run(refusal.arguments + ["--json"]), exit: refusal.exit, code: refusal.code)
        try expectEqual(sandbox.snapshot(), before)

        let text = try sandbox.run(refusal.arguments)
        expectEqual(text.status, refusal.exit, "\(text)")
        expectTrue(text.stdout.isEmpty)
        expectTrue(text.err.hasPrefix("kanban: error: "), "\(text.err)")
        expectTrue(!containsEscape(text.stderr), "the message shows no raw escape: \(text.err)")
        try expectEqual(sandbox.snapshot(), before)
        try expectEqual(sandbox.entries(), entries, "no temporary file is left")
    }

    @Test(arguments: [
        ["list", "--frobnicate"], ["frobnicate"], ["move", "Analytics"], ["add", "x", "--at", "x"], ["board"],
        ["board", "shuffle"], ["init", "--sample", "--boards", "A,B"], ["list", "--json", "--tsv"], ["rm"],
    ])
    func usageErrorsComeBeforeLookingForAFile(_ arguments: [String]) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let message = try expectJSONError(try sandbox.run(arguments + ["--json"]), exit: 64, code: "usage")
        expectTrue(!message.contains("kanban.json"), "a usage error, not a missing file: \(message)")
        if !arguments.contains("--json") {
            let text = try sandbox.run(arguments)
            expectEqual(text.status, 64)
            expectTrue(text.err.hasPrefix("kanban: error: "))
        }
        expectTrue(try sandbox.entries().isEmpty)
    }

    // MARK: 65

    func corruptFileIsNamedWithItsLineAndLeftUntouched() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(
            """
            {
              "version": 1,
              "boards": [
                {"title": "Todo", "limit": null, "items": [
                  {"id": "a1", "title": "fine"},
                  {"id": "a2", "title": "missing quote}
                ]}
              ]
            }

            """)
        let before = try sandbox.snapshot()
        for arguments in [["list"], ["add", "x"], ["move", "a1", "--to", "Todo"]] {
            let message = try expectJSONError(
                try sandbox.run(arguments + ["--json"]), exit: 65, code: "corrupt_file")
            expectTrue(message.contains(sandbox.file) || message.contains("kanban.json"), "names the file: \(message)")
            expectTrue(message.contains(":6") || message.contains("line 6"), "names line 6: \(message)")
            try expectEqual(sandbox.snapshot(), before)
        }
    }

    @Test(arguments: [
        ("not JSON", "this is not json\n"),
        ("empty", ""),
        (
            "duplicate ids",
            #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "x", "title": "1"}, {"id": "x", "title": "2"}]}]}"#
        ),
        (
            "duplicate boards",
            #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": []}, {"title": "a", "limit": null, "items": []}]}"#
        ),
        ("truncated", #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": ["#),
    ])
    func invalidFilesExit65AndStayUntouched(_ name: String, _ contents: String) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(contents)
        let before = try sandbox.snapshot()
        try expectJSONError(try sandbox.run("list", "--json"), exit: 65, code: "corrupt_file")
        try expectJSONError(try sandbox.run("add", "x", "--json"), exit: 65, code: "corrupt_file")
        try expectEqual(sandbox.snapshot(), before)
    }

    func newerFileVersionIsRefusedAndLeftUntouched() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(#"{"version": 2, "boards": [{"title": "Todo", "limit": null, "items": []}]}"# + "\n")
        let before = try sandbox.snapshot()
        let message = try expectJSONError(try sandbox.run("list", "--json"), exit: 65, code: "corrupt_file")
        expectTrue(message.contains("2"), "names the version: \(message)")
        try expectJSONError(try sandbox.run("add", "x", "--json"), exit: 65, code: "corrupt_file")
        try expectEqual(sandbox.snapshot(), before)
    }

    // MARK: 66

    func noFileAnywhereExits66AndCreatesNothing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.path("sub"), withIntermediateDirectories: false)
        try expectJSONError(try sandbox.run("list", "--json"), exit: 66, code: "no_file")
        try expectJSONError(
            try sandbox.run(["add", "x", "--json"], in: "sub"), exit: 66, code: "no_file")
        try expectEqual(sandbox.entries(), ["sub"])
        expectTrue(try sandbox.entries("sub").isEmpty)
    }

    @Test(arguments: [
        (["-f", "missing.json"], [String: String]()),
        (["--file=missing.json"], [:]),
        (["--file", "elsewhere/missing.json"], [:]),
        ([], ["KANBAN_FILE": "missing.json"]),
    ])
    func aNamedFileThatIsMissingExits66WithoutFallingBack(_ options: [String], _ environment: [String: String]) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        try expectJSONError(
            try sandbox.run(["list", "--json"] + options, environment: environment), exit: 66, code: "no_file")
        try expectJSONError(
            try sandbox.run(["add", "x", "--json"] + options, environment: environment), exit: 66, code: "no_file")
        expectTrue(!sandbox.exists("missing.json"))
        try expectEqual(sandbox.snapshot(), before, "the discovered kanban.json is not used instead")
    }

    // MARK: 73

    func initNeverOverwritesAFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        for arguments in [["init"], ["init", "--sample"], ["init", "--dry-run"], ["init", "-f", "kanban.json"]] {
            try expectJSONError(try sandbox.run(arguments + ["--json"]), exit: 73, code: "exists")
            try expectEqual(sandbox.snapshot(), before)
        }
        try sandbox.write("not even json\n", to: "other.json")
        let other = try sandbox.snapshot("other.json")
        try expectJSONError(
            try sandbox.run(["init", "--json"], environment: ["KANBAN_FILE": "other.json"]), exit: 73, code: "exists")
        try expectEqual(sandbox.snapshot("other.json"), other)
    }

    func initDoesNotCreateMissingDirectories() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let result = try sandbox.run("init", "-f", "missing/dir/kanban.json", "--json")
        let message = try expectJSONError(result, exit: 73, code: "io")
        expectTrue(message.contains("missing"))
        expectTrue(try sandbox.entries().isEmpty)
    }

    // MARK: 74

    func aWriteThatFailsExits74AndKeepsTheOldFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", String(repeating: "long card ", count: 60))
        let before = try sandbox.snapshot()
        expectTrue(before.bytes.count > 512)
        // RLIMIT_FSIZE of one 512-byte block: the new file cannot be written, even by root.
        let result = try sandbox.run(["add", "one more", "--json"], shell: "ulimit -f 1")
        try expectJSONError(result, exit: 74, code: "io")
        try expectEqual(sandbox.snapshot(), before)
        expectTrue(try sandbox.temporaryFiles().isEmpty, "the partial temporary file is removed")
        try sandbox.succeed("add", "one more")
    }

    func somethingInTheWayOfATemporaryFileBlocksNothing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        // A non-empty directory where older versions put their temporary file: each writer
        // now makes its own, under a new name, and leaves what is not its own alone.
        try FileManager.default.createDirectory(
            atPath: sandbox.path(".kanban.json.tmp/blocker"), withIntermediateDirectories: true)
        try sandbox.succeed("add", "x")
        try expectEqual(sandbox.boards()[0].items.last, "x")
        try expectEqual(sandbox.entries(".kanban.json.tmp"), ["blocker"])
        try expectEqual(sandbox.temporaryFiles(), [".kanban.json.tmp"])
    }

    func aKanbanFileThatCannotBeReadExits74() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.file, withIntermediateDirectories: false)
        try expectJSONError(try sandbox.run("list", "--json"), exit: 74, code: "io")
        try expectJSONError(try sandbox.run("add", "x", "--json"), exit: 74, code: "io")
        expectTrue(try sandbox.entries("kanban.json").isEmpty)
    }

    /// A shell prefix that runs kanban as an unprivileged user: permission bits do not stop root.
    static let unprivileged: String? = {
        guard geteuid() == 0 else { return "" }
        guard access("/usr/bin/setpriv", X_OK) == 0 else { return nil }
        return "exec /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" \"$@\""
    }()

    @Test(.enabled(if: unprivileged != nil, "running as root without setpriv to drop privileges"))
    func aReadOnlyDirectoryExits74() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        chmod(sandbox.file, 0o666)
        let before = try sandbox.snapshot()
        chmod(sandbox.path, 0o555)
        defer { chmod(sandbox.path, 0o755) }
        try expectJSONError(try sandbox.run(["add", "x", "--json"], shell: Self.unprivileged), exit: 74, code: "io")
        try expectEqual(sandbox.snapshot(), before)
        // Reading needs no lock, so a read-only directory can still be listed.
        try expectEqual(sandbox.run(["list", "--tsv"], shell: Self.unprivileged).status, 0)
    }

    @Test(.enabled(if: unprivileged != nil, "running as root without setpriv to drop privileges"))
    func aCommandThatChangesNothingSucceedsInADirectoryWithoutALockFileThatCannotHaveOne() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        unlink(sandbox.path(".kanban.json.lock"))
        chmod(sandbox.file, 0o666)
        let before = try sandbox.snapshot()
        chmod(sandbox.path, 0o555)
        defer { chmod(sandbox.path, 0o755) }
        let noOp = try sandbox.run(["move", "Done:0", "--to", "Done", "--at", "0"], shell: Self.unprivileged)
        expectEqual(noOp.status, 0, "\(noOp)")
        let refused = try sandbox.run(["move", "Nope", "--to", "Done", "--json"], shell: Self.unprivileged)
        expectEqual(refused.status, 1, "a refusal is still reported as one: \(refused)")
        let message = try expectJSONError(
            try sandbox.run(["add", "x", "--json"], shell: Self.unprivileged), exit: 74, code: "io")
        expectTrue(message.contains("cannot create its lock file") && message.contains("permission denied"), "\(message)")
        try expectEqual(sandbox.snapshot(), before)
        try expectEqual(sandbox.entries(), ["kanban.json"])
    }

    @Test(.enabled(if: unprivileged != nil, "running as root without setpriv to drop privileges"))
    func aReadOnlyFileIsNotReplaced() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        chmod(sandbox.path, 0o777)
        defer { chmod(sandbox.path, 0o755) }
        chmod(sandbox.file, 0o444)
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["move", "Analytics", "--to", "Done", "--json"], shell: Self.unprivileged)
        let message = try expectJSONError(result, exit: 74, code: "io")
        expectTrue(message.contains("permission denied"))
        try expectEqual(sandbox.snapshot(), before)
        // A command that changes nothing needs no write, so it succeeds.
        expectTrue(try sandbox.run(["move", "Done:0", "--to", "Done", "--at", "0"], shell: Self.unprivileged).status == 0)
    }

    // MARK: 75

    func aLockHeldPastTheWaitExits75AndWritesNothing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let lock = try HeldLock(sandbox.path(".kanban.json.lock"))
        defer { lock.release() }
        let result = try sandbox.run(["add", "x", "--json"], environment: ["KANBAN_LOCK_TIMEOUT": "0.3"])
        try expectJSONError(result, exit: 75, code: "locked")
        try expectEqual(sandbox.snapshot(), before)
        let text = try sandbox.run(["move", "Analytics", "--to", "Done"], environment: ["KANBAN_LOCK_TIMEOUT": "0.3"])
        expectEqual(text.status, 75)
        expectTrue(text.err.hasPrefix("kanban: error: "))
        try expectEqual(sandbox.snapshot(), before)

        lock.release()
        try sandbox.succeed(["add", "x"], environment: ["KANBAN_LOCK_TIMEOUT": "2"])
        try expectEqual(sandbox.boards()[0].items.last, "x")
    }
}
