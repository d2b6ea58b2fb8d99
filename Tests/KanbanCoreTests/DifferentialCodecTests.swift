import Foundation
import Testing

@testable import KanbanCore

// `KanbanFile.decode` against Foundation: on thousands of generated documents (version 2
// with every optional key present and absent, version 1, the original app's format, and
// what JSONEncoder writes), written in every style JSON allows and then mutated byte by
// byte, our reader must accept exactly what Foundation's JSONDecoder accepts for the schema
// (through the Codable conformances for version 2, which refuse what the schema refuses, and
// through the Decodable types below for the older formats), decode it to the same kanban,
// and refuse the rest with a line number. Foundation's parser is laxer than RFC 8259 in two ways: it takes
// trailing commas, and keeps the first of two equal keys. Our reader refuses both, so the
// oracle is "a strict RFC 8259 parser says valid, with no duplicate keys, and Foundation
// decodes it".

// MARK: - A strict JSON recognizer, the other half of the oracle

/// RFC 8259, strictly, after an optional UTF-8 byte order mark.
enum StrictJSON {
    enum Verdict: Equatable {
        case valid, invalid, duplicateKeys
    }

    static func check(_ bytes: [UInt8]) -> Verdict {
        var input = bytes[...]
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = input.dropFirst(3) }
        guard String(validating: input, as: UTF8.self) != nil else { return .invalid }
        var parser = Parser(bytes: Array(input))
        do {
            parser.whitespace()
            try parser.value(depth: 0)
            parser.whitespace()
            guard parser.index == parser.bytes.count else { return .invalid }
            return parser.duplicate ? .duplicateKeys : .valid
        } catch {
            return .invalid
        }
    }

    private struct Invalid: Error {}

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var duplicate = false

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func whitespace() {
            while let byte = peek, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws {
            guard peek == byte else { throw Invalid() }
            index += 1
        }

        mutating func value(depth: Int) throws {
            guard depth < 200 else { throw Invalid() }
            switch peek {
            case UInt8(ascii: "{"):
                index += 1
                whitespace()
                var keys = Set<[UInt8]>()
                if peek == UInt8(ascii: "}") {
                    index += 1
                    return
                }
                while true {
                    whitespace()
                    let key = try string()
                    if !keys.insert(key).inserted { duplicate = true }
                    whitespace()
                    try expect(UInt8(ascii: ":"))
                    whitespace()
                    try value(depth: depth + 1)
                    whitespace()
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    try expect(UInt8(ascii: "}"))
                    return
                }
            case UInt8(ascii: "["):
                index += 1
                whitespace()
                if peek == UInt8(ascii: "]") {
                    index += 1
                    return
                }
                while true {
                    whitespace()
                    try value(depth: depth + 1)
                    whitespace()
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    try expect(UInt8(ascii: "]"))
                    return
                }
            case UInt8(ascii: "\""):
                _ = try string(decoding: false)
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: try number()
            }
        }

        mutating func literal(_ text: String) throws {
            for byte in text.utf8 { try expect(byte) }
        }

        mutating func digits() -> Int {
            let start = index
            while let byte = peek, (0x30...0x39).contains(byte) { index += 1 }
            return index - start
        }

        mutating func number() throws {
            if peek == UInt8(ascii: "-") { index += 1 }
            if peek == UInt8(ascii: "0") {
                index += 1
            } else if digits() == 0 {
                throw Invalid()
            }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw Invalid() }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw Invalid() }
            }
        }

        /// A string, checked; for a key (`decoding`), its text as UTF-8, escapes decoded, to
        /// compare keys. Raw bytes are valid UTF-8 (`check` made sure); escapes must not leave
        /// a lone surrogate, which cannot be text (Foundation refuses them too).
        mutating func string(decoding: Bool = true) throws -> [UInt8] {
            try expect(UInt8(ascii: "\""))
            var out: [UInt8] = []
            while true {
                guard let byte = peek else { throw Invalid() }
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return out
                case UInt8(ascii: "\\"):
                    guard let escape = peek else { throw Invalid() }
                    index += 1
                    var scalar: UInt32
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(escape)
                    case UInt8(ascii: "b"): scalar = 8
                    case UInt8(ascii: "f"): scalar = 12
                    case UInt8(ascii: "n"): scalar = 10
                    case UInt8(ascii: "r"): scalar = 13
                    case UInt8(ascii: "t"): scalar = 9
                    case UInt8(ascii: "u"):
                        scalar = try hex4()
                        if (0xDC00...0xDFFF).contains(scalar) { throw Invalid() }
                        if (0xD800...0xDBFF).contains(scalar) {
                            try expect(UInt8(ascii: "\\"))
                            try expect(UInt8(ascii: "u"))
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw Invalid() }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                    default: throw Invalid()
                    }
                    if decoding { out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8) }
                case 0x00..<0x20:
                    throw Invalid()
                default:
                    if decoding { out.append(byte) }
                }
            }
        }

        /// Four hexadecimal digits.
        mutating func hex4() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek else { throw Invalid() }
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Invalid()
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}

