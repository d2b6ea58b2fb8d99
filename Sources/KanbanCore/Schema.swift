// The file's schema, stated once: every key of every object, in the order it is written,
// with how its value is read, written, decoded and encoded. The byte-level reader and
// writer (`KanbanFile`) and the Codable conformances all follow these tables, and the
// invariants are checked by `InvariantChecker` for all of them.
//
// Adding a field to the file is one stored property on the model type and one line in a
// table below (with a codec here if its kind of value is new).

/// The tables.
enum Schema {
    /// A card's keys. The first two are `id` and `title`: the reader's fast path relies on it.
    static let item: [Field<Item>] = [
        Field("id", required: true, .id, get: { $0.id }, set: { $0.id = $1 }),
        Field("title", required: true, .string, get: { $0.title }, set: { $0.title = $1 }),
        Field("labels", since: 2, .labels, get: { $0.labels }, set: { $0.labels = $1 }),
        Field("assignees", since: 2, .labels, get: { $0.assignees }, set: { $0.assignees = $1 }),
        Field("due", since: 2, .day, get: { $0.due }, set: { $0.due = $1 }),
        Field("created", since: 2, .time, get: { $0.created }, set: { $0.created = $1 }),
        Field("entered", since: 2, .time, get: { $0.entered }, set: { $0.entered = $1 }),
        Field("trail", since: 2, .trail, get: { $0.trail }, set: { $0.trail = $1 }),
        Field("note", since: 2, .string, get: { $0.note }, set: { $0.note = $1 }),
        Field("conflict", since: 2, .cardConflicts, get: { $0.conflicts }, set: { $0.conflicts = $1 }),
    ]

    /// An archived card's keys: a card's, then the board it left and when.
    static let archivedItem: [Field<ArchivedItem>] =
        item.map { $0.lifted(\.item) } + [
            Field("board", since: 2, required: true, .id, get: { $0.board }, set: { $0.board = $1 }),
            Field("archived", since: 2, required: true, .time, get: { $0.archived }, set: { $0.archived = $1 }),
        ]

    /// A board's keys. `limit` is always written (`null` when there is none).
    static let board: [Field<Board>] = [
        Field("id", since: 2, required: true, .id, get: { $0.id }, set: { $0.id = $1 }),
        Field("title", required: true, .string, get: { $0.title }, set: { $0.title = $1 }),
        Field("limit", .limit, get: { .some($0.limit) }, set: { $0.limit = $1 }),
        Field("role", since: 2, .role, get: { $0.role }, set: { $0.role = $1 }),
        Field("conflict", since: 2, .boardConflicts, get: { $0.conflicts }, set: { $0.conflicts = $1 }),
        Field("items", required: true, .items, get: { $0.items }, set: { $0.items = $1 }),
    ]

    /// The document's keys after `"version"`, which `KanbanFile` reads first.
    static let document: [Field<Kanban>] = [
        Field("boards", required: true, .boards, get: { $0.boards }, set: { $0.boards = $1 }),
        Field("archive", since: 2, .archive, get: { $0.archive }, set: { $0.archive = $1 }),
    ]

    /// A card with no fields set yet, to read into.
    static var blankItem: Item { Item(id: ItemID(packed: 1), title: "") }
    static var blankBoard: Board { Board(id: ItemID(packed: 1), title: "") }
}

// MARK: - Fields

/// One key of an object in the file. (A class: an object's fields are walked for every card,
/// and a reference costs one retain where a struct of closures would cost one per closure.)
final class Field<Root>: Sendable {
    let key: StaticString
    /// `"key": `, as written.
    let quotedKey: [UInt8]
    /// Whether an object without this key is refused.
    let required: Bool
    /// The first file version with this key; older files may not have it.
    let since: Int
    /// Reads the value (the reader is past the key and its colon) into `root`.
    let read: @Sendable (inout FileReader, inout Root) throws(KanbanError) -> Void
    /// Whether `root` has a value to write for this key (`labels` is left out when empty).
    let isPresent: @Sendable (Root) -> Bool
    /// Writes `separator`, the key and the value of `root`, if it has one to write; returns
    /// whether it did. (One call per field and card: the value is got once.)
    let write: @Sendable (Root, inout ChunkWriter, ObjectLayout, UnsafeBufferPointer<UInt8>) throws -> Bool
    /// Decodes the value from a Codable container into `root`, if there.
    let decode: @Sendable (KeyedDecodingContainer<SchemaKey>, inout Root) throws -> Bool
    /// Encodes the value of `root` (only called when present).
    let encode: @Sendable (Root, inout KeyedEncodingContainer<SchemaKey>) throws -> Void

