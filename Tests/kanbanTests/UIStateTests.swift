import KanbanCore
import Testing

@testable import kanban

// The interactive board as a state machine, driven in-process: keys and mouse reports
// in, operations out, which the runner of `kanban ui` (``UISession``, without a terminal)
// runs on a kanban file in a temporary directory, each a transaction as in the terminal.

/// Runs a ``BoardUI`` through the ``UISession`` of `kanban ui`, on a file of its own.
struct UIHarness {
    var session: UISession
    /// Every action the board asked for.
    var actions: [UIAction] = []
    /// The directory of the file, removed with the last copy of the harness.
    private let directory: Directory
    static let clock = Moment(now: Timestamp(seconds: 1_795_000_000), today: Day(year: 2026, month: 11, day: 23)!)

    init(_ kanban: Kanban, width: Int = 80, height: Int = 24) {
        directory = Directory()
        let store = Store(path: directory.sandbox.file)
        do {
            try store.create(kanban)
        } catch {
            Issue.record("cannot create \(store.path): \(error.message)")
        }
        let app = App(options: GlobalOptions(file: store.path), clock: Self.clock, arguments: ["ui"])
        session = UISession(app: app, store: store, terminal: nil, kanban: kanban, width: width, height: height)
    }

    /// A sandbox that goes when nothing refers to it.
    private final class Directory {
        let sandbox = try! KanbanSandbox()
        deinit { sandbox.remove() }
    }

    /// The board the session runs.
    var ui: BoardUI {
        get { session.board }
        set { session.board = newValue }
    }

    /// The kanban in the file.
    var kanban: Kanban {
        do {
            return try session.store.load()
        } catch {
            Issue.record("cannot read the file: \(error.message)")
            return ui.kanban
        }
    }

    /// Boards of cards titled as given, with ids made from the titles.
    static func kanban(_ boards: [(String, [String])], limits: [String: Int] = [:]) -> Kanban {
        try! Kanban(
            boards: boards.enumerated().map { b, board in
                Board(
                    id: ItemID("b\(b)")!, title: board.0, limit: limits[board.0],
                    items: board.1.enumerated().map { i, title in Item(id: ItemID(id(title, b, i))!, title: title) })
            })
    }

    /// A card's id: up to four ASCII letters of its title, its board's index and its own.
    static func id(_ title: String, _ board: Int, _ index: Int) -> String {
        String(title.filter { $0.isASCII && $0.isLetter }.lowercased().prefix(4)) + "\(board)\(index)"
    }

    /// The id of the card titled `title` (the first, if several are).
    func id(_ title: String) -> String {
        kanban.boards.lazy.flatMap(\.items).first { $0.title == title }!.id.rawValue
    }

    var titles: [[String]] { kanban.boards.map { $0.items.map(\.title) } }

    /// Each event to the board, and each action it asks for to the session, as `kanban ui`
    /// runs them; but for `e`, whose editor needs a terminal (it is recorded, not run).
    mutating func send(_ events: InputEvent...) {
        for event in events {
            for action in session.board.handle(.input(event)) {
                actions.append(action)
                if case .edit = action { continue }
                do {
                    _ = try session.perform(action)
                } catch {
                    Issue.record("\(action): \(error.message)")
                }
            }
        }
    }

    mutating func keys(_ text: String) {
        for character in text { send(.key(.character(character))) }
    }

    mutating func key(_ key: Key) {
        send(.key(key))
    }

    /// Press at a cell, move to another, release there, with `modifiers` at the release.
    mutating func drag(from start: (Int, Int), to end: (Int, Int), modifiers: Modifiers = []) {
        send(
            .mouse(MouseEvent(kind: .press(.left), column: start.0, row: start.1)),
            .mouse(MouseEvent(kind: .drag(.left), column: end.0, row: end.1, modifiers: modifiers)),
            .mouse(MouseEvent(kind: .release(.left), column: end.0, row: end.1, modifiers: modifiers)))
    }

    /// The cell of the first line of a card, by title, and the middle of its column.
    func cell(of title: String) -> (Int, Int) {
        let layout = ui.layout()
        for column in layout.columns {
            for card in column.cards where card.text.title == title {
                return (column.x + column.prefix.width + 1, card.row)
            }
        }
        Issue.record("\(title) is not on the screen")
        return (0, 0)
    }

    /// A cell whose slot is `slot` of board `board`: the first line of the card shown there
    /// (its upper half), or the row below the last card.
    func cell(board: Int, slot: Int) -> (Int, Int) {
        let column = ui.layout().column(board: board)!
        if let card = column.cards.first(where: { $0.position == slot }) { return (column.x + 1, card.row) }
        let end = column.cards.last.map { $0.row + $0.lines.count } ?? 2
        return (column.x + 1, end)
    }

    var screen: [String] { ui.screen().text }
    var operations: [Operation] {
        actions.compactMap { if case .apply(let operation) = $0 { operation } else { nil } }
    }
}

// MARK: - The naive reference of SPEC §2

/// The kanban after a drop, computed the obvious way: take the dragged cards out, put them
/// in at the slot (counted with them still in place), in board order. A copy takes nothing out.
func referenceDrop(_ boards: [[String]], dragged: [(board: Int, index: Int)], to board: Int, slot: Int, copy: Bool)
    -> [[String]]
{
    let moved = dragged.sorted { ($0.board, $0.index) < ($1.board, $1.index) }.map { boards[$0.board][$0.index] }
    let isDragged = { (b: Int, i: Int) in dragged.contains { $0.board == b && $0.index == i } }
    var result = boards
    if !copy {
        for b in boards.indices {
            result[b] = boards[b].indices.filter { !isDragged(b, $0) }.map { boards[b][$0] }
        }
    }
    let before = boards[board][..<slot].indices.filter { copy || !isDragged(board, $0) }.map { boards[board][$0] }
    let after = boards[board][slot...].indices.filter { copy || !isDragged(board, $0) }.map { boards[board][$0] }
    result[board] = before + moved + after
    return result
}

