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
