import Foundation
import Testing

/// The built `kanban list` in a real terminal (tmux): the columns line up as the terminal
/// draws them, and the pager runs when the view is taller than the terminal.
@Suite(
    .serialized,
    .enabled(if: Tmux.available, "tmux or bash is not installed: the terminal view is not checked in a terminal"))
struct TerminalView {
    /// Boards with long titles, CJK, emoji sequences, flags and combining marks.
    ///
    /// Left out: skin tones and VS16, which tmux 3.3 draws as terminals that count code
    /// points do (`👍🏽` in 4 cells, `❤️` in 1), not as one picture in 2 as kanban counts
    /// them, with kitty, WezTerm, iTerm2, Ghostty and foot (see `DisplayWidthTests`).
    static let boards: [(String, [String])] = [
        (
            "Backlog",
            [
                "Write the CONTRIBUTING guide for new contributors with examples",
                "Fix reliability figures in README after the latest CI run", "Triage",
                "国際化対応のためのメッセージカタログを整備する", "Support 🧑‍💻 pair sessions in the board view 🚀",
                "Flags 🇫🇷 🇩🇪 🇯🇵 in titles ⌚",
            ]
        ),
        (
            "Todo",
            [
                "Schema Design", "Database Migration for the archive table with a very long explanation of why",
                "한국어 제목도 잘 줄바꿈되어야 합니다", "Storage",
                "supercalifragilisticexpialidocious-and-then-some-more-words-joined-by-dashes",
            ]
        ),
        ("In Progress", ["Push Notification", "Analytics dashboard ☺︎", "Machine Learning"]),
        ("Review", ["Cafe\u{301} résumé naïve (combining é)"]),
        ("Done", ["System Architecture", "Alert & Debugging", "修复登录页面在窄屏上的显示问题，并补充测试"]),
        ("Waiting for customer feedback", []),
    ]

    private func makeKanban(_ sandbox: KanbanSandbox, boards: Int = 6) throws {
        let chosen = Self.boards.prefix(boards)
        try sandbox.succeed(["init", "-q", "--boards", chosen.map(\.0).joined(separator: ",")])
        for (board, titles) in chosen where !titles.isEmpty {
            try sandbox.succeed(["add", "-q", "--to", board] + titles)
        }
    }

    @Test(arguments: [(6, 200), (3, 120), (3, 80)])
    func columnSeparatorsLineUpAsTheTerminalDrawsThem(boards: Int, width: Int) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try makeKanban(sandbox, boards: boards)
        let tmux = Tmux(in: sandbox)
        defer { tmux.kill() }
        let rows = try tmux.capture("\(try KanbanBinary.require()) list --no-pager", width: width, height: 60)
        try require(rows.count > 3 && rows[0].contains("│"), "not columns:\n\(rows.joined(separator: "\n"))")

        // Each row, and each row up to each of its separators, measured by the terminal.
        var prefixes: [String] = []
        for row in rows {
            prefixes.append(row)
            for index in row.indices where row[index] == "│" {
                prefixes.append(String(row[...index]))
            }
        }
        var widths = try tmux.widths(of: prefixes)[...]
        var separators: [Int]?
        for row in rows {
            let rowWidth = widths.removeFirst()
            expectTrue(rowWidth <= width, "wider than the terminal: \(row)")
            let bars = (0..<row.filter { $0 == "│" }.count).map { _ in widths.removeFirst() - 1 }
            expectEqual(bars.count, boards - 1, "\(row)")
            if separators == nil { separators = bars }
            expectEqual(bars, separators, "out of line: \(row)")
        }
    }

    @Test func aNarrowTerminalStacksAndWrapsUnderTheTitle() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try makeKanban(sandbox)
        let tmux = Tmux(in: sandbox)
        defer { tmux.kill() }
        let rows = try tmux.capture("\(try KanbanBinary.require()) list --no-pager", width: 40, height: 80)
        for (row, width) in zip(rows, try tmux.widths(of: rows)) {
            expectTrue(width <= 40, "wider than the terminal: \(row)")
        }
        // The title starts after "  0  " and a six-character id; the next line under it.
        let start = try require(rows.firstIndex { $0.hasSuffix("  Write the CONTRIBUTING") })
        expectEqual(rows[start + 1], String(repeating: " ", count: 13) + "guide for new contributors")
        expectTrue(!rows.contains { $0.contains("│") })
    }

    @Test func aViewTallerThanTheTerminalGoesThroughThePager() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try makeKanban(sandbox)
        let tmux = Tmux(in: sandbox)
        defer { tmux.kill() }
        let kanban = try KanbanBinary.require()
        let pager = ["PAGER": "cat > paged.txt", "KANBAN_PAGER": ""]

        // KANBAN_PAGER, even empty, comes before PAGER: no pager.
        var rows = try tmux.capture("\(kanban) list", width: 80, height: 10, environment: pager)
        expectTrue(!sandbox.exists("paged.txt"))
        expectTrue(rows.contains { $0.contains("Waiting for customer feedback (0)") })

        rows = try tmux.capture(
            "\(kanban) list", width: 80, height: 10, environment: ["KANBAN_PAGER": "cat > paged.txt"])
        let paged = String(decoding: try sandbox.bytes("paged.txt"), as: UTF8.self)
        expectTrue(paged.contains("Waiting for customer feedback"))
        expectTrue(!rows.contains { $0.contains("Backlog") }, "the view went to the pager, not the terminal")
        try FileManager.default.removeItem(atPath: sandbox.path("paged.txt"))

        // --no-pager, a terminal tall enough, or no terminal at all: printed directly.
        _ = try tmux.capture("\(kanban) list --no-pager", width: 80, height: 10, environment: pager)
        _ = try tmux.capture("\(kanban) list", width: 80, height: 100, environment: pager)
        let piped = try sandbox.run(["list"], environment: ["PAGER": "cat > paged.txt", "LINES": "2"])
        expectTrue(piped.status == 0 && piped.out.contains("Backlog (6)"))
        expectTrue(!sandbox.exists("paged.txt"))
    }

    @Test(arguments: ["log", "show Backlog:0 Backlog:1 Todo:0 Done:0"])
    func aLongLogOrShowGoesThroughThePagerAsListDoes(command: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try makeKanban(sandbox)
        let tmux = Tmux(in: sandbox)
        defer { tmux.kill() }
        let kanban = try KanbanBinary.require()
        let pager = ["KANBAN_PAGER": "cat > paged.txt"]
        let rows = try tmux.capture("\(kanban) \(command)", width: 80, height: 6, environment: pager)
        let paged = String(decoding: try sandbox.bytes("paged.txt"), as: UTF8.self)
        let direct = try sandbox.succeed(command.split(separator: " ").map(String.init))
        expectTrue(paged.count > 0 && paged.split(separator: "\n").count == direct.split(separator: "\n").count)
        expectTrue(!rows.contains { $0.contains("Backlog") || $0.contains("kanban add") }, "went to the terminal")
        try FileManager.default.removeItem(atPath: sandbox.path("paged.txt"))

        // --no-pager, or --json: printed directly.
        _ = try tmux.capture("\(kanban) \(command) --no-pager", width: 80, height: 6, environment: pager)
        _ = try tmux.capture("\(kanban) \(command) --json", width: 80, height: 6, environment: pager)
        expectTrue(!sandbox.exists("paged.txt"))
    }
}
