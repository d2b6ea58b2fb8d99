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
    /// Runs it and returns what it prints on stdout, as bytes.
    func run(in app: App) throws(CLIError) -> [UInt8]
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
