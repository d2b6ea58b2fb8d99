/// A kanban's cards as CSV (RFC 4180): a header, then one record per card, board by board,
/// top to bottom; records end with CRLF, and fields holding a comma, a quote or a line
/// break are quoted (a quote doubled):
///
///     board,index,id,title,labels,due,created,entered,note,assignees
///     Todo,0,k3f9p2,Database Migration,"db,p1",2026-12-01,2026-11-23T10:04:05Z,2026-11-23T10:04:05Z,"Two
///     lines",alice
///     Review,,,,,,,,,
///
/// `labels` and `assignees` are comma-separated, as in `list --tsv`. A board without cards has one record
/// with only its title, so that it is kept. The archive is not exported.
public enum CSVTable {
    /// The columns, in the order written: where the card is, then each of its fields.
    public static let columns = ["board", "index", "id"] + CardField.columns.map(\.name)

    // MARK: - Writing

    public static func export(_ kanban: Kanban) -> String {
        var out = columns.joined(separator: ",") + "\r\n"
        for board in kanban.boards {
            if board.items.isEmpty {
                out += field(board.title) + String(repeating: ",", count: columns.count - 1) + "\r\n"
            }
            for (index, item) in board.items.enumerated() {
                out += [board.title, String(index), item.id.rawValue].map { field($0) }.joined(separator: ",")
                for cardField in CardField.columns {
                    let value = cardField.value(item)
                    out += "," + field(text(value), note: value.kind == .text)
                }
                out += "\r\n"
            }
        }
        return out
    }

    /// A card field's value in its column: words separated by commas (as `list --tsv` has
    /// labels), else as plain text; empty for none.
    private static func text(_ value: FieldValue) -> String {
        if case .words(let words) = value { return words.joined(separator: ",") }
        return value.plain ?? ""
    }

