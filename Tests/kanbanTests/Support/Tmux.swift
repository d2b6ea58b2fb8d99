import Foundation
import Glibc
import Testing

/// A private tmux server (its own socket, no configuration file) for looking at what a
/// real terminal shows: start a command in a pane of a given size, wait for it, capture
/// the pane, and ask the terminal how wide it draws a line.
final class Tmux: @unchecked Sendable {
    /// `tmux` on the PATH, if there is one.
    static let path: String? = executable("tmux")
    /// bash, for ``widths(of:)``: it reads the terminal's cursor report.
    static let bash: String? = executable("bash")

    /// Whether the end-to-end terminal tests can run.
    static var available: Bool { path != nil && bash != nil }

    let sandbox: KanbanSandbox
    private let socket = "kanban-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    private var started = false

    init(in sandbox: KanbanSandbox) {
        self.sandbox = sandbox
    }

    /// Stops the server and every pane in it.
    func kill() {
        _ = try? tmux(["kill-server"])
    }

    /// Runs `shell` (a `/bin/sh` command line) in a new pane of `width` × `height` in the
    /// sandbox, waits until it has finished and the terminal has drawn all it printed, and
    /// returns the pane's text: one string per row, trailing spaces and empty rows at the
    /// bottom removed.
    func capture(_ shell: String, width: Int, height: Int, environment: [String: String] = [:]) throws -> [String] {
        try startServer()
        let done = "done-\(UUID().uuidString.prefix(8))"
        let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)=\(quote($0.value)); " }.joined()
        // The pane's title is set after the command's output: once the terminal shows the
        // title, it has drawn everything before it (a terminal handles its input in order).
        let command = "\(exports)\(shell); printf '\\033]2;%s\\033\\\\' \(done); exec sleep 600"
        let session = "s\(UUID().uuidString.prefix(8))"
        try tmux([
            "new-session", "-d", "-s", session, "-x", String(width), "-y", String(height), "-c", sandbox.path, command,
        ])
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        try waitForTitle(done, of: session)
        let pane = try tmux(["capture-pane", "-p", "-t", session]).out
        var rows = pane.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop(while: { $0 == " " }).reversed())
        }
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    /// The width of each of `lines` as the terminal draws it: each is printed alone at the
    /// start of a row of a very wide pane, and the terminal reports where the cursor is.
    func widths(of lines: [String]) throws -> [Int] {
        let input = sandbox.path("lines-\(UUID().uuidString.prefix(8))")
        let output = input + ".widths"
        try sandbox.write(lines.joined(separator: "\n") + "\n", to: input)
        let script = """
            stty -echo
            while IFS= read -r line <&3; do
                printf '\\r\\033[2K%s\\033[6n' "$line"
                IFS='[;' read -rs -d R _ _ column
                echo $((column - 1)) >&4
            done 3< \(quote(input)) 4> \(quote(output)).part
            mv \(quote(output)).part \(quote(output))
            """
        try sandbox.write(script, to: input + ".sh")
        _ = try capture("\(Tmux.bash!) \(quote(input + ".sh"))", width: 2000, height: 5)
        let text = String(decoding: try sandbox.bytes(output), as: UTF8.self)
        let widths = text.split(separator: "\n").compactMap { Int($0) }
        try require(widths.count == lines.count, "the terminal reported \(widths.count) of \(lines.count) widths")
        return widths
    }

    // MARK: - Running tmux

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> ProcessResult {
        let process = try SpawnedProcess.start(
            Tmux.path!, ["-u", "-L", socket, "-f", "/dev/null"] + arguments,
            environment: [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": sandbox.path, "LANG": "C.UTF-8",
                "LC_ALL": "C.UTF-8", "TERM": "xterm-256color",
            ])
        let result = try process.wait(timeout: 30)
        if arguments.first != "kill-server" && arguments.first != "kill-session" {
            try require(result.status == 0, "tmux \(arguments.joined(separator: " ")): \(result)")
        }
        return result
    }

    /// Starts the server with a session that lasts until ``kill()``: a server whose last
    /// session ends exits, and a `new-session` that reaches it while it exits fails.
    private func startServer() throws {
        guard !started else { return }
        try tmux(["new-session", "-d", "-s", "keeper", "-c", sandbox.path, "exec sleep 3600"])
        started = true
    }

    private func waitForTitle(_ title: String, of session: String, timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try tmux(["display-message", "-p", "-t", session, "#{pane_title}"]).out
            .trimmingCharacters(in: .whitespacesAndNewlines) != title
        {
            if Date() >= deadline { throw SpawnError("the command in tmux did not finish within \(timeout)s") }
            usleep(20_000)
        }
    }

    private func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func executable(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
            .split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
