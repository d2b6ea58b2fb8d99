import Glibc
import KanbanCore

/// Text arriving from outside: the lines of standard input, the external drop.
enum StandardInput {
    /// Reads all of standard input, checking it as it comes: it is refused at the first byte
    /// that no title may hold (invalid UTF-8, NUL and the other C0 controls except tab, LF
    /// and CR, DEL, C1 controls), without reading further, and refused once it passes
    /// `limit` bytes, so that `kanban add < /dev/zero` stops at once and a runaway pipe
    /// cannot fill memory.
    ///
    /// - Throws: ``CLIError/badInput(_:)`` naming the line of the first bad byte;
    ///   ``CLIError/io(_:)`` when standard input cannot be read, or is larger than `limit`.
    static func read(limit: Int = Store.maximumFileSize) throws(CLIError) -> [UInt8] {
        try read(Surroundings.current.stdin, limit: limit) { line, problem in
            "standard input, line \(line): \(problem); nothing was added"
        }
    }

    /// Reads all of `fd` as ``read(limit:)`` reads standard input; `describe` says what is
    /// wrong with the first bad byte, given its line.
    static func read(_ fd: Int32, limit: Int, describe: (Int, String) -> String) throws(CLIError) -> [UInt8] {
        var bytes: [UInt8] = []
        var checker = TextChecker()
        let chunkSize = 1 << 16
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let got = Glibc.read(fd, chunk.baseAddress!, chunkSize)
            if got < 0 {
                if errno == EINTR { continue }
                throw .io("cannot read standard input: \(POSIX.Failure().reason)")
            }
            if got == 0 { break }
            let new = UnsafeRawBufferPointer(rebasing: chunk[..<got])
            if let problem = checker.check(new) {
                throw .badInput(describe(checker.line, problem))
            }
            // Too large to read, as a file past the limit is (74): nothing is wrong with the text.
            guard bytes.count + got <= limit else {
                throw .io(
                    "cannot read standard input: it is larger than \(byteCount(limit)), the most kanban reads; "
                        + "nothing was changed")
            }
            bytes.append(contentsOf: new)
        }
        if checker.endsInsideCharacter {
            throw .badInput(describe(checker.line, "invalid UTF-8"))
        }
        return bytes
    }

    /// One title per non-blank line: lines split on LF, a trailing CR and surrounding
    /// whitespace trimmed, blank lines skipped, order kept; a leading UTF-8 byte order
    /// mark is dropped.
    ///
    /// - Throws: ``CLIError/badInput(_:)`` naming the first bad line, for invalid UTF-8 or a
    ///   title the rules refuse, or when the titles would make a kanban file larger than
    ///   `limit` bytes; nothing of the input is used then.
    static func titles(from bytes: [UInt8], limit: Int = Store.maximumFileSize) throws(CLIError) -> [Title] {
        var titles: [Title] = []
        var lineNumber = 0
        // What the titles take in the file: each its text and at least this much around it
        // (`{"id": "…", "title": "…"},` and the indentation).
        let bytesAroundATitle = 32
        var budget = limit
        // A byte order mark some editors put first is not part of the first title.
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        for line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = line
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw .badInput("standard input, line \(lineNumber): invalid UTF-8; nothing was added")
            }
            let title: Title
            do {
                title = try Title(text)
            } catch .invalidTitle(_, reason: .empty) {
                continue  // a blank line
            } catch {
                throw .badInput("standard input, line \(lineNumber): \(error.message); nothing was added")
            }
            budget -= title.text.utf8.count + bytesAroundATitle
            guard budget >= 0 else {
                throw .badInput(
                    "standard input, line \(lineNumber): the cards would make the kanban file larger than "
                        + "\(byteCount(limit)), the most it may hold; nothing was added")
            }
            titles.append(title)
        }
        return titles
    }
}

/// Checks text as it arrives, chunk by chunk: valid UTF-8 without the control characters
/// that no title or note may hold. Counts lines, to say where a problem is.
struct TextChecker {
    /// The line being read, from 1.
    private(set) var line = 1
    /// Continuation bytes the current character still needs.
    private var pending = 0
    /// The range the next continuation byte must be in (narrower after some lead bytes,
    /// which is how overlong forms, surrogates and values past U+10FFFF are refused).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// The lead byte of a two-byte character, to catch C1 controls (`C2 80`…`C2 9F`).
    private var lead: UInt8 = 0

    /// Whether the text so far stops in the middle of a character.
    var endsInsideCharacter: Bool { pending > 0 }

    /// Checks the next bytes; returns what is wrong with the first bad one, if any.
    mutating func check(_ bytes: UnsafeRawBufferPointer) -> String? {
        for byte in bytes {
            if pending > 0 {
                guard byte >= lower && byte <= upper else { return "invalid UTF-8" }
                if lead == 0xC2 && byte <= 0x9F {
                    return "the control character \(Unicode.Scalar(UInt32(byte)).map(\.codePoint) ?? "")"
                }
                pending -= 1
                lower = 0x80
                upper = 0xBF
                continue
            }
            switch byte {
            case 0x0A:
                line += 1
            case 0x09, 0x0D, 0x20...0x7E:
                break
            case 0x00...0x1F, 0x7F:
                return "the control character \(Unicode.Scalar(byte).codePoint)"
            case 0xC2...0xDF:
                pending = 1
            case 0xE0:
                pending = 2
                lower = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF:
                pending = 2
            case 0xED:
                pending = 2
                upper = 0x9F
            case 0xF0:
                pending = 3
                lower = 0x90
            case 0xF1...0xF3:
                pending = 3
            case 0xF4:
                pending = 3
                upper = 0x8F
            default:
                return "invalid UTF-8"
            }
            lead = byte
        }
        return nil
    }
}

extension StandardInput {
    /// Reads a script for `batch`: standard input, or the file at `path`, which must be a
    /// regular file. Checked as standard input is; a bad byte is reported as `line K: …`.
    static func script(at path: String?) throws(CLIError) -> [UInt8] {
        let describe = { (line: Int, problem: String) in "line \(line): \(problem); nothing was changed" }
        guard let path else {
            return try read(Surroundings.current.stdin, limit: Store.maximumFileSize, describe: describe)
        }
        let fd: Int32
        do throws(POSIX.Failure) {
            fd = try POSIX.open(path, O_RDONLY | O_NONBLOCK)
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw POSIX.Failure() }
            guard info.st_mode & S_IFMT == S_IFREG else {
                close(fd)
                throw POSIX.Failure(EINVAL, reason: "not a regular file")
            }
        } catch {
            if error.code == ENOENT { throw .noFile("no script at \(q(path))") }
            throw .io("cannot read \(q(path)): \(error.reason)")
        }
        defer { close(fd) }
        return try read(fd, limit: Store.maximumFileSize, describe: describe)
    }
}
