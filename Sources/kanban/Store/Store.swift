import Glibc
import KanbanCore

/// The only code that touches kanban files: finding one, and reading, changing and
/// writing it as one transaction.
///
/// A transaction takes the locks (see ``FileLock``: an exclusive `flock` on a sidecar lock
/// file `.kanban.json.lock` next to the file, then on the file itself), reads the file,
/// changes the kanban in memory, writes the result to a temporary file of its own in the
/// same directory (see ``TemporaryFile``), flushes it, renames it over the file and flushes
/// the directory. Readers need no lock: a rename swaps whole files, so a reader sees the
/// old file or the new one. The kernel drops a `flock` when its process dies, so a crash
/// never leaves the file locked; the lock file itself stays, empty.
struct Store {
    /// The kanban file, as given or found.
    let path: String
    /// Whether `$KANBAN_FILE` named it, for messages.
    let fromEnvironment: Bool
    /// How long to wait for another kanban process's lock, in seconds.
    var lockTimeout: Double = 5

    /// The largest kanban file kanban reads or writes, 256 MiB (about five million cards):
    /// reading one takes about twice its size in memory, so a bigger file (a mistake, or
    /// sparse gigabytes) is refused before anything is allocated for it.
    static var maximumFileSize: Int { TestHooks.maximumFileSize ?? 256 << 20 }

    init(path: String, fromEnvironment: Bool = false) {
        self.path = path
        self.fromEnvironment = fromEnvironment
    }

    // MARK: - Finding the file

    /// The file a command works on: `--file`, else `$KANBAN_FILE`, else the nearest
    /// `kanban.json` in the current directory or a parent the search may climb into
    /// (see ``outsideSearch(_:owner:)``).
    ///
    /// - Throws: ``CLIError/usage(_:command:)`` for a malformed `$KANBAN_LOCK_TIMEOUT`,
    ///   before anything is looked for; ``CLIError/noFile(_:)`` when the search finds
    ///   nothing; ``CLIError/io(_:)`` when a directory cannot be searched (a `kanban.json`
    ///   further up is never taken for one that might be nearer).
    static func locate(file: String?) throws(CLIError) -> Store {
        let timeout = try lockTimeoutFromEnvironment()
        var store = try find(file)
        store.lockTimeout = timeout
        return store
    }

    private static func find(_ file: String?) throws(CLIError) -> Store {
        if let file { return Store(path: file) }
        if let file = try environmentFile() { return Store(path: file, fromEnvironment: true) }
        var owner: uid_t?
        var boundary = ""
        for directory in try searchedDirectories() {
            if let why = outsideSearch(directory, owner: &owner) {
                boundary = " up to \(q(directory)), which the search does not enter (\(why))"
                break
            }
            let candidate = Path.join(directory, "kanban.json")
            do {
                _ = try POSIX.lstatus(candidate)
                return Store(path: candidate)
            } catch  where error.code == ENOENT || error.code == ENOTDIR {
                continue
            } catch {
                throw .io(
                    "cannot look for kanban.json in \(q(directory)): \(error.reason); "
                        + "name the file with --file or KANBAN_FILE")
            }
        }
        let here = String(decoding: (try? Surroundings.current.currentDirectory()) ?? [], as: UTF8.self)
        throw .noFile(
            "no kanban.json in \(q(here)) "
                + "or any parent directory\(boundary); "
                + "create one with 'kanban init', or name one with --file or KANBAN_FILE")
    }

    /// Why the upward search must not climb into `directory`, if it must not (README:
    /// Security): above the starting directory, one owned by another user than the
    /// starting directory's owner and root, or one that everyone may write (`/tmp`). A
    /// kanban.json planted there would otherwise take the cards of whoever works below it.
    /// `owner` is the starting directory's owner, set when `directory` is the first one,
    /// which is always searched: the user chose to work there.
    private static func outsideSearch(_ directory: String, owner: inout uid_t?) -> String? {
        guard let info = POSIX.lstat(directory) else { return nil }  // the lookup in it says why
        guard let starter = owner else {
            owner = info.st_uid
            return nil
        }
        if info.st_uid != starter && info.st_uid != 0 { return "it belongs to another user, uid \(info.st_uid)" }
        if info.st_mode & S_IWOTH != 0 { return "everyone may write in it" }
        return nil
    }

