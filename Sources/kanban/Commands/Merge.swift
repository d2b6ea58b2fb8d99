import Glibc
import KanbanCore

extension Commands {
    static let merge = CommandSpec(
        "merge",
        usage: [
            .oneOf([
                [.path("BASE"), .path("OURS"), .path("THEIRS"), .optional(Options.output, short: true)],
                [.option(Options.gitDriver), .path("BASE"), .path("OURS"), .path("THEIRS"), .path("PATH")],
            ])
        ],
        summary: "merge two versions of a kanban file card by card, from their common base",
        options: [
            CommandOption(
                Options.output, "write the merged kanban to FILE (atomically) instead of standard output"),
            CommandOption(
                Options.gitDriver,
                "be git's merge driver (%O %A %B %P): write the result over OURS; PATH names the file"),
        ],
        details: """
            Combines what OURS and THEIRS each changed since BASE: cards added, removed, moved,
            edited; boards added, removed, renamed, moved, re-limited. A card moved on both sides
            goes where the later move put it; labels merge as sets. A title, note, due date, or a
            board's title or limit changed on both sides to different values is a conflict: the
            result keeps ours, and standard error names each with both values and the command
            that takes theirs. Exit 0: merged; 1: merged with conflicts (the result is a valid
            kanban); 65: an input is not a readable kanban (nothing is written). 'kanban git
            setup' registers the --git form with git.
            """,
        examples: [
            "kanban merge base.json ours.json theirs.json -o kanban.json",
            "kanban merge --git %O %A %B %P",
        ],
        build: { arguments throws(CLIError) in
            let git = arguments.flag(Options.gitDriver)
            let operands = arguments.operands
            if git {
                guard operands.count == 4 else {
                    throw arguments.usage("'merge --git' takes BASE OURS THEIRS PATH, as git's %O %A %B %P")
                }
                if arguments.value(Options.output) != nil {
                    throw arguments.usage("'merge --git' writes over OURS; it takes no -o")
                }
            } else {
                try arguments.operandCount(3...3)
            }
            return .merge(
                MergeRequest(
                    base: operands[0], ours: operands[1], theirs: operands[2],
                    output: arguments.value(Options.output), gitPath: git ? operands[3] : nil))
        })
}

/// `kanban merge BASE OURS THEIRS [-o OUT]` or `kanban merge --git BASE OURS THEIRS PATH` as typed.
struct MergeRequest: Equatable, Sendable {
    var base: String
    var ours: String
    var theirs: String
    /// Where the result goes (`-o`); `nil`: standard output, or OURS with `--git`.
    var output: String?
    /// With `--git`: the file's path in the repository (git's `%P`), for messages.
    var gitPath: String?
}

extension App {
    /// `kanban merge`: the 3-way merge of SPEC §8, with git's merge-driver contract for
    /// `--git`: the result goes over OURS; exit 0 when clean, 1 with conflicts left (the
    /// file valid), 65 when an input is not a readable kanban (OURS untouched). Every
    /// failure exits below 128, which git would take for a crashed driver.
    func merge(_ request: MergeRequest) throws(CLIError) -> CommandOutput {
        let destination = request.gitPath == nil ? request.output : request.ours
        if options.json && destination == nil {
            throw .usage("'merge --json' needs -o FILE: standard output carries the merged kanban", command: "merge")
        }
        // The three versions' cards keep their lines and are deferred: a card the same in two
        // versions is found so by comparing its lines' bytes, only the cards that changed are
        // read field by field, and the merged cards are written by copying their lines.
        // Most lines of ours and theirs are the base's, byte for byte: such a line is taken as
        // the base's card, checked once (README: Performance).
        let base = try mergeInput(request.base, allowingEmpty: true, keepingLines: true)
        let lines = base.format == .current ? base.kanban : nil
        let result = try Self.merged(
            base: base, ours: try mergeInput(request.ours, keepingLines: true, linesLike: lines),
            theirs: try mergeInput(request.theirs, keepingLines: true, linesLike: lines))
        if let destination {
            try store(at: destination).write(result.kanban, locking: request.gitPath == nil)
        }
        let exit = result.conflicts.isEmpty ? ExitCode.success : .refused
        if options.json {
            return CommandOutput(MergeReport.json(result, file: destination ?? ""), exit: exit)
        }
        var output =
            destination == nil ? CommandOutput(document: result.kanban, exit: exit) : CommandOutput([], exit: exit)
        output.addNotesAndConflicts(of: result, file: request.gitPath ?? request.output, gitPath: request.gitPath)
        return output
    }

