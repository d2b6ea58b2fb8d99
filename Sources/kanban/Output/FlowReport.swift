import KanbanCore

// What `kanban stats` prints (README: Flow): the figures as text or as JSON, and the
// cumulative flow diagram as TSV. Pure functions of the figures; the chart and the SVG are
// in `FlowChart.swift` and `FlowSVG.swift`.

enum FlowReport {
    /// How many aging cards the text names.
    static let agingShown = 5

    /// The figures as text: the window, finished cards and throughput, cycle and lead time,
    /// work in progress per active board, and the oldest cards in progress.
    static func text(_ figures: FlowFigures, style: Style) -> String {
        let window = figures.window
        var out = style.bold("Flow") + " \(window.since) to \(window.until) (\(days(window.dayCount)))\n"
        out += "Finished:    \(figures.finished), \(oneDecimal(figures.throughputPerWeek)) per week\n"
        out += "Cycle time:  " + spread(figures.cycleTime) + "\n"
        out += "Lead time:   " + spread(figures.leadTime) + "\n"
        out += style.bold("Work in progress") + "\n"
        if figures.wip.isEmpty { out += "  " + style.dim("(no active board)") + "\n" }
        let titles = figures.wip.map { Escape.visible($0.board.title) }
        let titleWidth = titles.map(DisplayWidth.of).max() ?? 0
        for (title, wip) in zip(titles, figures.wip) {
            out += "  " + title + String(repeating: " ", count: titleWidth - DisplayWidth.of(title)) + "  \(wip.count)\n"
        }
        guard !figures.aging.isEmpty else { return out }
        let shown = figures.aging.prefix(agingShown)
        out += style.bold("Oldest in progress") + (figures.aging.count > shown.count ? " (\(shown.count) of \(figures.aging.count))" : "") + "\n"
        for card in shown {
            let started = card.daysSinceStarted.map { oneDecimal($0) + " days since started" } ?? "start unknown"
            let inBoard = card.daysInBoard.map { oneDecimal($0) + " on " } ?? "on "
            out += "  " + style.dim(card.id.rawValue) + "  " + q(card.title) + ": " + started + ", " + inBoard
                + q(card.board.title) + "\n"
        }
        return out
    }

    /// `{"window": {"since", "until"}, "finished", "throughputPerWeek", "cycleTime":
    /// {"median", "p85", "max"}, "leadTime": {…}, "wip": [{"board", "title", "count"}],
    /// "aging": [{"id", "title", "board", "days"}]}`: days with one decimal, `null` where
    /// no card qualifies; an aging card's `days` are since it started.
    static func json(_ figures: FlowFigures) -> JSONObject {
        JSONObject { object in
            object.add(
                "window",
                JSONObject { window in
                    window.add("since", figures.window.since.description)
                    window.add("until", figures.window.until.description)
                })
            object.add("finished", figures.finished)
            object.add("throughputPerWeek", Decimal1(figures.throughputPerWeek))
            object.add("cycleTime", json(figures.cycleTime))
            object.add("leadTime", json(figures.leadTime))
            object.add(
                "wip",
                figures.wip.map { wip in
                    JSONObject { entry in
                        entry.add("board", wip.board.id.rawValue)
                        entry.add("title", wip.board.title)
                        entry.add("count", wip.count)
                    }
                })
            object.add(
                "aging",
                figures.aging.map { card in
                    JSONObject { entry in
                        entry.add("id", card.id.rawValue)
                        entry.add("title", card.title)
                        entry.add("board", card.board.id.rawValue)
                        entry.add("days", card.daysSinceStarted.map(Decimal1.init))
                    }
                })
        }
    }

    private static func json(_ spread: DaySpread?) -> JSONObject {
        JSONObject { object in
            object.add("median", spread.map { Decimal1($0.median) })
            object.add("p85", spread.map { Decimal1($0.p85) })
            object.add("max", spread.map { Decimal1($0.max) })
        }
    }

    /// The diagram as TSV: a header `date`, then each board's title; one line per day, the
    /// date then one count per board, in board order. Titles are escaped as `list --tsv`
    /// escapes them, so a tab in one never splits a column.
    static func tsv(_ flow: CumulativeFlow) -> String {
        var out = (["date"] + flow.boards.map { Escape.visible($0.title) }).joined(separator: "\t") + "\n"
        for (day, counts) in zip(flow.days, flow.counts) {
            out += ([day.description] + counts.map(String.init)).joined(separator: "\t") + "\n"
        }
        return out
    }

    // MARK: - Numbers

    /// `median 3.2 days, 85th percentile 6.0, max 9.1`, or `none` when no card qualifies.
    private static func spread(_ spread: DaySpread?) -> String {
        guard let spread else { return "none (no finished card has one)" }
        return "median \(days(spread.median)), 85th percentile \(oneDecimal(spread.p85)), max \(oneDecimal(spread.max))"
    }

    private static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

    private static func days(_ value: Double) -> String { oneDecimal(value) + " days" }

    /// `value` rounded to one decimal, half away from zero: `3.0`, `-0.5`, `12.3`.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}

/// A number written with one decimal in JSON: `2.5`, `3.0`.
struct Decimal1: JSONOutput {
    let value: Double
    init(_ value: Double) { self.value = value }
    var json: String { FlowReport.oneDecimal(value) }
}
