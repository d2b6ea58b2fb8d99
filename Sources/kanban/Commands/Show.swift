import KanbanCore

extension Commands {
    static let show = CommandSpec(
        "show", usage: [.items], summary: "show cards in full",
        options: [CommandOption(Options.noPager, "never page the cards, however tall")],
        details: """
            Shows each card in full: title, id, board and index (or the board it was archived
            from), labels, due date, when it was created and entered its board, and its note.
            Archived cards are found too. Cards taller than the terminal go through a pager
            ($KANBAN_PAGER, else $PAGER, else less -FRX). --json prints an array of cards as in
            the file, each with its board and index (archived: board and archived).
            """,
        examples: ["kanban show k3f9p2", "kanban show Todo:0 --json"],
        build: { arguments throws(CLIError) in
            .show(items: try arguments.items(), pager: !arguments.flag(Options.noPager))
        })
}

extension App {
    /// `kanban show ITEM…`: each card in full.
    func show(_ references: [String]) throws(CLIError) -> String {
        // A few cards are shown: the others stay deferred in their lines (README: Performance).
        let kanban = try store().load(deferringCards: true)
        let places: [CardPlace]
        do {
            places = try kanban.locateAnywhere(references)
        } catch {
            throw .refused(error)
        }
        if options.json {
            return "[" + places.map { CardDetail.json(kanban, $0) }.joined(separator: ",") + "]\n"
        }
        return places.map { CardDetail.text(kanban, $0, clock: clock, style: style) }.joined(separator: "\n")
    }
}

/// One card in full, for `show`.
enum CardDetail {
    /// The card as in the file, with `board` (its title) and `index`, or for an archived card
    /// `board` (the title of the board it left, or that board's id if it is gone) and `archived`.
    static func json(_ kanban: Kanban, _ place: CardPlace) -> String {
        let item: Item
        var whereabouts = JSONObject()
        switch place {
        case .board(let location):
            item = kanban[location]
            whereabouts.add("board", kanban.boards[location.board].title)
            whereabouts.add("index", location.index)
        case .archive(let index):
            let archived = kanban.archive[index]
            item = archived.item
            whereabouts.add("board", kanban.boardName(archived.board))
            whereabouts.add("archived", archived.archived.description)
        }
        // The card as the file writes it, its place added as members after its own.
        return JSONObject(written: String(decoding: KanbanFile.encode(item), as: UTF8.self), adding: whereabouts).json
    }

    static func text(_ kanban: Kanban, _ place: CardPlace, clock: Moment, style: Style) -> String {
        let item: Item
        let whereText: String
        switch place {
        case .board(let location):
            item = kanban[location]
            whereText = "\(Escape.visible(kanban.boards[location.board].title)):\(location.index)"
        case .archive(let index):
            let archived = kanban.archive[index]
            item = archived.item
            whereText =
                "archived from \(Escape.visible(kanban.boardName(archived.board))) "
                + "\(ago(archived.archived, clock))"
        }
        var rows: [(String, String)] = [("id", item.id.rawValue), ("board", whereText)]
        for field in CardField.signed {
            guard let sign = field.sign, case .words(let words) = field.value(item), !words.isEmpty else { continue }
            rows.append((field.name, words.map { sign + Escape.visible($0) }.joined(separator: " ")))
        }
        if let due = item.due {
            let overdue = item.isOverdue(today: clock.today)
            rows.append(("due", due.description + (overdue ? " " + style.red("(overdue)") : "")))
        }
        if let created = item.created { rows.append(("created", "\(created) (\(ago(created, clock)))")) }
        if let entered = item.entered { rows.append(("entered", "\(entered) (\(ago(entered, clock)))")) }
        for entry in item.conflicts {
            rows.append(("conflict", style.red(conflictText(entry, ours: item.conflictValue(entry.field)))))
        }
        var out = style.bold(BoardText.marked(item.conflicts) + Escape.visible(item.title)) + "\n"
        // Names in a column of 9, or wider when a name needs it (`assignees`).
        let width = rows.reduce(9) { max($0, $1.0.count + 1) }
        for (name, value) in rows {
            out += "  " + style.dim(name + String(repeating: " ", count: width - name.count)) + value + "\n"
        }
        if let note = item.note {
            out += "\n"
            for line in note.split(separator: "\n", omittingEmptySubsequences: false) {
                out += "  " + Escape.visible(String(line)) + "\n"
            }
        }
        return out
    }

    /// `title: base 'A', ours 'B', theirs 'C'; kanban resolve ID [--theirs]`: a recorded
    /// conflict (README: Working together); `none` for a value that was absent.
    static func conflictText(_ entry: RecordedConflict, ours: FieldValue) -> String {
        func text(_ value: FieldValue) -> String {
            switch value {
            case .line(let text?): q(text)
            case .text(let text?): Report.shortNote(text)
            default: value.plain ?? "none"
            }
        }
        return "\(entry.field.rawValue): base \(text(entry.base)), ours \(text(ours)), theirs \(text(entry.theirs))"
    }

    /// `3 days ago`, `in 2 hours`, `just now`.
    static func ago(_ time: Timestamp, _ clock: Moment) -> String {
        let delta = clock.now.seconds - time.seconds
        let seconds = abs(delta)
        let (count, unit): (Int64, String) =
            seconds < 60
            ? (0, "")
            : seconds < 3600
                ? (seconds / 60, "minute") : seconds < 86_400 ? (seconds / 3600, "hour") : (seconds / 86_400, "day")
        if count == 0 { return "just now" }
        let amount = "\(count) \(unit)\(count == 1 ? "" : "s")"
        return delta >= 0 ? amount + " ago" : "in " + amount
    }
}

// MARK: - As parsed

/// `kanban show ITEM…`.
struct ShowCommand: ParsedCommand {
    var items: [String]
    var pager: Bool

    func run(in app: App) throws(CLIError) -> CommandOutput {
        app.page(CommandOutput(try app.show(items)), if: pager)
    }
}

extension Command {
    static func show(items: [String], pager: Bool = true) -> Command {
        Command(ShowCommand(items: items, pager: pager))
    }
}
