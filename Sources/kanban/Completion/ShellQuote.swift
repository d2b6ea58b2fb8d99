import Glibc

/// Shell quoting: how bash reads a word being completed and how readline inserts a
/// completion (what a typed word means, and how to write a value so that it means that),
/// and ``word(_:)``, the one way kanban writes a word for any shell (README: Security).
enum ShellQuote {
    // MARK: - A word for any shell

    /// `text` as one word that bash, zsh, fish and sh read back as `text`, with nothing in
    /// it expanded (no `$`, backquote, glob, `~`, or `!` history expansion): as it is when
    /// it holds only letters, digits and `-_./:@+,` (and `=` or `%` not first); else in
    /// single quotes, with each `'` and `\` written `\'` and `\\` between them, which the
    /// four shells read alike (fish reads `\'` and `\\` inside single quotes too). Line
    /// feeds and tabs stay as they are, inside the quotes, but a `^` that starts a line is
    /// written `\^` outside them: bash takes it for a history substitution even inside
    /// quotes. Any other character that ``Escape/visible(_:)`` escapes (a control or a
    /// bidirectional control, which must not reach a terminal) is written as `$'\xHH…'`,
    /// its UTF-8 bytes, which bash and zsh read back (fish and sh do not; kanban stores no
    /// such text, but a file written by another tool may hold it).
    ///
    /// Works on Unicode scalars: a quote followed by a combining mark is one `Character`
    /// but still a quote to a shell.
    static func word(_ text: String) -> String {
        let scalars = text.unicodeScalars
        if let first = scalars.first, first != "=", first != "%", scalars.allSatisfy(isPlain) { return text }
        var out = String.UnicodeScalarView()
        var quoted = false
        func close() {
            if quoted { out.append("'") }
            quoted = false
        }
        var previous: Unicode.Scalar?
        for scalar in scalars {
            defer { previous = scalar }
            switch scalar {
            case "'", "\\":
                close()
                out.append("\\")
                out.append(scalar)
            case "^" where previous == "\n":
                close()
                out.append("\\")
                out.append(scalar)
            case "\n", "\t":
                if !quoted { out.append("'") }
                quoted = true
                out.append(scalar)
            case _ where scalar.isEscapedForDisplay:
                close()
                out.append(contentsOf: "$'".unicodeScalars)
                for byte in String(scalar).utf8 {
                    let hex = String(byte, radix: 16, uppercase: true)
                    out.append(contentsOf: "\\x\(hex.count < 2 ? "0" : "")\(hex)".unicodeScalars)
                }
                out.append("'")
            default:
                if !quoted { out.append("'") }
                quoted = true
                out.append(scalar)
            }
        }
        close()
        return out.isEmpty ? "''" : String(out)
    }

    /// `words` as a command line: each one a ``word(_:)``.
    static func commandLine(_ words: [String]) -> String {
        words.map(word).joined(separator: " ")
    }

    /// Characters that mean nothing to any shell: ASCII letters and digits, `-_./:@+,=%`
    /// (`=` and `%` only after the first character: zsh expands `=cmd`), and letters and
    /// digits beyond ASCII.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0..<0x80: return "-_./:@+,=%".unicodeScalars.contains(scalar)
        default:
            return !scalar.isEscapedForDisplay
                && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
                && scalar.properties.generalCategory != .privateUse
        }
    }

    // MARK: - Completing a word being typed

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
    /// `'\''`; inside double quotes `"`, `\`, `$` and `` ` `` take a backslash, and `!`
    /// becomes `"'!'"` (bash expands `!` inside double quotes, and a backslash before it
    /// would stay in the word); outside any quote, every character the shell would read
    /// specially takes a backslash.
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
                if byte == UInt8(ascii: "!") {
                    output += "\"'!'\"".utf8
                    continue
                }
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
