import Testing

@testable import KanbanCore

/// ``ItemIDSet`` and ``ItemIDMap`` do what `Set<ItemID>` and `Dictionary<ItemID, _>` do, for
/// the operations they have: checked against them on random ids, many of them repeated,
/// through many growths.
@Suite("Id sets and maps")
struct ItemIDMapTests {
    /// Ids of 3 to 8 characters, drawn from four, so that many repeat.
    static func ids(_ count: Int, seed: UInt64) -> [ItemID] {
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("0a1z")
        return (0..<count).map { _ in
            let length = Int.random(in: 3...8, using: &generator)
            let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<4, using: &generator)] })
            return ItemID(text)!
        }
    }

    @Test(arguments: [0, 1, 7, 100, 5_000]) func aMapAgreesWithADictionary(expected: Int) {
        let ids = Self.ids(20_000, seed: UInt64(expected) + 1)
        var map = ItemIDMap<Int>(expected: expected)
        var reference: [ItemID: Int] = [:]
        var set = ItemIDSet(expected: expected)
        var referenceSet: Set<ItemID> = []
        var disagreements = 0
        for (step, id) in ids.enumerated() {
            if map[id] != reference[id] { disagreements += 1 }
            map[id] = step
            reference[id] = step
            if set.insert(id) != referenceSet.insert(id).inserted { disagreements += 1 }
        }
        expectEqual(disagreements, 0)
        expectTrue(map.count == reference.count && set.count == referenceSet.count)
        expectTrue(reference.count > 1_000 && reference.count < ids.count, "ids repeat, and the map grew")
        for id in Self.ids(2_000, seed: 99) {
            expectEqual(map[id], reference[id])
            expectEqual(set.contains(id), referenceSet.contains(id))
        }
        map[ids[0]] = nil
        expectEqual(map[ids[0]], reference[ids[0]], "nil removes nothing")
    }
}
