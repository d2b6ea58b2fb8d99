import Testing

@testable import KanbanCore

/// A valid file with some lines replaced (or emptied), and where its error must be reported.
struct BrokenFile: Sendable, CustomTestStringConvertible {
    var name: String
    var base: [String]
    var lines: [Int: [UInt8]]
    var line: Int
    var fragment: String

    init(_ name: String, base: [String] = Self.base, _ lines: [Int: String], line: Int, _ fragment: String) {
        self.init(name, base: base, bytes: lines.mapValues(\.bytes), line: line, fragment)
    }

    init(_ name: String, base: [String] = Self.base, bytes lines: [Int: [UInt8]], line: Int, _ fragment: String) {
        self.name = name
        self.base = base
        self.lines = lines
        self.line = line
        self.fragment = fragment
    }

    var testDescription: String { name }

    /// The file, lines numbered from 1:
    static let base = [
        "{",  // 1
        #"  "version": 2,"#,  // 2
        #"  "boards": ["#,  // 3
        "    {",  // 4
        #"      "id": "todo01","#,  // 5
        #"      "title": "Todo","#,  // 6
        #"      "limit": null,"#,  // 7
        #"      "items": ["#,  // 8
        #"        {"id": "a1", "title": "One", "labels": ["bug", "P1"], "due": "2026-12-01"},"#,  // 9
        #"        {"id": "b2", "title": "Two", "created": "2026-11-23T10:04:05Z", "note": "n"}"#,  // 10
        "      ]",  // 11
        "    },",  // 12
        "    {",  // 13
        #"      "id": "done01","#,  // 14
        #"      "title": "Done","#,  // 15
        #"      "limit": 3,"#,  // 16
        #"      "items": []"#,  // 17
        "    }",  // 18
        "  ],",  // 19
        #"  "archive": ["#,  // 20
        #"    {"id": "c3", "title": "Old", "board": "done01", "archived": "2026-11-20T09:00:00Z"}"#,  // 21
        "  ]",  // 22
        "}",  // 23
    ]

    /// The same kanban as a version 1 file could hold it (no board ids, cards of an id and a title, no archive):
    static let version1 = [
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
        "    }",  // 11
        "  ]",  // 12
        "}",  // 13
    ]

