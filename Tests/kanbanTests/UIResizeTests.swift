import KanbanCore
import Testing

@testable import kanban

// The interactive board after resizes (README: The interactive board): walks of sizes,
// with the cursor on each board, checked after every step for what a person relies on:
// the cursor's board is in view, as many boards are in view as fit, the status line says
// when some are not, and no board is scrolled past what its last card needs.

@Suite struct UIResizes {
    static let boards: [(String, [String])] = [
        ("Backlog", (1...14).map { "Backlog card \($0) with a few more words to wrap" }),
        ("Todo", ["Schema Design", "Database Migration for the archive table", "Storage"]),
        ("In Progress", ["Push Notification", "Analytics dashboard"]),
        ("Review", ["One card"]),
        ("Done", ["System Architecture", "Alert & Debugging", "Machine Learning model"]),
    ]

    static let walks: [[(Int, Int)]] = [
        [(80, 24), (40, 24), (100, 24)],
        [(200, 40), (30, 12), (120, 40)],
        [(30, 8), (200, 50)],
        [(100, 10), (100, 60), (20, 5), (80, 24)],
    ]

    @Test(arguments: 0..<walks.count)
    func everyResizeKeepsTheCursorInViewFillsTheWidthAndSaysWhatIsHidden(walk: Int) {
        let kanban = UIHarness.kanban(Self.boards)
        for board in kanban.boards.indices {
            var harness = UIHarness(kanban, width: 80, height: 24)
            for _ in 0..<board { harness.keys("l") }
            // Down to the bottom card, so that tall boards are scrolled.
            for _ in 0..<20 { harness.keys("j") }
            expectEqual(harness.ui.cursor.board, board)
            for (width, height) in Self.walks[walk] {
                _ = harness.ui.handle(.resize(width: width, height: height))
                check(harness.ui, "walk \(walk), board \(board), at \(width)x\(height)")
            }
        }
    }

    @Test func ctrlLAfterWideningShowsEveryBoardThatFits() {
        var harness = UIHarness(UIHarness.kanban(Self.boards), width: 80, height: 24)
        _ = harness.ui.handle(.resize(width: 40, height: 24))
        expectTrue(harness.ui.window.count < 5)
        _ = harness.ui.handle(.resize(width: 200, height: 24))
        expectTrue(harness.ui.window == 0..<5)
        expectTrue(!harness.screen.last!.contains(" of 5"))
    }

    @Test func aTallerScreenScrollsABoardBackToItsFirstCards() {
        var harness = UIHarness(UIHarness.kanban(Self.boards), width: 100, height: 8)
        for _ in 0..<13 { harness.keys("j") }
        expectTrue(harness.ui.firstShown(0) > 0)
        _ = harness.ui.handle(.resize(width: 200, height: 60))
        expectEqual(harness.ui.firstShown(0), 0)
        expectTrue(harness.screen.allSatisfy { !$0.contains("↑") })
    }

    private func check(_ ui: BoardUI, _ context: String) {
        let count = ui.kanban.boards.count
        expectTrue(ui.window.contains(ui.cursor.board), "\(context): the cursor's board is out of view")
        // No board beside the window would fit with it.
        let columns = ui.kanban.boards.map { Column(BoardText($0, today: UIHarness.clock.today)) }
        for neighbor in [ui.window.lowerBound - 1, ui.window.upperBound] where (0..<count).contains(neighbor) {
            let grown = min(ui.window.lowerBound, neighbor)..<max(ui.window.upperBound, neighbor + 1)
            expectTrue(
                ColumnLayout.widths(Array(columns[grown]), total: ui.width, compact: false) == nil,
                "\(context): board \(neighbor) would fit beside \(ui.window)")
        }
        let status = ui.screen().text.last ?? ""
        if ui.window.count < count {
            expectTrue(status.contains("of \(count)"), "\(context): nothing says other boards exist: '\(status)'")
        }
        // A board scrolled down has no room for the card above its first.
        for b in ui.window where ui.firstShown(b) > 0 {
            let width = ui.textWidth(of: b)
            let rows = (ui.firstShown(b) - 1..<ui.shownCount(b)).reduce(0) {
                $0 + ui.cardHeight(b, position: $1, textWidth: width)
            }
            expectTrue(rows > ui.cardRows, "\(context): board \(b) scrolled to \(ui.firstShown(b)) with room above")
        }
    }
}
