import KanbanCore

/// Renders boards as text: side-by-side columns on a terminal wide enough, stacked
/// sections otherwise, or TSV for pipes.
enum BoardView {
    /// Columns narrower than this stack instead.
    static let minimumColumnWidth = 16
    /// Columns wider than this waste the screen; titles wrap instead.
    static let maximumColumnWidth = 40
    /// A card in a column takes at most this many lines.
    static let maximumCardLines = 4

    /// The view for `boards` on `terminal`: columns when it is a terminal they fit on.
    static func render(_ boards: [Board], on terminal: Terminal) -> String {
        let style = Style(enabled: terminal.color)
        if terminal.isTerminal, let view = columns(boards, width: terminal.width, style: style) {
            return view
        }
        return stacked(boards, style: style)
    }

    // MARK: - Stacked

    /// One section per board: a header, then one line per card with its index and id.
    static func stacked(_ boards: [Board], style: Style) -> String {
        var out = ""
        for (b, board) in boards.enumerated() {
            if b > 0 { out += "\n" }
            out += header(board, style: style).text + "\n"
            if board.items.isEmpty {
                out += "  " + style.dim("(empty)") + "\n"
                continue
            }
            let indexWidth = String(board.items.count - 1).count
            let idWidth = board.items.lazy.map(\.id.rawValue.count).max() ?? 0
            for (i, item) in board.items.enumerated() {
                let index = String(i)
                out += "  " + String(repeating: " ", count: indexWidth - index.count) + index + "  "
                out += style.dim(item.id.rawValue) + String(repeating: " ", count: idWidth - item.id.rawValue.count)
                out += "  " + Escape.visible(item.title) + "\n"
            }
        }
        return out
    }

    // MARK: - Columns

    /// Boards side by side, or `nil` when `width` leaves a column too narrow.
    static func columns(_ boards: [Board], width: Int, style: Style) -> String? {
        guard !boards.isEmpty else { return "" }
        let columnWidth = min(maximumColumnWidth, (width - 3 * (boards.count - 1)) / boards.count)
        guard columnWidth >= minimumColumnWidth else { return nil }
        let cells = boards.map { column($0, width: columnWidth, style: style) }
        let height = cells.map(\.count).max() ?? 0
        var out = ""
        for row in 0..<height {
            var line = ""
            for (c, column) in cells.enumerated() {
                let cell = row < column.count ? column[row] : Cell(text: "", width: 0)
                if c > 0 { line += style.dim(" │") + " " }
                line += cell.text
                if c < cells.count - 1 { line += String(repeating: " ", count: max(0, columnWidth - cell.width)) }
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

    private static func column(_ board: Board, width: Int, style: Style) -> [Cell] {
        var cells = [
            header(board, style: style, maximumWidth: width),
            Cell(text: style.dim(String(repeating: "─", count: width)), width: width),
        ]
        if board.items.isEmpty {
            cells.append(Cell(text: style.dim("(empty)"), width: 7))
        }
        let idWidth = board.items.lazy.map(\.id.rawValue.count).max() ?? 0
        for item in board.items {
            // A card takes at most a few lines; `list --tsv` or a narrow terminal shows it whole.
            let lines = wrap(Escape.visible(item.title), width: width - idWidth - 1, maximumLines: maximumCardLines)
            for (l, line) in lines.enumerated() {
                let prefix =
                    l == 0
                    ? style.dim(item.id.rawValue) + String(repeating: " ", count: idWidth - item.id.rawValue.count + 1)
                    : String(repeating: " ", count: idWidth + 1)
                cells.append(Cell(text: prefix + line, width: idWidth + 1 + DisplayWidth.of(line)))
            }
        }
        return cells
    }

    /// `Todo (4)`, or `Review (2/2)` with a limit; red when the board is at or over it.
    /// The title gives way to the count; in a very narrow column both are cut.
    private static func header(_ board: Board, style: Style, maximumWidth: Int = .max) -> Cell {
        let count = board.limit.map { "(\(board.items.count)/\($0))" } ?? "(\(board.items.count))"
        let title = truncate(Escape.visible(board.title), to: max(1, maximumWidth - count.count - 1))
        let whole = title + " " + count
        let plain = truncate(whole, to: maximumWidth)
        let text =
            board.isFull ? style.red(plain) : plain == whole ? style.bold(title) + " " + count : style.bold(plain)
        return Cell(text: text, width: DisplayWidth.of(plain))
    }

    // MARK: - Text fitting

    /// Lines of at most `width` columns, broken at spaces where possible, and at most
    /// `maximumLines` of them: the last ends with `…` when the text goes on. One pass over
    /// the text, however long it is.
    static func wrap(_ text: String, width: Int, maximumLines: Int = .max) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        /// Ends the current line; false once no more lines may be started.
        func endLine() -> Bool {
            lines.append(line)
            line = ""
            lineWidth = 0
            return lines.count < maximumLines
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = DisplayWidth.of(word)
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 && !endLine() { return ellipsized(lines, width: width) }
            // A word wider than the line is cut where the line ends.
            for character in word {
                let characterWidth = DisplayWidth.of(character)
                if lineWidth + characterWidth > width && lineWidth > 0 && !endLine() {
                    return ellipsized(lines, width: width)
                }
                line.append(character)
                lineWidth += characterWidth
            }
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `lines` with the last ending in `…`, for text that goes on past them.
    private static func ellipsized(_ lines: [String], width: Int) -> [String] {
        var lines = lines
        let last = lines.removeLast()
        lines.append(DisplayWidth.of(last) < width ? last + "…" : truncate(last + "…", to: width))
        return lines
    }

    /// `text` cut to `width` columns, ending with `…` when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 1 else { return String(repeating: "…", count: max(0, width)) }
        return prefix(of: text, width: width - 1).text + "…"
    }

    /// The longest prefix of `text` that fits in `width` columns (at least one character).
    private static func prefix(of text: String, width: Int) -> (text: String, width: Int) {
        var result = ""
        var used = 0
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width && !result.isEmpty { break }
            result.append(character)
            used += w
        }
        return (result, used)
    }

    // MARK: - TSV

    /// One line per item: board, index, id, title, separated by tabs. Titles are escaped
    /// like everywhere else, so a tab inside one shows as `\t` and never splits a field.
    static func tsv(_ boards: [Board]) -> String {
        var out = ""
        for board in boards {
            let title = Escape.visible(board.title)
            for (index, item) in board.items.enumerated() {
                out += "\(title)\t\(index)\t\(item.id.rawValue)\t\(Escape.visible(item.title))\n"
            }
        }
        return out
    }
}
