/// A JSON document as a tree, for reading other tools' JSON (a Trello export), whose
/// schema is large and mostly ignored. Parsed by the kanban file's `JSONReader`, so it
/// checks the same syntax (RFC 8259) and reports syntax errors by line.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members by key; a key given twice is refused, as the kanban file's reader refuses it.
    case object([String: JSONValue])

    /// How deep arrays and objects may nest: far beyond any export, and well within the stack.
    static let maximumDepth = 256

    /// Parses a whole document; a UTF-8 byte order mark is skipped.
    ///
    /// - Throws: an ``ImportError`` at the line of the first syntax error, or of the first
    ///   key repeated in an object (named with the object's JSON path).
    static func parse(_ bytes: [UInt8]) throws(ImportError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(KanbanError) -> JSONValue in
                var reader = JSONReader(buffer)
                reader.skipByteOrderMark()
                reader.skipWhitespace()
                guard !reader.isAtEnd else { throw reader.error("the file is empty") }
                var path: [PathComponent] = []
                let value = try parse(&reader, path: &path)
                reader.skipWhitespace()
                guard reader.isAtEnd else { throw reader.error("unexpected text after the end of the document") }
                return value
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(.corruptFile(let line, let message)): throw ImportError(.line(line), message)
        case .failure(let error): throw ImportError(.file, error.description)
        }
    }

    /// A step of the path to the value being read: a key, or an index in an array.
    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// `$.cards[3].name`, as the Trello reader names places.
    private static func describe(_ path: [PathComponent]) -> String {
        var text = "$"
        for component in path {
            switch component {
            case .index(let index): text += "[\(index)]"
            case .key(let key) where !key.isEmpty && key.utf8.allSatisfy(isIdentifierByte):
                text += "." + key
            case .key(let key): text += "[\(JSON.quoted(key))]"
            }
        }
        return text
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func parse(_ reader: inout JSONReader, path: inout [PathComponent]) throws(KanbanError) -> JSONValue {
        reader.skipWhitespace()
        guard path.count < maximumDepth else {
            throw reader.error("arrays and objects nest more than \(maximumDepth) deep")
        }
        switch reader.peek {
        case UInt8(ascii: "{"):
            try reader.beginObject("a value")
            var members: [String: JSONValue] = [:]
            var first = true
            while let key = try reader.nextKey(first: &first) {
                let name = try reader.text(of: key)
                guard members[name] == nil else {
                    throw reader.error("duplicate key \(JSON.quoted(name)) in \(describe(path))", at: key.offset)
                }
                path.append(.key(name))
                members[name] = try parse(&reader, path: &path)
                path.removeLast()
            }
            return .object(members)
        case UInt8(ascii: "["):
            try reader.beginArray("a value")
            var elements: [JSONValue] = []
            var first = true
            while try reader.nextElement(first: &first) {
                path.append(.index(elements.count))
                elements.append(try parse(&reader, path: &path))
                path.removeLast()
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try reader.text(of: try reader.readString("a value")))
        case UInt8(ascii: "n"):
            _ = try reader.readNullIfPresent()
            return .null
        default:
            // true, false or a number: skipping checks its syntax; its bytes give its value.
            let start = reader.offset
            let first = reader.peek
            try reader.skipValue()
            if first == UInt8(ascii: "t") { return .bool(true) }
            if first == UInt8(ascii: "f") { return .bool(false) }
            let text = String(decoding: reader.bytes[start..<reader.offset], as: UTF8.self)
            return .number(Double(text) ?? .nan)
        }
    }

    // MARK: - Looking inside

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    var number: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    var array: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// `an object`, `a string`: for "must be X, found Y".
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
