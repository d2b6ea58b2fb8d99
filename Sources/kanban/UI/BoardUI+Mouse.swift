import KanbanCore

// The mouse: press on a card and drag it (with the selection, if it is selected) to a
// slot between cards; the slot is shown while dragging, a board that would refuse is
// shown refusing (the `.forbidden` proposal), Ctrl or Alt at the release copies (`.copy`),
// a release outside every board cancels. A click puts the cursor on a card; the wheel
// scrolls the column under the pointer.

extension BoardUI {
    /// Cards a wheel notch scrolls.
    static let wheelStep = 3

    mutating func handleMouse(_ event: MouseEvent) -> [UIAction] {
        switch mode {
        case .detail, .help, .stats:
            if case .press = event.kind { mode = .board }
            return []
        case .prompt, .confirmRemove:
            return []  // the line being typed keeps the attention
        case .board, .dragging:
            break
        }
        let layout = layout()
        switch event.kind {
        case .press(.left):
            press = nil
            if let (b, position) = card(column: event.column, row: event.row, in: layout) {
                placeCursor(board: b, position: position)
                if let item = cursor.item { press = Press(item: item, column: event.column, row: event.row) }
            } else if event.row < boardRows, let geometry = layout.column(at: event.column),
                geometry.board != cursor.board
            {
                placeCursor(board: geometry.board, position: geometry.cards.last?.position ?? geometry.first)
            }
        case .drag(.left):
            if case .dragging(var drag) = mode {
                follow(&drag, event, layout)
                mode = .dragging(drag)
            } else if let press, event.column != press.column || event.row != press.row {
                let items = selection.contains(press.item) ? picked : [press.item]
                var drag = Drag(items: items, target: nil, copy: false, refusal: nil)
                follow(&drag, event, layout)
                mode = .dragging(drag)
                self.press = nil
            }
        case .release:
            let pressed = press
            press = nil
            if case .dragging(var drag) = mode {
                mode = .board
                follow(&drag, event, layout)
                guard let target = drag.target else {
                    status = Status("drop cancelled: released outside the boards")
                    return []
                }
                return request(dropOperation(for: drag, at: target))
            }
            if let pressed, !event.modifiers.isDisjoint(with: [.control, .shift]) {
                toggleSelection(pressed.item)
            }
        case .wheelUp, .wheelDown:
            if event.row < boardRows, let geometry = layout.column(at: event.column) {
                scrollBoard(geometry.board, by: event.kind == .wheelUp ? -Self.wheelStep : Self.wheelStep)
            }
        default:
            break
        }
        return []
    }

    /// The operation a drop of `drag` in `target` makes.
    func dropOperation(for drag: Drag, at target: DropTarget) -> Operation {
        dropOperation(
            drag.items, board: target.board, index: boardIndex(target.board, slot: target.slot), copy: drag.copy)
    }

    /// Follows the pointer: the slot under it, whether the drop copies (Ctrl or Alt held),
    /// and whether the board there would refuse it.
    private mutating func follow(_ drag: inout Drag, _ event: MouseEvent, _ layout: BoardLayout) {
        let copy = !event.modifiers.isDisjoint(with: [.control, .alt])
        let target = target(column: event.column, row: event.row, in: layout)
        if target != drag.target || copy != drag.copy {
            drag.target = target
            drag.copy = copy
            drag.refusal = target.flatMap { refusal(of: dropOperation(for: drag, at: $0)) }
        }
        status = dragStatus(drag)
    }

    /// What the status line says while dragging.
    func dragStatus(_ drag: Drag) -> Status {
        let what =
            drag.items.count == 1
            ? find(drag.items[0]).map { q(kanban[$0].title) } ?? "1 card" : Self.cards(drag.items.count)
        guard let target = drag.target else {
            return Status("dragging \(what): release here to cancel")
        }
        if let refusal = drag.refusal {
            return Status("\(refusal): a drop here is refused", isError: true)
        }
        var place = "\(q(kanban.boards[target.board].title))"
        switch dropOperation(for: drag, at: target) {
        case .move(_, _, _, .at(let index)?, _), .copy(_, _, _, .at(let index)?, _):
            place += ":\(index)"
        default:
            break
        }
        return Status(
            drag.copy
                ? "copy \(what) to \(place) (Ctrl or Alt held)" : "move \(what) to \(place); hold Ctrl or Alt to copy")
    }
}
