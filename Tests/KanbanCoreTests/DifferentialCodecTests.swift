import Foundation
import Testing

@testable import KanbanCore

// `KanbanFile.decode` against Foundation: on thousands of generated documents, written in
// every style JSON allows and then mutated byte by byte, our reader must accept exactly
// what Foundation's JSONDecoder accepts for the schema (through the Codable conformances,
// which refuse what the schema refuses), decode it to the same kanban, and refuse the rest
// with a line number. Foundation's parser is laxer than RFC 8259 in two ways: it takes
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
                _ = try string()
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

        /// A string's decoded UTF-16 code units as bytes, to compare keys.
        mutating func string() throws -> [UInt8] {
            try expect(UInt8(ascii: "\""))
            var units: [UInt16] = []
            var raw: [UInt8] = []
            func flush() {
                units.append(contentsOf: String(decoding: raw, as: UTF8.self).utf16)
                raw.removeAll()
            }
            while true {
                guard let byte = peek else { throw Invalid() }
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    // Lone surrogates cannot be text; Foundation refuses them too.
                    guard String(utf16CodeUnits: units, count: units.count).utf16.elementsEqual(units),
                        !hasLoneSurrogate(units)
                    else { throw Invalid() }
                    return units.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
                case UInt8(ascii: "\\"):
                    flush()
                    guard let escape = peek else { throw Invalid() }
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): units.append(UInt16(escape))
                    case UInt8(ascii: "b"): units.append(8)
                    case UInt8(ascii: "f"): units.append(12)
                    case UInt8(ascii: "n"): units.append(10)
                    case UInt8(ascii: "r"): units.append(13)
                    case UInt8(ascii: "t"): units.append(9)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                            let value = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                            bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
                        else { throw Invalid() }
                        index += 4
                        units.append(value)
                    default: throw Invalid()
                    }
                case 0x00..<0x20:
                    throw Invalid()
                default:
                    raw.append(byte)
                }
            }
        }

        func hasLoneSurrogate(_ units: [UInt16]) -> Bool {
            var index = 0
            while index < units.count {
                let unit = units[index]
                if (0xD800...0xDBFF).contains(unit) {
                    guard index + 1 < units.count, (0xDC00...0xDFFF).contains(units[index + 1]) else { return true }
                    index += 2
                } else if (0xDC00...0xDFFF).contains(unit) {
                    return true
                } else {
                    index += 1
                }
            }
            return false
        }
    }
}

// MARK: - The original app's format, as Foundation sees it

/// The original app's `Board`, with the schema's rules: no unknown keys, no blank titles.
private struct LegacyBoard: Decodable {
    var title: String
    var items: [String]

    private enum CodingKeys: String, CodingKey { case title, items }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        guard keys.allSatisfy(["title", "items"].contains) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown key"))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        items = try container.decode([String].self, forKey: .items)
        let blank = { (text: String) in text.unicodeScalars.allSatisfy(\.properties.isWhitespace) }
        guard !blank(title), !items.contains(where: blank) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "blank title"))
        }
    }
}

/// What Foundation makes of a document: a kanban, the original app's boards, or nothing.
private enum FoundationView: Equatable {
    case current(Kanban)
    case legacy([[String]])
    case refused

