import KanbanCore

// Where things are on the screen: column widths, the cards in view, and what is under the
// pointer. Only the cards in view are wrapped; column widths are computed once per change
// of the kanban, the filter or the size.

/// The columns of a screen: for each board in view, where it is and the cards it shows.
struct BoardLayout: Equatable {
    var columns: [ColumnGeometry]

    /// The column the pointer at `column` belongs to.
    func column(at x: Int) -> ColumnGeometry? {
        columns.first { $0.reach.contains(x) }
    }

    func column(board: Int) -> ColumnGeometry? {
        columns.first { $0.board == board }
    }
}

/// One board's column on the screen.
struct ColumnGeometry: Equatable {
    var board: Int
    var x: Int
    var width: Int
    /// The screen columns the pointer counts as this board's: its own and the gap after it.
    var reach: Range<Int>
    /// The position (among the cards shown) of the first card in view.
    var first: Int
    /// How many cards the board shows.
    var count: Int
    var prefix: ColumnPrefix
    var cards: [PlacedCard]
    /// The row of the drop marker, while a drag points here.
    var markerRow: Int?
    /// The last row, when cards do not all fit: it says how many are below.
    var more: (row: Int, count: Int)?

    static func == (lhs: ColumnGeometry, rhs: ColumnGeometry) -> Bool {
        lhs.board == rhs.board && lhs.x == rhs.x && lhs.width == rhs.width && lhs.reach == rhs.reach
            && lhs.first == rhs.first && lhs.count == rhs.count && lhs.cards == rhs.cards
            && lhs.markerRow == rhs.markerRow && lhs.more?.row == rhs.more?.row && lhs.more?.count == rhs.more?.count
    }
}

/// A card in view: its text, its lines, and the screen rows they take.
struct PlacedCard: Equatable {
    var position: Int
    var text: CardText
    var lines: [Line]
    /// The screen row of its first line.
    var row: Int
    /// How many of its lines are in view (the last card may be cut).
    var shownLines: Int
}

/// A large board as measured for its column: a sample of its cards, and the widest id.
struct MeasuredBoard {
    var title: String
    var limit: Int?
    var column: Column
    var idWidth: Int
    /// Whether the board had a recorded conflict (its header then starts with `! `).
    var conflicted = false
}

/// The columns before a card's title: the index, right-aligned, a mark, and the id, as `list` shows them.
struct ColumnPrefix: Equatable {
    var indexWidth: Int
    var idWidth: Int

    var width: Int { indexWidth + 1 + idWidth + 1 }
}

extension BoardUI {
    /// Boards of more cards than this are measured on this many of them, evenly spread
    /// (with the last and the longest), to size the columns: `list`'s layout wraps every
    /// card at many widths, which takes too long for a keypress on thousands of cards.
    /// Such a board is measured once, and again only when its title or limit changes, the
    /// filter changes or it comes down to this many: a card more or less does not move
    /// the columns. Up to this many, the columns are exactly `list`'s.
    static let sampleSize = 200

    /// Rows for the boards: all but the status line.
    var boardRows: Int { max(0, height - 1) }

    /// Rows for cards in a column, below its header and rule.
    var cardRows: Int { max(0, boardRows - 2) }

    /// Sizes the columns: every board side by side when they fit at `list`'s widths, else
    /// the most boards around the cursor's that do.
    mutating func arrangeColumns() {
        let count = kanban.boards.count
        var columns: [Column] = []
        prefixes = []
        for b in 0..<count {
            let (column, prefix) = measure(b)
            columns.append(column)
            prefixes.append(prefix)
        }
        guard count > 0 else {
            window = 0..<0
            widths = []
            return
        }
        func fit(_ range: Range<Int>) -> [Int]? {
            ColumnLayout.widths(Array(columns[range]), total: width, compact: false)
        }
        if let all = fit(0..<count) {
            window = 0..<count
            widths = all
            return
        }
        let b = min(max(0, cursor.board), count - 1)
        // Grow from the boards in view when they still fit (the screen does not jump), else
        // from the cursor's board, towards where the cursor came from first; either way as
        // far as the width allows, so that a wider screen shows more boards.
        let leftFirst = b >= window.upperBound
        let keep = window.contains(b) && window.upperBound <= count && fit(window) != nil
        var range = keep ? window : b..<b + 1
        while true {
            let right = range.upperBound < count ? range.lowerBound..<range.upperBound + 1 : nil
            let left = range.lowerBound > 0 ? range.lowerBound - 1..<range.upperBound : nil
            let order = leftFirst ? [left, right] : [right, left]
            guard let next = order.compactMap({ $0 }).first(where: { fit($0) != nil }) else { break }
            range = next
        }
        window = range
        widths = fit(range) ?? [width]
    }

