import Foundation
import Glibc
import Testing

@testable import kanban

/// The built `kanban ui` in a real terminal (tmux): keys with `send-keys`, mouse reports as
/// literal SGR sequences, the screen from `capture-pane`, the file from `kanban list --json`,
/// and the terminal's modes from tmux's formats.
@Suite(
    .serialized,
    .enabled(if: Tmux.available, "tmux or bash is not installed: kanban ui is not checked in a terminal"))
struct UITerminal {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case keysAndTheMouseMoveCardsThroughTheFile
        case aCardAddedByAScriptShowsWithTheCursorOnItsCard
        case escapeSequencesInTitlesDoNotReachTheTerminal
        case aResizeRedrawsAtTheNewWidth
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .keysAndTheMouseMoveCardsThroughTheFile: try keysAndTheMouseMoveCardsThroughTheFile()
        case .aCardAddedByAScriptShowsWithTheCursorOnItsCard: try aCardAddedByAScriptShowsWithTheCursorOnItsCard()
        case .escapeSequencesInTitlesDoNotReachTheTerminal: try escapeSequencesInTitlesDoNotReachTheTerminal()
        case .aResizeRedrawsAtTheNewWidth: try aResizeRedrawsAtTheNewWidth()
        }
    }

    func keysAndTheMouseMoveCardsThroughTheFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("board", "limit", "Done", "2")
        let pane = try UIPane(sandbox, width: 80, height: 24)
        defer { pane.kill() }
        try pane.waitFor("the board") { $0.first?.hasPrefix("Todo (4)") == true }
        try expectEqual(pane.format("#{alternate_on} #{mouse_sgr_flag} #{mouse_button_flag} #{cursor_flag}"), "1 1 1 0")

        // L: the card under the cursor to the next board, one transaction.
        try pane.keys("L")
        try pane.waitForFile(sandbox) { $0[1].items.first == "Database Migration" }
        // The file is written before the frame: wait for the frame too.
        try pane.waitFor("the report") { $0.last?.hasPrefix("moved") == true }

        // Drag Analytics over Done, which is full: it is shown refusing; the drop is refused; F forces it.
        var screen = try pane.screen()
        let analytics = try require(UIPane.cell(of: "Analytics", in: screen))
        let done = try require(UIPane.cell(of: "Done (2/2)", in: screen))
        try pane.mouse(0, analytics, "M")
        try pane.mouse(32, (done.0 + 1, done.1 + 2), "M")
        screen = try pane.waitFor("the refusing board") { $0.joined().contains("✗ 'Done'") }
        expectEqual(screen.last?.contains("'Done' is at its WIP limit of 2: a drop here is refused"), true)
        try pane.mouse(0, (done.0 + 1, done.1 + 2), "m")
        screen = try pane.waitFor("the refusal") { $0.last?.contains("F forces it") == true }
        try expectEqual(sandbox.boards()[2].items, ["System Architecture", "Alert & Debugging"])
        try pane.keys("F")
        try pane.waitForFile(sandbox) { $0[2].items == ["Analytics", "System Architecture", "Alert & Debugging"] }
        try pane.waitFor("the report") { $0.last?.hasPrefix("moved") == true }

        // Ctrl held at the release copies: Push Notification to the top of Todo.
        screen = try pane.screen()
        let push = try require(UIPane.cell(of: "Push", in: screen))
        let todo = try require(UIPane.cell(of: "Todo (3)", in: screen))
        try pane.mouse(0, push, "M")
        try pane.mouse(32 + 16, todo, "M")
        try pane.waitFor("the copy marker") { $0.joined().contains("+ copy here") }
        try pane.mouse(16, todo, "m")
        try pane.waitForFile(sandbox) {
            $0[0].items.first == "Push Notification" && $0[1].items.contains("Push Notification")
        }
        try pane.waitFor("the report") { $0.last?.hasPrefix("copied") == true }

        // A release outside every board (on the status line) cancels.
        let before = try sandbox.bytes()
        screen = try pane.screen()
        let schema = try require(UIPane.cell(of: "Schema Design", in: screen))
        try pane.mouse(0, schema, "M")
        try pane.mouse(32, (2, 23), "M")
        try pane.mouse(0, (2, 23), "m")
        try pane.waitFor("the cancel") { $0.last?.hasPrefix("drop cancelled") == true }
        try expectEqual(sandbox.bytes(), before)

        try pane.keys("q")
        try expectEqual(pane.exitStatus(), 0)
        try expectEqual(pane.format("#{alternate_on} #{mouse_any_flag} #{mouse_sgr_flag} #{cursor_flag}"), "0 0 0 1")
        // Each change is in the history as the command that makes it.
        let log = try sandbox.succeed("log")
        expectTrue(log.contains("kanban move"), "\(log)")
        expectTrue(log.contains("--force"))
        expectTrue(log.contains("kanban copy"))
    }

    /// The board looks at the file four times a second (README: The interactive board); how
    /// soon a change shows on a busy machine is not what is checked, only that it does.
    func aCardAddedByAScriptShowsWithTheCursorOnItsCard() throws {
        expectEqual(UISession.checkInterval, 0.25)
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let pane = try UIPane(sandbox, width: 100, height: 20)
        defer { pane.kill() }
        try pane.waitFor("the board") { $0.first?.hasPrefix("Todo (4)") == true }
        try pane.keys("l", "j")  // Analytics
        try pane.waitForInputs(2)

        try sandbox.succeed("add", "Added by a script", "--to", "In Progress", "--top")
        try pane.waitFor("the new card") { $0.joined().contains("Added by a script") }

        // The cursor stayed on Analytics, now In Progress:2: L moves it.
        try pane.keys("L")
        try pane.waitForFile(sandbox) { $0[2].items.contains("Analytics") }
        try expectEqual(sandbox.boards()[1].items, ["Added by a script", "Push Notification", "Machine Learning"])
        try pane.keys("q")
        try expectEqual(pane.exitStatus(), 0)
    }

    /// How kanban ui is ended, and the exit status that says so.
    static let endings: [(how: String, status: Int32)] = [
        ("q", 0), ("C-c", 0), ("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130), ("SIGQUIT", 131),
        // A crash: the handler gives the terminal back, then the signal takes its course.
        ("SIGSEGV", 139), ("SIGABRT", 134),
    ]

    @Test(arguments: endings.indices)
    func theTerminalIsRestored(ending: Int) throws {
        let (how, status) = Self.endings[ending]
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let pane = try UIPane(sandbox, width: 80, height: 24)
        defer { pane.kill() }
        try pane.waitFor("the board") { $0.first?.hasPrefix("Todo (4)") == true }
        try expectEqual(pane.format("#{alternate_on} #{mouse_any_flag} #{cursor_flag}"), "1 1 0")
        if how.hasPrefix("SIG") {
            let pid = try require(Int32(String(decoding: try sandbox.bytes("ui.pid"), as: UTF8.self).trimmed))
            let signal = [
                "SIGTERM": SIGTERM, "SIGHUP": SIGHUP, "SIGINT": SIGINT, "SIGQUIT": SIGQUIT, "SIGSEGV": SIGSEGV,
                "SIGABRT": SIGABRT,
            ][how]!
            expectEqual(Glibc.kill(pid, signal), 0)
        } else {
            try pane.keys(how)
        }
        try expectEqual(pane.exitStatus(), status, "\(how)")
        try expectEqual(pane.format("#{alternate_on} #{mouse_any_flag} #{cursor_flag}"), "0 0 1", "\(how)")
        // Typing works as before: the terminal echoes again.
        try pane.keys("echo back", "Enter")
        try pane.waitFor("the shell's echo") { $0.contains("back") }
    }

    func escapeSequencesInTitlesDoNotReachTheTerminal() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        // A title written into the file by hand: it sets the window title and clears the screen, printed raw.
        var text = String(decoding: try sandbox.bytes(), as: UTF8.self)
        text = text.replacingOccurrences(
            of: "\"title\": \"Analytics\"",
            with: "\"title\": \"Analytics \\u001b]2;pwned\\u0007\\u001b[2J\\u001b]0;pwned\\u001b\\\\\"")
        try sandbox.write(text)
        let pane = try UIPane(sandbox, width: 120, height: 24)
        defer { pane.kill() }
        let title = try pane.format("#{pane_title}")
        let screen = try pane.waitFor("the board") { $0.joined().contains("Analytics") }
        // Shown as text, visibly (the long escaped word wraps).
        expectTrue(screen.joined().contains("\\u{1B}]2;pwned\\u{7}\\u{1B}[2J"))
        expectEqual(screen.first?.hasPrefix("Todo (4)"), true, "the screen was not cleared")
        try pane.keys("l", "j", "Enter")  // the card in full
        try pane.waitFor("the card") { $0.first?.hasPrefix("Analytics \\u{1B}") == true }
        try expectEqual(pane.format("#{pane_title}"), title)
        expectTrue(try pane.format("#{pane_title}") != "pwned")
        try pane.keys("q", "q")
        try expectEqual(pane.exitStatus(), 0)
    }

    func aResizeRedrawsAtTheNewWidth() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let pane = try UIPane(sandbox, width: 60, height: 20)
        defer { pane.kill() }
        try pane.waitFor("the board") { $0.first?.hasPrefix("Todo (4)") == true }
        let narrow = try pane.screen()
        expectTrue(narrow.contains { $0.hasSuffix("Management") } || narrow.contains { $0.contains(" Management ") })
        try pane.resize(width: 160, height: 30)
        let wide = try pane.waitFor("the wide board") { $0.count > 20 && $0[2].contains("System Architecture") }
        expectTrue(wide[2].contains("Database Migration"))
        expectTrue(wide.allSatisfy { $0.count <= 160 })
        try pane.keys("q")
        try expectEqual(pane.exitStatus(), 0)
    }
}

