import KanbanCore

extension Commands {
    static let restore = CommandSpec(
        "restore", usage: [.repeated(.operand("ITEM", [.archivedItem])), .optional(Options.to)],
        summary: "bring archived cards back",
        options: [
            CommandOption(Options.to, "the board to put them on (default: the board each left)"),
            CommandOption(Options.force, "go past the board's WIP limit instead of refusing"), dryRun,
        ],
        details: """
            Puts archived cards back at the bottom of the board they left, or of --to BOARD.
            If that board is gone, --to is required. ITEM is an archived card's id, title or id
            prefix.
            """,
        examples: ["kanban restore k3f9p2", "kanban restore \"Old idea\" --to Todo"],
        build: { arguments throws(CLIError) in
            .change(
                .operation(
                    .restore(
                        items: try arguments.items(), to: arguments.value(Options.to),
                        force: arguments.flag(Options.force))), dryRun: arguments.flag(Options.dryRun))
        })
}
