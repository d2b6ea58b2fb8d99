/// The kanban file format: a UTF-8 JSON document, read and written as bytes.
///
///     {
///       "version": 1,
///       "boards": [
///         {
///           "title": "Todo",
///           "limit": null,
///           "items": [
///             {"id": "k3f9", "title": "Database Migration"},
///             {"id": "p2x1", "title": "Schema Design"}
///           ]
///         }
///       ]
///     }
///
/// Writing is deterministic (same kanban, same bytes) and puts one item per line, so
/// `git diff` of a move shows the item's line leaving and arriving. Reading also accepts
/// the original app's format, a top-level array of `{"title": String, "items": [String]}`.
public enum KanbanFile {
    /// The format version this build writes, and the highest it reads.
    public static let version = 1

    /// The format a file was read in.
    public enum Format: Hashable, Sendable {
        /// The current format, `{"version": 1, "boards": […]}`.
        case current
        /// The original app's array of boards with plain-string items; ids were assigned on reading.
        case legacy
    }

    // MARK: - Reading

    /// Reads a kanban from the bytes of a file, checking syntax, schema and invariants.
    ///
    /// Keys may come in any order; unknown keys and duplicate keys are refused, so that
    /// nothing a rewrite would drop goes unnoticed. A UTF-8 byte order mark is skipped.
    /// Items of a legacy file get ids derived from the file's bytes, so reading the same
    /// file twice gives the same ids.
    ///
    /// - Throws: ``KanbanError/corruptFile(line:message:)`` naming the line, or
    ///   ``KanbanError/unsupportedVersion(_:)`` for a file from a newer kanban.
    /// - Complexity: O(*n*) in the size of the file.
    public static func decode(_ bytes: [UInt8]) throws(KanbanError) -> (kanban: Kanban, format: Format) {
        var reader = JSONReader(bytes)
        reader.skipByteOrderMark()
        reader.skipWhitespace()
        let result: (Kanban, Format)
        switch reader.peek {
        case UInt8(ascii: "{"):
            result = (try readDocument(&reader), .current)
        case UInt8(ascii: "["):
            result = (try readLegacyDocument(&reader, seed: bytes), .legacy)
        case nil:
            throw reader.error("the file is empty; expected a kanban document")
        default:
            throw reader.error("expected a kanban document (a JSON object), found \(reader.valueKind)")
        }
        reader.skipWhitespace()
        guard reader.isAtEnd else { throw reader.error("unexpected text after the end of the document") }
        return result
    }

    private static func readDocument(_ reader: inout JSONReader) throws(KanbanError) -> Kanban {
        try reader.beginObject("the document")
        var version: Int?
        var boards: [Board]?
        var first = true
        while let (key, keyOffset) = try reader.nextKey(first: &first) {
            if version == nil, key != "version", let later = laterVersion(after: reader), later > Self.version {
                throw .unsupportedVersion(later)
            }
            switch key {
            case "version" where version == nil:
                let versionOffset = reader.offset
                let value = try reader.readInteger("\"version\"")
                if value > Self.version { throw .unsupportedVersion(value) }
                guard value == Self.version else {
                    throw reader.error("unsupported \"version\" \(value); this kanban reads version 1", at: versionOffset)
                }
                version = value
            case "boards" where boards == nil:
                boards = try readBoards(&reader)
            case "version", "boards":
                throw reader.error("duplicate key \"\(key)\"", at: keyOffset)
            default:
                throw reader.error("unknown key \"\(key)\" in the document", at: keyOffset)
            }
        }
        guard version != nil else { throw reader.error("missing key \"version\" in the document") }
        guard let boards else { throw reader.error("missing key \"boards\" in the document") }
        return Kanban(trusted: boards)
    }

    /// The value of a "version" key that comes after the member whose value starts at
    /// `reader`, if any. A newer file is refused before its boards are read, as they may
    /// follow rules this build does not know; only hand-edited files pay for this pass.
    private static func laterVersion(after reader: JSONReader) -> Int? {
        var scout = reader
        var first = false
        do {
            try scout.skipValue()
            while let (key, _) = try scout.nextKey(first: &first) {
                if key == "version" { return try scout.readInteger("\"version\"") }
                try scout.skipValue()
            }
        } catch {}
        return nil
    }

