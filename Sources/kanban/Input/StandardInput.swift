import Glibc
import KanbanCore

/// Text arriving from outside: the lines of standard input, the external drop.
enum StandardInput {
    /// Reads all of standard input.
    static func read() throws(CLIError) -> [UInt8] {
        do {
            return try POSIX.readAll(STDIN_FILENO)
        } catch {
            throw .io("cannot read standard input: \(error.reason)")
        }
    }

    /// One title per non-blank line: lines split on LF, a trailing CR and surrounding
    /// whitespace trimmed, blank lines skipped, order kept; a leading UTF-8 byte order
    /// mark is dropped.
    ///
    /// - Throws: ``CLIError/badInput(_:)`` naming the first bad line, for invalid UTF-8 or a
    ///   control character; nothing of the input is used then.
    static func titles(from bytes: [UInt8]) throws(CLIError) -> [Title] {
        var titles: [Title] = []
        var lineNumber = 0
        // A byte order mark some editors put first is not part of the first title.
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        for line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = line
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw .badInput("standard input, line \(lineNumber): invalid UTF-8; nothing was added")
            }
            do {
                titles.append(try Title(text))
            } catch .invalidTitle(_, reason: .empty) {
                continue  // a blank line
            } catch {
                throw .badInput("standard input, line \(lineNumber): \(error.message); nothing was added")
            }
        }
        return titles
    }
}

extension StandardInput {
    /// Reads a whole input file (a batch script), which must be a regular file.
    static func readFile(_ path: String) throws(CLIError) -> [UInt8] {
        do throws(POSIX.Failure) {
            let fd = try POSIX.open(path, O_RDONLY | O_NONBLOCK)
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw POSIX.Failure() }
            guard info.st_mode & S_IFMT == S_IFREG else { throw POSIX.Failure(EINVAL, reason: "not a regular file") }
            return try POSIX.readAll(fd, sizeHint: Int(info.st_size))
        } catch {
            if error.code == ENOENT { throw .noFile("no script at \(q(path))") }
            throw .io("cannot read \(q(path)): \(error.reason)")
        }
    }
}
