import KanbanCore

/// `kanban help`, `kanban help COMMAND` and `-h/--help`, all drawn from ``Commands``.
enum Help {
    /// The help for `topic` (empty: kanban itself; `["board"]`: the board subcommands).
    ///
    /// - Throws: a usage error for an unknown topic, with a suggestion.
    static func text(for topic: [String]) throws(CLIError) -> String {
        switch topic.count {
        case 0:
            return overview()
        case 1 where Commands.groups.contains(topic[0]):
            return groupOverview(topic[0])
        default:
            let name = topic.joined(separator: " ")
            guard let spec = Commands.named(name) else {
                var message = "no help for '\(Escape.visible(name))'"
                // A board subcommand is compared as the word after `board`, so that `board frob`
                // is not taken for `board rm` because the two share six characters.
                let group = topic.count == 2 && Commands.groups.contains(topic[0]) ? topic[0] : nil
                let (word, names, prefix) =
                    group.map { (topic[1], Commands.subcommands(of: $0), $0 + " ") }
                    ?? (name, Commands.topLevelNames, "")
                if let guess = Suggestions.closest(to: word, among: names, limit: 1).first {
                    message += "; did you mean '\(prefix)\(guess)'?"
                } else if let group {
                    message += "; \(group) subcommands: \(names.joined(separator: ", "))"
                }
                throw .usage(message, command: nil)
            }
            return command(spec)
        }
    }

    static func overview() -> String {
        var out = """
            kanban \(App.version): kanban boards in a JSON file, from the shell.

            Usage: kanban COMMAND [ARGUMENTS] [OPTIONS]

            Commands:

            """
        out += table(
            Commands.all.map { spec in
                let aliases = spec.aliases.isEmpty ? "" : " (alias: \(spec.aliases.joined(separator: ", ")))"
                return ("\(spec.name) \(spec.synopsis)", spec.summary + aliases)
            })
        out += """

            Cards (ITEM): an id (k3f9p2), else an exact title, else BOARD:N (0-based), e.g. Todo:0,
            else a unique id prefix of 3 characters or more (k3f).
            Boards (BOARD): a title (case is ignored when no title matches exactly), or a board's id.
            Positions: --at N (0-based; -1 is the bottom), --top, --bottom (the default),
            --before ITEM, --after ITEM.

            Options for every command:

            """
        out += table(Options.global.map(describe))
        out += """

            Commands that change the file take --dry-run. --force: add, move, copy and restore go
            past a WIP limit; board remove takes a board's cards with it.
            The file is -f PATH, else $KANBAN_FILE, else the nearest kanban.json here or above.

            Run 'kanban help COMMAND' for a command's options and examples.

            """
        return out
    }

    /// The help for a word that takes subcommands: `board`, `git`.
    static func groupOverview(_ group: String) -> String {
        let purpose = group == "git" ? "Work together through git." : "Work on the boards themselves."
        var out = "Usage: kanban \(group) SUBCOMMAND …\n\n\(purpose)\n\nSubcommands:\n"
        out += table(
            Commands.all.filter { $0.name.hasPrefix(group + " ") }.map { ("\($0.name) \($0.synopsis)", $0.summary) })
        return out + "\nRun 'kanban help \(group) SUBCOMMAND' for one of them.\n"
    }

    static func command(_ spec: CommandSpec) -> String {
        var out = "Usage: kanban \(spec.name)\(spec.synopsis.isEmpty ? "" : " " + spec.synopsis)\n\n"
        out += spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ".\n"
        out += "\n" + spec.details + "\n"
        if !spec.aliases.isEmpty {
            out += "\nAlias: \(spec.aliases.map { "kanban \($0)" }.joined(separator: ", "))\n"
        }
        if !spec.options.isEmpty {
            out += "\nOptions:\n" + table(spec.options.map(describe))
        }
        out += "\nOptions for every command:\n" + table(Options.global.map(describe))
        if !spec.examples.isEmpty {
            out += "\nExamples:\n" + spec.examples.map { "  \($0)\n" }.joined()
        }
        return out
    }

    private static func describe(_ option: CommandOption) -> (String, String) {
        let spec = option.spec
        let names = (spec.short.map { "-\($0), " } ?? "    ") + spec.name
        return (names + (spec.value.map { " \($0)" } ?? "") + (spec.repeatable ? "…" : ""), option.help)
    }

    /// Two aligned columns, indented.
    private static func table(_ rows: [(String, String)]) -> String {
        let width = min(38, rows.map(\.0.count).max() ?? 0)
        return rows.map { left, right in
            let padding =
                left.count <= width
                ? String(repeating: " ", count: width - left.count) : "\n  " + String(repeating: " ", count: width)
            return "  \(left)\(padding)  \(right)\n"
        }.joined()
    }
}
