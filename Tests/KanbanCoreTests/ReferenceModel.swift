// Shared test helpers: builders for small kanbans, the naive reference model of the drop
// logic (written from SPEC §2, not from the implementation), the checks every drop is held
// to, and generators whose output tests control.

import Testing

@testable import KanbanCore

// MARK: - Builders

/// Board titles the builders use, in order.
let boardTitles = ["Todo", "Doing", "Done", "Later", "Icebox", "Archive"]

/// The title the builders give the item with `id`.
func cardTitle(_ id: String) -> String { "Card \(id)" }

/// The time drops run at in the checks: later than every time the builders give cards.
let dropTime = Timestamp(seconds: 1_800_000_000)

/// The card ``makeKanban(counts:limits:)`` makes for `id`: its title, and labels, a due
/// date, timestamps and a note that depend on the id, so that what a drop does to them shows.
func card(_ id: String) -> Item {
    let hash = id.unicodeScalars.reduce(7) { ($0 * 31 + Int($1.value)) % 10_007 }
    var item = Item(id: ItemID(id)!, title: cardTitle(id))
    if hash % 2 == 0 { item.labels = ["bug", hash % 3 == 0 ? "P1" : "@alice"] }
    if hash % 3 != 1 { item.due = Day(daysSinceEpoch: 20_000 + hash % 40) }
    if hash % 4 != 0 {
        item.created = Timestamp(seconds: 1_700_000_000 + Int64(hash))
        item.entered = Timestamp(seconds: 1_700_100_000 + Int64(hash))
    }
    if hash % 5 < 3 { item.note = "About \(id):\n\t\"quoted\" é 😀" }
    return item
}

/// A kanban with one board per element of `ids`, holding items with those ids in order.
///
/// Boards are titled from ``boardTitles`` unless `titles` is given; items are titled
/// ``cardTitle(_:)`` unless `itemTitles` names them, and have nothing but a title.
func makeKanban(
    _ ids: [[String]], titles: [String]? = nil, limits: [Int?]? = nil, itemTitles: [String: String] = [:]
) throws -> Kanban {
    let titles = titles ?? Array(boardTitles.prefix(ids.count))
    return try Kanban(
        boards: ids.enumerated().map { b, items in
            Board(
                title: titles[b], limit: limits?[b] ?? nil,
                items: try items.map { id in
                    Item(id: try require(ItemID(id)), title: itemTitles[id] ?? cardTitle(id))
                })
        })
}

/// A kanban of boards with `counts` items each; the item at board *b*, index *i* has id
/// letter *b* followed by *i* (`a0`, `a1`, `b0`, …), so ids tell where items started, and
/// the content ``card(_:)`` gives it.
func makeKanban(counts: [Int], limits: [Int?]? = nil) throws -> Kanban {
    try Kanban(
        boards: idLayout(counts: counts).enumerated().map { b, ids in
            Board(title: boardTitles[b], limit: limits?[b] ?? nil, items: ids.map(card))
        })
}

/// The ids ``makeKanban(counts:limits:)`` uses.
func idLayout(counts: [Int]) -> Layout {
    let letters = Array("abcdefghij")
    return counts.enumerated().map { b, count in (0..<count).map { "\(letters[b])\($0)" } }
}

/// A kanban with the boards (ids, titles, limits) and archive of `template`, holding the
/// ids of `layout`; each card is `cards[id]`, else the one `template` has. Its invariants are
/// not checked: the checks compare the kanban a drop made with it, and check that one.
func rebuild(_ template: Kanban, layout: Layout, cards: [String: Item] = [:]) throws -> Kanban {
    var known = cards
    for board in template.boards {
        for item in board.items where known[item.id.rawValue] == nil { known[item.id.rawValue] = item }
    }
    return Kanban(
        trusted: try zip(template.boards, layout).map { board, ids in
            Board(
                id: board.id, title: board.title, limit: board.limit,
                items: try ids.map { try require(known[$0], "no card \($0)") })
        }, archive: template.archive)
}

/// Every location in `kanban`, board by board.
func allLocations(_ kanban: Kanban) -> [Location] {
    kanban.boards.enumerated().flatMap { b, board in board.items.indices.map { Location(board: b, index: $0) } }
}

/// The item at `location`, named as errors name it.
func candidate(_ kanban: Kanban, _ location: Location) -> Candidate {
    let item = kanban.boards[location.board].items[location.index]
    return Candidate(id: item.id, title: item.title, board: kanban.boards[location.board].title, index: location.index)
}

