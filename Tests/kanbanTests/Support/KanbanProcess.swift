import Foundation
import Glibc
import Testing

// Shared support for the end-to-end tests: find the built `kanban`, run it as a child
// process with posix_spawn in a real temporary directory, and look at the files it leaves.

// MARK: - The binary

/// The built `kanban` executable: `$KANBAN_BIN`, else `kanban` next to the test bundle
/// (SwiftPM puts both in `.build/<triple>/debug/`).
enum KanbanBinary {
    static let path: Result<String, SpawnError> = {
        if let override = ProcessInfo.processInfo.environment["KANBAN_BIN"], !override.isEmpty {
            return access(override, X_OK) == 0
                ? .success(override) : .failure(SpawnError("KANBAN_BIN=\(override) is not an executable file"))
        }
        guard let bundle = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return .failure(SpawnError("cannot read /proc/self/exe to find the kanban binary; set KANBAN_BIN"))
        }
        let candidate = (bundle as NSString).deletingLastPathComponent + "/kanban"
        guard access(candidate, X_OK) == 0 else {
            return .failure(
                SpawnError(
                    "the kanban binary is not at \(candidate) (next to the test bundle \(bundle)); "
                        + "run the tests with 'swift test', or set KANBAN_BIN to the built executable"))
        }
        return .success(candidate)
    }()

    static func require() throws -> String {
        try path.get()
    }
}

struct SpawnError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Processes

/// How a child process ended, and what it printed.
struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or `nil` when a signal ended the process.
    var status: Int32?
    /// The signal that ended the process, if one did.
    var signal: Int32?
    var stdout: [UInt8]
    var stderr: [UInt8]

    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }

    var description: String {
        let how = status.map { "exit \($0)" } ?? "signal \(signal ?? -1)"
        return "\(how)\n--- stdout ---\n\(out)--- stderr ---\n\(err)"
    }
}

/// A child process started by ``SpawnedProcess/start(_:_:environment:directory:stdin:)``.
///
/// Its stdin, stdout and stderr are unlinked temporary files, so a test can start dozens
/// at once without pipes filling up, and nothing is left behind in the directory under test.
final class SpawnedProcess: @unchecked Sendable {
    let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private var finished: ProcessResult?

    private init(pid: pid_t, stdoutFD: Int32, stderrFD: Int32) {
        self.pid = pid
        self.stdoutFD = stdoutFD
        self.stderrFD = stderrFD
    }

    deinit {
        if finished == nil {
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            close(stdoutFD)
            close(stderrFD)
        }
    }

