import Foundation
import Glibc
import KanbanCore
import Testing

// Shared support for the reliability suites (stress, crashes, failing disks, hostile input):
// sizes that scale with the environment, the figures `.ci/reliability` prints, and checks
// on a kanban file as kanban's own reader and an independent JSON parser see it.

// MARK: - Sizes and figures

enum Reliability {
    /// A positive integer from the environment, else `value`: the default `swift test` runs
    /// small sizes, `.ci/reliability` sets large ones.
    static func size(_ name: String, default value: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment[name], let number = Int(text), number > 0 else {
            return value
        }
        return number
    }

    /// Appends one line of figures, `suite key=value …`, to `$KANBAN_RELIABILITY_LOG` if set,
    /// for `.ci/reliability` to sum up.
    static func record(_ suite: String, _ figures: KeyValuePairs<String, CustomStringConvertible>) {
        guard let path = ProcessInfo.processInfo.environment["KANBAN_RELIABILITY_LOG"], !path.isEmpty else {
            return
        }
        let line = ([suite] + figures.map { "\($0.key)=\($0.value)" }).joined(separator: " ") + "\n"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count - 1) }
    }

    /// Seconds since `start` (from `DispatchTime.now()`), one decimal.
    static func seconds(since start: DispatchTime) -> String {
        String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }

    /// Keeps a copy of a file that broke a check under `$TMPDIR`, and says where, for the report.
    static func keep(_ bytes: [UInt8], _ name: String) -> String {
        let path =
            "\(NSTemporaryDirectory())/kanban-reliability-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}

// MARK: - Locks

/// Whether another process holds the flock on `path` right now: a non-blocking attempt
/// fails with EWOULDBLOCK. A lock file that does not exist is not held.
func lockIsHeld(_ path: String) throws -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
        if errno == ENOENT { return false }
        throw SpawnError("cannot open \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    if flock(fd, LOCK_EX | LOCK_NB) == 0 {
        flock(fd, LOCK_UN)
        return false
    }
    guard errno == EWOULDBLOCK else { throw SpawnError("flock \(path): \(String(cString: strerror(errno)))") }
    return true
}

extension SpawnedProcess {
    /// Blocks until the process has ended, without reaping it (`waitid` with `WNOWAIT`), so
    /// that ``wait(timeout:)`` still collects its status and output. Precise where the
    /// polling of `wait` is not: for measuring how long a process lives.
    func blockUntilExited() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }
}

// MARK: - Checking a kanban file

/// A kanban file as read by kanban's own reader, checked the way every reliability suite
/// checks the file after the fact.
struct CheckedFile {
    var bytes: [UInt8]
    var kanban: Kanban

    /// Every item id, in board order.
    var ids: [String] { kanban.boards.flatMap { $0.items.map(\.id.rawValue) } }

    /// Reads `bytes` with `KanbanFile.decode`; returns a description of what is wrong, or the file.
    static func check(_ bytes: [UInt8]) -> Result<CheckedFile, CheckFailure> {
        let kanban: Kanban
        do {
            kanban = try KanbanFile.decode(bytes).kanban
        } catch {
            return .failure(CheckFailure("kanban cannot read the file: \(error)"))
        }
        // A second, independent parser: Foundation's must accept it too.
        guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else {
            return .failure(CheckFailure("JSONSerialization does not accept the file"))
        }
        let ids = kanban.boards.flatMap { $0.items.map(\.id.rawValue) }
        guard Set(ids).count == ids.count else { return .failure(CheckFailure("duplicate ids: \(ids)")) }
        // Every write is whole and canonical: the bytes are exactly what kanban writes for this kanban.
        guard KanbanFile.encode(kanban) == bytes else {
            return .failure(
                CheckFailure("the file is not the canonical encoding of its kanban (half written?)"))
        }
        return .success(CheckedFile(bytes: bytes, kanban: kanban))
    }
}

struct CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Whether `actual` is the kanban `expected` describes, field for field and with its
/// archive, where ids not in `knownIDs` were made by the command (add, copy, import, a new
/// board) and may be any new ids: each is matched with the one in the same place.
func sameKanban(_ actual: Kanban, _ expected: Kanban, knownIDs: Set<String>) -> Bool {
    guard let actual = actual.numberingNewIDs(knownIDs), let expected = expected.numberingNewIDs(knownIDs) else {
        return false
    }
    return actual == expected
}

extension Kanban {
    /// The kanban with each id not in `known` renamed `NEW-0`, `NEW-1`, … in the order they
    /// first appear (boards, their cards, then the archive), so that two kanbans that differ
    /// only in the new ids a command made are equal; nil if that breaks an invariant.
    fileprivate func numberingNewIDs(_ known: Set<String>) -> Kanban? {
        var names: [ItemID: ItemID] = [:]
        func name(_ id: ItemID) -> ItemID {
            if known.contains(id.rawValue) { return id }
            if let name = names[id] { return name }
            // Generated ids are lowercase letters and digits: never `NEW-…`.
            let name = ItemID("NEW-\(names.count)")!
            names[id] = name
            return name
        }
        func renamed(_ item: Item) -> Item {
            var item = item
            item.id = name(item.id)
            item.trail = item.trail.map { TrailEntry(board: name($0.board), time: $0.time) }
            return item
        }
        let boards = boards.map { board in
            Board(id: name(board.id), title: board.title, limit: board.limit, items: board.items.map(renamed))
        }
        let archive = archive.map {
            ArchivedItem(item: renamed($0.item), board: name($0.board), archived: $0.archived)
        }
        return try? Kanban(boards: boards, archive: archive)
    }
}