    convenience init<Value>(
        _ key: StaticString, since: Int = 1, required: Bool = false, _ codec: Codec<Value>,
        get: @escaping @Sendable (Root) -> Value?, set: @escaping @Sendable (inout Root, Value) -> Void
    ) {
        let codingKey = SchemaKey(key)
        let quotedKey = Array("\"\(key)\": ".utf8)
        self.init(
            key: key, required: required, since: since, lifting: (),
            read: { (reader: inout FileReader, root: inout Root) throws(KanbanError) in
                set(&root, try codec.read(&reader, key))
            },
            isPresent: { root in get(root).map { !codec.isOmitted($0) } ?? false },
            write: { root, out, layout, separator in
                guard let value = get(root), !codec.isOmitted(value) else { return false }
                try out.append(separator)
                try quotedKey.withUnsafeBufferPointer { try out.append($0) }
                try codec.write(value, &out, layout)
                return true
            },
            decode: { container, root in
                guard container.contains(codingKey) else { return false }
                set(&root, try codec.decode(container, codingKey))
                return true
            },
            encode: { root, container in try codec.encode(get(root)!, &container, codingKey) })
    }

    private init(
        key: StaticString, required: Bool, since: Int, lifting _: Void,
        read: @escaping @Sendable (inout FileReader, inout Root) throws(KanbanError) -> Void,
        isPresent: @escaping @Sendable (Root) -> Bool,
        write: @escaping @Sendable (Root, inout ChunkWriter, ObjectLayout, UnsafeBufferPointer<UInt8>) throws -> Bool,
        decode: @escaping @Sendable (KeyedDecodingContainer<SchemaKey>, inout Root) throws -> Bool,
        encode: @escaping @Sendable (Root, inout KeyedEncodingContainer<SchemaKey>) throws -> Void
    ) {
        self.key = key
        quotedKey = Array("\"\(key)\": ".utf8)
        self.required = required
        self.since = since
        self.read = read
        self.isPresent = isPresent
        self.write = write
        self.decode = decode
        self.encode = encode
    }

    /// The same field, on a value that holds a `Root` at `path`.
    func lifted<Outer>(_ path: WritableKeyPath<Outer, Root> & Sendable) -> Field<Outer> {
        let (read, isPresent, write, decode, encode) = (self.read, self.isPresent, self.write, self.decode, self.encode)
        return Field<Outer>(
            key: key, required: required, since: since, lifting: (),
            read: { (reader: inout FileReader, outer: inout Outer) throws(KanbanError) in
                try read(&reader, &outer[keyPath: path])
            },
            isPresent: { isPresent($0[keyPath: path]) },
            write: { outer, out, layout, separator in try write(outer[keyPath: path], &out, layout, separator) },
            decode: { container, outer in try decode(container, &outer[keyPath: path]) },
            encode: { outer, container in try encode(outer[keyPath: path], &container) })
    }
}

/// A key of the schema, for Codable containers; any other key can be listed too.
struct SchemaKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ key: StaticString) { stringValue = key.description }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// How an object is laid out in the file: on one line (a card), or one key per line at an
/// indentation (the document, a board).
enum ObjectLayout {
    case inline
    case block(indent: Int)
}

// MARK: - Codecs

/// How one kind of value is read, written, decoded and encoded.
struct Codec<Value>: Sendable {
    /// Reads the value; the key names it in errors.
    let read: @Sendable (inout FileReader, StaticString) throws(KanbanError) -> Value
    let write: @Sendable (Value, inout ChunkWriter, ObjectLayout) throws -> Void
    let decode: @Sendable (KeyedDecodingContainer<SchemaKey>, SchemaKey) throws -> Value
    let encode: @Sendable (Value, inout KeyedEncodingContainer<SchemaKey>, SchemaKey) throws -> Void
    /// Whether a value is left out of the file, as if absent.
    var isOmitted: @Sendable (Value) -> Bool = { _ in false }
}

