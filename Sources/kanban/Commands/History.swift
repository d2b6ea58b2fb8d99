import KanbanCore

extension Commands {
    static let log = CommandSpec(
        "log", usage: [.optional(Options.count, short: true)],
        summary: "show the file's local history",
        options: [
            CommandOption(Options.count, "show only the N newest entries"),
            CommandOption(Options.noPager, "never page the log, however long"),
        ],
        details: """
            Shows the changes kanban made to this file, newest first: the entry's number, the time,
            the user, the command line, and what changed. Undo and redo are entries too; an entry
            taken back by undo is marked (undone). The history is kept next to the file, in
            .kanban.json.history (ignored by git like the lock file): at least the last 100 changes.
            Changes made outside kanban (an editor, a git checkout) are not in it. A log taller
            than the terminal goes through a pager ($KANBAN_PAGER, else $PAGER, else less -FRX).
            """,
        examples: ["kanban log", "kanban log -n 5 --json"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .log(count: try arguments.number(Options.count), pager: !arguments.flag(Options.noPager))
        })

    static let undo = CommandSpec(
        "undo", usage: [.optional([.text("N")])],
        summary: "take back the last N changes (default 1)",
        options: [CommandOption(Options.dryRun, "print what undo would change and write nothing")],
        details: """
            Takes back the last N changes not yet taken back, as one new change. When nothing else
            changed the file since, it gives the file back exactly as it was. When the file changed
            since (another kanban process, a git pull, an editor), undo takes back only what those
            N changes did, as a 3-way merge (like git revert); if that conflicts, it refuses and
            writes nothing. See 'kanban log'.
            """,
        examples: ["kanban undo", "kanban undo 3 --dry-run"],
        build: { arguments throws(CLIError) in
            .undo(count: try arguments.count(), redo: false, dryRun: arguments.flag(Options.dryRun))
        })

    static let redo = CommandSpec(
        "redo", usage: [.optional([.text("N")])],
        summary: "do again the last N changes undo took back (default 1)",
        options: [CommandOption(Options.dryRun, "print what redo would change and write nothing")],
        details: """
            Re-applies what undo took back, most recent first, as one new change; possible until
            another change is made. Like undo, it merges with changes made since and refuses on a
            conflict.
            """,
        examples: ["kanban redo"],
        build: { arguments throws(CLIError) in
            .undo(count: try arguments.count(), redo: true, dryRun: arguments.flag(Options.dryRun))
        })
}

extension App {
    /// `kanban log [-n N]`: the history, newest first. No history yet (a new clone: the
    /// history is not in git) is an empty log; one that cannot be read is an error.
    func log(count: Int?) throws(CLIError) -> CommandOutput {
        let store = try store()
        let (_, history) = try store.loadWithHistory()
        guard history.exists else {
            return CommandOutput(
                options.json ? "[]\n" : "",
                notes: ["no changes recorded yet: kanban records each change to \(q(store.path)) from now on"])
        }
        return CommandOutput(logText(history.loaded, count: count), notes: history.loaded.notes)
    }

    /// The records of `log`, newest first, the last `count` of them if given.
    private func logText(_ loaded: HistoryFile.Loaded, count: Int?) -> String {
        let log = loaded.log
        let undone = log.undone
        var records = Array(log.records.reversed())
        if let count { records = Array(records.prefix(count)) }
        if options.json {
            return records.map {
                Self.json($0, undone: undone.contains($0.number), inFile: !loaded.notInFile.contains($0.number))
            }.json + "\n"
        }
        var out = ""
        for record in records {
            var heading = "#\(record.number)  \(record.time)  \(Escape.visible(record.user))  "
            heading += ShellQuote.commandLine(["kanban"] + record.command)
            switch record.kind {
            case .change: break
            case .undo(let entries): heading += "  (took back \(entries.map { "#\($0)" }.joined(separator: ", ")))"
            case .redo(let entries): heading += "  (did again \(entries.map { "#\($0)" }.joined(separator: ", ")))"
            }
            if undone.contains(record.number) { heading += "  (undone)" }
            if loaded.notInFile.contains(record.number) { heading += "  (not in this file)" }
            out += style.bold(heading) + "\n"
            for line in record.lines { out += "    " + Escape.visible(line) + "\n" }
        }
        return out
    }

    private static func noHistory(_ path: String) -> String {
        "\(q(path)) has no history yet: kanban records each change from now on; see 'kanban help log'"
    }

    private static func json(_ record: HistoryRecord, undone: Bool, inFile: Bool) -> JSONObject {
        JSONObject { object in
            object.add("number", record.number)
            object.add("time", record.time.description)
            object.add("user", record.user)
            object.add("command", record.command)
            switch record.kind {
            case .change:
                object.add("kind", "change")
                object.add("of", [Int]())
            case .undo(let entries):
                object.add("kind", "undo")
                object.add("of", entries)
            case .redo(let entries):
                object.add("kind", "redo")
                object.add("of", entries)
            }
            object.add("undone", undone)
            object.add("inFile", inFile)
            object.add("lines", record.lines)
        }
    }

    /// What `undo` or `redo` did: the entries it took back or did again, the change it made,
    /// and the kanban after it.
    struct Undone {
        var taken: [HistoryRecord]
        var change: Change
        var kanban: Kanban
        /// The store's notes (what the change dropped from a damaged history).
        var notes: [String] = []

