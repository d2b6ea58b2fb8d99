/// An option a command accepts, as `--help` shows it.
struct OptionSpec: Sendable {
    /// The long name, with its dashes: `--to`.
    let name: String
    /// The short name, if any: `f` for `-f`.
    let short: Character?
    /// The value's placeholder (`BOARD`), or `nil` for a flag.
    let value: String?
    let help: String

    init(_ name: String, short: Character? = nil, value: String? = nil, _ help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }

    var takesValue: Bool { value != nil }
}

/// A command: its name, synopsis, options and manual text. Parsing, help and "did you
/// mean" all read this one table.
struct CommandSpec: Sendable {
    /// `move`, or `board add` for a board subcommand.
    let name: String
    let aliases: [String]
    /// What follows the name in the usage line.
    let synopsis: String
    let summary: String
    /// Option names (besides the global ones) the command accepts.
    let options: [String]
    let details: String
    let examples: [String]
}

enum Options {
    static let file = OptionSpec(
        "--file", short: "f", value: "PATH", "use this kanban file (else $KANBAN_FILE, else the nearest kanban.json)")
    static let json = OptionSpec("--json", "print machine-readable JSON (errors too, on stderr)")
    static let quiet = OptionSpec("--quiet", short: "q", "print nothing on success")
    static let color = OptionSpec(
        "--color", value: "WHEN", "color output: auto, always or never (auto: on a terminal, unless NO_COLOR is set)")
    static let help = OptionSpec("--help", short: "h", "show help for the command")
    static let version = OptionSpec("--version", "print the version")

    /// Accepted by every command.
    static let global = [file, json, quiet, color, help, version]

    /// Every option of every command, by long name.
    static let all: [String: OptionSpec] = Dictionary(
        uniqueKeysWithValues: (global + [
            OptionSpec("--sample", "fill the new kanban with the tutorial's boards and cards"),
            OptionSpec(
                "--boards", value: "\"A,B,C\"", "comma-separated board titles (default: Todo, In Progress, Done)"),
            OptionSpec("--tsv", "print one line per item: board, index, id, title, tab-separated"),
            OptionSpec("--compact", "show one line per card, cut with …"),
            OptionSpec("--no-pager", "print the view directly, even when it is taller than the terminal"),
            OptionSpec("--to", value: "BOARD", "the destination board"),
            OptionSpec("--from", value: "BOARD", "look item titles up in this board only"),
            OptionSpec("--at", value: "N", "0-based position; for items: the final index of the first one"),
            OptionSpec("--top", "put the items at the top of the board"),
            OptionSpec("--bottom", "put the items at the bottom of the board (the default)"),
            OptionSpec("--before", value: "ITEM", "put the items just before ITEM, in the destination board"),
            OptionSpec("--after", value: "ITEM", "put the items just after ITEM, in the destination board"),
            OptionSpec("--limit", value: "N", "a WIP limit: the board refuses items coming in once it holds N"),
            OptionSpec("--force", "go past a WIP limit; remove a board with its items"),
            OptionSpec("--dry-run", "print what would change and write nothing"),
        ]).map { ($0.name, $0) })

    /// The long option for a short letter.
    static func long(for short: Character) -> OptionSpec? {
        global.first { $0.short == short }
    }

    static let positions = ["--at", "--top", "--bottom", "--before", "--after"]
}

