// The records of a kanban file's local history: one line of JSON per change, with what is
// needed to show it (`kanban log`) and to take it back or do it again (`undo`, `redo`).
// Reading and writing the bytes of a record is here; the file itself is the command line's.

/// One entry of the history.
public struct HistoryRecord: Hashable, Sendable {
    /// What kind of change an entry is.
    public enum Kind: Hashable, Sendable {
        /// A command that changed the file.
        case change
        /// `undo`, taking back these entries (newest first).
        case undo([Int])
        /// `redo`, doing these entries again (in their order).
        case redo([Int])
    }

    /// The entry's number: more than the entry before it (one more, unless damage was dropped).
    public var number: Int

    /// The largest entry number a record may carry: numbers read from a file stay far from
    /// overflowing (a damaged record with a larger one is refused, never trapped on).
    public static let maximumNumber = 1 << 53
    public var time: Timestamp
    /// Who ran the command (`$USER`).
    public var user: String
    /// The command line, without the program name.
    public var command: [String]
    public var kind: Kind
    /// A hash of the file's bytes before and after the change (see ``FileHash``).
    public var before: UInt64
    public var after: UInt64
    /// Which file the change started from (see ``FileOrigin``), when the record says it: a
    /// record whose change is not in a file with its `before` bytes was either cut off by a
    /// crash (the same file, untouched since) or made on another git branch (a file git
    /// wrote since). `nil` in records of older versions of kanban.
    public var origin: UInt64?
    /// The change as the command reported it, one line per card or board changed.
    public var lines: [String]
    public var patch: Patch

    public init(
        number: Int, time: Timestamp, user: String, command: [String], kind: Kind, before: UInt64, after: UInt64,
        lines: [String], patch: Patch, origin: UInt64? = nil
    ) {
        self.origin = origin
        self.number = number
        self.time = time
        self.user = user
        self.command = command
        self.kind = kind
        self.before = before
        self.after = after
        self.lines = lines
        self.patch = patch
    }
}

/// A fast 64-bit hash of a file's bytes, to recognize a version of the file. Bytes may be
/// added in pieces of any size: the hash is that of all of them in order.
public struct FileHash: Sendable {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var length: UInt64 = 0
    private var pending: UInt64 = 0
    private var pendingCount: UInt64 = 0

    public init() {}

    /// The hash of `bytes`.
    public static func of(_ bytes: [UInt8]) -> UInt64 {
        var hash = FileHash()
        bytes.withUnsafeBytes { hash.add($0) }
        return hash.value
    }

    /// Adds bytes, eight at a time where it can.
    public mutating func add(_ buffer: UnsafeRawBufferPointer) {
        var index = 0
        while pendingCount != 0 && index < buffer.count {
            addPending(buffer[index])
            index += 1
        }
        // The state in a local for the long run: through `self`, which a caller may hold in
        // a closure's capture, each word would be stored and loaded again.
        if let base = buffer.baseAddress, buffer.count - index >= 8 {
            var state = self.state
            let end = index + (buffer.count - index) / 8 * 8
            while index < end {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                state = Self.mixed(state, UInt64(littleEndian: word))
                index += 8
            }
            self.state = state
        }
        while index < buffer.count {
            addPending(buffer[index])
            index += 1
        }
        length &+= UInt64(buffer.count)
    }

    private mutating func addPending(_ byte: UInt8) {
        pending |= UInt64(byte) << (8 * pendingCount)
        pendingCount += 1
        if pendingCount == 8 {
            mix(pending)
            pending = 0
            pendingCount = 0
        }
    }

    private mutating func mix(_ word: UInt64) {
        state = Self.mixed(state, word)
    }

    @inline(__always)
    private static func mixed(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word) &* 0x100_0000_01b3
        return product ^ (product >> 29)
    }

    public var value: UInt64 {
        var final = self
        final.mix(pending ^ (pendingCount << 56))
        final.mix(length)
        return final.state ^ (final.state >> 32)
    }
}

// MARK: - Reading and writing records

