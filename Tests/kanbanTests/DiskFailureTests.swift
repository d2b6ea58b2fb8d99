import Foundation
import Glibc
import Testing

// SPEC §5 and §6: a write that fails leaves the file as it was and exits 74 (73 for `init`)
// with a message that names the file and the reason. ExitCodeTests covers a kanban.json
// that is a directory, a blocked temporary file, RLIMIT_FSIZE and read-only directories
// and files; this suite adds every system call of the write failing (injected with strace),
// a real full disk and a read-only file system (a small tmpfs in a private mount
// namespace), and the file or its directory changing under a writer in the middle of its write.

/// One system call made to fail, and what kanban must make of it.
struct InjectedFault: Sendable, CustomTestStringConvertible {
    var syscall: String
    /// Which file the call must touch: "tmp", "file" or "lock".
    var target: String
    var errno: String
    var exit: Int32
    /// What the message must say (strerror, lowercased).
    var reason: String
    /// `init` instead of `add` (a new file: 73).
    var creating = false

    var testDescription: String {
        "\(creating ? "init" : "add"): \(syscall) on the \(target) fails with \(errno) → \(exit)"
    }

    static let all: [InjectedFault] = [
        InjectedFault(
            syscall: "openat", target: "tmp", errno: "ENOSPC", exit: 74, reason: "no space left on device"),
        InjectedFault(syscall: "openat", target: "tmp", errno: "EDQUOT", exit: 74, reason: "quota exceeded"),
        InjectedFault(
            syscall: "openat", target: "tmp", errno: "EROFS", exit: 74, reason: "read-only file system"),
        InjectedFault(
            syscall: "openat", target: "tmp", errno: "EACCES", exit: 74, reason: "permission denied"),
        InjectedFault(
            syscall: "fchmod", target: "tmp", errno: "EPERM", exit: 74, reason: "operation not permitted"),
        InjectedFault(
            syscall: "write", target: "tmp", errno: "ENOSPC", exit: 74, reason: "no space left on device"),
        InjectedFault(syscall: "write", target: "tmp", errno: "EIO", exit: 74, reason: "input/output error"),
        InjectedFault(syscall: "write", target: "tmp", errno: "EFBIG", exit: 74, reason: "file too large"),
        InjectedFault(syscall: "write", target: "tmp", errno: "EDQUOT", exit: 74, reason: "quota exceeded"),
        InjectedFault(syscall: "fsync", target: "tmp", errno: "EIO", exit: 74, reason: "input/output error"),
        InjectedFault(
            syscall: "fsync", target: "tmp", errno: "ENOSPC", exit: 74, reason: "no space left on device"),
        InjectedFault(syscall: "close", target: "tmp", errno: "EIO", exit: 74, reason: "input/output error"),
        InjectedFault(syscall: "rename", target: "tmp", errno: "EIO", exit: 74, reason: "input/output error"),
        InjectedFault(
            syscall: "rename", target: "tmp", errno: "ENOSPC", exit: 74, reason: "no space left on device"),
        InjectedFault(syscall: "rename", target: "tmp", errno: "EBUSY", exit: 74, reason: "busy"),
        InjectedFault(
            syscall: "openat", target: "file", errno: "EIO", exit: 74, reason: "input/output error"),
        InjectedFault(syscall: "read", target: "file", errno: "EIO", exit: 74, reason: "input/output error"),
        InjectedFault(
            syscall: "openat", target: "lock", errno: "ENOSPC", exit: 74, reason: "no space left on device"),
        InjectedFault(
            syscall: "flock", target: "lock", errno: "ENOLCK", exit: 74, reason: "no locks available"),
        InjectedFault(
            syscall: "openat", target: "tmp", errno: "ENOSPC", exit: 73, reason: "no space left on device",
            creating: true),
        InjectedFault(
            syscall: "write", target: "tmp", errno: "EIO", exit: 73, reason: "input/output error",
            creating: true),
        InjectedFault(
            syscall: "fsync", target: "tmp", errno: "EIO", exit: 73, reason: "input/output error",
            creating: true),
        InjectedFault(
            syscall: "link", target: "tmp", errno: "ENOSPC", exit: 73, reason: "no space left on device",
            creating: true),
        InjectedFault(
            syscall: "openat", target: "lock", errno: "EROFS", exit: 73, reason: "read-only file system",
            creating: true),
    ]
}

