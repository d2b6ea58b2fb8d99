import Glibc

/// POSIX shell quoting, as bash reads a word being completed and as readline inserts a
/// completion: what a typed word means, and how to write a value so that it means that.
enum ShellQuote {
    /// Whether a word ends inside a quote.
    enum State: Equatable {
        case none
        /// Inside `'…`, opened at this offset (in characters) of the raw word.
        case single(at: Int)
        /// Inside `"…`, opened at this offset.
        case double(at: Int)
    }

    /// The value of a word as the shell reads it (quotes removed, backslash escapes undone),
    /// and whether it ends inside a quote, which is taken as closed at the end.
    static func dequote(_ raw: String) -> (value: String, state: State) {
        var value = ""
        var state = State.none
        var escaped = false
        for (offset, character) in raw.enumerated() {
            switch state {
            case .none:
                if escaped {
                    if character != "\n" { value.append(character) }
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "'" {
                    state = .single(at: offset)
                } else if character == "\"" {
                    state = .double(at: offset)
                } else {
                    value.append(character)
                }
            case .single:
                if character == "'" { state = .none } else { value.append(character) }
            case .double:
                if escaped {
                    if !"$`\"\\\n".contains(character) { value.append("\\") }
                    if character != "\n" { value.append(character) }
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    state = .none
                } else {
                    value.append(character)
                }
            }
        }
        if escaped { value.append("\\") }
        return (value, state)
    }

    /// What readline keeps of the word being completed: the part bash split off before the
    /// piece it completes (`Todo:` of `Todo:0`), and, when the word ends inside a quote,
    /// everything up to that quote (readline completes the text after it, and closes the
    /// quote itself). Returns the value of the kept part and the quoting of what follows.
    static func readlineStem(raw: String, keptRaw: String) -> (value: String, quote: State) {
        let (_, state) = dequote(raw)
        var kept = keptRaw
        switch state {
        case .single(let offset), .double(let offset):
            if offset + 1 > kept.count { kept = String(raw.prefix(offset + 1)) }
        case .none:
            break
        }
        let (value, keptState) = dequote(kept)
        return (value, keptState == .none ? .none : state)
    }

    /// `text` written to follow a kept part in `state`: inside single quotes a `'` becomes
    /// `'\''`; inside double quotes `"`, `\`, `$` and `` ` `` take a backslash; outside any
    /// quote, every character the shell would read specially does.
    static func quote(_ text: String, state: State) -> String {
        var out: [UInt8] = []
        append(Array(text.utf8), quotedFor: state, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The UTF-8 of `text` written to follow a kept part in `state`, appended to `output`:
    /// ``quote(_:state:)`` on bytes, for long lists of candidates.
    static func append(_ text: some Collection<UInt8>, quotedFor state: State, to output: inout [UInt8]) {
        for byte in text {
            switch state {
            case .single:
                if byte == UInt8(ascii: "'") {
                    output += "'\\''".utf8
                    continue
                }
            case .double:
                if doubleQuoted[Int(byte)] { output.append(UInt8(ascii: "\\")) }
            case .none:
                if unquoted[Int(byte)] { output.append(UInt8(ascii: "\\")) }
            }
            output.append(byte)
        }
    }

    /// The bytes that take a backslash inside double quotes, and outside any quote.
    private static let doubleQuoted = table("\"\\$`")
    private static let unquoted = table(" \t\n'\"\\$`!&;|()<>*?[]{}#~^")

    private static func table(_ characters: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for byte in characters.utf8 { table[Int(byte)] = true }
        return table
    }

    /// `~` and `~/…` as the shell expands them: `$HOME`.
    static func expandTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = POSIX.environment("HOME") else { return path }
        return home + path.dropFirst()
    }
}
