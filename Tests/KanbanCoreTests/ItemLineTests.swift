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
    item.assignees = try! Labels(validating: labelSets.randomElement(using: &generator)!.map { $0.replacing("@", with: "") })
    if Bool.random(using: &generator) { item.due = Day(daysSinceEpoch: Int.random(in: -800_000...2_900_000, using: &generator)) }
    if Bool.random(using: &generator) { item.created = Timestamp(seconds: Int64.random(in: -10_000_000_000...200_000_000_000, using: &generator)) }
    if Bool.random(using: &generator) { item.entered = Timestamp(seconds: Int64.random(in: 0...2_000_000_000, using: &generator)) }
    if Bool.random(using: &generator) {
        var time = Int64.random(in: -1_000_000...2_000_000_000, using: &generator)
        item.trail = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
            time += Int64.random(in: 0...100_000, using: &generator)
            return TrailEntry(board: ItemID(["b1", "Todo-2", "longest_"].randomElement(using: &generator)!)!, time: Timestamp(seconds: time))
        }
        item.trail = TrailEntry.ordered(item.trail)
    }
    if Int.random(in: 0..<4, using: &generator) == 0 { item.note = "line one\n\t\"two\" ✓" }
    if Int.random(in: 0..<3, using: &generator) == 0 { item.conflicts = sampleConflicts(ConflictField.card, using: &generator) }
    return item
}

/// What `write` writes, through a buffer of `capacity` bytes: a card's line is written in one
/// piece when the buffer can hold the longest it may be, and part by part otherwise.
private func bytes(capacity: Int = 4096, _ write: (inout ChunkWriter) throws -> Void) -> [UInt8] {
    var out: [UInt8] = []
    withoutActuallyEscaping({ (chunk: UnsafeRawBufferPointer) in out.append(contentsOf: chunk) }) { sink in
        var writer = ChunkWriter(capacity: capacity, sink: sink)
        defer { writer.deallocate() }
        try! write(&writer)
        try! writer.flush()
    }
    return out
}

@Suite struct ItemLines {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theDirectWriterWritesWhatTheSchemaWrites
        case theDirectReaderReadsWhatTheSchemaReadsOrStepsAside
        case aLineInAnotherLayoutIsLeftToTheGeneralPath
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theDirectWriterWritesWhatTheSchemaWrites: theDirectWriterWritesWhatTheSchemaWrites()
        case .theDirectReaderReadsWhatTheSchemaReadsOrStepsAside:
            try theDirectReaderReadsWhatTheSchemaReadsOrStepsAside()
        case .aLineInAnotherLayoutIsLeftToTheGeneralPath: try aLineInAnotherLayoutIsLeftToTheGeneralPath()
        }
    }

    func theDirectWriterWritesWhatTheSchemaWrites() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            let item = randomItem(using: &generator)
            let direct = bytes { try $0.appendWrittenItem(item) }
            let inParts = bytes(capacity: 64) { try $0.appendWrittenItem(item) }
            let general = bytes { out in try Schema.item.withUnsafeBufferPointer { try out.writeInline(item, $0) } }
            expectEqual(direct, general, "\(item)")
            expectEqual(inParts, general, "\(item)")
        }
    }

    func theDirectReaderReadsWhatTheSchemaReadsOrStepsAside() throws {
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
                expectEqual(general, item)
                var read: [Item] = []
                if try fast.readWrittenItem(appendingTo: &read) {
                    direct += 1
                    expectEqual(read, [item])
                    expectEqual(fast.json.offset, slow.json.offset, "both stop after the card")
                } else {
                    expectEqual(fast.json.offset, 0, "stepping aside consumes nothing")
                }
            }
        }
        expectTrue(direct > 500, "plain cards take the direct path (\(direct) of 2,000)")
    }

    func aLineInAnotherLayoutIsLeftToTheGeneralPath() throws {
        let lines = [
            #"{"title": "x", "id": "a1"}"#,
            #"{"id": "a1", "title": "x", "due": "2026-02-30"}"#,
            #"{"id": "a1", "title": "x", "labels": ["b", "a"]}"#,
            #"{"id": "a1", "title": "x", "labels": ["a b"]}"#,
            #"{"id": "a1", "title": "x", "labels": ["B", "a"]}"#,
            #"{"id": "a1", "title": "x", "labels": ["a", "A"]}"#,
            #"{"id": "a1", "title": "x", "labels": ["ab", "a"]}"#,
            #"{"id": "a1", "title": "x", "labels": []}"#,
            #"{"id": "a1", "title": "x", "created": "2026-01-01T00:00:00+01:00"}"#,
            #"{"id": "a1", "title": "x" }"#,
            #"{"id": "a1", "title": "x", "extra": 1}"#,
            #"{"id": "a1", "title": "x", "trail": []}"#,
            #"{"id": "a1", "title": "x", "trail": [["b2", "2026-01-02T00:00:00Z"], ["b1", "2026-01-01T00:00:00Z"]]}"#,
            #"{"id": "a1", "title": "x", "trail": [["b1", "2026-01-01T00:00:00Z"], ["b1", "2026-01-01T00:00:00Z"]]}"#,
            #"{"id": "a1", "title": "x", "trail": [["b1", "2026-01-01T00:00:00+01:00"]]}"#,
            #"{"id": "a1", "title": "x", "trail": [["b1","2026-01-01T00:00:00Z"]]}"#,
        ]
        for line in lines {
            let bytes = Array(line.utf8)
            try bytes.withUnsafeBufferPointer { (buffer) throws(KanbanError) in
                var reader = FileReader(json: JSONReader(buffer), version: 2, expectedIDs: 1)
                var read: [Item] = []
                let direct = try reader.readWrittenItem(appendingTo: &read)
                expectTrue(!direct, "\(line)")
                expectTrue(read.isEmpty)
                expectEqual(reader.json.offset, 0)
            }
        }
    }
}

