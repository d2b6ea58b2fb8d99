import Glibc
import KanbanCore

/// argv -> command -> store -> core -> output: the one dispatch `main` calls.
struct App {
    static let version = "1.0.0"

    let options: GlobalOptions

    /// Runs kanban with `arguments` (argv without the program name) and returns the exit code.
    /// Data goes to stdout; errors, as text or JSON, to stderr.
    static func main(_ arguments: [String], invalidArgument: Int? = nil) -> Int32 {
        // Known before parsing, so that a usage error can be reported as JSON too.
        let json = arguments.prefix(while: { $0 != "--" }).contains("--json")
        do {
            if let invalidArgument {
                throw CLIError.badInput("argument \(invalidArgument) is not valid UTF-8")
            }
            let invocation = try Parser.parse(arguments)
            let output = try App(options: invocation.options).run(invocation.command)
            try? POSIX.writeAll(STDOUT_FILENO, output)
            return ExitCode.success.rawValue
        } catch let error as CLIError {
            return report(error, json: json)
        } catch let error as KanbanError {
            return report(.refused(error), json: json)
        } catch {
            preconditionFailure("unexpected error type: \(error)")
        }
    }

    private static func report(_ error: CLIError, json: Bool) -> Int32 {
        let (exit, code) = error.status
        if json {
            POSIX.print(errorJSON(code: code, message: error.message), to: STDERR_FILENO)
        } else {
            var text = "kanban: error: \(error.message)\n"
            if case .usage(_, let command) = error {
                text += "see 'kanban help\(command.map { " \($0)" } ?? "")'\n"
            }
            POSIX.print(text, to: STDERR_FILENO)
        }
        return exit.rawValue
    }

    /// Runs one command and returns what it prints on stdout, as bytes: `list --json` of a
    /// large kanban is best not copied into a String and out again.
    func run(_ command: Command) throws -> [UInt8] {
        switch command {
        case .list(let boards, let format):
            try list(boards: boards, format: format)
        case .initialize(let sample, let boards):
            Array(try initialize(sample: sample, boards: boards).utf8)
        case .add(let texts, let to, let position):
            Array(try add(texts: texts, to: to, position: position).utf8)
        case .move(let items, let to, let from, let position):
            Array(try move(items: items, to: to, from: from, position: position, copying: false).utf8)
        case .copy(let items, let to, let from, let position):
            Array(try move(items: items, to: to, from: from, position: position, copying: true).utf8)
        case .remove(let items, let from):
            Array(try remove(items: items, from: from).utf8)
        case .rename(let item, let title, let from):
            Array(try rename(item: item, to: title, from: from).utf8)
        case .boardAdd(let title, let at, let limit):
            Array(try addBoard(title: title, at: at, limit: limit).utf8)
        case .boardRename(let board, let title):
            Array(try renameBoard(board, to: title).utf8)
        case .boardMove(let board, let at):
            Array(try moveBoard(board, to: at).utf8)
        case .boardLimit(let board, let limit):
            Array(try setLimit(of: board, to: limit).utf8)
        case .boardRemove(let board):
            Array(try removeBoard(board).utf8)
        case .help(let topic):
            Array(try Help.text(for: topic).utf8)
        case .version:
            Array((options.json ? "{\"version\":\(JSON.quoted(Self.version))}\n" : "kanban \(Self.version)\n").utf8)
        }
    }

    // MARK: - Shared wiring

    /// The store for commands that work on an existing file.
    func store() throws(CLIError) -> Store {
        try Store.locate(file: options.file)
    }

    /// Runs a mutating command's core call in one transaction and renders what it did.
    func change(_ command: String, _ body: (inout Kanban) throws -> Change) throws -> String {
        let store = try store()
        let change = try store.update(dryRun: options.dryRun, body)
        return render(Report(command: command, change: change, dryRun: options.dryRun, file: store.path))
    }

    func render(_ report: Report) -> String {
        if options.quiet { return "" }
        if options.json { return report.json() }
        return report.text(style: Style(enabled: Terminal.detect(color: options.color).color))
    }

    /// A board to put items on: the named one, or the first.
    func destination(_ name: String?, in kanban: Kanban) throws(KanbanError) -> Int {
        if let name { return try kanban.boardIndex(named: name) }
        guard !kanban.boards.isEmpty else { throw .noBoards }
        return 0
    }

    /// A typed position made concrete; `--before`/`--after` titles are looked up in `board`.
    func dropPosition(_ argument: PositionArgument?, in kanban: Kanban, board: Int) throws(KanbanError) -> DropPosition
    {
        switch argument {
        case nil, .bottom: .bottom
        case .top: .top
        case .at(let index): .index(index)
        case .before(let reference): .before(try kanban.locate(reference, within: board))
        case .after(let reference): .after(try kanban.locate(reference, within: board))
        }
    }

    /// Prints a note on stderr, unless `--quiet` or `--json` (whose stderr carries only errors).
    func note(_ text: String) {
        guard !options.quiet else { return }
        if options.json { return }
        POSIX.print("kanban: note: \(text)\n", to: STDERR_FILENO)
    }
}
