import KanbanCore

// The screen model: the boards as columns (as `list` lays them out), the cursor, the
// selection, a drag's drop marker, and a status line; or a card in full, or the keys.

extension BoardUI {
    /// What the screen shows now.
    func screen() -> Screen {
        var lines: [ScreenLine]
        switch mode {
        case .detail(let item): lines = detailLines(item)
        case .help: lines = helpLines()
        case .stats(let board): lines = statsLines(board)
        default: lines = boardLines()
        }
        lines = Array(lines.prefix(boardRows).map { $0.truncated(to: width) })
        while lines.count < boardRows { lines.append(ScreenLine()) }
        lines.append(statusLine())
        return Screen(width: width, height: height, lines: Array(lines.suffix(height)))
    }

    // MARK: - The boards

    private var drag: Drag? {
        if case .dragging(let drag) = mode { return drag }
        return nil
    }

    private func boardLines() -> [ScreenLine] {
        var rows = Array(repeating: ScreenLine(), count: boardRows)
        let layout = layout(marker: drag?.target)
        for (c, geometry) in layout.columns.enumerated() {
            let cells = columnCells(geometry)
            let last = c == layout.columns.count - 1
            for r in rows.indices {
                if c > 0 {
                    rows[r].append(" ")
                    rows[r].append("│", width: 1, style: .dim)
                    rows[r].append(" ")
                }
                var cell = cells[r].truncated(to: geometry.width)
                if !last { cell.pad(to: geometry.width) }
                rows[r].append(cell)
            }
        }
        return rows
    }

    private func columnCells(_ geometry: ColumnGeometry) -> [ScreenLine] {
        var cells = Array(repeating: ScreenLine(), count: max(boardRows, 0))
        guard boardRows > 0 else { return cells }
        let board = kanban.boards[geometry.board]
        let drag = drag
        let refusing = drag?.target?.board == geometry.board && drag?.refusal != nil

        let text = BoardText(
            title: BoardText.marked(board.conflicts) + Escape.visible(board.title), count: board.items.count,
            limit: board.limit, cards: [])
        let header = BoardView.header(text, style: Style(enabled: false), maximumWidth: geometry.width)
        var headerStyle = TextStyle.bold
        if text.isFull { headerStyle.color = .red }
        if geometry.board == cursor.board { headerStyle.underline = true }
        if refusing { headerStyle = TextStyle(bold: true, reverse: true, color: .red) }
        cells[0] = ScreenLine(header.text, style: headerStyle)
        guard boardRows > 1 else { return cells }

        let above = geometry.first > 0 ? "↑\(geometry.first)" : ""
        var rule = ScreenLine(String(repeating: "─", count: max(0, geometry.width - above.count)), style: .dim)
        rule.append(above, width: above.count, style: .dim)
        cells[1] = rule
        guard boardRows > 2 else { return cells }

        if geometry.count == 0 && geometry.markerRow != 2 {
            cells[2] = ScreenLine(board.items.isEmpty ? Column.empty : "(none match)", style: .dim)
        }
        let dragged = Set(drag?.items ?? [])
        let cut = clipboard.map { $0.copy ? [] : Set($0.items) } ?? []
        for card in geometry.cards {
            let id = ItemID(card.text.id)
            let isCursor = geometry.board == cursor.board && card.position == cursor.position
            var base = TextStyle.plain
            if isCursor { base.reverse = true }
            if id.map({ dragged.contains($0) || cut.contains($0) }) ?? false { base.dim = true }
            let selected = id.map(selection.contains) ?? false
            for (l, line) in card.lines.prefix(card.shownLines).enumerated() where card.row + l < cells.count {
                var cell = ScreenLine()
                if l == 0 {
                    let index = String(card.text.index)
                    cell.append(
                        String(repeating: " ", count: max(0, geometry.prefix.indexWidth - index.count)) + index,
                        style: merged(.dim, base))
                    cell.append(
                        selected ? "*" : " ", style: merged(selected ? .colored(.yellow, bold: true) : .plain, base))
                    cell.append(
                        card.text.id
                            + String(repeating: " ", count: max(0, geometry.prefix.idWidth - card.text.id.count)),
                        style: merged(.dim, base))
                    cell.append(" ", style: base)
                } else {
                    cell.append(String(repeating: " ", count: geometry.prefix.width), style: base)
                }
                for (w, word) in line.words.enumerated() {
                    if w > 0 && word.spaced { cell.append(" ", style: base) }
                    cell.append(word.text, width: word.width, style: merged(Self.style(of: word.kind), base))
                }
                if isCursor { cell.pad(to: geometry.width, style: base) }
                cells[card.row + l] = cell
            }
        }
        if let row = geometry.markerRow, let drag, row < cells.count {
            let marker: ScreenLine
            if let refusal = drag.refusal {
                marker = ScreenLine("✗ " + refusal, style: TextStyle(bold: true, reverse: true, color: .red))
            } else {
                marker = ScreenLine(
                    drag.copy ? "+ copy here" : "→ move here",
                    style: TextStyle(bold: true, reverse: true, color: .green))
            }
            var line = marker.truncated(to: geometry.width)
            line.pad(to: geometry.width, style: marker.spans.first?.style ?? .plain)
            cells[row] = line
        }
        if let more = geometry.more, more.row < cells.count {
            cells[more.row] = ScreenLine("↓\(more.count) more", style: .dim)
        }
        return cells
    }

    private static func style(of kind: Word.Kind) -> TextStyle {
        switch kind {
        case .title: .plain
        case .label: .colored(.cyan)
        case .due: .dim
        case .overdue: .colored(.red, bold: true)
        }
    }

