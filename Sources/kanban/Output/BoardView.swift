import KanbanCore

/// Renders boards as text: side-by-side columns on a terminal wide enough, stacked
/// sections otherwise, or TSV for pipes.
enum BoardView {
    /// Columns narrower than this stack instead (unless their content is narrower).
    static let minimumColumnWidth = 16
    /// The columns a column leaves for card text at the least, besides its index and id.
    static let minimumTextWidth = 12
    /// A column makes room for words up to this wide; longer ones may be cut.
    static let maximumWordWidth = 20

    /// The view for `boards` on `terminal`: columns when it is a terminal they fit on.
    static func render(_ boards: [Board], on terminal: Terminal, compact: Bool = false) -> String {
        render(boards.map { BoardText($0) }, on: terminal, compact: compact)
    }

    /// The view for `boards` on `terminal`: columns when it is a terminal they fit on,
    /// stacked sections wrapped to its width when it is too narrow, and plain stacked
    /// sections, one line per card, when it is not a terminal.
    static func render(_ boards: [BoardText], on terminal: Terminal, compact: Bool = false) -> String {
        let style = Style(enabled: terminal.color)
        guard terminal.isTerminal else { return stacked(boards, style: style) }
        if let view = columns(boards, width: terminal.width, style: style, compact: compact) { return view }
        return stacked(boards, style: style, width: terminal.width, compact: compact)
    }

    // MARK: - Stacked

    /// One section per board: a header, then one line per card with its index and id.
    static func stacked(_ boards: [Board], style: Style) -> String {
        stacked(boards.map { BoardText($0) }, style: style)
    }

    /// One section per board: a header, then each card with its index and id. With a
    /// `width` (a terminal's), titles wrap with a hanging indent under the title, or are
    /// cut to one line when `compact`; without one, each card is one line, for pipes.
    static func stacked(_ boards: [BoardText], style: Style, width: Int? = nil, compact: Bool = false) -> String {
        var out = ""
        for (b, board) in boards.enumerated() {
            if b > 0 { out += "\n" }
            out += header(board, style: style, maximumWidth: width ?? .max).text + "\n"
            if board.cards.isEmpty {
                if board.showsEmpty { out += "  " + style.dim(Column.empty) + "\n" }
                continue
            }
            let indexWidth = String(board.cards.last!.index).count
            let idWidth = board.cards.lazy.map(\.id.count).max() ?? 0
            let prefixWidth = 2 + indexWidth + 2 + idWidth + 2
            // Below a few columns of text, continuation lines start further left.
            let indent = width.map { $0 - prefixWidth >= minimumTextWidth ? prefixWidth : min(prefixWidth, 4) } ?? 0
            for card in board.cards {
                let index = String(card.index)
                out += "  " + String(repeating: " ", count: indexWidth - index.count) + style.dim(index) + "  "
                out += style.dim(card.id) + String(repeating: " ", count: idWidth - card.id.count) + "  "
                guard let width else {
                    // Not a terminal: the title as stored (escaped), then labels and due date.
                    var details = Line()
                    for word in Wrapping.details(of: card) { details.append(word) }
                    out += card.title + (details.words.isEmpty ? "" : " " + details.text(style: style)) + "\n"
                    continue
                }
                let words = Wrapping.words(of: card)
                let lines =
                    compact
                    ? [Wrapping.truncate(words, to: max(1, width - prefixWidth))]
                    : Wrapping.wrap(words, width: width - indent, firstWidth: width - prefixWidth)
                for (l, line) in lines.enumerated() {
                    if l > 0 { out += String(repeating: " ", count: indent) }
                    out += line.text(style: style) + "\n"
                }
            }
        }
        return out
    }

    // MARK: - Columns

    /// Boards side by side, or `nil` when `width` leaves a column too narrow.
    static func columns(_ boards: [Board], width: Int, style: Style) -> String? {
        columns(boards.map { BoardText($0) }, width: width, style: style)
    }

    /// Boards side by side, each column as wide as its content asks within a fair share
    /// of `width` (see ``ColumnLayout``), or `nil` when `width` leaves a column too narrow.
    static func columns(_ boards: [BoardText], width: Int, style: Style, compact: Bool = false) -> String? {
        guard !boards.isEmpty else { return "" }
        let columns = boards.map(Column.init)
        guard let widths = ColumnLayout.widths(columns, total: width, compact: compact) else { return nil }
        let cells = zip(columns, widths).map { $0.cells(width: $1, style: style, compact: compact) }
        let height = cells.map(\.count).max() ?? 0
        let separator = style.dim(" │") + " "
        var out = ""
        for row in 0..<height {
            var line = ""
            for (c, column) in cells.enumerated() {
                let cell = row < column.count ? column[row] : Cell(text: "", width: 0)
                if c > 0 { line += separator }
                line += cell.text
                if c < cells.count - 1 { line += String(repeating: " ", count: max(0, widths[c] - cell.width)) }
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    /// Text and the columns it takes (escape codes take none).
    struct Cell {
        var text: String
        var width: Int
    }

    /// `Todo (4)`, or `Review (2/2)` with a limit; red when the board is at or over it.
    /// Filtered, the cards shown come first: `Todo (3 of 11)`, `Review (1 of 2/2)`.
    /// The title gives way to the count; in a very narrow column both are cut.
    static func header(_ board: BoardText, style: Style, maximumWidth: Int = .max) -> Cell {
        let shown = board.filtered ? "\(board.cards.count) of " : ""
        let count = "(" + shown + String(board.count) + (board.limit.map { "/\($0)" } ?? "") + ")"
        let title = truncate(board.title, to: max(1, maximumWidth - count.count - 1))
        let whole = title + " " + count
        let plain = truncate(whole, to: maximumWidth)
        let text =
            board.isFull ? style.red(plain) : plain == whole ? style.bold(title) + " " + count : style.bold(plain)
        return Cell(text: text, width: DisplayWidth.of(plain))
    }

    // MARK: - Text fitting

    /// `text` wrapped to `width` columns, as card titles wrap.
    static func wrap(_ text: String, width: Int) -> [String] {
        Wrapping.wrap(Wrapping.words(of: text), width: width).map(\.plain)
    }

    /// `text` cut to `width` columns, ending with `…` when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 1 else { return String(repeating: "…", count: max(0, width)) }
        return String(Wrapping.prefix(of: text, width: width - 1, atLeastOne: false).0) + "…"
    }
}
