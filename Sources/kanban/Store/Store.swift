import Glibc
import KanbanCore

/// The only code that touches kanban files: finding one, and reading, changing and
/// writing it as one transaction.
///
/// A transaction takes an exclusive `flock` on a sidecar lock file (`.kanban.json.lock`
/// next to the file), reads the file, changes the kanban in memory, writes the result to
/// a temporary file in the same directory, flushes it, renames it over the file and
/// flushes the directory. Readers need no lock: a rename swaps whole files, so a reader
/// sees the old file or the new one. The kernel drops a `flock` when its process dies,
/// so a crash never leaves the file locked; the lock file itself stays, empty.
struct Store {
    /// The kanban file, as given or found.
    let path: String
    /// Whether `$KANBAN_FILE` named it, for messages.
    let fromEnvironment: Bool
    /// How long to wait for another kanban process's lock.
    var lockTimeout: Double = Store.defaultLockTimeout()

    init(path: String, fromEnvironment: Bool = false) {
        self.path = path
        self.fromEnvironment = fromEnvironment
    }

    // MARK: - Finding the file

    /// The file a command works on: `--file`, else `$KANBAN_FILE`, else the nearest
    /// `kanban.json` in the current directory or a parent.
    ///
    /// - Throws: ``CLIError/noFile(_:)`` when the search finds nothing.
    static func locate(file: String?) throws(CLIError) -> Store {
        if let file { return Store(path: file) }
        if let file = try environmentFile() { return Store(path: file, fromEnvironment: true) }
        for directory in try searchedDirectories() {
            let candidate = Path.join(directory, "kanban.json")
            if POSIX.lstat(candidate) != nil { return Store(path: candidate) }
        }
        throw .noFile(
            "no kanban.json in \(q(String(decoding: (try? POSIX.currentDirectory()) ?? [], as: UTF8.self))) "
                + "or any parent directory; "
                + "create one with 'kanban init', or name one with --file or KANBAN_FILE")
    }

    /// Where `init` creates a file: `--file`, else `$KANBAN_FILE`, else `./kanban.json`.
    static func newFile(file: String?) throws(CLIError) -> Store {
        if let file { return Store(path: file) }
        if let file = try environmentFile() { return Store(path: file, fromEnvironment: true) }
        return Store(path: "kanban.json")
    }

    /// `$KANBAN_FILE`, if set and not empty.
    private static func environmentFile() throws(CLIError) -> String? {
        guard let value = getenv("KANBAN_FILE"), value.pointee != 0 else { return nil }
        // A path that is not UTF-8 would be repaired into the name of another file.
        guard let path = String(validatingCString: value) else {
            throw .badInput(
                "KANBAN_FILE is not valid UTF-8; name the file with --file, or set KANBAN_FILE to a UTF-8 path")
        }
        return path
    }

    /// The current directory and its ancestors, nearest first: absolute paths, or relative
    /// ones (`.`, `..`, `../..`) when the current directory's path is not valid UTF-8, as a
    /// String could not hold it.
    private static func searchedDirectories() throws(CLIError) -> [String] {
        let bytes: [UInt8]
        do {
            bytes = try POSIX.currentDirectory()
        } catch {
            throw .io("cannot read the current directory: \(error.reason)")
        }
        if let start = String(validating: bytes, as: UTF8.self) {
            var directories = [start]
            while let last = directories.last, last != "/" { directories.append(Path.directory(of: last)) }
            return directories
        }
        var directories = ["."]
        while let here = POSIX.lstat(directories.last!), let parent = POSIX.lstat(directories.last! + "/.."),
            here.st_dev != parent.st_dev || here.st_ino != parent.st_ino
        {
            directories.append(directories.count == 1 ? ".." : directories.last! + "/..")
        }
        return directories
    }

    /// `KANBAN_LOCK_TIMEOUT` in seconds, else 5.
    static func defaultLockTimeout() -> Double {
        guard let text = POSIX.environment("KANBAN_LOCK_TIMEOUT"), let seconds = Double(text), seconds >= 0,
            seconds.isFinite
        else { return 5 }
        return min(seconds, 86_400)  // a day is long enough, and keeps the timer's arithmetic in range
    }

