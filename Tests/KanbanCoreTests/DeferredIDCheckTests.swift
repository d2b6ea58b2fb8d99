// The repeat check of ids that reading a file defers to its end
// (`ItemIDSet.containsRepeats`), against a `Set`, and the errors it leaves as they were.

import Testing

@testable import KanbanCore

@Suite struct DeferredIDChecks {
    @Test func repeatsAreFoundAsASetFindsThem() {
        var generator = SeededGenerator(seed: 5)
        var found = 0
        for count in [0, 1, 2, 100, 8_192, 8_193, 9_000, 40_000, 70_000] {
            for planted in [false, true] {
                var ids = (0..<count).map { _ in UInt64.random(in: 1...UInt64.max, using: &generator) }
                if planted && count > 1 {
                    let copy = ids[Int.random(in: 0..<count, using: &generator)]
                    ids[Int.random(in: 0..<count, using: &generator)] = copy
                }
                let expected = Set(ids).count != ids.count
                expectEqual(ItemIDSet.containsRepeats(ids), expected, "\(count) ids, planted: \(planted)")
                if expected { found += 1 }
            }
        }
        // Planting can pick the same index twice; most plants make a repeat.
        expectTrue(found >= 5)
    }

    /// A repeated id is reported on the line of its second card, even with another problem
    /// further on, as when each id was checked as it came.
    @Test func aRepeatedIDIsReportedWhereItIs() {
        func file(_ cards: [String]) -> [UInt8] {
            Array(
                (#"{"version": 2, "boards": [{"id": "b1", "title": "T", "limit": null, "items": ["#
                    + cards.joined(separator: ",\n") + "]}]}").utf8)
        }
        var cards = (0..<20_000).map { #"{"id": "c\#($0)", "title": "Card"}"# }
        cards[15_000] = #"{"id": "c7", "title": "Card"}"#
        for tail in [nil, #"{"id": "c19999", "title": " "}"#] {
            if let tail { cards[19_999] = tail }
            do {
                _ = try KanbanFile.decode(file(cards))
                Issue.record("a repeated id was read")
            } catch {
                guard case .corruptFile(let line, let message) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                expectEqual(line, 15_001)
                expectTrue(message.contains("c7"), "\(message)")
            }
        }
    }
}
