import KanbanCore

extension App {
    /// `kanban list [BOARD…] [--json | --tsv] [--compact] [--no-pager]`
    func list(boards names: [String], format: ListFormat, view: ViewOptions = ViewOptions()) throws -> [UInt8] {
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
            let terminal = Terminal.detect(color: options.color)
            let text = Array(BoardView.render(kanban.boards, on: terminal, compact: view.compact).utf8)
            let lines = text.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            guard view.pager, Pager.isNeeded(lines: lines, on: terminal), let pager = Pager.configured() else {
                return text
            }
            switch pager.show(text) {
            case .shown: return []
            case .notStarted(let reason):
                // The default pager missing is no news; one the user chose is.
                if let reason, pager.command != Pager.fallback { note(reason + "; printing directly") }
                return text
            }
        }
    }
}
