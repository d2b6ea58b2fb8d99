import Foundation
import Glibc
import Testing

// Cards with content (SPEC §7), end to end through the built binary: `edit` with its
// options and in an editor, `show`, the `list` filters, `archive` and `restore`, and the
// clock that `$KANBAN_NOW` fixes. Every expected value comes from SPEC.md and README.md.

@Suite("Cards with content, end to end")
enum CardsEndToEndTests {}

// MARK: - edit

extension CardsEndToEndTests {
    @Suite("edit with options") struct Editing {
        /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
        enum Check: CaseIterable {
            case noteFromStandardInputKeepsEveryLineAndTabs
            case noteFromStandardInputReadsCRLFAsLF
            case anEmptyNoteArgumentClearsTheNote
            case aNoteWithAControlCharacterOrOver64KiBIsRefusedAndNothingWritten
            case appendNoteAddsALineAtTheEnd
            case labelsAreASetComparedIgnoringCaseAndKeptSorted
            case relativeDatesCountFromTheLocalDateAndKanbanNowTakesSeconds
            case theJSONReportHasOldAndNewOfEachChangedField
            case theTextReportNamesWhatChangedAsTheReadmeShows
        }

        @Test(arguments: Check.allCases)
        func each(_ check: Check) throws {
            switch check {
            case .noteFromStandardInputKeepsEveryLineAndTabs: try noteFromStandardInputKeepsEveryLineAndTabs()
            case .noteFromStandardInputReadsCRLFAsLF: try noteFromStandardInputReadsCRLFAsLF()
            case .anEmptyNoteArgumentClearsTheNote: try anEmptyNoteArgumentClearsTheNote()
            case .aNoteWithAControlCharacterOrOver64KiBIsRefusedAndNothingWritten:
                try aNoteWithAControlCharacterOrOver64KiBIsRefusedAndNothingWritten()
            case .appendNoteAddsALineAtTheEnd: try appendNoteAddsALineAtTheEnd()
            case .labelsAreASetComparedIgnoringCaseAndKeptSorted: try labelsAreASetComparedIgnoringCaseAndKeptSorted()
            case .relativeDatesCountFromTheLocalDateAndKanbanNowTakesSeconds:
                try relativeDatesCountFromTheLocalDateAndKanbanNowTakesSeconds()
            case .theJSONReportHasOldAndNewOfEachChangedField: try theJSONReportHasOldAndNewOfEachChangedField()
            case .theTextReportNamesWhatChangedAsTheReadmeShows: try theTextReportNamesWhatChangedAsTheReadmeShows()
            }
        }

        func noteFromStandardInputKeepsEveryLineAndTabs() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            let note = "First line\n\n  indented, after a blank line\n\ttabbed\n\n\nlast"
            let output = try sandbox.succeed(
                ["edit", "Analytics", "--note", "-", "--json"], stdin: Array((note + "\n").utf8))
            let item = try onlyItem(output)
            expectEqual(textPair(try changes(item)["note"]), [nil, note])
            try expectEqual(shownCard(sandbox, "Analytics")["note"] as? String, note)
            // One JSON string: the card stays on one line of the file.
            let id = try sandbox.boards().id(of: "Analytics")
            let lines = String(decoding: try sandbox.bytes(), as: UTF8.self).split(separator: "\n")
            expectEqual(lines.filter { $0.contains("\"\(id)\"") }.count, 1)
            expectTrue(lines.contains { $0.contains("\"\(id)\"") && $0.contains(#"\n\n  indented"#) })

            // Without a final line break, the text is the note as it is.
            try sandbox.succeed(["edit", "Analytics", "--note", "-", "-q"], stdin: Array("x\ny".utf8))
            try expectEqual(shownCard(sandbox, "Analytics")["note"] as? String, "x\ny")
        }

        func noteFromStandardInputReadsCRLFAsLF() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            try sandbox.succeed(["edit", "Analytics", "--note", "-", "-q"], stdin: Array("one\n\nthree\n".utf8))
            try sandbox.succeed(
                ["edit", "Schema Design", "--note", "-", "-q"], stdin: Array("one\r\n\r\nthree\r\n".utf8))
            let unix = try require(try shownCard(sandbox, "Analytics")["note"] as? String)
            expectEqual(unix, "one\n\nthree")
            try expectEqual(shownCard(sandbox, "Schema Design")["note"] as? String, unix, "CRLF is read as LF")
            expectTrue(!String(decoding: try sandbox.bytes(), as: UTF8.self).contains(#"\r"#))
        }

        func anEmptyNoteArgumentClearsTheNote() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            try sandbox.succeed("edit", "Analytics", "--note", "Dashboards for the launch.", "-q")
            let output = try sandbox.succeed("edit", "Analytics", "--note", "", "--json")
            expectEqual(textPair(try changes(try onlyItem(output))["note"]), ["Dashboards for the launch.", nil])
            expectTrue(try shownCard(sandbox, "Analytics")["note"] == nil)
            expectTrue(!String(decoding: try sandbox.bytes(), as: UTF8.self).contains("\"note\""))
            // Empty standard input clears it as well.
            try sandbox.succeed("edit", "Analytics", "--note", "again", "-q")
            try sandbox.succeed(["edit", "Analytics", "--note", "-", "-q"], stdin: [])
            expectTrue(try shownCard(sandbox, "Analytics")["note"] == nil)
        }

        func aNoteWithAControlCharacterOrOver64KiBIsRefusedAndNothingWritten() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            let before = try sandbox.snapshot()
            for input in ["red \u{1B}[31m\n", "bell \u{07}", String(repeating: "a", count: 65_537)] {
                let result = try sandbox.run(["edit", "Analytics", "--note", "-", "--json"], stdin: Array(input.utf8))
                try expectJSONError(result, exit: 65, code: "bad_input")
                try expectEqual(sandbox.snapshot(), before)
            }
            try expectJSONError(
                try sandbox.run(["edit", "Analytics", "--note", "a\u{1B}b", "--json"]), exit: 65, code: "bad_input")
            try expectEqual(sandbox.snapshot(), before)
            // 64 KiB exactly is a note.
            let largest = String(repeating: "a", count: 65_536)
            try sandbox.succeed(["edit", "Analytics", "--note", "-", "-q"], stdin: Array(largest.utf8))
            try expectEqual(shownCard(sandbox, "Analytics")["note"] as? String, largest)
        }

        func appendNoteAddsALineAtTheEnd() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            var item = try onlyItem(
                try sandbox.succeed("edit", "Analytics", "--append-note", "Seen on Safari.", "--json"))
            expectEqual(textPair(try changes(item)["note"]), [nil, "Seen on Safari."])
            item = try onlyItem(try sandbox.succeed("edit", "Analytics", "--append-note", "Not on Firefox.", "--json"))
            expectEqual(textPair(try changes(item)["note"]), ["Seen on Safari.", "Seen on Safari.\nNot on Firefox."])
            try expectEqual(shownCard(sandbox, "Analytics")["note"] as? String, "Seen on Safari.\nNot on Firefox.")
        }

        func labelsAreASetComparedIgnoringCaseAndKeptSorted() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            var item = try onlyItem(
                try sandbox.succeed(
                    "edit", "Analytics", "--label", "bug", "--label", "P1", "--label", "@alice", "--json"))
            expectEqual(labelPair(try changes(item)["labels"]), [[], ["@alice", "bug", "P1"]])
            try expectEqual(shownCard(sandbox, "Analytics")["labels"] as? [String], ["@alice", "bug", "P1"])

