import Glibc
import KanbanCore

/// The local history of a kanban file: `.NAME.history` next to it, one line of JSON per
/// change (see ``HistoryRecord``), oldest first.
///
/// A record is appended while the kanban file's lock is held, after the new file is
/// flushed and before it is renamed into place. So a process killed at any instant leaves
/// either no record (the file unchanged), or a record whose change did not reach the file
/// (the file's bytes are still those the record started from: such an orphan is ignored,
/// and the next writer removes it), or a record and its change. A line cut short by a kill
/// never ends with a newline, and is ignored and removed the same way.
///
/// It keeps at least the last ``keep`` entries and at most ``maximumEntries``: every
/// ``checkEvery`` entries, if it holds more than ``prune`` (or more than ``maximumBytes``
/// bytes), the oldest are dropped down to ``keep``.
struct HistoryFile {
    let path: String

    static let keep = 100
    static let prune = 200
    static let checkEvery = 25
    static let maximumEntries = prune + checkEvery - 1
    static let maximumBytes = 16 << 20

    /// The history of the kanban file at `target` (symlinks resolved).
    init(of target: String) {
        path = Path.join(Path.directory(of: target), "." + Path.name(of: target) + ".history")
    }

    /// Whether the history file is there.
    var exists: Bool { POSIX.lstat(path) != nil }

    /// The end of the history, as a writer needs it.
    struct Tail {
        /// The last complete record's number and hashes, if it could be read.
        var last: HistoryRecord.Summary?
        /// Where the good part of the file ends (what follows is cut off before appending).
        var end: Int

        /// Whether what is there cannot be read (a new history starts).
        var unreadable: Bool
        /// The number the next record gets.
        var nextNumber: Int

        init(last: HistoryRecord.Summary?, end: Int, unreadable: Bool) {
            self.last = last
            self.end = end
            self.unreadable = unreadable
            nextNumber = unreadable ? 1 : (last?.number ?? 0) + 1
        }
    }

    // MARK: - Reading

