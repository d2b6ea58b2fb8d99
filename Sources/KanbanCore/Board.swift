/// A list of cards (a column), as each `Board` was in the original UIKit design.
public struct Board: Hashable, Sendable {
    /// The id: stable across renames and moves, so that a merge can tell a rename from a
    /// board removed and another added.
    public var id: BoardID
    /// The title, unique within a kanban when compared case-insensitively.
    public var title: String
    /// The work-in-progress limit: the board refuses incoming items once it holds this many.
    public var limit: Int?
    /// Its role in the flow of work, when set; `nil`: the default by the board's place
    /// (README: Flow).
    public var role: BoardRole?
    /// The conflicts a merge recorded on the title or limit and nobody settled yet.
    public var conflicts = Conflicts()
    /// The cards, top first.
    public var items: [Item]

    public init(id: BoardID, title: String, limit: Int? = nil, items: [Item] = [], role: BoardRole? = nil) {
        self.id = id
        self.title = title
        self.limit = limit
        self.items = items
        self.role = role
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
