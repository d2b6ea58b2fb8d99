import KanbanCore

// The cumulative flow diagram on a terminal (README: Flow): a stacked area chart drawn
// with block characters, the last board (done, usually) at the bottom, one color per board
// when color is on and one shade per board when it is off, fitted to the width, with a
// count axis, the first and last dates and a legend.

/// The colors of the boards' bands, by board index (repeating past the end): one list for
/// the terminal and one for the SVG, in the same order.
enum FlowPalette {
    /// ANSI foreground codes: blue, yellow, green, magenta, cyan, red, then their bright
    /// variants.
    static let ansi = ["34", "33", "32", "35", "36", "31", "94", "93", "92", "95", "96", "91"]
    /// The SVG's fills: distinct hues that read on white.
    static let hex = [
        "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#e15759",
        "#edc948", "#ff9da7", "#9c755f", "#bab0ac", "#1f3b73", "#8cd17d",
    ]
    /// The block each band is drawn with when color is off, so that bands stay apart.
    static let shades = ["█", "▓", "▒", "░", "#", "=", "+", ":", "*", "o", "%", "~"]

    static func ansi(_ board: Int) -> String { ansi[board % ansi.count] }
    static func hex(_ board: Int) -> String { hex[board % hex.count] }
    static func shade(_ board: Int) -> String { shades[board % shades.count] }
}

enum FlowChart {
    /// The chart, every line at most `width` columns wide, the plot `height` lines tall.
    static func render(_ flow: CumulativeFlow, width: Int, height: Int = 12, style: Style) -> String {
        let height = max(1, height)
        let totals = flow.counts.map { $0.reduce(0, +) }
        let top = max(totals.max() ?? 0, 1)
        let labelWidth = String(top).count
        // label, a space, the axis, then the plot
        let plotWidth = max(1, width - labelWidth - 2)
        var out = ""
        if flow.days.isEmpty {
            out += "(no days in the window)\n"
        } else {
            // Each column shows one day: the days spread over the columns, or, when there are
            // more days than columns, the last day of each column's stretch (so the last
            // column is the last day).
            let count = flow.days.count
            let columns = (0..<plotWidth).map { count <= plotWidth ? $0 * count / plotWidth : ($0 + 1) * count / plotWidth - 1 }
            for row in (0..<height).reversed() {
                let label = row == height - 1 ? String(top) : row == 0 ? "0" : ""
                out += String(repeating: " ", count: labelWidth - label.count) + label
                out += row == height - 1 || row == 0 ? " ┤" : " │"
                // The value at the middle of the cell decides its band.
                let middle = (Double(row) + 0.5) * Double(top) / Double(height)
                var line = ""
                var run: (board: Int?, count: Int) = (nil, 0)
                for day in columns {
                    let board = band(at: middle, in: flow.counts[day])
                    if board != run.board {
                        line += cells(run, style: style)
                        run = (board, 0)
                    }
                    run.count += 1
                }
                out += line + cells(run, style: style) + "\n"
            }
            out += String(repeating: " ", count: labelWidth + 1) + "└" + String(repeating: "─", count: plotWidth) + "\n"
            out += dates(flow.days, indent: labelWidth + 2, width: plotWidth)
        }
        out += legend(flow.boards, width: width, style: style)
        return out
    }

    /// The board whose band holds `value`: bands stack from the last board up.
    private static func band(at value: Double, in counts: [Int]) -> Int? {
        var stacked = 0
        for board in counts.indices.reversed() {
            stacked += counts[board]
            if value < Double(stacked) { return board }
        }
        return nil
    }

    /// `run.count` cells of a board's band, or blanks.
    private static func cells(_ run: (board: Int?, count: Int), style: Style) -> String {
        guard run.count > 0 else { return "" }
        guard let board = run.board else { return String(repeating: " ", count: run.count) }
        let text = String(repeating: style.enabled ? "█" : FlowPalette.shade(board), count: run.count)
        return style.paint(text, FlowPalette.ansi(board))
    }

    /// The first date under the start of the plot and the last under its end, if they fit.
    private static func dates(_ days: [Day], indent: Int, width: Int) -> String {
        let first = days[0].description
        let last = days[days.count - 1].description
        var line = String(repeating: " ", count: indent)
        if days.count > 1 && width >= first.count + last.count + 1 {
            line += first + String(repeating: " ", count: width - first.count - last.count) + last
        } else if width >= first.count {
            line += first
        } else {
            return ""
        }
        return line + "\n"
    }

    /// `█ Todo  █ In Progress  █ Done`, each block in its board's color (or shade), wrapped
    /// to `width`; a title too wide for a line is cut with `…`.
    private static func legend(_ boards: [FlowBoard], width: Int, style: Style) -> String {
        var out = ""
        var line = ""
        var used = 0
        for (index, board) in boards.enumerated() {
            var title = Escape.visible(board.title)
            let room = max(1, width - 2)
            if DisplayWidth.of(title) > room { title = cut(title, to: room) }
            let entryWidth = 2 + DisplayWidth.of(title)
            if used > 0 && used + 2 + entryWidth > width {
                out += line + "\n"
                (line, used) = ("", 0)
            }
            if used > 0 {
                line += "  "
                used += 2
            }
            line += style.paint(style.enabled ? "█" : FlowPalette.shade(index), FlowPalette.ansi(index)) + " " + title
            used += entryWidth
        }
        return line.isEmpty ? out : out + line + "\n"
    }

    /// The longest start of `text` that fits in `width - 1` columns, then `…`.
    private static func cut(_ text: String, to width: Int) -> String {
        var kept = ""
        var used = 0
        for character in text {
            let next = DisplayWidth.of(String(character))
            if used + next > width - 1 { break }
            kept.append(character)
            used += next
        }
        return kept + "…"
    }
}
