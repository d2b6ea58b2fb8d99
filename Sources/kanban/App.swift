import Glibc
import KanbanCore

/// argv -> command -> store -> core -> output: the one dispatch `main` calls.
struct App {
    static let version = "2.0.0"

    let options: GlobalOptions
    /// The time commands run at: the system clock, or `$KANBAN_NOW`.
    let clock: Moment
    /// The command line as typed, without the program name, for the history.
    var arguments: [String] = []

    /// Runs kanban with `arguments` (argv without the program name) in `surroundings` and
    /// returns the exit code. Data goes to stdout; errors, as text or JSON, to stderr.
    static func main(
        _ arguments: [String], invalidArgument: Int? = nil, surroundings: Surroundings = .process
    ) -> Int32 {
        Surroundings.$current.withValue(surroundings) {
            run(arguments, invalidArgument: invalidArgument, surroundings: surroundings)
        }
    }

    private static func run(_ arguments: [String], invalidArgument: Int?, surroundings: Surroundings) -> Int32 {
        if arguments.first == Completer.command {
            return Completer.main(Array(arguments.dropFirst()))
        }
        // Known before parsing, so that a usage error can be reported as JSON too.
        let json = arguments.prefix(while: { $0 != "--" }).contains("--json")
        do throws(CLIError) {
            if let invalidArgument {
                throw CLIError.badInput("argument \(invalidArgument) is not valid UTF-8")
            }
            let invocation = try Parser.parse(arguments)
            let app = App(options: invocation.options, clock: try SystemClock.read(), arguments: arguments)
            // A closed pipe must not kill a command that has already saved its change.
            if surroundings.isProcess { signal(SIGPIPE, SIG_IGN) }
            let output = try app.run(invocation.command)
            // The one place a command's output is printed (README: Development): its notes,
            // then stdout, then the note on this clone's merge driver, if any.
            let command = invocation.command.parsed
            app.printOnStderr(output.notes, then: output.stderr)
            try writeOutput(output, changesFile: command.changesFile, surroundings: surroundings)
            if command.mayNoteMergeDriver { app.printOnStderr(app.unregisteredMergeDriverNotes()) }
            return output.exit.rawValue
        } catch {
            return report(error, json: json)
        }
    }

    /// Writes a command's output. When stdout fails after a change was saved, the exit
    /// status stays 0, as a non-zero one would claim that nothing was written; for a command
    /// that only reads, a closed pipe ends it as it would a reader in a pipeline, and any
    /// other failure is an error.
    private static func writeOutput(
        _ output: CommandOutput, changesFile: Bool, surroundings: Surroundings
    ) throws(CLIError) {
        do throws(POSIX.Failure) {
            try POSIX.writeAll(surroundings.stdout, output.stdout)
            if let document = output.document {
                try writeDocument(document, to: surroundings.stdout)
            }
        } catch {
            if changesFile {
                POSIX.print(
                    "kanban: warning: the change was saved, but its report could not be written: \(error.reason)\n",
                    to: surroundings.stderr)
            } else if error.code == EPIPE && surroundings.isProcess {
                signal(SIGPIPE, SIG_DFL)
                raise(SIGPIPE)
            } else {
                throw .io("cannot write to standard output: \(error.reason)")
            }
        }
    }

    /// Writes `kanban` in the file's layout to `fd`, a chunk at a time as it is encoded.
    private static func writeDocument(_ kanban: Kanban, to fd: Int32) throws(POSIX.Failure) {
        do {
            try KanbanFile.encode(kanban) { chunk in try POSIX.writeAll(fd, chunk.assumingMemoryBound(to: UInt8.self)) }
        } catch let failure as POSIX.Failure {
            throw failure
        } catch {
            preconditionFailure("only writes fail while encoding: \(error)")
        }
    }

    private static func report(_ error: CLIError, json: Bool) -> Int32 {
        let (exit, code) = error.status
        if json {
            POSIX.print(errorJSON(code: code, message: error.message), to: Surroundings.current.stderr)
        } else {
            var text = "kanban: error: \(error.message)\n"
            if case .usage(_, let command) = error.innermost {
                text += "see 'kanban help\(command.map { " \($0)" } ?? "")'\n"
            }
            POSIX.print(text, to: Surroundings.current.stderr)
        }
        return exit.rawValue
    }