// MARK: - The older formats, as Foundation sees them

/// Any key, to list the keys an object has.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Throws unless every key of the object `decoder` holds is one of `known`.
private func refuseUnknownKeys(_ decoder: any Decoder, known: Set<String>) throws {
    let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
    guard keys.allSatisfy(known.contains) else {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown key"))
    }
}

/// A version 1 document: `{"version": 1, "boards": [...]}`, boards without ids, cards of an
/// id and a title.
private struct Version1Document: Decodable {
    var boards: [Board]

    private struct Card: Decodable {
        var id: ItemID
        var title: String
        init(from decoder: any Decoder) throws {
            try refuseUnknownKeys(decoder, known: ["id", "title"])
            let container = try decoder.container(keyedBy: AnyKey.self)
            id = try container.decode(ItemID.self, forKey: AnyKey(stringValue: "id"))
            title = try container.decode(String.self, forKey: AnyKey(stringValue: "title"))
        }
    }

    private struct Column: Decodable {
        var board: Board
        init(from decoder: any Decoder) throws {
            try refuseUnknownKeys(decoder, known: ["title", "limit", "items"])
            let container = try decoder.container(keyedBy: AnyKey.self)
            let cards = try container.decode([Card].self, forKey: AnyKey(stringValue: "items"))
            // Board ids are derived from the file's bytes; here they come from the title.
            board = Board(
                title: try container.decode(String.self, forKey: AnyKey(stringValue: "title")),
                limit: try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "limit")),
                items: cards.map { Item(id: $0.id, title: $0.title) })
        }
    }

    init(from decoder: any Decoder) throws {
        try refuseUnknownKeys(decoder, known: ["version", "boards"])
        let container = try decoder.container(keyedBy: AnyKey.self)
        guard try container.decode(Int.self, forKey: AnyKey(stringValue: "version")) == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not version 1"))
        }
        boards = try container.decode([Column].self, forKey: AnyKey(stringValue: "boards")).map(\.board)
    }
}

/// The original app's `Board`, with the schema's rules: no unknown keys, no blank titles.
private struct LegacyBoard: Decodable {
    var title: String
    var items: [String]

    init(from decoder: any Decoder) throws {
        try refuseUnknownKeys(decoder, known: ["title", "items"])
        let container = try decoder.container(keyedBy: AnyKey.self)
        title = try container.decode(String.self, forKey: AnyKey(stringValue: "title"))
        items = try container.decode([String].self, forKey: AnyKey(stringValue: "items"))
        let blank = { (text: String) in text.unicodeScalars.allSatisfy(\.properties.isWhitespace) }
        guard !blank(title), !items.contains(where: blank) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "blank title"))
        }
    }
}

/// What Foundation makes of a document: a version 2 kanban, a version 1 kanban (board ids
/// from titles), the original app's boards, or nothing.
private enum FoundationView: Equatable {
    case current(Kanban)
    case version1(Kanban)
    case legacy([[String]])
    case refused

    init(_ bytes: [UInt8]) {
        let data = Data(bytes)
        if let kanban = try? JSONDecoder().decode(Kanban.self, from: data) {
            self = .current(kanban)
        } else if let document = try? JSONDecoder().decode(Version1Document.self, from: data),
            let kanban = try? Kanban(boards: document.boards)
        {
            self = .version1(kanban)
        } else if let boards = try? JSONDecoder().decode([LegacyBoard].self, from: data),
            Set(boards.map { $0.title.lowercased() }).count == boards.count
        {
            self = .legacy(boards.map { [$0.title] + $0.items })
        } else {
            self = .refused
        }
    }
}

