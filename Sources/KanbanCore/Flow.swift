// The flow figures a team runs a kanban by (README: Flow), computed from the cards' trails,
// their creation times and the archive: how many cards finished in a window and how fast,
// the work in progress now and how old it is, and the cumulative flow diagram. Pure: the
// caller gives the boards, the cards and "now"; nothing here reads a clock or a file.
//
// Every rule README's Flow section states is applied in one place: ``Flow/journey(of:)``
// says where a card was, when it finished and when it started; the figures and the diagram
// only read journeys.

/// A board as the flow figures see it: its id, title and role.
public struct FlowBoard: Hashable, Sendable {
    public var id: BoardID
    public var title: String
    public var role: BoardRole

    public init(id: BoardID, title: String, role: BoardRole) {
        self.id = id
        self.title = title
        self.role = role
    }
}

/// A card as the flow figures see it.
public struct FlowCard: Hashable, Sendable {
    /// Where the card is now.
    public enum Place: Hashable, Sendable {
        /// On a board.
        case board(BoardID)
        /// In the archive: the board it left, and when.
        case archived(from: BoardID, at: Timestamp)
    }

    public var id: ItemID
    public var title: String
    /// When it was created; `nil`: unknown (a card from an older file).
    public var created: Timestamp?
    /// The boards it entered and when, oldest first.
    public var trail: [TrailEntry]
    public var place: Place

    public init(id: ItemID, title: String, created: Timestamp?, trail: [TrailEntry], place: Place) {
        self.id = id
        self.title = title
        self.created = created
        self.trail = trail
        self.place = place
    }
}

/// Whole UTC days, `since` to `until`, both included.
public struct FlowWindow: Hashable, Sendable {
    public var since: Day
    public var until: Day

    public init(since: Day, until: Day) {
        self.since = since
        self.until = until
    }

    /// The default window: the last 30 days, today (in UTC) included.
    public static func lastDays(_ count: Int = 30, upTo now: Timestamp) -> FlowWindow {
        FlowWindow(since: now.utcDay.adding(days: 1 - count), until: now.utcDay)
    }

    /// The number of days in it (0 when `since` is after `until`).
    public var dayCount: Int { max(0, until.daysSinceEpoch - since.daysSinceEpoch + 1) }

    /// The instant `day` starts, 00:00:00Z.
    static func start(of day: Day) -> Timestamp { Timestamp(seconds: Int64(day.daysSinceEpoch) * 86_400) }
}

/// A median, an 85th percentile and a maximum, in days.
public struct DaySpread: Hashable, Sendable {
    public var median: Double
    public var p85: Double
    public var max: Double

    public init(median: Double, p85: Double, max: Double) {
        self.median = median
        self.p85 = p85
        self.max = max
    }

    /// The spread of `values`; `nil` when there are none. The median of an even count is the
    /// mean of the two middle values; the 85th percentile is the nearest rank: the value at
    /// rank ⌈0.85 × n⌉ of the sorted values.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let count = sorted.count
        median = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
        p85 = sorted[(85 * count + 99) / 100 - 1]
        max = sorted[count - 1]
    }
}

/// A card now on an active board, and how long it has been there.
public struct AgingCard: Hashable, Sendable {
    public var id: ItemID
    public var title: String
    public var board: FlowBoard
    /// Days since it entered its board; `nil`: its trail does not say.
    public var daysInBoard: Double?
    /// Days since it first entered an active board; `nil`: its trail does not say.
    public var daysSinceStarted: Double?

    public init(id: ItemID, title: String, board: FlowBoard, daysInBoard: Double?, daysSinceStarted: Double?) {
        self.id = id
        self.title = title
        self.board = board
        self.daysInBoard = daysInBoard
        self.daysSinceStarted = daysSinceStarted
    }
}

/// Everything `kanban stats` prints.
public struct FlowFigures: Hashable, Sendable {
    /// The window, its end capped at today.
    public var window: FlowWindow
    /// The cards that finished in the window.
    public var finished: Int
    /// `finished` per 7 days of the window.
    public var throughputPerWeek: Double
    /// From starting to finishing, of the finished cards that have one; `nil`: none has.
    public var cycleTime: DaySpread?
    /// From creation to finishing, of the finished cards that have one; `nil`: none has.
    public var leadTime: DaySpread?
    /// The cards now on each active board, in board order.
    public var wip: [WIPCount]
    /// The cards now on active boards, oldest first.
    public var aging: [AgingCard]
}

/// How many cards an active board holds now.
public struct WIPCount: Hashable, Sendable {
    public var board: FlowBoard
    public var count: Int

