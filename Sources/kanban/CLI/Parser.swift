import KanbanCore

/// Turns argv into an ``Invocation``, or a usage error.
///
/// Options may come before or after the command and its arguments, as `--opt value`,
/// `--opt=value`, or `-f value`/`-fvalue` for short ones; short flags bundle (`-qh`);
/// `--` ends the options. An option that takes a value takes the next argument whatever
/// it looks like (`--to --weird`), except another option of the command, which is
/// almost always a forgotten value. Every option has the same arity in every command, so
/// argv splits into options and operands before the command is known.
enum Parser {
    static func parse(_ arguments: [String]) throws(CLIError) -> Invocation {
        var tokens = try tokenize(arguments)
        if tokens.options.contains(where: { $0.spec.name == "--version" }) {
            var options = GlobalOptions()
            options.json = tokens.options.contains { $0.spec.name == "--json" }
            return Invocation(command: .version, options: options)
        }
        guard let word = tokens.operands.first else {
            if let unknown = tokens.unknown.first {
                throw .usage(unknownOptionMessage(unknown, for: nil), command: nil)
            }
            if tokens.options.contains(where: { $0.spec.name == "--help" }) {
                return Invocation(command: .help(topic: []), options: GlobalOptions())
            }
            throw .usage("no command given; try 'kanban list', or 'kanban help' for all commands", command: nil)
        }
        tokens.operands.removeFirst()
        if word == "board" && tokens.operands.isEmpty && tokens.options.contains(where: { $0.spec.name == "--help" }) {
            return Invocation(command: .help(topic: ["board"]), options: GlobalOptions())
        }
        let spec = try commandSpec(for: word, operands: &tokens.operands)
        if let unknown = tokens.unknown.first {
            throw .usage(unknownOptionMessage(unknown, for: spec), command: spec.name)
        }
        var options = GlobalOptions()
        var values: [String: String] = [:]
        var flags: Set<String> = []
        for option in tokens.options {
            let name = option.spec.name
            guard isAccepted(name, by: spec) else {
                throw .usage(unknownOptionMessage(option.typed, for: spec), command: spec.name)
            }
            if let value = option.value {
                if values[name] != nil && values[name] != value {
                    throw .usage("option \(q(name)) is given twice", command: spec.name)
                }
                values[name] = value
            } else {
                flags.insert(name)
            }
        }
        if flags.contains("--help") {
            return Invocation(command: .help(topic: spec.name.split(separator: " ").map(String.init)), options: options)
        }
        if values["--file"] == "" { throw .usage("--file needs a path, not an empty string", command: spec.name) }
        options.file = values["--file"]
        options.json = flags.contains("--json")
        options.quiet = flags.contains("--quiet")
        options.dryRun = flags.contains("--dry-run")
        options.force = flags.contains("--force")
        if let color = values["--color"] {
            guard let mode = ColorMode(rawValue: color) else {
                throw .usage("--color takes auto, always or never, not \(q(color))", command: spec.name)
            }
            options.color = mode
        }
        let arguments = Arguments(spec: spec, operands: tokens.operands, values: values, flags: flags)
        return Invocation(command: try arguments.command(), options: options)
    }

    // MARK: - Tokens

    struct ParsedOption {
        let spec: OptionSpec
        /// The option as the user typed it, for messages.
        let typed: String
        let value: String?
    }

    struct Tokens {
        var options: [ParsedOption] = []
        var operands: [String] = []
        /// Options no command knows, as typed; reported once the command is known.
        var unknown: [String] = []
    }