    /// Where `init` creates a file: `--file`, else `$KANBAN_FILE`, else `./kanban.json`.
    static func newFile(file: String?) throws(CLIError) -> Store {
        let timeout = try lockTimeoutFromEnvironment()
        var store: Store
        if let file {
            store = Store(path: file)
        } else if let file = try environmentFile() {
            store = Store(path: file, fromEnvironment: true)
        } else {
            store = Store(path: "kanban.json")
        }
        store.lockTimeout = timeout
        return store
    }

    /// `$KANBAN_FILE`, if set and not empty.
    private static func environmentFile() throws(CLIError) -> String? {
        guard let value = Surroundings.current.variable("KANBAN_FILE"), !value.isEmpty else { return nil }
        // A path that is not UTF-8 would be repaired into the name of another file.
        guard let path = String(validating: value, as: UTF8.self) else {
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
            bytes = try Surroundings.current.currentDirectory()
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
            !here.isSameFile(as: parent)
        {
            directories.append(directories.count == 1 ? ".." : directories.last! + "/..")
        }
        return directories
    }

    /// `$KANBAN_LOCK_TIMEOUT`: a non-negative decimal number of seconds (`0`, `2.5`); 5 when unset.
    ///
    /// - Throws: ``CLIError/usage(_:command:)`` for anything else (`abc`, `-1`, `nan`,
    ///   `0x10`, `1e3`, an empty value): a wait that is not what the user meant is worse
    ///   than none.
    static func lockTimeoutFromEnvironment() throws(CLIError) -> Double {
        guard let text = POSIX.environment("KANBAN_LOCK_TIMEOUT") else { return 5 }
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let decimal =
            text.utf8.contains { (0x30...0x39).contains($0) }
            && parts.allSatisfy { $0.allSatisfy { (0x30...0x39).contains($0) } }
        guard decimal, let seconds = Double(text), seconds.isFinite || seconds == .infinity else {
            throw .usage(
                "KANBAN_LOCK_TIMEOUT must be a number of seconds such as 5 or 0.5, not \(q(text))", command: nil)
        }
        return min(seconds, 86_400)  // a day is long enough
    }

    // MARK: - Reading

    /// Reads the kanban without locking, for commands that only look. `deferringCards` for
    /// one that looks at a few fields of its cards, such as their ids and titles: they stay
    /// in their lines until read (see ``KanbanFile/decode(_:keepingLines:deferringCards:linesLike:)``).
    func load(deferringCards: Bool = false) throws(CLIError) -> Kanban {
        var file = try open(try target())
        defer { file.close() }
        return try read(file, hashing: false, unreadable: nil, keepingLines: deferringCards).kanban
    }

    /// Reads the kanban and its history without locking (for `log`).
    func loadWithHistory() throws(CLIError)
        -> (kanban: Kanban, history: (loaded: HistoryFile.Loaded, exists: Bool))
    {
        let target = try target()
        var file = try open(target)
        defer { file.close() }
        let (kanban, hash) = try read(file, hashing: true)
        let history = HistoryFile(of: target)
        return (kanban, (try history.read(current: FileVersion(hash: hash, of: file.info)), history.exists))
    }

    /// Runs `body` on the kanban inside one transaction, and writes the result if it
    /// differs; with `recording`, the change is recorded in the file's history. A dry run
    /// reads without locking and never writes.
    ///
    /// - Throws: what `body` throws (nothing is written then), or a file error.
    func update(
        dryRun: Bool = false, recording: Recording? = nil, _ body: (inout Kanban) throws(CLIError) -> Change
    ) throws(CLIError) -> TransactionOutcome {
        try update(dryRun: dryRun, recording: recording, readingHistory: false) {
            (kanban: inout Kanban, _: TransactionHistory) throws(CLIError) in
            TransactionOutcome(change: try body(&kanban))
        }
    }

    /// ``update(dryRun:recording:_:)`` for a body of the core: a refusal of the core is the
    /// command's refusal. The one way a command, an import and `kanban ui` change the file.
    func change(
        dryRun: Bool = false, recording: Recording?, _ body: (inout Kanban) throws(KanbanError) -> Change
    ) throws(CLIError) -> TransactionOutcome {
        try update(dryRun: dryRun, recording: recording) { (kanban: inout Kanban) throws(CLIError) in
            do throws(KanbanError) {
                return try body(&kanban)
            } catch {
                throw .refused(error)
            }
        }
    }

    /// Runs `body` on the kanban inside one transaction, and writes the result if it
    /// differs; with `recording`, the change is recorded in the file's history (see
    /// ``HistoryFile``) after the new file is flushed and before it is put in place, with
    /// the locks held. With `readingHistory`, the history is read before `body` runs and
    /// given to it (`undo`, `redo`). A dry run reads without locking and never writes. With
    /// `unreadable`, a file that is not valid JSON (git's conflict markers) is read as that
    /// kanban, and replaced like any other.
    ///
    /// Control goes one way: the store reads, `body` computes, the store writes; what is
    /// printed is made by the caller from the outcome.
    ///
    /// - Throws: what `body` throws (nothing is written then), or a file error.
    func update(
        dryRun: Bool = false, recording: Recording?, readingHistory: Bool = false, unreadable: Kanban? = nil,
        _ body: (inout Kanban, TransactionHistory) throws(CLIError) -> TransactionOutcome
    ) throws(CLIError) -> TransactionOutcome {
        let target = try target()
        let history = HistoryFile(of: target)
        func readHistory(_ current: FileVersion) throws(CLIError) -> TransactionHistory {
            TransactionHistory(
                file: history, loaded: readingHistory && history.exists ? try history.read(current: current) : nil)
        }
        // Opened and checked before the lock file is touched: a command on a file that is
        // missing or not a regular file leaves no lock file behind.
        var file = try open(target)
        defer { file.close() }
        if dryRun {
            var (kanban, hash, _) = try read(file, hashing: true, unreadable: unreadable)
            return try body(&kanban, try readHistory(FileVersion(hash: hash, of: file.info)))
        }
        let lock: FileLock
        do throws(LockFailure) {
            lock = try FileLock(updating: target, file: &file, deadline: Deadline(seconds: lockTimeout))
        } catch {
            guard case .unusable(let reason) = error else {
                if case .file(let failure) = error {
                    throw CLIError.io("cannot read \(q(path)): \(failure.reason); nothing was written")
                }
                throw CLIError.locked(path: path, seconds: lockTimeout)
            }
            // Nothing may be written without the lock, but a command that changes nothing
            // needs none: a reader sees a whole file. So a no-op on a read-only file system
            // or in a directory the user may not write still succeeds.
            let (before, hash, readable) = try read(file, hashing: true, unreadable: unreadable)
            var kanban = before
            let outcome = try body(&kanban, try readHistory(FileVersion(hash: hash, of: file.info)))
            guard readable, Patch(from: before, to: kanban).isEmpty else {
                throw CLIError.io("cannot write \(q(path)): \(reason); nothing was written")
            }
            return outcome
        }
        defer { lock.release() }
        TestHooks.stop(at: .locked)
        TemporaryFile.removeStale(next: target)
        let (before, hash, readable) = try read(
            file, hashing: recording != nil || readingHistory, unreadable: unreadable, keepingLines: true)
        var kanban = before  // shares storage with `before` until a board changes
        let current = FileVersion(hash: hash, of: file.info)
        let storedHistory = try readHistory(current)
        var outcome = try body(&kanban, storedHistory)
        let patch = Patch(from: before, to: kanban)
        guard !patch.isEmpty || !readable else { return outcome }
        try checkWritable(target, open: file)
        guard let recording else {
            try replace(target, with: kanban, like: file.info, hashing: false) { _ throws(CLIError) in {} }
            return outcome
        }
        var tail = history.droppingOrphan(history.tail(), current: current)
        // Undo and redo apply the patches of the changes they name, never their own: theirs
        // would only double the history's size after a change of a million cards.
        let kept =
            outcome.kind == .change ? patch : Patch(boardsBefore: [], boardsAfter: [], cards: [:], archive: nil)
        let lines = recording.describe(outcome.change)
        var record: HistoryRecord?
        try replace(target, with: kanban, like: file.info, hashing: true) { (after: UInt64) throws(CLIError) in
            let new = HistoryRecord(
                number: tail.nextNumber, time: recording.time, user: recording.user, command: recording.command,
                kind: outcome.kind, before: hash, after: after, lines: lines, patch: kept, origin: current.origin)
            let rollback = try history.append(
                new, to: &tail, mode: file.info.st_mode & 0o666, group: file.info.st_gid)
            record = new
            TestHooks.stop(at: .recorded)
            return rollback
        }
        if let record {
            let mode = file.info.st_mode & 0o666
            outcome.notes += history.pruneIfNeeded(
                after: tail, appended: record, mode: mode, dropping: storedHistory.damaged)
        }
        return outcome
    }

    /// The file to read and write: the path with symlinks resolved, so a symlinked
    /// kanban.json is written through to its target.
    private func target() throws(CLIError) -> String {
        let info: stat
        do {
            info = try POSIX.lstatus(path)
        } catch {
            guard error.code == ENOENT || error.code == ENOTDIR else {
                throw .io("cannot read \(q(path)): \(error.reason)")
            }
            if let problem = Self.notADirectory(path) { throw .noFile("no kanban file at \(q(path)): \(problem)") }
            if fromEnvironment {
                throw .noFile("no kanban file at \(q(path)) (named by KANBAN_FILE); create it with 'kanban init'")
            }
            throw .noFile(
                "no kanban file at \(q(path)); create it with \(ShellQuote.commandLine(["kanban", "init", "--file", path]))"
            )
        }
        // Only a symlink needs resolving; any other path is already the file.
        guard info.st_mode & S_IFMT == S_IFLNK else { return path }
        do {
            return try POSIX.realpath(path)
        } catch {
            guard error.code == ENOENT || error.code == ENOTDIR, let destination = Self.linkDestination(path) else {
                throw .io("cannot read \(q(path)): \(error.reason)")
            }
            throw .noFile(
                "\(q(path)) is a symbolic link to \(q(destination)), which does not exist; \(Self.danglingHint(destination))"
            )
        }
    }

    /// Opens the kanban file for reading: never blocking (a FIFO), only a regular file, and
    /// one no larger than ``maximumFileSize`` (checked before anything is allocated for it
    /// or a lock file is made: a sparse file may claim gigabytes).
    private func open(_ target: String) throws(CLIError) -> BoundedFile {
        let file: BoundedFile
        do {
            file = try BoundedFile(kanbanFile: target)
        } catch {
            throw .io("cannot read \(q(path)): \(error.reason)")
        }
        guard file.info.st_size <= Self.maximumFileSize else {
            var file = file
            file.close()
            throw tooLarge(byteCount(Int(file.info.st_size)))
        }
        return file
    }

    private func tooLarge(_ size: String) -> CLIError {
        .io(
            "cannot read \(q(path)): it is \(size), larger than the \(byteCount(Self.maximumFileSize)) "
                + "a kanban file may be; the file was left untouched")
    }

    /// The bytes of the open kanban file, of at most ``maximumFileSize``.
    private func bytes(of file: BoundedFile) throws(CLIError) -> [UInt8] {
        do {
            return try file.read(limit: Self.maximumFileSize)
        } catch {
            switch error {
            case .tooLarge(let size): throw tooLarge(byteCount(size))
            case .grewTooLarge: throw tooLarge("more than \(byteCount(Self.maximumFileSize))")
            case .cannotRead(let failure): throw .io("cannot read \(q(path)): \(failure.reason)")
            default: preconditionFailure("refused on reading what was checked on opening: \(error)")
            }
        }
    }

    /// Reads and decodes the file; with `hashing`, also the ``FileHash`` of its bytes.
    private func read(_ file: BoundedFile, hashing: Bool = false) throws(CLIError) -> (kanban: Kanban, hash: UInt64) {
        let (kanban, hash, _) = try read(file, hashing: hashing, unreadable: nil)
        return (kanban, hash)
    }

    /// Reads and decodes the file, as above; a file that is not valid JSON reads as
    /// `unreadable` when one is given (and `readable` is false). `keepingLines` for a kanban
    /// that is to be written back, whose cards are deferred (see
    /// ``KanbanFile/decode(_:keepingLines:deferringCards:linesLike:)``): a command changes a few.
    private func read(
        _ file: BoundedFile, hashing: Bool, unreadable: Kanban?, keepingLines: Bool = false
    ) throws(CLIError) -> (kanban: Kanban, hash: UInt64, readable: Bool) {
        // The size is checked again for a file opened anew while waiting for the lock.
        let bytes = try bytes(of: file)
        // A large file is hashed on a second thread while it is read (README: Performance).
        let hash = hashing && bytes.count >= SecondThread.worthIt ? SecondThread.Result { FileHash.of(bytes) } : nil
        defer { _ = hash?.value }
        do {
            let kanban = try KanbanFile.decode(bytes, keepingLines: keepingLines, deferringCards: keepingLines).kanban
            KeptUntilExit.keep(kanban)
            return (kanban, hash?.value ?? (hashing ? FileHash.of(bytes) : 0), true)
        } catch {
            // `git resolve` replaces a file that git's text merge left unreadable.
            if let unreadable, case .corruptFile = error { return (unreadable, FileHash.of(bytes), false) }
            throw Self.readError(error, bytes: bytes, name: path)
        }
    }

    /// The error for a file that does not decode, naming it `name`; for git's conflict
    /// markers, the markers and the way out (README: Working together).
    static func readError(_ error: KanbanError, bytes: [UInt8], name: String) -> CLIError {
        switch error {
        case .corruptFile(let line, let message):
            let markers = ConflictMarkers.find(in: bytes)
            guard let first = markers.first else { return .corruptFile(path: name, line: line, message: message) }
            let list = markers.map { "\(q($0.marker)) at line \($0.line)" }.joined(separator: ", ")
            return .corruptFile(
                path: name, line: first.line,
                message: "git's conflict markers (\(list)): git merged the file line by line, as text, "
                    + "where kanban's merge driver is not registered; run 'kanban git resolve' to merge it card by "
                    + "card from the versions git keeps")
        case .unsupportedVersion(let version):
            return .unsupportedVersion(path: name, version: version)
        default:
            return .refused(error)
        }
    }

    // MARK: - Writing

    /// Checks that `target`, open as `file`, may be replaced, before anything is written.
    private func checkWritable(_ target: String, open file: BoundedFile) throws(CLIError) {
        do {
            try Self.checkReplaceable(file.fd, in: Path.directory(of: target))
        } catch {
            throw .io("cannot write \(q(path)): \(error.reason); nothing was written")
        }
        // Renaming over a read-only file would succeed; its owner made it read-only to keep it.
        guard access(target, W_OK) == 0 else {
            throw .io("cannot write \(q(path)): \(POSIX.Failure().reason); nothing was written")
        }
    }

    /// Replaces `target` with `kanban` atomically, keeping its permissions and owner.
    /// `beforeCommit` runs once the new file is flushed, with the hash of its bytes (0 unless
    /// `hashing`), just before it is renamed into place; if it throws, nothing is renamed,
    /// and if the rename fails, what it returns undoes what it did.
    private func replace(
        _ target: String, with kanban: Kanban, like info: stat, hashing: Bool,
        beforeCommit: (UInt64) throws(CLIError) -> () -> Void
    ) throws(CLIError) {
        var failure: CLIError?
        do throws(POSIX.Failure) {
            try writeAtomically(
                kanban, to: target, mode: info.st_mode & 0o7777, owner: (info.st_uid, info.st_gid), hashing: hashing
            ) {
                (temporary: String, hash: UInt64) throws(POSIX.Failure) in
                let undo: () -> Void
                do throws(CLIError) {
                    undo = try beforeCommit(hash)
                } catch {
                    failure = error
                    throw POSIX.Failure(ECANCELED)
                }
                guard rename(temporary, target) == 0 else {
                    let failure = POSIX.Failure()
                    undo()
                    throw failure
                }
            }
        } catch {
            if let failure { throw failure }
            throw .io("cannot write \(q(path)): \(error.reason); the file was left as it was")
        }
    }

    /// Checks that `create` could make the file: its directory exists and the name is free.
    func checkCreatable() throws(CLIError) {
        if let problem = Self.notADirectory(path) {
            throw .cannotCreate("cannot create \(q(path)): \(problem)")
        }
        let directory = Path.directory(of: path)
        do throws(POSIX.Failure) {
            let info = try POSIX.statusOrFailure(directory)
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw POSIX.Failure(ENOTDIR, reason: "\(q(directory)) is \(info.kind), not a directory")
            }
        } catch {
            let reason = error.code == ENOENT ? "the directory \(q(directory)) does not exist" : error.reason
            throw .cannotCreate("cannot create \(q(path)): \(reason)")
        }
        guard let info = POSIX.lstat(path) else { return }
        if info.st_mode & S_IFMT == S_IFLNK, POSIX.status(path) == nil, let destination = Self.linkDestination(path) {
            throw .cannotCreate(
                "cannot create \(q(path)): it is a symbolic link to \(q(destination)), which does not exist; "
                    + Self.danglingHint(destination))
        }
        throw .exists(path: path)
    }