enum Commands {
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "init", aliases: [], synopsis: "[--sample] [--boards \"A,B,C\"]",
            summary: "create kanban.json here (Todo, In Progress, Done by default)",
            options: ["--sample", "--boards", "--dry-run"],
            details: """
                Creates ./kanban.json, or the file named by --file or $KANBAN_FILE, and shows it.
                It never overwrites a file and does not create missing directories.
                """,
            examples: ["kanban init --sample", "kanban init --boards \"Backlog,Doing,Review,Done\""]),
        CommandSpec(
            name: "list", aliases: ["ls"], synopsis: "[BOARD…] [--json | --tsv] [--compact] [--no-pager]",
            summary: "show boards",
            options: ["--tsv", "--compact", "--no-pager"],
            details: """
                On a terminal the boards stand side by side, each column as wide as its cards need
                within the terminal's width, titles wrapped at spaces; when it is too narrow, and
                elsewhere, they are stacked. Each card shows its index and id. A view taller than
                the terminal goes through $KANBAN_PAGER, else $PAGER, else 'less -FRX'.
                With BOARD arguments, only those boards.
                --json prints the kanban document; --tsv prints board, index, id and title per line.
                """,
            examples: [
                "kanban list", "kanban list Todo Done", "kanban list --json | jq '.boards[0].items[0].title'",
                "kanban list --tsv | cut -f1,4",
            ]),
        CommandSpec(
            name: "add", aliases: [], synopsis: "[TEXT…] [--to BOARD] [--at N]",
            summary: "add items; no TEXT: one item per stdin line",
            options: ["--to"] + Options.positions + ["--force", "--dry-run"],
            details: """
                Each TEXT is one new item; with no TEXT (or with -), each non-blank line of standard
                input is one. Surrounding whitespace is trimmed. Items go to the bottom of the first
                board unless --to and a position say otherwise; several land together, in order.
                Invalid UTF-8 or a control character refuses the whole input.
                """,
            examples: [
                "kanban add \"Write docs\" --to Todo --top",
                "git log --oneline | cut -d' ' -f2- | kanban add --to Todo",
            ]),
        CommandSpec(
            name: "move", aliases: ["mv"], synopsis: "ITEM… --to BOARD [--at N]",
            summary: "move items to a board, or reorder them in it",
            options: ["--to", "--from"] + Options.positions + ["--force", "--dry-run"],
            details: """
                ITEM is an id, an exact title (searched in --from BOARD if given), or BOARD:N. All
                references are resolved before anything moves, so 'move Todo:0 Todo:1 --to Done'
                moves the first two cards. Several items land together, in the order given.
                --at N is the final index of the first moved item, counted after the moved items
                have been taken out; without a position the items go to the bottom.
                """,
            examples: [
                "kanban move \"Analytics\" --to Done --at 0", "kanban move k3f9p2 p2x1q7 --to Review",
                "kanban move Todo:0 --to Todo --bottom",
            ]),
        CommandSpec(
            name: "copy", aliases: ["cp"], synopsis: "ITEM… --to BOARD [--at N]",
            summary: "copy items, with new ids",
            options: ["--to", "--from"] + Options.positions + ["--force", "--dry-run"],
            details: """
                Like move, but the originals stay and the copies get new ids.
                """,
            examples: ["kanban copy k3f9p2 --to Done", "kanban copy \"Schema Design\" --to Todo --top"]),
        CommandSpec(
            name: "remove", aliases: ["rm"], synopsis: "ITEM…",
            summary: "delete items",
            options: ["--from", "--dry-run"],
            details: "Deletes the items. New ids are random among 2.2 billion, so a removed id does not come back.",
            examples: ["kanban remove k3f9p2", "kanban rm Done:0 Done:1"]),
        CommandSpec(
            name: "rename", aliases: [], synopsis: "ITEM NEW_TITLE",
            summary: "retitle an item",
            options: ["--from", "--dry-run"],
            details: "Gives the item a new title; its id and place stay.",
            examples: ["kanban rename k3f9p2 \"Analytics dashboard\""]),
        CommandSpec(
            name: "board add", aliases: [], synopsis: "TITLE [--at N] [--limit N]",
            summary: "add a board",
            options: ["--at", "--limit", "--dry-run"],
            details: "Adds an empty board at index N (0-based), or after the last one.",
            examples: ["kanban board add Review --at 2 --limit 2"]),
        CommandSpec(
            name: "board rename", aliases: [], synopsis: "BOARD NEW_TITLE",
            summary: "retitle a board",
            options: ["--dry-run"],
            details: "Board titles are unique, ignoring case; a change of case only is allowed.",
            examples: ["kanban board rename Review QA"]),
        CommandSpec(
            name: "board move", aliases: [], synopsis: "BOARD --at N",
            summary: "reorder the boards",
            options: ["--at", "--dry-run"],
            details: "Moves the board to index N, 0 to the number of boards minus one.",
            examples: ["kanban board move Done --at 0"]),
        CommandSpec(
            name: "board limit", aliases: [], synopsis: "BOARD N|none",
            summary: "set or clear a board's WIP limit",
            options: ["--dry-run"],
            details: """
                A board at its limit refuses items coming in (add, copy, and moves from other boards)
                unless --force is given; reordering inside it and moving items out always work.
                """,
            examples: ["kanban board limit \"In Progress\" 3", "kanban board limit \"In Progress\" none"]),
        CommandSpec(
            name: "board remove", aliases: ["board rm"], synopsis: "BOARD [--force]",
            summary: "delete a board",
            options: ["--force", "--dry-run"],
            details: "Refuses a board that still holds items, unless --force is given: then they go too.",
            examples: ["kanban board remove Review", "kanban board remove Archive --force"]),
        CommandSpec(
            name: "help", aliases: [], synopsis: "[COMMAND]",
            summary: "show help for kanban or a command",
            options: [],
            details: "Also: -h or --help after any command, and --version.",
            examples: ["kanban help move", "kanban board add --help"]),
    ]

    /// The command for a name or alias: `move`, `mv`, `board add`.
    static func named(_ name: String) -> CommandSpec? {
        all.first { $0.name == name || $0.aliases.contains(name) }
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

    static let boardSubcommands = all.filter { $0.name.hasPrefix("board ") }
        .flatMap { [String($0.name.dropFirst(6))] + $0.aliases.map { String($0.dropFirst(6)) } }
}
