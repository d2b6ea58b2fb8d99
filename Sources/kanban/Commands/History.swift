import KanbanCore

extension App {
    /// `kanban log [-n N]`: the history, newest first. No history yet (a new clone: the
    /// history is not in git) is an empty log; one that cannot be read is an error.
    func log(count: Int?) throws(CLIError) -> String {
        let store = try store()
        let (_, history) = try store.loadWithHistory()
        guard history.exists else {
            note("no changes recorded yet: kanban records each change to \(q(store.path)) from now on")
            return options.json ? "[]\n" : ""
        }
        for text in history.loaded.notes { note(text) }
        let log = history.loaded.log
        let undone = log.undone
        var records = Array(log.records.reversed())
        if let count { records = Array(records.prefix(count)) }
        if options.json {
            return "["
                + records.map {
                    Self.json(
                        $0, undone: undone.contains($0.number), inFile: !history.loaded.notInFile.contains($0.number))
                }.joined(separator: ",") + "]\n"
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
            if history.loaded.notInFile.contains(record.number) { heading += "  (not in this file)" }
            out += style.bold(heading) + "\n"
            for line in record.lines { out += "    " + Escape.visible(line) + "\n" }
        }
        return out
    }

    private static func noHistory(_ path: String) -> String {
        "\(q(path)) has no history yet: kanban records each change from now on; see 'kanban help log'"
    }

    private static func json(_ record: HistoryRecord, undone: Bool, inFile: Bool) -> String {
        var out = "{\"number\":\(record.number),\"time\":\(JSON.quoted(record.time.description))"
        out += ",\"user\":\(JSON.quoted(record.user)),\"command\":["
        out += record.command.map(JSON.quoted).joined(separator: ",") + "]"
        switch record.kind {
        case .change: out += ",\"kind\":\"change\",\"of\":[]"
        case .undo(let entries): out += ",\"kind\":\"undo\",\"of\":[\(entries.map(String.init).joined(separator: ","))]"
        case .redo(let entries): out += ",\"kind\":\"redo\",\"of\":[\(entries.map(String.init).joined(separator: ","))]"
        }
        out += ",\"undone\":\(undone),\"inFile\":\(inFile),\"lines\":[" + record.lines.map(JSON.quoted).joined(separator: ",") + "]}"
        return out
    }

    /// `kanban undo [N]` and `kanban redo [N]`: one new change that takes back (or does
    /// again) the last N changes, exactly when nothing else changed the file since.
    func undo(count: Int, redo: Bool, dryRun: Bool) throws(CLIError) -> String {
        let name = redo ? "redo" : "undo"
        let store = try store()
        var taken: [HistoryRecord] = []
        let change = try store.update(dryRun: dryRun, recording: recording(name)) {
            (kanban: inout Kanban, transaction: inout Transaction) throws(CLIError) in
            guard transaction.history.exists else { throw .historyUnavailable(Self.noHistory(store.path)) }
            let log = try transaction.log()
            let entries = Array((redo ? log.redoable : log.undoable).suffix(count).reversed())
            var result = kanban
            for entry in entries {
                guard let record = try transaction.record(entry) else {
                    if let line = transaction.firstDamagedLine {
                        throw .corruptFile(
                            path: transaction.history.path, line: line,
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
                        path: transaction.history.path, line: transaction.line(of: entry),
                        message: "entry #\(entry) (\(command)) does not fit the file: \(error.message); "
                            + "it cannot be \(redo ? "done again" : "taken back"), and nothing was written")
                }
                taken.append(record)
            }
            transaction.kind = redo ? .redo(entries) : .undo(entries)
            // What undo did, card by card, as `kanban diff` would say it.
            let change = Kanban.diff(from: kanban, to: result)
            kanban = result
            return change
        }
        if options.quiet { return "" }
        let report = Report(command: name, change: change, dryRun: dryRun, file: store.path)
        if options.json {
            let entries = taken.map { String($0.number) }.joined(separator: ",")
            return "{\"command\":\(JSON.quoted(name)),\"file\":\(JSON.quoted(store.path)),\"dryRun\":\(dryRun)"
                + ",\"changed\":\(change.isEffective),\"entries\":[\(entries)],\(report.changesJSON)}\n"
        }
        if taken.isEmpty { return "nothing to \(name)\n" }
        let verb = dryRun ? "would \(redo ? "do again" : "take back")" : (redo ? "did again" : "took back")
        return taken.map { record in
            "\(verb) #\(record.number): \(ShellQuote.commandLine(["kanban"] + record.command))\n"
        }.joined() + report.text(style: style).split(separator: "\n").map { "    \($0)\n" }.joined()
    }
}