            // The same label in another case is already there: nothing changes, nothing is written.
            let before = try sandbox.snapshot()
            let same = try jsonObject(
                try sandbox.succeed("edit", "Analytics", "--label", "p1", "--label", "BUG", "--json"))
            expectEqual(same["changed"] as? Bool, false)
            try expectEqual(sandbox.snapshot(), before)
            expectTrue(
                try shownCard(sandbox, "Analytics")["labels"] as? [String] == ["@alice", "bug", "P1"], "as first typed")

            item = try onlyItem(try sandbox.succeed("edit", "Analytics", "--unlabel", "BUG", "--label", "db", "--json"))
            expectEqual(labelPair(try changes(item)["labels"]), [["@alice", "bug", "P1"], ["@alice", "db", "P1"]])
            try sandbox.succeed("edit", "Analytics", "--unlabel", "@alice", "--unlabel", "p1", "--unlabel", "db", "-q")
            expectTrue(try shownCard(sandbox, "Analytics")["labels"] == nil, "no labels: the key is left out")

            // A label that breaks the rules is refused (a malformed argument or bad input) and nothing is written.
            let labelled = try sandbox.snapshot()
            for bad in ["two words", "--label=-dash", String(repeating: "x", count: 33), "tab\tbed"] {
                let arguments = bad.hasPrefix("--") ? [bad] : ["--label", bad]
                let result = try sandbox.run(["edit", "Analytics"] + arguments)
                expectTrue(result.status == 64 || result.status == 65, "\(bad): \(result)")
                expectTrue(result.err.hasPrefix("kanban: error: "), "\(result)")
                try expectEqual(sandbox.snapshot(), labelled)
            }
        }

        static let dueForms: [(typed: String, date: String)] = [
            ("2027-01-05", "2027-01-05"), ("today", "2026-11-23"), ("tomorrow", "2026-11-24"), ("+3d", "2026-11-26"),
            ("+1w", "2026-11-30"), ("+5w", "2026-12-28"),
        ]

        @Test(arguments: dueForms)
        func dueDatesAreTypedAsADateOrRelativeToToday(typed: String, date: String) throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            // KANBAN_NOW is 2026-11-23T10:00:00Z, in UTC.
            var item = try onlyItem(try sandbox.succeed("edit", "Analytics", "--due", typed, "--json"))
            expectEqual(textPair(try changes(item)["due"]), [nil, date])
            try expectEqual(shownCard(sandbox, "Analytics")["due"] as? String, date)
            item = try onlyItem(try sandbox.succeed("edit", "Analytics", "--due", "none", "--json"))
            expectEqual(textPair(try changes(item)["due"]), [date, nil])
            expectTrue(try shownCard(sandbox, "Analytics")["due"] == nil)
        }

        func relativeDatesCountFromTheLocalDateAndKanbanNowTakesSeconds() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            // 23:30 UTC on the 23rd is already the 24th nine hours east.
            let tokyo = ["KANBAN_NOW": "2026-11-23T23:30:00Z", "TZ": "JST-9"]
            try sandbox.succeed(["edit", "Analytics", "--due", "today", "-q"], environment: tokyo)
            try expectEqual(shownCard(sandbox, "Analytics")["due"] as? String, "2026-11-24")
            try sandbox.succeed(["edit", "Analytics", "--due", "tomorrow", "-q"], environment: tokyo)
            try expectEqual(shownCard(sandbox, "Analytics")["due"] as? String, "2026-11-25")
            // Seconds since 1970: 1795428000 is 2026-11-23T10:00:00Z.
            try sandbox.succeed(["edit", "Analytics", "--due", "+1w", "-q"], environment: ["KANBAN_NOW": "1795428000"])
            try expectEqual(shownCard(sandbox, "Analytics")["due"] as? String, "2026-11-30")
            for bad in ["yesterday", "2026-02-30", "+3m", "+d", "11/30"] {
                try expectJSONError(
                    try sandbox.run(["edit", "Analytics", "--due", bad, "--json"]), exit: 64, code: "usage")
            }
        }

        func theJSONReportHasOldAndNewOfEachChangedField() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            let id = try sandbox.boards().id(of: "Analytics")
            let report = try jsonObject(
                try sandbox.succeed(
                    "edit", "Analytics", "--title", "Analytics v2", "--label", "p1", "--due", "2026-12-01", "--note",
                    "Hello", "--json"))
            expectEqual(report["command"] as? String, "edit")
            expectEqual(report["changed"] as? Bool, true)
            expectEqual(report["dryRun"] as? Bool, false)
            expectEqual(report["file"] as? String, sandbox.file)
            expectEqual((report["boards"] as? [Any])?.isEmpty, true)
            let items = try require(report["items"] as? [[String: Any]])
            try require(items.count == 1)
            let item = items[0]
            expectEqual(item["id"] as? String, id)
            expectEqual(item["title"] as? String, "Analytics v2")
            expectEqual(slot(item["from"]), "In Progress:1")
            expectEqual(slot(item["to"]), "In Progress:1")
            let fields = try changes(item)
            expectEqual(Set(fields.keys), ["title", "labels", "due", "note"])
            expectEqual(textPair(fields["title"]), ["Analytics", "Analytics v2"])
            expectEqual(labelPair(fields["labels"]), [[], ["p1"]])
            expectEqual(textPair(fields["due"]), [nil, "2026-12-01"])
            expectEqual(textPair(fields["note"]), [nil, "Hello"])

            // Only what changed is in `changes`.
            let second = try onlyItem(
                try sandbox.succeed("edit", id, "--due", "2026-12-02", "--label", "P1", "--note", "Hello", "--json"))
            expectEqual(Set(try changes(second).keys), ["due"])
            expectEqual(textPair(try changes(second)["due"]), ["2026-12-01", "2026-12-02"])

            // Nothing changed: no `changes`, and the file is not rewritten.
            let before = try sandbox.snapshot()
            let nothing = try jsonObject(try sandbox.succeed("edit", id, "--title", "Analytics v2", "--json"))
            expectEqual(nothing["changed"] as? Bool, false)
            let unchanged = try require((nothing["items"] as? [[String: Any]])?.first)
            expectTrue(unchanged["changes"] == nil)
            try expectEqual(sandbox.snapshot(), before)
        }

        func theTextReportNamesWhatChangedAsTheReadmeShows() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            let id = try sandbox.boards().id(of: "Analytics")
            let output = try sandbox.succeed(
                "edit", "Analytics", "--label", "p1", "--label", "@alice", "--due", "+1w", "--note",
                "Dashboards for the launch.")
            expectTrue(
                output
                    == "edited \(id) 'Analytics' (labels +@alice +p1, due 2026-11-30, note 'Dashboards for the launch.')\n"
            )
            let dry = try sandbox.snapshot()
            let would = try sandbox.succeed("edit", "Analytics", "--due", "none", "--dry-run")
            expectTrue(would.hasPrefix("would edit \(id) 'Analytics'"), "\(would)")
            try expectEqual(sandbox.snapshot(), dry)
        }
    }
}

// MARK: - show

extension CardsEndToEndTests {
    @Suite("show") struct Showing {
        /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
        enum Check: CaseIterable {
            case showPrintsEveryFieldWithTheAgeOfEachTime
            case showJSONIsTheCardAsInTheFileWithBoardAndIndex
            case anArchivedCardShowsTheBoardItLeftAndWhen
        }

        @Test(arguments: Check.allCases)
        func each(_ check: Check) throws {
            switch check {
            case .showPrintsEveryFieldWithTheAgeOfEachTime: try showPrintsEveryFieldWithTheAgeOfEachTime()
            case .showJSONIsTheCardAsInTheFileWithBoardAndIndex: try showJSONIsTheCardAsInTheFileWithBoardAndIndex()
            case .anArchivedCardShowsTheBoardItLeftAndWhen: try anArchivedCardShowsTheBoardItLeftAndWhen()
            }
        }

