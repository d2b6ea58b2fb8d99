import KanbanCore

extension App {
    /// `kanban move ITEM… --to BOARD [--at N]` and `kanban copy …`.
    func move(items: [String], to board: String, from scope: String?, position: PositionArgument?, copying: Bool)
        throws -> String
    {
        var generator = SystemRandomNumberGenerator()
        return try change(copying ? "copy" : "move") { kanban in
            let destination = try kanban.boardIndex(named: board)
            let scope = try scope.map { name throws(KanbanError) in try kanban.boardIndex(named: name) }
            let selection = try kanban.locate(items, within: scope)
            let position = try dropPosition(position, in: kanban, board: destination)
            if copying {
                return try kanban.copy(
                    selection, to: destination, at: position, force: options.force, using: &generator)
            }
            return try kanban.move(selection, to: destination, at: position, force: options.force)
        }
    }
}
