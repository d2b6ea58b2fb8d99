import Glibc
import KanbanCore

/// The hidden command the completion scripts call for what only the kanban file or the
/// command table knows: `kanban __complete SHELL [PIECE] WORD…`.
///
/// WORDs are the words of the command line after `kanban`, up to the cursor; the last is
/// the word being completed. bash passes them as typed (quotes and all) after PIECE, the
/// part of the last word that readline replaces (bash splits words at `:` and `=`); zsh
/// and fish pass them unquoted. The first line of the output says what follows:
/// `values` (the candidates, one per line), or `files` (the shell should complete file
/// names). Candidates are, for bash, the replacement text, quoted as the line needs it and
/// only those that match; for zsh, per group a line `GROUP COUNT`, then COUNT values and
/// COUNT lines to list (value and description); for fish, `value<TAB>description`. zsh and
/// fish match and quote candidates themselves, and split `--opt=value` themselves: they
/// get bare values.
///
/// The kanban file is the one the line names with `-f/--file`, else `$KANBAN_FILE`, else
/// the nearest kanban.json; it is read without taking the lock. Nothing goes to stderr
/// and the status is 0 whatever happens: a shell shows whatever a completion prints.
enum Completer {
    static let command = "__complete"

    static func main(_ arguments: [String]) -> Int32 {
        if Surroundings.current.isProcess { signal(SIGPIPE, SIG_IGN) }
        var output: [UInt8] = []
        respond(arguments, into: &output)
        _ = try? POSIX.writeAll(Surroundings.current.stdout, output)
        return 0
    }

    /// The output for `arguments` (what follows `__complete`).
    static func respond(_ arguments: [String], into output: inout [UInt8]) {
        guard let shellName = arguments.first, let shell = Shell(rawValue: shellName) else { return }
        var words = Array(arguments.dropFirst())
        var piece: String?
        if shell == .bash {
            guard !words.isEmpty else { return }
            piece = words.removeFirst()
        }
        if words.isEmpty { words = [""] }
        let current = words.removeLast()
        var currentValue = current
        if shell == .bash {
            words = words.map { ShellQuote.dequote($0).value }
            currentValue = ShellQuote.dequote(current).value
        }
        let context = CompletionContext(words: words + [currentValue])
        guard case .value(let kinds) = context.target else {
            return respondStatic(context, shell: shell, current: current, piece: piece, into: &output)
        }
        if kinds == [.path] {
            output += Array("files\n".utf8)
            return
        }
        var candidates: [Candidate] = []
        var kanban: Kanban?
        // Cards and boards are completed from their ids and titles alone: the cards are
        // deferred unless their labels or names are wanted too.
        let deferring = !kinds.contains(.label) && !kinds.contains(.assignee)
        func load() -> Kanban? {
            if kanban == nil {
                let path = context.file.map(ShellQuote.expandTilde)
                kanban = try? Store.locate(file: path).load(deferringCards: deferring)
            }
            return kanban
        }
        for kind in kinds {
            switch kind {
            case .board:
                for board in load()?.boards ?? [] {
                    let count = board.items.count
                    candidates.append(
                        Candidate(board.title, "board, \(count) card\(count == 1 ? "" : "s")", group: "boards"))
                }
            case .item:
                if let kanban = load() { candidates += cards(kanban, describing: shell != .bash) }
            case .archivedItem:
                if let kanban = load() { candidates += archivedCards(kanban, describing: shell != .bash) }
            case .label, .assignee:
                let (field, what) = kind == .label ? ("labels", "label") : ("assignees", "assignee")
                var seen: Set<String> = []
                for board in load()?.boards ?? [] {
                    for item in board.items {
                        let words = kind == .label ? item.labels : item.assignees
                        for word in words where seen.insert(word.lowercased()).inserted {
                            candidates.append(Candidate(word, what, group: field))
                        }
                    }
                }
            case .words(let words):
                candidates += words.map { Candidate($0, "", group: "values") }
            case .command:
                candidates += Commands.topLevelNames.map { Candidate($0, summary(of: $0), group: "commands") }
            case .path, .text:
                break
            }
        }
        output += Array("values\n".utf8)
        write(candidates, shell: shell, context: context, current: current, piece: piece, into: &output)
    }