    init(_ bytes: [UInt8]) {
        let data = Data(bytes)
        if let kanban = try? JSONDecoder().decode(Kanban.self, from: data) {
            self = .current(kanban)
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

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &generator)]
    }

    static let titleParts = [
        "Fix", "login", "Ünïcode", "漢字", "👍🏽", "tab\there", "quote \"q\"", "back\\slash", "a/b", "\u{7F}del",
        "\u{1B}[31m", "nul\u{0}", "\u{85}next", "  padded  ", "\u{2028}", "é", "e\u{301}", "𝄞 clef", "100%",
    ]

    mutating func title() -> String {
        let title = (0..<Int.random(in: 1...3, using: &generator)).map { _ in pick(Self.titleParts) }
            .joined(separator: " ")
        // A stored title may hold anything but only white space.
        return title.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? "x" + title : title
    }

    mutating func kanban() throws -> Kanban {
        let boardCount = Int.random(in: 0...3, using: &generator)
        var ids = try Kanban(boards: []).newIDs(count: 12, using: &generator)[...]
        let boards = (0..<boardCount).map { index in
            Board(
                title: "\(pick(["Todo", "Doing", "Done ✓", "Q3: plans"])) \(index)",
                limit: chance(40) ? Int.random(in: 0...5, using: &generator) : nil,
                items: (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    Item(id: ids.popFirst()!, title: title())
                })
        }
        return try Kanban(boards: boards)
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

    mutating func document(_ kanban: Kanban) -> [UInt8] {
        var boards: [String] = []
        for board in kanban.boards {
            var items: [String] = []
            for item in board.items {
                items.append(object([("id", string(item.id.rawValue)), ("title", string(item.title))]))
            }
            var members = [("title", string(board.title)), ("items", array(items))]
            if let limit = board.limit {
                members.append(("limit", number(limit)))
            } else if chance(50) {
                members.append(("limit", "null"))
            }
            boards.append(object(members))
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

    static let interesting: [UInt8] =
        Array("{}[]\":,\\/0123456789-+.eEntrufalsb \n\t".utf8)
        + [0x00, 0x01, 0x1F, 0x7F, 0x80, 0xBF, 0xC2, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]

    static let replacements: [(String, String)] = [
        ("\"version\"", "\"versions\""), ("1", "2"), ("\"title\"", "\"title\", \"title\": \"x\""),
        ("\"id\"", "\"ID\""), ("\"items\"", "\"items\", \"extra\": [[[]]]"), (",", ",,"), ("]", ",]"), ("}", ",}"),
        ("\"limit\"", "\"limit\": -1, \"l\""), ("\\u", "\\u00"), ("\\u", "\\uD800\\u"), ("null", "nul"),
        ("\": ", "\": [\"x\"], \"y\": "), ("\"", "'"), ("true", "tru"),
    ]

    /// `bytes` with one to three random edits.
    mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0 where !bytes.isEmpty: bytes.remove(at: position)
            case 1: bytes.insert(pick(Self.interesting), at: position)
            case 2 where !bytes.isEmpty: bytes[position] = pick(Self.interesting)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...24, using: &generator))
                let slice = Array(bytes[position..<end])
                bytes.insert(contentsOf: slice, at: Int.random(in: 0...bytes.count, using: &generator))
            case 4:
                let (from, to) = pick(Self.replacements)
                var text = String(decoding: bytes, as: UTF8.self)
                if String(validating: bytes, as: UTF8.self) != nil, let range = text.range(of: from) {
                    text.replaceSubrange(range, with: to)
                    bytes = Array(text.utf8)
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
    }

    /// Checks one document and counts it.
    private func check(_ bytes: [UInt8], _ tally: inout Tally, sourceLocation: SourceLocation = #_sourceLocation) {
        let strict = StrictJSON.check(bytes)
        let foundation = FoundationView(bytes)
        let expected: FoundationView = strict == .valid ? foundation : .refused
        let text = String(decoding: bytes, as: UTF8.self)
        switch Result(catching: { () throws(KanbanError) in try KanbanFile.decode(bytes) }) {
        case .success(let (kanban, format)):
            tally.accepted += 1
            switch (expected, format) {
            case (.current(let other), .current):
                #expect(kanban == other, "\(text)", sourceLocation: sourceLocation)
            case (.legacy(let boards), .legacy):
                #expect(
                    kanban.boards.map { [$0.title] + $0.items.map(\.title) } == boards, "\(text)",
                    sourceLocation: sourceLocation)
            default:
                Issue.record(
                    "accepted a document Foundation (strict: \(strict)) refuses or reads otherwise: \(expected)\n\(text)",
                    sourceLocation: sourceLocation)
            }
        case .failure(let error):
            tally.refused += 1
            #expect(
                expected == .refused, "refused \(error) but Foundation reads it:\n\(text)",
                sourceLocation: sourceLocation)
            switch error {
            case .corruptFile(let line, let message):
                let lines = bytes.count(where: { $0 == UInt8(ascii: "\n") }) + 1
                #expect(
                    (1...lines).contains(line), "line \(line) of \(lines): \(message)", sourceLocation: sourceLocation)
                #expect(!message.isEmpty, sourceLocation: sourceLocation)
            case .unsupportedVersion(let version):
                #expect(version > KanbanFile.version, sourceLocation: sourceLocation)
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
        for _ in 0..<60 {
            let kanban = try writer.kanban()
            let documents = [
                writer.document(kanban), writer.document(kanban), writer.legacyDocument(kanban),
                KanbanFile.encode(kanban),
            ]
            for document in documents {
                check(document, &tally)
                for _ in 0..<4 {
                    check(writer.mutate(document), &mutants)
                }
            }
            #expect(try KanbanFile.decode(KanbanFile.encode(kanban)).kanban == kanban)
        }
        // Every well-formed document is read; the mutants cover both outcomes.
        #expect(tally.refused == 0)
        #expect(
            mutants.accepted > 20 && mutants.refused > 200, "accepted \(mutants.accepted), refused \(mutants.refused)")
    }

    @Test(arguments: [
        "{\"version\": 1, \"boards\": [],}",  // trailing comma: Foundation takes it, RFC 8259 does not
        "{\"version\": 1, \"boards\": [], \"boards\": []}",  // duplicate key: Foundation keeps the first
        "{\"version\": 1, \"boards\": [{\"title\": \"A\", \"items\": [],}]}",
        "[{\"title\": \"A\", \"items\": [\"x\",]}]",
    ])
    func refusesWhatOnlyALaxParserTakes(_ document: String) {
        let bytes = Array(document.utf8)
        #expect(StrictJSON.check(bytes) != .valid)
        #expect(throws: KanbanError.self) { try KanbanFile.decode(bytes) }
    }

    @Test func theOracleItselfTellsValidFromInvalid() {
        #expect(StrictJSON.check(Array("{\"a\": [1, 2.5e3, -0, true, null, \"\\ud83d\\ude00\"]}".utf8)) == .valid)
        #expect(StrictJSON.check(Array("{\"a\": 1, \"a\": 2}".utf8)) == .duplicateKeys)
        for invalid in ["{\"a\": 01}", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "[\"\u{1}\"]", "[1.]", "tru", "{}x", ""] {
            #expect(StrictJSON.check(Array(invalid.utf8)) == .invalid, "\(invalid)")
        }
    }
}
