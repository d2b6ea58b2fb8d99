import Foundation
import Glibc
import Testing

// Many processes on one file, and processes killed in the middle of a write.

@Suite("Concurrency and crashes, end to end", .serialized)
struct ConcurrencyTests {
    @Test func fiftyParallelAddsAllLandExactlyOnce() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.succeed("init", "-q")
        let titles = (0..<50).map { "card \($0)" }
        // A generous wait: this checks that nothing is lost, not how fast the lock turns over.
        let processes = try titles.map {
            try sandbox.start(["add", $0, "--to", "Todo"], environment: ["KANBAN_LOCK_TIMEOUT": "60"])
        }
        let results = try processes.map { try $0.wait(timeout: 120) }
        for (title, result) in zip(titles, results) {
            #expect(result.status == 0, "add \(title): \(result)")
        }
        let boards = try sandbox.boards()
        #expect(boards[0].items.sorted() == titles.sorted(), "every card exactly once")
        #expect(boards[1].items.isEmpty && boards[2].items.isEmpty)
        #expect(Set(boards.allIDs).count == 50, "ids are unique")
        #expect(try sandbox.fileBoards() == boards, "the file itself is valid")
        #expect(try sandbox.temporaryFiles().isEmpty)
    }

    @Test func racingInitsCreateTheFileOnceAndNeverOverwriteIt() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let processes = try (0..<10).map {
            try sandbox.start(
                ["init", "--boards", "Board \($0)", "--json"], environment: ["KANBAN_LOCK_TIMEOUT": "60"])
        }
        let results = try processes.map { try $0.wait(timeout: 120) }
        let winners = results.indices.filter { results[$0].status == 0 }
        try #require(winners.count == 1, "exactly one init succeeds: \(results.map(\.description))")
        for (index, result) in results.enumerated() where index != winners[0] {
            try expectJSONError(result, exit: 73, code: "exists")
        }
        #expect(try sandbox.fileBoards().layout == [BoardColumn("Board \(winners[0])", [])])
        #expect(try sandbox.temporaryFiles().isEmpty)
    }

    /// Puts `bytes` in place as kanban.json the way kanban does: whole, by rename.
    private func reset(_ sandbox: KanbanSandbox, to bytes: [UInt8]) throws {
        try sandbox.write(bytes, to: "reset.json")
        try #require(rename(sandbox.path("reset.json"), sandbox.file) == 0)
    }

    /// The instants of a write a writer is stopped at (debug builds) and killed, and what
    /// each must leave: the old file or the new one, and how many temporary files.
    static let stopPoints: [(point: String, newFile: Bool, temporaryFiles: Int)] = [
        ("locked", false, 0), ("writing", false, 1), ("before-commit", false, 1), ("committed", true, 0),
    ]

    @Test func aWriterKilledAtEachInstantOfItsWriteLeavesTheOldOrTheNewFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let base = try sandbox.bytes()
        let baseBoards = try sandbox.boards()
        let lines = (0..<2000).map { "crash card \($0)" }
        let input = Array((lines.joined(separator: "\n") + "\n").utf8)
        var afterWrite = baseBoards.layout
        afterWrite[0].items += lines

        var exercised = 0
        for (round, stop) in Self.stopPoints.enumerated() {
            try reset(sandbox, to: base)
            let context = "killed at \(stop.point)"
            let writer = try sandbox.start(
                ["add", "--to", "Todo", "--quiet"], stdin: input, environment: ["KANBAN_TEST_STOP_AT": stop.point])
            try #require(try writer.waitUntilStopped(timeout: 30), "\(context): the writer did not stop (debug build?)")
            writer.kill(SIGKILL)
            #expect(try writer.wait().signal == SIGKILL, "\(context)")

            // The file parses, through kanban and through JSONSerialization, and is the old
            // kanban or the new one, as the instant says.
            let boards = try sandbox.boards()
            if stop.newFile {
                #expect(boards.layout == afterWrite, "\(context): the new kanban")
                #expect(Array(boards[0].ids.prefix(4)) == baseBoards[0].ids, "\(context)")
            } else {
                #expect(try sandbox.bytes() == base, "\(context): the old file, byte for byte")
            }
            #expect(try sandbox.fileBoards() == boards)
            #expect(try sandbox.temporaryFiles().count == stop.temporaryFiles, "\(context)")

            // No stale lock: the next writer gets in at once, and removes the dead writer's file.
            let next = try sandbox.run(
                ["add", "after round \(round)", "--to", "Done"], environment: ["KANBAN_LOCK_TIMEOUT": "0"])
            #expect(next.status == 0, "\(context): \(next)")
            #expect(try sandbox.fileBoards()[2].items.last == "after round \(round)", "\(context)")
            #expect(try sandbox.temporaryFiles().isEmpty, "\(context): the next writer leaves no temporary file")
            exercised += 1
        }
        #expect(exercised == Self.stopPoints.count)
    }

    @Test func aWriterKilledBetweenFlushAndRenameLeavesTheOldFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()

        let writer = try sandbox.start(
            ["move", "Analytics", "--to", "Done", "--at", "0"], environment: ["KANBAN_TEST_STOP_BEFORE_COMMIT": "1"])
        let stopped = try writer.waitUntilStopped(timeout: 30)
        try #require(
            stopped,
            "the writer did not stop before its rename; the tests need a debug build (KANBAN_TEST_STOP_BEFORE_COMMIT)")
        // The new kanban is complete in the writer's temporary file; the old one is still in place.
        let pending = try sandbox.temporaryFiles()
        try #require(pending.count == 1, "\(pending)")
        #expect(pending[0].hasPrefix(".kanban.json.tmp.\(writer.pid)-"), "named after its writer")
        #expect(try sandbox.fileBoards(pending[0])[2].items.first == "Analytics")
        #expect(try sandbox.snapshot() == before)

        // The stopped writer holds the lock: another writer waits, gives up, writes nothing.
        let blocked = try sandbox.run(["add", "x", "--json"], environment: ["KANBAN_LOCK_TIMEOUT": "0.3"])
        try expectJSONError(blocked, exit: 75, code: "locked")

        writer.kill(SIGKILL)
        let ended = try writer.wait()
        #expect(ended.signal == SIGKILL, "\(ended)")
        #expect(try sandbox.snapshot() == before)
        #expect(try sandbox.boards().layout == sampleLayout)

        try sandbox.succeed(
            ["move", "Analytics", "--to", "Done", "--at", "0"], environment: ["KANBAN_LOCK_TIMEOUT": "2"])
        #expect(try sandbox.boards()[2].items.first == "Analytics")
        #expect(try sandbox.temporaryFiles().isEmpty, "the next writer removed the killed writer's file")
    }

    @Test func initKilledBeforeItsFileIsInPlaceLeavesNoFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let writer = try sandbox.start(["init", "--sample"], environment: ["KANBAN_TEST_STOP_BEFORE_COMMIT": "1"])
        try #require(try writer.waitUntilStopped(timeout: 30), "init did not stop before putting its file in place")
        writer.kill(SIGKILL)
        #expect(try writer.wait().signal == SIGKILL)
        #expect(!sandbox.exists("kanban.json"), "no half-made kanban.json")
        try expectJSONError(try sandbox.run("list", "--json"), exit: 66, code: "no_file")

        try sandbox.succeed(["init", "--sample", "-q"], environment: ["KANBAN_LOCK_TIMEOUT": "2"])
        #expect(try sandbox.boards().layout == sampleLayout)
        #expect(try sandbox.temporaryFiles().isEmpty)
    }
}
