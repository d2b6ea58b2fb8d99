import KanbanCore

extension Operation {
    /// The command line that makes this change, without the program name, as the history
    /// records it and `kanban batch` reads it: `move k3f9p2 --to Done --at 0`. Every part of
    /// the operation is in it, so parsing it gives the operation back (README: Batch), but
    /// for a TEXT of `-`, which `add` reads as "standard input", and a note of `-`, which
    /// `--note` reads so too.
    var commandLine: [String] {
        var line = CommandLineWords(name.split(separator: " ").map(String.init))
        switch self {
        case .add(let titles, let to, let position, let content, let force):
            line.operands(titles.map(\.text))
            line.option("--to", to)
            line.position(position)
            for options in Options.words {
                guard case .value(.words(let words)) = content[options.field] else { continue }
                for word in words { line.option(options.add.name, word) }
            }
            for options in Options.dates {
                if case .day(let date) = content[options.field] { line.option(options.option.name, Self.text(date)) }
            }
            if case .value(.text(let note)) = content["note"] { line.option("--note", note) }
            line.flag("--force", force)
        case .move(let items, let to, let from, let position, let force),
            .copy(let items, let to, let from, let position, let force):
            line.operands(items)
            line.option("--to", to)
            line.option("--from", from)
            line.position(position)
            line.flag("--force", force)
        case .remove(let items, let from), .archive(let items, let from):
            line.operands(items)
            line.option("--from", from)
        case .rename(let item, let title, let from):
            line.operands([item, title.text])
            line.option("--from", from)
        case .edit(let item, let from, let edits):
            line.operands([item])
            line.option("--from", from)
            line.option("--title", edits.title?.text)
            switch edits.note {
            case .set(let text): line.option("--note", text)
            case .append(let text): line.option("--append-note", text)
            case nil: break
            }
            for options in Options.words {
                for word in edits[words: options.field].add { line.option(options.add.name, word) }
                for word in edits[words: options.field].remove { line.option(options.remove.name, word) }
            }
            for options in Options.dates { line.option(options.option.name, edits.dates[options.field].map(Self.text)) }
        case .archiveBoard(let board, let age):
            line.option("--from", board)
            line.option("--older-than", age?.description)
        case .restore(let items, let to, let force):
            line.operands(items)
            line.option("--to", to)
            line.flag("--force", force)
        case .boardAdd(let title, let index, let limit):
            line.operands([title.text])
            line.option("--at", index.map(String.init))
            line.option("--limit", limit.map(String.init))
        case .boardRename(let board, let title):
            line.operands([board, title.text])
        case .boardMove(let board, let index):
            line.operands([board])
            line.option("--at", String(index))
        case .boardLimit(let board, let limit):
            line.operands([board, limit.map(String.init) ?? "none"])
        case .boardRole(let board, let role):
            line.operands([board, role?.rawValue ?? "default"])
        case .boardRemove(let board, let force):
            line.operands([board])
            line.flag("--force", force)
        case .resolve(let reference, let side, let fields):
            line.operands([reference])
            line.flag("--\(side.rawValue)", true)
            for field in fields { line.option("--field", field.rawValue) }
        }
        return line.words
    }

    /// A date as `--due` takes it.
    private static func text(_ due: DueInput) -> String {
        switch due {
        case .date(let day): day.description
        case .inDays(let days): "+\(days)d"
        case .none: "none"
        }
    }
}

/// The words of a command line: the name, the operands, then the options; the operands go
/// last, after `--`, when one of them starts with `-` (an option's value that does is
/// written `--name=VALUE`).
private struct CommandLineWords {
    private let name: [String]
    private var options: [String] = []
    private var operandWords: [String] = []

    init(_ name: [String]) {
        self.name = name
    }

    mutating func operands(_ words: [String]) {
        operandWords += words
    }

    mutating func option(_ option: String, _ value: String?) {
        guard let value else { return }
        if value.hasPrefix("-") {
            options.append("\(option)=\(value)")
        } else {
            options += [option, value]
        }
    }

    mutating func flag(_ flag: String, _ isOn: Bool) {
        if isOn { options.append(flag) }
    }

    mutating func position(_ position: Position?) {
        switch position {
        case nil: break
        case .at(let index): option("--at", String(index))
        case .top: flag("--top", true)
        case .bottom: flag("--bottom", true)
        case .before(let item): option("--before", item)
        case .after(let item): option("--after", item)
        }
    }

    /// `move ITEM… --to BOARD`, as people write it; `move --to BOARD -- -ITEM` when needed.
    var words: [String] {
        operandWords.contains { $0.hasPrefix("-") }
            ? name + options + ["--"] + operandWords : name + operandWords + options
    }
}
