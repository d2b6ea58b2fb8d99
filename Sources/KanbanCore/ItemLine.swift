// The hot path of the file: a card's line in the exact layout this build writes,
//
//     {"id": "k3f9p2", "title": "…", "labels": ["bug"], "assignees": ["alice"], "due": "…",
//      "created": "…", "entered": "…", "trail": [["b1", "…"], …], "note": "…"}
//
// read and written directly, field by field, rather than through the schema's closures: a
// file holds one such line per card, and a million cards go through here. What the lines
// hold is still the schema's (`Schema.item`): the keys come from it, anything this path
// does not recognize is read by the schema's general path, and the tests hold the two
// paths to the same cards and the same bytes (`ItemLineTests`). A new card field is added
// to the schema; it reaches the file through the general path until it is added here.

/// The fields this path reads and writes, in the schema's order. If `Schema.item` ever
/// holds others, this path steps aside and the general one reads and writes every card.
private let knownFields = [
    "id", "title", "labels", "assignees", "due", "created", "entered", "trail", "note", "conflict",
]
let schemaIsKnown = Schema.item.map { $0.key.description } == knownFields

extension FileReader {
    /// Reads a card in the exact layout this build writes, checks it against the invariants
    /// and appends it to `items`; `false`, having consumed nothing, for any other layout or
    /// value (the general path then reads it, and reports what is wrong).
    ///
    /// - Throws: the invariant the card breaks.
    mutating func readWrittenItem(appendingTo items: inout [Item]) throws(KanbanError) -> Bool {
        let start = json.offset
        guard schemaIsKnown, let prefix = json.readCanonicalItemPrefix() else { return giveUp(at: start) }
        // The line is kept when writing the card gives these very bytes: the current version's
        // layout (checked below, field by field) and a title with nothing the writer escapes.
        let keeps =
            file != nil && version == KanbanFile.version && !json.mayNeedEscape(prefix.title, isASCII: prefix.isASCII)
        // A deferred card's fields are checked here but not made. An ASCII title that starts
        // with a visible character is valid UTF-8 and not blank: nothing to make of it.
        let deferred = keeps && defersKeptLines
        var title = ""
        let makesTitle = !deferred || !prefix.isASCII || !json.startsVisible(prefix.title)
        if makesTitle {
            guard
                let text = try? json.text(
                    in: prefix.title, isASCII: prefix.isASCII, quoteAt: prefix.title.lowerBound - 1)
            else { return giveUp(at: start) }
            title = text
        }
        // Each field in a local, the card made once at the end: no copy of it on the way.
        var labels = Labels()
        var assignees = Labels()
        var due: Day?
        var created: Timestamp?
        var entered: Timestamp?
        var trail: [TrailEntry] = []
        if version >= 2 {
            if json.consume(", \"labels\": ") {
                guard let read = json.readWrittenLabels(words: &words) else { return giveUp(at: start) }
                labels = read
            }
            if json.consume(", \"assignees\": ") {
                guard let read = json.readWrittenLabels(words: &words) else { return giveUp(at: start) }
                assignees = read
            }
            if json.consume(", \"due\": ") {
                guard let read = json.readWrittenQuoted(10, { Day(isoBytes: $0) }) else { return giveUp(at: start) }
                due = read
            }
            if json.consume(", \"created\": ") {
                guard let read = json.readWrittenInstant(dates: &dates) else { return giveUp(at: start) }
                created = read
            }
            if json.consume(", \"entered\": ") {
                guard let read = json.readWrittenInstant(dates: &dates) else { return giveUp(at: start) }
                entered = read
            }
            if json.consume(", \"trail\": ") {
                guard let read = json.readWrittenTrail(dates: &dates, making: !deferred) else {
                    return giveUp(at: start)
                }
                trail = read
            }
            // Rare: the general path reads notes and recorded conflicts.
            if json.peek == UInt8(ascii: ","), json.consume(", \"note\": ") || json.consume(", \"conflict\": ") {
                return giveUp(at: start)
            }
        }
        guard json.peek == UInt8(ascii: "}") else { return giveUp(at: start) }
        json.seek(to: json.offset + 1)
        if !makesTitle {
            try checker.checkID(prefix.id)  // the title checked above
        } else {
            try checker.checkItem(id: prefix.id, title: title, note: nil)
        }
        let line = keeps ? KeptLine(file: file!, range: start..<json.offset) : nil
        if deferred, let line {
            items.append(Item(deferred: prefix.id, line: line))
            return true
        }
        items.append(
            Item(
                id: prefix.id, title: consume title, labels: consume labels, assignees: consume assignees, due: due,
                created: created, entered: entered, trail: consume trail, note: nil, line: line ?? KeptLine()))
        return true
    }

