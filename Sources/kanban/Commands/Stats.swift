import KanbanCore

extension Commands {
    static let stats = CommandSpec(
        "stats",
        usage: [
            .optional([.boards]), .optional(Options.since), .optional(Options.until), .optional(Options.cfd),
            .optional(Options.svg),
        ],
        summary: "flow figures: cycle time, throughput, work in progress; --cfd: the cumulative flow diagram",
        options: [
            CommandOption(
                Options.since,
                "the window's first day: YYYY-MM-DD, today, or an age ago (3d, 2w); default: 29 days before --until"),
            CommandOption(
                Options.until, "the window's last day, included (YYYY-MM-DD, today, or an age ago); default: today"),
            CommandOption(Options.cfd, "the cumulative flow diagram: a chart on a terminal, TSV elsewhere"),
            CommandOption(Options.svg, "write the diagram to FILE as a standalone SVG (implies --cfd)"),
            CommandOption(Options.force, "replace the --svg FILE if it exists"),
        ],
        details: """
            From each card's trail (every board it entered, and when), over a window of whole
            UTC days (default: the last 30, today included): the cards that finished (first
            reached a done board) in it, throughput per week, cycle time (started to finished)
            and lead time (created to finished) as median, 85th percentile and max in days,
            the cards on each active board, and the oldest work in progress. With BOARDs, only
            the cards that are on, left, or ever entered one of them. Board roles (backlog,
            active, done) come from 'kanban board role', else from board order. --cfd counts,
            for each day, the cards on each board (done boards cumulative). $KANBAN_NOW sets
            now, for figures that can be reproduced.
            """,
        examples: [
            "kanban stats", "kanban stats --since 2026-11-01 --json", "kanban stats --cfd",
            "kanban stats --cfd --since 8w --svg flow.svg",
        ],
        build: { arguments throws(CLIError) in
            var request = StatsRequest(boards: arguments.operands)
            request.since = try arguments.statsDay(Options.since)
            request.until = try arguments.statsDay(Options.until)
            request.svg = arguments.value(Options.svg)
            request.cfd = arguments.flag(Options.cfd) || request.svg != nil
            request.force = arguments.flag(Options.force)
            if request.force && request.svg == nil { throw arguments.usage("--force goes with --svg FILE") }
            if request.cfd && !request.boards.isEmpty {
                throw arguments.usage("--cfd draws every board; name no BOARD")
            }
            return .stats(request)
        })
}

/// `kanban stats`: which cards, which window, which view.
struct StatsRequest: Equatable, Sendable {
    var boards: [String] = []
    var since: StatsDay?
    var until: StatsDay?
    /// The cumulative flow diagram instead of the figures.
    var cfd = false
    /// Where to write the diagram as SVG; `nil` for none.
    var svg: String?
    /// Replace `svg` if it exists.
    var force = false
}

/// A day of the window as typed: a date, or how long ago (`today` is zero ago).
enum StatsDay: Equatable, Sendable {
    case date(Day)
    case ago(seconds: Int64)

    /// The UTC day it is, given now.
    func day(now: Timestamp) -> Day {
        switch self {
        case .date(let day): day
        case .ago(let seconds): now.adding(seconds: -seconds).utcDay
        }
    }
}

extension Arguments {
    /// `--since`/`--until`: `YYYY-MM-DD`, `today`, or an age ago (`3d`, `2w`).
    func statsDay(_ option: OptionSpec) throws(CLIError) -> StatsDay? {
        guard let text = value(option) else { return nil }
        if text.lowercased() == "today" { return .ago(seconds: 0) }
        if let day = Day(iso: text) { return .date(day) }
        guard let age = try? Age(text) else {
            throw usage("\(option.name) takes YYYY-MM-DD, today, or an age ago such as 3d or 2w, not \(q(text))")
        }
        return .ago(seconds: age.seconds)
    }
}

extension App {
    /// The longest window the diagram draws, in days: a hundred years.
    static let longestFlowWindow = 36_525

    /// `kanban stats [BOARD…] [--since DATE] [--until DATE] [--cfd] [--svg FILE]`
    func stats(_ request: StatsRequest) throws(CLIError) -> CommandOutput {
        // The request is checked before the file is looked for: a usage error is one anywhere.
        let now = clock.now
        let until = request.until?.day(now: now) ?? now.utcDay
        let since = request.since?.day(now: now) ?? until.adding(days: -29)
        guard since <= until else {
            throw .usage("--since \(since) is after --until \(until)", command: "stats")
        }
        let window = FlowWindow(since: since, until: until)
        if request.cfd {
            guard window.dayCount <= Self.longestFlowWindow else {
                throw .usage(
                    "the diagram draws at most \(Self.longestFlowWindow) days; give a later --since", command: "stats")
            }
            if options.json {
                throw .usage(
                    "--cfd prints a chart, or TSV when not on a terminal; --json goes with the figures",
                    command: "stats")
            }
        }
        let store = try store()
        let kanban = try store.load()
        let flow = Flow(kanban, now: now)
        guard request.cfd else {
            var selected: Set<BoardID>?
            if !request.boards.isEmpty {
                do {
                    selected = Set(
                        try request.boards.map { name throws(KanbanError) in
                            kanban.boards[try kanban.boardIndex(named: name)].id
                        })
                } catch {
                    throw .refused(error)
                }
            }
            let figures = flow.figures(in: window, boards: selected)
            if options.json { return CommandOutput(FlowReport.json(figures).line) }
            return CommandOutput(FlowReport.text(figures, style: style))
        }
        let diagram = flow.cumulativeFlow(in: window)
        if let path = request.svg {
            try OutputFile.write(
                Array(FlowSVG.render(diagram).utf8), to: path, replacing: request.force, notOver: store.path)
            if options.quiet { return CommandOutput("") }
            return CommandOutput(
                "wrote \(q(path)): the cumulative flow of \(diagram.boards.count) boards over \(diagram.days.count) days as SVG\n"
            )
        }
        let terminal = Terminal.detect(color: options.color)
        guard terminal.isTerminal else { return CommandOutput(FlowReport.tsv(diagram)) }
        return CommandOutput(FlowChart.render(diagram, width: terminal.width, style: Style(enabled: terminal.color)))
    }
}

// MARK: - As parsed

extension StatsRequest: ParsedCommand {
    func run(in app: App) throws(CLIError) -> CommandOutput { try app.stats(self) }
}

extension Command {
    static func stats(_ request: StatsRequest) -> Command { Command(request) }
}
