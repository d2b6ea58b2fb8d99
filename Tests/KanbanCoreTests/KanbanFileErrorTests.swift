import Testing

@testable import KanbanCore

/// A valid file with one line replaced (or removed), and where its error must be reported.
struct BrokenFile: Sendable, CustomTestStringConvertible {
    var name: String
    var lines: [Int: [UInt8]]
    var line: Int
    var fragment: String

    init(_ name: String, _ lines: [Int: String], line: Int, _ fragment: String) {
        self.init(name, bytes: lines.mapValues(\.bytes), line: line, fragment)
    }

    init(_ name: String, bytes lines: [Int: [UInt8]], line: Int, _ fragment: String) {
        self.name = name
        self.lines = lines
        self.line = line
        self.fragment = fragment
    }

    var testDescription: String { name }

    /// The file, lines numbered from 1:
    static let base = [
        "{",  // 1
        #"  "version": 1,"#,  // 2
        #"  "boards": ["#,  // 3
        "    {",  // 4
        #"      "title": "Todo","#,  // 5
        #"      "limit": null,"#,  // 6
        #"      "items": ["#,  // 7
        #"        {"id": "a1", "title": "One"},"#,  // 8
        #"        {"id": "b2", "title": "Two"}"#,  // 9
        "      ]",  // 10
        "    },",  // 11
        "    {",  // 12
        #"      "title": "Done","#,  // 13
        #"      "limit": 3,"#,  // 14
        #"      "items": []"#,  // 15
        "    }",  // 16
        "  ]",  // 17
        "}",  // 18
    ]

    var bytes: [UInt8] {
        var out: [UInt8] = []
        for (offset, line) in Self.base.enumerated() {
            out += lines[offset + 1] ?? line.bytes
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }
}

@Suite("The kanban file: refusing what is broken")
struct KanbanFileErrorTests {
    @Test func theBaseFileIsValid() throws {
        let kanban = try KanbanFile.decode(BrokenFile("base", [:], line: 0, "").bytes).kanban
        #expect(layout(kanban) == [["a1", "b2"], []])
    }