    /// Board `b` as a ``Column`` for ``ColumnLayout`` (all the cards it shows, or a sample),
    /// and the columns before its titles.
    private mutating func measure(_ b: Int) -> (Column, ColumnPrefix) {
        let board = kanban.boards[b]
        let count = shownCount(b)
        guard count > Self.sampleSize else {
            measured[board.id] = nil
            return (sampleColumn(b), prefix(of: b))
        }
        let indexWidth = String(boardIndex(b, position: count - 1)).count
        if let known = measured[board.id], known.title == board.title, known.limit == board.limit,
            known.conflicted == !board.conflicts.isEmpty
        {
            return (known.column, ColumnPrefix(indexWidth: indexWidth, idWidth: known.idWidth))
        }
        let column = sampleColumn(b)
        let idWidth = column.board.cards.lazy.map(\.id.utf8.count).max() ?? 0
        measured[board.id] = MeasuredBoard(
            title: board.title, limit: board.limit, column: column, idWidth: idWidth,
            conflicted: !board.conflicts.isEmpty)
        return (column, ColumnPrefix(indexWidth: indexWidth, idWidth: idWidth))
    }

    /// A board as a ``Column`` for ``ColumnLayout``: all the cards it shows, or a sample.
    private func sampleColumn(_ b: Int) -> Column {
        let board = kanban.boards[b]
        let count = shownCount(b)
        var positions = Array(0..<count)
        if count > Self.sampleSize {
            positions = (0..<Self.sampleSize).map { $0 * (count - 1) / (Self.sampleSize - 1) }
            var longest = 0
            var longestLength = -1
            for position in 0..<count {
                let length = board.items[boardIndex(b, position: position)].title.utf8.count
                if length > longestLength { (longest, longestLength) = (position, length) }
            }
            if !positions.contains(longest) { positions = (positions + [longest]).sorted() }
        }
        return Column(
            BoardText(board, showing: positions.map { boardIndex(b, position: $0) }, today: clock.today))
    }

    private func prefix(of b: Int) -> ColumnPrefix {
        let count = shownCount(b)
        guard count > 0 else { return ColumnPrefix(indexWidth: 1, idWidth: 0) }
        let items = kanban.boards[b].items
        var idWidth = 0
        for position in 0..<count {
            idWidth = max(idWidth, items[boardIndex(b, position: position)].id.rawValue.utf8.count)
            if idWidth == ItemID.maximumLength { break }
        }
        return ColumnPrefix(indexWidth: String(boardIndex(b, position: count - 1)).count, idWidth: idWidth)
    }

    /// The width of board `b`'s column, if it is in view.
    func columnWidth(of b: Int) -> Int? {
        window.contains(b) ? widths[b - window.lowerBound] : nil
    }

    /// The columns card titles of board `b` wrap at.
    func textWidth(of b: Int) -> Int {
        let prefix = prefixes.indices.contains(b) ? prefixes[b].width : 0
        return max(1, (columnWidth(of: b) ?? max(1, width / 2)) - prefix)
    }

    /// The lines the card shown at `position` on board `b` takes.
    func cardHeight(_ b: Int, position: Int, textWidth: Int) -> Int {
        let text = BoardText(kanban.boards[b], showing: [boardIndex(b, position: position)], today: clock.today)
        return Wrapping.lineCount(Wrapping.words(of: text.cards[0]), width: textWidth)
    }

    // MARK: - The layout