@Suite struct UIWithoutATerminal {
    @Test func kanbanUIWithoutATerminalIsAUsageError() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let result = try sandbox.run(["ui"])
        expectEqual(result.status, 64, "\(result)")
        expectTrue(result.err.hasPrefix("kanban: error: 'ui' needs a terminal"), "\(result)")
        expectTrue(result.stdout.isEmpty)
        // Before any file is looked for, as usage errors are.
        let elsewhere = try KanbanSandbox()
        defer { elsewhere.remove() }
        try expectEqual(elsewhere.run(["ui"]).status, 64)
        try expectEqual(elsewhere.run(["ui", "extra"]).status, 64)
    }
}

/// A tmux pane running `kanban ui` in a sandbox, on a private tmux server.
final class UIPane: @unchecked Sendable {
    let sandbox: KanbanSandbox
    private let socket = "kanban-ui-\(getpid())-\(UUID().uuidString.prefix(8))"

    /// The title the shell gives the pane once `kanban ui` has ended and `ui.exit` is written.
    static let endedTitle = "kanban-ui-ended"

    /// Starts `kanban ui` in a detached session of `width` × `height`; its pid goes to
    /// `ui.pid`, its inputs to `ui.trace` as each frame is drawn (`KANBAN_UI_TRACE`), its
    /// exit status to `ui.exit`, then the pane's title is set, and the pane stays open.
    init(_ sandbox: KanbanSandbox, width: Int, height: Int) throws {
        self.sandbox = sandbox
        let kanban = try KanbanBinary.require()
        let command =
            "ulimit -c 0; sh -c 'echo $$ > ui.pid; export KANBAN_UI_TRACE=ui.trace; exec \"$0\" ui' \(quote(kanban)); "
            + "echo $? > ui.exit; stty sane; printf '\\033]2;%s\\033\\\\' \(Self.endedTitle); printf '\\n$ '; exec sh"
        // A server whose last session ends exits, and a command that reaches it then fails:
        // a session that lasts until kill() keeps it.
        try tmux(["new-session", "-d", "-s", "keeper", "-c", sandbox.path, "exec sleep 3600"])
        try tmux([
            "new-session", "-d", "-s", "ui", "-x", String(width), "-y", String(height), "-c", sandbox.path, command,
        ])
    }

