// Writing the file. The bytes are produced in fixed-size chunks handed to a sink, so a
// million-item kanban goes to disk without a second copy of the whole file in memory.

extension KanbanFile {
    /// The bytes of the file for `kanban`: deterministic, one item per line, ending with a newline.
    ///
    /// - Complexity: O(*n*) in the size of the output.
    public static func encode(_ kanban: Kanban) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(
            kanban.boards.reduce(64) { total, board in
                board.items.reduce(total + 80 + board.title.utf8.count) { $0 + $1.writtenSizeEstimate }
            })
        encode(kanban) { chunk in out.append(contentsOf: chunk) }
        return out
    }

    /// Writes the bytes of the file for `kanban` to `sink`, in chunks of at most
    /// `chunkSize` bytes (a title longer than that comes in a chunk of its own).
    ///
    /// - Throws: whatever `sink` throws; nothing more is written then.
    public static func encode(
        _ kanban: Kanban, chunkSize: Int = 1 << 16, to sink: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        // Not generic over the error type: an unspecialized generic from another module
        // would look its type metadata up for every item.
        try withoutActuallyEscaping(sink) { sink in
            var out = ChunkWriter(capacity: chunkSize, sink: sink)
            defer { out.deallocate() }
            try out.writeObject(kanban, Schema.document, layout: .block(indent: 2), version: version)
            try out.append(byte: UInt8(ascii: "\n"))
            try out.flush()
        }
    }
}

extension KanbanFile {
    /// One card as the file writes it, on one line: `{"id": …, "title": …, …}`.
    public static func encode(_ item: Item) -> [UInt8] {
        var bytes: [UInt8] = []
        withoutActuallyEscaping({ (chunk: UnsafeRawBufferPointer) in bytes.append(contentsOf: chunk) }) { sink in
            var out = ChunkWriter(capacity: 1 << 12, sink: sink)
            defer { out.deallocate() }
            try! out.writeObject(item, Schema.item, layout: .inline)  // the sink never throws
            try! out.flush()
        }
        return bytes
    }
}

extension ChunkWriter {
    /// Writes `root` as an object of `schema`: on one line, or one key per line at an
    /// indentation (closing at two spaces less). `version` writes the document's
    /// `"version"` member first.
    mutating func writeObject<Root>(_ root: Root, _ schema: [Field<Root>], layout: ObjectLayout, version: Int? = nil)
        throws
    {
        try append(byte: UInt8(ascii: "{"))
        switch layout {
        case .inline:
            try schema.withUnsafeBufferPointer { fields in
                try writeInline(root, fields, opened: true)
            }
            return
        case .block(let indent):
            let lineStart = Array(("\n" + String(repeating: " ", count: indent)).utf8)
            try lineStart.withUnsafeBufferPointer { lineStart in
                var first = true
                if let version {
                    try append(lineStart)
                    try append("\"version\": \(version)")
                    first = false
                }
                let separator = Array(",".utf8) + lineStart
                try separator.withUnsafeBufferPointer { separator in
                    for field in schema
                    where try field.write(root, &self, layout, first ? lineStart : separator) {
                        first = false
                    }
                }
                try append(UnsafeBufferPointer(rebasing: lineStart.dropLast(2)))
            }
        }
        try append(byte: UInt8(ascii: "}"))
    }
}

extension ChunkWriter {
    /// Writes `root` as a one-line object of `fields`: `{"key": value, …}`. The fields are
    /// borrowed, not retained, for each card (their array outlives the call).
    mutating func writeInline<Root>(
        _ root: borrowing Root, _ fields: UnsafeBufferPointer<Field<Root>>, opened: Bool = false
    ) throws {
        if !opened { try append(byte: UInt8(ascii: "{")) }
        let comma: StaticString = ", "
        let separator = UnsafeBufferPointer(start: comma.utf8Start, count: comma.utf8CodeUnitCount)
        var first = true
        for index in fields.indices {
            unowned(unsafe) let field = fields[index]
            if try field.write(root, &self, .inline, first ? UnsafeBufferPointer(start: nil, count: 0) : separator) {
                first = false
            }
        }
        try append(byte: UInt8(ascii: "}"))
    }
}

