import Foundation
import Testing

// `kanban board role BOARD backlog|active|done|default` end to end (README: Flow): the
// file's "role" key, the reports, --dry-run, undo and the log, a batch line, and the
// refusals (a bad role word is a usage error; a bad role in the file is bad data).

@Suite("board role, end to end")
struct BoardRoleCommandTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aRoleIsStoredReportedAndTakenBackByUndo
        case aBatchSetsRolesInOneChange
        case anUnknownRoleWordIsAUsageErrorAndNothingIsWritten
        case aRoleChangedOnBothSidesIsAConflictThatResolveSettles
        case anUnknownRoleInTheFileIsBadDataNamingTheFile
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aRoleIsStoredReportedAndTakenBackByUndo: try aRoleIsStoredReportedAndTakenBackByUndo()
        case .aBatchSetsRolesInOneChange: try aBatchSetsRolesInOneChange()
        case .anUnknownRoleWordIsAUsageErrorAndNothingIsWritten: try anUnknownRoleWordIsAUsageErrorAndNothingIsWritten()
        case .aRoleChangedOnBothSidesIsAConflictThatResolveSettles:
            try aRoleChangedOnBothSidesIsAConflictThatResolveSettles()
        case .anUnknownRoleInTheFileIsBadDataNamingTheFile: try anUnknownRoleInTheFileIsBadDataNamingTheFile()
        }
    }

    func aRoleIsStoredReportedAndTakenBackByUndo() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let original = try sandbox.snapshot()

        let dry = try sandbox.succeed("board", "role", "Todo", "active", "--dry-run")
        expectTrue(dry.contains("would set the role of 'Todo' to active (was default)"), "\(dry)")
        try expectEqual(sandbox.snapshot(), original)

        let text = try sandbox.succeed("board", "role", "todo", "ACTIVE")
        expectTrue(text.contains("set the role of 'Todo' to active (was default)"), "\(text)")
        let file = String(decoding: try sandbox.bytes(), as: UTF8.self)
        expectTrue(file.contains("\"title\": \"Todo\",\n      \"limit\": null,\n      \"role\": \"active\","), "\(file)")
        let again = try sandbox.succeed("board", "role", "Todo", "active")
        expectTrue(again.contains("board 'Todo' already has role active"), "\(again)")

        let json = try jsonObject(try sandbox.succeed("board", "role", "Todo", "default", "--json"))
        let board = try require((json["boards"] as? [[String: Any]])?.first)
        expectTrue(board["role"] is NSNull, "\(board)")
        expectEqual(board["previousRole"] as? String, "active")
        expectEqual(json["command"] as? String, "board role")
        expectTrue(!String(decoding: try sandbox.bytes(), as: UTF8.self).contains("\"role\""))

        let log = try sandbox.succeed("log")
        expectTrue(log.contains("kanban board role Todo default"), "\(log)")
        expectTrue(log.contains("set the role of 'Todo' to default (was active)"), "\(log)")
        try sandbox.succeed("undo", "-q")
        expectTrue(String(decoding: try sandbox.bytes(), as: UTF8.self).contains("\"role\": \"active\""))
        try sandbox.succeed("undo", "-q")
        try expectEqual(sandbox.snapshot().bytes, original.bytes)
        try sandbox.succeed("redo", "-q")
        expectTrue(String(decoding: try sandbox.bytes(), as: UTF8.self).contains("\"role\": \"active\""))
    }

    func aBatchSetsRolesInOneChange() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed(["batch", "-"], stdin: Array("board add Review --at 2\nboard role Review done\n".utf8))
        expectTrue(String(decoding: try sandbox.bytes(), as: UTF8.self).contains("\"role\": \"done\""))
        try sandbox.succeed("undo", "-q")
        expectTrue(!String(decoding: try sandbox.bytes(), as: UTF8.self).contains("Review"))
    }

    func anUnknownRoleWordIsAUsageErrorAndNothingIsWritten() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let message = try expectJSONError(
            try sandbox.run("board", "role", "Todo", "doing", "--json"), exit: 64, code: "usage")
        expectTrue(message.contains("backlog, active, done, default"), "\(message)")
        let missing = try sandbox.run("board", "role", "Nowhere", "done")
        expectEqual(missing.status, 1)
        try expectEqual(sandbox.snapshot(), before)
        let help = try sandbox.succeed("help", "board", "role")
        expectTrue(help.contains("backlog|active|done|default"), "\(help)")
    }

    func aRoleChangedOnBothSidesIsAConflictThatResolveSettles() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        func file(_ role: String) -> String {
            #"{"version": 2, "boards": [{"id": "b1", "title": "Review", "limit": null, "#
                + role + #" "items": []}], "archive": []}"# + "\n"
        }
        try sandbox.write(file(#""role": "active","#), to: "base.json")
        try sandbox.write(file(#""role": "done","#), to: "ours.json")
        try sandbox.write(file(""), to: "theirs.json")
        let merged = try sandbox.run("merge", "base.json", "ours.json", "theirs.json", "-o", "kanban.json")
        expectEqual(merged.status, 1, "\(merged)")
        expectTrue(merged.err.contains("the role changed on both sides: ours done, theirs default"), "\(merged.err)")
        let text = String(decoding: try sandbox.bytes(), as: UTF8.self)
        expectTrue(text.contains(#""role": "done","#) && text.contains(#""conflict": {"role": {"base": "active", "theirs": null}}"#), "\(text)")
        let resolved = try sandbox.succeed("resolve", "Review", "--theirs")
        expectTrue(resolved.contains("role done -> default"), "\(resolved)")
        expectTrue(!String(decoding: try sandbox.bytes(), as: UTF8.self).contains("role"))
    }

    func anUnknownRoleInTheFileIsBadDataNamingTheFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(
            #"{"version": 2, "boards": [{"id": "b1", "title": "Todo", "limit": null, "role": "doing", "items": []}], "archive": []}"#
                + "\n")
        let result = try sandbox.run("list")
        expectEqual(result.status, 65)
        expectTrue(result.err.contains("kanban.json") && result.err.contains("\"role\""), "\(result.err)")
        expectTrue(result.stdout.isEmpty)
    }
}
