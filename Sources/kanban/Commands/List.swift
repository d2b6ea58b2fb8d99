import KanbanCore

extension App {
    /// `kanban list [BOARD…] [--json | --tsv]`
    func list(boards names: [String], format: ListFormat) throws -> [UInt8] {
        var kanban = try store().load()
        if !names.isEmpty {
            let indices = try names.map { name throws(KanbanError) in try kanban.boardIndex(named: name) }
            kanban = kanban.keepingBoards(at: indices)
        }
        switch format {
        case .json: return KanbanFile.encode(kanban)
        case .tsv: return Array(BoardView.tsv(kanban.boards).utf8)
        case .text:
            if kanban.boards.isEmpty { note("there are no boards; add one with 'kanban board add TITLE'") }
            return Array(BoardView.render(kanban.boards, on: Terminal.detect(color: options.color)).utf8)
        }
    }
}