    func kill() {
        _ = try? tmux(["kill-server"])
    }

    /// Keys as tmux names them (`q`, `C-c`, `Enter`), one `send-keys` each.
    func keys(_ keys: String...) throws {
        for key in keys { try tmux(["send-keys", "-t", "ui", key]) }
    }

    /// An SGR mouse report: button code `code` at the 0-based cell, `M` (press or motion) or `m` (release).
    func mouse(_ code: Int, _ cell: (Int, Int), _ final: Character) throws {
        try tmux(["send-keys", "-t", "ui", "-l", "\u{1B}[<\(code);\(cell.0 + 1);\(cell.1 + 1)\(final)"])
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "ui", "-x", String(width), "-y", String(height)])
    }

    /// The pane's rows, trailing spaces removed.
    func screen() throws -> [String] {
        let text = try tmux(["capture-pane", "-p", "-t", "ui"]).out
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop(while: { $0 == " " }).reversed())
        }
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    /// A tmux format for the pane, such as `#{alternate_on}`.
    func format(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "ui", format]).out.trimmed
    }

    /// The screen once `condition` holds, polled every 20 ms.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 10, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let screen = try screen()
            if condition(screen) { return screen }
            if Date() >= deadline {
                throw SpawnError("no \(what) within \(timeout)s; the screen:\n\(screen.joined(separator: "\n"))")
            }
            usleep(20_000)
        }
    }

    /// Waits until `kanban ui` has handled `count` inputs (keys, mouse reports, pastes) in
    /// all and drawn the frame after them, as its trace says.
    func waitForInputs(_ count: Int, timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let trace = (try? sandbox.bytes("ui.trace")).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let lines = trace.split(separator: "\n")
            let handled = lines.reduce(0) { $0 + ($1.split(separator: "\t").first?.split(separator: ",").count ?? 0) }
            if handled >= count { return }
            if Date() >= deadline {
                throw SpawnError("kanban ui handled \(handled) of \(count) inputs within \(timeout)s: \(trace)")
            }
            usleep(20_000)
        }
    }

    /// Waits until `kanban list --json` satisfies `condition`.
    func waitForFile(_ sandbox: KanbanSandbox, timeout: Double = 10, _ condition: ([BoardColumn]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let boards = try sandbox.boards()
            if condition(boards) { return }
            if Date() >= deadline {
                throw SpawnError(
                    "the file did not change as expected within \(timeout)s: \(boards); the screen:\n"
                        + (try screen()).joined(separator: "\n"))
            }
            usleep(20_000)
        }
    }

    /// The exit status of `kanban ui`, once it has ended: the shell writes it, then sets the
    /// pane's title; once the terminal shows that title, it has drawn everything before it
    /// (a terminal handles its input in order), all `kanban ui` printed included.
    func exitStatus(timeout: Double = 10) throws -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while try format("#{pane_title}") != Self.endedTitle {
            if Date() >= deadline { throw SpawnError("kanban ui did not end within \(timeout)s") }
            usleep(20_000)
        }
        return Int32(String(decoding: try sandbox.bytes("ui.exit"), as: UTF8.self).trimmed)
    }

    /// The 0-based cell where `text` starts on the screen (each character one column wide).
    static func cell(of text: String, in screen: [String]) -> (Int, Int)? {
        for (row, line) in screen.enumerated() {
            if let range = line.range(of: text) {
                return (line.distance(from: line.startIndex, to: range.lowerBound), row)
            }
        }
        return nil
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> ProcessResult {
        let process = try SpawnedProcess.start(
            Tmux.path!, ["-u", "-L", socket, "-f", "/dev/null"] + arguments,
            environment: [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": sandbox.path, "LANG": "C.UTF-8",
                "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "USER": "tester",
                // A crash ends at once, without the runtime's interactive backtrace.
                "SWIFT_BACKTRACE": "enable=no",
            ])
        let result = try process.wait(timeout: 30)
        if arguments.first != "kill-server" {
            try require(result.status == 0, "tmux \(arguments.joined(separator: " ")): \(result)")
        }
        return result
    }

    private func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