        /// A card added on the 20th, moved to Done on the 23rd at 08:00, reordered at 09:00.
        private func makeCard(_ sandbox: KanbanSandbox) throws -> String {
            try sandbox.succeed(["init", "--sample", "-q"], environment: ["KANBAN_NOW": "2026-11-20T10:00:00Z"])
            try sandbox.succeed(
                [
                    "add", "Fix the login page", "--to", "Todo", "--top", "--label", "p1", "--label", "bug", "--due",
                    "2026-11-24", "--note", "Steps to reproduce:\n\n1. open the page", "-q",
                ], environment: ["KANBAN_NOW": "2026-11-20T10:00:00Z"])
            try sandbox.succeed(
                ["move", "Fix the login page", "--to", "Done", "-q"],
                environment: ["KANBAN_NOW": "2026-11-23T08:00:00Z"])
            // A reorder within the board changes neither time.
            try sandbox.succeed(
                ["move", "Fix the login page", "--to", "Done", "--at", "0", "-q"],
                environment: ["KANBAN_NOW": "2026-11-23T09:00:00Z"])
            return try sandbox.boards().id(of: "Fix the login page")
        }

        func showPrintsEveryFieldWithTheAgeOfEachTime() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            let id = try makeCard(sandbox)
            // KANBAN_NOW is 2026-11-23T10:00:00Z.
            let output = try sandbox.succeed("show", "Fix the login page")
            expectTrue(
                rightTrimmedLines(output) == [
                    "Fix the login page",
                    "  id       \(id)",
                    "  board    Done:0",
                    "  labels   #bug #p1",
                    "  due      2026-11-24",
                    "  created  2026-11-20T10:00:00Z (3 days ago)",
                    "  entered  2026-11-23T08:00:00Z (2 hours ago)",
                    "",
                    "  Steps to reproduce:",
                    "",
                    "  1. open the page",
                ])
            expectTrue(!output.contains("overdue"))

            // Three days later the card is overdue.
            let later = try sandbox.succeed(["show", id], environment: ["KANBAN_NOW": "2026-11-26T10:00:00Z"])
            let due = try require(rightTrimmedLines(later).first { $0.hasPrefix("  due ") })
            expectTrue(due.hasPrefix("  due      2026-11-24"), "\(due)")
            expectTrue(due.contains("overdue"), "\(due)")
            expectTrue(later.contains("  created  2026-11-20T10:00:00Z (6 days ago)"))

            // A card without labels, due date or note shows none of them.
            let plain = rightTrimmedLines(try sandbox.succeed("show", "In Progress:1"))
            expectEqual(plain.first, "Analytics")
            expectTrue(plain.contains("  board    In Progress:1"))
            expectTrue(!plain.contains { $0.hasPrefix("  labels") || $0.hasPrefix("  due") })
            expectEqual(plain.last?.isEmpty, false, "no note, no blank line before one")
        }

        func showJSONIsTheCardAsInTheFileWithBoardAndIndex() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            let id = try makeCard(sandbox)
            let cards = try jsonArray(try sandbox.succeed("show", "Fix the login page", "In Progress:1", "--json"))
            try require(cards.count == 2)
            let card = cards[0]
            expectEqual(card["id"] as? String, id)
            expectEqual(card["title"] as? String, "Fix the login page")
            expectEqual(card["labels"] as? [String], ["bug", "p1"])
            expectEqual(card["due"] as? String, "2026-11-24")
            expectEqual(card["created"] as? String, "2026-11-20T10:00:00Z")
            expectEqual(card["entered"] as? String, "2026-11-23T08:00:00Z")
            expectEqual(card["note"] as? String, "Steps to reproduce:\n\n1. open the page")
            expectEqual(card["board"] as? String, "Done")
            expectEqual(card["index"] as? Int, 0)
            expectEqual(cards[1]["title"] as? String, "Analytics")
            expectEqual(cards[1]["board"] as? String, "In Progress")
            expectEqual(cards[1]["index"] as? Int, 1)

            // Apart from board and index, the object is the card as the file has it.
            let stored = try require(try fileItems(sandbox).first { $0["id"] as? String == id })
            var shown = card
            shown["board"] = nil
            shown["index"] = nil
            expectTrue(NSDictionary(dictionary: shown).isEqual(to: stored), "\(shown) vs \(stored)")
        }

        func anArchivedCardShowsTheBoardItLeftAndWhen() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            let id = try makeCard(sandbox)
            try sandbox.succeed(
                ["archive", "Fix the login page", "-q"], environment: ["KANBAN_NOW": "2026-11-23T09:30:00Z"])
            let cards = try jsonArray(try sandbox.succeed("show", "Fix the login page", "--json"))
            try require(cards.count == 1)
            expectEqual(cards[0]["id"] as? String, id)
            expectEqual(cards[0]["board"] as? String, "Done")
            expectEqual(cards[0]["archived"] as? String, "2026-11-23T09:30:00Z")
            expectTrue(cards[0]["index"] == nil)
            expectEqual(cards[0]["labels"] as? [String], ["bug", "p1"], "an archived card keeps its fields")
            expectEqual(cards[0]["note"] as? String, "Steps to reproduce:\n\n1. open the page")
            // By id too, and as text.
            let text = try sandbox.succeed("show", id)
            expectTrue(text.hasPrefix("Fix the login page\n"))
            expectTrue(text.contains("archived from Done"), "\(text)")
            expectTrue(!text.contains("Done:0"))
        }
    }
}

// MARK: - list filters

/// A kanban with cards of every kind, made once: ids are random, so each test reads them
/// from the file.
///
/// ```
/// Todo        0 Database Migration
///             1 Schema Design       bug p1, due 11-20
///             2 Storage Management
///             3 Model Abstraction   P1, note "Needs the LAUNCH plan."
///             4 Fresh card          p1, due 11-23, entered 2026-11-22T10:00:00Z
/// In Progress 0 Analytics           bug, due 11-25
///             1 Machine Learning
/// Done        0 System Architecture
///             1 Alert & Debugging
///             2 Push Notification   entered 2026-11-22T10:00:00Z
/// ```
/// The others entered on 2026-11-01; tests run at 2026-11-23T10:00:00Z.
enum FilterFixture {
    static let file: Result<[UInt8], any Error> = Result {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let early = ["KANBAN_NOW": "2026-11-01T10:00:00Z"]
        let late = ["KANBAN_NOW": "2026-11-22T10:00:00Z"]
        for (arguments, environment) in [
            (["init", "--sample"], early),
            (["edit", "Schema Design", "--label", "bug", "--label", "p1", "--due", "2026-11-20"], early),
            (["edit", "Model Abstraction", "--label", "P1", "--note", "Needs the LAUNCH plan."], early),
            (["edit", "Analytics", "--label", "bug", "--due", "2026-11-25"], early),
            (["add", "Fresh card", "--to", "Todo", "--label", "p1", "--due", "2026-11-23"], late),
            (["move", "Push Notification", "--to", "Done"], late),
        ] {
            let result = try sandbox.run(arguments + ["-q"], environment: environment)
            guard result.status == 0 else { throw SpawnError("kanban \(arguments): \(result)") }
        }
        return try sandbox.bytes()
    }

    /// A new sandbox holding the fixture file.
    static func sandbox() throws -> KanbanSandbox {
        let sandbox = try KanbanSandbox(inProcess: true)
        try sandbox.write(try file.get())
        return sandbox
    }
}