    /// Commands, board subcommands and options: what the scripts complete themselves, given
    /// here too so that the engine can be asked anything.
    private static func respondStatic(
        _ context: CompletionContext, shell: Shell, current: String, piece: String?, into output: inout [UInt8]
    ) {
        var candidates: [Candidate] = []
        switch context.target {
        case .command:
            candidates = Commands.topLevelNames.map { Candidate($0, summary(of: $0), group: "commands") }
        case .subcommand(let group):
            candidates = CommandGroups.subcommands(of: group).map {
                Candidate($0, Commands.named("\(group) \($0)")?.summary ?? "", group: "commands")
            }
        case .option(let name):
            let options = (name.flatMap(Commands.named)?.options ?? []) + Options.global
            candidates = options.map { Candidate($0.spec.name, $0.help, group: "options") }
        case .value, .nothing:
            break
        }
        output += Array("values\n".utf8)
        write(candidates, shell: shell, context: context, current: current, piece: piece, into: &output)
    }

    private static func summary(of name: String) -> String {
        CommandGroups.names.contains(name) ? CommandGroups.summary(of: name) : Commands.named(name)?.summary ?? ""
    }

    // MARK: - Cards

    /// Each card's id, described by its title and board, then each title that names one
    /// card only (a title shared by several would be refused as ambiguous). bash shows no
    /// descriptions, so they are only made when `describing`.
    static func cards(_ kanban: Kanban, describing: Bool) -> [Candidate] {
        var ids: [Candidate] = []
        ids.reserveCapacity(kanban.itemCount)
        var titles: [String: (id: ItemID, board: String, count: Int)] = [:]
        titles.reserveCapacity(kanban.itemCount)
        var order: [String] = []
        order.reserveCapacity(kanban.itemCount)
        for board in kanban.boards {
            for (index, item) in board.items.enumerated() {
                let title = item.title  // read once: a deferred card reads it from its line
                ids.append(
                    Candidate(item.id.rawValue, describing ? "\(title) (\(board.title):\(index))" : "", group: "cards"))
                if let seen = titles[title] {
                    titles[title]!.count = seen.count + 1
                } else {
                    titles[title] = (item.id, board.title, 1)
                    order.append(title)
                }
            }
        }
        return ids + titleCandidates(order, titles, describing: describing)
    }

    static func archivedCards(_ kanban: Kanban, describing: Bool) -> [Candidate] {
        var ids: [Candidate] = []
        var titles: [String: (id: ItemID, board: String, count: Int)] = [:]
        var order: [String] = []
        for index in kanban.archive.indices {
            let item = kanban.archive[index].item
            // Said the same way after an id and after a title: where the card went from.
            let place = "archived from \(kanban.archivedCandidate(at: index)?.board ?? "")"
            ids.append(Candidate(item.id.rawValue, describing ? "\(item.title) (\(place))" : "", group: "cards"))
            if let seen = titles[item.title] {
                titles[item.title]!.count = seen.count + 1
            } else {
                titles[item.title] = (item.id, place, 1)
                order.append(item.title)
            }
        }
        return ids + titleCandidates(order, titles, describing: describing)
    }

    private static func titleCandidates(
        _ order: [String], _ titles: [String: (id: ItemID, board: String, count: Int)], describing: Bool
    ) -> [Candidate] {
        order.compactMap { title in
            let entry = titles[title]!
            // A title starting with '-' would be read as an option.
            guard entry.count == 1, !title.hasPrefix("-") else { return nil }
            return Candidate(title, describing ? "\(entry.id) (\(entry.board))" : "", group: "titles")
        }
    }

    // MARK: - Output

