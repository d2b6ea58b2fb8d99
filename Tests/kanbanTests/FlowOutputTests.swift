import Foundation
import KanbanCore
import Testing

@testable import kanban

#if canImport(FoundationXML)
    import FoundationXML
#endif

// What `kanban stats` prints (README: Flow): the text and JSON of the figures, and the
// cumulative flow diagram as TSV, as a terminal chart and as an SVG.

enum FlowSample {
    static let todo = FlowBoard(id: BoardID("todo")!, title: "Todo", role: .backlog)
    static let doing = FlowBoard(id: BoardID("doing")!, title: "In\tProgress", role: .active)
    static let done = FlowBoard(id: BoardID("done")!, title: "Done & <Shipped> \"ok\"", role: .done)
    static let boards = [todo, doing, done]

    static func at(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    static func card(_ id: String, _ trail: [(FlowBoard, String)], place: FlowCard.Place? = nil) -> FlowCard {
        let entries = trail.map { TrailEntry(board: $0.id, time: at($1)) }
        return FlowCard(
            id: ItemID(id)!, title: "Card \(id)", created: entries.first?.time, trail: entries,
            place: place ?? .board(entries.last!.board))
    }

    /// Four cards over Nov 20–23, 2026: one finished on the 21st, one on the 22nd, one
    /// archived from In Progress on the 22nd, one still in progress.
    static let flow = Flow(
        boards: boards,
        cards: [
            card("a1", [(todo, "2026-11-20T09:00:00Z"), (doing, "2026-11-20T12:00:00Z"), (done, "2026-11-21T12:00:00Z")]),
            card("b2", [(todo, "2026-11-20T10:00:00Z"), (doing, "2026-11-21T00:00:00Z"), (done, "2026-11-22T23:59:59Z")]),
            card(
                "c3", [(todo, "2026-11-21T08:00:00Z"), (doing, "2026-11-21T09:00:00Z")],
                place: .archived(from: doing.id, at: at("2026-11-22T10:00:00Z"))),
            card("d4", [(todo, "2026-11-22T08:00:00Z"), (doing, "2026-11-23T06:00:00Z")]),
        ],
        now: at("2026-11-23T18:00:00Z"))

    static let window = FlowWindow(since: Day(iso: "2026-11-20")!, until: Day(iso: "2026-11-23")!)

    /// A diagram of `boards` boards over `days` days with growing counts.
    static func diagram(boards: Int, days: Int) -> CumulativeFlow {
        CumulativeFlow(
            boards: (0..<boards).map { FlowBoard(id: BoardID("b\($0)")!, title: "Board \($0) 看板", role: .active) },
            days: (0..<days).map { Day(iso: "2026-10-01")!.adding(days: $0) },
            counts: (0..<days).map { day in (0..<boards).map { board in (day * (board + 1)) % 7 + board } })
    }
}

@Suite("Flow output: stats text, JSON, TSV, chart and SVG")
struct FlowOutputTests {
    @Test func theTSVHasOneCountPerBoardPerDayInBoardOrder() {
        let tsv = FlowReport.tsv(FlowSample.flow.cumulativeFlow(in: FlowSample.window))
        expectEqual(
            tsv,
            """
            date\tTodo\tIn\\tProgress\tDone & <Shipped> "ok"
            2026-11-20\t1\t1\t0
            2026-11-21\t0\t2\t1
            2026-11-22\t1\t0\t2
            2026-11-23\t0\t1\t2

            """)
    }