/// `list FILTERS`, and the cards it must show as `BOARD:N title`, in order.
struct FilterCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var cards: [String]
    var testDescription: String { arguments.joined(separator: " ") }

    static let old: [String] = [
        "Todo:0 Database Migration", "Todo:1 Schema Design", "Todo:2 Storage Management", "Todo:3 Model Abstraction",
        "In Progress:0 Analytics", "In Progress:1 Machine Learning", "Done:0 System Architecture",
        "Done:1 Alert & Debugging",
    ]

    /// `old`, with Fresh card after Todo's and Push Notification at the end.
    static let olderThan23Hours: [String] = {
        var cards: [String] = Array(old[0..<4])
        cards.append("Todo:4 Fresh card")
        cards += old[4...]
        cards.append("Done:2 Push Notification")
        return cards
    }()

    static let all: [FilterCase] = [
        FilterCase(
            arguments: ["--label", "p1"],
            cards: ["Todo:1 Schema Design", "Todo:3 Model Abstraction", "Todo:4 Fresh card"]),
        FilterCase(arguments: ["--label", "p1", "--label", "bug"], cards: ["Todo:1 Schema Design"]),
        FilterCase(arguments: ["--label", "BUG"], cards: ["Todo:1 Schema Design", "In Progress:0 Analytics"]),
        FilterCase(arguments: ["--label", "p2"], cards: []),
        FilterCase(arguments: ["--grep", "launch"], cards: ["Todo:3 Model Abstraction"]),
        FilterCase(arguments: ["--grep", "ANALY"], cards: ["In Progress:0 Analytics"]),
        FilterCase(arguments: ["--grep", "ign"], cards: ["Todo:1 Schema Design"]),
        FilterCase(arguments: ["--due-before", "2026-11-23"], cards: ["Todo:1 Schema Design"]),
        FilterCase(arguments: ["--due-before", "tomorrow"], cards: ["Todo:1 Schema Design", "Todo:4 Fresh card"]),
        FilterCase(
            arguments: ["--due-before", "+1w"],
            cards: ["Todo:1 Schema Design", "Todo:4 Fresh card", "In Progress:0 Analytics"]),
        FilterCase(arguments: ["--overdue"], cards: ["Todo:1 Schema Design"]),
        // Fresh card and Push Notification entered exactly 24 hours ago: not more than 24h.
        FilterCase(arguments: ["--older-than", "24h"], cards: old),
        FilterCase(
            arguments: ["--older-than", "23h"],
            cards: olderThan23Hours),
        FilterCase(arguments: ["--older-than", "3w"], cards: old),
        FilterCase(arguments: ["--older-than", "4w"], cards: []),
        FilterCase(arguments: ["--label", "p1", "--overdue"], cards: ["Todo:1 Schema Design"]),
        FilterCase(arguments: ["--label", "p1", "--grep", "FRESH"], cards: ["Todo:4 Fresh card"]),
        FilterCase(
            arguments: ["--label", "bug", "--due-before", "+1w", "--older-than", "2d"],
            cards: ["Todo:1 Schema Design", "In Progress:0 Analytics"]),
        FilterCase(
            arguments: ["Done", "--older-than", "2d"],
            cards: ["Done:0 System Architecture", "Done:1 Alert & Debugging"]),
    ]
}

extension CardsEndToEndTests {
    @Suite("list filters") struct Filters {
        /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
        enum Check: CaseIterable {
            case tsvColumnsAreBoardIndexIdTitleLabelsDue
            case filteredTextKeepsEveryBoardHeadingAndEachCardsIndex
            case archivedListsTheArchiveWithItsOwnFilters
            case aFilteredArchiveKeepsEachCardsPlaceInTheArchive
        }

        @Test(arguments: Check.allCases)
        func each(_ check: Check) throws {
            switch check {
            case .tsvColumnsAreBoardIndexIdTitleLabelsDue: try tsvColumnsAreBoardIndexIdTitleLabelsDue()
            case .filteredTextKeepsEveryBoardHeadingAndEachCardsIndex:
                try filteredTextKeepsEveryBoardHeadingAndEachCardsIndex()
            case .archivedListsTheArchiveWithItsOwnFilters: try archivedListsTheArchiveWithItsOwnFilters()
            case .aFilteredArchiveKeepsEachCardsPlaceInTheArchive: try aFilteredArchiveKeepsEachCardsPlaceInTheArchive()
            }
        }

        @Test(arguments: FilterCase.all)
        func filtersKeepMatchingCardsWithTheirIndexes(_ filter: FilterCase) throws {
            let sandbox = try FilterFixture.sandbox()
            defer { sandbox.remove() }
            let tsv = try sandbox.succeed(["list"] + filter.arguments + ["--tsv"])
            let rows = tsv.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            expectTrue(rows.allSatisfy { $0.count == 8 }, "eight columns: \(tsv)")
            let shownCards: [String] = rows.map { (row: [Substring]) -> String in "\(row[0]):\(row[1]) \(row[3])" }
            expectEqual(shownCards, filter.cards)

            // Each BOARD:N read off the filtered list names that card.
            for row in rows {
                let shown = try jsonArray(try sandbox.succeed("show", "\(row[0]):\(row[1])", "--json"))
                expectEqual(shown.first?["id"] as? String, String(row[2]))
            }

            // --json: the filtered document, every board kept (or those named).
            let document = try jsonObject(try sandbox.succeed(["list"] + filter.arguments + ["--json"]))
            expectEqual(document["version"] as? Int, 2)
            let boards = try require(document["boards"] as? [[String: Any]])
            let named = filter.arguments.first == "Done" ? ["Done"] : ["Todo", "In Progress", "Done"]
            expectEqual(boards.map { $0["title"] as? String }, named)
            let titles = boards.flatMap { board in
                ((board["items"] as? [[String: Any]]) ?? []).map {
                    "\(board["title"] as? String ?? "?") \($0["title"] as? String ?? "?")"
                }
            }
            expectEqual(titles, filter.cards.map(withoutIndex))
        }

        func tsvColumnsAreBoardIndexIdTitleLabelsDue() throws {
            let sandbox = try FilterFixture.sandbox()
            defer { sandbox.remove() }
            let ids = try sandbox.boards()
            let tsv = try sandbox.succeed("list", "--label", "p1", "--tsv")
            expectTrue(
                tsv == """
                    Todo\t1\t\(try ids.id(of: "Schema Design"))\tSchema Design\tbug,p1\t2026-11-20\t\t
                    Todo\t3\t\(try ids.id(of: "Model Abstraction"))\tModel Abstraction\tP1\t\t\t
                    Todo\t4\t\(try ids.id(of: "Fresh card"))\tFresh card\tp1\t2026-11-23\t\t

                    """)
        }

        func filteredTextKeepsEveryBoardHeadingAndEachCardsIndex() throws {
            let sandbox = try FilterFixture.sandbox()
            defer { sandbox.remove() }
            let ids = try sandbox.boards()
            let text = try sandbox.succeed("list", "--label", "p1")
            let schema = try ids.id(of: "Schema Design")
            let model = try ids.id(of: "Model Abstraction")
            let fresh = try ids.id(of: "Fresh card")
            expectTrue(
                text == """
                    Todo (3 of 5)
                      1  \(schema)  Schema Design #bug #p1 due 11-20
                      3  \(model)  Model Abstraction #P1
                      4  \(fresh)  Fresh card #p1 due 11-23

                    In Progress (0 of 2)

                    Done (0 of 3)

                    """)
        }

