import KanbanCore

extension Commands {
    static let export = CommandSpec(
        "export",
        usage: [
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
        })
}

/// `kanban export`: which boards, in which format, to where.
struct ExportRequest: Equatable, Sendable {
    var format = ExportFormat.markdown
    var boards: [String] = []
    /// The file to write; `nil` for standard output.
    var output: String?
    /// Replace `output` if it exists.
    var force = false
}

enum ExportFormat: String, CaseIterable, Sendable {
    case markdown, csv, json

    /// `markdown|csv|json`.
    static var synopsis: String { allCases.map(\.rawValue).joined(separator: "|") }
}

extension App {
    /// `kanban export [--format markdown|csv|json] [BOARD…] [-o FILE]`
    func export(_ request: ExportRequest) throws(CLIError) -> CommandOutput {
        let store = try store()
        // JSON is the file's own layout: the cards are deferred, and written by copying their
        // lines (README: Performance).
        let kanban = try keepingBoards(request.boards, of: try store.load(deferringCards: request.format == .json))
        if request.format == .json && request.output == nil { return CommandOutput(document: kanban) }
        let bytes: [UInt8] =
            switch request.format {
            case .markdown: Array(MarkdownBoard.export(kanban).utf8)
            case .csv: Array(CSVTable.export(kanban).utf8)
            case .json: KanbanFile.encode(kanban)
            }
        guard let output = request.output else { return CommandOutput(bytes) }
        try OutputFile.write(bytes, to: output, replacing: request.force, notOver: store.path)
        if options.quiet { return CommandOutput([]) }
        let cards = kanban.itemCount
        let boards = kanban.boards.count
        if options.json {
            let json = JSONObject { object in
                object.add("command", "export")
                object.add("file", output)
                object.add("format", "\(request.format)")
                object.add("boards", boards)
                object.add("cards", cards)
            }
            return CommandOutput(json.line)
        }
        return CommandOutput(
            "wrote \(q(output)): \(boards) board\(boards == 1 ? "" : "s"), \(cards) card\(cards == 1 ? "" : "s") as \(request.format)\n"
        )
    }
}

// MARK: - As parsed

extension ExportRequest: ParsedCommand {
    func run(in app: App) throws(CLIError) -> CommandOutput { try app.export(self) }
}

extension Command {
    static func export(_ request: ExportRequest) -> Command { Command(request) }
}
