// Codable conformances, for programs that embed KanbanCore and use their own coders.
// They follow the same tables as `KanbanFile` (`Schema`) and check the same invariants
// (`InvariantChecker`), so Foundation's JSONDecoder and `KanbanFile.decode` agree on every
// version 2 document; the tests hold them to it. (Older formats are read by `KanbanFile`
// only: their missing ids are derived from the file's bytes.) The command line uses
// `KanbanFile`, which is faster, reports line numbers, refuses duplicate keys and lays out
// one item per line.

extension ItemID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ItemID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "invalid id \"\(text)\"; ids are 1 to 8 letters, digits, '-' or '_'")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension Item: Codable {
    public init(from decoder: any Decoder) throws {
        self = try decodeObject(Schema.item, from: decoder, blank: Schema.blankItem)
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeObject(self, Schema.item, to: encoder)
    }
}

extension ArchivedItem: Codable {
    public init(from decoder: any Decoder) throws {
        self = try decodeObject(
            Schema.archivedItem, from: decoder,
            blank: ArchivedItem(item: Schema.blankItem, board: ItemID(packed: 1), archived: Timestamp(seconds: 0)))
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeObject(self, Schema.archivedItem, to: encoder)
    }
}

extension Board: Codable {
    public init(from decoder: any Decoder) throws {
        self = try decodeObject(Schema.board, from: decoder, blank: Schema.blankBoard)
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeObject(self, Schema.board, to: encoder)
    }
}

extension Kanban: Codable {
    private static let versionKey = SchemaKey("version")

    /// Decodes a version 2 document, refusing other versions and broken invariants.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SchemaKey.self)
        let version = try container.decode(Int.self, forKey: Self.versionKey)
        guard version == KanbanFile.version else {
            throw DecodingError.dataCorruptedError(
                forKey: Self.versionKey, in: container, debugDescription: "unsupported kanban file version \(version)")
        }
        let decoded = try decodeObject(
            Schema.document, from: decoder, blank: Kanban(trusted: []), otherKeys: [Self.versionKey.stringValue])
        do {
            try self.init(boards: decoded.boards, archive: decoded.archive)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "the kanban breaks an invariant: \(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SchemaKey.self)
        try container.encode(KanbanFile.version, forKey: Self.versionKey)
        for field in Schema.document where field.isPresent(self) {
            try field.encode(self, &container)
        }
    }
}

/// Decodes an object of `schema`, refusing unknown keys and missing required ones.
private func decodeObject<Root>(
    _ schema: [Field<Root>], from decoder: any Decoder, blank: Root, otherKeys: Set<String> = []
) throws -> Root {
    let container = try decoder.container(keyedBy: SchemaKey.self)
    let known = Set(schema.map { $0.key.description }).union(otherKeys)
    if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
        throw DecodingError.dataCorruptedError(
            forKey: unknown, in: container, debugDescription: "unknown key \"\(unknown.stringValue)\"")
    }
    var root = blank
    for field in schema {
        let found = try field.decode(container, &root)
        if field.required && !found {
            throw DecodingError.keyNotFound(
                SchemaKey(field.key),
                DecodingError.Context(codingPath: container.codingPath, debugDescription: "missing key \(field.key)"))
        }
    }
    return root
}

private func encodeObject<Root>(_ root: Root, _ schema: [Field<Root>], to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: SchemaKey.self)
    for field in schema where field.isPresent(root) {
        try field.encode(root, &container)
    }
}
