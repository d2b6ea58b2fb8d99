import KanbanCore

extension Commands {
    static let copy = CommandSpec(
        "copy", aliases: ["cp"], usage: Usage.itemsAndDestination,
        summary: "copy cards, with new ids",
        options: [
            CommandOption(Options.to, "the board the copies go to (else the last argument is)"),
            CommandOption(Options.from, "look card titles up in this board only"),
        ] + positions("copied") + [wipForce, dryRun],
        details: """
            Like move, but the originals stay. The copies get new ids and the originals' labels,
            due dates and notes.
            """,
        examples: ["kanban copy k3f9p2 --to Done", "kanban cp \"Schema Design\" Todo --top"],
        build: { arguments throws(CLIError) in
            let (items, to) = try arguments.itemsAndDestination()
            return .change(
                .operation(
                    .copy(
                        items: items, to: to, from: arguments.value(Options.from),
                        position: try arguments.position(), force: arguments.flag(Options.force))),
                dryRun: arguments.flag(Options.dryRun))
        })
}