    private static func readBoards(_ reader: inout JSONReader) throws(KanbanError) -> [Board] {
        try reader.beginArray("\"boards\"")
        var boards: [Board] = []
        var titles: [String: String] = [:]
        var ids = Set<String>()
        var first = true
        while try reader.nextElement(first: &first) {
            let (board, titleOffset) = try readBoard(&reader, ids: &ids)
            if let existing = titles.updateValue(board.title, forKey: board.title.boardKey) {
                throw reader.error(
                    "duplicate board title \"\(board.title)\" (board titles ignore case; also \"\(existing)\")",
                    at: titleOffset)
            }
            boards.append(board)
        }
        return boards
    }

    /// Reads a board, and the offset of its title for errors about it.
    private static func readBoard(
        _ reader: inout JSONReader, ids: inout Set<String>
    ) throws(KanbanError) -> (board: Board, titleOffset: Int) {
        try reader.beginObject("a board")
        let start = reader.offset
        var titleOffset = start
        var title: String?
        var limit: Int??
        var items: [Item]?
        var first = true
        while let (key, keyOffset) = try reader.nextKey(first: &first) {
            switch key {
            case "title" where title == nil:
                reader.skipWhitespace()
                titleOffset = reader.offset
                title = try readTitle(&reader, of: "a board")
            case "limit" where limit == nil:
                if try reader.readNullIfPresent() {
                    limit = .some(nil)
                } else {
                    reader.skipWhitespace()
                    let limitOffset = reader.offset
                    let value = try reader.readInteger("a board's \"limit\"")
                    guard value >= 0 else { throw reader.error("a board's \"limit\" must be 0 or more", at: limitOffset) }
                    limit = value
                }
            case "items" where items == nil:
                items = try readItems(&reader, ids: &ids)
            case "title", "limit", "items":
                throw reader.error("duplicate key \"\(key)\" in a board", at: keyOffset)
            default:
                throw reader.error("unknown key \"\(key)\" in a board", at: keyOffset)
            }
        }
        guard let title else { throw reader.error("missing key \"title\" in a board", at: start) }
        guard let items else { throw reader.error("missing key \"items\" in board \"\(title)\"", at: start) }
        return (Board(title: title, limit: limit ?? nil, items: items), titleOffset)
    }

    private static func readItems(_ reader: inout JSONReader, ids: inout Set<String>) throws(KanbanError) -> [Item] {
        try reader.beginArray("a board's \"items\"")
        var items: [Item] = []
        var first = true
        while try reader.nextElement(first: &first) {
            try reader.beginObject("an item")
            let start = reader.offset
            var id: ItemID?
            var title: String?
            var firstKey = true
            while let (key, keyOffset) = try reader.nextKey(first: &firstKey) {
                switch key {
                case "id" where id == nil:
                    reader.skipWhitespace()
                    let idOffset = reader.offset
                    let text = try reader.readString("an item's \"id\"")
                    guard let valid = ItemID(text) else {
                        throw reader.error(
                            "invalid item id \"\(text)\"; ids are 1 to 8 letters, digits, '-' or '_'", at: idOffset)
                    }
                    guard ids.insert(text).inserted else {
                        throw reader.error("duplicate item id \"\(text)\"", at: idOffset)
                    }
                    id = valid
                case "title" where title == nil:
                    title = try readTitle(&reader, of: "an item")
                case "id", "title":
                    throw reader.error("duplicate key \"\(key)\" in an item", at: keyOffset)
                default:
                    throw reader.error("unknown key \"\(key)\" in an item", at: keyOffset)
                }
            }
            guard let id else { throw reader.error("missing key \"id\" in an item", at: start) }
            guard let title else { throw reader.error("missing key \"title\" in an item", at: start) }
            items.append(Item(id: id, title: title))
        }
        return items
    }

    /// Reads a title. A stored title is kept as it is, control characters included (a
    /// hand edit may have put them there; renderers escape them), but it must not be blank.
    private static func readTitle(_ reader: inout JSONReader, of owner: String) throws(KanbanError) -> String {
        reader.skipWhitespace()
        let offset = reader.offset
        let title = try reader.readString("\(owner)'s \"title\"")
        guard !title.trimmingSurroundingWhitespace().isEmpty else {
            throw reader.error("\(owner)'s \"title\" is blank", at: offset)
        }
        return title
    }

