import Foundation
import Glibc
import Testing

/// Cases a review turned up: output that cannot be written, groups, waits, odd arguments.
@Suite("Edge cases, end to end")
struct EdgeCaseTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aListThatCannotBeWrittenFailsWith74
        case aChangeWhoseReportCannotBeWrittenIsSavedAndSucceeds
        case aWriterWhoIsOnlyInTheFilesGroupKeepsTheGroup
        case aHugeLockTimeoutWaitsWithoutCrashing
        case anAnchorInAnotherBoardIsNamedWithWhereItIs
        case initNamesTheBadBoardOfBoards
        case anEmptyFileOptionIsAUsageError
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aListThatCannotBeWrittenFailsWith74: try aListThatCannotBeWrittenFailsWith74()
        case .aChangeWhoseReportCannotBeWrittenIsSavedAndSucceeds:
            try aChangeWhoseReportCannotBeWrittenIsSavedAndSucceeds()
        case .aWriterWhoIsOnlyInTheFilesGroupKeepsTheGroup: try aWriterWhoIsOnlyInTheFilesGroupKeepsTheGroup()
        case .aHugeLockTimeoutWaitsWithoutCrashing: try aHugeLockTimeoutWaitsWithoutCrashing()
        case .anAnchorInAnotherBoardIsNamedWithWhereItIs: try anAnchorInAnotherBoardIsNamedWithWhereItIs()
        case .initNamesTheBadBoardOfBoards: try initNamesTheBadBoardOfBoards()
        case .anEmptyFileOptionIsAUsageError: try anEmptyFileOptionIsAUsageError()
        }
    }

    func aListThatCannotBeWrittenFailsWith74() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let result = try sandbox.run(["list", "--json"], shell: "exec >/dev/full")
        try expectJSONError(result, exit: 74, code: "io")
    }

    func aChangeWhoseReportCannotBeWrittenIsSavedAndSucceeds() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let result = try sandbox.run(["add", "saved anyway"], shell: "exec >/dev/full")
        expectEqual(result.status, 0, "\(result)")
        expectTrue(result.err.contains("the change was saved"))
        try expectEqual(sandbox.boards()[0].items.last, "saved anyway")
    }

    func aWriterWhoIsOnlyInTheFilesGroupKeepsTheGroup() throws {
        // Giving the file to another group and running as another user take root; elsewhere
        // the test cannot run, and says so instead of failing.
        try skipUnlessRoot(needing: "to hand the file to another group and run kanban as another user")
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        chmod(sandbox.path, 0o777)
        chown(sandbox.file, 0, 100)
        chmod(sandbox.file, 0o664)
        let result = try sandbox.run(
            ["add", "from a group member"],
            shell: "exec /usr/bin/setpriv --reuid=65534 --regid=65534 --groups=100 \"$0\" \"$@\"")
        expectEqual(result.status, 0, "\(result)")
        var info = stat()
        try require(lstat(sandbox.file, &info) == 0)
        expectEqual(info.st_gid, 100, "the group is kept")
        expectEqual(info.st_mode & 0o777, 0o664, "the mode is kept")
    }

    func aHugeLockTimeoutWaitsWithoutCrashing() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let lock = try HeldLock(sandbox.path(".kanban.json.lock"))
        let waits = LockWaits()
        defer { waits.remove() }
        let writer = try sandbox.start(
            ["add", "after the wait"],
            environment: waits.environment.merging(["KANBAN_LOCK_TIMEOUT": "10000000000000000000"]) { $1 })
        // Released only once the writer waits: the huge deadline is what it waits with.
        try expectEqual(waits.waitUntilWaiting(writer), ["lock file"])
        lock.release()
        let result = try writer.wait(timeout: 30)
        expectEqual(result.status, 0, "\(result)")
        try expectEqual(sandbox.boards()[0].items.last, "after the wait")
    }

    func anAnchorInAnotherBoardIsNamedWithWhereItIs() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let message = try expectJSONError(
            try sandbox.run("add", "new", "--to", "Done", "--after", "Schema Design", "--json"), exit: 1,
            code: "not_found")
        expectTrue(message.contains("is in 'Todo', not in 'Done'"), "\(message)")
    }

    func initNamesTheBadBoardOfBoards() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let empty = try sandbox.run("init", "--boards", "A,,B")
        expectEqual(empty.status, 65)
        expectTrue(empty.err.contains("board 2 of 3"), "\(empty)")
        let twice = try sandbox.run("init", "--boards", "A,a")
        expectEqual(twice.status, 64)
        expectTrue(twice.err.contains("'A' twice"), "\(twice)")
        expectTrue(try sandbox.entries().isEmpty, "nothing was created")
    }

    func anEmptyFileOptionIsAUsageError() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try expectJSONError(try sandbox.run("init", "-f", "", "--json"), exit: 64, code: "usage")
        try expectJSONError(try sandbox.run("list", "--file=", "--json"), exit: 64, code: "usage")
        expectTrue(try sandbox.entries().isEmpty)
    }
}