    // MARK: - Reading

    /// Reads the kanban without locking, for commands that only look.
    func load() throws(CLIError) -> Kanban {
        try read(try target()).kanban
    }

    /// Reads the kanban and its history without locking (for `log`).
    func loadWithHistory() throws(CLIError) -> (kanban: Kanban, history: (log: HistoryLog, exists: Bool)) {
        let target = try target()
        let (kanban, _, hash) = try read(target, hashing: true)
        let file = HistoryFile(of: target)
        return (kanban, (try file.load(current: hash), file.exists))
    }

    /// Runs `body` on the kanban inside one transaction, and writes the result if it
    /// differs, recording the change in the file's history. A dry run reads without locking
    /// and never writes.
    ///
    /// - Throws: what `body` throws (nothing is written then), or a file error.
    func update(dryRun: Bool = false, _ body: (inout Kanban) throws(CLIError) -> Change) throws(CLIError) -> Change {
        try update(dryRun: dryRun, recording: nil) { (kanban: inout Kanban, _: inout Transaction) throws(CLIError) in
            try body(&kanban)
        }
    }

    /// Runs `body` on the kanban inside one transaction, and writes the result if it
    /// differs; with `recording`, the change is recorded in the file's history (see
    /// ``HistoryFile``) before the new file is put in place. A dry run reads without
    /// locking and never writes.
    ///
    /// - Throws: what `body` throws (nothing is written then), or a file error.
    func update(
        dryRun: Bool = false, recording: Recording?,
        _ body: (inout Kanban, inout Transaction) throws(CLIError) -> Change
    ) throws(CLIError) -> Change {
        let target = try target()
        let history = HistoryFile(of: target)
        if dryRun {
            var (kanban, _, hash) = try read(target, hashing: true)
            var transaction = Transaction(history: history, current: hash)
            return try body(&kanban, &transaction)
        }
        let lock = try FileLock(protecting: target, path: path, timeout: lockTimeout)
        defer { lock.release() }
        let (before, info, hash) = try read(target, hashing: recording != nil)
        var kanban = before  // shares storage with `before` until a board changes
        var transaction = Transaction(history: history, current: hash)
        let change = try body(&kanban, &transaction)
        let patch = Patch(from: before, to: kanban)
        guard !patch.isEmpty else { return change }
        // Renaming over a read-only file would succeed; its owner made it read-only to keep it.
        guard access(target, W_OK) == 0 else {
            throw CLIError.io("cannot write \(q(path)): \(POSIX.Failure().reason); nothing was written")
        }
        guard let recording else {
            try replace(target, with: kanban, like: info) { _ throws(CLIError) in }
            return change
        }
        let tail = HistoryFile.droppingOrphan(history.tail(), current: hash)
        try replace(target, with: kanban, like: info) { (after: UInt64) throws(CLIError) in
            let (lines, report) = recording.describe(change)
            let record = HistoryRecord(
                number: tail.nextNumber, time: recording.time, user: recording.user, command: recording.command,
                kind: transaction.kind, before: hash, after: after, lines: lines, report: report, patch: patch)
            try history.append(record, to: tail, mode: info.st_mode & 0o666)
            TestHooks.pauseAfterRecord()
        }
        return change
    }

    /// The file to read and write: the path with symlinks resolved, so a symlinked
    /// kanban.json is written through to its target.
    private func target() throws(CLIError) -> String {
        do throws(POSIX.Failure) {
            // Only a symlink needs resolving; any other path is already the file.
            guard let info = POSIX.lstat(path) else { throw POSIX.Failure() }
            return info.st_mode & S_IFMT == S_IFLNK ? try POSIX.realpath(path) : path
        } catch {
            guard error.code == ENOENT || error.code == ENOTDIR else {
                throw .io("cannot read \(q(path)): \(error.reason)")
            }
            if fromEnvironment {
                throw .noFile("no kanban file at \(q(path)) (named by KANBAN_FILE); create it with 'kanban init'")
            }
            throw .noFile("no kanban file at \(q(path)); create it with 'kanban init --file \(Escape.visible(path))'")
        }
    }

