// The hottest path of reading: cards read deferred (see `Item`), one line after another,
// each checked word by word against the layout this build writes, with nothing made but
// its id. It takes a subset of the lines `readWrittenItem` reads as deferred, and gives the
// same card for each; any other line, and any it is not sure of (a title that is not ASCII,
// a note, a line near the end of the file), goes to that path, which reads it or says what
// is wrong with it (README: Performance).

extension FileReader {
    /// Whether cards that keep their lines are read deferred here. A line's place must fit a
    /// `KeptLine`: bytes past 4 GiB, which no kanban file holds, are read whole.
    var defersKeptLines: Bool {
        deferringCards && json.bytes.count <= Int(UInt32.max)
    }

    /// Whether cards are read deferred here, so that plain lines may take this path.
    var readsPlainDeferredLines: Bool {
        defersKeptLines && file != nil && version == KanbanFile.version && schemaIsKnown
    }

    /// After a card of a board's array: the plain deferred lines that follow it in the same
    /// array, each after a comma and whitespace, appended to `items`. Leaves the reader at the
    /// comma before the first line it does not take, or at the end of the array's last card.
    mutating func readPlainDeferredRun(appendingTo items: inout [Item], startingAt start: Int) throws(KanbanError) {
        if items.count == 1 { items.reserveForRest(firstElementSize: json.offset - start, bytesLeft: json.remaining) }
        while json.peek == UInt8(ascii: ",") {
            let comma = json.offset
            json.seek(to: comma + 1)
            json.skipWhitespace()
            guard try readPlainDeferredLine(appendingTo: &items) else {
                json.seek(to: comma)
                return
            }
        }
    }

    /// The card whose line starts at the reader's offset, appended to `items` deferred, if
    /// its line is plain (see ``JSONReader/readPlainLine(words:dates:)``). `false`, having
    /// consumed nothing, otherwise.
    ///
    /// - Throws: the card's id repeats one read before (when ids are checked as they come).
    @inline(__always)
    mutating func readPlainDeferredLine(appendingTo items: inout [Item]) throws(KanbanError) -> Bool {
        let start = json.offset
        if let same = linesReadBefore?.match(json.bytes, at: start) {
            // The bytes of a card's line checked in another version: that card, deferred, and
            // kept as that line, so that comparing the two finds them the same at once.
            do throws(KanbanError) {
                try checker.checkID(same.id)
            } catch {
                throw invariantError(error, at: start)
            }
            json.seek(to: start + Int(same.line.count))
            items.append(Item(deferred: same.id, line: same.line))
            return true
        }
        guard let id = json.readPlainLine(words: &words, dates: &dates) else {
            json.seek(to: start)
            return false
        }
        guard let kept = KeptLine(file: file!, range: start..<json.offset) else {
            json.seek(to: start)
            return false
        }
        do throws(KanbanError) {
            try checker.checkID(id)
        } catch {
            throw invariantError(error, at: start)
        }
        items.append(Item(deferred: id, line: kept))
        return true
    }
}

/// The deferred cards' lines of a version of the kanban read before (a merge's base), for
/// reading another version of it (ours, theirs): most of a version's lines are the other's,
/// byte for byte, and a line that is one of these is that card, already checked, so it is
/// taken with a compare of its bytes rather than a check of its own (README: Performance).
///
/// A card's line is a whole JSON object, so bytes that equal one at the reader's offset
/// are that object, whatever follows; what surrounds it is still read and checked as usual,
/// and its id is still checked against the version's other ids.
struct LinesReadBefore {
    private struct Line {
        var start: Int
        var count: Int
        var id: ItemID

        var end: Int { start + count }
    }

    private let file: FileBytes
    /// Each deferred card's line in `file` and its id, in the order of the file's boards.
    private let lines: ContiguousArray<Line>
    /// The line the next one read is expected to be: the one after the last match.
    private var next = 0
    /// How many lines from `next` on are compared: a card moved, added or removed shifts
    /// the lines after it by one, and a line that matches none is read as any other.
    private static var window: Int { 4 }

    /// The lines of `kanban`'s deferred cards; `nil` when it has none.
    init?(_ kanban: Kanban) {
        var file: FileBytes?
        var lines = ContiguousArray<Line>()
        for board in kanban.boards {
            for item in board.items where item.isDeferred {
                guard let itemFile = item.line.file else { continue }
                if file == nil { file = itemFile }
                guard itemFile === file else { continue }
                lines.append(Line(start: Int(item.line.start), count: Int(item.line.count), id: item.id))
            }
        }
        guard let file, !lines.isEmpty else { return nil }
        self.file = file
        self.lines = lines
    }