extension ItemLines {
    /// A moved card has a trail, and most cards of a board in use have moved: they stay on the
    /// direct path, both ways.
    @Test func aCardWithATrailTakesTheDirectPath() throws {
        var item = Item(
            id: ItemID("k3f9p2")!, title: "Moved", labels: ["bug"], created: Timestamp(seconds: 1_000),
            entered: Timestamp(seconds: 5_000))
        item.trail = [
            TrailEntry(board: ItemID("todo1")!, time: Timestamp(seconds: 1_000)),
            TrailEntry(board: ItemID("done-b_1")!, time: Timestamp(seconds: 5_000)),
        ]
        let line = bytes { try $0.appendWrittenItem(item) }
        expectEqual(
            String(decoding: line, as: UTF8.self),
            #"{"id": "k3f9p2", "title": "Moved", "labels": ["bug"], "created": "1970-01-01T00:16:40Z", "#
                + #""entered": "1970-01-01T01:23:20Z", "trail": [["todo1", "1970-01-01T00:16:40Z"], "#
                + #"["done-b_1", "1970-01-01T01:23:20Z"]]}"#)
        try line.withUnsafeBufferPointer { (buffer) throws(KanbanError) in
            var reader = FileReader(json: JSONReader(buffer), version: 2, expectedIDs: 1)
            var read: [Item] = []
            expectTrue(try reader.readWrittenItem(appendingTo: &read), "the direct path reads a trail")
            expectEqual(read, [item])
            expectEqual(reader.json.offset, buffer.count)
        }
    }
}

/// The hot path's date cache (`DateCache`), which remembers two hours: timestamps written
/// and read one after another, clustered so that the cache hits, misses and swaps, against
/// the plain formatter and parser.
@Suite struct DateCaches {
    @Test func timestampsWrittenAndReadThroughTheCacheMatchThePlainForms() {
        var generator = SeededGenerator(seed: 21)
        // Runs of two alternating hours, as a card's `created` and `entered` alternate.
        var times: [Timestamp] = []
        let bases: [Int64] = [0, 1_790_000_000, -62_167_219_200, 253_402_300_799 - 7200, -1]
        for _ in 0..<600 {
            let hours = (0..<2).map { _ in
                bases.randomElement(using: &generator)! + Int64.random(in: -3...3, using: &generator) * 3600
            }
            for index in 0..<Int.random(in: 2...8, using: &generator) {
                times.append(Timestamp(seconds: hours[index % 2] + Int64.random(in: 0..<3600, using: &generator)))
            }
        }
        var written: [UInt8] = []
        withoutActuallyEscaping({ (chunk: UnsafeRawBufferPointer) in written.append(contentsOf: chunk) }) { sink in
            var writer = ChunkWriter(capacity: 256, sink: sink)
            defer { writer.deallocate() }
            for time in times { try! writer.appendQuoted(time) }
            try! writer.flush()
        }
        expectEqual(written, Array(times.map { "\"\($0.description)\"" }.joined().utf8))
        var cache = DateCache()
        var hits = 0
        written.withUnsafeBufferPointer { buffer in
            for (index, time) in times.enumerated() {
                let text = UnsafeBufferPointer(rebasing: buffer[index * 22 + 1..<index * 22 + 21])
                expectEqual(cache.instant(text), time.seconds)
                expectEqual(Timestamp(rfc3339: String(decoding: text, as: UTF8.self)), time)
                if index > 1 && text.prefix(13).elementsEqual(buffer[(index - 2) * 22 + 1..<(index - 2) * 22 + 14]) {
                    hits += 1
                }
            }
        }
        expectTrue(hits > 1_000, "the cache was exercised on repeated hours (\(hits) of \(times.count))")
    }

    @Test func aCachedHourDoesNotVouchForTheRestOfATimestamp() {
        var cache = DateCache()
        let lines = [
            ("2026-11-23T10:04:05Z", Int64?.some(1_795_428_245)),
            ("2026-11-23T10:60:05Z", nil), ("2026-11-23T10:04:60Z", nil), ("2026-11-23T10-04:05Z", nil),
            ("2026-11-23T10:04:05+", nil), ("2026-11-23T10:4:05Z", nil), ("2026-11-23T10:59:59Z", 1_795_431_599),
            ("2026-11-23T24:00:00Z", nil), ("2026-02-30T10:00:00Z", nil), ("2026-11-23 10:04:05Z", nil),
            ("2026-11-23T11:00:00Z", 1_795_431_600), ("2026-11-23T10:00:00Z", 1_795_428_000),
        ]
        for (text, expected) in lines {
            let bytes = Array(text.utf8)
            let read = bytes.withUnsafeBufferPointer { cache.instant($0) }
            expectEqual(read, expected, "\(text)")
        }
    }
}

/// A field added to `Schema.item` must be added to the direct path too: else every card
/// silently takes the general path, and reading and writing a file cost twice as much.
@Test func theDirectPathKnowsEveryFieldOfTheSchema() {
    expectTrue(schemaIsKnown, "ItemLine.swift's knownFields differ from Schema.item: the direct path is off")
}