    static let invalidJSON: [BrokenFile] = [
        BrokenFile("missing comma between items", [8: #"        {"id": "a1", "title": "One"}"#], line: 9, "expected"),
        BrokenFile("misspelt literal", [6: #"      "limit": nul,"#], line: 6, "literal"),
        BrokenFile("missing colon", [5: #"      "title" "Todo","#], line: 5, "':'"),
        BrokenFile("unquoted key", [13: #"      title: "Done","#], line: 13, "key"),
        BrokenFile("single quotes", [13: #"      "title": 'Done',"#], line: 13, "string"),
        BrokenFile(
            "trailing comma in an array", [15: #"      "items": [{"id": "c3", "title": "x"},]"#], line: 15, "object"),
        BrokenFile("trailing comma in an object", [8: #"        {"id": "a1", "title": "One",},"#], line: 8, "key"),
        BrokenFile("trailing comma in the boards", [16: "    },]"], line: 16, "object"),
        BrokenFile("missing value", [14: #"      "limit": ,"#], line: 14, "number"),
        BrokenFile("number with a leading plus", [14: #"      "limit": +3,"#], line: 14, "number"),
        BrokenFile("number with a bare dot", [14: #"      "limit": 3.,"#], line: 14, "number"),
        BrokenFile("unterminated string on its line", [5: #"      "title": "Todo,"#], line: 5, "control"),
        BrokenFile(
            "raw control character", bytes: [8: #"        {"id": "a1", "title": "O"#.bytes + [0x01] + #"ne"},"#.bytes],
            line: 8, "control"),
        BrokenFile(
            "raw tab", bytes: [8: #"        {"id": "a1", "title": "O"#.bytes + [0x09] + #"ne"},"#.bytes], line: 8,
            "control"),
        BrokenFile(
            "raw NUL in a key", bytes: [13: #"      "ti"#.bytes + [0x00] + #"tle": "Done","#.bytes], line: 13, "control"
        ),
        BrokenFile("lone high surrogate", [9: #"        {"id": "b2", "title": "\ud800"}"#], line: 9, "surrogate"),
        BrokenFile("lone low surrogate", [9: #"        {"id": "b2", "title": "\udc00"}"#], line: 9, "surrogate"),
        BrokenFile(
            "high surrogate then a letter", [9: #"        {"id": "b2", "title": "\ud83dx"}"#], line: 9, "surrogate"),
        BrokenFile(
            "high surrogate then a non-surrogate", [9: #"        {"id": "b2", "title": "\ud83d\u0041"}"#], line: 9,
            "surrogate"),
        BrokenFile("two high surrogates", [9: #"        {"id": "b2", "title": "\ud83d\ud83d"}"#], line: 9, "surrogate"),
        BrokenFile("invalid escape", [9: #"        {"id": "b2", "title": "\x41"}"#], line: 9, "escape"),
        BrokenFile("short \\u escape", [9: #"        {"id": "b2", "title": "\u41"}"#], line: 9, "escape"),
        BrokenFile("non-hex \\u escape", [9: #"        {"id": "b2", "title": "\u00G1"}"#], line: 9, "escape"),
        BrokenFile(
            "byte 0xFF", bytes: [9: #"        {"id": "b2", "title": "T"#.bytes + [0xFF] + #"o"}"#.bytes], line: 9,
            "utf-8"),
        BrokenFile(
            "truncated sequence", bytes: [9: #"        {"id": "b2", "title": "T"#.bytes + [0xC3] + #"o"}"#.bytes],
            line: 9, "utf-8"),
        BrokenFile(
            "overlong slash", bytes: [9: #"        {"id": "b2", "title": "T"#.bytes + [0xC0, 0xAF] + #""}"#.bytes],
            line: 9, "utf-8"),
        BrokenFile(
            "encoded surrogate",
            bytes: [9: #"        {"id": "b2", "title": "T"#.bytes + [0xED, 0xA0, 0x80] + #""}"#.bytes], line: 9, "utf-8"
        ),
        BrokenFile(
            "beyond U+10FFFF",
            bytes: [9: #"        {"id": "b2", "title": ""#.bytes + [0xF4, 0x90, 0x80, 0x80] + #""}"#.bytes], line: 9,
            "utf-8"),
        BrokenFile(
            "invalid UTF-8 after an escape",
            bytes: [9: #"        {"id": "b2", "title": "\n"#.bytes + [0xFE] + #""}"#.bytes], line: 9, "utf-8"),
        BrokenFile(
            "invalid UTF-8 in a key", bytes: [13: #"      "ti"#.bytes + [0xFF] + #"tle": "Done","#.bytes], line: 13,
            "utf-8"),
        BrokenFile(
            "stray byte outside strings", bytes: [14: #"      "limit": 3"#.bytes + [0xFF] + ",".bytes], line: 14, "0xFF"
        ),
        BrokenFile("trailing garbage on the last line", [18: "} x"], line: 18, "after the end"),
        BrokenFile("a second closing brace", [18: "}}"], line: 18, "after the end"),
    ]

    static let schemaViolations: [BrokenFile] = [
        BrokenFile("unknown key in a board", [6: #"      "lmit": null,"#], line: 6, "unknown key \"lmit\""),
        BrokenFile(
            "unknown key in an item", [8: #"        {"id": "a1", "title": "One", "done": true},"#], line: 8,
            "unknown key \"done\""),
        BrokenFile("unknown key in the document", [2: #"  "versoin": 1,"#], line: 2, "unknown key \"versoin\""),
        BrokenFile("unknown key after the boards", [17: #"  ], "extra": {}"#], line: 17, "unknown key \"extra\""),
        BrokenFile(
            "duplicate key in an item", [9: #"        {"id": "b2", "title": "Two", "title": "Three"}"#], line: 9,
            "duplicate key \"title\""),
        BrokenFile(
            "duplicate id key", [9: #"        {"id": "b2", "id": "c3", "title": "Two"}"#], line: 9,
            "duplicate key \"id\""),
        BrokenFile(
            "duplicate key in a board", [14: #"      "limit": 3, "limit": 4,"#], line: 14, "duplicate key \"limit\""),
        BrokenFile(
            "duplicate null limit", [6: #"      "limit": null, "limit": null,"#], line: 6, "duplicate key \"limit\""),
        BrokenFile(
            "duplicate title key in a board", [15: #"      "items": [], "title": "Done""#], line: 15,
            "duplicate key \"title\""),
        BrokenFile("duplicate version", [3: #"  "version": 1, "boards": ["#], line: 3, "duplicate key \"version\""),
        BrokenFile("duplicate boards", [17: #"  ], "boards": []"#], line: 17, "duplicate key \"boards\""),
        BrokenFile(
            "duplicate item id in a board", [9: #"        {"id": "a1", "title": "Two"}"#], line: 9, "duplicate item id"),
        BrokenFile(
            "duplicate item id across boards", [15: #"      "items": [{"id": "a1", "title": "x"}]"#], line: 15,
            "duplicate item id"),
        BrokenFile("id with a space", [9: #"        {"id": "b 2", "title": "Two"}"#], line: 9, "invalid item id"),
        BrokenFile("empty id", [9: #"        {"id": "", "title": "Two"}"#], line: 9, "invalid item id"),
        BrokenFile("id too long", [9: #"        {"id": "abcdefghi", "title": "Two"}"#], line: 9, "invalid item id"),
        BrokenFile("non-ASCII id", [9: #"        {"id": "\u00e9", "title": "Two"}"#], line: 9, "invalid item id"),
        BrokenFile("number as an id", [9: #"        {"id": 12, "title": "Two"}"#], line: 9, "must be a string"),
        BrokenFile("number as an item title", [9: #"        {"id": "b2", "title": 2}"#], line: 9, "must be a string"),
        BrokenFile("number as a board title", [13: #"      "title": 5,"#], line: 13, "must be a string"),
        BrokenFile("null as a title", [13: #"      "title": null,"#], line: 13, "must be a string"),
        BrokenFile("empty item title", [9: #"        {"id": "b2", "title": ""}"#], line: 9, "blank"),
        BrokenFile("blank item title", [9: #"        {"id": "b2", "title": " \t\n "}"#], line: 9, "blank"),
        BrokenFile("blank board title", [13: #"      "title": "   ","#], line: 13, "blank"),
        BrokenFile("negative limit", [14: #"      "limit": -1,"#], line: 14, "0 or more"),
        BrokenFile("fractional limit", [14: #"      "limit": 2.5,"#], line: 14, "whole number"),
        BrokenFile("negative fractional limit", [14: #"      "limit": -0.5,"#], line: 14, "whole number"),
        BrokenFile("huge limit", [14: #"      "limit": 99999999999999999999,"#], line: 14, "whole number"),
        BrokenFile("infinite limit", [14: #"      "limit": 1e400,"#], line: 14, "whole number"),
        BrokenFile("string limit", [14: #"      "limit": "3","#], line: 14, "must be a number"),
        BrokenFile("boolean limit", [14: #"      "limit": true,"#], line: 14, "must be a number"),
        BrokenFile("items not an array", [15: #"      "items": "none""#], line: 15, "must be an array"),
        BrokenFile("item not an object", [9: #"        "b2""#], line: 9, "must be an object"),
        BrokenFile("boards not an array", [3: #"  "boards": 5, "x": ["#], line: 3, "must be an array"),
        BrokenFile("board not an object", [12: "    [{"], line: 12, "must be an object"),
        BrokenFile("item without an id", [9: #"        {"title": "Two"}"#], line: 9, "missing key \"id\""),
        BrokenFile("item without a title", [9: #"        {"id": "b2"}"#], line: 9, "missing key \"title\""),
        BrokenFile("version as a string", [2: #"  "version": "1","#], line: 2, "must be a number"),
        BrokenFile("version 0", [2: #"  "version": 0,"#], line: 2, "version"),
        BrokenFile("negative version", [2: #"  "version": -1,"#], line: 2, "version"),
    ]

    @Test(arguments: invalidJSON + schemaViolations)
    func aBrokenFileIsRefusedNamingTheLine(file: BrokenFile) throws {
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(file.bytes) }
        guard case .corruptFile(let line, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        #expect(line == file.line, "\(message)")
        #expect(message.lowercased().contains(file.fragment.lowercased()), "\(message)")
    }

    /// A duplicate board title is reported where the title is, like a duplicate id.
    @Test(arguments: ["Todo", "TODO", "todo"])
    func aDuplicateBoardTitleIsRefusedNamingItsLine(title: String) throws {
        let file = BrokenFile(
            "duplicate board title", [13: #"      "title": "\#(title)","#], line: 13, "duplicate board title")
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(file.bytes) }
        guard case .corruptFile(let line, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        #expect(message.contains("duplicate board title"), "\(message)")
        #expect(line == 13, "\(message)")
    }

    @Test func aBoardWithoutItemsIsRefusedAtTheBoard() throws {
        let file = BrokenFile("board without items", [14: #"      "limit": 3"#, 15: ""], line: 12, "missing key")
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(file.bytes) }
        guard case .corruptFile(let line, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        #expect(message.contains("missing key \"items\""), "\(message)")
        #expect((12...16).contains(line), "\(message)")
    }

    @Test func aRawDELInAStringIsValidJSON() throws {
        let file = BrokenFile(
            "DEL", bytes: [9: #"        {"id": "b2", "title": "T"#.bytes + [0x7F] + #""}"#.bytes], line: 0, "")
        #expect(try KanbanFile.decode(file.bytes).kanban.boards[0].items[1].title == "T\u{7F}")
    }

    // MARK: - Whole-file errors

    @Test(arguments: [
        ("", 1), ("\u{FEFF}", 1), ("5", 1), ("\"kanban\"", 1), ("null", 1), ("true", 1), ("\n\n  x", 3), ("}", 1),
        ("{", 1), ("[", 1), ("{\"version\": 1}", 1), ("{\"boards\": []}", 1), ("[{\"title\": \"A\"}]", 1),
        ("{\"version\": 1, \"boards\": []}\n\n{}", 3), ("[{\"title\": \"A\", \"items\": [5]}]", 1),
        ("[{\"title\": \"A\", \"items\": []},\n {\"title\": \"a\", \"items\": []}]", 2),
        ("[{\"title\": \"A\", \"items\": [\" \"]}]", 1), ("[{\"title\": \"A\", \"items\": [], \"limit\": 2}]", 1),
        ("{\"version\": 1, \"boards\": [{\"title\": \"Todo\", \"items\": [{\"id\": \"a1\", \"title\": \"x\"", 1),
        // Text after the original app's array, as after a document.
        ("[]x", 1), ("[] []", 1), ("[]\n\n3", 3), ("[{\"title\": \"A\", \"items\": []}]}", 1),
    ])
    func aFileThatIsNotAKanbanIsCorrupt(text: String, line: Int) throws {
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(text.bytes) }
        guard case .corruptFile(let reported, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        #expect(reported == line, "\(message)")
        #expect(!message.isEmpty)
    }

    @Test func whitespaceOnlyIsCorrupt() throws {
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(" \n\t\r\n ".bytes) }
        guard case .corruptFile = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
    }

    @Test func anUnterminatedStringAtTheEndIsRefusedAtItsLine() throws {
        let text = BrokenFile.base.prefix(4).joined(separator: "\n") + "\n" + #"      "title": "Tod"#
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(text.bytes) }
        guard case .corruptFile(let line, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        #expect(line == 5, "\(message)")
        #expect(message.contains("unterminated"), "\(message)")
    }

    // MARK: - Versions

    @Test(arguments: [
        #"{"version": 2, "boards": []}"#,
        #"{"boards": [], "version": 2}"#,
        #"{"version": 2.0, "boards": []}"#,
        #"{"version": 2}"#,
        #"{"version": 2, "boards": [{"title": "T", "limit": null, "items": [], "labels": ["new"]}]}"#,
        #"{"boards": [{"title": "T", "items": [{"id": "a1", "title": "x", "due": "2030-01-01"}]}], "version": 2}"#,
        #"{"boards": [{"title": "T", "items": [{"id": "an id that is too long", "title": "x"}]}], "version": 2}"#,
        #"{"format": "kanban", "version": 2, "boards": {}}"#,
    ])
    func aNewerVersionIsUnsupported(text: String) throws {
        #expect(throws: KanbanError.unsupportedVersion(2)) { try KanbanFile.decode(text.bytes) }
    }

    @Test func theVersionIsReported() throws {
        #expect(throws: KanbanError.unsupportedVersion(17)) {
            try KanbanFile.decode(#"{"boards": [], "version": 17}"#.bytes)
        }
    }

    // MARK: - Deep nesting

    static let depth = 100_000

    @Test(arguments: [
        #"{"version": 1, "boards": [], "x": "# + String(repeating: "[", count: depth),
        #"{"x": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + #", "version": 1, "boards": []}"#,
        #"{"boards": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + #", "version": 1}"#,
        #"{"boards": "# + String(repeating: "[", count: depth),
        #"{"boards": [], "x": "# + String(repeating: #"{"a": "#, count: depth),
        #"{"version": 1, "boards": [{"title": "T", "items": [{"id": "a1", "title": "x", "y": "#
            + String(repeating: "[", count: depth),
        #"{"version": 1, "boards": [{"title": "T", "items": "# + String(repeating: "[", count: depth),
        String(repeating: "[", count: depth),
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
    ])
    func deeplyNestedArraysAreRefusedWithoutCrashing(text: String) throws {
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(text.bytes) }
        guard case .corruptFile = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
    }
}
