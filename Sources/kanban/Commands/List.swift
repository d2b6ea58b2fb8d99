import KanbanCore

extension App {
    /// `kanban` alone: the board when there is a kanban file, else the help summary.
    func overview() throws(CLIError) -> [UInt8] {
        do {
            return try list(ListRequest())
        } catch .noFile {
            return Array(Help.overview().utf8)
        }
    }

    /// `kanban list [BOARD…] [FILTERS] [--json | --tsv] [--compact] [--no-pager]`
    func list(_ request: ListRequest) throws(CLIError) -> [UInt8] {
        var kanban = try store().load()
        if !request.boards.isEmpty {
            do {
                let indices = try request.boards.map { name throws(KanbanError) in try kanban.boardIndex(named: name) }
                kanban = kanban.keepingBoards(at: indices)
            } catch {
                throw .refused(error)
            }
        }
        if request.filter.archived {
            let cards = kanban.filteredArchive(request.filter, clock: clock)
            switch request.format {
            case .json: return KanbanFile.encode(kanban.keeping(request.filter, clock: clock).archiveOnly)
            case .tsv: return Array(TSV.archive(cards, of: kanban).utf8)
            case .text: return page(Array(ArchiveView.render(cards, of: kanban, style: style).utf8), if: request.pager)
            }
        }
        switch request.format {
        case .json:
            return KanbanFile.encode(kanban.keeping(request.filter, clock: clock))
        case .tsv:
            return Array(TSV.boards(kanban.filtered(request.filter, clock: clock)).utf8)
        case .text:
            if kanban.boards.isEmpty { note("there are no boards; add one with 'kanban board add TITLE'") }
            let filtered = !request.filter.selectsAll
            let boards = kanban.filtered(request.filter, clock: clock).map {
                BoardText($0, today: clock.today, filtered: filtered)
            }
            let terminal = Terminal.detect(color: options.color)
            return page(Array(BoardView.render(boards, on: terminal, compact: request.compact).utf8), if: request.pager)
        }
    }

    /// Text output (`list`, `show`, `log`) through the pager when it is taller than the
    /// terminal and paging is `enabled` (no `--no-pager`); what is left to print. JSON is
    /// never paged: it is for programs.
    func page(_ text: [UInt8], if enabled: Bool) -> [UInt8] {
        guard enabled, !options.json else { return text }
        let terminal = Terminal.detect(color: options.color)
        let lines = text.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        guard Pager.isNeeded(lines: lines, on: terminal), let pager = Pager.configured() else {
            return text
        }
        switch pager.show(text) {
        case .shown: return []
        case .notStarted(let reason):
            // The default pager missing is no news; one the user chose is.
            if let reason, pager.command != Pager.fallback { note(reason + "; printing directly") }
            return text
        }
    }

    /// Styles for text output, on if color is.
    var style: Style {
        Style(enabled: Terminal.detect(color: options.color).color)
    }
}
