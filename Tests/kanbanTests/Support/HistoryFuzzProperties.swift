// What must hold for any bytes found as a kanban file's history (README: "History: log,
// undo, redo"): reading them never crashes and never reads past the bound; every record
// that reads, taken back or done again on the kanban, gives a valid kanban or a clean
// refusal; and a change recorded after them leaves a history that reads whole, ending with
// that change and keeping the entries that read.
//
// One definition, used twice: the libFuzzer target Tests/Fuzz/History.swift compiles this
// file into the kanban module (with -D FUZZING) and traps on a violation; the history
// corpus test runs it over the committed seeds and every input a fuzzer once found. Pure
// Swift: no Foundation, no Testing, so that it builds under the sanitizers as it is.

import Glibc
import KanbanCore

#if !FUZZING
    @testable import kanban
#endif

public enum HistoryFuzzProperties {
    /// The kanban file the seeds' histories were made on (`kanban init --sample`).
    public static let kanbanText = #"""
{
  "version": 2,
  "boards": [
    {
      "id": "7qnvhk",
      "title": "Todo",
      "limit": null,
      "items": [
        {"id": "d9rczb", "title": "Database Migration", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"},
        {"id": "yie8i0", "title": "Schema Design", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"},
        {"id": "t8si2w", "title": "Storage Management", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"},
        {"id": "24v56d", "title": "Model Abstraction", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"}
      ]
    },
    {
      "id": "qy2rgn",
      "title": "In Progress",
      "limit": null,
      "items": [
        {"id": "6hwrcq", "title": "Push Notification", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"},
        {"id": "0aukpd", "title": "Analytics", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"},
        {"id": "14j1ry", "title": "Machine Learning", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"}
      ]
    },
    {
      "id": "tivvq7",
      "title": "Done",
      "limit": null,
      "items": [
        {"id": "7p4ap9", "title": "System Architecture", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"},
        {"id": "mvktw5", "title": "Alert & Debugging", "created": "2026-11-23T10:00:00Z", "entered": "2026-11-23T10:00:00Z"}
      ]
    }
  ],
  "archive": []
}

"""#

    private static let kanbanBytes = Array(kanbanText.utf8)
    private static let kanban = try! KanbanFile.decode(kanbanBytes).kanban

    /// Reads `bytes` as the history of ``kanbanText``, applies its records, records a change
    /// after them, and returns what is wrong, or nil.
    public static func violation(_ bytes: [UInt8]) -> String? {
        var template = Array("/tmp/kanban-fuzz-history.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return nil }  // no scratch space: nothing to check
        let directory = String(cString: made)
        let history = HistoryFile(of: directory + "/kanban.json")
        defer {
            for path in [history.path, history.path + ".new", history.path + ".old"] { unlink(path) }
            rmdir(directory)
        }
        guard write(bytes, to: history.path) else { return nil }
        let current = FileVersion(hash: FileHash.of(kanbanBytes), origin: 0)

        var records: [HistoryRecord] = []
        var loaded: HistoryFile.Loaded?
        do {
            loaded = try history.read(current: current)
            records = loaded?.log.records ?? []
        } catch {
            switch error {
            case .corruptFile(_, let line, let message):
                if line < 1 || message.isEmpty { return "a refusal without a line or a message: \(error.message)" }
            default:
                return "a regular file's history refused other than as damage: \(error.message)"
            }
        }
        for entry in records {
            // The patch is read when undo or redo needs it: a record whose patch does not read is refused.
            guard let record = try? loaded?.record(entry.number) else { continue }
            if record.number != entry.number || record.kind != entry.kind || record.lines != entry.lines {
                return "entry #\(entry.number) reads differently with its patch"
            }
            for redo in [false, true] {
                let changed: Kanban
                do throws(KanbanError) {
                    changed = redo ? try kanban.reapplying(record.patch) : try kanban.reverting(record.patch)
                } catch {
                    continue
                }
                do throws(KanbanError) {
                    try changed.validate()
                } catch {
                    return "\(redo ? "redo" : "undo") of #\(record.number) made an invalid kanban: \(error.message)"
                }
                let encoded = KanbanFile.encode(changed)
                guard (try? KanbanFile.decode(encoded))?.kanban == changed else {
                    return "\(redo ? "redo" : "undo") of #\(record.number) made a kanban that does not read back"
                }
            }
        }

        // A change recorded after them.
        var tail = history.droppingOrphan(history.tail(), current: current)
        guard (1...HistoryRecord.maximumNumber + 1).contains(tail.nextNumber) else {
            return "the next entry would be #\(tail.nextNumber)"
        }
        let record = HistoryRecord(
            number: min(tail.nextNumber, HistoryRecord.maximumNumber), time: Timestamp(seconds: 0), user: "fuzz",
            command: ["add", "x"], kind: .change, before: current.hash, after: current.hash &+ 1, lines: ["added x"],
            patch: Patch(from: kanban, to: kanban))
        do {
            _ = try history.append(record, to: &tail, mode: 0o600, group: getegid())
        } catch {
            return "recording a change failed: \(error.message)"
        }
        history.pruneIfNeeded(after: tail, appended: record, mode: 0o600)
        let after: HistoryFile.Loaded
        do {
            after = try history.read(current: FileVersion(hash: current.hash &+ 1, origin: 0))
        } catch {
            return "after a change the history does not read: \(error.message)"
        }
        if !after.notes.isEmpty { return "after a change the history is still damaged: \(after.notes)" }
        let last = after.log.records.last.flatMap { try? after.record($0.number) }
        if last != record { return "the change is not the history's last entry" }
        let kept = Set(after.log.records.map(\.number))
        let lost = records.map(\.number).filter { $0 < record.number && !kept.contains($0) }
        if records.count < HistoryFile.keep, !lost.isEmpty { return "entries that read were dropped: \(lost)" }
        return nil
    }

    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
}
