import KanbanCore

extension Commands {
    static let remove = CommandSpec(
        "remove", aliases: ["rm"], usage: [.items],
        summary: "delete cards",
        options: [CommandOption(Options.from, "look card titles up in this board only"), dryRun],
        details: """
            Deletes the cards. New ids are random among 2.2 billion, so a removed id does not come
            back. To put cards away and keep them, use archive.
            """,
        examples: ["kanban remove k3f9p2", "kanban rm Done:0 Done:1"],
        build: { arguments throws(CLIError) in
            .change(
                .operation(.remove(items: try arguments.items(), from: arguments.value(Options.from))),
                dryRun: arguments.flag(Options.dryRun))
        })
}
