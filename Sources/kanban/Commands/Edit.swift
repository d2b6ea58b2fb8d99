import Glibc
import KanbanCore

extension Commands {
    static let edit = CommandSpec(
        "edit", usage: [
            .item, .optional(Options.title, value: "T"),
            .optional([
                .oneOf([[.option(Options.note)], [.option(Options.note, value: "-")], [.option(Options.appendNote)]])
            ]),
        ] + Options.words.flatMap { $0.usage(removing: true) } + Options.dates.map { .optional($0.option) },
        summary: "change a card's title, note, labels, assignees or due date",
        options: [
            CommandOption(Options.title, "the new title"),
            CommandOption(Options.note, "the new note (- reads it from standard input; \"\" clears it)"),
            CommandOption(Options.appendNote, "add TEXT as a new line at the end of the note"),
        ] + Options.words.flatMap { [CommandOption($0.add, $0.editHelp), CommandOption($0.remove, $0.removeHelp)] }
            + Options.dates.map { CommandOption($0.option, $0.editHelp) } + [
            CommandOption(Options.from, "look the card's title up in this board only"), dryRun,
        ],
        details: """
            Changes the card in one transaction. With no edit option, on a terminal, it opens
            $VISUAL (else $EDITOR, else vi) on the card as text: the title on the first line,
            then 'labels:' and 'due:' lines, a blank line, and the note. Saving applies the
            changes; an unchanged or empty file changes nothing. If the card changes meanwhile,
            the edit is refused and the edited text is kept in a file whose path is printed.
            """,
        examples: [
            "kanban edit k3f9p2 --label bug --due tomorrow", "git log -1 --format=%B | kanban edit k3f9p2 --note -",
            "kanban edit k3f9p2",
        ],
        build: { arguments throws(CLIError) in
            guard let item = arguments.operands.first else { throw arguments.usage("'edit' needs an ITEM") }
            try arguments.operandCount()
            if arguments.value(Options.note) != nil && arguments.value(Options.appendNote) != nil {
                throw arguments.usage("choose one of --note and --append-note")
            }
            var edits = EditInput()
            edits.title = try arguments.value(Options.title).map { text throws(CLIError) in try arguments.title(text) }
            for options in Options.words {
                edits[words: options.field] = WordEdits(
                    add: try arguments.words(adding: options).names, remove: arguments.words(removing: options))
            }
            for options in Options.dates { edits.dates[options.field] = try arguments.due(options.option) }
            let from = arguments.value(Options.from)
            let dryRun = arguments.flag(Options.dryRun)
            if let text = arguments.value(Options.appendNote) {
                edits.note = .append(try arguments.checkedNote(text))
            }
            if let text = arguments.value(Options.note) {
                if text == "-" { return .change(.editReadingNote(item: item, from: from, edits: edits), dryRun: dryRun) }
                edits.note = .set(try arguments.checkedNote(text))
            }
            if edits.isEmpty { return .editInEditor(item: item, from: from, dryRun: dryRun) }
            return .change(.operation(.edit(item: item, from: from, edits: edits)), dryRun: dryRun)
        })
}

extension App {
    /// `kanban edit ITEM` with no edit option: the card as text in the user's editor.
    ///
    /// The lock is not held while the editor runs. When the text comes back changed, the
    /// edit is one transaction that first checks the card is as it was when the editor
    /// opened; if not, nothing is written and the text is kept in a file whose path is said.
    func editInEditor(item reference: String, from scope: String?, dryRun: Bool) throws(CLIError) -> CommandOutput {
        guard isatty(Surroundings.current.stdin) == 1 && isatty(Surroundings.current.stdout) == 1 else {
            throw .usage(
                "'edit' needs an edit option (--title, --note, --append-note, --label, --unlabel, --assign, "
                    + "--unassign, --due) "
                    + "when not on a terminal", command: "edit")
        }
        let store = try store()
        let kanban = try store.load()
        let original: Item
        do {
            original = kanban[try kanban.locate(reference, within: try scope.map(kanban.boardIndex(named:)))]
        } catch {
            throw .refused(error)
        }
        let form = CardForm.text(of: original)
        let file = try TemporaryText(form, name: "kanban-edit-\(original.id)")
        try Editor.run(on: file.path)
        let edited = try file.read()
        if edited == form || edited.allSatisfy(\.isWhitespace) {
            file.remove()
            return CommandOutput(options.quiet ? "" : "\(original.id) \(q(original.title)) is unchanged\n")
        }
        let edits: CardEdits
        do {
            edits = try CardForm.edits(from: edited, to: original)
        } catch {
            throw .badInput("\(error.message); your text is kept in \(q(file.path))")
        }
        do {
            let output = try change("edit", dryRun: dryRun) { (kanban: inout Kanban) throws(KanbanError) in
                let changed =
                    "\(q(original.title)) (\(original.id)) changed while it was being edited; nothing was "
                    + "written; your text is kept in \(q(file.path))"
                guard let location = try? kanban.locate(original.id.rawValue) else {
                    throw .conflict(changed.replacing("changed while", with: "was removed or archived while"))
                }
                // Its place may have changed; what the editor showed must not have.
                guard original.edits(to: kanban[location]).isEmpty else { throw .conflict(changed) }
                return try kanban.edit(location, edits)
            }
            file.remove()
            return output
        } catch .refused(.conflict(let message)) {
            throw .refused(.conflict(message))
        } catch {
            throw error
        }
    }
}