    public init(board: FlowBoard, count: Int) {
        self.board = board
        self.count = count
    }
}

/// The cumulative flow diagram: for each day of a window, how many cards were on each
/// board at the end of the day (a done board counts every card that finished on it).
public struct CumulativeFlow: Hashable, Sendable {
    /// The boards, in board order: one series each.
    public var boards: [FlowBoard]
    /// The days, oldest first.
    public var days: [Day]
    /// `counts[day][board]`.
    public var counts: [[Int]]

    public init(boards: [FlowBoard], days: [Day], counts: [[Int]]) {
        self.boards = boards
        self.days = days
        self.counts = counts
    }
}

/// The flow of a kanban's cards across its boards (README: Flow).
public struct Flow: Sendable {
    public var boards: [FlowBoard]
    public var cards: [FlowCard]
    /// The instant the figures are for (`$KANBAN_NOW` when set).
    public var now: Timestamp

    public init(boards: [FlowBoard], cards: [FlowCard], now: Timestamp) {
        self.boards = boards
        self.cards = cards
        self.now = now
    }

    /// The flow of a kanban: its boards with their roles, and its cards and its archive with
    /// their trails.
    public init(_ kanban: Kanban, now: Timestamp) {
        let boards = kanban.boards.indices.map { index in
            FlowBoard(id: kanban.boards[index].id, title: kanban.boards[index].title, role: kanban.role(ofBoard: index))
        }
        var cards: [FlowCard] = []
        for board in kanban.boards {
            for item in board.items {
                cards.append(
                    FlowCard(
                        id: item.id, title: item.title, created: item.created, trail: item.trail,
                        place: .board(board.id)))
            }
        }
        for archived in kanban.archive {
            let item = archived.item
            cards.append(
                FlowCard(
                    id: item.id, title: item.title, created: item.created, trail: item.trail,
                    place: .archived(from: archived.board, at: archived.archived)))
        }
        self.init(boards: boards, cards: cards, now: now)
    }

    // MARK: - Journeys

    /// What the figures need of one card.
    struct Journey {
        /// Its trail entries on boards that exist, up to now, oldest first, as board indexes.
        var entries: [(time: Timestamp, board: Int)]
        /// When and on which board it finished; `nil`: it has not.
        var finish: (time: Timestamp, board: Int)?
        /// When it started (for its cycle time); `nil`: unknown.
        var start: Timestamp?
        /// When it left the boards unfinished (archived); `nil`: it did not.
        var left: Timestamp?
    }

    /// The card's journey, by README's rules (Flow): entries naming a board that no longer
    /// exists, and entries after now, are left out; it finished at its first entry on a
    /// done board, else, archived from a done board, when it was archived; it started at
    /// its first entry on an active board before it finished, else at the entry just
    /// before it finished.
    func journey(of card: FlowCard, indexes: [BoardID: Int]) -> Journey {
        var entries: [(time: Timestamp, board: Int)] = []
        for entry in card.trail.sorted() where entry.time <= now {
            if let index = indexes[entry.board] { entries.append((entry.time, index)) }
        }
        var finish: (time: Timestamp, board: Int)?
        var before = entries[...]
        if let first = entries.firstIndex(where: { boards[$0.board].role == .done }) {
            finish = entries[first]
            before = entries[..<first]
        } else if case .archived(let from, let at) = card.place, at <= now, let index = indexes[from],
            boards[index].role == .done
        {
            finish = (at, index)
            before = entries[..<(entries.firstIndex { $0.time > at } ?? entries.endIndex)]
        }
        var left: Timestamp?
        if finish == nil, case .archived(_, let at) = card.place, at <= now { left = at }
        let start = finish == nil ? nil : (before.first { boards[$0.board].role == .active } ?? before.last)?.time
        return Journey(entries: entries, finish: finish, start: start, left: left)
    }

