import KanbanCore

// `kanban ui` as a pure state machine: events in (keys, mouse reports, pastes, a resize,
// the file read anew, the outcome of an action), actions out (an ``Operation`` to run as
// one transaction, undo, redo, the editor, quit), and the screen it shows. No terminal,
// no file: the runner (`App+UI.swift`) does those, and tests drive it in-process.
//
// Every change is an ``Operation`` with item ids and board titles as references, run by
// the same `Kanban.apply` as the command line, so the UI holds no move logic of its own.
// A drop is the SPEC §2 case it looks like: a slot between cards of a board, turned into
// `--at N` (the final index of the first card, counted after the moved cards are taken out).

/// Something that happened, for ``BoardUI/handle(_:)``.
enum UIEvent: Equatable {
    case input(InputEvent)
    case resize(width: Int, height: Int)
    /// The file, read anew after another process changed it.
    case loaded(Kanban)
    /// What came of the last action.
    case outcome(Outcome)
}

/// What came of an action.
enum Outcome: Equatable {
    /// It ran: the kanban now, the command's report (`moved k3f9 'Analytics': …`), and the
    /// cards to put the cursor on (the moved, added or copied ones).
    case changed(Kanban, report: String, focus: [ItemID] = [])
    /// The kanban refused it and nothing changed; `wipLimit` when a board's limit did, so
    /// that `F` can run it again with `--force`.
    case refused(String, wipLimit: Bool = false)
    /// Anything else that went wrong (the file, the lock, the editor).
    case failed(String)
}

/// What the runner should do.
enum UIAction: Equatable {
    /// Run one operation as one transaction (lock, write, history).
    case apply(Operation)
    case undo
    case redo
    /// Suspend the board, run `kanban edit` on the card in `$EDITOR`, and come back.
    case edit(ItemID)
    case quit
    /// Ctrl-Z: give the terminal back and stop until continued.
    case suspend
    /// Ctrl-L: draw everything again.
    case redraw
}

/// The interactive board.
struct BoardUI {
    // MARK: - What it shows

    var kanban: Kanban
    /// The time, for due dates and filters.
    var clock: Moment
    var width: Int
    var height: Int

    /// `/`: the cards shown are those whose title or note holds this, as `list --grep`.
    var filter: String?
    var cursor = Cursor(board: 0, item: nil, position: 0)
    /// The cards picked with space (or Ctrl/Shift-click): x, y, d and a drag take them all.
    var selection: Set<ItemID> = []
    /// Cards cut (`x`) or copied (`y`), waiting for `p`.
    var clipboard: Clipboard?
    var mode = Mode.board
    var status = Status("")
    /// The last operation refused by a WIP limit, ready to run with `--force` (`F`).
    var forceable: Operation?

    /// The operation sent last, until its outcome comes.
    var requested: Operation?
    /// Whether the operation sent last pastes the clipboard (a cut is pasted once).
    var requestedPaste = false
    /// What the status line adds once the operation sent last is done: a paste too large
    /// to take whole says what it left out.
    var pasteNote: String?
    /// The card the left button went down on, until it moves (a drag) or comes up (a click).
    var press: Press?
    /// For each board, the position (among the cards shown) of the first card in view.
    var scroll: [BoardID: Int] = [:]
    /// The cards each board shows: `nil` for all of them, else their indices.
    var shown: [[Int]?] = []
    /// Column widths, for the boards in ``window``.
    var widths: [Int] = []
    /// The boards side by side on the screen: all of them when they fit.
    var window = 0..<0
    /// For each board, the columns before its cards' titles.
    var prefixes: [ColumnPrefix] = []
    /// Boards of more than ``sampleSize`` cards, measured once (see ``arrangeColumns()``).
    var measured: [BoardID: MeasuredBoard] = [:]

    /// The place of the cursor: a board, the card on it (`nil` when it shows none), and
    /// that card's position among the cards shown, kept to find a place when it goes away.
    struct Cursor: Equatable {
        var board: Int
        var item: ItemID?
        var position: Int
    }

    struct Clipboard: Equatable {
        var items: [ItemID]
        /// `y`: copies with new ids; `x`: a move.
        var copy: Bool
    }

    struct Status: Equatable {
        var text: String
        var isError = false

        init(_ text: String, isError: Bool = false) {
            self.text = text
            self.isError = isError
        }
    }

    enum Mode: Equatable {
        case board
        /// Typing a line: a new card's title, a new title, or a filter.
        case prompt(Prompt)
        /// `d` asked; `y` removes these cards.
        case confirmRemove([ItemID])
        /// Enter: the card in full.
        case detail(ItemID)
        /// `?`: the keys.
        case help
        /// `s`: the flow figures of this board (README: Flow).
        case stats(BoardID)
        case dragging(Drag)
    }

