import Foundation
import Glibc
import Testing

@testable import kanban

// The upward search for kanban.json stops where another user could have planted one, and
// the files kanban makes next to the kanban file are no more open than it (README:
// Security). Cases with another user's directories need root (to chown); elsewhere they
// are skipped, saying so.

@Suite("the upward search and the files kanban makes")
struct UpwardSearchTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theSearchDoesNotClimbIntoAnotherUsersDirectory
        case theSearchDoesNotClimbIntoADirectoryEveryoneMayWrite
        case theSearchClimbsIntoRootsDirectoriesFromAnotherUsers
        case initMakesItsLockFileWithTheUmaskOfTheFileItCreates
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theSearchDoesNotClimbIntoAnotherUsersDirectory: try theSearchDoesNotClimbIntoAnotherUsersDirectory()
        case .theSearchDoesNotClimbIntoADirectoryEveryoneMayWrite:
            try theSearchDoesNotClimbIntoADirectoryEveryoneMayWrite()
        case .theSearchClimbsIntoRootsDirectoriesFromAnotherUsers:
            try theSearchClimbsIntoRootsDirectoriesFromAnotherUsers()
        case .initMakesItsLockFileWithTheUmaskOfTheFileItCreates:
            try initMakesItsLockFileWithTheUmaskOfTheFileItCreates()
        }
    }

    /// A sandbox holding `shared/kanban.json` and the directory `shared/mine`, where the
    /// commands run; `shared` gets `owner` and `mode`.
    private func planted(owner: uid_t?, mode: mode_t) throws -> KanbanSandbox {
        let sandbox = try KanbanSandbox(inProcess: true)
        try FileManager.default.createDirectory(atPath: sandbox.path("shared/mine"), withIntermediateDirectories: true)
        try sandbox.succeed(["init", "-q", "-f", "shared/kanban.json"])
        if let owner {
            try require(chown(sandbox.path("shared"), owner, owner) == 0)
            try require(chown(sandbox.path("shared/kanban.json"), owner, owner) == 0)
        }
        try require(chmod(sandbox.path("shared"), mode) == 0)
        try require(chmod(sandbox.path("shared/kanban.json"), 0o666) == 0)
        return sandbox
    }

    /// Commands below `shared` neither read nor change its kanban.json (exit 66, the
    /// boundary named), and make nothing next to it; `-f` still reaches it.
    private func expectNotFound(in sandbox: KanbanSandbox, because reason: String) throws {
        let before = try sandbox.entries("shared")
        let file = try sandbox.snapshot("shared/kanban.json")
        for arguments in [["list"], ["add", "my secret card"]] {
            let result = try sandbox.run(arguments, in: "shared/mine")
            expectEqual(result.status, 66, "\(arguments): \(result)")
            expectTrue(
                result.err.contains("\(sandbox.path)/shared") && result.err.contains(reason)
                    && result.err.contains("does not enter"), "\(result.err)")
        }
        try expectEqual(sandbox.snapshot("shared/kanban.json"), file, "the planted file is untouched")
        try expectEqual(sandbox.entries("shared"), before, "no history or lock was made next to it")
        // Named explicitly, it is used as given.
        try sandbox.succeed(["add", "on purpose", "-f", "../kanban.json", "-q"], in: "shared/mine")
        try sandbox.succeed(["list", "-q"], environment: ["KANBAN_FILE": "../kanban.json"], in: "shared/mine")
    }

    func theSearchDoesNotClimbIntoAnotherUsersDirectory() throws {
        try skipUnlessRoot(needing: "to give a directory to another user")
        let sandbox = try planted(owner: 12345, mode: 0o755)
        defer { sandbox.remove() }
        try expectNotFound(in: sandbox, because: "another user, uid 12345")
    }

    func theSearchDoesNotClimbIntoADirectoryEveryoneMayWrite() throws {
        let sandbox = try planted(owner: geteuid() == 0 ? 12345 : nil, mode: 0o1777)
        defer { sandbox.remove() }
        // As root, the planted file belongs to another user, as in /tmp; the directory is root's.
        if geteuid() == 0 { try require(chown(sandbox.path("shared"), 0, 0) == 0) }
        try require(chmod(sandbox.path("shared"), 0o1777) == 0)
        try expectNotFound(in: sandbox, because: "everyone may write in it")
    }

    func theSearchClimbsIntoRootsDirectoriesFromAnotherUsers() throws {
        try skipUnlessRoot(needing: "to give a directory to another user")
        let sandbox = try planted(owner: nil, mode: 0o755)
        defer { sandbox.remove() }
        try require(chown(sandbox.path("shared/mine"), 12345, 12345) == 0)
        try sandbox.succeed(["add", "found", "-q"], in: "shared/mine")
        expectTrue(try sandbox.fileBoards("shared/kanban.json")[0].items.contains("found"))
    }

    // MARK: - Modes

    /// The lock file and a new history get the kanban file's permissions, whatever the umask.
    @Test(arguments: [0o600, 0o640, 0o664] as [mode_t])
    func filesMadeNextToTheKanbanFileAreNoMoreOpenThanIt(mode: mode_t) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        unlink(sandbox.path(".kanban.json.lock"))
        unlink(sandbox.path(".kanban.json.history"))
        try require(chmod(sandbox.file, mode) == 0)
        let result = try sandbox.run(["add", "x"], shell: "umask 000")
        expectEqual(result.status, 0, "\(result)")
        for name in [".kanban.json.lock", ".kanban.json.history", "kanban.json"] {
            var info = stat()
            try require(lstat(sandbox.path(name), &info) == 0, "\(name)")
            expectTrue(
                info.st_mode & 0o777 == mode,
                "\(name): mode \(String(info.st_mode & 0o777, radix: 8)), not \(String(mode, radix: 8))")
        }
    }

    func initMakesItsLockFileWithTheUmaskOfTheFileItCreates() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let result = try sandbox.run(["init", "-q"], shell: "umask 077")
        expectEqual(result.status, 0, "\(result)")
        for name in [".kanban.json.lock", "kanban.json"] {
            var info = stat()
            try require(lstat(sandbox.path(name), &info) == 0, "\(name)")
            expectEqual(info.st_mode & 0o777, 0o600, "\(name): mode \(String(info.st_mode & 0o777, radix: 8))")
        }
    }
}