/// Every shape of three boards holding 0 to 4 items each: 125 of them.
let smallShapes: [Shape] = (0...4).flatMap { a in (0...4).flatMap { b in (0...4).map { c in Shape([a, b, c]) } } }

/// The item counts of a kanban's boards, as a test argument.
struct Shape: Sendable, Hashable, CustomTestStringConvertible {
    var counts: [Int]
    init(_ counts: [Int]) { self.counts = counts }
    var testDescription: String { counts.map(String.init).joined(separator: "/") }
}

// MARK: - The reference model

/// A kanban as tests read it: the ids on each board, in order.
typealias Layout = [[String]]

func layout(_ kanban: Kanban) -> Layout {
    kanban.boards.map { $0.items.map(\.id.rawValue) }
}

/// The first occurrence of each element, in order.
func firstOccurrences<T: Hashable>(_ elements: [T]) -> [T] {
    var seen = Set<T>()
    return elements.filter { seen.insert($0).inserted }
}

/// A kanban as the reference model sees it: every card numbered, top to bottom and board by
/// board, and each board a list of numbers. (Numbers rather than ids keep the tens of
/// thousands of drops the exhaustive tests check cheap.)
struct Fixture {
    let kanban: Kanban
    /// The cards on the boards; a card's number is its place here.
    let cards: [Item]
    /// The numbers of each board's cards, in order.
    let numbers: [[Int]]
    /// The ids of the cards on the boards, sorted.
    let sortedIDs: [ItemID]

    init(_ kanban: Kanban) {
        self.kanban = kanban
        cards = kanban.boards.flatMap(\.items)
        var next = 0
        numbers = kanban.boards.map { board in
            defer { next += board.items.count }
            return Array(next..<(next + board.items.count))
        }
        sortedIDs = cards.map(\.id).sorted()
    }

    /// The number of the card at `location`.
    func number(_ location: Location) -> Int { numbers[location.board][location.index] }

    /// The ids on each board, for messages.
    var layout: Layout { KanbanCoreTests.layout(kanban) }

    /// A kanban with this one's boards and archive, holding the cards `numbers` name; `card`
    /// gives each (the reference names new cards `cards.count`, `cards.count + 1`, …).
    func rebuild(_ numbers: [[Int]], card: (Int) -> Item) -> Kanban {
        Kanban(
            trusted: zip(kanban.boards, numbers).map { board, numbers in
                Board(id: board.id, title: board.title, limit: board.limit, items: numbers.map(card))
            }, archive: kanban.archive)
    }
}

/// What a drop brings in: a move of a selection, a copy of one, or `count` new items.
enum DropKind: Sendable, Hashable {
    case move, copy
    case insert(count: Int)
}

/// What the reference expects of a drop.
enum Plan: Equatable {
    /// The drop succeeds and leaves the boards holding these cards (by number; the cards a
    /// copy or an insert makes are numbered on from the last card, in the order they are made).
    case lands([[Int]])
    /// The drop is refused; any of these errors is right (when several rules are broken,
    /// the core may report any of them).
    case refused([KanbanError])
}

/// The place in a board of `count` items that `--at n` names, or `nil` when there is none.
///
/// SPEC §2: the places are the gaps between the items, top to bottom (`count + 1` of them);
/// `n` counts them from the top starting at 0, and a negative `n` counts them from the
/// bottom, `-1` being the last.
func referencePlace(_ n: Int, count: Int) -> Int? {
    let places = Array(0...count)
    if n >= 0 { return n < places.count ? places[n] : nil }
    return n >= -places.count ? places[places.count + n] : nil
}

/// The `--at` numbers a board of `count` items takes: as many from the top as from the bottom.
func referenceRange(count: Int) -> ClosedRange<Int> {
    let places = count + 1
    return -places...(places - 1)
}

/// The reference rules of a drop, from SPEC §2: take the moved items out, find the place in
/// what is left, put the items in there; a board with a limit refuses when items that were
/// not on it arrive and it ends up with more than its limit.
func referencePlan(
    _ kind: DropKind, in kanban: Kanban, selection: [Location], to destination: Int, at position: DropPosition,
    force: Bool
) -> Plan {
    referencePlan(kind, in: Fixture(kanban), selection: selection, to: destination, at: position, force: force)
}

