import Testing

@testable import KanbanCore

@Suite("The kanban file: writing and reading")
struct KanbanFileTests {
    /// Todo (no limit) with two items, Done (limit 3) empty.
    func small() throws -> Kanban {
        try makeKanban(
            [["a1", "b2"], []], titles: ["Todo", "Done"], limits: [nil, 3],
            itemTitles: ["a1": "One", "b2": "Two \"quoted\" \\ é"])
    }

    static let smallFile = """
        {
          "version": 1,
          "boards": [
            {
              "title": "Todo",
              "limit": null,
              "items": [
                {"id": "a1", "title": "One"},
                {"id": "b2", "title": "Two \\"quoted\\" \\\\ é"}
              ]
            },
            {
              "title": "Done",
              "limit": 3,
              "items": []
            }
          ]
        }

        """

    // MARK: - Writing

    @Test func encodingWritesTheDocumentedLayout() throws {
        let bytes = KanbanFile.encode(try small())
        #expect(String(decoding: bytes, as: UTF8.self) == Self.smallFile)
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(KanbanFile.encode(try small()) == bytes)
    }

    @Test func anEmptyKanbanIsAnEmptyBoardList() throws {
        let bytes = KanbanFile.encode(try Kanban(boards: []))
        #expect(String(decoding: bytes, as: UTF8.self) == "{\n  \"version\": 1,\n  \"boards\": []\n}\n")
        #expect(try KanbanFile.decode(bytes).kanban == (try Kanban(boards: [])))
    }

    @Test func controlCharactersInStoredTitlesAreEscaped() throws {
        let title = "a\u{0}b\u{1B}c\u{7F}d\u{85}e\u{9F}f\u{A0}g\n\r\t\u{8}\u{C}/h"
        let kanban = try Kanban(boards: [Board(title: "T", items: [Item(id: ItemID("x1")!, title: title)])])
        let text = String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
        #expect(
            text.contains(#"{"id": "x1", "title": "a\u0000b\u001bc\u007fd\u0085e\u009ff\#u{A0}g\n\r\t\u0008\u000c/h"}"#)
        )
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!text.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        #expect(try KanbanFile.decode(Array(text.utf8)).kanban == kanban)
    }

    @Test func jsonQuotedEscapesLikeTheFile() {
        #expect(JSON.quoted("a\"b\\c\u{1}\u{9B}") == #""a\"b\\c\u0001\u009b""#)
    }

    @Test func aMoveShowsInTheFileAsOneLineLeavingAndArriving() throws {
        var kanban = try makeKanban(counts: [3, 3])
        let before = String(decoding: KanbanFile.encode(kanban), as: UTF8.self).split(separator: "\n")
        try kanban.move([Location(board: 0, index: 1)], to: 1, at: .index(1))
        let after = String(decoding: KanbanFile.encode(kanban), as: UTF8.self).split(separator: "\n")
        let moved = #"        {"id": "a1", "title": "Card a1"},"#
        #expect(before.count == after.count)
        #expect(before.filter { $0 != moved } == after.filter { $0 != moved })
        #expect(before.firstIndex(of: moved[...]) != after.firstIndex(of: moved[...]))
    }

    // MARK: - Reading

    @Test func decodingTheDocumentedLayoutGivesTheKanban() throws {
        let (kanban, format) = try KanbanFile.decode(Self.smallFile.bytes)
        #expect(kanban == (try small()))
        #expect(format == .current)
    }

    @Test(arguments: 1...60 as ClosedRange<UInt64>)
    func decodingWhatWasEncodedGivesTheSameKanban(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let kanban = try randomStoredKanban(using: &generator)
        let bytes = KanbanFile.encode(kanban)
        let (decoded, format) = try KanbanFile.decode(bytes)
        #expect(decoded == kanban)
        #expect(format == .current)
        #expect(KanbanFile.encode(decoded) == bytes)
    }

