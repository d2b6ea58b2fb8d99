import KanbanCore

extension Commands {
    static let list = CommandSpec(
        "list", aliases: ["ls"],
        usage: [
            .optional([.boards]), .optional([.options("FILTERS")]),
            .optional([.oneOf([[.option(Options.json)], [.option(Options.tsv)]])]),
        ],
        summary: "show boards",
        options: [
            CommandOption(
                Options.tsv, "print one line per card: board, index, id, title, labels, due, conflicts, assignees"),
            CommandOption(Options.compact, "one line per card, titles cut with …"),
            CommandOption(Options.noPager, "never page the view, however tall"),
            CommandOption(Options.label, "only cards with this label (repeat: all of them)"),
            CommandOption(Options.assignee, "only cards assigned to NAME (repeat: any of them)"),
            CommandOption(
                Options.mine, "only cards assigned to you ($KANBAN_USER, else git's user.name here, else $USER)"),
            CommandOption(Options.grep, "only cards whose title or note contains TEXT, ignoring case"),
            CommandOption(Options.dueBefore, "only cards due before DATE (YYYY-MM-DD, today, tomorrow, +Nd, +Nw)"),
            CommandOption(Options.overdue, "only cards due before today"),
            CommandOption(Options.olderThan, "only cards that entered their board more than AGE ago (12h, 3d, 2w)"),
            CommandOption(Options.archived, "list the archive instead of the boards"),
            CommandOption(Options.conflicts, "only cards with a conflict a merge recorded (see 'kanban help resolve')"),
        ],
        details: """
            On a terminal the boards stand side by side, fitted to its width; elsewhere they are
            stacked. Each card shows its index and id, its labels, assignees and due date. With BOARD
            arguments, only those boards. Filters combine (all must hold) and keep every board
            heading and every card's index on its board. A view taller than the terminal goes
            through a pager ($KANBAN_PAGER, else $PAGER, else less -FRX). A card or board with a
            conflict a merge recorded shows '!' before its title.
            --json prints the kanban document (filtered); --tsv one line per card.
            """,
        examples: [
            "kanban list", "kanban list Todo Done", "kanban list --label bug --overdue",
            "kanban list --json | jq '.boards[0].items[0].title'", "kanban list --tsv | cut -f1,4",
        ],
        build: { arguments throws(CLIError) in
            if arguments.flag(Options.tsv) && arguments.flag(Options.json) {
                throw arguments.usage("choose one of --json and --tsv")
            }
            var request = ListRequest(boards: arguments.operands)
            request.format =
                arguments.flag(Options.json) ? .json : arguments.flag(Options.tsv) ? .tsv : .text
            request.compact = arguments.flag(Options.compact)
            request.pager = !arguments.flag(Options.noPager)
            request.filter = CardFilter(
                labels: try arguments.labels(Options.label).names, assignees: arguments.names(Options.assignee),
                grep: arguments.value(Options.grep),
                dueBefore: try arguments.due(Options.dueBefore),
                overdue: arguments.flag(Options.overdue),
                olderThan: try arguments.age(),
                archived: arguments.flag(Options.archived), conflicts: arguments.flag(Options.conflicts))
            request.mine = arguments.flag(Options.mine)
            return .list(request)
        })
}

extension App {
    /// `kanban` alone: the board when there is a kanban file, else the help summary.
    func overview() throws(CLIError) -> CommandOutput {
        do {
            return try list(ListRequest())
        } catch .noFile {
            return CommandOutput(Help.overview())
        }
    }

    /// `kanban list [BOARD…] [FILTERS] [--json | --tsv] [--compact] [--no-pager]`
    func list(_ request: ListRequest) throws(CLIError) -> CommandOutput {
        let store = try store()
        var request = request
        if request.mine { request.filter.assignees.append(try user(near: store.path)) }
        // The whole kanban as JSON is the file's layout: its cards are deferred, and written
        // by copying their lines (README: Performance).
        let copiesLines = request.format == .json && request.filter.selectsAll && !request.filter.archived
        let kanban = try keepingBoards(request.boards, of: try store.load(deferringCards: copiesLines))
        if request.filter.archived {
            let cards = kanban.filteredArchive(request.filter, clock: clock)
            switch request.format {
            case .json:
                return CommandOutput(document: kanban.keeping(request.filter, clock: clock).archiveOnly)
            case .tsv:
                return CommandOutput(TSV.archive(cards, of: kanban))
            case .text:
                return page(CommandOutput(ArchiveView.render(cards, of: kanban, style: style)), if: request.pager)
            }
        }
        switch request.format {
        case .json:
            return CommandOutput(document: kanban.keeping(request.filter, clock: clock))
        case .tsv:
            return CommandOutput(TSV.boards(kanban.filtered(request.filter, clock: clock)))
        case .text:
            let notes = kanban.boards.isEmpty ? ["there are no boards; add one with 'kanban board add TITLE'"] : []
            let filtered = !request.filter.selectsAll
            let boards = kanban.filtered(request.filter, clock: clock).map {
                BoardText($0, today: clock.today, filtered: filtered)
            }
            let terminal = Terminal.detect(color: options.color)
            let text = BoardView.render(boards, on: terminal, compact: request.compact)
            return page(CommandOutput(text, notes: notes), if: request.pager)
        }
    }

