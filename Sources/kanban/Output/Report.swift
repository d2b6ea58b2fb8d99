import KanbanCore

/// What a mutating command did, as text for people or JSON for programs.
struct Report {
    /// The command as the user would type it: `move`, `board add`.
    var command: String
    var change: Change
    var dryRun: Bool
    /// The kanban file the command read and (unless a dry run) wrote.
    var file: String

    // MARK: - Text

    /// One line per affected item or board, e.g. `moved k3f9 'Analytics': In Progress:1 -> Done:0`.
    func text(style: Style) -> String {
        var out = ReportLine()
        for board in change.boards {
            out.add(line(for: board))
            out.add("\n")
        }
        for item in change.items {
            if item.conflictChange == nil {
                writePlainLine(for: item, style: style, to: &out)
            } else {
                out.add(line(for: item, style: style))
            }
            out.add("\n")
        }
        return out.string
    }

    private func verb(_ past: String, _ present: String) -> String {
        dryRun ? "would \(present)" : past
    }

    private func writeVerb(_ past: String, _ present: String, to out: inout ReportLine) {
        if dryRun { out.add("would ") }
        out.add(dryRun ? present : past)
    }

    private func line(for item: ItemChange, style: Style) -> String {
        guard let conflicts = item.conflictChange else { return plainLine(for: item, style: style) }
        let edits = item.edits.filter(\.isEffective)
        if command == "resolve" || (edits.isEmpty && item.from == item.to && item.copyOf == nil && item.archive == nil) {
            let line = conflictLine(conflicts, on: "\(style.dim(item.id.rawValue)) \(q(item.title))")
            return edits.isEmpty ? line : line + ": " + Self.describe(edits)
        }
        return plainLine(for: item, style: style) + " (\(Self.describe(conflicts)))"
    }

    /// `conflict recorded on k3f9p2 'Analytics' (title)`, `resolved the conflict on … (title)`:
    /// a change to a card's or board's recorded conflicts alone (README: Working together).
    private func conflictLine(_ conflicts: ConflictChange, on what: String) -> String {
        var parts: [String] = []
        if !conflicts.recorded.isEmpty {
            parts.append("conflict recorded on \(what) (\(conflicts.recorded.map(\.rawValue).joined(separator: ", ")))")
        }
        if !conflicts.resolved.isEmpty {
            parts.append(
                "\(verb("resolved", "resolve")) the conflict on \(what) (\(conflicts.resolved.map(\.rawValue).joined(separator: ", ")))")
        }
        return parts.joined(separator: "; ")
    }

