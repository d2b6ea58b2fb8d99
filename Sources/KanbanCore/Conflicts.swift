// Recorded conflicts (README: Working together, "What conflicts, and how to resolve it"):
// a field that a merge found changed on both sides to different values keeps ours as its
// value and records what the base and theirs had, in the card's (or board's)
// `"conflict": {"FIELD": {"base": V, "theirs": V}, …}`, so that committing the merged
// file loses nothing.

/// A field that can hold a recorded conflict. The cases are in the order of their names,
/// which is the order of the keys in the file.
public enum ConflictField: String, CaseIterable, Comparable, Hashable, Sendable {
    case due
    case limit
    case note
    case title

    /// The fields a card's conflicts may name.
    public static let card: [ConflictField] = [.due, .note, .title]
    /// The fields a board's conflicts may name.
    public static let board: [ConflictField] = [.limit, .title]

    public static func < (lhs: ConflictField, rhs: ConflictField) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A value of a conflicted field: a title or a note, a due date, or a limit.
public enum ConflictValue: Hashable, Sendable, CustomStringConvertible {
    case text(String)
    case day(Day)
    case number(Int)

    public var description: String {
        switch self {
        case .text(let text): text
        case .day(let day): day.description
        case .number(let number): String(number)
        }
    }

    var text: String? { if case .text(let text) = self { text } else { nil } }
    var day: Day? { if case .day(let day) = self { day } else { nil } }
    var number: Int? { if case .number(let number) = self { number } else { nil } }
}

/// One recorded conflict: the field, and what the base and theirs had (`nil`: absent).
/// Ours is the field's value.
public struct RecordedConflict: Hashable, Sendable {
    public var field: ConflictField
    public var base: ConflictValue?
    public var theirs: ConflictValue?

    public init(field: ConflictField, base: ConflictValue?, theirs: ConflictValue?) {
        self.field = field
        self.base = base
        self.theirs = theirs
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

    public func makeIterator() -> IndexingIterator<[RecordedConflict]> { entries.makeIterator() }
}

// MARK: - The values of an item's and a board's fields

extension Item {
    /// The value of a field that can hold a conflict, as a conflict records it.
    public func conflictValue(_ field: ConflictField) -> ConflictValue? {
        switch field {
        case .title: .text(title)
        case .note: note.map(ConflictValue.text)
        case .due: due.map(ConflictValue.day)
        case .limit: nil
        }
    }

    /// Sets a field to a value a conflict recorded.
    public mutating func setConflictValue(_ value: ConflictValue?, of field: ConflictField) {
        switch field {
        case .title: if let text = value?.text { title = text }
        case .note: note = value?.text
        case .due: due = value?.day
        case .limit: break
        }
    }
}

extension Board {
    /// The value of a field that can hold a conflict, as a conflict records it.
    public func conflictValue(_ field: ConflictField) -> ConflictValue? {
        switch field {
        case .title: .text(title)
        case .limit: limit.map(ConflictValue.number)
        case .note, .due: nil
        }
    }

    /// Sets a field to a value a conflict recorded.
    public mutating func setConflictValue(_ value: ConflictValue?, of field: ConflictField) {
        switch field {
        case .title: if let text = value?.text { title = text }
        case .limit: limit = value?.number
        case .note, .due: break
        }
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
                        case let base = sides["base"]!.value(of: field), isValid(base, field, mayBeAbsent: true),
                        case let theirs = sides["theirs"]!.value(of: field),
                        isValid(theirs, field, mayBeAbsent: field != .title)
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
            var sides: [ConflictValue??] = [nil, nil]
            while let sideKey = try reader.json.nextKey(first: &inner) {
                let side = reader.json.string(sideKey, is: "base") ? 0 : reader.json.string(sideKey, is: "theirs") ? 1 : -1
                guard side >= 0, sides[side] == nil else {
                    throw reader.json.error("\(what) must be {\"base\": …, \"theirs\": …}", at: sideKey.offset)
                }
                sides[side] = .some(
                    try readValue(
                        &reader, field, "\(what)'s \"\(side == 0 ? "base" : "theirs")\"",
                        mayBeAbsent: side == 0 || field != .title))
            }
            guard let base = sides[0], let theirs = sides[1] else {
                throw reader.json.error("\(what) must be {\"base\": …, \"theirs\": …}", at: start)
            }
            conflicts[field] = RecordedConflict(field: field, base: base, theirs: theirs)
        }
        guard !conflicts.isEmpty else { throw reader.json.error("\(owner) names no field; leave it out") }
        return conflicts
    }

    private static func readValue(_ reader: inout FileReader, _ field: ConflictField, _ what: String, mayBeAbsent: Bool)
        throws(KanbanError) -> ConflictValue?
    {
        reader.json.skipWhitespace()
        let start = reader.json.offset
        if try reader.json.readNullIfPresent() {
            guard mayBeAbsent else { throw reader.json.error("\(what) must not be null", at: start) }
            return nil
        }
        let value: ConflictValue
        if field == .limit {
            value = .number(try reader.json.readInteger(what))
        } else {
            let text = try reader.json.text(of: try reader.json.readString(what))
            value = field == .due ? (Day(iso: text).map(ConflictValue.day) ?? .text(text)) : .text(text)
        }
        guard isValid(value, field, mayBeAbsent: mayBeAbsent) else {
            throw reader.json.error("\(what) must be \(expected(field)), found \(JSON.quoted(value.description))", at: start)
        }
        return value
    }

    /// Whether `value` is a value of `field` (`nil`, absent, only where `mayBeAbsent`).
    private static func isValid(_ value: ConflictValue?, _ field: ConflictField, mayBeAbsent: Bool) -> Bool {
        guard let value else { return mayBeAbsent }
        switch (field, value) {
        case (.title, .text(let text)): return !text.isBlank
        case (.note, .text(let text)): return Note.problem(with: text) == nil
        case (.due, .day): return true
        case (.limit, .number(let number)): return number >= 0
        default: return false
        }
    }

    private static func expected(_ field: ConflictField) -> String {
        switch field {
        case .title: "a title that is not blank"
        case .note: "a note within its rules"
        case .due: "a date, YYYY-MM-DD"
        case .limit: "a limit, 0 or more"
        }
    }

    private static func appendValue(_ value: ConflictValue?, to out: inout ChunkWriter) throws {
        switch value {
        case nil: try out.append(literal: "null")
        case .text(let text): try out.appendQuoted(text)
        case .day(let day): try out.appendQuoted(day)
        case .number(let number): try out.append(String(number))
        }
    }
}

/// A conflict's value for Codable: a string, a whole number or `null`; the field says
/// what a string is (a date for `due`).
private struct CodableConflictValue: Codable {
    var text: String?
    var number: Int?

    init(value: ConflictValue?) {
        switch value {
        case nil: break
        case .text(let text): self.text = text
        case .day(let day): text = day.description
        case .number(let number): self.number = number
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

    func value(of field: ConflictField) -> ConflictValue? {
        if let number { return .number(number) }
        guard let text else { return nil }
        return field == .due ? (Day(iso: text).map(ConflictValue.day) ?? .text(text)) : .text(text)
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