func referencePlan(
    _ kind: DropKind, in fixture: Fixture, selection: [Location], to destination: Int, at position: DropPosition,
    force: Bool
) -> Plan {
    let kanban = fixture.kanban
    let before = fixture.numbers
    let board = kanban.boards[destination]
    let picked = selection.map(fixture.number)
    let arriving: [Int]
    let takenOut: [Int]
    switch kind {
    case .move:
        arriving = firstOccurrences(picked)
        takenOut = arriving
    case .copy:
        arriving = Array(fixture.cards.count..<(fixture.cards.count + picked.count))
        takenOut = []
    case .insert(let count):
        arriving = Array(fixture.cards.count..<(fixture.cards.count + count))
        takenOut = []
    }
    var after = before.map { numbers in numbers.filter { !takenOut.contains($0) } }
    let left = after[destination]

    var errors: [KanbanError] = []
    var place: Int?
    switch position {
    case .top:
        place = 0
    case .bottom:
        place = left.count
    case .index(let n):
        place = referencePlace(n, count: left.count)
        if place == nil {
            errors.append(.indexOutOfRange(index: n, board: board.title, range: referenceRange(count: left.count)))
        }
    case .before(let anchor), .after(let anchor):
        let anchorNumber = fixture.number(anchor)
        if anchor.board != destination {
            errors.append(.anchorNotInBoard(anchor: candidate(kanban, anchor), board: board.title))
        }
        if takenOut.contains(anchorNumber) {
            errors.append(.anchorIsMoved(anchor: candidate(kanban, anchor)))
        }
        if errors.isEmpty {
            let gapAfter = if case .after = position { 1 } else { 0 }
            place = left.firstIndex(of: anchorNumber)! + gapAfter
        }
    }
    // Where the items land does not change how many arrive: for a refused position, count
    // them as if dropped at the bottom.
    after[destination].insert(contentsOf: arriving, at: place ?? left.count)
    let incoming = after[destination].filter { !before[destination].contains($0) }
    if !force, !incoming.isEmpty, let limit = board.limit, after[destination].count > limit {
        errors.append(
            .wipLimit(
                board: board.title, limit: limit, current: before[destination].count,
                resulting: after[destination].count))
    }
    return errors.isEmpty ? .lands(after) : .refused(errors)
}

// MARK: - Checking drops against the reference

// The checks below run tens of thousands of times per test, so they test plain conditions
// and build their messages only when one fails: `#expect` costs far more per call.

/// Records an issue with `message` unless `condition` holds.
func verify(
    _ condition: Bool, _ message: @autoclosure () -> String, _ context: @autoclosure () -> String,
    at sourceLocation: SourceLocation
) {
    if !condition { Issue.record(Comment(rawValue: message() + "; " + context()), sourceLocation: sourceLocation) }
}

/// Records an issue unless `actual` equals `expected`.
func verify<T: Equatable>(
    _ actual: T, equals expected: T, _ what: @autoclosure () -> String, _ context: @autoclosure () -> String,
    at sourceLocation: SourceLocation
) {
    if actual != expected {
        Issue.record(
            Comment(rawValue: "\(what()): got \(actual), expected \(expected); \(context())"),
            sourceLocation: sourceLocation)
    }
}

/// Runs `drop` on a copy of `kanban` and holds it to `plan`. A refusal must be one the
/// plan expects and leave the kanban as it was; then, and on any mismatch, this returns
/// `nil`. Otherwise it returns the kanban after the drop, its change and the boards the
/// plan expects.
func perform(
    _ plan: Plan, on kanban: Kanban, _ context: () -> String, sourceLocation: SourceLocation,
    _ drop: (inout Kanban) throws(KanbanError) -> Change
) -> (after: Kanban, change: Change, expected: [[Int]])? {
    var after = kanban
    let change: Change
    do {
        change = try drop(&after)
    } catch {
        guard case .refused(let errors) = plan else {
            Issue.record("refused with \(error), expected \(plan); \(context())", sourceLocation: sourceLocation)
            return nil
        }
        verify(errors.contains(error), "threw \(error), expected one of \(errors)", context(), at: sourceLocation)
        verify(after == kanban, "a refusal changed the kanban", context(), at: sourceLocation)
        return nil
    }
    guard case .lands(let expected) = plan else {
        Issue.record("done, expected \(plan); \(context())", sourceLocation: sourceLocation)
        return nil
    }
    return (after, change, expected)
}

/// Where the cards numbered `numbers` are on `expected`'s boards, as reports name them.
func slots(of numbers: [Int], in expected: [[Int]], titles: [String]) -> [Slot?] {
    numbers.map { number in
        for (board, cards) in expected.enumerated() {
            if let index = cards.firstIndex(of: number) { return Slot(board: titles[board], index: index) }
        }
        return nil
    }
}

