import KanbanCore

/// A command: its name, usage, options (with what each means for it), manual text, and
/// how its arguments become a ``Command``. Parsing, help, suggestions and shell completion
/// all read this one table.
struct CommandSpec: Sendable {
    /// `move`, or `board add` for a board subcommand.
    let name: String
    let aliases: [String]
    /// Its operands, and the options its usage line shows.
    let usage: [Usage]
    let summary: String
    /// The options it takes besides the global ones.
    let options: [CommandOption]
    let details: String
    let examples: [String]
    /// Builds the command from its parsed arguments.
    let build: @Sendable (Arguments) throws(CLIError) -> Command

    init(
        _ name: String, aliases: [String] = [], usage: [Usage], summary: String, options: [CommandOption] = [],
        details: String, examples: [String] = [], build: @escaping @Sendable (Arguments) throws(CLIError) -> Command
    ) {
        self.name = name
        self.aliases = aliases
        self.usage = usage
        self.summary = summary
        self.options = options
        self.details = details
        self.examples = examples
        self.build = build
    }

    /// What follows the name in the usage line, made from ``usage``.
    var synopsis: String { Usage.synopsis(usage) }

    /// Whether the command changes the kanban file (it takes `--dry-run`).
    var isMutating: Bool { options.contains { $0.spec == Options.dryRun } }
}

enum Commands {
    /// `--dry-run`, as every mutating command describes it.
    private static let dryRun = CommandOption(Options.dryRun, "print what would change and write nothing")

    /// The position options, described for cards arriving in a board.
    private static func positions(_ what: String) -> [CommandOption] {
        [
            CommandOption(
                Options.at,
                "0-based index of the first \(what) card in the board"
                    + (what == "new" ? "" : ", counted after the \(what) cards are taken out")
                    + "; negative counts from the end (-1: the bottom)"),
            CommandOption(Options.top, "put the cards at the top of the board"),
            CommandOption(Options.bottom, "put the cards at the bottom of the board (the default)"),
            CommandOption(Options.before, "put the cards just before ITEM, a card of the destination board"),
            CommandOption(Options.after, "put the cards just after ITEM, a card of the destination board"),
        ]
    }

    /// The formats import reads.
    private static let importFormats = ImportFormat.allCases.map(\.rawValue)
    /// `trello, markdown, csv or json`.
    private static let importFormatList =
        importFormats.dropLast().joined(separator: ", ") + " or " + importFormats.last!

    private static let wipForce = CommandOption(
        Options.force, "go past the destination board's WIP limit instead of refusing")

