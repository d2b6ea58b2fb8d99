import KanbanCore

/// `list --tsv`: one line per card, `board, index, id, title, labels, due, conflicts,
/// assignees`, tab-separated (`conflicts`: the fields with a recorded conflict; `assignees`:
/// the names; each comma-separated).
/// Text is escaped like everywhere else, so a tab inside a title shows as `\t` and never
/// splits a field. New columns only ever go at the end.
enum TSV {
    static func boards(_ boards: [FilteredBoard]) -> String {
        var out = ""
        for filtered in boards {
            let title = Escape.visible(filtered.board.title)
            for (index, item) in filtered.cards {
                out += "\(title)\t\(index)\t\(item.id.rawValue)\t\(Escape.visible(item.title))\t"
                out += item.labels.map(Escape.visible).joined(separator: ",") + "\t" + (item.due?.description ?? "")
                out += "\t" + item.conflicts.fields.map(\.rawValue).joined(separator: ",") + "\t"
                out += item.assignees.map(Escape.visible).joined(separator: ",") + "\n"
            }
        }
        return out
    }

    /// `list --archived --tsv`: the board each card left, its index in the archive, then as
    /// for boards, and when it was archived.
    static func archive(_ cards: [(index: Int, archived: ArchivedItem)], of kanban: Kanban) -> String {
        var out = ""
        for (index, archived) in cards {
            let item = archived.item
            out += "\(Escape.visible(kanban.boardName(archived.board)))\t\(index)\t\(item.id.rawValue)\t"
            out += Escape.visible(item.title) + "\t" + item.labels.map(Escape.visible).joined(separator: ",") + "\t"
            out += (item.due?.description ?? "") + "\t" + archived.archived.description + "\t"
            out += item.conflicts.fields.map(\.rawValue).joined(separator: ",") + "\t"
            out += item.assignees.map(Escape.visible).joined(separator: ",") + "\n"
        }
        return out
    }
}

/// `list --archived`: the archive as text, one card per line (those shown by a filter),
/// each with its index in the whole archive, as boards show theirs.
enum ArchiveView {
    static func render(_ cards: [(index: Int, archived: ArchivedItem)], of kanban: Kanban, style: Style) -> String {
        var out = style.bold("Archive") + " (\(kanban.archive.count))\n"
        if cards.isEmpty { return out + "  " + style.dim("(empty)") + "\n" }
        let indexWidth = String(cards[cards.count - 1].index).count
        for (index, archived) in cards {
            let number = String(index)
            out += "  " + String(repeating: " ", count: indexWidth - number.count) + number + "  "
            out += style.dim(archived.item.id.rawValue) + "  " + BoardText.marked(archived.item.conflicts)
                + Escape.visible(archived.item.title)
            out += style.dim(
                "  (from \(Escape.visible(kanban.boardName(archived.board))), \(archived.archived.utcDay))") + "\n"
        }
        return out
    }
}

extension Kanban {
    /// The title of the board with `id`, or the id itself when the board is gone.
    func boardName(_ id: BoardID) -> String {
        boardIndex(id: id).map { boards[$0].title } ?? id.rawValue
    }
}
