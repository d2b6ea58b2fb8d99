import Foundation
import Testing

@testable import KanbanCore

// The file reader's fuzz seeds for version 2 (Tests/Fuzz/corpus-file) are what they are
// meant to be: the valid ones read, and hold the round trip the fuzz target checks; the
// broken ones are refused for the reason in their name.

@Suite("Fuzz seeds of version 2")
struct FuzzSeedTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus-file").path

    func seed(_ name: String) throws -> [UInt8] {
        try require(FileManager.default.contents(atPath: Self.corpus + "/" + name).map(Array.init), "\(name)")
    }

    @Test(arguments: ["v2-every-field.json", "v2-minimal.json", "v2-any-order.json", "v2-note-escapes.json"])
    func aValidSeedReadsAndRoundTrips(name: String) throws {
        let (kanban, format) = try KanbanFile.decode(try seed(name))
        expectEqual(format, .current)
        let written = KanbanFile.encode(kanban)
        let (again, againFormat) = try KanbanFile.decode(written)
        expectEqual(again, kanban)
        expectEqual(againFormat, .current)
        expectEqual(KanbanFile.encode(again), written)
    }

    @Test func theSeedWithEveryFieldHasThemAll() throws {
        let kanban = try KanbanFile.decode(try seed("v2-every-field.json")).kanban
        let card = kanban.boards[0].items[0]
        expectTrue(
            !card.labels.isEmpty && card.due != nil && card.created != nil && card.entered != nil && card.note != nil)
        expectEqual(kanban.archive.count, 2)
        expectTrue(kanban.boardIndex(id: kanban.archive[1].board) == nil)
        // Written as this build writes it, the file is the seed itself.
        expectEqual(KanbanFile.encode(kanban), (try seed("v2-every-field.json")))
    }

    @Test(arguments: [
        ("v2-bad-label.json", "invalid label"), ("v2-bad-note.json", "invalid note"),
        ("v2-board-id-clash.json", "duplicate id"), ("v1-with-v2-key.json", "new in version 2"),
    ])
    func aBrokenSeedIsRefusedForItsReason(name: String, reason: String) throws {
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(try seed(name)) }
        guard case .corruptFile(_, let message) = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        expectTrue(message.contains(reason), "\(message)")
    }
}
