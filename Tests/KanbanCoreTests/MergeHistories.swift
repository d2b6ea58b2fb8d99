import Foundation

@testable import KanbanCore

// Random histories for the merge's property tests: a random base built by commands, and
// two copies of it changed by random commands, as two branches would change a kanban.

struct HistoryGenerator {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    static let cardTitles = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta"]
    static let boardTitles = ["Todo", "Doing", "Review", "Done", "Later", "Ideas"]
    static let labels = ["bug", "p1", "p2", "@ann", "docs"]
    static let names = ["ann", "Bob", "carol"]
    static let notes = ["short", "two\nlines", "other", ""]

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    mutating func chance(_ percent: Int) -> Bool {
        int(0...99) < percent
    }

    mutating func element<T>(_ values: [T]) -> T? {
        values.isEmpty ? nil : values[int(0...values.count - 1)]
    }

    /// A base: a few boards (some with limits), cards added, moved, edited and archived.
    mutating func base() -> Kanban {
        let count = int(1...4)
        var titles = Self.boardTitles
        titles.shuffle(using: &random)
        var kanban = try! Kanban(
            boardTitles: titles.prefix(count).map { try! Title($0) }, using: &random)
        var ids = SeededGenerator(seed: random.next())
        for step in 0..<int(4...24) {
            let operation = self.operation(on: kanban)
            _ = try? kanban.apply(operation, at: MergeFixture.clock(Int64(step)), using: &ids)
        }
        return kanban
    }

    /// `kanban` after `count` random commands, the k-th at `clock(start + 2k)`; commands
    /// that are refused are skipped. New ids come from a generator seeded with `seed`.
    mutating func history(
        from kanban: Kanban, count: Int, start: Int64, seed: UInt64
    ) -> (kanban: Kanban, operations: [KanbanCore.Operation]) {
        var kanban = kanban
        var ids = SeededGenerator(seed: seed)
        var applied: [KanbanCore.Operation] = []
        for step in 0..<count {
            let operation = self.operation(on: kanban)
            if (try? kanban.apply(operation, at: MergeFixture.clock(start + 2 * Int64(step)), using: &ids)) != nil {
                applied.append(operation)
            }
        }
        return (kanban, applied)
    }