        func archivedListsTheArchiveWithItsOwnFilters() throws {
            let sandbox = try FilterFixture.sandbox()
            defer { sandbox.remove() }
            let ids = try sandbox.boards()
            let schema = try ids.id(of: "Schema Design")
            let analytics = try ids.id(of: "Analytics")
            let system = try ids.id(of: "System Architecture")
            try sandbox.succeed("archive", "Schema Design", "Analytics", "Done:0", "-q")

            let when = sandbox.fixedNow
            expectTrue(
                try sandbox.succeed("list", "--archived", "--tsv") == """
                    Todo\t0\t\(schema)\tSchema Design\tbug,p1\t2026-11-20\t\(when)\t\t
                    In Progress\t1\t\(analytics)\tAnalytics\tbug\t2026-11-25\t\(when)\t\t
                    Done\t2\t\(system)\tSystem Architecture\t\t\t\(when)\t\t

                    """)
            expectTrue(
                try sandbox.succeed("list", "--archived") == """
                    Archive (3)
                      0  \(schema)  Schema Design  (from Todo, 2026-11-23)
                      1  \(analytics)  Analytics  (from In Progress, 2026-11-23)
                      2  \(system)  System Architecture  (from Done, 2026-11-23)

                    """)
            let bugs = try sandbox.succeed("list", "--archived", "--label", "bug", "--tsv")
            let bugIDs: [String] = bugs.split(separator: "\n").map { (line: Substring) in
                String(line.split(separator: "\t")[2])
            }
            expectEqual(bugIDs, [schema, analytics])
            let document = try jsonObject(try sandbox.succeed("list", "--archived", "--grep", "ANALYTICS", "--json"))
            let archive = try require(document["archive"] as? [[String: Any]])
            expectEqual(archive.map { $0["id"] as? String }, [analytics])

            // Archived cards are gone from the boards, filtered or not.
            expectTrue(!(try sandbox.succeed("list", "--tsv")).contains(schema))
            expectTrue(try sandbox.succeed("list", "--label", "bug", "--tsv").isEmpty)
        }

        func aFilteredArchiveKeepsEachCardsPlaceInTheArchive() throws {
            let sandbox = try FilterFixture.sandbox()
            defer { sandbox.remove() }
            try sandbox.succeed("archive", "Schema Design", "Analytics", "Done:0", "-q")
            let id = try require(try fileArchive(sandbox).last?["id"] as? String)
            // System Architecture is third in the archive, as `list --archived --tsv` counts.
            let tsv = try sandbox.succeed("list", "--archived", "--grep", "system", "--tsv")
            let fields = tsv.split(separator: "\n").first?.split(separator: "\t", omittingEmptySubsequences: false)
            expectEqual(fields?[2], id[...], "\(tsv)")
            let text = try sandbox.succeed("list", "--archived", "--grep", "system")
            expectEqual(fields?[1], "2", "\(tsv)")
            expectTrue(text.contains("  2  \(id)  System Architecture"), "\(text)")
        }
    }
}

// MARK: - archive and restore

extension CardsEndToEndTests {
    @Suite("archive and restore") struct Archiving {
        /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
        enum Check: CaseIterable {
            case archivedCardsLeaveTheBoardsKeepTheirIdsAndAreNotResolved
            case archiveTextReportNamesEachCardsPlace
            case archiveFromABoardTakesTheCardsOlderThanAge
            case restorePutsACardBackAtTheBottomOfTheBoardItLeft
            case aFullBoardRefusesARestoreUnlessForced
            case aCardWhoseBoardIsGoneNeedsTo
        }

        @Test(arguments: Check.allCases)
        func each(_ check: Check) throws {
            switch check {
            case .archivedCardsLeaveTheBoardsKeepTheirIdsAndAreNotResolved:
                try archivedCardsLeaveTheBoardsKeepTheirIdsAndAreNotResolved()
            case .archiveTextReportNamesEachCardsPlace: try archiveTextReportNamesEachCardsPlace()
            case .archiveFromABoardTakesTheCardsOlderThanAge: try archiveFromABoardTakesTheCardsOlderThanAge()
            case .restorePutsACardBackAtTheBottomOfTheBoardItLeft: try restorePutsACardBackAtTheBottomOfTheBoardItLeft()
            case .aFullBoardRefusesARestoreUnlessForced: try aFullBoardRefusesARestoreUnlessForced()
            case .aCardWhoseBoardIsGoneNeedsTo: try aCardWhoseBoardIsGoneNeedsTo()
            }
        }

        func archivedCardsLeaveTheBoardsKeepTheirIdsAndAreNotResolved() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            let boards = try sandbox.boards()
            let analytics = try boards.id(of: "Analytics")
            let system = try boards.id(of: "System Architecture")
            let report = try jsonObject(try sandbox.succeed("archive", "Analytics", "Done:0", "--json"))
            expectEqual(report["command"] as? String, "archive")
            let items = try require(report["items"] as? [[String: Any]])
            expectEqual(items.map { $0["id"] as? String }, [analytics, system])
            expectEqual(items.map { slot($0["from"]) }, ["In Progress:1", "Done:0"])
            expectTrue(items.allSatisfy { $0["to"] is NSNull && $0["archived"] as? Bool == true })

            expectTrue(
                try sandbox.boards().layout == [
                    sampleLayout[0], BoardColumn("In Progress", ["Push Notification", "Machine Learning"]),
                    BoardColumn("Done", ["Alert & Debugging"]),
                ])
            let archive = try fileArchive(sandbox)
            expectEqual(archive.map { $0["id"] as? String }, [analytics, system])
            expectEqual(archive.map { $0["board"] as? String }, [boards[1].boardID, boards[2].boardID])
            expectTrue(archive.allSatisfy { $0["archived"] as? String == sandbox.fixedNow })

            // Other commands do not find them.
            let before = try sandbox.snapshot()
            try expectJSONError(
                try sandbox.run(["move", "Analytics", "--to", "Todo", "--json"]), exit: 1, code: "not_found")
            try expectJSONError(
                try sandbox.run(["edit", analytics, "--label", "x", "--json"]), exit: 1, code: "not_found")
            try expectJSONError(try sandbox.run(["rm", analytics, "--json"]), exit: 1, code: "not_found")
            try expectEqual(sandbox.snapshot(), before)
        }

