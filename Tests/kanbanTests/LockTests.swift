import Foundation
import Glibc
import Testing

// The lock protocol (README, "The file"): the sidecar lock file and the kanban file itself
// are both locked, each checked to still be the file at its path; the lock file is never
// followed through a symlink, never blocks, and is usable by everyone who may write the
// kanban file; the wait ends on time whatever the signal mask; every writer has its own
// temporary file, and killed writers' files are removed by the rule of `TemporaryFile`.

@Suite("The lock and the temporary files, end to end", .serialized)
struct LockTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aWriterThatFindsTheFileReplacedWhileItWaitedLocksTheNewOne
        case theWaitEndsOnTimeWithSIGALRMBlocked
        case aZeroWaitTriesTheLockOnce
        case theLockFileIsCreatedForEveryoneWhoMayWriteTheFileWhateverTheUmask
        case anotherUserWhoMayWriteTheFileCanTakeALockMadeUnderUmask077
        case aLockFileOthersCannotReadIsNamedAsTheCause
        case killedWritersTemporaryFilesAreRemovedByTheRuleAndNothingElseIs
        case aCommandThatChangesNothingLeavesNothingBehind
        case aWriteIntoAnAppendOnlyDirectoryIsRefusedBeforeAnythingIsMade
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aWriterThatFindsTheFileReplacedWhileItWaitedLocksTheNewOne:
            try aWriterThatFindsTheFileReplacedWhileItWaitedLocksTheNewOne()
        case .theWaitEndsOnTimeWithSIGALRMBlocked: try theWaitEndsOnTimeWithSIGALRMBlocked()
        case .aZeroWaitTriesTheLockOnce: try aZeroWaitTriesTheLockOnce()
        case .theLockFileIsCreatedForEveryoneWhoMayWriteTheFileWhateverTheUmask:
            try theLockFileIsCreatedForEveryoneWhoMayWriteTheFileWhateverTheUmask()
        case .anotherUserWhoMayWriteTheFileCanTakeALockMadeUnderUmask077:
            try anotherUserWhoMayWriteTheFileCanTakeALockMadeUnderUmask077()
        case .aLockFileOthersCannotReadIsNamedAsTheCause: try aLockFileOthersCannotReadIsNamedAsTheCause()
        case .killedWritersTemporaryFilesAreRemovedByTheRuleAndNothingElseIs:
            try killedWritersTemporaryFilesAreRemovedByTheRuleAndNothingElseIs()
        case .aCommandThatChangesNothingLeavesNothingBehind: try aCommandThatChangesNothingLeavesNothingBehind()
        case .aWriteIntoAnAppendOnlyDirectoryIsRefusedBeforeAnythingIsMade:
            try aWriteIntoAnAppendOnlyDirectoryIsRefusedBeforeAnythingIsMade()
        }
    }

    // MARK: - Lock identity

    /// Replaces `path` with a new, empty regular file, as an editor's save or a checkout would.
    private func replace(_ path: String) throws {
        let fresh = path + ".fresh"
        let fd = open(fresh, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        try require(fd >= 0)
        close(fd)
        try require(rename(fresh, path) == 0)
    }

    @Test(arguments: ["deleted", "replaced"])
    func aLockFileDeletedOrReplacedWhileHeldLetsNoSecondWriterIn(_ how: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let lockFile = sandbox.path(".kanban.json.lock")
        // The first writer holds the lock, stopped just before its rename.
        let first = try sandbox.start(
            ["add", "first", "--to", "Done"], environment: ["KANBAN_TEST_STOP_BEFORE_COMMIT": "1"])
        try require(try first.waitUntilStopped(timeout: 30), "the writer did not stop; the tests need a debug build")
        let before = try sandbox.snapshot()
        if how == "deleted" {
            try require(unlink(lockFile) == 0)
        } else {
            try replace(lockFile)
        }

        // A second writer finds a free lock file, but must still wait for the first.
        let second = try sandbox.run(["add", "second", "--json"], environment: ["KANBAN_LOCK_TIMEOUT": "0.5"])
        try expectJSONError(second, exit: 75, code: "locked")
        try expectEqual(sandbox.snapshot(), before, "nothing was written while the first writer held the lock")

        // One that waits long enough gets in after the first, and keeps its change: the
        // first goes on only once the third waits for it, on the kanban file itself.
        let waits = LockWaits()
        defer { waits.remove() }
        let third = try sandbox.start(
            ["add", "third", "--to", "Done"],
            environment: waits.environment.merging(["KANBAN_LOCK_TIMEOUT": "30"]) { $1 })
        try expectEqual(waits.waitUntilWaiting(third), ["kanban file"])
        first.kill(SIGCONT)
        try expectEqual(first.wait(timeout: 30).status, 0)
        try expectEqual(third.wait(timeout: 30).status, 0)
        let done = try sandbox.boards()[2].items
        expectEqual(done, ["System Architecture", "Alert & Debugging", "first", "third"], "\(done)")
        expectTrue(try sandbox.temporaryFiles().isEmpty)
    }

    func aWriterThatFindsTheFileReplacedWhileItWaitedLocksTheNewOne() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        // Stopped once it holds both locks and before it reads; while a second writer waits
        // for it, the first replaces the file (as every write does).
        let first = try sandbox.start(["add", "first"], environment: ["KANBAN_TEST_STOP_AT": "locked"])
        try require(try first.waitUntilStopped(timeout: 30), "the writer did not stop; the tests need a debug build")
        // Take the sidecar lock file away first, so that the second writer waits on the kanban file itself.
        try require(unlink(sandbox.path(".kanban.json.lock")) == 0)
        let waits = LockWaits()
        defer { waits.remove() }
        let second = try sandbox.start(
            ["add", "second"], environment: waits.environment.merging(["KANBAN_LOCK_TIMEOUT": "30"]) { $1 })
        try expectEqual(waits.waitUntilWaiting(second), ["kanban file"])
        first.kill(SIGCONT)
        try expectEqual(first.wait(timeout: 30).status, 0)
        try expectEqual(second.wait(timeout: 30).status, 0)
        expectEqual(waits.announced, ["kanban file"], "it waited once, and then locked the new file at once")
        expectEqual(Array(try sandbox.boards()[0].items.suffix(2)), ["first", "second"], "neither change was lost")
    }

    // MARK: - What may be at the lock path

    @Test(arguments: ["symlink to the kanban file", "symlink to a new file", "fifo", "directory", "socket"])
    func aLockPathThatIsNotARegularFileIsRefusedAndNeverFollowedOrBlocking(_ kind: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let lockFile = sandbox.path(".kanban.json.lock")
        unlink(lockFile)
        switch kind {
        case "symlink to the kanban file": try require(symlink(sandbox.file, lockFile) == 0)
        case "symlink to a new file": try require(symlink(sandbox.path("elsewhere/created"), lockFile) == 0)
        case "fifo": try require(mkfifo(lockFile, 0o666) == 0)
        case "directory": try require(mkdir(lockFile, 0o755) == 0)
        default:
            let made = try sandbox.run(
                [],
                shell:
                    "python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\".kanban.json.lock\")' || exit 99")
            if made.status == 99 { try Test.cancel("skipped: no python3 to make a socket here") }
        }
        try FileManager.default.createDirectory(atPath: sandbox.path("elsewhere"), withIntermediateDirectories: false)
        let before = try sandbox.snapshot()
        // A short wait: an open that blocks (a FIFO) would never end, and wait() fails the test.
        let result = try sandbox.start(["add", "x", "--json"], environment: ["KANBAN_LOCK_TIMEOUT": "1"]).wait(
            timeout: 20)
        let message = try expectJSONError(result, exit: 74, code: "io")
        expectTrue(message.contains(".kanban.json.lock") && message.contains("remove it"), "\(message)")
        expectTrue(
            message.contains(kind.hasPrefix("symlink") ? "symbolic link" : "not a regular file"), "\(message)")
        try expectEqual(sandbox.snapshot(), before)
        expectTrue(try sandbox.entries("elsewhere").isEmpty, "nothing was created through the symlink")
        // Reading needs no lock, and a command that changes nothing needs none either.
        try expectEqual(sandbox.run("list").status, 0)
        try expectEqual(sandbox.run("move", "Done:0", "--to", "Done", "--at", "0").status, 0)
    }

    // MARK: - The wait

    func theWaitEndsOnTimeWithSIGALRMBlocked() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let lock = try HeldLock(sandbox.path(".kanban.json.lock"))
        defer { lock.release() }
        // The signal mask is inherited across exec: a parent with SIGALRM blocked passes it on.
        // The wait ends (wait() fails the test if it does not), and not before its 0.5 s.
        let waits = LockWaits()
        defer { waits.remove() }
        let start = DispatchTime.now()
        let result = try sandbox.start(
            ["add", "x", "--json"], environment: waits.environment.merging(["KANBAN_LOCK_TIMEOUT": "0.5"]) { $1 },
            blockedSignals: [SIGALRM]
        ).wait(timeout: 20)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        try expectJSONError(result, exit: 75, code: "locked")
        expectEqual(waits.announced, ["lock file"], "it waited")
        expectTrue(seconds >= 0.5, "\(seconds) s")
    }

    func aZeroWaitTriesTheLockOnce() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let lock = try HeldLock(sandbox.path(".kanban.json.lock"))
        try expectJSONError(
            try sandbox.run(["add", "x", "--json"], environment: ["KANBAN_LOCK_TIMEOUT": "0"]), exit: 75,
            code: "locked")
        lock.release()
        try sandbox.succeed(["add", "x"], environment: ["KANBAN_LOCK_TIMEOUT": "0"])
    }

    // MARK: - KANBAN_LOCK_TIMEOUT

    @Test(arguments: ["abc", "-1", "nan", "inf", "0x10", "", " 1", "1e3", "1.2.3", "5s", "+5", "١"])
    func aMalformedLockTimeoutIsAUsageErrorBeforeAnyFileIsTouched(_ value: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        for arguments in [["init", "--json"], ["list", "--json"], ["add", "x", "--json"]] {
            let message = try expectJSONError(
                try sandbox.run(arguments, environment: ["KANBAN_LOCK_TIMEOUT": value]), exit: 64, code: "usage")
            expectTrue(message.contains("KANBAN_LOCK_TIMEOUT"), "\(message)")
        }
        expectTrue(try sandbox.entries().isEmpty, "nothing was created")
    }

    @Test(arguments: ["0", "2.5", ".5", "5.", "007", "100000000000000000000000"])
    func aDecimalLockTimeoutIsTaken(_ value: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.succeed(["init", "-q"], environment: ["KANBAN_LOCK_TIMEOUT": value])
        try sandbox.succeed(["add", "x"], environment: ["KANBAN_LOCK_TIMEOUT": value])
    }

    // MARK: - Permissions

    func theLockFileIsCreatedForEveryoneWhoMayWriteTheFileWhateverTheUmask() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.succeed(["init", "-q"])
        unlink(sandbox.path(".kanban.json.lock"))
        chmod(sandbox.file, 0o622)
        let result = try sandbox.run(["add", "x"], shell: "umask 077")
        expectEqual(result.status, 0, "\(result)")
        var info = stat()
        try require(lstat(sandbox.path(".kanban.json.lock"), &info) == 0)
        // Read where the kanban file has write: an open for reading is all flock needs.
        expectEqual(info.st_mode & 0o777, 0o666, "mode \(String(info.st_mode & 0o777, radix: 8))")
    }

    func anotherUserWhoMayWriteTheFileCanTakeALockMadeUnderUmask077() throws {
        try skipUnlessRoot(needing: "to run kanban as two other users")
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        unlink(sandbox.path(".kanban.json.lock"))
        chmod(sandbox.path, 0o777)
        chmod(sandbox.file, 0o666)
        let first = try sandbox.run(["add", "from 65534"], shell: runAs(65534, umask: "077"))
        expectEqual(first.status, 0, "\(first)")
        let second = try sandbox.run(["add", "from 65533"], shell: runAs(65533, umask: "077"))
        expectEqual(second.status, 0, "\(second)")
        expectEqual(Array(try sandbox.boards()[0].items.suffix(2)), ["from 65534", "from 65533"])
        var info = stat()
        try require(stat(sandbox.file, &info) == 0)
        expectEqual(info.st_mode & 0o777, 0o666, "the file keeps its mode")
    }

    func aLockFileOthersCannotReadIsNamedAsTheCause() throws {
        try skipUnlessRoot(needing: "to run kanban as another user")
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        chmod(sandbox.path, 0o777)
        chmod(sandbox.file, 0o666)
        // Left by an older kanban under umask 077.
        chmod(sandbox.path(".kanban.json.lock"), 0o600)
        let before = try sandbox.snapshot()
        let message = try expectJSONError(
            try sandbox.run(["add", "x", "--json"], shell: runAs(65534)), exit: 74, code: "io")
        expectTrue(message.contains("lock file") && message.contains("mode 600"), "\(message)")
        expectTrue(message.contains("chmod a+r"), "says what to do: \(message)")
        expectTrue(!message.contains("directory"), "does not blame the directory: \(message)")
        try expectEqual(sandbox.snapshot(), before)
        try expectEqual(sandbox.run(["move", "Done:0", "--to", "Done", "--at", "0"], shell: runAs(65534)).status, 0)
    }

    // MARK: - Temporary files and leftovers

    func killedWritersTemporaryFilesAreRemovedByTheRuleAndNothingElseIs() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.write("precious\n", to: "victim.txt")
        // A process id that is surely gone: one that has just been waited for.
        let gone = try sandbox.start(["--version"])
        _ = try gone.wait()
        let live = getpid()
        let names = (
            dead: ".kanban.json.tmp.\(gone.pid)-1f", liveFresh: ".kanban.json.tmp.\(live)-2e",
            liveOld: ".kanban.json.tmp.\(live)-3d", deadSymlink: ".kanban.json.tmp.\(gone.pid)-4c",
            notHex: ".kanban.json.tmp.\(gone.pid)-xyz", legacy: ".kanban.json.tmp",
            otherFile: ".other.json.tmp.\(gone.pid)-5b", otherUser: ".kanban.json.tmp.\(gone.pid)-6a"
        )
        for name in [names.dead, names.liveFresh, names.liveOld, names.notHex, names.legacy, names.otherFile] {
            try sandbox.write("half a kanban", to: name)
        }
        try require(symlink(sandbox.path("victim.txt"), sandbox.path(names.deadSymlink)) == 0)
        var old = [timespec(tv_sec: time(nil) - 7200, tv_nsec: 0), timespec(tv_sec: time(nil) - 7200, tv_nsec: 0)]
        try require(utimensat(AT_FDCWD, sandbox.path(names.liveOld), &old, 0) == 0)
        var expectedLeft = [names.liveFresh, names.deadSymlink, names.notHex, names.legacy, names.otherFile]
        if geteuid() == 0 {
            try sandbox.write("another user's", to: names.otherUser)
            chown(sandbox.path(names.otherUser), 65534, 65534)
            expectedLeft.append(names.otherUser)
        }

        // Even a command that changes nothing tidies up, under the lock.
        let before = try sandbox.snapshot()
        try sandbox.succeed("move", "Done:0", "--to", "Done", "--at", "0")
        try expectEqual(sandbox.snapshot(), before)
        let left = try sandbox.entries().filter { $0.contains(".tmp") }
        expectEqual(left, expectedLeft.sorted(), "\(left)")
        try expectEqual(sandbox.bytes("victim.txt"), Array("precious\n".utf8))
    }

    func aCommandThatChangesNothingLeavesNothingBehind() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let entries = try sandbox.entries()
        for arguments in [["move", "Done:0", "--to", "Done", "--at", "0"], ["add", "--to", "Done"], ["list"]] {
            try sandbox.succeed(arguments)
        }
        try expectEqual(sandbox.entries(), entries)
    }

    @Test(arguments: ["missing.json", "directory.json", "fifo.json", "dangling.json", "missing/kanban.json"])
    func aFileThatCannotBeReadLeavesNoLockFile(_ name: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        switch name {
        case "directory.json": try require(mkdir(sandbox.path(name), 0o755) == 0)
        case "fifo.json": try require(mkfifo(sandbox.path(name), 0o644) == 0)
        case "dangling.json": try require(symlink("nowhere.json", sandbox.path(name)) == 0)
        default: break
        }
        let entries = try sandbox.entries()
        for arguments in [["add", "x"], ["move", "Todo:0", "--to", "Done"], ["board", "add", "B"]] {
            let result = try sandbox.run(arguments + ["-f", name, "--json"])
            expectTrue(result.status == 66 || result.status == 74, "\(result)")
        }
        try expectEqual(sandbox.entries(), entries, "no lock file was made")
    }

    func aWriteIntoAnAppendOnlyDirectoryIsRefusedBeforeAnythingIsMade() throws {
        try skipUnlessRoot(needing: "to make a directory append-only")
        let sandbox = try KanbanSandbox()
        defer {
            _ = try? sandbox.run([], shell: "chattr -a -i . kanban.json 2>/dev/null; exit 0")
            sandbox.remove()
        }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let entries = try sandbox.entries()
        for (target, flag) in [(".", "+a"), ("kanban.json", "+i")] {
            let set = try sandbox.run([], shell: "chattr \(flag) \(target) || exit 99")
            if set.status == 99 { try Test.cancel("skipped: this file system takes no chattr \(flag): \(set.err)") }
            let message = try expectJSONError(try sandbox.run("add", "x", "--json"), exit: 74, code: "io")
            expectTrue(message.contains(flag == "+a" ? "append-only" : "immutable"), "\(message)")
            try expectEqual(sandbox.snapshot(), before)
            try expectEqual(sandbox.entries(), entries, "no temporary file is left")
            _ = try sandbox.run([], shell: "chattr \(flag.replacing("+", with: "-")) \(target)")
        }
    }
}
