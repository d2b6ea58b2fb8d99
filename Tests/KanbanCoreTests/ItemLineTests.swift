// The direct path for a card's line (`ItemLine.swift`) against the schema's general path:
// the same bytes written, the same card read, for every kind of card.

import Testing

@testable import KanbanCore

/// A card with a random selection of fields, some values needing escapes or not ASCII.
private func randomItem(using generator: inout SeededGenerator) -> Item {
    let titles = ["Plain title", "With \"quotes\" and \\ slash", "Ünïcode 漢字 🧑‍💻", "tab\there", "x"]
    let labelSets: [[String]] = [[], ["bug"], ["p1", "Bug"], ["@alice", "zeta", "alpha"], ["ünï"], ["a-b_c", "B2"]]
    var item = Item(
        id: ItemID("c\(Int.random(in: 10_000...99_999, using: &generator))")!,
        title: titles.randomElement(using: &generator)!)
    item.labels = try! Labels(validating: labelSets.randomElement(using: &generator)!)
    if Bool.random(using: &generator) { item.due = Day(daysSinceEpoch: Int.random(in: -800_000...2_900_000, using: &generator)) }
    if Bool.random(using: &generator) { item.created = Timestamp(seconds: Int64.random(in: -10_000_000_000...200_000_000_000, using: &generator)) }
    if Bool.random(using: &generator) { item.entered = Timestamp(seconds: Int64.random(in: 0...2_000_000_000, using: &generator)) }
    if Int.random(in: 0..<4, using: &generator) == 0 { item.note = "line one\n\t\"two\" ✓" }
    return item
}

private func bytes(_ write: (inout ChunkWriter) throws -> Void) -> [UInt8] {
    var out: [UInt8] = []
    withoutActuallyEscaping({ (chunk: UnsafeRawBufferPointer) in out.append(contentsOf: chunk) }) { sink in
        var writer = ChunkWriter(capacity: 64, sink: sink)
        defer { writer.deallocate() }
        try! write(&writer)
        try! writer.flush()
    }
    return out
}

@Suite struct ItemLines {
    @Test func theDirectWriterWritesWhatTheSchemaWrites() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            let item = randomItem(using: &generator)
            let direct = bytes { try $0.appendWrittenItem(item) }
            let general = bytes { out in try Schema.item.withUnsafeBufferPointer { try out.writeInline(item, $0) } }
            #expect(direct == general, "\(item)")
        }
    }

    @Test func theDirectReaderReadsWhatTheSchemaReadsOrStepsAside() throws {
        var generator = SeededGenerator(seed: 12)
        var direct = 0
        for _ in 0..<2_000 {
            let item = randomItem(using: &generator)
            let line = bytes { try $0.appendWrittenItem(item) }
            try line.withUnsafeBufferPointer { buffer in
                var fast = FileReader(json: JSONReader(buffer), version: 2, expectedIDs: 1)
                var slow = FileReader(json: JSONReader(buffer), version: 2, expectedIDs: 1)
                var general = Schema.blankItem
                try slow.readObject(Schema.item, into: &general, owner: "an item")
                #expect(general == item)
                if let read = fast.readWrittenItem() {
                    direct += 1
                    #expect(read == item)
                    #expect(fast.json.offset == slow.json.offset, "both stop after the card")
                } else {
                    #expect(fast.json.offset == 0, "stepping aside consumes nothing")
                }
            }
        }
        #expect(direct > 500, "plain cards take the direct path (\(direct) of 2,000)")
    }

    @Test func aLineInAnotherLayoutIsLeftToTheGeneralPath() throws {
        let lines = [
            #"{"title": "x", "id": "a1"}"#,
            #"{"id": "a1", "title": "x", "due": "2026-02-30"}"#,
            #"{"id": "a1", "title": "x", "labels": ["b", "a"]}"#,
            #"{"id": "a1", "title": "x", "labels": ["a b"]}"#,
            #"{"id": "a1", "title": "x", "created": "2026-01-01T00:00:00+01:00"}"#,
            #"{"id": "a1", "title": "x" }"#,
            #"{"id": "a1", "title": "x", "extra": 1}"#,
        ]
        for line in lines {
            let bytes = Array(line.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                var reader = FileReader(json: JSONReader(buffer), version: 2, expectedIDs: 1)
                #expect(reader.readWrittenItem() == nil, "\(line)")
                #expect(reader.json.offset == 0)
            }
        }
    }
}
