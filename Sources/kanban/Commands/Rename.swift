import KanbanCore

extension Commands {
    static let rename = CommandSpec(
        "rename", usage: [.item, .text("NEW_TITLE")],
        summary: "retitle a card",
        options: [CommandOption(Options.from, "look the card's title up in this board only"), dryRun],
        details: "Gives the card a new title; its id and place stay.",
        examples: ["kanban rename k3f9p2 \"Analytics dashboard\""],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .change(
                .operation(
                    .rename(
                        item: arguments.operands[0], title: try arguments.title(arguments.operands[1]),
                        from: arguments.value(Options.from))), dryRun: arguments.flag(Options.dryRun))
        })
}