    /// `conflict resolved: title`, `conflict recorded: note`.
    static func describe(_ conflicts: ConflictChange) -> String {
        var parts: [String] = []
        if !conflicts.recorded.isEmpty {
            parts.append("conflict recorded: " + conflicts.recorded.map(\.rawValue).joined(separator: ", "))
        }
        if !conflicts.resolved.isEmpty {
            parts.append("conflict resolved: " + conflicts.resolved.map(\.rawValue).joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    private func plainLine(for item: ItemChange, style: Style) -> String {
        var out = ReportLine()
        writePlainLine(for: item, style: style, to: &out)
        return out.string
    }

    /// An item's line without its conflicts, written piece by piece: a batch reports and
    /// records thousands (README: Batch).
    private func writePlainLine(for item: ItemChange, style: Style, to out: inout ReportLine) {
        let id = style.dim(item.id.rawValue)
        /// `verb ID 'TITLE'`, or `ID 'TITLE'` without a verb.
        func start(_ past: String?, _ present: String = "") {
            if let past {
                writeVerb(past, present, to: &out)
                out.add(" ")
            }
            out.add(id)
            out.add(" ")
            out.addQuoted(item.title)
        }
        switch (item.from, item.to) {
        case (nil, let to?):
            if item.archive == .restored {
                start("restored", "restore")
                out.add(" to ")
            } else {
                start("added", "add")
                out.add(" at ")
            }
            out.add(to)
        case (let from?, nil):
            if item.archive == .archived { start("archived", "archive") } else { start("removed", "remove") }
            out.add(" from ")
            out.add(from)
        case (let from?, let to?):
            if let original = item.copyOf {
                writeVerb("copied", "copy", to: &out)
                out.add(" ")
                out.add(original.rawValue)
                out.add(" ")
                out.addQuoted(item.title)
                out.add(" from ")
                out.add(from)
                out.add(" as ")
                out.add(id)
                out.add(" at ")
                out.add(to)
                return
            }
            let edits = item.edits.filter(\.isEffective)
            if from == to {
                if command == "rename" {
                    guard let previous = item.previousTitle else {
                        out.add(id)
                        out.add(" is already titled ")
                        out.addQuoted(item.title)
                        return
                    }
                    writeVerb("renamed", "rename", to: &out)
                    out.add(" ")
                    out.add(id)
                    out.add(" ")
                    out.addQuoted(previous)
                    out.add(" to ")
                    out.addQuoted(item.title)
                } else if !edits.isEmpty {
                    start("edited", "edit")
                    out.add(" (")
                    Self.describe(edits, to: &out)
                    out.add(")")
                } else if command == "edit" {
                    start(nil)
                    out.add(" is unchanged")
                } else {
                    start(nil)
                    out.add(" is already at ")
                    out.add(to)
                }
                return
            }
            start("moved", "move")
            out.add(": ")
            out.add(from)
            out.add(" -> ")
            out.add(to)
            if !edits.isEmpty {
                out.add(" (")
                Self.describe(edits, to: &out)
                out.add(")")
            }
        case (nil, nil):
            // A card that appeared in the archive (imported there, or found there by a diff),
            // left it, or changed inside it.
            switch item.archive {
            case .archived:
                start("added", "add")
                out.add(" to the archive")
            case .restored:
                start("removed", "remove")
                out.add(" from the archive")
            case nil:
                start("edited", "edit")
                out.add(" in the archive (")
                Self.describe(item.edits, to: &out)
                out.add(")")
            }
        }
    }

    /// `title 'a' -> 'b', labels +bug -p1, due 2026-12-01, note 'x' -> 'y'`: what an edit
    /// changed, said by the kind of the field's value, whatever the field.
    static func describe(_ edits: [FieldEdit]) -> String {
        var out = ReportLine()
        describe(edits, to: &out)
        return out.string
    }

    static func describe(_ edits: [FieldEdit], to out: inout ReportLine) {
        for (index, edit) in edits.enumerated() {
            if index > 0 { out.add(", ") }
            out.add(edit.field)
            switch (edit.from, edit.to) {
            case (.line(let from), .line(let to)):
                out.add(" ")
                out.addQuoted(from ?? "")
                out.add(" -> ")
                out.addQuoted(to ?? "")
            case (.words(let from), .words(let to)):
                out.add(" ")
                var first = true
                func add(_ sign: String, _ words: [String], without others: [String]) {
                    for word in words where !others.contains(word) {
                        if !first { out.add(" ") }
                        first = false
                        out.add(sign)
                        out.addVisible(word)
                    }
                }
                add("+", to, without: from)
                add("-", from, without: to)
            case (.day, .day(let to)):
                out.add(" ")
                out.add(to?.description ?? "none")
            case (.text(let from?), .text(let to?)):
                out.add(" ")
                out.add(shortNote(from))
                out.add(" -> ")
                out.add(shortNote(to))
            case (.text(let from?), .text(nil)):
                out.add(" cleared (was ")
                out.add(shortNote(from))
                out.add(")")
            case (_, .text(let to)):
                out.add(" ")
                out.add(shortNote(to ?? ""))
            default: break
            }
        }
    }

    /// A note on one line for a report: quoted, line breaks as `\n`, the first
    /// ``noteWidth`` characters and `…` when longer (`--json` has it in full).
    static func shortNote(_ note: String) -> String {
        guard note.count > noteWidth else { return q(note) }
        return "'" + Escape.visible(String(note.prefix(noteWidth))) + "…'"
    }

    static let noteWidth = 40

    private func line(for board: BoardChange) -> String {
        guard let conflicts = board.conflictChange else { return plainLine(for: board) }
        let alone =
            command == "resolve" || board.from == board.to && (board.previousTitle ?? board.title) == board.title
            && board.limitChange.map { $0.from == $0.to } ?? true
            && board.roleChange.map { $0.from == $0.to } ?? true
        if alone {
            var taken: [String] = []
            if let previous = board.previousTitle, previous != board.title {
                taken.append("title \(q(previous)) -> \(q(board.title))")
            }
            if let limits = board.limitChange, limits.from != limits.to {
                taken.append("limit \(limitText(limits.from)) -> \(limitText(limits.to))")
            }
            if let roles = board.roleChange, roles.from != roles.to {
                taken.append("role \(roleText(roles.from)) -> \(roleText(roles.to))")
            }
            let line = conflictLine(conflicts, on: "board \(q(board.title))")
            return taken.isEmpty ? line : line + ": " + taken.joined(separator: ", ")
        }
        return plainLine(for: board) + " (\(Self.describe(conflicts)))"
    }

    private func plainLine(for board: BoardChange) -> String {
        let title = q(board.title)
        switch (board.from, board.to) {
        case (nil, let to?):
            return "\(verb("added", "add")) board \(title) at index \(to)"
                + (board.limit.map { " with limit \($0)" } ?? "")
        case (let from?, nil):
            return "\(verb("removed", "remove")) board \(title) from index \(from)"
        case (let from?, let to?):
            if let previous = board.previousTitle {
                guard previous != board.title else { return "board \(title) already has that title" }
                return "\(verb("renamed", "rename")) board \(q(previous)) to \(title)"
            }
            if let limits = board.limitChange {
                guard limits.from != limits.to else {
                    return "board \(title) already has limit \(limitText(limits.to))"
                }
                return
                    "\(verb("set", "set")) the limit of \(title) to \(limitText(limits.to)) (was \(limitText(limits.from)))"
            }
            if let roles = board.roleChange {
                guard roles.from != roles.to else { return "board \(title) already has role \(roleText(roles.to))" }
                return "\(verb("set", "set")) the role of \(title) to \(roleText(roles.to)) (was \(roleText(roles.from)))"
            }
            guard from != to else { return "board \(title) is already at index \(to)" }
            return "\(verb("moved", "move")) board \(title): \(from) -> \(to)"
        case (nil, nil):
            preconditionFailure("a board change goes from or to somewhere")
        }
    }

    private func limitText(_ limit: Int?) -> String {
        limit.map(String.init) ?? "none"
    }

    /// A role as `board role` takes it: `default` when none is set.
    private func roleText(_ role: BoardRole?) -> String {
        role?.rawValue ?? "default"
    }

    // MARK: - JSON

    /// `{"command": …, "file": …, "dryRun": …, "changed": …, "boards": […], "items": […]}` on one line.
    func json() -> String {
        jsonObject.line
    }

    /// The report as a JSON object (a batch's reports are an array of them).
    var jsonObject: JSONObject {
        JSONObject { object in
            object.add("command", command)
            object.add("file", file)
            object.add("dryRun", dryRun)
            object.add("changed", change.isEffective)
            object.merge(changesJSON)
        }
    }

    /// `"boards":[…],"items":[…]`: what changed, as every report and history entry has it.
    var changesJSON: JSONObject {
        JSONObject { object in
            object.add("boards", change.boards.map(Self.json))
            object.add("items", change.items.map(Self.json))
        }
    }

    /// The change as the history keeps it: one line per card or board, without color.
    var historyLines: [String] {
        let plain = Style(enabled: false)
        return change.boards.map { line(for: $0) } + change.items.map { line(for: $0, style: plain) }
    }

    static func json(_ item: ItemChange) -> JSONObject {
        JSONObject { object in
            object.add("id", item.id.rawValue)
            object.add("title", item.title)
            object.add("from", json(item.from))
            object.add("to", json(item.to))
            object.addIfPresent("copyOf", item.copyOf?.rawValue)
            object.addIfPresent("previousTitle", item.previousTitle)
            switch item.archive {
            case .archived: object.add("archived", true)
            case .restored: object.add("restored", true)
            case nil: break
            }
            let edits = item.edits.filter(\.isEffective)
            if !edits.isEmpty {
                object.add("changes", JSONObject { changes in for edit in edits { changes.add(edit.field, [edit.from, edit.to]) } })
            }
            object.addIfPresent("conflicts", item.conflictChange.map(json))
        }
    }

    static func json(_ board: BoardChange) -> JSONObject {
        JSONObject { object in
            object.add("title", board.title)
            object.addIfPresent("id", board.id?.rawValue)
            object.add("from", board.from)
            object.add("to", board.to)
            object.add("limit", board.limit)
            object.addIfPresent("previousTitle", board.previousTitle)
            if let limits = board.limitChange { object.add("previousLimit", limits.from) }
            if let roles = board.roleChange {
                object.add("role", FieldValue.role(roles.to))
                object.add("previousRole", FieldValue.role(roles.from))
            }
            object.addIfPresent("conflicts", board.conflictChange.map(json))
        }
    }

    /// `{"recorded":["title"],"resolved":[]}`: the conflicts recorded and settled.
    private static func json(_ conflicts: ConflictChange) -> JSONObject {
        JSONObject { object in
            object.add("recorded", conflicts.recorded.map(\.rawValue))
            object.add("resolved", conflicts.resolved.map(\.rawValue))
        }
    }

    private static func json(_ slot: Slot?) -> JSONObject? {
        slot.map { slot in
            JSONObject { object in
                object.add("board", slot.board)
                object.add("index", slot.index)
            }
        }
    }
}

/// A report's text, built as bytes: each piece is appended, not interpolated into strings
/// of strings.
struct ReportLine {
    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(96)
    }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `text` as ``Escape/visible(_:)`` shows it.
    mutating func addVisible(_ text: String) {
        var text = text
        // Printable ASCII, nearly every title, shows as it is.
        let plain = text.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain { add(Escape.visible(text)) }
    }

    /// `'text'`, as ``q(_:)`` quotes it.
    mutating func addQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "'"))
        addVisible(text)
        bytes.append(UInt8(ascii: "'"))
    }

    /// `BOARD:N`.
    mutating func add(_ slot: Slot) {
        addVisible(slot.board)
        bytes.append(UInt8(ascii: ":"))
        add(slot.index)
    }

    mutating func add(_ number: Int) {
        guard number >= 0 else { return add(String(number)) }
        let start = bytes.count
        var rest = number
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// An error as one line of JSON: `{"error": {"code": "not_found", "message": "…"}}`.
func errorJSON(code: String, message: String) -> String {
    JSONObject { $0.add("error", JSONObject { $0.add("code", code); $0.add("message", message) }) }.line
}

extension FieldValue: JSONOutput {
    /// A text, a list of words, a date as `YYYY-MM-DD`, a time, a number, or `null` for none;
    /// a trail as in the file, `[["k3f9p2", "2026-11-23T10:04:05Z"], …]`.
    var json: String {
        switch self {
        case .trail(let entries): "[" + entries.map { [$0.board.rawValue, $0.time.description].json }.joined(separator: ", ") + "]"
        case .line(let text), .text(let text): text.json
        case .words(let words): words.json
        case .day(let day): day?.description.json ?? "null"
        case .time(let time): time?.description.json ?? "null"
        case .number(let number): number.map(String.init) ?? "null"
        case .role(let role): role?.rawValue.json ?? "null"
        }
    }
}
