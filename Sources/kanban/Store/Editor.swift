import Glibc

/// A text file for the user's editor, in `$TMPDIR` (else `/tmp`), readable only by its owner.
struct TemporaryText {
    let path: String

    /// Creates the file with `text` in it; `name` starts its name.
    init(_ text: String, name: String) throws(CLIError) {
        let directory = POSIX.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let pattern = Surroundings.current.resolve(Path.join(directory, "\(name)-XXXXXX.txt"))
        var template = Array(pattern.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else {
            throw .io("cannot create a temporary file in \(q(directory)): \(POSIX.Failure().reason); set TMPDIR")
        }
        defer { close(fd) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            try POSIX.writeAll(fd, Array(text.utf8))
        } catch {
            unlink(path)
            throw .io("cannot write \(q(path)): \(error.reason)")
        }
    }

    /// The largest text read back from the editor, 16 MiB: far more than a card's text.
    static let maximumSize = 16 << 20

    /// The file's text now, read only while it is what kanban made: a regular file of this
    /// user, of at most ``maximumSize`` bytes (README: Security). An editor, or anyone who
    /// may write in the directory, can put something else in its place: a FIFO would hang
    /// the read, a symlink would have kanban read (and show in errors) whatever it points
    /// to, a sparse file of gigabytes would be read for nothing. Such a thing is refused
    /// and removed; it is never followed or written through.
    func read() throws(CLIError) -> String {
        let bytes: [UInt8]
        do {
            let rules = BoundedFile.Rules(regularOnly: true, followingLinks: false, owner: geteuid())
            bytes = try BoundedFile.read(path, limit: Self.maximumSize, rules: rules)
        } catch {
            switch error {
            case .symbolicLink: throw refused("is a symbolic link")
            case .kind(let info): throw refused("is \(info.kind)")
            case .otherOwner(let uid): throw refused("belongs to another user, uid \(uid)")
            case .tooLarge: throw refused("is larger than \(byteCount(Self.maximumSize))")
            case .grewTooLarge: throw refused("grew larger than \(byteCount(Self.maximumSize))")
            case .cannotOpen(let failure): throw .io("cannot read \(q(path)): \(failure.reason); nothing was changed")
            case .cannotRead(let failure):
                throw .io("cannot read \(q(path)): \(failure.reason); nothing was changed; your text is kept there")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.badInput("\(q(path)) is not valid UTF-8; your text is kept there")
        }
        return text
    }

    /// Removes what is at the path now, which is not the text kanban gave the editor, and
    /// says so.
    private func refused(_ what: String) -> CLIError {
        let removed = unlink(path) == 0 || (errno == EISDIR && rmdir(path) == 0)
        return .io(
            "the editor left \(q(path)) in a state kanban does not read back: it \(what), not a regular file of "
                + "at most \(byteCount(Self.maximumSize)) as kanban wrote it; "
                + (removed ? "it was removed" : "remove it") + "; nothing was changed")
    }

    func remove() {
        unlink(path)
    }
}

/// The user's editor: `$VISUAL`, else `$EDITOR`, else `vi`, run through `/bin/sh` so that
/// a value with arguments (`code --wait`) works, on the terminal kanban runs on.
enum Editor {
    static func run(on path: String) throws(CLIError) {
        let editor =
            [POSIX.environment("VISUAL"), POSIX.environment("EDITOR")].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let arguments = ["/bin/sh", "-c", "\(editor) \"$1\"", "sh", path]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // The editor works on the terminal kanban runs on, in its directory.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let surroundings = Surroundings.current
        for (fd, standard) in [(surroundings.stdin, STDIN_FILENO), (surroundings.stdout, STDOUT_FILENO)]
        where fd != standard {
            posix_spawn_file_actions_adddup2(&actions, fd, standard)
        }
        var pid: pid_t = 0
        let code =
            surroundings.startChild(in: &actions)
            ? surroundings.withEnvironment { posix_spawn(&pid, "/bin/sh", &actions, nil, argv, $0) } : ENOSYS
        guard code == 0 else {
            throw .io("cannot start /bin/sh to run the editor: \(POSIX.Failure(code).reason); your text is in \(q(path))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let exitCode = (status >> 8) & 0xFF
        guard exited && exitCode == 0 else {
            let how = exited ? "exited with status \(exitCode)" : "was killed by signal \(status & 0x7F)"
            let hint = exitCode == 127 ? " (is it installed? set VISUAL or EDITOR)" : ""
            throw .io("the editor \(q(editor)) \(how)\(hint); nothing was changed; your text is in \(q(path))")
        }
    }
}
