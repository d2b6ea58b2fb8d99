import KanbanCore

/// What a command gives the store so that its change is recorded in the file's history.
struct Recording {
    /// The command line, without the program name.
    var command: [String]
    var user: String
    var time: Timestamp
    /// The change as the command reports it: text lines, and the JSON `boards` and `items`.
    var describe: (Change) -> (lines: [String], report: String)
}

/// What the body of a transaction can see and say besides the kanban: the file's history,
/// read on first use, and what kind of entry the change is.
struct Transaction {
    let history: HistoryFile
    /// The hash of the file's bytes as read.
    let current: UInt64
    private var loaded: HistoryLog?
    /// The kind of history entry the change makes (`undo` and `redo` say what they take).
    var kind = HistoryRecord.Kind.change

    init(history: HistoryFile, current: UInt64) {
        self.history = history
        self.current = current
    }

    /// The history, without an orphan whose change never reached the file.
    mutating func log() throws(CLIError) -> HistoryLog {
        if let loaded { return loaded }
        let log = try history.load(current: current)
        loaded = log
        return log
    }
}