    /// Every record, oldest first, without an orphan whose change never reached a file whose
    /// bytes hash to `current`.
    ///
    /// - Throws: ``CLIError/corruptFile(path:line:message:)`` for a history that cannot be
    ///   read, ``CLIError/noFile(_:)`` when there is none.
    func load(current: UInt64) throws(CLIError) -> HistoryLog {
        let bytes: [UInt8]
        do throws(POSIX.Failure) {
            let fd = try POSIX.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
            defer { close(fd) }
            bytes = try POSIX.readAll(fd, limit: Store.maximumFileSize)
        } catch {
            if error.code == ENOENT { return HistoryLog(records: []) }
            throw .io("cannot read the history \(q(path)): \(error.reason)")
        }
        var records: [HistoryRecord] = []
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
            lineNumber += 1
            do {
                records.append(try HistoryRecord(decoding: Array(line)))
            } catch {
                throw .corruptFile(path: path, line: lineNumber, message: "\(error.message); the history cannot be read")
            }
        }
        if let last = records.last, last.after != current, last.before == current {
            records.removeLast()
        }
        return HistoryLog(records: records)
    }

    /// The last record's number and hashes, and where the file's good part ends; reads only
    /// the end of the file (records end with what a writer needs).
    func tail() -> Tail {
        guard let fd = try? POSIX.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else {
            return Tail(last: nil, end: 0, unreadable: POSIX.lstat(path) != nil)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return Tail(last: nil, end: 0, unreadable: true)
        }
        let size = Int(info.st_size)
        guard size > 0 else { return Tail(last: nil, end: 0, unreadable: false) }
        // The good part ends at the last newline: after a kill, a partial line may follow it.
        var end = size
        var chunk = min(size, 256)
        var bytes = Self.read(fd, from: size - chunk, count: chunk) ?? []
        while bytes.last != UInt8(ascii: "\n") {
            if let newline = bytes.lastIndex(of: UInt8(ascii: "\n")) {
                end = size - chunk + newline + 1
                break
            }
            guard chunk < size else { return Tail(last: nil, end: 0, unreadable: false) }
            chunk = min(size, chunk * 4)
            bytes = Self.read(fd, from: size - chunk, count: chunk) ?? []
        }
        if end != size { bytes = Self.read(fd, from: max(0, end - 256), count: min(end, 256)) ?? [] }
        guard let last = HistoryRecord.Summary(decodingEndOf: bytes.dropLast()) else {
            return Tail(last: nil, end: 0, unreadable: true)
        }
        return Tail(last: last, end: end, unreadable: false)
    }

    /// Where the line that ends at `end` (after its newline) starts.
    private func startOfLine(endingAt end: Int) -> Int? {
        guard let fd = try? POSIX.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return nil }
        defer { close(fd) }
        var chunk = min(end, 1 << 16)
        while true {
            guard let bytes = Self.read(fd, from: end - chunk, count: chunk) else { return nil }
            if let newline = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")) { return end - chunk + newline + 1 }
            if chunk == end { return 0 }
            chunk = min(end, chunk * 4)
        }
    }

    private static func read(_ fd: Int32, from offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }

    // MARK: - Writing

    /// The tail without its last record if that record is an orphan: its change never
    /// reached the file, whose bytes (hashing to `current`) are still those it started from.
    func droppingOrphan(_ tail: Tail, current: UInt64) -> Tail {
        guard let last = tail.last, last.after != current, last.before == current,
            let start = startOfLine(endingAt: tail.end)
        else { return tail }
        var kept = tail
        kept.end = start
        kept.last = nil
        kept.nextNumber = last.number  // given again
        return kept
    }

    /// Appends `record` after the good part of the file that `tail` found (cutting off an
    /// orphan or a partial line), starting a new history if the old one was unreadable.
    /// Called with the kanban file's lock held. A new history file gets the permissions and
    /// group of the kanban file (`mode`, `group`), whatever the umask, so that everyone who
    /// may write the kanban file may write its history.
    ///
    /// - Returns: what puts the history back exactly as it was, should the new file not be
    ///   put in place after all.
    /// - Throws: ``CLIError/io(_:)``; then the history is as it was.
    func append(_ record: HistoryRecord, to tail: Tail, mode: mode_t, group: gid_t) throws(CLIError) -> () -> Void {
        let line = record.encoded()
        let end = tail.unreadable ? 0 : tail.end
        do throws(POSIX.Failure) {
            var created = true
            var fd: Int32
            do throws(POSIX.Failure) {
                fd = try POSIX.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o600)
                // Anyone may give a file their own group, and keep it if they are in the file's group.
                if getegid() != group { _ = fchown(fd, uid_t.max, group) }
                if fchmod(fd, mode) != 0 {
                    let failure = POSIX.Failure()
                    close(fd)
                    unlink(path)
                    throw failure
                }
            } catch {
                guard error.code == EEXIST else { throw error }
                created = false
                fd = try POSIX.open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK)
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw POSIX.Failure() }
            guard info.st_mode & S_IFMT == S_IFREG else { throw POSIX.Failure(EINVAL, reason: "not a regular file") }
            let size = Int(info.st_size)
            // What is cut off (an orphan, a partial line, an unreadable history) is kept to be put back.
            let cut = size > end ? (Self.read(fd, from: end, count: size - end) ?? []) : []
            if size != end { guard ftruncate(fd, off_t(end)) == 0 else { throw POSIX.Failure() } }
            guard lseek(fd, off_t(end), SEEK_SET) == off_t(end) else { throw POSIX.Failure() }
            do {
                try POSIX.writeAll(fd, line)
            } catch {
                Self.restore(path, created: created, end: end, cut: cut)
                throw error
            }
            let path = self.path
            return { Self.restore(path, created: created, end: end, cut: cut) }
        } catch {
            throw .io(
                "cannot write the history \(q(path)): \(error.reason); nothing was written (the history "
                    + "must be writable for a change to be recorded)")
        }
    }

    /// Puts a history back as it was before an append: removed if the append made it, else
    /// cut back to `end` with the bytes that followed it restored.
    private static func restore(_ path: String, created: Bool, end: Int, cut: [UInt8]) {
        if created {
            unlink(path)
            return
        }
        guard let fd = try? POSIX.open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK) else { return }
        defer { close(fd) }
        guard ftruncate(fd, off_t(end)) == 0, lseek(fd, off_t(end), SEEK_SET) == off_t(end) else { return }
        try? POSIX.writeAll(fd, cut)
    }

    /// Drops the oldest entries when the history has grown past its bounds (after a change
    /// is in place).
    /// (Looked at every ``checkEvery`` entries, and whenever the history is larger than its bound.)
    func pruneIfNeeded(after tail: Tail, appended record: HistoryRecord, mode: mode_t) {
        guard !tail.unreadable, record.number % Self.checkEvery == 0 || tail.end > Self.maximumBytes else { return }
        pruneToKeep(mode: mode)
    }

    /// Rewrites the history with only its newest ``keep`` entries. A failure leaves it whole.
    private func pruneToKeep(mode: mode_t) {
        guard let fd = try? POSIX.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return }
        let read = try? POSIX.readAll(fd, limit: Store.maximumFileSize)
        close(fd)
        guard let bytes = read else { return }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard lines.count > Self.prune || (bytes.count > Self.maximumBytes && lines.count > Self.keep) else { return }
        var kept: [UInt8] = []
        for line in lines.suffix(Self.keep) {
            kept += line
            kept.append(UInt8(ascii: "\n"))
        }
        let temporary = path + ".new"
        unlink(temporary)
        guard let out = try? POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode) else { return }
        let written = (try? POSIX.writeAll(out, kept)) != nil
        close(out)
        if !written || rename(temporary, path) != 0 { unlink(temporary) }
    }
}