    /// The id and line of the card whose line is at `offset` of `bytes`, if its bytes are a
    /// line of these (looked for from the one expected next, within ``window``).
    mutating func match(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (id: ItemID, line: KeptLine)? {
        let candidates = next..<Swift.min(next + Self.window, lines.count)
        guard !candidates.isEmpty else { return nil }
        let here = UnsafeBufferPointer(rebasing: bytes[offset...])
        let found: Int? = file.bytes.withUnsafeBufferPointer { before in
            lines.withUnsafeBufferPointer { lines in
                candidates.first { index in
                    here.hasPrefix(UnsafeBufferPointer(rebasing: before[lines[index].start..<lines[index].end]))
                }
            }
        }
        guard let found else { return nil }
        next = found + 1
        let line = lines[found]
        return (line.id, KeptLine(file: file, start: line.start, count: line.count))
    }
}

extension JSONReader {
    /// The id of the card whose line starts at the offset, if its line is plain: an id, an
    /// ASCII title that starts with a visible character and holds nothing the writer
    /// escapes, then any of labels, assignees, due date, the two times and a trail, as this
    /// build writes them; the reader is then after the line's `}`. `nil` otherwise, with
    /// the reader anywhere. It reads nothing but the line's bytes (and 64 after its start):
    /// the caches only spare work.
    mutating func readPlainLine(words: inout WordsCache, dates: inout DateCache) -> ItemID? {
        let start = offset
        // Room for the fixed words of the line's start without a check for each. A card's
        // line is never the last thing of a file: its board's `]` and the file's `}` follow.
        guard bytes.count - start >= 64 else { return nil }
        let line = UnsafeRawPointer(bytes.baseAddress! + start)
        guard line.loadUnaligned(as: UInt64.self) == PlainLine.idKey else { return nil }
        // The id: 1 to 8 id characters, then `", "title": "`.
        let idWord = UInt64(littleEndian: line.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let quoted = PlainLine.firstQuote(in: idWord)
        let length = quoted < 8 ? quoted : (line.load(fromByteOffset: 16, as: UInt8.self) == PlainLine.quote ? 8 : 0)
        guard let id = ItemID(littleEndianWord: idWord, count: length) else { return nil }
        let afterID = 8 + length
        guard line.loadUnaligned(fromByteOffset: afterID, as: UInt64.self) == PlainLine.titleKeyHead,
            line.loadUnaligned(fromByteOffset: afterID + 5, as: UInt64.self) == PlainLine.titleKeyTail
        else { return nil }
        // The title: its first byte visible, then ASCII up to the closing quote with no
        // backslash, control character or DEL, eight bytes at a time.
        var at = start + afterID + 13
        let first = bytes[at]
        guard first > 0x20 && first < 0x7F && first != PlainLine.quote && first != UInt8(ascii: "\\") else {
            return nil
        }
        var ended = false
        while bytes.count - at >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + at).loadUnaligned(as: UInt64.self))
            let special = PlainLine.specialBytes(in: word)
            if special != 0 {
                at += special.trailingZeroBitCount / 8
                ended = true
                break
            }
            at += 8
        }
        guard ended, bytes[at] == PlainLine.quote else { return nil }
        at += 1
        // The other fields, each optional, in the schema's order: its key, then its value.
        let base = UnsafeRawPointer(bytes.baseAddress!)
        @inline(__always) func key(_ key: PlainLine.Key) -> Bool {
            guard bytes.count - at >= 16, PlainLine.has(key, at: base + at) else { return false }
            at += key.count
            return true
        }
        @inline(__always) func instant() -> Bool {
            guard bytes.count - at >= 22, bytes[at] == PlainLine.quote, bytes[at + 21] == PlainLine.quote,
                dates.isInstant(at: bytes.baseAddress! + at + 1)
            else { return false }
            at += 22
            return true
        }
        if at < bytes.count && bytes[at] == UInt8(ascii: ",") {
            if key(.labels) {
                seek(to: at)
                guard skipWrittenLabels(words: &words) else { return nil }
                at = offset
            }
            if key(.assignees) {
                seek(to: at)
                guard skipWrittenLabels(words: &words) else { return nil }
                at = offset
            }
            if key(.due) {
                seek(to: at)
                guard readWrittenQuoted(10, { Day(isoBytes: $0) }) != nil else { return nil }
                at = offset
            }
            if key(.created) {
                guard instant() else { return nil }
            }
            if key(.entered) {
                guard instant() else { return nil }
            }
            if key(.trail) {
                seek(to: at)
                guard readWrittenTrail(dates: &dates, making: false) != nil else { return nil }
                at = offset
            }
        }
        // Anything else (a note, recorded conflicts): the general path.
        guard at < bytes.count, bytes[at] == UInt8(ascii: "}") else { return nil }
        seek(to: at + 1)
        return id
    }
}