    /// Creates the file with `kanban` in it, never replacing anything (for `init`).
    func create(_ kanban: Kanban) throws(CLIError) {
        try checkCreatable()
        let lock: FileLock
        do {
            lock = try FileLock(creating: path, deadline: Deadline(seconds: lockTimeout))
        } catch .timedOut {
            throw .locked(path: path, seconds: lockTimeout)
        } catch .unusable(let reason) {
            throw .cannotCreate("cannot create \(q(path)): \(reason); nothing was written")
        } catch {
            // Its reason in words, not the value.
            guard case .file(let failure) = error else { throw .cannotCreate("cannot create \(q(path))") }
            throw .cannotCreate("cannot create \(q(path)): \(failure.reason)")
        }
        defer { lock.release() }
        TestHooks.stop(at: .locked)
        TemporaryFile.removeStale(next: path)
        do {
            try writeAtomically(kanban, to: path, mode: nil, owner: nil, hashing: false) {
                (temporary: String, _: UInt64) throws(POSIX.Failure) in
                try AtomicFile.createNew(temporary, at: path)
            }
        } catch {
            if error.code == EEXIST { throw .exists(path: path) }
            throw .cannotCreate("cannot create \(q(path)): \(error.reason)")
        }
    }

    /// Writes `kanban` to a new temporary file next to `target`, flushes it, calls `commit`
    /// to put it in place (with the hash of the bytes written, 0 unless `hashing`: only a
    /// change recorded in the history needs it), and flushes the directory. The temporary file is this writer's
    /// own (see ``TemporaryFile``), and it is removed on every failure.
    private func writeAtomically(
        _ kanban: Kanban, to target: String, mode: mode_t?, owner: (uid_t, gid_t)?, hashing: Bool,
        commit: (String, UInt64) throws(POSIX.Failure) -> Void
    ) throws(POSIX.Failure) {
        KeptUntilExit.keep(kanban)
        // Past RLIMIT_FSIZE a write must fail with EFBIG, not kill the process.
        if Surroundings.current.isProcess { signal(SIGXFSZ, SIG_IGN) }
        // Where the commit is bound to fail, no temporary file is made that could not be
        // removed. A new file (no mode to keep: `create`) needs the directory checked here;
        // `update` has checked the directory and the file already.
        if mode == nil { try Self.checkReplaceable(nil, in: Path.directory(of: target)) }
        var hash = FileHash()
        try AtomicFile.write(to: target, mode: mode, owner: owner) { (fd: Int32) throws(POSIX.Failure) in
            TestHooks.stop(at: .writing)
            let limit = Self.maximumFileSize
            var written = 0
            do {
                try KanbanFile.encode(kanban, chunkSize: 1 << 18) { chunk in
                    if hashing { hash.add(chunk) }
                    written += chunk.count
                    guard written <= limit else {
                        throw POSIX.Failure(
                            EFBIG, reason: "it would grow past \(byteCount(limit)), the most a kanban file may hold")
                    }
                    try POSIX.writeAll(fd, chunk.assumingMemoryBound(to: UInt8.self))
                }
            } catch let failure as POSIX.Failure {
                throw failure
            } catch {
                preconditionFailure("only writes fail while encoding: \(error)")
            }
        } commit: { (temporary: String) throws(POSIX.Failure) in
            TestHooks.stop(at: .beforeCommit)
            try commit(temporary, hashing ? hash.value : 0)
        }
        TestHooks.stop(at: .committed)
    }

