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
    item.assignees = try! Labels(
        validating: labelSets.randomElement(using: &generator)!.map { $0.replacing("@", with: "") })
    if Bool.random(using: &generator) {
        item.due = Day(daysSinceEpoch: Int.random(in: -800_000...2_900_000, using: &generator))
    }
    if Bool.random(using: &generator) {
        item.created = Timestamp(seconds: Int64.random(in: -10_000_000_000...200_000_000_000, using: &generator))
    }
    if Bool.random(using: &generator) {
        item.entered = Timestamp(seconds: Int64.random(in: 0...2_000_000_000, using: &generator))
    }
    if Bool.random(using: &generator) {
        var time = Int64.random(in: -1_000_000...2_000_000_000, using: &generator)
        item.trail = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
            time += Int64.random(in: 0...100_000, using: &generator)
            return TrailEntry(
                board: ItemID(["b1", "Todo-2", "longest_"].randomElement(using: &generator)!)!,
                time: Timestamp(seconds: time))
        }
        item.trail = TrailEntry.ordered(item.trail)
    }
    if Int.random(in: 0..<4, using: &generator) == 0 { item.note = "line one\n\t\"two\" ✓" }
    if Int.random(in: 0..<3, using: &generator) == 0 {
        item.conflicts = sampleConflicts(ConflictField.card, using: &generator)
    }
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
        case thePlainLinePathTakesALineOnlyAsTheLayoutsPathReadsIt
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theDirectWriterWritesWhatTheSchemaWrites: theDirectWriterWritesWhatTheSchemaWrites()
        case .theDirectReaderReadsWhatTheSchemaReadsOrStepsAside:
            try theDirectReaderReadsWhatTheSchemaReadsOrStepsAside()
        case .aLineInAnotherLayoutIsLeftToTheGeneralPath: try aLineInAnotherLayoutIsLeftToTheGeneralPath()
        case .thePlainLinePathTakesALineOnlyAsTheLayoutsPathReadsIt:
            thePlainLinePathTakesALineOnlyAsTheLayoutsPathReadsIt()
        }
    }

    /// A line read deferred from a file, by the plain-line path or by the layout's path: the
    /// card's id, where its kept line starts and ends, and where the reader stopped; `nil`
    /// when the path does not take the line (then it must have consumed nothing).
    private func readDeferred(_ bytes: [UInt8], plain: Bool) -> [Int]? {
        let file = FileBytes(bytes)
        return file.bytes.withUnsafeBufferPointer { buffer -> [Int]? in
            var reader = FileReader(json: JSONReader(buffer), version: KanbanFile.version, expectedIDs: 1)
            reader.file = file
            reader.deferringCards = true
            var items: [Item] = []
            let taken =
                plain
                ? (try? reader.readPlainDeferredLine(appendingTo: &items)) == true
                : (try? reader.readWrittenItem(appendingTo: &items)) == true
            guard taken else {
                expectEqual(reader.json.offset, 0, "a line not taken is not consumed")
                return nil
            }
            guard items.count == 1, items[0].isDeferred else { return [-1] }
            let line = items[0].line
            return [Int(line.start), Int(line.count), reader.json.offset]
                + Array(items[0].id.rawValue.utf8).map(Int.init)
        }
    }

    /// The plain-line path (README: Performance) takes a line only where the layout's path
    /// reads it deferred, and gives the same card: lines as written, and the same lines with
    /// one byte changed to one of the bytes either path looks for.
    func thePlainLinePathTakesALineOnlyAsTheLayoutsPathReadsIt() {
        var generator = SeededGenerator(seed: 47)
        let bytes: [UInt8] = Array(#""\{}[],: 0569AZTaz-_"#.utf8) + [0x7F, 0x80, 0xC3, 0x1F, 0x09, 0x0A]
        var (taken, changedTaken, changedRefused) = (0, 0, 0)
        for round in 0..<6_000 {
            var item = randomItem(using: &generator)
            if round % 2 == 0 {
                // Most cards of a file are plain: ASCII title and labels, no note nor conflict.
                item.title = "Plain title \(round)"
                let ascii = { (labels: Labels) in labels.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } }
                if !ascii(item.labels) { item.labels = Labels() }
                if !ascii(item.assignees) { item.assignees = Labels() }
                item.note = nil
                item.conflicts = Conflicts()
            }
            var line = KanbanFile.encode(item)
            let changed = round % 3 != 0
            if changed {
                line[Int.random(in: 0..<line.count, using: &generator)] = bytes.randomElement(using: &generator)!
            }
            // As in a file: the next card after it, and room for the path's fixed words.
            let file = line + Array(",\n      ".utf8) + Array(repeating: UInt8(ascii: " "), count: 64)
            let plain = readDeferred(file, plain: true)
            let layout = readDeferred(file, plain: false)
            if let plain {
                expectEqual(plain, layout, "\(String(decoding: line, as: UTF8.self))")
                taken += 1
                if changed { changedTaken += 1 }
            } else if changed && layout == nil {
                changedRefused += 1
            }
            if !changed && round % 2 == 0 {
                expectTrue(plain != nil, "a plain line takes the path: \(String(decoding: line, as: UTF8.self))")
            }
        }
        expectTrue(taken > 1_000, "plain lines take the path (\(taken) of 6,000)")
        expectTrue(
            changedTaken > 100 && changedRefused > 1_000,
            "changed lines: \(changedTaken) taken, \(changedRefused) refused")
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
    /// This block's checks, compiled as one parameterized test (one `@Test` each costs about
    /// 50 ms of build time; README: Development); a failure names its case.
    enum Check: CaseIterable {
        case timestampsWrittenAndReadThroughTheCacheMatchThePlainForms
        case aCachedHourDoesNotVouchForTheRestOfATimestamp
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) {
        switch check {
        case .timestampsWrittenAndReadThroughTheCacheMatchThePlainForms:
            timestampsWrittenAndReadThroughTheCacheMatchThePlainForms()
        case .aCachedHourDoesNotVouchForTheRestOfATimestamp: aCachedHourDoesNotVouchForTheRestOfATimestamp()
        }
    }

    func timestampsWrittenAndReadThroughTheCacheMatchThePlainForms() {
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

    func aCachedHourDoesNotVouchForTheRestOfATimestamp() {
        var cache = DateCache()
        let lines = [
            ("2026-11-23T10:04:05Z", Int64?.some(1_795_428_245)),
            ("2026-11-23T10:60:05Z", nil), ("2026-11-23T10:04:60Z", nil), ("2026-11-23T10-04:05Z", nil),
            ("2026-11-23T10:04:05+", nil), ("2026-11-23T10:4:05Z", nil), ("2026-11-23T10:59:59Z", 1_795_431_599),
            ("2026-11-23T24:00:00Z", nil), ("2026-02-30T10:00:00Z", nil), ("2026-11-23 10:04:05Z", nil),
            ("2026-11-23T11:00:00Z", 1_795_431_600), ("2026-11-23T10:00:00Z", 1_795_428_000),
            ("2026-11-23T10:0a:05Z", nil), ("2026-11-23T10:04:/5Z", nil), ("2026-11-23T10:04:5:Z", nil),
            ("2026-11-23T10:04:05z", nil), ("2026-11-23T10:04:05Z", 1_795_428_245),
        ]
        // Reading a time, and checking one only (the plain-line path), say the same.
        var checking = DateCache()
        for (text, expected) in lines {
            let bytes = Array(text.utf8)
            let read = bytes.withUnsafeBufferPointer { cache.instant($0) }
            expectEqual(read, expected, "\(text)")
            expectEqual(
                bytes.withUnsafeBufferPointer { checking.isInstant(at: $0.baseAddress!) }, expected != nil, "\(text)")
        }
        // Every byte at every place of the minutes and seconds, within a cached hour.
        var changed = 0
        for place in 13..<20 {
            for byte in UInt8.min...UInt8.max {
                var bytes = Array("2026-11-23T10:04:05Z".utf8)
                bytes[place] = byte
                let read = bytes.withUnsafeBufferPointer { cache.instant($0) }
                let checked = bytes.withUnsafeBufferPointer { checking.isInstant(at: $0.baseAddress!) }
                expectEqual(checked, read != nil, "\(bytes)")
                if read == nil { changed += 1 }
            }
        }
        expectTrue(changed > 1_500, "most bytes break a time (\(changed))")
    }
}

/// A field added to `Schema.item` must be added to the direct path too: else every card
/// silently takes the general path, and reading and writing a file cost twice as much.
@Test func theDirectPathKnowsEveryFieldOfTheSchema() {
    expectTrue(schemaIsKnown, "ItemLine.swift's knownFields differ from Schema.item: the direct path is off")
}

/// A card read from the file keeps its line there, and a write copies that line rather than
/// writing the card again (README: Performance): the bytes must be the ones writing the card
/// gives, for a card as read, and a card that changed in any way must be written anew.
@Suite struct KeptLines {
    /// This block's checks, compiled as one parameterized test (one `@Test` each costs about
    /// 50 ms of build time; README: Development); a failure names its case.
    enum Check: CaseIterable {
        case aFileAsReadIsWrittenAsItWasWithItsLinesKept
        case aCardThatChangesInAnyFieldIsWrittenFromItsFields
        case aLineHoldingTextTheWriterEscapesIsNotKept
        case cardsWrittenOnOneLineByHandAreWrittenOnALineEach
        case otherSpaceBetweenCardsIsWrittenAsTheLayoutsOwn
        case aPatchFindsTheChangedCardAmongCardsThatKeepTheirLines
        case deferredCardsReadAsTheirFieldsAndBecomeThemWhenChanged
    }

    /// Each check runs on cards that keep their lines with their fields read, and on
    /// deferred cards, whose fields stay in their lines until used (README: Performance).
    @Test(arguments: Check.allCases, [false, true])
    func each(_ check: Check, deferring: Bool) throws {
        let read = Reading(deferring: deferring)
        switch check {
        case .aFileAsReadIsWrittenAsItWasWithItsLinesKept: try aFileAsReadIsWrittenAsItWasWithItsLinesKept(read)
        case .aCardThatChangesInAnyFieldIsWrittenFromItsFields:
            try aCardThatChangesInAnyFieldIsWrittenFromItsFields(read)
        case .aLineHoldingTextTheWriterEscapesIsNotKept: try aLineHoldingTextTheWriterEscapesIsNotKept(read)
        case .cardsWrittenOnOneLineByHandAreWrittenOnALineEach:
            try cardsWrittenOnOneLineByHandAreWrittenOnALineEach(read)
        case .otherSpaceBetweenCardsIsWrittenAsTheLayoutsOwn: try otherSpaceBetweenCardsIsWrittenAsTheLayoutsOwn(read)
        case .aPatchFindsTheChangedCardAmongCardsThatKeepTheirLines:
            try aPatchFindsTheChangedCardAmongCardsThatKeepTheirLines(read)
        case .deferredCardsReadAsTheirFieldsAndBecomeThemWhenChanged:
            try deferredCardsReadAsTheirFieldsAndBecomeThemWhenChanged(read)
        }
    }

    /// Reading a file to be written back: its cards keep their lines, deferred or not.
    struct Reading {
        let deferring: Bool

        func callAsFunction(_ bytes: [UInt8]) throws -> Kanban {
            try KanbanFile.decode(bytes, keepingLines: true, deferringCards: deferring).kanban
        }
    }

    /// A file of `items` over two boards, as this build writes it.
    private func file(_ items: [Item]) -> [UInt8] {
        let half = items.count / 2
        return KanbanFile.encode(
            Kanban(trusted: [
                Board(id: ItemID("bd1")!, title: "One", items: Array(items[..<half])),
                Board(id: ItemID("bd2")!, title: "Two", items: Array(items[half...])),
            ]))
    }

    /// The file's text for `kanban`: a failure shows text, not bytes.
    private func text(_ kanban: Kanban) -> String {
        String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
    }

    /// The kanban with no card keeping a line: every card written from its fields.
    private func forgettingLines(_ kanban: Kanban) -> Kanban {
        var kanban = kanban
        for board in kanban.boards.indices {
            for index in kanban.boards[board].items.indices { kanban.boards[board].items[index].forgetLine() }
        }
        return kanban
    }

    private func randomItems(seed: UInt64, count: Int) -> [Item] {
        var generator = SeededGenerator(seed: seed)
        var ids = Set<ItemID>()
        return (0..<count).compactMap { _ in
            let item = randomItem(using: &generator)
            return ids.insert(item.id).inserted ? item : nil
        }
    }

    func aFileAsReadIsWrittenAsItWasWithItsLinesKept(_ read: Reading) throws {
        let bytes = file(randomItems(seed: 31, count: 600))
        let kanban = try read(bytes)
        let cards = kanban.boards.flatMap(\.items)
        let onlyRead = try KanbanFile.decode(bytes).kanban
        expectEqual(onlyRead, kanban)
        expectEqual(
            onlyRead.boards.flatMap(\.items).filter { $0.line.file != nil }.count, 0, "a kanban only read keeps no line"
        )
        let kept = cards.filter { $0.line.file != nil }.count
        // Cards with a note, a recorded conflict or a title the writer escapes keep none.
        expectTrue(
            kept > 100 && kept < cards.count, "some cards keep their line, some do not (\(kept) of \(cards.count))")
        expectEqual(KanbanFile.encode(kanban), bytes)
        expectEqual(KanbanFile.encode(forgettingLines(kanban)), bytes)
    }

    /// Every card field, set from another card on a card that keeps its line: the write is
    /// the card's new fields, never its old line.
    func aCardThatChangesInAnyFieldIsWrittenFromItsFields(_ read: Reading) throws {
        let items = randomItems(seed: 32, count: 400)
        let kanban = try read(file(items))
        var generator = SeededGenerator(seed: 33)
        for field in CardField.all {
            var changedKeptCards = 0
            for _ in 0..<200 {
                var changed = kanban
                let board = Int.random(in: 0..<2, using: &generator)
                let index = Int.random(in: changed.boards[board].items.indices, using: &generator)
                guard changed.boards[board].items[index].line.file != nil else { continue }
                let other = items.randomElement(using: &generator)!
                let before = changed.boards[board].items[index]
                field.set(&changed.boards[board].items[index], field.value(other))
                guard changed.boards[board].items[index] != before else { continue }
                changedKeptCards += 1
                expectEqual(
                    text(changed), text(forgettingLines(changed)), "\(field.name) set on \(before.id)")
            }
            expectTrue(
                changedKeptCards >= 10, "cards that kept a line changed their \(field.name) (\(changedKeptCards))")
        }
        // The fields that are not descriptors: the id and the recorded conflicts.
        var changed = kanban
        let index = try require(changed.boards[0].items.firstIndex { $0.line.file != nil })
        changed.boards[0].items[index].id = ItemID("zz9")!
        changed.boards[0].items[index + 1].conflicts = sampleConflicts(ConflictField.card, using: &generator)
        changed.boards[0].items[index + 2].title += "!"
        expectEqual(text(changed), text(forgettingLines(changed)))
    }

    /// A hand-edited line may hold, unescaped, what the writer escapes (a DEL, a C1 control, a
    /// line separator): such a line is read, but not kept; the write escapes it.
    func aLineHoldingTextTheWriterEscapesIsNotKept(_ read: Reading) throws {
        for raw in ["a\u{7F}b", "a\u{85}b", "a\u{2028}b", "a\u{202E}b"] {
            let text = """
                {"version": 2, "boards": [{"id": "bd1", "title": "One", "limit": null, "items": [
                {"id": "c1", "title": "\(raw)"}
                ]}]}
                """
            let kanban = try read(Array(text.utf8))
            let card = kanban.boards[0].items[0]
            expectEqual(card.title, raw)
            expectTrue(card.line.file == nil, "\(raw.unicodeScalars.map { $0.value })")
            let written = String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
            expectTrue(written.contains("\\u"), "the write escapes it: \(written)")
        }
    }

    /// Cards written on one line by hand each keep their own line, and each is written on a
    /// line of its own.
    func cardsWrittenOnOneLineByHandAreWrittenOnALineEach(_ read: Reading) throws {
        let source = """
            {"version": 2, "boards": [{"id": "bd1", "title": "One", "limit": null, "items": [
            {"id": "c1", "title": "a"}, {"id": "c2", "title": "b"},
            {"id": "c3", "title": "c"}, {"id": "c4", "title": "d"}
            ]}, {"id": "bd2", "title": "Two", "limit": null, "items": [{"id": "c5", "title": "e"}]}]}
            """
        let kanban = try read(Array(source.utf8))
        let cards = kanban.boards.flatMap(\.items)
        expectEqual(cards.map { $0.line.file != nil }, [true, true, true, true, true])
        expectEqual(text(kanban), text(forgettingLines(kanban)))
        expectTrue(text(kanban).contains("\n        {\"id\": \"c2\", \"title\": \"b\"},\n        {\"id\": \"c3\""))
    }

    /// Cards read from lines with other space between them than the layout's are written with
    /// the layout's own: lines that follow each other are copied as one piece only where the
    /// file had exactly the layout's bytes between them (README: Performance).
    func otherSpaceBetweenCardsIsWrittenAsTheLayoutsOwn(_ read: Reading) throws {
        // Cards that keep their lines: no note, no recorded conflict, a title with no escape.
        let layout = file(
            randomItems(seed: 36, count: 400).map { item in
                var item = item
                item.note = nil
                item.conflicts = Conflicts()
                if item.title.contains(where: { $0 == "\"" || $0 == "\t" }) { item.title = "Plain" }
                return item
            })
        let separator = ",\n        {"
        // Some as long as the layout's, so that only their bytes differ.
        let others = [",\n\t       {", ",\n       \t{", ",\n         {", ",\n\t{", " ,\n        {", ",\r\n        {"]
        var generator = SeededGenerator(seed: 37)
        let parts = String(decoding: layout, as: UTF8.self).split(
            separator: separator, omittingEmptySubsequences: false)
        var spaced = String(parts[0])
        var changed = 0
        for part in parts.dropFirst() {
            let other = Int.random(in: 0..<8, using: &generator) == 0
            if other { changed += 1 }
            spaced += (other ? others.randomElement(using: &generator)! : separator) + part
        }
        expectTrue(changed > 20 && changed < 100, "\(changed) separators changed")
        expectEqual(text(try read(Array(spaced.utf8))), String(decoding: layout, as: UTF8.self))
    }

    /// A patch compares cards that keep the same line without their fields; a card that
    /// changed is still found, whether or not it kept a line.
    func aPatchFindsTheChangedCardAmongCardsThatKeepTheirLines(_ read: Reading) throws {
        let kanban = try read(file(randomItems(seed: 34, count: 300)))
        var generator = SeededGenerator(seed: 35)
        for _ in 0..<50 {
            var changed = kanban
            let board = Int.random(in: 0..<2, using: &generator)
            let index = Int.random(in: changed.boards[board].items.indices, using: &generator)
            changed.boards[board].items[index].title += " (edited)"
            let patch = Patch(from: kanban, to: changed)
            let stretches = try require(patch.cards[changed.boards[board].id])
            expectEqual(stretches.count, 1)
            let stretch = try require(stretches.first)
            expectEqual(stretch.offset, index)
            expectEqual(stretch.after.map(\.title), [changed.boards[board].items[index].title])
            expectEqual(patch.exactlyApplied(to: kanban), changed)
        }
    }
}

extension KeptLines {
    /// Deferred cards (of a kanban read to be written back) give every field as the card read
    /// in full, equal it and hash as it does. A change to one reads its fields first: the
    /// card changed is no longer deferred and keeps no line, while a copy taken before is
    /// still deferred and still the card as read. A card's fields are its own: a change to a
    /// copy of a card that shares them leaves the card as it was.
    func deferredCardsReadAsTheirFieldsAndBecomeThemWhenChanged(_ read: Reading) throws {
        let bytes = file(randomItems(seed: 37, count: 400))
        let plain = try KanbanFile.decode(bytes).kanban.boards.flatMap(\.items)
        let cards = try read(bytes).boards.flatMap(\.items)
        let deferred = cards.filter(\.isDeferred).count
        if read.deferring {
            expectTrue(
                deferred > 40 && deferred < cards.count,
                "some cards are deferred, some not (\(deferred) of \(cards.count))")
        } else {
            expectEqual(deferred, 0, "cards are deferred only when asked")
        }
        expectEqual(cards.count, plain.count)
        var generator = SeededGenerator(seed: 38)
        var changedDeferred = 0
        for (card, full) in zip(cards, plain) {
            expectEqual(card.id, full.id)
            expectEqual(card.title, full.title)
            expectEqual(card.note, full.note)
            expectEqual(card.conflicts, full.conflicts)
            for field in CardField.all {
                expectEqual(field.value(card), field.value(full), "\(field.name) of \(card.id)")
            }
            expectTrue(card == full && full == card, "\(card.id) equals the card read in full")
            expectEqual(card.hashValue, full.hashValue, "\(card.id) hashes as the card read in full")
            let field = try require(CardField.all.randomElement(using: &generator))
            let value = field.value(try require(plain.randomElement(using: &generator)))
            var changed = card
            field.set(&changed, value)
            var expected = full
            field.set(&expected, value)
            expectEqual(changed, expected, "\(field.name) set on \(card.id)")
            expectTrue(changed.line.file == nil && !changed.isDeferred, "a changed card keeps no line")
            expectEqual(card, full, "\(card.id), copied before the change, is as read")
            guard card.isDeferred else { continue }
            expectTrue(card.line.file != nil, "\(card.id), copied before the change, keeps its line")
            changedDeferred += 1
        }
        if read.deferring { expectTrue(changedDeferred > 40, "deferred cards changed (\(changedDeferred))") }
        // Cards that share their fields' box with a copy: a change to one (the title, and an
        // arrival, which changes two fields in place) leaves the other as it was.
        let fresh = try KanbanFile.decode(bytes).kanban.boards.flatMap(\.items)
        for (full, unchanged) in zip(plain, fresh).prefix(50) {
            var copy = full
            copy.title += "!"
            copy.arrive(on: ItemID("bd9")!, at: Timestamp(seconds: 1_800_000_000))
            expectEqual(copy.title, full.title + "!")
            expectTrue(copy.trail.count == full.trail.count + 1 && copy.entered != full.entered)
            expectEqual(full, unchanged)
        }
    }

    /// The direct path reads most sets of labels and names by comparing their bytes with the
    /// last sets read (`WordsCache`): sets that start alike, or hold `]`, and more sets than
    /// it keeps, read back as they were written, card by card.
    @Test func setsOfWordsReadFromTheLastSetsAreTheSetsWritten() throws {
        let sets: [[String]] = [
            ["a"], ["a", "b"], ["a]"], ["a]", "b"], ["a", "b]"], ["ab"], ["b"], ["a", "c"], ["a", "b", "c"],
            ["bug"], ["bug", "p1"], ["p1"], ["x]", "y"],
        ]
        var generator = SeededGenerator(seed: 36)
        let items = (0..<800).map { index in
            Item(
                id: ItemID("c\(index)")!, title: "Card \(index)",
                labels: try! Labels(validating: sets.randomElement(using: &generator)!),
                assignees: try! Labels(validating: sets.randomElement(using: &generator)!))
        }
        let read = try KanbanFile.decode(file(items), keepingLines: true).kanban.boards.flatMap(\.items)
        expectEqual(read.count, items.count)
        let wrong = zip(read, items).filter { $0 != $1 }.map(\.1.id)
        expectEqual(wrong, [], "cards read with other words")
        expectEqual(read.filter { $0.line.file != nil }.count, items.count)
    }
}