extension HistoryRecord {
    /// The record as one line of JSON, ending with a newline.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        withoutActuallyEscaping({ (chunk: UnsafeRawBufferPointer) in bytes.append(contentsOf: chunk) }) { sink in
            var out = ChunkWriter(capacity: 1 << 14, sink: sink)
            defer { out.deallocate() }
            try! write(to: &out)  // the sink never throws
            try! out.flush()
        }
        return bytes
    }

    private func write(to out: inout ChunkWriter) throws {
        try out.append("{\"time\":")
        try out.appendQuoted(time.description)
        try out.append(",\"user\":")
        try out.appendQuoted(user)
        try out.append(",\"command\":")
        try out.appendStrings(command)
        switch kind {
        case .change: try out.append(",\"kind\":\"change\"")
        case .undo(let entries): try out.append(",\"kind\":\"undo\",\"of\":[\(entries.map(String.init).joined(separator: ","))]")
        case .redo(let entries): try out.append(",\"kind\":\"redo\",\"of\":[\(entries.map(String.init).joined(separator: ","))]")
        }
        try out.append(",\"lines\":")
        try out.appendStrings(lines)
        try out.append(",\"patch\":{\"boardsBefore\":")
        try writeHeaders(patch.boardsBefore, to: &out)
        try out.append(",\"boardsAfter\":")
        try writeHeaders(patch.boardsAfter, to: &out)
        try out.append(",\"cards\":[")
        // A board's first stretch as every build writes it; each further one with the cards
        // between it and the one before as "gap", and an "offset" of -1, which builds that
        // read one stretch per board refuse: they cannot apply part of the change.
        var first = true
        for id in patch.cards.keys.sorted() {
            for (index, stretch) in patch.cards[id]!.enumerated() {
                if !first { try out.append(byte: UInt8(ascii: ",")) }
                first = false
                try out.append("{\"board\":\"\(id)\",")
                if index > 0 { try out.append("\"gap\":\(stretch.offset),") }
                try writeStretch(stretch, to: &out, offset: index > 0 ? -1 : stretch.offset) { item, out in
                    try out.appendWrittenItem(item)
                }
            }
        }
        try out.append("],\"archive\":")
        if let archive = patch.archive {
            try out.append(byte: UInt8(ascii: "{"))
            try Schema.archivedItem.withUnsafeBufferPointer { fields in
                try writeStretch(archive, to: &out, offset: archive.offset) { archived, out in
                    try out.writeInline(archived, fields)
                }
            }
        } else {
            try out.append("null")
        }
        // The origin, the number and the hashes last: a writer reads only them (``Summary``),
        // at the file's end.
        try out.append("}")
        if let origin { try out.append(",\"origin\":\"\(hex(origin))\"") }
        try out.append(",\"n\":\(number),\"before\":\"\(hex(before))\",\"after\":\"\(hex(after))\"}\n")
    }

    private func writeHeaders(_ headers: [BoardHeader], to out: inout ChunkWriter) throws {
        try out.append(byte: UInt8(ascii: "["))
        for (index, header) in headers.enumerated() {
            if index > 0 { try out.append(byte: UInt8(ascii: ",")) }
            try out.append("{\"id\":\"\(header.id)\",\"title\":")
            try out.appendQuoted(header.title)
            try out.append(",\"limit\":\(header.limit.map(String.init) ?? "null")")
            if let role = header.role { try out.append(",\"role\":\"\(role.rawValue)\"") }
            if !header.conflicts.isEmpty {
                try out.append(",\"conflict\":")
                try Codec.boardConflicts.write(header.conflicts, &out, .inline)
            }
            try out.append(byte: UInt8(ascii: "}"))
        }
        try out.append(byte: UInt8(ascii: "]"))
    }

    private func writeStretch<Element>(
        _ stretch: Stretch<Element>, to out: inout ChunkWriter, offset: Int,
        element: (Element, inout ChunkWriter) throws -> Void
    ) throws {
        try out.append("\"offset\":\(offset),\"anchor\":")
        try out.append(stretch.anchor.map { "\"\($0)\"" } ?? "null")
        if let next = stretch.next { try out.append(",\"next\":\"\(next)\"") }
        for (name, list) in [("before", stretch.before), ("after", stretch.after)] {
            try out.append(",\"\(name)\":[")
            for index in list.indices {
                if index > 0 { try out.append(byte: UInt8(ascii: ",")) }
                try element(list[index], &out)
            }
            try out.append(byte: UInt8(ascii: "]"))
        }
        try out.append(byte: UInt8(ascii: "}"))
    }

    /// What a writer needs of the last record: its number, the hashes of the file before
    /// and after its change, and the file it started from.
    public struct Summary: Hashable, Sendable {
        public var number: Int
        public var before: UInt64
        public var after: UInt64
        public var origin: UInt64?

        public init(number: Int, before: UInt64, after: UInt64, origin: UInt64? = nil) {
            self.number = number
            self.before = before
            self.after = after
            self.origin = origin
        }

        /// Reads the end of a record's line, `[,"origin":"…"],"n":N,"before":"…","after":"…"}`,
        /// as this build writes it (without the newline); `nil` for anything else.
        public init?(decodingEndOf line: some Collection<UInt8>) {
            // On the bytes: a writer reads every line of the history this way, at each change.
            let tail = Array(line.suffix(Self.endLength))
            // `","before":"` + 16 hex digits + `","after":"` + 16 hex digits + `"}`: 56 bytes.
            let hashes = 56
            let (before, after) = (Self.beforeKey, Self.afterKey)
            guard tail.count > hashes else { return nil }
            let start = tail.count - hashes
            guard tail[start..<start + before.count].elementsEqual(before),
                tail[(start + 27)..<(start + 27 + after.count)].elementsEqual(after),
                tail[tail.count - 2] == UInt8(ascii: "\""), tail[tail.count - 1] == UInt8(ascii: "}"),
                let beforeHash = Self.hex(tail[(start + 11)..<(start + 27)]),
                let afterHash = Self.hex(tail[(start + 38)..<(start + 54)])
            else { return nil }
            // Before them, `,"n":` and the number's digits.
            var digitsStart = start
            while digitsStart > 0, tail[digitsStart - 1] >= UInt8(ascii: "0"), tail[digitsStart - 1] <= UInt8(ascii: "9") {
                digitsStart -= 1
            }
            let marker = Self.numberKey
            let digits = start - digitsStart
            guard digits > 0, digits <= 16, digitsStart >= marker.count,
                tail[(digitsStart - marker.count)..<digitsStart].elementsEqual(marker),
                tail[digitsStart] != UInt8(ascii: "0")
            else { return nil }
            let number = tail[digitsStart..<start].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard (1...HistoryRecord.maximumNumber).contains(number) else { return nil }
            // Before the number, the origin if the record has one: `,"origin":"` 16 digits `"`.
            var origin: UInt64?
            let originEnd = digitsStart - marker.count
            let originKey = Self.originKey
            if originEnd >= originKey.count + 17, tail[originEnd - 1] == UInt8(ascii: "\""),
                tail[(originEnd - 17 - originKey.count)..<(originEnd - 17)].elementsEqual(originKey)
            {
                guard let value = Self.hex(tail[(originEnd - 17)..<(originEnd - 1)]) else { return nil }
                origin = value
            }
            self.init(number: number, before: beforeHash, after: afterHash, origin: origin)
        }

        /// How much of a line's end holds what a summary reads (the longest end is 105 bytes).
        public static let endLength = 128

        private static let beforeKey = Array(#","before":""#.utf8)
        private static let afterKey = Array(#"","after":""#.utf8)
        private static let numberKey = Array(#","n":"#.utf8)
        private static let originKey = Array(#","origin":""#.utf8)

        /// 16 hexadecimal digits (as the history writes them) as a number.
        private static func hex(_ digits: ArraySlice<UInt8>) -> UInt64? {
            var value: UInt64 = 0
            for digit in digits {
                let nibble: UInt8
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt64(nibble)
            }
            return value
        }
    }

    /// The record's summary.
    public var summary: Summary { Summary(number: number, before: before, after: after, origin: origin) }

    /// Reads a record from one line of JSON (without its newline). Without `patch`, its
    /// patch is only checked to be JSON and read as an empty one: what `kanban log` and a
    /// writer checking the history need, at a fraction of the cost of the cards in it.
    ///
    /// - Throws: ``KanbanError/corruptFile(line:message:)`` (line 1 of the record).
    public init(decoding line: some Collection<UInt8>, patch: Bool = true) throws(KanbanError) {
        let bytes = Array(line)
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(KanbanError) in
                var reader = RecordReader(buffer)
                return try reader.record(patch: patch)
            }
        }
        self = try result.get()
    }
}

private func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

extension ChunkWriter {
    fileprivate mutating func appendStrings(_ strings: [String]) throws {
        try append(byte: UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { try append(byte: UInt8(ascii: ",")) }
            try appendQuoted(string)
        }
        try append(byte: UInt8(ascii: "]"))
    }
}

/// Reads a history record by its fixed layout (keys in any order).
private struct RecordReader {
    var reader: FileReader

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        reader = FileReader(json: JSONReader(bytes), version: KanbanFile.version, expectedIDs: 0)
    }

    private var json: JSONReader {
        get { reader.json }
        set { reader.json = newValue }
    }

    mutating func record(patch decodePatch: Bool) throws(KanbanError) -> HistoryRecord {
        var number: Int?
        var time: Timestamp?
        var user = ""
        var command: [String] = []
        var kindName = "change"
        var of: [Int] = []
        var before: UInt64?
        var after: UInt64?
        var origin: UInt64?
        var lines: [String] = []
        var patch: Patch?
        try json.beginObject("a history record")
        var first = true
        while let key = try json.nextKey(first: &first) {
            switch try json.text(of: key) {
            case "n": number = try entryNumber("\"n\"")
            case "time":
                let text = try string()
                guard let value = Timestamp(rfc3339: text) else { throw json.error("invalid time \(JSON.quoted(text))") }
                time = value
            case "user": user = try string()
            case "command": command = try strings()
            case "kind": kindName = try string()
            case "of":
                try json.beginArray("\"of\"")
                var firstNumber = true
                while try json.nextElement(first: &firstNumber) {
                    of.append(try entryNumber("an entry number", from: 0))
                }
            case "before": before = try hash()
            case "after": after = try hash()
            case "origin": origin = try hash()
            case "lines": lines = try strings()
            case "patch":
                if decodePatch {
                    patch = try readPatch()
                } else {
                    try json.skipValue()
                    patch = Patch(boardsBefore: [], boardsAfter: [], cards: [:], archive: nil)
                }
            default: try json.skipValue()  // a key from a later kanban: kept readable
            }
        }
        guard let number, let time, let before, let after, let patch else {
            throw json.error("a history record lacks one of n, time, before, after, patch")
        }
        let kind: HistoryRecord.Kind
        switch kindName {
        case "change": kind = .change
        case "undo": kind = .undo(of)
        case "redo": kind = .redo(of)
        default: throw json.error("unknown kind \(JSON.quoted(kindName))")
        }
        return HistoryRecord(
            number: number, time: time, user: user, command: command, kind: kind, before: before, after: after,
            lines: lines, patch: patch, origin: origin)
    }

    private mutating func string() throws(KanbanError) -> String {
        try json.text(of: try json.readString("a string"))
    }

    /// An entry number, `from` (1) to ``HistoryRecord/maximumNumber``.
    private mutating func entryNumber(_ what: String, from: Int = 1) throws(KanbanError) -> Int {
        let number = try json.readInteger(what)
        guard (from...HistoryRecord.maximumNumber).contains(number) else {
            throw json.error("\(what) must be from \(from) to \(HistoryRecord.maximumNumber), found \(number)")
        }
        return number
    }

    private mutating func strings() throws(KanbanError) -> [String] {
        try json.beginArray("a list of strings")
        var result: [String] = []
        var first = true
        while try json.nextElement(first: &first) { result.append(try string()) }
        return result
    }

    private mutating func hash() throws(KanbanError) -> UInt64 {
        let text = try string()
        guard text.utf8.count == 16, let value = UInt64(text, radix: 16) else {
            throw json.error("invalid hash \(JSON.quoted(text))")
        }
        return value
    }

    private mutating func id() throws(KanbanError) -> ItemID {
        let text = try string()
        guard let id = ItemID(text) else { throw json.error("invalid id \(JSON.quoted(text))") }
        return id
    }

    private mutating func readPatch() throws(KanbanError) -> Patch {
        var boardsBefore: [BoardHeader] = []
        var boardsAfter: [BoardHeader] = []
        var cards: [BoardID: [Stretch<Item>]] = [:]
        var archive: Stretch<ArchivedItem>?
        try json.beginObject("a patch")
        var first = true
        while let key = try json.nextKey(first: &first) {
            switch try json.text(of: key) {
            case "boardsBefore": boardsBefore = try headers()
            case "boardsAfter": boardsAfter = try headers()
            case "cards":
                try json.beginArray("\"cards\"")
                var firstStretch = true
                while try json.nextElement(first: &firstStretch) {
                    var board: BoardID?
                    var gap: Int?
                    var stretch = try readStretch(furtherStretch: true) {
                        (reader: inout RecordReader, key: String) throws(KanbanError) in
                        switch key {
                        case "board": board = try reader.id()
                        case "gap":
                            let value = try reader.json.readInteger("\"gap\"")
                            guard value >= 0 else {
                                throw reader.json.error("\"gap\" must be 0 or more, found \(value)")
                            }
                            gap = value
                        default: return false
                        }
                        return true
                    } element: { (reader: inout FileReader) throws(KanbanError) in try reader.readItem() }
                    guard let board else { throw json.error("a patch's cards lack their board") }
                    // A board's further stretches follow its first, each with its gap.
                    guard (gap != nil) == (cards[board] != nil), (gap != nil) == (stretch.offset == -1) else {
                        throw json.error("a patch's stretches of board \(board) are out of order")
                    }
                    if let gap { stretch.offset = gap }
                    cards[board, default: []].append(stretch)
                }
            case "archive":
                if try json.readNullIfPresent() { continue }
                archive = try readStretch(furtherStretch: false) { _, _ in false } element: {
                    (reader: inout FileReader) throws(KanbanError) in
                    var archived = ArchivedItem(
                        item: Schema.blankItem, board: ItemID(packed: 1), archived: Timestamp(seconds: 0))
                    try reader.readObject(Schema.archivedItem, into: &archived, owner: "an archived item")
                    return archived
                }
            default: try json.skipValue()
            }
        }
        return Patch(boardsBefore: boardsBefore, boardsAfter: boardsAfter, cards: cards, archive: archive)
    }

    private mutating func headers() throws(KanbanError) -> [BoardHeader] {
        try json.beginArray("a list of boards")
        var result: [BoardHeader] = []
        var first = true
        while try json.nextElement(first: &first) {
            var id: ItemID?
            var title: String?
            var limit: Int?
            var role: BoardRole?
            var conflicts = Conflicts()
            try json.beginObject("a board")
            var firstKey = true
            while let key = try json.nextKey(first: &firstKey) {
                switch try json.text(of: key) {
                case "id": id = try self.id()
                case "title": title = try string()
                case "limit": limit = try json.readNullIfPresent() ? nil : try json.readInteger("\"limit\"")
                case "role":
                    var reader = FileReader(json: json, version: KanbanFile.version, expectedIDs: 0)
                    role = try Codec.role.read(&reader, "role")
                    json = reader.json
                case "conflict":
                    var reader = FileReader(json: json, version: KanbanFile.version, expectedIDs: 0)
                    conflicts = try Codec.boardConflicts.read(&reader, "conflict")
                    json = reader.json
                default: try json.skipValue()
                }
            }
            guard let id, let title else { throw json.error("a board in a patch lacks its id or title") }
            result.append(BoardHeader(id: id, title: title, limit: limit, conflicts: conflicts, role: role))
        }
        return result
    }

    /// A stretch; `furtherStretch`: its offset may be -1, which marks a board's further
    /// stretch (whose place is its "gap").
    private mutating func readStretch<Element>(
        furtherStretch: Bool,
        other: (inout RecordReader, String) throws(KanbanError) -> Bool,
        element: (inout FileReader) throws(KanbanError) -> Element
    ) throws(KanbanError) -> Stretch<Element> {
        var offset = 0
        var anchor: ItemID?
        var next: ItemID?
        var lists: [String: [Element]] = [:]
        try json.beginObject("a stretch")
        var first = true
        while let key = try json.nextKey(first: &first) {
            let name = try json.text(of: key)
            switch name {
            case "offset":
                offset = try json.readInteger("\"offset\"")
                guard offset >= 0 || (furtherStretch && offset == -1) else {
                    throw json.error("\"offset\" must be 0 or more, found \(offset)")
                }
            case "anchor": anchor = try json.readNullIfPresent() ? nil : try id()
            case "next": next = try json.readNullIfPresent() ? nil : try id()
            case "before", "after":
                try json.beginArray("\"\(name)\"")
                var list: [Element] = []
                var firstElement = true
                while try json.nextElement(first: &firstElement) {
                    json.skipWhitespace()
                    list.append(try element(&reader))
                }
                lists[name] = list
            default:
                if try !other(&self, name) { try json.skipValue() }
            }
        }
        return Stretch(
            offset: offset, anchor: anchor, next: next, before: lists["before"] ?? [], after: lists["after"] ?? [])
    }
}

