import KanbanCore

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
    func export(_ request: ExportRequest) throws(CLIError) -> [UInt8] {
        let store = try store()
        var kanban = try store.load()
        if !request.boards.isEmpty {
            do {
                let indices = try request.boards.map { name throws(KanbanError) in try kanban.boardIndex(named: name) }
                kanban = kanban.keepingBoards(at: indices)
            } catch {
                throw .refused(error)
            }
        }
        let bytes: [UInt8] =
            switch request.format {
            case .markdown: Array(MarkdownBoard.export(kanban).utf8)
            case .csv: Array(CSVTable.export(kanban).utf8)
            case .json: KanbanFile.encode(kanban)
            }
        guard let output = request.output else { return bytes }
        try OutputFile.write(bytes, to: output, replacing: request.force, notOver: store.path)
        if options.quiet { return [] }
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
            return Array(json.line.utf8)
        }
        return Array(
            "wrote \(q(output)): \(boards) board\(boards == 1 ? "" : "s"), \(cards) card\(cards == 1 ? "" : "s") as \(request.format)\n"
                .utf8)
    }
}
