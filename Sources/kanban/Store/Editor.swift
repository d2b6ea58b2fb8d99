import Glibc

/// A text file for the user's editor, in `$TMPDIR` (else `/tmp`), readable only by its owner.
struct TemporaryText {
    let path: String

    /// Creates the file with `text` in it; `name` starts its name.
    init(_ text: String, name: String) throws(CLIError) {
        let directory = POSIX.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array(Path.join(directory, "\(name)-XXXXXX.txt").utf8CString)
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

    /// The file's text now.
    func read() throws(CLIError) -> String {
        do {
            let fd = try POSIX.open(path, O_RDONLY)
            defer { close(fd) }
            let bytes = try POSIX.readAll(fd, limit: Store.maximumFileSize)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw CLIError.badInput("\(q(path)) is not valid UTF-8; your text is kept there")
            }
            return text
        } catch let error as CLIError {
            throw error
        } catch let error as POSIX.Failure {
            throw .io("cannot read \(q(path)): \(error.reason)")
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
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
        var pid: pid_t = 0
        let code = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
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