    /// Starts `executable` with `arguments` (argv[0] is the executable), exactly
    /// `environment`, in `directory`, with `stdin` as its standard input (`/dev/null` if nil).
    static func start(
        _ executable: String, _ arguments: [String], environment: [String: String],
        directory: String? = nil, stdin: [UInt8]? = nil, blockedSignals: [Int32] = []
    ) throws -> SpawnedProcess {
        let input = try stdin.map(temporaryFile(containing:)) ?? openCloexec("/dev/null", O_RDONLY)
        defer { close(input) }
        let output = try temporaryFile(containing: [])
        var started = false
        defer { if !started { close(output) } }
        let errors = try temporaryFile(containing: [])
        defer { if !started { close(errors) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The originals are O_CLOEXEC, so no other test's child inherits them; dup2 clears
        // the flag on the copies this child gets.
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        if let directory {
            guard let addChdir = addChdir else {
                throw SpawnError("posix_spawn_file_actions_addchdir_np is not available (glibc 2.29 or later)")
            }
            let code = addChdir(&actions, directory)
            guard code == 0 else { throw SpawnError("addchdir \(directory): \(String(cString: strerror(code)))") }
        }

        // The child starts with default dispositions and only `blockedSignals` blocked,
        // whatever the test runner's thread had.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blockedSignals { sigaddset(&mask, signal) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else {
            throw SpawnError("posix_spawn \(executable) failed: \(String(cString: strerror(code)))")
        }
        started = true
        return SpawnedProcess(pid: pid, stdoutFD: output, stderrFD: errors)
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np`, which Swift's Glibc module does not
    /// declare (it is a GNU extension); looked up once at run time.
    private typealias AddChdir =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32
    private static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: AddChdir.self)
    }

    /// Sends `signal` to the process.
    func kill(_ signal: Int32) {
        Glibc.kill(pid, signal)
    }

    /// Waits for the process to end, killing it after `timeout` seconds so that a hung
    /// child fails its test instead of hanging the suite.
    func wait(timeout: Double = 60) throws -> ProcessResult {
        if let finished { return finished }
        let status = try waitForStatus(flags: 0, timeout: timeout)
        guard let status else {
            kill(SIGKILL)
            _ = try waitForStatus(flags: 0, timeout: .infinity)
            throw SpawnError("process \(pid) did not finish within \(timeout)s; killed it")
        }
        return finish(status)
    }

    /// The result if the process has ended, without waiting; nil while it runs.
    func poll() throws -> ProcessResult? {
        if let finished { return finished }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return finish(status) }
            if result == 0 { return nil }
            if errno != EINTR { throw SpawnError("waitpid(\(pid)) failed: \(String(cString: strerror(errno)))") }
        }
    }

    /// Waits until the process stops (SIGSTOP) or ends; returns true if it stopped.
    func waitUntilStopped(timeout: Double = 60) throws -> Bool {
        guard let status = try waitForStatus(flags: WUNTRACED, timeout: timeout) else {
            throw SpawnError("process \(pid) neither stopped nor ended within \(timeout)s")
        }
        if status & 0xFF == 0x7F { return true }
        _ = finish(status)
        return false
    }

    private func finish(_ status: Int32) -> ProcessResult {
        let termination = status & 0x7F
        let result = ProcessResult(
            status: termination == 0 ? (status >> 8) & 0xFF : nil,
            signal: termination == 0 ? nil : termination,
            stdout: Self.readAll(stdoutFD), stderr: Self.readAll(stderrFD))
        close(stdoutFD)
        close(stderrFD)
        finished = result
        return result
    }

    /// `waitpid` without blocking a thread forever: polls with a short back-off.
    private func waitForStatus(flags: Int32, timeout: Double) throws -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 200
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, flags | WNOHANG)
            if result == pid { return status }
            if result < 0 {
                if errno == EINTR { continue }
                throw SpawnError("waitpid(\(pid)) failed: \(String(cString: strerror(errno)))")
            }
            if Date() >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
    }

    static func temporaryFile(containing bytes: [UInt8]) throws -> Int32 {
        // O_CLOEXEC from the start: a child another test spawns meanwhile must not inherit it.
        let path = "\(NSTemporaryDirectory())/kanban-e2e-io.\(getpid()).\(UUID().uuidString)"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SpawnError("cannot create \(path): \(String(cString: strerror(errno)))") }
        unlink(path)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            guard written > 0 else {
                close(fd)
                throw SpawnError("cannot write a temporary file")
            }
            offset += written
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    private static func openCloexec(_ path: String, _ flags: Int32) throws -> Int32 {
        let fd = open(path, flags | O_CLOEXEC)
        guard fd >= 0 else { throw SpawnError("cannot open \(path): \(String(cString: strerror(errno)))") }
        return fd
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += buffer[..<count]
            offset += off_t(count)
        }
    }
}

// MARK: - Sandboxes

/// A real temporary directory to run `kanban` in; remove it with `defer { sandbox.remove() }`.
final class KanbanSandbox: @unchecked Sendable {
    /// The directory, symlinks resolved.
    let path: String
    /// Whether ``run(_:stdin:environment:in:shell:)`` runs kanban inside this process
    /// (``InProcessKanban``) rather than spawning it; one with `shell`, and ``start``, spawn.
    let inProcess: Bool

    init(inProcess: Bool = false) throws {
        self.inProcess = inProcess
        var template = Array("\(NSTemporaryDirectory())/kanban-e2e.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SpawnError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        guard let resolved = realpath(made, nil) else { throw SpawnError("realpath failed") }
        path = String(cString: resolved)
        free(resolved)
    }

    func remove() {
        // Give back any permission a test took away, so that removal works for non-root too.
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            for case let relative as String in enumerator {
                chmod(self.path(relative), 0o755)
            }
        }
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The kanban file `init` makes here.
    var file: String { path("kanban.json") }

    /// A path inside the sandbox.
    func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : path + "/" + relative
    }

    /// The environment every run starts from: no KANBAN_FILE, no NO_COLOR, HOME here, and a
    /// fixed clock (`KANBAN_NOW`, UTC) so that runs are reproducible.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": path, "KANBAN_NOW": fixedNow, "TZ": "UTC"].merging(extra) {
            $1
        }
    }

    /// The time runs see unless a test sets `KANBAN_NOW` itself.
    let fixedNow = "2026-11-23T10:00:00Z"

    /// Starts `kanban arguments` in `directory` (relative to the sandbox; default: the sandbox).
    /// With `shell`, runs `/bin/sh -c 'SHELL; exec kanban "$@"'`, e.g. to set a ulimit first.
    func start(
        _ arguments: [String], stdin: [UInt8]? = nil, environment extra: [String: String] = [:],
        in directory: String? = nil, shell: String? = nil, blockedSignals: [Int32] = []
    ) throws -> SpawnedProcess {
        let binary = try KanbanBinary.require()
        let directory = directory.map(path) ?? path
        if let shell {
            return try SpawnedProcess.start(
                "/bin/sh", ["-c", "\(shell)\nexec \"$0\" \"$@\"", binary] + arguments,
                environment: environment(extra), directory: directory, stdin: stdin, blockedSignals: blockedSignals)
        }
        return try SpawnedProcess.start(
            binary, arguments, environment: environment(extra), directory: directory, stdin: stdin,
            blockedSignals: blockedSignals)
    }

    /// Runs `kanban arguments` to the end.
    @discardableResult
    func run(
        _ arguments: [String], stdin: [UInt8]? = nil, environment extra: [String: String] = [:],
        in directory: String? = nil, shell: String? = nil
    ) throws -> ProcessResult {
        if inProcess && shell == nil {
            return try InProcessKanban.run(
                arguments, environment: environment(extra), directory: directory.map(path) ?? path, stdin: stdin)
        }
        return try start(arguments, stdin: stdin, environment: extra, in: directory, shell: shell).wait()
    }

    @discardableResult
    func run(_ arguments: String..., stdin: String? = nil, environment extra: [String: String] = [:]) throws
        -> ProcessResult
    {
        try run(arguments, stdin: stdin.map { Array($0.utf8) }, environment: extra)
    }

    /// Runs a command that must succeed, and returns its stdout.
    @discardableResult
    func succeed(
        _ arguments: [String], stdin: [UInt8]? = nil, environment extra: [String: String] = [:],
        in directory: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = try run(arguments, stdin: stdin, environment: extra, in: directory)
        try require(
            result.status == 0, "kanban \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        return result.out
    }

    @discardableResult
    func succeed(_ arguments: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> String
    {
        try succeed(arguments, stdin: stdin.map { Array($0.utf8) }, sourceLocation: sourceLocation)
    }

    /// `kanban init --sample` here: the tutorial's three boards.
    func initSample(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try succeed(["init", "--sample", "--quiet"], sourceLocation: sourceLocation)
    }

    // MARK: Files

    func write(_ text: String, to relative: String = "kanban.json") throws {
        try write(Array(text.utf8), to: relative)
    }

    func write(_ bytes: [UInt8], to relative: String = "kanban.json") throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path(relative)))
    }

    func bytes(_ relative: String = "kanban.json") throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative))))
    }

    func exists(_ relative: String) -> Bool {
        var info = stat()
        return lstat(path(relative), &info) == 0
    }

    /// The temporary files kanban writers have left in a directory of the sandbox
    /// (`.kanban.json.tmp.PID-RANDOM`, or any file named after `file` that way), sorted.
    func temporaryFiles(_ relative: String = ".", of file: String = "kanban.json") throws -> [String] {
        try entries(relative).filter { $0.hasPrefix(".\(file).tmp") }
    }

    /// The names in a directory of the sandbox, sorted.
    func entries(_ relative: String = ".") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(relative)).sorted()
    }

    func snapshot(_ relative: String = "kanban.json") throws -> FileSnapshot {
        try FileSnapshot(path(relative))
    }

    /// The kanban as `kanban list --json` shows it, which must succeed and parse.
    func boards(sourceLocation: SourceLocation = #_sourceLocation) throws -> [BoardColumn] {
        let output = try succeed(["list", "--json"], sourceLocation: sourceLocation)
        return try BoardColumn.parse(Array(output.utf8))
    }

    /// The kanban as the file on disk holds it.
    func fileBoards(_ relative: String = "kanban.json") throws -> [BoardColumn] {
        try BoardColumn.parse(try bytes(relative))
    }
}

// MARK: - Files and documents

/// A file's bytes and identity: equal snapshots mean the file was not rewritten.
struct FileSnapshot: Equatable, CustomStringConvertible {
    var bytes: [UInt8]
    var inode: UInt
    var mode: UInt32
    var modified: Int
    var modifiedNanoseconds: Int

    init(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw SpawnError("stat \(path): \(String(cString: strerror(errno)))")
        }
        inode = UInt(info.st_ino)
        mode = UInt32(info.st_mode)
        modified = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    var description: String {
        "inode \(inode), mode \(String(mode, radix: 8)), mtime \(modified).\(modifiedNanoseconds), "
            + "\(bytes.count) bytes:\n\(String(decoding: bytes, as: UTF8.self))"
    }
}

/// One board of a kanban document: what tests compare.
struct BoardColumn: Equatable, CustomStringConvertible {
    var title: String
    var limit: Int?
    var items: [String]
    var ids: [String]
    /// The board's id, when parsed from a document.
    var boardID: String?

    /// A board with these item titles, for expectations; ids are not compared by `==` on ``layout``.
    init(_ title: String, _ items: [String], limit: Int? = nil) {
        self.title = title
        self.items = items
        self.limit = limit
        self.ids = []
    }

    var description: String { "\(title)\(limit.map { " (limit \($0))" } ?? ""): \(items)" }

    /// Parses a kanban document (`list --json` or a file) with JSONSerialization.
    static func parse(_ bytes: [UInt8]) throws -> [BoardColumn] {
        let root = try require(
            (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
            "not a kanban document: \(String(decoding: bytes, as: UTF8.self))")
        expectEqual(root["version"] as? Int, 2)
        let boards = try require(root["boards"] as? [[String: Any]])
        return try boards.map { board in
            let items = try require(board["items"] as? [[String: Any]])
            var column = BoardColumn(
                try require(board["title"] as? String),
                try items.map { try require($0["title"] as? String) },
                limit: board["limit"] as? Int)
            column.ids = try items.map { try require($0["id"] as? String) }
            column.boardID = board["id"] as? String
            return column
        }
    }
}

extension [BoardColumn] {
    /// Titles, limits and item titles, without ids: compare with `[BoardColumn("Todo", [...]), ...]`.
    var layout: [BoardColumn] {
        map { BoardColumn($0.title, $0.items, limit: $0.limit) }
    }

    /// Every item id, in board order.
    var allIDs: [String] { flatMap(\.ids) }

    /// The id of the only item titled `title`.
    func id(of title: String) throws -> String {
        let matches = flatMap { zip($0.items, $0.ids).filter { $0.0 == title }.map(\.1) }
        try require(matches.count == 1, "expected one item titled \(title), found \(matches.count)")
        return matches[0]
    }
}

/// The tutorial's data, as `init --sample` makes it.
let sampleLayout = [
    BoardColumn("Todo", ["Database Migration", "Schema Design", "Storage Management", "Model Abstraction"]),
    BoardColumn("In Progress", ["Push Notification", "Analytics", "Machine Learning"]),
    BoardColumn("Done", ["System Architecture", "Alert & Debugging"]),
]

/// Parses one JSON object.
func jsonObject(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    try require(
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any], "not a JSON object: \(text)",
        sourceLocation: sourceLocation)
}

/// Checks a `--json` failure: the exit code, an empty stdout, and exactly one JSON line on
/// stderr, `{"error":{"code":…,"message":…}}`, with `code`. Returns the message.
@discardableResult
func expectJSONError(
    _ result: ProcessResult, exit: Int32, code: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    expectTrue(result.status == exit, "\(result)", sourceLocation: sourceLocation)
    expectTrue(result.stdout.isEmpty, "stdout must stay clean on an error: \(result.out)", sourceLocation: sourceLocation)
    let lines = result.err.split(separator: "\n")
    expectTrue(lines.count == 1, "stderr must be one JSON line: \(result.err)", sourceLocation: sourceLocation)
    let object = try jsonObject(result.err, sourceLocation: sourceLocation)
    let error = try require(object["error"] as? [String: Any], "\(result.err)", sourceLocation: sourceLocation)
    expectTrue(error["code"] as? String == code, "\(result.err)", sourceLocation: sourceLocation)
    let message = try require(error["message"] as? String, "\(result.err)", sourceLocation: sourceLocation)
    expectTrue(!message.isEmpty, sourceLocation: sourceLocation)
    return message
}

/// Whether `bytes` hold an ESC (0x1B) byte: the start of every terminal escape sequence.
func containsEscape(_ bytes: [UInt8]) -> Bool {
    bytes.contains(0x1B)
}

/// Holds an exclusive flock on `path` (creating it) until `release()`.
final class HeldLock {
    private var fd: Int32

    init(_ path: String) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw SpawnError("cannot open \(path): \(String(cString: strerror(errno)))") }
        // Tried until a deadline, not once: a lock an in-process run has just let go of stays
        // held while a child that another test is spawning at that instant still has a copy
        // of its descriptor (until its exec closes it).
        let deadline = Date().addingTimeInterval(10)
        var pause: useconds_t = 1_000
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw SpawnError("cannot lock \(path): \(String(cString: strerror(errno)))")
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }
}

// MARK: - Tests that need root

/// Skips the running test, with a message saying why, unless it runs as root with
/// `/usr/bin/setpriv` (to run kanban as other users): a test that cannot run says so and
/// is reported as skipped, not failed.
func skipUnlessRoot(needing reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard geteuid() == 0 else {
        try Test.cancel("skipped: needs root \(reason); running as uid \(geteuid())", sourceLocation: sourceLocation)
    }
    guard access("/usr/bin/setpriv", X_OK) == 0 else {
        try Test.cancel("skipped: needs /usr/bin/setpriv \(reason)", sourceLocation: sourceLocation)
    }
}

/// A shell prefix that runs kanban as user `uid` (group `uid`, no other groups), for
/// ``KanbanSandbox/run(_:stdin:environment:in:shell:)``: permission bits do not stop root.
func runAs(_ uid: Int, umask mask: String? = nil) -> String {
    (mask.map { "umask \($0)\n" } ?? "")
        + "exec /usr/bin/setpriv --reuid=\(uid) --regid=\(uid) --clear-groups \"$0\" \"$@\""
}

/// Checks that each of `words`, written by `quote` as a shell word, reads back as itself
/// in bash, zsh and fish, with nothing run: ``expectShellsRead(_:sourceLocation:)``.
func expectShellsReadBack(
    _ words: [String], quotedBy quote: (String) -> String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try expectShellsRead(words.map { (quote($0), [$0]) }, sourceLocation: sourceLocation)
}

/// Checks that each printed command line (or word) reads back as its words in bash with
/// history expansion on (as at a prompt), and in zsh (interactive) and fish when they are
/// installed, and that running them all created nothing: each line follows one whose `!!`
/// would run `touch canary` if expanded inside double quotes. fish is not asked about a
/// line holding a control character other than a tab or line feed: only bash and zsh have
/// a way to write one that keeps it off the terminal (README: Security). `only` names the
/// shells to ask, for text written for one shell.
func expectShellsRead(
    _ lines: [(printed: String, words: [String])], in only: Set<String>? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    func script(_ lines: [(printed: String, words: [String])]) -> String {
        lines.map { ": '$(touch canary)'\nprintf '%s\\0' " + $0.printed + " >> out\n" }.joined()
    }
    let forFish = lines.filter { line in
        !line.words.joined().unicodeScalars.contains {
            $0 != "\n" && $0 != "\t"
                && ($0.properties.generalCategory == .control
                    || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains($0.value)
                    || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value))
        }
    }
    let allWords = lines.flatMap { $0.words }
    var shells: [(name: String, program: String, arguments: [String], script: String, stdin: Bool, words: [String])] =
        [
            (
                "bash", "/bin/bash", ["--norc", "--noprofile", "script"],
                "set -o history -o histexpand\n" + script(lines), false, allWords
            )
        ]
    if let zsh = Shells.zsh { shells.append(("zsh", zsh, ["-f", "-i"], script(lines), true, allWords)) }
    if let fish = Shells.fish {
        shells.append(("fish", fish, ["--no-config", "script"], script(forFish), false, forFish.flatMap { $0.words }))
    }
    for (name, path) in [("zsh", Shells.zsh), ("fish", Shells.fish)] where path == nil && only?.contains(name) ?? true {
        print("skipped in \(name): it is not installed (apt-get install \(name)); read back in the other shells only")
    }
    for shell in shells where only?.contains(shell.name) ?? true {
        let directory = try KanbanSandbox()
        defer { directory.remove() }
        try directory.write(shell.script, to: "script")
        // fish makes directories of its own in HOME.
        try require(mkdir(directory.path("home"), 0o700) == 0)
        let result = try SpawnedProcess.start(
            shell.program, shell.arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path("home")],
            directory: directory.path, stdin: shell.stdin ? Array(shell.script.utf8) : nil
        ).wait(timeout: 60)
        expectTrue(result.status == 0, "\(shell.name): \(result)", sourceLocation: sourceLocation)
        let out = (try? directory.bytes("out")) ?? []
        let read = out.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
        let wrong = zip(read, shell.words).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(read.count, shell.words.count)
        let got = read.dropFirst(wrong).first.map { $0.debugDescription } ?? "nothing"
        let wanted = shell.words.dropFirst(wrong).first.map { $0.debugDescription } ?? "nothing"
        let comment = "\(shell.name) read \(read.count) words of \(shell.words.count); #\(wrong) is \(got), "
            + "not \(wanted)"
        expectTrue(read == shell.words, Comment(rawValue: comment), sourceLocation: sourceLocation)
        let made = Set(try directory.entries()).subtracting(["home", "script", "out"])
        expectTrue(made.isEmpty, "\(shell.name): nothing ran, but \(made) appeared", sourceLocation: sourceLocation)
    }
}