    private mutating func giveUp(at start: Int) -> Bool {
        json.seek(to: start)
        return false
    }

}

extension FileReader {
    /// The card a line of a file holds, read with its fields and without keeping the line;
    /// `nil` if it is not in the layout this build writes.
    static func card(in line: UnsafeBufferPointer<UInt8>) -> Item? {
        var reader = FileReader(json: JSONReader(line), version: KanbanFile.version, expectedIDs: 0, deferringIDs: true)
        var items: [Item] = []
        items.reserveCapacity(1)
        guard (try? reader.readWrittenItem(appendingTo: &items)) == true, items.count == 1 else { return nil }
        return items[0]
    }
}

extension KeptLine {
    /// The title of a deferred card's line, whose id is `id`, read alone: a kept line starts
    /// `{"id": "ID", "title": "`, and its title holds no escape, so it ends at the next quote
    /// (its UTF-8 was checked when the line was read).
    func title(of id: ItemID) -> String {
        let title = withBytes { line -> String in
            let start = 21 + id.count  // `{"id": "` and `", "title": "`
            var end = start
            while end < line.count && line[end] != UInt8(ascii: "\"") { end += 1 }
            precondition(end < line.count, "a card's kept line no longer reads")
            return String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
        }
        guard let title else { preconditionFailure("a deferred card keeps no line") }
        return title
    }
}

extension JSONReader {
    /// Whether the text in `range` of a string read whole, with no escape or control
    /// character, holds something the writer escapes. In ASCII text that is only DEL: the
    /// read stopped at every other.
    func mayNeedEscape(_ range: Range<Int>, isASCII: Bool) -> Bool {
        let text = UnsafeBufferPointer(rebasing: bytes[range])
        return isASCII ? text.contains(0x7F) : text.contains(where: JSON.mayNeedEscape)
    }

    /// Whether the text in `range` starts with a visible ASCII character (so is not blank).
    func startsVisible(_ range: Range<Int>) -> Bool {
        guard let first = range.first else { return false }
        return bytes[first] > 0x20 && bytes[first] < 0x7F
    }

    /// `"…"` of exactly `count` bytes with no escape, parsed by `parse`; `nil`, having
    /// consumed nothing, otherwise.
    mutating func readWrittenQuoted<T>(_ count: Int, _ parse: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        guard bytes.count - offset >= count + 2, bytes[offset] == UInt8(ascii: "\""),
            bytes[offset + count + 1] == UInt8(ascii: "\""),
            let value = parse(UnsafeBufferPointer(rebasing: bytes[offset + 1..<offset + 1 + count]))
        else { return nil }
        seek(to: offset + count + 2)
        return value
    }

    /// `"YYYY-MM-DDTHH:MM:SSZ"`; `nil`, having consumed nothing, otherwise.
    mutating func readWrittenInstant(dates: inout DateCache) -> Timestamp? {
        readWrittenQuoted(20) { dates.instant($0).map(Timestamp.init(seconds:)) }
    }

