import Foundation
import Testing

@testable import KanbanCore

// A card's trail (README: Cards with content, The file): every board it entered and when,
// kept by the file, started or extended by each arrival, and merged as a union.

/// An entry written in a test.
private func entry(_ board: String, _ time: Timestamp) -> TrailEntry { TrailEntry(board: id(board), time: time) }

private let later = now.adding(seconds: 3_600)

/// The file of a kanban whose one card has `line` as its line.
private func file(card line: String) -> [UInt8] {
    Array(
        """
        {
          "version": 2,
          "boards": [
            {
              "id": "todo",
              "title": "Todo",
              "limit": null,
              "items": [
                \(line)
              ]
            }
          ]
        }

        """.utf8)
}

@Suite("A card's trail in the file")
struct TrailFileTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aTrailIsWrittenAfterEnteredAndBeforeTheNoteAndReadBack
        case aCardWithoutATrailHasNoTrailKey
        case aTrailOutOfOrderOrRepeatedIsReadOldestFirstOnce
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aTrailIsWrittenAfterEnteredAndBeforeTheNoteAndReadBack:
            try aTrailIsWrittenAfterEnteredAndBeforeTheNoteAndReadBack()
        case .aCardWithoutATrailHasNoTrailKey: try aCardWithoutATrailHasNoTrailKey()
        case .aTrailOutOfOrderOrRepeatedIsReadOldestFirstOnce: try aTrailOutOfOrderOrRepeatedIsReadOldestFirstOnce()
        }
    }

    func aTrailIsWrittenAfterEnteredAndBeforeTheNoteAndReadBack() throws {
        var card = Item(id: id("k3f9p2"), title: "Card", created: earlier, entered: now, note: "n")
        card.trail = [entry("todo", earlier), entry("done", now)]
        let kanban = try Kanban(boards: [Board(id: id("todo"), title: "Todo", items: [card])])
        let text = String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
        expectTrue(
            text.contains(
                #""entered": "2026-11-23T10:00:00Z", "trail": [["todo", "2026-11-20T09:00:00Z"], "#
                    + #"["done", "2026-11-23T10:00:00Z"]], "note": "n"}"#), "\(text)")
        expectEqual(try KanbanFile.decode(Array(text.utf8)).kanban, kanban)
        // Codable agrees with the file's own reader and writer, and puts entries in order too.
        let encoded = try JSONEncoder().encode(kanban)
        expectTrue(String(decoding: encoded, as: UTF8.self).contains(#""trail":[["todo","2026-11-20T09:00:00Z"],"#))
        expectEqual(try JSONDecoder().decode(Kanban.self, from: encoded), kanban)
        let unordered = Data(String(decoding: encoded, as: UTF8.self).replacingOccurrences(
            of: #"[["todo","2026-11-20T09:00:00Z"],["done","2026-11-23T10:00:00Z"]]"#,
            with: #"[["done","2026-11-23T10:00:00Z"],["todo","2026-11-20T09:00:00Z"]]"#).utf8)
        expectEqual(try JSONDecoder().decode(Kanban.self, from: unordered), kanban)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                Kanban.self,
                from: Data(String(decoding: encoded, as: UTF8.self).replacingOccurrences(of: #"["todo","2026-11-20T09:00:00Z"]"#, with: #"["todo"]"#).utf8))
        }
    }

    func aCardWithoutATrailHasNoTrailKey() throws {
        let kanban = try Kanban(boards: [Board(id: id("todo"), title: "Todo", items: [Item(id: id("a1"), title: "A")])])
        expectTrue(!String(decoding: KanbanFile.encode(kanban), as: UTF8.self).contains("trail"))
    }

    /// README (The file): entries out of order or repeated (a hand edit) are read oldest
    /// first, each once; the next write stores them so.
    func aTrailOutOfOrderOrRepeatedIsReadOldestFirstOnce() throws {
        let line =
            #"{"id": "a1", "title": "A", "trail": [["done", "2026-11-23T10:00:00Z"], "#
            + #"["todo", "2026-11-20T09:00:00Z"], ["done", "2026-11-23T10:00:00Z"]]}"#
        let card = try KanbanFile.decode(file(card: line)).kanban.boards[0].items[0]
        expectEqual(card.trail, [entry("todo", earlier), entry("done", now)])
    }

    @Test(arguments: [
        (#"["todo"]"#, "[board id, time]"),
        (#"["todo", "2026-11-20T09:00:00Z"]"#, "must be an array"),
        (#"[["todo", "2026-11-20T09:00:00Z", "x"]]"#, "found more"),
        (#"[["to do", "2026-11-20T09:00:00Z"]]"#, "invalid id"),
        (#"[["todo", "yesterday"]]"#, "must be a time"),
        (#"[["todo", 5]]"#, "trail"),
        (#"[[]]"#, "found []"),
        (#"{}"#, "must be an array"),
    ])
    func aMalformedTrailIsRefusedAtItsLine(trail: String, says: String) {
        let bytes = file(card: #"{"id": "a1", "title": "A", "trail": "# + trail + "}")
        #expect {
            try KanbanFile.decode(bytes)
        } throws: { error in
            guard case KanbanError.corruptFile(let line, let message) = error else { return false }
            expectTrue(line == 9, "\(message)")
            expectTrue(message.contains(says), "\(message)")
            return line == 9 && message.contains(says)
        }
    }
}

@Suite("Arrivals extend a card's trail")
struct TrailArrivalTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aMoveToAnotherBoardExtendsTheTrailAndAReorderDoesNot
        case anAddedCardStartsATrailAndACopyStartsItsOwn
        case archiveKeepsTheTrailAndRestoreExtendsIt
        case anImportedCardStartsATrailOnItsBoard
        case theSampleCardsStartTheirTrailsOnTheirBoards
        case aTrailSetInAnotherOrderIsKeptOldestFirstOnce
        case entriesOfOneTimeAreOrderedByTheTextOfTheirBoardIDs
        case twoArrivalsInOneSecondKeepTheLast
        case aClockSetBackKeepsTheTrailInOrder
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aMoveToAnotherBoardExtendsTheTrailAndAReorderDoesNot:
            try aMoveToAnotherBoardExtendsTheTrailAndAReorderDoesNot()
        case .anAddedCardStartsATrailAndACopyStartsItsOwn: try anAddedCardStartsATrailAndACopyStartsItsOwn()
        case .archiveKeepsTheTrailAndRestoreExtendsIt: try archiveKeepsTheTrailAndRestoreExtendsIt()
        case .anImportedCardStartsATrailOnItsBoard: try anImportedCardStartsATrailOnItsBoard()
        case .theSampleCardsStartTheirTrailsOnTheirBoards: theSampleCardsStartTheirTrailsOnTheirBoards()
        case .aTrailSetInAnotherOrderIsKeptOldestFirstOnce: aTrailSetInAnotherOrderIsKeptOldestFirstOnce()
        case .entriesOfOneTimeAreOrderedByTheTextOfTheirBoardIDs: entriesOfOneTimeAreOrderedByTheTextOfTheirBoardIDs()
        case .twoArrivalsInOneSecondKeepTheLast: twoArrivalsInOneSecondKeepTheLast()
        case .aClockSetBackKeepsTheTrailInOrder: aClockSetBackKeepsTheTrailInOrder()
        }
    }

    /// Todo: A (added earlier, with a trail), B (from an older file: no trail); Done: empty.
    func kanban() throws -> Kanban {
        var a = Item(id: id("a1"), title: "A", created: earlier)
        a.arrive(on: id("todo"), at: earlier)
        return try Kanban(boards: [
            Board(id: id("todo"), title: "Todo", items: [a, Item(id: id("b1"), title: "B")]),
            Board(id: id("done"), title: "Done"),
        ])
    }

    /// Every card's trail ends at its `entered`, oldest first.
    func expectTrailsEndAtEntered(_ kanban: Kanban, sourceLocation: SourceLocation = #_sourceLocation) {
        for item in kanban.boards.flatMap(\.items) + kanban.archive.map(\.item) where !item.trail.isEmpty {
            expectTrue(item.trail.last?.time == item.entered, "\(item.title)", sourceLocation: sourceLocation)
            expectTrue(TrailEntry.areOrdered(item.trail), "\(item.title)", sourceLocation: sourceLocation)
        }
    }

    func aMoveToAnotherBoardExtendsTheTrailAndAReorderDoesNot() throws {
        var kanban = try kanban()
        try kanban.move([Location(board: 0, index: 0)], to: 0, at: .bottom, now: now)
        expectEqual(kanban.boards[0].items[1].trail, [entry("todo", earlier)], "a reorder leaves it")
        try kanban.move([Location(board: 0, index: 1), Location(board: 0, index: 0)], to: 1, now: later)
        expectEqual(kanban.boards[1].items[0].trail, [entry("todo", earlier), entry("done", later)])
        // A card from an older file starts its trail at its next arrival.
        expectEqual(kanban.boards[1].items[1].trail, [entry("done", later)])
        expectTrailsEndAtEntered(kanban)
    }

    func anAddedCardStartsATrailAndACopyStartsItsOwn() throws {
        var kanban = try kanban()
        var generator = SeededGenerator(seed: 21)
        try kanban.insert([CardContent(title: try Title("New"))], into: 1, now: now, using: &generator)
        expectEqual(kanban.boards[1].items[0].trail, [entry("done", now)])
        try kanban.copy([Location(board: 0, index: 0)], to: 0, now: later, using: &generator)
        expectEqual(kanban.boards[0].items[2].trail, [entry("todo", later)], "the copy's own trail")
        expectEqual(kanban.boards[0].items[0].trail, [entry("todo", earlier)], "the original keeps its own")
        expectTrailsEndAtEntered(kanban)
    }

    func archiveKeepsTheTrailAndRestoreExtendsIt() throws {
        var kanban = try kanban()
        try kanban.archive([Location(board: 0, index: 0)], now: now)
        expectEqual(kanban.archive[0].item.trail, [entry("todo", earlier)])
        try kanban.restore([0], to: 1, now: later)
        expectEqual(kanban.boards[1].items[0].trail, [entry("todo", earlier), entry("done", later)])
        expectTrailsEndAtEntered(kanban)
    }

    func anImportedCardStartsATrailOnItsBoard() throws {
        var kanban = try kanban()
        var generator = SeededGenerator(seed: 22)
        let document = ImportDocument(
            boards: [ImportedBoard(title: try Title("done"), cards: [CardContent(title: try Title("In"))])],
            archive: [ImportedArchivedCard(card: CardContent(title: try Title("Old")), board: try Title("Todo"))])
        try kanban.importing(document, now: now, using: &generator)
        expectEqual(kanban.boards[1].items[0].trail, [entry("done", now)])
        expectEqual(kanban.archive[0].item.trail, [entry("todo", now)])
        expectTrailsEndAtEntered(kanban)
    }

    func theSampleCardsStartTheirTrailsOnTheirBoards() {
        var generator = SeededGenerator(seed: 23)
        let kanban = Kanban.sample(now: now, using: &generator)
        for board in kanban.boards {
            for item in board.items { expectEqual(item.trail, [TrailEntry(board: board.id, time: now)]) }
        }
    }

    func aTrailSetInAnotherOrderIsKeptOldestFirstOnce() {
        var card = Item(id: id("a1"), title: "A", trail: [entry("done", now), entry("todo", earlier), entry("done", now)])
        expectEqual(card.trail, [entry("todo", earlier), entry("done", now)])
        card.trail = [entry("b", later), entry("a", later)]
        expectEqual(card.trail, [entry("a", later), entry("b", later)])
    }

    func entriesOfOneTimeAreOrderedByTheTextOfTheirBoardIDs() {
        // The order compares ids as packed integers; it must be the order of their text, ids
        // of every length included.
        var generator = SeededGenerator(seed: 0x7A11)
        let characters = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")
        let ids: [BoardID] = (0..<400).map { _ in
            let length = Int.random(in: 1...ItemID.maximumLength, using: &generator)
            return BoardID(String((0..<length).map { _ in characters.randomElement(using: &generator)! }))!
        }
        let time = Timestamp(seconds: 1_795_000_000)
        for (a, b) in zip(ids, ids.dropFirst()) {
            let (x, y) = (TrailEntry(board: a, time: time), TrailEntry(board: b, time: time))
            expectEqual(x < y, a.description < b.description, "\(a) and \(b)")
            expectEqual(TrailEntry(board: b, time: time.adding(seconds: -1)) < x, true, "time comes first")
        }
    }

    func twoArrivalsInOneSecondKeepTheLast() {
        var card = Item(id: id("a1"), title: "A")
        card.arrive(on: id("todo"), at: earlier)
        card.arrive(on: id("zz"), at: now)
        card.arrive(on: id("done"), at: now)
        expectEqual(card.trail, [entry("todo", earlier), entry("done", now)], "the card is on done")
    }

    func aClockSetBackKeepsTheTrailInOrder() {
        var card = Item(id: id("a1"), title: "A")
        card.arrive(on: id("todo"), at: now)
        card.arrive(on: id("done"), at: earlier)
        expectEqual(card.trail, [entry("done", earlier), entry("todo", now)])
        expectEqual(card.entered, earlier)
    }
}

@Suite("Trails merge as a union")
struct TrailMergeTests {
    @Test func aCardMovedOnBothSidesKeepsEveryEntryInOrder() throws {
        var base = try TrailArrivalTests().kanban()
        base.boards.append(Board(id: id("rev"), title: "Review"))
        var ours = base
        var theirs = base
        try ours.move([Location(board: 0, index: 0)], to: 1, now: now)
        try theirs.move([Location(board: 0, index: 0)], to: 2, now: later)
        let merged = Kanban.merge(base: base, ours: ours, theirs: theirs)
        expectTrue(merged.conflicts.isEmpty)
        let card = try require(merged.kanban.boards.flatMap(\.items).first { $0.id == id("a1") })
        expectEqual(card.trail, [entry("todo", earlier), entry("done", now), entry("rev", later)])
        expectEqual(card.entered, later, "the later arrival places it")
        expectEqual(merged.kanban.boards[2].items.map(\.id), [id("a1")])
    }

    @Test func anEntryOneSideTookBackAndTheOtherLeftGoes() throws {
        var base = try TrailArrivalTests().kanban()
        try base.move([Location(board: 0, index: 0)], to: 1, now: now)
        var ours = base
        ours.boards[1].items[0].title = "A renamed"
        var theirs = base
        theirs.boards[1].items[0].trail.removeLast()  // as an undo of the move gives it back
        let merged = Kanban.merge(base: base, ours: ours, theirs: theirs)
        expectEqual(merged.kanban.boards[1].items[0].trail, [entry("todo", earlier)])
    }
}