// MARK: - Undo and redo

/// The entries of a history in order, and which of them `undo` and `redo` would take.
public struct HistoryLog: Sendable {
    /// The records, oldest first.
    public private(set) var records: [HistoryRecord]
    /// Entries `undo` can take back, the next one last.
    public private(set) var undoable: [Int] = []
    /// Entries `redo` can do again, the next one last.
    public private(set) var redoable: [Int] = []
    /// Entries taken back by undo and not done again since (whether or not redo can still
    /// reach them).
    public private(set) var undone: Set<Int> = []

    public init(records: [HistoryRecord]) {
        self.records = records
        for record in records { track(record) }
    }

    /// Adds a record at the end.
    public mutating func append(_ record: HistoryRecord) {
        records.append(record)
        track(record)
    }

    /// The number the next record gets.
    public var nextNumber: Int {
        min(records.last?.number ?? 0, HistoryRecord.maximumNumber) + 1
    }

    /// The record with `number`, if the history still has it.
    public func record(_ number: Int) -> HistoryRecord? {
        // Numbers go up by one, so the record is found by its distance from the last.
        guard let last = records.last else { return nil }
        let (distance, overflow) = last.number.subtractingReportingOverflow(number)
        let index = overflow ? -1 : (records.count - 1).subtractingReportingOverflow(distance).partialValue
        guard records.indices.contains(index), records[index].number == number else {
            return records.first { $0.number == number }
        }
        return records[index]
    }

