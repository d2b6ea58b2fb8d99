import Glibc
import KanbanCore

extension App {
    /// `kanban add [TEXT…] [--to BOARD] [--at N]`: the external drop.
    func add(texts: [String], to board: String?, position: PositionArgument?) throws -> String {
        // All input is read and checked before the file is locked: a slow pipe must not
        // hold other kanban processes up, and bad input must not get near the file.
        var titles: [Title] = []
        for text in texts.isEmpty ? ["-"] : texts {
            if text == "-" {
                if isatty(STDIN_FILENO) == 1 {
                    note("reading items from standard input, one per line; end with Ctrl-D")
                }
                titles += try StandardInput.titles(from: StandardInput.read())
            } else {
                titles.append(try Title(text))
            }
        }
        var generator = SystemRandomNumberGenerator()
        return try change("add") { kanban in
            let destination = try destination(board, in: kanban)
            let position = try dropPosition(position, in: kanban, board: destination)
            return try kanban.insert(titles, into: destination, at: position, force: options.force, using: &generator)
        }
    }
}
