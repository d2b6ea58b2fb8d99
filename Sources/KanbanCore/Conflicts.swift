// Recorded conflicts (README: Working together, "What conflicts, and how to resolve it"):
// a field that a merge found changed on both sides to different values keeps ours as its
// value and records what the base and theirs had, in the card's (or board's)
// `"conflict": {"FIELD": {"base": V, "theirs": V}, …}`, so that committing the merged
// file loses nothing.

/// A field that can hold a recorded conflict: a field of a card or a board that merges as
/// a scalar (``FieldDescriptor/Merge/scalar``). Fields are ordered by name, which is the
/// order of the keys in the file.
public struct ConflictField: Hashable, Comparable, CaseIterable, Sendable, CustomStringConvertible {
    /// The field's name (its key in the file).
    public let rawValue: String
    /// The kind of its values.
    public let kind: FieldValue.Kind

    private init(_ rawValue: String, _ kind: FieldValue.Kind) {
        self.rawValue = rawValue
        self.kind = kind
    }

    /// The field of that name, of a card or a board; `nil` if none can hold a conflict.
    public init?(rawValue: String) {
        guard let field = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = field
    }

    /// The field a descriptor that merges as a scalar names.
    init<Owner>(_ descriptor: FieldDescriptor<Owner>) {
        self.init(descriptor.name, descriptor.kind)
    }

    /// The fields of `descriptors` that can hold a conflict, in the order of their names.
    private static func of<Owner>(_ descriptors: [FieldDescriptor<Owner>]) -> [ConflictField] {
        descriptors.filter { $0.merge == .scalar }.map { ConflictField($0.name, $0.kind) }.sorted()
    }

    /// The fields a card's conflicts may name.
    public static let card = of(CardField.all)
    /// The fields a board's conflicts may name.
    public static let board = of(BoardField.all)
    /// Every field a conflict may name, in the order of their names.
    public static let allCases: [ConflictField] = Array(Set(card + board)).sorted()

    public var description: String { rawValue }

