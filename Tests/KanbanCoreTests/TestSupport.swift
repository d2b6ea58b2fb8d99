// Conveniences for building kanbans in tests: boards get ids derived from their titles, so
// that two kanbans built alike are equal, and new cards can be given as titles alone.

@testable import KanbanCore

extension Board {
    /// A board whose id is derived from its title (`B` and seven base-36 digits of a hash).
    init(title: String, limit: Int? = nil, items: [Item] = []) {
        self.init(id: boardID(for: title), title: title, limit: limit, items: items)
    }
}

/// The id ``Board/init(title:limit:items:)`` gives a board titled `title`.
func boardID(for title: String) -> BoardID {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in title.lowercased().utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")
    var text = "B"
    for _ in 0..<7 {
        text.append(digits[Int(hash % 36)])
        hash /= 36
    }
    return ItemID(text)!
}

extension Kanban {
    /// Inserts new cards with only titles.
    @discardableResult
    mutating func insert(
        _ titles: [Title], into destination: Int, at position: DropPosition = .bottom, force: Bool = false,
        now: Timestamp? = nil, using generator: inout some RandomNumberGenerator
    ) throws(KanbanError) -> Change {
        try insert(
            titles.map { CardContent(title: $0) }, into: destination, at: position, force: force, now: now,
            using: &generator)
    }

    /// Adds a board with an id from a generator seeded by its title.
    @discardableResult
    mutating func addBoard(_ title: Title, at index: Int? = nil, limit: Int? = nil) throws(KanbanError) -> Change {
        var generator = SeededGenerator(hashing: title.text.utf8)
        return try addBoard(title, at: index, limit: limit, using: &generator)
    }

    /// An empty kanban with boards titled `titles` (ids from a fixed seed).
    init(boardTitles titles: [Title]) throws(KanbanError) {
        var generator = SeededGenerator(seed: 1)
        try self.init(boardTitles: titles, using: &generator)
    }
}
