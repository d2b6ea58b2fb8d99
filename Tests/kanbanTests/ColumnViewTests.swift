import KanbanCore
import Testing

@testable import kanban

private let plain = Style(enabled: false)

private func card(_ index: Int, _ id: String, _ title: String) -> CardText {
    CardText(index: index, id: id, title: title)
}

private func board(_ title: String, limit: Int? = nil, _ titles: [String]) -> BoardText {
    let cards = titles.enumerated().map { card($0.offset, "id\($0.offset)x\(title.count)", $0.element) }
    return BoardText(title: title, count: cards.count, limit: limit, cards: cards)
}

/// Six boards with long titles, CJK, emoji sequences and combining marks.
let sixBoards = [
    board(
        "Backlog",
        [
            "Write the CONTRIBUTING guide for new contributors with examples",
            "Fix reliability figures in README after the latest CI run", "Triage",
            "国際化対応のためのメッセージカタログを整備する",
            "Support 🧑‍💻 pair sessions and 👍🏽 reactions in the board view", "Flags 🇫🇷 🇩🇪 🇯🇵 in titles",
        ]),
    board(
        "Todo",
        [
            "Schema Design", "Database Migration for the archive table with a very long explanation of why",
            "한국어 제목도 잘 줄바꿈되어야 합니다", "Storage",
            "supercalifragilisticexpialidocious-and-then-some-more-words-joined-by-dashes",
        ]),
    board("In Progress", ["Push Notification", "Analytics dashboard with ❤️ and ☺︎", "Machine Learning"]),
    board("Review", limit: 1, ["Cafe\u{301} résumé naïve (combining é)"]),
    board("Done", ["System Architecture", "Alert & Debugging", "修复登录页面在窄屏上的显示问题，并补充测试"]),
    board("Waiting for customer feedback", []),
]

/// A rendered column view read back cell by cell, by display column.
struct Grid {
    /// The display column of each separator `│`, from the header row.
    let separators: [Int]
    /// For each row, the text of each column's cell, trailing spaces removed.
    let cells: [[String]]

    init(_ text: String, width: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        try require(!rows.isEmpty, sourceLocation: sourceLocation)
        separators = Self.bars(in: rows[0])
        var cells: [[String]] = []
        for row in rows {
            expectTrue(DisplayWidth.of(row) <= width, "wider than \(width): \(row)", sourceLocation: sourceLocation)
            expectTrue(row.last != " ", "trailing space: \(row)", sourceLocation: sourceLocation)
            // Every separator of every row at the same display column as in the header.
            expectTrue(Self.bars(in: row) == separators, "out of line: \(row)", sourceLocation: sourceLocation)
            cells.append(Self.split(row, at: separators))
        }
        self.cells = cells
    }

    /// The display columns of `│` in `row`.
    static func bars(in row: String) -> [Int] {
        var column = 0
        var bars: [Int] = []
        for character in row {
            if character == "│" { bars.append(column) }
            column += DisplayWidth.of(character)
        }
        return bars
    }

    /// `row` cut into cells at the separators ` │ `; each must be followed and preceded by a space.
    static func split(_ row: String, at separators: [Int]) -> [String] {
        var cells = [""]
        var column = 0
        for character in row {
            if separators.contains(column) {
                expectTrue(cells[cells.count - 1].last == " " && character == "│", "\(row)")
                cells[cells.count - 1].removeLast()
                cells.append("")
            } else if separators.contains(column - 1) {
                expectEqual(character, " ", "no space after a separator: \(row)")
            } else {
                cells[cells.count - 1].append(character)
            }
            column += DisplayWidth.of(character)
        }
        while cells.count < separators.count + 1 { cells.append("") }
        return cells.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
    }

