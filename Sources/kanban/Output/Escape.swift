/// Makes stored text safe to print: a title read from a hand-edited file may hold escape
/// sequences, and none may reach the terminal.
enum Escape {
    /// `text` with every C0 control, DEL and C1 control written as a visible escape:
    /// `\t`, `\n`, `\r`, or `\u{1B}` for the rest.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isControl) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            guard scalar.isControl else {
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
}
