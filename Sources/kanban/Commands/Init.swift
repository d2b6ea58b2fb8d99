import KanbanCore

extension Commands {
    static let initialize = CommandSpec(
        "init",
        usage: [
            .optional(Options.sample), .optional(Options.boards),
            .optional([.option(Options.importFile), .optional(Options.format)]),
        ],
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
        })
}

extension App {
    /// `kanban init [--sample] [--boards "A,B,C"]`
    func initialize(sample: Bool, boards: [String]?, dryRun: Bool) throws(CLIError) -> String {
        let names = boards ?? Kanban.defaultBoardTitles
        var titles: [Title] = []
        for (index, name) in names.enumerated() {
            do {
                titles.append(try Title(name))
            } catch {
                throw CLIError.badInput("--boards: board \(index + 1) of \(names.count): \(error.message)")
            }
        }
        var generator = IDSource()
        let kanban =
            sample
            ? Kanban.sample(now: clock.now, using: &generator) : try Self.kanban(boards: titles, using: &generator)
        let store = try Store.newFile(file: options.file)
        if dryRun {
            try store.checkCreatable()
        } else {
            try store.create(kanban)
        }
        if options.quiet { return "" }
        if options.json {
            return Report(command: "init", change: kanban.creation, dryRun: dryRun, file: store.path).json()
        }
        let verb = dryRun ? "would create" : "created"
        return "\(verb) \(q(store.path))\n\n"
            + BoardView.render(kanban.boards, on: Terminal.detect(color: options.color))
    }
}

extension App {
    /// Empty boards, one per title; a title given twice is a usage error here, not a refusal.
    fileprivate static func kanban(
        boards titles: [Title], using generator: inout some RandomNumberGenerator
    ) throws(CLIError) -> Kanban {
        do {
            return try Kanban(boardTitles: titles, using: &generator)
        } catch {
            guard case .duplicateBoard(let title, let existing) = error else { throw .refused(error) }
            let alias = title == existing ? "" : " (as \(q(title)); board titles ignore case)"
            throw .usage("--boards names \(q(existing)) twice\(alias)", command: "init")
        }
    }
}

extension Kanban {
    /// The kanban as a change from nothing: every board and item added.
    fileprivate var creation: Change {
        Change(
            items: boards.flatMap { board in
                board.items.enumerated().map { index, item in
                    ItemChange(id: item.id, title: item.title, from: nil, to: Slot(board: board.title, index: index))
                }
            },
            boards: boards.enumerated().map { index, board in
                BoardChange(title: board.title, from: nil, to: index, limit: board.limit)
            })
    }
}

// MARK: - As parsed

/// `kanban init [--sample] [--boards …]`.
struct InitCommand: ParsedCommand {
    var sample: Bool
    var boards: [String]?
    var dryRun: Bool

    var changesFile: Bool { !dryRun }

    func run(in app: App) throws(CLIError) -> CommandOutput {
        CommandOutput(try app.initialize(sample: sample, boards: boards, dryRun: dryRun))
    }
}

/// `kanban init --import FILE`: a new kanban made of an import.
struct InitImportingCommand: ParsedCommand {
    var request: ImportRequest
    var dryRun: Bool

    var changesFile: Bool { !dryRun }

    func run(in app: App) throws(CLIError) -> CommandOutput {
        try app.initialize(importing: request, dryRun: dryRun)
    }

    func batchOperation() throws(CLIError) -> Operation? { throw ImportCommand.refusedInBatch }
}

extension Command {
    static func initialize(sample: Bool, boards: [String]?, dryRun: Bool) -> Command {
        Command(InitCommand(sample: sample, boards: boards, dryRun: dryRun))
    }

    static func initializeImporting(_ request: ImportRequest, dryRun: Bool) -> Command {
        Command(InitImportingCommand(request: request, dryRun: dryRun))
    }
}
