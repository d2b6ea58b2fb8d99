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
/// only those that match; for zsh, `GROUP<TAB>value:description` with `:` in the value
/// escaped, for `_describe`; for fish, `value<TAB>description`. zsh and fish match and
/// quote candidates themselves, and split `--opt=value` themselves: they get bare values.
///
/// The kanban file is the one the line names with `-f/--file`, else `$KANBAN_FILE`, else
/// the nearest kanban.json; it is read without taking the lock. Nothing goes to stderr
/// and the status is 0 whatever happens: a shell shows whatever a completion prints.
enum Completer {
    static let command = "__complete"

    static func main(_ arguments: [String]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        var output: [UInt8] = []
        respond(arguments, into: &output)
        _ = try? POSIX.writeAll(STDOUT_FILENO, output)
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
        if kinds.contains(.path) && kinds.count == 1 {
            output += Array("files\n".utf8)
            return
        }
        var candidates: [Candidate] = []
        var kanban: Kanban?
        func load() -> Kanban? {
            if kanban == nil {
                let path = context.file.map(ShellQuote.expandTilde)
                kanban = try? Store.locate(file: path).load()
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
                if let kanban = load() { candidates += cards(kanban) }
            case .archivedItem:
                if let kanban = load() { candidates += archivedCards(kanban) }
            case .label:
                var seen: Set<String> = []
                for board in load()?.boards ?? [] {
                    for item in board.items {
                        for label in item.labels where seen.insert(label.lowercased()).inserted {
                            candidates.append(Candidate(label, "label", group: "labels"))
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
        case .boardSubcommand:
            candidates = Commands.boardSubcommands.map {
                Candidate($0, Commands.named("board \($0)")?.summary ?? "", group: "commands")
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
        name == "board" ? "work on the boards themselves" : Commands.named(name)?.summary ?? ""
    }

    // MARK: - Cards

    /// Each card's id, described by its title and board, then each title that names one
    /// card only (a title shared by several would be refused as ambiguous).
    static func cards(_ kanban: Kanban) -> [Candidate] {
        var ids: [Candidate] = []
        ids.reserveCapacity(kanban.itemCount)
        var titles: [String: (id: ItemID, board: String, count: Int)] = [:]
        var order: [String] = []
        for board in kanban.boards {
            for (index, item) in board.items.enumerated() {
                ids.append(Candidate(item.id.rawValue, "\(item.title) (\(board.title):\(index))", group: "cards"))
                if let seen = titles[item.title] {
                    titles[item.title]!.count = seen.count + 1
                } else {
                    titles[item.title] = (item.id, board.title, 1)
                    order.append(item.title)
                }
            }
        }
        return ids + titleCandidates(order, titles)
    }

    static func archivedCards(_ kanban: Kanban) -> [Candidate] {
        var ids: [Candidate] = []
        var titles: [String: (id: ItemID, board: String, count: Int)] = [:]
        var order: [String] = []
        for index in kanban.archive.indices {
            let item = kanban.archive[index].item
            let board = kanban.archivedCandidate(at: index).board
            ids.append(Candidate(item.id.rawValue, "\(item.title) (archived from \(board))", group: "cards"))
            if let seen = titles[item.title] {
                titles[item.title]!.count = seen.count + 1
            } else {
                titles[item.title] = (item.id, board, 1)
                order.append(item.title)
            }
        }
        return ids + titleCandidates(order, titles)
    }

    private static func titleCandidates(
        _ order: [String], _ titles: [String: (id: ItemID, board: String, count: Int)]
    ) -> [Candidate] {
        order.compactMap { title in
            let entry = titles[title]!
            // A title starting with '-' would be read as an option.
            guard entry.count == 1, !title.hasPrefix("-") else { return nil }
            return Candidate(title, "\(entry.id) (\(entry.board))", group: "titles")
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

    private static func write(
        _ candidates: [Candidate], shell: Shell, context: CompletionContext, current: String, piece: String?,
        into output: inout [UInt8]
    ) {
        // Text that cannot be typed on a line (control characters) is not offered.
        let typable = candidates.filter { !$0.value.unicodeScalars.contains(where: \.isControl) }
        switch shell {
        case .bash:
            // The value the word holds so far, and the stem of it that readline keeps.
            let (value, _) = ShellQuote.dequote(current)
            let piece = piece ?? current
            let keptRaw = String(current.dropLast(piece.count))
            let kept = ShellQuote.readlineStem(raw: current, keptRaw: keptRaw)
            for candidate in typable {
                let full = context.stem + candidate.value
                guard full.hasPrefix(value), full.hasPrefix(kept.value) else { continue }
                let replacement = ShellQuote.quote(String(full.dropFirst(kept.value.count)), state: kept.quote)
                output += Array(replacement.utf8)
                output.append(0x0A)
            }
        case .zsh:
            for candidate in typable {
                output += Array(candidate.group.utf8)
                output.append(0x09)
                for character in candidate.value.utf8 {
                    if character == UInt8(ascii: ":") || character == UInt8(ascii: "\\") {
                        output.append(UInt8(ascii: "\\"))
                    }
                    output.append(character)
                }
                output.append(UInt8(ascii: ":"))
                output += Array(oneLine(candidate.description).utf8)
                output.append(0x0A)
            }
        case .fish:
            for candidate in typable {
                output += Array(candidate.value.utf8)
                if !candidate.description.isEmpty {
                    output.append(0x09)
                    output += Array(oneLine(candidate.description).utf8)
                }
                output.append(0x0A)
            }
        }
    }

    /// A description on one line, without control characters.
    private static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.isControl ? " " : $0 }))
    }
}

/// The shells kanban writes completion scripts for.
enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
}
