import KanbanCore

extension Commands {
    static let boardAdd = CommandSpec(
        "board add", usage: [.text("TITLE"), .optional(Options.at), .optional(Options.limit)],
        summary: "add a board",
        options: [
            CommandOption(Options.at, "0-based index of the new board among the boards (default: the last)"),
            CommandOption(Options.limit, "a WIP limit: the board refuses cards coming in once it holds N"),
            dryRun,
        ],
        details: "Adds an empty board at index N (0-based), or after the last one.",
        examples: ["kanban board add Review --at 2 --limit 2"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .change(
                .operation(
                    .boardAdd(
                        title: try arguments.title(arguments.operands[0]), at: try arguments.number(Options.at),
                        limit: try arguments.number(Options.limit))), dryRun: arguments.flag(Options.dryRun))
        })

    static let boardRename = CommandSpec(
        "board rename", usage: [.board, .text("NEW_TITLE")],
        summary: "retitle a board",
        options: [dryRun],
        details: "Board titles are unique, ignoring case; a change of case only is allowed.",
        examples: ["kanban board rename Review QA"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .change(
                .operation(
                    .boardRename(board: arguments.operands[0], title: try arguments.title(arguments.operands[1]))),
                dryRun: arguments.flag(Options.dryRun))
        })

    static let boardMove = CommandSpec(
        "board move", usage: [.board, .option(Options.at)],
        summary: "reorder the boards",
        options: [
            CommandOption(Options.at, "0-based index the board moves to, 0 to the number of boards minus 1"), dryRun,
        ],
        details: "Moves the board to index N; the others keep their order.",
        examples: ["kanban board move Done --at 0"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            guard let at = try arguments.number(Options.at) else { throw arguments.usage("'board move' needs --at N") }
            return .change(
                .operation(.boardMove(board: arguments.operands[0], at: at)), dryRun: arguments.flag(Options.dryRun))
        })

    static let boardLimit = CommandSpec(
        "board limit", usage: [.board, .operand("N|none", [.words(["none"])])],
        summary: "set or clear a board's WIP limit",
        options: [dryRun],
        details: """
            A board at its limit refuses cards coming in (add, copy, restore, and moves from other
            boards) unless --force is given; reordering inside it and moving cards out always work.
            """,
        examples: ["kanban board limit \"In Progress\" 3", "kanban board limit \"In Progress\" none"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            let text = arguments.operands[1]
            var limit: Int?
            if text.lowercased() != "none" {
                guard let value = Arguments.nonNegative(text) else {
                    throw arguments.usage("a limit is a number (0 or more) or 'none', not \(q(text))")
                }
                limit = value
            }
            return .change(
                .operation(.boardLimit(board: arguments.operands[0], limit: limit)),
                dryRun: arguments.flag(Options.dryRun))
        })

    static let boardRole = CommandSpec(
        "board role", usage: [.board, .operand("backlog|active|done|default", [.words(roleWords)])],
        summary: "set a board's role in the flow of work",
        options: [dryRun],
        details: """
            A board is the backlog (not started), active (in progress) or done (finished). By
            default the first board is the backlog, the last is done, and those between are
            active; 'default' gives a board back its role by its place.
            """,
        examples: ["kanban board role Review active", "kanban board role Shipped done", "kanban board role Review default"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            let text = arguments.operands[1].lowercased()
            var role: BoardRole?
            if text != "default" {
                guard let value = BoardRole(rawValue: text) else {
                    throw arguments.usage("a role is \(roleWords.joined(separator: ", ")), not \(q(arguments.operands[1]))")
                }
                role = value
            }
            return .change(
                .operation(.boardRole(board: arguments.operands[0], role: role)),
                dryRun: arguments.flag(Options.dryRun))
        })

    /// What `board role` takes: a role, or `default`.
    static let roleWords = BoardRole.allCases.map(\.rawValue) + ["default"]

    static let boardRemove = CommandSpec(
        "board remove", aliases: ["board rm"], usage: [.board, .optional(Options.force)],
        summary: "delete a board",
        options: [
            CommandOption(Options.force, "remove the board even if it holds cards, and the cards with it"), dryRun,
        ],
        details: "Refuses a board that still holds cards, unless --force is given: then they go too.",
        examples: ["kanban board remove Review", "kanban board remove Archive --force"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .change(
                .operation(.boardRemove(board: arguments.operands[0], force: arguments.flag(Options.force))),
                dryRun: arguments.flag(Options.dryRun))
        })
}