    /// The columns in view and their cards; with `marker`, a row for the drop marker is
    /// made at that slot (the cards below it move down one row).
    func layout(marker: DropTarget? = nil) -> BoardLayout {
        var columns: [ColumnGeometry] = []
        var x = 0
        for (offset, b) in window.enumerated() {
            let width = widths[offset]
            let last = offset == window.count - 1
            let reach = x..<(last ? x + width + 1 : x + width + ColumnLayout.gap)
            columns.append(
                column(b, x: x, width: width, reach: reach, marker: marker.flatMap { $0.board == b ? $0.slot : nil }))
            x += width + ColumnLayout.gap
        }
        return BoardLayout(columns: columns)
    }

    private func column(_ b: Int, x: Int, width: Int, reach: Range<Int>, marker: Int?) -> ColumnGeometry {
        let count = shownCount(b)
        let first = firstShown(b)
        let end = boardRows
        let candidates = first..<min(count, first + max(0, end - 2))
        let texts = BoardText(
            kanban.boards[b], showing: candidates.map { boardIndex(b, position: $0) }, today: clock.today
        ).cards
        // A large board's ids were measured on a sample: one in view may be longer.
        var prefix = prefixes[b]
        prefix.idWidth = max(prefix.idWidth, texts.lazy.map(\.id.utf8.count).max() ?? 0)
        let textWidth = max(1, width - prefix.width)
        var geometry = ColumnGeometry(
            board: b, x: x, width: width, reach: reach, first: first, count: count, prefix: prefix, cards: [])
        guard end > 2 else { return geometry }
        var row = 2
        for (offset, text) in texts.enumerated() {
            let position = first + offset
            if marker == position {
                geometry.markerRow = row
                row += 1
            }
            guard row < end else { break }
            let lines = Wrapping.wrap(Wrapping.words(of: text), width: textWidth)
            geometry.cards.append(
                PlacedCard(
                    position: position, text: text, lines: lines, row: row, shownLines: min(lines.count, end - row)))
            row += lines.count
        }
        let after = first + geometry.cards.count
        if marker == after && geometry.markerRow == nil && row < end {
            geometry.markerRow = row
            row += 1
        }
        let cut = geometry.cards.last.map { $0.shownLines < $0.lines.count } ?? false
        if after < count || cut {
            let moreRow = end - 1
            geometry.cards.removeAll { $0.row >= moreRow && $0.row > 2 }
            for index in geometry.cards.indices {
                geometry.cards[index].shownLines = min(
                    geometry.cards[index].shownLines, moreRow - geometry.cards[index].row)
            }
            if let markerRow = geometry.markerRow, markerRow >= moreRow { geometry.markerRow = nil }
            let whole = geometry.cards.prefix { $0.shownLines == $0.lines.count }.count
            if moreRow > 2 { geometry.more = (moreRow, count - first - whole) }
        }
        return geometry
    }

    // MARK: - Under the pointer

    /// The slot a drop at this cell would land in: between the cards in view (the upper
    /// half of a card is the slot before it, the lower half the slot after it; a board's
    /// header is its first slot in view, the space below its cards its last); `nil`
    /// outside every board.
    func target(column x: Int, row y: Int, in layout: BoardLayout) -> DropTarget? {
        guard y >= 0, y < boardRows, let geometry = layout.column(at: x) else { return nil }
        if y < 2 { return DropTarget(board: geometry.board, slot: geometry.first) }
        for card in geometry.cards where y < card.row + max(1, card.shownLines) {
            guard y >= card.row else { break }
            let upper = y - card.row < (card.lines.count + 1) / 2
            return DropTarget(board: geometry.board, slot: upper ? card.position : card.position + 1)
        }
        return DropTarget(board: geometry.board, slot: geometry.cards.last.map { $0.position + 1 } ?? geometry.first)
    }

    /// The card under this cell, as its board and position among the cards shown.
    func card(column x: Int, row y: Int, in layout: BoardLayout) -> (board: Int, position: Int)? {
        guard y >= 2, y < boardRows, let geometry = layout.column(at: x), x < geometry.x + geometry.width else {
            return nil
        }
        for card in geometry.cards where y >= card.row && y < card.row + card.shownLines {
            return (geometry.board, card.position)
        }
        return nil
    }
}