    /// Runs one command and returns what it prints.
    func run(_ command: Command) throws(CLIError) -> CommandOutput {
        try command.parsed.run(in: self)
    }

    // MARK: - Shared wiring

    /// The store of `path`, else of the file `-f`, `$KANBAN_FILE` or the search names: the
    /// one way a command gets one (its lock timeout from `$KANBAN_LOCK_TIMEOUT`).
    func store(at path: String? = nil) throws(CLIError) -> Store {
        try Store.locate(file: path ?? options.file)
    }

    /// Runs `body` on the kanban in one transaction and renders what it did as `command`,
    /// with the store's notes.
    func change(
        _ command: String, dryRun: Bool, _ body: (inout Kanban) throws(KanbanError) -> Change
    ) throws(CLIError) -> CommandOutput {
        let store = try store()
        let outcome = try store.change(dryRun: dryRun, recording: recording(command), body)
        return CommandOutput(
            render(Report(command: command, change: outcome.change, dryRun: dryRun, file: store.path)),
            notes: outcome.notes)
    }

    /// How a change made by `command` is recorded in the history: this command line, the
    /// user, the time, and the change as its report says it; `nil` when `KANBAN_HISTORY=off`
    /// (a throwaway file, a benchmark).
    func recording(_ command: String) -> Recording? {
        if POSIX.environment("KANBAN_HISTORY") == "off" { return nil }
        return Recording(
            command: arguments, user: POSIX.environment("USER") ?? POSIX.environment("LOGNAME") ?? "uid \(getuid())",
            time: clock.now
        ) { change in
            HistoryFile.capped(Report(command: command, change: change, dryRun: false, file: "").historyLines)
        }
    }

    func render(_ report: Report) -> String {
        if options.quiet { return "" }
        if options.json { return report.json() }
        return report.text(style: Style(enabled: Terminal.detect(color: options.color).color))
    }

    /// Prints `notes` on stderr as `kanban: note: …`, unless `--quiet` or `--json` (whose
    /// stderr carries only errors), then `lines` as they are: what prints a command's stderr.
    func printOnStderr(_ notes: [String], then lines: String = "") {
        var text = options.quiet || options.json ? "" : notes.map { "kanban: note: \($0)\n" }.joined()
        text += lines
        if !text.isEmpty { POSIX.print(text, to: Surroundings.current.stderr) }
    }
}

/// The system clock, or `$KANBAN_NOW` for reproducible runs.
enum SystemClock {
    /// The clock: now (`$KANBAN_NOW`, RFC 3339 or seconds since the epoch, if set) and the
    /// local date at that instant.
    ///
    /// - Throws: a usage error for a `$KANBAN_NOW` that is neither.
    static func read() throws(CLIError) -> Moment {
        var seconds = Int64(time(nil))
        if let text = POSIX.environment("KANBAN_NOW"), !text.isEmpty {
            if let timestamp = Timestamp(rfc3339: text) {
                seconds = timestamp.seconds
            } else if text.isDigits, let value = Int64(text) {
                seconds = value
            } else {
                throw .usage(
                    "KANBAN_NOW must be a time in RFC 3339 (2026-11-23T10:04:05Z) or seconds since 1970, "
                        + "not \(q(text)); unset it to use the system clock", command: nil)
            }
        }
        return Moment(now: Timestamp(seconds: seconds), today: localDay(at: seconds))
    }

    /// The local calendar date at an instant, in the time zone of `$TZ` or the system.
    static func localDay(at seconds: Int64) -> Day {
        var time = time_t(seconds)
        var parts = tm()
        // A run in the tests' process has a `$TZ` of its own, not the process's: there a
        // fixed offset is applied to UTC, and the tests run other zones in a process.
        let surroundings = Surroundings.current
        let offset = surroundings.isProcess ? nil : surroundings.environment("TZ").flatMap(Surroundings.fixedOffset)
        if let offset { time += time_t(offset) }
        guard (offset == nil ? localtime_r(&time, &parts) : gmtime_r(&time, &parts)) != nil,
            let day = Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        else { return Timestamp(seconds: seconds).utcDay }
        return day
    }

}