    // MARK: - Paths that cannot work

    /// Refuses an append-only or immutable directory or file (`chattr +a`, `+i`): a rename
    /// there fails, and a temporary file made first could not be removed again.
    private static func checkReplaceable(_ file: Int32?, in directory: String) throws(POSIX.Failure) {
        let checked =
            [(POSIX.attributeFlags(directory), "its directory \(q(directory))")]
            + (file.map { [(POSIX.attributeFlags(of: $0), "it")] } ?? [])
        for case (let flags?, let what) in checked {
            let kind =
                flags & POSIX.appendOnlyFlag != 0
                ? "append-only (chattr +a)"
                : flags & POSIX.immutableFlag != 0 ? "immutable (chattr +i)" : nil
            if let kind {
                throw POSIX.Failure(
                    EPERM, reason: "\(what) is \(kind), so kanban cannot put a new file in place there")
            }
        }
    }

    /// What is wrong with a path that names a directory, or whose directory part is not a
    /// directory (`kanban.json/` where kanban.json is a file); nil when neither.
    private static func notADirectory(_ path: String) -> String? {
        if path.hasSuffix("/") {
            var base = path
            while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
            guard let info = POSIX.status(base) else { return nil }  // missing: the caller says so
            if info.st_mode & S_IFMT == S_IFDIR {
                return "\(q(path)) is a directory; name the file in it, such as \(q(path + "kanban.json"))"
            }
            return "\(q(base)) is \(info.kind), not a directory; name the file without the trailing '/'"
        }
        let directory = Path.directory(of: path)
        let info: stat
        do {
            info = try POSIX.statusOrFailure(directory)
        } catch {
            guard error.code == ENOENT else { return nil }
            // init does not create directories, so suggesting it alone would fail too.
            return "the directory \(q(directory)) does not exist; create it first "
                + "(\(ShellQuote.commandLine(["mkdir", "-p", directory]))), then "
                + ShellQuote.commandLine(["kanban", "init", "--file", path])
        }
        guard info.st_mode & S_IFMT != S_IFDIR else { return nil }
        return "\(q(directory)) is \(info.kind), not a directory"
    }