    struct Candidate: Equatable {
        var value: String
        var description: String
        /// For zsh: the group it is listed under.
        var group: String

        init(_ value: String, _ description: String, group: String) {
            self.value = value
            self.description = description
            self.group = group
        }
    }

    /// Writes the candidates as `shell` takes them. A completion may list every card of a
    /// large kanban, so this works on UTF-8 bytes: every character the shells treat
    /// specially is ASCII, and no byte of a multi-byte character is.
    private static func write(
        _ candidates: [Candidate], shell: Shell, context: CompletionContext, current: String, piece: String?,
        into output: inout [UInt8]
    ) {
        // Text that cannot be typed on a line (control characters) is not offered. zsh and
        // fish match candidates themselves, with their users' matchers (case, substrings,
        // fuzzy); only what no such matcher could take is left out, so that a typed word does
        // not cost the shell thousands of candidates: those without the word's characters in
        // order, ignoring ASCII case.
        let typed = Array(context.prefix.utf8)
        let typable = candidates.filter {
            !hasControl($0.value) && (shell == .bash || typed.isEmpty || isSubsequence(typed, of: $0.value))
        }
        switch shell {
        case .bash:
            // The value the word holds so far, and the stem of it that readline keeps.
            let value = Array(ShellQuote.dequote(current).value.utf8)
            let piece = piece ?? current
            let kept = ShellQuote.readlineStem(raw: current, keptRaw: String(current.dropLast(piece.count)))
            let keptCount = kept.value.utf8.count
            let stem = Array(context.stem.utf8)
            var full: [UInt8] = []
            for candidate in typable {
                full.removeAll(keepingCapacity: true)
                full += stem
                full += candidate.value.utf8
                guard full.starts(with: value), full.count >= keptCount else { continue }
                ShellQuote.append(full[keptCount...], quotedFor: kept.quote, to: &output)
                output.append(0x0A)
            }
        case .zsh:
            // Per group: "GROUP COUNT", the values, then what the list shows for each
            // ("value  -- description", aligned): zsh takes them as slices, not by matching.
            let width = min(32, typable.lazy.map(\.value.count).max() ?? 0)
            var groups: [String] = []
            for candidate in typable where !groups.contains(candidate.group) { groups.append(candidate.group) }
            for group in groups {
                let members = typable.filter { $0.group == group }
                output += "\(group) \(members.count)\n".utf8
                for candidate in members {
                    output += candidate.value.utf8
                    output.append(0x0A)
                }
                for candidate in members {
                    output += candidate.value.utf8
                    if !candidate.description.isEmpty {
                        output += repeatElement(UInt8(ascii: " "), count: max(0, width - candidate.value.count))
                        output += "  -- ".utf8
                        appendOneLine(candidate.description, to: &output)
                    }
                    output.append(0x0A)
                }
            }
        case .fish:
            for candidate in typable {
                output += candidate.value.utf8
                if !candidate.description.isEmpty {
                    output.append(0x09)
                    appendOneLine(candidate.description, to: &output)
                }
                output.append(0x0A)
            }
        }
    }

    /// Whether the bytes of `typed` appear in `text` in order, ASCII letters in either case.
    private static func isSubsequence(_ typed: [UInt8], of text: String) -> Bool {
        func folded(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
        var index = 0
        for byte in text.utf8 where index < typed.count && folded(byte) == folded(typed[index]) {
            index += 1
        }
        return index == typed.count
    }

    /// Whether `text` holds a C0 control (tab included), DEL or a C1 control.
    private static func hasControl(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            previous = byte
        }
        return false
    }

    /// A description on one line: control characters become spaces.
    private static func appendOneLine(_ text: String, to output: inout [UInt8]) {
        guard hasControl(text) else {
            output += text.utf8
            return
        }
        for scalar in text.unicodeScalars {
            output += String(scalar.isControl ? " " : scalar).utf8
        }
    }
}

/// The shells kanban writes completion scripts for.
enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
}
