/// The formats `kanban import` reads.
public enum ImportFormat: String, CaseIterable, Hashable, Sendable {
    /// A Trello board's JSON export.
    case trello
    /// A Markdown board, as `kanban export` and the Obsidian Kanban plugin write it.
    case markdown
    /// CSV, as `kanban export --format csv` writes it.
    case csv
    /// A kanban file (`kanban export --format json`, or another kanban.json).
    case json

    /// The format of a file, from its content: JSON that is a kanban document is `json`,
    /// other JSON `trello`; text whose first line is a header with `board` and `title`
    /// columns is `csv`; anything else is read as `markdown` (which refuses what is not a
    /// board).
    public static func guess(_ bytes: [UInt8]) -> ImportFormat {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else { return .markdown }
        switch bytes[start] {
        case UInt8(ascii: "["):
            return .json  // the original app's format: an array of boards
        case UInt8(ascii: "{"):
            let keys = topLevelKeys(bytes)
            return keys.contains("version") && keys.contains("boards") ? .json : .trello
        default:
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let header = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
            let names = header.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.filter { $0 != "\"" && $0 != "\r" }.trimmingSurroundingWhitespace()
            }
            return names.contains("board") && names.contains("title") ? .csv : .markdown
        }
    }

    /// The keys of a JSON object, read without building it; as many as can be read.
    private static func topLevelKeys(_ bytes: [UInt8]) -> Set<String> {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            reader.skipByteOrderMark()
            var keys: Set<String> = []
            var first = true
            do {
                try reader.beginObject("")
                while let key = try reader.nextKey(first: &first) {
                    keys.insert(try reader.text(of: key))
                    try reader.skipValue()
                }
            } catch {}
            return keys
        }
    }

    /// Reads a file in this format.
    ///
    /// - Parameter localDay: the local date of an instant, for Trello's due times.
    /// - Throws: an ``ImportError`` naming where the file is not in this format.
    public func read(_ bytes: [UInt8], localDay: (Timestamp) -> Day) throws(ImportError) -> ImportDocument {
        switch self {
        case .trello: try TrelloImport.read(bytes, localDay: localDay)
        case .markdown: try MarkdownBoard.read(bytes)
        case .csv: try CSVTable.read(bytes)
        case .json: try Self.readKanban(bytes)
        }
    }

    /// A kanban file's boards and archive, as an import. Archived cards remember the title of
    /// the board they left, if it is in the file.
    private static func readKanban(_ bytes: [UInt8]) throws(ImportError) -> ImportDocument {
        let kanban: Kanban
        do {
            kanban = try KanbanFile.decode(bytes).kanban
        } catch {
            switch error {
            case .corruptFile(let line, let message): throw ImportError(.line(line), message)
            default: throw ImportError(.file, ImportError.reason(error))
            }
        }
        // Titles in a file need not be as a user would type them (a hand-edited file): checked here.
        func title(_ text: String, _ what: String) throws(ImportError) -> Title {
            do {
                return try Title(text)
            } catch {
                throw ImportError(.file, "\(what) \(JSON.quoted(text)): \(ImportError.reason(error))")
            }
        }
        func card(_ item: Item) throws(ImportError) -> CardContent {
            let title = try title(item.title, "card")
            var card = CardContent(title: title, of: item)
            // As typed notes are: the file may hold what no import may bring (README: Reliability).
            do {
                card.note = try item.note.map { (note) throws(KanbanError) in try Note.checked(note) }
            } catch {
                throw ImportError(.file, "card \(JSON.quoted(item.title)): \(ImportError.reason(error))")
            }
            return card
        }
        var document = ImportDocument()
        for board in kanban.boards {
            var imported = ImportedBoard(title: try title(board.title, "board"), limit: board.limit)
            for item in board.items { imported.cards.append(try card(item)) }
            document.boards.append(imported)
        }
        for archived in kanban.archive {
            let board = try kanban.boardIndex(id: archived.board).map { index throws(ImportError) in
                try title(kanban.boards[index].title, "board")
            }
            document.archive.append(ImportedArchivedCard(card: try card(archived.item), board: board))
        }
        return document
    }
}