    /// A random command on `kanban`, usually one that it accepts.
    mutating func operation(on kanban: Kanban, only scope: Scope? = nil) -> KanbanCore.Operation {
        let boards = kanban.boards.filter { scope?.boards.contains($0.id) ?? true }
        let cards = boards.flatMap(\.items).map(\.id.rawValue)
        let archived = kanban.archive.filter { scope?.boards.contains($0.board) ?? true }.map(\.item.id.rawValue)
        let boardNames = boards.map(\.title)
        let titles = scope.map { scope in Self.cardTitles.map { scope.prefix + $0 } } ?? Self.cardTitles
        let some = { (generator: inout HistoryGenerator) -> [String] in
            let count = generator.int(1...2)
            return (0..<count).compactMap { _ in generator.element(cards) }
        }
        guard let board = element(boardNames) else {
            return .boardAdd(title: try! Title(scope.map { $0.prefix + "Board" } ?? element(Self.boardTitles)!))
        }
        let destination = element(boardNames)!
        switch int(0...99) {
        case 0..<22:
            let count = int(1...2)
            return .add(
                titles: (0..<count).map { _ in try! Title(element(titles)!) }, to: destination,
                position: position(in: kanban, board: destination),
                content: NewCardContent(
                    labels: labels(), due: chance(30) ? .date(Day(daysSinceEpoch: 20_500 + int(0...9))) : nil,
                    note: chance(20) ? element(Self.notes) : nil),
                force: chance(20))
        case 22..<46:
            guard !cards.isEmpty else { return .boardLimit(board: board, limit: nil) }
            return .move(
                items: some(&self), to: destination, position: position(in: kanban, board: destination),
                force: chance(30))
        case 46..<50:
            guard !cards.isEmpty else { return .boardLimit(board: board, limit: nil) }
            return .copy(items: some(&self), to: destination, position: position(in: kanban, board: destination))
        case 50..<57:
            guard !cards.isEmpty else { return .boardLimit(board: board, limit: nil) }
            return .remove(items: some(&self))
        case 57..<64:
            guard let card = element(cards) else { return .boardLimit(board: board, limit: nil) }
            return .rename(item: card, title: try! Title(element(titles)!))
        case 64..<76:
            guard let card = element(cards) else { return .boardLimit(board: board, limit: nil) }
            var edits = EditInput()
            if chance(30) { edits.title = try! Title(element(titles)!) }
            if chance(30) { edits.note = chance(70) ? .set(element(Self.notes)!) : .append("more") }
            if chance(40) { edits[words: "labels"].add = labels().names }
            if chance(30) { edits[words: "labels"].remove = [element(Self.labels)!] }
            if chance(30) { edits[words: "assignees"].add = [element(Self.names)!] }
            if chance(20) { edits[words: "assignees"].remove = [element(Self.names)!] }
            if chance(30) { edits.due = chance(70) ? .date(Day(daysSinceEpoch: 20_500 + int(0...9))) : DueInput.none }
            if edits.isEmpty { edits[words: "labels"].add = ["p1"] }
            return .edit(item: card, edits: edits)
        case 76..<82:
            guard !cards.isEmpty else { return .boardLimit(board: board, limit: nil) }
            return .archive(items: some(&self))
        case 82..<83:
            return .archiveBoard(board: board)
        case 83..<87:
            guard let card = element(archived) else { return .boardLimit(board: board, limit: 9) }
            return .restore(items: [card], to: scope == nil && chance(30) ? destination : nil, force: chance(50))
        case 87..<90:
            guard scope == nil else { return .boardLimit(board: board, limit: int(0...6)) }
            return .boardAdd(
                title: try! Title(element(Self.boardTitles)!), at: int(0...kanban.boards.count),
                limit: chance(30) ? int(1...5) : nil)
        case 90..<93:
            let title = scope.map { $0.prefix + element(Self.boardTitles)! } ?? element(Self.boardTitles)!
            return .boardRename(board: board, title: try! Title(title))
        case 93..<95:
            guard scope == nil else { return .boardLimit(board: board, limit: nil) }
            return .boardMove(board: board, at: int(0...max(0, kanban.boards.count - 1)))
        case 95..<98:
            if chance(40) { return .boardRole(board: board, role: chance(80) ? element(BoardRole.allCases) : nil) }
            return .boardLimit(board: board, limit: chance(70) ? int(0...6) : nil)
        default:
            guard scope == nil else { return .boardLimit(board: board, limit: 4) }
            return .boardRemove(board: board, force: chance(60))
        }
    }

    private mutating func labels() -> Labels {
        var labels = Labels()
        for _ in 0..<int(0...2) { labels.insert(element(Self.labels)!) }
        return labels
    }

    private mutating func position(in kanban: Kanban, board: String) -> Position? {
        let items = kanban.boards.first { $0.title == board }?.items ?? []
        switch int(0...9) {
        case 0...2: return nil
        case 3: return .top
        case 4: return .bottom
        case 5...7: return .at(int(-2...items.count + 1))
        case 8: return element(items).map { .before($0.id.rawValue) } ?? .top
        default: return element(items).map { .after($0.id.rawValue) } ?? .bottom
        }
    }

    /// What a side may touch when the two sides must stay apart: these boards, their cards,
    /// and new titles with this prefix.
    struct Scope {
        var boards: Set<BoardID>
        var prefix: String
    }
}

/// The generated cases, for the report: each property test prints what it ran, and
/// appends it to `$KANBAN_RELIABILITY_LOG` when that is set (as `.ci/reliability` does).
enum CaseCount {
    static func record(_ name: String, _ count: Int) {
        print("merge property \(name): \(count) generated cases")
        if let path = ProcessInfo.processInfo.environment["KANBAN_RELIABILITY_LOG"], !path.isEmpty,
            let handle = FileHandle(forWritingAtPath: path)
        {
            handle.seekToEndOfFile()
            handle.write(Data("merge property=\(name) cases=\(count)\n".utf8))
            handle.closeFile()
        }
    }

    /// The number of cases a property test runs: `$KANBAN_MERGE_CASES`, or the variable
    /// `name` (for the long runs of `.ci/reliability`), else `default`.
    static func size(_ name: String = "KANBAN_MERGE_CASES", default value: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment[name], let number = Int(text),
            number > 0
        else { return value }
        return number
    }
}
