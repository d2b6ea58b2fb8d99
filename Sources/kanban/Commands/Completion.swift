import KanbanCore

extension Commands {
    static let completion = CommandSpec(
        "completion",
        usage: [
            .operand(Shell.allCases.map(\.rawValue).joined(separator: "|"), [.words(Shell.allCases.map(\.rawValue))])
        ],
        summary: "print a shell completion script",
        details: """
            Prints a script that completes kanban's commands, options, board titles, cards (ids,
            described by their titles, and titles) and labels from the kanban file the command
            line names. Set it up once:
              bash   add to ~/.bashrc:  source <(kanban completion bash)
              zsh    kanban completion zsh > ~/.zfunc/_kanban   (with ~/.zfunc on $fpath before compinit)
              fish   kanban completion fish > ~/.config/fish/completions/kanban.fish
            """,
        examples: ["source <(kanban completion bash)", "kanban completion fish | source"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            guard let shell = Shell(rawValue: arguments.operands[0]) else {
                throw arguments.usage(
                    "kanban completes in \(Shell.allCases.map(\.rawValue).joined(separator: ", ")), "
                        + "not \(q(arguments.operands[0]))")
            }
            return .completion(shell)
        })
}

// MARK: - As parsed

/// `kanban completion SHELL`: a completion script.
struct CompletionCommand: ParsedCommand {
    var shell: Shell

    func run(in app: App) throws(CLIError) -> CommandOutput { CommandOutput(CompletionScripts.script(for: shell)) }
}

extension Command {
    static func completion(_ shell: Shell) -> Command { Command(CompletionCommand(shell: shell)) }
}