    @Test func theJSONHasTheShapeWithOneDecimalAndNullWhereNoCardQualifies() throws {
        let figures = FlowSample.flow.figures(in: FlowSample.window)
        let text = FlowReport.json(figures).json
        expectTrue(text.contains(#""cycleTime":{"median":1.5,"p85":2.0,"max":2.0}"#), "\(text)")
        expectTrue(text.contains(#""throughputPerWeek":3.5"#), "\(text)")
        let object = try jsonObject(text)
        expectEqual(object["window"] as? [String: String], ["since": "2026-11-20", "until": "2026-11-23"])
        expectEqual(object["finished"] as? Int, 2)
        expectEqual((object["leadTime"] as? [String: Double])?["max"], 2.6)
        let wip = try require(object["wip"] as? [[String: Any]])
        expectEqual(wip.count, 1)
        expectEqual(wip[0]["board"] as? String, "doing")
        expectEqual(wip[0]["title"] as? String, "In\tProgress")
        expectEqual(wip[0]["count"] as? Int, 1)
        let aging = try require(object["aging"] as? [[String: Any]])
        expectEqual(aging.map { $0["id"] as? String }, ["d4"])
        expectEqual(aging[0]["days"] as? Double, 0.5)
        expectEqual(aging[0]["board"] as? String, "doing")

        let empty = FlowSample.flow.figures(in: FlowWindow(since: Day(iso: "2026-01-01")!, until: Day(iso: "2026-01-07")!))
        let none = FlowReport.json(empty).json
        expectTrue(none.contains(#""finished":0,"throughputPerWeek":0.0,"cycleTime":{"median":null,"p85":null,"max":null}"#), "\(none)")
        expectTrue(none.contains(#""leadTime":{"median":null,"p85":null,"max":null}"#), "\(none)")
    }

    @Test func theTextNamesEveryFigureAndEscapesTitles() {
        let text = FlowReport.text(FlowSample.flow.figures(in: FlowSample.window), style: Style(enabled: false))
        for expected in [
            "Flow 2026-11-20 to 2026-11-23 (4 days)", "Finished:    2, 3.5 per week",
            "Cycle time:  median 1.5 days, 85th percentile 2.0, max 2.0", "In\\tProgress  1",
            "d4  'Card d4': 0.5 days since started, 0.5 on 'In\\tProgress'",
        ] {
            expectTrue(text.contains(expected), "\(expected) in:\n\(text)")
        }
        expectTrue(!text.contains("\t") && !text.contains("\u{1B}"))
        expectEqual(FlowReport.oneDecimal(2.25), "2.3")
        expectEqual(FlowReport.oneDecimal(-0.04), "0.0")
        expectEqual(FlowReport.oneDecimal(-1.25), "-1.3")
    }

    // MARK: - The chart

    /// The text with its SGR color codes taken out.
    static func withoutColor(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    @Test(arguments: [80, 200])
    func theChartFitsTheWidthWithALegendAndColorsOnlyWhenColorIsOn(width: Int) {
        let diagram = FlowSample.diagram(boards: 5, days: 30)
        let plain = FlowChart.render(diagram, width: width, style: Style(enabled: false))
        expectTrue(!plain.contains("\u{1B}"))
        let lines = plain.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for line in lines { expectTrue(DisplayWidth.of(line) <= width, "\(DisplayWidth.of(line)) > \(width): \(line)") }
        expectTrue(lines.contains { DisplayWidth.of($0) == width }, "the plot takes the whole width")
        for board in diagram.boards { expectTrue(plain.contains(board.title), "legend: \(board.title)") }
        for shade in FlowPalette.shades.prefix(5) { expectTrue(plain.contains(shade), "band \(shade)") }
        expectTrue(plain.contains("2026-10-01") && plain.contains("2026-10-30"))
        let colored = FlowChart.render(diagram, width: width, style: Style(enabled: true))
        for board in 0..<5 { expectTrue(colored.contains("\u{1B}[\(FlowPalette.ansi(board))m█"), "color of board \(board)") }
        expectEqual(Self.withoutColor(colored).split(separator: "\n").map(DisplayWidth.of).max(), width)
    }

    @Test func aNarrowChartAndATitleWiderThanTheWidthStillFit() {
        var diagram = FlowSample.diagram(boards: 3, days: 90)
        diagram.boards[1].title = String(repeating: "Long title ", count: 12)
        for width in [12, 30] {
            let chart = FlowChart.render(diagram, width: width, style: Style(enabled: false))
            for line in chart.split(separator: "\n") { expectTrue(DisplayWidth.of(line) <= width, "\(width): \(line)") }
            expectTrue(chart.contains("…"))
        }
    }

    @Test func aChartNarrowerThanTheWindowEndsOnItsLastDay() {
        let days = (0..<100).map { Day(iso: "2026-08-01")!.adding(days: $0) }
        let diagram = CumulativeFlow(
            boards: [FlowSample.done], days: days, counts: (0..<100).map { [$0 == 99 ? 4 : 0] })
        let chart = FlowChart.render(diagram, width: 23, height: 4, style: Style(enabled: false))
        let rows = chart.split(separator: "\n").prefix(4).map { String($0) }
        let blank = String(repeating: " ", count: 19)
        expectEqual(rows, ["4 ┤" + blank + "█", "  │" + blank + "█", "  │" + blank + "█", "0 ┤" + blank + "█"])
    }

    @Test func theStackHasTheLastBoardAtTheBottomAndTheTotalAtTheTop() {
        let diagram = CumulativeFlow(
            boards: FlowSample.boards, days: [Day(iso: "2026-11-20")!], counts: [[2, 1, 1]])
        let chart = FlowChart.render(diagram, width: 12, height: 4, style: Style(enabled: false))
        let rows = chart.split(separator: "\n").prefix(4).map { String($0) }
        expectEqual(rows, ["4 ┤█████████", "  │█████████", "  │▓▓▓▓▓▓▓▓▓", "0 ┤▒▒▒▒▒▒▒▒▒"])
    }

    // MARK: - The SVG

    @Test func theSVGIsWellFormedWithOneBandInItsColorPerBoard() throws {
        let diagram = FlowSample.flow.cumulativeFlow(in: FlowSample.window)
        let svg = FlowSVG.render(diagram)
        try expectWellFormedXML(svg)
        let bands = svg.components(separatedBy: "<path ").dropFirst().map { $0.components(separatedBy: "</path>")[0] }
        expectEqual(bands.count, diagram.boards.count)
        for index in diagram.boards.indices {
            expectEqual(bands.filter { $0.contains("fill=\"\(FlowPalette.hex(index))\"") }.count, 1, "board \(index)")
        }
        expectTrue(svg.contains("Done &amp; &lt;Shipped&gt; &quot;ok&quot;"))
        expectTrue(svg.contains(">2026-11-20<") && svg.contains(">2026-11-23<"))
        expectTrue(!svg.contains("<Shipped>"))
        // A single day, no day, and a title with a control character are well-formed too.
        var one = diagram
        (one.days, one.counts) = ([diagram.days[0]], [diagram.counts[0]])
        one.boards[0].title = "bell \u{07} & tab\t"
        try expectWellFormedXML(FlowSVG.render(one))
        var none = diagram
        (none.days, none.counts) = ([], [])
        try expectWellFormedXML(FlowSVG.render(none))
    }
}

/// Parses `text` as XML, with Foundation's parser where there is one, else with a check of
/// the tags' nesting.
func expectWellFormedXML(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #if canImport(FoundationXML) || canImport(Darwin)
        let parser = XMLParser(data: Data(text.utf8))
        let parsed = parser.parse()
        expectTrue(parsed, "not well-formed XML: \(String(describing: parser.parserError))\n\(text)", sourceLocation: sourceLocation)
    #else
        var open: [String] = []
        var rest = Substring(text)
        while let start = rest.firstIndex(of: "<") {
            let end = try require(rest[start...].firstIndex(of: ">"), sourceLocation: sourceLocation)
            let tag = rest[rest.index(after: start)..<end]
            rest = rest[rest.index(after: end)...]
            if tag.hasPrefix("?") || tag.hasSuffix("/") { continue }
            let name = String(tag.split(separator: " ").first ?? "")
            if name.hasPrefix("/") {
                expectEqual(open.popLast(), String(name.dropFirst()), sourceLocation: sourceLocation)
            } else {
                open.append(name)
            }
        }
        expectEqual(open, [], sourceLocation: sourceLocation)
        expectTrue(!text.contains("& "), sourceLocation: sourceLocation)
    #endif
}