    /// `[["k3f9p2", "2026-11-23T10:04:05Z"], …]`, oldest first with no repeat, as this build
    /// writes a trail; `nil`, having consumed nothing, otherwise.
    /// Without `making`, the trail is checked but not made: the array returned is empty.
    mutating func readWrittenTrail(dates: inout DateCache, making: Bool = true) -> [TrailEntry]? {
        let start = offset
        var entries: [TrailEntry] = []
        var last: TrailEntry?
        if consume("[[\"") {
            if making { entries.reserveCapacity(4) }  // most trails: one board after another, a few
            repeat {
                var end = offset
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") && end - offset <= ItemID.maximumLength {
                    end += 1
                }
                guard let board = ItemID(utf8: UnsafeBufferPointer(rebasing: bytes[offset..<end])) else { break }
                seek(to: end)
                guard consume("\", "), let time = readWrittenInstant(dates: &dates), consume("]") else { break }
                let entry = TrailEntry(board: board, time: time)
                guard last.map({ $0 < entry }) ?? true else { break }
                last = entry
                if making { entries.append(entry) }
                if consume("]") { return entries }
            } while consume(", [\"")
        }
        seek(to: start)
        return nil
    }

    /// `["a", "b"]` of short ASCII labels in the order this build writes them; `nil`, having
    /// consumed nothing, otherwise. The order is checked on the bytes, before any string is made.
    mutating func readWrittenLabels(words cache: inout WordsCache) -> Labels? {
        guard peek == UInt8(ascii: "[") else { return nil }
        if let (words, count) = cache.words(at: UnsafeBufferPointer(rebasing: bytes[offset...])) {
            seek(to: offset + count)
            return words
        }
        let start = offset
        guard let words = readWrittenLabels() else { return nil }
        cache.add(words, UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        return words
    }

    private mutating func readWrittenLabels() -> Labels? {
        // First the bytes are checked and the labels counted, then the strings are made, in
        // an array of the right size.
        var count = 0
        var previous: Range<Int> = 0..<0
        var index = offset + 1
        while index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
            let begin = index + 1
            var end = begin
            while end < bytes.count && end - begin <= 32 {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") { break }
                guard byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: ",") else {
                    return nil
                }
                end += 1
            }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), end > begin,
                bytes[begin] != UInt8(ascii: "-"), end - begin <= 32,
                previous.isEmpty || asciiSortsBefore(previous, begin..<end)
            else { return nil }
            count += 1
            previous = begin..<end
            index = end + 1
            guard bytes.count - index >= 2 && bytes[index] == UInt8(ascii: ",") && bytes[index + 1] == 0x20 else {
                break
            }
            index += 2
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "]"), count > 0 else { return nil }
        var names: [String] = []
        names.reserveCapacity(count)
        var begin = offset + 2
        for _ in 0..<count {
            var end = begin
            while bytes[end] != UInt8(ascii: "\"") { end += 1 }
            names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<end]), as: UTF8.self))
            begin = end + 4  // past `", "`
        }
        seek(to: index + 1)
        return Labels(sortedASCII: names)
    }

    /// Whether the ASCII bytes of `a` sort before those of `b` ignoring case, as
    /// ``Labels/insert(_:)`` orders labels.
    private func asciiSortsBefore(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let count = min(a.count, b.count)
        for index in 0..<count {
            let x = asciiLowercased(bytes[a.lowerBound + index])
            let y = asciiLowercased(bytes[b.lowerBound + index])
            if x != y { return x < y }
        }
        return a.count < b.count
    }
}

/// The sets of words read last, by the bytes of their arrays (`["bug", "p1"]`): a file's
/// cards share a few sets of labels and of names, so most sets are read by comparing bytes,
/// and share one array. Bytes equal to a set's are that set, and end where its did.
struct WordsCache {
    private var entries: [(bytes: [UInt8], words: Labels)] = []
    /// The entry the next new set replaces once there are `capacity`.
    private var next = 0
    private static let capacity = 8

    /// The set whose bytes `text` starts with, and their count.
    func words(at text: UnsafeBufferPointer<UInt8>) -> (Labels, Int)? {
        entry(at: text).map { (entries[$0].words, entries[$0].bytes.count) }
    }

    /// The count of the bytes of the set `text` starts with.
    func length(at text: UnsafeBufferPointer<UInt8>) -> Int? {
        entry(at: text).map { entries[$0].bytes.count }
    }