    // MARK: - Reading the original app's format

    private static func readLegacyDocument(_ reader: inout JSONReader, seed: [UInt8]) throws(KanbanError) -> Kanban {
        try reader.beginArray("the document")
        var boards: [(title: String, items: [String])] = []
        var titles: [String: String] = [:]
        var first = true
        while try reader.nextElement(first: &first) {
            let boardOffset = reader.offset
            try reader.beginObject("a board")
            var title: String?
            var titleOffset = boardOffset
            var items: [String]?
            var firstKey = true
            while let (key, keyOffset) = try reader.nextKey(first: &firstKey) {
                switch key {
                case "title" where title == nil:
                    reader.skipWhitespace()
                    titleOffset = reader.offset
                    title = try readTitle(&reader, of: "a board")
                case "items" where items == nil:
                    try reader.beginArray("a board's \"items\"")
                    var list: [String] = []
                    var firstItem = true
                    while try reader.nextElement(first: &firstItem) {
                        list.append(try readTitle(&reader, of: "an item"))
                    }
                    items = list
                case "title", "items":
                    throw reader.error("duplicate key \"\(key)\" in a board", at: keyOffset)
                default:
                    throw reader.error("unknown key \"\(key)\" in a board", at: keyOffset)
                }
            }
            guard let title else { throw reader.error("missing key \"title\" in a board", at: boardOffset) }
            guard let items else { throw reader.error("missing key \"items\" in board \"\(title)\"", at: boardOffset) }
            if let existing = titles.updateValue(title, forKey: title.boardKey) {
                throw reader.error(
                    "duplicate board title \"\(title)\" (board titles ignore case; also \"\(existing)\")",
                    at: titleOffset)
            }
            boards.append((title, items))
        }
        var generator = SeededGenerator(hashing: seed)
        let count = boards.reduce(0) { $0 + $1.items.count }
        var ids = Kanban(trusted: []).newIDs(count: count, using: &generator)[...]
        return Kanban(
            trusted: boards.map { board in
                Board(title: board.title, items: board.items.map { Item(id: ids.popFirst()!, title: $0) })
            })
    }

    // MARK: - Writing

    /// The bytes of the file for `kanban`: deterministic, one item per line, ending with a newline.
    ///
    /// - Complexity: O(*n*) in the size of the output.
    public static func encode(_ kanban: Kanban) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + kanban.boards.reduce(0) { $0 + 64 + $1.items.count * 48 })
        out.append(contentsOf: "{\n  \"version\": \(version),\n  \"boards\": [".utf8)
        for (b, board) in kanban.boards.enumerated() {
            out.append(contentsOf: (b == 0 ? "\n    {\n      \"title\": " : ",\n    {\n      \"title\": ").utf8)
            JSON.appendString(board.title, to: &out)
            out.append(contentsOf: ",\n      \"limit\": ".utf8)
            out.append(contentsOf: (board.limit.map(String.init) ?? "null").utf8)
            out.append(contentsOf: ",\n      \"items\": [".utf8)
            for (i, item) in board.items.enumerated() {
                out.append(contentsOf: (i == 0 ? "\n        {\"id\": " : ",\n        {\"id\": ").utf8)
                JSON.appendString(item.id.rawValue, to: &out)
                out.append(contentsOf: ", \"title\": ".utf8)
                JSON.appendString(item.title, to: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(contentsOf: (board.items.isEmpty ? "]\n    }" : "\n      ]\n    }").utf8)
        }
        out.append(contentsOf: (kanban.boards.isEmpty ? "]\n}\n" : "\n  ]\n}\n").utf8)
        return out
    }
}

/// JSON text helpers shared by the file writer and the command line's JSON output.
public enum JSON {
    /// Appends `string` as a JSON string literal. Besides what JSON requires, DEL and C1
    /// controls are escaped too, so the text is safe to print on a terminal.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var previous: UInt8 = 0
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F: appendUnicodeEscape(UInt32(byte), to: &out)
            case 0x80...0x9F where previous == 0xC2:
                // The second byte of a C1 control: replace the lead byte already written.
                out.removeLast()
                appendUnicodeEscape(UInt32(byte), to: &out)
            default: out.append(byte)
            }
            previous = byte
        }
        out.append(UInt8(ascii: "\""))
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