    var bytes: [UInt8] {
        var out: [UInt8] = []
        for (offset, line) in base.enumerated() {
            out += lines[offset + 1] ?? line.bytes
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }
}

@Suite("The kanban file: refusing what is broken")
struct KanbanFileErrorTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theBaseFilesAreValid
        case aBoardWithoutItemsIsRefusedAtTheBoard
        case aRawDELInAStringIsValidJSON
        case whitespaceOnlyIsCorrupt
        case anUnterminatedStringAtTheEndIsRefusedAtItsLine
        case theVersionIsReported
        case versionsOneAndTwoAreRead
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theBaseFilesAreValid: try theBaseFilesAreValid()
        case .aBoardWithoutItemsIsRefusedAtTheBoard: try aBoardWithoutItemsIsRefusedAtTheBoard()
        case .aRawDELInAStringIsValidJSON: try aRawDELInAStringIsValidJSON()
        case .whitespaceOnlyIsCorrupt: try whitespaceOnlyIsCorrupt()
        case .anUnterminatedStringAtTheEndIsRefusedAtItsLine: try anUnterminatedStringAtTheEndIsRefusedAtItsLine()
        case .theVersionIsReported: try theVersionIsReported()
        case .versionsOneAndTwoAreRead: try versionsOneAndTwoAreRead()
        }
    }

    func theBaseFilesAreValid() throws {
        let (kanban, format) = try KanbanFile.decode(BrokenFile("base", [:], line: 0, "").bytes)
        expectEqual(format, .current)
        expectEqual(layout(kanban), [["a1", "b2"], []])
        expectEqual(kanban.boards.map(\.id.rawValue), ["todo01", "done01"])
        expectEqual(kanban.boards[0].items[0].labels, ["bug", "P1"])
        expectEqual(kanban.boards[0].items[1].note, "n")
        expectEqual(kanban.archive.map(\.item.id.rawValue), ["c3"])
        expectEqual(kanban.archive.map(\.board.rawValue), ["done01"])
        let (old, oldFormat) = try KanbanFile.decode(
            BrokenFile("v1", base: BrokenFile.version1, [:], line: 0, "").bytes)
        expectEqual(oldFormat, .version1)
        expectEqual(layout(old), [["a1", "b2"]])
    }

    static let invalidJSON: [BrokenFile] = [
        BrokenFile("missing comma between items", [9: #"        {"id": "a1", "title": "One"}"#], line: 10, "expected"),
        BrokenFile("misspelt literal", [7: #"      "limit": nul,"#], line: 7, "literal"),
        BrokenFile("missing colon", [6: #"      "title" "Todo","#], line: 6, "':'"),
        BrokenFile("unquoted key", [15: #"      title: "Done","#], line: 15, "key"),
        BrokenFile("single quotes", [15: #"      "title": 'Done',"#], line: 15, "string"),
        BrokenFile(
            "trailing comma in an array", [17: #"      "items": [{"id": "d4", "title": "x"},]"#], line: 17, "object"),
        BrokenFile("trailing comma in an object", [9: #"        {"id": "a1", "title": "One",},"#], line: 9, "key"),
        BrokenFile("trailing comma in the boards", [18: "    },]"], line: 18, "object"),
        BrokenFile(
            "trailing comma in the archive",
            [21: #"    {"id": "c3", "title": "Old", "board": "done01", "archived": "2026-11-20T09:00:00Z"},"#],
            line: 22, "object"),
        BrokenFile(
            "trailing comma in labels", [9: #"        {"id": "a1", "title": "One", "labels": ["bug",]},"#], line: 9,
            "string"),
        BrokenFile("missing value", [16: #"      "limit": ,"#], line: 16, "number"),
        BrokenFile("number with a leading plus", [16: #"      "limit": +3,"#], line: 16, "number"),
        BrokenFile("number with a bare dot", [16: #"      "limit": 3.,"#], line: 16, "number"),
        BrokenFile("unterminated string on its line", [6: #"      "title": "Todo,"#], line: 6, "control"),
        BrokenFile(
            "raw control character", bytes: [9: #"        {"id": "a1", "title": "O"#.bytes + [0x01] + #"ne"},"#.bytes],
            line: 9, "control"),
        BrokenFile(
            "raw tab", bytes: [9: #"        {"id": "a1", "title": "O"#.bytes + [0x09] + #"ne"},"#.bytes], line: 9,
            "control"),
        BrokenFile(
            "raw line feed in a note",
            bytes: [10: #"        {"id": "b2", "title": "Two", "note": "a"#.bytes + [0x0A] + #"b"}"#.bytes], line: 10,
            "control"),
        BrokenFile(
            "raw NUL in a key", bytes: [15: #"      "ti"#.bytes + [0x00] + #"tle": "Done","#.bytes], line: 15, "control"
        ),
        BrokenFile("lone high surrogate", [10: #"        {"id": "b2", "title": "\ud800"}"#], line: 10, "surrogate"),
        BrokenFile("lone low surrogate", [10: #"        {"id": "b2", "title": "\udc00"}"#], line: 10, "surrogate"),
        BrokenFile(
            "lone surrogate in a note", [10: #"        {"id": "b2", "title": "Two", "note": "x\udc00"}"#], line: 10,
            "surrogate"),
        BrokenFile(
            "high surrogate then a letter", [10: #"        {"id": "b2", "title": "\ud83dx"}"#], line: 10, "surrogate"),
        BrokenFile(
            "high surrogate then a non-surrogate", [10: #"        {"id": "b2", "title": "\ud83d\u0041"}"#], line: 10,
            "surrogate"),
        BrokenFile(
            "two high surrogates", [10: #"        {"id": "b2", "title": "\ud83d\ud83d"}"#], line: 10, "surrogate"),
        BrokenFile("invalid escape", [10: #"        {"id": "b2", "title": "\x41"}"#], line: 10, "escape"),
        BrokenFile("short \\u escape", [10: #"        {"id": "b2", "title": "\u41"}"#], line: 10, "escape"),
        BrokenFile("non-hex \\u escape", [10: #"        {"id": "b2", "title": "\u00G1"}"#], line: 10, "escape"),
        BrokenFile(
            "byte 0xFF", bytes: [10: #"        {"id": "b2", "title": "T"#.bytes + [0xFF] + #"o"}"#.bytes], line: 10,
            "utf-8"),
        BrokenFile(
            "truncated sequence", bytes: [10: #"        {"id": "b2", "title": "T"#.bytes + [0xC3] + #"o"}"#.bytes],
            line: 10, "utf-8"),
        BrokenFile(
            "overlong slash", bytes: [10: #"        {"id": "b2", "title": "T"#.bytes + [0xC0, 0xAF] + #""}"#.bytes],
            line: 10, "utf-8"),
        BrokenFile(
            "encoded surrogate",
            bytes: [10: #"        {"id": "b2", "title": "T"#.bytes + [0xED, 0xA0, 0x80] + #""}"#.bytes], line: 10,
            "utf-8"),
        BrokenFile(
            "beyond U+10FFFF",
            bytes: [10: #"        {"id": "b2", "title": ""#.bytes + [0xF4, 0x90, 0x80, 0x80] + #""}"#.bytes], line: 10,
            "utf-8"),
        BrokenFile(
            "invalid UTF-8 after an escape",
            bytes: [10: #"        {"id": "b2", "title": "\n"#.bytes + [0xFE] + #""}"#.bytes], line: 10, "utf-8"),
        BrokenFile(
            "invalid UTF-8 in a note",
            bytes: [10: #"        {"id": "b2", "title": "Two", "note": ""#.bytes + [0xE2, 0x82] + #""}"#.bytes],
            line: 10, "utf-8"),
        BrokenFile(
            "invalid UTF-8 in a key", bytes: [15: #"      "ti"#.bytes + [0xFF] + #"tle": "Done","#.bytes], line: 15,
            "utf-8"),
        BrokenFile(
            "stray byte outside strings", bytes: [16: #"      "limit": 3"#.bytes + [0xFF] + ",".bytes], line: 16, "0xFF"
        ),
        BrokenFile("trailing garbage on the last line", [23: "} x"], line: 23, "after the end"),
        BrokenFile("a second closing brace", [23: "}}"], line: 23, "after the end"),
    ]

    static let schemaViolations: [BrokenFile] = [
        BrokenFile("unknown key in a board", [7: #"      "lmit": null,"#], line: 7, "unknown key \"lmit\""),
        BrokenFile(
            "unknown key in an item", [9: #"        {"id": "a1", "title": "One", "done": true},"#], line: 9,
            "unknown key \"done\""),
        BrokenFile(
            "an archived card's key in an item",
            [9: #"        {"id": "a1", "title": "One", "board": "todo01"},"#], line: 9, "unknown key \"board\""),
        BrokenFile(
            "unknown key in an archived card",
            [21: #"    {"id": "c3", "title": "Old", "board": "done01", "archived": "2026-11-20T09:00:00Z", "x": 1}"#],
            line: 21, "unknown key \"x\""),
        BrokenFile("unknown key in the document", [2: #"  "versoin": 2,"#], line: 2, "unknown key \"versoin\""),
        BrokenFile("unknown key after the boards", [19: #"  ], "extra": {},"#], line: 19, "unknown key \"extra\""),
        BrokenFile(
            "duplicate key in an item", [10: #"        {"id": "b2", "title": "Two", "title": "Three"}"#], line: 10,
            "duplicate key \"title\""),
        BrokenFile(
            "duplicate labels key", [9: #"        {"id": "a1", "title": "One", "labels": [], "labels": ["x"]},"#],
            line: 9, "duplicate key \"labels\""),
        BrokenFile(
            "duplicate note key", [10: #"        {"id": "b2", "title": "Two", "note": "a", "note": "a"}"#], line: 10,
            "duplicate key \"note\""),
        BrokenFile(
            "duplicate id key", [10: #"        {"id": "b2", "id": "c4", "title": "Two"}"#], line: 10,
            "duplicate key \"id\""),
        BrokenFile(
            "duplicate key in a board", [16: #"      "limit": 3, "limit": 4,"#], line: 16, "duplicate key \"limit\""),
        BrokenFile(
            "duplicate null limit", [7: #"      "limit": null, "limit": null,"#], line: 7, "duplicate key \"limit\""),
        BrokenFile(
            "duplicate title key in a board", [17: #"      "items": [], "title": "Done""#], line: 17,
            "duplicate key \"title\""),
        BrokenFile(
            "duplicate board id key", [14: #"      "id": "done01", "id": "done02","#], line: 14, "duplicate key \"id\""),
        BrokenFile("duplicate version", [3: #"  "version": 2, "boards": ["#], line: 3, "duplicate key \"version\""),
        BrokenFile("duplicate boards", [19: #"  ], "boards": [],"#], line: 19, "duplicate key \"boards\""),
        BrokenFile("duplicate archive", [22: #"  ], "archive": []"#], line: 22, "duplicate key \"archive\""),
        BrokenFile(
            "duplicate item id in a board", [10: #"        {"id": "a1", "title": "Two"}"#], line: 10, "duplicate id"),
        BrokenFile(
            "duplicate item id across boards", [17: #"      "items": [{"id": "a1", "title": "x"}]"#], line: 17,
            "duplicate id"),
        BrokenFile("duplicate board id", [14: #"      "id": "todo01","#], line: 14, "duplicate id \"todo01\""),
        BrokenFile("a board with an item's id", [14: #"      "id": "a1","#], line: 14, "duplicate id \"a1\""),
        BrokenFile(
            "an item with a later board's id", [10: #"        {"id": "done01", "title": "Two"}"#], line: 14,
            "duplicate id \"done01\""),
        BrokenFile(
            "an archived card with an item's id",
            [21: #"    {"id": "b2", "title": "Old", "board": "done01", "archived": "2026-11-20T09:00:00Z"}"#],
            line: 21, "duplicate id \"b2\""),
        BrokenFile("id with a space", [10: #"        {"id": "b 2", "title": "Two"}"#], line: 10, "invalid id"),
        BrokenFile("empty id", [10: #"        {"id": "", "title": "Two"}"#], line: 10, "invalid id"),
        BrokenFile("id too long", [10: #"        {"id": "abcdefghi", "title": "Two"}"#], line: 10, "invalid id"),
        BrokenFile("non-ASCII id", [10: #"        {"id": "\u00e9", "title": "Two"}"#], line: 10, "invalid id"),
        BrokenFile("board id with a slash", [5: #"      "id": "to/do","#], line: 5, "invalid id"),
        BrokenFile("number as an id", [10: #"        {"id": 12, "title": "Two"}"#], line: 10, "must be a string"),
        BrokenFile("number as a board id", [5: #"      "id": 12,"#], line: 5, "must be a string"),
        BrokenFile("number as an item title", [10: #"        {"id": "b2", "title": 2}"#], line: 10, "must be a string"),
        BrokenFile("number as a board title", [15: #"      "title": 5,"#], line: 15, "must be a string"),
        BrokenFile("null as a title", [15: #"      "title": null,"#], line: 15, "must be a string"),
        BrokenFile("empty item title", [10: #"        {"id": "b2", "title": ""}"#], line: 10, "blank"),
        BrokenFile("blank item title", [10: #"        {"id": "b2", "title": " \t\n "}"#], line: 10, "blank"),
        BrokenFile(
            "blank archived title",
            [21: #"    {"id": "c3", "title": " ", "board": "done01", "archived": "2026-11-20T09:00:00Z"}"#], line: 21,
            "blank"),
        BrokenFile("blank board title", [15: #"      "title": "   ","#], line: 15, "blank"),
        BrokenFile("negative limit", [16: #"      "limit": -1,"#], line: 16, "0 or more"),
        BrokenFile("fractional limit", [16: #"      "limit": 2.5,"#], line: 16, "whole number"),
        BrokenFile("negative fractional limit", [16: #"      "limit": -0.5,"#], line: 16, "whole number"),
        BrokenFile("huge limit", [16: #"      "limit": 99999999999999999999,"#], line: 16, "whole number"),
        BrokenFile("infinite limit", [16: #"      "limit": 1e400,"#], line: 16, "whole number"),
        BrokenFile("string limit", [16: #"      "limit": "3","#], line: 16, "must be a number"),
        BrokenFile("boolean limit", [16: #"      "limit": true,"#], line: 16, "must be a number"),
        BrokenFile("items not an array", [17: #"      "items": "none""#], line: 17, "must be an array"),
        BrokenFile("item not an object", [10: #"        "b2""#], line: 10, "must be an object"),
        BrokenFile("boards not an array", [3: #"  "boards": 5, "x": ["#], line: 3, "must be an array"),
        BrokenFile("board not an object", [13: "    [{"], line: 13, "must be an object"),
        BrokenFile("archive not an array", [20: #"  "archive": {"x": ["#], line: 20, "must be an array"),
        BrokenFile("archived card not an object", [21: #"    "c3""#], line: 21, "must be an object"),
        BrokenFile("item without an id", [10: #"        {"title": "Two"}"#], line: 10, "missing key \"id\""),
        BrokenFile("item without a title", [10: #"        {"id": "b2"}"#], line: 10, "missing key \"title\""),
        BrokenFile("board without an id", [5: ""], line: 4, "missing key \"id\""),
        BrokenFile(
            "archived card without its board",
            [21: #"    {"id": "c3", "title": "Old", "archived": "2026-11-20T09:00:00Z"}"#], line: 21,
            "missing key \"board\""),
        BrokenFile(
            "archived card without its time", [21: #"    {"id": "c3", "title": "Old", "board": "done01"}"#], line: 21,
            "missing key \"archived\""),
        BrokenFile(
            "archived card with a bad board id",
            [21: #"    {"id": "c3", "title": "Old", "board": "done 01", "archived": "2026-11-20T09:00:00Z"}"#],
            line: 21, "invalid id"),
        BrokenFile(
            "archived card with a bad time",
            [21: #"    {"id": "c3", "title": "Old", "board": "done01", "archived": "yesterday"}"#], line: 21,
            "\"archived\" must be a time"),
        BrokenFile(
            "labels not an array", [9: #"        {"id": "a1", "title": "One", "labels": "bug"},"#], line: 9,
            "must be an array"),
        BrokenFile(
            "labels null", [9: #"        {"id": "a1", "title": "One", "labels": null},"#], line: 9, "must be an array"),
        BrokenFile(
            "label not a string", [9: #"        {"id": "a1", "title": "One", "labels": [1]},"#], line: 9,
            "must be a string"),
        BrokenFile(
            "empty label", [9: #"        {"id": "a1", "title": "One", "labels": [""]},"#], line: 9, "invalid label"),
        BrokenFile(
            "label with a space", [9: #"        {"id": "a1", "title": "One", "labels": ["a b"]},"#], line: 9,
            "invalid label \"a b\""),
        BrokenFile(
            "label with a comma", [9: #"        {"id": "a1", "title": "One", "labels": ["a,b"]},"#], line: 9,
            "invalid label"),
        BrokenFile(
            "label with a tab", [9: #"        {"id": "a1", "title": "One", "labels": ["a\tb"]},"#], line: 9,
            "invalid label"),
        BrokenFile(
            "label with a control", [9: #"        {"id": "a1", "title": "One", "labels": ["a\u0007"]},"#], line: 9,
            "invalid label"),
        BrokenFile(
            "label starting with a dash", [9: #"        {"id": "a1", "title": "One", "labels": ["-x"]},"#], line: 9,
            "invalid label"),
        BrokenFile(
            "label of 33 characters",
            [9: #"        {"id": "a1", "title": "One", "labels": ["abcdefghijklmnopqrstuvwxyz0123456"]},"#], line: 9,
            "invalid label"),
        BrokenFile(
            "due not a date", [9: #"        {"id": "a1", "title": "One", "due": "tomorrow"},"#], line: 9,
            "\"due\" must be a date"),
        BrokenFile(
            "due on the 30th of February", [9: #"        {"id": "a1", "title": "One", "due": "2026-02-30"},"#], line: 9,
            "\"due\" must be a date"),
        BrokenFile(
            "due in month 13", [9: #"        {"id": "a1", "title": "One", "due": "2026-13-01"},"#], line: 9,
            "\"due\" must be a date"),
        BrokenFile(
            "due with a time", [9: #"        {"id": "a1", "title": "One", "due": "2026-12-01T00:00:00Z"},"#], line: 9,
            "\"due\" must be a date"),
        BrokenFile(
            "due as a number", [9: #"        {"id": "a1", "title": "One", "due": 20261201},"#], line: 9,
            "must be a string"),
        BrokenFile(
            "due null", [9: #"        {"id": "a1", "title": "One", "due": null},"#], line: 9, "must be a string"),
        BrokenFile(
            "created without a zone", [10: #"        {"id": "b2", "title": "Two", "created": "2026-11-23T10:04:05"}"#],
            line: 10, "\"created\" must be a time"),
        BrokenFile(
            "entered at hour 25", [10: #"        {"id": "b2", "title": "Two", "entered": "2026-11-23T25:04:05Z"}"#],
            line: 10, "\"entered\" must be a time"),
        BrokenFile(
            "created as seconds", [10: #"        {"id": "b2", "title": "Two", "created": 1790000000}"#], line: 10,
            "must be a string"),
        BrokenFile(
            "note as a number", [10: #"        {"id": "b2", "title": "Two", "note": 5}"#], line: 10, "must be a string"),
        BrokenFile(
            "note with an escaped control character",
            [10: #"        {"id": "b2", "title": "Two", "note": "a\u001bb"}"#],
            line: 10, "invalid note"),
        BrokenFile(
            "note with a lone carriage return", [10: #"        {"id": "b2", "title": "Two", "note": "a\rb"}"#],
            line: 10,
            "invalid note"),
        BrokenFile(
            "archived note with a C1 control",
            [
                21:
                    #"    {"id": "c3", "title": "Old", "board": "done01", "archived": "2026-11-20T09:00:00Z", "note": "\u0085"}"#
            ],
            line: 21, "invalid note"),
        BrokenFile("version as a string", [2: #"  "version": "2","#], line: 2, "must be a number"),
        BrokenFile("version 0", [2: #"  "version": 0,"#], line: 2, "version"),
        BrokenFile("negative version", [2: #"  "version": -1,"#], line: 2, "version"),
    ]

    /// Keys that version 2 brought, in a file that says it is version 1: refused, at their line.
    static let newKeysInVersion1: [BrokenFile] = [
        BrokenFile(
            "labels in version 1", base: BrokenFile.version1,
            [8: #"        {"id": "a1", "title": "One", "labels": []},"#],
            line: 8, "\"labels\" in an item is new in version 2"),
        BrokenFile(
            "due in version 1", base: BrokenFile.version1,
            [9: #"        {"id": "b2", "title": "Two", "due": "2026-12-01"}"#], line: 9,
            "\"due\" in an item is new in version 2"),
        BrokenFile(
            "created in version 1", base: BrokenFile.version1,
            [9: #"        {"id": "b2", "created": "2026-11-23T10:04:05Z", "title": "Two"}"#], line: 9,
            "\"created\" in an item is new in version 2"),
        BrokenFile(
            "entered in version 1", base: BrokenFile.version1,
            [9: #"        {"id": "b2", "title": "Two", "entered": "2026-11-23T10:04:05Z"}"#], line: 9,
            "\"entered\" in an item is new in version 2"),
        BrokenFile(
            "note in version 1", base: BrokenFile.version1, [9: #"        {"id": "b2", "title": "Two", "note": ""}"#],
            line: 9, "\"note\" in an item is new in version 2"),
        BrokenFile(
            "board id in version 1", base: BrokenFile.version1, [5: #"      "id": "todo01", "title": "Todo","#],
            line: 5, "\"id\" in a board is new in version 2"),
        BrokenFile(
            "archive in version 1", base: BrokenFile.version1, [12: #"  ], "archive": []"#], line: 12,
            "\"archive\" in the document is new in version 2"),
    ]

    @Test(arguments: invalidJSON + schemaViolations + newKeysInVersion1)
    func aBrokenFileIsRefusedNamingTheLine(file: BrokenFile) throws {
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(file.bytes) }
        guard case .corruptFile(let line, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        expectEqual(line, file.line, "\(message)")
        expectTrue(message.lowercased().contains(file.fragment.lowercased()), "\(message)")
    }

    /// A duplicate board title is reported where the title is, like a duplicate id.
    @Test(arguments: ["Todo", "TODO", "todo"])
    func aDuplicateBoardTitleIsRefusedNamingItsLine(title: String) throws {
        let file = BrokenFile(
            "duplicate board title", [15: #"      "title": "\#(title)","#], line: 15, "duplicate board title")
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(file.bytes) }
        guard case .corruptFile(let line, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        expectTrue(message.contains("duplicate board title"), "\(message)")
        expectEqual(line, 15, "\(message)")
    }

    func aBoardWithoutItemsIsRefusedAtTheBoard() throws {
        let file = BrokenFile("board without items", [16: #"      "limit": 3"#, 17: ""], line: 13, "missing key")
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(file.bytes) }
        guard case .corruptFile(let line, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        expectTrue(message.contains("missing key \"items\""), "\(message)")
        expectTrue((13...18).contains(line), "\(message)")
    }

    func aRawDELInAStringIsValidJSON() throws {
        let file = BrokenFile(
            "DEL", bytes: [10: #"        {"id": "b2", "title": "T"#.bytes + [0x7F] + #""}"#.bytes], line: 0, "")
        try expectEqual(KanbanFile.decode(file.bytes).kanban.boards[0].items[1].title, "T\u{7F}")
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
        expectEqual(reported, line, "\(message)")
        expectTrue(!message.isEmpty)
    }

    func whitespaceOnlyIsCorrupt() throws {
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(" \n\t\r\n ".bytes) }
        guard case .corruptFile = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
    }

    func anUnterminatedStringAtTheEndIsRefusedAtItsLine() throws {
        let text = BrokenFile.base.prefix(4).joined(separator: "\n") + "\n" + #"      "title": "Tod"#
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(text.bytes) }
        guard case .corruptFile(let line, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        expectEqual(line, 5, "\(message)")
        expectTrue(message.contains("unterminated"), "\(message)")
    }

    // MARK: - Versions

    /// A newer file is refused as such before its boards are read: they may follow rules
    /// this build does not know, so they are not reported as broken.
    @Test(arguments: [
        #"{"version": 3, "boards": []}"#,
        #"{"boards": [], "version": 3}"#,
        #"{"version": 3.0, "boards": []}"#,
        #"{"version": 3}"#,
        #"{"version": 3, "boards": [{"title": "T", "limit": null, "items": [], "colour": "red"}]}"#,
        #"{"boards": [{"title": "T", "items": [{"id": "a1", "title": "x", "due": "next week"}]}], "version": 3}"#,
        #"{"boards": [{"title": "T", "items": [{"id": "an id that is too long", "title": "x"}]}], "version": 3}"#,
        #"{"boards": [{"title": "T"}, {"title": "t"}], "archive": 5, "version": 3}"#,
        #"{"format": "kanban", "version": 3, "boards": {}}"#,
    ])
    func aNewerVersionIsUnsupported(text: String) throws {
        #expect(throws: KanbanError.unsupportedVersion(3)) { try KanbanFile.decode(text.bytes) }
    }

    func theVersionIsReported() throws {
        #expect(throws: KanbanError.unsupportedVersion(17)) {
            try KanbanFile.decode(#"{"boards": [], "version": 17}"#.bytes)
        }
    }

    func versionsOneAndTwoAreRead() throws {
        try expectEqual(KanbanFile.decode(#"{"version": 1, "boards": []}"#.bytes).format, .version1)
        try expectEqual(KanbanFile.decode(#"{"version": 2, "boards": []}"#.bytes).format, .current)
        try expectEqual(KanbanFile.decode(#"{"boards": [], "version": 2, "archive": []}"#.bytes).format, .current)
    }

    // MARK: - Deep nesting

    static let depth = 100_000

    @Test(arguments: [
        #"{"version": 2, "boards": [], "x": "# + String(repeating: "[", count: depth),
        #"{"version": 2, "boards": [], "archive": "# + String(repeating: "[", count: depth),
        #"{"x": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + #", "version": 1, "boards": []}"#,
        #"{"boards": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + #", "version": 1}"#,
        #"{"boards": "# + String(repeating: "[", count: depth),
        #"{"boards": [], "x": "# + String(repeating: #"{"a": "#, count: depth),
        #"{"version": 2, "boards": [{"id": "t", "title": "T", "items": [{"id": "a1", "title": "x", "labels": "#
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