    /// Where the symlink at `path` points, as a path from the current directory.
    static func linkDestination(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.hasPrefix("/") || Path.directory(of: path) == "." ? link : Path.join(Path.directory(of: path), link)
    }

    private static func danglingHint(_ destination: String) -> String {
        "create the file it points to with \(ShellQuote.commandLine(["kanban", "init", "--file", destination])), "
            + "or remove the link"
    }
}

extension BoundedFile {
    /// Opens the kanban file at `path` without blocking (a FIFO would) and checks that it is
    /// a regular file; a refusal reads as the failure of a system call, with its reason.
    init(kanbanFile path: String) throws(POSIX.Failure) {
        do {
            try self.init(path, rules: Rules())
        } catch {
            switch error {
            case .cannotOpen(let failure), .cannotRead(let failure): throw failure
            case .kind(let info): throw POSIX.Failure(EINVAL, reason: "it is \(info.kind), not a regular file")
            default: preconditionFailure("refused by rules the kanban file does not have: \(error)")
            }
        }
    }
}

// MARK: - Diff and merge

extension Store {
    /// Reads the kanban and the format its file is in, without locking: an input of `diff`
    /// or `merge`. With `allowingEmpty`, an empty file is a kanban with no boards: git gives
    /// one as the base of a file that both branches added.
    func loadDocument(
        allowingEmpty: Bool = false, keepingLines: Bool = false, linesLike other: Kanban? = nil
    ) throws(CLIError) -> (kanban: Kanban, format: KanbanFile.Format) {
        var file = try open(try target())
        defer { file.close() }
        let bytes = try bytes(of: file)
        if allowingEmpty && bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return (Kanban.empty, .current)
        }
        return try Self.decode(bytes, name: path, keepingLines: keepingLines, linesLike: other)
    }

    /// Reads a kanban from bytes that came from elsewhere (`git show REV:PATH`), naming
    /// them `name` in errors. `keepingLines`: its cards keep their lines and are deferred
    /// (see ``KanbanFile/decode(_:keepingLines:deferringCards:linesLike:)``).
    static func decode(
        _ bytes: [UInt8], name: String, keepingLines: Bool = false, linesLike other: Kanban? = nil
    ) throws(CLIError) -> (kanban: Kanban, format: KanbanFile.Format) {
        do {
            let decoded = try KanbanFile.decode(
                bytes, keepingLines: keepingLines, deferringCards: keepingLines, linesLike: other)
            KeptUntilExit.keep(decoded.kanban)
            return decoded
        } catch {
            throw readError(error, bytes: bytes, name: name)
        }
    }

    /// Writes `kanban` to the path atomically: a temporary file next to it, flushed, then
    /// renamed over it; a file already there keeps its permissions, a symbolic link there is
    /// refused (the path is not the kanban file). With `locking`, a file already there is
    /// replaced under its locks, as kanban commands write (`merge -o` over a kanban that may
    /// be in use); a new file needs no lock, nor a lock file left beside it: it is linked
    /// into place, which fails rather than replace a file made there meanwhile. git's merge
    /// driver writes over a temporary file that git owns, which needs no lock either.
    func write(_ kanban: Kanban, locking: Bool) throws(CLIError) {
        try OutputFile.refuseSymlink(path)
        let target = path
        var file = try? BoundedFile(kanbanFile: target)
        defer { file?.close() }
        var lock: FileLock?
        if locking, var open = file {
            do throws(LockFailure) {
                lock = try FileLock(updating: target, file: &open, deadline: Deadline(seconds: lockTimeout))
                file = open
            } catch {
                switch error {
                case .timedOut: throw .locked(path: path, seconds: lockTimeout)
                case .unusable(let reason): throw .io("cannot write \(q(path)): \(reason); nothing was written")
                case .file(let failure): throw .io("cannot write \(q(path)): \(failure.reason); nothing was written")
                }
            }
            TemporaryFile.removeStale(next: target)
        }
        defer { lock?.release() }
        let info = file?.info
        do throws(POSIX.Failure) {
            try writeAtomically(
                kanban, to: target, mode: info.map { $0.st_mode & 0o7777 }, owner: info.map { ($0.st_uid, $0.st_gid) },
                hashing: false
            ) { (temporary: String, _: UInt64) throws(POSIX.Failure) in
                if info == nil {
                    try AtomicFile.createNew(temporary, at: target)
                } else {
                    try AtomicFile.replace(temporary, at: target)
                }
            }
        } catch {
            throw .io("cannot write \(q(path)): \(error.reason); it was left as it was")
        }
    }
}