@Suite("Failing disks, end to end")
struct DiskFailureTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aFileReplacedByADirectoryDuringTheWriteExits74
        case aDirectoryRemovedDuringTheWriteExits74AndIsNotRecreated
        case initPastTheFileSizeLimitExits73AndLeavesNoFile
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aFileReplacedByADirectoryDuringTheWriteExits74: try aFileReplacedByADirectoryDuringTheWriteExits74()
        case .aDirectoryRemovedDuringTheWriteExits74AndIsNotRecreated:
            try aDirectoryRemovedDuringTheWriteExits74AndIsNotRecreated()
        case .initPastTheFileSizeLimitExits73AndLeavesNoFile: try initPastTheFileSizeLimitExits73AndLeavesNoFile()
        }
    }

    /// What the temporary file is called after `.kanban.json.tmp.` in the strace tests.
    static let temporarySuffix = "injected"

    // MARK: - Every system call of a write failing

    /// strace, if it is installed and may trace here: it injects errors into chosen system calls.
    static let strace: String? = {
        guard access("/usr/bin/strace", X_OK) == 0,
            let probe = try? SpawnedProcess.start(
                "/usr/bin/strace", ["-f", "-qq", "-o", "/dev/null", "/bin/true"], environment: [:]),
            (try? probe.wait(timeout: 30))?.status == 0
        else { return nil }
        return "/usr/bin/strace"
    }()

    @Test(
        .enabled(if: strace != nil, "strace is not installed or may not trace here"),
        arguments: InjectedFault.all)
    func aSystemCallThatFailsLeavesTheFileAsItWas(_ fault: InjectedFault) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let name = fault.creating ? "new.json" : "kanban.json"
        let file = sandbox.path(name)
        // Each writer names its temporary file after itself; a debug-only variable names it
        // here, so that strace can be told which path to fail.
        let path = [
            "tmp": sandbox.path(".\(name).tmp.\(Self.temporarySuffix)"), "file": file,
            "lock": sandbox.path(".\(name).lock"),
        ][fault.target]!
        let arguments = fault.creating ? ["init", "-f", file, "--json"] : ["add", "one more", "--json"]
        // One error, on the first matching call: later calls (the clean-up) work.
        let shell =
            "exec \(Self.strace!) -f -qq -o /dev/null -P '\(path)' -e inject=\(fault.syscall):error=\(fault.errno):when=1 \"$0\" \"$@\""
        if !fault.creating {
            try sandbox.initSample()
            // The lock file exists, as it does after the first write.
            try sandbox.succeed("board", "limit", "Done", "none")
        }
        let before = fault.creating ? nil : try sandbox.snapshot()
        let entries = try sandbox.entries()

        let result = try sandbox.run(
            arguments, environment: ["KANBAN_TEST_TEMPORARY_SUFFIX": Self.temporarySuffix], shell: shell)
        let message = try expectJSONError(result, exit: fault.exit, code: "io")
        expectTrue(message.contains(fault.reason), "names the reason: \(message)")
        expectTrue(
            message.contains(fault.creating ? file : sandbox.file) || message.contains(name),
            "names the file: \(message)")
        if let before {
            try expectEqual(sandbox.snapshot(), before, "the file is untouched")
        } else {
            expectTrue(!sandbox.exists(name), "init left no file")
        }
        let left = Set(try sandbox.entries()).subtracting(entries).subtracting([".\(name).lock"])
        expectTrue(left.isEmpty, "nothing is left behind: \(left.sorted())")

        // The next command, on a healthy disk, works.
        if fault.creating {
            try sandbox.succeed(["init", "-f", file, "-q"])
        } else {
            try sandbox.succeed(["add", "one more", "-q"])
            try expectEqual(sandbox.boards()[0].items.last, "one more")
        }
        Reliability.record("disk", ["kind": "injected", "call": fault.syscall, "errno": fault.errno])
    }

    @Test(
        .enabled(if: strace != nil, "strace is not installed or may not trace here"),
        arguments: [
            ("read", "file"), ("write", "tmp"), ("openat", "tmp"), ("openat", "file"), ("openat", "lock"),
        ])
    func anInterruptedSystemCallIsRetried(_ syscall: String, _ target: String) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("board", "limit", "Done", "none")
        let path = [
            "tmp": sandbox.path(".kanban.json.tmp.\(Self.temporarySuffix)"), "file": sandbox.file,
            "lock": sandbox.path(".kanban.json.lock"),
        ][target]!
        let shell =
            "exec \(Self.strace!) -f -qq -o /dev/null -P '\(path)' -e inject=\(syscall):error=EINTR:when=1 \"$0\" \"$@\""
        let result = try sandbox.run(
            ["add", "one more"], environment: ["KANBAN_TEST_TEMPORARY_SUFFIX": Self.temporarySuffix], shell: shell)
        expectEqual(result.status, 0, "\(result)")
        try expectEqual(sandbox.boards()[0].items.last, "one more")
        expectTrue(try sandbox.temporaryFiles().isEmpty)
        Reliability.record("disk", ["kind": "interrupted", "call": syscall])
    }

    // MARK: - A real full disk, and a read-only file system

    /// How to get a private mount namespace where a tmpfs can be mounted: as root, or in a
    /// user namespace; nil where neither is allowed.
    static let unshareFlags: String? = {
        guard access("/usr/bin/unshare", X_OK) == 0, let directory = try? KanbanSandbox(inProcess: true) else { return nil }
        defer { directory.remove() }
        for flags in ["-m", "-Urm"] {
            let script = "mount -t tmpfs -o size=16k tmpfs '\(directory.path)' && touch '\(directory.path)/x'"
            guard
                let process = try? SpawnedProcess.start(
                    "/usr/bin/unshare", flags.split(separator: " ").map(String.init) + ["sh", "-c", script],
                    environment: ["PATH": "/usr/bin:/bin"]),
                (try? process.wait(timeout: 30))?.status == 0
            else { continue }
            return flags
        }
        return nil
    }()

    /// What a run on the small disk left.
    struct SmallDiskRun {
        var result: ProcessResult
        /// kanban.json on the small disk after the run, if any.
        var file: [UInt8]?
        /// The names on the small disk after the run.
        var entries: [String]
        /// The exit status of `kanban add 'after space was freed'` once the disk has room again.
        var next: Int32?
    }

    /// Runs `kanban arguments` in a tmpfs of `options` mounted on `disk/` in a private mount
    /// namespace, after `prepare` (shell, run in `disk/`) has set it up; then runs `recover`
    /// (shell) and one more command there. The mount dies with the namespace.
    func runOnSmallDisk(
        _ sandbox: KanbanSandbox, options: String, prepare: String, arguments: [String],
        recover: String = "rm -f filler"
    ) throws -> SmallDiskRun {
        try FileManager.default.createDirectory(
            atPath: sandbox.path("disk"), withIntermediateDirectories: false)
        let script = """
            exec unshare \(Self.unshareFlags!) sh -c '
            mount -t tmpfs -o \(options) tmpfs disk || exit 99
            cd disk
            \(prepare)
            "$0" "$@"
            code=$?
            cp kanban.json ../after.json 2>/dev/null
            ls -A > ../entries
            \(recover)
            "$0" add "after space was freed" -q
            echo $? > ../next
            exit $code
            ' "$0" "$@"
            """
        let result = try sandbox.run(arguments, shell: script)
        if result.status == 99 {
            // A user namespace may allow a tmpfs but not every mount option: the test cannot run here.
            try Test.cancel("skipped: could not mount or remount the tmpfs here (needs root): \(result.err)")
        }
        let next = (try? String(contentsOfFile: sandbox.path("next"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return SmallDiskRun(
            result: result, file: sandbox.exists("after.json") ? try sandbox.bytes("after.json") : nil,
            entries: (try String(contentsOfFile: sandbox.path("entries"), encoding: .utf8)).split(
                separator: "\n"
            ).map(String.init),
            next: next.flatMap { Int32($0) })
    }

    /// Shell that fills the disk: every block, with a file that the recovery step removes.
    static let fillBlocks = "cat /dev/zero > filler 2>/dev/null"
    /// Shell that uses up every inode, with files that the recovery step removes.
    static let fillInodes = "i=0; while touch filler$i 2>/dev/null; do i=$((i+1)); done"

    @Test(.enabled(if: unshareFlags != nil, "no mount namespace for a small tmpfs here"))
    func aFullDiskExits74AndKeepsTheFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", String(repeating: "a long card ", count: 100), "-q")
        let before = try sandbox.bytes()
        let run = try runOnSmallDisk(
            sandbox, options: "size=64k",
            prepare: "cp ../kanban.json ../.kanban.json.lock . && \(Self.fillBlocks)",
            arguments: ["add", "one more", "--json"])
        let message = try expectJSONError(run.result, exit: 74, code: "io")
        expectTrue(message.contains("no space left on device"), "\(message)")
        expectEqual(run.file, before, "the file is as it was")
        expectEqual(run.entries, [".kanban.json.lock", "filler", "kanban.json"], "no temporary file is left")
        expectEqual(run.next, 0, "once there is room again, the next command works")
        Reliability.record("disk", ["kind": "tmpfs", "case": "aFullDiskExits74AndKeepsTheFile"])
    }

    @Test(
        .enabled(if: unshareFlags != nil, "no mount namespace for a small tmpfs here"),
        arguments: [("the temporary file", true), ("the lock file", false)])
    func noInodeLeftExits74AndKeepsTheFile(_ what: String, _ lockFileExists: Bool) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.bytes()
        let run = try runOnSmallDisk(
            sandbox, options: "size=1m,nr_inodes=16",
            prepare:
                "cp ../kanban.json \(lockFileExists ? "../.kanban.json.lock" : "") . && \(Self.fillInodes)",
            arguments: ["move", "Analytics", "--to", "Done", "--json"], recover: "rm -f filler*")
        let message = try expectJSONError(run.result, exit: 74, code: "io")
        expectTrue(message.contains("no space left on device"), "no inode for \(what): \(message)")
        expectEqual(run.file, before)
        expectTrue(!run.entries.contains { $0.hasPrefix(".kanban.json.tmp") })
        expectEqual(run.entries.contains(".kanban.json.lock"), lockFileExists)
        expectEqual(run.next, 0)
        Reliability.record("disk", ["kind": "tmpfs", "case": "noInodeLeftExits74AndKeepsTheFile"])
    }

    @Test(.enabled(if: unshareFlags != nil, "no mount namespace for a small tmpfs here"))
    func initOnAFullDiskExits73AndLeavesNoFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let run = try runOnSmallDisk(
            sandbox, options: "size=16k", prepare: Self.fillBlocks,
            arguments: ["init", "--sample", "--json"],
            recover: "rm -f filler; \"$0\" init -q")
        let message = try expectJSONError(run.result, exit: 73, code: "io")
        expectTrue(message.contains("no space left on device"), "\(message)")
        expectTrue(run.file == nil)
        expectTrue(Set(run.entries).isSubset(of: ["filler", ".kanban.json.lock"]), "\(run.entries)")
        expectEqual(run.next, 0)
        Reliability.record("disk", ["kind": "tmpfs", "case": "initOnAFullDiskExits73AndLeavesNoFile"])
    }

    @Test(.enabled(if: unshareFlags != nil, "no mount namespace for a small tmpfs here"))
    func aReadOnlyFileSystemExits74AndCanStillBeListed() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.bytes()
        let run = try runOnSmallDisk(
            sandbox, options: "size=1m",
            prepare: """
                cp ../kanban.json ../.kanban.json.lock . && mount -o remount,ro "$PWD" || exit 99
                "$0" list --tsv > ../listed || exit 98
                """,
            arguments: ["move", "Analytics", "--to", "Done", "--json"],
            recover: "mount -o remount,rw \"$PWD\"")
        try require(run.result.status != 98, "list failed on a read-only file system")
        let message = try expectJSONError(run.result, exit: 74, code: "io")
        expectTrue(message.contains("read-only file system"), "\(message)")
        expectEqual(run.file, before)
        expectEqual(run.entries, [".kanban.json.lock", "kanban.json"])
        expectTrue(try String(contentsOfFile: sandbox.path("listed"), encoding: .utf8).contains("Analytics"))
        Reliability.record(
            "disk", ["kind": "tmpfs", "case": "aReadOnlyFileSystemExits74AndCanStillBeListed"])
    }

    @Test(.enabled(if: unshareFlags != nil, "no mount namespace for a small tmpfs here"))
    func aCommandThatChangesNothingSucceedsOnAReadOnlyFileSystem() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.bytes()
        // No lock file on the read-only disk, and none can be made: a no-op needs none.
        let run = try runOnSmallDisk(
            sandbox, options: "size=1m",
            prepare: """
                cp ../kanban.json . && mount -o remount,ro "$PWD" || exit 99
                "$0" add "refused" --json 2> ../refused; echo $? > ../refused-status
                """,
            arguments: ["move", "Done:0", "--to", "Done", "--at", "0", "--json"],
            recover: "mount -o remount,rw \"$PWD\"")
        expectEqual(run.result.status, 0, "\(run.result)")
        expectEqual(run.file, before)
        expectEqual(run.entries, ["kanban.json"], "no lock file was made")
        // A command that does change something still fails, naming the reason.
        try expectEqual(String(contentsOfFile: sandbox.path("refused-status"), encoding: .utf8), "74\n")
        expectTrue(try String(contentsOfFile: sandbox.path("refused"), encoding: .utf8).contains("read-only file system"))
        Reliability.record(
            "disk", ["kind": "tmpfs", "case": "aCommandThatChangesNothingSucceedsOnAReadOnlyFileSystem"])
    }

    // MARK: - The file or its directory changing in the middle of a write

    /// Starts `arguments` and stops it inside its write, between flushing the temporary file
    /// and renaming it (debug builds).
    private func stoppedWriter(
        _ sandbox: KanbanSandbox, _ arguments: [String], shell: String? = nil
    ) throws -> SpawnedProcess {
        let writer = try sandbox.start(
            arguments, environment: ["KANBAN_TEST_STOP_BEFORE_COMMIT": "1"], shell: shell)
        try require(
            try writer.waitUntilStopped(timeout: 30), "the writer did not stop; the tests need a debug build")
        return writer
    }

    func aFileReplacedByADirectoryDuringTheWriteExits74() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.bytes()
        let writer = try stoppedWriter(sandbox, ["move", "Analytics", "--to", "Done", "--json"])
        try require(rename(sandbox.file, sandbox.path("moved.json")) == 0)
        try FileManager.default.createDirectory(
            atPath: sandbox.path("kanban.json/notes"), withIntermediateDirectories: true)
        writer.kill(SIGCONT)
        let message = try expectJSONError(try writer.wait(timeout: 30), exit: 74, code: "io")
        expectTrue(message.contains("is a directory") && message.contains("kanban.json"), "\(message)")
        try expectEqual(sandbox.entries("kanban.json"), ["notes"], "the directory is untouched")
        try expectEqual(sandbox.bytes("moved.json"), before)
        expectTrue(try sandbox.temporaryFiles().isEmpty, "the temporary file is removed")
        Reliability.record(
            "disk", ["kind": "changed", "case": "aFileReplacedByADirectoryDuringTheWriteExits74"])
    }

    func aDirectoryRemovedDuringTheWriteExits74AndIsNotRecreated() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(
            atPath: sandbox.path("project"), withIntermediateDirectories: false)
        try sandbox.succeed(["init", "--sample", "-q", "-f", "project/kanban.json"])
        let writer = try stoppedWriter(sandbox, ["add", "x", "-f", "project/kanban.json", "--json"])
        try FileManager.default.removeItem(atPath: sandbox.path("project"))
        writer.kill(SIGCONT)
        let message = try expectJSONError(try writer.wait(timeout: 30), exit: 74, code: "io")
        expectTrue(message.contains("no such file or directory"), "\(message)")
        try expectEqual(sandbox.entries(), [], "nothing was created in its place")
        Reliability.record(
            "disk", ["kind": "changed", "case": "aDirectoryRemovedDuringTheWriteExits74AndIsNotRecreated"])
    }

    @Test(
        .enabled(if: ExitCodeTests.unprivileged != nil, "running as root without setpriv to drop privileges"))
    func aDirectoryMadeReadOnlyDuringTheWriteExits74() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        chmod(sandbox.path, 0o777)
        chmod(sandbox.file, 0o666)
        chmod(sandbox.path(".kanban.json.lock"), 0o666)
        let before = try sandbox.snapshot()
        let writer = try stoppedWriter(sandbox, ["add", "x", "--json"], shell: ExitCodeTests.unprivileged)
        chmod(sandbox.path, 0o555)
        writer.kill(SIGCONT)
        let message = try expectJSONError(try writer.wait(timeout: 30), exit: 74, code: "io")
        expectTrue(message.contains("permission denied"), "\(message)")
        try expectEqual(sandbox.snapshot(), before)
        // The temporary file could not be removed either; the next writer removes it.
        try expectEqual(sandbox.temporaryFiles().count, 1)
        chmod(sandbox.path, 0o777)
        try expectEqual(sandbox.run(["add", "y"], shell: ExitCodeTests.unprivileged).status, 0)
        try expectEqual(sandbox.boards()[0].items.last, "y")
        expectTrue(try sandbox.temporaryFiles().isEmpty)
        Reliability.record(
            "disk", ["kind": "changed", "case": "aDirectoryMadeReadOnlyDuringTheWriteExits74"])
    }

    // MARK: - A missing parent directory

    @Test(arguments: [
        (["-f", "missing/kanban.json"], [String: String]()), ([], ["KANBAN_FILE": "missing/kanban.json"]),
        (["-f", "missing/deeper/kanban.json"], [:]),
    ])
    func aFileInAMissingDirectoryExits66AndCreatesNothing(
        _ options: [String], _ environment: [String: String]
    ) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        for command in [["add", "x"], ["move", "Todo:0", "--to", "Done"], ["board", "add", "B"], ["list"]] {
            try expectJSONError(
                try sandbox.run(command + options + ["--json"], environment: environment), exit: 66,
                code: "no_file")
        }
        try expectJSONError(
            try sandbox.run(["init", "--json"] + options, environment: environment), exit: 73, code: "io")
        expectTrue(try sandbox.entries().isEmpty, "no directory or file was created")
    }

    func initPastTheFileSizeLimitExits73AndLeavesNoFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        // One 512-byte block: less than the sample needs, enough for the error message (stderr is a file here).
        let result = try sandbox.run(["init", "--sample", "--json"], shell: "ulimit -f 1")
        let message = try expectJSONError(result, exit: 73, code: "io")
        expectTrue(message.contains("file too large"), "\(message)")
        expectTrue(Set(try sandbox.entries()).isSubset(of: [".kanban.json.lock"]))
    }
}
