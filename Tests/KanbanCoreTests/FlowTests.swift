// The flow figures and the cumulative flow diagram (README: Flow), checked against a
// naive reference written from README's rules with plain loops (it shares no code with
// `Flow.swift`), over many generated kanbans; and the rules' edges: unfinished cards,
// percentiles, UTC day boundaries.

import Testing

@testable import KanbanCore

// MARK: - The naive reference

/// README's Flow rules, one loop at a time.
private enum NaiveFlow {
    static let day: Int64 = 86_400

    static func role(_ id: BoardID, _ boards: [FlowBoard]) -> BoardRole? {
        for board in boards where board.id == id { return board.role }
        return nil
    }

    static func index(_ id: BoardID, _ boards: [FlowBoard]) -> Int? {
        for (index, board) in boards.enumerated() where board.id == id { return index }
        return nil
    }

    /// The trail entries that count: on boards that exist, not after now, oldest first
    /// (ties by board id).
    static func entries(_ card: FlowCard, _ boards: [FlowBoard], now: Int64) -> [TrailEntry] {
        var kept: [TrailEntry] = []
        for entry in card.trail where entry.time.seconds <= now && role(entry.board, boards) != nil {
            kept.append(entry)
        }
        // Insertion sort: obviously right, and small.
        var sorted: [TrailEntry] = []
        for entry in kept {
            var at = sorted.count
            while at > 0
                && (sorted[at - 1].time.seconds > entry.time.seconds
                    || sorted[at - 1].time.seconds == entry.time.seconds
                        && sorted[at - 1].board.rawValue > entry.board.rawValue)
            {
                at -= 1
            }
            sorted.insert(entry, at: at)
        }
        return sorted
    }

    /// When and where it finished, and the entries before that.
    static func finish(_ card: FlowCard, _ boards: [FlowBoard], now: Int64)
        -> (time: Int64, board: BoardID, before: [TrailEntry])?
    {
        let all = entries(card, boards, now: now)
        var before: [TrailEntry] = []
        for entry in all {
            if role(entry.board, boards) == .done { return (entry.time.seconds, entry.board, before) }
            before.append(entry)
        }
        if case .archived(let from, let at) = card.place, at.seconds <= now, role(from, boards) == .done {
            return (at.seconds, from, all.filter { $0.time.seconds <= at.seconds })
        }
        return nil
    }

    static func startTime(_ before: [TrailEntry], _ boards: [FlowBoard]) -> Int64? {
        for entry in before where role(entry.board, boards) == .active { return entry.time.seconds }
        return before.last?.time.seconds
    }

    static func spread(_ values: [Double]) -> DaySpread? {
        if values.isEmpty { return nil }
        let sorted = values.sorted()
        let n = sorted.count
        let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        var rank = 1
        while rank * 100 < 85 * n { rank += 1 }
        return DaySpread(median: median, p85: sorted[rank - 1], max: sorted[n - 1])
    }

