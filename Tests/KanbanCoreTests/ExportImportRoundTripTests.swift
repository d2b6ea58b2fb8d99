import Testing

@testable import KanbanCore

// Export then import gives back the same boards, titles, order, labels, due dates and notes
// (SPEC §12), over generated kanbans whose text is chosen to trip the formats up: Markdown
// marks, escapes, label and date look-alikes, a trailing "(3)", quotes, commas, line breaks
// and blank lines in notes, tabs, wide characters.

/// Random kanbans from a seed.
struct KanbanGenerator {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    static let words = [
        "Fix", "login", "#123", "#bug", "C#", "\\", "\\#", "a\\b", "@{2026-12-01}", "@[[2027-01-01]]", "^abc", "<br>",
        "(3)", "\"quoted\"", "it's", "a,b", "- [ ]", "[x]", "**bold**", "_it_", "`code`", "~~", "%%", "***", "---",
        "日本語", "🙂", "Ünï", "x\ty", "|", ">", "=", "+", "1.", "##", "#\u{301}x", "\u{301}", "\u{A0}#nb",
    ]
    static let labels = [
        "bug", "p1", "@alice", "c++", "a/b", "x\\y", "C#", "{x}", "123", "Ünï", "<br>", "\u{301}a", "a\\#",
    ]
    static let noteLines = [
        "", "plain text", "  indented", "\tTabbed", "- [ ] step", "- [x] done", "## heading", "***", "---",
        "%% kanban:settings", "    code", "trailing spaces   ", "a,\"b\",c", "#tag @{2026-01-01}",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[int(0...values.count - 1)]
    }

    mutating func title() -> Title {
        while true {
            let text = (0..<int(1...4)).map { _ in pick(Self.words) }.joined(separator: pick([" ", " ", "  "]))
            if let title = try? Title(text) { return title }
        }
    }

    mutating func card() -> CardContent {
        var labels = Labels()
        for _ in 0..<int(0...3) { labels.insert(pick(Self.labels)) }
        let due = int(0...2) == 0 ? Day(daysSinceEpoch: int(0...40_000)) : nil
        var note: String?
        if int(0...1) == 0 {
            note = (0..<int(1...5)).map { _ in pick(Self.noteLines) }.joined(separator: "\n")
            if note!.isEmpty { note = nil }
        }
        return CardContent(title: title(), labels: labels, due: due, note: note)
    }

    /// An import document with boards of distinct titles (ignoring case), some empty, and an
    /// archive when `archive` is set.
    mutating func document(archive: Bool, limits: Bool) -> ImportDocument {
        var document = ImportDocument()
        var keys: Set<String> = []
        for _ in 0..<int(0...5) {
            let title = title()
            guard keys.insert(title.text.lowercased()).inserted else { continue }
            let limit = limits && int(0...2) == 0 ? int(0...9) : nil
            document.boards.append(
                ImportedBoard(title: title, limit: limit, cards: (0..<int(0...6)).map { _ in card() }))
        }
        if archive {
            document.archive = (0..<int(0...3)).map { _ in ImportedArchivedCard(card: card()) }
        }
        return document
    }
}

@Suite("Export then import")
struct ExportImportRoundTripTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case markdownGivesBackBoardsCardsLimitsAndTheArchive
        case csvGivesBackBoardsAndCards
        case jsonGivesBackEverything
        case theFormatOfAnExportIsGuessed
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .markdownGivesBackBoardsCardsLimitsAndTheArchive: try markdownGivesBackBoardsCardsLimitsAndTheArchive()
        case .csvGivesBackBoardsAndCards: try csvGivesBackBoardsAndCards()
        case .jsonGivesBackEverything: try jsonGivesBackEverything()
        case .theFormatOfAnExportIsGuessed: try theFormatOfAnExportIsGuessed()
        }
    }

    static let cases = 400

    /// The kanban an import of `document` into an empty kanban makes.
    static func kanban(_ document: ImportDocument, seed: UInt64) throws -> Kanban {
        var kanban = try Kanban(boards: [])
        var generator = SeededGenerator(seed: seed)
        try kanban.importing(document, now: Timestamp(seconds: 1_800_000_000), using: &generator)
        return kanban
    }

    func markdownGivesBackBoardsCardsLimitsAndTheArchive() throws {
        for seed in 0..<UInt64(Self.cases) {
            var generator = KanbanGenerator(seed: seed)
            let document = generator.document(archive: true, limits: true)
            let markdown = MarkdownBoard.export(try Self.kanban(document, seed: seed))
            let read: ImportDocument
            do {
                read = try MarkdownBoard.read(Array(markdown.utf8))
            } catch {
                Issue.record("seed \(seed): \(error)\n\(markdown)")
                continue
            }
            expectEqual(read, document, "seed \(seed):\n\(markdown)")
        }
    }

    func csvGivesBackBoardsAndCards() throws {
        for seed in 0..<UInt64(Self.cases) {
            var generator = KanbanGenerator(seed: seed)
            let document = generator.document(archive: false, limits: false)
            let csv = CSVTable.export(try Self.kanban(document, seed: seed))
            let read: ImportDocument
            do {
                read = try CSVTable.read(Array(csv.utf8))
            } catch {
                Issue.record("seed \(seed): \(error)\n\(csv)")
                continue
            }
            expectEqual(read, document, "seed \(seed):\n\(csv)")
        }
    }

    func jsonGivesBackEverything() throws {
        for seed in 0..<UInt64(Self.cases / 4) {
            var generator = KanbanGenerator(seed: seed)
            let document = generator.document(archive: false, limits: true)
            let json = KanbanFile.encode(try Self.kanban(document, seed: seed))
            try expectEqual(ImportFormat.json.read(json, localDay: utcDay), document, "seed \(seed)")
        }
    }

    func theFormatOfAnExportIsGuessed() throws {
        for seed in 0..<UInt64(50) {
            var generator = KanbanGenerator(seed: seed)
            let kanban = try Self.kanban(generator.document(archive: true, limits: true), seed: seed)
            expectEqual(ImportFormat.guess(Array(MarkdownBoard.export(kanban).utf8)), .markdown)
            expectEqual(ImportFormat.guess(Array(CSVTable.export(kanban).utf8)), .csv)
            expectEqual(ImportFormat.guess(KanbanFile.encode(kanban)), .json)
        }
        expectEqual(ImportFormat.guess(try Fixtures.bytes("trello-board.json")), .trello)
        expectEqual(ImportFormat.guess(try Fixtures.bytes("trello-card.json")), .trello)
        expectEqual(ImportFormat.guess(Array("[{\"title\": \"Todo\", \"items\": []}]".utf8)), .json)
        expectEqual(ImportFormat.guess(Array("\u{FEFF}\"Board\",\"Title\"\r\n".utf8)), .csv)
        expectEqual(ImportFormat.guess(Array("# Notes\n".utf8)), .markdown)
    }
}
