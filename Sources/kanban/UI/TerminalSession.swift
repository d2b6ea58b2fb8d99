import Glibc

// The terminal while `kanban ui` runs: raw mode (termios), the alternate screen, a hidden
// cursor, xterm mouse reporting (1000: presses, 1002: motion with a button held, 1006: SGR
// coordinates with releases) and bracketed paste (2004). It reads bytes, writes frames,
// and always gives the terminal back: on quit, on an error (the caller's `defer`), and in
// signal handlers for SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGTSTP and the crash signals,
// which write a byte sequence made in advance and call `tcsetattr`, both safe in a handler.

/// What the signal handlers use: made before they are installed, in memory of its own, so
/// that a handler reads plain values and calls only async-signal-safe functions.
private struct HandlerState {
    var input: Int32 = Surroundings.current.stdin
    var output: Int32 = Surroundings.current.stdout
    /// The terminal's settings before kanban changed them.
    var saved = termios()
    /// Raw mode, to put back after a stop.
    var raw = termios()
    /// Whether the terminal is in kanban's hands now (not while an editor has it).
    var active: Int32 = 0
    /// Whether a SIGTSTP stopped kanban: SIGCONT then takes the terminal back.
    var stopped: Int32 = 0
    /// The write end of a pipe the main loop polls: a byte says "resized" or "continued".
    var wake: Int32 = -1
    /// The dispositions kanban replaced, by signal number.
    var previous: UnsafeMutablePointer<sigaction>
    var enter: UnsafeMutablePointer<UInt8>
    var enterCount: Int
    var leave: UnsafeMutablePointer<UInt8>
    var leaveCount: Int
}

nonisolated(unsafe) private var handlerState: UnsafeMutablePointer<HandlerState>?

/// Writes `count` bytes from `bytes` with `write(2)` alone.
private func writeRaw(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) {
    var offset = 0
    while offset < count {
        let written = write(fd, bytes + offset, count - offset)
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            return
        }
    }
}

private func restoreTerminal(_ state: UnsafeMutablePointer<HandlerState>) {
    writeRaw(state.pointee.output, state.pointee.leave, state.pointee.leaveCount)
    _ = withUnsafePointer(to: &state.pointee.saved) { tcsetattr(state.pointee.input, TCSANOW, $0) }
}

private func resumeTerminal(_ state: UnsafeMutablePointer<HandlerState>) {
    _ = withUnsafePointer(to: &state.pointee.raw) { tcsetattr(state.pointee.input, TCSANOW, $0) }
    writeRaw(state.pointee.output, state.pointee.enter, state.pointee.enterCount)
}

private func wakeMainLoop(_ state: UnsafeMutablePointer<HandlerState>, _ byte: UInt8) {
    var byte = byte
    _ = write(state.pointee.wake, &byte, 1)
}

/// The one handler: it looks at the signal to know what to do.
private func handleSignal(_ number: Int32) {
    guard let state = handlerState else { return }
    let saved = errno
    defer { errno = saved }
    switch number {
    case SIGWINCH:
        wakeMainLoop(state, UInt8(ascii: "w"))
    case SIGCONT:
        if state.pointee.stopped != 0 {
            state.pointee.stopped = 0
            resumeTerminal(state)
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handleSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(SIGTSTP, &action, nil)
        }
        wakeMainLoop(state, UInt8(ascii: "c"))
    case SIGTSTP:
        if state.pointee.active != 0 {
            restoreTerminal(state)
            state.pointee.stopped = 1
        }
        // Stop as the default action would, once this handler returns.
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
    case SIGINT, SIGQUIT:
        // While an editor has the terminal, Ctrl-C is the editor's.
        guard state.pointee.active != 0 else { return }
        restoreTerminal(state)
        sigaction(number, state.pointee.previous + Int(number), nil)
        raise(number)
    default:
        // SIGTERM and SIGHUP end kanban; a crash signal goes on to the handler it had
        // (the runtime's backtrace) or to its default action, once the terminal is back.
        // Raised again, it is delivered as this handler returns, whether it came from a
        // fault or from kill(2).
        if state.pointee.active != 0 { restoreTerminal(state) }
        sigaction(number, state.pointee.previous + Int(number), nil)
        raise(number)
    }
}

/// The terminal, in raw mode with the alternate screen, for `kanban ui`.
final class TerminalSession {
    /// Modes turned on, and off again in the opposite order.
    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h"
    private static let leaveSequence =
        "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    private static let handled = [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH] + crashSignals
    private static let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    private let state: UnsafeMutablePointer<HandlerState>
    private let wakeRead: Int32

