import Foundation
import KanbanCore
import Testing

// A card's trail through the built binary (README: Cards with content): commands extend it,
// JSON carries it, tables do not, and diff, log and undo treat it as part of a move.

@Suite(.serialized) struct TrailEndToEnd {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aMoveExtendsTheTrailAndDiffLogAndUndoTreatItAsTheMove
        case undoAfterAnOutsideChangeGivesBackThePreviousTrail
        case archiveKeepsTheTrailRestoreExtendsItAndUndoTakesThatBack
        case jsonCarriesTheTrailAndTablesDoNot
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aMoveExtendsTheTrailAndDiffLogAndUndoTreatItAsTheMove:
            try aMoveExtendsTheTrailAndDiffLogAndUndoTreatItAsTheMove()
        case .undoAfterAnOutsideChangeGivesBackThePreviousTrail: try undoAfterAnOutsideChangeGivesBackThePreviousTrail()
        case .archiveKeepsTheTrailRestoreExtendsItAndUndoTakesThatBack:
            try archiveKeepsTheTrailRestoreExtendsItAndUndoTakesThatBack()
        case .jsonCarriesTheTrailAndTablesDoNot: try jsonCarriesTheTrailAndTablesDoNot()
        }
    }

    /// The trail of the card titled `title`, from `show --json`, as `[[board id, time]]`.
    func trail(_ sandbox: KanbanSandbox, _ title: String) throws -> [[String]] {
        let output = try sandbox.succeed("show", title, "--json")
        let cards = try require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        return (cards.first?["trail"] as? [[String]]) ?? []
    }

    /// The id of the board titled `title`.
    func boardID(_ sandbox: KanbanSandbox, _ title: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(try sandbox.bytes())) as? [String: Any]
        let boards = try require(object?["boards"] as? [[String: Any]])
        return try require(boards.first { $0["title"] as? String == title }?["id"] as? String)
    }

    func aMoveExtendsTheTrailAndDiffLogAndUndoTreatItAsTheMove() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let (inProgress, done) = (try boardID(sandbox, "In Progress"), try boardID(sandbox, "Done"))
        expectEqual(try trail(sandbox, "Analytics"), [[inProgress, "2026-11-23T10:00:00Z"]])
        let before = try sandbox.bytes()
        try sandbox.write(before, to: "before.json")
        try sandbox.succeed(["move", "Analytics", "--to", "Done", "-q"], environment: ["KANBAN_NOW": "2026-11-24T08:30:00Z"])
        expectEqual(
            try trail(sandbox, "Analytics"), [[inProgress, "2026-11-23T10:00:00Z"], [done, "2026-11-24T08:30:00Z"]])
        // A reorder within a board does not extend it.
        try sandbox.succeed(["move", "Analytics", "--to", "Done", "--at", "0", "-q"], environment: ["KANBAN_NOW": "2026-11-25T08:30:00Z"])
        expectEqual(try trail(sandbox, "Analytics").count, 2)
        try sandbox.succeed("undo", "-q")

        let diff = try sandbox.succeed("diff", "before.json", "kanban.json")
        expectTrue(diff.contains("moved") && diff.contains("Analytics"), "\(diff)")
        expectTrue(!diff.contains("trail") && !diff.contains("edited"), "a move, not a separate change: \(diff)")
        let log = try sandbox.succeed("log")
        expectTrue(log.contains("moved"), "\(log)")
        expectTrue(!log.contains("trail") && !log.contains("edited"), "\(log)")

        try sandbox.succeed("undo", "-q")
        try expectEqual(sandbox.bytes(), before, "the move's trail entry is taken back with it")
    }

    func undoAfterAnOutsideChangeGivesBackThePreviousTrail() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let previous = try trail(sandbox, "Analytics")
        try sandbox.succeed(["move", "Analytics", "--to", "Done", "-q"], environment: ["KANBAN_NOW": "2026-11-24T08:30:00Z"])
        // An editor changes the Done board behind kanban's back: undo then merges.
        var text = String(decoding: try sandbox.bytes(), as: UTF8.self)
        let done = try require(text.range(of: "\"title\": \"Done\""))
        let items = try require(text.range(of: "\"items\": [\n", range: done.upperBound..<text.endIndex))
        text.insert(contentsOf: #"        {"id": "ed1t0r", "title": "From the editor"},"# + "\n", at: items.upperBound)
        try sandbox.write(text)
        try sandbox.succeed("undo", "-q")
        expectEqual(try trail(sandbox, "Analytics"), previous)
        expectTrue(try sandbox.succeed("show", "From the editor").contains("From the editor"))
    }

    func archiveKeepsTheTrailRestoreExtendsItAndUndoTakesThatBack() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let todo = try boardID(sandbox, "Todo")
        try sandbox.succeed(["archive", "Schema Design", "-q"], environment: ["KANBAN_NOW": "2026-11-24T08:00:00Z"])
        expectEqual(try trail(sandbox, "Schema Design"), [[todo, "2026-11-23T10:00:00Z"]])
        let archived = try sandbox.bytes()
        try sandbox.succeed(["restore", "Schema Design", "-q"], environment: ["KANBAN_NOW": "2026-11-25T08:00:00Z"])
        expectEqual(
            try trail(sandbox, "Schema Design"), [[todo, "2026-11-23T10:00:00Z"], [todo, "2026-11-25T08:00:00Z"]])
        try sandbox.succeed("undo", "-q")
        try expectEqual(sandbox.bytes(), archived)
    }

    func jsonCarriesTheTrailAndTablesDoNot() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let list = try sandbox.succeed("list", "--json")
        expectTrue(list.contains(#""trail": [[""#), "\(list)")
        let copy = try sandbox.succeed(["copy", "Analytics", "--to", "Todo", "--json"])
        expectTrue(!copy.contains("trail"), "a copy's report is not an edit: \(copy)")
        for table in [["list", "--tsv"], ["export", "--format", "csv"], ["export", "--format", "markdown"]] {
            let output = try sandbox.succeed(table)
            expectTrue(!output.contains("trail") && !output.contains("2026-11-23T10:00:00Z\",\""), "\(table): \(output)")
        }
    }
}
