/// Where the word being completed stands on a kanban command line, read with the command
/// table as the parser reads it: after which command, as which option's value or which
/// operand, and which kanban file the line names.
struct CompletionContext: Equatable, Sendable {
    /// What the current word is.
    enum Target: Equatable, Sendable {
        /// The command (no command word yet).
        case command
        /// The word after a group's first word (`add` after `board`).
        case subcommand(group: String)
        /// An option of the command (`nil` before a command is known).
        case option(commandName: String?)
        /// A value of these kinds: an option's value or an operand.
        case value([ArgumentKind])
        /// Nothing to offer (an unknown command, an operand past the last).
        case nothing
    }

    var target: Target
    /// The `-f/--file` value on the line, as the words give it.
    var file: String?
    /// The part of the current word that is the value being completed (`Do` of `--to=Do`).
    var prefix: String
    /// The part of the current word before the value (`--to=`), kept as typed.
    var stem: String

    /// Reads `words`, the words after `kanban` up to the cursor; the last one is the word
    /// being completed (empty when the cursor follows a space).
    init(words: [String]) {
        let current = words.last ?? ""
        var operands: [String] = []
        var file: String?
        var pending: OptionSpec?
        var afterDashDash = false
        for word in words.dropLast() {
            if let option = pending {
                if option == Options.file { file = word }
                pending = nil
            } else if afterDashDash {
                operands.append(word)
            } else if word == "--" {
                afterDashDash = true
            } else if word.hasPrefix("--") {
                let (name, value) = Self.split(word)
                guard let spec = Options.named(name), spec.takesValue else { continue }
                if let value {
                    if spec == Options.file { file = value }
                } else {
                    pending = spec
                }
            } else if word.hasPrefix("-") && word.count > 1 && !word.dropFirst().isDigits {
                var letters = word.dropFirst()
                while let letter = letters.popFirst() {
                    guard let spec = Options.long(for: letter), spec.takesValue else { continue }
                    let value = letters.hasPrefix("=") ? String(letters.dropFirst()) : String(letters)
                    if value.isEmpty {
                        pending = spec
                    } else if spec == Options.file {
                        file = value
                    }
                    break
                }
            } else {
                operands.append(word)
            }
        }
        self.file = file
        prefix = current
        stem = ""

        // The command, and the operands after its name.
        var command: CommandSpec?
        var rest = operands[...]
        if let first = rest.first {
            rest.removeFirst()
            if CommandGroups.names.contains(first) {
                if let sub = rest.first {
                    rest.removeFirst()
                    command = Commands.named("\(first) \(sub)")
                }
            } else {
                command = Commands.named(first)
            }
        }
        func kind(of option: OptionSpec) -> ArgumentKind {
            command?.options.first { $0.spec == option }?.kind ?? option.kind
        }

        if let option = pending {
            target = .value([kind(of: option)])
            return
        }
        if !afterDashDash && current.hasPrefix("-") && current.count > 1 {
            if current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
                let name = String(current[..<equals])
                if let option = Options.named(name), option.takesValue {
                    stem = String(current[...equals])
                    prefix = String(current[current.index(after: equals)...])
                    target = .value([kind(of: option)])
                } else {
                    target = .nothing
                }
                return
            }
            let letter = current.dropFirst().first!
            if !current.hasPrefix("--"), current.count > 2, let option = Options.long(for: letter), option.takesValue {
                stem = String(current.prefix(2))
                prefix = String(current.dropFirst(2))
                target = .value([kind(of: option)])
                return
            }
            if !current.dropFirst().isDigits {
                let first = operands.first.flatMap { CommandGroups.names.contains($0) ? nil : $0 }
                target = .option(commandName: command?.name ?? first)
                return
            }
        }
        if current == "-" && !afterDashDash {
            target = .option(commandName: command?.name)
            return
        }
        guard let first = operands.first else {
            target = .command
            return
        }
        if CommandGroups.names.contains(first) && operands.count == 1 {
            target = .subcommand(group: first)
            return
        }
        guard let command else {
            target = .nothing
            return
        }
        if command.name == "help" {
            // `help board add`: a command, then a board subcommand.
            target =
                rest.isEmpty
                ? .value([.command])
                : rest.count == 1 && CommandGroups.names.contains(rest.first!)
                    ? .value([.words(CommandGroups.subcommands(of: rest.first!))]) : .nothing
            return
        }
        let kinds = command.operandKinds(at: rest.count).filter { $0 != .text }
        target = kinds.isEmpty ? .nothing : .value(kinds)
    }

    private static func split(_ word: String) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