    static func figures(_ flow: Flow, _ window: FlowWindow, _ selected: Set<BoardID>?) -> FlowFigures {
        let now = flow.now.seconds
        let today = Int(floorDivide(now, day))
        let until = min(window.until.daysSinceEpoch, today)
        let start = Int64(window.since.daysSinceEpoch) * day
        let end = min(Int64(until + 1) * day, now + 1)
        let days = max(0, until - window.since.daysSinceEpoch + 1)
        var finished = 0
        var cycle: [Double] = []
        var lead: [Double] = []
        var aging: [AgingCard] = []
        for card in flow.cards {
            if let selected {
                var keep = false
                if case .board(let id) = card.place, selected.contains(id) { keep = true }
                if case .archived(let id, _) = card.place, selected.contains(id) { keep = true }
                for entry in card.trail where selected.contains(entry.board) { keep = true }
                if !keep { continue }
            }
            if let done = finish(card, flow.boards, now: now), done.time >= start, done.time < end {
                finished += 1
                if let begun = startTime(done.before, flow.boards) { cycle.append(Double(done.time - begun) / Double(day)) }
                if let created = card.created?.seconds, created <= done.time {
                    lead.append(Double(done.time - created) / Double(day))
                }
            }
            if case .board(let id) = card.place, role(id, flow.boards) == .active, selected?.contains(id) ?? true {
                let all = entries(card, flow.boards, now: now)
                var inBoard: Double?
                if let last = all.last, last.board == id { inBoard = Double(now - last.time.seconds) / Double(day) }
                var started: Double?
                for entry in all where role(entry.board, flow.boards) == .active {
                    started = Double(now - entry.time.seconds) / Double(day)
                    break
                }
                let board = flow.boards[index(id, flow.boards)!]
                aging.append(
                    AgingCard(id: card.id, title: card.title, board: board, daysInBoard: inBoard, daysSinceStarted: started))
            }
        }
        aging.sort { a, b in
            (-(a.daysSinceStarted ?? -1), -(a.daysInBoard ?? -1), a.id.rawValue)
                < (-(b.daysSinceStarted ?? -1), -(b.daysInBoard ?? -1), b.id.rawValue)
        }
        var wip: [WIPCount] = []
        for board in flow.boards where board.role == .active && (selected?.contains(board.id) ?? true) {
            var count = 0
            for card in flow.cards where card.place == .board(board.id) { count += 1 }
            wip.append(WIPCount(board: board, count: count))
        }
        return FlowFigures(
            window: FlowWindow(since: window.since, until: Day(daysSinceEpoch: until)), finished: finished,
            throughputPerWeek: days == 0 ? 0 : Double(finished) * 7 / Double(days),
            cycleTime: spread(cycle), leadTime: spread(lead), wip: wip, aging: aging)
    }

    static func cumulativeFlow(_ flow: Flow, _ window: FlowWindow) -> [[Int]] {
        let now = flow.now.seconds
        let until = min(window.until.daysSinceEpoch, Int(floorDivide(now, day)))
        var rows: [[Int]] = []
        var d = window.since.daysSinceEpoch
        while d <= until {
            let end = min(Int64(d + 1) * day, now + 1)
            var row = Array(repeating: 0, count: flow.boards.count)
            for card in flow.cards {
                if let done = finish(card, flow.boards, now: now), done.time < end {
                    row[index(done.board, flow.boards)!] += 1
                    continue
                }
                if case .archived(_, let at) = card.place, at.seconds <= now, at.seconds < end { continue }
                var last: TrailEntry?
                for entry in entries(card, flow.boards, now: now) where entry.time.seconds < end { last = entry }
                if let last { row[index(last.board, flow.boards)!] += 1 }
            }
            rows.append(row)
            d += 1
        }
        return rows
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}

// MARK: - Generated kanbans

/// A random flow: 1 to 5 boards with random roles, cards whose trails wander over them
/// (and over a removed board), some archived, times on and around day boundaries.
private func randomFlow(using generator: inout SeededGenerator) -> Flow {
    let base: Int64 = 20_700 * 86_400
    func time() -> Timestamp {
        // Mostly anywhere in 40 days; often exactly at a day's first or last second.
        let day = Int64.random(in: 0..<40, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return Timestamp(seconds: base + day * 86_400)
        case 1: return Timestamp(seconds: base + day * 86_400 + 86_399)
        default: return Timestamp(seconds: base + day * 86_400 + Int64.random(in: 0..<86_400, using: &generator))
        }
    }
    let count = Int.random(in: 1...5, using: &generator)
    let boards = (0..<count).map { index in
        FlowBoard(
            id: BoardID("b\(index)")!, title: "Board \(index)",
            role: Bool.random(using: &generator)
                ? BoardRole.byDefault(boardAt: index, of: count) : BoardRole.allCases.randomElement(using: &generator)!)
    }
    let ids = boards.map(\.id) + [BoardID("gone")!]
    var cards: [FlowCard] = []
    for number in 0..<Int.random(in: 0...14, using: &generator) {
        var trail = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
            TrailEntry(board: ids.randomElement(using: &generator)!, time: time())
        }
        trail.sort()
        let created: Timestamp? =
            Int.random(in: 0..<5, using: &generator) == 0 ? nil : trail.first.map { $0.time.adding(seconds: -3_600) } ?? time()
        var place = FlowCard.Place.board(trail.last.map(\.board).flatMap { boards.map(\.id).contains($0) ? $0 : nil } ?? boards[0].id)
        if Int.random(in: 0..<4, using: &generator) == 0 {
            let from = boards.randomElement(using: &generator)!.id
            let at = trail.last.map { $0.time.adding(seconds: Int64.random(in: 0...200_000, using: &generator)) } ?? time()
            place = .archived(from: from, at: at)
        } else if Int.random(in: 0..<6, using: &generator) == 0 {
            place = .board(boards.randomElement(using: &generator)!.id)  // a trail that does not end where the card is
        }
        cards.append(FlowCard(id: ItemID("c\(number)")!, title: "Card \(number)", created: created, trail: trail, place: place))
    }
    let now = Timestamp(seconds: base + Int64.random(in: 0..<(45 * 86_400), using: &generator))
    return Flow(boards: boards, cards: cards, now: now)
}

