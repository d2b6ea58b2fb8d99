import Foundation
import Glibc
import Testing

@testable import kanban

/// kanban run inside the test process (``InProcessKanban``) is the kanban a spawned
/// process is (README: Development): the same invocations, in two sandboxes that start alike,
/// print the same bytes on stdout and stderr, exit alike and leave the same files.
@Suite struct InProcessTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aRunInProcessIsASpawnedRun
        case aRunInProcessLeavesTheProcessAsItWas
        case zonesWithRulesAreNotFixed
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aRunInProcessIsASpawnedRun: try aRunInProcessIsASpawnedRun()
        case .aRunInProcessLeavesTheProcessAsItWas: try aRunInProcessLeavesTheProcessAsItWas()
        case .zonesWithRulesAreNotFixed: zonesWithRulesAreNotFixed()
        }
    }

    /// One invocation: arguments, stdin, extra environment, and the directory (relative
    /// to the sandbox) it runs in.
    struct Step: CustomStringConvertible {
        var arguments: [String]
        var stdin: String? = nil
        var environment: [String: String] = [:]
        var directory: String? = nil

        init(
            _ arguments: String..., stdin: String? = nil, environment: [String: String] = [:],
            in directory: String? = nil
        ) {
            self.arguments = arguments
            self.stdin = stdin
            self.environment = environment
            self.directory = directory
        }

        var description: String {
            "kanban \(arguments.joined(separator: " "))" + (directory.map { " in \($0)" } ?? "")
        }
    }

    static let steps: [Step] = [
        Step("list"),
        Step("list", "--json"),
        Step("nosuchcommand"),
        Step("add", "x", "--bogus", "--json"),
        Step("init", "--sample"),
        Step("init", "--sample"),
        Step(),
        Step("list", "--json"),
        Step("list", "--tsv"),
        Step("list", "--color", "always"),
        Step("list", environment: ["COLUMNS": "50"]),
        Step("show", "Analytics"),
        Step("show", "Nowhere", "--json"),
        Step("add", "Write docs", "--to", "Todo", "--top", "--label", "p1", "--due", "tomorrow"),
        Step("add", "--to", "Done", stdin: "From stdin\nAnother line\n"),
        Step("add", "--json", stdin: "bad\u{1}byte\n"),
        Step("edit", "Analytics", "--note", "-", "--label", "@alice", stdin: "Steps:\n1. Open it.\n"),
        Step("edit", "Analytics", "--append-note", "Seen on Safari only.", "--due", "+1w"),
        Step("move", "Analytics", "--to", "Done", "--at", "0"),
        Step("mv", "Schema Design", "Todo", "--at", "-1"),
        Step("copy", "Database Migration", "--to", "Done", "--json"),
        Step("rename", "Write docs", "Write the docs"),
        Step("rm", "Done:0", "--dry-run"),
        Step("board", "add", "Review", "--at", "2", "--limit", "2"),
        Step("board", "limit", "In Progress", "3"),
        Step("archive", "--from", "Done"),
        Step("list", "--archived", "--tsv"),
        Step("restore", "Analytics", "--to", "In Progress", "--force"),
        Step("list", "--label", "p1"),
        Step("list", "--grep", "LAUNCH", "--tsv"),
        Step("log", "-n", "3"),
        Step("undo"),
        Step("redo", "--dry-run"),
        Step("batch", stdin: "add \"Batched\" --to Todo\nmove Batched --to Review\n"),
        Step("batch", "--json", stdin: "move Nothing --to Nowhere\n"),
        Step("export", "-o", "board.md"),
        Step("export", "--format", "csv", "Todo", "Done"),
        Step("export", "--format", "json", "-o", "backup.json"),
        Step("init", "--import", "board.md", "-f", "copy.json"),
        Step("import", "backup.json", "-f", "copy.json", "--dry-run"),
        Step("list", "-f", "copy.json", "--tsv"),
        Step("add", "In a subdirectory", in: "sub/deeper"),
        Step("list", "Todo", "--tsv", in: "sub"),
        Step("list", "-f", "../copy.json", in: "sub"),
        Step("add", "Named by the environment", environment: ["KANBAN_FILE": "copy.json"]),
        Step("list", environment: ["KANBAN_LOCK_TIMEOUT": "soon"]),
        Step("list", environment: ["KANBAN_NOW": "yesterday"]),
        Step("diff", "copy.json", "kanban.json", "--json"),
        Step("diff", "copy.json", "kanban.json", "--exit-code"),
        Step("merge", "copy.json", "kanban.json", "copy.json", "-o", "merged.json"),
        Step("help", "move"),
        Step("version", "--json"),
        Step("completion", "bash"),
        Step("__complete", "move", "Ana"),
    ]

    func aRunInProcessIsASpawnedRun() throws {
        let spawned = try KanbanSandbox()
        defer { spawned.remove() }
        let inProcess = try KanbanSandbox(inProcess: true)
        defer { inProcess.remove() }
        for sandbox in [spawned, inProcess] {
            try require(mkdir(sandbox.path("sub"), 0o755) == 0 && mkdir(sandbox.path("sub/deeper"), 0o755) == 0)
        }
        for step in Self.steps {
            // The same ids both ways: the first seed of a debug build's test hook.
            let environment = step.environment.merging(["KANBAN_TEST_SEED": "1"]) { mine, _ in mine }
            let stdin = step.stdin.map { Array($0.utf8) }
            let expected = try spawned.run(step.arguments, stdin: stdin, environment: environment, in: step.directory)
            let got = try inProcess.run(step.arguments, stdin: stdin, environment: environment, in: step.directory)
            let theirFiles = try Self.files(in: spawned.path)
            let ourFiles = try Self.files(in: inProcess.path)
            func normal(_ bytes: [UInt8], in sandbox: KanbanSandbox) -> String {
                // A history record's origin names the file it started from (its inode and
                // change time), which differs between any two runs.
                String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: sandbox.path, with: "SANDBOX")
                    .replacing(#/"origin":"[0-9a-f]{16}"/#, with: #""origin":"ORIGIN""#)
            }
            expectEqual(got.status, expected.status, "\(step): \(got) against \(expected)")
            expectTrue(
                normal(got.stdout, in: inProcess) == normal(expected.stdout, in: spawned),
                "\(step): stdout \(got.out) against \(expected.out)")
            expectTrue(
                normal(got.stderr, in: inProcess) == normal(expected.stderr, in: spawned),
                "\(step): stderr \(got.err) against \(expected.err)")
            expectEqual(ourFiles.keys.sorted(), theirFiles.keys.sorted(), "\(step)")
            for (name, bytes) in ourFiles {
                expectTrue(
                    normal(bytes, in: inProcess) == normal(theirFiles[name] ?? [], in: spawned),
                    "\(step): \(name) differs")
            }
        }
    }

    /// Every file under `root`, by its path from there, with its bytes.
    static func files(in root: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = try require(FileManager.default.enumerator(atPath: root))
        for case let relative as String in enumerator {
            var info = stat()
            guard lstat(root + "/" + relative, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            files[relative] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
        }
        return files
    }

    func aRunInProcessLeavesTheProcessAsItWas() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let directory = try require(getcwd(nil, 0))
        defer { free(directory) }
        let here = String(cString: directory)
        var before = sigaction()
        sigaction(SIGPIPE, nil, &before)
        try sandbox.succeed(["init", "--sample", "--quiet"], environment: ["KANBAN_FILE": "named.json"])
        try sandbox.succeed(["export", "-o", "out.md"], environment: ["KANBAN_FILE": "named.json"])
        expectTrue(sandbox.exists("named.json") && sandbox.exists("out.md"))
        expectTrue(!FileManager.default.fileExists(atPath: here + "/named.json"))
        let now = try require(getcwd(nil, 0))
        defer { free(now) }
        expectEqual(String(cString: now), here)
        expectTrue(getenv("KANBAN_FILE") == nil)
        var after = sigaction()
        sigaction(SIGPIPE, nil, &after)
        expectTrue(
            unsafeBitCast(after.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(before.__sigaction_handler.sa_handler, to: Int.self),
            "a run in-process changed how SIGPIPE is handled")
    }

    @Test(arguments: [("UTC", 0), ("", 0), ("JST-9", 9 * 3600), ("EST5", -5 * 3600), ("<+0530>-5:30", 19_800)])
    func fixedTimeZones(zone: String, offset: Int) {
        expectEqual(Surroundings.fixedOffset(timeZone: zone), offset)
    }

    func zonesWithRulesAreNotFixed() {
        expectTrue(Surroundings.fixedOffset(timeZone: "EST5EDT") == nil)
        expectTrue(Surroundings.fixedOffset(timeZone: "Europe/Paris") == nil)
    }
}
