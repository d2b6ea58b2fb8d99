import Testing

@testable import KanbanCore

@Suite("Item ids")
struct IDTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case manyIdsFromOneGeneratorAreAllWellFormed
        case theBoundariesFollowFromTheRule
        case newIDsGrowWithBoardsAndTheArchiveToo
        case idLengthNeverShrinksAndLeavesRoom
        case sameSeedSameIDs
        case aCandidateThatRepeatsWithinOneCallIsDrawnAgain
        case aCandidateTheKanbanUsesIsDrawnAgain
        case copiesAndInsertsDrawAgainWhenTheGeneratorCollides
        case anIDReadAsAWordIsTheIDReadAsBytes
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .manyIdsFromOneGeneratorAreAllWellFormed: manyIdsFromOneGeneratorAreAllWellFormed()
        case .theBoundariesFollowFromTheRule: theBoundariesFollowFromTheRule()
        case .newIDsGrowWithBoardsAndTheArchiveToo: try newIDsGrowWithBoardsAndTheArchiveToo()
        case .idLengthNeverShrinksAndLeavesRoom: idLengthNeverShrinksAndLeavesRoom()
        case .sameSeedSameIDs: sameSeedSameIDs()
        case .aCandidateThatRepeatsWithinOneCallIsDrawnAgain: try aCandidateThatRepeatsWithinOneCallIsDrawnAgain()
        case .aCandidateTheKanbanUsesIsDrawnAgain: try aCandidateTheKanbanUsesIsDrawnAgain()
        case .copiesAndInsertsDrawAgainWhenTheGeneratorCollides: try copiesAndInsertsDrawAgainWhenTheGeneratorCollides()
        case .anIDReadAsAWordIsTheIDReadAsBytes: anIDReadAsAWordIsTheIDReadAsBytes()
        }
    }

    /// The reader of plain lines takes an id as one word of the file (README: Performance):
    /// for every byte at every place of ids of every length, it is valid exactly when the
    /// same bytes are, and the same id.
    func anIDReadAsAWordIsTheIDReadAsBytes() {
        var (valid, invalid) = (0, 0)
        for count in 1...8 {
            for place in 0..<count {
                for byte in UInt8.min...UInt8.max {
                    var bytes = Array("a1-_Zz09".utf8)  // what follows the id is loaded too
                    bytes[place] = byte
                    let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    let expected = bytes.withUnsafeBufferPointer {
                        ItemID(utf8: UnsafeBufferPointer(rebasing: $0[..<count]))
                    }
                    expectEqual(
                        ItemID(littleEndianWord: UInt64(littleEndian: word), count: count), expected,
                        "\(bytes) \(count)")
                    if expected == nil { invalid += 1 } else { valid += 1 }
                }
            }
        }
        expectTrue(valid > 2_000 && invalid > 6_000, "\(valid) valid, \(invalid) not")
    }

    /// A kanban of `count` items with ids that look like generated ones.
    func kanban(itemCount count: Int) throws -> Kanban {
        try makeKanban([(0..<count).map { "i\($0)" }])
    }

    @Test(arguments: [0, 1, 3, 24, 30, 900, 1000])
    func newIDsAreDistinctUnusedAndWellFormed(existing: Int) throws {
        let kanban = try kanban(itemCount: existing)
        var generator = SeededGenerator(seed: UInt64(existing))
        for count in [0, 1, 2, 10, 50] {
            let ids = kanban.newIDs(count: count, using: &generator)
            expectEqual(ids.count, count)
            expectEqual(Set(ids).count, count)
            expectTrue(Set(ids).isDisjoint(with: kanban.boards.flatMap { $0.items.map(\.id) }))
            expectTrue(Set(ids).isDisjoint(with: kanban.boards.map(\.id)))
            let length = Kanban.idLength(forItemCount: existing + count + 1)  // the board's id too
            expectTrue((6...8).contains(length))
            for id in ids {
                expectTrue(isGeneratedID(id, length: length), "\(id)")
                expectEqual(ItemID(id.rawValue), id)
            }
        }
    }

    func manyIdsFromOneGeneratorAreAllWellFormed() {
        var generator = SeededGenerator(seed: 42)
        let ids = Kanban(trusted: []).newIDs(count: 25, using: &generator)
        expectEqual(Set(ids).count, 25)
        expectTrue(ids.allSatisfy { isGeneratedID($0, length: 6) })
    }

    /// The boundaries, worked out from the rule (at least 65,536 spellings per id in the
    /// file): 36^6 / 65,536 = 33,215.6 and 36^7 / 65,536 = 1,195,742.6.
    @Test(arguments: [
        (Int.min, 6), (-1, 6), (0, 6), (1, 6), (1000, 6), (33_215, 6), (33_216, 7), (1_195_742, 7), (1_195_743, 8),
        (10_000_000, 8), (Int.max, 8),
    ])
    func idLengthGrowsWithTheItemCount(count: Int, length: Int) {
        expectEqual(Kanban.idLength(forItemCount: count), length)
    }

    func theBoundariesFollowFromTheRule() {
        let six = 36 * 36 * 36 * 36 * 36 * 36
        expectEqual(Kanban.idLength(forItemCount: six / 65_536), 6)
        expectEqual(Kanban.idLength(forItemCount: six / 65_536 + 1), 7)
        expectEqual(Kanban.idLength(forItemCount: six * 36 / 65_536), 7)
        expectEqual(Kanban.idLength(forItemCount: six * 36 / 65_536 + 1), 8)
    }

    /// Ids are drawn for everything in the file: cards, boards and archived cards together.
    func newIDsGrowWithBoardsAndTheArchiveToo() throws {
        let threshold = 36 * 36 * 36 * 36 * 36 * 36 / 65_536  // the most ids with 6 characters
        let items = (0..<(threshold - 3)).map { Item(id: ItemID(packed: UInt64($0 + 1) << 16), title: "x") }
        let archived = ArchivedItem(
            item: Item(id: try require(ItemID("arch1")), title: "old"), board: try require(ItemID("gone")),
            archived: Timestamp(seconds: 0))
        let kanban = try Kanban(boards: [Board(title: "A", items: items)], archive: [archived])
        var generator = SeededGenerator(seed: 3)
        // threshold - 3 cards, a board, an archived card and one new id: exactly the threshold.
        expectTrue(kanban.newIDs(count: 1, using: &generator).allSatisfy { $0.count == 6 })
        expectTrue(kanban.newIDs(count: 2, using: &generator).allSatisfy { $0.count == 7 })
        var withoutArchive = kanban
        withoutArchive.archive = []
        expectTrue(withoutArchive.newIDs(count: 2, using: &generator).allSatisfy { $0.count == 6 })
    }

    func idLengthNeverShrinksAndLeavesRoom() {
        var previous = 6
        for count in stride(from: 0, through: 3_000_000, by: 997) {
            let length = Kanban.idLength(forItemCount: count)
            expectTrue(length >= previous)
            previous = length
            // 36^length possible ids leave at least 65,536 for every id in use, while 8 allows.
            let space = (0..<length).reduce(1) { result, _ in result * 36 }
            expectTrue(length == 8 || space / 65_536 >= count)
        }
    }

    func sameSeedSameIDs() {
        var a = SeededGenerator(seed: 7)
        var b = SeededGenerator(seed: 7)
        var c = SeededGenerator(seed: 8)
        let empty = Kanban(trusted: [])
        let first = empty.newIDs(count: 5, using: &a)
        expectEqual(first, empty.newIDs(count: 5, using: &b))
        expectTrue(first != empty.newIDs(count: 5, using: &c))
        var h1 = SeededGenerator(hashing: [1, 2, 3])
        var h2 = SeededGenerator(hashing: [1, 2, 3])
        var h3 = SeededGenerator(hashing: [1, 2, 4])
        let x = h1.next()
        expectEqual(x, h2.next())
        expectTrue(x != h3.next())
    }

    /// The values one id costs a seeded generator, and the id they make.
    func recordedID(seed: UInt64) -> (id: ItemID, values: [UInt64]) {
        var recorder = RecordingGenerator(base: SeededGenerator(seed: seed))
        let id = Kanban(trusted: []).newIDs(count: 1, using: &recorder)[0]
        return (id, recorder.recorded)
    }

    func aCandidateThatRepeatsWithinOneCallIsDrawnAgain() throws {
        let (id, values) = recordedID(seed: 11)
        // The generator makes the same id three times before anything else.
        var generator = ScriptedGenerator(script: values + values + values, fallback: SeededGenerator(seed: 12))
        let ids = Kanban(trusted: []).newIDs(count: 3, using: &generator)
        expectEqual(ids[0], id)
        expectEqual(Set(ids).count, 3)
        expectTrue(generator.position > values.count * 3, "the scripted repeats were not all drawn")
        expectTrue(ids.allSatisfy { isGeneratedID($0, length: 6) })
    }

    func aCandidateTheKanbanUsesIsDrawnAgain() throws {
        let (id, values) = recordedID(seed: 21)
        let kanban = try makeKanban([["x1", id.rawValue, "y2"]])
        var generator = ScriptedGenerator(script: values + values, fallback: SeededGenerator(seed: 22))
        let ids = kanban.newIDs(count: 2, using: &generator)
        expectEqual(ids.count, 2)
        expectTrue(!ids.contains(id))
        expectEqual(Set(ids).count, 2)
        expectTrue(generator.position > values.count * 2, "the scripted collisions were not all drawn")
    }

    func copiesAndInsertsDrawAgainWhenTheGeneratorCollides() throws {
        let (id, values) = recordedID(seed: 31)
        var kanban = try makeKanban([[id.rawValue], []])
        var generator = ScriptedGenerator(script: values + values + values, fallback: SeededGenerator(seed: 32))
        let change = try kanban.copy([Location(board: 0, index: 0)], to: 1, using: &generator)
        expectTrue(change.items[0].id != id)
        var again = ScriptedGenerator(script: values + values, fallback: SeededGenerator(seed: 33))
        let inserted = try kanban.insert([Title("a"), Title("b")], into: 0, using: &again)
        expectTrue(!inserted.items.contains { $0.id == id || $0.id == change.items[0].id })
        #expect(throws: Never.self) { try kanban.validate() }
    }

    @Test(arguments: ["a", "A1", "abc-_", "12345678", "a_b-C9", "--------"])
    func validIDs(raw: String) {
        expectEqual(ItemID(raw)?.rawValue, raw)
    }

    @Test(arguments: ["", "123456789", "a b", "é", "a.b", "a/b", "a:b", " a", "a\n", "ａ"])
    func invalidIDs(raw: String) {
        expectTrue(ItemID(raw) == nil)
    }
}
