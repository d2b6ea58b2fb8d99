import KanbanCore

extension Commands {
    static let archive = CommandSpec(
        "archive", usage: [.oneOf([[.items], [.option(Options.from), .optional(Options.olderThan)]])],
        summary: "put cards away in the archive",
        options: [
            CommandOption(
                Options.from, "with ITEMs: look titles up in this board; alone: archive the board's cards"),
            CommandOption(
                Options.olderThan, "with --from alone: only cards that entered the board more than AGE ago"),
            dryRun,
        ],
        details: """
            Archived cards leave their boards (freeing WIP room) and keep their ids; only show,
            restore and list --archived find them. A card that has no 'entered' time (one
            from a version-1 file that has not moved since) counts as old.
            """,
        examples: ["kanban archive k3f9p2", "kanban archive --from Done --older-than 2w"],
        build: { arguments throws(CLIError) in
            let dryRun = arguments.flag(Options.dryRun)
            if arguments.operands.isEmpty {
                guard let board = arguments.value(Options.from) else {
                    throw arguments.usage("'archive' needs ITEMs, or --from BOARD for a whole board")
                }
                return .change(.operation(.archiveBoard(board: board, olderThan: try arguments.age())), dryRun: dryRun)
            }
            if arguments.value(Options.olderThan) != nil {
                throw arguments.usage("--older-than goes with --from BOARD alone, not with ITEMs")
            }
            return .change(
                .operation(.archive(items: arguments.operands, from: arguments.value(Options.from))), dryRun: dryRun)
        })
}