    private func entry(at text: UnsafeBufferPointer<UInt8>) -> Int? {
        // Each set's first bytes (at most eight), against the text's, before the whole set.
        let first = text.count >= 8 ? UnsafeRawPointer(text.baseAddress!).loadUnaligned(as: UInt64.self) : 0
        let anyFirst = text.count < 8
        var index = 0
        while index < heads.count {
            let head = heads[index]
            if anyFirst || first & head.mask == head.word,
                entries[index].bytes.withUnsafeBufferPointer({ text.hasPrefix($0) })
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The first eight bytes of a set (fewer if it is shorter), as a little-endian load
    /// reads them, and the mask of the bytes it has.
    private var heads: [(word: UInt64, mask: UInt64)] = []

    private static func head(_ bytes: UnsafeBufferPointer<UInt8>) -> (word: UInt64, mask: UInt64) {
        var (word, mask): (UInt64, UInt64) = (0, 0)
        for (index, byte) in bytes.prefix(8).enumerated() {
            word |= UInt64(byte) << (8 * index)
            mask |= 0xFF << (8 * index)
        }
        return (word, mask)
    }

    mutating func add(_ words: Labels, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 128 else { return }
        if entries.count < Self.capacity {
            entries.append((Array(bytes), words))
            heads.append(Self.head(bytes))
        } else {
            entries[next] = (Array(bytes), words)
            heads[next] = Self.head(bytes)
            next = (next + 1) % Self.capacity
        }
    }
}

private func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}

extension ChunkWriter {
    /// A card's line, byte for byte what the general path writes from `Schema.item`.
    mutating func appendWrittenItem(_ item: Item) throws {
        try withUnsafePointer(to: item) { try appendWrittenItem(at: $0) }
    }

    /// The line of `items[index]`, a board's card as the file's writer meets it, and with it
    /// the lines of the cards after it that followed it in the file read, `separator`
    /// between each two: such a run is copied as one piece of the file. Returns how many
    /// cards it wrote.
    mutating func appendWrittenItems(
        _ items: UnsafeBufferPointer<Item>, from index: Int, separator: UnsafeBufferPointer<UInt8>
    ) throws -> Int {
        let card = items.baseAddress! + index
        guard let file = card.pointee.line.file else {
            try appendWrittenItem(at: card)
            return 1
        }
        return try file.bytes.withUnsafeBufferPointer { bytes in
            let start = Int(card.pointee.line.start)
            var end = start + Int(card.pointee.line.count)
            var next = index + 1
            while next < items.count {
                let line = items.baseAddress! + next
                guard line.pointee.line.file === file, Int(line.pointee.line.start) == end + separator.count,
                    UnsafeBufferPointer(rebasing: bytes[end...]).hasPrefix(separator)
                else { break }
                end += separator.count + Int(line.pointee.line.count)
                next += 1
            }
            try append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            return next - index
        }
    }

    /// The line of the card at `card`, read where it is: a card passed by value into this
    /// mutating method would be copied (its strings retained and released) on the way.
    private mutating func appendWrittenItem(at card: UnsafePointer<Item>) throws {
        // A card as it was read: its line, as it was (see `KeptLine`).
        if try card.pointee.line.withBytes({ try append($0) }) != nil { return }
        let box = card.pointee.fieldsBox  // fetched once
        let fields = box.fields
        guard schemaIsKnown, fields.rare?.conflicts.isEmpty ?? true else {  // rare: a card with a recorded conflict
            return try Schema.item.withUnsafeBufferPointer { try writeInline(card.pointee, $0) }
        }
        if fields.rare == nil, fields.assigneeNames == nil, try appendPlainLine(id: card.pointee.id, fields) { return }
        let item = card.pointee  // rare: a card with a note or assignees, or text to escape
        try append(literal: "{\"id\": \"")
        try append(item.id)
        try append(literal: "\", \"title\": ")
        try appendQuoted(item.title)
        if !item.labels.isEmpty {
            try append(literal: ", \"labels\": ")
            try appendWords(item.labels)
        }
        if !item.assignees.isEmpty {
            try append(literal: ", \"assignees\": ")
            try appendWords(item.assignees)
        }
        if let due = item.due {
            try append(literal: ", \"due\": ")
            try appendQuoted(due)
        }
        if let created = item.created {
            try append(literal: ", \"created\": ")
            try appendQuoted(created)
        }
        if let entered = item.entered {
            try append(literal: ", \"entered\": ")
            try appendQuoted(entered)
        }
        if !item.hasNoTrail {
            try append(literal: ", \"trail\": ")
            try appendTrail(item.trail)
        }
        if let note = item.note {
            try append(literal: ", \"note\": ")
            try appendQuoted(note)
        }
        try append(byte: UInt8(ascii: "}"))
    }

