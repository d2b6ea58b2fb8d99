import KanbanCore

extension Commands {
    static let importFiles = CommandSpec(
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
            become notes, labels labels, due dates due dates, a list's soft limit a WIP limit; a
            card keeps when it was created and the lists it entered, as its trail).
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
        })
}

/// `kanban import FILE…` and `kanban init --import FILE`: the files and how to read them.
struct ImportRequest: Equatable, Sendable {
    var files: [String]
    /// The format of every file; `nil`: guessed from each file's content.
    var format: ImportFormat?
    /// Take existing boards past their WIP limits.
    var force = false
}

extension Arguments {
    /// `--format` of import: one of ``ImportFormat``.
    func importFormat() throws(CLIError) -> ImportFormat? {
        guard let text = value(Options.format) else { return nil }
        guard let format = ImportFormat(rawValue: text) else {
            let names = ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw usage("--format takes \(names), not \(q(text))")
        }
        return format
    }
}

extension App {
    /// `kanban import FILE… [--format F] [--force] [--dry-run]`: every file is read and
    /// checked before the kanban file is locked; then one transaction adds them all.
    func importFiles(_ request: ImportRequest, dryRun: Bool) throws(CLIError) -> CommandOutput {
        let documents = try readImports(request)
        var generator = IDSource()
        let store = try store()
        let outcome = try store.change(dryRun: dryRun, recording: recording("import")) {
            (kanban: inout Kanban) throws(KanbanError) in
            var change = Change()
            for document in documents {
                let added = try kanban.importing(document.content, now: clock.now, force: request.force, using: &generator)
                change.items += added.items
                change.boards += added.boards
            }
            return change
        }
        return CommandOutput(
            render(Report(command: "import", change: outcome.change, dryRun: dryRun, file: store.path)),
            notes: outcome.notes + Self.importNotes(documents, dryRun: dryRun))
    }

    /// `kanban init --import FILE`: a new kanban of the import alone.
    func initialize(importing request: ImportRequest, dryRun: Bool) throws(CLIError) -> CommandOutput {
        let documents = try readImports(request)
        var generator = IDSource()
        var kanban = try! Kanban(boards: [])
        var change = Change()
        for document in documents {
            do {
                let added = try kanban.importing(document.content, now: clock.now, using: &generator)
                change.items += added.items
                change.boards += added.boards
            } catch {
                throw .refused(error)
            }
        }
        let store = try Store.newFile(file: options.file)
        if dryRun {
            try store.checkCreatable()
        } else {
            try store.create(kanban)
        }
        let notes = Self.importNotes(documents, dryRun: dryRun)
        if options.quiet { return CommandOutput([], notes: notes) }
        if options.json {
            return CommandOutput(
                Report(command: "init", change: change, dryRun: dryRun, file: store.path).json(), notes: notes)
        }
        return CommandOutput(
            "\(dryRun ? "would create" : "created") \(q(store.path))\n\n"
                + BoardView.render(kanban.boards, on: Terminal.detect(color: options.color)), notes: notes)
    }

    /// A file read for import.
    struct ImportedFile {
        var name: String
        var format: ImportFormat
        var content: ImportDocument
    }

    /// Reads and checks every file of an import, before anything is locked.
    ///
    /// - Throws: bad input (65) naming the file and where it is wrong; an I/O error (74, or
    ///   66 for a missing file).
    func readImports(_ request: ImportRequest) throws(CLIError) -> [ImportedFile] {
        var files: [ImportedFile] = []
        for path in request.files {
            let (name, bytes) = try InputFile.read(path)
            let format = request.format ?? ImportFormat.guess(bytes)
            do {
                let content = try format.read(bytes) { SystemClock.localDay(at: $0.seconds) }
                files.append(ImportedFile(name: name, format: format, content: content))
            } catch {
                throw .badInput(
                    "\(name): \(Escape.visible(error.description)) (reading it as \(format.rawValue)"
                        + (request.format == nil ? ", guessed from its content; --format says otherwise" : "")
                        + "); nothing was imported")
            }
        }
        return files
    }

    /// A note per file, for stderr (stdout has the report): what came from where.
    private static func importNotes(_ files: [ImportedFile], dryRun: Bool) -> [String] {
        files.map { file in
            let boards = file.content.boards.count
            let cards = file.content.boards.reduce(0) { $0 + $1.cards.count }
            let archived = file.content.archive.count
            let counts =
                "\(boards) board\(boards == 1 ? "" : "s"), \(cards) card\(cards == 1 ? "" : "s")"
                + (archived > 0 ? ", \(archived) archived" : "")
            let leftOut = file.content.leftOut.map(\.description).joined(separator: ", ")
            return "\(dryRun ? "would import" : "imported") \(file.name) (\(file.format.rawValue)): \(counts)"
                + (leftOut.isEmpty ? "" : "; not imported: " + leftOut)
        }
    }
}

// MARK: - As parsed

/// `kanban import FILE…`: other tools' boards and cards, in one transaction.
struct ImportCommand: ParsedCommand {
    var request: ImportRequest
    var dryRun: Bool

    static let refusedInBatch = CLIError.usage(
        "'import' reads files; run it on its own, not in a batch", command: "batch")

    var changesFile: Bool { !dryRun }

    func run(in app: App) throws(CLIError) -> CommandOutput {
        try app.importFiles(request, dryRun: dryRun)
    }

    func batchOperation() throws(CLIError) -> Operation? { throw Self.refusedInBatch }
}

extension Command {
    static func importFiles(_ request: ImportRequest, dryRun: Bool) -> Command {
        Command(ImportCommand(request: request, dryRun: dryRun))
    }
}