/// The fixed words of a plain line, as a little-endian load reads them from the file
/// (first byte lowest). A wrong one would only send every line to the layout's path, which
/// the tests of `ItemLineTests` notice.
private enum PlainLine {
    static var quote: UInt8 { UInt8(ascii: "\"") }
    /// `{"id": "`
    static var idKey: UInt64 { 0x2220_3a22_6469_227b }
    /// `", "titl` and `itle": "`: the 13 bytes between an id and its title, as two words.
    static var titleKeyHead: UInt64 { 0x6c74_6974_2220_2c22 }
    static var titleKeyTail: UInt64 { 0x2220_3a22_656c_7469 }

    /// A field's `, "key": `: its first eight bytes, its last eight, and its length.
    struct Key {
        let head: UInt64
        let tail: UInt64
        let count: Int

        static var labels: Key { Key(head: 0x6c65_6261_6c22_202c, tail: 0x203a_2273_6c65_6261, count: 12) }
        static var assignees: Key { Key(head: 0x6769_7373_6122_202c, tail: 0x203a_2273_6565_6e67, count: 15) }
        static var due: Key { Key(head: 0x3a22_6575_6422_202c, tail: 0x203a_2265_7564_2220, count: 9) }
        static var created: Key { Key(head: 0x7461_6572_6322_202c, tail: 0x203a_2264_6574_6165, count: 13) }
        static var entered: Key { Key(head: 0x7265_746e_6522_202c, tail: 0x203a_2264_6572_6574, count: 13) }
        static var trail: Key { Key(head: 0x6c69_6172_7422_202c, tail: 0x203a_226c_6961_7274, count: 11) }
    }

    /// Whether `key` is at `pointer`, which has at least 16 bytes after it.
    static func has(_ key: Key, at pointer: UnsafeRawPointer) -> Bool {
        pointer.loadUnaligned(as: UInt64.self) == key.head
            && pointer.loadUnaligned(fromByteOffset: key.count - 8, as: UInt64.self) == key.tail
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is zero, exactly for the lowest such byte
    /// (a byte above a zero one may be marked too).
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// The index of the first quote among the bytes of `word`, 8 if there is none.
    static func firstQuote(in word: UInt64) -> Int {
        zeroBytes(word ^ (ones &* 0x22)).trailingZeroBitCount / 8
    }

    /// Marks, exactly for the lowest, the bytes of `word` that end a plain ASCII title: a
    /// quote, a backslash, a control character, DEL or any byte past ASCII.
    static func specialBytes(in word: UInt64) -> UInt64 {
        zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C)) | zeroBytes(word ^ (ones &* 0x7F))
            | ((word &- ones &* 0x20) & ~word & highs) | (word & highs)
    }
}

extension JSONReader {
    /// How many bytes are left after the cursor.
    var remaining: Int { bytes.count - offset }

    /// Skips labels as `readWrittenLabels(words:)` reads them, making none when the set is one
    /// read before; `false`, having consumed nothing, where that would give `nil`.
    mutating func skipWrittenLabels(words cache: inout WordsCache) -> Bool {
        guard peek == UInt8(ascii: "[") else { return false }
        if let count = cache.length(at: UnsafeBufferPointer(rebasing: bytes[offset...])) {
            seek(to: offset + count)
            return true
        }
        return readWrittenLabels(words: &cache) != nil
    }
}

extension Array {
    /// Room for as many elements as `bytesLeft` holds at the first's size, up to a million:
    /// an array read from a file fills once, not through a series of ever larger copies
    /// (memory is taken as it is written, not as it is reserved, and the bound keeps what a
    /// strange file reserves small).
    mutating func reserveForRest(firstElementSize: Int, bytesLeft: Int) {
        reserveCapacity(Swift.min(1 + bytesLeft / Swift.max(firstElementSize, 16), 1 << 20))
    }
}
