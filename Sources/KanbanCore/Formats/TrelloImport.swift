/// Reads a Trello board's JSON export (board menu › Share, print and export › Export as
/// JSON) as an import.
///
/// The mapping:
/// - open lists, in `pos` order, become boards; their open cards, in `pos` order, cards;
/// - closed (archived) cards go to the archive, remembering their list's board; so do the
///   cards of closed lists, whose board is not imported;
/// - a card's `name` is its title, its `desc` its note, and its checklists (in `pos` order)
///   are appended to the note, each as its name and one `- [ ] item` / `- [x] item` line per
///   item (in `pos` order);
/// - label names, or the color of a label without a name, become labels, with spaces
///   (and commas) turned into `-`;
/// - `due`, an instant, becomes the due date it falls on in the local time zone, unless
///   `dueComplete` marks it done: then the card has no due date (it is not overdue) and
///   its note ends with a line `Due YYYY-MM-DD, marked complete in Trello`;
/// - a card's members (`idMembers`, found in the board's `members` by id) become its
///   assignees, by `username`;
/// - a list's numeric `softLimit` becomes the board's WIP limit;
/// - a card's history: it was created at the time its id begins with (eight hex digits,
///   seconds since 1970), and its trail is its arrivals on open lists found in the export's
///   `actions` (`createCard` on `data.list`, `updateCard` from `data.listBefore` to
///   `data.listAfter`, `moveCardToBoard` onto `data.list`), oldest first; an export keeps
///   only the latest actions, so with none for a card its trail starts at its creation on
///   its list.
///
/// Everything else in the export (other actions, attachments, custom fields, dates of
/// activity) is left out; comments, attachments and card members not found among the
/// board's members are counted in ``ImportDocument/leftOut`` so that the user is told. Unknown keys are ignored:
/// Trello adds them freely.
public enum TrelloImport {
    /// Reads the bytes of an export.
    ///
    /// - Parameter localDay: the local calendar date of an instant, for due dates.
    /// - Throws: an ``ImportError`` at the line of a JSON syntax error, or at the JSON path
    ///   of a value that is not what a Trello board export has there.
    public static func read(_ bytes: [UInt8], localDay: (Timestamp) -> Day) throws(ImportError) -> ImportDocument {
        let root = try JSONValue.parse(bytes)
        guard root.isObject else {
            throw ImportError(.path("$"), "a Trello board export is a JSON object, found \(root.kindDescription)")
        }
        guard let listsValue = root["lists"] else {
            if root["idList"] != nil {
                throw ImportError(
                    .path("$"),
                    "this is a Trello card, not a board (it has \"idList\" and no \"lists\"); export the whole "
                        + "board: board menu › Share, print and export › Export as JSON")
            }
            if root["boards"] != nil && root["version"] != nil {
                throw ImportError(
                    .path("$"), "this is a kanban file, not a Trello export; import it with --format json")
            }
            throw ImportError(.path("$"), "missing \"lists\": not a Trello board export")
        }
        let lists = try array(listsValue, at: "$.lists")
        let cards = try array(try required(root, "cards", at: "$"), at: "$.cards")
        let checklists =
            try root["checklists"].map { value throws(ImportError) in try array(value, at: "$.checklists") } ?? []
        let boardLabels = try root["labels"].map { value throws(ImportError) in try array(value, at: "$.labels") } ?? []

        // Lists.
        var listsByID: [String: List] = [:]
        var orderedLists: [List] = []
        for (index, value) in lists.enumerated() {
            let path = "$.lists[\(index)]"
            try object(value, at: path)
            let id = try string(try required(value, "id", at: path), at: path + ".id")
            let name = try string(try required(value, "name", at: path), at: path + ".name")
            let list = List(
                id: id, title: try title(name, at: path + ".name"),
                closed: try bool(value["closed"], at: path + ".closed"),
                pos: try position(value["pos"], at: path + ".pos") ?? Double(index), index: index,
                limit: try softLimit(value["softLimit"], at: path + ".softLimit"))
            listsByID[id] = list
            orderedLists.append(list)
        }
        orderedLists.sort { ($0.pos, $0.index) < ($1.pos, $1.index) }

        // Labels of the board, for cards that give only `idLabels`.
        var labelsByID: [String: String] = [:]
        for value in boardLabels {
            guard let id = value["id"]?.string, let label = labelText(value) else { continue }
            labelsByID[id] = label
        }

        // Members of the board, for cards' `idMembers`: their usernames become assignees.
        var usernamesByID: [String: String] = [:]
        for value in root["members"]?.array ?? [] {
            guard let id = value["id"]?.string, let name = value["username"]?.string,
                Labels.problem(with: name) == nil
            else { continue }
            usernamesByID[id] = name
        }

        // Checklists, by card.
        var checklistsByCard: [String: [(pos: Double, index: Int, lines: [String])]] = [:]
        for (index, value) in checklists.enumerated() {
            let path = "$.checklists[\(index)]"
            try object(value, at: path)
            let card = try string(try required(value, "idCard", at: path), at: path + ".idCard")
            let name = try optionalString(value["name"], at: path + ".name") ?? ""
            var items: [(pos: Double, index: Int, line: String)] = []
            let checkItems =
                try value["checkItems"].map { v throws(ImportError) in try array(v, at: path + ".checkItems") } ?? []
            for (itemIndex, item) in checkItems.enumerated() {
                let itemPath = path + ".checkItems[\(itemIndex)]"
                try object(item, at: itemPath)
                let text = try string(try required(item, "name", at: itemPath), at: itemPath + ".name")
                let done = try optionalString(item["state"], at: itemPath + ".state") == "complete"
                let line = (done ? "- [x] " : "- [ ] ") + oneLine(text)
                items.append((try position(item["pos"], at: itemPath + ".pos") ?? Double(itemIndex), itemIndex, line))
            }
            items.sort { ($0.pos, $0.index) < ($1.pos, $1.index) }
            let heading = oneLine(name).isEmpty ? [] : [oneLine(name)]
            checklistsByCard[card, default: []].append(
                (try position(value["pos"], at: path + ".pos") ?? Double(index), index, heading + items.map(\.line)))
        }

        let arrivals = try arrivalsByCard(root["actions"], openLists: listsByID.filter { !$0.value.closed })

        // Cards.
        var attachments = 0
        var members = 0
        var cardsByList:
            [String: [(pos: Double, index: Int, closed: Bool, card: CardContent, history: ImportedHistory)]] = [:]
        for (index, value) in cards.enumerated() {
            let path = "$.cards[\(index)]"
            try object(value, at: path)
            let listID = try string(try required(value, "idList", at: path), at: path + ".idList")
            guard listsByID[listID] != nil else {
                throw ImportError(.path(path + ".idList"), "no list has the id \(JSON.quoted(listID))")
            }
            let name = try string(try required(value, "name", at: path), at: path + ".name")
            var note = try optionalString(value["desc"], at: path + ".desc") ?? ""
            if let id = value["id"]?.string, let lists = checklistsByCard[id] {
                for checklist in lists.sorted(by: { ($0.pos, $0.index) < ($1.pos, $1.index) }) {
                    note +=
                        (note.isEmpty ? "" : note.hasSuffix("\n") ? "\n" : "\n\n")
                        + checklist.lines.joined(separator: "\n")
                }
            }
            var due: Day?
            if let text = try optionalString(value["due"], at: path + ".due") {
                guard let instant = Timestamp(rfc3339: text) else {
                    throw ImportError(
                        .path(path + ".due"),
                        "expected a time such as 2026-12-01T12:00:00.000Z, found \(JSON.quoted(text))")
                }
                due = localDay(instant)
            }
            if let day = due, try bool(value["dueComplete"], at: path + ".dueComplete") {
                // Done in Trello: a due date would make it overdue here. The note keeps it.
                due = nil
                note += (note.isEmpty ? "" : note.hasSuffix("\n") ? "\n" : "\n\n")
                    + "Due \(day), marked complete in Trello"
            }
            // An export lists a card's attachments, or only counts them in its badges.
            let counted = value["badges"]?["attachments"]?.number.flatMap { Int(exactly: $0) } ?? 0
            attachments += value["attachments"]?.array?.count ?? counted
            var assignees = Labels()
            for member in value["idMembers"]?.array ?? [] {
                if let name = member.string.flatMap({ usernamesByID[$0] }) { assignees.insert(name) } else { members += 1 }
            }
            let checkedNote: String
            do {
                checkedNote = try Note.checked(note)
            } catch {
                throw ImportError(.path(path + ".desc"), ImportError.reason(error))
            }
            var labels = Labels()
            if let values = value["labels"] {
                for (labelIndex, label) in try array(values, at: path + ".labels").enumerated() {
                    try object(label, at: path + ".labels[\(labelIndex)]")
                    if let text = labelText(label) { labels.insert(text) }
                }
            } else if let values = value["idLabels"] {
                for (labelIndex, id) in try array(values, at: path + ".idLabels").enumerated() {
                    if let text = labelsByID[try string(id, at: path + ".idLabels[\(labelIndex)]")] {
                        labels.insert(text)
                    }
                }
            }
            let card = CardContent(
                title: try title(name, at: path + ".name"), labels: labels, assignees: assignees, due: due,
                note: checkedNote.isEmpty ? nil : checkedNote)
            let cardID = value["id"]?.string
            var history = ImportedHistory(created: cardID.flatMap(creationTime(ofCardID:)))
            if let known = cardID.flatMap({ arrivals[$0] }), !known.isEmpty {
                history.arrivals = known
            } else if let created = history.created, let list = listsByID[listID], !list.closed {
                history.arrivals = [ImportedHistory.Arrival(board: list.title, time: created)]
            }
            cardsByList[listID, default: []].append(
                (
                    try position(value["pos"], at: path + ".pos") ?? Double(index), index,
                    try bool(value["closed"], at: path + ".closed"), card, history
                ))
        }

        var document = ImportDocument()
        let comments = root["actions"]?.array?.count { $0["type"]?.string == "commentCard" } ?? 0
        document.leftOut = [
            LeftOut("comment", comments), LeftOut("attachment", attachments), LeftOut("card member", members),
        ].filter { $0.count > 0 }
        for list in orderedLists {
            let cards = (cardsByList[list.id] ?? []).sorted { ($0.pos, $0.index) < ($1.pos, $1.index) }
            if list.closed {
                document.archive += cards.map { ImportedArchivedCard(card: $0.card, board: nil, history: $0.history) }
                continue
            }
            let open = cards.filter { !$0.closed }
            document.boards.append(
                ImportedBoard(
                    title: list.title, limit: list.limit, cards: open.map(\.card),
                    histories: Dictionary(uniqueKeysWithValues: open.map(\.history).enumerated().map { ($0, $1) })))
            document.archive += cards.filter(\.closed).map {
                ImportedArchivedCard(card: $0.card, board: list.title, history: $0.history)
            }
        }
        return document
    }

