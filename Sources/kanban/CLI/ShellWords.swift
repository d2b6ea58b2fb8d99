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
    static func split(_ line: Substring) throws(Problem) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t":
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            case "#" where !inWord:
                return words
            case "'":
                inWord = true
                while true {
                    guard let next = characters.next() else { throw Problem(message: "a single quote is not closed") }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = characters.next() else { throw Problem(message: "a double quote is not closed") }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = characters.next() else {
                            throw Problem(message: "a double quote is not closed")
                        }
                        if escaped != "\"" && escaped != "\\" { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            case "\\":
                guard let escaped = characters.next() else {
                    throw Problem(message: "a backslash ends the line; a command is one line")
                }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
