import KanbanCore

extension App {
    /// `kanban remove ITEM…`: the drop on the trash.
    func remove(items: [String], from scope: String?) throws -> String {
        try change("remove") { kanban in
            let scope = try scope.map { name throws(KanbanError) in try kanban.boardIndex(named: name) }
            return kanban.remove(try kanban.locate(items, within: scope))
        }
    }

    /// `kanban rename ITEM NEW_TITLE`
    func rename(item: String, to text: String, from scope: String?) throws -> String {
        let title = try Title(text)
        return try change("rename") { kanban in
            let scope = try scope.map { name throws(KanbanError) in try kanban.boardIndex(named: name) }
            return kanban.rename(try kanban.locate(item, within: scope), to: title)
        }
    }
}
