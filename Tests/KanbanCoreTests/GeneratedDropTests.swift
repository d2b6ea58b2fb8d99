import Testing

@testable import KanbanCore

@Suite("Generated multi-item drops, checked against the reference model")
struct GeneratedDropTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aSelectionAcrossBoardsLandsContiguouslyInTheOrderGiven
        case aLocationSelectedTwiceIsCopiedTwice
        case copyCountsTheDestinationWithoutTakingAnythingOut
        case aCopyAtItsOriginalsIndexIsStillEffective
        case copyMayAnchorOnTheItemItCopies
        case removingNothingIsNotEffective
        case renameKeepsTheIdAndPlaceAndReportsThePreviousTitle
        case renamingToTheSameTitleIsNotEffective
        case renamingChangesOnlyThatItem
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aSelectionAcrossBoardsLandsContiguouslyInTheOrderGiven:
            try aSelectionAcrossBoardsLandsContiguouslyInTheOrderGiven()
        case .aLocationSelectedTwiceIsCopiedTwice: try aLocationSelectedTwiceIsCopiedTwice()
        case .copyCountsTheDestinationWithoutTakingAnythingOut: try copyCountsTheDestinationWithoutTakingAnythingOut()
        case .aCopyAtItsOriginalsIndexIsStillEffective: try aCopyAtItsOriginalsIndexIsStillEffective()
        case .copyMayAnchorOnTheItemItCopies: try copyMayAnchorOnTheItemItCopies()
        case .removingNothingIsNotEffective: try removingNothingIsNotEffective()
        case .renameKeepsTheIdAndPlaceAndReportsThePreviousTitle:
            try renameKeepsTheIdAndPlaceAndReportsThePreviousTitle()
        case .renamingToTheSameTitleIsNotEffective: try renamingToTheSameTitleIsNotEffective()
        case .renamingChangesOnlyThatItem: try renamingChangesOnlyThatItem()
        }
    }

    static let seeds: [UInt64] = Array(1...40)
    /// Random kanbans per seed: 1,600 of each kind of drop in all, each dropped on every board.
    static let rounds = 40

    /// Selections of several locations across boards, duplicates included, to every
    /// destination at random valid and invalid positions; some boards have limits.
    @Test(arguments: seeds)
    func multiItemMovesMatchTheReference(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<Self.rounds {
            let kanban = try randomKanban(using: &generator)
            let selection = randomSelection(in: kanban, using: &generator)
            for destination in kanban.boards.indices {
                let position = randomPosition(in: kanban, destination: destination, using: &generator)
                try checkMove(kanban, selection, to: destination, at: position, force: generator.chance(20))
            }
        }
    }

    @Test(arguments: seeds)
    func multiItemCopiesMatchTheReference(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for round in 0..<Self.rounds {
            let kanban = try randomKanban(using: &generator)
            let selection = randomSelection(in: kanban, using: &generator)
            for destination in kanban.boards.indices {
                let position = randomPosition(in: kanban, destination: destination, using: &generator)
                try checkCopy(
                    kanban, selection, to: destination, at: position, force: generator.chance(20),
                    seed: seed &* 1000 &+ UInt64(round))
            }
        }
    }

    @Test(arguments: seeds)
    func insertsMatchTheReference(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for round in 0..<Self.rounds {
            let kanban = try randomKanban(using: &generator)
            let cards = try randomCards(using: &generator)
            for destination in kanban.boards.indices {
                let position = randomPosition(in: kanban, destination: destination, using: &generator)
                try checkInsert(
                    kanban, cards, into: destination, at: position, force: generator.chance(20),
                    seed: seed &* 1000 &+ UInt64(round))
            }
        }
    }

    func aSelectionAcrossBoardsLandsContiguouslyInTheOrderGiven() throws {
        var kanban = try makeKanban(counts: [3, 3, 2])
        let selection = [Location(board: 1, index: 2), Location(board: 0, index: 0), Location(board: 2, index: 1)]
        let change = try kanban.move(selection, to: 2, at: .index(0))
        expectEqual(layout(kanban), [["a1", "a2"], ["b0", "b1"], ["b2", "a0", "c1", "c0"]])
        expectEqual(change.items.map(\.id.rawValue), ["b2", "a0", "c1"])
        expectTrue(
            change.items.map(\.from) == [
                Slot(board: "Doing", index: 2), Slot(board: "Todo", index: 0), Slot(board: "Done", index: 1),
            ])
        expectTrue(
            change.items.map(\.to) == [
                Slot(board: "Done", index: 0), Slot(board: "Done", index: 1), Slot(board: "Done", index: 2),
            ])
    }

    func aLocationSelectedTwiceIsCopiedTwice() throws {
        var kanban = try makeKanban(counts: [2, 0])
        var generator = SeededGenerator(seed: 9)
        let a0 = Location(board: 0, index: 0)
        let change = try kanban.copy([a0, a0], to: 1, using: &generator)
        expectEqual(kanban.boards[1].items.count, 2)
        expectEqual(kanban.boards[1].items.map(\.title), ["Card a0", "Card a0"])
        expectEqual(change.items.map(\.copyOf), [ItemID("a0"), ItemID("a0")])
        expectEqual(Set(kanban.boards[1].items.map(\.id)).count, 2)
        expectTrue(!kanban.boards[1].items.contains { $0.id.rawValue == "a0" })
    }

    func copyCountsTheDestinationWithoutTakingAnythingOut() throws {
        var kanban = try makeKanban(counts: [3])
        var generator = SeededGenerator(seed: 3)
        let before = kanban
        // Copying into the same board: 3 items stay, so 0...3 and -4...-1 are valid.
        #expect(throws: KanbanError.indexOutOfRange(index: 4, board: "Todo", range: -4...3)) {
            try kanban.copy([Location(board: 0, index: 0)], to: 0, at: .index(4), using: &generator)
        }
        #expect(throws: KanbanError.indexOutOfRange(index: -5, board: "Todo", range: -4...3)) {
            try kanban.copy([Location(board: 0, index: 0)], to: 0, at: .index(-5), using: &generator)
        }
        expectEqual(kanban, before)
        try kanban.copy([Location(board: 0, index: 0)], to: 0, at: .index(3), using: &generator)
        expectEqual(layout(kanban)[0].prefix(3), ["a0", "a1", "a2"])
        expectEqual(kanban.boards[0].items[3].title, "Card a0")
    }

    func aCopyAtItsOriginalsIndexIsStillEffective() throws {
        var kanban = try makeKanban(counts: [2])
        var generator = SeededGenerator(seed: 5)
        let before = kanban
        let change = try kanban.copy([Location(board: 0, index: 0)], to: 0, at: .top, using: &generator)
        expectTrue(kanban != before)
        expectEqual(kanban.itemCount, 3)
        expectTrue(change.isEffective)
    }

    func copyMayAnchorOnTheItemItCopies() throws {
        var kanban = try makeKanban(counts: [3])
        var generator = SeededGenerator(seed: 4)
        let a1 = Location(board: 0, index: 1)
        let change = try kanban.copy([a1], to: 0, at: .after(a1), using: &generator)
        expectEqual(change.items.map(\.to), [Slot(board: "Todo", index: 2)])
        expectEqual(kanban.boards[0].items.map(\.title), ["Card a0", "Card a1", "Card a1", "Card a2"])
    }

    // MARK: - Remove

    @Test(arguments: seeds)
    func removeTakesEachSelectedItemOnceAndReportsWhereItWas(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<60 {
            let kanban = try randomKanban(using: &generator)
            let selection = randomSelection(in: kanban, maxCount: 6, using: &generator)
            let ids = firstOccurrences(selection.map { kanban[$0].id.rawValue })
            var after = kanban
            let change = try after.remove(selection)
            let expected = try rebuild(kanban, layout: layout(kanban).map { $0.filter { !ids.contains($0) } })
            expectEqual(after, expected)
            expectEqual(change.items.map(\.id.rawValue), ids)
            expectEqual(change.items.map(\.title), ids.map { cardTitle($0) })
            expectEqual(change.items.map(\.from), firstOccurrences(selection).map { slot(kanban, $0) })
            expectTrue(change.items.allSatisfy { $0.to == nil })
            expectEqual(change.isEffective, !selection.isEmpty)
            expectEqual(after.itemCount, kanban.itemCount - ids.count)
            #expect(throws: Never.self) { try after.validate() }
        }
    }

    func removingNothingIsNotEffective() throws {
        var kanban = try makeKanban(counts: [2])
        let change = try kanban.remove([])
        expectTrue(!change.isEffective)
        expectEqual(layout(kanban), [["a0", "a1"]])
    }

    // MARK: - Rename

    func renameKeepsTheIdAndPlaceAndReportsThePreviousTitle() throws {
        var kanban = try makeKanban(counts: [2, 3])
        let location = Location(board: 1, index: 2)
        let change = try kanban.rename(location, to: Title("  New name\t"))
        var renamed = card("b2")
        renamed.title = "New name"
        expectEqual(kanban[location], renamed)
        expectEqual(layout(kanban), idLayout(counts: [2, 3]))
        expectTrue(
            change.items == [
                ItemChange(
                    id: try require(ItemID("b2")), title: "New name", from: Slot(board: "Doing", index: 2),
                    to: Slot(board: "Doing", index: 2), edits: [.title(from: "Card b2", to: "New name")])
            ])
        expectTrue(change.isEffective)
    }

    func renamingToTheSameTitleIsNotEffective() throws {
        var kanban = try makeKanban(counts: [1])
        let before = kanban
        let change = try kanban.rename(Location(board: 0, index: 0), to: Title("Card a0"))
        expectEqual(kanban, before)
        expectTrue(!change.isEffective)
    }

    func renamingChangesOnlyThatItem() throws {
        let kanban = try makeKanban(counts: [2, 2])
        for location in allLocations(kanban) {
            var after = kanban
            try after.rename(location, to: Title("Renamed"))
            for other in allLocations(kanban) {
                expectEqual(after[other].id, kanban[other].id)
                expectEqual(after[other].title, (other == location ? "Renamed" : kanban[other].title))
            }
        }
    }
}