    /// Reads and decodes the file; with `hashing`, also the ``FileHash`` of its bytes.
    private func read(_ target: String, hashing: Bool = false) throws(CLIError) -> (
        kanban: Kanban, info: stat, hash: UInt64
    ) {
        let bytes: [UInt8]
        var info = stat()
        do throws(POSIX.Failure) {
            let fd = try POSIX.open(target, O_RDONLY | O_NONBLOCK)  // a FIFO must not block
            defer { close(fd) }
            guard fstat(fd, &info) == 0 else { throw POSIX.Failure() }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw POSIX.Failure(info.st_mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL, reason: "not a regular file")
            }
            bytes = try POSIX.readAll(fd, sizeHint: Int(info.st_size))
        } catch {
            throw .io("cannot read \(q(path)): \(error.reason)")
        }
        do {
            return (try KanbanFile.decode(bytes).kanban, info, hashing ? FileHash.of(bytes) : 0)
        } catch {
            switch error {
            case .corruptFile(let line, let message):
                throw .corruptFile(path: path, line: line, message: message)
            case .unsupportedVersion(let version):
                throw .unsupportedVersion(path: path, version: version)
            default:
                throw .refused(error)
            }
        }
    }

    // MARK: - Writing

    /// Replaces `target` with `kanban` atomically, keeping its permissions and owner.
    /// `beforeCommit` runs once the new file is flushed, with the hash of its bytes, just
    /// before it is renamed into place; if it throws, nothing is renamed.
    private func replace(
        _ target: String, with kanban: Kanban, like info: stat, beforeCommit: (UInt64) throws(CLIError) -> Void
    ) throws(CLIError) {
        var failure: CLIError?
        do throws(POSIX.Failure) {
            try writeAtomically(kanban, to: target, mode: info.st_mode & 0o7777, owner: (info.st_uid, info.st_gid)) {
                (temporary: String, hash: UInt64) throws(POSIX.Failure) in
                do throws(CLIError) {
                    try beforeCommit(hash)
                } catch {
                    failure = error
                    throw POSIX.Failure(ECANCELED)
                }
                guard rename(temporary, target) == 0 else { throw POSIX.Failure() }
            }
        } catch {
            if let failure { throw failure }
            throw .io("cannot write \(q(path)): \(error.reason); the file was left as it was")
        }
    }

    /// Checks that `create` could make the file: its directory exists and the name is free.
    func checkCreatable() throws(CLIError) {
        let directory = Path.directory(of: path)
        guard let info = POSIX.status(directory), info.st_mode & S_IFMT == S_IFDIR else {
            throw .cannotCreate("cannot create \(q(path)): the directory \(q(directory)) does not exist")
        }
        guard POSIX.lstat(path) == nil else { throw .exists(path: path) }
    }

    /// Creates the file with `kanban` in it, never replacing anything (for `init`).
    func create(_ kanban: Kanban) throws(CLIError) {
        try checkCreatable()
        let lock: FileLock
        do {
            lock = try FileLock(protecting: path, path: path, timeout: lockTimeout)
        } catch .io(let message) {
            throw .cannotCreate(message)
        }
        defer { lock.release() }
        do {
            try writeAtomically(kanban, to: path, mode: nil, owner: nil) {
                (temporary: String, _: UInt64) throws(POSIX.Failure) in
                // link(2) fails if the name exists, even if a program that takes no lock made it.
                if link(temporary, path) != 0 {
                    let failure = POSIX.Failure()
                    guard failure.code == EPERM || failure.code == ENOTSUP || failure.code == EOPNOTSUPP else {
                        throw failure
                    }
                    guard POSIX.lstat(path) == nil else { throw POSIX.Failure(EEXIST) }
                    guard rename(temporary, path) == 0 else { throw POSIX.Failure() }
                }
                unlink(temporary)
            }
        } catch {
            if error.code == EEXIST { throw .exists(path: path) }
            throw .cannotCreate("cannot create \(q(path)): \(error.reason)")
        }
    }

    /// Writes `kanban` to a temporary file next to `target`, flushes it, calls `commit` to
    /// put it in place, and flushes the directory. The temporary file has a fixed name:
    /// only the holder of the lock writes it, and a leftover from a killed process is
    /// simply replaced by the next writer.
    private func writeAtomically(
        _ kanban: Kanban, to target: String, mode: mode_t?, owner: (uid_t, gid_t)?,
        commit: (String, UInt64) throws(POSIX.Failure) -> Void
    ) throws(POSIX.Failure) {
        // Past RLIMIT_FSIZE a write must fail with EFBIG, not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        let directory = Path.directory(of: target)
        let temporary = Path.join(directory, "." + Path.name(of: target) + ".tmp")
        var hash = FileHash()
        if unlink(temporary) != 0 && errno != ENOENT {
            // In a shared sticky directory, another user's leftover cannot be removed.
            throw POSIX.Failure(errno, reason: "cannot remove the temporary file \(q(temporary)) left there; remove it")
        }
        do throws(POSIX.Failure) {
            let fd: Int32
            do {
                fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode ?? 0o666)
            } catch  where error.code == EACCES || error.code == EROFS {
                throw POSIX.Failure(
                    error.code,
                    reason: "\(error.reason) in \(q(directory)); kanban writes a new file next to the old one and "
                        + "renames it, so the directory must be writable")
            }
            do throws(POSIX.Failure) {
                if let mode { guard fchmod(fd, mode) == 0 else { throw POSIX.Failure() } }
                if let (uid, gid) = owner, uid != geteuid() || gid != getegid(), fchown(fd, uid, gid) != 0 {
                    // Only root gives a file away; anyone may keep its group, if they are in it.
                    _ = fchown(fd, uid_t.max, gid)
                }
                do {
                    try KanbanFile.encode(kanban, chunkSize: 1 << 18) { chunk in
                        hash.add(chunk)
                        try POSIX.writeAll(fd, chunk.assumingMemoryBound(to: UInt8.self))
                    }
                } catch let failure as POSIX.Failure {
                    throw failure
                } catch {
                    preconditionFailure("only writes fail while encoding: \(error)")
                }
                guard fsync(fd) == 0 else { throw POSIX.Failure() }
            } catch {
                close(fd)
                throw error
            }
            guard close(fd) == 0 else { throw POSIX.Failure() }
            TestHooks.pauseBeforeCommit()
            try commit(temporary, hash.value)
        } catch {
            unlink(temporary)
            throw error
        }
        POSIX.syncDirectory(directory)
    }
}

