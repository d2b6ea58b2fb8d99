import KanbanCore

extension App {
    /// `kanban` alone: the board when there is a kanban file, else the help summary.
    func overview() throws(CLIError) -> [UInt8] {
        do {
            return try list(ListRequest())
        } catch .noFile {
            return Array(Help.overview().utf8)
        }
    }

    /// `kanban list [BOARD…] [FILTERS] [--json | --tsv]`
    func list(_ request: ListRequest) throws(CLIError) -> [UInt8] {
        var kanban = try store().load()
        if !request.boards.isEmpty {
            do {
                let indices = try request.boards.map { name throws(KanbanError) in try kanban.boardIndex(named: name) }
                kanban = kanban.keepingBoards(at: indices)
            } catch {
                throw .refused(error)
            }
        }
        if request.filter.archived {
            kanban = kanban.keeping(request.filter, clock: clock)
            switch request.format {
            case .json: return KanbanFile.encode(kanban.archiveOnly)
            case .tsv: return Array(TSV.archive(kanban).utf8)
            case .text: return Array(ArchiveView.render(kanban, style: style).utf8)
            }
        }
        switch request.format {
        case .json:
            return KanbanFile.encode(kanban.keeping(request.filter, clock: clock))
        case .tsv:
            return Array(TSV.boards(kanban.filtered(request.filter, clock: clock)).utf8)
        case .text:
            if kanban.boards.isEmpty { note("there are no boards; add one with 'kanban board add TITLE'") }
            let boards = kanban.filtered(request.filter, clock: clock).map(\.board)
            return Array(BoardView.render(boards, on: Terminal.detect(color: options.color)).utf8)
        }
    }

    /// Styles for text output, on if color is.
    var style: Style {
        Style(enabled: Terminal.detect(color: options.color).color)
    }
}