    public static func < (lhs: ConflictField, rhs: ConflictField) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One recorded conflict: the field, and what the base and theirs had (a value of the
/// field's kind; its none: absent). Ours is the field's value.
public struct RecordedConflict: Hashable, Sendable {
    public var field: ConflictField
    public var base: FieldValue
    public var theirs: FieldValue

    public init(field: ConflictField, base: FieldValue?, theirs: FieldValue?) {
        self.field = field
        self.base = base ?? .none(field.kind)
        self.theirs = theirs ?? .none(field.kind)
    }
}

/// The recorded conflicts of a card or a board, at most one per field, in field order.
///
/// Empty for nearly every card: then it is a nil reference, which a card's copies pass
/// around at no cost (an empty array would be retained and released with every card).
public struct Conflicts: Hashable, Sendable, Sequence {
    /// The entries, never empty; a new box for every change (changes are rare).
    private final class Box: Sendable {
        let entries: [RecordedConflict]
        init(_ entries: [RecordedConflict]) { self.entries = entries }
    }

    private var box: Box?

    public init() {}

    public init(_ entries: [RecordedConflict]) {
        for entry in entries { self[entry.field] = entry }
    }

    public var entries: [RecordedConflict] { box?.entries ?? [] }
    public var isEmpty: Bool { box == nil }
    public var fields: [ConflictField] { entries.map(\.field) }

    public static func == (lhs: Conflicts, rhs: Conflicts) -> Bool {
        lhs.box === rhs.box || lhs.entries == rhs.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
    }

    public subscript(field: ConflictField) -> RecordedConflict? {
        get { box?.entries.first { $0.field == field } }
        set {
            var entries = self.entries
            let index = entries.firstIndex { $0.field >= field } ?? entries.endIndex
            let present = index < entries.endIndex && entries[index].field == field
            switch (newValue, present) {
            case (let entry?, true): entries[index] = entry
            case (let entry?, false): entries.insert(entry, at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): return
            }
            box = entries.isEmpty ? nil : Box(entries)
        }
    }

    /// Drops the record of the field named `name`, if there is one: a command that sets the
    /// field settles its conflict with the new value.
    public mutating func settle(_ name: String) {
        guard box != nil, let field = ConflictField(rawValue: name) else { return }
        self[field] = nil
    }

    public func makeIterator() -> IndexingIterator<[RecordedConflict]> { entries.makeIterator() }
}

// MARK: - The values of an item's and a board's fields

extension FieldDescriptor {
    /// The descriptor of a field that can hold a conflict.
    static func named(_ field: ConflictField, in all: [FieldDescriptor]) -> FieldDescriptor? {
        all.first { $0.name == field.rawValue }
    }
}

extension Item {
    /// The value of a field that can hold a conflict, as a conflict records it.
    public func conflictValue(_ field: ConflictField) -> FieldValue {
        CardField.named(field, in: CardField.all)?.value(self) ?? .none(field.kind)
    }

    /// Sets a field to a value a conflict recorded.
    public mutating func setConflictValue(_ value: FieldValue, of field: ConflictField) {
        CardField.named(field, in: CardField.all)?.set(&self, value)
    }
}

extension Board {
    /// The value of a field that can hold a conflict, as a conflict records it.
    public func conflictValue(_ field: ConflictField) -> FieldValue {
        BoardField.named(field, in: BoardField.all)?.value(self) ?? .none(field.kind)
    }

    /// Sets a field to a value a conflict recorded.
    public mutating func setConflictValue(_ value: FieldValue, of field: ConflictField) {
        BoardField.named(field, in: BoardField.all)?.set(&self, value)
    }
}

// MARK: - The file

extension Codec where Value == Conflicts {
    /// A card's recorded conflicts.
    static let cardConflicts = conflicts(ConflictField.card)
    /// A board's recorded conflicts.
    static let boardConflicts = conflicts(ConflictField.board)

    /// `{"FIELD": {"base": V, "theirs": V}, …}`: fields of `allowed` in the order of their
    /// names, each value of its field's type or `null`; left out when empty.
    private static func conflicts(_ allowed: [ConflictField]) -> Codec {
        Codec(
            read: { (reader: inout FileReader, key: StaticString) throws(KanbanError) in
                try readConflicts(&reader, key, allowed)
            },
            write: { conflicts, out, _ in
                try out.append(byte: UInt8(ascii: "{"))
                for (index, entry) in conflicts.entries.enumerated() {
                    if index > 0 { try out.append(literal: ", ") }
                    try out.appendQuoted(entry.field.rawValue)
                    try out.append(literal: ": {\"base\": ")
                    try appendValue(entry.base, to: &out)
                    try out.append(literal: ", \"theirs\": ")
                    try appendValue(entry.theirs, to: &out)
                    try out.append(byte: UInt8(ascii: "}"))
                }
                try out.append(byte: UInt8(ascii: "}"))
            },
            decode: { container, key in
                let decoded = try container.decode([String: [String: CodableConflictValue]].self, forKey: key)
                var conflicts = Conflicts()
                for (name, sides) in decoded {
                    guard let field = ConflictField(rawValue: name), allowed.contains(field),
                        Set(sides.keys) == ["base", "theirs"],
                        let base = sides["base"]!.value(of: field.kind), isValid(base, mayBeAbsent: true),
                        let theirs = sides["theirs"]!.value(of: field.kind),
                        isValid(theirs, mayBeAbsent: mayBeAbsent(field))
                    else {
                        throw DecodingError.dataCorruptedError(
                            forKey: key, in: container, debugDescription: "invalid conflict of \"\(name)\"")
                    }
                    conflicts[field] = RecordedConflict(field: field, base: base, theirs: theirs)
                }
                guard !conflicts.isEmpty else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "a recorded conflict names at least one field")
                }
                return conflicts
            },
            encode: { conflicts, container, key in
                var fields = container.nestedContainer(keyedBy: SchemaKey.self, forKey: key)
                for entry in conflicts.entries {
                    var sides = fields.nestedContainer(keyedBy: SchemaKey.self, forKey: SchemaKey(stringValue: entry.field.rawValue))
                    try sides.encode(CodableConflictValue(value: entry.base), forKey: SchemaKey("base"))
                    try sides.encode(CodableConflictValue(value: entry.theirs), forKey: SchemaKey("theirs"))
                }
            },
            isOmitted: \.isEmpty)
    }

    private static func readConflicts(_ reader: inout FileReader, _ key: StaticString, _ allowed: [ConflictField])
        throws(KanbanError) -> Conflicts
    {
        let owner = "\(reader.owner)'s \"\(key)\""
        try reader.json.beginObject(owner)
        var conflicts = Conflicts()
        var first = true
        while let name = try reader.json.nextKey(first: &first) {
            let text = try reader.json.text(of: name)
            guard let field = ConflictField(rawValue: text), allowed.contains(field) else {
                throw reader.json.error(
                    "unknown field \(JSON.quoted(text)) in \(owner); it may name "
                        + allowed.map(\.rawValue).joined(separator: ", "), at: name.offset)
            }
            guard conflicts[field] == nil else {
                throw reader.json.error("duplicate key \(JSON.quoted(text)) in \(owner)", at: name.offset)
            }
            // Written in the order of the names; read in any order, as every object of the file.
            let what = "\(owner)'s \"\(field.rawValue)\""
            let start = reader.json.offset
            try reader.json.beginObject(what)
            var inner = true
            var sides: [FieldValue?] = [nil, nil]
            while let sideKey = try reader.json.nextKey(first: &inner) {
                let side = reader.json.string(sideKey, is: "base") ? 0 : reader.json.string(sideKey, is: "theirs") ? 1 : -1
                guard side >= 0, sides[side] == nil else {
                    throw reader.json.error("\(what) must be {\"base\": …, \"theirs\": …}", at: sideKey.offset)
                }
                sides[side] = .some(
                    try readValue(
                        &reader, field, "\(what)'s \"\(side == 0 ? "base" : "theirs")\"",
                        mayBeAbsent: side == 0 || mayBeAbsent(field)))
            }
            guard let base = sides[0], let theirs = sides[1] else {
                throw reader.json.error("\(what) must be {\"base\": …, \"theirs\": …}", at: start)
            }
            conflicts[field] = RecordedConflict(field: field, base: base, theirs: theirs)
        }
        guard !conflicts.isEmpty else { throw reader.json.error("\(owner) names no field; leave it out") }
        return conflicts
    }

