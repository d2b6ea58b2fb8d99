import KanbanCore

/// What the user asked for: one command and the options every command shares.
struct Invocation: Equatable, Sendable {
    var command: Command
    var options: GlobalOptions
}

/// A whole command with its own options, as typed: references and titles are still strings.
enum Command: Equatable, Sendable {
    /// `kanban` alone: the board if there is a kanban file, else the help summary.
    case overview
    case initialize(sample: Bool, boards: [String]?, dryRun: Bool)
    case list(ListRequest)
    case show(items: [String], pager: Bool = true)
    /// A mutating command: one transaction on the file.
    case change(ChangeRequest, dryRun: Bool)
    /// `edit ITEM` with no edit option: the card in `$VISUAL`/`$EDITOR`.
    case editInEditor(item: String, from: String?, dryRun: Bool)
    /// `batch [FILE | -]`: many mutating commands in one transaction; `nil` reads stdin.
    case batch(script: String?, dryRun: Bool)
    /// `log [-n N]`: the file's history, newest first.
    case log(count: Int?, pager: Bool = true)
    /// `undo [N]` (or `redo [N]` when `redo`): take back or do again the last N changes.
    case undo(count: Int, redo: Bool, dryRun: Bool)
    /// `diff [OLD [NEW]]`: what changed between two versions, card by card.
    case diff(DiffRequest)
    /// `merge BASE OURS THEIRS [-o OUT]`, or git's merge driver `merge --git %O %A %B %P`.
    case merge(MergeRequest)
    /// `git setup`: register the merge driver in this repository.
    case gitSetup(dryRun: Bool)
    /// `git check`: whether git merges the kanban file card by card in this clone.
    case gitCheck
    /// `git resolve [PATH]`: merge the kanban file of an unfinished git merge from git's index.
    case gitResolve(path: String?)
    /// `ui`: the interactive board.
    case ui
    /// Help on a command (`["move"]`, `["board", "add"]`), or on kanban when empty.
    case help(topic: [String])
    case version
    /// `completion SHELL`: a completion script.
    case completion(Shell)
    /// `export`: the kanban in another format.
    case export(ExportRequest)
    /// `import FILE…`: other tools' boards and cards, in one transaction.
    case importFiles(ImportRequest, dryRun: Bool)
    /// `init --import FILE`: a new kanban made of an import.
    case initializeImporting(ImportRequest, dryRun: Bool)

    /// Whether the command may write the kanban file.
    var changesFile: Bool {
        switch self {
        case .overview, .list, .show, .help, .version, .log, .diff, .gitCheck, .completion, .export: false
        case .merge(let request): request.output != nil || request.gitPath != nil
        case .gitSetup(let dryRun): !dryRun
        case .gitResolve: true
        case .ui: true
        case .initialize(_, _, let dryRun), .change(_, let dryRun), .editInEditor(_, _, let dryRun),
            .batch(_, let dryRun), .undo(_, _, let dryRun), .importFiles(_, let dryRun),
            .initializeImporting(_, let dryRun):
            !dryRun
        }
    }
}

/// A mutating command before its standard input is read.
enum ChangeRequest: Equatable, Sendable {
    case operation(Operation)
    /// `add` with no TEXT or with `-` among them: the lines of standard input go where `-` is.
    case addReadingInput(
        texts: [String], to: String?, position: Position?, labels: Labels, due: DueInput?, note: String?, force: Bool)
    /// `edit --note -`: the note comes from standard input.
    case editReadingNote(item: String, from: String?, edits: EditInput)

    /// The command's name, as reported.
    var name: String {
        switch self {
        case .operation(let operation): operation.name
        case .addReadingInput: "add"
        case .editReadingNote: "edit"
        }
    }
}

/// `kanban list`: which boards, which cards, in which form.
struct ListRequest: Equatable, Sendable {
    var boards: [String] = []
    var format = ListFormat.text
    var filter = CardFilter()
    var compact = false
    var pager = true
}

enum ListFormat: Equatable, Sendable {
    case text, json, tsv
}

enum ColorMode: String, Equatable, Sendable, CaseIterable {
    case auto, always, never
}

/// The options every command takes.
struct GlobalOptions: Equatable, Sendable {
    var file: String?
    var json = false
    var quiet = false
    var color = ColorMode.auto
}
