/// A command's arguments as it declares them: its operands, with what each is, and the
/// options its usage line shows, grouped as the usage line groups them. The synopsis,
/// the operand counts the parser checks and what completion offers at each operand all
/// follow from it (README: Development).
indirect enum Usage: Sendable {
    /// An operand: its placeholder (`ITEM`, `N|none`) and what it may be, for completion;
    /// none for a literal such as `-`.
    case operand(String, [ArgumentKind])
    /// An option as the usage line shows it: its value's placeholder when not the option's
    /// own (`--label L`), its short name when `short` (`-n N`).
    case option(OptionSpec, value: String? = nil, short: Bool = false)
    /// A name for several options the help lists: `POSITION`, `FILTERS`.
    case options(String)
    /// `[…]`: may be left out.
    case optional([Usage])
    /// `(…)`: a group, as around alternatives.
    case group([Usage])
    /// `a | b`: one of these.
    case oneOf([[Usage]])
    /// `X…`: one or more.
    case repeated(Usage)

    // MARK: - The operands commands take

    static let item = operand("ITEM", [.item])
    static let items = repeated(item)
    static let board = operand("BOARD", [.board])
    static let boards = repeated(board)
    /// `ITEM… (--to BOARD | BOARD) [POSITION]`, as move and copy take them.
    static let itemsAndDestination: [Usage] = [
        items, group([oneOf([[option(Options.to)], [board]])]), optional([options("POSITION")]),
    ]

    /// Free text, or a number: `TITLE`, `N`.
    static func text(_ placeholder: String) -> Usage { operand(placeholder, [.text]) }
    /// A file's path: `FILE`, `OLD`.
    static func path(_ placeholder: String) -> Usage { operand(placeholder, [.path]) }
    /// `[--flag]` or `[--option VALUE]`.
    static func optional(_ option: OptionSpec, value: String? = nil, short: Bool = false) -> Usage {
        optional([.option(option, value: value, short: short)])
    }

    // MARK: - What follows from it

    /// The usage line after the command's name: `ITEM… (--to BOARD | BOARD) [POSITION]`.
    static func synopsis(_ parts: [Usage]) -> String {
        parts.map(\.text).joined(separator: " ")
    }

    var text: String {
        switch self {
        case .operand(let placeholder, _): placeholder
        case .option(let spec, let value, let short):
            (short ? spec.short.map { "-\($0)" } ?? spec.name : spec.name)
                + ((value ?? spec.value).map { " \($0)" } ?? "")
        case .options(let name): name
        case .optional(let parts): "[\(Self.synopsis(parts))]"
        case .group(let parts): "(\(Self.synopsis(parts)))"
        case .oneOf(let alternatives): alternatives.map(Self.synopsis).joined(separator: " | ")
        case .repeated(let part): part.text + "…"
        }
    }

    /// The operand positions, in the order the usage line names them (alternatives one
    /// after the other), each marked repeatable when it takes any number of operands.
    func slots(repeatable: Bool = false) -> [OperandSlot] {
        switch self {
        case .operand(_, let kinds): kinds.isEmpty ? [] : [OperandSlot(kinds: kinds, repeatable: repeatable)]
        case .option, .options: []
        case .optional(let parts), .group(let parts): parts.flatMap { $0.slots(repeatable: repeatable) }
        case .oneOf(let alternatives): alternatives.joined().flatMap { $0.slots(repeatable: repeatable) }
        case .repeated(let part): part.slots(repeatable: true)
        }
    }

    /// How many operands it takes: at least `lower`, at most `upper` (`nil`: any number).
    var operandCount: (lower: Int, upper: Int?) {
        switch self {
        case .operand: (1, 1)
        case .option, .options: (0, 0)
        case .optional(let parts): (0, Self.operandCount(parts).upper)
        case .group(let parts): Self.operandCount(parts)
        case .oneOf(let alternatives):
            alternatives.map(Self.operandCount).reduce((Int.max, 0 as Int?)) { total, each in
                (min(total.0, each.lower), total.1.flatMap { upper in each.upper.map { max(upper, $0) } })
            }
        case .repeated(let part):
            (part.operandCount.lower, part.operandCount.upper == 0 ? 0 : nil)
        }
    }

    /// The operands of a sequence of parts: their counts added.
    static func operandCount(_ parts: [Usage]) -> (lower: Int, upper: Int?) {
        parts.map(\.operandCount).reduce((0, 0 as Int?)) { total, each in
            (total.0 + each.lower, total.1.flatMap { upper in each.upper.map { upper + $0 } })
        }
    }
}

/// An operand position of a command, from its ``Usage``.
struct OperandSlot: Hashable, Sendable {
    /// What it may be: one kind, or several (`ITEM|BOARD`).
    var kinds: [ArgumentKind]
    /// Whether it takes any number of operands (`ITEM…`).
    var repeatable: Bool
}
