import KanbanCore

extension Commands {
    static let resolve = CommandSpec(
        "resolve",
        usage: [
            .operand("ITEM|BOARD", [.item, .board]),
            .optional([.oneOf([[.option(Options.ours)], [.option(Options.theirs)]])]),
            .repeated(.optional(Options.field)),
        ],
        summary: "settle the conflicts a merge recorded on a card or board",
        options: [
            CommandOption(Options.ours, "keep each field's value, ours (the default)"),
            CommandOption(Options.theirs, "set each field to the value theirs had"),
            CommandOption(Options.field, "settle only this field: title, note, due (a card) or title, limit, role (a board)"),
            dryRun,
        ],
        details: """
            A merge that found a field changed on both sides keeps ours and records base and
            theirs in the file (see 'kanban list --conflicts' and 'kanban show'). resolve drops
            the record, keeping ours or taking theirs. The reference is tried as a card first
            (on a board or in the archive), then as a board. A card or board without a
            recorded conflict is refused (exit 1). Editing the field settles it too.
            """,
        examples: ["kanban resolve k3f9p2 --theirs", "kanban resolve Todo --field limit"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            if arguments.flag(Options.ours) && arguments.flag(Options.theirs) {
                throw arguments.usage("--ours and --theirs exclude each other; give one")
            }
            var fields: [ConflictField] = []
            for name in arguments.values(Options.field) {
                guard let field = ConflictField(rawValue: name) else {
                    throw arguments.usage(
                        "unknown field \(q(name)); fields are "
                            + ConflictField.allCases.map(\.rawValue).joined(separator: ", "))
                }
                if !fields.contains(field) { fields.append(field) }
            }
            return .change(
                .operation(
                    .resolve(
                        reference: arguments.operands[0], side: arguments.flag(Options.theirs) ? .theirs : .ours,
                        fields: fields)), dryRun: arguments.flag(Options.dryRun))
        })
}
