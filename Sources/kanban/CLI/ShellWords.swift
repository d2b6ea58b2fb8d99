/// Splits a line into words as a POSIX shell would, for `kanban batch`: blanks separate
/// words; single quotes keep everything literally; double quotes keep everything but `\"`
/// and `\\`; a backslash outside quotes keeps the next character; `#` at the start of a
/// word starts a comment. Nothing is expanded: `$`, `*`, `;` and `|` are plain characters.
enum ShellWords {
    /// Why a line could not be split.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// The words of `line`.
    ///
    /// - Throws: ``Problem`` for an unterminated quote or a backslash that ends the line.
    /// - Complexity: O(*n*) in the line's UTF-8 bytes.
    static func split(_ line: Substring) throws(Problem) -> [String] {
        try split(utf8: Array(line.utf8)[...])
    }

    /// The words of a line of valid UTF-8, as a batch reads it.
    ///
    /// - Throws: ``Problem`` for an unterminated quote or a backslash that ends the line.
    static func split(utf8 line: ArraySlice<UInt8>) throws(Problem) -> [String] {
        var bytes = Array(line)
        return try bytes.withUnsafeMutableBufferPointer { (bytes) throws(Problem) in try split(inPlace: bytes) }
    }

    /// Splits UTF-8 bytes, writing each word over them as it is read: its bytes are never
    /// more than those read for it, as quotes and backslashes are only taken away.
    ///
    /// Byte by byte: every byte that means something here is ASCII, and in UTF-8 an ASCII
    /// byte is never part of another scalar, so a quote followed by a combining mark is
    /// still a quote, and a backslash keeps the whole scalar after it (its first byte here,
    /// the others as plain bytes next). A batch splits thousands of lines: this costs far
    /// less than appending scalars to a String (README: Performance).
    private static func split(inPlace bytes: UnsafeMutableBufferPointer<UInt8>) throws(Problem) -> [String] {
        var words: [String] = []
        // Room for the words of a usual line, as many as there could be: not grown word by word.
        words.reserveCapacity(min(bytes.count / 2 + 1, 16))
        var read = 0
        // The current word is bytes[..<written], once `inWord`.
        var written = 0
        var inWord = false
        func take() -> UInt8? {
            guard read < bytes.count else { return nil }
            defer { read += 1 }
            return bytes[read]
        }
        func keep(_ byte: UInt8) {
            bytes[written] = byte
            written += 1
        }
        while let byte = take() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                if inWord {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<written]), as: UTF8.self))
                    written = 0
                    inWord = false
                }
            case UInt8(ascii: "#") where !inWord:
                return words
            case UInt8(ascii: "'"):
                inWord = true
                while true {
                    guard let next = take() else { throw Problem(message: "a single quote is not closed") }
                    if next == UInt8(ascii: "'") { break }
                    keep(next)
                }
            case UInt8(ascii: "\""):
                inWord = true
                while true {
                    guard let next = take() else { throw Problem(message: "a double quote is not closed") }
                    if next == UInt8(ascii: "\"") { break }
                    if next == UInt8(ascii: "\\") {
                        guard let escaped = take() else { throw Problem(message: "a double quote is not closed") }
                        if escaped != UInt8(ascii: "\"") && escaped != UInt8(ascii: "\\") { keep(UInt8(ascii: "\\")) }
                        keep(escaped)
                    } else {
                        keep(next)
                    }
                }
            case UInt8(ascii: "\\"):
                guard let escaped = take() else {
                    throw Problem(message: "a backslash ends the line; a command is one line")
                }
                inWord = true
                keep(escaped)
            default:
                inWord = true
                keep(byte)
            }
        }
        if inWord { words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<written]), as: UTF8.self)) }
        return words
    }
}