/// Moves `selection` in a copy of `kanban` at ``dropTime`` and checks the result, the
/// reported change and the invariants against the reference: cards keep everything but
/// `entered`, which is the drop's time for those that came from another board (whose trail
/// gains the destination then). A refusal
/// must be one the reference expects and leave the kanban unchanged.
func checkMove(
    _ kanban: Kanban, _ selection: [Location], to destination: Int, at position: DropPosition, force: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try checkMove(
        Fixture(kanban), selection, to: destination, at: position, force: force, sourceLocation: sourceLocation)
}

func checkMove(
    _ fixture: Fixture, _ selection: [Location], to destination: Int, at position: DropPosition, force: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let kanban = fixture.kanban
    let plan = referencePlan(.move, in: fixture, selection: selection, to: destination, at: position, force: force)
    let context = { "move \(selection) to board \(destination) at \(position) in \(fixture.layout)" }
    guard
        let (after, change, expectedNumbers) = perform(
            plan, on: kanban, context, sourceLocation: sourceLocation,
            { (kanban) throws(KanbanError) in
                try kanban.move(selection, to: destination, at: position, force: force, now: dropTime)
            })
    else { return }
    let moved = firstOccurrences(selection)
    let numbers = moved.map(fixture.number)
    let arrived = Set(moved.filter { $0.board != destination }.map(fixture.number))
    let expected = fixture.rebuild(expectedNumbers) { number in
        var item = fixture.cards[number]
        if arrived.contains(number) {
            item.entered = dropTime
            item.trail.append(TrailEntry(board: kanban.boards[destination].id, time: dropTime))
        }
        return item
    }
    verify(after, equals: expected, "the kanban", context(), at: sourceLocation)
    let titles = kanban.boards.map(\.title)
    verify(
        change.items.map(\.id), equals: moved.map { kanban[$0].id }, "the ids reported", context(), at: sourceLocation)
    verify(change.items.map(\.title), equals: moved.map { kanban[$0].title }, "titles", context(), at: sourceLocation)
    verify(change.items.map(\.from), equals: moved.map { slot(kanban, $0) }, "from", context(), at: sourceLocation)
    verify(
        change.items.map(\.to), equals: slots(of: numbers, in: expectedNumbers, titles: titles), "to", context(),
        at: sourceLocation)
    verify(
        change.items.allSatisfy { $0.copyOf == nil && $0.edits.isEmpty && $0.archive == nil },
        "a move reported a copy, an edit or an archive", context(), at: sourceLocation)
    verify(change.boards.isEmpty, "a move reported a board change", context(), at: sourceLocation)
    verify(change.isEffective, equals: after != kanban, "isEffective", context(), at: sourceLocation)
    expectInvariants(after, sameItemsAs: fixture, sourceLocation: sourceLocation)
}

/// Copies `selection` in a copy of `kanban` at ``dropTime`` and checks it against the
/// reference: new, distinct ids; the originals' titles, labels, due dates and notes, created
/// and entered at the drop's time, each starting its own trail there; `copyOf` and `from`
/// naming the originals.
func checkCopy(
    _ kanban: Kanban, _ selection: [Location], to destination: Int, at position: DropPosition, force: Bool = false,
    seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let fixture = Fixture(kanban)
    let plan = referencePlan(.copy, in: fixture, selection: selection, to: destination, at: position, force: force)
    let context = { "copy \(selection) to board \(destination) at \(position) in \(fixture.layout)" }
    var generator = SeededGenerator(seed: seed)
    guard
        let (after, change, expectedNumbers) = perform(
            plan, on: kanban, context, sourceLocation: sourceLocation,
            { (kanban) throws(KanbanError) in
                try kanban.copy(
                    selection, to: destination, at: position, force: force, now: dropTime, using: &generator)
            })
    else { return }
    let originals = selection.map { kanban[$0] }
    try require(change.items.count == selection.count, "\(context())", sourceLocation: sourceLocation)
    expectFreshIDs(change.items.map(\.id), in: kanban, sourceLocation: sourceLocation)
    verify(change.items.map(\.title), equals: originals.map(\.title), "titles", context(), at: sourceLocation)
    verify(change.items.map(\.copyOf), equals: originals.map(\.id), "copyOf", context(), at: sourceLocation)
    verify(change.items.map(\.from), equals: selection.map { slot(kanban, $0) }, "from", context(), at: sourceLocation)
    let copies = zip(change.items, originals).map { change, original in
        Item(
            id: change.id, title: original.title, labels: original.labels, due: original.due, created: dropTime,
            entered: dropTime, trail: [TrailEntry(board: kanban.boards[destination].id, time: dropTime)],
            note: original.note)
    }
    let expected = fixture.rebuild(expectedNumbers) { number in
        number < fixture.cards.count ? fixture.cards[number] : copies[number - fixture.cards.count]
    }
    verify(after, equals: expected, "the kanban", context(), at: sourceLocation)
    let numbers = Array(fixture.cards.count..<(fixture.cards.count + copies.count))
    verify(
        change.items.map(\.to), equals: slots(of: numbers, in: expectedNumbers, titles: kanban.boards.map(\.title)),
        "to", context(), at: sourceLocation)
    // A copy is effective even when every copy lands at its original's index.
    verify(change.isEffective, equals: !selection.isEmpty, "isEffective", context(), at: sourceLocation)
    verify((try? after.validate()) != nil, "the kanban breaks an invariant", context(), at: sourceLocation)
}

