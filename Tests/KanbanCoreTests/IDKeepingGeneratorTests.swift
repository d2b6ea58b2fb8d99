import Testing

@testable import KanbanCore

// `kanban batch` runs its lines with an IDKeepingGenerator (README: Batch): new ids are
// checked against a set of the kanban's ids kept as the lines run, instead of a scan of the
// kanban per line. The set must stay a superset of the kanban's ids whatever the lines do.

@Suite("Ids kept through a batch")
struct IDKeepingGeneratorTests {
    let moment = Moment(now: Timestamp(seconds: 1_790_000_000), today: Day(daysSinceEpoch: 20_700))

    /// A generator replaying the draws that made the kanban's ids must not hand them out again.
    @Test func idsAlreadyInTheKanbanAreNeverHandedOut() throws {
        let seed: UInt64 = 20_261_127
        print("seed \(seed)")
        var first = SeededGenerator(seed: seed)
        var kanban = try Kanban(boardTitles: [Title("Todo"), Title("Done")], using: &first)
        try kanban.apply(
            .add(titles: (0..<50).map { try Title("card \($0)") }, to: "Todo", position: nil), at: moment,
            using: &first)
        try kanban.apply(.archive(items: ["Todo:0", "Todo:1"]), at: moment, using: &first)
        let before = Set(kanban.boards.flatMap { [$0.id] + $0.items.map(\.id) } + kanban.archive.map(\.item.id))

        var replay = IDKeepingGenerator(SeededGenerator(seed: seed), keepingIDsOf: kanban)
        var added: [ItemID] = []
        for line in 0..<200 {
            let change = try kanban.apply(
                .add(titles: [try Title("line \(line)")], to: line % 2 == 0 ? "Todo" : "Done", position: nil),
                at: moment, using: &replay)
            added += change.items.map(\.id)
            if line % 20 == 0 {
                try kanban.apply(.copy(items: ["Todo:0", "Todo:1"], to: "Done"), at: moment, using: &replay)
                try kanban.apply(.remove(items: ["Done:0"]), at: moment, using: &replay)
                try kanban.apply(.boardAdd(title: try Title("Board \(line)")), at: moment, using: &replay)
            }
        }
        expectEqual(added.count, 200)
        expectTrue(before.isDisjoint(with: added), "an id the kanban had was handed out again")
        expectEqual(Set(added).count, added.count)
        // Every invariant, unique ids across boards, items and the archive included.
        #expect(throws: Never.self) { try Kanban(boards: kanban.boards, archive: kanban.archive) }
    }
}
