/// JSON text helpers shared by the file writer and the command line's JSON output.
public enum JSON {
    /// Appends `string` as a JSON string literal. Besides what JSON requires, DEL and C1
    /// controls are escaped too, so the text is safe to print on a terminal.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            out.append(UInt8(ascii: "\""))
            if utf8.contains(where: mayNeedEscape) {
                appendEscaped(utf8, to: &out)
            } else {
                out.append(contentsOf: utf8)
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Whether `byte` is, or may start, something to escape (0xC2 leads the C1 controls).
    static func mayNeedEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xC2
    }

    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F: appendUnicodeEscape(UInt32(byte), to: &out)
            case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
                // A C1 control, U+0080 to U+009F, encoded as C2 80 to C2 9F.
                appendUnicodeEscape(UInt32(utf8[index + 1]), to: &out)
                index += 1
            default: out.append(byte)
            }
            index += 1
        }
    }

    /// `string` as a JSON string literal.
    public static func quoted(_ string: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count + 2)
        appendString(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), hex[0], hex[0]])
        out.append(hex[Int(value >> 4) & 0xF])
        out.append(hex[Int(value) & 0xF])
    }
}