        func archiveTextReportNamesEachCardsPlace() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            let boards = try sandbox.boards()
            let output = try sandbox.succeed("archive", "--from", "Done")
            expectTrue(
                output == """
                    archived \(boards[2].ids[0]) 'System Architecture' from Done:0
                    archived \(boards[2].ids[1]) 'Alert & Debugging' from Done:1

                    """)
            expectTrue(try sandbox.boards()[2].items.isEmpty, "the board stays, empty")
        }

        func archiveFromABoardTakesTheCardsOlderThanAge() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.succeed(["init", "--sample", "-q"], environment: ["KANBAN_NOW": "2026-11-01T10:00:00Z"])
            try sandbox.succeed(
                ["add", "New", "--to", "Todo", "--at", "1", "-q"], environment: ["KANBAN_NOW": "2026-11-22T10:00:00Z"])
            // Moved in from another board three days ago: it entered Todo then.
            try sandbox.succeed(
                ["move", "Analytics", "--to", "Todo", "-q"], environment: ["KANBAN_NOW": "2026-11-20T10:00:00Z"])
            let report = try jsonObject(
                try sandbox.succeed("archive", "--from", "Todo", "--older-than", "2w", "--json"))
            let items = try require(report["items"] as? [[String: Any]])
            expectTrue(
                items.map { "\(slot($0["from"]) ?? "?") \($0["title"] as? String ?? "")" } == [
                    "Todo:0 Database Migration", "Todo:2 Schema Design", "Todo:3 Storage Management",
                    "Todo:4 Model Abstraction",
                ])
            try expectEqual(sandbox.boards()[0].items, ["New", "Analytics"])
            try sandbox.succeed("archive", "--from", "Todo", "--older-than", "2d", "-q")
            try expectEqual(sandbox.boards()[0].items, ["New"])
            try sandbox.succeed("archive", "--from", "todo", "-q")
            expectTrue(try sandbox.boards()[0].items.isEmpty)
            try expectEqual(fileArchive(sandbox).count, 6)
        }

        func restorePutsACardBackAtTheBottomOfTheBoardItLeft() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.succeed(["init", "--sample", "-q"], environment: ["KANBAN_NOW": "2026-11-01T10:00:00Z"])
            try sandbox.succeed(
                ["edit", "Schema Design", "--label", "db", "--due", "2026-12-01", "--note", "Keep me.", "-q"],
                environment: ["KANBAN_NOW": "2026-11-01T10:00:00Z"])
            let id = try sandbox.boards().id(of: "Schema Design")
            try sandbox.succeed(
                ["archive", "Schema Design", "-q"], environment: ["KANBAN_NOW": "2026-11-10T10:00:00Z"])
            let report = try jsonObject(try sandbox.succeed("restore", "Schema Design", "--json"))
            let item = try onlyItem(report)
            expectEqual(item["id"] as? String, id)
            expectEqual(item["restored"] as? Bool, true)
            expectTrue(item["from"] is NSNull)
            expectEqual(slot(item["to"]), "Todo:3")
            expectTrue(
                try sandbox.boards()[0].items == [
                    "Database Migration", "Storage Management", "Model Abstraction", "Schema Design",
                ])
            expectTrue(try fileArchive(sandbox).isEmpty)
            let card = try shownCard(sandbox, id)
            expectEqual(card["labels"] as? [String], ["db"])
            expectEqual(card["due"] as? String, "2026-12-01")
            expectEqual(card["note"] as? String, "Keep me.")
            expectEqual(card["created"] as? String, "2026-11-01T10:00:00Z")
            expectEqual(card["entered"] as? String, sandbox.fixedNow, "a restored card enters its board now")
            expectTrue(card["archived"] == nil)

            try sandbox.succeed("archive", id, "-q")
            let text = try sandbox.succeed("restore", String(id.prefix(4)), "--to", "done")
            expectEqual(text, "restored \(id) 'Schema Design' to Done:2\n")
        }

        func aFullBoardRefusesARestoreUnlessForced() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            try sandbox.succeed("board", "limit", "Todo", "4", "-q")
            // Archiving frees WIP room.
            try sandbox.succeed("archive", "Schema Design", "-q")
            try sandbox.succeed("add", "Filler", "--to", "Todo", "-q")
            let before = try sandbox.snapshot()
            let entries = try sandbox.entries()
            try expectJSONError(try sandbox.run(["restore", "Schema Design", "--json"]), exit: 1, code: "wip_limit")
            try expectEqual(sandbox.snapshot(), before, "nothing written")
            try expectJSONError(
                try sandbox.run(["restore", "Schema Design", "--to", "Todo", "--json"]), exit: 1, code: "wip_limit")
            let text = try sandbox.run(["restore", "Schema Design"])
            expectEqual(text.status, 1)
            expectTrue(text.err.hasPrefix("kanban: error: "), "\(text)")
            expectTrue(text.err.contains("--force"), "\(text)")
            try expectEqual(sandbox.snapshot(), before, "nothing written")
            try expectEqual(sandbox.entries(), entries)

            try sandbox.succeed("restore", "Schema Design", "--force", "-q")
            let todo = try sandbox.boards()[0]
            expectEqual(todo.limit, 4)
            expectEqual(todo.items.count, 5)
            expectEqual(todo.items.last, "Schema Design")
        }

        func aCardWhoseBoardIsGoneNeedsTo() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            try sandbox.succeed("archive", "--from", "Done", "-q")
            try sandbox.succeed("board", "remove", "Done", "-q")
            let before = try sandbox.snapshot()
            let message = try expectJSONError(
                try sandbox.run(["restore", "System Architecture", "--json"]), exit: 1, code: "not_found")
            expectTrue(message.contains("--to"), "the message says --to is needed: \(message)")
            let text = try sandbox.run(["restore", "System Architecture"])
            expectEqual(text.status, 1)
            expectTrue(text.err.contains("--to"), "\(text)")
            try expectEqual(sandbox.snapshot(), before)

            try sandbox.succeed("restore", "System Architecture", "Alert & Debugging", "--to", "In Progress", "-q")
            expectTrue(
                try sandbox.boards()[1].items == [
                    "Push Notification", "Analytics", "Machine Learning", "System Architecture", "Alert & Debugging",
                ])
        }
    }
}

// MARK: - the clock

extension CardsEndToEndTests {
    @Suite("KANBAN_NOW") struct Clock {
        @Test(arguments: [
            "tomorrow", "now", "2026-11-23T25:00:00Z", "2026-13-01T10:00:00Z", "2026-11-23T10:00:00", "17954280OO",
        ])
        func aBadKanbanNowIsAUsageErrorBeforeAnyFileIsTouched(_ value: String) throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            let bad = ["KANBAN_NOW": value]

            // No kanban file: 64, not 66, and init creates nothing.
            for arguments in [["list", "--json"], ["init", "--json"], ["add", "x", "--json"]] {
                try expectJSONError(try sandbox.run(arguments, environment: bad), exit: 64, code: "usage")
            }
            let left = try sandbox.entries()
            expectTrue(left.isEmpty, "\(left)")

            try sandbox.initSample()
            try sandbox.succeed("add", "one", "-q")
            let before = try sandbox.snapshot()
            let history = try sandbox.snapshot(".kanban.json.history")
            let entries = try sandbox.entries()
            for arguments in [
                ["add", "x"], ["edit", "Analytics", "--due", "today"], ["edit", "Analytics", "--note", "-"],
                ["archive", "Analytics"], ["move", "Analytics", "--to", "Done"], ["list"],
            ] {
                try expectJSONError(
                    try sandbox.run(arguments + ["--json"], stdin: Array("note\n".utf8), environment: bad), exit: 64,
                    code: "usage")
                let text = try sandbox.run(arguments, stdin: Array("note\n".utf8), environment: bad)
                expectEqual(text.status, 64, "\(text)")
                expectTrue(text.err.hasPrefix("kanban: error: "), "\(text)")
                expectTrue(text.err.contains("KANBAN_NOW"), "the message names the variable: \(text.err)")
            }
            try expectEqual(sandbox.snapshot(), before)
            try expectEqual(sandbox.snapshot(".kanban.json.history"), history)
            try expectEqual(sandbox.entries(), entries)
        }

        @Test func kanbanNowSetsCreatedAndEnteredInRFC3339OrEpochSeconds() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            try sandbox.succeed(["add", "Offset", "-q"], environment: ["KANBAN_NOW": "2026-11-23T11:04:05+01:00"])
            try sandbox.succeed(["add", "Epoch", "-q"], environment: ["KANBAN_NOW": "1795428000"])
            try expectEqual(shownCard(sandbox, "Offset")["created"] as? String, "2026-11-23T10:04:05Z")
            try expectEqual(shownCard(sandbox, "Epoch")["entered"] as? String, "2026-11-23T10:00:00Z")
        }
    }
}

