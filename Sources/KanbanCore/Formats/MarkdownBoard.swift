/// A kanban as Markdown in the Obsidian Kanban plugin's format, which also reads well on
/// GitHub (a task list per board):
///
///     ---
///     kanban-plugin: board
///     ---
///
///     ## Todo
///
///     - [ ] Database Migration #db @alice @{2026-12-01}
///         The note, indented by four spaces,
///         one line per line.
///     - [ ] Schema Design
///
///     ## In Progress (3)
///
///     ***
///
///     ## Archive
///
///     - [ ] An old card
///
/// A board's WIP limit follows its title in parentheses, as the plugin writes it. Title
/// text that would read as something else is escaped with a backslash, as Markdown
/// allows (`\#123` is not a label, `\\` is a backslash), so reading gives back the titles.
public enum MarkdownBoard {
    // MARK: - Writing

    /// The Markdown of a kanban's boards and archive.
    public static func export(_ kanban: Kanban) -> String {
        var out = "---\nkanban-plugin: board\n---\n"
        for board in kanban.boards {
            out += "\n## " + escapeHeading(board.title) + (board.limit.map { " (\($0))" } ?? "") + "\n\n"
            for item in board.items { out += card(item) }
        }
        if !kanban.archive.isEmpty {
            out += "\n***\n\n## Archive\n\n"
            for archived in kanban.archive { out += card(archived.item) }
        }
        return out
    }

    private static func card(_ item: Item) -> String {
        var line = "- [ ] " + escapeInline(item.title)
        for word in item.signedWords(escapeWord) { line += " " + word }
        if let due = item.due { line += " @{\(due)}" }
        line += "\n"
        if let note = item.note {
            for noteLine in note.split(separator: "\n", omittingEmptySubsequences: false) {
                line += "    " + visible(String(noteLine), keepingTabs: true) + "\n"
            }
        }
        return line
    }

