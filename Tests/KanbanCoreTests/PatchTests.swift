// The history's patches: exact in both directions, compact, and recorded faithfully.

import Testing

@testable import KanbanCore

/// A random kanban of up to 4 boards with up to 6 cards each, some with labels, a due date,
/// timestamps or a note, and a small archive.
private func randomKanban(using generator: inout SeededGenerator) throws -> Kanban {
    var kanban = Kanban.empty
    let titles = ["Todo", "Doing", "Review", "Done"].prefix(Int.random(in: 1...4, using: &generator))
    for title in titles { try kanban.addBoard(Title(title), using: &generator) }
    let moment = Moment(now: Timestamp(seconds: 1_790_000_000), today: Day(daysSinceEpoch: 20_700))
    for board in kanban.boards.indices {
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            let labels: Labels = Bool.random(using: &generator) ? ["bug"] : []
            let due: DueInput? = Bool.random(using: &generator) ? .inDays(Int.random(in: -5...5, using: &generator)) : nil
            try kanban.apply(
                .add(
                    titles: [Title("card \(Int.random(in: 0...99, using: &generator))")],
                    to: kanban.boards[board].title, position: nil,
                    content: NewCardContent(
                        labels: labels, due: due,
                        note: Bool.random(using: &generator) ? "a note\nwith \"quotes\"" : nil)),
                at: moment, using: &generator)
        }
    }
    if kanban.itemCount > 0 && Bool.random(using: &generator) {
        try kanban.archive([Location(board: 0, index: 0)].filter(kanban.contains), now: moment.now)
    }
    return kanban
}

/// A random operation that may succeed on `kanban` (or be refused: then the test tries another).
private func randomOperation(in kanban: Kanban, using generator: inout SeededGenerator) -> Operation {
    let ids = kanban.boards.flatMap { $0.items.map(\.id.rawValue) }
    let boards = kanban.boards.map(\.title)
    let item = ids.randomElement(using: &generator) ?? "none"
    let board = boards.randomElement(using: &generator) ?? "none"
    switch Int.random(in: 0..<10, using: &generator) {
    case 0: return .move(items: [item], to: board, position: .at(Int.random(in: -2...3, using: &generator)))
    case 1: return .copy(items: [item], to: board)
    case 2: return .remove(items: [item])
    case 3: return .edit(item: item, edits: EditInput(words: ["labels": WordEdits(add: ["p1"], remove: ["bug"])], due: DueInput.none))
    case 4: return .archive(items: [item])
    case 5: return .restore(items: kanban.archive.map(\.item.id.rawValue).prefix(1).map { $0 })
    case 6: return .boardRename(board: board, title: try! Title("Renamed \(Int.random(in: 0...9, using: &generator))"))
    case 7: return .boardMove(board: board, at: Int.random(in: 0..<max(1, boards.count), using: &generator))
    case 8: return .boardRole(board: board, role: BoardRole.allCases.randomElement(using: &generator))
    default: return .boardLimit(board: board, limit: Bool.random(using: &generator) ? nil : 3)
    }
}

