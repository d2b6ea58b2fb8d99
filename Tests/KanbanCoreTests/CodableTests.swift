import Foundation
import Testing

@testable import KanbanCore

@Suite("Codable agrees with the file codec")
struct CodableTests {
    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func foundationDecodesTheFileToTheSameKanban(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let kanban = try randomStoredKanban(using: &generator)
        let decoded = try JSONDecoder().decode(Kanban.self, from: Data(KanbanFile.encode(kanban)))
        #expect(decoded == kanban)
        #expect(KanbanFile.encode(decoded) == KanbanFile.encode(kanban))
    }

    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func theFileCodecReadsWhatFoundationWrites(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let kanban = try randomStoredKanban(using: &generator)
        for formatting in [[], [.prettyPrinted, .sortedKeys], [.withoutEscapingSlashes]]
            as [JSONEncoder.OutputFormatting]
        {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            let (decoded, format) = try KanbanFile.decode(Array(try encoder.encode(kanban)))
            #expect(decoded == kanban)
            #expect(format == .current)
            #expect(KanbanFile.encode(decoded) == KanbanFile.encode(kanban))
        }
    }

    @Test func foundationWritesTheSameSchema() throws {
        let kanban = try makeKanban([["a1"], []], titles: ["Todo", "Done"], limits: [nil, 3])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(kanban), as: UTF8.self)
        #expect(
            text
                == #"{"boards":[{"items":[{"id":"a1","title":"Card a1"}],"limit":null,"title":"Todo"},{"items":[],"limit":3,"title":"Done"}],"version":1}"#
        )
    }

    @Test func codableRefusesDuplicateIDs() throws {
        let text =
            #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "a1", "title": "x"}]}, {"title": "B", "limit": null, "items": [{"id": "a1", "title": "y"}]}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Kanban.self, from: Data(text.utf8)) }
    }

    @Test func codableRefusesDuplicateBoardTitles() throws {
        let text =
            #"{"version": 1, "boards": [{"title": "Todo", "limit": null, "items": []}, {"title": "TODO", "limit": null, "items": []}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Kanban.self, from: Data(text.utf8)) }
    }

    @Test(arguments: [
        #"{"version": 2, "boards": []}"#,
        #"{"boards": []}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": -1, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "toolongid", "title": "x"}]}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "a b", "title": "x"}]}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": 5, "title": "x"}]}]}"#,
    ])
    func codableRefusesWhatTheFileCodecRefuses(text: String) throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Kanban.self, from: Data(text.utf8)) }
        #expect(throws: KanbanError.self) { try KanbanFile.decode(text.bytes) }
    }

    @Test func itemIDsEncodeAsPlainStrings() throws {
        let id = try #require(ItemID("k3f9"))
        #expect(String(decoding: try JSONEncoder().encode([id]), as: UTF8.self) == #"["k3f9"]"#)
        #expect(try JSONDecoder().decode([ItemID].self, from: Data(#"["k3f9"]"#.utf8)) == [id])
    }
}