    /// The width of column `c`: its rule's, which must end where its separator begins.
    func width(of c: Int) -> Int {
        let width = DisplayWidth.of(cells[1][c])
        expectEqual(cells[1][c], String(repeating: "─", count: width))
        let start = c == 0 ? 0 : separators[c - 1] + 2
        if c < separators.count { expectTrue(start + width + 1 == separators[c], "column \(c)") }
        return width
    }

    /// Column `c`'s rows, header and rule included.
    func column(_ c: Int) -> [String] {
        cells.map { $0[c] }
    }
}

/// The cards of one column, read back: index, id and the text of all their lines.
private func cards(in rows: [String], prefixWidth: Int) -> [(index: Int, id: String, text: String)] {
    var cards: [(index: Int, id: String, text: String)] = []
    for row in rows.dropFirst(2) where !row.isEmpty && row != "(empty)" {
        if row.hasPrefix(String(repeating: " ", count: prefixWidth)) {
            cards[cards.count - 1].text += String(row.dropFirst(prefixWidth))
            continue
        }
        let fields = row.drop(while: { $0 == " " }).split(separator: " ", maxSplits: 2)
        cards.append((Int(fields[0])!, String(fields[1]), fields.count > 2 ? String(fields[2]) : ""))
    }
    return cards
}