    static let all: [CommandSpec] = [
        CommandSpec(
            "init", usage: [.optional(Options.sample), .optional(Options.boards), .optional([.option(Options.importFile), .optional(Options.format)])],
            summary: "create kanban.json here (Todo, In Progress, Done by default)",
            options: [
                CommandOption(Options.sample, "fill the new kanban with the tutorial's boards and cards"),
                CommandOption(Options.boards, "comma-separated board titles (default: Todo, In Progress, Done)"),
                CommandOption(
                    Options.importFile,
                    "make the kanban of FILE's boards and cards (see 'kanban help import'); - is stdin"),
                CommandOption(
                    Options.format, "FILE's format: \(importFormatList) (default: guessed from its content)",
                    kind: .words(importFormats)),
                dryRun,
            ],
            details: """
                Creates ./kanban.json, or the file named by --file or $KANBAN_FILE, and shows it.
                It never overwrites a file and does not create missing directories.
                With --import, the kanban is made of what kanban import would add from FILE.
                """,
            examples: [
                "kanban init --sample", "kanban init --boards \"Backlog,Doing,Review,Done\"",
                "kanban init --import trello-board.json",
            ],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                if let file = arguments.value(Options.importFile) {
                    if arguments.flag(Options.sample) || arguments.value(Options.boards) != nil {
                        throw arguments.usage(
                            "--import makes the kanban of FILE alone; it does not go with --sample or --boards")
                    }
                    return .initializeImporting(
                        ImportRequest(files: [file], format: try arguments.importFormat()),
                        dryRun: arguments.flag(Options.dryRun))
                }
                if arguments.value(Options.format) != nil { throw arguments.usage("--format goes with --import FILE") }
                if arguments.flag(Options.sample) && arguments.value(Options.boards) != nil {
                    throw arguments.usage("--sample makes the tutorial's boards; it does not go with --boards")
                }
                let boards = arguments.value(Options.boards).map {
                    $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                }
                return .initialize(
                    sample: arguments.flag(Options.sample), boards: boards, dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "list", aliases: ["ls"], usage: [.optional([.boards]), .optional([.options("FILTERS")]), .optional([.oneOf([[.option(Options.json)], [.option(Options.tsv)]])])],
            summary: "show boards",
            options: [
                CommandOption(Options.tsv, "print one line per card: board, index, id, title, labels, due, conflicts"),
                CommandOption(Options.compact, "one line per card, titles cut with …"),
                CommandOption(Options.noPager, "never page the view, however tall"),
                CommandOption(Options.label, "only cards with this label (repeat: all of them)"),
                CommandOption(Options.grep, "only cards whose title or note contains TEXT, ignoring case"),
                CommandOption(Options.dueBefore, "only cards due before DATE (YYYY-MM-DD, today, tomorrow, +Nd, +Nw)"),
                CommandOption(Options.overdue, "only cards due before today"),
                CommandOption(Options.olderThan, "only cards that entered their board more than AGE ago (12h, 3d, 2w)"),
                CommandOption(Options.archived, "list the archive instead of the boards"),
                CommandOption(Options.conflicts, "only cards with a conflict a merge recorded (see 'kanban help resolve')"),
            ],
            details: """
                On a terminal the boards stand side by side, fitted to its width; elsewhere they are
                stacked. Each card shows its index and id, its labels and due date. With BOARD
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
                    labels: try arguments.labels(Options.label).names,
                    grep: arguments.value(Options.grep),
                    dueBefore: try arguments.due(Options.dueBefore),
                    overdue: arguments.flag(Options.overdue),
                    olderThan: try arguments.age(),
                    archived: arguments.flag(Options.archived), conflicts: arguments.flag(Options.conflicts))
                return .list(request)
            }),
        CommandSpec(
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
            }),
        CommandSpec(
            "add", usage: [
                .optional([.repeated(.text("TEXT"))]), .optional(Options.to), .optional([.options("POSITION")]),
                .repeated(.optional(Options.label, value: "L")), .optional(Options.due), .optional(Options.note),
            ],
            summary: "add cards; no TEXT: one card per stdin line",
            options: [CommandOption(Options.to, "the board to add to (default: the first)")] + positions("new")
                + [
                    CommandOption(Options.label, "give every new card this label (repeatable)"),
                    CommandOption(Options.due, "give every new card this due date (YYYY-MM-DD, today, +3d, …)"),
                    CommandOption(Options.note, "give every new card this note"),
                    CommandOption(Options.force, "add even if the board is at its WIP limit"), dryRun,
                ],
            details: """
                Each TEXT is one new card; with no TEXT (or with -), each non-blank line of standard
                input is one. Surrounding whitespace is trimmed. Cards go to the bottom of the first
                board unless --to and a position say otherwise; several land together, in order.
                Invalid UTF-8 or a control character refuses the whole input.
                """,
            examples: [
                "kanban add \"Write docs\" --to Todo --top --label docs --due +3d",
                "git log --oneline | cut -d' ' -f2- | kanban add --to Todo",
            ],
            build: { arguments throws(CLIError) in
                let texts = arguments.operands
                let (to, position, force) = (arguments.value(Options.to), try arguments.position(), arguments.flag(Options.force))
                let labels = try arguments.labels(Options.label)
                let due = try arguments.due(Options.due)
                let note = try arguments.note(Options.note)
                let dryRun = arguments.flag(Options.dryRun)
                if texts.isEmpty || texts.contains("-") {
                    return .change(
                        .addReadingInput(
                            texts: texts, to: to, position: position, labels: labels, due: due, note: note,
                            force: force), dryRun: dryRun)
                }
                let titles = try texts.map { text throws(CLIError) in try arguments.title(text) }
                return .change(
                    .operation(
                        .add(
                            titles: titles, to: to, position: position, labels: labels, due: due, note: note,
                            force: force)), dryRun: dryRun)
            }),
        CommandSpec(
            "move", aliases: ["mv"], usage: Usage.itemsAndDestination,
            summary: "move cards to a board, or reorder them in it",
            options: [
                CommandOption(Options.to, "the destination board (else the last argument is)"),
                CommandOption(Options.from, "look card titles up in this board only"),
            ] + positions("moved") + [wipForce, dryRun],
            details: """
                ITEM is an id, an exact title (searched in --from BOARD if given), BOARD:N, or a
                unique id prefix of 3 characters or more. All references are resolved before
                anything moves, so 'move Todo:0 Todo:1 Done' moves the first two cards. Without
                --to, the last argument is the destination, as with mv(1). Several cards land
                together, in the order given. --at N is the final index of the first moved card,
                counted after the moved cards have been taken out; without a position the cards
                go to the bottom.
                """,
            examples: [
                "kanban move \"Analytics\" --to Done --at 0", "kanban mv k3f9p2 p2x1q7 Review",
                "kanban move Todo:0 --to Todo --bottom",
            ],
            build: { arguments throws(CLIError) in
                let (items, to) = try arguments.itemsAndDestination()
                return .change(
                    .operation(
                        .move(
                            items: items, to: to, from: arguments.value(Options.from),
                            position: try arguments.position(), force: arguments.flag(Options.force))),
                    dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "copy", aliases: ["cp"], usage: Usage.itemsAndDestination,
            summary: "copy cards, with new ids",
            options: [
                CommandOption(Options.to, "the board the copies go to (else the last argument is)"),
                CommandOption(Options.from, "look card titles up in this board only"),
            ] + positions("copied") + [wipForce, dryRun],
            details: """
                Like move, but the originals stay. The copies get new ids and the originals' labels,
                due dates and notes.
                """,
            examples: ["kanban copy k3f9p2 --to Done", "kanban cp \"Schema Design\" Todo --top"],
            build: { arguments throws(CLIError) in
                let (items, to) = try arguments.itemsAndDestination()
                return .change(
                    .operation(
                        .copy(
                            items: items, to: to, from: arguments.value(Options.from),
                            position: try arguments.position(), force: arguments.flag(Options.force))),
                    dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "remove", aliases: ["rm"], usage: [.items],
            summary: "delete cards",
            options: [CommandOption(Options.from, "look card titles up in this board only"), dryRun],
            details: """
                Deletes the cards. New ids are random among 2.2 billion, so a removed id does not come
                back. To put cards away and keep them, use archive.
                """,
            examples: ["kanban remove k3f9p2", "kanban rm Done:0 Done:1"],
            build: { arguments throws(CLIError) in
                .change(
                    .operation(.remove(items: try arguments.items(), from: arguments.value(Options.from))),
                    dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "rename", usage: [.item, .text("NEW_TITLE")],
            summary: "retitle a card",
            options: [CommandOption(Options.from, "look the card's title up in this board only"), dryRun],
            details: "Gives the card a new title; its id and place stay.",
            examples: ["kanban rename k3f9p2 \"Analytics dashboard\""],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                return .change(
                    .operation(
                        .rename(
                            item: arguments.operands[0], title: try arguments.title(arguments.operands[1]),
                            from: arguments.value(Options.from))), dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "edit", usage: [
                .item, .optional(Options.title, value: "T"),
                .optional([
                    .oneOf([[.option(Options.note)], [.option(Options.note, value: "-")], [.option(Options.appendNote)]])
                ]),
                .repeated(.optional(Options.label, value: "L")), .repeated(.optional(Options.unlabel, value: "L")),
                .optional(Options.due),
            ],
            summary: "change a card's title, note, labels or due date",
            options: [
                CommandOption(Options.title, "the new title"),
                CommandOption(Options.note, "the new note (- reads it from standard input; \"\" clears it)"),
                CommandOption(Options.appendNote, "add TEXT as a new line at the end of the note"),
                CommandOption(Options.label, "add this label (repeatable)"),
                CommandOption(Options.unlabel, "take this label away (repeatable)"),
                CommandOption(Options.due, "the new due date (YYYY-MM-DD, today, tomorrow, +Nd, +Nw), or none"),
                CommandOption(Options.from, "look the card's title up in this board only"), dryRun,
            ],
            details: """
                Changes the card in one transaction. With no edit option, on a terminal, it opens
                $VISUAL (else $EDITOR, else vi) on the card as text: the title on the first line,
                then 'labels:' and 'due:' lines, a blank line, and the note. Saving applies the
                changes; an unchanged or empty file changes nothing. If the card changes meanwhile,
                the edit is refused and the edited text is kept in a file whose path is printed.
                """,
            examples: [
                "kanban edit k3f9p2 --label bug --due tomorrow", "git log -1 --format=%B | kanban edit k3f9p2 --note -",
                "kanban edit k3f9p2",
            ],
            build: { arguments throws(CLIError) in
                guard let item = arguments.operands.first else { throw arguments.usage("'edit' needs an ITEM") }
                try arguments.operandCount()
                if arguments.value(Options.note) != nil && arguments.value(Options.appendNote) != nil {
                    throw arguments.usage("choose one of --note and --append-note")
                }
                var edits = EditInput()
                edits.title = try arguments.value(Options.title).map { text throws(CLIError) in try arguments.title(text) }
                edits.addLabels = try arguments.labels(Options.label).names
                edits.removeLabels = arguments.values(Options.unlabel)
                edits.due = try arguments.due(Options.due)
                let from = arguments.value(Options.from)
                let dryRun = arguments.flag(Options.dryRun)
                if let text = arguments.value(Options.appendNote) {
                    edits.note = .append(try arguments.checkedNote(text))
                }
                if let text = arguments.value(Options.note) {
                    if text == "-" { return .change(.editReadingNote(item: item, from: from, edits: edits), dryRun: dryRun) }
                    edits.note = .set(try arguments.checkedNote(text))
                }
                if edits.isEmpty { return .editInEditor(item: item, from: from, dryRun: dryRun) }
                return .change(.operation(.edit(item: item, from: from, edits: edits)), dryRun: dryRun)
            }),
        CommandSpec(
            "archive", usage: [.oneOf([[.items], [.option(Options.from), .optional(Options.olderThan)]])],
            summary: "put cards away in the archive",
            options: [
                CommandOption(
                    Options.from, "with ITEMs: look titles up in this board; alone: archive the board's cards"),
                CommandOption(
                    Options.olderThan, "with --from alone: only cards that entered the board more than AGE ago"),
                dryRun,
            ],
            details: """
                Archived cards leave their boards (freeing WIP room) and keep their ids; only show,
                restore and list --archived find them. A card that has no 'entered' time (one
                from a version-1 file that has not moved since) counts as old.
                """,
            examples: ["kanban archive k3f9p2", "kanban archive --from Done --older-than 2w"],
            build: { arguments throws(CLIError) in
                let dryRun = arguments.flag(Options.dryRun)
                if arguments.operands.isEmpty {
                    guard let board = arguments.value(Options.from) else {
                        throw arguments.usage("'archive' needs ITEMs, or --from BOARD for a whole board")
                    }
                    return .change(.operation(.archiveBoard(board: board, olderThan: try arguments.age())), dryRun: dryRun)
                }
                if arguments.value(Options.olderThan) != nil {
                    throw arguments.usage("--older-than goes with --from BOARD alone, not with ITEMs")
                }
                return .change(
                    .operation(.archive(items: arguments.operands, from: arguments.value(Options.from))), dryRun: dryRun)
            }),
        CommandSpec(
            "restore", usage: [.repeated(.operand("ITEM", [.archivedItem])), .optional(Options.to)],
            summary: "bring archived cards back",
            options: [
                CommandOption(Options.to, "the board to put them on (default: the board each left)"),
                CommandOption(Options.force, "go past the board's WIP limit instead of refusing"), dryRun,
            ],
            details: """
                Puts archived cards back at the bottom of the board they left, or of --to BOARD.
                If that board is gone, --to is required. ITEM is an archived card's id, title or id
                prefix.
                """,
            examples: ["kanban restore k3f9p2", "kanban restore \"Old idea\" --to Todo"],
            build: { arguments throws(CLIError) in
                .change(
                    .operation(
                        .restore(
                            items: try arguments.items(), to: arguments.value(Options.to),
                            force: arguments.flag(Options.force))), dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "resolve", usage: [
                .operand("ITEM|BOARD", [.item, .board]), .optional([.oneOf([[.option(Options.ours)], [.option(Options.theirs)]])]),
                .repeated(.optional(Options.field)),
            ],
            summary: "settle the conflicts a merge recorded on a card or board",
            options: [
                CommandOption(Options.ours, "keep each field's value, ours (the default)"),
                CommandOption(Options.theirs, "set each field to the value theirs had"),
                CommandOption(Options.field, "settle only this field: title, note, due (a card) or title, limit (a board)"),
                dryRun,
            ],
            details: """
                A merge that found a field changed on both sides keeps ours and records base and
                theirs in the file (see 'kanban list --conflicts' and 'kanban show'). resolve drops
                the record, keeping ours or taking theirs. The reference is tried as a card first
                (on a board or in the archive), then as a board. A card or board without a
                recorded conflict is refused (exit 1). Editing the field settles it too.
                """,
            examples: ["kanban resolve k3f9p2 --theirs", "kanban resolve Todo --field limit"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                if arguments.flag(Options.ours) && arguments.flag(Options.theirs) {
                    throw arguments.usage("--ours and --theirs exclude each other; give one")
                }
                var fields: [ConflictField] = []
                for name in arguments.values(Options.field) {
                    guard let field = ConflictField(rawValue: name) else {
                        throw arguments.usage(
                            "unknown field \(q(name)); fields are "
                                + ConflictField.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    if !fields.contains(field) { fields.append(field) }
                }
                return .change(
                    .operation(
                        .resolve(
                            reference: arguments.operands[0], side: arguments.flag(Options.theirs) ? .theirs : .ours,
                            fields: fields)), dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "board add", usage: [.text("TITLE"), .optional(Options.at), .optional(Options.limit)],
            summary: "add a board",
            options: [
                CommandOption(Options.at, "0-based index of the new board among the boards (default: the last)"),
                CommandOption(Options.limit, "a WIP limit: the board refuses cards coming in once it holds N"),
                dryRun,
            ],
            details: "Adds an empty board at index N (0-based), or after the last one.",
            examples: ["kanban board add Review --at 2 --limit 2"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                return .change(
                    .operation(
                        .boardAdd(
                            title: try arguments.title(arguments.operands[0]), at: try arguments.number(Options.at),
                            limit: try arguments.number(Options.limit))), dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "board rename", usage: [.board, .text("NEW_TITLE")],
            summary: "retitle a board",
            options: [dryRun],
            details: "Board titles are unique, ignoring case; a change of case only is allowed.",
            examples: ["kanban board rename Review QA"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                return .change(
                    .operation(
                        .boardRename(board: arguments.operands[0], title: try arguments.title(arguments.operands[1]))),
                    dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "board move", usage: [.board, .option(Options.at)],
            summary: "reorder the boards",
            options: [CommandOption(Options.at, "0-based index the board moves to, 0 to the number of boards minus 1"), dryRun],
            details: "Moves the board to index N; the others keep their order.",
            examples: ["kanban board move Done --at 0"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                guard let at = try arguments.number(Options.at) else { throw arguments.usage("'board move' needs --at N") }
                return .change(
                    .operation(.boardMove(board: arguments.operands[0], at: at)), dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "board limit", usage: [.board, .operand("N|none", [.words(["none"])])],
            summary: "set or clear a board's WIP limit",
            options: [dryRun],
            details: """
                A board at its limit refuses cards coming in (add, copy, restore, and moves from other
                boards) unless --force is given; reordering inside it and moving cards out always work.
                """,
            examples: ["kanban board limit \"In Progress\" 3", "kanban board limit \"In Progress\" none"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                let text = arguments.operands[1]
                var limit: Int?
                if text.lowercased() != "none" {
                    guard let value = Arguments.nonNegative(text) else {
                        throw arguments.usage("a limit is a number (0 or more) or 'none', not \(q(text))")
                    }
                    limit = value
                }
                return .change(
                    .operation(.boardLimit(board: arguments.operands[0], limit: limit)),
                    dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "board remove", aliases: ["board rm"], usage: [.board, .optional(Options.force)],
            summary: "delete a board",
            options: [CommandOption(Options.force, "remove the board even if it holds cards, and the cards with it"), dryRun],
            details: "Refuses a board that still holds cards, unless --force is given: then they go too.",
            examples: ["kanban board remove Review", "kanban board remove Archive --force"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                return .change(
                    .operation(.boardRemove(board: arguments.operands[0], force: arguments.flag(Options.force))),
                    dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "batch", usage: [.optional([.oneOf([[.path("FILE")], [.operand("-", [])]])])],
            summary: "run many commands in one transaction",
            options: [CommandOption(Options.dryRun, "print what the whole batch would change and write nothing")],
            details: """
                Runs kanban commands read from FILE or standard input, one per line, without the word
                'kanban': move "Analytics" --to Done --at 0. Words are split as a POSIX shell splits
                them (single quotes, double quotes with \\" and \\\\, backslash escapes; nothing is
                expanded); # at the start of a word starts a comment; blank lines are skipped. Any
                command that changes the file may appear, with its own options such as --force;
                other commands and the options of every command (-f, --json, --dry-run, …) are
                refused. All lines run in one transaction on one reading of the file: each line sees
                what the lines before it did. Either every line succeeds and the file is written
                once, or nothing is written and the first failing line is reported as 'line K: …'
                with that error's exit code.
                """,
            examples: ["kanban batch changes.txt", "printf 'add \"Ship it\" --to Todo\\nmove Todo:0 Done\\n' | kanban batch"],
            build: { arguments throws(CLIError) in
                guard arguments.operands.count <= 1 else {
                    throw arguments.usage("'batch' takes one script, FILE or - (standard input)")
                }
                let script = arguments.operands.first.flatMap { $0 == "-" ? nil : $0 }
                return .batch(script: script, dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
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
            }),
        CommandSpec(
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
            }),
        CommandSpec(
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
            }),
        CommandSpec(
            "diff", usage: [.optional([.path("OLD"), .optional([.path("NEW")])]), .optional(Options.exitCode)],
            summary: "show what changed between two versions of the kanban, card by card",
            options: [CommandOption(Options.exitCode, "exit 1 when there are changes (and 0 when there are none)")],
            details: """
                OLD and NEW are kanban files, or git revisions of this kanban file (HEAD~1, main,
                or REV:PATH with the path from the repository's top); NEW is the file itself when
                not given, OLD is HEAD. One line per change, in the words of the commands that make
                them: cards added, removed, archived, restored, moved and edited, boards added,
                removed, renamed, moved and re-limited. A card whose index shifted only because
                others moved, came or went is not listed. --json prints {"items": […], "boards":
                […]} in the shapes of the change reports. Exits 0 whether or not there are changes.
                """,
            examples: [
                "kanban diff", "kanban diff HEAD~3", "kanban diff main HEAD --json", "kanban diff old.json new.json",
            ],
            build: { arguments throws(CLIError) in
                guard arguments.operands.count <= 2 else {
                    throw arguments.usage(
                        "unexpected argument \(q(arguments.operands[2])); usage: kanban diff [OLD [NEW]]")
                }
                return .diff(
                    DiffRequest(
                        old: arguments.operands.first, new: arguments.operands.dropFirst().first,
                        exitCode: arguments.flag(Options.exitCode)))
            }),
        CommandSpec(
            "merge", usage: [
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
            }),
        CommandSpec(
            "git setup", usage: [.optional(Options.dryRun)],
            summary: "make git merge the kanban file card by card in this repository",
            options: [CommandOption(Options.dryRun, "print what would change and change nothing")],
            details: """
                In a git work tree: adds the kanban file (its path from the repository's top) with
                merge=kanban to .gitattributes, registers the driver in this clone's git config
                (merge.kanban.name and merge.kanban.driver, by this kanban's full path, so that a git
                started with another PATH finds it), and adds kanban's files next to it (the lock,
                temporary files, the history) to .gitignore. Running it again changes nothing. A
                .gitattributes or .gitignore that is a symbolic link is refused (exit 1). Commit
                .gitattributes and .gitignore; every clone runs 'kanban git setup' once, as git config
                is not shared.
                """,
            examples: ["kanban git setup", "kanban git setup --dry-run", "kanban -f team/kanban.json git setup"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                return .gitSetup(dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "git check", usage: [],
            summary: "check that git merges the kanban file card by card in this clone",
            details: """
                Says whether .gitattributes sends the kanban file to kanban's merge driver, whether
                this clone has the driver registered, and whether its command runs wherever git runs
                it (by its full path, executable, answering --version). Where .gitattributes names
                the driver but the clone lacks it, git merges the file line by line, as text; where
                the command does not run, git leaves ours alone: run 'kanban git setup'. Exit 0 when
                all is set, 1 otherwise.
                """,
            examples: ["kanban git check"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                return .gitCheck
            }),
        CommandSpec(
            "git resolve", usage: [.optional([.path("PATH")])],
            summary: "merge the kanban file of an unfinished git merge, rebase or cherry-pick card by card",
            details: """
                Merges the kanban file (PATH, else the one kanban would use) from the three versions
                git keeps while a merge, rebase or cherry-pick stops on it (base, ours, theirs) by
                the rules of 'kanban merge', and writes the result to the work tree in one
                transaction, whatever the work tree held: git's conflict markers from a text merge
                in a clone without the driver, or ours alone where the driver's command failed. A
                file added on both sides merges from an empty base. Then: git add PATH, and
                git merge --continue (rebase, cherry-pick). Exit 0: merged; 1: merged with
                conflicts, keeping ours (as 'kanban merge'), or nothing to resolve.
                """,
            examples: ["kanban git resolve", "kanban git resolve team/kanban.json"],
            build: { arguments throws(CLIError) in
                guard arguments.operands.count <= 1 else {
                    throw arguments.usage(
                        "unexpected argument \(q(arguments.operands[1])); usage: kanban git resolve [PATH]")
                }
                return .gitResolve(path: arguments.operands.first)
            }),
        CommandSpec(
            "ui", usage: [],
            summary: "the interactive board: keys and mouse drag-and-drop",
            details: """
                Shows the boards full-screen, as columns, and lets you move cards with the keys or
                drag them with the mouse. Keys: arrows or h j k l move the cursor; H L (Shift+Left,
                Shift+Right) move the card to the previous or next board, K J (Shift+Up, Shift+Down)
                up or down; space selects; x and y cut and copy, p pastes below the cursor; a adds,
                r renames, e edits, Enter shows the card, d removes (y confirms); u undoes, Ctrl-R
                redoes; / filters as list --grep; F forces a move a WIP limit refused; ? shows the
                keys; q quits. Mouse: drag a card between cards; hold Ctrl or Alt when releasing to
                copy; release outside the boards to cancel; the wheel scrolls a column. Every change
                is an ordinary transaction, recorded in the history; changes other kanban processes
                make show within a second. It needs a terminal.
                """,
            examples: ["kanban ui", "kanban ui -f ~/team/kanban.json"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                return .ui
            }),
        CommandSpec(
            "export", usage: [
                .optional(Options.format, value: ExportFormat.synopsis), .optional([.boards]),
                .optional(Options.output, short: true),
            ],
            summary: "write the boards as Markdown, CSV or JSON",
            options: [
                CommandOption(
                    Options.format, "markdown (the default; Obsidian Kanban's format), csv or json (the file's)",
                    kind: .words(ExportFormat.allCases.map(\.rawValue))),
                CommandOption(Options.output, "write to FILE (atomically) instead of standard output; - is stdout"),
                CommandOption(Options.force, "replace FILE if it exists"),
            ],
            details: """
                Writes the kanban, or only the BOARDs named, to standard output or to FILE.
                markdown: the Obsidian Kanban plugin's format (a '## Board' heading per board, a
                '- [ ] Title #label @{YYYY-MM-DD}' line per card, its note indented below, a WIP
                limit as '(N)' after the board's title, the archive last); it opens as a board in
                Obsidian and reads as task lists on GitHub. csv: RFC 4180, header
                board,index,id,title,labels,due,created,entered,note; a board without cards is a
                line with only its title. json: the kanban file's document.
                -o FILE never replaces an existing file unless --force is given, and never the
                kanban file itself.
                """,
            examples: [
                "kanban export -o board.md", "kanban export --format csv Todo Done > cards.csv",
                "kanban export --format json | jq '.boards[].title'",
            ],
            build: { arguments throws(CLIError) in
                var request = ExportRequest(boards: arguments.operands)
                if let text = arguments.value(Options.format) {
                    guard let format = ExportFormat(rawValue: text) else {
                        let names = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                        throw arguments.usage("--format takes \(names), not \(q(text))")
                    }
                    request.format = format
                }
                request.output = arguments.value(Options.output).flatMap { $0 == "-" ? nil : $0 }
                request.force = arguments.flag(Options.force)
                if request.force && request.output == nil { throw arguments.usage("--force goes with -o FILE") }
                return .export(request)
            }),
        CommandSpec(
            "import", usage: [.repeated(.path("FILE")), .optional(Options.format)],
            summary: "add boards and cards from Trello, Markdown or CSV",
            options: [
                CommandOption(
                    Options.format,
                    "the files' format: \(importFormatList) (default: guessed from each file's content)",
                    kind: .words(importFormats)),
                CommandOption(Options.force, "add cards to boards past their WIP limits instead of refusing"), dryRun,
            ],
            details: """
                Adds the boards and cards of each FILE (- is standard input) in one transaction: all
                of them or nothing. Cards go to the bottom of the board with the same title (case
                ignored), or to a new board at the end; they get new ids, and were created and entered
                their boards now. trello: a board's JSON export (lists in order become boards, their
                cards cards; archived cards and lists go to the archive; descriptions and checklists
                become notes, labels labels, due dates due dates, a list's soft limit a WIP limit).
                markdown and csv: what kanban export writes (and the Obsidian Kanban plugin's boards).
                json: a kanban file. A file that is not what its format expects is refused (65),
                naming the file and the line or JSON path.
                """,
            examples: [
                "kanban import trello-board.json", "kanban import board.md --dry-run",
                "kanban import cards.csv --format csv",
            ],
            build: { arguments throws(CLIError) in
                guard !arguments.operands.isEmpty else { throw arguments.usage("'import' needs at least one FILE") }
                return .importFiles(
                    ImportRequest(
                        files: arguments.operands, format: try arguments.importFormat(),
                        force: arguments.flag(Options.force)),
                    dryRun: arguments.flag(Options.dryRun))
            }),
        CommandSpec(
            "completion", usage: [.operand(Shell.allCases.map(\.rawValue).joined(separator: "|"), [.words(Shell.allCases.map(\.rawValue))])],
            summary: "print a shell completion script",
            details: """
                Prints a script that completes kanban's commands, options, board titles, cards (ids,
                described by their titles, and titles) and labels from the kanban file the command
                line names. Set it up once:
                  bash   add to ~/.bashrc:  source <(kanban completion bash)
                  zsh    kanban completion zsh > ~/.zfunc/_kanban   (with ~/.zfunc on $fpath before compinit)
                  fish   kanban completion fish > ~/.config/fish/completions/kanban.fish
                """,
            examples: ["source <(kanban completion bash)", "kanban completion fish | source"],
            build: { arguments throws(CLIError) in
                try arguments.operandCount()
                guard let shell = Shell(rawValue: arguments.operands[0]) else {
                    throw arguments.usage(
                        "kanban completes in \(Shell.allCases.map(\.rawValue).joined(separator: ", ")), "
                            + "not \(q(arguments.operands[0]))")
                }
                return .completion(shell)
            }),
        CommandSpec(
            "help", usage: [.optional([.operand("COMMAND", [.command])])],
            summary: "show help for kanban or a command",
            details: "Also: -h or --help after any command, and --version.",
            examples: ["kanban help move", "kanban board add --help"],
            build: { arguments throws(CLIError) in .help(topic: arguments.operands) }),
    ]

    /// The command for a name or alias: `move`, `mv`, `board add`.
    static func named(_ name: String) -> CommandSpec? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// The names of the top-level commands, `board` included.
    static let topLevelNames: [String] = {
        var names: [String] = []
        for spec in all {
            let word = String(spec.name.split(separator: " ")[0])
            if !names.contains(word) { names.append(word) }
            names.append(contentsOf: spec.aliases.filter { !$0.contains(" ") })
        }
        return names
    }()

    /// The words after `board`: `add`, `rename`, … and aliases.
    static let boardSubcommands = subcommands(of: "board")

    /// The words that take a subcommand.
    static let groups = ["board", "git"]

    /// The words after `group`: for `board`, `add`, `rename`, … and aliases.
    static func subcommands(of group: String) -> [String] {
        let prefix = group + " "
        return all.filter { $0.name.hasPrefix(prefix) }
            .flatMap { spec in
                ([spec.name] + spec.aliases).map { String($0.dropFirst(prefix.count)) }
            }
    }
}
