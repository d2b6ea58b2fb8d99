import KanbanCore

extension Commands {
    static let batch = CommandSpec(
        "batch", usage: [.optional([.oneOf([[.path("FILE")], [.operand("-", [])]])])],
        summary: "run many commands in one transaction",
        options: [CommandOption(Options.dryRun, "print what the whole batch would change and write nothing")],
        details: """
            Runs kanban commands read from FILE or standard input, one per line, without the word
            'kanban': move "Analytics" --to Done --at 0. Words are split as a POSIX shell splits
            them (single quotes, double quotes with \\" and \\\\, backslash escapes; nothing is
            expanded); # at the start of a word starts a comment; blank lines are skipped. Any
            command that changes the file may appear, with its own options such as --force;
            other commands and the options of every command (-f, --json, --dry-run, …) are
            refused. All lines run in one transaction on one reading of the file: each line sees
            what the lines before it did. Either every line succeeds and the file is written
            once, or nothing is written and the first failing line is reported as 'line K: …'
            with that error's exit code.
            """,
        examples: [
            "kanban batch changes.txt", "printf 'add \"Ship it\" --to Todo\\nmove Todo:0 Done\\n' | kanban batch",
        ],
        build: { arguments throws(CLIError) in
            guard arguments.operands.count <= 1 else {
                throw arguments.usage("'batch' takes one script, FILE or - (standard input)")
            }
            let script = arguments.operands.first.flatMap { $0 == "-" ? nil : $0 }
            return .batch(script: script, dryRun: arguments.flag(Options.dryRun))
        })
}

extension App {
    /// `kanban batch [FILE | -]`: every line is parsed before the file is touched, then all
    /// run in one transaction, each seeing what the lines before it did.
    func batch(script path: String?, dryRun: Bool) throws(CLIError) -> CommandOutput {
        let bytes = try StandardInput.script(at: path)
        let operations = try Self.operations(inScript: bytes, named: path ?? "standard input")
        var reports: [(line: Int, operation: Operation, change: Change)] = []
        let store = try store()
        let outcome = try store.update(dryRun: dryRun, recording: recording("batch")) {
            (kanban: inout Kanban) throws(CLIError) in
            // New ids are checked against the ids kept as the lines run, not by a scan of the
            // kanban per line: a script of n adds takes O(n), not O(n²) (README: Batch).
            var generator = IDKeepingGenerator(IDSource(), keepingIDsOf: kanban)
            // Cards named by id are found where they were last seen, not by a scan of every
            // card per line (README: Batch).
            let hints = CardHints()
            reports = []
            var all = Change()
            for (line, operation) in operations {
                do throws(KanbanError) {
                    let change = try kanban.apply(operation, at: clock, using: &generator, hints: hints)
                    reports.append((line, operation, change))
                    all.items += change.items
                    all.boards += change.boards
                } catch {
                    throw .atLine(line, .refused(error))
                }
            }
            return all
        }
        if options.quiet { return CommandOutput([], notes: outcome.notes) }
        let each = reports.map {
            Report(command: $0.operation.name, change: $0.change, dryRun: dryRun, file: store.path)
        }
        if options.json {
            let json = JSONObject { object in
                object.add("command", "batch")
                object.add("file", store.path)
                object.add("dryRun", dryRun)
                object.add("changed", outcome.change.isEffective)
                object.add("commands", each.map(\.jsonObject))
            }.line
            return CommandOutput(json, notes: outcome.notes)
        }
        let style = style  // the terminal is looked at once, not for each line
        return CommandOutput(each.map { $0.text(style: style) }.joined(), notes: outcome.notes)
    }

    /// The operations of a script, each with its 1-based line number; usage errors name the line.
    static func operations(inScript bytes: [UInt8], named name: String) throws(CLIError) -> [(Int, Operation)] {
        let script = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        var operations: [(Int, Operation)] = []
        // Split as bytes: a line ends at LF, whatever the characters around it.
        var start = script.startIndex
        var number = 0
        while start <= script.endIndex {
            let end = script[start...].firstIndex(of: UInt8(ascii: "\n")) ?? script.endIndex
            let rawLine = script[start..<end]
            start = end + 1
            number += 1
            let line = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            // ASCII is UTF-8: most lines need no decoding to be checked.
            guard line.allSatisfy({ $0 < 0x80 }) || String(validating: line, as: UTF8.self) != nil else {
                throw .atLine(number, .badInput("invalid UTF-8; nothing was changed"))
            }
            let words: [String]
            do {
                words = try ShellWords.split(utf8: line)
            } catch {
                throw .atLine(number, .usage(error.message, command: "batch"))
            }
            if words.isEmpty { continue }
            do {
                operations.append((number, try operation(words)))
            } catch {
                throw .atLine(number, error)
            }
        }
        return operations
    }

    /// The operation one line of a script names: only commands that change the file, with
    /// their own options.
    private static func operation(_ words: [String]) throws(CLIError) -> Operation {
        let invocation = try Parser.parse(words)
        guard invocation.options == GlobalOptions() else {
            throw .usage(
                "the options of every command (-f, --json, -q, --color) go on the 'kanban batch' command line, "
                    + "not in the script", command: "batch")
        }
        guard let operation = try invocation.command.parsed.batchOperation() else {
            throw .usage(
                "\(words.first.map { "'\(Escape.visible($0))'" } ?? "this command") does not change the file; "
                    + "a batch runs commands that do (add, move, copy, remove, rename, edit, archive, restore, board …)",
                command: "batch")
        }
        return operation
    }
}

// MARK: - As parsed

/// `kanban batch [FILE | -]`: many mutating commands in one transaction; `nil` reads stdin.
struct BatchCommand: ParsedCommand {
    var script: String?
    var dryRun: Bool

    var changesFile: Bool { !dryRun }

    func run(in app: App) throws(CLIError) -> CommandOutput {
        try app.batch(script: script, dryRun: dryRun)
    }
}

extension Command {
    static func batch(script: String?, dryRun: Bool) -> Command {
        Command(BatchCommand(script: script, dryRun: dryRun))
    }
}