@Suite struct ColumnView {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aTwoHundredColumnTerminalLeavesNoWidthUnusedWhileTitlesWrap
        case aBoardOfManyLongCardsGetsMoreThanABoardOfFewShortOnes
        case headersAreFittedAndRedAtTheLimit
        case colorDoesNotMoveTheSeparators
        case labelsAndDueDatesShowAfterTheTitle
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aTwoHundredColumnTerminalLeavesNoWidthUnusedWhileTitlesWrap:
            try aTwoHundredColumnTerminalLeavesNoWidthUnusedWhileTitlesWrap()
        case .aBoardOfManyLongCardsGetsMoreThanABoardOfFewShortOnes:
            try aBoardOfManyLongCardsGetsMoreThanABoardOfFewShortOnes()
        case .headersAreFittedAndRedAtTheLimit: try headersAreFittedAndRedAtTheLimit()
        case .colorDoesNotMoveTheSeparators: try colorDoesNotMoveTheSeparators()
        case .labelsAndDueDatesShowAfterTheTitle: try labelsAndDueDatesShowAfterTheTitle()
        }
    }

    static let widths = [60, 80, 100, 120, 139, 140, 160, 200, 240, 300]
    /// The widths that hold the six columns side by side: their minimums add up to 125, and
    /// the gaps to 15 more. Narrower, the terminal view stacks the boards.
    static let sideBySide = 140...

    @Test(arguments: widths)
    func columnsLineUpCellByCellAndShowEveryCardWhole(width: Int) throws {
        guard Self.sideBySide.contains(width) else {
            expectTrue(BoardView.columns(sixBoards, width: width, style: plain) == nil, "\(width) is too narrow")
            expectTrue(sixBoards.map { Column($0).minimum }.reduce(0, +) + 3 * 5 > width)
            return
        }
        let text = try require(BoardView.columns(sixBoards, width: width, style: plain), "\(width) holds six columns")
        let grid = try Grid(text, width: width)
        expectEqual(grid.separators.count, sixBoards.count - 1)
        for (c, board) in sixBoards.enumerated() {
            let column = grid.column(c)
            let columnWidth = grid.width(of: c)
            expectTrue(columnWidth >= Column(board).minimum)
            for cell in column { expectTrue(DisplayWidth.of(cell) <= columnWidth, "\(cell)") }
            expectEqual(column[0], BoardView.header(board, style: plain, maximumWidth: columnWidth).text)
            let layout = Column(board)
            let shown = cards(in: column, prefixWidth: layout.prefixWidth)
            expectEqual(shown.map(\.index), board.cards.map(\.index))
            expectEqual(shown.map(\.id), board.cards.map(\.id))
            // Every word of every title, in order: nothing cut off, no line limit.
            for (card, shown) in zip(board.cards, shown) {
                expectEqual(shown.text.filter { $0 != " " }, card.title.filter { $0 != " " })
            }
        }
    }

    @Test(arguments: widths)
    func compactShowsOneLinePerCardCutWithAnEllipsis(width: Int) throws {
        // Compact or not, a column is as narrow as its minimum, which is the same.
        guard Self.sideBySide.contains(width) else {
            expectTrue(BoardView.columns(sixBoards, width: width, style: plain, compact: true) == nil, "\(width)")
            return
        }
        let text = try require(
            BoardView.columns(sixBoards, width: width, style: plain, compact: true), "\(width) holds six columns")
        let grid = try Grid(text, width: width)
        expectEqual(grid.cells.count, 2 + sixBoards.map { max(1, $0.cards.count) }.max()!)
        for (c, board) in sixBoards.enumerated() {
            let prefix = Column(board).prefixWidth
            for (card, row) in zip(board.cards, grid.column(c).dropFirst(2)) {
                let text = String(row.dropFirst(prefix))
                expectTrue(text == card.title || (text.hasSuffix("…") && card.title.hasPrefix(text.dropLast())))
            }
        }
    }

    func aTwoHundredColumnTerminalLeavesNoWidthUnusedWhileTitlesWrap() throws {
        let long = (0..<24).map {
            "Card \($0): a long title that says what has to be done, why it matters, who asked for it, "
                + "what was tried before, and which other cards it waits for"
        }
        let boards = [
            board("Todo", long), board("In Progress", ["Push Notification", "Analytics"]),
            board("Done", ["System Architecture", "Alert & Debugging"]),
        ]
        let text = try require(BoardView.columns(boards, width: 200, style: plain))
        let grid = try Grid(text, width: 200)
        // The short boards take what they need; the long one takes the rest, all of it.
        let widths = (0..<3).map { grid.width(of: $0) }
        expectEqual(widths[1], Column(boards[1]).natural)
        expectEqual(widths[2], Column(boards[2]).natural)
        expectEqual(widths[0], 200 - widths[1] - widths[2] - 6)
        // Each Todo card takes two lines, not more.
        expectEqual(grid.cells.count, 2 + 2 * 24)
    }

    func aBoardOfManyLongCardsGetsMoreThanABoardOfFewShortOnes() throws {
        let long = (0..<24).map { "Card \($0) has a title long enough to wrap in a narrow column of a board" }
        let boards = [
            board("Todo", long),
            board("In Progress", ["Push notifications for mobile clients when a card moves", "Analytics"]),
            board("Done", ["System Architecture", "Alert & Debugging", "Fix", "Docs"]),
        ]
        let text = try require(BoardView.columns(boards, width: 120, style: plain))
        let grid = try Grid(text, width: 120)
        let widths = (0..<3).map { grid.width(of: $0) }
        expectTrue(widths[0] > widths[1] && widths[0] > widths[2])
        // Less height than equal thirds would give.
        let equal = boards.map { Column($0).height(width: (120 - 6) / 3, compact: false) }.max()!
        expectTrue(grid.cells.count < equal)
    }

    func headersAreFittedAndRedAtTheLimit() throws {
        let boards = [
            board("Review", limit: 1, ["Cafe"]), board("Waiting for customer feedback from the client", ["x"]),
        ]
        let text = try require(BoardView.columns(boards, width: 40, style: plain))
        let header = text.split(separator: "\n")[0]
        expectTrue(header.hasPrefix("Review (1/1) │ Waiting for cust"))
        expectTrue(header.hasSuffix("… (1)"))
        let colored = try require(BoardView.columns(boards, width: 40, style: Style(enabled: true)))
        expectTrue(colored.hasPrefix("\u{1B}[1;31mReview (1/1)\u{1B}[0m"))
    }

    func colorDoesNotMoveTheSeparators() throws {
        let colored = try require(BoardView.columns(sixBoards, width: 200, style: Style(enabled: true)))
        let stripped = colored.replacing(#/\x1B\[[0-9;]*m/#, with: "")
        expectEqual(stripped, BoardView.columns(sixBoards, width: 200, style: plain))
    }

    func labelsAndDueDatesShowAfterTheTitle() throws {
        let cards = [
            CardText(index: 0, id: "k3f9p2", title: "Fix login", words: ["#bug", "#p1"], due: "11-23", overdue: true),
            CardText(index: 1, id: "p2x1q7", title: "Docs", due: "12-01"),
        ]
        let boards = [BoardText(title: "Todo", count: 2, limit: nil, cards: cards)]
        let text = try require(BoardView.columns(boards, width: 80, style: plain))
        expectTrue(text.contains("0 k3f9p2 Fix login #bug #p1 due 11-23\n"))
        expectTrue(text.contains("1 p2x1q7 Docs due 12-01\n"))
        let stacked = BoardView.stacked(boards, style: plain)
        expectTrue(stacked.contains("  0  k3f9p2  Fix login #bug #p1 due 11-23\n"))
        let colored = BoardView.stacked(boards, style: Style(enabled: true), width: 80)
        expectTrue(colored.contains("\u{1B}[1;31mdue 11-23\u{1B}[0m"))
        expectTrue(colored.contains("\u{1B}[2mdue 12-01\u{1B}[0m"))
    }
}

