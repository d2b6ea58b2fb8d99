import Testing

@testable import KanbanCore

// `kanban list` filters (SPEC §7): each condition, their AND, every board kept, and every
// card keeping its index on its board.

@Suite("List filters")
struct FilterTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case noConditionShowsEverything
        case labelsMustAllBeThereIgnoringCase
        case grepFindsTextInTheTitleOrTheNoteIgnoringCase
        case dueBeforeADateOrADayCountedFromToday
        case overdueMeansDueBeforeToday
        case olderThanMeansEnteredMoreThanThatLongAgo
        case conditionsCombineWithAnd
        case keepingAFilterKeepsBoardsAndFiltersTheArchiveToo
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .noConditionShowsEverything: try noConditionShowsEverything()
        case .labelsMustAllBeThereIgnoringCase: try labelsMustAllBeThereIgnoringCase()
        case .grepFindsTextInTheTitleOrTheNoteIgnoringCase: try grepFindsTextInTheTitleOrTheNoteIgnoringCase()
        case .dueBeforeADateOrADayCountedFromToday: try dueBeforeADateOrADayCountedFromToday()
        case .overdueMeansDueBeforeToday: try overdueMeansDueBeforeToday()
        case .olderThanMeansEnteredMoreThanThatLongAgo: try olderThanMeansEnteredMoreThanThatLongAgo()
        case .conditionsCombineWithAnd: try conditionsCombineWithAnd()
        case .keepingAFilterKeepsBoardsAndFiltersTheArchiveToo: try keepingAFilterKeepsBoardsAndFiltersTheArchiveToo()
        }
    }

    static let clock = Moment(
        now: Timestamp(rfc3339: "2026-11-23T10:00:00Z")!, today: Day(year: 2026, month: 11, day: 23)!)

    static func ago(_ seconds: Int64) -> Timestamp { clock.now.adding(seconds: -seconds) }

    /// Todo: Fix login (bug, P1; overdue; 10 days on the board), Write docs (docs; due today;
    /// a day; a note that mentions login), Refactor (nothing; from an older file), Bug triage
    /// (Bug; due next month; 3 hours). Doing: Deploy (p1, bug; overdue; 15 days). Done: empty.
    /// Archive: Old login fix (bug).
    static func kanban() throws -> Kanban {
        let day = { (text: String) in Day(iso: text)! }
        return try Kanban(
            boards: [
                Board(
                    title: "Todo",
                    items: [
                        Item(
                            id: id("fix1"), title: "Fix login", labels: ["bug", "P1"], due: day("2026-11-20"),
                            entered: ago(10 * 86_400)),
                        Item(
                            id: id("doc1"), title: "Write docs", labels: ["docs"], due: day("2026-11-23"),
                            entered: ago(86_400),
                            note: "Mention the LOGIN page\nand more"),
                        Item(id: id("ref1"), title: "Refactor"),
                        Item(
                            id: id("tri1"), title: "Bug triage", labels: ["Bug"], due: day("2026-12-01"),
                            entered: ago(3 * 3600), note: "x"),
                    ]),
                Board(
                    title: "Doing",
                    items: [
                        Item(
                            id: id("dep1"), title: "Deploy", labels: ["p1", "bug"], due: day("2026-11-22"),
                            entered: ago(15 * 86_400))
                    ]),
                Board(title: "Done"),
            ],
            archive: [
                ArchivedItem(
                    item: Item(id: id("old1"), title: "Old login fix", labels: ["bug"]), board: boardID(for: "Done"),
                    archived: ago(30 * 86_400))
            ])
    }

    /// The indices each board shows under `filter`.
    func shown(_ filter: CardFilter) throws -> [[Int]] {
        let boards = try Self.kanban().filtered(filter, clock: Self.clock)
        expectEqual(boards.map(\.board.title), ["Todo", "Doing", "Done"], "every board is shown")
        expectEqual(boards.map(\.board.id), (try Self.kanban()).boards.map(\.id))
        for board in boards {
            let whole = try Self.kanban().boards.first { $0.id == board.board.id }!
            for (index, item) in board.cards {
                expectEqual(whole.items[index], item, "a card keeps its index on its board")
            }
        }
        return boards.map { $0.cards.map(\.index) }
    }

    func noConditionShowsEverything() throws {
        expectTrue(CardFilter().selectsAll)
        expectTrue(CardFilter(archived: true).selectsAll)
        try expectEqual(shown(CardFilter()), [[0, 1, 2, 3], [0], []])
    }

    func labelsMustAllBeThereIgnoringCase() throws {
        try expectEqual(shown(CardFilter(labels: ["bug"])), [[0, 3], [0], []])
        try expectEqual(shown(CardFilter(labels: ["BUG"])), [[0, 3], [0], []])
        try expectEqual(shown(CardFilter(labels: ["bug", "p1"])), [[0], [0], []])
        try expectEqual(shown(CardFilter(labels: ["bug", "docs"])), [[], [], []])
        try expectEqual(shown(CardFilter(labels: ["bu"])), [[], [], []])
    }

    func grepFindsTextInTheTitleOrTheNoteIgnoringCase() throws {
        try expectEqual(shown(CardFilter(grep: "login")), [[0, 1], [], []])
        try expectEqual(shown(CardFilter(grep: "LOG")), [[0, 1], [], []])
        try expectEqual(shown(CardFilter(grep: "page\nand")), [[1], [], []])
        try expectEqual(shown(CardFilter(grep: "deploy")), [[], [0], []])
        try expectEqual(shown(CardFilter(grep: "nowhere")), [[], [], []])
    }

    func dueBeforeADateOrADayCountedFromToday() throws {
        try expectEqual(shown(CardFilter(dueBefore: .date(Day(iso: "2026-11-23")!))), [[0], [0], []])
        try expectEqual(shown(CardFilter(dueBefore: try DueInput("today"))), [[0], [0], []])
        try expectEqual(shown(CardFilter(dueBefore: try DueInput("tomorrow"))), [[0, 1], [0], []])
        try expectEqual(shown(CardFilter(dueBefore: try DueInput("+2w"))), [[0, 1, 3], [0], []])
        try expectEqual(shown(CardFilter(dueBefore: .date(Day(iso: "2026-11-21")!))), [[0], [], []])
    }

    func overdueMeansDueBeforeToday() throws {
        try expectEqual(shown(CardFilter(overdue: true)), [[0], [0], []])
    }

    func olderThanMeansEnteredMoreThanThatLongAgo() throws {
        try expectEqual(shown(CardFilter(olderThan: try Age("2d"))), [[0, 2], [0], []])
        try expectEqual(shown(CardFilter(olderThan: try Age("12h"))), [[0, 1, 2], [0], []])
        // Exactly a day ago is not more than a day ago.
        try expectEqual(shown(CardFilter(olderThan: try Age("1d"))), [[0, 2], [0], []])
        try expectEqual(shown(CardFilter(olderThan: try Age("24h"))), [[0, 2], [0], []])
        try expectEqual(shown(CardFilter(olderThan: try Age("3w"))), [[2], [], []])
    }

    func conditionsCombineWithAnd() throws {
        try expectEqual(shown(CardFilter(labels: ["bug"], overdue: true)), [[0], [0], []])
        try expectEqual(shown(CardFilter(labels: ["bug"], grep: "triage")), [[3], [], []])
        try expectEqual(shown(CardFilter(grep: "login", olderThan: try Age("2d"))), [[0], [], []])
        expectTrue(
            try shown(CardFilter(labels: ["p1"], dueBefore: try DueInput("2026-11-21"), olderThan: try Age("1w"))) == [
                [0], [], [],
            ])
        try expectEqual(shown(CardFilter(labels: ["docs"], overdue: true)), [[], [], []])
    }

    func keepingAFilterKeepsBoardsAndFiltersTheArchiveToo() throws {
        let kanban = try Self.kanban()
        let kept = kanban.keeping(CardFilter(labels: ["bug"]), clock: Self.clock)
        expectEqual(kept.boards.map(\.id), kanban.boards.map(\.id))
        expectEqual(layout(kept), [["fix1", "tri1"], ["dep1"], []])
        expectEqual(kept.archive, kanban.archive)
        let docs = kanban.keeping(CardFilter(grep: "docs"), clock: Self.clock)
        expectEqual(layout(docs), [["doc1"], [], []])
        expectTrue(docs.archive.isEmpty)
        expectEqual(kanban.keeping(CardFilter(), clock: Self.clock), kanban)
    }

    /// Random cards and filters against the conditions as SPEC §7 states them.
    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func randomFiltersMatchTheSpec(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let clock = Self.clock
        let words = ["fix", "Login", "docs", "ünï", "x"]
        let labelPool = ["bug", "BUG", "p1", "docs", "@alice"]
        var items: [Item] = []
        for index in 0..<60 {
            items.append(
                Item(
                    id: id("r\(index)"),
                    title: (0..<generator.int(1...3)).map { _ in words[generator.int(0...4)] }.joined(separator: " "),
                    labels: try Labels(
                        validating: (0..<generator.int(0...2)).map { _ in labelPool[generator.int(0...4)] }),
                    due: generator.chance(60) ? clock.today.adding(days: generator.int(-5...5)) : nil,
                    entered: generator.chance(70)
                        ? clock.now.adding(seconds: -Int64(generator.int(0...10)) * 43_200) : nil,
                    note: generator.chance(40) ? words[generator.int(0...4)].uppercased() : nil))
        }
        let kanban = try Kanban(boards: [
            Board(title: "A", items: Array(items[..<30])), Board(title: "B", items: Array(items[30...])),
        ])
        for _ in 0..<40 {
            let filter = CardFilter(
                labels: (0..<generator.int(0...2)).map { _ in labelPool[generator.int(0...4)] },
                grep: generator.chance(40) ? words[generator.int(0...4)].lowercased() : nil,
                dueBefore: generator.chance(30) ? .inDays(generator.int(-3...3)) : nil,
                overdue: generator.chance(30),
                olderThan: generator.chance(30) ? try Age("\(generator.int(0...5) * 12)h") : nil)
            let expected = kanban.boards.map { board in
                board.items.indices.filter { spec(board.items[$0], filter, clock) }
            }
            expectEqual(kanban.filtered(filter, clock: clock).map { $0.cards.map(\.index) }, expected, "\(filter)")
        }
    }

    /// Whether `item` passes `filter`, as SPEC §7 words each condition.
    func spec(_ item: Item, _ filter: CardFilter, _ clock: Moment) -> Bool {
        let lower = { (text: String) in text.lowercased() }
        let hasLabels = filter.labels.allSatisfy { wanted in item.labels.names.contains { lower($0) == lower(wanted) } }
        let grep =
            filter.grep.map { text in
                lower(item.title).contains(lower(text)) || lower(item.note ?? "").contains(lower(text))
            } ?? true
        let dueBefore =
            filter.dueBefore.map { input in
                guard let due = item.due, let limit = input.resolved(today: clock.today) else { return false }
                return due < limit
            } ?? true
        let overdue = !filter.overdue || (item.due.map { $0 < clock.today } ?? false)
        // Cards from older files have no `entered`: they count as old.
        let older =
            filter.olderThan.map { age in
                item.entered.map { clock.now.seconds - $0.seconds > age.seconds } ?? true
            } ?? true
        return hasLabels && grep && dueBefore && overdue && older
    }
}
