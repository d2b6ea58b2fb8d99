// Shared test helpers: builders for small kanbans, the naive reference model of the drop
// logic, the checks every drop is held to, and generators whose output tests control.

import Testing

@testable import KanbanCore

// MARK: - Builders

/// Board titles the builders use, in order.
let boardTitles = ["Todo", "Doing", "Done", "Later", "Icebox", "Archive"]

/// The title the builders give the item with `id`.
func cardTitle(_ id: String) -> String { "Card \(id)" }

/// A kanban with one board per element of `ids`, holding items with those ids in order.
///
/// Boards are titled from ``boardTitles`` unless `titles` is given; items are titled
/// ``cardTitle(_:)`` unless `itemTitles` names them.
func makeKanban(
    _ ids: [[String]], titles: [String]? = nil, limits: [Int?]? = nil, itemTitles: [String: String] = [:]
) throws -> Kanban {
    let titles = titles ?? Array(boardTitles.prefix(ids.count))
    return try Kanban(
        boards: ids.enumerated().map { b, items in
            Board(
                title: titles[b], limit: limits?[b] ?? nil,
                items: try items.map { id in
                    Item(id: try #require(ItemID(id)), title: itemTitles[id] ?? cardTitle(id))
                })
        })
}

/// A kanban of boards with `counts` items each; the item at board *b*, index *i* has id
/// letter *b* followed by *i* (`a0`, `a1`, `b0`, …), so ids tell where items started.
func makeKanban(counts: [Int], limits: [Int?]? = nil) throws -> Kanban {
    try makeKanban(idLayout(counts: counts), limits: limits)
}

/// The ids ``makeKanban(counts:limits:)`` uses.
func idLayout(counts: [Int]) -> Layout {
    let letters = Array("abcdefghij")
    return counts.enumerated().map { b, count in (0..<count).map { "\(letters[b])\($0)" } }
}

/// A kanban made from `layout`, with the boards (titles, limits) of `template` and the
/// items of `template` or `extra` (for new cards).
func rebuild(_ template: Kanban, layout: Layout, extra: [String: String] = [:]) throws -> Kanban {
    var titles = extra
    for board in template.boards {
        for item in board.items { titles[item.id.rawValue] = item.title }
    }
    return try Kanban(
        boards: zip(template.boards, layout).map { board, ids in
            Board(
                title: board.title, limit: board.limit,
                items: try ids.map { Item(id: try #require(ItemID($0)), title: try #require(titles[$0])) })
        })
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

/// A kanban as the reference model sees it: the ids on each board, in order.
typealias Layout = [[String]]

func layout(_ kanban: Kanban) -> Layout {
    kanban.boards.map { $0.items.map(\.id.rawValue) }
}

/// The obviously correct move: take the ids out of every board, then insert them
/// contiguously at `index` in the destination (`nil`: append).
func referenceMove(_ layout: Layout, _ ids: [String], to destination: Int, at index: Int?) -> Layout {
    var result = layout.map { board in board.filter { !ids.contains($0) } }
    result[destination].insert(contentsOf: ids, at: index ?? result[destination].count)
    return result
}

/// The obviously correct insertion of new cards (copies or added items): nothing is taken out.
func referenceInsert(_ layout: Layout, _ ids: [String], into destination: Int, at index: Int) -> Layout {
    var result = layout
    result[destination].insert(contentsOf: ids, at: index)
    return result
}

/// The first occurrence of each element, in order.
func firstOccurrences<T: Hashable>(_ elements: [T]) -> [T] {
    var seen = Set<T>()
    return elements.filter { seen.insert($0).inserted }
}

/// What a drop brings in: a move of a selection, a copy of one, or `count` new items.
enum DropKind: Sendable, Hashable {
    case move, copy
    case insert(count: Int)
}

/// What the reference expects of a drop.
enum Plan: Equatable {
    /// The drop succeeds; the first item lands at this index (counted after the move's removal).
    case lands(at: Int)
    /// The drop is refused; any of these errors is right (when several rules are broken,
    /// the core may report any of them).
    case refused([KanbanError])
}

/// The reference rules of a drop, worked out on ids rather than indices.
func referencePlan(
    _ kind: DropKind, in kanban: Kanban, selection: [Location], to destination: Int, at position: DropPosition,
    force: Bool
) -> Plan {
    let before = layout(kanban)
    let board = kanban.boards[destination]
    let selected = selection.map { before[$0.board][$0.index] }
    let movedOut = kind == .move ? firstOccurrences(selected) : []
    let remaining = before[destination].filter { !movedOut.contains($0) }
    var errors: [KanbanError] = []
    var index: Int?
    switch position {
    case .top:
        index = 0
    case .bottom:
        index = remaining.count
    case .index(let n):
        if n >= 0 && n <= remaining.count {
            index = n
        } else {
            errors.append(.indexOutOfRange(index: n, board: board.title, range: 0...remaining.count))
        }
    case .before(let anchor), .after(let anchor):
        let anchorID = before[anchor.board][anchor.index]
        if anchor.board != destination {
            errors.append(.anchorNotInBoard(anchor: candidate(kanban, anchor), board: board.title))
        } else if movedOut.contains(anchorID) {
            errors.append(.anchorIsMoved(anchor: candidate(kanban, anchor)))
        } else {
            let after = if case .after = position { 1 } else { 0 }
            index = remaining.firstIndex(of: anchorID)! + after
        }
    }
    let incoming =
        switch kind {
        case .move: movedOut.filter { !before[destination].contains($0) }.count
        case .copy: selected.count
        case .insert(let count): count
        }
    let count = before[destination].count
    if !force, incoming > 0, let limit = board.limit, count + incoming > limit {
        errors.append(.wipLimit(board: board.title, limit: limit, current: count, resulting: count + incoming))
    }
    if let index, errors.isEmpty { return .lands(at: index) }
    return .refused(errors)
}

// MARK: - Checking drops against the reference

/// A copy adds a card, so it always changes the kanban; but `ItemChange.isEffective`
/// compares `from` (the original's slot) with `to` (the copy's), which are equal when the
/// copy lands at the original's index, and the command line then skips the write.

/// Runs `drop` on a copy of `kanban` and holds it to `plan`. A refusal must be one the
/// plan expects and leave the kanban as it was; then, and on any mismatch, this returns
/// `nil`. Otherwise it returns the kanban after the drop, its change and where it landed.
func perform(
    _ plan: Plan, on kanban: Kanban, _ context: Comment, sourceLocation: SourceLocation,
    _ drop: (inout Kanban) throws(KanbanError) -> Change
) -> (after: Kanban, change: Change, index: Int)? {
    var after = kanban
    let change: Change
    do {
        change = try drop(&after)
    } catch {
        guard case .refused(let errors) = plan else {
            Issue.record("refused with \(error), expected \(plan); \(context)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(
            errors.contains(error), "threw \(error), expected one of \(errors); \(context)",
            sourceLocation: sourceLocation)
        #expect(after == kanban, "a refusal changed the kanban; \(context)", sourceLocation: sourceLocation)
        return nil
    }
    guard case .lands(let index) = plan else {
        Issue.record("done, expected \(plan); \(context)", sourceLocation: sourceLocation)
        return nil
    }
    return (after, change, index)
}

/// Moves `selection` in a copy of `kanban` and checks the result, the reported change
/// and the invariants against the reference; a refusal must be one the reference
/// expects and leave the kanban unchanged.
func checkMove(
    _ kanban: Kanban, _ selection: [Location], to destination: Int, at position: DropPosition, force: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let plan = referencePlan(.move, in: kanban, selection: selection, to: destination, at: position, force: force)
    let context: Comment = "move \(selection) to board \(destination) at \(position) in \(layout(kanban))"
    guard
        let (after, change, index) = perform(
            plan, on: kanban, context, sourceLocation: sourceLocation,
            {
                (kanban) throws(KanbanError) in try kanban.move(selection, to: destination, at: position, force: force)
            })
    else { return }
    let ids = firstOccurrences(selection).map { kanban[$0].id.rawValue }
    let expectedLayout = referenceMove(layout(kanban), ids, to: destination, at: index)
    let expected = try rebuild(kanban, layout: expectedLayout)
    #expect(after == expected, "\(context)", sourceLocation: sourceLocation)
    #expect(change.items.map(\.id.rawValue) == ids, "\(context)", sourceLocation: sourceLocation)
    #expect(
        change.items.map(\.title) == firstOccurrences(selection).map { kanban[$0].title },
        sourceLocation: sourceLocation)
    #expect(
        change.items.map(\.from) == firstOccurrences(selection).map { slot(kanban, $0) }, "\(context)",
        sourceLocation: sourceLocation)
    #expect(change.items.map(\.to) == ids.map { slot(expected, id: $0) }, "\(context)", sourceLocation: sourceLocation)
    #expect(change.items.allSatisfy { $0.copyOf == nil && $0.previousTitle == nil }, sourceLocation: sourceLocation)
    #expect(change.boards.isEmpty, sourceLocation: sourceLocation)
    #expect(change.isEffective == (after != kanban), "\(context)", sourceLocation: sourceLocation)
    expectInvariants(after, sameItemsAs: kanban, sourceLocation: sourceLocation)
}

/// Copies `selection` in a copy of `kanban` and checks it against the reference: new,
/// distinct ids; the originals' titles; `copyOf` and `from` naming the originals.
func checkCopy(
    _ kanban: Kanban, _ selection: [Location], to destination: Int, at position: DropPosition, force: Bool = false,
    seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let plan = referencePlan(.copy, in: kanban, selection: selection, to: destination, at: position, force: force)
    let context: Comment = "copy \(selection) to board \(destination) at \(position) in \(layout(kanban))"
    var generator = SeededGenerator(seed: seed)
    guard
        let (after, change, index) = perform(
            plan, on: kanban, context, sourceLocation: sourceLocation,
            {
                (kanban) throws(KanbanError) in
                try kanban.copy(selection, to: destination, at: position, force: force, using: &generator)
            })
    else { return }
    let originals = selection.map { kanban[$0] }
    let newIDs = change.items.map(\.id.rawValue)
    try #require(newIDs.count == selection.count, "\(context)", sourceLocation: sourceLocation)
    let existing = Set(layout(kanban).joined())
    #expect(Set(newIDs).count == newIDs.count, "copies share an id: \(newIDs)", sourceLocation: sourceLocation)
    #expect(existing.isDisjoint(with: newIDs), "a copy reuses an id: \(newIDs)", sourceLocation: sourceLocation)
    #expect(change.items.map(\.title) == originals.map(\.title), sourceLocation: sourceLocation)
    #expect(change.items.map(\.copyOf) == originals.map(\.id), sourceLocation: sourceLocation)
    #expect(change.items.map(\.from) == selection.map { slot(kanban, $0) }, sourceLocation: sourceLocation)

    let titles = Dictionary(uniqueKeysWithValues: zip(newIDs, originals.map(\.title)))
    let expectedLayout = referenceInsert(layout(kanban), newIDs, into: destination, at: index)
    let expected = try rebuild(kanban, layout: expectedLayout, extra: titles)
    #expect(after == expected, "\(context)", sourceLocation: sourceLocation)
    #expect(
        change.items.map(\.to) == newIDs.map { slot(expected, id: $0) }, "\(context)", sourceLocation: sourceLocation)
    // A copy is effective even when every copy lands at its original's index.
    #expect(change.isEffective == !selection.isEmpty, sourceLocation: sourceLocation)
    #expect(after.itemCount == kanban.itemCount + selection.count, sourceLocation: sourceLocation)
    #expect(throws: Never.self, sourceLocation: sourceLocation) { try after.validate() }
}

/// Inserts new items titled `titles` and checks the result against the reference.
func checkInsert(
    _ kanban: Kanban, _ titles: [Title], into destination: Int, at position: DropPosition, force: Bool = false,
    seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let plan = referencePlan(
        .insert(count: titles.count), in: kanban, selection: [], to: destination, at: position, force: force)
    let context: Comment = "insert \(titles) into board \(destination) at \(position) in \(layout(kanban))"
    var generator = SeededGenerator(seed: seed)
    guard
        let (after, change, index) = perform(
            plan, on: kanban, context, sourceLocation: sourceLocation,
            {
                (kanban) throws(KanbanError) in
                try kanban.insert(titles, into: destination, at: position, force: force, using: &generator)
            })
    else { return }
    let newIDs = change.items.map(\.id.rawValue)
    try #require(newIDs.count == titles.count, sourceLocation: sourceLocation)
    #expect(Set(newIDs).count == newIDs.count, sourceLocation: sourceLocation)
    #expect(Set(layout(kanban).joined()).isDisjoint(with: newIDs), sourceLocation: sourceLocation)
    #expect(change.items.map(\.title) == titles.map(\.text), sourceLocation: sourceLocation)
    #expect(change.items.allSatisfy { $0.from == nil && $0.copyOf == nil }, sourceLocation: sourceLocation)
    let expectedLayout = referenceInsert(layout(kanban), newIDs, into: destination, at: index)
    let expected = try rebuild(
        kanban, layout: expectedLayout, extra: Dictionary(uniqueKeysWithValues: zip(newIDs, titles.map(\.text))))
    #expect(after == expected, "\(context)", sourceLocation: sourceLocation)
    #expect(change.items.map(\.to) == newIDs.map { slot(expected, id: $0) }, sourceLocation: sourceLocation)
    #expect(change.isEffective == !titles.isEmpty, sourceLocation: sourceLocation)
    #expect(throws: Never.self, sourceLocation: sourceLocation) { try after.validate() }
}

/// Where `location` is, as reports name it.
func slot(_ kanban: Kanban, _ location: Location) -> Slot {
    Slot(board: kanban.boards[location.board].title, index: location.index)
}

/// Where the item with `id` is in `kanban`, found by searching, as reports name it.
func slot(_ kanban: Kanban, id: String) -> Slot? {
    for board in kanban.boards {
        if let index = board.items.firstIndex(where: { $0.id.rawValue == id }) {
            return Slot(board: board.title, index: index)
        }
    }
    return nil
}

/// Checks that `kanban` keeps its invariants and holds exactly the items of `original`.
func expectInvariants(_ kanban: Kanban, sameItemsAs original: Kanban, sourceLocation: SourceLocation = #_sourceLocation)
{
    #expect(throws: Never.self, sourceLocation: sourceLocation) { try kanban.validate() }
    let ids = kanban.boards.flatMap { $0.items.map(\.id) }
    #expect(Set(ids).count == ids.count, "duplicate ids in \(layout(kanban))", sourceLocation: sourceLocation)
    let items = { (k: Kanban) in k.boards.flatMap(\.items).sorted { $0.id < $1.id } }
    #expect(items(kanban) == items(original), "items were lost or made", sourceLocation: sourceLocation)
    #expect(kanban.boards.map(\.title) == original.boards.map(\.title), sourceLocation: sourceLocation)
    #expect(kanban.boards.map(\.limit) == original.boards.map(\.limit), sourceLocation: sourceLocation)
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

/// A random drop position for `destination`: indices in and out of range, the ends,
/// and anchors anywhere in the kanban.
func randomPosition(in kanban: Kanban, destination: Int, using generator: inout some RandomNumberGenerator)
    -> DropPosition
{
    let locations = allLocations(kanban)
    switch generator.int(0...5) {
    case 0: return .top
    case 1: return .bottom
    case 2, 3: return .index(generator.int(-2...(kanban.boards[destination].items.count + 2)))
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
