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
            // A closed pipe must not kill a command that has already saved its change.
            signal(SIGPIPE, SIG_IGN)
            let output = try App(options: invocation.options).run(invocation.command)
            try writeOutput(output, changesFile: invocation.command.changesFile && !invocation.options.dryRun)
            return ExitCode.success.rawValue
        } catch let error as CLIError {
            return report(error, json: json)
        } catch let error as KanbanError {
            return report(.refused(error), json: json)
        } catch {
            preconditionFailure("unexpected error type: \(error)")
        }
    }

    /// Writes a command's output. When stdout fails after a change was saved, the exit
    /// status stays 0, as a non-zero one would claim that nothing was written; for a command
    /// that only reads, a closed pipe ends it as it would a reader in a pipeline, and any
    /// other failure is an error.
    private static func writeOutput(_ output: [UInt8], changesFile: Bool) throws(CLIError) {
        do {
            try POSIX.writeAll(STDOUT_FILENO, output)
        } catch {
            if changesFile {
                POSIX.print(
                    "kanban: warning: the change was saved, but its report could not be written: \(error.reason)\n",
                    to: STDERR_FILENO)
            } else if error.code == EPIPE {
                signal(SIGPIPE, SIG_DFL)
                raise(SIGPIPE)
            } else {
                throw .io("cannot write to standard output: \(error.reason)")
            }
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
        case .list(let boards, let format, let view):
            try list(boards: boards, format: format, view: view)
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
        case .before(let reference): .before(try anchor(reference, in: kanban, board: board))
        case .after(let reference): .after(try anchor(reference, in: kanban, board: board))
        }
    }

    /// The item next to which items land: looked up in the destination board; found
    /// elsewhere, it is named with where it is, rather than reported missing.
    private func anchor(_ reference: String, in kanban: Kanban, board: Int) throws(KanbanError) -> Location {
        do {
            return try kanban.locate(reference, within: board)
        } catch {
            guard case .itemNotFound = error, let elsewhere = try? kanban.locate(reference) else { throw error }
            throw .anchorNotInBoard(anchor: kanban.candidate(at: elsewhere), board: kanban.boards[board].title)
        }
    }

    /// Prints a note on stderr, unless `--quiet` or `--json` (whose stderr carries only errors).
    func note(_ text: String) {
        guard !options.quiet else { return }
        if options.json { return }
        POSIX.print("kanban: note: \(text)\n", to: STDERR_FILENO)
    }
}