        /// `took back #3: kanban move …` (or `did again`, `would take back`, `would do again`).
        func headline(_ record: HistoryRecord, redo: Bool, dryRun: Bool) -> String {
            let verb = dryRun ? "would \(redo ? "do again" : "take back")" : (redo ? "did again" : "took back")
            return "\(verb) #\(record.number): \(ShellQuote.commandLine(["kanban"] + record.command))"
        }
    }

    /// `kanban undo [N]` and `kanban redo [N]`: one new change that takes back (or does
    /// again) the last N changes, exactly when nothing else changed the file since.
    func undo(count: Int, redo: Bool, dryRun: Bool) throws(CLIError) -> CommandOutput {
        let store = try store()
        let undone = try self.undone(count: count, redo: redo, dryRun: dryRun, in: store)
        return CommandOutput(undoText(undone, redo: redo, dryRun: dryRun, file: store.path), notes: undone.notes)
    }

    /// What `undo` or `redo` prints on stdout.
    private func undoText(_ undone: Undone, redo: Bool, dryRun: Bool, file: String) -> String {
        let name = redo ? "redo" : "undo"
        let (taken, change) = (undone.taken, undone.change)
        if options.quiet { return "" }
        let report = Report(command: name, change: change, dryRun: dryRun, file: file)
        if options.json {
            return JSONObject { object in
                object.add("command", name)
                object.add("file", file)
                object.add("dryRun", dryRun)
                object.add("changed", change.isEffective)
                object.add("entries", taken.map(\.number))
                object.merge(report.changesJSON)
            }.line
        }
        if taken.isEmpty { return "nothing to \(name)\n" }
        return taken.map { undone.headline($0, redo: redo, dryRun: dryRun) + "\n" }.joined()
            + report.text(style: style).split(separator: "\n").map { "    \($0)\n" }.joined()
    }

    /// Takes back (or does again) the last `count` changes in one transaction of `store`.
    func undone(count: Int, redo: Bool, dryRun: Bool, in store: Store) throws(CLIError) -> Undone {
        let name = redo ? "redo" : "undo"
        var taken: [HistoryRecord] = []
        var after = Kanban.empty
        let outcome = try store.update(dryRun: dryRun, recording: recording(name), readingHistory: true) {
            (kanban: inout Kanban, history: TransactionHistory) throws(CLIError) in
            guard history.exists else { throw .historyUnavailable(Self.noHistory(store.path)) }
            let log = try history.log()
            let entries = Array((redo ? log.redoable : log.undoable).suffix(count).reversed())
            var result = kanban
            for entry in entries {
                guard let record = try history.record(entry) else {
                    if let line = history.firstDamagedLine {
                        throw .corruptFile(
                            path: history.file.path, line: line,
                            message: "entry #\(entry) did not read (the history is damaged; 'kanban log' shows what "
                                + "reads), so it cannot be \(redo ? "done again" : "taken back"); nothing was written")
                    }
                    throw .refused(.conflict("entry #\(entry) is no longer in the history; nothing was written"))
                }
                let command = ShellQuote.commandLine(["kanban"] + record.command)
                do throws(KanbanError) {
                    let next = redo ? try result.reapplying(record.patch) : try result.reverting(record.patch)
                    // Taking back a change the file does not have (made on another git branch, or
                    // taken back by a checkout or a reset) would change nothing: say so instead.
                    guard next != result else {
                        let why =
                            redo
                            ? "what it changed is in this file already (done again by a checkout, a merge or an editor)"
                            : "its change is not in this file (made on another git branch, or taken back by a "
                                + "checkout or a reset)"
                        throw KanbanError.conflict(why)
                    }
                    result = next
                } catch .conflict(let message) {
                    throw .refused(.conflict("cannot \(name) #\(entry) (\(command)): \(message); nothing was written"))
                } catch {
                    // Applied, the record would break the kanban: the history is damaged there.
                    throw .corruptFile(
                        path: history.file.path, line: history.line(of: entry),
                        message: "entry #\(entry) (\(command)) does not fit the file: \(error.message); "
                            + "it cannot be \(redo ? "done again" : "taken back"), and nothing was written")
                }
                taken.append(record)
            }
            // What undo did, card by card, as `kanban diff` would say it.
            let change = Kanban.diff(from: kanban, to: result)
            kanban = result
            after = result
            return TransactionOutcome(change: change, kind: redo ? .redo(entries) : .undo(entries))
        }
        return Undone(taken: taken, change: outcome.change, kanban: after, notes: outcome.notes)
    }
}

// MARK: - As parsed

/// `kanban log [-n N]`: the file's history, newest first.
struct LogCommand: ParsedCommand {
    var count: Int?
    var pager: Bool

    func run(in app: App) throws(CLIError) -> CommandOutput {
        app.page(try app.log(count: count), if: pager)
    }
}

/// `kanban undo [N]` (or `redo [N]` when `redo`): take back or do again the last N changes.
struct UndoCommand: ParsedCommand {
    var count: Int
    var redo: Bool
    var dryRun: Bool

    var changesFile: Bool { !dryRun }

    func run(in app: App) throws(CLIError) -> CommandOutput {
        try app.undo(count: count, redo: redo, dryRun: dryRun)
    }
}

extension Command {
    static func log(count: Int?, pager: Bool = true) -> Command {
        Command(LogCommand(count: count, pager: pager))
    }

    static func undo(count: Int, redo: Bool, dryRun: Bool) -> Command {
        Command(UndoCommand(count: count, redo: redo, dryRun: dryRun))
    }
}
