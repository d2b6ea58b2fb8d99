import Glibc
import KanbanCore

extension App {
    /// `kanban ui`: the interactive board, until `q`.
    func ui() throws(CLIError) -> [UInt8] {
        KeptUntilExit.isEnabled = false  // it reads the file again after every change
        guard isatty(Surroundings.current.stdin) == 1 && isatty(Surroundings.current.stdout) == 1 else {
            throw .usage(
                "'ui' needs a terminal: run it with standard input and output on one (to script changes, use "
                    + "the other commands, or 'kanban batch')", command: "ui")
        }
        let store = try store()
        let kanban = try store.load()
        let terminal = try TerminalSession()
        defer { terminal.close() }
        var session = UISession(app: self, store: store, terminal: terminal, kanban: kanban)
        try session.run()
        return []
    }
}

/// The runner of ``BoardUI``: reads the terminal, turns its bytes into events, runs the
/// actions (each change one transaction through ``Store``, recorded in the history as the
/// command it is), watches the file for other processes' changes, and draws what changed.
struct UISession {
    let app: App
    let store: Store
    /// `nil` for a session driven in-process by the tests, which draw nothing and suspend
    /// nothing.
    let terminal: TerminalSession?
    var board: BoardUI
    var decoder = InputDecoder()
    /// What the terminal shows, to draw only what changes.
    var shown: Screen?
    let color: Bool
    /// The file as last read or written, to notice other processes' changes.
    var stamp: FileStamp?
    var nextCheck = 0.0
    var lastInput = 0.0
    /// `$KANBAN_UI_TRACE`: a file that gets, for each input, the milliseconds from reading
    /// it to the frame written (transaction included), for benchmarks.
    let trace: Int32?

    /// How often the file is looked at: other processes' changes show within a second.
    static let checkInterval = 0.25

    init(app: App, store: Store, terminal: TerminalSession, kanban: Kanban) {
        let size = terminal.size()
        self.init(app: app, store: store, terminal: terminal, kanban: kanban, width: size.width, height: size.height)
    }

    init(app: App, store: Store, terminal: TerminalSession?, kanban: Kanban, width: Int, height: Int) {
        self.app = app
        self.store = store
        self.terminal = terminal
        board = BoardUI(kanban: kanban, clock: app.clock, width: width, height: height)
        color = Terminal.detect(color: app.options.color).color
        stamp = FileStamp(store.path)
        trace = POSIX.environment("KANBAN_UI_TRACE").flatMap { path in
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            return fd >= 0 ? fd : nil
        }
    }

    mutating func run() throws(CLIError) {
        defer { if let trace { close(trace) } }
        guard let terminal else { return }
        terminal.enter()
        try draw()
        nextCheck = POSIX.monotonicSeconds() + Self.checkInterval
        while true {
            var timeout = max(0, nextCheck - POSIX.monotonicSeconds())
            if decoder.isWaiting {
                timeout = min(timeout, max(0, lastInput + decoder.waitLimit - POSIX.monotonicSeconds()))
            }
            let ready = terminal.wait(timeout: timeout)
            let started = POSIX.monotonicSeconds()
            let startedCPU = Self.processorSeconds()
            var events: [UIEvent] = []
            if ready.wake {
                let wake = terminal.takeWakeUps()
                if wake.resized || wake.continued {
                    let size = terminal.size()
                    events.append(.resize(width: size.width, height: size.height))
                    shown = nil
                }
            }
            var inputs: [InputEvent] = []
            if ready.input, let bytes = try terminal.read() {
                if bytes.isEmpty { return }  // the terminal is gone
                inputs = decoder.feed(bytes)
                lastInput = started
            } else if decoder.isWaiting && started - lastInput >= decoder.waitLimit {
                inputs = decoder.flush()
            }
            events += inputs.map { .input($0) }
            if started >= nextCheck {
                if let change = checkFile() { events.append(change) }
                nextCheck = POSIX.monotonicSeconds() + Self.checkInterval
            }
            if !events.isEmpty, let clock = try? SystemClock.read() { board.clock = clock }
            for event in events {
                for action in board.handle(event) {
                    if try perform(action) == false { return }
                }
            }
            guard !events.isEmpty else { continue }
            try draw()
            if let trace, !inputs.isEmpty { record(inputs, since: started, processor: startedCPU, to: trace) }
        }
    }

    private mutating func draw() throws(CLIError) {
        let screen = board.screen()
        try terminal?.write(Frame.bytes(from: shown, to: screen, color: color))
        shown = screen
    }