    /// Takes the terminal on standard input and output: saves its settings and installs
    /// the handlers that give it back. Nothing is drawn until ``enter()``.
    init() throws(CLIError) {
        var saved = termios()
        guard tcgetattr(Surroundings.current.stdin, &saved) == 0 else {
            throw .io("cannot read the terminal's settings: \(POSIX.Failure().reason)")
        }
        var pipe: [Int32] = [-1, -1]
        guard Glibc.pipe(&pipe) == 0 else {
            throw .io("cannot make a pipe: \(POSIX.Failure().reason)")
        }
        for fd in pipe {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = pipe[0]
        var raw = saved
        cfmakeraw(&raw)
        let enter = Array(Self.enterSequence.utf8)
        let leave = Array(Self.leaveSequence.utf8)
        let enterBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: enter.count)
        enterBytes.initialize(from: enter, count: enter.count)
        let leaveBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: leave.count)
        leaveBytes.initialize(from: leave, count: leave.count)
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        previous.initialize(repeating: sigaction(), count: 65)
        state = UnsafeMutablePointer<HandlerState>.allocate(capacity: 1)
        state.initialize(
            to: HandlerState(
                saved: saved, raw: raw, wake: pipe[1], previous: previous, enter: enterBytes, enterCount: enter.count,
                leave: leaveBytes, leaveCount: leave.count))
        handlerState = state
        for signal in Self.handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handleSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, previous + Int(signal))
            // A signal the shell told kanban to ignore (nohup) stays ignored.
            if Self.isIgnored(previous[Int(signal)]) && !Self.crashSignals.contains(signal) {
                sigaction(signal, previous + Int(signal), nil)
            }
        }
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }  // SIG_DFL
        return unsafeBitCast(handler, to: Int.self) == 1  // SIG_IGN
    }

    /// Gives everything back: the terminal (if still taken), the signal handlers, the memory.
    func close() {
        leave()
        for signal in Self.handled {
            sigaction(signal, state.pointee.previous + Int(signal), nil)
        }
        handlerState = nil
        Glibc.close(wakeRead)
        Glibc.close(state.pointee.wake)
        state.pointee.previous.deallocate()
        state.pointee.enter.deallocate()
        state.pointee.leave.deallocate()
        state.deallocate()
    }

    /// Raw mode, the alternate screen, mouse reporting and bracketed paste.
    func enter() {
        // Active first: a signal from here on gives the terminal back.
        state.pointee.active = 1
        _ = withUnsafePointer(to: &state.pointee.raw) { tcsetattr(state.pointee.input, TCSAFLUSH, $0) }
        writeRaw(state.pointee.output, state.pointee.enter, state.pointee.enterCount)
    }

    /// The terminal as it was (for an editor, a stop, or the end).
    func leave() {
        guard state.pointee.active != 0 else { return }
        restoreTerminal(state)
        state.pointee.active = 0
    }

    /// Ctrl-Z: gives the terminal back and stops until the shell continues kanban.
    func suspend() {
        leave()
        raise(SIGSTOP)
        enter()
    }

    /// The size in columns and rows.
    func size() -> (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(Surroundings.current.stdout, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Waits at most `timeout` seconds for input or a signal's wake-up.
    func wait(timeout: Double) -> (input: Bool, wake: Bool) {
        var fds = [
            pollfd(fd: Surroundings.current.stdin, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = Int32(max(0, min(timeout, 60) * 1000).rounded(.up))
        guard poll(&fds, 2, milliseconds) > 0 else { return (false, false) }
        let input = fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
        return (input, fds[1].revents & Int16(POLLIN) != 0)
    }

    /// What the signal handlers said since the last call: a resize, a continue.
    func takeWakeUps() -> (resized: Bool, continued: Bool) {
        var resized = false
        var continued = false
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = Glibc.read(wakeRead, &bytes, bytes.count)
            guard count > 0 else { break }
            for byte in bytes.prefix(count) {
                if byte == UInt8(ascii: "w") { resized = true }
                if byte == UInt8(ascii: "c") { continued = true }
            }
        }
        return (resized, continued)
    }

    /// The bytes the terminal sent: empty at the end of input, `nil` when there were none
    /// to read after all.
    func read() throws(CLIError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(Surroundings.current.stdin, &bytes, bytes.count)
        if count >= 0 { return Array(bytes.prefix(count)) }
        if errno == EINTR || errno == EAGAIN { return nil }
        throw .io("cannot read the terminal: \(POSIX.Failure().reason)")
    }

    func write(_ bytes: [UInt8]) throws(CLIError) {
        guard !bytes.isEmpty else { return }
        do {
            try POSIX.writeAll(Surroundings.current.stdout, bytes)
        } catch {
            throw .io("cannot write to the terminal: \(error.reason)")
        }
    }
}