    /// The entries whose change is not in a file whose bytes hash to `current`: taken away
    /// by something that put the file back as it was before them (a `git checkout` of
    /// another branch, a reset, an editor).
    ///
    /// Followed from the newest entry back, each entry's `after` should be the file as the
    /// next one found it (`expected`, at first the file itself). Where it is not, either the
    /// file went back to how it was before that entry or an older one (their `before`, or an
    /// older entry's `after`): the entry is not in the file; or something besides kanban changed the file
    /// since (a `git pull`, an editor): the entry is in it, and so are those before it,
    /// unless the same test says otherwise further back.
    public func notIn(file current: UInt64) -> Set<Int> {
        var result: Set<Int> = []
        var expected = current
        for index in records.indices.reversed() {
            let record = records[index]
            if record.after == expected {
                expected = record.before
            } else if records[...index].contains(where: { $0.before == expected })
                || records[..<index].contains(where: { $0.after == expected })
            {
                result.insert(record.number)
            } else {
                expected = record.before
            }
        }
        return result
    }

    private mutating func track(_ record: HistoryRecord) {
        switch record.kind {
        case .change:
            undoable.append(record.number)
            redoable.removeAll()
        case .undo(let entries):
            for entry in entries {
                undoable.removeAll { $0 == entry }
                redoable.append(entry)
                undone.insert(entry)
            }
        case .redo(let entries):
            for entry in entries {
                redoable.removeAll { $0 == entry }
                undoable.append(entry)
                undone.remove(entry)
            }
        }
    }
}
