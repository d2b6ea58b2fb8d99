/// A title typed by a user, trimmed and checked: one line of text with something to see.
///
/// Every new item and board title goes through this type, so the core never stores a
/// title a user typed that could break a line, drive a terminal, or look empty.
public struct Title: Hashable, Sendable, CustomStringConvertible {
    /// The trimmed text.
    public let text: String

    /// Trims surrounding whitespace from `raw` and checks what is left.
    ///
    /// The whitespace trimmed is Unicode `White_Space` except NEL (U+0085) and the line
    /// and paragraph separators (U+2028, U+2029): those are refused wherever they are, not
    /// trimmed, as they break a line for some of the programs that read kanban's output.
    ///
    /// - Throws: ``KanbanError/invalidTitle(title:reason:)`` when nothing is left
    ///   (``TitleProblem/empty``); when a control character (C0 other than tab, DEL, C1)
    ///   remains (``TitleProblem/controlCharacter(_:offset:)``); when a line or paragraph
    ///   separator does (``TitleProblem/lineSeparator(_:offset:)``); when a bidirectional
    ///   embedding, override or isolate control does (``TitleProblem/directionalFormatting(_:offset:)``);
    ///   or when no character is left that shows, only zero-width and format characters
    ///   such as U+200B or U+FEFF (``TitleProblem/invisible``).
    public init(_ raw: String) throws(KanbanError) {
        // Most titles are printable ASCII with nothing to trim: no Unicode look needed.
        let utf8 = raw.utf8
        if let first = utf8.first, let last = utf8.last, first != 0x20, last != 0x20,
            utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        {
            text = raw
            return
        }
        let trimmed = raw.trimmingSurroundingWhitespace()
        guard !trimmed.isEmpty else {
            throw .invalidTitle(title: raw, reason: .empty)
        }
        let leading = raw.unicodeScalars.prefix(while: \.isTrimmedFromTitles).count
        var visible = false
        for (offset, scalar) in trimmed.unicodeScalars.enumerated() {
            if scalar.isForbiddenInTitle {
                throw .invalidTitle(title: raw, reason: .controlCharacter(scalar, offset: leading + offset))
            }
            if scalar.isLineSeparator {
                throw .invalidTitle(title: raw, reason: .lineSeparator(scalar, offset: leading + offset))
            }
            if scalar.isDirectionalFormatting {
                throw .invalidTitle(title: raw, reason: .directionalFormatting(scalar, offset: leading + offset))
            }
            visible = visible || !scalar.isInvisible
        }
        guard visible else {
            throw .invalidTitle(title: raw, reason: .invisible)
        }
        text = trimmed
    }

    public var description: String { text }
}

extension Unicode.Scalar {
    /// C0 controls except tab, DEL, and C1 controls.
    var isForbiddenInTitle: Bool {
        switch value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: many readers of `--tsv` and
    /// of text output start a new line there.
    var isLineSeparator: Bool {
        value == 0x2028 || value == 0x2029
    }

    /// The bidirectional embedding, override and isolate controls (U+202A–U+202E,
    /// U+2066–U+2069): printed raw, U+202E shows the rest of a line reversed, so that a
    /// title can read as something else than it is.
    var isDirectionalFormatting: Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// What no text kanban stores may hold (titles, notes, labels): the controls a title
    /// refuses, the line and paragraph separators, and the directional formatting controls.
    /// A note's line feeds and tabs are its own business.
    public var isRefusedInText: Bool {
        if value < 0xA0 { return isForbiddenInTitle }
        return isLineSeparator || isDirectionalFormatting
    }

    /// The character in words, with its code point, for messages: `a right-to-left
    /// override (U+202E)`, `the control character U+001B (escape)`.
    public var nameInWords: String {
        let names: [UInt32: String] = [
            0x00: "a NUL character", 0x09: "a tab", 0x0A: "a line feed", 0x0D: "a carriage return",
            0x1B: "an escape character", 0x7F: "a delete character", 0x85: "a next-line control (NEL)",
            0x2028: "a line separator", 0x2029: "a paragraph separator",
            0x202A: "a left-to-right embedding", 0x202B: "a right-to-left embedding",
            0x202C: "a pop directional formatting", 0x202D: "a left-to-right override",
            0x202E: "a right-to-left override", 0x2066: "a left-to-right isolate", 0x2067: "a right-to-left isolate",
            0x2068: "a first strong isolate", 0x2069: "a pop directional isolate",
        ]
        return "\(names[value] ?? "a control character") (\(codePoint))"
    }

    /// White space a title may start or end with, to be trimmed: Unicode `White_Space`
    /// except NEL (a C1 control) and the line and paragraph separators, which are refused.
    var isTrimmedFromTitles: Bool {
        properties.isWhitespace && value != 0x85 && !isLineSeparator
    }

    /// Whether the character draws nothing on its own: white space, controls, format
    /// characters (zero-width space U+200B, the direction marks, U+FEFF), default-ignorable
    /// code points (variation selectors, the Hangul fillers), and the blank Braille pattern.
    var isInvisible: Bool {
        if value < 0x7F { return value <= 0x20 }
        let properties = properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint || value == 0x2800 { return true }
        switch properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}

extension String {
    /// The first character of the string that ``Unicode/Scalar/isRefusedInText`` (a line
    /// feed excepted when `allowingLineFeeds`), and its 1-based position in characters.
    func firstRefusedCharacter(allowingLineFeeds: Bool = false) -> (scalar: Unicode.Scalar, position: Int)? {
        // Most text is printable ASCII: one pass over the bytes says so.
        guard utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return nil }
        for (offset, scalar) in unicodeScalars.enumerated()
        where scalar.isRefusedInText && !(allowingLineFeeds && scalar == "\n") {
            return (scalar, String(unicodeScalars.prefix(offset)).count + 1)
        }
        return nil
    }

    /// Whether the string is empty or only white space: a title must not be.
    var isBlank: Bool {
        // Most titles start with a visible ASCII character; only the others need a Unicode look.
        if let first = utf8.first, first > 0x20 && first < 0x7F { return false }
        return unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// The string without the white space titles are trimmed of (see
    /// ``Unicode/Scalar/isTrimmedFromTitles``).
    func trimmingSurroundingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isTrimmedFromTitles }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.isTrimmedFromTitles })!
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }

    /// The string with every `scalar` replaced by `replacement`, for escaping a quote.
    ///
    /// `replacing(_:with:)` compares characters, and a quote followed by a combining mark
    /// (`"` and U+0301) is one character that is not `"`: it would be left unescaped, and
    /// a CSV field or a shell word would end there.
    public func replacingEvery(_ scalar: Unicode.Scalar, with replacement: String) -> String {
        guard unicodeScalars.contains(scalar) else { return self }
        var result = ""
        for each in unicodeScalars {
            if each == scalar {
                result.unicodeScalars.append(contentsOf: replacement.unicodeScalars)
            } else {
                result.unicodeScalars.append(each)
            }
        }
        return result
    }
}