extension Codec {
    /// A value written as a JSON string, made from and turned into text by two functions;
    /// `parse` returns `nil` for text that is not such a value, and `expected` says what is.
    static func text(
        parse: @escaping @Sendable (String) -> Value?, format: @escaping @Sendable (Value) -> String, expected: String,
        parseBytes: @escaping @Sendable (UnsafeBufferPointer<UInt8>, inout DateCache) -> Value? = { _, _ in nil },
        write: (@Sendable (Value, inout ChunkWriter) throws -> Void)? = nil
    ) -> Codec {
        Codec(
            read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) in
                let string = try reader.json.readString("\(reader.owner)'s \"\(key)\"")
                // The common case, the form this build writes, is read from the bytes as they are.
                if string.decoded == nil,
                    let value = parseBytes(
                        UnsafeBufferPointer(rebasing: reader.json.bytes[string.range]), &reader.dates)
                {
                    return value
                }
                let text = try reader.json.text(of: string)
                guard let value = parse(text) else {
                    throw reader.json.error(
                        "\(reader.owner)'s \"\(key)\" must be \(expected), found \(JSON.quoted(text))",
                        at: string.offset)
                }
                return value
            },
            write: { value, out, _ in
                if let write { try write(value, &out) } else { try out.appendQuoted(format(value)) }
            },
            decode: { container, key in
                let text = try container.decode(String.self, forKey: key)
                guard let value = parse(text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "must be \(expected), found \"\(text)\"")
                }
                return value
            },
            encode: { value, container, key in try container.encode(format(value), forKey: key) })
    }
}

extension Codec where Value == String {
    /// Any string: titles and notes (their rules are invariants, checked for the whole card).
    static let string = Codec(
        read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) in
            try reader.json.text(of: try reader.json.readString("\(reader.owner)'s \"\(key)\""))
        },
        write: { value, out, _ in try out.appendQuoted(value) },
        decode: { container, key in try container.decode(String.self, forKey: key) },
        encode: { value, container, key in try container.encode(value, forKey: key) })
}

extension Codec where Value == ItemID {
    /// An id: compared and written as its packed word.
    static let id = Codec(
        read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) in
            let string = try reader.json.readString("\(reader.owner)'s \"\(key)\"")
            guard let id = reader.json.withBytes(of: string, { ItemID(utf8: $0) }) else {
                throw reader.json.error(
                    "invalid id \(JSON.quoted(try reader.json.text(of: string))) in \(reader.owner); "
                        + "ids are 1 to 8 letters, digits, '-' or '_'", at: string.offset)
            }
            return id
        },
        write: { id, out, _ in
            try out.append(byte: UInt8(ascii: "\""))
            try out.append(id)
            try out.append(byte: UInt8(ascii: "\""))
        },
        decode: { container, key in
            let text = try container.decode(String.self, forKey: key)
            guard let id = ItemID(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "invalid id \"\(text)\"; ids are 1 to 8 letters, digits, '-' or '_'")
            }
            return id
        },
        encode: { id, container, key in try container.encode(id.rawValue, forKey: key) })
}

extension Codec where Value == Day {
    /// A date, read and written as bytes: a file holds one per card that has a due date.
    static let day = Codec.text(
        parse: { Day(iso: $0) }, format: \.description, expected: "a date, YYYY-MM-DD",
        parseBytes: { bytes, _ in Day(isoBytes: bytes) }, write: { day, out in try out.appendQuoted(day) })
}

extension Codec where Value == Timestamp {
    /// A time, read and written as bytes: a file holds two per card.
    static let time = Codec.text(
        parse: { Timestamp(rfc3339: $0) }, format: \.description, expected: "a time, like 2026-11-23T10:04:05Z",
        parseBytes: { bytes, dates in Timestamp(canonicalBytes: bytes, dates: &dates) },
        write: { time, out in try out.appendQuoted(time) })
}

extension Codec where Value == [TrailEntry] {
    /// A card's trail: `[["k3f9p2", "2026-11-23T10:04:05Z"], …]`, left out when empty. Read
    /// in any order and with repeats, kept oldest first and each once (README: The file).
    static let trail = Codec(
        read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) in
            try reader.json.beginArray("\(reader.owner)'s \"\(key)\"")
            var entries: [TrailEntry] = []
            var first = true
            while try reader.json.nextElement(first: &first) {
                try reader.json.beginArray("an entry of \(reader.owner)'s \"\(key)\" ([board id, time])")
                var inner = true
                guard try reader.json.nextElement(first: &inner) else {
                    throw reader.json.error("an entry of \(reader.owner)'s \"\(key)\" is [board id, time], found []")
                }
                let board = try Codec<ItemID>.id.read(&reader, key)
                guard try reader.json.nextElement(first: &inner) else {
                    throw reader.json.error(
                        "an entry of \(reader.owner)'s \"\(key)\" is [board id, time], found no time")
                }
                let time = try Codec<Timestamp>.time.read(&reader, key)
                guard try !reader.json.nextElement(first: &inner) else {
                    throw reader.json.error("an entry of \(reader.owner)'s \"\(key)\" is [board id, time], found more")
                }
                entries.append(TrailEntry(board: board, time: time))
            }
            return entries  // put in order, once each, by `Item.trail`
        },
        write: { entries, out, _ in try out.appendTrail(entries) },
        decode: { container, key in
            let pairs = try container.decode([[String]].self, forKey: key)
            var entries: [TrailEntry] = []
            for pair in pairs {
                guard pair.count == 2, let board = ItemID(pair[0]), let time = Timestamp(rfc3339: pair[1]) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "an entry of the trail is [board id, time], found \(pair)")
                }
                entries.append(TrailEntry(board: board, time: time))
            }
            return entries
        },
        encode: { entries, container, key in
            try container.encode(entries.map { [$0.board.rawValue, $0.time.description] }, forKey: key)
        },
        isOmitted: \.isEmpty)
}