/// Inserts new cards made of `cards` at ``dropTime`` and checks the result against the reference.
func checkInsert(
    _ kanban: Kanban, _ cards: [CardContent], into destination: Int, at position: DropPosition,
    force: Bool = false, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let fixture = Fixture(kanban)
    let plan = referencePlan(
        .insert(count: cards.count), in: fixture, selection: [], to: destination, at: position, force: force)
    let context = { "insert \(cards.map(\.title)) into board \(destination) at \(position) in \(fixture.layout)" }
    var generator = SeededGenerator(seed: seed)
    guard
        let (after, change, expectedNumbers) = perform(
            plan, on: kanban, context, sourceLocation: sourceLocation,
            { (kanban) throws(KanbanError) in
                try kanban.insert(
                    cards, into: destination, at: position, force: force, now: dropTime, using: &generator)
            })
    else { return }
    try require(change.items.count == cards.count, "\(context())", sourceLocation: sourceLocation)
    expectFreshIDs(change.items.map(\.id), in: kanban, sourceLocation: sourceLocation)
    verify(change.items.map(\.title), equals: cards.map(\.title.text), "titles", context(), at: sourceLocation)
    verify(
        change.items.allSatisfy { $0.from == nil && $0.copyOf == nil }, "a new card has an origin", context(),
        at: sourceLocation)
    let made = zip(change.items, cards).map { change, content in
        Item(
            id: change.id, title: content.title.text, labels: content.labels, due: content.due, created: dropTime,
            entered: dropTime, trail: [TrailEntry(board: kanban.boards[destination].id, time: dropTime)],
            note: content.note)
    }
    let expected = fixture.rebuild(expectedNumbers) { number in
        number < fixture.cards.count ? fixture.cards[number] : made[number - fixture.cards.count]
    }
    verify(after, equals: expected, "the kanban", context(), at: sourceLocation)
    let numbers = Array(fixture.cards.count..<(fixture.cards.count + made.count))
    verify(
        change.items.map(\.to), equals: slots(of: numbers, in: expectedNumbers, titles: kanban.boards.map(\.title)),
        "to", context(), at: sourceLocation)
    verify(change.isEffective, equals: !cards.isEmpty, "isEffective", context(), at: sourceLocation)
    verify((try? after.validate()) != nil, "the kanban breaks an invariant", context(), at: sourceLocation)
}

/// Checks that `ids` are distinct and new to `kanban` (items, boards, archive).
func expectFreshIDs(_ ids: [ItemID], in kanban: Kanban, sourceLocation: SourceLocation = #_sourceLocation) {
    var used = Set(kanban.boards.flatMap { $0.items.map(\.id) })
    used.formUnion(kanban.boards.map(\.id))
    used.formUnion(kanban.archive.map(\.item.id))
    verify(Set(ids).count == ids.count, "new cards share an id: \(ids)", "", at: sourceLocation)
    verify(used.isDisjoint(with: ids), "a new card reuses an id: \(ids)", "", at: sourceLocation)
}

/// Where `location` is, as reports name it.
func slot(_ kanban: Kanban, _ location: Location) -> Slot {
    Slot(board: kanban.boards[location.board].title, index: location.index)
}

