import KanbanCore

// The keys of SPEC §11, and the one-line prompts some of them open.

extension BoardUI {
    /// The keys, as `?` shows them.
    static let keyHelp: [(keys: String, does: String)] = [
        ("h j k l, arrows", "move the cursor between cards and boards"),
        ("g G, Home End", "first or last card of the board; PgUp PgDn: a screen up or down"),
        ("H L, Shift+Left/Right", "move the card to the previous or next board"),
        ("K J, Shift+Up/Down", "move the card up or down in its board"),
        ("space", "add the card to the selection, or take it out"),
        ("x  y", "cut or copy the selection (or the card)"),
        ("p  P", "paste below (p) or above (P) the cursor: a move, or copies with new ids"),
        ("a", "add a card below the cursor"),
        ("r  e", "rename the card; edit it in $VISUAL or $EDITOR (as kanban edit)"),
        ("Enter", "show the card in full"),
        ("R  T", "settle a '!' card's recorded conflict: keep ours (R) or take theirs (T)"),
        ("d", "remove the selection (or the card), after y to confirm"),
        ("u  Ctrl-R", "undo, redo (as kanban undo and redo)"),
        ("/", "show only cards whose title or note holds a text (as list --grep)"),
        ("F", "force the last move a WIP limit refused (--force)"),
        ("s", "the flow figures of the cursor's board, the last 30 days (as kanban stats BOARD)"),
        ("Esc", "clear the selection and the clipboard, then the filter"),
        ("Ctrl-L  Ctrl-Z", "draw the screen again; suspend"),
        ("q, Ctrl-C", "quit"),
        ("mouse", "drag a card (or the selection) to a place between cards; hold Ctrl or Alt"),
        ("", "when releasing to copy; release outside the boards to cancel; a click puts the"),
        ("", "cursor on a card, Ctrl- or Shift-click selects it; the wheel scrolls a column"),
        ("paste", "text pasted into the board adds a card per line below the cursor"),
    ]

    mutating func handleKey(_ key: Key) -> [UIAction] {
        if key.code == .control("c") { return [.quit] }
        switch mode {
        case .board:
            return boardKey(key)
        case .prompt(let prompt):
            return promptKey(key, prompt)
        case .confirmRemove(let items):
            mode = .board
            guard key.code == .character("y") || key.code == .character("Y") else {
                status = Status("nothing was removed")
                return []
            }
            return request(.remove(items: items.map(\.rawValue)))
        case .detail, .help, .stats:
            mode = .board
            return []
        case .dragging:
            if key.code == .escape {
                mode = .board
                status = Status("drag cancelled")
            }
            return []
        }
    }

    private mutating func boardKey(_ key: Key) -> [UIAction] {
        // Shift and an arrow is the letter in capitals.
        var code = key.code
        if key.modifiers.contains(.shift) {
            switch code {
            case .left: code = .character("H")
            case .right: code = .character("L")
            case .down: code = .character("J")
            case .up: code = .character("K")
            default: break
            }
        }
        switch code {
        case .character("q"):
            return [.quit]
        case .character("h"), .left:
            moveCursor(boards: -1)
        case .character("l"), .right:
            moveCursor(boards: 1)
        case .character("j"), .down:
            moveCursor(cards: 1)
        case .character("k"), .up:
            moveCursor(cards: -1)
        case .character("H"):
            return moveCard(boards: -1)
        case .character("L"):
            return moveCard(boards: 1)
        case .character("J"):
            return moveCard(cards: 1)
        case .character("K"):
            return moveCard(cards: -1)
        case .character("g"), .home:
            placeCursor(board: cursor.board, position: 0)
        case .character("G"), .end:
            placeCursor(board: cursor.board, position: shownCount(cursor.board) - 1)
        case .pageDown:
            placeCursor(board: cursor.board, position: cursor.position + max(1, cardsInView - 1))
        case .pageUp:
            placeCursor(board: cursor.board, position: cursor.position - max(1, cardsInView - 1))
        case .character(" "):
            guard let location = cursorLocation else { return noCard() }
            toggleSelection(kanban[location].id)
        case .escape:
            if !selection.isEmpty || clipboard != nil {
                selection = []
                clipboard = nil
                status = Status("selection and clipboard cleared")
            } else if filter != nil {
                setFilter(nil)
            }
        case .character("x"), .character("y"):
            let items = picked
            guard !items.isEmpty else { return noCard() }
            let copy = key.code == .character("y")
            clipboard = Clipboard(items: items, copy: copy)
            selection = []
            let what = Self.cards(items.count)
            status = Status("\(copy ? "copied" : "cut") \(what): p pastes below the cursor, P above")
        case .character("p"), .character("P"):
            return paste(below: key.code == .character("p"))
        case .character("a"):
            guard !kanban.boards.isEmpty else { return noBoard() }
            mode = .prompt(Prompt(kind: .add(board: kanban.boards[cursor.board].id), text: ""))
        case .character("r"):
            guard let location = cursorLocation else { return noCard() }
            mode = .prompt(Prompt(kind: .rename(kanban[location].id), text: kanban[location].title))
        case .character("e"):
            guard let location = cursorLocation else { return noCard() }
            requested = nil
            return [.edit(kanban[location].id)]
        case .enter:
            guard let location = cursorLocation else { return noCard() }
            mode = .detail(kanban[location].id)
        case .character("R"), .character("T"):
            // README: Working together, as kanban resolve ID [--theirs].
            guard let location = cursorLocation else { return noCard() }
            guard !kanban[location].conflicts.isEmpty else {
                status = Status("this card has no recorded conflict ('!' marks those that do)", isError: true)
                return []
            }
            return request(
                .resolve(reference: kanban[location].id.rawValue, side: key.code == .character("T") ? .theirs : .ours))
        case .character("d"):
            let items = picked
            guard !items.isEmpty else { return noCard() }
            mode = .confirmRemove(items)
        case .character("u"):
            requested = nil
            return [.undo]
        case .control("r"):
            requested = nil
            return [.redo]
        case .character("/"):
            mode = .prompt(Prompt(kind: .filter, text: filter ?? ""))
        case .character("?"):
            mode = .help
        case .character("s"):
            guard !kanban.boards.isEmpty else { return noBoard() }
            mode = .stats(kanban.boards[cursor.board].id)
        case .character("F"):
            guard let forceable else {
                status = Status("nothing to force: F repeats a move that a WIP limit refused")
                return []
            }
            return request(forceable)
        case .control("l"):
            return [.redraw]
        case .control("z"):
            return [.suspend]
        default:
            status = Status("not a key here: ? shows the keys")
        }
        return []
    }