extension ChunkWriter {
    /// `[["k3f9p2", "2026-11-23T10:04:05Z"], …]`.
    mutating func appendTrail(_ entries: [TrailEntry]) throws {
        try append(byte: UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            try append(literal: index == 0 ? "[\"" : ", [\"")
            try append(entry.board)
            try append(literal: "\", ")
            try appendQuoted(entry.time)
            try append(byte: UInt8(ascii: "]"))
        }
        try append(byte: UInt8(ascii: "]"))
    }
}

extension Codec where Value == Int? {
    /// A board's limit: a whole number, or `null` (its rule, 0 or more, is an invariant).
    static let limit = Codec(
        read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) -> Int? in
            if try reader.json.readNullIfPresent() { return nil }
            return try reader.json.readInteger("\(reader.owner)'s \"\(key)\"")
        },
        write: { value, out, _ in try out.append(value.map(String.init) ?? "null") },
        decode: { container, key in try container.decode(Int?.self, forKey: key) },
        encode: { value, container, key in try container.encode(value, forKey: key) })
}

extension Codec where Value == BoardRole {
    /// A board's role: `"backlog"`, `"active"` or `"done"`; left out when it has none.
    static let role = Codec.text(
        parse: { BoardRole(rawValue: $0) }, format: \.rawValue, expected: BoardRole.expected)
}

extension Codec where Value == Labels {
    /// An array of label strings; left out when empty.
    static let labels = Codec(
        read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) in
            try reader.json.beginArray("\(reader.owner)'s \"\(key)\"")
            var labels = Labels()
            var first = true
            while try reader.json.nextElement(first: &first) {
                let string = try reader.json.readString("a label")
                let text = try reader.json.text(of: string)
                if let problem = Labels.problem(with: text) {
                    throw reader.json.error("invalid label \(JSON.quoted(text)): \(problem)", at: string.offset)
                }
                labels.insert(text)
            }
            return labels
        },
        write: { labels, out, _ in
            try out.append(byte: UInt8(ascii: "["))
            for (index, label) in labels.names.enumerated() {
                if index > 0 { try out.append(literal: ", ") }
                try out.appendQuoted(label)
            }
            try out.append(byte: UInt8(ascii: "]"))
        },
        decode: { container, key in
            let names = try container.decode([String].self, forKey: key)
            do {
                return try Labels(validating: names)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(error)")
            }
        },
        encode: { labels, container, key in try container.encode(labels.names, forKey: key) },
        isOmitted: \.isEmpty)
}

extension Codec where Value == [Item] {
    /// A board's cards, one per line (through the fast path of `ItemLine.swift`).
    static let items = Codec.array(
        owner: "an item", indent: 8,
        readElement: { (reader: inout FileReader, items: inout [Item]) throws(KanbanError) in
            try reader.readItem(appendingTo: &items)
        },
        schema: Schema.item,
        writeElements: { items, index, separator, out in
            try out.appendWrittenItems(items, from: index, separator: separator)
        })
}

extension Codec where Value == [ArchivedItem] {
    /// The archive's cards, one per line.
    static let archive = Codec.array(
        owner: "an archived item", indent: 4,
        readElement: { (reader: inout FileReader, archive: inout [ArchivedItem]) throws(KanbanError) in
            let start = reader.json.offset
            var archived = ArchivedItem(
                item: Schema.blankItem, board: ItemID(packed: 1), archived: Timestamp(seconds: 0))
            try reader.readObject(Schema.archivedItem, into: &archived, owner: "an archived item")
            do throws(KanbanError) {
                try reader.checker.checkItem(archived.item)
            } catch {
                throw reader.invariantError(error, at: start)
            }
            archive.append(archived)
        },
        schema: Schema.archivedItem)
}