@Suite("Flow: the figures and the cumulative flow diagram")
struct FlowTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aWindowIsWholeUTCDaysWithItsLastDayIncluded
        case theWindowEndsNowAndTodayIsItsLastDay
        case theRulesForArchivedCardsRemovedBoardsAndCardsThatSkippedActiveBoards
        case workInProgressAndAgingAreTheCardsNowOnActiveBoardsOldestFirst
        case aKanbanGivesItsBoardsRolesAndItsArchive
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aWindowIsWholeUTCDaysWithItsLastDayIncluded: aWindowIsWholeUTCDaysWithItsLastDayIncluded()
        case .theWindowEndsNowAndTodayIsItsLastDay: theWindowEndsNowAndTodayIsItsLastDay()
        case .theRulesForArchivedCardsRemovedBoardsAndCardsThatSkippedActiveBoards:
            theRulesForArchivedCardsRemovedBoardsAndCardsThatSkippedActiveBoards()
        case .workInProgressAndAgingAreTheCardsNowOnActiveBoardsOldestFirst:
            workInProgressAndAgingAreTheCardsNowOnActiveBoardsOldestFirst()
        case .aKanbanGivesItsBoardsRolesAndItsArchive: try aKanbanGivesItsBoardsRolesAndItsArchive()
        }
    }

    static let seeds: [UInt64] = (1...12).map { $0 * 2_654_435_761 }

    @Test(arguments: seeds)
    func theFiguresAndTheDiagramAgreeWithTheNaiveReference(seed: UInt64) {
        print("FlowTests seed \(seed)")
        var generator = SeededGenerator(seed: seed)
        var compared = 0
        for _ in 0..<150 {
            let flow = randomFlow(using: &generator)
            let since = Day(daysSinceEpoch: 20_700 + Int.random(in: -3...40, using: &generator))
            let window = FlowWindow(since: since, until: since.adding(days: Int.random(in: -1...30, using: &generator)))
            var selected: Set<BoardID>?
            if Bool.random(using: &generator) {
                selected = Set(flow.boards.filter { _ in Bool.random(using: &generator) }.map(\.id))
            }
            expectEqual(flow.figures(in: window, boards: selected), NaiveFlow.figures(flow, window, selected), "seed \(seed)")
            let diagram = flow.cumulativeFlow(in: window)
            expectEqual(diagram.counts, NaiveFlow.cumulativeFlow(flow, window), "seed \(seed)")
            expectEqual(diagram.days.count, diagram.counts.count)
            expectEqual(diagram.boards, flow.boards)
            compared += 1
        }
        expectEqual(compared, 150)
    }

    @Test(arguments: seeds)
    func aCardThatNeverReachedADoneBoardIsNeverFinished(seed: UInt64) {
        print("FlowTests seed \(seed)")
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<100 {
            var flow = randomFlow(using: &generator)
            let done = Set(flow.boards.filter { $0.role == .done }.map(\.id))
            // Keep the cards that never entered a done board and were not archived from one.
            flow.cards = flow.cards.filter { card in
                if case .archived(let from, _) = card.place, done.contains(from) { return false }
                return !card.trail.contains { done.contains($0.board) }
            }
            let window = FlowWindow(since: Day(daysSinceEpoch: 20_600), until: Day(daysSinceEpoch: 20_800))
            let figures = flow.figures(in: window)
            expectEqual(figures.finished, 0, "seed \(seed)")
            expectEqual(figures.cycleTime, nil)
            expectEqual(figures.leadTime, nil)
            let diagram = flow.cumulativeFlow(in: window)
            for (index, board) in flow.boards.enumerated() where board.role == .done {
                expectTrue(diagram.counts.allSatisfy { $0[index] == 0 }, "seed \(seed)")
            }
        }
    }

    @Test(arguments: seeds)
    func percentilesAreTheNearestRankOfASort(seed: UInt64) throws {
        print("FlowTests seed \(seed)")
        var generator = SeededGenerator(seed: seed)
        expectEqual(DaySpread([]), nil)
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
                Double(Int.random(in: 0...50, using: &generator)) / 2
            }
            let spread = try require(DaySpread(values))
            let sorted = values.sorted()
            expectEqual(spread.max, sorted.last!)
            // The 85th percentile is a value; at least 85% are at or below it, fewer below it.
            expectTrue(values.contains(spread.p85))
            expectTrue(Double(values.filter { $0 <= spread.p85 }.count) >= 0.85 * Double(values.count))
            expectTrue(Double(values.filter { $0 < spread.p85 }.count) < 0.85 * Double(values.count))
            // Half are at or below the median, half at or above.
            expectTrue(values.filter { $0 <= spread.median }.count * 2 >= values.count)
            expectTrue(values.filter { $0 >= spread.median }.count * 2 >= values.count)
        }
        expectEqual(DaySpread([4, 1, 3, 2]), DaySpread(median: 2.5, p85: 4, max: 4))
        expectEqual(DaySpread([5, 1, 3]), DaySpread(median: 3, p85: 5, max: 5))
        let twenty = (1...20).map(Double.init)
        expectEqual(DaySpread(twenty)?.p85, 17, "rank ⌈0.85 × 20⌉ = 17")
    }

    // MARK: - Day boundaries, in UTC

    private static let todo = FlowBoard(id: BoardID("todo")!, title: "Todo", role: .backlog)
    private static let doing = FlowBoard(id: BoardID("doing")!, title: "Doing", role: .active)
    private static let done = FlowBoard(id: BoardID("done")!, title: "Done", role: .done)
    private static let day = Day(iso: "2026-11-20")!

    private static func at(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    /// Two cards: one finishing at the last second of Nov 20, one at the first of Nov 21.
    private static func boundaryFlow() -> Flow {
        let cards = [("late", "2026-11-20T23:59:59Z"), ("early", "2026-11-21T00:00:00Z")].map { id, finished in
            FlowCard(
                id: ItemID(id)!, title: id, created: at("2026-11-18T12:00:00Z"),
                trail: [
                    TrailEntry(board: todo.id, time: at("2026-11-18T12:00:00Z")),
                    TrailEntry(board: doing.id, time: at("2026-11-19T00:00:00Z")),
                    TrailEntry(board: done.id, time: at(finished)),
                ], place: .board(done.id))
        }
        return Flow(boards: [todo, doing, done], cards: cards, now: at("2026-11-25T08:00:00Z"))
    }

    func aWindowIsWholeUTCDaysWithItsLastDayIncluded() {
        let flow = Self.boundaryFlow()
        let first = flow.figures(in: FlowWindow(since: Self.day, until: Self.day))
        expectEqual(first.finished, 1, "23:59:59Z is still Nov 20")
        expectEqual(first.cycleTime?.max, 1.0 + 86_399 / 86_400)
        let second = flow.figures(in: FlowWindow(since: Self.day.adding(days: 1), until: Self.day.adding(days: 1)))
        expectEqual(second.finished, 1, "00:00:00Z is Nov 21")
        expectEqual(second.cycleTime?.max, 2.0)
        expectEqual(second.leadTime?.max, 2.5)
        expectEqual(second.throughputPerWeek, 7)
        let both = flow.figures(in: FlowWindow(since: Self.day, until: Self.day.adding(days: 1)))
        expectEqual(both.finished, 2)
        expectEqual(both.cycleTime, DaySpread(median: 1.5 + 86_399 / 172_800, p85: 2, max: 2))
        let diagram = flow.cumulativeFlow(in: FlowWindow(since: Self.day.adding(days: -1), until: Self.day.adding(days: 1)))
        expectEqual(diagram.days, [Self.day.adding(days: -1), Self.day, Self.day.adding(days: 1)])
        expectEqual(diagram.counts, [[0, 2, 0], [0, 1, 1], [0, 0, 2]])
    }

    func theWindowEndsNowAndTodayIsItsLastDay() {
        var flow = Self.boundaryFlow()
        flow.now = Self.at("2026-11-20T23:59:59Z")
        let figures = flow.figures(in: FlowWindow(since: Self.day, until: Self.day.adding(days: 9)))
        expectEqual(figures.window.until, Self.day)
        expectEqual(figures.finished, 1)
        expectEqual(figures.throughputPerWeek, 7)
        flow.now = Self.at("2026-11-20T23:59:58Z")
        expectEqual(flow.figures(in: FlowWindow(since: Self.day, until: Self.day)).finished, 0, "after now")
        expectEqual(flow.cumulativeFlow(in: FlowWindow(since: Self.day, until: Self.day)).counts, [[0, 2, 0]])
        flow.now = Self.at("2026-11-20T23:59:59Z")
        expectEqual(flow.cumulativeFlow(in: FlowWindow(since: Self.day, until: Self.day)).counts, [[0, 1, 1]], "now is included")
    }

    func theRulesForArchivedCardsRemovedBoardsAndCardsThatSkippedActiveBoards() {
        let gone = BoardID("gone")!
        let cards = [
            // Archived from a done board, never entered one: done when archived.
            FlowCard(
                id: ItemID("arch")!, title: "arch", created: nil,
                trail: [TrailEntry(board: Self.doing.id, time: Self.at("2026-11-20T10:00:00Z"))],
                place: .archived(from: Self.done.id, at: Self.at("2026-11-21T10:00:00Z"))),
            // Archived from an active board: left, not finished.
            FlowCard(
                id: ItemID("left")!, title: "left", created: nil,
                trail: [TrailEntry(board: Self.doing.id, time: Self.at("2026-11-20T10:00:00Z"))],
                place: .archived(from: Self.doing.id, at: Self.at("2026-11-21T10:00:00Z"))),
            // Straight from the backlog to done: its cycle starts at the backlog entry.
            FlowCard(
                id: ItemID("skip")!, title: "skip", created: Self.at("2026-11-19T10:00:00Z"),
                trail: [
                    TrailEntry(board: Self.todo.id, time: Self.at("2026-11-20T10:00:00Z")),
                    TrailEntry(board: gone, time: Self.at("2026-11-20T12:00:00Z")),
                    TrailEntry(board: Self.done.id, time: Self.at("2026-11-21T10:00:00Z")),
                ], place: .board(Self.done.id)),
            // Created straight on done: finished, but no cycle time.
            FlowCard(
                id: ItemID("born")!, title: "born", created: Self.at("2026-11-21T10:00:00Z"),
                trail: [TrailEntry(board: Self.done.id, time: Self.at("2026-11-21T10:00:00Z"))], place: .board(Self.done.id)),
        ]
        let flow = Flow(boards: [Self.todo, Self.doing, Self.done], cards: cards, now: Self.at("2026-11-25T00:00:00Z"))
        let figures = flow.figures(in: FlowWindow(since: Self.day, until: Self.day.adding(days: 3)))
        expectEqual(figures.finished, 3)
        expectEqual(figures.cycleTime, DaySpread(median: 1, p85: 1, max: 1))
        expectEqual(figures.leadTime, DaySpread(median: 1, p85: 2, max: 2))
        let diagram = flow.cumulativeFlow(in: FlowWindow(since: Self.day, until: Self.day.adding(days: 1)))
        expectEqual(diagram.counts, [[1, 2, 0], [0, 0, 3]])
        let restricted = flow.figures(in: FlowWindow(since: Self.day, until: Self.day.adding(days: 3)), boards: [gone])
        expectEqual(restricted.finished, 1, "stats BOARD… keeps the cards that entered it, even a removed one")
        expectEqual(restricted.wip, [])
    }

    func workInProgressAndAgingAreTheCardsNowOnActiveBoardsOldestFirst() {
        let review = FlowBoard(id: BoardID("review")!, title: "Review", role: .active)
        func card(_ id: String, _ trail: [(FlowBoard, String)], on board: FlowBoard) -> FlowCard {
            FlowCard(
                id: ItemID(id)!, title: id, created: nil, trail: trail.map { TrailEntry(board: $0.id, time: Self.at($1)) },
                place: .board(board.id))
        }
        let cards = [
            card("young", [(Self.doing, "2026-11-24T00:00:00Z")], on: Self.doing),
            card("old", [(Self.doing, "2026-11-20T00:00:00Z"), (review, "2026-11-23T12:00:00Z")], on: review),
            card("bare", [], on: Self.doing),
            card("idle", [(Self.todo, "2026-11-01T00:00:00Z")], on: Self.todo),
        ]
        let flow = Flow(boards: [Self.todo, Self.doing, review, Self.done], cards: cards, now: Self.at("2026-11-25T00:00:00Z"))
        let figures = flow.figures(in: FlowWindow.lastDays(upTo: flow.now))
        expectEqual(figures.wip.map(\.board.title), ["Doing", "Review"])
        expectEqual(figures.wip.map(\.count), [2, 1])
        expectEqual(figures.aging.map(\.id.rawValue), ["old", "young", "bare"])
        expectEqual(figures.aging.map(\.daysSinceStarted), [5, 1, nil])
        expectEqual(figures.aging.map(\.daysInBoard), [1.5, 1, nil])
        expectEqual(figures.window, FlowWindow(since: Day(iso: "2026-10-27")!, until: Day(iso: "2026-11-25")!))
    }

    func aKanbanGivesItsBoardsRolesAndItsArchive() throws {
        var kanban = MergeFixture.sample
        try kanban.setRole(of: 0, to: .active)
        let now = Self.at("2026-11-25T00:00:00Z")
        try kanban.archive([Location(board: 2, index: 0)], now: now)
        kanban.boards[0].items[0].trail = [TrailEntry(board: kanban.boards[0].id, time: now)]
        let flow = Flow(kanban, now: now)
        expectEqual(flow.boards.map(\.role), [.active, .active, .done])
        expectEqual(flow.cards.count, 9)
        expectEqual(flow.cards.last?.place, .archived(from: kanban.boards[2].id, at: now))
        expectEqual(flow.cards.first?.trail.count, 1)
    }
}
