// The hot path of the file: a card's line in the exact layout this build writes,
//
//     {"id": "k3f9p2", "title": "…", "labels": ["bug"], "due": "…", "created": "…", "entered": "…", "note": "…"}
//
// read and written directly, field by field, rather than through the schema's closures: a
// file holds one such line per card, and a million cards go through here. What the lines
// hold is still the schema's (`Schema.item`): the keys come from it, anything this path
// does not recognize is read by the schema's general path, and the tests hold the two
// paths to the same cards and the same bytes (`ItemLineTests`). A new card field is added
// to the schema; it reaches the file through the general path until it is added here.

/// The fields this path reads and writes, in the schema's order. If `Schema.item` ever
/// holds others, this path steps aside and the general one reads and writes every card.
private let knownFields = ["id", "title", "labels", "due", "created", "entered", "note"]
private let schemaIsKnown = Schema.item.map { $0.key.description } == knownFields

extension FileReader {
    /// A card in the exact layout this build writes; `nil`, having consumed nothing, for
    /// any other layout or value (the general path then reads it, and reports what is wrong).
    mutating func readWrittenItem() -> Item? {
        let start = json.offset
        guard schemaIsKnown, let prefix = json.readCanonicalItemPrefix(),
            let title = try? json.text(in: prefix.title, isASCII: prefix.isASCII, quoteAt: prefix.title.lowerBound - 1)
        else { return giveUp(at: start) }
        // Each field in a local, the card made once at the end: no copy of it on the way.
        var labels = Labels()
        var due: Day?
        var created: Timestamp?
        var entered: Timestamp?
        if version >= 2 {
            var dates = self.dates
            defer { self.dates = dates }
            if json.consume(", \"labels\": ") {
                guard let read = json.readWrittenLabels() else { return giveUp(at: start) }
                labels = read
            }
            if json.consume(", \"due\": ") {
                guard let read = json.readWrittenQuoted(10, { Day(isoBytes: $0) }) else { return giveUp(at: start) }
                due = read
            }
            if json.consume(", \"created\": ") {
                guard let read = json.readWrittenQuoted(20, { Timestamp(canonicalBytes: $0, dates: &dates) })
                else { return giveUp(at: start) }
                created = read
            }
            if json.consume(", \"entered\": ") {
                guard let read = json.readWrittenQuoted(20, { Timestamp(canonicalBytes: $0, dates: &dates) })
                else { return giveUp(at: start) }
                entered = read
            }
            if json.consume(", \"note\": ") { return giveUp(at: start) }  // rare: the general path reads notes
        }
        guard json.peek == UInt8(ascii: "}") else { return giveUp(at: start) }
        json.seek(to: json.offset + 1)
        return Item(id: prefix.id, title: title, labels: labels, due: due, created: created, entered: entered)
    }

    private mutating func giveUp(at start: Int) -> Item? {
        json.seek(to: start)
        return nil
    }

}

extension JSONReader {
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

    /// `["a", "b"]` of short ASCII labels in the order this build writes them; `nil`, having
    /// consumed nothing, otherwise.
    mutating func readWrittenLabels() -> Labels? {
        let start = offset
        guard peek == UInt8(ascii: "[") else { return nil }
        seek(to: offset + 1)
        var labels = Labels()
        while true {
            guard peek == UInt8(ascii: "\"") else { break }
            let begin = offset + 1
            var end = begin
            while end < bytes.count && end - begin <= 32 {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") { break }
                guard byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: ",") else {
                    seek(to: start)
                    return nil
                }
                end += 1
            }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), end > begin,
                bytes[begin] != UInt8(ascii: "-"), end - begin <= 32
            else {
                seek(to: start)
                return nil
            }
            let label = String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<end]), as: UTF8.self)
            guard labels.appendInOrder(label) else {
                seek(to: start)
                return nil
            }
            seek(to: end + 1)
            if bytes.count - offset >= 2 && bytes[offset] == UInt8(ascii: ",") && bytes[offset + 1] == 0x20 {
                seek(to: offset + 2)
                continue
            }
            break
        }
        guard peek == UInt8(ascii: "]"), !labels.isEmpty else {
            seek(to: start)
            return nil
        }
        seek(to: offset + 1)
        return labels
    }
}

extension ChunkWriter {
    /// A card's line, byte for byte what the general path writes from `Schema.item`.
    mutating func appendWrittenItem(_ item: Item) throws {
        guard schemaIsKnown else {
            return try Schema.item.withUnsafeBufferPointer { try writeInline(item, $0) }
        }
        try append(literal: "{\"id\": \"")
        try append(item.id)
        try append(literal: "\", \"title\": ")
        try appendQuoted(item.title)
        if !item.labels.isEmpty {
            try append(literal: ", \"labels\": ")
            try append(byte: UInt8(ascii: "["))
            for (index, label) in item.labels.names.enumerated() {
                if index > 0 { try append(literal: ", ") }
                try appendQuoted(label)
            }
            try append(byte: UInt8(ascii: "]"))
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
        if let note = item.note {
            try append(literal: ", \"note\": ")
            try appendQuoted(note)
        }
        try append(byte: UInt8(ascii: "}"))
    }
}