    @Test func keysMayComeInAnyOrder() throws {
        let text = """
            {"boards": [
              {"items": [{"title": "One", "id": "a1"}, {"id": "b2", "title": "Two \\"quoted\\" \\\\ é"}],
               "limit": null, "title": "Todo"},
              {"limit": 3, "items": [], "title": "Done"}
            ], "version": 1}
            """
        #expect(try KanbanFile.decode(text.bytes).kanban == (try small()))
    }

    @Test func whitespaceAnywhereBetweenTokensIsAllowed() throws {
        let compact =
            #"{"version":1,"boards":[{"title":"Todo","limit":null,"items":[{"id":"a1","title":"One"},{"id":"b2","title":"Two \"quoted\" \\ é"}]},{"title":"Done","limit":3,"items":[]}]}"#
        #expect(try KanbanFile.decode(compact.bytes).kanban == (try small()))
        let spread = compact.bytes.flatMap { byte -> [UInt8] in
            [
                UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"),
                UInt8(ascii: ","),
            ].contains(byte) ? [0x20, 0x0D, 0x0A, 0x09, byte, 0x09, 0x0D, 0x0A] : [byte]
        }
        #expect(try KanbanFile.decode(spread).kanban == (try small()))
    }

    @Test func aMissingLimitIsNoLimit() throws {
        let text = #"{"version": 1, "boards": [{"title": "Todo", "items": []}]}"#
        #expect(try KanbanFile.decode(text.bytes).kanban.boards == [Board(title: "Todo")])
    }