@Suite struct ColumnWidths {
    /// Random boards: every layout the widths allow is checked against what SPEC §4 asks.
    @Test func widthsAreFairUseAllTheSpaceAndStayInBounds() {
        var random = SplitMix(seed: 4)
        let vocabulary = ["a", "fix", "the", "board", "reliability", "漢字", "🧑‍💻", "supercalifragilistic", "CI"]
        for _ in 0..<200 {
            let count = Int(random.next() % 6) + 1
            var boards: [BoardText] = []
            for b in 0..<count {
                var titles: [String] = []
                for _ in 0..<Int(random.next() % 12) {
                    var words: [String] = []
                    for _ in 0..<Int(random.next() % 14 + 1) {
                        words.append(vocabulary[Int(random.next() % UInt64(vocabulary.count))])
                    }
                    titles.append(words.joined(separator: " "))
                }
                boards.append(board("Board \(b)", titles))
            }
            let columns = boards.map(Column.init)
            for total in stride(from: 30, through: 260, by: 23) {
                let available = total - 3 * (count - 1)
                guard let widths = ColumnLayout.widths(columns, total: total, compact: false) else {
                    expectTrue(columns.map(\.minimum).reduce(0, +) > available)
                    continue
                }
                for (column, width) in zip(columns, widths) {
                    expectTrue(width >= column.minimum && width <= column.natural)
                    // At least half of an equal share, unless the column needs less.
                    expectTrue(width >= min(column.natural, available / count / 2))
                }
                if columns.map(\.natural).reduce(0, +) <= available {
                    expectEqual(widths, columns.map(\.natural))
                } else {
                    expectEqual(widths.reduce(0, +), available, "width left unused while titles wrap")
                }
            }
        }
    }

    @Test func sharingOutWidensTheNarrowestFirst() {
        expectEqual(ColumnLayout.sharingOut(10, to: [10, 20, 30], upTo: [100, 100, 100]), [20, 20, 30])
        expectEqual(ColumnLayout.sharingOut(21, to: [10, 20, 30], upTo: [100, 100, 100]), [26, 25, 30])
        expectEqual(ColumnLayout.sharingOut(50, to: [10, 20, 30], upTo: [12, 100, 100]), [12, 49, 49])
        expectEqual(ColumnLayout.sharingOut(50, to: [10, 20], upTo: [12, 25]), [12, 25])
    }
}