    static func tokenize(_ arguments: [String]) throws(CLIError) -> Tokens {
        var tokens = Tokens()
        var index = 0
        func nextValue(for spec: OptionSpec) throws(CLIError) -> String {
            guard index + 1 < arguments.count else {
                throw .usage("option '\(spec.name)' needs a value (\(spec.value!))", command: nil)
            }
            let next = arguments[index + 1]
            if next == "--" || isKnownOption(next) {
                throw .usage(
                    "option '\(spec.name)' needs a value (\(spec.value!)), not the option \(q(next)); "
                        + "to give a value that starts with '-', write \(spec.name)=\(Escape.visible(next))",
                    command: nil)
            }
            index += 1
            return next
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                tokens.operands.append(contentsOf: arguments[(index + 1)...])
                break
            } else if argument.hasPrefix("--") {
                let (name, inlineValue) = split(argument)
                guard let spec = Options.all[name] else {
                    tokens.unknown.append(name)
                    index += 1
                    continue
                }
                if spec.takesValue {
                    let value = if let inlineValue { inlineValue } else { try nextValue(for: spec) }
                    tokens.options.append(ParsedOption(spec: spec, typed: name, value: value))
                } else {
                    if inlineValue != nil { throw .usage("option \(q(name)) takes no value", command: nil) }
                    tokens.options.append(ParsedOption(spec: spec, typed: name, value: nil))
                }
            } else if argument.hasPrefix("-") && argument.count > 1 && !isNegativeNumber(argument) {
                var letters = argument.dropFirst()
                while let letter = letters.popFirst() {
                    guard let spec = Options.long(for: letter) else {
                        tokens.unknown.append("-\(letter)")
                        break
                    }
                    if spec.takesValue {
                        var value = String(letters)
                        if value.hasPrefix("=") { value.removeFirst() }
                        tokens.options.append(
                            ParsedOption(
                                spec: spec, typed: "-\(letter)", value: value.isEmpty ? try nextValue(for: spec) : value
                            ))
                        break
                    }
                    tokens.options.append(ParsedOption(spec: spec, typed: "-\(letter)", value: nil))
                }
            } else {
                tokens.operands.append(argument)
            }
            index += 1
        }
        return tokens
    }

    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func isKnownOption(_ argument: String) -> Bool {
        if argument.hasPrefix("--") { return Options.all[split(argument).name] != nil }
        if argument.count == 2, argument.hasPrefix("-"), let letter = argument.last {
            return Options.long(for: letter) != nil
        }
        return false
    }

    /// `-1`: an operand (a mistyped index), not an option, so that its error says so.
    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.dropFirst().isDigits
    }

    // MARK: - Commands and options

    private static func commandSpec(for word: String, operands: inout [String]) throws(CLIError) -> CommandSpec {
        if word == "board" {
            guard let sub = operands.first else {
                throw .usage(
                    "'board' needs a subcommand: \(Commands.boardSubcommands.joined(separator: ", "))",
                    command: "board")
            }
            guard let spec = Commands.named("board \(sub)") else {
                var message = "unknown board subcommand \(q(sub))"
                if let guess = Suggestions.closest(to: sub, among: Commands.boardSubcommands, limit: 1).first {
                    message += "; did you mean 'board \(guess)'?"
                } else {
                    message += "; board subcommands: \(Commands.boardSubcommands.joined(separator: ", "))"
                }
                throw .usage(message, command: "board")
            }
            operands.removeFirst()
            return spec
        }
        guard let spec = Commands.named(word), !spec.name.hasPrefix("board ") else {
            var message = "unknown command \(q(word))"
            if let guess = Suggestions.closest(to: word, among: Commands.topLevelNames, limit: 1).first {
                message += "; did you mean '\(guess)'?"
            }
            throw .usage(message, command: nil)
        }
        return spec
    }

    private static func isAccepted(_ option: String, by spec: CommandSpec) -> Bool {
        Options.global.contains { $0.name == option } || spec.options.contains(option)
    }

    private static func unknownOptionMessage(_ typed: String, for spec: CommandSpec?) -> String {
        let name = split(typed).name
        let candidates = spec.map { $0.options + Options.global.map(\.name) } ?? Array(Options.all.keys).sorted()
        if let spec, Options.all[name] != nil {
            let owners = Commands.all.filter { $0.options.contains(name) }.map(\.name)
            return "'\(spec.name)' has no option \(q(name))"
                + (owners.isEmpty ? "" : " (it belongs to: \(owners.joined(separator: ", ")))")
        }
        var message = "unknown option \(q(name))" + (spec.map { " for '\($0.name)'" } ?? "")
        let bare = name.drop(while: { $0 == "-" })
        let guesses = Suggestions.closest(to: String(bare), among: candidates.map { String($0.dropFirst(2)) }, limit: 1)
        if let guess = guesses.first { message += "; did you mean '--\(guess)'?" }
        return message
    }
}

/// The operands and option values of one command, turned into a ``Command``.
private struct Arguments {
    let spec: CommandSpec
    let operands: [String]
    let values: [String: String]
    let flags: Set<String>