@Suite struct UIStateMachine {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case draggingASelectedCardDragsTheSelectionInBoardOrder
        case aDropIsTheMoveCommandWithItsAt
        case whileDraggingTheSlotIsShownAndReleasingOutsideCancels
        case altOrCtrlAtTheReleaseCopies
        case aClickPutsTheCursorOnACardAndCtrlClickSelects
        case theWheelScrollsTheColumnUnderThePointer
        case aBoardAtItsLimitIsShownRefusingAndFForcesTheDrop
        case theKeyboardMoveIntoAFullBoardIsRefusedUntilF
        case cursorKeysMoveBetweenCardsAndBoards
        case shiftedKeysAndCapitalsMoveTheCard
        case spaceSelectsAndXPMovesTheSelectionBelowTheCursor
        case yCopiesAndPPastesCopiesAboveTheCursor
        case aAddsBelowTheCursorFromAPrompt
        case rRenamesEEditsEnterShowsTheCard
        case dRemovesOnlyAfterY
        case uUndoesAndCtrlRRedoes
        case slashFiltersAsListGrepKeepingIndexes
        case questionMarkShowsTheKeysQAndCtrlCQuit
        case sShowsTheFlowOfTheCursorsBoardAndAnyKeyGoesBack
        case aPasteOnTheBoardAddsACardPerLine
        case aCutPasteSaysWhatItLeftOut
        case anOutsideChangeKeepsTheCursorOnItsCard
        case escapeSequencesFromTheFileAreShownVisibly
        case wideCharactersKeepTheColumnsInLine
        case framesDrawOnlyTheLinesThatChanged
        case boardsOfUpTo200CardsGetTheColumnsOfList
        case largerBoardsAreMeasuredOnceOnASample
        case framesEscapeWhateverASpanHolds
        case boardsThatDoNotFitScrollSideways
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .draggingASelectedCardDragsTheSelectionInBoardOrder: draggingASelectedCardDragsTheSelectionInBoardOrder()
        case .aDropIsTheMoveCommandWithItsAt: aDropIsTheMoveCommandWithItsAt()
        case .whileDraggingTheSlotIsShownAndReleasingOutsideCancels:
            whileDraggingTheSlotIsShownAndReleasingOutsideCancels()
        case .altOrCtrlAtTheReleaseCopies: altOrCtrlAtTheReleaseCopies()
        case .aClickPutsTheCursorOnACardAndCtrlClickSelects: aClickPutsTheCursorOnACardAndCtrlClickSelects()
        case .theWheelScrollsTheColumnUnderThePointer: theWheelScrollsTheColumnUnderThePointer()
        case .aBoardAtItsLimitIsShownRefusingAndFForcesTheDrop: aBoardAtItsLimitIsShownRefusingAndFForcesTheDrop()
        case .theKeyboardMoveIntoAFullBoardIsRefusedUntilF: theKeyboardMoveIntoAFullBoardIsRefusedUntilF()
        case .cursorKeysMoveBetweenCardsAndBoards: cursorKeysMoveBetweenCardsAndBoards()
        case .shiftedKeysAndCapitalsMoveTheCard: shiftedKeysAndCapitalsMoveTheCard()
        case .spaceSelectsAndXPMovesTheSelectionBelowTheCursor: spaceSelectsAndXPMovesTheSelectionBelowTheCursor()
        case .yCopiesAndPPastesCopiesAboveTheCursor: yCopiesAndPPastesCopiesAboveTheCursor()
        case .aAddsBelowTheCursorFromAPrompt: aAddsBelowTheCursorFromAPrompt()
        case .rRenamesEEditsEnterShowsTheCard: rRenamesEEditsEnterShowsTheCard()
        case .dRemovesOnlyAfterY: dRemovesOnlyAfterY()
        case .uUndoesAndCtrlRRedoes: uUndoesAndCtrlRRedoes()
        case .slashFiltersAsListGrepKeepingIndexes: slashFiltersAsListGrepKeepingIndexes()
        case .questionMarkShowsTheKeysQAndCtrlCQuit: questionMarkShowsTheKeysQAndCtrlCQuit()
        case .sShowsTheFlowOfTheCursorsBoardAndAnyKeyGoesBack: sShowsTheFlowOfTheCursorsBoardAndAnyKeyGoesBack()
        case .aPasteOnTheBoardAddsACardPerLine: aPasteOnTheBoardAddsACardPerLine()
        case .aCutPasteSaysWhatItLeftOut: aCutPasteSaysWhatItLeftOut()
        case .anOutsideChangeKeepsTheCursorOnItsCard: anOutsideChangeKeepsTheCursorOnItsCard()
        case .escapeSequencesFromTheFileAreShownVisibly: try escapeSequencesFromTheFileAreShownVisibly()
        case .wideCharactersKeepTheColumnsInLine: wideCharactersKeepTheColumnsInLine()
        case .framesDrawOnlyTheLinesThatChanged: framesDrawOnlyTheLinesThatChanged()
        case .boardsOfUpTo200CardsGetTheColumnsOfList: boardsOfUpTo200CardsGetTheColumnsOfList()
        case .largerBoardsAreMeasuredOnceOnASample: largerBoardsAreMeasuredOnceOnASample()
        case .framesEscapeWhateverASpanHolds: framesEscapeWhateverASpanHolds()
        case .boardsThatDoNotFitScrollSideways: boardsThatDoNotFitScrollSideways()
        }
    }

    static let sample = UIHarness.kanban([
        ("Todo", ["Database Migration", "Schema Design", "Storage Management", "Model Abstraction"]),
        ("In Progress", ["Push Notification", "Analytics", "Machine Learning"]),
        ("Done", ["System Architecture", "Alert & Debugging"]),
    ])

    /// The id of a card of the sample.
    static func id(_ title: String) -> String {
        sample.boards.lazy.flatMap(\.items).first { $0.title == title }!.id.rawValue
    }

    static let small = [("A", ["One", "Two", "Three"]), ("B", ["Four", "Five"]), ("C", [String]())]

    // MARK: - Drops against the reference

    @Test(arguments: [false, true])
    func mouseDropsAtEverySlotMatchTheReference(copy: Bool) {
        let boards = Self.small.map(\.1)
        for (b, cards) in boards.enumerated() {
            for index in cards.indices {
                for target in boards.indices {
                    for slot in 0...boards[target].count {
                        var harness = UIHarness(UIHarness.kanban(Self.small))
                        harness.drag(
                            from: harness.cell(of: cards[index]), to: harness.cell(board: target, slot: slot),
                            modifiers: copy ? .control : [])
                        let expected = referenceDrop(
                            boards, dragged: [(b, index)], to: target, slot: slot, copy: copy)
                        expectTrue(
                            harness.titles == expected,
                            "\(copy ? "copy" : "move") \(cards[index]) to \(Self.small[target].0) slot \(slot)")
                        expectEqual(harness.ui.mode, .board)
                    }
                }
            }
        }
    }

    func draggingASelectedCardDragsTheSelectionInBoardOrder() {
        let boards = Self.small.map(\.1)
        // Every pair of cards, selected in either order, dropped at every slot.
        let all = boards.enumerated().flatMap { b, cards in cards.indices.map { (board: b, index: $0) } }
        for first in all {
            for second in all where second != first {
                for target in boards.indices {
                    for slot in 0...boards[target].count {
                        var harness = UIHarness(UIHarness.kanban(Self.small))
                        for picked in [second, first] {
                            let title = boards[picked.board][picked.index]
                            let cell = harness.cell(of: title)
                            harness.send(
                                .mouse(MouseEvent(kind: .press(.left), column: cell.0, row: cell.1)),
                                .mouse(
                                    MouseEvent(kind: .release(.left), column: cell.0, row: cell.1, modifiers: .control))
                            )
                        }
                        expectEqual(harness.ui.selection.count, 2)
                        harness.drag(
                            from: harness.cell(of: boards[first.board][first.index]),
                            to: harness.cell(board: target, slot: slot))
                        let expected = referenceDrop(
                            boards, dragged: [first, second], to: target, slot: slot, copy: false)
                        expectEqual(harness.titles, expected, "\(first) \(second) to \(target):\(slot)")
                    }
                }
            }
        }
    }

    func aDropIsTheMoveCommandWithItsAt() {
        var harness = UIHarness(Self.sample)
        harness.drag(from: harness.cell(of: "Analytics"), to: harness.cell(board: 2, slot: 0))
        expectEqual(harness.operations, [.move(items: [Self.id("Analytics")], to: "Done", position: .at(0))])
        expectEqual(harness.operations[0].commandLine, ["move", Self.id("Analytics"), "--to", "Done", "--at", "0"])
        expectEqual(harness.ui.status.text, "moved \(Self.id("Analytics")) 'Analytics': In Progress:1 -> Done:0")
        expectEqual(harness.ui.cursor.item, ItemID(Self.id("Analytics")))
        // Within one board, the index counts the board with the card taken out.
        harness.drag(from: harness.cell(of: "Database Migration"), to: harness.cell(board: 0, slot: 3))
        expectTrue(harness.operations.last == .move(items: [Self.id("Database Migration")], to: "Todo", position: .at(2)))
        expectTrue(
            harness.titles[0] == ["Schema Design", "Storage Management", "Database Migration", "Model Abstraction"])
    }

    func whileDraggingTheSlotIsShownAndReleasingOutsideCancels() {
        var harness = UIHarness(Self.sample, width: 120)
        let start = harness.cell(of: "Analytics")
        let over = harness.cell(board: 0, slot: 1)
        harness.send(
            .mouse(MouseEvent(kind: .press(.left), column: start.0, row: start.1)),
            .mouse(MouseEvent(kind: .drag(.left), column: over.0, row: over.1)))
        guard case .dragging(let drag) = harness.ui.mode else {
            Issue.record("not dragging: \(harness.ui.mode)")
            return
        }
        expectEqual(drag.target, BoardUI.DropTarget(board: 0, slot: 1))
        expectTrue(drag.refusal == nil && !drag.copy)
        let screen = harness.screen
        // The marker takes the row of the slot; the cards below it move down one row.
        expectTrue(screen[over.1].hasPrefix("→ move here"), "\(screen.joined(separator: "\n"))")
        expectTrue(screen[over.1 + 1].contains("Schema Design"))
        expectEqual(harness.ui.status.text, "move 'Analytics' to 'Todo':1; hold Ctrl or Alt to copy")

        // Ctrl held while moving: the copy proposal.
        harness.send(.mouse(MouseEvent(kind: .drag(.left), column: over.0, row: over.1, modifiers: .control)))
        expectTrue(harness.screen[over.1].hasPrefix("+ copy here"))

        // Released on the status line, or right of the last column: nothing happens.
        harness.send(.mouse(MouseEvent(kind: .release(.left), column: 5, row: 23)))
        expectTrue(harness.operations.isEmpty)
        expectEqual(harness.ui.mode, .board)
        expectEqual(harness.ui.status.text, "drop cancelled: released outside the boards")
        expectEqual(harness.titles, Self.sample.boards.map { $0.items.map(\.title) })

        harness.drag(from: harness.cell(of: "Analytics"), to: (110, 5))
        expectTrue(harness.operations.isEmpty)
        // Escape cancels too.
        harness.send(
            .mouse(MouseEvent(kind: .press(.left), column: start.0, row: start.1)),
            .mouse(MouseEvent(kind: .drag(.left), column: over.0, row: over.1)), .key(Key(.escape)),
            .mouse(MouseEvent(kind: .release(.left), column: over.0, row: over.1)))
        expectTrue(harness.operations.isEmpty)
    }

    func altOrCtrlAtTheReleaseCopies() {
        for modifiers: Modifiers in [.alt, .control] {
            var harness = UIHarness(Self.sample)
            harness.drag(from: harness.cell(of: "Analytics"), to: harness.cell(board: 0, slot: 0), modifiers: modifiers)
            expectEqual(harness.operations, [.copy(items: [Self.id("Analytics")], to: "Todo", position: .at(0))])
            expectTrue(harness.titles[0].first == "Analytics" && harness.titles[1].contains("Analytics"))
            expectTrue(
                harness.ui.status.text.hasPrefix("copied \(Self.id("Analytics")) 'Analytics' from In Progress:1 as "))
        }
    }

    func aClickPutsTheCursorOnACardAndCtrlClickSelects() {
        var harness = UIHarness(Self.sample)
        let cell = harness.cell(of: "Machine Learning")
        harness.send(
            .mouse(MouseEvent(kind: .press(.left), column: cell.0, row: cell.1)),
            .mouse(MouseEvent(kind: .release(.left), column: cell.0, row: cell.1)))
        expectEqual(harness.ui.cursor.item, ItemID(Self.id("Machine Learning")))
        expectTrue(harness.ui.selection.isEmpty && harness.operations.isEmpty)
        for modifiers: Modifiers in [.control, .shift] {
            harness.send(
                .mouse(MouseEvent(kind: .press(.left), column: cell.0, row: cell.1)),
                .mouse(MouseEvent(kind: .release(.left), column: cell.0, row: cell.1, modifiers: modifiers)))
            expectEqual(harness.ui.selection, (modifiers == .control ? [ItemID(Self.id("Machine Learning"))!] : []))
        }
    }

    func theWheelScrollsTheColumnUnderThePointer() {
        let many = UIHarness.kanban([("Long", (0..<40).map { "Card \($0)" }), ("Short", ["Only"])])
        var harness = UIHarness(many, width: 60, height: 12)
        expectTrue(harness.screen[2].contains("Card 0"))
        expectTrue(harness.screen[10].contains("↓32 more"), "\(harness.screen.joined(separator: "\n"))")
        harness.send(.mouse(MouseEvent(kind: .wheelDown, column: 3, row: 5)))
        expectTrue(harness.screen[2].contains("Card 3"))
        expectTrue(harness.screen[1].contains("↑3"))
        harness.send(
            .mouse(MouseEvent(kind: .wheelUp, column: 3, row: 5)), .mouse(MouseEvent(kind: .wheelUp, column: 3, row: 5))
        )
        expectTrue(harness.screen[2].contains("Card 0"))
        // The cursor scrolls its column to stay in view.
        harness.keys("G")
        expectTrue(harness.screen.contains { $0.contains("Card 39") })
        expectEqual(harness.ui.cursor.position, 39)
    }

    // MARK: - WIP limits: .forbidden, refusal, F

    func aBoardAtItsLimitIsShownRefusingAndFForcesTheDrop() {
        let full = UIHarness.kanban(
            [("Todo", ["A", "B"]), ("Review", ["C", "D"])], limits: ["Review": 2])
        var harness = UIHarness(full)
        let start = harness.cell(of: "A")
        let over = harness.cell(board: 1, slot: 1)
        harness.send(
            .mouse(MouseEvent(kind: .press(.left), column: start.0, row: start.1)),
            .mouse(MouseEvent(kind: .drag(.left), column: over.0, row: over.1)))
        guard case .dragging(let drag) = harness.ui.mode else {
            Issue.record("not dragging")
            return
        }
        expectEqual(drag.refusal, "'Review' is at its WIP limit of 2")
        let screen = harness.ui.screen()
        expectTrue(screen.text[over.1].contains("✗ 'Review'"), "\(screen.text.joined(separator: "\n"))")
        // The header of the refusing board is shown in reverse red.
        let header = screen.lines[0].spans.first { $0.text.hasPrefix("Review") }
        expectTrue(header?.style.reverse == true && header?.style.color == .red)
        expectTrue(harness.ui.status.isError)

        // The drop is tried all the same: the kanban refuses it, and F forces it.
        harness.send(.mouse(MouseEvent(kind: .release(.left), column: over.0, row: over.1)))
        expectEqual(harness.titles, [["A", "B"], ["C", "D"]])
        expectTrue(harness.ui.status.text.hasPrefix("'Review' is limited to 2 items and holds 2; nothing was changed"))
        expectTrue(harness.ui.status.text.hasSuffix("; nothing was changed; F forces it"))
        expectEqual(harness.ui.forceable, .move(items: [harness.id("A")], to: "Review", position: .at(1), force: true))

        harness.keys("F")
        expectEqual(harness.titles, [["B"], ["C", "A", "D"]])
        expectTrue(
            harness.operations.last?.commandLine == ["move", harness.id("A"), "--to", "Review", "--at", "1", "--force"])
        expectTrue(harness.ui.forceable == nil)
        harness.keys("F")
        expectTrue(harness.ui.status.text.hasPrefix("nothing to force"))

        // Within the full board a drag is no .forbidden proposal.
        let c = harness.cell(of: "C")
        harness.send(
            .mouse(MouseEvent(kind: .press(.left), column: c.0, row: c.1)),
            .mouse(MouseEvent(kind: .drag(.left), column: c.0, row: harness.cell(board: 1, slot: 3).1)))
        if case .dragging(let drag) = harness.ui.mode { expectTrue(drag.refusal == nil) }
    }

    func theKeyboardMoveIntoAFullBoardIsRefusedUntilF() {
        var harness = UIHarness(UIHarness.kanban([("Todo", ["A"]), ("Doing", ["B"])], limits: ["Doing": 1]))
        harness.keys("L")
        expectEqual(harness.titles, [["A"], ["B"]])
        expectTrue(harness.ui.status.isError && harness.ui.status.text.hasSuffix("F forces it"))
        harness.keys("F")
        expectEqual(harness.titles, [[], ["A", "B"]])
    }

    // MARK: - Keys

    func cursorKeysMoveBetweenCardsAndBoards() {
        var harness = UIHarness(Self.sample, width: 120)
        expectEqual(harness.ui.cursor.item, ItemID(Self.id("Database Migration")))
        for (keys, expected) in [
            ("j", Self.id("Schema Design")), ("j", Self.id("Storage Management")), ("k", Self.id("Schema Design")),
            ("l", Self.id("Analytics")),
            ("l", Self.id("Alert & Debugging")), ("l", Self.id("Alert & Debugging")), ("h", Self.id("Analytics")),
            ("G", Self.id("Machine Learning")),
            ("g", Self.id("Push Notification")), ("k", Self.id("Push Notification")),
            ("h", Self.id("Database Migration")),
        ] {
            harness.keys(keys)
            expectEqual(harness.ui.cursor.item, ItemID(expected), "after \(keys)")
        }
        for (key, expected) in [
            (Key(.down), Self.id("Schema Design")), (Key(.right), Self.id("Analytics")),
            (Key(.up), Self.id("Push Notification")),
            (Key(.left), Self.id("Database Migration")), (Key(.end), Self.id("Model Abstraction")),
            (Key(.home), Self.id("Database Migration")),
            (Key(.pageDown), Self.id("Model Abstraction")), (Key(.pageUp), Self.id("Database Migration")),
        ] {
            harness.key(key)
            expectEqual(harness.ui.cursor.item, ItemID(expected), "after \(key)")
        }
        expectTrue(harness.operations.isEmpty)
        // The cursor's card is drawn in reverse video.
        let line = harness.ui.screen().lines[2]
        expectTrue(line.spans.contains { $0.style.reverse && $0.text.contains("Database Migration") })
    }

    func shiftedKeysAndCapitalsMoveTheCard() {
        for (key, expected, titles) in [
            (
                Key(.character("J")), Operation.move(items: [Self.id("Schema Design")], to: "Todo", position: .at(2)),
                ["Database Migration", "Storage Management", "Schema Design", "Model Abstraction"]
            ),
            (
                Key(.down, .shift), .move(items: [Self.id("Schema Design")], to: "Todo", position: .at(2)),
                ["Database Migration", "Storage Management", "Schema Design", "Model Abstraction"]
            ),
            (
                Key(.character("K")), .move(items: [Self.id("Schema Design")], to: "Todo", position: .at(0)),
                ["Schema Design", "Database Migration", "Storage Management", "Model Abstraction"]
            ),
            (
                Key(.up, .shift), .move(items: [Self.id("Schema Design")], to: "Todo", position: .at(0)),
                ["Schema Design", "Database Migration", "Storage Management", "Model Abstraction"]
            ),
        ] {
            var harness = UIHarness(Self.sample)
            harness.keys("j")
            harness.key(key)
            expectEqual(harness.operations, [expected], "\(key)")
            expectEqual(harness.titles[0], titles, "\(key)")
            expectEqual(harness.ui.cursor.item, ItemID(Self.id("Schema Design")), "the cursor follows the card")
        }
        for key in [Key(.character("L")), Key(.right, .shift)] {
            var harness = UIHarness(Self.sample, width: 120)
            harness.keys("j")
            harness.key(key)
            // Level with its row: Schema Design is on row 3, the second card of In Progress.
            expectTrue(
                harness.operations == [.move(items: [Self.id("Schema Design")], to: "In Progress", position: .at(1))])
            expectTrue(harness.ui.cursor.board == 1 && harness.ui.cursor.item == ItemID(Self.id("Schema Design")))
            harness.key(key == Key(.character("L")) ? Key(.character("H")) : Key(.left, .shift))
            expectEqual(harness.titles, Self.sample.boards.map { $0.items.map(\.title) })
        }
        var harness = UIHarness(Self.sample)
        harness.keys("KH")
        expectTrue(harness.operations.isEmpty)
        expectEqual(harness.ui.status.text, "there is no board to the left")
        harness.keys("G")
        harness.keys("J")
        expectEqual(harness.ui.status.text, "'Model Abstraction' is already at the bottom")
    }

    func spaceSelectsAndXPMovesTheSelectionBelowTheCursor() {
        var harness = UIHarness(Self.sample, width: 120)
        harness.keys(" jj ")  // Database Migration and Storage Management
        expectTrue(
            harness.ui.selection == [ItemID(Self.id("Database Migration"))!, ItemID(Self.id("Storage Management"))!])
        expectTrue(harness.screen[2].hasPrefix("0*\(Self.id("Database Migration"))"))
        harness.keys("x")
        expectTrue(harness.ui.selection.isEmpty)
        expectTrue(
            harness.ui.clipboard
                == BoardUI.Clipboard(
                    items: [ItemID(Self.id("Database Migration"))!, ItemID(Self.id("Storage Management"))!], copy: false
                ))
        harness.keys("lk")  // Machine Learning, level with Storage Management, then Analytics
        harness.keys("p")
        expectTrue(
            harness.operations == [
                .move(
                    items: [Self.id("Database Migration"), Self.id("Storage Management")], to: "In Progress",
                    position: .at(2))
            ])
        expectTrue(
            harness.titles[1] == [
                "Push Notification", "Analytics", "Database Migration", "Storage Management", "Machine Learning",
            ])
        expectTrue(harness.ui.clipboard == nil, "a cut is pasted once")
        expectEqual(harness.ui.cursor.item, ItemID(Self.id("Database Migration")))
        expectTrue(harness.ui.status.text.hasSuffix("(and 1 more)"))
    }

    func yCopiesAndPPastesCopiesAboveTheCursor() {
        var harness = UIHarness(Self.sample)
        harness.keys("yllP")
        expectEqual(harness.operations, [.copy(items: [Self.id("Database Migration")], to: "Done", position: .at(0))])
        expectEqual(harness.titles[2], ["Database Migration", "System Architecture", "Alert & Debugging"])
        expectEqual(harness.titles[0].first, "Database Migration")
        harness.keys("p")
        expectEqual(harness.titles[2].filter { $0 == "Database Migration" }.count, 2, "a copy pastes again")
        harness.key(Key(.escape))
        harness.keys("p")
        expectTrue(harness.ui.status.text.hasPrefix("nothing to paste"))
    }

    func aAddsBelowTheCursorFromAPrompt() {
        var harness = UIHarness(Self.sample)
        harness.keys("ja")
        guard case .prompt = harness.ui.mode else {
            Issue.record("no prompt")
            return
        }
        harness.keys("New café card")
        harness.key(Key(.backspace))
        expectEqual(harness.screen.last?.hasPrefix("new card in 'Todo': New café car"), true)
        harness.send(.paste("d\nwith more"))
        harness.key(Key(.enter))
        expectEqual(harness.operations.count, 1)
        expectEqual(harness.titles[0][2], "New café card with more")
        expectEqual(harness.ui.cursor.position, 2)
        expectTrue(harness.ui.status.text.hasPrefix("added "))
        // A title with nothing in it is refused and nothing is sent.
        harness.keys("a")
        harness.keys("   ")
        harness.key(Key(.enter))
        expectEqual(harness.operations.count, 1)
        expectTrue(harness.ui.status.isError)
        // Escape cancels; Ctrl-U clears the line.
        harness.keys("aabc")
        harness.key(.control("u"))
        harness.keys("x")
        harness.key(Key(.escape))
        expectEqual(harness.operations.count, 1)
    }

    func rRenamesEEditsEnterShowsTheCard() {
        var harness = UIHarness(Self.sample)
        harness.keys("r")
        harness.key(.control("w"))
        harness.keys("Plan")
        harness.key(Key(.enter))
        expectTrue(
            harness.operations == [.rename(item: Self.id("Database Migration"), title: try! Title("Database Plan"))])
        expectTrue(
            harness.ui.status.text == "renamed \(Self.id("Database Migration")) 'Database Migration' to 'Database Plan'"
        )

        harness.keys("e")
        expectEqual(harness.actions.last, .edit(ItemID(Self.id("Database Migration"))!))

        harness.key(Key(.enter))
        expectEqual(harness.ui.mode, .detail(ItemID(Self.id("Database Migration"))!))
        expectEqual(harness.screen[0], "Database Plan")
        expectTrue(harness.screen.contains("  board    Todo:0"))
        harness.keys("j")
        expectEqual(harness.ui.mode, .board)
        expectEqual(harness.ui.cursor.position, 0, "the key that closes the card does nothing else")
    }

    func dRemovesOnlyAfterY() {
        var harness = UIHarness(Self.sample)
        harness.keys("d")
        expectTrue(
            harness.screen.last?.hasPrefix("remove 'Database Migration' (\(Self.id("Database Migration")))? y removes")
                == true)
        harness.keys("n")
        expectTrue(harness.operations.isEmpty)
        expectEqual(harness.ui.status.text, "nothing was removed")
        harness.keys(" j d")
        expectEqual(harness.screen.last?.hasPrefix("remove 2 cards?"), true)
        harness.keys("y")
        expectEqual(harness.operations, [.remove(items: [Self.id("Database Migration"), Self.id("Schema Design")])])
        expectEqual(harness.titles[0], ["Storage Management", "Model Abstraction"])
        expectEqual(harness.ui.cursor.item, ItemID(Self.id("Model Abstraction")), "the card that took its place")
    }

    func uUndoesAndCtrlRRedoes() {
        var harness = UIHarness(Self.sample)
        harness.keys("L")
        harness.keys("u")
        expectEqual(harness.actions.last, .undo)
        expectEqual(harness.titles, Self.sample.boards.map { $0.items.map(\.title) })
        // The status line: the history's entry, and the first thing it changed.
        let move = "kanban move \(Self.id("Database Migration")) --to 'In Progress' --at 0"
        expectTrue(harness.ui.status.text.hasPrefix("took back #1: \(move): "), "\(harness.ui.status.text)")
        harness.key(.control("r"))
        expectEqual(harness.actions.last, .redo)
        expectEqual(harness.titles[1].first, "Database Migration")
        expectTrue(harness.ui.status.text.hasPrefix("did again #1: \(move): "), "\(harness.ui.status.text)")
    }

    func slashFiltersAsListGrepKeepingIndexes() {
        var harness = UIHarness(Self.sample)
        harness.keys("/")
        harness.keys("AN")
        harness.key(Key(.enter))
        expectEqual(harness.ui.filter, "AN")
        let screen = harness.screen
        // Storage Management (Todo:2) and Analytics (In Progress:1) keep their indexes.
        expectTrue(
            screen[2].hasPrefix("2 \(Self.id("Storage Management")) Storage Management"),
            "\(screen.joined(separator: "\n"))")
        expectTrue(screen[2].contains("1 \(Self.id("Analytics")) Analytics"))
        expectTrue(!screen.joined().contains("Schema Design"))
        expectEqual(harness.ui.cursor.item, ItemID(Self.id("Storage Management")))
        // A drop in a filtered board lands before the card shown there.
        harness.drag(from: harness.cell(of: "Storage Management"), to: harness.cell(board: 1, slot: 0))
        expectTrue(
            harness.operations == [.move(items: [Self.id("Storage Management")], to: "In Progress", position: .at(1))])
        harness.key(Key(.escape))
        expectTrue(harness.ui.filter == nil)
        expectTrue(harness.screen.joined().contains("Schema Design"))
    }

    func questionMarkShowsTheKeysQAndCtrlCQuit() {
        var harness = UIHarness(Self.sample)
        harness.keys("?")
        expectEqual(harness.ui.mode, .help)
        expectTrue(harness.screen[0].hasPrefix("kanban ui: the keys"))
        expectTrue(harness.screen.contains { $0.contains("F") && $0.contains("--force") })
        harness.keys("x")
        expectTrue(harness.ui.mode == .board && harness.ui.clipboard == nil)
        harness.keys("q")
        expectEqual(harness.actions.last, .quit)
        harness.keys("a")
        harness.key(.control("c"))
        expectEqual(harness.actions.last, .quit, "Ctrl-C quits even from a prompt")
        harness.key(Key(.escape))
        harness.key(.control("l"))
        harness.key(.control("z"))
        expectEqual(Array(harness.actions.suffix(2)), [.redraw, .suspend])
    }

    func sShowsTheFlowOfTheCursorsBoardAndAnyKeyGoesBack() {
        var harness = UIHarness(Self.sample)
        harness.keys("ls")
        expectEqual(harness.ui.mode, .stats(ItemID("b1")!))
        expectEqual(harness.screen[0].hasPrefix("flow through 'In Progress'"), true, "\(harness.screen)")
        // The cards of the sample have no trail yet: nothing finished, three in progress.
        expectTrue(harness.screen.contains { $0.hasPrefix("Finished:    0") }, "\(harness.screen)")
        expectTrue(harness.screen.contains { $0.contains("In Progress") && $0.hasSuffix("3") }, "\(harness.screen)")
        harness.keys("x")
        expectEqual(harness.ui.mode, .board)
        expectEqual(harness.ui.clipboard, nil, "the key that went back did nothing else")
    }

    func aPasteOnTheBoardAddsACardPerLine() {
        var harness = UIHarness(Self.sample)
        harness.send(.paste("First pasted\r\n\n  Second pasted  \n"))
        expectEqual(harness.titles[0][1...2], ["First pasted", "Second pasted"])
        harness.send(.paste("bad \u{7} bell"))
        expectTrue(harness.ui.status.isError && harness.ui.status.text.hasPrefix("pasted line 1:"))
    }

    /// A paste cut for its size adds its whole lines and says, once they are added, how many
    /// it left out (README: The interactive board).
    func aCutPasteSaysWhatItLeftOut() {
        var harness = UIHarness(Self.sample)
        harness.send(.paste("First pasted\nSecond pasted\n", linesLeftOut: 9_618))
        expectEqual(harness.titles[0][1...2], ["First pasted", "Second pasted"])
        expectTrue(harness.ui.status.text.contains("9618 lines were not added"), "\(harness.ui.status.text)")
        harness.send(.paste("", linesLeftOut: 1))
        expectTrue(harness.ui.status.text.contains("1 line was not added"), "\(harness.ui.status.text)")
        harness.keys("j")
        harness.send(.paste("Third pasted\n"))
        expectTrue(!harness.ui.status.text.contains("not added"), "\(harness.ui.status.text)")
    }

    // MARK: - Outside changes

    func anOutsideChangeKeepsTheCursorOnItsCard() {
        var harness = UIHarness(Self.sample)
        harness.keys("jj")  // Storage Management, Todo:2
        var outside = harness.kanban
        var generator = TestRandom(1, "anOutsideChangeKeepsTheCursorOnItsCard")
        try! outside.apply(
            .add(titles: [try! Title("From a script")], to: "Todo", position: .top), at: UIHarness.clock,
            using: &generator)
        try! outside.apply(.move(items: [Self.id("Schema Design")], to: "Done"), at: UIHarness.clock, using: &generator)
        _ = harness.ui.handle(.loaded(outside))
        expectEqual(harness.ui.cursor.item, ItemID(Self.id("Storage Management")))
        expectEqual(harness.ui.cursor.position, 2)
        expectTrue(harness.screen[2].contains("From a script"))
        // When the card itself goes, the cursor stays at its place.
        try! outside.apply(.remove(items: [Self.id("Storage Management")]), at: UIHarness.clock, using: &generator)
        _ = harness.ui.handle(.loaded(outside))
        expectEqual(harness.ui.cursor.item, ItemID(Self.id("Model Abstraction")))
    }

    // MARK: - The screen

    func escapeSequencesFromTheFileAreShownVisibly() throws {
        let hostile = try Kanban(boards: [
            Board(
                id: ItemID("b0")!, title: "Todo\u{1B}]2;owned\u{7}",
                items: [Item(id: ItemID("x1")!, title: "evil \u{1B}[2J\u{1B}]0;pwned\u{7} \u{9B}31m \u{202E}rtl")])
        ])
        let harness = UIHarness(hostile)
        let screen = harness.ui.screen()
        let bytes = Frame.bytes(from: nil, to: screen, color: true)
        // The only ESC bytes are kanban's own CSI sequences: none starts an OSC or clears the screen twice.
        let text = String(decoding: bytes, as: UTF8.self)
        expectTrue(!text.contains("\u{1B}]"))
        expectTrue(!text.contains("\u{7}"))
        expectTrue(!text.contains("\u{9B}"))
        expectTrue(!text.contains("\u{202E}"))
        expectEqual(text.ranges(of: "\u{1B}[2J").count, 1)
        expectTrue(screen.text[0].hasPrefix("Todo\\u{1B}]2;owned\\u{7}"))
        expectTrue(screen.text[2].contains("evil \\u{1B}[2J\\u{1B}]0;pwned\\u{7}"))
    }

    func wideCharactersKeepTheColumnsInLine() {
        let wide = UIHarness.kanban([
            ("待办", ["国際化対応のためのメッセージカタログを整備する", "Pair 🧑‍💻 sessions 🚀"]),
            ("Doing", ["한국어 제목도 잘 줄바꿈되어야 합니다"]), ("Done", ["Flags 🇫🇷 🇯🇵"]),
        ])
        let harness = UIHarness(wide, width: 80, height: 12)
        var bars: [Int]?
        for line in harness.screen.dropLast() {
            // Columns before each separator, as the terminal draws them.
            var offsets: [Int] = []
            var column = 0
            for character in line {
                if character == "│" { offsets.append(column) }
                column += DisplayWidth.of(character)
            }
            expectTrue(column <= 80, "\(line)")
            if bars == nil { bars = offsets }
            expectEqual(offsets, bars, "\(line)")
        }
        expectEqual(bars?.count, 2, "\(harness.screen.joined(separator: "\n"))")
    }

    func framesDrawOnlyTheLinesThatChanged() {
        var harness = UIHarness(Self.sample)
        let before = harness.ui.screen()
        let first = Frame.bytes(from: nil, to: before, color: true)
        expectTrue(String(decoding: first, as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        harness.keys("j")
        let after = harness.ui.screen()
        let diff = String(decoding: Frame.bytes(from: before, to: after, color: true), as: UTF8.self)
        expectTrue(!diff.contains("\u{1B}[2J"), "no clear on a keypress")
        // The two cards whose highlight changed, and the status line at most.
        let rows = diff.split(separator: "\u{1B}[").compactMap { part -> Int? in
            guard let semicolon = part.firstIndex(of: ";"), part[part.index(after: semicolon)...].hasPrefix("1H") else {
                return nil
            }
            return Int(part[..<semicolon])
        }
        expectTrue(Set(rows).isSubset(of: [3, 4, 24]) && rows.contains(3) && rows.contains(4), "\(rows)")
        expectTrue(Frame.bytes(from: after, to: after, color: true).isEmpty)
    }

    func boardsOfUpTo200CardsGetTheColumnsOfList() {
        for width in [80, 100, 120] {
            let harness = UIHarness(Self.sample, width: width)
            let columns = Self.sample.boards.map { Column(BoardText($0, today: UIHarness.clock.today)) }
            expectEqual(harness.ui.widths, ColumnLayout.widths(columns, total: width, compact: false), "\(width)")
            expectTrue(harness.ui.measured.isEmpty)
        }
    }

    func largerBoardsAreMeasuredOnceOnASample() {
        let big = UIHarness.kanban([
            ("Todo", (0..<1000).map { "Item \($0) with a few more words" }), ("Done", ["Gone"]),
        ])
        var harness = UIHarness(big, width: 100, height: 30)
        let widths = harness.ui.widths
        expectEqual(harness.ui.measured.count, 1)
        // 200 spread out, and the longest title if they miss it.
        expectTrue((200...201).contains(harness.ui.measured.first?.value.column.board.cards.count ?? 0))
        harness.keys("jJ")
        expectTrue(
            harness.titles[0][..<3] == [
                "Item 0 with a few more words", "Item 2 with a few more words", "Item 1 with a few more words",
            ])
        expectEqual(harness.ui.widths, widths)
        expectTrue(harness.screen[4].hasPrefix("  2 item01   Item 1 with a few more words"), "\(harness.screen[4])")
    }

    func framesEscapeWhateverASpanHolds() {
        let screen = Screen(width: 20, height: 1, lines: [ScreenLine("a\u{1B}]0;x\u{7}b\u{9B}c")])
        let text = String(decoding: Frame.bytes(from: nil, to: screen, color: false), as: UTF8.self)
        expectTrue(text.contains("a\\u{1B}]0;x\\u{7}b\\u{9B}c"))
        expectTrue(!text.contains("\u{7}") && !text.contains("\u{1B}]"))
    }

    @Test(arguments: [(1, 1), (5, 3), (12, 4), (30, 2), (200, 3), (40, 60)])
    func anySizeDrawsWithinTheScreen(width: Int, height: Int) {
        var harness = UIHarness(Self.sample, width: width, height: height)
        for keys in ["", "jjl", "L", "?", "x", "\u{1B}", "ja"] {
            harness.keys(keys)
            let screen = harness.ui.screen()
            expectEqual(screen.lines.count, height, "\(keys)")
            for line in screen.lines { expectTrue(line.width <= width && DisplayWidth.of(line.plain) == line.width) }
        }
        harness.send(.mouse(MouseEvent(kind: .press(.left), column: 0, row: 0)))
        harness.send(.mouse(MouseEvent(kind: .drag(.left), column: width - 1, row: height - 1)))
        expectEqual(harness.ui.screen().lines.count, height)
        _ = harness.ui.handle(.resize(width: 3, height: 1))
        expectEqual(harness.ui.screen().lines.count, 1)
    }

    func boardsThatDoNotFitScrollSideways() {
        let many = UIHarness.kanban((0..<8).map { ("Board number \($0)", ["A card on board \($0) with words"]) })
        var harness = UIHarness(many, width: 80, height: 10)
        expectTrue(harness.ui.window.lowerBound == 0 && harness.ui.window.count < 8)
        expectEqual(harness.screen.last?.contains("boards 1-"), true)
        for _ in 0..<7 { harness.keys("l") }
        expectEqual(harness.ui.cursor.board, 7)
        expectTrue(harness.ui.window.contains(7))
        expectTrue(harness.screen[0].contains("Board number 7"))
    }
}