// MARK: - Documents

/// Writes kanbans as JSON in any of the styles the grammar allows, and mutates them.
private struct DocumentWriter {
    var generator: SeededGenerator

    mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &generator) < percent
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &generator)]
    }

    static let titleParts = [
        "Fix", "login", "Ünïcode", "漢字", "👍🏽", "tab\there", "quote \"q\"", "back\\slash", "a/b", "\u{7F}del",
        "\u{1B}[31m", "nul\u{0}", "\u{85}next", "  padded  ", "\u{2028}", "é", "e\u{301}", "𝄞 clef", "100%",
    ]

    /// What a note may hold: any text but control characters other than tab and line feed.
    static let noteParts = [
        "Steps", "\n", "\n\n", "\t", " ", "\"quoted\"", "back\\slash", "a/b", "é", "e\u{301}", "日本語", "👍🏽",
        "🧑‍💻", "𝄞", "\u{2028}", "\u{A0}", "\u{FEFF}", "{\"json\": [1]}", "- [ ] todo",
    ]

    static let labelPool = [
        "bug", "Bug", "P1", "@alice", "ünï", "日本", "a-b_c", "x:y", String(repeating: "z", count: 32),
    ]

    mutating func title() -> String {
        let title = (0..<int(1...3)).map { _ in pick(Self.titleParts) }.joined(separator: " ")
        // A stored title may hold anything but only white space.
        return title.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? "x" + title : title
    }

    mutating func time() -> Timestamp {
        Timestamp(seconds: Int64(int(-62_167_219_200...253_402_300_799)))
    }

    mutating func item(id: ItemID) throws -> Item {
        var item = Item(
            id: id, title: title(),
            labels: try Labels(validating: (0..<(chance(40) ? int(1...3) : 0)).map { _ in pick(Self.labelPool) }),
            assignees: try Labels(validating: (0..<(chance(30) ? int(1...2) : 0)).map { _ in pick(Self.labelPool) }),
            due: chance(40) ? Day(daysSinceEpoch: int(-719_528...2_932_896)) : nil,
            created: chance(50) ? time() : nil, entered: chance(50) ? time() : nil,
            note: chance(40) ? (0..<int(0...6)).map { _ in pick(Self.noteParts) }.joined() : nil)
        if chance(30) { item.conflicts = sampleConflicts(ConflictField.card, using: &generator) }
        return item
    }

    /// A `"conflict"` object: its fields in the order of their names (the file's rule),
    /// each `{"base": …, "theirs": …}` in that order, in any spacing.
    mutating func conflicts(_ conflicts: Conflicts) -> String {
        func value(_ value: FieldValue) -> String {
            switch value {
            case .line(let text?), .text(let text?): string(text)
            case .day(let day?): string(day.description)
            case .number(let number?): self.number(number)
            default: "null"
            }
        }
        let fields = conflicts.entries.map { entry in
            space() + string(entry.field.rawValue) + space() + ":" + space() + "{" + space() + string("base") + ":"
                + value(entry.base) + "," + space() + string("theirs") + space() + ":" + value(entry.theirs) + space()
                + "}"
        }
        return "{" + fields.joined(separator: ",") + space() + "}"
    }

    mutating func kanban() throws -> Kanban {
        var ids = try Kanban(boards: []).newIDs(count: 24, using: &generator)[...]
        var boards: [Board] = []
        for index in 0..<int(0...3) {
            boards.append(
                Board(
                    id: ids.popFirst()!, title: "\(pick(["Todo", "Doing", "Done ✓", "Q3: plans"])) \(index)",
                    limit: chance(40) ? int(0...5) : nil,
                    items: try (0..<int(0...4)).map { _ in try item(id: ids.popFirst()!) }))
            if chance(30) { boards[index].conflicts = sampleConflicts(ConflictField.board, using: &generator) }
        }
        let archive = try (0..<(chance(50) ? int(1...3) : 0)).map { _ in
            ArchivedItem(
                item: try item(id: ids.popFirst()!),
                board: boards.isEmpty || chance(25) ? ids.popFirst()! : pick(boards).id, archived: time())
        }
        return try Kanban(boards: boards, archive: archive)
    }

    mutating func space() -> String {
        chance(50) ? "" : pick([" ", "\n", "\t", "\r\n", "  \n    "])
    }

    mutating func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where chance(50): out += "\\/"
            case "\n": out += pick(["\\n", "\\u000a", "\\u000A"])
            case "\t": out += pick(["\\t", "\\u0009"])
            case _ where scalar.value < 0x20: out += "\\u" + hex(scalar.value, 4)
            case _ where scalar.value > 0xFFFF && chance(50):
                let value = scalar.value - 0x10000
                out += "\\u" + hex(0xD800 + (value >> 10), 4) + "\\u" + hex(0xDC00 + (value & 0x3FF), 4)
            case _ where chance(15): out += "\\u" + hex(scalar.value <= 0xFFFF ? scalar.value : 0x3F, 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    func hex(_ value: UInt32, _ width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    mutating func number(_ value: Int) -> String {
        pick([
            "\(value)", "\(value).0", "\(value)e0", "\(value * 10)E-1", value == 0 ? "-0" : "\(value)", "\(value).000",
        ])
    }

    /// An instant as RFC 3339 allows it: in UTC or at an offset, with or without a fraction
    /// of a second, `T`/`Z` in either case.
    mutating func time(_ time: Timestamp) -> String {
        var offset = 0
        let year = time.utcDay.components.year
        if (1...9998).contains(year) && chance(40) { offset = int(-48...56) * 15 * 60 }
        var text = String(Timestamp(seconds: time.seconds + Int64(offset)).description.dropLast())
        if chance(20) { text = text.replacing("T", with: pick(["t", " "])) }
        if chance(25) { text += pick([".0", ".5", ".999999999", ".123"]) }
        if offset == 0 {
            text += pick(["Z", "Z", "z", "+00:00", "-00:00"])
        } else {
            let minutes = abs(offset) / 60
            let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
            text += (offset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
        }
        return string(text)
    }

    /// A JSON object with `members` in a random order.
    mutating func object(_ members: [(String, String)]) -> String {
        var members = members
        members.shuffle(using: &generator)
        let body = members.map { key, value in space() + string(key) + space() + ":" + space() + value + space() }
        return "{" + body.joined(separator: ",") + (members.isEmpty ? space() : "") + "}"
    }

    mutating func array(_ elements: [String]) -> String {
        "[" + elements.map { space() + $0 + space() }.joined(separator: ",") + (elements.isEmpty ? space() : "") + "]"
    }

    /// A card's members: `id` and `title`, then every field it has (an empty label list
    /// sometimes written as `[]`).
    mutating func members(_ item: Item) -> [(String, String)] {
        var members = [("id", string(item.id.rawValue)), ("title", string(item.title))]
        if !item.labels.isEmpty || chance(20) {
            var labels = item.labels.names
            if labels.count > 1 && chance(50) { labels.shuffle(using: &generator) }
            members.append(("labels", array(labels.map { string($0) })))
        }
        if !item.assignees.isEmpty || chance(10) {
            var names = item.assignees.names
            if names.count > 1 && chance(50) { names.shuffle(using: &generator) }
            members.append(("assignees", array(names.map { string($0) })))
        }
        if let due = item.due { members.append(("due", string(due.description))) }
        if let created = item.created { members.append(("created", time(created))) }
        if let entered = item.entered { members.append(("entered", time(entered))) }
        if let note = item.note { members.append(("note", string(note))) }
        if !item.conflicts.isEmpty { members.append(("conflict", conflicts(item.conflicts))) }
        return members
    }

    mutating func limit(_ board: Board, into members: inout [(String, String)]) {
        if let limit = board.limit {
            members.append(("limit", number(limit)))
        } else if chance(50) {
            members.append(("limit", "null"))
        }
    }

    mutating func document(_ kanban: Kanban) -> [UInt8] {
        var boards: [String] = []
        for board in kanban.boards {
            var items: [String] = []
            for item in board.items { items.append(object(members(item))) }
            var fields = [("id", string(board.id.rawValue)), ("title", string(board.title)), ("items", array(items))]
            limit(board, into: &fields)
            if !board.conflicts.isEmpty { fields.append(("conflict", conflicts(board.conflicts))) }
            boards.append(object(fields))
        }
        var document = [("version", number(2)), ("boards", array(boards))]
        if !kanban.archive.isEmpty || chance(50) {
            var archive: [String] = []
            for archived in kanban.archive {
                archive.append(
                    object(
                        members(archived.item) + [
                            ("board", string(archived.board.rawValue)), ("archived", time(archived.archived)),
                        ]))
            }
            document.append(("archive", array(archive)))
        }
        let text = space() + object(document) + space()
        return (chance(5) ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
    }

    /// The kanban as a version 1 file held it: boards without ids, cards without fields,
    /// no archive.
    mutating func version1Document(_ kanban: Kanban) -> [UInt8] {
        var boards: [String] = []
        for board in kanban.boards {
            let items = board.items.map { object([("id", string($0.id.rawValue)), ("title", string($0.title))]) }
            var fields = [("title", string(board.title)), ("items", array(items))]
            limit(board, into: &fields)
            boards.append(object(fields))
        }
        let text = space() + object([("version", number(1)), ("boards", array(boards))]) + space()
        return (chance(5) ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
    }

    mutating func legacyDocument(_ kanban: Kanban) -> [UInt8] {
        let boards = kanban.boards.map { board in
            object([("title", string(board.title)), ("items", array(board.items.map { string($0.title) }))])
        }
        return Array((space() + array(boards) + space()).utf8)
    }

    /// What Foundation's encoder writes, in one of its styles.
    mutating func encoded(_ kanban: Kanban) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pick([[], [.prettyPrinted, .sortedKeys], [.withoutEscapingSlashes]])
        return Array(try encoder.encode(kanban))
    }

    static let interesting: [UInt8] =
        Array("{}[]\":,\\/0123456789-+.eEntrufalsbZT \n\t".utf8)
        + [0x00, 0x01, 0x1F, 0x7F, 0x80, 0xBF, 0xC2, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]

    static let replacements: [(String, String)] = [
        ("\"version\"", "\"versions\""), ("1", "2"), ("2", "1"), ("2", "3"),
        ("\"title\"", "\"title\", \"title\": \"x\""),
        ("\"id\"", "\"ID\""), ("\"items\"", "\"items\", \"extra\": [[[]]]"), (",", ",,"), ("]", ",]"), ("}", ",}"),
        ("\"limit\"", "\"limit\": -1, \"l\""), ("\\u", "\\u00"), ("\\u", "\\uD800\\u"), ("null", "nul"),
        ("\": ", "\": [\"x\"], \"y\": "), ("\"", "'"), ("true", "tru"), ("\"labels\"", "\"label\""),
        ("\"labels\": [", "\"labels\": [\"a b\", "), ("\"labels\": [", "\"labels\": [\"-x\", "),
        ("\"due\": \"", "\"due\": \"1"), ("-", "/"), ("Z\"", "\""), (":00", ":60"), ("T", "t"),
        ("\"note\": \"", "\"note\": \"\\u0007"), ("\"note\": \"", "\"note\": \"\\r\\n"),
        ("\"archive\"", "\"archives\""),
        ("\"base\"", "\"bass\""), ("\"theirs\": ", "\"theirs\": null, \"base\": "), ("\"title\": {", "\"titles\": {"),
        ("\"limit\": {", "\"note\": {"), ("{\"base\": ", "{\"base\": 7, \"x\": "),
        ("\"board\": \"", "\"board\": \" "), ("\"archived\"", "\"created\""), ("\"entered\"", "\"created\""),
        ("\"id\": \"", "\"board\": \"b\", \"id\": \""), ("\"title\": \"", "\"title\": \"   \", \"t\": \""),
    ]

    /// `bytes` with one to three random edits.
    mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<7, using: &generator) {
            case 0 where !bytes.isEmpty: bytes.remove(at: position)
            case 1: bytes.insert(pick(Self.interesting), at: position)
            case 2 where !bytes.isEmpty: bytes[position] = pick(Self.interesting)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...24, using: &generator))
                let slice = Array(bytes[position..<end])
                bytes.insert(contentsOf: slice, at: Int.random(in: 0...bytes.count, using: &generator))
            case 4, 5:
                let (from, to) = pick(Self.replacements)
                var text = String(decoding: bytes, as: UTF8.self)
                if String(validating: bytes, as: UTF8.self) != nil {
                    let ranges = text.ranges(of: from)
                    if !ranges.isEmpty {
                        text.replaceSubrange(pick(ranges), with: to)
                        bytes = Array(text.utf8)
                    }
                }
            default:
                if !bytes.isEmpty { bytes.removeLast(Int.random(in: 0...min(8, bytes.count), using: &generator)) }
            }
        }
        return bytes
    }
}

