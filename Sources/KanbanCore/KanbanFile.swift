/// The kanban file format: a UTF-8 JSON document, read and written as bytes.
///
///     {
///       "version": 1,
///       "boards": [
///         {
///           "title": "Todo",
///           "limit": null,
///           "items": [
///             {"id": "k3f9p2", "title": "Database Migration"},
///             {"id": "p2x1q7", "title": "Schema Design"}
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
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(KanbanError) in try decode(buffer) }
        }
        return try result.get()
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(KanbanError) -> (Kanban, Format) {
        var reader = JSONReader(bytes)
        reader.skipByteOrderMark()
        reader.skipWhitespace()
        let result: (Kanban, Format)
        switch reader.peek {
        case UInt8(ascii: "{"):
            result = (try readDocument(&reader), .current)
        case UInt8(ascii: "["):
            result = (try readLegacyDocument(&reader), .legacy)
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
        while let key = try reader.nextKey(first: &first) {
            let isVersion = reader.string(key, is: "version")
            if version == nil, !isVersion, let later = laterVersion(after: reader), later > Self.version {
                throw .unsupportedVersion(later)
            }
            if isVersion {
                guard version == nil else { throw reader.error("duplicate key \"version\"", at: key.offset) }
                reader.skipWhitespace()
                let versionOffset = reader.offset
                let value = try reader.readInteger("\"version\"")
                if value > Self.version { throw .unsupportedVersion(value) }
                guard value == Self.version else {
                    throw reader.error(
                        "unsupported \"version\" \(value); this kanban reads version 1", at: versionOffset)
                }
                version = value
            } else if reader.string(key, is: "boards") {
                guard boards == nil else { throw reader.error("duplicate key \"boards\"", at: key.offset) }
                boards = try readBoards(&reader)
            } else {
                throw unknownKey(key, in: "the document", reader)
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
            while let key = try scout.nextKey(first: &first) {
                if scout.string(key, is: "version") { return try scout.readInteger("\"version\"") }
                try scout.skipValue()
            }
        } catch {}
        return nil
    }

    private static func unknownKey(_ key: JSONString, in owner: String, _ reader: JSONReader) -> KanbanError {
        do {
            let name = try reader.text(of: key)
            return reader.error("unknown key \(JSON.quoted(name)) in \(owner)", at: key.offset)
        } catch {
            return error
        }
    }

    private static func readBoards(_ reader: inout JSONReader) throws(KanbanError) -> [Board] {
        try reader.beginArray("\"boards\"")
        var boards: [Board] = []
        var titles: [String: String] = [:]
        // About 40 bytes per item in a file this build wrote.
        var ids = ItemIDSet(expected: reader.bytes.count / 40)
        var first = true
        while try reader.nextElement(first: &first) {
            let (board, titleOffset) = try readBoard(&reader, ids: &ids)
            if let existing = titles.updateValue(board.title, forKey: board.title.boardKey) {
                throw reader.error(
                    "duplicate board title \(JSON.quoted(board.title)) (board titles ignore case; also \(JSON.quoted(existing)))",
                    at: titleOffset)
            }
            boards.append(board)
        }
        return boards
    }

    /// Reads a board, and the offset of its title for errors about it.
    private static func readBoard(
        _ reader: inout JSONReader, ids: inout ItemIDSet
    ) throws(KanbanError) -> (board: Board, titleOffset: Int) {
        try reader.beginObject("a board")
        let start = reader.offset
        var titleOffset = start
        var title: String?
        var limit: Int??
        var items: [Item]?
        var first = true
        while let key = try reader.nextKey(first: &first) {
            if reader.string(key, is: "title") {
                guard title == nil else { throw reader.error("duplicate key \"title\" in a board", at: key.offset) }
                reader.skipWhitespace()
                titleOffset = reader.offset
                title = try readTitle(&reader, of: "a board")
            } else if reader.string(key, is: "limit") {
                guard limit == nil else { throw reader.error("duplicate key \"limit\" in a board", at: key.offset) }
                if try reader.readNullIfPresent() {
                    limit = .some(nil)
                } else {
                    reader.skipWhitespace()
                    let limitOffset = reader.offset
                    let value = try reader.readInteger("a board's \"limit\"")
                    guard value >= 0 else {
                        throw reader.error("a board's \"limit\" must be 0 or more", at: limitOffset)
                    }
                    limit = value
                }
            } else if reader.string(key, is: "items") {
                guard items == nil else { throw reader.error("duplicate key \"items\" in a board", at: key.offset) }
                items = try readItems(&reader, ids: &ids)
            } else {
                throw unknownKey(key, in: "a board", reader)
            }
        }
        guard let title else { throw reader.error("missing key \"title\" in a board", at: start) }
        guard let items else { throw reader.error("missing key \"items\" in board \(JSON.quoted(title))", at: start) }
        return (Board(title: title, limit: limit ?? nil, items: items), titleOffset)
    }

    private static func readItems(_ reader: inout JSONReader, ids: inout ItemIDSet) throws(KanbanError) -> [Item] {
        try reader.beginArray("a board's \"items\"")
        var items: [Item] = []
        var first = true
        while try reader.nextElement(first: &first) {
            if let item = reader.readCanonicalItem() {
                guard ids.insert(item.id) else {
                    throw reader.error("duplicate item id \(JSON.quoted(item.id.rawValue))", at: item.offset)
                }
                let title = try reader.text(in: item.title, isASCII: item.isASCII, quoteAt: item.title.lowerBound - 1)
                items.append(
                    Item(id: item.id, title: try checked(title, at: item.title.lowerBound - 1, of: "an item", reader)))
                continue
            }
            try reader.beginObject("an item")
            let start = reader.offset
            var id: ItemID?
            var title: String?
            var firstKey = true
            while let key = try reader.nextKey(first: &firstKey) {
                if reader.string(key, is: "id") {
                    guard id == nil else { throw reader.error("duplicate key \"id\" in an item", at: key.offset) }
                    let text = try reader.readString("an item's \"id\"")
                    guard let valid = reader.withBytes(of: text, { ItemID(utf8: $0) }) else {
                        throw reader.error(
                            "invalid item id \(JSON.quoted(try reader.text(of: text))); "
                                + "ids are 1 to 8 letters, digits, '-' or '_'", at: text.offset)
                    }
                    guard ids.insert(valid) else {
                        throw reader.error("duplicate item id \(JSON.quoted(valid.rawValue))", at: text.offset)
                    }
                    id = valid
                } else if reader.string(key, is: "title") {
                    guard title == nil else { throw reader.error("duplicate key \"title\" in an item", at: key.offset) }
                    title = try readTitle(&reader, of: "an item")
                } else {
                    throw unknownKey(key, in: "an item", reader)
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
        try checkedTitle(try reader.readString("\(owner)'s \"title\""), of: owner, reader)
    }

    private static func checkedTitle(
        _ string: JSONString, of owner: String, _ reader: JSONReader
    ) throws(KanbanError) -> String {
        try checked(try reader.text(of: string), at: string.offset, of: owner, reader)
    }

    private static func checked(
        _ title: String, at offset: Int, of owner: String, _ reader: JSONReader
    ) throws(KanbanError) -> String {
        guard !title.isBlank else {
            throw reader.error("\(owner)'s \"title\" is blank", at: offset)
        }
        return title
    }

    // MARK: - Reading the original app's format

    private static func readLegacyDocument(_ reader: inout JSONReader) throws(KanbanError) -> Kanban {
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
            while let key = try reader.nextKey(first: &firstKey) {
                if reader.string(key, is: "title") {
                    guard title == nil else { throw reader.error("duplicate key \"title\" in a board", at: key.offset) }
                    reader.skipWhitespace()
                    titleOffset = reader.offset
                    title = try readTitle(&reader, of: "a board")
                } else if reader.string(key, is: "items") {
                    guard items == nil else { throw reader.error("duplicate key \"items\" in a board", at: key.offset) }
                    try reader.beginArray("a board's \"items\"")
                    var list: [String] = []
                    var firstItem = true
                    while try reader.nextElement(first: &firstItem) {
                        list.append(try readTitle(&reader, of: "an item"))
                    }
                    items = list
                } else {
                    throw unknownKey(key, in: "a board", reader)
                }
            }
            guard let title else { throw reader.error("missing key \"title\" in a board", at: boardOffset) }
            guard let items else {
                throw reader.error("missing key \"items\" in board \(JSON.quoted(title))", at: boardOffset)
            }
            if let existing = titles.updateValue(title, forKey: title.boardKey) {
                throw reader.error(
                    "duplicate board title \(JSON.quoted(title)) (board titles ignore case; also \(JSON.quoted(existing)))",
                    at: titleOffset)
            }
            boards.append((title, items))
        }
        var generator = SeededGenerator(hashing: reader.bytes)
        let count = boards.reduce(0) { $0 + $1.items.count }
        var ids = Kanban(trusted: []).newIDs(count: count, using: &generator)[...]
        return Kanban(
            trusted: boards.map { board in
                Board(title: board.title, items: board.items.map { Item(id: ids.popFirst()!, title: $0) })
            })
    }
}
