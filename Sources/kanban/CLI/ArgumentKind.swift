/// What an argument is: what shell completion offers where it goes.
///
/// Options say it where they are defined (``OptionSpec/kind``, narrowed per command by
/// ``CommandOption/kind``); operands say it in their command's synopsis, whose placeholders
/// (`ITEM…`, `BOARD`, `FILE`, `bash|zsh|fish`) ``CommandSpec/operandSlots`` reads.
enum ArgumentKind: Hashable, Sendable {
    /// Free text, a number or a date: nothing to offer.
    case text
    /// A board title.
    case board
    /// A card on a board: its id (its title as a description), or its title.
    case item
    /// A card in the archive.
    case archivedItem
    /// A label used in the kanban.
    case label
    /// A file or directory.
    case path
    /// One of these words.
    case words([String])
    /// A command name, as `help` takes it.
    case command

    /// The kind of an operand placeholder of a synopsis: `ITEM`, `BOARD`, `FILE`, `N|none`,
    /// `bash|zsh|fish`.
    init(placeholder: String) {
        let name = placeholder.filter { $0 != "…" }
        if name.contains("|") {
            // Alternatives: the lowercase ones are words to offer (`none` of `N|none`).
            let alternatives: [String] = name.split(separator: "|").map { String($0) }
            let words = alternatives.filter { (word: String) -> Bool in word == word.lowercased() && word != "-" }
            self = words.isEmpty ? .text : .words(words)
            return
        }
        switch name {
        case "ITEM": self = .item
        case "BOARD": self = .board
        case "FILE", "PATH", "DIR", "OLD", "NEW", "BASE", "OURS", "THEIRS", "OUT": self = .path
        case "COMMAND": self = .command
        case "LABEL": self = .label
        default: self = .text
        }
    }
}

/// An operand position of a command, read from its synopsis.
struct OperandSlot: Hashable, Sendable {
    var kind: ArgumentKind
    /// Whether it takes any number of operands (`ITEM…`).
    var repeatable: Bool
}

extension CommandSpec {
    /// The operands the synopsis names, in order: `ITEM… (--to BOARD | BOARD) [POSITION]`
    /// gives `ITEM…` then `BOARD`; an option's value placeholder is not an operand.
    var operandSlots: [OperandSlot] {
        if let slots = Self.operandOverrides[name] { return slots }
        var slots: [OperandSlot] = []
        var skipValue = false
        let words = synopsis.split(whereSeparator: { " ()[]".contains($0) }).map(String.init)
        for word in words {
            if skipValue {
                skipValue = false
                continue
            }
            if word.hasPrefix("-") {
                // An option of this command (or a global one) that takes a value: skip the value.
                let option = word.hasPrefix("--") ? Options.all[word] : word.dropFirst().first.flatMap(Options.long)
                skipValue = option?.takesValue ?? false
                continue
            }
            if word == "|" || word.uppercased() == "POSITION" || word == "FILTERS" || word == "EDITS" { continue }
            let placeholder = word.trimmingCharacters(in: "\"")
            guard placeholder.contains(where: \.isLetter), placeholder.first != "%" else { continue }
            let isAllCaps = placeholder.allSatisfy { !$0.isLowercase }
            guard isAllCaps || placeholder.contains("|") else { continue }
            slots.append(
                OperandSlot(kind: ArgumentKind(placeholder: placeholder), repeatable: placeholder.hasSuffix("…")))
        }
        return slots
    }

    /// Where the synopsis cannot say it: `restore` takes archived cards.
    private static let operandOverrides: [String: [OperandSlot]] = [
        "restore": [OperandSlot(kind: .archivedItem, repeatable: true)],
        // A card or a board (README: Working together).
        "resolve": [OperandSlot(kind: .item, repeatable: true), OperandSlot(kind: .board, repeatable: false)],
    ]

    /// The kinds an operand at `index` (0-based, after the command's name) may be.
    func operandKinds(at index: Int) -> [ArgumentKind] {
        let slots = operandSlots
        guard let repeated = slots.firstIndex(where: \.repeatable) else {
            return index < slots.count ? [slots[index].kind] : []
        }
        if index < repeated { return [slots[index].kind] }
        // From the repeated slot on, any of the rest may be next (`move ITEM… BOARD`).
        return slots[repeated...].map(\.kind).uniqued()
    }
}

extension Array where Element: Hashable {
    fileprivate func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}

/// Commands of two words (`board add`), by their first word: completion offers the second
/// after the first, for any such group the table has.
enum CommandGroups {
    /// The first words, in table order: `board`, …
    static var names: [String] {
        var names: [String] = []
        for spec in Commands.all {
            guard let space = spec.name.firstIndex(of: " ") else { continue }
            let group = String(spec.name[..<space])
            if !names.contains(group) { names.append(group) }
        }
        return names
    }

    /// The second words of `group`, aliases included: `add`, `rename`, …, `rm`.
    static func subcommands(of group: String) -> [String] {
        Commands.all.filter { $0.name.hasPrefix(group + " ") }.flatMap { spec in
            ([spec.name] + spec.aliases).filter { $0.hasPrefix(group + " ") }.map {
                String($0.dropFirst(group.count + 1))
            }
        }
    }

    /// What the group is, for lists of commands.
    static func summary(of group: String) -> String {
        group == "board" ? "work on the boards themselves" : "\(group) commands"
    }
}
