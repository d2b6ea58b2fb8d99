import Testing

@testable import KanbanCore

@Suite("Diff: what changed between two kanbans, card by card")
struct DiffTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aKanbanComparedWithItselfHasNoChanges
        case aMoveIsReportedAsTheCommandReportsIt
        case cardsWhoseIndexOnlyShiftedAreNotListed
        case aReversedBoardListsAllButOneCard
        case editsAreListedFieldByFieldAtTheCardsPlace
        case aRetitledCardCarriesItsPreviousTitle
        case archivedAndRestoredCardsAreNamedSo
        case boardChangesCarryTheBoardsIdAndEveryAspect
        case aBoardThatOnlyShiftedIsNotListed
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aKanbanComparedWithItselfHasNoChanges: aKanbanComparedWithItselfHasNoChanges()
        case .aMoveIsReportedAsTheCommandReportsIt: try aMoveIsReportedAsTheCommandReportsIt()
        case .cardsWhoseIndexOnlyShiftedAreNotListed: try cardsWhoseIndexOnlyShiftedAreNotListed()
        case .aReversedBoardListsAllButOneCard: try aReversedBoardListsAllButOneCard()
        case .editsAreListedFieldByFieldAtTheCardsPlace: try editsAreListedFieldByFieldAtTheCardsPlace()
        case .aRetitledCardCarriesItsPreviousTitle: try aRetitledCardCarriesItsPreviousTitle()
        case .archivedAndRestoredCardsAreNamedSo: try archivedAndRestoredCardsAreNamedSo()
        case .boardChangesCarryTheBoardsIdAndEveryAspect: try boardChangesCarryTheBoardsIdAndEveryAspect()
        case .aBoardThatOnlyShiftedIsNotListed: try aBoardThatOnlyShiftedIsNotListed()
        }
    }

    typealias F = MergeFixture

    private func diff(_ operations: [Operation], on base: Kanban = F.sample) throws -> Change {
        Kanban.diff(from: base, to: try F.apply(operations, to: base, start: 100, seed: 5))
    }

    func aKanbanComparedWithItselfHasNoChanges() {
        let change = Kanban.diff(from: F.sample, to: F.sample)
        expectTrue(change.items.isEmpty && change.boards.isEmpty)
        expectTrue(!change.isEffective)
    }

    func aMoveIsReportedAsTheCommandReportsIt() throws {
        let base = F.sample
        var moved = base
        var generator = SeededGenerator(seed: 1)
        let report = try moved.apply(
            .move(items: ["Analytics"], to: "Done", position: .at(0)), at: F.clock(1), using: &generator)
        let change = Kanban.diff(from: base, to: moved)
        expectEqual(change.items, report.items)
        expectEqual(change.items.first?.from, Slot(board: "In Progress", index: 1))
        expectEqual(change.items.first?.to, Slot(board: "Done", index: 0))
    }

    func cardsWhoseIndexOnlyShiftedAreNotListed() throws {
        // Todo: A B C D -> D A B C: one card moved; the three below it only shifted.
        let change = try diff([.move(items: ["Model Abstraction"], to: "Todo", position: .top)])
        expectTrue(change.items.map(\.title) == ["Model Abstraction"])
        expectTrue(change.items[0].from == Slot(board: "Todo", index: 3))
        expectTrue(change.items[0].to == Slot(board: "Todo", index: 0))
        let added = try diff([.add(titles: [F.title("New")], to: "Todo", position: .top)])
        expectTrue(added.items.map(\.title) == ["New"])
        let removed = try diff([.remove(items: ["Database Migration"])])
        expectTrue(removed.items.map(\.title) == ["Database Migration"])
        expectTrue(removed.items[0].to == nil)
    }

    func aReversedBoardListsAllButOneCard() throws {
        let change = try diff([
            .move(items: ["Model Abstraction", "Storage Management", "Schema Design"], to: "Todo", position: .top)
        ])
        expectEqual(change.items.count, 3)
        expectTrue(!change.items.map(\.title).contains("Database Migration"))
    }

    func editsAreListedFieldByFieldAtTheCardsPlace() throws {
        let change = try diff([
            .edit(
                item: "Analytics",
                edits: EditInput(words: ["labels": WordEdits(add: ["bug"])], due: .date(Day(year: 2026, month: 12, day: 1)!))),
            .remove(items: ["Push Notification"]),
        ])
        let edited = try require(change.items.first { $0.title == "Analytics" })
        expectEqual(edited.from, Slot(board: "In Progress", index: 0))
        expectEqual(edited.to, edited.from)
        expectTrue(
            edited.edits == [.labels(from: [], to: ["bug"]), .due(from: nil, to: Day(year: 2026, month: 12, day: 1))])
    }

    func aRetitledCardCarriesItsPreviousTitle() throws {
        let change = try diff([.rename(item: "Analytics", title: F.title("Metrics"))])
        expectEqual(change.items.count, 1)
        expectEqual(change.items[0].previousTitle, "Analytics")
        expectEqual(change.items[0].title, "Metrics")
    }

    func archivedAndRestoredCardsAreNamedSo() throws {
        let archived = try diff([.archive(items: ["Analytics"])])
        expectEqual(archived.items.map(\.archive), [.archived])
        expectEqual(archived.items[0].from, Slot(board: "In Progress", index: 1))
        let base = try F.apply([.archive(items: ["Analytics"])], to: F.sample, start: 1, seed: 1)
        let restored = try diff([.restore(items: ["Analytics"])], on: base)
        expectEqual(restored.items.map(\.archive), [.restored])
        expectEqual(restored.items[0].to, Slot(board: "In Progress", index: 2))
    }

    func boardChangesCarryTheBoardsIdAndEveryAspect() throws {
        let base = F.sample
        let change = try diff([
            .boardRename(board: "Done", title: F.title("Shipped")), .boardMove(board: "Shipped", at: 0),
            .boardLimit(board: "Shipped", limit: 5), .boardAdd(title: F.title("Review"), at: 3),
            .boardRemove(board: "Todo", force: true),
        ])
        let done = try require(change.boards.first { $0.id == base.boards[2].id })
        expectTrue(done.previousTitle == "Done" && done.title == "Shipped")
        expectTrue(done.from == 2 && done.to == 0)
        expectEqual(done.limitChange, LimitChange(from: nil, to: 5))
        expectTrue(change.boards.contains { $0.title == "Review" && $0.from == nil })
        expectTrue(change.boards.contains { $0.title == "Todo" && $0.to == nil })
        // The cards of a removed board are removed; the others only shifted.
        expectTrue(change.items.count == 4 && change.items.allSatisfy { $0.to == nil })
    }

    func aBoardThatOnlyShiftedIsNotListed() throws {
        let change = try diff([.boardAdd(title: F.title("Backlog"), at: 0)])
        expectEqual(change.boards.map(\.title), ["Backlog"])
    }
}
