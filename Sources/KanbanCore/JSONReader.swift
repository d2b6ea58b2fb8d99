// A JSON reader over UTF-8 bytes for the kanban file's schema.
//
// It reads the document the way a schema-directed decoder does: the caller says what it
// expects next (an object, a string, a number) and the reader checks the bytes against
// RFC 8259. It builds no tree, recurses nowhere, makes no String for a key it can match
// as bytes, and counts lines only when it reports an error, so reading costs one pass
// over the bytes.

/// A position-aware cursor over a JSON document held in memory.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        offset = 0
    }

    // MARK: - Errors

    /// The 1-based line of a byte offset.
    func line(at offset: Int) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == UInt8(ascii: "\n") {
            line += 1
        }
        return line
    }

    /// An error at `offset` (by default the current position).
    func error(_ message: String, at offset: Int? = nil) -> KanbanError {
        .corruptFile(line: line(at: offset ?? self.offset), message: message)
    }

    /// A description of the byte at the current position, for "expected X, found Y".
    private var found: String {
        guard offset < bytes.count else { return "the end of the file" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    // MARK: - Structure

    var isAtEnd: Bool { offset >= bytes.count }

    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// Skips a UTF-8 byte order mark at the very start, as many editors write one.
    mutating func skipByteOrderMark() {
        if offset == 0 && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            offset = 3
        }
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20:
                // Indentation comes in runs of spaces, taken eight at a time.
                let spaces: UInt64 = 0x2020_2020_2020_2020
                let eight =
                    bytes.count - offset >= 8
                    && UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self) == spaces
                offset += eight ? 8 : 1
            case 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// Consumes `byte` after optional whitespace.
    mutating func expect(_ byte: UInt8, _ description: @autoclosure () -> String) throws(KanbanError) {
        skipWhitespace()
        guard peek == byte else { throw error("expected \(description()), found \(found)") }
        offset += 1
    }

    /// Consumes `{`; `what` names the value for the error message.
    mutating func beginObject(_ what: @autoclosure () -> String) throws(KanbanError) {
        skipWhitespace()
        guard peek == UInt8(ascii: "{") else { throw error("\(what()) must be an object, found \(valueKind)") }
        offset += 1
    }

    /// Consumes `[`; `what` names the value for the error message.
    mutating func beginArray(_ what: @autoclosure () -> String) throws(KanbanError) {
        skipWhitespace()
        guard peek == UInt8(ascii: "[") else { throw error("\(what()) must be an array, found \(valueKind)") }
        offset += 1
    }

    /// Reads up to the next member's key and its colon; `nil` at the closing brace.
    mutating func nextKey(first: inout Bool) throws(KanbanError) -> JSONString? {
        skipWhitespace()
        if first {
            if peek == UInt8(ascii: "}") {
                offset += 1
                return nil
            }
        } else {
            switch peek {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                offset += 1
                return nil
            default:
                throw error("expected ',' or '}' after an object member, found \(found)")
            }
        }
        first = false
        guard peek == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(found)") }
        let key = try readStringToken()
        try expect(UInt8(ascii: ":"), "':' after a key")
        return key
    }

    /// Moves to the next array element; `false` at the closing bracket.
    mutating func nextElement(first: inout Bool) throws(KanbanError) -> Bool {
        skipWhitespace()
        if first {
            if peek == UInt8(ascii: "]") {
                offset += 1
                return false
            }
        } else {
            switch peek {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                offset += 1
                return false
            default:
                throw error("expected ',' or ']' after an array element, found \(found)")
            }
        }
        first = false
        return true
    }

    /// What kind of value starts here, for type errors.
    var valueKind: String {
        switch peek ?? 0 {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: found
        }
    }

    // MARK: - Values

    /// Consumes `null` if it is next.
    mutating func readNullIfPresent() throws(KanbanError) -> Bool {
        skipWhitespace()
        guard peek == UInt8(ascii: "n") else { return false }
        try readLiteral("null")
        return true
    }

    private mutating func readLiteral(_ literal: StaticString) throws(KanbanError) {
        let start = offset
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard bytes.count - offset >= text.count, bytes[offset..<offset + text.count].elementsEqual(text) else {
            throw error("invalid literal; expected '\(literal)'", at: start)
        }
        offset += text.count
    }

    /// Reads a string value; `what` names it for the error message.
    mutating func readString(_ what: @autoclosure () -> String) throws(KanbanError) -> JSONString {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else { throw error("\(what()) must be a string, found \(valueKind)") }
        return try readStringToken()
    }

    /// Reads a string starting at the opening quote, checking its escapes, without
    /// making a `String` yet: most keys are matched as bytes.
    private mutating func readStringToken() throws(KanbanError) -> JSONString {
        let start = offset
        offset += 1
        var segmentStart = offset
        var high: UInt8 = 0
        var decoded: [UInt8]? = nil
        while true {
            // The common case: a run of plain bytes.
            offset = endOfPlainRun(from: offset, high: &high)
            guard offset < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let end = offset
                offset += 1
                if var decoded {
                    decoded.append(contentsOf: bytes[segmentStart..<end])
                    return JSONString(offset: start, range: segmentStart..<end, decoded: decoded, isASCII: false)
                }
                return JSONString(offset: start, range: segmentStart..<end, decoded: nil, isASCII: high < 0x80)
            } else if byte == UInt8(ascii: "\\") {
                if decoded == nil { decoded = [] }
                decoded!.append(contentsOf: bytes[segmentStart..<offset])
                try readEscape(into: &decoded!)
                segmentStart = offset
            } else {
                throw error("control character 0x\(String(byte, radix: 16)) inside a string must be escaped")
            }
        }
    }

    /// The text of a string read by this reader.
    ///
    /// - Throws: a `corruptFile` error for invalid UTF-8.
    func text(of string: JSONString) throws(KanbanError) -> String {
        if let decoded = string.decoded {
            guard let text = String(validating: decoded, as: UTF8.self) else {
                throw error("invalid UTF-8 in a string", at: string.offset)
            }
            return text
        }
        return try text(in: string.range, isASCII: string.isASCII, quoteAt: string.offset)
    }

    /// The text of the bytes in `range`, which hold no escape; `quoteAt` is for errors.
    func text(in range: Range<Int>, isASCII: Bool, quoteAt offset: Int) throws(KanbanError) -> String {
        let utf8 = UnsafeBufferPointer(start: bytes.baseAddress! + range.lowerBound, count: range.count)
        if isASCII { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw error("invalid UTF-8 in a string", at: offset)
        }
        return text
    }

    /// Whether a string read by this reader is exactly `literal`.
    func string(_ string: JSONString, is literal: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        if let decoded = string.decoded { return decoded.elementsEqual(expected) }
        guard string.range.count == expected.count else { return false }
        for (index, byte) in expected.enumerated() where bytes[string.range.lowerBound + index] != byte {
            return false
        }
        return true
    }

    /// Calls `body` with the UTF-8 bytes of a string read by this reader.
    func withBytes<R>(of string: JSONString, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let decoded = string.decoded { return decoded.withUnsafeBufferPointer(body) }
        return body(UnsafeBufferPointer(rebasing: bytes[string.range]))
    }

    /// Reads one escape sequence, starting at the backslash.
    private mutating func readEscape(into buffer: inout [UInt8]) throws(KanbanError) {
        let start = offset
        offset += 1
        guard offset < bytes.count else { throw error("unterminated string", at: start) }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var value = UInt32(try readHex4(escapeAt: start))
            if (0xD800...0xDBFF).contains(value) {
                guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                else { throw error("lone surrogate in \\u escape", at: start) }
                offset += 2
                let low = UInt32(try readHex4(escapeAt: start))
                guard (0xDC00...0xDFFF).contains(low) else { throw error("lone surrogate in \\u escape", at: start) }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(value) {
                throw error("lone surrogate in \\u escape", at: start)
            }
            buffer.append(contentsOf: UTF8.encode(Unicode.Scalar(value)!)!)
        default:
            // The byte shown only when it is printable ASCII: a message never carries a control.
            let shown =
                (0x21..<0x7F).contains(byte)
                ? "'\\\(Character(Unicode.Scalar(byte)))'"
                : "'\\' before byte 0x\(String(byte, radix: 16, uppercase: true))"
            throw error("invalid escape \(shown) in a string", at: start)
        }
    }

    private mutating func readHex4(escapeAt start: Int) throws(KanbanError) -> UInt16 {
        guard bytes.count - offset >= 4 else { throw error("invalid \\u escape", at: start) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape", at: start)
            }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        return value
    }

    /// Consumes `literal` if the bytes here are exactly it, comparing eight bytes at a time.
    /// Inlined, so that the literal's bytes and length are constants at each call.
    @inline(__always)
    mutating func consume(_ literal: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard UnsafeBufferPointer(rebasing: bytes[offset...]).hasPrefix(expected) else { return false }
        offset += expected.count
        return true
    }

    /// The offset of the first byte from `start` that ends a run of plain string bytes (a
    /// quote, a backslash or a control character), or the end; `high` collects the bits of
    /// the bytes passed, so a clear high bit means they were all ASCII. Eight bytes at a time.
    private func endOfPlainRun(from start: Int, high: inout UInt8) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        var seen: UInt64 = 0
        while bytes.count - index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // A byte is zero in x exactly when (x - 1) borrows into its high bit and x's high bit is clear.
            let special =
                ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word)
                & highs
            if special != 0 {
                let stop = index + special.trailingZeroBitCount / 8
                while index < stop {
                    high |= bytes[index]
                    index += 1
                }
                break
            }
            seen |= word
            index += 8
        }
        if seen & highs != 0 { high |= 0x80 }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            high |= byte
            index += 1
        }
        return index
    }

    /// Reads the start of an item laid out exactly as this build writes it,
    /// `{"id": "k3f9", "title": "…"`, with no escape in the title, leaving the reader just
    /// after the title's closing quote; otherwise returns `nil` having consumed nothing, and
    /// the general path reads the item (and reports what is wrong with it).
    mutating func readCanonicalItemPrefix() -> CanonicalItem? {
        let start = offset
        guard consume("{\"id\": \"") else { return nil }
        let idStart = offset
        while offset < bytes.count && bytes[offset] != UInt8(ascii: "\"") && offset - idStart <= ItemID.maximumLength {
            offset += 1
        }
        guard let id = ItemID(utf8: UnsafeBufferPointer(rebasing: bytes[idStart..<offset])),
            consume("\", \"title\": ")
        else {
            offset = start
            return nil
        }
        let titleStart = offset
        var high: UInt8 = 0
        offset = endOfPlainRun(from: offset + 1, high: &high)
        guard titleStart < bytes.count, bytes[titleStart] == UInt8(ascii: "\""), offset < bytes.count,
            bytes[offset] == UInt8(ascii: "\"")
        else {
            offset = start
            return nil
        }
        let item = CanonicalItem(offset: start, id: id, title: titleStart + 1..<offset, isASCII: high < 0x80)
        offset += 1
        return item
    }

    /// Consumes `, ` and then `key` (a field's `"key": `), exactly as this build writes them
    /// between members, if they are next; otherwise consumes nothing.
    mutating func consumeWrittenKey(_ key: [UInt8]) -> Bool {
        let count = key.count + 2
        guard bytes.count - offset >= count, bytes[offset] == UInt8(ascii: ","), bytes[offset + 1] == 0x20 else {
            return false
        }
        let start = offset + 2
        let matches = key.withUnsafeBufferPointer { key in
            var index = 0
            while index < key.count && bytes[start + index] == key[index] { index += 1 }
            return index == key.count
        }
        if matches { offset += count }
        return matches
    }

    /// Moves the cursor to `offset`, for a second look at part of the document.
    mutating func seek(to offset: Int) {
        self.offset = offset
    }

    /// Reads a number that must be an integer; `what` names it.
    ///
    /// Any JSON number is read; one with a fraction or exponent is accepted when its
    /// value is a whole number, as JSON decoders do.
    mutating func readInteger(_ what: @autoclosure () -> String) throws(KanbanError) -> Int {
        skipWhitespace()
        let start = offset
        guard let first = peek, first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { throw error("\(what()) must be a number, found \(valueKind)") }
        try skipNumber()
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        let isIntegerSyntax = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        if isIntegerSyntax, let value = Int(text) { return value }
        if !isIntegerSyntax, let value = Double(text), let integer = Int(exactly: value) {
            return integer
        }
        throw error("\(what()) must be a whole number, found \(text)", at: start)
    }

    private mutating func skipDigits() -> Int {
        let start = offset
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            offset += 1
        }
        return offset - start
    }

    private mutating func skipNumber() throws(KanbanError) {
        let start = offset
        if peek == UInt8(ascii: "-") { offset += 1 }
        if peek == UInt8(ascii: "0") {
            offset += 1
        } else if skipDigits() == 0 {
            throw error("invalid number", at: start)
        }
        if peek == UInt8(ascii: ".") {
            offset += 1
            guard skipDigits() > 0 else { throw error("invalid number", at: start) }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            guard skipDigits() > 0 else { throw error("invalid number", at: start) }
        }
    }

    /// Skips any JSON value, checking its syntax, without recursion.
    mutating func skipValue() throws(KanbanError) {
        var closers: [UInt8] = []
        repeat {
            skipWhitespace()
            switch peek ?? 0 {
            case UInt8(ascii: "{"):
                offset += 1
                closers.append(UInt8(ascii: "}"))
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    offset += 1
                    closers.removeLast()
                } else {
                    _ = try readString("a key")
                    try expect(UInt8(ascii: ":"), "':' after a key")
                    continue
                }
            case UInt8(ascii: "["):
                offset += 1
                closers.append(UInt8(ascii: "]"))
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    offset += 1
                    closers.removeLast()
                } else {
                    continue
                }
            case UInt8(ascii: "\""): _ = try readStringToken()
            case UInt8(ascii: "t"): try readLiteral("true")
            case UInt8(ascii: "f"): try readLiteral("false")
            case UInt8(ascii: "n"): try readLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
            default: throw error("expected a value, found \(found)")
            }
            // After a value: close containers, or move to the next element or member.
            while let closer = closers.last {
                skipWhitespace()
                if peek == closer {
                    offset += 1
                    closers.removeLast()
                } else if peek == UInt8(ascii: ",") {
                    offset += 1
                    if closer == UInt8(ascii: "}") {
                        _ = try readString("a key")
                        try expect(UInt8(ascii: ":"), "':' after a key")
                    }
                    break
                } else {
                    throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))', found \(found)")
                }
            }
        } while !closers.isEmpty
    }
}

/// An item read by the canonical fast path.
struct CanonicalItem {
    /// The offset of its opening brace, for errors.
    let offset: Int
    let id: ItemID
    /// The bytes of the title, between its quotes, with no escape.
    let title: Range<Int>
    /// Whether the title's bytes are all ASCII.
    let isASCII: Bool
}

/// A string read from a document: where it is, and its bytes once escapes are decoded.
struct JSONString {
    /// The offset of the opening quote, for errors.
    let offset: Int
    /// The bytes between the quotes, when there were no escapes.
    let range: Range<Int>
    /// The bytes with escapes decoded, when there were some.
    let decoded: [UInt8]?
    /// Whether the bytes are all ASCII (then they need no UTF-8 check).
    let isASCII: Bool
}
