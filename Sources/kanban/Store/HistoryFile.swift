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
/// ``checkEvery`` entries, if it holds more than ``prune`` (or more than ``checkBytes``
/// bytes), the oldest are dropped down to ``keep``; and beyond those, while it is larger than
/// ``keptBytes`` before its newest entry, the oldest go too. So it never grows past
/// ``maximumBytes``, and that is all kanban ever reads of it: a record of any change the
/// largest kanban file allows stays readable, and a history padded with gigabytes of
/// zeros (a sparse file, a crash) costs no more than that to read.
///
/// Damage (a line that does not read, zeros, a cut-off end, bytes past the bound) never
/// blocks the kanban file: readers leave it out with a note, and the next change rewrites
/// the history with only the entries that read. Anything but a regular file in its place (a
/// FIFO, a symbolic link, a device) is never opened by readers and is replaced by writers.
struct HistoryFile {
    let path: String

    static let keep = 100
    static let prune = 200
    static let checkEvery = 25
    static let maximumEntries = prune + checkEvery - 1
    /// Past this size the history is pruned at every change, not every ``checkEvery``th.
    static let checkBytes = 16 << 20
    /// The most the history keeps before its newest entry: twice the largest kanban file.
    static var keptBytes: Int { 2 * Store.maximumFileSize }
    /// The most of the history kanban reads, from the end of its data: a kept history and one
    /// record as large as a change of the largest kanban file can make (its cards before and
    /// after), with room for its command line and change lines (see ``capped(_:)``).
    static var maximumBytes: Int { 4 * Store.maximumFileSize + (16 << 20) }
    /// The change lines a record keeps: a change of a million cards is not shown card by card.
    static let maximumLines = 1_000
    static let maximumLineBytes = 256 << 10

    /// The history of the kanban file at `target` (symlinks resolved).
    init(of target: String) {
        path = Path.join(Path.directory(of: target), "." + Path.name(of: target) + ".history")
    }

    /// Whether anything is there under the history's name.
    var exists: Bool { POSIX.lstat(path) != nil }

    /// A record's change lines, at most ``maximumLines`` of them and ``maximumLineBytes``
    /// in all, the last saying how many more there were.
    static func capped(_ lines: [String]) -> [String] {
        var kept: [String] = []
        var bytes = 0
        for line in lines {
            bytes += line.utf8.count
            guard kept.count < maximumLines - 1, bytes <= maximumLineBytes else {
                return kept + ["… and \(lines.count - kept.count) more"]
            }
            kept.append(line)
        }
        return kept
    }

