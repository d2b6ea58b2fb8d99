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

/// What the body of a transaction can see and say besides the kanban: the file's history,
/// read on first use, and what kind of entry the change is.
struct Transaction {
    let history: HistoryFile
    /// The file as read.
    let current: FileVersion
    private var loaded: HistoryFile.Loaded?
    /// The kind of history entry the change makes (`undo` and `redo` say what they take).
    var kind = HistoryRecord.Kind.change

    init(history: HistoryFile, current: FileVersion) {
        self.history = history
        self.current = current
    }

    /// The history, without an orphan whose change never reached the file.
    ///
    /// - Throws: also when its last record is cut off and its change may be in the file:
    ///   there is no telling what the newest change was.
    mutating func log() throws(CLIError) -> HistoryLog {
        let loaded: HistoryFile.Loaded
        if let read = self.loaded {
            loaded = read
        } else {
            loaded = try history.read(current: current)
            self.loaded = loaded
        }
        if let cutOff = loaded.cutOff { throw cutOff }
        return loaded.log
    }

    /// Where the lines of the history that did not read start, once it was read: the change
    /// drops them.
    var damaged: Set<Int> { loaded?.damaged ?? [] }

    /// The first line of the history that did not read, if any, once it was read.
    var firstDamagedLine: Int? { loaded?.damagedLines.first }

    /// Entry `number` with its patch, once the history was read; nil if it is not there.
    ///
    /// - Throws: ``CLIError/corruptFile(path:line:message:)`` when its patch does not read.
    func record(_ number: Int) throws(CLIError) -> HistoryRecord? {
        do throws(KanbanError) {
            return try loaded?.record(number)
        } catch {
            throw .corruptFile(
                path: history.path, line: line(of: number),
                message: "entry #\(number) does not read: \(error.message); nothing was written")
        }
    }

    /// The line of the history that holds entry `number`, once it was read.
    func line(of number: Int) -> Int { loaded?.lines[number] ?? 1 }
}