    // MARK: - History

    /// When a card was created: a Trello id begins with its creation time in seconds since
    /// 1970, as eight hex digits; `nil` for an id that does not.
    static func creationTime(ofCardID id: String) -> Timestamp? {
        let digits = id.utf8.prefix(8)
        guard id.utf8.count >= 8, digits.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit }),
            let seconds = Int64(String(decoding: digits, as: UTF8.self), radix: 16)
        else { return nil }
        return Timestamp(seconds: seconds)
    }

    /// Each card's arrivals on open lists, oldest first, from the actions that put a card on
    /// a list: created on it, moved to it from another list, moved to it from another board.
    /// Actions of other kinds, or without what these need, are passed over: Trello adds kinds
    /// and fields freely. A `date` that is not a time is refused at its path.
    private static func arrivalsByCard(
        _ actions: JSONValue?, openLists: [String: List]
    ) throws(ImportError) -> [String: [ImportedHistory.Arrival]] {
        var found: [String: [(time: Timestamp, index: Int, board: Title)]] = [:]
        for (index, action) in (actions?.array ?? []).enumerated() {
            let data = action["data"]
            let list: JSONValue?
            switch action["type"]?.string {
            case "createCard", "moveCardToBoard": list = data?["list"]
            case "updateCard" where data?["listBefore"] != nil: list = data?["listAfter"]
            default: continue
            }
            guard let card = data?["card"]?["id"]?.string, let listID = list?["id"]?.string,
                let board = openLists[listID]?.title, let date = action["date"]
            else { continue }
            guard let text = date.string, let time = Timestamp(rfc3339: text) else {
                throw ImportError(
                    .path("$.actions[\(index)].date"),
                    "expected a time such as 2026-10-01T08:00:00.000Z, found "
                        + (date.string.map { JSON.quoted($0) } ?? date.kindDescription))
            }
            found[card, default: []].append((time, index, board))
        }
        // Exports list the newest first; equal times keep the later action last.
        return found.mapValues { arrivals in
            arrivals.sorted { ($0.time, -$0.index) < ($1.time, -$1.index) }.map { .init(board: $0.board, time: $0.time) }
        }
    }

    private struct List {
        var id: String
        var title: Title
        var closed: Bool
        var pos: Double
        var index: Int
        var limit: Int?
    }

    // MARK: - Values

    private static func required(_ value: JSONValue, _ key: String, at path: String) throws(ImportError) -> JSONValue {
        guard let member = value[key] else { throw ImportError(.path(path), "missing \(JSON.quoted(key))") }
        return member
    }

    private static func object(_ value: JSONValue, at path: String) throws(ImportError) {
        guard value.isObject else {
            throw ImportError(.path(path), "expected an object, found \(value.kindDescription)")
        }
    }

    private static func array(_ value: JSONValue, at path: String) throws(ImportError) -> [JSONValue] {
        guard let elements = value.array else {
            throw ImportError(.path(path), "expected an array, found \(value.kindDescription)")
        }
        return elements
    }

    private static func string(_ value: JSONValue, at path: String) throws(ImportError) -> String {
        guard let text = value.string else {
            throw ImportError(.path(path), "expected a string, found \(value.kindDescription)")
        }
        return text
    }

    /// A string, or `nil` for a missing key or `null`.
    private static func optionalString(_ value: JSONValue?, at path: String) throws(ImportError) -> String? {
        guard let value, value != .null else { return nil }
        return try string(value, at: path)
    }

    /// A boolean; a missing key or `null` is false.
    private static func bool(_ value: JSONValue?, at path: String) throws(ImportError) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        case let other?: throw ImportError(.path(path), "expected true or false, found \(other.kindDescription)")
        }
    }

    /// A `pos`: a number; Trello has written "top" and "bottom" too, which sort as given.
    private static func position(_ value: JSONValue?, at path: String) throws(ImportError) -> Double? {
        switch value {
        case .number(let number)? where number.isFinite: return number
        case .number?:
            throw ImportError(.path(path), "the number is out of range; a position is a number such as 16384")
        case .string("top")?: return -.greatestFiniteMagnitude
        case .string("bottom")?: return .greatestFiniteMagnitude
        case nil, .null?: return nil
        case let other?: throw ImportError(.path(path), "expected a number, found \(other.kindDescription)")
        }
    }

    /// A list's `softLimit` as a WIP limit: a whole number, 0 or more, or a string of one;
    /// anything else sets none.
    private static func softLimit(_ value: JSONValue?, at path: String) throws(ImportError) -> Int? {
        switch value {
        case .number(let number)?:
            guard number >= 0, number <= 1_000_000_000, let limit = Int(exactly: number) else { return nil }
            return limit
        case .string(let text)?:
            guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), text.utf8.count <= 9 else {
                return nil
            }
            return Int(text)
        default:
            return nil
        }
    }

    private static func title(_ text: String, at path: String) throws(ImportError) -> Title {
        do {
            return try Title(text)
        } catch {
            throw ImportError(.path(path), ImportError.reason(error))
        }
    }

    /// A label's name, else its color, as a kanban label; `nil` when neither makes one.
    private static func labelText(_ label: JSONValue) -> String? {
        for key in ["name", "color"] {
            if let text = label[key]?.string, let label = Self.label(text) { return label }
        }
        return nil
    }

    /// `text` as a label: whitespace and commas become `-`, controls go, no leading `-`, at
    /// most 32 characters; `nil` if nothing is left.
    static func label(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        var pendingDash = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace || scalar == "," {
                pendingDash = true
            } else if scalar.isForbiddenInTitle || scalar.properties.generalCategory == .format {
                continue
            } else {
                if pendingDash && !scalars.isEmpty { scalars.append("-") }
                pendingDash = false
                scalars.append(scalar)
            }
        }
        var label = String(scalars)
        while label.hasPrefix("-") { label.removeFirst() }
        label = String(label.prefix(32))
        return Labels.problem(with: label) == nil ? label : nil
    }

    /// Text for one line of a note: line breaks become spaces.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }).trimmingSurroundingWhitespace()
    }
}
