import KanbanCore

/// An option as the parser knows it: its names and whether it takes a value. What it means
/// is said by each command that takes it (``CommandOption``), so help speaks of that command.
///
/// A class, shared rather than copied: the parser hands options around for every line of a
/// batch. Two are equal when all their parts are, as for a struct.
final class OptionSpec: Hashable, Sendable {
    /// The long name, with its dashes: `--to`.
    let name: String
    /// The short name, if any: `f` for `-f`.
    let short: Character?
    /// The value's placeholder (`BOARD`), or `nil` for a flag.
    let value: String?
    /// Whether it may be given several times, each value kept (`--label a --label b`).
    let repeatable: Bool
    /// What its value is, for shell completion: made when asked for, as only completion
    /// asks, not with every option at every run's start.
    var kind: ArgumentKind { makeKind() }
    private let makeKind: @Sendable () -> ArgumentKind

    init(
        _ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false,
        kind: @autoclosure @escaping @Sendable () -> ArgumentKind = .text
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.makeKind = kind
    }

    var takesValue: Bool { value != nil }

    static func == (lhs: OptionSpec, rhs: OptionSpec) -> Bool {
        lhs === rhs
            || (lhs.name == rhs.name && lhs.short == rhs.short && lhs.value == rhs.value
                && lhs.repeatable == rhs.repeatable && lhs.kind == rhs.kind)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}

/// An option of one command, with what it means there.
struct CommandOption: Sendable {
    let spec: OptionSpec
    let help: String
    /// What its value is for this command, when that is narrower than the option's own kind
    /// (`--format` takes different words for export and import).
    let kind: ArgumentKind

    init(_ spec: OptionSpec, _ help: String, kind: ArgumentKind? = nil) {
        self.spec = spec
        self.help = help
        self.kind = kind ?? spec.kind
    }
}

/// Every option kanban knows.
enum Options {
    // Global: every command takes them.
    static let file = OptionSpec("--file", short: "f", value: "PATH", kind: .path)
    static let json = OptionSpec("--json")
    static let quiet = OptionSpec("--quiet", short: "q")
    static let color = OptionSpec("--color", value: "WHEN", kind: .words(ColorMode.allCases.map(\.rawValue)))
    static let help = OptionSpec("--help", short: "h")
    static let version = OptionSpec("--version")

    // Command options.
    static let dryRun = OptionSpec("--dry-run")
    static let force = OptionSpec("--force")
    static let sample = OptionSpec("--sample")
    static let boards = OptionSpec("--boards", value: "\"A,B,C\"")
    static let tsv = OptionSpec("--tsv")
    static let compact = OptionSpec("--compact")
    static let noPager = OptionSpec("--no-pager")
    static let to = OptionSpec("--to", value: "BOARD", kind: .board)
    static let from = OptionSpec("--from", value: "BOARD", kind: .board)
    static let at = OptionSpec("--at", value: "N")
    static let top = OptionSpec("--top")
    static let bottom = OptionSpec("--bottom")
    static let before = OptionSpec("--before", value: "ITEM", kind: .item)
    static let after = OptionSpec("--after", value: "ITEM", kind: .item)
    static let limit = OptionSpec("--limit", value: "N")
    static let label = OptionSpec("--label", value: "LABEL", repeatable: true, kind: .label)
    static let unlabel = OptionSpec("--unlabel", value: "LABEL", repeatable: true, kind: .label)
    static let assign = OptionSpec("--assign", value: "NAME", repeatable: true, kind: .assignee)
    static let unassign = OptionSpec("--unassign", value: "NAME", repeatable: true, kind: .assignee)
    static let assignee = OptionSpec("--assignee", value: "NAME", repeatable: true, kind: .assignee)
    static let mine = OptionSpec("--mine")
    static let due = OptionSpec("--due", value: "DATE", kind: .words(["today", "tomorrow", "none"]))
    static let note = OptionSpec("--note", value: "TEXT")
    static let appendNote = OptionSpec("--append-note", value: "TEXT")
    static let title = OptionSpec("--title", value: "TITLE")
    static let grep = OptionSpec("--grep", value: "TEXT")
    static let dueBefore = OptionSpec("--due-before", value: "DATE", kind: .words(["today", "tomorrow"]))
    static let overdue = OptionSpec("--overdue")
    static let olderThan = OptionSpec("--older-than", value: "AGE")
    static let archived = OptionSpec("--archived")
    static let count = OptionSpec("--count", short: "n", value: "N")
    static let exitCode = OptionSpec("--exit-code")
    static let gitDriver = OptionSpec("--git")
    static let format = OptionSpec("--format", value: "FORMAT")
    static let output = OptionSpec("--output", short: "o", value: "FILE", kind: .path)
    static let importFile = OptionSpec("--import", value: "FILE", kind: .path)
    static let ours = OptionSpec("--ours")
    static let theirs = OptionSpec("--theirs")
    static let field = OptionSpec(
        "--field", value: "FIELD", repeatable: true, kind: .words(ConflictField.allCases.map(\.rawValue)))
    static let conflicts = OptionSpec("--conflicts")
    static let since = OptionSpec("--since", value: "DATE", kind: .words(["today"]))
    static let until = OptionSpec("--until", value: "DATE", kind: .words(["today"]))
    static let cfd = OptionSpec("--cfd")
    static let svg = OptionSpec("--svg", value: "FILE", kind: .path)

