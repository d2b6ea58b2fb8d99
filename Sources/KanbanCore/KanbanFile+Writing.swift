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
                board.items.reduce(total + 80 + board.title.utf8.count) { $0 + 48 + $1.title.utf8.count }
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
            try out.append("{\n  \"version\": \(version),\n  \"boards\": [")  // once per file
            for (b, board) in kanban.boards.enumerated() {
                try out.append(literal: b == 0 ? "\n    {\n      \"title\": " : ",\n    {\n      \"title\": ")
                try out.appendQuoted(board.title)
                try out.append(
                    ",\n      \"limit\": " + (board.limit.map(String.init) ?? "null") + ",\n      \"items\": [")
                for (i, item) in board.items.enumerated() {
                    try out.appendItem(item, first: i == 0)
                }
                try out.append(literal: board.items.isEmpty ? "]\n    }" : "\n      ]\n    }")
            }
            try out.append(literal: kanban.boards.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
            try out.flush()
        }
    }
}

/// A fixed buffer that fills with bytes and hands each full chunk to a sink.
private struct ChunkWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    private let sink: (UnsafeRawBufferPointer) throws -> Void

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
        try reserve(bytes.count)
        guard bytes.count <= capacity else { return try sink(UnsafeRawBufferPointer(bytes)) }
        (base + count).initialize(from: bytes.baseAddress!, count: bytes.count)
        count += bytes.count
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

    /// One item's line, `{"id": "k3f9", "title": "…"}`, after a comma unless it is the first:
    /// the hot loop of writing a large file, so it reserves once and copies each piece.
    mutating func appendItem(_ item: Item, first: Bool) throws {
        var title = item.title
        try title.withUTF8 { utf8 in
            let prefix: StaticString = first ? "\n        {\"id\": \"" : ",\n        {\"id\": \""
            let middle: StaticString = "\", \"title\": \""
            let needed = prefix.utf8CodeUnitCount + ItemID.maximumLength + middle.utf8CodeUnitCount + utf8.count + 2
            guard needed <= capacity, !utf8.contains(where: JSON.mayNeedEscape) else {
                // A title to escape, or too long for one chunk: the general path.
                try append(literal: prefix)
                try append(item.id)
                try append(literal: "\", \"title\": ")
                try appendQuoted(item.title)
                return try append(byte: UInt8(ascii: "}"))
            }
            try reserve(needed)
            var cursor = base + count
            cursor.initialize(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            cursor += prefix.utf8CodeUnitCount
            var word = item.id.packed
            for _ in 0..<item.id.count {
                cursor.initialize(to: UInt8(truncatingIfNeeded: word >> 56))
                cursor += 1
                word <<= 8
            }
            cursor.initialize(from: middle.utf8Start, count: middle.utf8CodeUnitCount)
            cursor += middle.utf8CodeUnitCount
            if let source = utf8.baseAddress { cursor.initialize(from: source, count: utf8.count) }
            cursor += utf8.count
            cursor.initialize(to: UInt8(ascii: "\""))
            (cursor + 1).initialize(to: UInt8(ascii: "}"))
            count = cursor + 2 - base
        }
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
