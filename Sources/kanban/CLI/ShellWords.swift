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
        // Byte by byte: every byte that means something here is ASCII, and in UTF-8 an ASCII
        // byte is never part of another scalar, so a quote followed by a combining mark is
        // still a quote, and a backslash keeps the whole scalar after it (its first byte
        // here, the others as plain bytes next). A batch splits thousands of lines: bytes
        // cost far less than scalars appended to a String (README: Performance).
        var words: [String] = []
        var word: [UInt8] = []
        word.reserveCapacity(line.utf8.count)
        var inWord = false
        var bytes = line.utf8.makeIterator()
        func endWord() {
            words.append(String(decoding: word, as: UTF8.self))
            word.removeAll(keepingCapacity: true)
            inWord = false
        }
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                if inWord { endWord() }
            case UInt8(ascii: "#") where !inWord:
                return words
            case UInt8(ascii: "'"):
                inWord = true
                while true {
                    guard let next = bytes.next() else { throw Problem(message: "a single quote is not closed") }
                    if next == UInt8(ascii: "'") { break }
                    word.append(next)
                }
            case UInt8(ascii: "\""):
                inWord = true
                while true {
                    guard let next = bytes.next() else { throw Problem(message: "a double quote is not closed") }
                    if next == UInt8(ascii: "\"") { break }
                    if next == UInt8(ascii: "\\") {
                        guard let escaped = bytes.next() else { throw Problem(message: "a double quote is not closed") }
                        if escaped != UInt8(ascii: "\"") && escaped != UInt8(ascii: "\\") {
                            word.append(UInt8(ascii: "\\"))
                        }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            case UInt8(ascii: "\\"):
                guard let escaped = bytes.next() else {
                    throw Problem(message: "a backslash ends the line; a command is one line")
                }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(byte)
            }
        }
        if inWord { endWord() }
        return words
    }
}