    /// The options of every command, with what they mean everywhere.
    static let global: [CommandOption] = [
        CommandOption(file, "use this kanban file (else $KANBAN_FILE, else the nearest kanban.json)"),
        CommandOption(json, "print machine-readable JSON (errors too, on stderr)"),
        CommandOption(quiet, "print nothing on success"),
        CommandOption(color, "color output: auto, always or never (auto: on a terminal, unless NO_COLOR is set)"),
        CommandOption(help, "show help for the command"),
        CommandOption(version, "print the version"),
    ]

    /// Every option, global or a command's, each once: what the tokenizer recognizes. The
    /// one list a new option joins (README: Development); every option a command declares
    /// is in it, and only those.
    static let all: [OptionSpec] = [
        file, json, quiet, color, help, version, dryRun, force, sample, boards, tsv, compact, noPager, to, from, at,
        top, bottom, before, after, limit, label, unlabel, assign, unassign, assignee, mine, due, note, appendNote,
        title, grep, dueBefore, overdue, olderThan, archived, count, exitCode, gitDriver, format, output, importFile,
        ours, theirs, field, conflicts, since, until, cfd, svg,
    ]

    /// The option of a long name, with its dashes: `--to`.
    ///
    /// - Complexity: O(*n*) in the options: a scan of ``all``, where a table by name would
    ///   need every name hashed (and, in a static executable, the runtime's search for
    ///   `String: Hashable`) at every run's start (README: Performance).
    static func named(_ name: String) -> OptionSpec? {
        // Lengths first: most differ, and compare for less than the names do.
        let length = name.utf8.count
        return all.first { $0.name.utf8.count == length && $0.name == name }
    }

    /// The long option for a short letter (each letter means one option in every command).
    static func long(for short: Character) -> OptionSpec? {
        all.first { $0.short == short }
    }

    /// The position options, of which a command takes at most one.
    static let positions = [at, top, bottom, before, after]
}

/// The options of a card field that is a set of words (``CardField`` of kind `words`): one
/// adds words (to each new card on `add`, to the card on `edit`), one takes them away.
/// `add`, `edit`, a command line printed back and the editor's card
/// text go through this table, field by field. A row is shared, not copied: `add` reads the
/// table once per card it parses, a batch's thousands of lines included.
final class WordsFieldOptions: Sendable {
    /// How a set's words are typed.
    enum Syntax: Sendable {
        /// Comma-separated when added; taken away as typed (`--unlabel a,b` takes away `a,b`).
        case labels
        /// Comma-separated, a leading `@` dropped (`--assign @alice,bob`), added or taken away.
        case names
    }

    /// The field's name.
    let field: String
    let add: OptionSpec
    let remove: OptionSpec
    let syntax: Syntax
    /// The value's placeholder in usage lines, when not the option's own (`--label L`).
    let placeholder: String?
    /// What `add`'s and `edit`'s adding option and `edit`'s taking-away option do, in help.
    let addHelp: String, editHelp: String, removeHelp: String

    init(
        field: String, add: OptionSpec, remove: OptionSpec, syntax: Syntax, placeholder: String?, addHelp: String,
        editHelp: String, removeHelp: String
    ) {
        (self.field, self.add, self.remove, self.syntax) = (field, add, remove, syntax)
        (self.placeholder, self.addHelp, self.editHelp, self.removeHelp) = (placeholder, addHelp, editHelp, removeHelp)
        descriptor = CardField.all.first { $0.name == field }!
    }

    /// The field's descriptor.
    let descriptor: CardField

    /// The usage line's options that add and (on `edit`) take away words.
    func usage(removing: Bool) -> [Usage] {
        [.repeated(.optional(add, value: placeholder))]
            + (removing ? [.repeated(.optional(remove, value: placeholder))] : [])
    }
}

extension Options {
    /// The options of each card field that is a set of words, in the order usage lines,
    /// help and command lines give them (README: Cards with content).
    static let words: [WordsFieldOptions] = [
        WordsFieldOptions(
            field: "labels", add: label, remove: unlabel, syntax: .labels, placeholder: "L",
            addHelp: "give every new card this label (repeatable)", editHelp: "add this label (repeatable)",
            removeHelp: "take this label away (repeatable)"),
        WordsFieldOptions(
            field: "assignees", add: assign, remove: unassign, syntax: .names, placeholder: nil,
            addHelp: "assign every new card to NAME (repeatable; a leading @ is dropped)",
            editHelp: "assign the card to NAME (repeatable; a leading @ is dropped)",
            removeHelp: "take NAME off the card (repeatable)"),
    ]
}

/// The option of a card field that is a date (``CardField`` of kind `day`): it dates each
/// new card on `add`, and the card on `edit`, as `--due` does.
final class DateFieldOptions: Sendable {
    /// The field's name.
    let field: String
    let option: OptionSpec
    /// What the option does on `add` and on `edit`, in help.
    let addHelp: String, editHelp: String

    init(field: String, option: OptionSpec, addHelp: String, editHelp: String) {
        (self.field, self.option, self.addHelp, self.editHelp) = (field, option, addHelp, editHelp)
    }
}

extension Options {
    /// The options of each card field that is a date, in the order usage lines, help and
    /// command lines give them.
    static let dates: [DateFieldOptions] = [
        DateFieldOptions(
            field: "due", option: due, addHelp: "give every new card this due date (YYYY-MM-DD, today, +3d, …)",
            editHelp: "the new due date (YYYY-MM-DD, today, tomorrow, +Nd, +Nw), or none")
    ]
}
