/// Makes stored text safe to print: a title read from a hand-edited file may hold escape
/// sequences, and none may reach the terminal.
enum Escape {
    /// `text` with every C0 control, DEL and C1 control written as a visible escape (`\t`,
    /// `\n`, `\r`, or `\u{1B}` for the rest), and so are the characters that reorder or
    /// break a line without being controls: the bidirectional formatting characters
    /// (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and the line and paragraph
    /// separators (U+2028, U+2029).
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isEscapedForDisplay) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            guard scalar.isEscapedForDisplay else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }
}

extension Unicode.Scalar {
    /// C0 controls (tab included), DEL and C1 controls.
    var isControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }

    /// Bidirectional formatting characters: embeddings, overrides and isolates, and the
    /// marks. Printed raw, U+202E reverses the rest of the line on the terminal.
    var isBidiControl: Bool {
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// What ``Escape/visible(_:)`` writes as an escape.
    var isEscapedForDisplay: Bool {
        if value < 0x7F { return value < 0x20 }
        return value <= 0x9F || isBidiControl || value == 0x2028 || value == 0x2029
    }
}

/// Terminal column widths of text, for laying out columns.
enum DisplayWidth {
    /// The columns `text` takes on a terminal: 2 for wide East Asian characters and emoji,
    /// 0 for combining marks and zero-width characters, 1 otherwise.
    static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    static func of(_ character: Character) -> Int {
        if character.isASCII { return 1 }
        guard let first = character.unicodeScalars.first else { return 0 }
        if isWide(first) || first.properties.isEmojiPresentation { return 2 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    /// East Asian Wide and Fullwidth ranges.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