    private mutating func noCard() -> [UIAction] {
        status = Status(kanban.boards.isEmpty ? "there are no boards" : "no card here", isError: true)
        return []
    }

    private mutating func noBoard() -> [UIAction] {
        status = Status("there are no boards; add one with 'kanban board add TITLE'", isError: true)
        return []
    }

    /// How many cards of the cursor's board are in view.
    private var cardsInView: Int {
        layout().column(board: cursor.board)?.cards.count ?? 1
    }

    // MARK: - The cursor

    private mutating func moveCursor(cards delta: Int) {
        guard !kanban.boards.isEmpty else { return }
        let count = shownCount(cursor.board)
        guard count > 0 else { return }
        placeCursor(board: cursor.board, position: min(max(0, cursor.position + delta), count - 1))
    }

    /// To the board on the left or right, onto the card level with the cursor's.
    private mutating func moveCursor(boards delta: Int) {
        let b = cursor.board + delta
        guard kanban.boards.indices.contains(b) else { return }
        placeCursor(board: b, position: slot(onBoard: b, levelWithCursor: true))
    }

    /// The position on board `b` level with the cursor's card: the card on the same row
    /// (`card`), or the slot there.
    private func slot(onBoard b: Int, levelWithCursor card: Bool) -> Int {
        let layout = layout()
        let count = shownCount(b)
        guard let here = layout.column(board: cursor.board),
            let row = here.cards.first(where: { $0.position == cursor.position })?.row,
            let there = layout.column(board: b)
        else {
            let offset = cursor.position - firstShown(cursor.board)
            return min(max(0, firstShown(b) + offset), card ? max(0, count - 1) : count)
        }
        if card {
            let level = there.cards.last { $0.row <= row }
            return level?.position ?? there.first
        }
        return target(column: there.x, row: row, in: layout)?.slot ?? count
    }

    // MARK: - Moving cards

    /// H and L: the card to the board on the left or right, at the slot level with it.
    private mutating func moveCard(boards delta: Int) -> [UIAction] {
        guard let location = cursorLocation else { return noCard() }
        let b = cursor.board + delta
        guard kanban.boards.indices.contains(b) else {
            status = Status("there is no board to the \(delta < 0 ? "left" : "right")")
            return []
        }
        let index = boardIndex(b, slot: slot(onBoard: b, levelWithCursor: false))
        return request(dropOperation([kanban[location].id], board: b, index: index, copy: false))
    }

    /// J and K: the card below the next card shown, or above the one before.
    private mutating func moveCard(cards delta: Int) -> [UIAction] {
        guard let location = cursorLocation else { return noCard() }
        let b = cursor.board
        let id = kanban[location].id
        let title = q(kanban[location].title)
        if delta > 0 {
            guard cursor.position + 1 < shownCount(b) else {
                status = Status("\(title) is already at the bottom")
                return []
            }
            let index = boardIndex(b, position: cursor.position + 1) + 1
            return request(dropOperation([id], board: b, index: index, copy: false))
        }
        guard cursor.position > 0 else {
            status = Status("\(title) is already at the top")
            return []
        }
        return request(dropOperation([id], board: b, index: boardIndex(b, position: cursor.position - 1), copy: false))
    }

