import Foundation
import Testing

// `kanban stats` end to end (README: Flow): a scripted week of moves at set times
// ($KANBAN_NOW), the figures and the diagram checked number by number against what the
// README's rules give by hand, the SVG file, the refusals, and the chart on a terminal.

@Suite("stats, end to end")
struct StatsEndToEndTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theFiguresOfAScriptedWeekAreWhatTheRulesGive
        case aWindowBeforeAnyFinishHasNoneAndOneBoardNarrowsIt
        case theDiagramCountsEachDayAsTheRulesGive
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theFiguresOfAScriptedWeekAreWhatTheRulesGive: try theFiguresOfAScriptedWeekAreWhatTheRulesGive()
        case .aWindowBeforeAnyFinishHasNoneAndOneBoardNarrowsIt: try aWindowBeforeAnyFinishHasNoneAndOneBoardNarrowsIt()
        case .theDiagramCountsEachDayAsTheRulesGive: try theDiagramCountsEachDayAsTheRulesGive()
        }
    }

    /// Runs `arguments` at `now` (RFC 3339), and expects success.
    @discardableResult
    static func at(_ now: String, _ sandbox: KanbanSandbox, _ arguments: String...) throws -> String {
        let result = try sandbox.run(arguments, environment: ["KANBAN_NOW": now])
        try require(result.status == 0, "kanban \(arguments.joined(separator: " ")) at \(now): \(result)")
        return result.out
    }

    /// Todo, Doing, Done: A starts on the 3rd and finishes on the 5th; B starts on the 4th
    /// and is still in progress; C skips Doing and finishes on the evening of the 6th; A is
    /// archived from Done on the 8th.
    static func scriptedWeek(_ sandbox: KanbanSandbox) throws {
        try at("2026-11-02T09:00:00Z", sandbox, "init", "-q", "--boards", "Todo,Doing,Done")
        try at("2026-11-02T09:00:00Z", sandbox, "add", "-q", "A", "B", "C")
        try at("2026-11-03T10:00:00Z", sandbox, "move", "-q", "A", "--to", "Doing")
        try at("2026-11-04T10:00:00Z", sandbox, "move", "-q", "B", "--to", "Doing")
        try at("2026-11-05T10:00:00Z", sandbox, "move", "-q", "A", "--to", "Done")
        try at("2026-11-06T22:00:00Z", sandbox, "move", "-q", "C", "--to", "Done")
        try at("2026-11-08T12:00:00Z", sandbox, "archive", "-q", "A")
    }

    static let now = "2026-11-09T10:00:00Z"

    func theFiguresOfAScriptedWeekAreWhatTheRulesGive() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try Self.scriptedWeek(sandbox)
        let before = try sandbox.snapshot()
        let json = try Self.at(Self.now, sandbox, "stats", "--since", "2026-11-03", "--until", "today", "--json")
        // Cycle: A 2.0 days (Doing to Done), C 4.54 (Todo to Done: it skipped Doing); lead:
        // A 3.04, C 4.54; throughput 2 cards in 7 days; B in progress 5.0 days.
        let object = try jsonObject(json)
        expectEqual(object["finished"] as? Int, 2)
        expectEqual(object["throughputPerWeek"] as? Double, 2.0)
        let window = try require(object["window"] as? [String: Any])
        expectEqual(window["since"] as? String, "2026-11-03")
        expectEqual(window["until"] as? String, "2026-11-09")
        let cycle = try require(object["cycleTime"] as? [String: Any])
        expectEqual([cycle["median"], cycle["p85"], cycle["max"]].map { $0 as? Double }, [3.3, 4.5, 4.5])
        let lead = try require(object["leadTime"] as? [String: Any])
        expectEqual([lead["median"], lead["p85"], lead["max"]].map { $0 as? Double }, [3.8, 4.5, 4.5])
        let wip = try require(object["wip"] as? [[String: Any]])
        expectEqual(wip.map { $0["title"] as? String }, ["Doing"])
        expectEqual(wip.map { $0["count"] as? Int }, [1])
        let aging = try require(object["aging"] as? [[String: Any]])
        expectEqual(aging.map { $0["title"] as? String }, ["B"])
        expectEqual(aging.map { $0["days"] as? Double }, [5.0])
        expectTrue(json.contains(#""days":5.0"#), "one decimal, always: \(json)")

        // The same now gives the same figures; the file is only read.
        expectEqual(try Self.at(Self.now, sandbox, "stats", "--since", "2026-11-03", "--json"), json)
        try expectEqual(sandbox.snapshot(), before)

        let text = try Self.at(Self.now, sandbox, "stats", "--since", "2026-11-03")
        expectTrue(text.contains("Finished:    2, 2.0 per week"), "\(text)")
        expectTrue(text.contains("median 3.3 days, 85th percentile 4.5, max 4.5"), "\(text)")
        expectTrue(text.contains("'B': 5.0 days since started, 5.0 on 'Doing'"), "\(text)")
    }

    func aWindowBeforeAnyFinishHasNoneAndOneBoardNarrowsIt() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try Self.scriptedWeek(sandbox)
        let early = try jsonObject(
            try Self.at(Self.now, sandbox, "stats", "--since", "2026-11-02", "--until", "2026-11-04", "--json"))
        expectEqual(early["finished"] as? Int, 0)
        let cycle = try require(early["cycleTime"] as? [String: Any])
        expectTrue(cycle["median"] is NSNull && cycle["max"] is NSNull, "\(cycle)")
        // Only the cards that ever entered Doing: A and B (C skipped it).
        let doing = try jsonObject(try Self.at(Self.now, sandbox, "stats", "Doing", "--since", "2026-11-03", "--json"))
        expectEqual(doing["finished"] as? Int, 1)
    }

    func theDiagramCountsEachDayAsTheRulesGive() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try Self.scriptedWeek(sandbox)
        let tsv = try Self.at(Self.now, sandbox, "stats", "--cfd", "--since", "2026-11-02", "--until", "2026-11-09")
        // A card counts where its trail last put it; once finished, on its done board for good
        // (A, archived from Done on the 8th, still counts there).
        expectEqual(
            tsv,
            """
            date\tTodo\tDoing\tDone
            2026-11-02\t3\t0\t0
            2026-11-03\t2\t1\t0
            2026-11-04\t1\t2\t0
            2026-11-05\t1\t1\t1
            2026-11-06\t0\t1\t2
            2026-11-07\t0\t1\t2
            2026-11-08\t0\t1\t2
            2026-11-09\t0\t1\t2

            """)

        let wrote = try Self.at(Self.now, sandbox, "stats", "--svg", "flow.svg", "--since", "2026-11-02")
        expectTrue(wrote.contains("'flow.svg'"), "\(wrote)")
        let svg = String(decoding: try sandbox.bytes("flow.svg"), as: UTF8.self)
        expectTrue(svg.hasPrefix("<?xml") && svg.contains("<svg") && svg.hasSuffix("</svg>\n"), "\(svg)")
        // An existing file is replaced only with --force.
        let again = try sandbox.run(
            ["stats", "--svg", "flow.svg"], environment: ["KANBAN_NOW": Self.now])
        expectTrue(again.status != 0 && again.err.contains("flow.svg"), "\(again)")
        try Self.at(Self.now, sandbox, "stats", "--svg", "flow.svg", "--force", "-q")
    }

    @Test(arguments: [
        (["stats", "--since", "2026-11-09", "--until", "2026-11-02"], "is after --until"),
        (["stats", "--since", "yesterday"], "--since takes YYYY-MM-DD"),
        (["stats", "--cfd", "Todo"], "--cfd draws every board"),
        (["stats", "--force"], "--force goes with --svg"),
        (["stats", "--cfd", "--json"], "--json goes with the figures"),
        (["stats", "--cfd", "--since", "1900-01-01"], "at most 36525 days"),
    ])
    func aBadRequestIsAUsageErrorAndWritesNothing(arguments: [String], message: String) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let result = try sandbox.run(arguments, environment: ["KANBAN_NOW": Self.now])
        expectEqual(result.status, 64, "\(result)")
        expectTrue(result.err.contains(message), "\(result.err)")
        try expectEqual(sandbox.snapshot(), before)
        // A usage error comes before looking for the file: the same without one.
        let nowhere = try sandbox.run(arguments + ["-f", "missing.json"], environment: ["KANBAN_NOW": Self.now])
        expectEqual(nowhere.status, 64, "\(nowhere)")
    }

    @Test(arguments: [80, 200])
    func theChartFitsTheTerminal(width: Int) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try Self.scriptedWeek(sandbox)
        let tmux = Tmux(in: sandbox)
        defer { tmux.kill() }
        let rows = try tmux.capture(
            "\(try KanbanBinary.require()) stats --cfd --since 2026-11-02 --color never", width: width, height: 40,
            environment: ["KANBAN_NOW": Self.now])
        let chart = rows.filter { !$0.isEmpty }
        try require(chart.count > 4, "no chart:\n\(rows.joined(separator: "\n"))")
        for (row, measured) in zip(chart, try tmux.widths(of: chart)) {
            expectTrue(measured <= width, "wider than the terminal: \(row)")
        }
        // The axis spans the width, the dates and the legend are there.
        let axis = try require(chart.first { $0.contains("└") })
        expectTrue(try tmux.widths(of: [axis])[0] >= width - 2, "the axis does not use the width: \(axis)")
        expectTrue(chart.contains { $0.contains("2026-11-02") && $0.contains("2026-11-09") }, "\(chart)")
        expectTrue(chart.contains { $0.contains("Todo") && $0.contains("Doing") && $0.contains("Done") }, "\(chart)")
    }
}