@Suite struct StackedView {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case onATerminalTitlesWrapWithAHangingIndent
        case compactCutsEachCardToOneLine
        case offATerminalEachCardIsOneLineWhateverItsLength
        case aVeryNarrowTerminalStillFitsEveryLine
        case theTerminalViewChoosesColumnsOrStackedSections
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .onATerminalTitlesWrapWithAHangingIndent: onATerminalTitlesWrapWithAHangingIndent()
        case .compactCutsEachCardToOneLine: compactCutsEachCardToOneLine()
        case .offATerminalEachCardIsOneLineWhateverItsLength: offATerminalEachCardIsOneLineWhateverItsLength()
        case .aVeryNarrowTerminalStillFitsEveryLine: aVeryNarrowTerminalStillFitsEveryLine()
        case .theTerminalViewChoosesColumnsOrStackedSections: try theTerminalViewChoosesColumnsOrStackedSections()
        }
    }

    func onATerminalTitlesWrapWithAHangingIndent() {
        let text = BoardView.stacked(sixBoards, style: plain, width: 40)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            expectTrue(DisplayWidth.of(line) <= 40, "\(line)")
        }
        expectTrue(
            text.contains(
                """
                  0  id0x7  Write the CONTRIBUTING guide
                            for new contributors with
                            examples

                """))
        // Every word is there, and every card starts with its index and id.
        for board in sixBoards {
            for card in board.cards {
                expectTrue(text.contains("  \(card.index)  \(card.id)  "))
            }
        }
    }

    func compactCutsEachCardToOneLine() {
        let text = BoardView.stacked(sixBoards, style: plain, width: 40, compact: true)
        expectTrue(text.contains("  0  id0x7  Write the CONTRIBUTING guid…\n"))
        let cardLines = text.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("  (") }
        let cardCount: Int = sixBoards.reduce(0) { (sum: Int, board) -> Int in sum + board.cards.count }
        expectEqual(cardLines.count, cardCount)
        for line in cardLines { expectTrue(DisplayWidth.of(line) <= 40) }
    }

    func offATerminalEachCardIsOneLineWhateverItsLength() {
        let text = BoardView.stacked(sixBoards, style: plain)
        for board in sixBoards {
            for card in board.cards {
                expectTrue(text.contains("  \(card.index)  \(card.id)  \(card.title)\n"))
            }
        }
    }

    func aVeryNarrowTerminalStillFitsEveryLine() {
        for width in 12...30 {
            for line in BoardView.stacked(sixBoards, style: plain, width: width).split(separator: "\n") {
                expectTrue(DisplayWidth.of(line) <= max(width, 2 + 1 + 2 + 5 + 2 + 2), "\(width): \(line)")
            }
        }
    }

    func theTerminalViewChoosesColumnsOrStackedSections() throws {
        let wide = Terminal(isTerminal: true, width: 300, color: false)
        expectEqual(BoardView.render(sixBoards, on: wide), BoardView.columns(sixBoards, width: 300, style: plain))
        let narrow = Terminal(isTerminal: true, width: 80, color: false)
        expectEqual(BoardView.render(sixBoards, on: narrow), BoardView.stacked(sixBoards, style: plain, width: 80))
        let pipe = Terminal(isTerminal: false, width: 300, color: false)
        expectEqual(BoardView.render(sixBoards, on: pipe), BoardView.stacked(sixBoards, style: plain))
    }
}

@Suite struct CardTexts {
    @Test func aBoardBecomesItsViewWithEscapedText() {
        let items = [Item(id: ItemID("k3f9")!, title: "tab\there"), Item(id: ItemID("p2x1")!, title: "Docs")]
        let text = BoardText(Board(id: ItemID("b1")!, title: "To\u{1B}do", limit: 2, items: items))
        expectEqual(text.title, "To\\u{1B}do")
        expectTrue(text.count == 2 && text.limit == 2 && text.isFull)
        expectTrue(
            text.cards == [
                CardText(index: 0, id: "k3f9", title: "tab\\there"), CardText(index: 1, id: "p2x1", title: "Docs"),
            ])
    }
}
