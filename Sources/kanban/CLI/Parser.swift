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
        if tokens.options.contains(where: { $0.spec == Options.version }) {
            var options = GlobalOptions()
            options.json = tokens.options.contains { $0.spec == Options.json }
            return Invocation(command: .version, options: options)
        }
        guard let word = tokens.operands.first else {
            if let unknown = tokens.unknown.first {
                throw .usage(unknownOptionMessage(unknown, for: nil), command: nil)
            }
            if tokens.options.contains(where: { $0.spec == Options.help }) {
                return Invocation(command: .help(topic: []), options: GlobalOptions())
            }
            // `kanban` alone, perhaps with global options: the board, or the help summary.
            let spec = Commands.named("list")!
            let given = try collect(tokens.options, for: spec)
            return Invocation(command: .overview, options: try globalOptions(given, spec: spec))
        }
        tokens.operands.removeFirst()
        if tokens.operands.isEmpty && Commands.groups.contains(word)
            && tokens.options.contains(where: { $0.spec == Options.help })
        {
            return Invocation(command: .help(topic: [word]), options: GlobalOptions())
        }
        let spec = try commandSpec(for: word, operands: &tokens.operands)
        if let unknown = tokens.unknown.first {
            throw .usage(unknownOptionMessage(unknown, for: spec), command: spec.name)
        }
        let given = try collect(tokens.options, for: spec)
        if given.flag(Options.help) {
            return Invocation(
                command: .help(topic: spec.name.split(separator: " ").map(String.init)), options: GlobalOptions())
        }
        let options = try globalOptions(given, spec: spec)
        let arguments = Arguments(spec: spec, operands: tokens.operands, given: given)
        return Invocation(command: try spec.build(arguments), options: options)
    }

    /// The options, checked against what `spec` accepts.
    ///
    /// - Complexity: O(*n*·*k*) for *n* options of *k* kinds: an option taken once is
    ///   checked against its last value before it, found by looking back to it (or, for its
    ///   first, to the start), so all of them together look back over the options at most
    ///   *k* times.
    private static func collect(_ options: [ParsedOption], for spec: CommandSpec) throws(CLIError) -> GivenOptions {
        for (index, option) in options.enumerated() {
            guard spec.accepts(option.spec) else {
                throw .usage(unknownOptionMessage(option.typed, for: spec), command: spec.name)
            }
            // A value given again must be the same (values before it are all alike).
            if let value = option.value, !option.spec.repeatable,
                let previous = options[..<index].last(where: { $0.spec === option.spec }), previous.value != value
            {
                throw .usage("option \(q(option.spec.name)) is given twice", command: spec.name)
            }
        }
        return GivenOptions(options)
    }

    private static func globalOptions(_ given: GivenOptions, spec: CommandSpec) throws(CLIError) -> GlobalOptions {
        var options = GlobalOptions()
        let file = given.value(Options.file)
        if file == "" { throw .usage("--file needs a path, not an empty string", command: spec.name) }
        options.file = file
        options.json = given.flag(Options.json)
        options.quiet = given.flag(Options.quiet)
        if let color = given.value(Options.color) {
            guard let mode = ColorMode(rawValue: color) else {
                throw .usage("--color takes auto, always or never, not \(q(color))", command: spec.name)
            }
            options.color = mode
        }
        return options
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
        tokens.options.reserveCapacity(arguments.count)
        tokens.operands.reserveCapacity(arguments.count)
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
            if !startsWithDash(argument) {
                tokens.operands.append(argument)
            } else if argument == "--" {
                tokens.operands.append(contentsOf: arguments[(index + 1)...])
                break
            } else if let spec = Options.named(argument) {
                // An option's whole name, as most are given: it begins with `--` and has no `=`.
                let value = spec.takesValue ? try nextValue(for: spec) : nil
                tokens.options.append(ParsedOption(spec: spec, typed: argument, value: value))
            } else if argument.hasPrefix("--") {
                let (name, inlineValue) = split(argument)
                guard let spec = Options.named(name) else {
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
        guard startsWithDash(argument) else { return false }
        if Options.named(argument) != nil { return true }
        if argument.hasPrefix("--") { return Options.named(split(argument).name) != nil }
        if argument.hasPrefix("-"), argument.count == 2, let letter = argument.last {
            return Options.long(for: letter) != nil
        }
        return false
    }

    /// Whether the first byte is `-`: else neither `-` nor `--` begins the argument, whatever
    /// follows (a Character that is `-` begins with it), found without reading Characters
    /// for the operands and values of every line of a batch.
    private static func startsWithDash(_ argument: String) -> Bool {
        argument.utf8.first == UInt8(ascii: "-")
    }

    /// `-1`: an operand (a mistyped index), not an option, so that its error says so.
    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.dropFirst().isDigits
    }

    // MARK: - Commands and options

    private static func commandSpec(for word: String, operands: inout [String]) throws(CLIError) -> CommandSpec {
        if Commands.groups.contains(word) {
            let subcommands = Commands.subcommands(of: word)
            guard let sub = operands.first else {
                throw .usage("'\(word)' needs a subcommand: \(subcommands.joined(separator: ", "))", command: word)
            }
            guard let spec = Commands.named("\(word) \(sub)") else {
                var message = "unknown \(word) subcommand \(q(sub))"
                if let guess = Suggestions.closest(to: sub, among: subcommands, limit: 1).first {
                    message += "; did you mean '\(word) \(guess)'?"
                } else {
                    message += "; \(word) subcommands: \(subcommands.joined(separator: ", "))"
                }
                throw .usage(message, command: word)
            }
            operands.removeFirst()
            return spec
        }
        guard let spec = Commands.named(word), !spec.name.utf8.contains(UInt8(ascii: " ")) else {
            var message = "unknown command \(q(word))"
            if let guess = Suggestions.closest(to: word, among: Commands.topLevelNames, limit: 1).first {
                message += "; did you mean '\(guess)'?"
            }
            throw .usage(message, command: nil)
        }
        return spec
    }

    private static func unknownOptionMessage(_ typed: String, for spec: CommandSpec?) -> String {
        let name = split(typed).name
        let candidates =
            spec.map { ($0.options + Options.global).map(\.spec.name) } ?? Options.all.map(\.name).sorted()
        if let spec, Options.named(name) != nil {
            let owners = Commands.all.filter { $0.options.contains { $0.spec.name == name } }.map(\.name)
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

/// The options of one command line as given, in order, each one the command takes.
///
/// A line gives a few options, and a command asks for each of its own once or twice: a scan
/// comparing options as objects (each is declared once, ``CommandSpec/accepts(_:)``) costs
/// less than hashing their names, which shows in a batch of thousands of lines (README:
/// Performance). Each question is O(*n*) in the options given.
struct GivenOptions {
    private let given: [Parser.ParsedOption]

    /// The options, each one the command takes (``Parser``'s to check).
    init(_ given: [Parser.ParsedOption]) {
        self.given = given
    }

    /// Whether the flag is given.
    func flag(_ option: OptionSpec) -> Bool {
        given.contains { $0.spec === option && $0.value == nil }
    }

    /// Whether the option is given, as a flag or with a value.
    func contains(_ option: OptionSpec) -> Bool {
        given.contains { $0.spec === option }
    }

    /// The last value of the option.
    func value(_ option: OptionSpec) -> String? {
        for each in given.reversed() where each.spec === option {
            if let value = each.value { return value }
        }
        return nil
    }

    /// Every value of the option, in order.
    func values(_ option: OptionSpec) -> [String] {
        given.compactMap { $0.spec === option ? $0.value : nil }
    }
}

/// The operands and option values of one command, with the checks its builder needs.
struct Arguments {
    let spec: CommandSpec
    let operands: [String]
    let given: GivenOptions

    func flag(_ option: OptionSpec) -> Bool {
        given.flag(option)
    }

    /// The value of an option given once (or twice alike).
    func value(_ option: OptionSpec) -> String? {
        given.value(option)
    }

    /// Every value of a repeatable option, in order.
    func values(_ option: OptionSpec) -> [String] {
        given.values(option)
    }

    func usage(_ message: String) -> CLIError {
        .usage(message, command: spec.name)
    }

    /// Checks the number of operands against what the command's usage declares.
    func operandCount() throws(CLIError) {
        let (lower, upper) = spec.operandCount
        try operandCount(lower...(upper ?? Int.max))
    }

    /// Checks the number of operands against `expected`, for a form of the command.
    func operandCount(_ expected: ClosedRange<Int>) throws(CLIError) {
        guard !expected.contains(operands.count) else { return }
        let synopsis = "kanban \(spec.name) \(spec.synopsis)"
        if operands.count < expected.lowerBound {
            throw usage("missing argument; usage: \(synopsis)")
        }
        throw usage("unexpected argument \(q(operands[expected.upperBound])); usage: \(synopsis)")
    }

    /// The operands as ITEM references: at least one.
    func items() throws(CLIError) -> [String] {
        guard !operands.isEmpty else { throw usage("'\(spec.name)' needs at least one ITEM") }
        return operands
    }

    /// ITEMs and the destination: `--to BOARD`, else the last operand, as with mv(1).
    func itemsAndDestination() throws(CLIError) -> (items: [String], to: String) {
        if let to = value(Options.to) { return (try items(), to) }
        guard operands.count >= 2 else {
            throw usage(
                operands.isEmpty
                    ? "'\(spec.name)' needs ITEMs and a destination: ITEM… --to BOARD, or ITEM… BOARD"
                    : "'\(spec.name)' needs a destination: --to BOARD, or a BOARD after the ITEMs")
        }
        return (Array(operands.dropLast()), operands.last!)
    }

    /// A title typed by the user, checked.
    func title(_ text: String) throws(CLIError) -> Title {
        do {
            return try Title(text)
        } catch {
            throw .refused(error)
        }
    }

    /// A note typed by the user, checked (CRLF read as LF).
    func checkedNote(_ text: String) throws(CLIError) -> String {
        do {
            return try Note.checked(text)
        } catch {
            throw .refused(error)
        }
    }

    /// `--note TEXT` for new cards: `nil` when absent or empty.
    func note(_ option: OptionSpec) throws(CLIError) -> String? {
        guard let text = value(option), !text.isEmpty else { return nil }
        return try checkedNote(text)
    }

    /// Every value of a repeatable option, each split at its commas (`--label a,b`).
    func commaSeparated(_ option: OptionSpec) -> [String] {
        let values = values(option)
        // Most values hold no comma: the values themselves, not split into Characters.
        guard values.contains(where: { $0.utf8.contains(UInt8(ascii: ",")) }) else { return values }
        return values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map(String.init)
    }

    /// The labels of a repeatable option; a value may also hold several, comma-separated.
    func labels(_ option: OptionSpec) throws(CLIError) -> Labels {
        do {
            return try Labels(validating: commaSeparated(option))
        } catch {
            throw .usage("\(option.name): \(error.message)", command: spec.name)
        }
    }

    /// The user names of an option (`--assign @alice,bob`): comma-separated as labels, each
    /// with its rules, a leading `@` dropped (README: Cards with content).
    func names(_ option: OptionSpec) -> [String] {
        commaSeparated(option).map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 }
    }

    /// The words a set of words' adding option gives (`--label`, `--assign`), each checked.
    func words(adding options: WordsFieldOptions) throws(CLIError) -> Labels {
        guard given.contains(options.add) else { return Labels() }
        let kind = options.descriptor.word ?? .label
        let typed =
            switch options.syntax {
            case .labels: commaSeparated(options.add)
            case .names: names(options.add)
            }
        var set = Labels()
        for word in typed {
            do {
                set.insert(try Labels.checked(word, as: kind))
            } catch {
                throw .usage("\(options.add.name): \(error.message)", command: spec.name)
            }
        }
        return set
    }

    /// The words a set of words' taking-away option gives (`--unlabel`, `--unassign`).
    func words(removing options: WordsFieldOptions) -> [String] {
        switch options.syntax {
        case .labels: values(options.remove)
        case .names: names(options.remove)
        }
    }

    /// A date option: `YYYY-MM-DD`, `today`, `tomorrow`, `+Nd`, `+Nw`, or `none` for a
    /// date field's own option (which clears it), not a filter's.
    func due(_ option: OptionSpec) throws(CLIError) -> DueInput? {
        guard let text = value(option) else { return nil }
        do {
            let due = try DueInput(text)
            if due == .none && !Options.dates.contains(where: { $0.option == option }) {
                throw usage("\(option.name) needs a date, not 'none'")
            }
            return due
        } catch let error as CLIError {
            throw error
        } catch let error as KanbanError {
            throw .usage("\(option.name): \(error.message)", command: spec.name)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// `--older-than AGE`.
    func age() throws(CLIError) -> Age? {
        guard let text = value(Options.olderThan) else { return nil }
        do {
            return try Age(text)
        } catch {
            throw .usage("--older-than: \(error.message)", command: spec.name)
        }
    }

    /// A non-negative number option, such as `--limit N` or a board's `--at N`.
    func number(_ option: OptionSpec) throws(CLIError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let value = Self.nonNegative(text) else {
            if text.isDigits { throw usage("\(option.name) \(text) is too large") }
            throw usage("\(option.name) takes a number, 0 or more, not \(q(text))")
        }
        return value
    }

    /// The optional N of `undo [N]` and `redo [N]`: a positive number, 1 when absent.
    func count() throws(CLIError) -> Int {
        guard operands.count <= 1 else { throw usage("'\(spec.name)' takes at most one number, N") }
        guard let text = operands.first else { return 1 }
        guard let count = Self.nonNegative(text), count > 0 else {
            throw usage("'\(spec.name)' takes a number of changes, 1 or more, not \(q(text))")
        }
        return count
    }

    /// At most one of the position options; `--at` may count from the end (`-1`).
    func position() throws(CLIError) -> Position? {
        let positions = Options.positions.filter { given.contains($0) }
        guard positions.count <= 1 else {
            throw usage("choose one position, not \(positions.map(\.name).joined(separator: " and "))")
        }
        switch positions.first {
        case Options.at:
            let text = value(Options.at)!
            let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
            guard digits.isDigits else { throw usage("--at takes a whole number such as 0, 2 or -1, not \(q(text))") }
            guard let index = Int(text) else { throw usage("--at \(text) is too large") }
            return .at(index)
        case Options.top: return .top
        case Options.bottom: return .bottom
        case Options.before: return .before(value(Options.before)!)
        case Options.after: return .after(value(Options.after)!)
        default: return nil
        }
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
