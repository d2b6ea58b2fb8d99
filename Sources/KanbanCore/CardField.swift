// A card's fields (and a board's) as commands compare, merge, report and write them in
// JSON, besides how the file stores them (that is `Schema.swift`). Each field is one
// descriptor: its name, the kind of its value, how a 3-way merge combines it (README:
// Working together), and where it is on a card; what a report says of a changed field,
// its JSON, and a conflict recorded on it follow from the kind, whatever the field.
//
// Adding a card field: its stored property on `Item`, its key in `Schema.swift` (and
// `ItemLine.swift`'s known keys), its descriptor in ``CardField/all``, and its views.
// A new card's content (``NewCardContent``, ``CardContent``) and the edits of a set of
// words (``CardChanges/words``) are kept by field name; README (Development) says what
// else a field of each kind still touches.

/// A field's value, by kind.
public enum FieldValue: Hashable, Sendable {
    /// One line of text (a title).
    case line(String?)
    /// Free text of several lines (a note); `nil`: none.
    case text(String?)
    /// A set of words, in order (labels).
    case words([String])
    /// A calendar date (a due date); `nil`: none.
    case day(Day?)
    /// A moment (when a card was created); `nil`: unknown.
    case time(Timestamp?)
    /// A whole number (a board's limit); `nil`: none.
    case number(Int?)
    /// The boards a card entered and when, oldest first (its trail); empty: none.
    case trail([TrailEntry])
    /// A board's role in the flow of work; `nil`: the default by its place.
    case role(BoardRole?)

    /// The kinds of values.
    public enum Kind: Hashable, Sendable {
        case line, text, words, day, time, number, trail, role
    }

    /// Its kind.
    public var kind: Kind {
        switch self {
        case .line: .line
        case .text: .text
        case .words: .words
        case .day: .day
        case .time: .time
        case .number: .number
        case .trail: .trail
        case .role: .role
        }
    }

    /// The value of a kind that says "none" (a recorded conflict's `null`).
    public static func none(_ kind: Kind) -> FieldValue {
        switch kind {
        case .line: .line(nil)
        case .text: .text(nil)
        case .words: .words([])
        case .day: .day(nil)
        case .time: .time(nil)
        case .number: .number(nil)
        case .trail: .trail([])
        case .role: .role(nil)
        }
    }

    /// Whether it is its kind's "none".
    public var isNone: Bool { self == .none(kind) }

    /// The value as plain text: a text as it is, a date as `YYYY-MM-DD`, a number in
    /// decimal, words separated by spaces, a trail's entries as `BOARD@TIME` separated by
    /// spaces; `nil` for none.
    public var plain: String? {
        switch self {
        case .line(let text), .text(let text): text
        case .words(let words): words.isEmpty ? nil : words.joined(separator: " ")
        case .day(let day): day?.description
        case .time(let time): time?.description
        case .number(let number): number.map(String.init)
        case .trail(let entries):
            entries.isEmpty ? nil : entries.map { "\($0.board)@\($0.time)" }.joined(separator: " ")
        case .role(let role): role?.rawValue
        }
    }
}

/// A field of a card (`Owner` ``Item``) or a board (`Owner` ``Board``): ``CardField``,
/// ``BoardField``.
public struct FieldDescriptor<Owner>: Sendable {
    public typealias Value = FieldValue

    /// How a 3-way merge combines the field's three versions (README: Working together).
    public enum Merge: Hashable, Sendable {
        /// A change on one side wins; the same change on both is one; different changes on
        /// both keep ours and are a conflict, recorded on the card or board.
        case scalar
        /// Merged as sets, ignoring case: what either side added is in, what either side
        /// removed (and the other did not add) is out.
        case set
        /// Picked as a scalar, but different changes on both sides keep ours quietly: not
        /// something a person edits (when a card was created).
        case quiet
        /// Decided with the card's place, not as a field: the side whose place the card
        /// takes gives it (when a card entered its board).
        case place
        /// Merged as the union of both sides' entries, ordered, each once; an entry one side
        /// took away (an undo) and the other kept as it was goes. Never a conflict, never an
        /// edit (a card's trail).
        case union
    }