    func command() throws(CLIError) -> Command {
        switch spec.name {
        case "init":
            try operandCount(0)
            if flags.contains("--sample") && values["--boards"] != nil {
                throw usage("--sample makes the tutorial's boards; it does not go with --boards")
            }
            return .initialize(sample: flags.contains("--sample"), boards: try boardList())
        case "list":
            if flags.contains("--tsv") && flags.contains("--json") {
                throw usage("choose one of --json and --tsv")
            }
            let format: ListFormat = flags.contains("--json") ? .json : flags.contains("--tsv") ? .tsv : .text
            let view = ViewOptions(compact: flags.contains("--compact"), pager: !flags.contains("--no-pager"))
            return .list(boards: operands, format: format, view: view)
        case "add":
            return .add(texts: operands, to: values["--to"], position: try position())
        case "move", "copy":
            guard !operands.isEmpty else { throw usage("'\(spec.name)' needs at least one ITEM") }
            guard let to = values["--to"] else { throw usage("'\(spec.name)' needs --to BOARD") }
            let position = try position()
            return spec.name == "move"
                ? .move(items: operands, to: to, from: values["--from"], position: position)
                : .copy(items: operands, to: to, from: values["--from"], position: position)
        case "remove":
            guard !operands.isEmpty else { throw usage("'remove' needs at least one ITEM") }
            return .remove(items: operands, from: values["--from"])
        case "rename":
            try operandCount(2)
            return .rename(item: operands[0], title: operands[1], from: values["--from"])
        case "board add":
            try operandCount(1)
            return .boardAdd(title: operands[0], at: try number("--at"), limit: try number("--limit"))
        case "board rename":
            try operandCount(2)
            return .boardRename(board: operands[0], title: operands[1])
        case "board move":
            try operandCount(1)
            guard let at = try number("--at") else { throw usage("'board move' needs --at N") }
            return .boardMove(board: operands[0], at: at)
        case "board limit":
            try operandCount(2)
            if operands[1].lowercased() == "none" { return .boardLimit(board: operands[0], limit: nil) }
            guard let limit = Self.nonNegative(operands[1]) else {
                throw usage("a limit is a number (0 or more) or 'none', not \(q(operands[1]))")
            }
            return .boardLimit(board: operands[0], limit: limit)
        case "board remove":
            try operandCount(1)
            return .boardRemove(board: operands[0])
        case "help":
            return .help(topic: operands)
        default:
            preconditionFailure("no parser for command '\(spec.name)'")
        }
    }

    private func usage(_ message: String) -> CLIError {
        .usage(message, command: spec.name)
    }

    private func operandCount(_ expected: Int) throws(CLIError) {
        guard operands.count != expected else { return }
        let synopsis = "kanban \(spec.name) \(spec.synopsis)"
        if operands.count < expected {
            throw usage("missing argument; usage: \(synopsis)")
        }
        throw usage("unexpected argument \(q(operands[expected])); usage: \(synopsis)")
    }

    private func number(_ option: String) throws(CLIError) -> Int? {
        guard let text = values[option] else { return nil }
        guard let value = Self.nonNegative(text) else {
            if text.isDigits { throw usage("\(option) \(text) is too large") }
            throw usage("\(option) takes a number, 0 or more, not \(q(text))")
        }
        return value
    }

    private func position() throws(CLIError) -> PositionArgument? {
        let given = Options.positions.filter { values[$0] != nil || flags.contains($0) }
        guard given.count <= 1 else {
            throw usage("choose one position, not \(given.joined(separator: " and "))")
        }
        switch given.first {
        case "--at": return .at(try number("--at")!)
        case "--top": return .top
        case "--bottom": return .bottom
        case "--before": return .before(values["--before"]!)
        case "--after": return .after(values["--after"]!)
        default: return nil
        }
    }

    private func boardList() throws(CLIError) -> [String]? {
        guard let list = values["--boards"] else { return nil }
        return list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// A non-negative decimal integer: digits only, no sign.
    static func nonNegative(_ text: String) -> Int? {
        guard text.isDigits else { return nil }
        return Int(text)
    }
}

extension StringProtocol {
    /// Whether the text is one or more ASCII digits.
    var isDigits: Bool {
        !isEmpty && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
