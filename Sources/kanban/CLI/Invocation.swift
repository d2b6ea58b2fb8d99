/// What the user asked for: one command and the options every command shares.
struct Invocation: Equatable, Sendable {
    var command: Command
    var options: GlobalOptions
}

/// A command with its arguments, as typed: references and titles are still strings.
enum Command: Equatable, Sendable {
    case initialize(sample: Bool, boards: [String]?)
    case list(boards: [String], format: ListFormat, view: ViewOptions = ViewOptions())
    case add(texts: [String], to: String?, position: PositionArgument?)
    case move(items: [String], to: String, from: String?, position: PositionArgument?)
    case copy(items: [String], to: String, from: String?, position: PositionArgument?)
    case remove(items: [String], from: String?)
    case rename(item: String, title: String, from: String?)
    case boardAdd(title: String, at: Int?, limit: Int?)
    case boardRename(board: String, title: String)
    case boardMove(board: String, at: Int)
    case boardLimit(board: String, limit: Int?)
    case boardRemove(board: String)
    /// Help on a command (`["move"]`, `["board", "add"]`), or on kanban when empty.
    case help(topic: [String])
    case version
}

extension Command {
    /// Whether the command may write the kanban file (a dry run never does).
    var changesFile: Bool {
        switch self {
        case .list, .help, .version: false
        case .initialize, .add, .move, .copy, .remove, .rename, .boardAdd, .boardRename, .boardMove, .boardLimit,
            .boardRemove:
            true
        }
    }
}

enum ListFormat: Equatable, Sendable {
    case text, json, tsv
}

/// How `list` shows the terminal view: `--compact`, `--no-pager`.
struct ViewOptions: Equatable, Sendable {
    /// One line per card, cut with `…`.
    var compact = false
    /// Whether a view taller than the terminal goes through a pager.
    var pager = true
}

/// A position as typed: `--at N`, `--top`, `--bottom`, `--before ITEM`, `--after ITEM`.
enum PositionArgument: Equatable, Sendable {
    case at(Int)
    case top
    case bottom
    case before(String)
    case after(String)
}

enum ColorMode: String, Equatable, Sendable, CaseIterable {
    case auto, always, never
}

struct GlobalOptions: Equatable, Sendable {
    var file: String?
    var json = false
    var quiet = false
    var color = ColorMode.auto
    var dryRun = false
    var force = false
}