    /// Its key in the file and in JSON reports.
    public let name: String
    /// The kind of its value.
    public let kind: Value.Kind
    /// How a merge combines it.
    public let merge: Merge
    /// What messages call it: `the due date`.
    public let noun: String
    /// Whether a change of it is an edit that reports name (see ``Item/edits(to:)``).
    public let isEdit: Bool
    /// For a set of words that views show after a card's title: the sign before each word
    /// (`#` for labels: `#bug`); `nil` for other fields.
    public let sign: String?
    /// For a set of words: what each word is, for messages (a label, a name); `nil` for
    /// other fields.
    public let word: ValueKind?
    /// For a set of words: how it is read and set as one, without checking its words again.
    public let words: Access<Labels>?
    /// Its value on a card or board.
    public let value: @Sendable (Owner) -> Value
    /// Sets it to a value of its kind (a value of another kind, or none for a field that
    /// cannot be none, leaves it as it is).
    public let set: @Sendable (inout Owner, Value) -> Void
    /// Sets `merged` to the 3-way merge of the field (`base` nil: the thing was not in the
    /// base); returns whether it is a conflict to record.
    let combine: @Sendable (_ base: Owner?, _ ours: Owner, _ theirs: Owner, _ merged: inout Owner) -> Bool

    /// A field picked as a scalar: a title, a date, a time, a number.
    ///
    /// The field is read and set by closures, not a key path: a merge reads every field of
    /// every card it combines, and a key path costs several times as much.
    static func scalar<Stored: Equatable & Sendable>(
        _ name: String, _ key: Access<Stored>, noun: String, merge: Merge = .scalar,
        isEdit: Bool = true, kind: Value.Kind, value: @escaping @Sendable (Stored) -> Value,
        stored: @escaping @Sendable (Value) -> Stored?
    ) -> FieldDescriptor {
        let (get, put) = key
        return FieldDescriptor(
            name: name, kind: kind, merge: merge, noun: noun, isEdit: isEdit, sign: nil, word: nil, words: nil,
            value: { value(get($0)) },
            set: { owner, new in if let new = stored(new) { put(&owner, new) } },
            combine: { base, ours, theirs, merged in
                // Decided with the place: the merge sets it once it knows whose place it is.
                if merge == .place { return false }
                // `base.map`, not `base?.field`: an optional field's nil in the base is not
                // the same as no base.
                let picked = pick(base.map(get), get(ours), get(theirs))
                put(&merged, picked.value)
                return picked.conflict && merge == .scalar
            })
    }

    /// How a field is read and set on its owner: `({ $0.title }, { $0.title = $1 })`.
    public typealias Access<Stored> = (get: @Sendable (Owner) -> Stored, set: @Sendable (inout Owner, Stored) -> Void)

    /// One line of text that is never none (a title).
    static func line(_ name: String, _ key: Access<String>, noun: String) -> Self {
        scalar(name, key, noun: noun, kind: .line, value: { .line($0) }) { if case .line(let text?) = $0 { text } else { nil } }
    }

    /// Free text, or none (a note).
    static func text(_ name: String, _ key: Access<String?>, noun: String) -> Self {
        scalar(name, key, noun: noun, kind: .text, value: { .text($0) }) { if case .text(let text) = $0 { .some(text) } else { nil } }
    }

    /// A date, or none (a due date).
    static func day(_ name: String, _ key: Access<Day?>, noun: String) -> Self {
        scalar(name, key, noun: noun, kind: .day, value: { .day($0) }) { if case .day(let day) = $0 { .some(day) } else { nil } }
    }

    /// A number, or none (a board's limit).
    static func number(_ name: String, _ key: Access<Int?>, noun: String) -> Self {
        scalar(name, key, noun: noun, kind: .number, value: { .number($0) }) {
            if case .number(let number) = $0 { .some(number) } else { nil }
        }
    }

    /// A board's role, or none (the default by its place).
    static func role(_ name: String, _ key: Access<BoardRole?>, noun: String) -> Self {
        scalar(name, key, noun: noun, kind: .role, value: { .role($0) }) { if case .role(let role) = $0 { .some(role) } else { nil } }
    }

    /// A moment no person edits, merged quietly (when a card was created) or with the
    /// card's place (when it entered its board).
    static func time(_ name: String, _ key: Access<Timestamp?>, noun: String, merge: Merge = .quiet) -> Self {
        scalar(name, key, noun: noun, merge: merge, isEdit: false, kind: .time, value: { .time($0) }) {
            if case .time(let time) = $0 { .some(time) } else { nil }
        }
    }