    private var indexes: [BoardID: Int] {
        Dictionary(boards.indices.map { (boards[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: - The figures

    /// The figures of `kanban stats` for `window` (its end capped at today); with
    /// `selected`, only the cards that are on, were archived from, or ever entered one of
    /// those boards, and only those boards' WIP.
    public func figures(in window: FlowWindow, boards selected: Set<BoardID>? = nil) -> FlowFigures {
        let window = capped(window)
        let (start, end) = bounds(of: window)
        let indexes = self.indexes
        var cycle: [Double] = []
        var lead: [Double] = []
        var finished = 0
        var wip = Array(repeating: 0, count: boards.count)
        var aging: [AgingCard] = []
        for card in cards where Self.card(card, touches: selected) {
            let journey = journey(of: card, indexes: indexes)
            if let finish = journey.finish, finish.time >= start, finish.time < end {
                finished += 1
                if let started = journey.start { cycle.append(Self.days(from: started, to: finish.time)) }
                if let created = card.created, created <= finish.time {
                    lead.append(Self.days(from: created, to: finish.time))
                }
            }
            guard case .board(let id) = card.place, let index = indexes[id], boards[index].role == .active,
                selected?.contains(id) ?? true
            else { continue }
            wip[index] += 1
            let last = journey.entries.last.flatMap { $0.board == index ? $0.time : nil }
            let started = journey.entries.first { boards[$0.board].role == .active }?.time
            aging.append(
                AgingCard(
                    id: card.id, title: card.title, board: boards[index],
                    daysInBoard: last.map { Self.days(from: $0, to: now) },
                    daysSinceStarted: started.map { Self.days(from: $0, to: now) }))
        }
        aging.sort(by: Self.older)
        let active = boards.indices.filter { boards[$0].role == .active && (selected?.contains(boards[$0].id) ?? true) }
        return FlowFigures(
            window: window, finished: finished,
            throughputPerWeek: window.dayCount == 0 ? 0 : Double(finished) * 7 / Double(window.dayCount),
            cycleTime: DaySpread(cycle), leadTime: DaySpread(lead),
            wip: active.map { WIPCount(board: boards[$0], count: wip[$0]) },
            aging: aging)
    }

    /// Oldest first: the longest since started (unknown last), then the longest in its
    /// board, then by id.
    private static func older(_ a: AgingCard, _ b: AgingCard) -> Bool {
        let (x, y) = (a.daysSinceStarted ?? -1, b.daysSinceStarted ?? -1)
        if x != y { return x > y }
        let (u, v) = (a.daysInBoard ?? -1, b.daysInBoard ?? -1)
        if u != v { return u > v }
        return a.id.rawValue < b.id.rawValue
    }

    /// Whether `card` is among those `stats BOARD…` keeps.
    private static func card(_ card: FlowCard, touches selected: Set<BoardID>?) -> Bool {
        guard let selected else { return true }
        switch card.place {
        case .board(let id), .archived(let id, _): if selected.contains(id) { return true }
        }
        return card.trail.contains { selected.contains($0.board) }
    }

    // MARK: - The cumulative flow diagram

    /// For each day of `window` (its end capped at today), how many cards were on each board
    /// at the end of the day (now included, for today): a card counts on the board of its latest
    /// entry until it finishes or is archived; once finished, on the done board it finished
    /// on, for good.
    public func cumulativeFlow(in window: FlowWindow) -> CumulativeFlow {
        let window = capped(window)
        let days = (0..<window.dayCount).map { window.since.adding(days: $0) }
        let ends = days.map { min(FlowWindow.start(of: $0.adding(days: 1)), now.adding(seconds: 1)) }
        var counts = Array(repeating: Array(repeating: 0, count: boards.count), count: days.count)
        let indexes = self.indexes
        for card in cards {
            let journey = journey(of: card, indexes: indexes)
            // Where the card is from each instant on: a board, or gone (nil).
            var events: [(time: Timestamp, board: Int?)] = []
            for entry in journey.entries {
                if let finish = journey.finish, entry.time >= finish.time { break }
                if let left = journey.left, entry.time >= left { break }
                events.append((entry.time, entry.board))
            }
            if let finish = journey.finish { events.append((finish.time, finish.board)) }
            if let left = journey.left { events.append((left, nil)) }
            var next = 0
            var board: Int?
            for (day, end) in ends.enumerated() {
                while next < events.count, events[next].time < end {
                    board = events[next].board
                    next += 1
                }
                if let board { counts[day][board] += 1 }
            }
        }
        return CumulativeFlow(boards: boards, days: days, counts: counts)
    }

    // MARK: - Time

    /// The window with `until` no later than today.
    private func capped(_ window: FlowWindow) -> FlowWindow {
        FlowWindow(since: window.since, until: min(window.until, now.utcDay))
    }

    /// The window's first instant and the instant after its last (now included).
    private func bounds(of window: FlowWindow) -> (Timestamp, Timestamp) {
        (
            FlowWindow.start(of: window.since),
            min(FlowWindow.start(of: window.until.adding(days: 1)), now.adding(seconds: 1))
        )
    }

    /// The days from one instant to another, as a fraction.
    static func days(from start: Timestamp, to end: Timestamp) -> Double {
        Double(end.seconds - start.seconds) / 86_400
    }
}
