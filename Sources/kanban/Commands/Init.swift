import KanbanCore

extension App {
    /// `kanban init [--sample] [--boards "A,B,C"]`
    func initialize(sample: Bool, boards: [String]?) throws -> String {
        let titles = try (boards ?? Kanban.defaultBoardTitles).map { text throws(KanbanError) in try Title(text) }
        var generator = SystemRandomNumberGenerator()
        let kanban = sample ? Kanban.sample(using: &generator) : try Kanban(boardTitles: titles)
        let store = try Store.newFile(file: options.file)
        if options.dryRun {
            try store.checkCreatable()
        } else {
            try store.create(kanban)
        }
        if options.quiet { return "" }
        if options.json {
            return Report(command: "init", change: kanban.creation, dryRun: options.dryRun, file: store.path).json()
        }
        let verb = options.dryRun ? "would create" : "created"
        return "\(verb) \(q(store.path))\n\n"
            + BoardView.render(kanban.boards, on: Terminal.detect(color: options.color))
    }
}

extension Kanban {
    /// The kanban as a change from nothing: every board and item added.
    fileprivate var creation: Change {
        Change(
            items: boards.flatMap { board in
                board.items.enumerated().map { index, item in
                    ItemChange(id: item.id, title: item.title, from: nil, to: Slot(board: board.title, index: index))
                }
            },
            boards: boards.enumerated().map { index, board in
                BoardChange(title: board.title, from: nil, to: index, limit: board.limit)
            })
    }
}