/// An exclusive `flock` on the sidecar lock file of a kanban file.
struct FileLock {
    private let fd: Int32

    /// Takes the lock for `target`, waiting up to `timeout` seconds.
    ///
    /// - Parameters:
    ///   - target: the resolved kanban file; the lock file is `.NAME.lock` next to it.
    ///   - path: the path as the user knows it, for messages.
    /// - Throws: ``CLIError/locked(path:seconds:)`` after the wait, ``CLIError/io(_:)`` when
    ///   the lock file cannot be opened.
    init(protecting target: String, path: String, timeout: Double) throws(CLIError) {
        let lockPath = Path.join(Path.directory(of: target), "." + Path.name(of: target) + ".lock")
        do {
            // Read-only is enough for flock, and works on a lock file another user created.
            fd = try POSIX.open(lockPath, O_RDONLY | O_CREAT, 0o666)
        } catch {
            let hint = error.code == EACCES || error.code == EROFS ? " (the directory must be writable)" : ""
            throw .io(
                "cannot write \(q(path)): cannot open its lock file \(q(lockPath)): \(error.reason)\(hint); "
                    + "nothing was written")
        }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return }
        guard errno == EWOULDBLOCK else {
            let failure = POSIX.Failure()
            close(fd)
            throw .io("cannot lock \(q(path)): \(failure.reason); nothing was written")
        }
        guard Self.wait(fd, timeout: timeout) else {
            close(fd)
            throw .locked(path: path, seconds: timeout)
        }
    }

    func release() {
        close(fd)
    }

    /// Blocks in `flock` until it succeeds or `timeout` passes; a `SIGALRM` from an
    /// interval timer interrupts the wait, so there is no polling. The timer repeats every
    /// 50 ms after it first fires: a signal that lands just before `flock` starts to block
    /// is followed by another, so the wait never outlives the deadline by more than that.
    private static func wait(_ fd: Int32, timeout: Double) -> Bool {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: the signal must interrupt flock
        var previous = sigaction()
        sigaction(SIGALRM, &action, &previous)
        defer { sigaction(SIGALRM, &previous, nil) }

        let deadline = monotonicSeconds() + timeout
        while true {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return false }
            var timer = itimerval()
            timer.it_value.tv_sec = Int(remaining)
            timer.it_value.tv_usec = max(1, Int((remaining - Double(Int(remaining))) * 1_000_000))
            timer.it_interval.tv_usec = 50_000
            setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
            let result = flock(fd, LOCK_EX)
            let code = errno
            var off = itimerval()
            setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &off, nil)
            if result == 0 { return true }
            guard code == EINTR else { return false }
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