extension Codec where Value == [Board] {
    /// The boards, each a block of lines.
    static let boards = Codec(
        read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) in
            try reader.json.beginArray("\"\(key)\"")
            var boards: [Board] = []
            var first = true
            while try reader.json.nextElement(first: &first) {
                reader.json.skipWhitespace()
                let start = reader.json.offset
                var board = Schema.blankBoard
                try reader.readObject(Schema.board, into: &board, owner: "a board")
                if reader.version < 2 {
                    board.id = ItemID(packed: 0)  // no id yet: `KanbanFile` gives one after reading
                    reader.boardsWithoutID += 1
                } else {
                    do throws(KanbanError) {
                        try reader.checker.checkID(board.id)
                    } catch {
                        throw reader.invariantError(error, inObjectAt: start, key: "id")
                    }
                }
                do throws(KanbanError) {
                    try reader.checker.checkBoardFields(title: board.title, limit: board.limit)
                } catch {
                    let key: StaticString = if case .invalidValue = error { "limit" } else { "title" }
                    throw reader.invariantError(error, inObjectAt: start, key: key)
                }
                boards.append(board)
            }
            return boards
        },
        write: { boards, out, _ in
            try out.append(byte: UInt8(ascii: "["))
            for (index, board) in boards.enumerated() {
                try out.append(literal: index == 0 ? "\n    " : ",\n    ")
                try out.writeObject(board, Schema.board, layout: .block(indent: 6))
            }
            try out.append(literal: boards.isEmpty ? "]" : "\n  ]")
        },
        decode: { container, key in try container.decode([Board].self, forKey: key) },
        encode: { boards, container, key in try container.encode(boards, forKey: key) })
}

extension Codec {
    /// An array of one-line objects, one per line at `indent`. `readElement` reads the next
    /// element, checks it against the invariants (`reader.checker`, reporting a violation
    /// with `reader.invariantError(_:at:)`) and appends it to the array: a large file's
    /// elements are each made once, with no copy on the way. `writeElements` writes the
    /// element at an index, and maybe some that follow it with the separator between them,
    /// and returns how many it wrote.
    static func array<Element: Codable & Sendable>(
        owner: StaticString, indent: Int,
        readElement: @escaping @Sendable (inout FileReader, inout [Element]) throws(KanbanError) -> Void,
        schema: [Field<Element>],
        writeElements: (
            @Sendable (UnsafeBufferPointer<Element>, Int, UnsafeBufferPointer<UInt8>, inout ChunkWriter) throws -> Int
        )? =
            nil
    ) -> Codec<[Element]> where Value == [Element] {
        // Between two elements: a comma, then the next line's indentation.
        let separator = Array((",\n" + String(repeating: " ", count: indent)).utf8)
        return Codec<[Element]>(
            read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) in
                try reader.json.beginArray("\(reader.owner)'s \"\(key)\"")
                var elements: [Element] = []
                var first = true
                while try reader.json.nextElement(first: &first) {
                    reader.json.skipWhitespace()
                    let start = reader.json.offset
                    try readElement(&reader, &elements)
                    if elements.count == 1 {
                        elements.reserveForRest(
                            firstElementSize: reader.json.offset - start, bytesLeft: reader.json.remaining)
                    }
                }
                return elements
            },
            write: { elements, out, _ in
                try out.append(byte: UInt8(ascii: "["))
                // The hot loop of writing a large file: no copy of a card or a field is made.
                try separator.withUnsafeBufferPointer { separator in
                    let lineStart = UnsafeBufferPointer(rebasing: separator.dropFirst())
                    try schema.withUnsafeBufferPointer { fields in
                        try elements.withUnsafeBufferPointer { elements in
                            var index = 0
                            while index < elements.count {
                                try out.append(index > 0 ? separator : lineStart)
                                if let writeElements {
                                    // The array and an index, not the element: passing the
                                    // element through the closure would copy it. It writes
                                    // that element and maybe some that follow, separators
                                    // between them included.
                                    index += try writeElements(elements, index, separator, &out)
                                } else {
                                    try out.writeInline(elements[index], fields)
                                    index += 1
                                }
                            }
                        }
                    }
                    if !elements.isEmpty {
                        try out.append(UnsafeBufferPointer(rebasing: separator[1..<separator.count - 2]))
                    }
                }
                try out.append(byte: UInt8(ascii: "]"))
            },
            decode: { container, key in try container.decode([Element].self, forKey: key) },
            encode: { elements, container, key in try container.encode(elements, forKey: key) })
    }
}
