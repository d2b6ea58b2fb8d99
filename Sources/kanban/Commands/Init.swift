import KanbanCore

extension App {
    /// `kanban init [--sample] [--boards "A,B,C"]`
    func initialize(sample: Bool, boards: [String]?, dryRun: Bool) throws(CLIError) -> String {
        let names = boards ?? Kanban.defaultBoardTitles
        var titles: [Title] = []
        for (index, name) in names.enumerated() {
            do {
                titles.append(try Title(name))
            } catch {
                throw CLIError.badInput("--boards: board \(index + 1) of \(names.count): \(error.message)")
            }
        }
        var generator = IDSource()
        let kanban =
            sample
            ? Kanban.sample(now: clock.now, using: &generator) : try Self.kanban(boards: titles, using: &generator)
        let store = try Store.newFile(file: options.file)
        if dryRun {
            try store.checkCreatable()
        } else {
            try store.create(kanban)
        }
        if options.quiet { return "" }
        if options.json {
            return Report(command: "init", change: kanban.creation, dryRun: dryRun, file: store.path).json()
        }
        let verb = dryRun ? "would create" : "created"
        return "\(verb) \(q(store.path))\n\n"
            + BoardView.render(kanban.boards, on: Terminal.detect(color: options.color))
    }
}

extension App {
    /// Empty boards, one per title; a title given twice is a usage error here, not a refusal.
    fileprivate static func kanban(
        boards titles: [Title], using generator: inout some RandomNumberGenerator
    ) throws(CLIError) -> Kanban {
        do {
            return try Kanban(boardTitles: titles, using: &generator)
        } catch {
            guard case .duplicateBoard(let title, let existing) = error else { throw .refused(error) }
            let alias = title == existing ? "" : " (as \(q(title)); board titles ignore case)"
            throw .usage("--boards names \(q(existing)) twice\(alias)", command: "init")
        }
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
