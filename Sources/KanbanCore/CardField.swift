// A card's fields as commands compare, report and write them in JSON, besides how the file
// stores them (that is `Schema.swift`). Each field is one entry of ``CardField/all``: its
// name and its value, of one of four kinds; what a report says of a changed field, and
// its JSON, follow from the kind, whatever the field.

/// A card's field, as a change reports it.
public struct CardField: Sendable {
    /// A field's value, by kind.
    public enum Value: Hashable, Sendable {
        /// One line of text (a title).
        case line(String?)
        /// Free text of several lines (a note); `nil`: none.
        case text(String?)
        /// A set of words, in order (labels).
        case words([String])
        /// A calendar date (a due date); `nil`: none.
        case day(Day?)
    }

    /// Its key in the file and in JSON reports.
    public let name: String
    /// Its value on a card.
    public let value: @Sendable (Item) -> Value

    /// The fields a change reports, in the file's order.
    public static let all: [CardField] = [
        CardField(name: "title") { .line($0.title) },
        CardField(name: "labels") { .words($0.labels.names) },
        CardField(name: "due") { .day($0.due) },
        CardField(name: "note") { .text($0.note) },
    ]
}

/// One field of a card changed in place: its value before and after.
public struct FieldEdit: Hashable, Sendable {
    /// The field's key in the file and in JSON reports.
    public var field: String
    public var from: CardField.Value
    public var to: CardField.Value

    public init(field: String, from: CardField.Value, to: CardField.Value) {
        self.field = field
        self.from = from
        self.to = to
    }

    /// Whether the value differs.
    public var isEffective: Bool { from != to }

    public static func title(from: String, to: String) -> FieldEdit {
        FieldEdit(field: "title", from: .line(from), to: .line(to))
    }

    public static func labels(from: Labels, to: Labels) -> FieldEdit {
        FieldEdit(field: "labels", from: .words(from.names), to: .words(to.names))
    }

    public static func due(from: Day?, to: Day?) -> FieldEdit {
        FieldEdit(field: "due", from: .day(from), to: .day(to))
    }

    public static func note(from: String?, to: String?) -> FieldEdit {
        FieldEdit(field: "note", from: .text(from), to: .text(to))
    }
}

extension Item {
    /// The fields that differ from this card to `other`, in the file's order.
    public func edits(to other: Item) -> [FieldEdit] {
        guard self != other else { return [] }
        return CardField.all.compactMap { field in
            let (from, to) = (field.value(self), field.value(other))
            return from == to ? nil : FieldEdit(field: field.name, from: from, to: to)
        }
    }
}
