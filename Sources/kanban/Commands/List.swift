import KanbanCore

extension App {
    /// `kanban list [BOARD…] [--json | --tsv]`
    func list(boards names: [String], format: ListFormat) throws -> String {
        var kanban = try store().load()
        if !names.isEmpty {
            let indices = try names.map { name throws(KanbanError) in try kanban.boardIndex(named: name) }
            kanban = kanban.keepingBoards(at: indices)
        }
        switch format {
        case .json: return String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
        case .tsv: return BoardView.tsv(kanban.boards)
        case .text:
            if kanban.boards.isEmpty { note("there are no boards; add one with 'kanban board add TITLE'") }
            return BoardView.render(kanban.boards, on: Terminal.detect(color: options.color))
        }
    }
}