@Suite struct Patches {
    @Test(arguments: 0..<8)
    func aPatchTakesTheKanbanExactlyBackAndForth(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) * 7919 + 1)
        let moment = Moment(now: Timestamp(seconds: 1_790_100_000), today: Day(daysSinceEpoch: 20_710))
        var checked = 0
        for _ in 0..<40 {
            let before = try randomKanban(using: &generator)
            var after = before
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                _ = try? after.apply(randomOperation(in: after, using: &generator), at: moment, using: &generator)
            }
            let patch = Patch(from: before, to: after)
            expectEqual(patch.isEmpty, (before == after))
            expectEqual(patch.exactlyApplied(to: before), after)
            expectEqual(patch.exactlyUndone(from: after), before)
            expectEqual(KanbanFile.encode(try require(patch.exactlyUndone(from: after))), KanbanFile.encode(before))
            expectEqual(patch.reversed.reversed, patch)
            checked += 1
        }
        expectEqual(checked, 40)
    }

    /// Boards of up to 40 cards changed by up to 10 operations: patches of several
    /// stretches a board, applied both ways, written and read back, and taken back through
    /// the merge when the kanban changed elsewhere since.
    @Test(arguments: 0..<6)
    func aPatchOfSeveralStretchesTakesTheKanbanExactlyBackAndForth(seed: Int) throws {
        print("seed \(seed)")
        var generator = SeededGenerator(seed: UInt64(seed) &* 6_271 &+ 5)
        let moment = Moment(now: Timestamp(seconds: 1_790_100_000), today: Day(daysSinceEpoch: 20_710))
        var several = 0
        for _ in 0..<30 {
            var before = Kanban.empty
            for title in ["Todo", "Doing", "Done"] { try before.addBoard(Title(title), using: &generator) }
            for board in 0..<3 {
                let cards = try (0..<Int.random(in: 0...40, using: &generator)).map {
                    CardContent(title: try Title("card \($0)"))
                }
                try before.insert(cards, into: board, using: &generator)
            }
            var after = before
            for _ in 0..<Int.random(in: 1...10, using: &generator) {
                _ = try? after.apply(randomOperation(in: after, using: &generator), at: moment, using: &generator)
            }
            let patch = Patch(from: before, to: after)
            if patch.cards.values.contains(where: { $0.count > 1 }) { several += 1 }
            expectEqual(patch.exactlyApplied(to: before), after)
            expectEqual(patch.exactlyUndone(from: after), before)
            expectEqual(patch.reversed.reversed, patch)
            // Stretches hold only cards that changed: one that ends where the next starts
            // would be one stretch, and a stretch holds something.
            for stretches in patch.cards.values {
                expectTrue(stretches.dropFirst().allSatisfy { $0.offset > 0 && $0.anchor != nil })
                expectTrue(stretches.allSatisfy { !$0.before.isEmpty || !$0.after.isEmpty })
            }
            let record = HistoryRecord(
                number: 1, time: moment.now, user: "u", command: ["batch"], kind: .change, before: 1, after: 2,
                lines: [], patch: patch)
            expectEqual(try HistoryRecord(decoding: record.encoded().dropLast()).patch, patch)
            // Taken back after a board was added since: the board stays, all else is as before.
            var since = after
            try since.addBoard(Title("Later"), using: &generator)
            try since.insert([CardContent(title: try Title("later"))], into: since.boards.count - 1, using: &generator)
            var expected = before
            expected.boards.append(since.boards[since.boards.count - 1])
            expectEqual(try since.reverting(patch), expected)
        }
        expectTrue(several >= 5, "only \(several) patches had several stretches on a board")
    }

    /// A board's further stretches are written with an offset of -1 and their gap: a build
    /// that reads one stretch per board refuses the record rather than apply part of it.
    @Test func aBoardsFurtherStretchesAreRefusedByAReaderOfOneStretchABoard() throws {
        var generator = SeededGenerator(seed: 6)
        var kanban = Kanban.empty
        try kanban.addBoard(Title("Todo"), using: &generator)
        try kanban.insert(try (0..<10).map { CardContent(title: try Title("card \($0)")) }, into: 0, using: &generator)
        var after = kanban
        try after.rename(Location(board: 0, index: 0), to: Title("first"))
        try after.rename(Location(board: 0, index: 9), to: Title("last"))
        let patch = Patch(from: kanban, to: after)
        let record = HistoryRecord(
            number: 1, time: Timestamp(seconds: 1_790_000_000), user: "u", command: ["batch"], kind: .change,
            before: 1, after: 2, lines: [], patch: patch)
        let text = String(decoding: record.encoded(), as: UTF8.self)
        expectTrue(text.contains(#""gap":8,"offset":-1,"anchor":"\#(kanban.boards[0].items[8].id)""#), "\(text)")
        expectEqual(text.ranges(of: #""offset":0,"anchor":null"#).count, 1, "\(text)")
        // Out of order, or -1 on a first stretch, is a damaged record.
        for broken in [
            text.replacing(#""offset":0,"anchor":null"#, with: #""offset":-1,"anchor":null"#),
            text.replacing(#""gap":8,"#, with: ""),
        ] {
            #expect(throws: KanbanError.self) { try HistoryRecord(decoding: Array(broken.utf8).dropLast()) }
        }
    }

    @Test func aPatchHoldsOnlyTheStretchesThatChanged() throws {
        var generator = SeededGenerator(seed: 3)
        var kanban = Kanban.empty
        try kanban.addBoard(Title("Todo"), using: &generator)
        try kanban.addBoard(Title("Done"), using: &generator)
        let cards = try (0..<100).map { CardContent(title: try Title("card \($0)")) }
        try kanban.insert(cards, into: 0, using: &generator)
        var after = kanban
        try after.move([Location(board: 0, index: 50)], to: 0, at: .index(52))
        let patch = Patch(from: kanban, to: after)
        // The card moved leaves from after card 49 and comes back after card 52.
        let items = kanban.boards[0].items
        let stretches = try require(patch.cards[kanban.boards[0].id])
        expectEqual(stretches, [
            Stretch(offset: 50, anchor: items[49].id, before: [items[50]], after: []),
            Stretch(offset: 2, anchor: items[52].id, before: [], after: [items[50]]),
        ])
        expectTrue(patch.cards[kanban.boards[1].id] == nil)
        expectTrue(patch.archive == nil)
    }

    @Test func aPatchDoesNotApplyWhereTheKanbanChangedSince() throws {
        var generator = SeededGenerator(seed: 4)
        var kanban = Kanban.empty
        try kanban.addBoard(Title("Todo"), using: &generator)
        try kanban.insert([CardContent(title: try Title("a")), CardContent(title: try Title("b"))], into: 0, using: &generator)
        var after = kanban
        try after.rename(Location(board: 0, index: 1), to: Title("B"))
        let patch = Patch(from: kanban, to: after)
        var changedSince = after
        try changedSince.rename(Location(board: 0, index: 1), to: Title("BB"))
        expectTrue(patch.exactlyUndone(from: changedSince) == nil)
        #expect(throws: KanbanError.self) { try changedSince.reverting(patch) }
        var elsewhere = after
        try elsewhere.addBoard(Title("Later"), using: &generator)
        expectTrue(patch.exactlyUndone(from: elsewhere) == nil, "the boards are not those the patch made")
    }
}

@Suite struct HistoryRecords {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theEndOfALineIsReadOnlyWhenItIsARecordsEnd
        case anOriginBeforeTheNumberIsReadFromTheEndAndABrokenOneIsNot
        case entriesTakenAwayByACheckoutAreNotInTheFileAndAPullMarksNothing
        case aBrokenRecordIsRefused
        case undoAndRedoTakeEntriesLikeAStack
        case aFileHashDoesNotDependOnHowTheBytesArriveInPieces
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) {
        switch check {
        case .theEndOfALineIsReadOnlyWhenItIsARecordsEnd: theEndOfALineIsReadOnlyWhenItIsARecordsEnd()
        case .anOriginBeforeTheNumberIsReadFromTheEndAndABrokenOneIsNot:
            anOriginBeforeTheNumberIsReadFromTheEndAndABrokenOneIsNot()
        case .entriesTakenAwayByACheckoutAreNotInTheFileAndAPullMarksNothing:
            entriesTakenAwayByACheckoutAreNotInTheFileAndAPullMarksNothing()
        case .aBrokenRecordIsRefused: aBrokenRecordIsRefused()
        case .undoAndRedoTakeEntriesLikeAStack: undoAndRedoTakeEntriesLikeAStack()
        case .aFileHashDoesNotDependOnHowTheBytesArriveInPieces: aFileHashDoesNotDependOnHowTheBytesArriveInPieces()
        }
    }

    @Test(arguments: 0..<4)
    func aRecordReadsBackAsWritten(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) + 100)
        let moment = Moment(now: Timestamp(seconds: 1_790_200_000), today: Day(daysSinceEpoch: 20_720))
        for number in 1...20 {
            let before = try randomKanban(using: &generator)
            var after = before
            _ = try? after.apply(randomOperation(in: after, using: &generator), at: moment, using: &generator)
            let kinds: [HistoryRecord.Kind] = [.change, .undo([number - 1, 3]), .redo([2])]
            let record = HistoryRecord(
                number: number, time: moment.now, user: "ålice \"x\"", command: ["move", "a b", "--to", "Done"],
                kind: kinds[number % 3], before: generator.next(), after: generator.next(),
                lines: ["moved x 'a': Todo:0 -> Done:1"],
                patch: Patch(from: before, to: after), origin: number % 2 == 0 ? generator.next() : nil)
            let bytes = record.encoded()
            expectEqual(bytes.last, UInt8(ascii: "\n"))
            expectEqual(bytes.dropLast().contains(UInt8(ascii: "\n")), false, "one record, one line")
            try expectEqual(HistoryRecord(decoding: Array(bytes.dropLast())), record)
            expectTrue(HistoryRecord.Summary(decodingEndOf: bytes.dropLast()) == record.summary, "read from the line's end")
        }
    }

    func theEndOfALineIsReadOnlyWhenItIsARecordsEnd() {
        let end = #","n":42,"before":"00000000000000ff","after":"abcdef0123456789"}"#
        let summary = HistoryRecord.Summary(decodingEndOf: Array(("{\"time\":\"x\"" + end).utf8))
        expectEqual(summary, HistoryRecord.Summary(number: 42, before: 0xff, after: 0xabcd_ef01_2345_6789))
        let broken = [
            end.replacing("42", with: "0"), end.replacing("42", with: "042"), end.replacing(#","n":"#, with: #","m":"#),
            end.replacing("ff\"", with: "fg\""), end.replacing("789\"}", with: "789\"]"), String(end.dropLast()),
            end.replacing(#""after""#, with: #""afterx""#), "{" + String(end.suffix(40)),
            end.replacing("42", with: "99999999999999999"),
        ]
        for line in broken {
            expectTrue(HistoryRecord.Summary(decodingEndOf: Array(("{\"time\":\"x\"" + line).utf8)) == nil, "\(line)")
        }
    }

    func anOriginBeforeTheNumberIsReadFromTheEndAndABrokenOneIsNot() {
        let end = #","origin":"0123456789abcdef","n":42,"before":"00000000000000ff","after":"abcdef0123456789"}"#
        let summary = HistoryRecord.Summary(decodingEndOf: Array(("{\"patch\":{}" + end).utf8))
        expectTrue(summary?.origin == 0x0123_4567_89ab_cdef && summary?.number == 42, "\(String(describing: summary))")
        let broken = end.replacing("0123456789abcdef", with: "0123456789abcdeg")
        expectTrue(HistoryRecord.Summary(decodingEndOf: Array(("{\"patch\":{}" + broken).utf8)) == nil)
        // A key that only ends like the origin's is no origin.
        let other = end.replacing(#","origin":"#, with: #","xorigin":"#)
        expectTrue(HistoryRecord.Summary(decodingEndOf: Array(("{\"patch\":{}" + other).utf8))?.origin == nil)
    }

    /// `log` marks the entries whose change is not in the file (README: History: log, undo,
    /// redo). Hashes stand for versions of the file: `0` the first, each change `N` leads to
    /// version `N`.
    func entriesTakenAwayByACheckoutAreNotInTheFileAndAPullMarksNothing() {
        func record(_ number: Int, _ before: UInt64, _ after: UInt64) -> HistoryRecord {
            HistoryRecord(
                number: number, time: Timestamp(seconds: 0), user: "", command: [], kind: .change, before: before,
                after: after, lines: [], patch: Patch(from: .empty, to: .empty))
        }
        let linear = HistoryLog(records: [record(1, 0, 1), record(2, 1, 2), record(3, 2, 3)])
        expectEqual(linear.notIn(file: 3), [])
        // A reset (or a checkout) back to how #1 left the file: #2 and #3 are not in it.
        expectEqual(linear.notIn(file: 1), [2, 3])
        expectEqual(linear.notIn(file: 0), [1, 2, 3], "back to before the first entry")
        // One change on a branch (#4 from version 3), checkout back: the file is 3 again.
        var branch = linear
        branch.append(record(4, 3, 4))
        expectEqual(branch.notIn(file: 3), [4])
        // Then a change on this branch (#5, from 3): #4 stays out, the rest is in.
        branch.append(record(5, 3, 5))
        expectEqual(branch.notIn(file: 5), [4])
        // Back on the branch of #4: #5 is not in its file, #4 is.
        expectEqual(branch.notIn(file: 4), [5])
        // A pull changed the file after #3 (version 30, then #4 from there): nothing marked.
        let pulled = HistoryLog(records: [record(1, 0, 1), record(2, 1, 2), record(3, 2, 3), record(4, 30, 4)])
        expectEqual(pulled.notIn(file: 4), [])
        // An editor changed the file after the last entry: nothing is known to be out.
        expectEqual(linear.notIn(file: 99), [])
        // Undo puts the file back byte for byte: the undone entry is in the chain, not out.
        let undone = HistoryLog(records: [
            record(1, 0, 1), record(2, 1, 2),
            HistoryRecord(
                number: 3, time: Timestamp(seconds: 0), user: "", command: [], kind: .undo([2]), before: 2, after: 1,
                lines: [], patch: Patch(from: .empty, to: .empty)),
        ])
        expectEqual(undone.notIn(file: 1), [])
        expectEqual(HistoryLog(records: []).notIn(file: 7), [])
    }

    func aBrokenRecordIsRefused() {
        #expect(throws: KanbanError.self) { try HistoryRecord(decoding: Array("{\"n\":1".utf8)) }
        #expect(throws: KanbanError.self) { try HistoryRecord(decoding: Array("{\"n\":1,\"kind\":\"change\"}".utf8)) }
    }

    func undoAndRedoTakeEntriesLikeAStack() {
        func record(_ number: Int, _ kind: HistoryRecord.Kind) -> HistoryRecord {
            HistoryRecord(
                number: number, time: Timestamp(seconds: 0), user: "", command: [], kind: kind, before: 0, after: 0,
                lines: [], patch: Patch(from: .empty, to: .empty))
        }
        var log = HistoryLog(records: [record(1, .change), record(2, .change), record(3, .change)])
        expectTrue(log.undoable == [1, 2, 3] && log.redoable.isEmpty)
        log.append(record(4, .undo([3, 2])))
        expectTrue(log.undoable == [1] && log.redoable == [3, 2])
        log.append(record(5, .redo([2])))
        expectTrue(log.undoable == [1, 2] && log.redoable == [3])
        log.append(record(6, .change))
        expectTrue(log.undoable == [1, 2, 6] && log.redoable.isEmpty, "a new change ends what redo can do")
        expectEqual(log.undone, [3], "#3 stays taken back")
        expectEqual(log.nextNumber, 7)
        expectTrue(log.record(5)?.number == 5 && log.record(9) == nil)
    }

    func aFileHashDoesNotDependOnHowTheBytesArriveInPieces() {
        var generator = SeededGenerator(seed: 9)
        let bytes = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = FileHash.of(bytes)
        for _ in 0..<50 {
            var hash = FileHash()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...37, using: &generator))
                bytes[start..<end].withUnsafeBytes { hash.add($0) }
                start = end
            }
            expectEqual(hash.value, whole)
        }
        expectTrue(FileHash.of(bytes + [0]) != whole)
        expectTrue(FileHash.of([]) != FileHash.of([0]))
    }
}

@Suite struct TakingChangesBack {
    /// A change on one board, then another on a different board: taking back the first,
    /// through the merge, leaves the kanban as the second alone would have.
    @Test(arguments: 0..<6)
    func undoTakesBackOnlyItsOwnChange(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) + 500)
        let moment = Moment(now: Timestamp(seconds: 1_790_300_000), today: Day(daysSinceEpoch: 20_730))
        var checked = 0
        var merged = 0
        for _ in 0..<30 {
            var start = try randomKanban(using: &generator)
            guard start.boards.count >= 2 else { continue }
            for _ in 0..<3 {
                try start.apply(
                    .add(titles: [Title("seed card")], to: start.boards[0].title, position: nil), at: moment,
                    using: &generator)
            }
            let first = start.boards[0].items.map(\.id.rawValue)
            let own: Operation =
                Bool.random(using: &generator)
                ? .move(items: [first.randomElement(using: &generator)!], to: start.boards[0].title, position: .at(0))
                : .edit(item: first.randomElement(using: &generator)!, edits: EditInput(title: try Title("retitled")))
            var afterOwn = start
            try afterOwn.apply(own, at: moment, using: &generator)
            let patch = Patch(from: start, to: afterOwn)
            // Another change after it, on its board (so the merge is needed) or another.
            let elsewhere = Bool.random(using: &generator)
            let other: Operation = .add(
                titles: [try Title("later")], to: start.boards[elsewhere ? 1 : 0].title, position: .top)
            var both = afterOwn
            var replay = generator  // the new card gets the same id in both
            try both.apply(other, at: moment, using: &generator)
            var onlyOther = start
            try onlyOther.apply(other, at: moment, using: &replay)
            let undone = try both.reverting(patch)
            expectEqual(undone.boards.map { $0.items.map(\.title) }, onlyOther.boards.map { $0.items.map(\.title) })
            expectEqual(undone.boards.map { $0.items.map(\.id) }, onlyOther.boards.map { $0.items.map(\.id) })
            let redone = try undone.reapplying(patch)
            expectEqual(redone.boards.map { $0.items.map(\.title) }, both.boards.map { $0.items.map(\.title) })
            checked += 1
            if !elsewhere { merged += 1 }
        }
        expectTrue(checked > 0 && merged > 0, "\(checked) cases, \(merged) through the merge")
    }
}
