import Glibc
import KanbanCore

extension Commands {
    static let diff = CommandSpec(
        "diff", usage: [.optional([.path("OLD"), .optional([.path("NEW")])]), .optional(Options.exitCode)],
        summary: "show what changed between two versions of the kanban, card by card",
        options: [CommandOption(Options.exitCode, "exit 1 when there are changes (and 0 when there are none)")],
        details: """
            OLD and NEW are kanban files, or git revisions of this kanban file (HEAD~1, main,
            or REV:PATH with the path from the repository's top); NEW is the file itself when
            not given, OLD is HEAD. One line per change, in the words of the commands that make
            them: cards added, removed, archived, restored, moved and edited, boards added,
            removed, renamed, moved and re-limited. A card whose index shifted only because
            others moved, came or went is not listed. --json prints {"items": […], "boards":
            […]} in the shapes of the change reports. Exits 0 whether or not there are changes.
            """,
        examples: [
            "kanban diff", "kanban diff HEAD~3", "kanban diff main HEAD --json", "kanban diff old.json new.json",
        ],
        build: { arguments throws(CLIError) in
            guard arguments.operands.count <= 2 else {
                throw arguments.usage(
                    "unexpected argument \(q(arguments.operands[2])); usage: kanban diff [OLD [NEW]]")
            }
            return .diff(
                DiffRequest(
                    old: arguments.operands.first, new: arguments.operands.dropFirst().first,
                    exitCode: arguments.flag(Options.exitCode)))
        })
}

/// `kanban diff [OLD [NEW]] [--exit-code]` as typed.
struct DiffRequest: Equatable, Sendable {
    /// A file or a git revision; `nil`: `HEAD`.
    var old: String?
    /// A file or a git revision; `nil`: the kanban file itself.
    var new: String?
    /// Exit 1 when there are changes.
    var exitCode: Bool
}

extension App {
    /// `kanban diff [OLD [NEW]]`: what changed from OLD to NEW, one line per change.
    func diff(_ request: DiffRequest) throws(CLIError) -> CommandOutput {
        let old = try version(request.old ?? "HEAD", isDefault: request.old == nil)
        let new: Kanban
        if let argument = request.new {
            new = try version(argument, isDefault: false)
        } else {
            new = try store().load()
        }
        let change = Kanban.diff(from: old, to: new)
        return CommandOutput(diffText(change), exit: request.exitCode && change.isEffective ? .refused : .success)
    }

    /// What `diff` prints on stdout: `change`, one line per change.
    private func diffText(_ change: Change) -> [UInt8] {
        if options.quiet { return [] }
        if options.json {
            let json = JSONObject { object in
                object.add("items", change.items.map(Report.json))
                object.add("boards", change.boards.map(Report.json))
            }
            return Array(json.line.utf8)
        }
        let report = Report(command: "diff", change: Self.oneAspectPerLine(change), dryRun: false, file: "")
        return Array(report.text(style: style).utf8)
    }

    /// The kanban a diff argument names: a file if there is one at that path (a directory
    /// is not: `kanban diff main` in a directory `main/` means the branch), else a git
    /// revision of the kanban file (`REV`), or a path at a revision (`REV:PATH`, as git
    /// takes it).
    private func version(_ argument: String, isDefault: Bool) throws(CLIError) -> Kanban {
        if !isDefault, let info = POSIX.status(argument) ?? POSIX.lstat(argument), info.st_mode & S_IFMT != S_IFDIR {
            return try Store(path: argument).loadDocument().kanban
        }
        let spec: String
        let directory: String?
        if argument.contains(":") {
            (spec, directory) = (argument, nil)
        } else {
            let file = try store().path
            let hint =
                (isDefault ? "" : "\(q(argument)) is not a file either; ")
                + "give OLD and NEW as files: kanban diff OLD NEW"
            let location = try GitLocation.of(file, hint: hint)
            (spec, directory) = (argument + ":" + location.path, location.root)
        }
        let result = try Git.run(["show", "--end-of-options", spec], in: directory)
        guard result.succeeded else {
            let file = isDefault || argument.contains(":") ? "" : "no file \(q(argument)), and "
            throw .git("\(file)git cannot show \(q(spec)): \(result.message)")
        }
        return try Store.decode(result.stdout, name: spec).kanban
    }

    /// The change with a board renamed, re-limited, given a role and moved at once told as four lines,
    /// as the three commands that do it report.
    static func oneAspectPerLine(_ change: Change) -> Change {
        var boards: [BoardChange] = []
        for board in change.boards {
            guard let from = board.from, let to = board.to else {
                boards.append(board)
                continue
            }
            if let previous = board.previousTitle {
                boards.append(
                    BoardChange(title: board.title, from: to, to: to, limit: board.limit, previousTitle: previous))
            }
            if let limits = board.limitChange {
                boards.append(
                    BoardChange(title: board.title, from: to, to: to, limit: board.limit, limitChange: limits))
            }
            if let roles = board.roleChange {
                boards.append(BoardChange(title: board.title, from: to, to: to, limit: board.limit, roleChange: roles))
            }
            if from != to { boards.append(BoardChange(title: board.title, from: from, to: to, limit: board.limit)) }
            if let conflicts = board.conflictChange {
                boards.append(BoardChange(title: board.title, from: to, to: to, limit: board.limit, conflictChange: conflicts))
            }
        }
        return Change(items: change.items, boards: boards)
    }
}

// MARK: - As parsed

extension DiffRequest: ParsedCommand {
    func run(in app: App) throws(CLIError) -> CommandOutput { try app.diff(self) }
}

extension Command {
    static func diff(_ request: DiffRequest) -> Command { Command(request) }
}
