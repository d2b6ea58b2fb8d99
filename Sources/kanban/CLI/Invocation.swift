import KanbanCore

/// What the user asked for: one command and the options every command shares.
struct Invocation: Equatable, Sendable {
    var command: Command
    var options: GlobalOptions
}

/// A command as its command line gave it (references and titles still strings): it runs
/// itself, and says what follows from what it is. Each command's file declares its own
/// (README: Development).
protocol ParsedCommand: Equatable, Sendable {
    /// Runs it and returns what it prints, which `App.main` prints; it prints nothing itself.
    func run(in app: App) throws(CLIError) -> CommandOutput
    /// Whether it may write the kanban file; by default it does not.
    var changesFile: Bool { get }
    /// Whether, having changed the kanban file, it should say that this clone would merge
    /// it as text; by default when it changes the file.
    var mayNoteMergeDriver: Bool { get }
    /// What it is as a line of a batch: its operation. `nil` for a command that does not
    /// change the file; a usage error for one that does but cannot run in a batch.
    func batchOperation() throws(CLIError) -> Operation?
}

extension ParsedCommand {
    var changesFile: Bool { false }
    var mayNoteMergeDriver: Bool { changesFile }
    func batchOperation() throws(CLIError) -> Operation? { nil }

    fileprivate func isEqual(to other: any ParsedCommand) -> Bool {
        (other as? Self) == self
    }
}

/// What a command that ran to its end gives back for `App.main` to print, in one place
/// (README: Development): its notes and other lines on stderr, then its stdout, and the exit
/// code. Errors are not here: they are thrown.
struct CommandOutput: Sendable {
    /// Standard output, as bytes: `list --json` of a large kanban is best not copied into a
    /// String and out again.
    var stdout: [UInt8]
    /// Notes, printed as `kanban: note: …` unless `--quiet` or `--json`.
    var notes: [String] = []
    /// Lines printed on stderr as they are, after the notes, even with `--quiet`: a merge's
    /// conflicts.
    var stderr = ""
    /// 1 when `diff --exit-code` found changes, `merge` left conflicts or `git check` found
    /// a problem; else 0.
    var exit = ExitCode.success

    /// A kanban printed after `stdout` in the file's layout, written in chunks as it is
    /// made rather than held whole: `list --json`, `export --format json` and `merge` to
    /// stdout of a million cards never hold their output as well as the file (README:
    /// Performance).
    var document: Kanban?

    init(_ stdout: [UInt8], notes: [String] = [], exit: ExitCode = .success) {
        self.stdout = stdout
        self.notes = notes
        self.exit = exit
    }

    /// Prints `document` in the file's layout.
    init(document: Kanban, exit: ExitCode = .success) {
        self.init([], exit: exit)
        self.document = document
    }

    /// All of stdout at once, `document` included.
    var wholeStdout: [UInt8] {
        document.map { stdout + KanbanFile.encode($0) } ?? stdout
    }

    init(_ text: String, notes: [String] = [], exit: ExitCode = .success) {
        self.init(Array(text.utf8), notes: notes, exit: exit)
    }
}

/// A whole command with its own options, as typed: whichever command it is.
struct Command: Equatable, Sendable {
    let parsed: any ParsedCommand

    init(_ parsed: some ParsedCommand) {
        self.parsed = parsed
    }

    static func == (lhs: Command, rhs: Command) -> Bool {
        lhs.parsed.isEqual(to: rhs.parsed)
    }
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
