import KanbanCore

/// What a command gives the store so that its change is recorded in the file's history.
struct Recording {
    /// The command line, without the program name.
    var command: [String]
    var user: String
    var time: Timestamp
    /// The change as the command reports it, one line per card or board changed.
    var describe: (Change) -> [String]
}

/// What the body of a transaction gives back: the change it made, and the kind of history
/// entry that change is (`undo` and `redo` say which entries they take); the store adds its
/// notes (what the change dropped from a damaged history) for the command to return.
struct TransactionOutcome {
    var change: Change
    var kind = HistoryRecord.Kind.change
    var notes: [String] = []
}

/// The file's history as the store read it, under the lock, before the body of a
/// transaction that asked for it (`undo`, `redo`): the body only looks, it reads no file.
struct TransactionHistory {
    let file: HistoryFile
    /// What was read; `nil` when no history exists.
    private let loaded: HistoryFile.Loaded?

    init(file: HistoryFile, loaded: HistoryFile.Loaded?) {
        self.file = file
        self.loaded = loaded
    }

    /// Whether there is a history at all.
    var exists: Bool { loaded != nil }

    /// The history, without an orphan whose change never reached the file.
    ///
    /// - Throws: also when its last record is cut off and its change may be in the file:
    ///   there is no telling what the newest change was.
    func log() throws(CLIError) -> HistoryLog {
        guard let loaded else { return HistoryLog(records: []) }
        if let cutOff = loaded.cutOff { throw cutOff }
        return loaded.log
    }

    /// Where the lines of the history that did not read start: the change drops them.
    var damaged: Set<Int> { loaded?.damaged ?? [] }

    /// The first line of the history that did not read, if any.
    var firstDamagedLine: Int? { loaded?.damagedLines.first }

    /// Entry `number` with its patch; nil if it is not there.
    ///
    /// - Throws: ``CLIError/corruptFile(path:line:message:)`` when its patch does not read.
    func record(_ number: Int) throws(CLIError) -> HistoryRecord? {
        do throws(KanbanError) {
            return try loaded?.record(number)
        } catch {
            throw .corruptFile(
                path: file.path, line: line(of: number),
                message: "entry #\(number) does not read: \(error.message); nothing was written")
        }
    }

    /// The line of the history that holds entry `number`.
    func line(of number: Int) -> Int { loaded?.lines[number] ?? 1 }
}
