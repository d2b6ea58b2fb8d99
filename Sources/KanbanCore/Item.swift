/// A card: a stable id and a one-line title.
public struct Item: Hashable, Sendable, Codable {
    /// The id, stable across moves and renames and never handed out again.
    public var id: ItemID
    /// The title as stored. Titles typed by users are normalized by ``Title``; a title
    /// read from a hand-edited file is kept as it is, so renderers must escape it.
    public var title: String

    public init(id: ItemID, title: String) {
        self.id = id
        self.title = title
    }
}

/// An item id: 1 to 8 ASCII letters, digits, `-` or `_`.
///
/// Generated ids are lowercase letters and digits with at least one of each; see
/// ``IDGenerator``. Wider ids are accepted so that hand-edited files keep working.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id as typed and stored.
    public let rawValue: String

    /// The longest id, in characters.
    public static let maximumLength = 8

    /// Creates an id, or returns `nil` if `rawValue` is not a valid id.
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue.utf8) else { return nil }
        self.rawValue = rawValue
    }

    /// Creates an id from bytes already known to be valid.
    init(trusted rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether `bytes` spell a valid id.
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        guard (1...maximumLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: ItemID, rhs: ItemID) -> Bool { lhs.rawValue < rhs.rawValue }
}
