/// The kanban file format: a UTF-8 JSON document, read and written as bytes.
///
///     {
///       "version": 2,
///       "boards": [
///         {
///           "id": "b7k2m9",
///           "title": "Todo",
///           "limit": null,
///           "items": [
///             {"id": "k3f9p2", "title": "Database Migration", "labels": ["db"], "created": "2026-11-23T10:04:05Z", "entered": "2026-11-23T10:04:05Z"},
///             {"id": "p2x1q7", "title": "Schema Design", "due": "2026-12-01"}
///           ]
///         }
///       ],
///       "archive": [
///         {"id": "q8w2e4", "title": "Old", "board": "b7k2m9", "archived": "2026-11-20T09:00:00Z"}
///       ]
///     }
///
/// The keys of each object are stated once, in `Schema`. Writing is deterministic (same
/// kanban, same bytes) and puts one item per line, so `git diff` of a move shows the item's
/// line leaving and arriving. Reading also accepts version 1 (boards without ids, items
/// with only an id and a title) and the original app's format, a top-level array of
/// `{"title": String, "items": [String]}`; both are upgraded by the next write.
public enum KanbanFile {
    /// The format version this build writes, and the highest it reads.
    public static let version = 2

    /// The format a file was read in.
    public enum Format: Hashable, Sendable {
        /// The current format.
        case current
        /// Version 1: boards had no ids; they were derived from the file's bytes on reading.
        case version1
        /// The original app's array of boards with plain-string items; ids were derived from
        /// the file's bytes on reading.
        case legacy
    }

    // MARK: - Reading