    /// Runs one action and hands its outcome to the board; false to quit.
    mutating func perform(_ action: UIAction) throws(CLIError) -> Bool {
        let outcome: Outcome
        switch action {
        case .quit:
            return false
        case .redraw:
            shown = nil
            return true
        case .suspend:
            terminal?.suspend()
            shown = nil
            return true
        case .apply(let operation):
            outcome = apply(operation)
        case .undo:
            outcome = undo(redo: false)
        case .redo:
            outcome = undo(redo: true)
        case .edit(let item):
            terminal?.leave()
            outcome = edit(item)
            terminal?.enter()
            shown = nil
        }
        _ = board.handle(.outcome(outcome))
        return true
    }

    /// The app an action runs with: its command line for the history, the time now, and
    /// plain text reports.
    private func app(_ commandLine: [String]) -> App {
        var options = app.options
        options.json = false
        options.quiet = false
        options.color = .never
        return App(options: options, clock: (try? SystemClock.read()) ?? app.clock, arguments: commandLine)
    }

    /// One operation, as one transaction recorded in the history.
    private mutating func apply(_ operation: Operation) -> Outcome {
        let app = app(operation.commandLine)
        var generator = SystemRandomNumberGenerator()
        var after: Kanban?
        do throws(CLIError) {
            let outcome = try store.change(recording: app.recording(operation.name)) {
                (kanban: inout Kanban) throws(KanbanError) in
                let change = try kanban.apply(operation, at: app.clock, using: &generator)
                after = kanban
                return change
            }
            let change = outcome.change
            // The store's notes go to stderr, as a command's do.
            self.app.printOnStderr(outcome.notes)
            stamp = FileStamp(store.path)
            let report = Report(command: operation.name, change: change, dryRun: false, file: store.path)
            return .changed(
                after ?? board.kanban, report: report.text(style: Style(enabled: false)),
                focus: change.items.compactMap { $0.to != nil ? $0.id : nil })
        } catch {
            return Self.outcome(of: error)
        }
    }

    private mutating func undo(redo: Bool) -> Outcome {
        do throws(CLIError) {
            let name = redo ? "redo" : "undo"
            let undone = try app([name]).undone(count: 1, redo: redo, dryRun: false, in: store)
            app.printOnStderr(undone.notes)
            stamp = FileStamp(store.path)
            guard let record = undone.taken.first else { return .changed(board.kanban, report: "nothing to \(name)") }
            // `took back #3: kanban move …` and the first thing it changed.
            let report = Report(command: name, change: undone.change, dryRun: false, file: store.path)
            let first = report.text(style: Style(enabled: false)).split(separator: "\n").first.map { ": \($0)" } ?? ""
            return .changed(undone.kanban, report: undone.headline(record, redo: redo, dryRun: false) + first)
        } catch {
            return Self.outcome(of: error)
        }
    }

    private mutating func edit(_ item: ItemID) -> Outcome {
        do throws(CLIError) {
            // The report goes to the status line, its notes to the terminal.
            let editing = app(["edit", item.rawValue])
            let output = try editing.editInEditor(item: item.rawValue, from: nil, dryRun: false)
            editing.printOnStderr(output.notes)
            let text = String(decoding: output.stdout, as: UTF8.self)
            let kanban = try store.load()
            stamp = FileStamp(store.path)
            return .changed(kanban, report: text, focus: [item])
        } catch {
            return Self.outcome(of: error)
        }
    }

    private static func outcome(of error: CLIError) -> Outcome {
        switch error {
        case .refused(.wipLimit): .refused(error.message, wipLimit: true)
        case .refused: .refused(error.message)
        default: .failed(error.message)
        }
    }

    /// The file read anew when another process changed it since it was last read or written.
    private mutating func checkFile() -> UIEvent? {
        let now = FileStamp(store.path)
        guard now != stamp else { return nil }
        stamp = now
        do throws(CLIError) {
            return .loaded(try store.load())
        } catch {
            return .outcome(.failed("\(error.message); showing the board as it was"))
        }
    }

    /// The processor time this process has used, in seconds.
    private static func processorSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Appends `KEYS<TAB>WALL_MS<TAB>CPU_MS` to the trace.
    private func record(_ inputs: [InputEvent], since started: Double, processor: Double, to fd: Int32) {
        let milliseconds = (POSIX.monotonicSeconds() - started) * 1000
        let processorMilliseconds = (Self.processorSeconds() - processor) * 1000
        let what = inputs.map { input in
            switch input {
            case .key(let key):
                if case .character(let character) = key.code { return String(character) }
                return "\(key.code)"
            case .mouse: return "mouse"
            case .paste: return "paste"
            }
        }.joined(separator: ",")
        let line =
            "\(what)\t\((milliseconds * 1000).rounded() / 1000)\t\((processorMilliseconds * 1000).rounded() / 1000)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }
}

/// What tells one version of a file from the next: every kanban write renames a new file
/// into place, so its inode, size or times change.
struct FileStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec
    var changed: timespec

    init?(_ path: String) {
        guard let info = POSIX.status(path) else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
    }

    static func == (lhs: FileStamp, rhs: FileStamp) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
    }
}
