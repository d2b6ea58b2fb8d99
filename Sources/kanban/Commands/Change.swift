import Glibc
import KanbanCore

extension App {
    /// A mutating command: reads its input (before the lock: a slow pipe must not hold other
    /// kanban processes up, and bad input must not get near the file), then runs its
    /// operation in one transaction.
    func change(_ request: ChangeRequest, dryRun: Bool) throws(CLIError) -> CommandOutput {
        let operation = try self.operation(for: request)
        var generator = IDSource()
        var overLimit: (board: String, count: Int, limit: Int)?
        var archivedNothing = false
        var output = try change(operation.name, dryRun: dryRun) { (kanban: inout Kanban) throws(KanbanError) in
            let change = try kanban.apply(operation, at: clock, using: &generator)
            if case .archiveBoard = operation, change.items.isEmpty { archivedNothing = true }
            if case .boardLimit = operation, let board = change.boards.first, let limit = board.limit,
                let index = board.to, kanban.boards[index].items.count > limit
            {
                overLimit = (board.title, kanban.boards[index].items.count, limit)
            }
            return change
        }
        if let overLimit {
            output.notes.append(
                "\(q(overLimit.board)) holds \(overLimit.count) cards, over its limit of \(overLimit.limit); "
                    + "it refuses cards coming in until enough have left")
        }
        if archivedNothing, case .archiveBoard(let board, let age) = operation {
            // An empty report would look like a command that did nothing by mistake.
            output.notes.append(
                "nothing to archive: " + (age.map { "no card entered \(q(board)) more than \($0.description) ago" }
                    ?? "\(q(board)) has no cards"))
        }
        return output
    }

    /// The operation a request names, with standard input read where it asks for it.
    func operation(for request: ChangeRequest) throws(CLIError) -> Operation {
        switch request {
        case .operation(let operation):
            return operation
        case .addReadingInput(let texts, let to, let position, let content, let force):
            var titles: [Title] = []
            for text in texts.isEmpty ? ["-"] : texts {
                if text == "-" {
                    if isatty(Surroundings.current.stdin) == 1 {
                        // Said now, not with the output: the user at the terminal waits for it.
                        printOnStderr(["reading cards from standard input, one per line; end with Ctrl-D"])
                    }
                    titles += try StandardInput.titles(from: StandardInput.read())
                } else {
                    do {
                        titles.append(try Title(text))
                    } catch {
                        throw .refused(error)
                    }
                }
            }
            return .add(titles: titles, to: to, position: position, content: content, force: force)
        case .editReadingNote(let item, let from, var edits):
            let bytes = try StandardInput.read()
            guard var text = String(validating: bytes, as: UTF8.self) else {
                throw .badInput("standard input: invalid UTF-8; nothing was changed")
            }
            // The last line's break is not part of the note. "\r\n" is one Character, which
            // `hasSuffix("\n")` does not match: CRLF input kept a final line break that LF lost.
            if text.last == "\n" || text.last == "\r\n" { text.removeLast() }
            do {
                edits.note = .set(try Note.checked(text))
            } catch {
                throw .badInput("standard input: \(error.message); nothing was changed")
            }
            return .edit(item: item, from: from, edits: edits)
        }
    }
}

// MARK: - As parsed

/// A mutating command before its standard input is read.
enum ChangeRequest: Equatable, Sendable {
    case operation(Operation)
    /// `add` with no TEXT or with `-` among them: the lines of standard input go where `-` is.
    case addReadingInput(texts: [String], to: String?, position: Position?, content: NewCardContent, force: Bool)
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

/// A mutating command (add, move, copy, remove, rename, edit, archive, restore, resolve,
/// board …): one transaction on the file, and a line a batch may hold.
struct ChangeCommand: ParsedCommand {
    var request: ChangeRequest
    var dryRun: Bool

    var changesFile: Bool { !dryRun }

    func run(in app: App) throws(CLIError) -> CommandOutput {
        try app.change(request, dryRun: dryRun)
    }

    func batchOperation() throws(CLIError) -> Operation? {
        if dryRun {
            throw .usage("--dry-run applies to the whole batch: 'kanban batch --dry-run'", command: "batch")
        }
        switch request {
        case .operation(let operation):
            return operation
        case .addReadingInput:
            throw .usage("in a batch, 'add' takes its TEXT on the line (standard input is not read)", command: "batch")
        case .editReadingNote:
            throw EditInEditorCommand.refusedInBatch
        }
    }
}

extension Command {
    static func change(_ request: ChangeRequest, dryRun: Bool) -> Command {
        Command(ChangeCommand(request: request, dryRun: dryRun))
    }
}