    /// A field, quoted if it must be; control characters other than tab (and LF in a note),
    /// directional formatting controls and line separators are written as visible escapes: a
    /// title from a hand-edited file may hold them.
    private static func field(_ value: String, note: Bool = false) -> String {
        func isEscaped(_ scalar: Unicode.Scalar) -> Bool { scalar.isRefusedInText && !(note && scalar == "\n") }
        var text = value
        if text.unicodeScalars.contains(where: isEscaped) {
            text = ""
            for scalar in value.unicodeScalars {
                if isEscaped(scalar) {
                    text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A })
        else { return text }
        return "\"" + text.replacingEvery("\"", with: "\"\"") + "\""
    }

    // MARK: - Reading

    /// Reads CSV with a header naming some of ``columns`` (`board` and `title` required), in
    /// any order and any case. Cards keep the order of their records; boards the order in
    /// which they first appear. A record with an empty title (and id) only names a board.
    /// `index`, `id`, `created` and `entered` are not read: imported cards get new ones.
    ///
    /// - Throws: an ``ImportError`` at the line of a malformed record (an unterminated
    ///   quote, a wrong number of fields) or of a value that breaks the kanban's rules, or
    ///   at line 1 for a header that is not this one.
    public static func read(_ bytes: [UInt8]) throws(ImportError) -> ImportDocument {
        var parser = Parser(bytes)
        guard let (_, header) = try parser.nextRecord() else { throw ImportError(.file, "the file is empty") }
        var columnIndex: [String: Int] = [:]
        for (index, name) in header.enumerated() {
            let key = name.trimmingSurroundingWhitespace().lowercased()
            guard columns.contains(key), columnIndex[key] == nil else {
                throw ImportError(
                    .line(1),
                    "expected the header \(columns.joined(separator: ",")) (or some of its columns), found "
                        + JSON.quoted(String(header.joined(separator: ",").prefix(80))))
            }
            columnIndex[key] = index
        }
        guard let boardColumn = columnIndex["board"], let titleColumn = columnIndex["title"] else {
            throw ImportError(
                .line(1),
                "the header needs the columns 'board' and 'title' (expected \(columns.joined(separator: ","))), found "
                    + JSON.quoted(String(header.joined(separator: ",").prefix(80))))
        }
        var document = ImportDocument()
        var boardIndex: [String: Int] = [:]
        while let (line, fields) = try parser.nextRecord() {
            if fields.count == 1 && fields[0].isEmpty { continue }  // a blank line
            guard fields.count == header.count else {
                throw ImportError(.line(line), "\(fields.count) fields, but the header has \(header.count)")
            }
            func value(_ column: String) -> String { columnIndex[column].map { fields[$0] } ?? "" }
            func fail(_ error: KanbanError) -> ImportError { ImportError(.line(line), ImportError.reason(error)) }
            let board: Title
            do {
                board = try Title(fields[boardColumn])
            } catch {
                throw fail(error)
            }
            let key = board.text.boardKey
            let index: Int
            if let existing = boardIndex[key] {
                index = existing
            } else {
                index = document.boards.count
                boardIndex[key] = index
                document.boards.append(ImportedBoard(title: board))
            }
            if fields[titleColumn].isEmpty && value("id").isEmpty {
                for field in readFields where !value(field.name).isEmpty {
                    throw ImportError(.line(line), "a card with a \(field.name) but no title")
                }
                continue
            }
            do throws(KanbanError) {
                var values: [String: FieldValue] = [:]
                for field in checkedFields {
                    values[field.name] = try Self.value(value(field.name), of: field)
                }
                document.boards[index].cards.append(CardContent(title: try Title(fields[titleColumn]), values))
            } catch {
                throw fail(error)
            }
        }
        return document
    }

    /// The fields a record gives a card besides its title: those a person edits.
    private static let readFields = CardField.all.filter { $0.isEdit && $0.name != "title" }

    /// The same, in the order their values are checked: sets of words, then dates, then text.
    private static let checkedFields = readFields.sorted { order($0.kind) < order($1.kind) }

    private static func order(_ kind: FieldValue.Kind) -> Int {
        switch kind {
        case .words: 0
        case .day: 1
        default: 2
        }
    }

    /// A field's value as its column holds it: words separated by commas or spaces, a date
    /// as `YYYY-MM-DD`, text; an empty column is none.
    private static func value(_ text: String, of field: CardField) throws(KanbanError) -> FieldValue {
        switch field.kind {
        case .words:
            // By scalars: a combining mark after a comma must not hide it.
            var words = Labels()
            for word in text.unicodeScalars.split(whereSeparator: { $0 == "," || $0.properties.isWhitespace }) {
                words.insert(try Labels.checked(String(String.UnicodeScalarView(word)), as: field.word ?? .label))
            }
            return .words(words.names)
        case .day:
            let trimmed = text.trimmingSurroundingWhitespace()
            guard trimmed.isEmpty || Day(iso: trimmed) != nil else {
                throw KanbanError.invalidValue(kind: .due, value: trimmed, reason: "expected YYYY-MM-DD")
            }
            return .day(Day(iso: trimmed))
        case .text:
            let note = try Note.checked(text)
            return .text(note.isEmpty ? nil : note)
        case .line, .time, .number, .trail, .role:
            return .none(field.kind)
        }
    }

    /// RFC 4180 records, with the line each starts on. CRLF and LF both end a record; a byte
    /// order mark is skipped.
    private struct Parser {
        let bytes: [UInt8]
        var offset: Int
        var line = 1

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        }

        mutating func nextRecord() throws(ImportError) -> (line: Int, fields: [String])? {
            guard offset < bytes.count else { return nil }
            let start = line
            var fields: [String] = []
            while true {
                fields.append(try nextField(recordLine: start))
                guard offset < bytes.count else { return (start, fields) }
                switch bytes[offset] {
                case UInt8(ascii: ","):
                    offset += 1
                case 0x0D where offset + 1 < bytes.count && bytes[offset + 1] == 0x0A:
                    offset += 2
                    line += 1
                    return (start, fields)
                case 0x0A:
                    offset += 1
                    line += 1
                    return (start, fields)
                default:
                    throw ImportError(.line(line), "expected a comma or the end of the record after a quoted field")
                }
            }
        }

        private mutating func nextField(recordLine: Int) throws(ImportError) -> String {
            var field: [UInt8] = []
            let fieldLine = line
            if offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") {
                offset += 1
                while true {
                    guard offset < bytes.count else {
                        throw ImportError(.line(fieldLine), "a quoted field that starts on this line is never closed")
                    }
                    let byte = bytes[offset]
                    offset += 1
                    if byte == UInt8(ascii: "\"") {
                        guard offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") else { break }
                        offset += 1
                    }
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
            } else {
                while offset < bytes.count {
                    let byte = bytes[offset]
                    if byte == UInt8(ascii: ",") || byte == 0x0A { break }
                    if byte == 0x0D && offset + 1 < bytes.count && bytes[offset + 1] == 0x0A { break }
                    if byte == UInt8(ascii: "\"") {
                        throw ImportError(
                            .line(line), "a '\"' inside a field that is not quoted; quote the field and double the '\"'"
                        )
                    }
                    field.append(byte)
                    offset += 1
                }
            }
            guard let text = String(validating: field, as: UTF8.self) else {
                throw ImportError(.line(fieldLine), "invalid UTF-8")
            }
            return text
        }
    }
}
