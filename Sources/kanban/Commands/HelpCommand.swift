import KanbanCore

extension Commands {
    static let help = CommandSpec(
        "help", usage: [.optional([.operand("COMMAND", [.command])])],
        summary: "show help for kanban or a command",
        details: "Also: -h or --help after any command, and --version.",
        examples: ["kanban help move", "kanban board add --help"],
        build: { arguments throws(CLIError) in
            .help(topic: arguments.operands)
        })
}
