/// JSON text helpers shared by the file writer and the command line's JSON output.
public enum JSON {
    /// Appends `string` as a JSON string literal. Besides what JSON requires, DEL, C1
    /// controls, the line and paragraph separators (U+2028, U+2029) and the directional
    /// formatting controls (U+202A–U+202E, U+2066–U+2069) are escaped too, so the text is safe
    /// to print on a terminal and reads the same in any viewer (README: Reliability).
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

    /// Whether `byte` is, or may start, something to escape (0xC2 leads the C1 controls,
    /// 0xE2 the separators and directional controls).
    @inline(__always)
    static func mayNeedEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xC2
            || byte == 0xE2
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
            case 0xE2 where index + 2 < utf8.count && isEscapedAfterE2(utf8[index + 1], utf8[index + 2]):
                // U+2028 to U+202E (E2 80 A8 to E2 80 AE), U+2066 to U+2069 (E2 81 A6 to E2 81 A9).
                let value = 0x2000 | UInt32(utf8[index + 1] & 0x0F) << 6 | UInt32(utf8[index + 2] & 0x3F)
                appendUnicodeEscape(value, to: &out)
                index += 2
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

    /// Whether E2 `second` `third` encodes U+2028–U+202E or U+2066–U+2069.
    private static func isEscapedAfterE2(_ second: UInt8, _ third: UInt8) -> Bool {
        (second == 0x80 && (0xA8...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third))
    }

    private static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in [12, 8, 4, 0] as [UInt32] { out.append(hex[Int(value >> shift) & 0xF]) }
    }
}
