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
        #expect(!sandbox.exists(".kanban.json.tmp"))
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
        #expect(!sandbox.exists(".kanban.json.tmp"))
    }

    /// Puts `bytes` in place as kanban.json the way kanban does: whole, by rename.
    private func reset(_ sandbox: KanbanSandbox, to bytes: [UInt8]) throws {
        try sandbox.write(bytes, to: "reset.json")
        try #require(rename(sandbox.path("reset.json"), sandbox.file) == 0)
    }

    @Test func aWriterKilledAtAnyInstantLeavesTheOldOrTheNewFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let base = try sandbox.bytes()
        let baseBoards = try sandbox.boards()
        let lines = (0..<2000).map { "crash card \($0)" }
        let input = Array((lines.joined(separator: "\n") + "\n").utf8)
        var afterWrite = baseBoards.layout
        afterWrite[0].items += lines

        // How long one uninterrupted write takes here, so that half the kills can aim at its
        // end, where the temporary file is written and renamed (the window is a few ms wide).
        var lifetime = 50_000
        for _ in 0..<2 {
            try reset(sandbox, to: base)
            let start = DispatchTime.now().uptimeNanoseconds
            let run = try sandbox.start(["add", "--to", "Todo", "--quiet"], stdin: input)
            try #require(try run.wait().status == 0)
            lifetime = min(lifetime, Int((DispatchTime.now().uptimeNanoseconds - start) / 1000))
        }

        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            try reset(sandbox, to: base)
            let delay = UInt32(
                round.isMultiple(of: 2)
                    ? Int.random(in: 0...lifetime, using: &generator)
                    : Int.random(in: max(0, lifetime - 8_000)...lifetime, using: &generator))
            let context = "round \(round), killed after \(delay) µs"
            let writer = try sandbox.start(["add", "--to", "Todo", "--quiet"], stdin: input)
            usleep(delay)
            writer.kill(SIGKILL)
            let ended = try writer.wait()
            #expect(ended.status == 0 || ended.signal == SIGKILL, "\(context): \(ended)")

            // The file parses, through kanban and through JSONSerialization, and is the old
            // kanban or the new one.
            let listed = try sandbox.run("list", "--json")
            try #require(listed.status == 0, "\(context): \(listed)")
            let boards = try BoardColumn.parse(listed.stdout)
            let bytes = try sandbox.bytes()
            if bytes != base {
                #expect(boards.layout == afterWrite, "\(context): neither the old nor the new kanban")
                #expect(Array(boards[0].ids.prefix(4)) == baseBoards[0].ids, "\(context)")
            }
            #expect(try sandbox.fileBoards() == boards)

            // No stale lock: the next writer gets in at once.
            let next = try sandbox.run(
                ["add", "after round \(round)", "--to", "Done"], environment: ["KANBAN_LOCK_TIMEOUT": "2"])
            #expect(next.status == 0, "\(context): \(next)")
            #expect(try sandbox.fileBoards()[2].items.last == "after round \(round)", "\(context)")
            #expect(!sandbox.exists(".kanban.json.tmp"), "\(context): the next writer leaves no temporary file")
        }
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
        // The new kanban is complete in the temporary file; the old one is still in place.
        #expect(sandbox.exists(".kanban.json.tmp"))
        #expect(try sandbox.fileBoards(".kanban.json.tmp")[2].items.first == "Analytics")
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
        #expect(!sandbox.exists(".kanban.json.tmp"))
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
        #expect(!sandbox.exists(".kanban.json.tmp"))
    }
}
