import Foundation
import Testing

@testable import KanbanCore

// Whether Foundation's coders and the file codec agree on every document is the differential
// test's job (DifferentialCodecTests.swift); these pin down the schema Foundation sees.

@Suite("Codable follows the file's schema")
struct CodableTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case foundationWritesTheSameSchema
        case codableRefusesDuplicateIDs
        case codableRefusesDuplicateBoardTitles
        case itemIDsEncodeAsPlainStrings
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .foundationWritesTheSameSchema: try foundationWritesTheSameSchema()
        case .codableRefusesDuplicateIDs: try codableRefusesDuplicateIDs()
        case .codableRefusesDuplicateBoardTitles: try codableRefusesDuplicateBoardTitles()
        case .itemIDsEncodeAsPlainStrings: try itemIDsEncodeAsPlainStrings()
        }
    }

    func foundationWritesTheSameSchema() throws {
        var kanban = try makeKanban([["a1"], []], titles: ["Todo", "Done"], limits: [nil, 3])
        try kanban.edit(
            Location(board: 0, index: 0),
            CardEdits(note: .set("two\nlines"), words: ["labels": WordEdits(add: ["bug"])], due: .some(Day(year: 2026, month: 12, day: 1))))
        kanban.boards[0].items[0].created = Timestamp(seconds: 86_400)
        try kanban.archive([Location(board: 0, index: 0)], now: Timestamp(seconds: 90_000))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(kanban), as: UTF8.self)
        let todo = kanban.boards[0].id.rawValue
        let done = kanban.boards[1].id.rawValue
        expectTrue(
            text
                == #"{"archive":[{"archived":"1970-01-02T01:00:00Z","board":"\#(todo)","created":"1970-01-02T00:00:00Z","due":"2026-12-01","id":"a1","labels":["bug"],"note":"two\nlines","title":"Card a1"}],"#
                + #""boards":[{"id":"\#(todo)","items":[],"limit":null,"title":"Todo"},{"id":"\#(done)","items":[],"limit":3,"title":"Done"}],"version":2}"#
        )
        try expectEqual(JSONDecoder().decode(Kanban.self, from: Data(text.utf8)), kanban)
    }

    func codableRefusesDuplicateIDs() throws {
        let text =
            #"{"version": 2, "boards": [{"id": "A", "title": "A", "limit": null, "items": [{"id": "a1", "title": "x"}]}, {"id": "B", "title": "B", "limit": null, "items": [{"id": "a1", "title": "y"}]}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Kanban.self, from: Data(text.utf8)) }
    }

    func codableRefusesDuplicateBoardTitles() throws {
        let text =
            #"{"version": 2, "boards": [{"id": "A", "title": "Todo", "limit": null, "items": []}, {"id": "B", "title": "TODO", "limit": null, "items": []}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Kanban.self, from: Data(text.utf8)) }
    }

    /// Documents both refuse; for older versions the file codec reads them (deriving board
    /// ids from the bytes), so Codable, which has no bytes, refuses them all.
    @Test(arguments: [
        #"{"version": 3, "boards": []}"#,
        #"{"boards": []}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "limit": -1, "items": []}]}"#,
        #"{"version": 2, "boards": [{"title": "A", "limit": null, "items": []}]}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "limit": null, "items": [{"id": "toolongid", "title": "x"}]}]}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "limit": null, "items": [{"id": "a b", "title": "x"}]}]}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "limit": null, "items": [{"id": 5, "title": "x"}]}]}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "items": [{"id": "a", "title": "x", "labels": ["a b"]}]}]}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "items": [{"id": "a", "title": "x", "due": "2026-02-29"}]}]}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "items": [{"id": "a", "title": "x", "entered": "now"}]}]}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "items": [{"id": "a", "title": "x", "note": "\u0007"}]}]}"#,
        #"{"version": 2, "boards": [], "archive": [{"id": "a", "title": "x", "board": "A"}]}"#,
        #"{"version": 2, "boards": [{"id": "A", "title": "A", "items": []}], "archive": [{"id": "A", "title": "x", "board": "A", "archived": "2026-01-01T00:00:00Z"}]}"#,
        #"{"version": 2, "boards": [], "archive": [], "extra": 1}"#,
    ])
    func codableRefusesWhatTheFileCodecRefuses(text: String) throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Kanban.self, from: Data(text.utf8)) }
        #expect(throws: KanbanError.self) { try KanbanFile.decode(text.bytes) }
    }

    @Test(arguments: [
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "a1", "title": "x"}]}]}"#,
        #"[{"title": "A", "items": ["x"]}]"#,
    ])
    func codableReadsOnlyTheCurrentVersion(text: String) throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Kanban.self, from: Data(text.utf8)) }
        expectTrue(try KanbanFile.decode(text.bytes).format != .current)
    }

    func itemIDsEncodeAsPlainStrings() throws {
        let id = try require(ItemID("k3f9"))
        expectEqual(String(decoding: try JSONEncoder().encode([id]), as: UTF8.self), #"["k3f9"]"#)
        try expectEqual(JSONDecoder().decode([ItemID].self, from: Data(#"["k3f9"]"#.utf8)), [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ItemID].self, from: Data(#"["k 3"]"#.utf8)) }
    }
}
