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

// MARK: - As parsed

/// Help on a command (`["move"]`, `["board", "add"]`), or on kanban when empty.
struct HelpCommand: ParsedCommand {
    var topic: [String]

    func run(in app: App) throws(CLIError) -> CommandOutput { CommandOutput(try Help.text(for: topic)) }
}

/// `--version`.
struct VersionCommand: ParsedCommand {
    func run(in app: App) throws(CLIError) -> CommandOutput {
        CommandOutput(app.options.json ? JSONObject { $0.add("version", App.version) }.line : "kanban \(App.version)\n")
    }
}

extension Command {
    static func help(topic: [String]) -> Command { Command(HelpCommand(topic: topic)) }
    static let version = Command(VersionCommand())
}