    /// `style` with the cursor's reverse video and a faded card's dimness of `base`.
    private func merged(_ style: TextStyle, _ base: TextStyle) -> TextStyle {
        var style = style
        if base.reverse { style.reverse = true }
        if base.dim { style.dim = true }
        return style
    }

    // MARK: - Pages

    /// Enter: the card in full, as `kanban show` prints it.
    private func detailLines(_ item: ItemID) -> [ScreenLine] {
        guard let location = find(item) else { return [ScreenLine("the card is gone", style: .dim)] }
        let text = CardDetail.text(kanban, .board(location), clock: clock, style: Style(enabled: false))
        var lines: [ScreenLine] = []
        for (n, row) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            lines += wrapped(String(row), style: n == 0 ? .bold : .plain)
        }
        return lines
    }

    /// `?`: the keys.
    private func helpLines() -> [ScreenLine] {
        var lines = [ScreenLine("kanban ui: the keys (any key goes back)", style: .bold), ScreenLine()]
        let keysWidth = Self.keyHelp.map { DisplayWidth.of($0.keys) }.max() ?? 0
        for (keys, does) in Self.keyHelp {
            lines += wrapped("  " + keys + String(repeating: " ", count: keysWidth - DisplayWidth.of(keys) + 2) + does)
        }
        return lines
    }

    /// `s`: the flow figures of a board over the last 30 days, as `kanban stats BOARD` prints them.
    private func statsLines(_ board: BoardID) -> [ScreenLine] {
        let title = kanban.boardIndex(id: board).map { kanban.boards[$0].title } ?? ""
        let figures = Flow(kanban, now: clock.now)
            .figures(in: .lastDays(upTo: clock.now), boards: [board])
        var lines = [ScreenLine("flow through \(q(title)) (any key goes back)", style: .bold), ScreenLine()]
        for line in FlowReport.text(figures, style: Style(enabled: false)).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            lines += wrapped(String(line))
        }
        return lines
    }

    /// `text` as lines of the screen's width. What comes before the words stays as it is
    /// (leading spaces; in `  keys  what they do`, the keys and the gap) and the words that
    /// do not fit continue under the first of them.
    private func wrapped(_ text: String, style: TextStyle = .plain) -> [ScreenLine] {
        guard DisplayWidth.of(text) > width else { return [ScreenLine(text, style: style)] }
        let leading = text.prefix { $0 == " " }.endIndex
        var split = leading
        if let gap = text[leading...].firstRange(of: "  ") {
            split = text[gap.upperBound...].firstIndex { $0 != " " } ?? text.endIndex
        }
        if DisplayWidth.of(text[..<split]) > width / 2 { split = leading }
        let head = String(text[..<split])
        let indent = DisplayWidth.of(head)
        let lines = Wrapping.wrap(Wrapping.words(of: String(text[split...])), width: max(1, width - indent))
        return lines.enumerated().map { l, line in
            ScreenLine((l == 0 ? head : String(repeating: " ", count: indent)) + line.plain, style: style)
        }
    }

    // MARK: - The status line

    private func statusLine() -> ScreenLine {
        var left = ScreenLine()
        var hints: [String] = []
        switch mode {
        case .prompt(let prompt):
            let label: String
            switch prompt.kind {
            case .add(let board):
                let title = kanban.boardIndex(id: board).map { kanban.boards[$0].title } ?? ""
                label = "new card in \(q(title)): "
            case .rename(let item): label = "new title for \(item): "
            case .filter: label = "show cards holding: "
            }
            left.append(label, style: .bold)
            // The end of a long line stays in view, where the typing is.
            let room = max(1, width - DisplayWidth.of(label) - 1)
            var text = prompt.text
            while DisplayWidth.of(text) > room { text.removeFirst() }
            left.append(text)
            left.append(" ", width: 1, style: .reverse)
            return left.truncated(to: width)
        case .confirmRemove(let items):
            let what =
                items.count == 1
                ? find(items[0]).map { "\(q(kanban[$0].title)) (\(items[0]))" } ?? "1 card" : Self.cards(items.count)
            left.append("remove \(what)? y removes, any other key keeps", style: .colored(.yellow, bold: true))
            return left.truncated(to: width)
        default:
            left.append(status.text, style: status.isError ? .colored(.red, bold: true) : .plain)
        }
        if let filter { hints.append("/\(Escape.visible(filter))") }
        if !selection.isEmpty { hints.append("\(selection.count) selected") }
        if let clipboard { hints.append("\(clipboard.items.count) \(clipboard.copy ? "copied" : "cut")") }
        let boardsHidden = window.count < kanban.boards.count
        if boardsHidden {
            hints.append(
                window.count == 1
                    ? "board \(window.lowerBound + 1) of \(kanban.boards.count)"
                    : "boards \(window.lowerBound + 1)-\(window.upperBound) of \(kanban.boards.count)")
        }
        hints.append("? keys  q quits")
        var hint = hints.joined(separator: "  ")
        // On a narrow screen the keys hint goes first; that other boards exist stays.
        if left.width + 2 + DisplayWidth.of(hint) > width, hints.count > 1 {
            hint = hints.dropLast().joined(separator: "  ")
        }
        let hintWidth = DisplayWidth.of(hint)
        // What happened comes first: the hints only where there is room for both.
        guard left.width + 2 + hintWidth <= width else { return left.truncated(to: width) }
        var line = left.truncated(to: width - hintWidth - 2)
        line.pad(to: width - hintWidth)
        line.append(hint, width: hintWidth, style: .dim)
        return line
    }
}