// MARK: - edit in the editor

extension CardsEndToEndTests {
    @Suite(
        "edit in $VISUAL",
        .enabled(if: Tmux.available, "tmux or bash is not installed: edit in an editor is not checked on a terminal"))
    struct EditorEditing {
        /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
        enum Check: CaseIterable {
            case offATerminalEditWithoutAnOptionIsAUsageErrorAndRunsNoEditor
            case savingTheCardTextAppliesWhatChanged
            case anUnchangedOrEmptyFileChangesNothing
        }

        @Test(arguments: Check.allCases)
        func each(_ check: Check) throws {
            switch check {
            case .offATerminalEditWithoutAnOptionIsAUsageErrorAndRunsNoEditor:
                try offATerminalEditWithoutAnOptionIsAUsageErrorAndRunsNoEditor()
            case .savingTheCardTextAppliesWhatChanged: try savingTheCardTextAppliesWhatChanged()
            case .anUnchangedOrEmptyFileChangesNothing: try anUnchangedOrEmptyFileChangesNothing()
            }
        }

        func offATerminalEditWithoutAnOptionIsAUsageErrorAndRunsNoEditor() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            let editor = try script(sandbox, "editor.sh", "touch \(quote(sandbox.path("editor-ran")))")
            let before = try sandbox.snapshot()
            try expectJSONError(
                try sandbox.run(["edit", "Analytics", "--json"], environment: ["VISUAL": editor]), exit: 64,
                code: "usage")
            let text = try sandbox.run(["edit", "Analytics"], environment: ["VISUAL": editor])
            expectEqual(text.status, 64, "\(text)")
            expectTrue(text.err.contains("see 'kanban help edit'"), "\(text)")
            expectTrue(!sandbox.exists("editor-ran"))
            try expectEqual(sandbox.snapshot(), before)
        }

        func savingTheCardTextAppliesWhatChanged() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            try sandbox.succeed(
                "add", "Fix the login page", "--to", "Todo", "--top", "--label", "bug", "--label", "p1", "--due",
                "2026-11-24", "--note", "Steps to reproduce, any number of lines.", "-q")
            let id = try sandbox.boards().id(of: "Fix the login page")
            let edited = """
                Fix the login page on Safari
                labels: p1 @alice
                due: 2026-12-01
                assignees: @carol dave

                Seen on Safari only.

                Steps: open the page.

                """
            try sandbox.write(edited, to: "edited.txt")
            // VISUAL is run by the shell with the file as its last word, so it may have arguments.
            let editor = try script(
                sandbox, "editor.sh", "cp \"$2\" \(quote(sandbox.path("seen.txt")))\ncat \"$1\" > \"$2\"")
            let terminal = try runOnTerminal(
                sandbox, ["edit", "Fix the login page"],
                environment: ["VISUAL": "\(editor) \(quote(sandbox.path("edited.txt")))", "EDITOR": "false"])
            expectEqual(terminal.status, 0, "\(terminal)")
            expectTrue(terminal.screen.contains { $0.hasPrefix("edited \(id) ") }, "\(terminal)")

            // What the editor was given: the README's form of the card.
            let seen = String(decoding: try sandbox.bytes("seen.txt"), as: UTF8.self)
            expectTrue(
                seen.trimmingTrailingNewlines
                    == "Fix the login page\nlabels: bug p1\ndue: 2026-11-24\nassignees: \n\n"
                    + "Steps to reproduce, any number of lines.")

            let card = try shownCard(sandbox, id)
            expectEqual(card["title"] as? String, "Fix the login page on Safari")
            expectEqual(card["labels"] as? [String], ["@alice", "p1"])
            expectEqual(card["assignees"] as? [String], ["carol", "dave"], "an @ before a name is dropped")
            expectEqual(card["due"] as? String, "2026-12-01")
            expectEqual(card["note"] as? String, "Seen on Safari only.\n\nSteps: open the page.")
            expectEqual(card["board"] as? String, "Todo")
            expectEqual(card["index"] as? Int, 0)
            expectTrue(try sandbox.entries("tmp").isEmpty, "the text file is removed once applied")
        }

        func anUnchangedOrEmptyFileChangesNothing() throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            try sandbox.succeed("edit", "Analytics", "--label", "p1", "--note", "Keep.", "-q")
            let before = try sandbox.snapshot()
            let empty = try script(sandbox, "empty.sh", ": > \"$1\"")
            for editor in ["true", empty] {
                let terminal = try runOnTerminal(sandbox, ["edit", "Analytics"], environment: ["EDITOR": editor])
                expectEqual(terminal.status, 0, "\(editor): \(terminal)")
                try expectEqual(sandbox.snapshot(), before, "\(editor) changed the file")
            }
            try expectEqual(shownCard(sandbox, "Analytics")["note"] as? String, "Keep.")
        }

        @Test(arguments: [false, true])
        func aCardChangedWhileInTheEditorIsRefusedAndTheTextKept(json: Bool) throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            let id = try sandbox.boards().id(of: "Analytics")
            let edited = "Edited title\nlabels: edited\ndue: 2026-12-24\n\nWritten in the editor.\n"
            try sandbox.write(edited, to: "edited.txt")
            // While "editing", another kanban command renames the card; with the lock held it
            // would give up at once (KANBAN_LOCK_TIMEOUT=0) with exit 75.
            let editor = try script(
                sandbox, "editor.sh",
                """
                cat \(quote(sandbox.path("edited.txt"))) > "$1"
                KANBAN_LOCK_TIMEOUT=0 \(quote(try KanbanBinary.require())) -f \(quote(sandbox.file)) \
                    rename \(id) 'Renamed meanwhile' > \(quote(sandbox.path("rename.out"))) 2>&1
                echo $? > \(quote(sandbox.path("rename.status")))
                """)
            let terminal = try runOnTerminal(
                sandbox, ["edit", "Analytics"] + (json ? ["--json"] : []), environment: ["VISUAL": editor])

            let rename = String(decoding: try sandbox.bytes("rename.status"), as: UTF8.self)
            let renameOutput = String(decoding: try sandbox.bytes("rename.out"), as: UTF8.self)
            expectEqual(rename, "0\n", "the other command runs while the editor is open: \(renameOutput)")
            expectEqual(terminal.status, 1, "\(terminal)")
            var message = terminal.stderr
            if json {
                let error = try require(try jsonObject(terminal.stderr)["error"] as? [String: Any], "\(terminal)")
                expectEqual(error["code"] as? String, "conflict")
                message = error["message"] as? String ?? ""
            } else {
                expectTrue(terminal.stderr.hasPrefix("kanban: error: "), "\(terminal)")
            }

            // The other command's change stays; the edit wrote nothing.
            let card = try shownCard(sandbox, id)
            expectEqual(card["title"] as? String, "Renamed meanwhile")
            expectTrue(card["labels"] == nil)
            expectTrue(card["due"] == nil)
            expectTrue(card["note"] == nil)

            // The edited text is kept in a file whose path is printed.
            let directory = sandbox.path("tmp") + "/"
            let start = try require(message.range(of: directory), "no path in \(message)")
            let path = String(message[start.lowerBound...].prefix { !"'\" \n".contains($0) })
            expectTrue(sandbox.exists(path), "\(path)")
            expectEqual(String(decoding: try sandbox.bytes(path), as: UTF8.self), edited)
        }

        /// What an editor may leave in place of the text (README: Security): kanban reads it
        /// back only while it is a regular file of bounded size, so a FIFO does not hang it, a
        /// symlink is not followed (its target neither read nor written), and a huge sparse
        /// file is not read; each is refused (exit 74), removed, and nothing is changed.
        @Test(arguments: ["fifo", "symlink", "sparse", "directory"])
        func whatIsNotTheEditorsTextFileIsRefusedAndRemoved(_ kind: String) throws {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            // A card text that would apply, in a file the editor must not get kanban to read.
            let secret = "TOPSECRET title\nlabels: leaked\ndue: 2026-12-24\n\nTOPSECRET note\n"
            try sandbox.write(secret, to: "secret.txt")
            let replace: String
            switch kind {
            case "fifo": replace = "rm -f \"$1\" && mkfifo \"$1\""
            case "symlink": replace = "rm -f \"$1\" && ln -s \(quote(sandbox.path("secret.txt"))) \"$1\""
            case "sparse": replace = "truncate -s 2G \"$1\""
            default: replace = "rm -f \"$1\" && mkdir \"$1\""
            }
            let editor = try script(sandbox, "editor.sh", replace)
            let before = try sandbox.snapshot()
            let terminal = try runOnTerminal(sandbox, ["edit", "Analytics"], environment: ["VISUAL": editor])
            expectEqual(terminal.status, 74, "\(terminal)")
            expectTrue(terminal.stderr.hasPrefix("kanban: error: "), "\(terminal)")
            expectTrue(terminal.stderr.contains("not a regular file") || terminal.stderr.contains("larger"), "\(terminal)")
            expectTrue(!terminal.stderr.contains("TOPSECRET"), "the symlink's target was read: \(terminal)")
            try expectEqual(sandbox.snapshot(), before, "the kanban changed")
            expectEqual(String(decoding: try sandbox.bytes("secret.txt"), as: UTF8.self), secret)
            expectTrue(try sandbox.entries("tmp").isEmpty, "what the editor left is removed")
        }

        // MARK: Helpers

        /// What `kanban ARGUMENTS` did on a terminal: its exit status, the screen (stdout),
        /// and stderr (sent to a file).
        struct TerminalRun: CustomStringConvertible {
            var status: Int32?
            var screen: [String]
            var stderr: String
            var description: String {
                let exit = status.map { "exit \($0)" } ?? "no exit status"
                return "\(exit)\n--- screen ---\n\(screen.joined(separator: "\n"))\n--- stderr ---\n\(stderr)"
            }
        }

        /// Runs kanban in a tmux pane, so that stdin and stdout are a terminal, with the
        /// sandbox's clock and `TMPDIR` in the sandbox.
        private func runOnTerminal(
            _ sandbox: KanbanSandbox, _ arguments: [String], environment: [String: String]
        ) throws -> TerminalRun {
            try FileManager.default.createDirectory(atPath: sandbox.path("tmp"), withIntermediateDirectories: true)
            let tmux = Tmux(in: sandbox)
            defer { tmux.kill() }
            let err = sandbox.path("kanban.err")
            let status = sandbox.path("kanban.status")
            let command =
                ([try KanbanBinary.require()] + arguments).map(quote).joined(separator: " ")
                + " 2> \(quote(err)); echo $? > \(quote(status))"
            let screen = try tmux.capture(
                command, width: 200, height: 20,
                environment: ["KANBAN_NOW": sandbox.fixedNow, "TZ": "UTC", "TMPDIR": sandbox.path("tmp")].merging(
                    environment
                ) { $1 })
            let code = String(decoding: try sandbox.bytes(status), as: UTF8.self)
            return TerminalRun(
                status: Int32(code.trimmingCharacters(in: .whitespacesAndNewlines)), screen: screen,
                stderr: String(decoding: try sandbox.bytes(err), as: UTF8.self))
        }

        /// A `/bin/sh` script in the sandbox; returns the command that runs it. The shell reads
        /// the script rather than the system executing it: a file just written may still be
        /// open for writing in a child another test forked meanwhile, and executing it would
        /// then fail with "Text file busy".
        private func script(_ sandbox: KanbanSandbox, _ name: String, _ body: String) throws -> String {
            try sandbox.write("\(body)\n", to: name)
            return "/bin/sh \(quote(sandbox.path(name)))"
        }
    }
}

