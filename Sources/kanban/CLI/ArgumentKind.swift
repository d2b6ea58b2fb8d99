/// What an argument is: what shell completion offers where it goes.
///
/// Options say it where they are defined (``OptionSpec/kind``, narrowed per command by
/// ``CommandOption/kind``); operands say it in their command's ``Usage``.
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
    /// A name a card of the kanban is assigned to.
    case assignee
    /// A file or directory.
    case path
    /// One of these words.
    case words([String])
    /// A command name, as `help` takes it.
    case command
}

extension CommandSpec {
    /// The operand positions its usage declares, in order: `ITEM… (--to BOARD | BOARD)
    /// [POSITION]` gives `ITEM…` then `BOARD`.
    var operandSlots: [OperandSlot] { usage.flatMap { $0.slots() } }

    /// The kinds an operand at `index` (0-based, after the command's name) may be.
    func operandKinds(at index: Int) -> [ArgumentKind] {
        let slots = operandSlots
        guard let repeated = slots.firstIndex(where: \.repeatable) else {
            return index < slots.count ? slots[index].kinds : []
        }
        if index < repeated { return slots[index].kinds }
        // From the repeated slot on, any of the rest may be next (`move ITEM… BOARD`).
        return slots[repeated...].flatMap(\.kinds).uniqued()
    }
}

extension Array where Element: Hashable {
    fileprivate func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}

/// Commands of two words (`board add`), by their first word: completion offers the second
/// after the first, for any such group the table has.
enum CommandGroups {
    /// The first words, in list order: `board`, …
    static var names: [String] { Commands.groups }

    /// The second words of `group`, aliases included: `add`, `rename`, …, `rm`.
    static func subcommands(of group: String) -> [String] { Commands.subcommands(of: group) }

    /// What the group is, for lists of commands.
    static func summary(of group: String) -> String {
        group == "board" ? "work on the boards themselves" : "\(group) commands"
    }
}
