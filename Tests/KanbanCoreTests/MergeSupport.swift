// Support for the diff and merge tests: kanbans changed by commands (`Operation`s, as the
// command line gives them) at chosen times, and ways to look at the result by title.
// Everything is under one name so that it cannot clash with other tests' helpers.

@testable import KanbanCore

enum MergeFixture {
    /// A clock at `seconds` after 2026-11-23T00:00:00Z.
    static func clock(_ seconds: Int64) -> Moment {
        let now = Timestamp(seconds: 1_795_392_000 + seconds)
        return Moment(now: now, today: now.utcDay)
    }

    /// The tutorial's sample, the same every time, created at `clock(0)`.
    static var sample: Kanban {
        var generator = SeededGenerator(seed: 2026)
        return Kanban.sample(now: clock(0).now, using: &generator)
    }

    /// `kanban` after `operations`, each run one second after the last, starting at
    /// `clock(start)`; new ids come from a generator seeded with `seed`. Each must succeed.
    static func apply(_ operations: [Operation], to kanban: Kanban, start: Int64, seed: UInt64) throws -> Kanban {
        var kanban = kanban
        var generator = SeededGenerator(seed: seed)
        for (offset, operation) in operations.enumerated() {
            try kanban.apply(operation, at: clock(start + Int64(offset)), using: &generator)
        }
        return kanban
    }

    /// Board titles with their cards' titles: `["Todo: A, B", "Done: C"]`.
    static func layout(_ kanban: Kanban) -> [String] {
        kanban.boards.map { board in "\(board.title): " + board.items.map(\.title).joined(separator: ", ") }
    }

    /// The titles of the archived cards, in order.
    static func archived(_ kanban: Kanban) -> [String] {
        kanban.archive.map(\.item.title)
    }

    /// The only card titled `title`, on a board or in the archive.
    static func card(_ title: String, in kanban: Kanban) -> Item? {
        let cards = kanban.boards.flatMap(\.items) + kanban.archive.map(\.item)
        let matches = cards.filter { $0.title == title }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Every card id, boards then archive.
    static func ids(_ kanban: Kanban) -> [ItemID] {
        kanban.boards.flatMap { $0.items.map(\.id) } + kanban.archive.map(\.item.id)
    }

    /// The file's bytes, as text: what "byte for byte" compares.
    static func text(_ kanban: Kanban) -> String {
        String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
    }

    static func title(_ text: String) -> Title {
        try! Title(text)
    }

    /// The ours and theirs of a merge: `base` changed by each side's operations, ours at
    /// times from 100 s, theirs from 200 s (so theirs' moves are the later ones).
    static func sides(
        _ base: Kanban, ours: [Operation], theirs: [Operation]
    ) throws -> (ours: Kanban, theirs: Kanban) {
        (try apply(ours, to: base, start: 100, seed: 11), try apply(theirs, to: base, start: 200, seed: 22))
    }
}