// MARK: - The differential test

@Suite struct DifferentialCodec {
    struct Tally {
        var accepted = 0
        var refused = 0
        var formats: [KanbanFile.Format: Int] = [:]
        /// The first refusal, to say what went wrong when none was expected.
        var firstRefusal: String?
    }

    /// The kanban with board ids given as ``Version1Document`` gives them.
    private func withTitleBoardIDs(_ kanban: Kanban) -> Kanban {
        Kanban(
            trusted: kanban.boards.map { Board(title: $0.title, limit: $0.limit, items: $0.items) },
            archive: kanban.archive)
    }

    /// Checks one document and counts it.
    private func check(_ bytes: [UInt8], _ tally: inout Tally, sourceLocation: SourceLocation = #_sourceLocation) {
        let strict = StrictJSON.check(bytes)
        let foundation = FoundationView(bytes)
        let expected: FoundationView = strict == .valid ? foundation : .refused
        let text = { String(decoding: bytes, as: UTF8.self) }
        switch Result(catching: { () throws(KanbanError) in try KanbanFile.decode(bytes) }) {
        case .success(let (kanban, format)):
            tally.accepted += 1
            tally.formats[format, default: 0] += 1
            switch (expected, format) {
            case (.current(let other), .current):
                if kanban != other {
                    Issue.record("read otherwise than Foundation:\n\(text())", sourceLocation: sourceLocation)
                }
            case (.version1(let other), .version1):
                if withTitleBoardIDs(kanban) != other {
                    Issue.record("read otherwise than Foundation:\n\(text())", sourceLocation: sourceLocation)
                }
            case (.legacy(let boards), .legacy):
                expectTrue(
                    kanban.boards.map { [$0.title] + $0.items.map(\.title) } == boards, "\(text())",
                    sourceLocation: sourceLocation)
            default:
                Issue.record(
                    "accepted a document Foundation (strict: \(strict)) refuses or reads otherwise: \(expected)\n\(text())",
                    sourceLocation: sourceLocation)
            }
        case .failure(let error):
            tally.refused += 1
            if tally.firstRefusal == nil { tally.firstRefusal = "\(error)\n\(text())" }
            if expected != .refused {
                Issue.record("refused \(error) but Foundation reads it:\n\(text())", sourceLocation: sourceLocation)
            }
            switch error {
            case .corruptFile(let line, let message):
                let lines = bytes.count(where: { $0 == UInt8(ascii: "\n") }) + 1
                expectTrue(
                    (1...lines).contains(line), "line \(line) of \(lines): \(message)", sourceLocation: sourceLocation)
                expectTrue(!message.isEmpty, sourceLocation: sourceLocation)
            case .unsupportedVersion(let version):
                expectTrue(version > KanbanFile.version, sourceLocation: sourceLocation)
            default:
                Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: 0..<8)
    func agreesWithFoundationOnGeneratedAndMutatedDocuments(batch: UInt64) throws {
        var writer = DocumentWriter(generator: SeededGenerator(seed: 0xD1FF + batch))
        var tally = Tally()
        var mutants = Tally()
        // `.ci/reliability` runs more (README: Reliability).
        let rounds = CaseCount.size("KANBAN_CODEC_ROUNDS", default: 8)
        for _ in 0..<rounds {
            let kanban = try writer.kanban()
            let documents = [
                writer.document(kanban), writer.document(kanban), writer.version1Document(kanban),
                writer.legacyDocument(kanban), KanbanFile.encode(kanban), try writer.encoded(kanban),
            ]
            for document in documents {
                check(document, &tally)
                for _ in 0..<4 {
                    check(writer.mutate(document), &mutants)
                }
            }
            try expectEqual(KanbanFile.decode(KanbanFile.encode(kanban)).kanban, kanban)
        }
        // Every well-formed document is read, in its format; the mutants cover both outcomes.
        expectEqual(tally.refused, 0, "\(tally.firstRefusal ?? "")")
        expectTrue(
            tally.formats[.current] == rounds * 4 && tally.formats[.version1] == rounds
                && tally.formats[.legacy] == rounds)
        expectTrue(
            mutants.accepted > rounds * 2 && mutants.refused > rounds * 8,
            "accepted \(mutants.accepted), refused \(mutants.refused)")
        expectEqual(mutants.formats.count, 3, "\(mutants.formats)")
    }

    /// Foundation's view of the three formats, on documents written out by hand.
    @Test func theOracleReadsEachFormat() throws {
        let current =
            #"{"version": 2, "boards": [{"id": "b1", "title": "T", "items": [{"id": "a1", "title": "x", "labels": ["bug"]}]}], "archive": []}"#
        guard case .current(let kanban) = FoundationView(Array(current.utf8)) else {
            Issue.record("version 2 not read")
            return
        }
        expectEqual(kanban.boards[0].items[0].labels, ["bug"])
        let old = #"{"version": 1, "boards": [{"title": "T", "limit": 2, "items": [{"id": "a1", "title": "x"}]}]}"#
        expectTrue(
            FoundationView(Array(old.utf8))
                == .version1(try makeKanban([["a1"]], titles: ["T"], limits: [2], itemTitles: ["a1": "x"])))
        expectEqual(FoundationView(Array(#"[{"title": "T", "items": ["x"]}]"#.utf8)), .legacy([["T", "x"]]))
        for refused in [
            #"{"version": 1, "boards": [{"title": "T", "items": [{"id": "a1", "title": "x", "note": "n"}]}]}"#,
            #"{"version": 1, "boards": [{"id": "b1", "title": "T", "items": []}]}"#,
            #"{"version": 1, "boards": [], "archive": []}"#,
            #"{"version": 3, "boards": []}"#,
            #"{"version": 2, "boards": [{"title": "T", "items": []}]}"#,
        ] {
            expectEqual(FoundationView(Array(refused.utf8)), .refused, "\(refused)")
            #expect(throws: KanbanError.self) { try KanbanFile.decode(Array(refused.utf8)) }
        }
    }

    @Test(arguments: [
        "{\"version\": 2, \"boards\": [],}",  // trailing comma: Foundation takes it, RFC 8259 does not
        "{\"version\": 2, \"boards\": [], \"boards\": []}",  // duplicate key: Foundation keeps the first
        "{\"version\": 2, \"boards\": [{\"id\": \"b\", \"title\": \"A\", \"items\": [],}]}",
        "{\"version\": 2, \"boards\": [{\"id\": \"b\", \"title\": \"A\", \"items\": [{\"id\": \"a\", \"title\": \"x\", \"labels\": [\"y\",]}]}]}",
        "{\"version\": 2, \"boards\": [{\"id\": \"b\", \"title\": \"A\", \"items\": [{\"id\": \"a\", \"title\": \"x\", \"note\": \"1\", \"note\": \"2\"}]}]}",
        "{\"version\": 1, \"boards\": [{\"title\": \"A\", \"items\": [],}]}",
        "[{\"title\": \"A\", \"items\": [\"x\",]}]",
        // A key read out of order first, then again where this build writes it (found by the
        // generated documents): a repeat all the same.
        "{\"version\": 2, \"boards\": [], \"archive\": [{\"board\": \"b\", \"id\": \"a1\", \"title\": \"x\", "
            + "\"board\": \"c\", \"archived\": \"2026-01-01T00:00:00Z\"}]}",
        "{\"version\": 2, \"boards\": [{\"id\": \"b\", \"title\": \"A\", \"items\": [{\"due\": \"2026-01-01\", "
            + "\"id\": \"a\", \"title\": \"x\", \"due\": \"2026-01-02\"}]}]}",
    ])
    func refusesWhatOnlyALaxParserTakes(_ document: String) {
        let bytes = Array(document.utf8)
        expectTrue(StrictJSON.check(bytes) != .valid)
        #expect(throws: KanbanError.self) { try KanbanFile.decode(bytes) }
    }

    @Test func theStrictParserTellsValidFromInvalid() {
        expectEqual(StrictJSON.check(Array("{\"a\": [1, 2.5e3, -0, true, null, \"\\ud83d\\ude00\"]}".utf8)), .valid)
        expectEqual(StrictJSON.check(Array("{\"a\": 1, \"a\": 2}".utf8)), .duplicateKeys)
        for invalid in ["{\"a\": 01}", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "[\"\u{1}\"]", "[1.]", "tru", "{}x", ""] {
            expectEqual(StrictJSON.check(Array(invalid.utf8)), .invalid, "\(invalid)")
        }
    }
}