    struct Prompt: Equatable {
        enum Kind: Equatable {
            /// A new card on this board, below the cursor.
            case add(board: BoardID)
            case rename(ItemID)
            case filter
        }

        var kind: Kind
        var text: String
    }

    /// Cards being dragged with the mouse, and where they would land.
    struct Drag: Equatable {
        /// In board order: they land in this order.
        var items: [ItemID]
        var target: DropTarget?
        /// Ctrl or Alt held: the drop copies (the `.copy` proposal).
        var copy: Bool
        /// What a drop at `target` would do: `nil` for a move or copy that works, else
        /// why the board refuses (the `.forbidden` proposal).
        var refusal: String?
    }

    /// A slot between the cards a board shows: `slot` is the position (among the cards
    /// shown) of the card the dropped ones would go before; the number shown for the bottom.
    struct DropTarget: Equatable {
        var board: Int
        var slot: Int
    }

    struct Press: Equatable {
        var item: ItemID
        var column: Int
        var row: Int
    }

    // MARK: - Starting

    init(kanban: Kanban, clock: Moment, width: Int, height: Int) {
        self.kanban = kanban
        self.clock = clock
        self.width = max(1, width)
        self.height = max(1, height)
        refresh()
        if let first = shown.indices.first {
            cursor = Cursor(board: first, item: nil, position: 0)
            settleCursor()
        }
        status = Status("")
    }

    // MARK: - Events

    /// Takes one event; returns what the runner should do, in order.
    mutating func handle(_ event: UIEvent) -> [UIAction] {
        switch event {
        case .input(let input):
            switch input {
            case .key(let key): return handleKey(key)
            case .mouse(let mouse): return handleMouse(mouse)
            case .paste(let text, let linesLeftOut): return handlePaste(text, linesLeftOut: linesLeftOut)
            }
        case .resize(let width, let height):
            self.width = max(1, width)
            self.height = max(1, height)
            arrangeColumns()
            for b in window { settleScroll(b) }
            revealCursor()
            return []
        case .loaded(let kanban):
            replaceKanban(kanban, focus: [])
            return []
        case .outcome(let outcome):
            handleOutcome(outcome)
            return []
        }
    }

    private mutating func handleOutcome(_ outcome: Outcome) {
        let (operation, pasted) = (requested, requestedPaste)
        requested = nil
        requestedPaste = false
        defer { pasteNote = nil }
        switch outcome {
        case .changed(let kanban, let report, let focus):
            forceable = nil
            if pasted, clipboard?.copy == false { clipboard = nil }
            replaceKanban(kanban, focus: focus)
            status = Status(Self.summary(of: report) + (pasteNote.map { "; " + $0 } ?? ""), isError: pasteNote != nil)
        case .refused(let message, let wipLimit):
            forceable = wipLimit ? operation.map(Self.forced) : nil
            guard forceable != nil else {
                status = Status(message, isError: true)
                return
            }
            // The command's words, with the key that forces it where the command names --force.
            var reason = message
            for end in ["; this would make", ". Nothing was changed"] {
                if let range = reason.firstRange(of: end) { reason = String(reason[..<range.lowerBound]) }
            }
            status = Status(reason + "; nothing was changed; F forces it", isError: true)
        case .failed(let message):
            status = Status(message, isError: true)
        }
    }

    /// The first line of a report, and how many more there are.
    static func summary(of report: String) -> String {
        let lines = report.split(separator: "\n")
        guard let first = lines.first else { return "nothing changed" }
        return lines.count > 1 ? "\(first) (and \(lines.count - 1) more)" : String(first)
    }

    /// The kanban as it is now: the cursor stays on its card (or its place, if the card
    /// went), the cursor moves to `focus` if given; cards that went leave the selection,
    /// the clipboard and a drag.
    private mutating func replaceKanban(_ new: Kanban, focus: [ItemID]) {
        let previousBoard = cursor.board < kanban.boards.count ? kanban.boards[cursor.board].id : nil
        kanban = new
        if !selection.isEmpty || clipboard != nil || mode != .board {
            let ids = Set(new.boards.lazy.flatMap { $0.items.lazy.map(\.id) })
            selection.formIntersection(ids)
            clipboard?.items.removeAll { !ids.contains($0) }
            if clipboard?.items.isEmpty == true { clipboard = nil }
            switch mode {
            case .dragging(var drag):
                drag.items.removeAll { !ids.contains($0) }
                mode = drag.items.isEmpty ? .board : .dragging(drag)
            case .detail(let item) where !ids.contains(item):
                mode = .board
            case .confirmRemove(let items):
                let left = items.filter(ids.contains)
                mode = left.isEmpty ? .board : .confirmRemove(left)
            default:
                break
            }
        }
        // The board keeps the cursor by its id, as titles and places may change.
        if let previousBoard, let index = new.boardIndex(id: previousBoard) { cursor.board = index }
        refresh()
        for id in focus {
            guard let target = find(id) else { continue }
            cursor = Cursor(board: target.board, item: id, position: position(of: target))
            if !window.contains(target.board) { arrangeColumns() }
            break
        }
        settleCursor()
    }