// MARK: - Helpers

/// The card `reference` as `show --json` prints it.
private func shownCard(
    _ sandbox: KanbanSandbox, _ reference: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String: Any] {
    let cards = try jsonArray(try sandbox.succeed(["show", reference, "--json"], sourceLocation: sourceLocation))
    return try require(cards.first, "show \(reference) printed no card", sourceLocation: sourceLocation)
}

/// Parses a JSON array of objects.
private func jsonArray(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    try require(
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]], "not a JSON array: \(text)",
        sourceLocation: sourceLocation)
}

/// The only item of a mutating command's `--json` report.
private func onlyItem(_ report: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    try onlyItem(try jsonObject(report, sourceLocation: sourceLocation), sourceLocation: sourceLocation)
}

private func onlyItem(_ report: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: Any]
{
    let items = try require(report["items"] as? [[String: Any]], "\(report)", sourceLocation: sourceLocation)
    try require(items.count == 1, "\(report)", sourceLocation: sourceLocation)
    return items[0]
}

/// The `changes` of a reported item.
private func changes(_ item: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    try require(item["changes"] as? [String: Any], "no changes in \(item)", sourceLocation: sourceLocation)
}

/// `[old, new]` of a text field (`null` as nil), or nil when it is not such a pair.
private func textPair(_ value: Any?) -> [String?]? {
    guard let pair = value as? [Any], pair.count == 2 else { return nil }
    var result: [String?] = []
    for element in pair {
        if element is NSNull {
            result.append(nil)
        } else if let text = element as? String {
            result.append(text)
        } else {
            return nil
        }
    }
    return result
}

/// `[old, new]` of the labels.
private func labelPair(_ value: Any?) -> [[String]]? {
    guard let pair = value as? [Any], pair.count == 2 else { return nil }
    let lists = pair.compactMap { $0 as? [String] }
    return lists.count == 2 ? lists : nil
}

/// `{"board", "index"}` as `BOARD:N`.
private func slot(_ value: Any?) -> String? {
    guard let slot = value as? [String: Any], let board = slot["board"] as? String, let index = slot["index"] as? Int
    else { return nil }
    return "\(board):\(index)"
}

/// The items on the boards of the kanban file, as JSON objects.
private func fileItems(_ sandbox: KanbanSandbox) throws -> [[String: Any]] {
    let root = try require((try JSONSerialization.jsonObject(with: Data(try sandbox.bytes()))) as? [String: Any])
    let boards = try require(root["boards"] as? [[String: Any]])
    return boards.flatMap { ($0["items"] as? [[String: Any]]) ?? [] }
}

/// The archive of the kanban file, as JSON objects.
private func fileArchive(_ sandbox: KanbanSandbox) throws -> [[String: Any]] {
    let root = try require((try JSONSerialization.jsonObject(with: Data(try sandbox.bytes()))) as? [String: Any])
    return (root["archive"] as? [[String: Any]]) ?? []
}

/// The lines of `text`, without trailing spaces and without the final line break.
private func rightTrimmedLines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        String($0.reversed().drop { $0 == " " }.reversed())
    }
    if lines.last == "" { lines.removeLast() }
    return lines
}

/// `Board:N title` as `Board title`.
private func withoutIndex(_ card: String) -> String {
    guard let colon = card.firstIndex(of: ":"), let space = card[colon...].firstIndex(of: " ") else { return card }
    return String(card[..<colon] + card[space...])
}

/// `text` in single quotes for `/bin/sh`.
private func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        String(reversed().drop { $0 == "\n" }.reversed())
    }
}