/// A fixed buffer that fills with bytes and hands each full chunk to a sink.
struct ChunkWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    /// The last date written, for the timestamps that follow.
    private var dates = DateCache()

    init(capacity: Int, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        self.sink = sink
    }

    func deallocate() {
        base.deallocate()
    }

    mutating func flush() throws {
        guard count > 0 else { return }
        let chunk = UnsafeRawBufferPointer(start: base, count: count)
        count = 0
        try sink(chunk)
    }

    /// Makes room for `needed` bytes, if the buffer can hold them at all.
    private mutating func reserve(_ needed: Int) throws {
        if count + needed > capacity { try flush() }
    }

    mutating func append(byte: UInt8) throws {
        try reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard !bytes.isEmpty else { return }
        try reserve(bytes.count)
        guard bytes.count <= capacity else { return try sink(UnsafeRawBufferPointer(bytes)) }
        UnsafeMutableRawPointer(base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        count += bytes.count
    }

    /// Calls `write` with room for `bound` bytes and the date cache, and keeps the bytes it
    /// says it wrote; `false`, having written nothing, when the buffer cannot hold `bound`.
    mutating func append(
        upTo bound: Int, _ write: (UnsafeMutablePointer<UInt8>, inout DateCache) -> Int
    ) throws -> Bool {
        guard bound <= capacity else { return false }
        try reserve(bound)
        count += write(base + count, &dates)
        return true
    }

    /// A literal piece of the layout.
    mutating func append(literal text: StaticString) throws {
        try append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ text: String) throws {
        var text = text
        try text.withUTF8 { try append($0) }
    }

    mutating func append(_ id: ItemID) throws {
        try reserve(ItemID.maximumLength)
        var word = id.packed
        for _ in 0..<id.count {
            base[count] = UInt8(truncatingIfNeeded: word >> 56)
            count += 1
            word <<= 8
        }
    }

    /// `"YYYY-MM-DD"`.
    mutating func appendQuoted(_ day: Day) throws {
        try reserve(12)
        base[count] = UInt8(ascii: "\"")
        dates.write(day, at: base + count + 1)
        base[count + 11] = UInt8(ascii: "\"")
        count += 12
    }

    /// `"YYYY-MM-DDTHH:MM:SSZ"`.
    mutating func appendQuoted(_ time: Timestamp) throws {
        try reserve(22)
        let start = base + count
        start[0] = UInt8(ascii: "\"")
        dates.write(time, at: start + 1)
        start[21] = UInt8(ascii: "\"")
        count += 22
    }

    /// `text` as a JSON string literal, escaped as ``JSON/appendString(_:to:)`` does.
    mutating func appendQuoted(_ text: String) throws {
        var contiguous = text
        try contiguous.withUTF8 { utf8 in
            for byte in utf8 where JSON.mayNeedEscape(byte) {
                var escaped: [UInt8] = []
                JSON.appendString(text, to: &escaped)
                return try escaped.withUnsafeBufferPointer { try append($0) }
            }
            let needed = utf8.count + 2
            if count + needed > capacity { try flush() }
            guard needed <= capacity else {
                try append(byte: UInt8(ascii: "\""))
                try append(utf8)
                return try append(byte: UInt8(ascii: "\""))
            }
            base[count] = UInt8(ascii: "\"")
            if let source = utf8.baseAddress { (base + count + 1).initialize(from: source, count: utf8.count) }
            base[count + needed - 1] = UInt8(ascii: "\"")
            count += needed
        }
    }
}

extension Item {
    /// About how many bytes the card's line takes: a kept line's length (read without
    /// reading the card's title from it), else a guess from its title.
    fileprivate var writtenSizeEstimate: Int {
        line.file != nil ? Int(line.count) + 10 : 48 + title.utf8.count
    }
}
