import KanbanCore

extension Commands {
    static let move = CommandSpec(
        "move", aliases: ["mv"], usage: Usage.itemsAndDestination,
        summary: "move cards to a board, or reorder them in it",
        options: [
            CommandOption(Options.to, "the destination board (else the last argument is)"),
            CommandOption(Options.from, "look card titles up in this board only"),
        ] + positions("moved") + [wipForce, dryRun],
        details: """
            ITEM is an id, an exact title (searched in --from BOARD if given), BOARD:N, or a
            unique id prefix of 3 characters or more. All references are resolved before
            anything moves, so 'move Todo:0 Todo:1 Done' moves the first two cards. Without
            --to, the last argument is the destination, as with mv(1). Several cards land
            together, in the order given. --at N is the final index of the first moved card,
            counted after the moved cards have been taken out; without a position the cards
            go to the bottom.
            """,
        examples: [
            "kanban move \"Analytics\" --to Done --at 0", "kanban mv k3f9p2 p2x1q7 Review",
            "kanban move Todo:0 --to Todo --bottom",
        ],
        build: { arguments throws(CLIError) in
            let (items, to) = try arguments.itemsAndDestination()
            return .change(
                .operation(
                    .move(
                        items: items, to: to, from: arguments.value(Options.from),
                        position: try arguments.position(), force: arguments.flag(Options.force))),
                dryRun: arguments.flag(Options.dryRun))
        })
}
