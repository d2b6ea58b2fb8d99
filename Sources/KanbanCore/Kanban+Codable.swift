// Codable conformances, for programs that embed KanbanCore and use their own coders.
// They describe the same version 1 document as `KanbanFile` and refuse the same things
// (unknown keys, blank titles, invalid ids, repeated ids or board titles, other versions),
// so Foundation's JSONDecoder and `KanbanFile.decode` agree on every document; the tests
// hold them to it. The command line uses `KanbanFile`, which is faster, reports line
// numbers, refuses duplicate keys and lays out one item per line.

extension ItemID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ItemID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "invalid item id \"\(text)\"; ids are 1 to 8 letters, digits, '-' or '_'")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension Item: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, title
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases)
        id = try container.decode(ItemID.self, forKey: .id)
        title = try decodeTitle(from: container, forKey: .title)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
    }
}

extension Board: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case title, limit, items
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases)
        title = try decodeTitle(from: container, forKey: .title)
        limit = try container.decodeIfPresent(Int.self, forKey: .limit)
        items = try container.decode([Item].self, forKey: .items)
        if let limit, limit < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .limit, in: container, debugDescription: "a board's limit must be 0 or more")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(limit, forKey: .limit)  // null rather than absent, as in the file
        try container.encode(items, forKey: .items)
    }
}

extension Kanban: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case version, boards
    }

    /// Decodes a version 1 document, refusing newer versions and broken invariants.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == KanbanFile.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "unsupported kanban file version \(version)")
        }
        let boards = try container.decode([Board].self, forKey: .boards)
        do {
            try self.init(boards: boards)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .boards, in: container, debugDescription: "the boards break an invariant: \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(KanbanFile.version, forKey: .version)
        try container.encode(boards, forKey: .boards)
    }
}

/// Any key, to list the keys an object has.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Throws for a key the schema does not know: a rewrite would drop it.
private func refuseUnknownKeys<Key: CodingKey>(in decoder: any Decoder, known: [Key]) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    let names = Set(known.map(\.stringValue))
    if let unknown = container.allKeys.first(where: { !names.contains($0.stringValue) }) {
        throw DecodingError.dataCorruptedError(
            forKey: unknown, in: container, debugDescription: "unknown key \"\(unknown.stringValue)\"")
    }
}

/// A stored title: kept as it is, but not blank.
private func decodeTitle<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> String
{
    let title = try container.decode(String.self, forKey: key)
    guard !title.isBlank else {
        throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "the title is blank")
    }
    return title
}
