import Testing

@testable import KanbanCore

// A batch finds the cards its lines name by id where they were last seen (README: Batch):
// the same cards and the same errors as a scan of every card, whatever the lines before did.

/// A random operation naming cards of `kanban` by id (some gone, archived, added by an
/// earlier operation, or never there), by title or by position.
private func randomOperation(
    in kanban: Kanban, seen: [String], using generator: inout SeededGenerator
) -> Operation {
    let boards = kanban.boards.map(\.title)
    let board = boards.randomElement(using: &generator) ?? "none"
    func reference() -> String {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: return "zz\(Int.random(in: 0...9, using: &generator))"
        case 1: return kanban.boards.flatMap(\.items).randomElement(using: &generator)?.title ?? "none"
        case 2: return "\(board):\(Int.random(in: 0...3, using: &generator))"
        default: return seen.randomElement(using: &generator) ?? "none"
        }
    }
    let position: Position? = [.at(0), .at(-1), .top, .bottom, .before(reference()), .after(reference()), nil]
        .randomElement(using: &generator)!
    switch Int.random(in: 0..<9, using: &generator) {
    case 0: return .move(items: [reference()], to: board, position: position)
    case 1: return .move(items: [reference(), reference()], to: board, position: position, force: true)
    case 2: return .copy(items: [reference()], to: board, position: position)
    case 3: return .remove(items: [reference()])
    case 4: return .archive(items: [reference()])
    case 5: return .restore(items: kanban.archive.map(\.item.id.rawValue).suffix(1))
    case 6: return .edit(item: reference(), edits: EditInput(due: DueInput.inDays(1)))
    case 7: return .rename(item: reference(), title: try! Title("renamed"))
    default:
        let title = try! Title("new \(Int.random(in: 0...99, using: &generator))")
        return .add(titles: [title], to: board, position: position)
    }
}

@Suite("Card hints")
struct CardHintsTests {
    @Test(arguments: 0..<6)
    func hintsFindTheCardsAndErrorsAScanFinds(seed: Int) throws {
        print("seed \(seed)")
        var generator = SeededGenerator(seed: UInt64(seed) &* 104_729 &+ 11)
        let moment = Moment(now: Timestamp(seconds: 1_790_300_000), today: Day(daysSinceEpoch: 20_730))
        var scanned = try makeKanban(counts: [12, 0, 9, 15])
        var hinted = scanned
        let hints = CardHints()
        var seen = scanned.boards.flatMap { $0.items.map(\.id.rawValue) }
        var succeeded = 0
        for _ in 0..<300 {
            let operation = randomOperation(in: scanned, seen: seen, using: &generator)
            // Both sides make the same new ids.
            var scanIDs = generator
            var hintIDs = generator
            _ = generator.next()
            let expected = Result { () throws(KanbanError) in
                try scanned.apply(operation, at: moment, using: &scanIDs)
            }
            let found = Result { () throws(KanbanError) in
                try hinted.apply(operation, at: moment, using: &hintIDs, hints: hints)
            }
            expectEqual(found, expected, "\(operation)")
            expectEqual(hinted, scanned, "\(operation)")
            if case .success = expected { succeeded += 1 }
            for item in scanned.boards.flatMap(\.items) where !seen.contains(item.id.rawValue) {
                seen.append(item.id.rawValue)
            }
        }
        expectTrue(succeeded > 50, "only \(succeeded) operations succeeded")
    }

    /// Cards that other lines moved around keep being found near where they were seen.
    @Test func movedCardsAreFoundWithoutAScanOfEveryCard() throws {
        var generator = SeededGenerator(seed: 5)
        let moment = Moment(now: Timestamp(seconds: 1_790_300_000), today: Day(daysSinceEpoch: 20_730))
        var kanban = try makeKanban(counts: [200, 200, 10])
        let hints = CardHints()
        for index in stride(from: 0, to: 200, by: 3) {
            for from in ["a", "b"] {
                try kanban.apply(
                    .move(items: ["\(from)\(index)"], to: kanban.boards[2].title, position: .at(0)), at: moment,
                    using: &generator, hints: hints)
            }
            try kanban.apply(.edit(item: "b\(index + 1)", edits: EditInput(due: .inDays(2))), at: moment,
                using: &generator, hints: hints)
        }
        expectEqual(kanban.boards[2].items.count, 10 + 2 * 67)
        expectEqual(hints.lookups, 3 * 67)
        expectEqual(hints.scans, 0)
    }
}
