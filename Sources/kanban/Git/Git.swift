import Glibc

/// Runs `git` as a program, the way a person would: it is a tool people have, not a
/// library kanban links. Only `diff` (for revisions) and `git setup`/`git check`/`git resolve`
/// need it.
enum Git {
    /// How a git command ended.
    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]

        var succeeded: Bool { status == 0 }
        /// Standard output as text, without the final newline.
        var output: String {
            var text = String(decoding: stdout, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        }
        /// Git's own message: the last line of standard error, without `fatal: ` or `error: `.
        var message: String {
            let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n")
            var last = String(lines.last ?? "")
            for prefix in ["fatal: ", "error: "] where last.hasPrefix(prefix) { last.removeFirst(prefix.count) }
            return Escape.visible(last)
        }
    }

    /// Runs `git arguments…` (with `-C directory` when given) and waits for it.
    ///
    /// Callers put `--` before paths and `--end-of-options` before revisions, so that nothing
    /// a user typed is read as an option (README: Working together).
    ///
    /// - Throws: ``CLIError/git(_:)`` when git cannot be started (not installed, not on `PATH`).
    static func run(_ arguments: [String], in directory: String? = nil) throws(CLIError) -> Result {
        let argv = ["git"] + (directory.map { ["-C", $0] } ?? []) + arguments
        do throws(POSIX.Failure) {
            return try spawn("git", argv)
        } catch {
            let reason = error.code == ENOENT ? "git is not installed, or not on PATH" : error.reason
            throw .git("cannot run git: \(reason)")
        }
    }

    /// Runs the program at `path` (no `PATH` search when it has a `/`) with `arguments`,
    /// standard input empty, and waits for it.
    ///
    /// - Throws: the reason it could not be started.
    static func runProgram(_ path: String, _ arguments: [String]) throws(POSIX.Failure) -> Result {
        try spawn(path, [path] + arguments)
    }

    private static func spawn(_ program: String, _ argv: [String]) throws(POSIX.Failure) -> Result {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw POSIX.Failure() }
        guard pipe(&errors) == 0 else {
            let failure = POSIX.Failure()
            close(output[0])
            close(output[1])
            throw failure
        }
        // Only git's copies of the write ends may stay open, or reading would never end.
        for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let surroundings = Surroundings.current
        guard let found = surroundings.program(program), surroundings.startChild(in: &actions) else {
            close(output[0])
            close(output[1])
            close(errors[0])
            close(errors[1])
            throw POSIX.Failure(ENOENT)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // kanban ignores SIGPIPE; git must get its default dispositions back.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let code = surroundings.withEnvironment { posix_spawnp(&pid, found, &actions, &attributes, cArguments, $0) }
        close(output[1])
        close(errors[1])
        defer {
            close(output[0])
            close(errors[0])
        }
        guard code == 0 else { throw POSIX.Failure(code) }
        let (stdout, stderr) = drain(output[0], errors[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        return Result(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), stdout: stdout, stderr: stderr)
    }

    /// Reads two pipes to their ends at once, so that neither fills up and blocks git.
    private static func drain(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var outputs: [[UInt8]] = [[], []]
        var fds = [
            pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while fds.contains(where: { $0.fd >= 0 }) {
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress!, $0.count) }
                if count > 0 {
                    outputs[index] += buffer[..<count]
                } else if count == 0 || errno != EINTR {
                    fds[index].fd = -1  // poll skips negative descriptors
                }
            }
        }
        return (outputs[0], outputs[1])
    }
}

/// Where a kanban file is in a git work tree.
struct GitLocation {
    /// The work tree's top directory.
    var root: String
    /// The file's path relative to it, as git names it (`kanban.json`, `team/kanban.json`).
    var path: String

    /// The work tree that holds the kanban file at `file`.
    ///
    /// - Parameter hint: what to do instead, said after the error.
    /// - Throws: ``CLIError/git(_:)`` when git is missing or the file is not in a work tree.
    static func of(_ file: String, hint: String) throws(CLIError) -> GitLocation {
        let result: Git.Result
        do {
            result = try Git.run(["rev-parse", "--show-toplevel", "--show-prefix"], in: Path.directory(of: file))
        } catch {
            throw .git("\(error.message); \(hint)")
        }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        guard result.succeeded, let root = lines.first, !root.isEmpty else {
            throw .git("\(q(file)) is not in a git work tree (git says: \(result.message)); \(hint)")
        }
        let prefix = lines.count > 1 ? String(lines[1]) : ""
        return GitLocation(root: String(root), path: prefix + Path.name(of: file))
    }
}
