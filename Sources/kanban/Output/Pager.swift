import Glibc

/// Shows a view taller than the terminal through a pager, as git does: `$KANBAN_PAGER`,
/// else `$PAGER`, else `less -FRX`; an empty value or `cat` means no pager.
struct Pager: Equatable {
    /// The command as the user wrote it, run by `/bin/sh -c` (so `PAGER='less -S'` works).
    let command: String

    /// The pager when the environment names none: quits at once if the view fits after all
    /// (`-F`), passes colors through (`-R`), and leaves the view on the screen (`-X`).
    static let fallback = "less -FRX"

    /// What happened when the pager was asked to show a view.
    enum Outcome: Equatable {
        /// The pager ran and has exited.
        case shown
        /// The pager could not be started: nothing was shown. The reason is nil when the
        /// shell has already said it on stderr.
        case notStarted(reason: String?)
    }

    /// The pager `environment` asks for, or nil for none.
    static func configured(environment: (String) -> String? = { POSIX.environment($0) }) -> Pager? {
        let value = environment("KANBAN_PAGER") ?? environment("PAGER") ?? fallback
        let command = String(value.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !command.isEmpty, command != "cat" else { return nil }
        return Pager(command: command)
    }

    /// Whether a view of `lines` lines goes through a pager on `terminal`: only on a
    /// terminal of known height, when the view and the prompt after it would not fit.
    static func isNeeded(lines: Int, on terminal: Terminal) -> Bool {
        guard terminal.isTerminal, let height = terminal.height else { return false }
        return lines >= height
    }

    /// Writes `bytes` to the pager's standard input and waits for it to exit. It writes
    /// to standard output and reads keys from the terminal; kanban ignores Ctrl-C and a
    /// closed pipe (the user quit early) meanwhile, so the pager leaves the terminal as it
    /// found it before kanban exits.
    func show(_ bytes: [UInt8]) -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .notStarted(reason: "cannot make a pipe: \(reason(errno))") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Only this copy of the read end reaches the pager: both ends are close-on-exec, so
        // it sees the end of the view when kanban closes the write end.
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        if Surroundings.current.stdout != STDOUT_FILENO {
            posix_spawn_file_actions_adddup2(&actions, Surroundings.current.stdout, STDOUT_FILENO)
        }
        _ = Surroundings.current.startChild(in: &actions)

        // The pager starts with default signal handling and no blocked signals, whatever
        // kanban ignores (a closed pipe, below).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // Plain words run directly, as the shell would run them, so that a missing pager
        // (no `less` installed) fails to start here instead of making the shell complain.
        let words = plainWords
        let arguments = words ?? ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = Self.environment().map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let code =
            words == nil
            ? posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
            : posix_spawnp(
                &pid, Surroundings.current.program(arguments[0]) ?? arguments[0], &actions, &attributes, argv, envp)
        close(readEnd)
        guard code == 0 else {
            close(writeEnd)
            return .notStarted(reason: "cannot run the pager '\(command)': \(reason(code))")
        }

        // Dispositions are the process's: a run in the tests' process leaves them alone.
        let process = Surroundings.current.isProcess
        let interrupt = process ? signal(SIGINT, SIG_IGN) : nil
        let quit = process ? signal(SIGQUIT, SIG_IGN) : nil
        defer {
            if process {
                signal(SIGINT, interrupt)
                signal(SIGQUIT, quit)
            }
        }
        Self.ignoringClosedPipe {
            // A failed write means the pager has quit before reading everything: that is fine.
            try? POSIX.writeAll(writeEnd, bytes)
        }
        close(writeEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // 126 and 127: the shell could not find or run the command, and has said so.
        let exited = status & 0x7F == 0
        if words == nil && exited && [126, 127].contains((status >> 8) & 0xFF) {
            return .notStarted(reason: nil)
        }
        return .shown
    }

    /// Runs `body` with SIGPIPE ignored in this thread: blocked, so that a write to a closed
    /// pipe fails with `EPIPE`, and the signal it leaves pending taken before unblocking.
    /// Unlike changing its disposition, this leaves other threads as they were.
    private static func ignoringClosedPipe(_ body: () -> Void) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&previous, SIGPIPE) == 0 && sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        body()
    }

    /// The command's words when it is only words of letters, digits and `-_./,:+@%`, which
    /// the shell would pass unchanged; nil when the shell must read it.
    var plainWords: [String]? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:+@% ")
        guard command.allSatisfy(allowed.contains) else { return nil }
        let words = command.split(separator: " ").map(String.init)
        return words.isEmpty ? nil : words
    }

    /// kanban's environment for the pager, with git's defaults for `less` (`LESS=FRX`) and
    /// `lv` (`LV=-c`) where the user has set none.
    private static func environment() -> [String] {
        var entries = Surroundings.current.environmentEntries
        for (name, value) in [("LESS", "FRX"), ("LV", "-c")]
        where !entries.contains(where: { $0.hasPrefix(name + "=") }) {
            entries.append("\(name)=\(value)")
        }
        return entries
    }

    private func reason(_ code: Int32) -> String {
        POSIX.Failure(code).reason
    }
}
