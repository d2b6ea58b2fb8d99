/// A list of cards (a column), as each `Board` was in the original UIKit design.
public struct Board: Hashable, Sendable {
    /// The title, unique within a kanban when compared case-insensitively.
    public var title: String
    /// The work-in-progress limit: the board refuses incoming items once it holds this many.
    public var limit: Int?
    /// The cards, top first.
    public var items: [Item]

    public init(title: String, limit: Int? = nil, items: [Item] = []) {
        self.title = title
        self.limit = limit
        self.items = items
    }

    /// Whether the board is at or over its limit.
    public var isFull: Bool {
        guard let limit else { return false }
        return items.count >= limit
    }
}

extension String {
    /// The key under which board titles are compared: titles that differ only in case clash.
    var boardKey: String { lowercased() }
}
