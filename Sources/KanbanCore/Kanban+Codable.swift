// Codable conformances, for programs that embed KanbanCore and use their own coders.
// They describe the same version 1 document as `KanbanFile`, and check the same
// invariants; the command line reads and writes with `KanbanFile`, which is faster,
// reports line numbers and lays out one item per line.

extension ItemID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ItemID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "invalid item id \"\(text)\"; ids are 1 to 8 letters, digits, '-' or '_'")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}



extension Board: Codable {
    private enum CodingKeys: String, CodingKey {
        case title, limit, items
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
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
    private enum CodingKeys: String, CodingKey {
        case version, boards
    }

    /// Decodes a version 1 document, refusing newer versions and broken invariants.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
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
