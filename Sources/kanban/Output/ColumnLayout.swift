/// One board laid out as a column: its header, and each card as index, id and wrapped words.
struct Column {
    let board: BoardText
    /// Each card's words, measured once.
    let cards: [[Word]]
    let indexWidth: Int
    let idWidth: Int
    /// The width that shows every card on one line and the whole header.
    let natural: Int
    /// The narrowest the column may be: room for the index, the id and a few words, and
    /// for its longest word unless that is very long, so that words are rarely cut.
    let minimum: Int

    /// Shown in a column without cards.
    static let empty = "(empty)"

    init(_ board: BoardText) {
        self.board = board
        cards = board.cards.map(Wrapping.words(of:))
        indexWidth = String(board.cards.last?.index ?? 0).count
        idWidth = board.cards.lazy.map(\.id.count).max() ?? 0
        let prefix = indexWidth + 1 + idWidth + 1
        var natural = BoardView.header(board, style: Style(enabled: false)).width
        if board.showsEmpty { natural = max(natural, DisplayWidth.of(Self.empty)) }
        var longestWord = 0
        for words in cards {
            natural = max(natural, prefix + Wrapping.truncate(words, to: .max).width)
            longestWord = max(longestWord, words.lazy.map(\.width).max() ?? 0)
        }
        self.natural = natural
        let text = min(max(BoardView.minimumTextWidth, longestWord), BoardView.maximumWordWidth)
        minimum = min(natural, max(BoardView.minimumColumnWidth, prefix + text))
    }

    /// The columns before a card's text: the index, right-aligned, and the id.
    var prefixWidth: Int { indexWidth + 1 + idWidth + 1 }

    /// The lines of each card at `width`: one when `compact`, cut with `…`.
    func lines(width: Int, compact: Bool) -> [[Line]] {
        let textWidth = max(1, width - prefixWidth)
        return cards.map { compact ? [Wrapping.truncate($0, to: textWidth)] : Wrapping.wrap($0, width: textWidth) }
    }

    /// The lines the column takes at `width`, header and rule included.
    func height(width: Int, compact: Bool) -> Int {
        if cards.isEmpty { return board.showsEmpty ? 3 : 2 }
        if compact { return 2 + cards.count }
        let textWidth = max(1, width - prefixWidth)
        return cards.reduce(2) { $0 + Wrapping.lineCount($1, width: textWidth) }
    }

    /// The column's rows at `width`, each with the columns it takes.
    func cells(width: Int, style: Style, compact: Bool) -> [BoardView.Cell] {
        var cells = [
            BoardView.header(board, style: style, maximumWidth: width),
            BoardView.Cell(text: style.dim(String(repeating: "─", count: width)), width: width),
        ]
        if board.showsEmpty {
            cells.append(BoardView.Cell(text: style.dim(Self.empty), width: DisplayWidth.of(Self.empty)))
        }
        let indent = String(repeating: " ", count: prefixWidth)
        for (card, lines) in zip(board.cards, lines(width: width, compact: compact)) {
            for (l, line) in lines.enumerated() {
                let prefix =
                    l > 0
                    ? indent
                    : pad(String(card.index), to: indexWidth, style: style, right: true) + " "
                        + pad(card.id, to: idWidth, style: style, right: false) + " "
                cells.append(BoardView.Cell(text: prefix + line.text(style: style), width: prefixWidth + line.width))
            }
        }
        return cells
    }

    /// `text`, dimmed, padded with spaces to `width` on the left (`right`-aligned) or the right.
    private func pad(_ text: String, to width: Int, style: Style, right: Bool) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + style.dim(text) : style.dim(text) + padding
    }
}

/// How wide each column is when boards stand side by side.
///
/// Each column gets a width between its minimum and its natural width (every card on one
/// line). When all natural widths fit, that is it. Otherwise the width is shared in two
/// steps: first the view is made as short as it can be, giving width to the tallest columns,
/// but never taking a column below half of an equal share (or its minimum); then what is
/// left is shared out fairly: the narrowest columns that still wrap are widened first, up
/// to their natural width. So a board of short cards takes only what it needs, a board of
/// long titles takes more, and no width stays unused while titles wrap.
enum ColumnLayout {
    /// The columns of a separator: ` │ `.
    static let gap = 3

    /// The widths of `columns` within `total` columns, or `nil` when even their minimums do
    /// not fit.
    static func widths(_ columns: [Column], total: Int, compact: Bool) -> [Int]? {
        let count = columns.count
        guard count > 0 else { return [] }
        let available = total - gap * (count - 1)
        let natural = columns.map(\.natural)
        guard columns.reduce(0, { $0 + $1.minimum }) <= available else { return nil }
        if natural.reduce(0, +) <= available { return natural }

        var heights = columns.map { _ in [Int: Int]() }
        func height(_ c: Int, _ width: Int) -> Int {
            if let known = heights[c][width] { return known }
            let value = columns[c].height(width: width, compact: compact)
            heights[c][width] = value
            return value
        }
        var floors = columns.map { min($0.natural, max($0.minimum, available / count / 2)) }
        if floors.reduce(0, +) > available { floors = columns.map(\.minimum) }
        /// The narrowest width of column `c` that is at most `limit` lines tall.
        func narrowest(_ c: Int, within limit: Int) -> Int {
            var low = floors[c]
            var high = natural[c]
            while low < high {
                let middle = (low + high) / 2
                if height(c, middle) <= limit { high = middle } else { low = middle + 1 }
            }
            return high
        }
        func fits(_ limit: Int) -> Bool {
            (0..<count).reduce(0) { $0 + narrowest($1, within: limit) } <= available
        }
        // The shortest view: the least height at which the narrowest widths fit.
        var low = (0..<count).map { height($0, natural[$0]) }.max()!
        var high = max(low, (0..<count).map { height($0, floors[$0]) }.max()!)
        var widths = floors
        if fits(high) {
            while low < high {
                let middle = (low + high) / 2
                if fits(middle) { high = middle } else { low = middle + 1 }
            }
            widths = (0..<count).map { narrowest($0, within: high) }
        }
        return sharingOut(available - widths.reduce(0, +), to: widths, upTo: natural)
    }

    /// `widths` with `spare` columns added, the narrowest first, none past its `limits`.
    static func sharingOut(_ spare: Int, to widths: [Int], upTo limits: [Int]) -> [Int] {
        var widths = widths
        var spare = spare
        while spare > 0 {
            let open = widths.indices.filter { widths[$0] < limits[$0] }
            guard let narrowest = open.map({ widths[$0] }).min() else { break }
            let lowest = open.filter { widths[$0] == narrowest }
            // Raise the narrowest to the next width that matters: another column's, or a limit.
            let next = min(
                open.map { widths[$0] }.filter { $0 > narrowest }.min() ?? .max,
                lowest.map { limits[$0] }.min()!)
            let step = min(next - narrowest, spare / lowest.count)
            if step == 0 {
                for c in lowest.prefix(spare) { widths[c] += 1 }
                break
            }
            for c in lowest { widths[c] += step }
            spare -= step * lowest.count
        }
        return widths
    }
}