    /// The kanban with only the boards `names` names (`list Todo Done`, `export Todo`), in
    /// that order; all of them when there are none.
    func keepingBoards(_ names: [String], of kanban: Kanban) throws(CLIError) -> Kanban {
        guard !names.isEmpty else { return kanban }
        do {
            return kanban.keepingBoards(
                at: try names.map { name throws(KanbanError) in try kanban.boardIndex(named: name) })
        } catch {
            throw .refused(error)
        }
    }

    /// Who `list --mine` means: `$KANBAN_USER`, else git's `user.name` when the kanban file
    /// is in a git work tree, else `$USER` (a leading `@` dropped).
    func user(near file: String) throws(CLIError) -> String {
        var name = POSIX.environment("KANBAN_USER").flatMap { $0.isEmpty ? nil : $0 }
        if name == nil {
            // The kanban file's directory (`/` for a file at the root).
            let directory = file.lastIndex(of: "/").map { String(file[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
            if let inside = try? Git.run(["rev-parse", "--is-inside-work-tree"], in: directory),
                inside.succeeded, inside.output == "true",
                let configured = try? Git.run(["config", "user.name"], in: directory),
                configured.succeeded, !configured.output.isEmpty
            {
                name = configured.output
            }
        }
        if name == nil { name = POSIX.environment("USER").flatMap { $0.isEmpty ? nil : $0 } }
        guard let name else {
            throw .usage("--mine needs to know who you are: set KANBAN_USER (or USER)", command: "list")
        }
        return name.hasPrefix("@") ? String(name.dropFirst()) : name
    }

    /// Text output (`list`, `show`, `log`) through the pager when it is taller than the
    /// terminal and paging is `enabled` (no `--no-pager`); what is left to print. JSON is
    /// never paged: it is for programs.
    ///
    /// The pager talks to the terminal: the notes are printed before it starts, as they
    /// would be before the output.
    func page(_ output: CommandOutput, if enabled: Bool) -> CommandOutput {
        guard enabled, !options.json else { return output }
        let terminal = Terminal.detect(color: options.color)
        let lines = output.stdout.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        guard Pager.isNeeded(lines: lines, on: terminal), let pager = Pager.configured() else {
            return output
        }
        printOnStderr(output.notes)
        var left = output
        left.notes = []
        switch pager.show(output.stdout) {
        case .shown:
            left.stdout = []
        case .notStarted(let reason):
            // The default pager missing is no news; one the user chose is.
            if let reason, pager.command != Pager.fallback { left.notes = [reason + "; printing directly"] }
        }
        return left
    }

    /// Styles for text output, on if color is.
    var style: Style {
        Style(enabled: Terminal.detect(color: options.color).color)
    }
}

// MARK: - As parsed

/// `kanban` alone: the board if there is a kanban file, else the help summary.
struct OverviewCommand: ParsedCommand {
    func run(in app: App) throws(CLIError) -> CommandOutput { try app.overview() }
}

/// `kanban list`: which boards, which cards, in which form.
struct ListRequest: Equatable, Sendable {
    var boards: [String] = []
    var format = ListFormat.text
    var filter = CardFilter()
    var compact = false
    var pager = true
    /// `--mine`: the user's cards too, the user known when the command runs.
    var mine = false
}

enum ListFormat: Equatable, Sendable {
    case text, json, tsv
}

extension ListRequest: ParsedCommand {
    func run(in app: App) throws(CLIError) -> CommandOutput { try app.list(self) }
}

extension Command {
    static let overview = Command(OverviewCommand())
    static func list(_ request: ListRequest) -> Command { Command(request) }
}