/// The text form of a card that `edit` opens in an editor:
///
///     Title
///     labels: bug p1
///     due: 2026-12-01
///
///     The note, any number of lines.
enum CardForm {
    /// The fields with a line of their own between the title and the note, `NAME: VALUE`:
    /// those a person edits whose value is a set of words or a date, in the file's order.
    static let lineFields = CardField.all.filter { $0.isEdit && ($0.kind == .words || $0.kind == .day) }

    static func text(of item: Item) -> String {
        item.title + "\n" + lineFields.map { "\($0.name): \($0.value(item).plain ?? "")\n" }.joined() + "\n"
            + (item.note.map { $0 + "\n" } ?? "")
    }

    /// The edits that turn `item` into what `text` says.
    ///
    /// - Throws: a ``KanbanError`` naming what is wrong with the text.
    static func edits(from text: String, to item: Item) throws(KanbanError) -> CardEdits {
        var lines = text.replacing("\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        // A first line that reads as one of the lines below the title means the title line
        // was deleted: taking it as the title would retitle the card 'labels: …'.
        let (key, _) = split(lines[0])
        if lineFields.contains(where: { $0.name == key }), lines[0].contains(":"), lines[0] != item.title {
            throw .invalidValue(
                kind: .form, value: lines[0],
                reason: "the first line is the card's title, and it is missing; put the title back on the first line")
        }
        let title = try Title(lines.removeFirst())
        var edited = item
        while let line = lines.first, !line.trimmingSpaces.isEmpty {
            lines.removeFirst()
            let (key, value) = split(line)
            guard let field = lineFields.first(where: { $0.name == key }) else {
                let names = lineFields.map { "'\($0.name):'" }
                let listed = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " and " : "") + names[names.count - 1]
                throw .invalidValue(
                    kind: .note, value: line, reason: "after the title come \(listed) lines, then a blank line and the note")
            }
            field.set(&edited, try Self.value(value, of: field.kind))
        }
        // Names may be written as views show them, `@alice`.
        for options in Options.words where options.syntax == .names {
            guard let access = options.descriptor.words else { continue }
            let names = access.get(edited).names.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 }
            access.set(&edited, try Labels(validating: names))
        }
        if !lines.isEmpty { lines.removeFirst() }  // the blank line before the note
        while lines.last?.isEmpty == true { lines.removeLast() }
        let note = try Note.checked(lines.joined(separator: "\n"))
        var edits = CardEdits()
        if title.text != item.title { edits.title = title }
        if (note.isEmpty ? nil : note) != item.note { edits.note = .set(note) }
        for field in lineFields {
            guard let access = field.words else { continue }
            let (old, new) = (access.get(item), access.get(edited))
            edits[words: field.name] = WordEdits(
                add: new.filter { !old.contains($0) }, remove: old.filter { !new.contains($0) })
        }
        for field in lineFields where field.kind == .day {
            if case .day(let day) = field.value(edited), field.value(edited) != field.value(item) {
                edits.dates[field.name] = .some(day)
            }
        }
        return edits
    }

    /// The value a field's line gives, by its kind: words separated by spaces or commas; a
    /// date, or nothing or `none` for none.
    private static func value(_ text: String, of kind: FieldValue.Kind) throws(KanbanError) -> FieldValue {
        switch kind {
        case .words:
            return .words(try Labels(validating: text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)).names)
        case .day:
            if text.isEmpty || text.lowercased() == "none" { return .day(nil) }
            guard let day = Day(iso: text) else {
                throw .invalidValue(kind: .due, value: text, reason: "write the date as YYYY-MM-DD, or none")
            }
            return .day(day)
        case .line, .text, .time, .number, .trail, .role:
            preconditionFailure("no line for a field of kind \(kind)")
        }
    }

    private static func split(_ line: String) -> (key: String, value: String) {
        guard let colon = line.firstIndex(of: ":") else { return (line.lowercased(), "") }
        return (line[..<colon].trimmingSpaces.lowercased(), line[line.index(after: colon)...].trimmingSpaces)
    }
}

extension StringProtocol {
    /// The text without surrounding spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

// MARK: - As parsed

/// `kanban edit ITEM` with no edit option: the card in `$VISUAL`/`$EDITOR`.
struct EditInEditorCommand: ParsedCommand {
    var item: String
    var from: String?
    var dryRun: Bool

    static let refusedInBatch = CLIError.usage(
        "in a batch, 'edit' takes its changes as options, such as --note TEXT", command: "batch")

    var changesFile: Bool { !dryRun }

    func run(in app: App) throws(CLIError) -> CommandOutput {
        try app.editInEditor(item: item, from: from, dryRun: dryRun)
    }

    func batchOperation() throws(CLIError) -> Operation? { throw Self.refusedInBatch }
}

extension Command {
    static func editInEditor(item: String, from: String?, dryRun: Bool) -> Command {
        Command(EditInEditorCommand(item: item, from: from, dryRun: dryRun))
    }
}