    /// A trail, merged as a union (see ``Merge/union``); not an edit: it changes with the
    /// card's place.
    static func trail(_ name: String, _ key: Access<[TrailEntry]>, noun: String) -> Self {
        let (get, put) = key
        return FieldDescriptor(
            name: name, kind: .trail, merge: .union, noun: noun, isEdit: false, sign: nil, word: nil, words: nil,
            value: { .trail(get($0)) },
            set: { owner, new in if case .trail(let entries) = new { put(&owner, entries) } },
            combine: { base, ours, theirs, merged in
                let (a, b) = (get(ours), get(theirs))
                // Most cards: the same trail on both sides, or one side's left as it was.
                if a == b {
                    put(&merged, a)
                } else if let base = base.map(get), base == a || base == b {
                    put(&merged, base == a ? b : a)
                } else {
                    let taken = Set(base.map(get) ?? []).subtracting(Set(a).intersection(b))
                    put(&merged, TrailEntry.ordered((a + b).filter { !taken.contains($0) }))
                }
                return false
            })
    }

    /// A set of words, merged as a set (labels).
    static func words(_ name: String, _ key: Access<Labels>, noun: String, sign: String, word: ValueKind) -> Self {
        let (get, put) = key
        return FieldDescriptor(
            name: name, kind: .words, merge: .set, noun: noun, isEdit: true, sign: sign, word: word, words: key,
            value: { .words(get($0).names) },
            set: { owner, new in
                if case .words(let words) = new, let set = try? Labels(validating: words) { put(&owner, set) }
            },
            combine: { base, ours, theirs, merged in
                let (a, b) = (get(ours), get(theirs))
                // The same set on both sides (most cards: none) is the merge, whatever the base.
                put(&merged, a == b ? a : mergeSets(base.map(get), a, b))
                return false
            })
    }
}

/// A card's field.
public typealias CardField = FieldDescriptor<Item>
/// A board's field (its cards aside).
public typealias BoardField = FieldDescriptor<Board>

/// A card's fields, in the file's order.
private let cardFields: [CardField] = [
    .line("title", ({ $0.title }, { $0.title = $1 }), noun: "the title"),
    .words("labels", ({ $0.labels }, { $0.labels = $1 }), noun: "the labels", sign: "#", word: .label),
    .day("due", ({ $0.due }, { $0.due = $1 }), noun: "the due date"),
    .time("created", ({ $0.created }, { $0.created = $1 }), noun: "the creation time"),
    .time("entered", ({ $0.entered }, { $0.entered = $1 }), noun: "the time it entered its board", merge: .place),
    .trail("trail", ({ $0.trail }, { $0.trail = $1 }), noun: "the trail"),
    .text("note", ({ $0.note }, { $0.note = $1 }), noun: "the note"),
    // Last, though the file has it after the labels: reports, the CSV and the views add it at the end.
    .words("assignees", ({ $0.assignees }, { $0.assignees = $1 }), noun: "the assignees", sign: "@", word: .assignee),
]

/// A board's fields, in the file's order.
private let boardFields: [BoardField] = [
    .line("title", ({ $0.title }, { $0.title = $1 }), noun: "the title"),
    .number("limit", ({ $0.limit }, { $0.limit = $1 }), noun: "the WIP limit"),
    .role("role", ({ $0.role }, { $0.role = $1 }), noun: "the role"),
]

/// A card's fields that are columns of a table (CSV, TSV): all but the trail, which JSON carries.
private let columnCardFields = cardFields.filter { $0.kind != .trail }

/// A card's sets of words that views show after its title, in the file's order.
private let signedCardFields = cardFields.filter { $0.sign != nil }

extension FieldDescriptor where Owner == Item {
    /// A card's fields, in the file's order.
    public static var all: [CardField] { cardFields }
    /// A card's sets of words that views show after its title, each word after its sign.
    public static var signed: [CardField] { signedCardFields }
    /// A card's fields that are a table's columns (CSV), in the file's order: all but the trail.
    public static var columns: [CardField] { columnCardFields }
}

extension Item {
    /// The words views show after the card's title, each after its field's sign (`#bug`),
    /// `escape`d, in the file's order of the fields.
    public func signedWords(_ escape: (String) -> String) -> [String] {
        var shown: [String] = []
        for field in CardField.signed {
            guard let sign = field.sign, case .words(let words) = field.value(self) else { continue }
            for word in words { shown.append(sign + escape(word)) }
        }
        return shown
    }
}

extension FieldDescriptor where Owner == Board {
    /// A board's fields, in the file's order.
    public static var all: [BoardField] { boardFields }
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
            guard field.isEdit else { return nil }
            let (from, to) = (field.value(self), field.value(other))
            return from == to ? nil : FieldEdit(field: field.name, from: from, to: to)
        }
    }
}