    /// The merge of three versions, checked to be a valid kanban.
    static func merged(
        base: (kanban: Kanban, format: KanbanFile.Format), ours: (kanban: Kanban, format: KanbanFile.Format),
        theirs: (kanban: Kanban, format: KanbanFile.Format)
    ) throws(CLIError) -> MergeResult {
        let result = Kanban.merge(
            base: base.kanban, ours: ours.kanban, theirs: theirs.kanban,
            formats: MergeFormats(base: base.format, ours: ours.format, theirs: theirs.format))
        do {
            try result.kanban.validate()
        } catch {
            throw .badInput(
                "the merge gave an invalid kanban (\(error.message)); this is a bug in kanban; nothing was written")
        }
        return result
    }

    /// One of the three versions; any failure to read it is exit 65, as git's merge
    /// driver contract has it ("not a readable kanban").
    private func mergeInput(
        _ path: String, allowingEmpty: Bool = false, keepingLines: Bool = false, linesLike other: Kanban? = nil
    ) throws(CLIError) -> (kanban: Kanban, format: KanbanFile.Format) {
        do {
            return try Store(path: path).loadDocument(
                allowingEmpty: allowingEmpty, keepingLines: keepingLines, linesLike: other)
        } catch {
            if error.status.exit == .dataError { throw error }
            throw .badInput("\(error.message); nothing was merged")
        }
    }
}

extension CommandOutput {
    /// Adds a merge's notes, and its conflicts as lines for stderr; with `gitPath`, how to
    /// mark the path resolved.
    mutating func addNotesAndConflicts(of result: MergeResult, file: String?, gitPath: String?) {
        notes += result.notes.map(MergeReport.describe)
        if !result.conflicts.isEmpty {
            var text = result.conflicts.map { "kanban: conflict: \(MergeReport.describe($0, file: file))\n" }.joined()
            let count = result.conflicts.count
            text += "kanban: \(count) conflict\(count == 1 ? "" : "s") in \(file.map(q) ?? "the merge"): "
            text +=
                "the merged kanban is valid, keeps ours for each and records theirs in the file; the commands above take theirs"
            if let gitPath {
                text += "; then mark it resolved: git add \(ShellQuote.word(gitPath))"
            }
            stderr += text + "\n"
        }
    }
}

/// What a merge says about its conflicts and notes, for people and for programs.
enum MergeReport {
    /// `'Title' (k3f9p2): the title changed on both sides: ours 'A', theirs 'B'; kept ours;
    /// to take theirs: kanban resolve k3f9p2 --theirs`. `file` is named in the command with
    /// `-f` unless it is the `kanban.json` kanban finds by itself.
    static func describe(_ conflict: MergeConflict, file: String?) -> String {
        let what: String
        switch conflict.subject {
        case .card(let id, let title, let archived): what = "\(q(title)) (\(id)\(archived ? ", archived" : ""))"
        case .board(let id, let title): what = "board \(q(title)) (\(id))"
        }
        let values: String
        switch conflict.values {
        case .field(let field, let ours, let theirs):
            // A text is quoted; a date or a number is as it is.
            func shown(_ value: FieldValue) -> String {
                switch value {
                case .line(let text?), .text(let text?): q(text)
                case .role(nil): "default"  // as `board role` takes it
                default: value.plain ?? "none"
                }
            }
            let noun = conflict.subject.noun(of: field)
            values = "\(noun) changed on both sides: ours \(shown(ours)), theirs \(shown(theirs))"
        case .boardTitleTaken(let wanted, let given):
            return
                "\(what): two boards were given the title \(q(wanted)); this one is now \(q(given)); "
                + "to retitle it: \(command(conflict, file: file) ?? "")"
        }
        return "\(what): \(values); kept ours; to take theirs: \(command(conflict, file: file) ?? "")"
    }

