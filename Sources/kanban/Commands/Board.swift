import KanbanCore

extension App {
    /// `kanban board add TITLE [--at N] [--limit N]`
    func addBoard(title text: String, at index: Int?, limit: Int?) throws -> String {
        let title = try Title(text)
        return try change("board add") { kanban in
            try kanban.addBoard(title, at: index, limit: limit)
        }
    }

    /// `kanban board rename BOARD NEW_TITLE`
    func renameBoard(_ name: String, to text: String) throws -> String {
        let title = try Title(text)
        return try change("board rename") { kanban in
            try kanban.renameBoard(try kanban.boardIndex(named: name), to: title)
        }
    }

    /// `kanban board move BOARD --at N`
    func moveBoard(_ name: String, to index: Int) throws -> String {
        try change("board move") { kanban in
            try kanban.moveBoard(try kanban.boardIndex(named: name), to: index)
        }
    }

    /// `kanban board limit BOARD N|none`
    func setLimit(of name: String, to limit: Int?) throws -> String {
        var count = 0
        let output = try change("board limit") { kanban in
            let board = try kanban.boardIndex(named: name)
            count = kanban.boards[board].items.count
            return kanban.setLimit(of: board, to: limit)
        }
        if let limit, count > limit {
            note(
                "\(q(name)) holds \(count) items, over its limit of \(limit); it refuses items coming in until enough have left"
            )
        }
        return output
    }

    /// `kanban board remove BOARD [--force]`
    func removeBoard(_ name: String) throws -> String {
        try change("board remove") { kanban in
            try kanban.removeBoard(try kanban.boardIndex(named: name), force: options.force)
        }
    }
}
