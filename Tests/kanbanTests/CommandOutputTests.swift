import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

/// A command returns what it prints (stdout, notes, other stderr lines, exit code) as a
/// value, and `App.main` prints it in one place (README: Development): running a command
/// writes nothing on stderr itself.
@Suite struct CommandOutputTests {
    /// Runs `arguments` as `App.main` would up to the printing, with stderr going to a file
    /// of its own; returns the value and what the run wrote on stderr by itself.
    private func output(_ arguments: [String], in sandbox: KanbanSandbox) throws -> (CommandOutput, [UInt8]) {
        let errors = try SpawnedProcess.temporaryFile(containing: [])
        defer { close(errors) }
        let surroundings = Surroundings(
            variables: sandbox.environment(), directory: sandbox.path, stdin: -1, stdout: -1, stderr: errors)
        let output = try Surroundings.$current.withValue(surroundings) { () throws -> CommandOutput in
            let invocation = try Parser.parse(arguments)
            let app = App(options: invocation.options, clock: try SystemClock.read(), arguments: arguments)
            return try app.run(invocation.command)
        }
        return (output, SpawnedProcess.readAll(errors))
    }

    @Test func aChangeReturnsItsNotes() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.succeed(["init"])
        try sandbox.succeed(["add", "One", "Two"])
        let (output, written) = try output(["board", "limit", "Todo", "1"], in: sandbox)
        expectEqual(output.exit, .success)
        expectTrue(
            output.notes.count == 1 && output.notes.first?.contains("over its limit of 1") == true, "\(output.notes)")
        expectTrue(!output.stdout.isEmpty)
        expectTrue(written.isEmpty, "\(String(decoding: written, as: UTF8.self))")
    }

    @Test func aMergeWithConflictsReturnsExit1AndItsConflictLines() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.succeed(["init"])
        try sandbox.succeed(["add", "Card"])
        for name in ["base.json", "ours.json", "theirs.json"] {
            try FileManager.default.copyItem(atPath: sandbox.file, toPath: sandbox.path(name))
        }
        try sandbox.succeed(["-f", "ours.json", "edit", "Card", "--title", "Ours"])
        try sandbox.succeed(["-f", "theirs.json", "edit", "Card", "--title", "Theirs"])
        let (output, written) = try output(
            ["merge", "base.json", "ours.json", "theirs.json", "-o", "out.json"], in: sandbox)
        expectEqual(output.exit, .refused)
        expectTrue(output.stderr.hasPrefix("kanban: conflict: 'Ours'"), "\(output.stderr)")
        expectTrue(written.isEmpty, "\(String(decoding: written, as: UTF8.self))")
    }
    /// More cards than a pipe holds (64 KiB of output), one line of stdin each.
    private func manyCards(in sandbox: KanbanSandbox) throws {
        try sandbox.succeed(["init", "--quiet"])
        let lines = (1...3000).map { "Card number \($0)\n" }.joined()
        try sandbox.succeed(["add", "--to", "Todo", "--quiet"], stdin: Array(lines.utf8))
    }

    /// The whole kanban as JSON is printed as it is made, never held whole as well as the
    /// file (README: Performance): `list --json`, `export --format json` and `merge` to
    /// stdout return the kanban, and what is printed is the file's bytes.
    @Test func theFileLayoutOnStdoutIsWrittenAsItIsMade() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try manyCards(in: sandbox)
        let file = try sandbox.bytes()
        for arguments in [
            ["list", "--json"], ["export", "--format", "json"], ["merge", "kanban.json", "kanban.json", "kanban.json"],
        ] {
            let (output, written) = try output(arguments, in: sandbox)
            expectTrue(
                output.stdout.isEmpty && output.document != nil, "\(arguments): held \(output.stdout.count) bytes")
            expectTrue(output.wholeStdout == file, "\(arguments): not the file's bytes")
            expectTrue(written.isEmpty, "\(String(decoding: written, as: UTF8.self))")
            let printed = try sandbox.run(arguments)
            expectTrue(printed.status == 0 && Array(printed.out.utf8) == file, "\(arguments): \(printed.status)")
        }
    }

    /// A reader that stops early ends `list --json` as it would any command in a pipeline:
    /// by SIGPIPE, with nothing on stderr.
    @Test func aReaderThatStopsEarlyEndsTheOutputQuietly() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try manyCards(in: sandbox)
        let script = #""$0" list --json 2>errors | head -c 100 >/dev/null; echo "${PIPESTATUS[0]}""#
        let result = try SpawnedProcess.start(
            "/bin/bash", ["-c", script, try KanbanBinary.require()], environment: sandbox.environment(),
            directory: sandbox.path
        ).wait()
        expectEqual(result.out, "\(128 + SIGPIPE)\n")
        expectEqual(try String(contentsOfFile: sandbox.path("errors"), encoding: .utf8), "")
    }

    /// A file large enough that its hash for the history is made on a second thread while
    /// it is read (README: Performance) is hashed as on one: the built binary moves two
    /// cards of it, and each record names the version it follows by the hash of the file's
    /// bytes, the hash the record before gave the version it made while writing it; two
    /// `undo`s then give back the file's bytes.
    @Test func aLargeFileHashedOnASecondThreadIsUndoneToItsBytes() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try manyCards(in: sandbox)
        let file = try sandbox.bytes()
        expectTrue(file.count >= SecondThread.worthIt, "\(file.count) bytes: hashed on one thread")
        let listed = try sandbox.run(["list", "--json"])
        expectTrue(listed.status == 0 && Array(listed.out.utf8) == file, "list --json: \(listed.status)")
        try sandbox.succeed(["move", "Card number 2999", "--to", "Done", "--at", "0", "--quiet"])
        try sandbox.succeed(["move", "Card number 3000", "--to", "Done", "--quiet"])
        let moved = try KanbanFile.decode(try sandbox.bytes()).kanban
        expectEqual(moved.boards.map(\.items.count), [2_998, 0, 2])
        expectEqual(moved.boards[2].items.map(\.title), ["Card number 2999", "Card number 3000"])
        // Each record names the version it follows by the hash made on the second thread, and
        // the version it made by the hash made while writing: the same file, the same hash.
        let records = try String(contentsOfFile: sandbox.path(".kanban.json.history"), encoding: .utf8)
            .split(separator: "\n").map { line in
                let hashes = line.split(separator: "\"before\":\"").last!.split(separator: "\"")
                return (before: String(hashes[0]), after: String(hashes[4]))
            }
        let hex = String(FileHash.of(file), radix: 16)
        // The cards added, then the two moves.
        expectEqual(records.count, 3)
        expectEqual(records[1].before, String(repeating: "0", count: 16 - hex.count) + hex)
        expectEqual(records[1].before, records[0].after)
        expectEqual(records[2].before, records[1].after)
        for _ in 0..<2 {
            let undone = try sandbox.run(["undo"])
            expectTrue(undone.status == 0 && undone.err.isEmpty, "undo: \(undone.status) \(undone.err)")
        }
        expectTrue(try sandbox.bytes() == file, "two undos give back the file's bytes")
    }
}