    /// Reads a kanban from the bytes of a file, checking syntax, schema and invariants.
    ///
    /// Keys may come in any order; unknown keys and duplicate keys are refused, so that
    /// nothing a rewrite would drop goes unnoticed. A UTF-8 byte order mark is skipped.
    /// Ids missing from an older format are derived from the file's bytes, so reading the
    /// same file twice, or in two clones, gives the same ids.
    ///
    /// With `keepingLines`, for a kanban that is to be written back, the cards keep their
    /// lines in `bytes`, which stay in memory with them, and writing copies the lines of the
    /// cards that did not change (README: Performance); a kanban that is only read keeps none.
    /// With `deferringCards` as well, those cards are checked but their fields are left in
    /// their lines until a command reads or changes them (see ``Item``), for a command that
    /// touches a few cards. `linesLike`, another version of the kanban read so (a merge's
    /// base), spares checking this one's lines that are byte for byte its cards' lines;
    /// the result is the same without it.
    ///
    /// - Throws: ``KanbanError/corruptFile(line:message:)`` naming the line, or
    ///   ``KanbanError/unsupportedVersion(_:)`` for a file from a newer kanban.
    /// - Complexity: O(*n*) in the size of the file.
    public static func decode(
        _ bytes: [UInt8], keepingLines: Bool = false, deferringCards: Bool = false, linesLike other: Kanban? = nil
    ) throws(KanbanError) -> (kanban: Kanban, format: Format) {
        let file = keepingLines ? FileBytes(bytes) : nil
        let before = deferringCards ? other.flatMap(LinesReadBefore.init) : nil
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(KanbanError) in
                try decode(buffer, file: file, deferring: deferringCards, before: before)
            }
        }
        return try result.get()
    }

    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, file: FileBytes?, deferring: Bool, before: LinesReadBefore?
    ) throws(KanbanError) -> (Kanban, Format) {
        var json = JSONReader(bytes)
        json.skipByteOrderMark()
        json.skipWhitespace()
        var result: (Kanban, Format)
        switch json.peek {
        case UInt8(ascii: "{"):
            result = try readDocument(json, file: file, deferring: deferring, before: before)
        case UInt8(ascii: "["):
            result = (try readLegacyDocument(&json), .legacy)
        case nil:
            throw json.error("the file is empty; expected a kanban document", at: 0)
        default:
            throw json.error("expected a kanban document (a JSON object), found \(json.valueKind)")
        }
        if result.1 != .current {
            // The boards' ids come from a stream of their own: the original format's cards
            // drew theirs from the bytes' hash, and boards drawing from that stream again
            // would meet each card's id in turn, every one checked against all the cards.
            result.0.giveIDsToBoardsWithout(using: SeededGenerator(hashing: bytes).forked())
        }
        return result
    }

    /// Reads a document with its ids checked for repeats at the end, all at once; a document
    /// that fails any check, or repeats an id, is read again with each id checked as it
    /// comes, so that what is reported is the first problem in the file, on its line.
    private static func readDocument(
        _ json: JSONReader, file: FileBytes?, deferring: Bool, before: LinesReadBefore?
    ) throws(KanbanError) -> (Kanban, Format) {
        do throws(KanbanError) {
            let read = try readDocument(json, file: file, deferring: deferring, before: before, deferringIDs: true)
            if !read.idsRepeat { return read.result }
        } catch {}
        return try readDocument(json, file: file, deferring: deferring, before: before, deferringIDs: false).result
    }

    private static func readDocument(
        _ json: JSONReader, file: FileBytes?, deferring: Bool, before: LinesReadBefore?, deferringIDs: Bool
    ) throws(KanbanError) -> (result: (Kanban, Format), idsRepeat: Bool) {
        let version = try documentVersion(json)
        // Room for the ids, not a limit: a card's line takes at least 40 bytes, and about
        // 130 with the times version 2 gives each card.
        var reader = FileReader(
            json: json, version: version, expectedIDs: json.bytes.count / (version < 2 ? 40 : 64),
            deferringIDs: deferringIDs)
        reader.file = file
        reader.deferringCards = deferring
        reader.linesReadBefore = before
        var kanban = Kanban(trusted: [])
        try reader.json.beginObject("the document")
        var seenVersion = false
        try reader.readMembers(Schema.document, into: &kanban, owner: "the document") {
            (reader: inout FileReader, key: JSONString) throws(KanbanError) -> Bool in
            guard reader.json.string(key, is: "version") else { return false }
            guard !seenVersion else { throw reader.json.error("duplicate key \"version\"", at: key.offset) }
            seenVersion = true
            _ = try reader.json.readInteger("\"version\"")
            return true
        }
        guard seenVersion else { throw reader.json.error("missing key \"version\" in the document") }
        reader.json.skipWhitespace()
        guard reader.json.isAtEnd else { throw reader.json.error("unexpected text after the end of the document") }
        return ((kanban, version < 2 ? .version1 : .current), deferringIDs && kanban.idsRepeat)
    }

    /// The document's `"version"`, read ahead of everything else: the keys a file may have
    /// depend on it, and a newer file is refused before its boards are read, as they may
    /// follow rules this build does not know. Files this build writes put it first. When the
    /// scout cannot find it (a syntax error comes first, or it is missing), reading goes on
    /// as for the current version and reports what it meets, in order.
    private static func documentVersion(_ json: JSONReader) throws(KanbanError) -> Int {
        var scout = json
        var first = true
        do throws(KanbanError) {
            try scout.beginObject("the document")
            while let key = try scout.nextKey(first: &first) {
                if scout.string(key, is: "version") {
                    scout.skipWhitespace()
                    let offset = scout.offset
                    let value = try scout.readInteger("\"version\"")
                    if value > Self.version { throw KanbanError.unsupportedVersion(value) }
                    guard value >= 1 else {
                        throw scout.error(
                            "unsupported \"version\" \(value); this kanban reads versions 1 and 2", at: offset)
                    }
                    return value
                }
                try scout.skipValue()
            }
        } catch .unsupportedVersion(let version) {
            throw .unsupportedVersion(version)
        } catch .corruptFile(let line, let message) where message.hasPrefix("unsupported \"version\"") {
            throw .corruptFile(line: line, message: message)
        } catch {}
        return Self.version
    }

    /// Reads a title of the original app's format: any string that is not blank.
    private static func readTitle(_ reader: inout JSONReader, of owner: String) throws(KanbanError) -> String {
        let string = try reader.readString("\(owner)'s \"title\"")
        let title = try reader.text(of: string)
        guard !title.isBlank else { throw reader.error("\(owner)'s \"title\" is blank", at: string.offset) }
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
                    throw reader.error(
                        "unknown key \(JSON.quoted(try reader.text(of: key))) in a board", at: key.offset)
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
        reader.skipWhitespace()
        guard reader.isAtEnd else { throw reader.error("unexpected text after the end of the document") }
        var generator = SeededGenerator(hashing: reader.bytes)
        let count = boards.reduce(0) { $0 + $1.items.count }
        var ids = Kanban(trusted: []).newIDs(count: count, using: &generator)[...]
        return Kanban(
            trusted: boards.map { board in
                Board(
                    id: ItemID(packed: 0), title: board.title,
                    items: board.items.map { Item(id: ids.popFirst()!, title: $0) })
            })
    }
}

extension Kanban {
    /// Gives every board whose id is the placeholder 0 (read from an older format) a new id
    /// from `generator`, distinct from every other id.
    mutating func giveIDsToBoardsWithout(using generator: SeededGenerator) {
        var generator = generator
        let missing = boards.indices.filter { boards[$0].id.packed == 0 }
        let ids = newIDs(count: missing.count, using: &generator)
        for (board, id) in zip(missing, ids) { boards[board].id = id }
    }
}
