// What must hold for any input to the import readers (Trello, Markdown, CSV). Like
// FuzzProperties.swift, compiled into the fuzz targets (Tests/Fuzz/Trello.swift,
// Markdown.swift, CSV.swift) with -D FUZZING and into the tests, which run it over the
// committed seeds and regressions. Pure Swift on KanbanCore.

import KanbanCore

extension FuzzProperties {
    /// Reads `bytes` as `format` and returns what is wrong, or nil.
    ///
    /// Reading must succeed or throw an ``ImportError`` that names a line of the file or a
    /// JSON path, the same every time. What it reads must import into an empty kanban that
    /// keeps its invariants, and that kanban must come back unchanged through a Markdown and
    /// a CSV export and import (CSV keeps no limits and no archive).
    public static func importViolation(_ format: ImportFormat, _ bytes: [UInt8]) -> String? {
        let localDay: (Timestamp) -> Day = { $0.utcDay }
        let document: ImportDocument
        do {
            document = try format.read(bytes, localDay: localDay)
        } catch {
            switch error.location {
            case .line(let line):
                let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                if !(1...lines).contains(line) {
                    return "the error names line \(line) of a \(lines)-line file: \(error)"
                }
            case .path(let path):
                if !path.hasPrefix("$") { return "the error names the path \(path): \(error)" }
            case .file:
                break
            }
            if error.message.isEmpty { return "an error with no message" }
            // A message is words: never a Swift rendering of a value, never a raw control,
            // directional control or line separator (README: Reliability).
            for leak in ["KanbanCore.", "invalidTitle(", "invalidValue(", "reason: .", "Unicode.Scalar"]
            where error.message.contains(leak) {
                return "the message shows a program's value (\(leak)): \(error)"
            }
            if error.message.unicodeScalars.contains(where: \.isRefusedInText) {
                return "the message holds a raw control or directional character: \(error)"
            }
            if (try? format.read(bytes, localDay: localDay)) != nil { return "reading twice differs" }
            return nil
        }
        if (try? format.read(bytes, localDay: localDay)) != document { return "reading twice differs" }
        var kanban: Kanban
        do {
            kanban = try Kanban(boards: [])
            var generator = SeededGenerator(seed: 1)
            try kanban.importing(document, now: Timestamp(seconds: 0), force: true, using: &generator)
            try kanban.validate()
        } catch {
            return "what was read does not import: \(error)"
        }
        guard let expected = contents(of: kanban) else { return "a title on the kanban is not a title" }
        do {
            let markdown = MarkdownBoard.export(kanban)
            let again = try MarkdownBoard.read(Array(markdown.utf8))
            if again != expected { return "a Markdown export reads back otherwise:\n\(markdown)" }
        } catch {
            return "a Markdown export does not read back: \(error)"
        }
        do {
            let csv = CSVTable.export(kanban)
            var withoutArchive = expected
            withoutArchive.archive = []
            for index in withoutArchive.boards.indices { withoutArchive.boards[index].limit = nil }
            if try CSVTable.read(Array(csv.utf8)) != withoutArchive {
                return "a CSV export reads back otherwise:\n\(csv)"
            }
        } catch {
            return "a CSV export does not read back: \(error)"
        }
        return nil
    }

    /// A kanban's boards, cards and archive as an import of its Markdown export gives them.
    private static func contents(of kanban: Kanban) -> ImportDocument? {
        func card(_ item: Item) -> CardContent? {
            guard let title = try? Title(item.title), title.text == item.title else { return nil }
            return CardContent(title: title, of: item)
        }
        var document = ImportDocument()
        for board in kanban.boards {
            guard let title = try? Title(board.title) else { return nil }
            let cards = board.items.compactMap(card)
            guard cards.count == board.items.count else { return nil }
            document.boards.append(ImportedBoard(title: title, limit: board.limit, cards: cards))
        }
        for archived in kanban.archive {
            guard let content = card(archived.item) else { return nil }
            document.archive.append(ImportedArchivedCard(card: content))
        }
        return document
    }
}