    /// Whether theirs may be absent: a line (a title) is never none.
    private static func mayBeAbsent(_ field: ConflictField) -> Bool { field.kind != .line }

    private static func readValue(_ reader: inout FileReader, _ field: ConflictField, _ what: String, mayBeAbsent: Bool)
        throws(KanbanError) -> FieldValue
    {
        reader.json.skipWhitespace()
        let start = reader.json.offset
        if try reader.json.readNullIfPresent() {
            guard mayBeAbsent else { throw reader.json.error("\(what) must not be null", at: start) }
            return .none(field.kind)
        }
        let value: FieldValue?
        let found: String
        if field.kind == .number {
            let number = try reader.json.readInteger(what)
            (value, found) = (.number(number), String(number))
        } else {
            let text = try reader.json.text(of: try reader.json.readString(what))
            (value, found) = (FieldValue(text, of: field.kind), text)
        }
        guard let value, isValid(value, mayBeAbsent: mayBeAbsent) else {
            throw reader.json.error("\(what) must be \(expected(field.kind)), found \(JSON.quoted(found))", at: start)
        }
        return value
    }

    /// Whether `value` is a value a conflict may record (none only where `mayBeAbsent`).
    private static func isValid(_ value: FieldValue, mayBeAbsent: Bool) -> Bool {
        if value.isNone { return mayBeAbsent }
        switch value {
        case .line(let text?): return !text.isBlank
        case .text(let text?): return Note.problem(with: text) == nil
        case .day: return true
        case .number(let number?): return number >= 0
        case .role(_?): return true
        default: return false
        }
    }

    private static func expected(_ kind: FieldValue.Kind) -> String {
        switch kind {
        case .line: "a title that is not blank"
        case .text: "a note within its rules"
        case .day: "a date, YYYY-MM-DD"
        case .number: "a limit, 0 or more"
        case .role: BoardRole.expected
        case .words, .time, .trail: "a value of its field"
        }
    }

    private static func appendValue(_ value: FieldValue, to out: inout ChunkWriter) throws {
        switch value {
        case .line(let text?), .text(let text?): try out.appendQuoted(text)
        case .role(let role?): try out.appendQuoted(role.rawValue)
        case .day(let day?): try out.appendQuoted(day)
        case .number(let number?): try out.append(String(number))
        default: try out.append(literal: "null")
        }
    }
}

extension FieldValue {
    /// A value of `kind` read from a string in a recorded conflict; `nil` if it is not one.
    fileprivate init?(_ text: String, of kind: Kind) {
        switch kind {
        case .line: self = .line(text)
        case .text: self = .text(text)
        case .day:
            guard let day = Day(iso: text) else { return nil }
            self = .day(day)
        case .role:
            guard let role = BoardRole(rawValue: text) else { return nil }
            self = .role(role)
        case .words, .time, .number, .trail: return nil
        }
    }
}

/// A conflict's value for Codable: a string, a whole number or `null`; the field says
/// what a string is (a date for `due`).
private struct CodableConflictValue: Codable {
    var text: String?
    var number: Int?

    init(value: FieldValue) {
        switch value {
        case .number(let number): self.number = number
        default: text = value.plain
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { return }
        if let number = try? container.decode(Int.self) {
            self.number = number
        } else {
            text = try container.decode(String.self)
        }
    }

    /// The value, if it is one of `kind`.
    func value(of kind: FieldValue.Kind) -> FieldValue? {
        if let number { return kind == .number ? .number(number) : nil }
        guard let text else { return .none(kind) }
        return FieldValue(text, of: kind)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let number {
            try container.encode(number)
        } else if let text {
            try container.encode(text)
        } else {
            try container.encodeNil()
        }
    }
}
