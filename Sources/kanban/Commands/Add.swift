import KanbanCore

extension Commands {
    static let add = CommandSpec(
        "add",
        usage: [
            .optional([.repeated(.text("TEXT"))]), .optional(Options.to), .optional([.options("POSITION")]),
        ] + Options.words.flatMap { $0.usage(removing: false) } + Options.dates.map { .optional($0.option) }
            + [.optional(Options.note)],
        summary: "add cards; no TEXT: one card per stdin line",
        options: [CommandOption(Options.to, "the board to add to (default: the first)")] + positions("new")
            + Options.words.map { CommandOption($0.add, $0.addHelp) }
            + Options.dates.map { CommandOption($0.option, $0.addHelp) }
            + [
                CommandOption(Options.note, "give every new card this note"),
                CommandOption(Options.force, "add even if the board is at its WIP limit"), dryRun,
            ],
        details: """
            Each TEXT is one new card; with no TEXT (or with -), each non-blank line of standard
            input is one. Surrounding whitespace is trimmed. Cards go to the bottom of the first
            board unless --to and a position say otherwise; several land together, in order.
            Invalid UTF-8 or a control character refuses the whole input.
            """,
        examples: [
            "kanban add \"Write docs\" --to Todo --top --label docs --due +3d",
            "git log --oneline | cut -d' ' -f2- | kanban add --to Todo",
        ],
        build: { arguments throws(CLIError) in
            let texts = arguments.operands
            let (to, position, force) = (
                arguments.value(Options.to), try arguments.position(), arguments.flag(Options.force)
            )
            var content = NewCardContent()
            // Most adds give no field: the content stays empty, with nothing to hash.
            for options in Options.words {
                let words = try arguments.words(adding: options)
                if !words.isEmpty { content[options.field] = .value(.words(words.names)) }
            }
            for options in Options.dates {
                if let day = try arguments.due(options.option) { content[options.field] = .day(day) }
            }
            if let note = try arguments.note(Options.note) { content["note"] = .value(.text(note)) }
            let dryRun = arguments.flag(Options.dryRun)
            if texts.isEmpty || texts.contains("-") {
                return .change(
                    .addReadingInput(texts: texts, to: to, position: position, content: content, force: force),
                    dryRun: dryRun)
            }
            let titles = try texts.map { text throws(CLIError) in try arguments.title(text) }
            return .change(
                .operation(.add(titles: titles, to: to, position: position, content: content, force: force)),
                dryRun: dryRun)
        })
}