    /// `["a", "b"]`.
    private mutating func appendWords(_ words: Labels) throws {
        try append(byte: UInt8(ascii: "["))
        for (index, word) in words.names.enumerated() {
            if index > 0 { try append(literal: ", ") }
            try appendQuoted(word)
        }
        try append(byte: UInt8(ascii: "]"))
    }

    /// The line of a card with no note and no assignees, whose title and labels need no escape (nearly every
    /// card), written in one piece with no check of room between its parts; `false`, having
    /// written nothing, for any other card.
    private mutating func appendPlainLine(id: ItemID, _ fields: CardFields) throws -> Bool {
        var title = fields.title
        return try title.withUTF8 { title throws -> Bool in
            guard !title.contains(where: JSON.mayNeedEscape) else { return false }
            // The longest line of a card with every field and an empty title is 137 bytes, and
            // its trail's `, "trail": []` 13 more, with 38 for each entry.
            var bound = 150 + title.count
            if let trail = fields.trailEntries { bound += 13 + 38 * trail.count }
            for label in fields.labels.names {
                var label = label
                guard label.withUTF8({ !$0.contains(where: JSON.mayNeedEscape) }) else { return false }
                bound += label.utf8.count + 4
            }
            return try append(upTo: bound) { start, dates in
                var out = start
                out.put("{\"id\": \"")
                out.put(id)
                out.put("\", \"title\": \"")
                out.put(title)
                out.put("\"")
                if !fields.labels.isEmpty {
                    out.put(", \"labels\": [")
                    for (index, label) in fields.labels.names.enumerated() {
                        out.put(index == 0 ? "\"" : ", \"")
                        var label = label
                        label.withUTF8 { out.put($0) }
                        out.put("\"")
                    }
                    out.put("]")
                }
                if fields.dueDays != .min {
                    out.put(", \"due\": \"")
                    dates.write(Day(daysSinceEpoch: Int(fields.dueDays)), at: out)
                    out += 10
                    out.put("\"")
                }
                if fields.createdSeconds != .min {
                    out.put(", \"created\": \"")
                    dates.write(Timestamp(seconds: fields.createdSeconds), at: out)
                    out += 20
                    out.put("\"")
                }
                if fields.enteredSeconds != .min {
                    out.put(", \"entered\": \"")
                    dates.write(Timestamp(seconds: fields.enteredSeconds), at: out)
                    out += 20
                    out.put("\"")
                }
                if let trail = fields.trailEntries {
                    out.put(", \"trail\": [")
                    for (index, entry) in trail.enumerated() {
                        out.put(index == 0 ? "[\"" : ", [\"")
                        out.put(entry.board)
                        out.put("\", \"")
                        dates.write(entry.time, at: out)
                        out += 20
                        out.put("\"]")
                    }
                    out.put("]")
                }
                out.put("}")
                return out - start
            }
        }
    }
}

extension UnsafeMutablePointer<UInt8> {
    /// Writes `literal` here and moves past it.
    @inline(__always)
    fileprivate mutating func put(_ literal: StaticString) {
        UnsafeMutableRawPointer(self).copyMemory(from: literal.utf8Start, byteCount: literal.utf8CodeUnitCount)
        self += literal.utf8CodeUnitCount
    }

    /// Writes `bytes` here and moves past them.
    @inline(__always)
    fileprivate mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let source = bytes.baseAddress {
            UnsafeMutableRawPointer(self).copyMemory(from: source, byteCount: bytes.count)
        }
        self += bytes.count
    }

    /// Writes `id` here and moves past it (eight bytes are written; those past the id are
    /// left for what follows).
    @inline(__always)
    fileprivate mutating func put(_ id: ItemID) {
        UnsafeMutableRawPointer(self).storeBytes(of: id.packed.bigEndian, as: UInt64.self)
        self += id.count
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes start with those of `prefix`, compared a word at a time.
    func hasPrefix(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !prefix.isEmpty else { return true }
        guard prefix.count <= count else { return false }
        let (a, b) = (UnsafeRawPointer(prefix.baseAddress!), UnsafeRawPointer(baseAddress!))
        var index = 0
        while prefix.count - index >= 8 {
            guard
                a.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index += 8
        }
        while index < prefix.count {
            guard prefix[index] == self[index] else { return false }
            index += 1
        }
        return true
    }
}