// MARK: - Diff and merge

extension Store {
    /// Reads the kanban and the format its file is in, without locking: an input of `diff`
    /// or `merge`. With `allowingEmpty`, an empty file is a kanban with no boards: git gives
    /// one as the base of a file that both branches added.
    func loadDocument(allowingEmpty: Bool = false) throws(CLIError) -> (kanban: Kanban, format: KanbanFile.Format) {
        let target = try target()
        let bytes: [UInt8]
        do throws(POSIX.Failure) {
            let fd = try POSIX.open(target, O_RDONLY | O_NONBLOCK)  // a FIFO must not block
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw POSIX.Failure() }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw POSIX.Failure(info.st_mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL, reason: "not a regular file")
            }
            bytes = try POSIX.readAll(fd, sizeHint: Int(info.st_size))
        } catch {
            throw .io("cannot read \(q(path)): \(error.reason)")
        }
        if allowingEmpty && bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return (Kanban.empty, .current)
        }
        return try Self.decode(bytes, name: path)
    }

    /// Reads a kanban from bytes that came from elsewhere (`git show REV:PATH`), naming
    /// them `name` in errors.
    static func decode(_ bytes: [UInt8], name: String) throws(CLIError) -> (kanban: Kanban, format: KanbanFile.Format) {
        do {
            return try KanbanFile.decode(bytes)
        } catch {
            switch error {
            case .corruptFile(let line, let message):
                throw .corruptFile(path: name, line: line, message: message)
            case .unsupportedVersion(let version):
                throw .unsupportedVersion(path: name, version: version)
            default:
                throw .refused(error)
            }
        }
    }

    /// Writes `kanban` to the path atomically: a temporary file next to it, flushed, then
    /// renamed over it; a file already there keeps its permissions. With `locking`, under
    /// the file's lock, as kanban commands write (`merge -o`); git's merge driver writes
    /// over a temporary file that git owns, which needs no lock (nor a lock file beside it).
    func write(_ kanban: Kanban, locking: Bool) throws(CLIError) {
        var target = path
        if let info = POSIX.lstat(path), info.st_mode & S_IFMT == S_IFLNK, let resolved = try? POSIX.realpath(path) {
            target = resolved
        }
        let lock = locking ? try FileLock(protecting: target, path: path, timeout: lockTimeout) : nil
        defer { lock?.release() }
        let existing = POSIX.status(target)
        do throws(POSIX.Failure) {
            try writeAtomically(
                kanban, to: target, mode: existing.map { $0.st_mode & 0o7777 },
                owner: existing.map { ($0.st_uid, $0.st_gid) }
            ) { (temporary: String, _: UInt64) throws(POSIX.Failure) in
                guard rename(temporary, target) == 0 else { throw POSIX.Failure() }
            }
        } catch {
            throw .io("cannot write \(q(path)): \(error.reason); it was left as it was")
        }
    }
}
