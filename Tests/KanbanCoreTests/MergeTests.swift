import Testing

@testable import KanbanCore

/// SPEC §8's merge rules, one worked example (or a few) each; MergePropertyTests checks
/// them on generated histories.
@Suite("Merge: the rules of SPEC §8 on examples")
struct MergeTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case twoPeopleAddingAndMovingCardsMergeWithoutConflict
        case oneSidedMergesGiveThatSideByteForByte
        case aCardRemovedOnOneSideAndLeftAloneOnTheOtherIsGone
        case aCardRemovedOnOneSideAndChangedOnTheOtherIsKeptChanged
        case aCardRemovedOnOneSideAndMovedOnTheOtherIsKeptWhereItMoved
        case aCardArchivedOnOneSideAndEditedOnTheOtherStaysArchivedWithTheEdit
        case aCardArchivedOnOneSideAndLeftAloneOnTheOtherIsArchived
        case aCardMovedOnOneSideAndEditedOnTheOtherIsMovedAndEdited
        case boardChangesOnEachSideCombine
        case cardsLandAfterTheCardThatPrecedesThemOnTheirSide
        case cardsLandingAtTheSameSpotFromBothSidesPutOursFirst
        case aCardWhosePredecessorMovedAwayStillLandsAfterItsOldPlace
        case aShiftedCardHasNotMoved
        case aCardMovedOnBothSidesGoesWhereTheLaterMovePutIt
        case aCardMovedOnBothSidesAtTheSameTimeGoesWhereOursPutIt
        case anArchiveAfterAMoveWins
        case cardsMovedToTheSamePlaceOnBothSidesAreNotNoted
        case labelsMergeAsSets
        case aTitleChangedOnBothSidesKeepsOursAndCarriesBoth
        case theSameChangeOnBothSidesIsNoConflict
        case notesDueDatesAndBoardsConflictToo
        case aBoardRemovedOnOneSideThatTheOtherGaveCardsIsKept
        case aBoardRemovedOnOneSideAndLeftAloneOnTheOtherIsGone
        case boardsAddedOnBothSidesWithTheSameTitleBecomeOne
        case aWIPLimitExceededByTheMergeIsNotedNotRefused
        case twoBoardsGivenTheSameTitleKeepOursAndRetitleTheOther
        case boardsOfAVersion1BaseAreMatchedByTitle
        case twoDifferentCardsWithOneIDAreBothKept
        case aCardWithABoardsIDGetsANewID
        case mergingIntoAnEmptyBaseJoinsBoardsByTitle
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .twoPeopleAddingAndMovingCardsMergeWithoutConflict: try twoPeopleAddingAndMovingCardsMergeWithoutConflict()
        case .oneSidedMergesGiveThatSideByteForByte: try oneSidedMergesGiveThatSideByteForByte()
        case .aCardRemovedOnOneSideAndLeftAloneOnTheOtherIsGone: try aCardRemovedOnOneSideAndLeftAloneOnTheOtherIsGone()
        case .aCardRemovedOnOneSideAndChangedOnTheOtherIsKeptChanged:
            try aCardRemovedOnOneSideAndChangedOnTheOtherIsKeptChanged()
        case .aCardRemovedOnOneSideAndMovedOnTheOtherIsKeptWhereItMoved:
            try aCardRemovedOnOneSideAndMovedOnTheOtherIsKeptWhereItMoved()
        case .aCardArchivedOnOneSideAndEditedOnTheOtherStaysArchivedWithTheEdit:
            try aCardArchivedOnOneSideAndEditedOnTheOtherStaysArchivedWithTheEdit()
        case .aCardArchivedOnOneSideAndLeftAloneOnTheOtherIsArchived:
            try aCardArchivedOnOneSideAndLeftAloneOnTheOtherIsArchived()
        case .aCardMovedOnOneSideAndEditedOnTheOtherIsMovedAndEdited:
            try aCardMovedOnOneSideAndEditedOnTheOtherIsMovedAndEdited()
        case .boardChangesOnEachSideCombine: try boardChangesOnEachSideCombine()
        case .cardsLandAfterTheCardThatPrecedesThemOnTheirSide: try cardsLandAfterTheCardThatPrecedesThemOnTheirSide()
        case .cardsLandingAtTheSameSpotFromBothSidesPutOursFirst:
            try cardsLandingAtTheSameSpotFromBothSidesPutOursFirst()
        case .aCardWhosePredecessorMovedAwayStillLandsAfterItsOldPlace:
            try aCardWhosePredecessorMovedAwayStillLandsAfterItsOldPlace()
        case .aShiftedCardHasNotMoved: try aShiftedCardHasNotMoved()
        case .aCardMovedOnBothSidesGoesWhereTheLaterMovePutIt: try aCardMovedOnBothSidesGoesWhereTheLaterMovePutIt()
        case .aCardMovedOnBothSidesAtTheSameTimeGoesWhereOursPutIt:
            try aCardMovedOnBothSidesAtTheSameTimeGoesWhereOursPutIt()
        case .anArchiveAfterAMoveWins: try anArchiveAfterAMoveWins()
        case .cardsMovedToTheSamePlaceOnBothSidesAreNotNoted: try cardsMovedToTheSamePlaceOnBothSidesAreNotNoted()
        case .labelsMergeAsSets: try labelsMergeAsSets()
        case .aTitleChangedOnBothSidesKeepsOursAndCarriesBoth: try aTitleChangedOnBothSidesKeepsOursAndCarriesBoth()
        case .theSameChangeOnBothSidesIsNoConflict: try theSameChangeOnBothSidesIsNoConflict()
        case .notesDueDatesAndBoardsConflictToo: try notesDueDatesAndBoardsConflictToo()
        case .aBoardRemovedOnOneSideThatTheOtherGaveCardsIsKept: try aBoardRemovedOnOneSideThatTheOtherGaveCardsIsKept()
        case .aBoardRemovedOnOneSideAndLeftAloneOnTheOtherIsGone:
            try aBoardRemovedOnOneSideAndLeftAloneOnTheOtherIsGone()
        case .boardsAddedOnBothSidesWithTheSameTitleBecomeOne: try boardsAddedOnBothSidesWithTheSameTitleBecomeOne()
        case .aWIPLimitExceededByTheMergeIsNotedNotRefused: try aWIPLimitExceededByTheMergeIsNotedNotRefused()
        case .twoBoardsGivenTheSameTitleKeepOursAndRetitleTheOther:
            try twoBoardsGivenTheSameTitleKeepOursAndRetitleTheOther()
        case .boardsOfAVersion1BaseAreMatchedByTitle: try boardsOfAVersion1BaseAreMatchedByTitle()
        case .twoDifferentCardsWithOneIDAreBothKept: try twoDifferentCardsWithOneIDAreBothKept()
        case .aCardWithABoardsIDGetsANewID: try aCardWithABoardsIDGetsANewID()
        case .mergingIntoAnEmptyBaseJoinsBoardsByTitle: try mergingIntoAnEmptyBaseJoinsBoardsByTitle()
        }
    }

    typealias F = MergeFixture

    /// Merges what `ours` and `theirs` do to `base` (ours at 100 s, theirs at 200 s).
    private func merge(
        ours: [Operation], theirs: [Operation], base: Kanban = F.sample
    ) throws -> (result: MergeResult, ours: Kanban, theirs: Kanban) {
        let (a, b) = try F.sides(base, ours: ours, theirs: theirs)
        let result = Kanban.merge(base: base, ours: a, theirs: b)
        try result.kanban.validate()
        return (result, a, b)
    }

    // MARK: - The issue's scenario

    func twoPeopleAddingAndMovingCardsMergeWithoutConflict() throws {
        let (result, _, _) = try merge(
            ours: [
                .add(titles: [F.title("Alice task")], to: "Todo", position: nil),
                .move(items: ["Analytics"], to: "Done"),
            ],
            theirs: [
                .add(titles: [F.title("Bob task")], to: "Todo", position: nil),
                .move(items: ["Push Notification"], to: "Done", position: .at(0)),
            ])
        expectTrue(result.conflicts.isEmpty)
        expectTrue(result.notes.isEmpty)
        expectTrue(
            F.layout(result.kanban) == [
                "Todo: Database Migration, Schema Design, Storage Management, Model Abstraction, Alice task, Bob task",
                "In Progress: Machine Learning",
                "Done: Push Notification, System Architecture, Alert & Debugging, Analytics",
            ])
    }

    // MARK: - Rule 3: identities

    func oneSidedMergesGiveThatSideByteForByte() throws {
        let ours: [Operation] = [
            .move(items: ["Analytics"], to: "Done", position: .at(0)), .archive(items: ["Schema Design"]),
            .edit(item: "Push Notification", edits: EditInput(note: .set("Line 1\nLine 2"), words: ["labels": WordEdits(add: ["ios"])])),
            .boardRename(board: "Done", title: F.title("Shipped")),
            .boardAdd(title: F.title("Review"), at: 1, limit: 2),
        ]
        let base = F.sample
        let a = try F.apply(ours, to: base, start: 100, seed: 3)
        expectEqual(F.text(Kanban.merge(base: base, ours: a, theirs: base).kanban), F.text(a))
        expectEqual(F.text(Kanban.merge(base: base, ours: base, theirs: a).kanban), F.text(a))
        let both = Kanban.merge(base: base, ours: a, theirs: a)
        expectEqual(F.text(both.kanban), F.text(a))
        expectTrue(both.conflicts.isEmpty && both.notes.isEmpty)
    }

    // MARK: - Rule 2: nothing lost

    func aCardRemovedOnOneSideAndLeftAloneOnTheOtherIsGone() throws {
        let (result, _, _) = try merge(
            ours: [.remove(items: ["Analytics"])], theirs: [.remove(items: ["Schema Design"])])
        expectTrue(F.card("Analytics", in: result.kanban) == nil)
        expectTrue(F.card("Schema Design", in: result.kanban) == nil)
        expectEqual(result.kanban.itemCount, 7)
    }

    func aCardRemovedOnOneSideAndChangedOnTheOtherIsKeptChanged() throws {
        let (result, _, _) = try merge(
            ours: [.remove(items: ["Analytics"])],
            theirs: [.edit(item: "Analytics", edits: EditInput(words: ["labels": WordEdits(add: ["p1"])]))])
        let card = try require(F.card("Analytics", in: result.kanban))
        expectEqual(card.labels, ["p1"])
        expectEqual(F.layout(result.kanban)[1], "In Progress: Push Notification, Analytics, Machine Learning")
        expectEqual(result.notes, [.keptChangedCard(id: card.id, title: "Analytics", removedBy: .ours)])
    }

    func aCardRemovedOnOneSideAndMovedOnTheOtherIsKeptWhereItMoved() throws {
        let (result, _, _) = try merge(
            ours: [.move(items: ["Analytics"], to: "Done", position: .top)], theirs: [.remove(items: ["Analytics"])])
        expectEqual(F.layout(result.kanban)[2], "Done: Analytics, System Architecture, Alert & Debugging")
    }

    func aCardArchivedOnOneSideAndEditedOnTheOtherStaysArchivedWithTheEdit() throws {
        let (result, _, _) = try merge(
            ours: [.archive(items: ["Analytics"])], theirs: [.rename(item: "Analytics", title: F.title("Metrics"))])
        expectEqual(F.archived(result.kanban), ["Metrics"])
        expectTrue(result.conflicts.isEmpty)
    }

    func aCardArchivedOnOneSideAndLeftAloneOnTheOtherIsArchived() throws {
        let (result, a, _) = try merge(
            ours: [.archive(items: ["Analytics"])], theirs: [.archive(items: ["Schema Design"])])
        expectEqual(F.archived(result.kanban), ["Analytics", "Schema Design"])
        expectEqual(result.kanban.archive[0], a.archive[0])
    }

    // MARK: - Rule 4: changes on one side are taken and combine

    func aCardMovedOnOneSideAndEditedOnTheOtherIsMovedAndEdited() throws {
        let (result, _, _) = try merge(
            ours: [.move(items: ["Analytics"], to: "Done", position: .at(1))],
            theirs: [
                .rename(item: "Analytics", title: F.title("Analytics v2")),
                .edit(item: "Analytics v2", edits: EditInput(words: ["labels": WordEdits(add: ["data"])])),
            ])
        expectEqual(F.layout(result.kanban)[2], "Done: System Architecture, Analytics v2, Alert & Debugging")
        expectEqual(F.card("Analytics v2", in: result.kanban)?.labels, ["data"])
    }

    func boardChangesOnEachSideCombine() throws {
        let (result, _, _) = try merge(
            ours: [.boardRename(board: "Done", title: F.title("Shipped")), .boardLimit(board: "Todo", limit: 9)],
            theirs: [.boardMove(board: "Done", at: 0), .boardAdd(title: F.title("Review"), at: 3)])
        expectEqual(result.kanban.boards.map(\.title), ["Shipped", "Todo", "In Progress", "Review"])
        expectEqual(result.kanban.boards[1].limit, 9)
        expectTrue(result.conflicts.isEmpty)
    }

    // MARK: - Rule 5: places relative to the card before

    func cardsLandAfterTheCardThatPrecedesThemOnTheirSide() throws {
        let (result, _, _) = try merge(
            ours: [.add(titles: [F.title("Ours")], to: "Todo", position: .after("Schema Design"))],
            theirs: [
                .remove(items: ["Database Migration"]),
                .add(titles: [F.title("Theirs")], to: "Todo", position: .after("Storage Management")),
            ])
        expectTrue(
            F.layout(result.kanban)[0] == "Todo: Schema Design, Ours, Storage Management, Theirs, Model Abstraction")
    }

    func cardsLandingAtTheSameSpotFromBothSidesPutOursFirst() throws {
        let (result, _, _) = try merge(
            ours: [.add(titles: [F.title("O1"), F.title("O2")], to: "Done", position: .top)],
            theirs: [.add(titles: [F.title("T1")], to: "Done", position: .top)])
        expectTrue(F.layout(result.kanban)[2] == "Done: O1, O2, T1, System Architecture, Alert & Debugging")
        let (swapped, _, _) = try merge(
            ours: [.add(titles: [F.title("T1")], to: "Done", position: .top)],
            theirs: [.add(titles: [F.title("O1"), F.title("O2")], to: "Done", position: .top)])
        expectTrue(F.layout(swapped.kanban)[2] == "Done: T1, O1, O2, System Architecture, Alert & Debugging")
    }

    func aCardWhosePredecessorMovedAwayStillLandsAfterItsOldPlace() throws {
        // Ours adds after Analytics; theirs moves Analytics away: the new card stays where
        // Analytics was, after Push Notification.
        let (result, _, _) = try merge(
            ours: [.add(titles: [F.title("New")], to: "In Progress", position: .after("Analytics"))],
            theirs: [.move(items: ["Analytics"], to: "Done")])
        expectTrue(F.layout(result.kanban)[1] == "In Progress: Push Notification, New, Machine Learning")
    }

    func aShiftedCardHasNotMoved() throws {
        // Theirs puts Model Abstraction on top, which shifts the three others; ours moves
        // Database Migration to the bottom. Both moves are kept; no card moved twice.
        let (result, _, _) = try merge(
            ours: [.move(items: ["Database Migration"], to: "Todo", position: .bottom)],
            theirs: [.move(items: ["Model Abstraction"], to: "Todo", position: .top)])
        expectTrue(
            F.layout(result.kanban)[0]
                == "Todo: Model Abstraction, Schema Design, Storage Management, Database Migration")
        expectTrue(result.notes.isEmpty)
    }

    // MARK: - Rule 6: one card moved on both sides

    func aCardMovedOnBothSidesGoesWhereTheLaterMovePutIt() throws {
        let (result, _, _) = try merge(
            ours: [.move(items: ["Analytics"], to: "Todo")], theirs: [.move(items: ["Analytics"], to: "Done")])
        expectEqual(F.layout(result.kanban)[2], "Done: System Architecture, Alert & Debugging, Analytics")
        expectTrue(!F.layout(result.kanban)[0].contains("Analytics"))
        let card = try require(F.card("Analytics", in: result.kanban))
        expectEqual(card.entered, F.clock(200).now)
        expectTrue(
            result.notes == [
                .movedOnBothSides(id: card.id, title: "Analytics", kept: .theirs, ours: "Todo", theirs: "Done")
            ])
        expectTrue(result.conflicts.isEmpty)
    }

    func aCardMovedOnBothSidesAtTheSameTimeGoesWhereOursPutIt() throws {
        let base = F.sample
        let a = try F.apply([.move(items: ["Analytics"], to: "Todo")], to: base, start: 100, seed: 1)
        let b = try F.apply([.move(items: ["Analytics"], to: "Done")], to: base, start: 100, seed: 2)
        let result = Kanban.merge(base: base, ours: a, theirs: b)
        expectTrue(F.layout(result.kanban)[0].hasSuffix("Model Abstraction, Analytics"))
        if case .movedOnBothSides(_, _, let kept, _, _)? = result.notes.first {
            expectEqual(kept, .ours)
        } else {
            Issue.record("expected a note, got \(result.notes)")
        }
    }

    func anArchiveAfterAMoveWins() throws {
        let (result, _, _) = try merge(
            ours: [.move(items: ["Analytics"], to: "Todo")], theirs: [.archive(items: ["Analytics"])])
        expectEqual(F.archived(result.kanban), ["Analytics"])
        expectTrue(!F.layout(result.kanban)[0].contains("Analytics"))
    }

    func cardsMovedToTheSamePlaceOnBothSidesAreNotNoted() throws {
        let moves: [Operation] = [.move(items: ["Analytics"], to: "Done", position: .top)]
        let (result, _, _) = try merge(ours: moves, theirs: moves)
        expectTrue(result.notes.isEmpty)
        expectEqual(F.layout(result.kanban)[2], "Done: Analytics, System Architecture, Alert & Debugging")
    }

    // MARK: - Rule 7: labels

    func labelsMergeAsSets() throws {
        let base = try F.apply(
            [.edit(item: "Analytics", edits: EditInput(words: ["labels": WordEdits(add: ["a", "b", "c"])]))], to: F.sample, start: 1, seed: 1)
        let (result, _, _) = try merge(
            ours: [.edit(item: "Analytics", edits: EditInput(words: ["labels": WordEdits(add: ["ours"], remove: ["a"])]))],
            theirs: [.edit(item: "Analytics", edits: EditInput(words: ["labels": WordEdits(add: ["theirs", "Ours"], remove: ["c"])]))],
            base: base)
        expectEqual(F.card("Analytics", in: result.kanban)?.labels, ["b", "ours", "theirs"])
        expectTrue(result.conflicts.isEmpty)
    }

    // MARK: - Rule 8: conflicts

    func aTitleChangedOnBothSidesKeepsOursAndCarriesBoth() throws {
        let (result, _, _) = try merge(
            ours: [.rename(item: "Analytics", title: F.title("Our title"))],
            theirs: [.rename(item: "Analytics", title: F.title("Their title"))])
        let card = try require(F.card("Our title", in: result.kanban))
        expectTrue(
            result.conflicts == [
                MergeConflict(
                    subject: .card(card.id, title: "Our title", archived: false),
                    values: .field(.title, ours: .line("Our title"), theirs: .line("Their title")))
            ])
    }

    func theSameChangeOnBothSidesIsNoConflict() throws {
        let edit: [Operation] = [.rename(item: "Analytics", title: F.title("Same"))]
        let (result, _, _) = try merge(ours: edit, theirs: edit)
        expectTrue(result.conflicts.isEmpty)
        expectTrue(F.card("Same", in: result.kanban) != nil)
    }

    func notesDueDatesAndBoardsConflictToo() throws {
        let (result, _, _) = try merge(
            ours: [
                .edit(item: "Analytics", edits: EditInput(note: .set("ours"), due: .date(Day(daysSinceEpoch: 20_500)))),
                .boardRename(board: "Done", title: F.title("Finished")), .boardLimit(board: "Todo", limit: 3),
            ],
            theirs: [
                .edit(item: "Analytics", edits: EditInput(note: .set("theirs"), due: DueInput.none)),
                .edit(item: "Analytics", edits: EditInput(due: .date(Day(daysSinceEpoch: 20_600)))),
                .boardRename(board: "Done", title: F.title("Shipped")), .boardLimit(board: "Todo", limit: 5),
            ])
        let values = result.conflicts.map(\.values)
        expectTrue(
            values == [
                .field(.note, ours: .text("ours"), theirs: .text("theirs")),
                .field(.due, ours: .day(Day(daysSinceEpoch: 20_500)), theirs: .day(Day(daysSinceEpoch: 20_600))),
                .field(.limit, ours: .number(3), theirs: .number(5)),
                .field(.title, ours: .line("Finished"), theirs: .line("Shipped")),
            ])
        expectEqual(result.kanban.boards.map(\.title), ["Todo", "In Progress", "Finished"])
        expectEqual(result.kanban.boards[0].limit, 3)
    }

    // MARK: - Rule 9: boards

    func aBoardRemovedOnOneSideThatTheOtherGaveCardsIsKept() throws {
        let (result, _, _) = try merge(
            ours: [.boardRemove(board: "Done", force: true)],
            theirs: [.add(titles: [F.title("Late")], to: "Done", position: nil)])
        // Done's old cards were removed on ours and left alone on theirs: they go.
        expectTrue(F.layout(result.kanban).last == "Done: Late")
        expectTrue(result.notes.contains { if case .keptBoard(_, "Done", .ours) = $0 { true } else { false } })
    }

    func aBoardRemovedOnOneSideAndLeftAloneOnTheOtherIsGone() throws {
        let (result, _, _) = try merge(ours: [.boardRemove(board: "Done", force: true)], theirs: [])
        expectEqual(result.kanban.boards.map(\.title), ["Todo", "In Progress"])
    }

    func boardsAddedOnBothSidesWithTheSameTitleBecomeOne() throws {
        let (result, a, _) = try merge(
            ours: [
                .boardAdd(title: F.title("Review"), at: 2), .add(titles: [F.title("O")], to: "Review", position: nil),
            ],
            theirs: [.boardAdd(title: F.title("review")), .add(titles: [F.title("T")], to: "review", position: nil)])
        expectTrue(result.kanban.boards.map(\.title) == ["Todo", "In Progress", "Review", "Done"])
        expectTrue(result.kanban.boards[2].id == a.boards[2].id)
        expectTrue(F.layout(result.kanban)[2] == "Review: O, T")
        expectEqual(result.conflicts.map(\.values), [.field(.title, ours: .line("Review"), theirs: .line("review"))])
    }

    func aWIPLimitExceededByTheMergeIsNotedNotRefused() throws {
        let base = try F.apply([.boardLimit(board: "Done", limit: 3)], to: F.sample, start: 1, seed: 1)
        let (result, _, _) = try merge(
            ours: [.move(items: ["Analytics"], to: "Done")], theirs: [.move(items: ["Push Notification"], to: "Done")],
            base: base)
        expectEqual(result.kanban.boards[2].items.count, 4)
        expectEqual(result.notes, [.overLimit(board: "Done", count: 4, limit: 3)])
    }

    func twoBoardsGivenTheSameTitleKeepOursAndRetitleTheOther() throws {
        let (result, a, _) = try merge(
            ours: [.boardRename(board: "Done", title: F.title("Review"))],
            theirs: [.boardAdd(title: F.title("Review"), at: 1)])
        expectEqual(result.kanban.boards.map(\.title), ["Todo", "Review (2)", "In Progress", "Review"])
        expectEqual(result.kanban.boards[3].id, a.boards[2].id)
        expectEqual(result.conflicts.map(\.values), [.boardTitleTaken(wanted: "Review", given: "Review (2)")])
    }

    // MARK: - Matching

    func boardsOfAVersion1BaseAreMatchedByTitle() throws {
        let version1 = """
            {"version": 1, "boards": [
              {"title": "Todo", "items": [{"id": "aaaa01", "title": "One"}]},
              {"title": "Done", "items": [{"id": "aaaa02", "title": "Two"}]}
            ]}
            """
        let (base, format) = try KanbanFile.decode(Array(version1.utf8))
        expectEqual(format, .version1)
        // Ours upgraded a copy that differed in a byte, so its derived board ids differ from
        // the base's; theirs is still the base's file, with the base's ids.
        let (oursRead, _) = try KanbanFile.decode(Array(version1.replacing("\"Todo\"", with: "\"Todo\" ").utf8))
        expectTrue(oursRead.boards[0].id != base.boards[0].id)
        let a = try F.apply(
            [.add(titles: [F.title("Ours")], to: "Todo", position: nil)], to: oursRead, start: 1, seed: 1)
        let b = try F.apply(
            [
                .add(titles: [F.title("Theirs")], to: "Todo", position: nil),
                .move(items: ["Two"], to: "Todo", position: .top),
            ],
            to: base, start: 2, seed: 2)
        let formats = MergeFormats(base: .version1, ours: .current, theirs: .version1)
        let result = Kanban.merge(base: base, ours: a, theirs: b, formats: formats)
        try result.kanban.validate()
        expectEqual(F.layout(result.kanban), ["Todo: Two, One, Ours, Theirs", "Done: "])
        expectEqual(result.kanban.boards.map(\.id), a.boards.map(\.id))
        expectTrue(result.conflicts.isEmpty)
        // Matched by id alone, ours' Todo would be a new board and the base's Todo one that
        // ours removed and theirs gave a card: two boards titled Todo.
        let unmatched = Kanban.merge(base: base, ours: a, theirs: b)
        expectTrue(unmatched.kanban.boards.map(\.title).contains("Todo (2)"))
    }

    func twoDifferentCardsWithOneIDAreBothKept() throws {
        let base = F.sample
        var a = base
        var b = base
        let id = ItemID("zz99zz")!
        a.boards[0].items.append(Item(id: id, title: "Ours", created: F.clock(1).now, entered: F.clock(1).now))
        b.boards[0].items.append(Item(id: id, title: "Theirs", created: F.clock(2).now, entered: F.clock(2).now))
        let result = Kanban.merge(base: base, ours: a, theirs: b)
        try result.kanban.validate()
        expectTrue(F.layout(result.kanban)[0].hasSuffix("Model Abstraction, Ours, Theirs"))
        expectEqual(F.card("Ours", in: result.kanban)?.id, id)
        expectTrue(F.card("Theirs", in: result.kanban)?.id != id)
        expectTrue(result.conflicts.isEmpty)
    }

    func aCardWithABoardsIDGetsANewID() throws {
        let base = F.sample
        var a = base
        let b = base
        let doneID = base.boards[2].id
        a.boards[0].items.append(Item(id: ItemID("qq11qq")!, title: "Card"))
        var theirs = b
        theirs.boards[0].items.append(Item(id: doneID, title: "Clash", created: F.clock(3).now))
        theirs.boards.remove(at: 2)
        theirs.archive = []
        let result = Kanban.merge(base: base, ours: a, theirs: theirs)
        try result.kanban.validate()
        expectEqual(result.kanban.boards.count, 2)
        expectEqual(F.card("Clash", in: result.kanban)?.id, doneID)
        // Ours keeps Done (it gave it nothing, theirs removed it): gone, so no clash.
        var oursKeeps = a
        oursKeeps.boards[2].limit = 2
        let kept = Kanban.merge(base: base, ours: oursKeeps, theirs: theirs)
        try kept.kanban.validate()
        expectEqual(kept.kanban.boards.count, 3)
        expectTrue(F.card("Clash", in: kept.kanban)?.id != doneID)
        expectEqual(kept.kanban.boards[2].id, doneID)
    }

    func mergingIntoAnEmptyBaseJoinsBoardsByTitle() throws {
        var generator = SeededGenerator(seed: 7)
        let a = try Kanban(boardTitles: ["Todo", "Doing", "Done"].map(F.title), using: &generator)
        let b = try Kanban(boardTitles: ["Todo", "Done"].map(F.title), using: &generator)
        let a2 = try F.apply([.add(titles: [F.title("A")], to: "Todo", position: nil)], to: a, start: 1, seed: 1)
        let b2 = try F.apply([.add(titles: [F.title("B")], to: "Done", position: nil)], to: b, start: 2, seed: 2)
        let result = Kanban.merge(base: try Kanban(boards: []), ours: a2, theirs: b2)
        try result.kanban.validate()
        expectTrue(F.layout(result.kanban) == ["Todo: A", "Doing: ", "Done: B"])
    }
}
