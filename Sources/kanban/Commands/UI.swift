import KanbanCore

extension Commands {
    static let ui = CommandSpec(
        "ui", usage: [],
        summary: "the interactive board: keys and mouse drag-and-drop",
        details: """
            Shows the boards full-screen, as columns, and lets you move cards with the keys or
            drag them with the mouse. Keys: arrows or h j k l move the cursor; H L (Shift+Left,
            Shift+Right) move the card to the previous or next board, K J (Shift+Up, Shift+Down)
            up or down; space selects; x and y cut and copy, p pastes below the cursor; a adds,
            r renames, e edits, Enter shows the card, d removes (y confirms); u undoes, Ctrl-R
            redoes; / filters as list --grep; F forces a move a WIP limit refused; ? shows the
            keys; q quits. Mouse: drag a card between cards; hold Ctrl or Alt when releasing to
            copy; release outside the boards to cancel; the wheel scrolls a column. Every change
            is an ordinary transaction, recorded in the history; changes other kanban processes
            make show within a second. It needs a terminal.
            """,
        examples: ["kanban ui", "kanban ui -f ~/team/kanban.json"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .ui
        })
}

// MARK: - As parsed

/// `kanban ui`: the interactive board.
struct UICommand: ParsedCommand {
    var changesFile: Bool { true }

    func run(in app: App) throws(CLIError) -> CommandOutput { CommandOutput(try app.ui()) }

    func batchOperation() throws(CLIError) -> Operation? {
        throw .usage("'ui' is interactive and cannot run in a batch", command: "batch")
    }
}

extension Command {
    static let ui = Command(UICommand())
}
