import Glibc
import KanbanCore

/// A command: its name, usage, options (with what each means for it), manual text, and
/// how its arguments become a ``Command``. Each command declares one in its file under
/// `Commands/`; parsing, help, suggestions and shell completion read them through
/// ``Commands/all`` (README: Development). A class, shared rather than copied: the parser
/// hands a command's declaration around for every line of a batch.
///
/// Only the names and the summary are made when the command is: the rest of what it
/// declares (usage, options, manual text) is made the first time it is asked for, once,
/// so that a run, which looks every command's name over, builds only the one it runs
/// (README: Performance).
final class CommandSpec: @unchecked Sendable {
    /// `move`, or `board add` for a board subcommand.
    let name: String
    let aliases: [String]
    let summary: String
    /// Builds the command from its parsed arguments.
    let build: @Sendable (Arguments) throws(CLIError) -> Command

    /// What the command declares besides its names, made once, when first asked for. A
    /// class: handed out for each question a batch's every line asks, it is one reference.
    final class Declaration: Sendable {
        /// Its operands, and the options its usage line shows.
        let usage: [Usage]
        /// The options it takes besides the global ones.
        let options: [CommandOption]
        let details: String
        let examples: [String]
        /// How many operands ``usage`` takes: at least `lower`, at most `upper` (`nil`: any
        /// number). Worked out once here, not at each parse: a batch parses thousands of lines.
        let operandCount: (lower: Int, upper: Int?)
        /// The options it takes, the global ones included.
        let acceptedOptions: [OptionSpec]

        init(usage: [Usage], options: [CommandOption], details: String, examples: [String]) {
            (self.usage, self.options, self.details, self.examples) = (usage, options, details, examples)
            operandCount = Usage.operandCount(usage)
            acceptedOptions = (Options.global + options).map(\.spec)
        }
    }

    private let declare: @Sendable () -> Declaration
    /// ``declaration`` once made; read and set under `lock` only.
    private var made: Declaration?
    private let lock: UnsafeMutablePointer<pthread_mutex_t>

    init(
        _ name: String, aliases: [String] = [], usage: @autoclosure @escaping @Sendable () -> [Usage],
        summary: String, options: @autoclosure @escaping @Sendable () -> [CommandOption] = [],
        details: @autoclosure @escaping @Sendable () -> String,
        examples: @autoclosure @escaping @Sendable () -> [String] = [],
        build: @escaping @Sendable (Arguments) throws(CLIError) -> Command
    ) {
        self.name = name
        self.aliases = aliases
        self.summary = summary
        self.build = build
        declare = { Declaration(usage: usage(), options: options(), details: details(), examples: examples()) }
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// What it declares besides its names. Made outside the lock (making it reads other
    /// declarations), so two threads may both make it; the first one kept is the one every
    /// caller gets.
    var declaration: Declaration {
        pthread_mutex_lock(lock)
        let found = made
        pthread_mutex_unlock(lock)
        if let found { return found }
        let declaration = declare()
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let made { return made }
        made = declaration
        return declaration
    }

    var usage: [Usage] { declaration.usage }
    var options: [CommandOption] { declaration.options }
    var details: String { declaration.details }
    var examples: [String] { declaration.examples }
    var operandCount: (lower: Int, upper: Int?) { declaration.operandCount }
    var acceptedOptions: [OptionSpec] { declaration.acceptedOptions }

    /// Whether it takes `option`, as one of its own or a global one.
    ///
    /// An option is declared once, as a member of ``Options``, and every command that takes
    /// it declares that one: the same object, compared as such, not by its parts.
    func accepts(_ option: OptionSpec) -> Bool {
        acceptedOptions.contains { $0 === option }
    }

    /// What follows the name in the usage line, made from ``usage``.
    var synopsis: String { Usage.synopsis(usage) }

    /// Whether the command changes the kanban file (it takes `--dry-run`).
    var isMutating: Bool { options.contains { $0.spec == Options.dryRun } }
}

/// The commands, each declared in its own file as a static member, and what is shared
/// among their declarations.
enum Commands {
    /// `--dry-run`, as every mutating command describes it.
    static let dryRun = CommandOption(Options.dryRun, "print what would change and write nothing")

    /// The position options, described for cards arriving in a board.
    static func positions(_ what: String) -> [CommandOption] {
        [
            CommandOption(
                Options.at,
                "0-based index of the first \(what) card in the board"
                    + (what == "new" ? "" : ", counted after the \(what) cards are taken out")
                    + "; negative counts from the end (-1: the bottom)"),
            CommandOption(Options.top, "put the cards at the top of the board"),
            CommandOption(Options.bottom, "put the cards at the bottom of the board (the default)"),
            CommandOption(Options.before, "put the cards just before ITEM, a card of the destination board"),
            CommandOption(Options.after, "put the cards just after ITEM, a card of the destination board"),
        ]
    }

    /// The formats import reads.
    static let importFormats = ImportFormat.allCases.map(\.rawValue)
    /// `trello, markdown, csv or json`.
    static let importFormatList =
        importFormats.dropLast().joined(separator: ", ") + " or " + importFormats.last!

    static let wipForce = CommandOption(
        Options.force, "go past the destination board's WIP limit instead of refusing")

    /// Every command, in the order help lists them: the one list a new command joins.
    static let all: [CommandSpec] = [
        initialize, list, show, add, move, copy, remove, rename, edit, archive, restore, resolve, boardAdd,
        boardRename, boardMove, boardLimit, boardRole, boardRemove, batch, log, undo, redo, diff, merge, gitSetup, gitCheck,
        gitResolve, ui, stats, export, importFiles, completion, help,
    ]

    /// The command for a name or alias: `move`, `mv`, `board add`; where two would share
    /// one, the first in ``all``.
    ///
    /// - Complexity: O(*n*) in the commands: a scan of their names, which are made with
    ///   the list, where a table by name would need every name hashed (and, in a static
    ///   executable, the runtime's search for `String: Hashable`) at every run's start.
    static func named(_ name: String) -> CommandSpec? {
        let length = name.utf8.count
        func matches(_ each: String) -> Bool { each.utf8.count == length && each == name }
        return all.first { matches($0.name) || $0.aliases.contains(where: matches) }
    }

    /// The names of the top-level commands, `board` included.
    static let topLevelNames: [String] = {
        var names: [String] = []
        for spec in all {
            let word = String(spec.name.split(separator: " ")[0])
            if !names.contains(word) { names.append(word) }
            names.append(contentsOf: spec.aliases.filter { !$0.contains(" ") })
        }
        return names
    }()

    /// The words after `board`: `add`, `rename`, … and aliases.
    static let boardSubcommands = subcommands(of: "board")

    /// The words that take a subcommand, in list order: `board`, `git`.
    static let groups: [String] = {
        var groups: [String] = []
        for spec in all {
            // By bytes: a search by Characters costs a run 60 K instructions over the names.
            guard let space = spec.name.utf8.firstIndex(of: UInt8(ascii: " ")) else { continue }
            let group = String(spec.name[..<space])
            if !groups.contains(group) { groups.append(group) }
        }
        return groups
    }()

    /// The words after `group`: for `board`, `add`, `rename`, … and aliases.
    static func subcommands(of group: String) -> [String] {
        let prefix = group + " "
        return all.filter { $0.name.hasPrefix(prefix) }
            .flatMap { spec in
                ([spec.name] + spec.aliases).map { String($0.dropFirst(prefix.count)) }
            }
    }
}