/// Checks that `kanban` holds the cards of `original`, each once, on boards with the same
/// ids, titles and limits, and the same archive, so it keeps the invariants `original` has.
/// (The checks compare the cards themselves with the reference's.)
func expectInvariants(_ kanban: Kanban, sameItemsAs original: Kanban, sourceLocation: SourceLocation = #_sourceLocation)
{
    expectInvariants(kanban, sameItemsAs: Fixture(original), sourceLocation: sourceLocation)
}

func expectInvariants(
    _ kanban: Kanban, sameItemsAs original: Fixture, sourceLocation: SourceLocation = #_sourceLocation
) {
    let context = { "\(layout(kanban))" }
    verify(
        kanban.boards.flatMap { $0.items.map(\.id) }.sorted(), equals: original.sortedIDs, "the cards' ids",
        context(), at: sourceLocation)
    let boards = { (k: Kanban) in k.boards.map { Board(id: $0.id, title: $0.title, limit: $0.limit) } }
    verify(boards(kanban) == boards(original.kanban), "the boards changed", context(), at: sourceLocation)
    verify(kanban.archive == original.kanban.archive, "the archive changed", context(), at: sourceLocation)
}

// MARK: - Random kanbans

extension RandomNumberGenerator {
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

/// A random kanban of 1 to `maxBoards` boards with up to `maxItems` items each, ids
/// from ``idLayout(counts:)`` and random limits (none, or near the board's count).
func randomKanban(using generator: inout some RandomNumberGenerator, maxBoards: Int = 4, maxItems: Int = 5) throws
    -> Kanban
{
    let counts = (0..<generator.int(1...maxBoards)).map { _ in generator.int(0...maxItems) }
    let limits: [Int?] = counts.map { count in generator.chance(40) ? max(0, count + generator.int(-1...2)) : nil }
    return try makeKanban(counts: counts, limits: limits)
}

/// A random drop position for `destination`: indices in and out of range at both ends,
/// the ends, and anchors anywhere in the kanban.
func randomPosition(in kanban: Kanban, destination: Int, using generator: inout some RandomNumberGenerator)
    -> DropPosition
{
    let locations = allLocations(kanban)
    let count = kanban.boards[destination].items.count
    switch generator.int(0...6) {
    case 0: return .top
    case 1: return .bottom
    case 2, 3: return .index(generator.int(-1...(count + 2)))
    case 4: return .index(generator.int(-(count + 3)...(-1)))
    default:
        guard !locations.isEmpty else { return .bottom }
        let inDestination = locations.filter { $0.board == destination }
        let pool = !inDestination.isEmpty && generator.chance(75) ? inDestination : locations
        let anchor = pool[generator.int(0...(pool.count - 1))]
        return generator.chance(50) ? .before(anchor) : .after(anchor)
    }
}

/// A random selection of up to `maxCount` locations, duplicates likely.
func randomSelection(in kanban: Kanban, maxCount: Int = 5, using generator: inout some RandomNumberGenerator)
    -> [Location]
{
    let locations = allLocations(kanban)
    guard !locations.isEmpty else { return [] }
    return (0..<generator.int(1...maxCount)).map { _ in locations[generator.int(0...(locations.count - 1))] }
}

/// Random new cards: titles, and sometimes labels, a due date and a note.
func randomCards(using generator: inout some RandomNumberGenerator, maxCount: Int = 4) throws -> [CardContent] {
    try (0..<generator.int(0...maxCount)).map { _ in
        CardContent(
            title: try Title("Task \(generator.int(0...9))"),
            labels: generator.chance(30) ? ["new", "P\(generator.int(0...3))"] : [],
            due: generator.chance(30) ? Day(daysSinceEpoch: generator.int(19_000...21_000)) : nil,
            note: generator.chance(30) ? "line one\nline two \(generator.int(0...9))" : nil)
    }
}

// MARK: - Generators under test control

/// Records the values a generator hands out.
struct RecordingGenerator<Base: RandomNumberGenerator>: RandomNumberGenerator {
    var base: Base
    var recorded: [UInt64] = []

    mutating func next() -> UInt64 {
        let value = base.next()
        recorded.append(value)
        return value
    }
}

/// Hands out `script`, then whatever `fallback` gives.
struct ScriptedGenerator: RandomNumberGenerator {
    var script: [UInt64]
    var fallback: SeededGenerator
    var position = 0

    mutating func next() -> UInt64 {
        defer { position += 1 }
        return position < script.count ? script[position] : fallback.next()
    }
}

// MARK: - Bytes

extension String {
    /// The UTF-8 bytes of the string.
    var bytes: [UInt8] { Array(utf8) }
}