    /// The command that takes theirs, `kanban resolve ID --theirs` (the conflict is
    /// recorded in the file; README: Working together), or for a retitled board the one
    /// that renames it.
    static func command(_ conflict: MergeConflict, file: String?) -> String? {
        let kanban = ["kanban"] + (file.map { $0 == "kanban.json" ? [] : ["-f", $0] } ?? [])
        switch (conflict.subject, conflict.values) {
        case (.board(let id, _), .boardTitleTaken):
            return ShellQuote.commandLine(kanban + ["board", "rename", id.rawValue]) + " 'NEW TITLE'"
        case (.card(let id, _, _), _), (.board(let id, _), _):
            let resolve = Operation.resolve(reference: id.rawValue, side: .theirs)
            return ShellQuote.commandLine(kanban + resolve.commandLine)
        }
    }

    /// A note, without the `kanban: note: ` prefix.
    static func describe(_ note: MergeNote) -> String {
        switch note {
        case .movedOnBothSides(let id, let title, let kept, let ours, let theirs):
            let place = { (board: String?) in board.map { "to \(q($0))" } ?? "to the archive" }
            let why = kept == .theirs ? "theirs' move was the later" : "ours' move was not the earlier"
            return
                "\(q(title)) (\(id)) was moved on both sides (ours \(place(ours)), theirs \(place(theirs))); "
                + "it went where \(kept.rawValue) put it: \(why)"
        case .keptChangedCard(let id, let title, let removedBy):
            return
                "\(q(title)) (\(id)) was removed on \(removedBy.rawValue) and changed on the other side; it is kept, changed"
        case .keptBoard(let id, let title, let removedBy):
            return
                "board \(q(title)) (\(id)) was removed on \(removedBy.rawValue) and changed or given cards on the other "
                + "side; it is kept"
        case .boardMovedOnBothSides(let id, let title):
            return "board \(q(title)) (\(id)) was moved on both sides; it is where ours put it"
        case .joinedBoards(let title, let id, let theirs):
            return "board \(q(title)) was added on both sides; the two are one board, \(id) (theirs was \(theirs))"
        case .overLimit(let board, let count, let limit):
            return "\(q(board)) holds \(count) cards after the merge, over its limit of \(limit)"
        case .newID(let title, let was, let now, let isBoard):
            return
                "\(isBoard ? "board " : "")\(q(title)) had the id \(was), which the other side used for something "
                + "else; it is now \(now)"
        }
    }

    /// `{"command": "merge", "file": …, "conflicts": [{"card" or "board", "title", "field",
    /// "ours", "theirs", "command"}], "notes": ["…"]}` on one line.
    static func json(_ result: MergeResult, file: String) -> String {
        let conflicts = result.conflicts.map { conflict in
            let (id, title, board): (ItemID, String, Bool) =
                switch conflict.subject {
                case .card(let id, let title, _): (id, title, false)
                case .board(let id, let title): (id, title, true)
                }
            let (field, ours, theirs): (String, String?, String?) =
                switch conflict.values {
                case .field(let field, let ours, let theirs): (field.rawValue, ours.plain, theirs.plain)
                case .boardTitleTaken(let wanted, let given): ("title", given, wanted)
                }
            return JSONObject { object in
                object.add(board ? "board" : "card", id.rawValue)
                object.add("title", title)
                object.add("field", field)
                object.add("ours", ours)
                object.add("theirs", theirs)
                object.add("command", command(conflict, file: file))
            }
        }
        return JSONObject { object in
            object.add("command", "merge")
            object.add("file", file)
            object.add("conflicts", conflicts)
            object.add("notes", result.notes.map(describe))
        }.line
    }
}

// MARK: - As parsed

extension MergeRequest: ParsedCommand {
    /// `-o FILE` and the driver write; to standard output, nothing is.
    var changesFile: Bool { output != nil || gitPath != nil }
    /// The result is not the kanban file of this clone's work tree.
    var mayNoteMergeDriver: Bool { false }

    func run(in app: App) throws(CLIError) -> CommandOutput { try app.merge(self) }
}

extension Command {
    static func merge(_ request: MergeRequest) -> Command { Command(request) }
}