    /// The index on the cursor's board just below (or above) the cursor's card.
    private func indexByCursor(below: Bool) -> Int {
        guard let location = cursorLocation else {
            return below ? boardIndex(cursor.board, slot: shownCount(cursor.board)) : 0
        }
        return below ? location.index + 1 : location.index
    }

    private mutating func paste(below: Bool) -> [UIAction] {
        guard let clipboard, !clipboard.items.isEmpty else {
            status = Status("nothing to paste: x cuts, y copies")
            return []
        }
        guard !kanban.boards.isEmpty else { return noBoard() }
        let index = indexByCursor(below: below)
        let actions = request(dropOperation(clipboard.items, board: cursor.board, index: index, copy: clipboard.copy))
        requestedPaste = true
        return actions
    }

    // MARK: - Prompts

    private mutating func promptKey(_ key: Key, _ prompt: Prompt) -> [UIAction] {
        var prompt = prompt
        switch key.code {
        case .enter:
            mode = .board
            return submit(prompt)
        case .escape:
            mode = .board
            status = Status("cancelled")
            return []
        case .backspace:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
        case .control("u"):
            prompt.text = ""
        case .control("w"):
            while prompt.text.last == " " { prompt.text.removeLast() }
            while let last = prompt.text.last, last != " " { prompt.text.removeLast() }
        case .character(let character) where !key.modifiers.contains(.alt):
            prompt.text.append(character)
        case .tab:
            prompt.text.append(" ")
        default:
            break
        }
        mode = .prompt(prompt)
        return []
    }

    private mutating func submit(_ prompt: Prompt) -> [UIAction] {
        switch prompt.kind {
        case .filter:
            let text = prompt.text.trimmingSpaces
            setFilter(text.isEmpty ? nil : text)
            return []
        case .add(let board):
            guard let b = kanban.boardIndex(id: board) else { return noBoard() }
            do {
                let title = try Title(prompt.text)
                let index = b == cursor.board ? indexByCursor(below: true) : kanban.boards[b].items.count
                return request(.add(titles: [title], to: kanban.boards[b].title, position: .at(index)))
            } catch {
                status = Status(error.message + "; nothing was added", isError: true)
                return []
            }
        case .rename(let item):
            do {
                return request(.rename(item: item.rawValue, title: try Title(prompt.text)))
            } catch {
                status = Status(error.message + "; the title was kept", isError: true)
                return []
            }
        }
    }

    /// `/`: shows only the cards whose title or note holds `text` (all when `nil`).
    mutating func setFilter(_ text: String?) {
        filter = text
        measured = [:]
        refresh()
        settleCursor()
        guard let text else {
            status = Status("showing every card")
            return
        }
        let count = kanban.boards.indices.reduce(0) { $0 + shownCount($1) }
        status = Status("showing \(Self.cards(count)) holding \(q(text)); Esc shows every card")
    }

    /// A paste: into a prompt, as one line; onto the board, a new card per line below the
    /// cursor (the external drop of the original app).
    ///
    /// A paste cut for its size (`linesLeftOut` > 0) adds its whole lines, and the status
    /// line says how many were left out.
    mutating func handlePaste(_ text: String, linesLeftOut: Int = 0) -> [UIAction] {
        switch mode {
        case .prompt(var prompt):
            let line = String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\t" ? " " : $0 })
            prompt.text += line
            mode = .prompt(prompt)
            return []
        case .board:
            guard !kanban.boards.isEmpty else { return noBoard() }
            var titles: [Title] = []
            for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .enumerated()
            {
                do {
                    titles.append(try Title(String(line)))
                } catch .invalidTitle(_, reason: .empty) {
                    continue
                } catch {
                    status = Status("pasted line \(number + 1): \(error.message); nothing was added", isError: true)
                    return []
                }
            }
            let cut =
                linesLeftOut > 0
                ? "the paste was larger than \(InputDecoder.defaultMaximumPaste >> 20) MiB: its last "
                    + "\(linesLeftOut) line\(linesLeftOut == 1 ? " was" : "s were") not added (kanban add < FILE takes any number)"
                : nil
            guard !titles.isEmpty else {
                if let cut { status = Status(cut, isError: true) }
                return []
            }
            pasteNote = cut
            return request(
                .add(
                    titles: titles, to: kanban.boards[cursor.board].title, position: .at(indexByCursor(below: true))))
        default:
            return []
        }
    }
}