    /// What is in the history's place when it is not a regular file, in words; nil for a
    /// regular file or nothing.
    private func planted() -> String? {
        guard let info = POSIX.lstat(path) else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFLNK:
            let target = Store.linkDestination(path).map { " to \(q(Escape.visible($0)))" } ?? ""
            return "a symbolic link\(target)"
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFSOCK: return "a socket"
        default: return "a device"
        }
    }

    // MARK: - The part that is read

    /// The part of the history kanban reads: the last ``maximumBytes`` before the end of its
    /// data. Zeros at the end are no data: a sparse file's hole is skipped without reading it,
    /// zeros written there (a crash can leave them) are read backwards within the bound.
    struct Region {
        /// The file's size.
        var size: Int
        /// Where the part read starts: past 0, older bytes lie beyond the bound.
        var start: Int
        /// Where its data ends: only zeros follow.
        var end: Int
        /// How many zeros follow.
        var zeros: Int { size - end }
    }

    private static func region(_ fd: Int32, size: Int) -> Region {
        let dataEnd = Self.dataEnd(fd, size: size)
        let floor = max(0, dataEnd - maximumBytes)
        var end = dataEnd
        while end > floor {
            let count = min(end - floor, 1 << 16)
            guard let chunk = read(fd, from: end - count, count: count), chunk.count == count else { break }
            if let last = chunk.lastIndex(where: { $0 != 0 }) {
                end = end - count + last + 1
                break
            }
            end -= count
        }
        return Region(size: size, start: end == floor ? end : floor, end: end)
    }

    /// Where the file's data ends, holes at its end skipped (`SEEK_DATA`, `SEEK_HOLE`); the
    /// size where the file system cannot say, or the file has too many holes to ask about.
    private static func dataEnd(_ fd: Int32, size: Int) -> Int {
        // <unistd.h> defines them only for _GNU_SOURCE; Linux's values.
        let (seekData, seekHole): (Int32, Int32) = (3, 4)
        var position: off_t = 0
        var end: off_t = 0
        for _ in 0..<64 {
            let data = lseek(fd, position, seekData)
            if data < 0 { return errno == ENXIO ? min(Int(end), size) : size }
            let hole = lseek(fd, data, seekHole)
            guard hole >= 0 else { return size }
            if Int(hole) >= size { return size }
            (end, position) = (hole, hole)
        }
        return size
    }

    /// Opens the history for reading if it is a regular file: never following a symlink,
    /// never waiting on a FIFO. Nil when there is none.
    private func openRegular() throws(CLIError) -> (fd: Int32, size: Int)? {
        if let planted = planted() { throw .historyUnavailable(Self.plantedMessage(path, planted)) }
        let fd: Int32
        do throws(POSIX.Failure) {
            fd = try POSIX.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch {
            if error.code == ENOENT { return nil }
            throw .io("cannot read the history \(q(path)): \(error.reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .historyUnavailable(Self.plantedMessage(path, "not a regular file"))
        }
        return (fd, Int(info.st_size))
    }

    private static func plantedMessage(_ path: String, _ planted: String) -> String {
        "the history \(q(path)) is \(planted), not a history file, so kanban does not read it; "
            + "remove it (\(ShellQuote.commandLine(["rm", path]))), or make any change and kanban starts a new history in its place"
    }

    // MARK: - Reading

    /// The history as readers see it: the entries that read, and what was left out.
    struct Loaded {
        var log: HistoryLog
        /// The entries whose change is not in the file (see ``HistoryLog/notIn(file:)``).
        var notInFile: Set<Int> = []
        /// What was left out, one note each (damage, zeros, a cut-off end).
        var notes: [String] = []
        /// Set when the last record is cut off and its change may be in the file: undo and
        /// redo cannot tell what the newest change was.
        var cutOff: CLIError?
        /// Where the lines that did not read start (for the next change to drop them).
        var damaged: Set<Int> = []
        /// The line of each entry, by number (counted from the first line read).
        var lines: [Int: Int] = [:]
        /// The lines that did not read (counted the same way).
        var damagedLines: [Int] = []
        /// The bytes read, and where each entry's line is in them, by number: an entry's
        /// patch is read only when undo or redo needs it (see ``record(_:)``).
        var bytes: [UInt8] = []
        var ranges: [Int: Range<Int>] = [:]

        /// Entry `number` with its patch, if the history holds it.
        ///
        /// - Throws: ``KanbanError/corruptFile(line:message:)`` for a patch that does not read.
        func record(_ number: Int) throws(KanbanError) -> HistoryRecord? {
            guard let range = ranges[number] else { return nil }
            return try HistoryRecord(decoding: bytes[range])
        }
    }

    /// Every record, oldest first, without an orphan whose change never reached a file whose
    /// bytes hash to `current`.
    ///
    /// - Throws: ``CLIError/historyUnavailable(_:)`` for anything but a regular file in its
    ///   place, ``CLIError/corruptFile(path:line:message:)`` when nothing of it reads.
    func load(current: FileVersion) throws(CLIError) -> HistoryLog {
        try read(current: current).log
    }

    /// The entries that read, oldest first, and what was left out (see ``Loaded``).
    func read(current: FileVersion) throws(CLIError) -> Loaded {
        guard let opened = try openRegular() else { return Loaded(log: HistoryLog(records: [])) }
        let (fd, size) = opened
        defer { close(fd) }
        let region = Self.region(fd, size: size)
        guard let bytes = Self.read(fd, from: region.start, count: region.end - region.start),
            bytes.count == region.end - region.start
        else { throw .io("cannot read the history \(q(path)): \(POSIX.Failure().reason)") }
        var segments = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var loaded = Loaded(log: HistoryLog(records: []))
        let last = segments.removeLast()  // after the last newline: a cut-off record, or nothing
        var records: [HistoryRecord] = []
        var damagedLines: [Int] = []
        var offset = region.start
        for (index, line) in segments.enumerated() {
            defer { offset += line.count + 1 }
            // The part read may start inside its first line: that line is older than the bound.
            if index == 0 && region.start > 0 { continue }
            if let record = try? HistoryRecord(decoding: line, patch: false),
                record.number > (records.last?.number ?? 0)
            {
                records.append(record)
                loaded.lines[record.number] = index + 1
                loaded.ranges[record.number] = line.startIndex..<line.endIndex
            } else {
                damagedLines.append(index + 1)
                loaded.damaged.insert(offset)
            }
        }
        if region.start > 0 {
            loaded.notes.append(
                "the history \(q(path)) is larger than the \(byteCount(Self.maximumBytes)) kanban reads of it; "
                    + "older entries are left out, and the next change drops them")
        }
        if !damagedLines.isEmpty {
            let one = damagedLines.count == 1
            let which = one ? "line \(damagedLines[0])" : "lines " + Self.list(damagedLines)
            let counted = region.start > 0 ? " (counted from the first line read)" : ""
            loaded.notes.append(
                "\(which) of the history \(q(path))\(counted) did not read and \(one ? "is" : "are") left out; "
                    + "the next change rewrites the history without \(one ? "it" : "them")"
            )
        }
        if region.zeros > 0 {
            loaded.notes.append(
                "the history \(q(path)) ends with \(byteCount(region.zeros)) of NUL bytes, left out; "
                    + "the next change drops them"
            )
        }
        if !last.isEmpty {
            let previous = records.last
            if let previous, previous.after == current.hash {
                loaded.notes.append(
                    "the last record of the history \(q(path)) is cut off; its change never reached the file, "
                        + "so it is left out"
                )
            } else {
                let after = previous.map { "entry #\($0.number)" } ?? "its start"
                loaded.notes.append(
                    "the last record of the history \(q(path)) is cut off; its change may be in the file, so "
                        + "undo and redo cannot take back or do again anything until the next change"
                )
                loaded.cutOff = .corruptFile(
                    path: path, line: segments.count + 1,
                    message:
                        "the last record is cut off (a crash or a full disk while it was written), and the file is "
                        + "not as \(after) left it: the cut-off record's change may be in the file, so there is no "
                        + "telling what to take back; nothing was written; 'kanban log' shows the entries that read, "
                        + "and the next "
                        + "change starts the history again after them")
            }
        }
        if records.isEmpty, !damagedLines.isEmpty || region.start > 0 || (region.end == 0 && size > 0) {
            throw .corruptFile(
                path: path, line: damagedLines.first ?? 1,
                message:
                    "the history cannot be read: no entry in its last "
                    + "\(byteCount(min(size, Self.maximumBytes))) reads; "
                    + "the next change starts a new one")
        }
        if let record = records.last, current.isOrphan(record.summary) {
            records.removeLast()
        }
        loaded.log = HistoryLog(records: records)
        loaded.notInFile = loaded.log.notIn(file: current.hash)
        loaded.damagedLines = damagedLines
        loaded.bytes = bytes
        return loaded
    }

    private static func list(_ numbers: [Int]) -> String {
        numbers.count <= 5
            ? numbers.map(String.init).joined(separator: ", ")
            : numbers.prefix(5).map(String.init).joined(separator: ", ") + " and \(numbers.count - 5) more"
    }

    // MARK: - The end of the history, as a writer needs it

    /// What a writer found in the history: where to append and what to keep.
    struct Tail {
        /// The last entry that reads before the append point, if any.
        var last: HistoryRecord.Summary?
        /// The append point: what follows (a cut-off line, an orphan, zeros) is cut off.
        var end: Int
        /// Whether the history must be started anew: what is there is not a regular file, or
        /// nothing of it can be reached within the bound. The old one is set aside until the
        /// change is in place.
        var unreadable: Bool
        /// The number the next record gets.
        var nextNumber: Int
        /// The whole lines before the append point that read, oldest first.
        var entries: [Range<Int>] = []
        /// Whether anything besides those entries is before the append point (damage, or
        /// bytes beyond the bound): then the history is rewritten after the change.
        var damaged = false
        /// What is wrong, for the note a change prints.
        var notes: [String] = []
        /// The file's size, and where its data ends (zeros follow).
        var size = 0
        var dataEnd = Int.max
        /// Whether what is there is set aside (renamed, then removed once the change is in
        /// place) for a new history: not a regular file, or nothing in it reads within the bound.
        var replace = false
        /// Whether it was set aside.
        var setAside = false
        /// The length of the record appended, newline included, once it is.
        var appended: Int?

        init(last: HistoryRecord.Summary?, end: Int, unreadable: Bool) {
            self.last = last
            self.end = end
            self.unreadable = unreadable
            nextNumber = unreadable ? 1 : min(last?.number ?? 0, HistoryRecord.maximumNumber) + 1
        }
    }

    /// Looks at the whole history within the bound, a chunk at a time (see ``LineScanner``):
    /// lines that do not read as records, or whose numbers do not go up, are damage.
    func tail() -> Tail {
        if let planted = planted() {
            var tail = Tail(last: nil, end: 0, unreadable: true)
            if planted != "a directory" {
                tail.replace = true
                tail.notes.append("the history \(q(path)) was \(planted); it is replaced by a new history")
            }
            return tail
        }
        guard let fd = try? POSIX.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else {
            return Tail(last: nil, end: 0, unreadable: POSIX.lstat(path) != nil)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return Tail(last: nil, end: 0, unreadable: true)
        }
        let size = Int(info.st_size)
        let region = Self.region(fd, size: size)
        var scanner = LineScanner(start: region.start, decoding: region.end - region.start <= LineScanner.decodedHistory)
        var position = region.start
        while position < region.end {
            let count = min(region.end - position, 1 << 20)
            guard let chunk = Self.read(fd, from: position, count: count), chunk.count == count else {
                return Tail(last: nil, end: 0, unreadable: true)
            }
            scanner.add(chunk)
            position += count
        }
        var tail: Tail
        if scanner.lines.isEmpty && region.start > 0 {
            // Nothing whole within the bound: what reads, if anything, is beyond it.
            tail = Tail(last: nil, end: 0, unreadable: true)
            tail.replace = true
            tail.notes.append(
                "no entry of the history \(q(path)) reads within the \(byteCount(Self.maximumBytes)) "
                    + "kanban reads of it; a new history is started"
            )
            return tail
        }
        var entries: [Range<Int>] = []
        var last: HistoryRecord.Summary?
        var damaged: [Int] = []
        for (index, line) in scanner.lines.enumerated() {
            if let summary = line.summary, summary.number > (last?.number ?? 0),
                !(index == 0 && region.start > 0)
            {
                entries.append(line.range)
                last = summary
            } else {
                damaged.append(index + 1)
            }
        }
        let end = scanner.lines.last.map { $0.range.upperBound + 1 } ?? region.start
        tail = Tail(last: last, end: end, unreadable: false)
        tail.entries = entries
        tail.size = size
        tail.dataEnd = region.end
        tail.damaged = !damaged.isEmpty || region.start > 0
        if !damaged.isEmpty {
            let which = damaged.count == 1 ? "line \(damaged[0])" : "lines " + Self.list(damaged)
            tail.notes.append(
                "\(which) of the history \(q(path)) did not read and \(damaged.count == 1 ? "was" : "were") "
                    + "dropped; \(entries.count) entries are kept"
            )
        }
        if region.zeros > 0 {
            tail.notes.append(
                "the history \(q(path)) ended with \(byteCount(region.zeros)) of NUL bytes; they were dropped")
        }
        if region.start > 0 {
            tail.notes.append(
                "the history \(q(path)) was larger than the \(byteCount(Self.maximumBytes)) kanban reads of it; "
                    + "the older entries were dropped")
        }
        return tail
    }

    /// The lines of the part read, found a chunk at a time, each with the summary of the
    /// record it holds, or nil when it holds none. Every change reads the whole history: a
    /// history of up to ``decodedHistory`` bytes (a hundred ordinary changes) is read as
    /// readers read it, each line decoded as a record; a larger one line by line by its
    /// first byte and its end (a record starts with `{` and ends with its number and
    /// hashes), as decoding records of many cards at each change cost more than the change
    /// itself (a move on 10,000 cards took 3.6 times as long with a 16 MiB history). There,
    /// a line damaged only inside is left out by readers, with a note, and dropped at the
    /// next pruning rather than the next change.
    private struct LineScanner {
        struct Line {
            var range: Range<Int>
            var summary: HistoryRecord.Summary?
        }
        var lines: [Line] = []
        private var lineStart: Int
        private var position: Int
        private var first: UInt8?
        private var end: [UInt8] = []
        /// Whether each line is decoded as a record, and the line so far when it is.
        private let decoding: Bool
        private var body: [UInt8] = []
        static let decodedHistory = 1 << 20

        init(start: Int, decoding: Bool) {
            lineStart = start
            position = start
            self.decoding = decoding
        }

        mutating func add(_ chunk: [UInt8]) {
            var from = 0
            while from < chunk.count {
                let found = chunk.withUnsafeBufferPointer { buffer in
                    memchr(buffer.baseAddress! + from, 0x0A, buffer.count - from).map {
                        from + UnsafeRawPointer(buffer.baseAddress! + from).distance(to: UnsafeRawPointer($0))
                    }
                }
                guard let newline = found else {
                    take(chunk[from...])
                    position += chunk.count - from
                    return
                }
                take(chunk[from..<newline])
                let stop = position + newline - from
                let summary =
                    decoding
                    ? (try? HistoryRecord(decoding: body, patch: false))?.summary
                    : first == UInt8(ascii: "{") ? HistoryRecord.Summary(decodingEndOf: end) : nil
                lines.append(Line(range: lineStart..<stop, summary: summary))
                position = stop + 1
                lineStart = position
                first = nil
                end.removeAll(keepingCapacity: true)
                body.removeAll(keepingCapacity: true)
                from = newline + 1
            }
        }

        private mutating func take(_ bytes: ArraySlice<UInt8>) {
            if first == nil { first = bytes.first }
            let kept = HistoryRecord.Summary.endLength
            end.append(contentsOf: bytes.suffix(kept))
            if end.count > kept { end.removeFirst(end.count - kept) }
            if decoding { body.append(contentsOf: bytes) }
        }
    }

    private static func read(_ fd: Int32, from offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }

    // MARK: - Writing

    /// The tail without its last record if that record is an orphan: its change never
    /// reached the file, which is still the one it started from (see ``FileVersion``).
    func droppingOrphan(_ tail: Tail, current: FileVersion) -> Tail {
        guard let last = tail.last, current.isOrphan(last),
            let range = tail.entries.last, range.upperBound + 1 == tail.end
        else { return tail }
        var kept = tail
        kept.end = range.lowerBound
        kept.entries.removeLast()
        kept.last = nil
        kept.nextNumber = last.number  // given again
        return kept
    }

    /// Appends `record` after the good part of the file that `tail` found (cutting off an
    /// orphan, a partial line or zeros), starting a new history if the old one was unreadable
    /// or not a regular file (set aside until the change is in place). Called with the kanban
    /// file's lock held. A new history file gets the permissions and group of the kanban file
    /// (`mode`, `group`), whatever the umask, so that everyone who may write the kanban file
    /// may write its history.
    ///
    /// - Returns: what puts the history back exactly as it was, should the new file not be
    ///   put in place after all.
    /// - Throws: ``CLIError/io(_:)``; then the history is as it was.
    func append(_ record: HistoryRecord, to tail: inout Tail, mode: mode_t, group: gid_t) throws(CLIError) -> () -> Void
    {
        let line = record.encoded()
        tail.appended = line.count
        let end = tail.unreadable ? 0 : tail.end
        let aside = path + ".old"
        // (A history set aside by a process killed before it could remove it goes too.)
        unlink(aside)
        do throws(POSIX.Failure) {
            if tail.replace {
                guard rename(path, aside) == 0 else { throw POSIX.Failure() }
                tail.setAside = true
            }
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
            // What is cut off (an orphan, a partial line) is kept to be put back; zeros after the
            // data come back by extending the file again.
            let dataEnd = created ? 0 : min(size, max(end, tail.dataEnd))
            let cut = dataEnd > end ? (Self.read(fd, from: end, count: dataEnd - end) ?? []) : []
            if size != end { guard ftruncate(fd, off_t(end)) == 0 else { throw POSIX.Failure() } }
            guard lseek(fd, off_t(end), SEEK_SET) == off_t(end) else { throw POSIX.Failure() }
            let path = self.path
            let setAside = tail.setAside
            let restore = {
                Self.restore(path, created: created, end: end, cut: cut, size: size)
                if setAside { rename(aside, path) }
            }
            do {
                try POSIX.writeAll(fd, line)
            } catch {
                restore()
                throw error
            }
            return restore
        } catch {
            if tail.setAside { rename(aside, path) }
            throw .io(
                "cannot write the history \(q(path)): \(error.reason); nothing was written (the history "
                    + "must be writable for a change to be recorded)")
        }
    }

    /// Puts a history back as it was before an append: removed if the append made it, else
    /// cut back to `end` with the bytes that followed it restored, and its zeros.
    private static func restore(_ path: String, created: Bool, end: Int, cut: [UInt8], size: Int) {
        if created {
            unlink(path)
            return
        }
        guard let fd = try? POSIX.open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK) else { return }
        defer { close(fd) }
        guard ftruncate(fd, off_t(end)) == 0, lseek(fd, off_t(end), SEEK_SET) == off_t(end) else { return }
        try? POSIX.writeAll(fd, cut)
        if end + cut.count < size { ftruncate(fd, off_t(size)) }
    }

    /// After the change is in place: drops what the history must not keep (damage, the
    /// lines `dropping` starts at, the oldest entries past its bounds), and removes a history
    /// set aside. A failure leaves the history whole.
    ///
    /// - Returns: notes on what was dropped, for the user.
    @discardableResult
    func pruneIfNeeded(after tail: Tail, appended record: HistoryRecord, mode: mode_t, dropping: Set<Int> = [])
        -> [String]
    {
        if tail.setAside { unlink(path + ".old") }
        var notes = tail.notes
        guard !tail.unreadable else { return notes }
        var entries = tail.entries.filter { !dropping.contains($0.lowerBound) }
        if entries.count < tail.entries.count {
            let count = tail.entries.count - entries.count
            notes.append(
                "\(count) \(count == 1 ? "entry" : "entries") of the history \(q(path)) did not read and "
                    + "\(count == 1 ? "was" : "were") dropped"
            )
        }
        // Encoded once: a batch's record may hold thousands of cards.
        let length = tail.appended ?? record.encoded().count
        entries.append(tail.end..<(tail.end + length - 1))
        let bytes = { (entries: ArraySlice<Range<Int>>) in entries.reduce(0) { $0 + $1.count + 1 } }
        var kept = entries[...]
        let total = bytes(kept)
        if kept.count > Self.prune && record.number % Self.checkEvery == 0
            || total > Self.checkBytes && kept.count > Self.keep
        {
            kept = kept.suffix(Self.keep)
        }
        // Before the newest entry, at most ``keptBytes``: a record of any size stays, and the
        // history stays within what is read of it.
        var older = bytes(kept) - length
        while older > Self.keptBytes && kept.count > 1 {
            older -= kept.first!.count + 1
            kept = kept.dropFirst()
        }
        guard tail.damaged || kept.count < tail.entries.count + 1 || !dropping.isEmpty else { return notes }
        rewrite(keeping: Array(kept), mode: mode)
        return notes
    }

    /// Rewrites the history with only the lines at `ranges` (newlines added), copied a chunk
    /// at a time, through a temporary file renamed over it (not flushed: see ``HistoryFile``).
    /// A failure leaves it whole.
    private func rewrite(keeping ranges: [Range<Int>], mode: mode_t) {
        guard let fd = try? POSIX.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return }
        defer { close(fd) }
        // One name, removed first: what a writer killed while rewriting left goes at the next rewrite.
        let temporary = path + ".new"
        unlink(temporary)
        try? AtomicFile.write(to: path, mode: mode, temporary: temporary, flush: false) {
            (out: Int32) throws(POSIX.Failure) in
            for range in ranges {
                var position = range.lowerBound
                while position < range.upperBound + 1 {
                    let count = min(range.upperBound + 1 - position, 1 << 20)
                    guard let chunk = Self.read(fd, from: position, count: count), chunk.count == count else {
                        throw POSIX.Failure(EIO)
                    }
                    try POSIX.writeAll(out, chunk)
                    position += count
                }
            }
        } commit: { (temporary: String) throws(POSIX.Failure) in
            try AtomicFile.replace(temporary, at: path)
        }
    }
}

/// A version of the kanban file as its history knows it: the hash of its bytes, and which
/// file holds them (its device, inode and change time, hashed).
///
/// A record whose change is not in the file, with the file's bytes still those it started
/// from, is either an orphan (a writer killed after recording it and before putting its
/// change in place: the very file it read, untouched since) or a change made elsewhere
/// and taken away since (on another git branch, then `git checkout`: a file git wrote
/// again). The origin tells the two apart.
struct FileVersion {
    var hash: UInt64
    var origin: UInt64

    init(hash: UInt64, origin: UInt64) {
        self.hash = hash
        self.origin = origin
    }

    init(hash: UInt64, of info: stat) {
        self.hash = hash
        var origin = FileHash()
        withUnsafeBytes(
            of: (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec))
        ) { origin.add($0) }
        self.origin = origin.value
    }

    /// Whether the record `summary` sums up is an orphan: its change never reached this
    /// file, which is still the one it started from. (A record of an older kanban, without
    /// an origin, is taken to be one when the bytes say so.)
    func isOrphan(_ summary: HistoryRecord.Summary) -> Bool {
        summary.after != hash && summary.before == hash && (summary.origin ?? origin) == origin
    }
}