    @Test func escapesAndSurrogatePairsAreDecoded() throws {
        let text = #"""
            {"version": 1, "boards": [{"title": "T", "limit": null, "items": [
              {"id": "x1", "title": "\"\\\/\b\f\n\r\t\u00e9\u00E9\ud83d\ude00\uD83D\uDE00\u0041z"}
            ]}]}
            """#
        let kanban = try KanbanFile.decode(text.bytes).kanban
        let title = kanban.boards[0].items[0].title
        #expect(
            title.unicodeScalars.elementsEqual("\"\\/\u{8}\u{C}\n\r\t\u{E9}\u{E9}\u{1F600}\u{1F600}Az".unicodeScalars))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let (kanban, format) = try KanbanFile.decode([0xEF, 0xBB, 0xBF] + Self.smallFile.bytes)
        #expect(kanban == (try small()))
        #expect(format == .current)
    }

    @Test func wholeNumbersWrittenWithAFractionOrExponentAreLimits() throws {
        for (written, limit) in [("2.0", 2), ("2e0", 2), ("20E-1", 2), ("0.0", 0), ("-0", 0), ("1.5e1", 15)] {
            let text = #"{"version": 1, "boards": [{"title": "T", "limit": \#(written), "items": []}]}"#
            #expect(try KanbanFile.decode(text.bytes).kanban.boards[0].limit == limit, "\(written)")
        }
        #expect(try KanbanFile.decode(#"{"version": 1.0, "boards": []}"#.bytes).kanban.boards.isEmpty)
    }

    @Test func storedTitlesKeepWhatAHandEditPutThere() throws {
        // Titles read from a file are kept as stored (only blank ones are refused).
        let text =
            #"{"version": 1, "boards": [{"title": " Spaced ", "items": [{"id": "a1", "title": "bell\u0007 "}]}]}"#
        let kanban = try KanbanFile.decode(text.bytes).kanban
        #expect(kanban.boards[0].title == " Spaced ")
        #expect(kanban.boards[0].items[0].title == "bell\u{7} ")
    }

    // MARK: - The original app's format

    static let legacyFile = #"""
        [
          {"title": "Todo", "items": ["Database Migration", "Schema Design"]},
          {"items": ["Push Notification"], "title": "In Progress"},
          {"title": "Done", "items": []}
        ]
        """#

    @Test func theOriginalFormatIsReadWithNewIDs() throws {
        let (kanban, format) = try KanbanFile.decode(Self.legacyFile.bytes)
        #expect(format == .legacy)
        #expect(kanban.boards.map(\.title) == ["Todo", "In Progress", "Done"])
        #expect(
            kanban.boards.map { $0.items.map(\.title) } == [
                ["Database Migration", "Schema Design"], ["Push Notification"], [],
            ])
        #expect(kanban.boards.allSatisfy { $0.limit == nil })
        let ids = kanban.boards.flatMap { $0.items.map(\.id.rawValue) }
        #expect(Set(ids).count == 3)
        #expect(
            ids.allSatisfy { id in
                id.count == 6 && id.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
                    && id.contains(where: \.isNumber) && id.contains(where: \.isLetter)
            })
        #expect(throws: Never.self) { try kanban.validate() }
    }

    @Test func theOriginalFormatGivesTheSameIDsEveryTime() throws {
        let first = try KanbanFile.decode(Self.legacyFile.bytes).kanban
        let second = try KanbanFile.decode(Self.legacyFile.bytes).kanban
        #expect(first == second)
        // Written back, it is a version 1 file that reads as the same kanban.
        let upgraded = try KanbanFile.decode(KanbanFile.encode(first))
        #expect(upgraded.format == .current)
        #expect(upgraded.kanban == first)
    }

    @Test func differentOriginalFilesGetDifferentIDs() throws {
        // Same length, same shape, one byte apart: the ids come from the bytes, not the shape.
        let a = try KanbanFile.decode(#"[{"title": "Todo", "items": ["One", "Two"]}]"#.bytes).kanban
        let b = try KanbanFile.decode(#"[{"title": "Todo", "items": ["One", "Twp"]}]"#.bytes).kanban
        #expect(Set(a.boards[0].items.map(\.id)).isDisjoint(with: b.boards[0].items.map(\.id)))
    }

    @Test func anEmptyOriginalFileHasNoBoards() throws {
        let (kanban, format) = try KanbanFile.decode("[]".bytes)
        #expect(kanban.boards.isEmpty)
        #expect(format == .legacy)
    }

    /// Six characters give 36^6 ids; past 36^6 / 65,536 ids in the file they grow to seven.
    @Test func aLargeOriginalFileGetsLongerDistinctIDs() throws {
        let sixCharacterIDs = 36 * 36 * 36 * 36 * 36 * 36
        let count = sixCharacterIDs / 65_536 + 1
        let items = Array(repeating: "\"x\"", count: count).joined(separator: ",")
        let kanban = try KanbanFile.decode("[{\"title\": \"Todo\", \"items\": [\(items)]}]".bytes).kanban
        let ids = kanban.boards[0].items.map(\.id) + [kanban.boards[0].id]
        #expect(ids.count == count + 1)
        #expect(Set(ids).count == count + 1)
        #expect(ids.allSatisfy { $0.rawValue.count == 7 })
    }
}

/// A random kanban as a file may hold it: odd titles (quotes, backslashes, controls,
/// non-ASCII, even surrounding spaces), odd ids, any limits.
func randomStoredKanban(using generator: inout some RandomNumberGenerator) throws -> Kanban {
    let pieces = [
        "a", "Z", " ", "\"", "\\", "/", "\t", "\u{1}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}", "é", "e\u{301}", "😀",
        "\u{2028}", "\n", "\r", "{", "}", "[", "]", ":", ",", "\u{0}", "日本", "\u{FEFF}", "null", "1",
    ]
    func title(_ generator: inout some RandomNumberGenerator) -> String {
        "x" + (0..<generator.int(0...6)).map { _ in pieces[generator.int(0...(pieces.count - 1))] }.joined()
    }
    let idCharacters = Array("abcXYZ019-_")
    var used = Set<String>()
    var boards: [Board] = []
    for b in 0..<generator.int(0...4) {
        var items: [Item] = []
        for _ in 0..<generator.int(0...5) {
            var id: String
            repeat {
                id = String(
                    (0..<generator.int(1...8)).map { _ in idCharacters[generator.int(0...(idCharacters.count - 1))] })
            } while !used.insert(id).inserted
            items.append(Item(id: try #require(ItemID(id)), title: title(&generator)))
        }
        let limit: Int? = generator.chance(50) ? nil : generator.int(0...100)
        boards.append(Board(title: "\(b) " + title(&generator), limit: limit, items: items))
    }
    return try Kanban(boards: boards)
}