    /// A card title as Markdown: backslashes doubled, and a backslash before what would
    /// otherwise read as a label (`#word`), an assignee (`@name`) or another set of words by
    /// its sign, a date (`@{`, `@[[`), a block id (`^id`) or a line break (`<br>`).
    static func escapeInline(_ text: String) -> String {
        // Scalars, not characters: a combining mark after '#' must not hide it.
        let scalars = Array(visible(text, keepingTabs: true).unicodeScalars)
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let atWordStart = index == 0 || scalars[index - 1].properties.isWhitespace
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "\\": out.append("\\")
            case "^" where atWordStart: out.append("\\")
            case "@" where atWordStart || next == "{" || next == "[": out.append("\\")
            case "<" where scalars[index...].starts(with: "<br>".unicodeScalars): out.append("\\")
            // The sign of a set of words views show after a title (`#bug`).
            case _ where atWordStart && signs.contains(scalar): out.append("\\")
            default: break
            }
            out.append(scalar)
        }
        return String(out)
    }

    /// The signs of the sets of words views show after a title: `#` (labels), `@` (assignees).
    private static let signs = Set(CardField.signed.compactMap { $0.sign?.unicodeScalars.first })

    /// A label or an assignee as written after its sign, and a backslash before a `{` or `[`
    /// that starts it: `@{…}` and `@[[…]]` are dates.
    private static func escapeWord(_ word: String) -> String {
        let escaped = escapeLabel(visible(word))
        return escaped.hasPrefix("{") || escaped.hasPrefix("[") ? "\\" + escaped : escaped
    }

    /// A label as written after its `#`: backslashes doubled, `<br>` escaped.
    static func escapeLabel(_ label: String) -> String {
        label.replacing("\\", with: "\\\\").replacing("<br>", with: "\\<br>")
    }

    /// A board title as a heading's text: as a card title, and a final `(3)` escaped so that
    /// it does not read as a limit.
    static func escapeHeading(_ text: String) -> String {
        var scalars = Array(escapeInline(text).unicodeScalars)
        if let found = trailingLimit(in: scalars) { scalars.insert("\\", at: found.open) }
        return string(scalars)
    }

    /// Text with control characters (other than tab, if kept), directional formatting controls
    /// and line separators written as visible escapes: a
    /// title from a hand-edited file must not put them in an export.
    private static func visible(_ text: String, keepingTabs: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { $0.isRefusedInText || (!keepingTabs && $0 == "\t") }) else {
            return text
        }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isRefusedInText || (!keepingTabs && scalar == "\t") {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: - Reading

    /// Reads a Markdown kanban board: optional front matter, then headings (boards, with an
    /// optional `(N)` limit), each followed by list items (cards: `- [ ] Title #label
    /// @{YYYY-MM-DD}`, a task box optional) and their notes, indented below them; a heading
    /// `Archive` after a thematic break (`***`) holds archived cards. The plugin's
    /// `**Complete**` marks and `%% kanban:settings` block are skipped.
    ///
    /// - Throws: an ``ImportError`` at the first line that is none of these (a paragraph of
    ///   text, a code block, a card before any heading), or whose title, label or note
    ///   breaks the kanban's rules.
    public static func read(_ bytes: [UInt8]) throws(ImportError) -> ImportDocument {
        let lines = try textLines(bytes)
        var document = ImportDocument()
        var sawHeading = false
        var index = 0
        // A board the plugin made: its front matter says so, even with no lane yet.
        var isPluginBoard = false
        if lines.first == "---" {
            guard let end = lines.dropFirst().firstIndex(where: { $0 == "---" || $0 == "..." }) else {
                throw ImportError(.line(1), "the front matter that starts here has no closing '---'")
            }
            isPluginBoard = lines[1..<end].contains { $0.hasPrefix("kanban-plugin:") }
            index = end + 1
        }
        // The card being read, its line, its note lines, and blank lines not yet known to be in it.
        var card: (line: Int, content: CardContent, noteLines: [String], blanks: Int)?
        var inArchive = false
        var afterBreak = false
        func finishCard() throws(ImportError) {
            guard let current = card else { return }
            card = nil
            var content = current.content
            if !current.noteLines.isEmpty {
                do {
                    let note = try Note.checked(current.noteLines.joined(separator: "\n"))
                    content.note = note.isEmpty ? nil : note
                } catch {
                    throw ImportError(.line(current.line), ImportError.reason(error))
                }
            }
            if inArchive {
                document.archive.append(ImportedArchivedCard(card: content))
            } else {
                document.boards[document.boards.count - 1].cards.append(content)
            }
        }
        while index < lines.count {
            let line = lines[index]
            let number = index + 1
            index += 1
            let isBlank = line.unicodeScalars.allSatisfy(isSpace)
            // A line of only an indentation is an empty line of the note above.
            let isNoteIndent =
                line.unicodeScalars.first == "\t" || line.unicodeScalars.starts(with: "    ".unicodeScalars)
            if isBlank && !(card != nil && isNoteIndent) {
                if card != nil { card!.blanks += 1 }
                continue
            }
            if card != nil, let note = noteLine(line) {
                card!.noteLines += Array(repeating: "", count: card!.blanks) + [note]
                card!.blanks = 0
                continue
            }
            try finishCard()
            if isThematicBreak(line) {
                afterBreak = true
                continue
            }
            defer { afterBreak = false }
            if let heading = headingText(line) {
                sawHeading = true
                let (title, limit) = try boardTitle(heading, line: number)
                if afterBreak && title.text == "Archive" && limit == nil {
                    inArchive = true
                } else {
                    inArchive = false
                    document.boards.append(ImportedBoard(title: title, limit: limit))
                }
            } else if let content = cardContent(line) {
                guard sawHeading else {
                    throw ImportError(.line(number), "a card before any '## Board' heading; not a kanban board")
                }
                let (content, noteLines) = try self.card(content, line: number)
                card = (number, content, noteLines, 0)
            } else if line.trimmingSurroundingWhitespace() == "**Complete**" {
                continue
            } else if line.hasPrefix("%% kanban:settings") {
                while index < lines.count && lines[index].trimmingSurroundingWhitespace() != "%%" { index += 1 }
                index += 1
            } else {
                throw ImportError(
                    .line(number),
                    "\(JSON.quoted(String(line.prefix(40)))) is not part of a kanban board, which holds only "
                        + "'## Board' headings, '- [ ] Card' lines and notes indented under them")
            }
        }
        try finishCard()
        guard sawHeading || isPluginBoard else {
            throw ImportError(.file, "no '## Board' heading: not a kanban board")
        }
        return document
    }

    /// The lines of a UTF-8 text, without their LF or CRLF; a byte order mark is skipped.
    static func textLines(_ bytes: [UInt8]) throws(ImportError) -> [String] {
        var lines: [String] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var number = 1
        while start <= bytes.count {
            var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let next = end + 1
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            guard let line = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw ImportError(.line(number), "invalid UTF-8")
            }
            if next > bytes.count && line.isEmpty && !lines.isEmpty { break }  // the final newline
            lines.append(line)
            start = next
            number += 1
        }
        return lines
    }

    /// A note line under a card: indented by a tab or four spaces (or at least two, as a
    /// Markdown list item's continuation may be), without that indentation. Lines are read
    /// as scalars throughout: a combining mark must not make a space something else.
    private static func noteLine(_ line: String) -> String? {
        let scalars = line.unicodeScalars
        if scalars.first == "\t" { return string(scalars.dropFirst()) }
        if scalars.starts(with: "    ".unicodeScalars) { return string(scalars.dropFirst(4)) }
        guard scalars.starts(with: "  ".unicodeScalars) else { return nil }
        return string(scalars.drop(while: { $0 == " " }))
    }

    private static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    private static func isThematicBreak(_ line: String) -> Bool {
        let text = line.filter { $0 != " " && $0 != "\t" }
        guard text.count >= 3, let first = text.first, "*-_".contains(first) else { return false }
        return text.allSatisfy { $0 == first } && !line.hasPrefix("    ")
    }

    /// The text of an ATX heading (`## Todo`), without its marks and closing `#`s.
    private static func headingText(_ line: String) -> String? {
        let scalars = Array(line.unicodeScalars)
        var start = 0
        while start < scalars.count && scalars[start] == " " { start += 1 }
        guard start < 4 else { return nil }
        var hashes = 0
        while start < scalars.count && scalars[start] == "#" {
            hashes += 1
            start += 1
        }
        guard (1...6).contains(hashes), start == scalars.count || isSpace(scalars[start]) else { return nil }
        while start < scalars.count && isSpace(scalars[start]) { start += 1 }
        var end = scalars.count
        while end > start && isSpace(scalars[end - 1]) { end -= 1 }
        // A closing sequence: spaces, then only `#`s.
        var closing = end
        while closing > start && scalars[closing - 1] == "#" { closing -= 1 }
        if closing < end && (closing == start || isSpace(scalars[closing - 1])) {
            end = closing
            while end > start && isSpace(scalars[end - 1]) { end -= 1 }
        }
        return string(scalars[start..<end])
    }

    /// A board title and limit from a heading's text: `In Progress (3)`.
    private static func boardTitle(_ heading: String, line: Int) throws(ImportError) -> (Title, Int?) {
        var scalars = Array(lineBreaksReplaced(heading).joined(separator: " ").unicodeScalars)
        var limit: Int?
        if let found = trailingLimit(in: scalars) {
            limit = found.limit
            scalars = Array(scalars[..<found.end])
        }
        do {
            return (try Title(unescape(string(scalars))), limit)
        } catch {
            throw ImportError(.line(line), ImportError.reason(error))
        }
    }

    /// An unescaped `(N)` at the end of a heading's text: N, the offset of its `(`, and
    /// where the text before it ends (spaces left out).
    private static func trailingLimit(in scalars: [Unicode.Scalar]) -> (limit: Int, open: Int, end: Int)? {
        guard scalars.last == ")", let open = scalars.lastIndex(of: "("), open > 0, scalars[open - 1] != "\\" else {
            return nil
        }
        let digits = scalars[(open + 1)..<(scalars.count - 1)]
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        var end = open
        while end > 0 && scalars[end - 1].properties.isWhitespace { end -= 1 }
        guard end > 0 else { return nil }
        return (Int(string(digits))!, open, end)
    }

    /// The content of a list item line (`- [ ] Title`, `* Title`), without the mark and box.
    private static func cardContent(_ line: String) -> String? {
        let scalars = Array(line.unicodeScalars)
        var start = 0
        while start < scalars.count && scalars[start] == " " { start += 1 }
        guard start < 4, start < scalars.count, "-*+".unicodeScalars.contains(scalars[start]) else { return nil }
        start += 1
        guard start == scalars.count || isSpace(scalars[start]) else { return nil }
        while start < scalars.count && isSpace(scalars[start]) { start += 1 }
        let rest = scalars.count - start
        if rest >= 3, scalars[start] == "[", scalars[start + 2] == "]", rest == 3 || isSpace(scalars[start + 3]) {
            start += 3
            while start < scalars.count && isSpace(scalars[start]) { start += 1 }
        }
        return string(scalars[start...])
    }

    /// A card's title, labels, assignees and due date from its line: `#label` and `@name`
    /// words and an `@{date}` (or `@[[date]]`) become labels, assignees and the due date; a
    /// trailing block id (`^abc`) goes.
    /// Text after a `<br>` (the plugin's older way of writing a card of several lines)
    /// begins the note.
    private static func card(_ content: String, line: Int) throws(ImportError) -> (CardContent, [String]) {
        let parts = lineBreaksReplaced(content)
        let scalars = Array(parts[0].unicodeScalars)
        var text = String.UnicodeScalarView()
        // The sets of words views show after a title, by their sign (`#bug`, `@alice`).
        var words = CardField.signed.map { (sign: $0.sign.flatMap(\.unicodeScalars.first), words: Labels()) }
        var due: Day?
        var index = 0
        func dropTrailingSpace() {
            while text.last == " " || text.last == "\t" { text.removeLast() }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1].isASCIIPunctuation {
                text.append(scalar)
                text.append(scalars[index + 1])
                index += 2
                continue
            }
            let atWordStart = index == 0 || scalars[index - 1].properties.isWhitespace
            guard atWordStart && (scalar == "@" || scalar == "^" || words.contains { $0.sign == scalar }) else {
                text.append(scalar)
                index += 1
                continue
            }
            let wordEnd = scalars[index...].firstIndex(where: \.properties.isWhitespace) ?? scalars.count
            let word = String(String.UnicodeScalarView(scalars[index..<wordEnd]))
            let label = unescape(String(word.unicodeScalars.dropFirst()))
            if atWordStart && scalar == "@", let day = date(in: word) {
                if due == nil { due = day }
                dropTrailingSpace()
                index = wordEnd
                continue
            }
            if atWordStart, let set = words.firstIndex(where: { $0.sign == scalar }),
                Labels.problem(with: label) == nil
            {
                words[set].words.insert(label)
                dropTrailingSpace()
                index = wordEnd
                continue
            }
            if atWordStart && scalar == "^", wordEnd == scalars.count, word.unicodeScalars.count > 1,
                word.unicodeScalars.dropFirst().allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-")
                })
            {
                dropTrailingSpace()
                index = wordEnd
                continue
            }
            text.append(scalar)
            index += 1
        }
        do {
            var card = CardContent(title: try Title(unescape(String(text))))
            for (field, set) in zip(CardField.signed, words) { card[field] = .words(set.words.names) }
            card.due = due
            return (card, parts.dropFirst().map { unescape($0).trimmingSurroundingWhitespace() })
        } catch {
            throw ImportError(.line(line), ImportError.reason(error))
        }
    }

    /// Text split at its unescaped `<br>`s, escapes kept.
    private static func lineBreaksReplaced(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var parts = [String.UnicodeScalarView()]
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\", index + 1 < scalars.count {
                parts[parts.count - 1].append(scalars[index])
                parts[parts.count - 1].append(scalars[index + 1])
                index += 2
            } else if scalars[index...].starts(with: "<br>".unicodeScalars) {
                parts.append(String.UnicodeScalarView())
                index += 4
            } else {
                parts[parts.count - 1].append(scalars[index])
                index += 1
            }
        }
        return parts.map { String($0) }
    }

    /// The date of `@{2026-12-01}` or `@[[2026-12-01]]`.
    private static func date(in word: String) -> Day? {
        for (open, close) in [("@{", "}"), ("@[[", "]]")] where word.hasPrefix(open) && word.hasSuffix(close) {
            return Day(iso: word.dropFirst(open.count).dropLast(close.count))
        }
        return nil
    }

    /// Markdown's backslash escapes undone: a backslash before ASCII punctuation is dropped.
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = String.UnicodeScalarView()
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                if !scalar.isASCIIPunctuation { out.append("\\") }
                out.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                out.append(scalar)
            }
        }
        if escaped { out.append("\\") }
        return String(out)
    }
}

extension Unicode.Scalar {
    /// ASCII punctuation, which Markdown lets a backslash escape.
    var isASCIIPunctuation: Bool {
        (0x21...0x2F).contains(value) || (0x3A...0x40).contains(value) || (0x5B...0x60).contains(value)
            || (0x7B...0x7E).contains(value)
    }
}