    // MARK: - What is shown

    /// Recomputes the cards shown and the columns, after the kanban, the filter or the size changed.
    mutating func refresh() {
        if let filter {
            let grep = CardFilter(grep: filter)
            shown = kanban.boards.map { board in
                board.items.indices.filter { grep.matches(board.items[$0], clock: clock) }
            }
        } else {
            shown = kanban.boards.map { _ in nil }
        }
        cursor.board = min(max(0, cursor.board), max(0, kanban.boards.count - 1))
        arrangeColumns()
    }

    /// How many cards board `b` shows.
    func shownCount(_ b: Int) -> Int {
        shown[b]?.count ?? kanban.boards[b].items.count
    }

    /// The index on its board of the card shown at `position`.
    func boardIndex(_ b: Int, position: Int) -> Int {
        shown[b].map { $0[position] } ?? position
    }

    /// The index on board `b` that a drop in `slot` lands at (before the card shown there,
    /// or after the last card shown).
    func boardIndex(_ b: Int, slot: Int) -> Int {
        guard let indices = shown[b] else { return slot }
        if slot < indices.count { return indices[slot] }
        return indices.last.map { $0 + 1 } ?? 0
    }

    /// The position among the cards shown of the card at `location` (or of the first card
    /// shown after it).
    func position(of location: Location) -> Int {
        guard let indices = shown[location.board] else { return location.index }
        var low = 0
        var high = indices.count
        while low < high {
            let middle = (low + high) / 2
            if indices[middle] < location.index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Where the card with `id` is, looking at the cursor's board first.
    func find(_ id: ItemID) -> Location? {
        if kanban.boards.indices.contains(cursor.board),
            let index = kanban.boards[cursor.board].items.firstIndex(where: { $0.id == id })
        {
            return Location(board: cursor.board, index: index)
        }
        for (b, board) in kanban.boards.enumerated() where b != cursor.board {
            if let index = board.items.firstIndex(where: { $0.id == id }) { return Location(board: b, index: index) }
        }
        return nil
    }

    /// The locations of `ids` that are on a board, in board order.
    func locations(of ids: some Collection<ItemID>) -> [Location] {
        let wanted = Set(ids)
        guard !wanted.isEmpty else { return [] }
        var found: [Location] = []
        for (b, board) in kanban.boards.enumerated() {
            for (index, item) in board.items.enumerated() where wanted.contains(item.id) {
                found.append(Location(board: b, index: index))
                if found.count == wanted.count { return found }
            }
        }
        return found
    }

    /// The card under the cursor, if it is still on the board the cursor is on.
    var cursorLocation: Location? {
        guard let item = cursor.item, kanban.boards.indices.contains(cursor.board) else { return nil }
        let board = kanban.boards[cursor.board]
        let guess = boardIndexIfShown(cursor.board, position: cursor.position)
        if let guess, board.items[guess].id == item { return Location(board: cursor.board, index: guess) }
        return board.items.firstIndex { $0.id == item }.map { Location(board: cursor.board, index: $0) }
    }

    private func boardIndexIfShown(_ b: Int, position: Int) -> Int? {
        guard position >= 0, position < shownCount(b) else { return nil }
        return boardIndex(b, position: position)
    }

    /// Puts the cursor back on a card that is shown: its own card where it is now, else
    /// the card now at its position on its board.
    mutating func settleCursor() {
        guard !kanban.boards.isEmpty else {
            cursor = Cursor(board: 0, item: nil, position: 0)
            return
        }
        cursor.board = min(max(0, cursor.board), kanban.boards.count - 1)
        if let location = cursorLocation {
            let position = position(of: location)
            if position < shownCount(cursor.board), boardIndex(cursor.board, position: position) == location.index {
                cursor.position = position
                revealCursor()
                return
            }
        }
        let count = shownCount(cursor.board)
        cursor.position = min(max(0, cursor.position), max(0, count - 1))
        cursor.item =
            count > 0 ? kanban.boards[cursor.board].items[boardIndex(cursor.board, position: cursor.position)].id : nil
        revealCursor()
    }

    /// Moves the cursor to position `position` of board `b`.
    mutating func placeCursor(board b: Int, position: Int) {
        cursor.board = b
        cursor.position = position
        cursor.item = nil
        if !window.contains(b) { arrangeColumns() }
        settleCursor()
    }

    // MARK: - Scrolling

    /// The first card in view on board `b`.
    func firstShown(_ b: Int) -> Int {
        let first = scroll[kanban.boards[b].id] ?? 0
        return min(max(0, first), max(0, shownCount(b) - 1))
    }

    mutating func setFirstShown(_ b: Int, _ position: Int) {
        scroll[kanban.boards[b].id] = min(max(0, position), max(0, shownCount(b) - 1))
    }

    /// Scrolls the cursor's board so that the cursor's card is in view, whole if it can be.
    mutating func revealCursor() {
        guard kanban.boards.indices.contains(cursor.board), shownCount(cursor.board) > 0 else { return }
        let b = cursor.board
        var first = firstShown(b)
        if cursor.position < first {
            first = cursor.position
        } else {
            // Rows for cards, less one for the "more below" line when cards follow it.
            let last = cursor.position == shownCount(b) - 1
            let budget = max(1, last ? cardRows : cardRows - 1)
            let width = textWidth(of: b)
            var used = 0
            var position = cursor.position
            while position >= first {
                used += cardHeight(b, position: position, textWidth: width)
                if used > budget {
                    first = min(cursor.position, position + 1)
                    break
                }
                position -= 1
            }
        }
        setFirstShown(b, first)
    }

    /// Scrolls board `b` back up as far as its last card allows: a taller screen shows the
    /// cards above rather than empty rows below the last one.
    mutating func settleScroll(_ b: Int) {
        let first = firstShown(b)
        guard first > 0 else { return }
        let width = textWidth(of: b)
        var used = 0
        var lowest = shownCount(b)
        while lowest > 0 {
            used += cardHeight(b, position: lowest - 1, textWidth: width)
            if used > cardRows { break }
            lowest -= 1
        }
        if lowest < first { setFirstShown(b, lowest) }
    }

    /// Scrolls board `b` by `count` cards (negative: up).
    mutating func scrollBoard(_ b: Int, by count: Int) {
        setFirstShown(b, firstShown(b) + count)
    }

    // MARK: - Selection

    /// The cards a command takes: the selection when there is one, else the card under
    /// the cursor; in board order.
    var picked: [ItemID] {
        if !selection.isEmpty { return locations(of: selection).map { kanban[$0].id } }
        return cursorLocation.map { [kanban[$0].id] } ?? []
    }

    mutating func toggleSelection(_ id: ItemID) {
        if selection.contains(id) { selection.remove(id) } else { selection.insert(id) }
        status = Status(
            selection.isEmpty
                ? "selection cleared"
                : "\(Self.cards(selection.count)) selected: x cuts, y copies, d removes, a drag moves them")
    }

    static func cards(_ count: Int) -> String {
        count == 1 ? "1 card" : "\(count) cards"
    }

    // MARK: - Operations

    /// The operation that drops `items` on board `b` before its index `index` (counted
    /// with them still in place): a move (`--at` the final index of the first, counted
    /// after they are taken out), or a copy, which takes nothing out.
    func dropOperation(_ items: [ItemID], board b: Int, index: Int, copy: Bool) -> Operation {
        let locations = locations(of: items)
        let references = locations.map { kanban[$0].id.rawValue }
        let title = kanban.boards[b].title
        if copy { return .copy(items: references, to: title, position: .at(index)) }
        let before = locations.count(where: { $0.board == b && $0.index < index })
        return .move(items: references, to: title, position: .at(index - before))
    }

    /// Asks the runner to run `operation`.
    mutating func request(_ operation: Operation) -> [UIAction] {
        requested = operation
        requestedPaste = false
        return [.apply(operation)]
    }

    /// `operation` with `--force`.
    static func forced(_ operation: Operation) -> Operation {
        switch operation {
        case .move(let items, let to, let from, let position, _):
            .move(items: items, to: to, from: from, position: position, force: true)
        case .copy(let items, let to, let from, let position, _):
            .copy(items: items, to: to, from: from, position: position, force: true)
        case .add(let titles, let to, let position, let content, _):
            .add(titles: titles, to: to, position: position, content: content, force: true)
        case .restore(let items, let to, _):
            .restore(items: items, to: to, force: true)
        default:
            operation
        }
    }

    /// What a drop would do, found by making it on a copy of the kanban: `nil` when it
    /// works, else why not (a board at its WIP limit: the `.forbidden` proposal).
    func refusal(of operation: Operation) -> String? {
        var trial = kanban
        var generator = SystemRandomNumberGenerator()
        do {
            try trial.apply(operation, at: clock, using: &generator)
            return nil
        } catch .wipLimit(let board, let limit, _, _) {
            return "\(q(board)) is at its WIP limit of \(limit)"
        } catch {
            return error.message
        }
    }
}
