import Foundation
import Glibc
import Testing

// Assignees (README: Cards with content): a set of user names on a card, typed with or
// without `@`, compared ignoring case, shown as `@name`, filtered by `list --assignee` and
// `--mine`, a column at the end of TSV and CSV, ` @name` words in Markdown, Trello's
// members, and merged as a set. Every expected value comes from README.

@Suite("Assignees, end to end")
struct AssigneesTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case assignAndUnassignKeepASetOfNamesWithoutTheirAt
        case addAssignsEveryNewCardAndCopyArchiveAndUndoKeepTrack
        case theFileKeepsAssigneesBetweenLabelsAndDue
        case viewsShowEachAssigneeAsAtName
        case tsvAndCSVEndWithAnAssigneesColumn
        case markdownWritesAtNameWordsAndEveryFormatReadsThemBack
        case listFiltersByAnyAssigneeNamed
        case mineIsKanbanUserElseGitsUserNameElseUser
        case trelloMembersImportAsAssigneesByUsername
        case aMergeTakesAssigneesAsASet
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .assignAndUnassignKeepASetOfNamesWithoutTheirAt: try assignAndUnassignKeepASetOfNamesWithoutTheirAt()
        case .addAssignsEveryNewCardAndCopyArchiveAndUndoKeepTrack:
            try addAssignsEveryNewCardAndCopyArchiveAndUndoKeepTrack()
        case .theFileKeepsAssigneesBetweenLabelsAndDue: try theFileKeepsAssigneesBetweenLabelsAndDue()
        case .viewsShowEachAssigneeAsAtName: try viewsShowEachAssigneeAsAtName()
        case .tsvAndCSVEndWithAnAssigneesColumn: try tsvAndCSVEndWithAnAssigneesColumn()
        case .markdownWritesAtNameWordsAndEveryFormatReadsThemBack:
            try markdownWritesAtNameWordsAndEveryFormatReadsThemBack()
        case .listFiltersByAnyAssigneeNamed: try listFiltersByAnyAssigneeNamed()
        case .mineIsKanbanUserElseGitsUserNameElseUser: try mineIsKanbanUserElseGitsUserNameElseUser()
        case .trelloMembersImportAsAssigneesByUsername: try trelloMembersImportAsAssigneesByUsername()
        case .aMergeTakesAssigneesAsASet: try aMergeTakesAssigneesAsASet()
        }
    }

    func assignAndUnassignKeepASetOfNamesWithoutTheirAt() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let first = try jsonObject(
            try sandbox.succeed("edit", "Analytics", "--assign", "@alice", "--assign", "Bob", "--json"))
        expectEqual(namePair(try onlyChanges(first)["assignees"]), [[], ["alice", "Bob"]])
        try expectEqual(shown(sandbox, "Analytics")["assignees"] as? [String], ["alice", "Bob"])

        // The same names in another case, with or without `@`: nothing changes, nothing is written.
        let before = try sandbox.snapshot()
        let same = try jsonObject(
            try sandbox.succeed("edit", "Analytics", "--assign", "ALICE", "--assign", "@bob", "--json"))
        expectEqual(same["changed"] as? Bool, false, "\(same)")
        try expectEqual(sandbox.snapshot(), before)

        let fewer = try jsonObject(try sandbox.succeed("edit", "Analytics", "--unassign", "@BOB", "--json"))
        expectEqual(namePair(try onlyChanges(fewer)["assignees"]), [["alice", "Bob"], ["alice"]])
        try sandbox.succeed("edit", "Analytics", "--unassign", "alice", "-q")
        expectTrue(try shown(sandbox, "Analytics")["assignees"] == nil, "no assignees: the key is left out")
        expectTrue(!String(decoding: try sandbox.bytes(), as: UTF8.self).contains("assignees"))

        // A name that breaks the rules of a label is refused and nothing is written.
        let unassigned = try sandbox.snapshot()
        for bad in ["two words", "--assign=-dash", String(repeating: "x", count: 33), "tab\tbed", "@", "a,,b"] {
            let arguments = bad.hasPrefix("--") ? [bad] : ["--assign", bad]
            let result = try sandbox.run(["edit", "Analytics"] + arguments)
            expectTrue(result.status == 64 || result.status == 65, "\(bad): \(result)")
            expectTrue(result.err.hasPrefix("kanban: error: "), "\(result)")
            try expectEqual(sandbox.snapshot(), unassigned)
        }
    }

    func addAssignsEveryNewCardAndCopyArchiveAndUndoKeepTrack() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "Write the docs", "Ship it", "--to", "Todo", "--assign", "carol", "-q")
        try expectEqual(shown(sandbox, "Write the docs")["assignees"] as? [String], ["carol"])
        try expectEqual(shown(sandbox, "Ship it")["assignees"] as? [String], ["carol"])

        let copied = try jsonObject(try sandbox.succeed("copy", "Write the docs", "--to", "Done", "--json"))
        let copyID = try require((copied["items"] as? [[String: Any]])?.first?["id"] as? String, "\(copied)")
        try expectEqual(shown(sandbox, copyID)["assignees"] as? [String], ["carol"], "a copy keeps its assignees")

        try sandbox.succeed("archive", "Ship it", "-q")
        try expectEqual(shown(sandbox, "Ship it")["assignees"] as? [String], ["carol"], "an archived card keeps them")

        try sandbox.succeed("edit", "Analytics", "--assign", "dave", "-q")
        try sandbox.succeed("undo", "-q")
        expectTrue(try shown(sandbox, "Analytics")["assignees"] == nil, "undo takes an assignment back")
    }

    func theFileKeepsAssigneesBetweenLabelsAndDue() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed(
            "edit", "Analytics", "--assign", "zoe", "--assign", "Alice", "--label", "data", "--due", "2026-12-31", "-q")
        let line = try require(
            String(decoding: try sandbox.bytes(), as: UTF8.self).split(separator: "\n").first {
                $0.contains("\"Analytics\"")
            })
        let labels = try require(line.range(of: #""labels": ["data"]"#), "\(line)")
        let assignees = try require(line.range(of: #""assignees": ["Alice", "zoe"]"#), "sorted ignoring case: \(line)")
        let due = try require(line.range(of: #""due""#), "\(line)")
        expectTrue(labels.upperBound < assignees.lowerBound && assignees.upperBound < due.lowerBound, "\(line)")
    }

    func viewsShowEachAssigneeAsAtName() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("edit", "Analytics", "--assign", "alice", "--assign", "bob", "-q")
        let list = try sandbox.succeed("list", "--no-pager")
        expectTrue(list.contains("@alice") && list.contains("@bob"), "\(list)")
        let show = try sandbox.succeed("show", "Analytics", "--no-pager")
        expectTrue(show.contains("@alice @bob"), "\(show)")
        let report = try sandbox.succeed("edit", "Analytics", "--unassign", "bob")
        expectTrue(report.contains("(assignees -bob)"), "the report names who was unassigned: \(report)")
    }

    func tsvAndCSVEndWithAnAssigneesColumn() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("edit", "Analytics", "--assign", "bob", "--assign", "alice", "-q")
        let rows = try sandbox.succeed("list", "--tsv").split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        expectTrue(!rows.isEmpty && rows.allSatisfy { $0.count == 8 }, "\(rows)")
        for row in rows {
            expectEqual(row[7], (row[3] == "Analytics" ? "alice,bob" : ""), "\(row)")
        }

        let csv = try sandbox.succeed("export", "--format", "csv")
        let lines = csv.split(separator: "\r\n")  // records end with CRLF, one Character
        expectEqual(lines.first, "board,index,id,title,labels,due,created,entered,note,assignees", "\(csv)")
        let analytics = try require(lines.first { $0.contains(",Analytics,") }, "\(csv)")
        expectTrue(analytics.hasSuffix(",\"alice,bob\""), "comma-separated as in TSV: \(analytics)")
        expectTrue(lines.count > 2 && lines.dropFirst().allSatisfy { $0.contains("Analytics") || $0.hasSuffix(",") }, "\(csv)")
    }

    func markdownWritesAtNameWordsAndEveryFormatReadsThemBack() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed(
            "edit", "Analytics", "--assign", "alice", "--assign", "bob", "--label", "data", "--due", "2026-12-31", "-q")
        let markdown = try sandbox.succeed("export")
        let card = try require(markdown.split(separator: "\n").first { $0.contains("Analytics") }, "\(markdown)")
        expectTrue(card.contains(" @alice") && card.contains(" @bob"), "\(card)")
        expectTrue(card.contains(" #data") && card.contains(" @{2026-12-31}"), "\(card)")
        for format in ["markdown", "csv", "json"] {
            try sandbox.succeed("export", "--format", format, "-o", "out.\(format)", "-q")
            try sandbox.succeed("init", "--import", "out.\(format)", "-f", "\(format).json", "-q")
            let copy = try shown(sandbox, "Analytics", file: "\(format).json")
            expectEqual(copy["assignees"] as? [String], ["alice", "bob"], "\(format): \(copy)")
            expectEqual(copy["labels"] as? [String], ["data"], "\(format): \(copy)")
            expectEqual(copy["due"] as? String, "2026-12-31", "\(format): \(copy)")
        }
    }

    func listFiltersByAnyAssigneeNamed() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("edit", "Analytics", "--assign", "alice", "-q")
        try sandbox.succeed("edit", "Schema Design", "--assign", "bob", "--assign", "alice", "-q")
        try sandbox.succeed("edit", "System Architecture", "--assign", "carol", "-q")
        try expectEqual(titles(sandbox, ["--assignee", "alice"]), ["Schema Design", "Analytics"])
        try expectEqual(titles(sandbox, ["--assignee", "@BOB"]), ["Schema Design"])
        expectTrue(
            try titles(sandbox, ["--assignee", "bob", "--assignee", "carol"]) == ["Schema Design", "System Architecture"],
            "repeated: any of them")
        try expectEqual(titles(sandbox, ["--assignee", "carol", "--label", "nope"]), [], "with other filters: all hold")
        try expectEqual(titles(sandbox, ["--assignee", "nobody"]), [])
    }

    func mineIsKanbanUserElseGitsUserNameElseUser() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("edit", "Analytics", "--assign", "alice", "-q")
        try sandbox.succeed("edit", "Schema Design", "--assign", "bob", "-q")
        try sandbox.succeed("edit", "System Architecture", "--assign", "carol", "-q")
        try expectEqual(titles(sandbox, ["--mine"], ["KANBAN_USER": "alice", "USER": "bob"]), ["Analytics"])
        try expectEqual(titles(sandbox, ["--mine"], ["USER": "bob"]), ["Schema Design"], "not in a git work tree")

        guard gitPath() != nil else {
            print("skipped: the git part of --mine needs git, which is not installed")
            return
        }
        try runShell("cd '\(sandbox.path)' && git init -q . && git config user.name carol")
        try expectEqual(titles(sandbox, ["--mine"], ["USER": "bob"]), ["System Architecture"], "git's user.name")
        expectTrue(
            try titles(sandbox, ["--mine"], ["USER": "bob", "KANBAN_USER": "@alice"]) == ["Analytics"],
            "KANBAN_USER comes first")
    }

    func trelloMembersImportAsAssigneesByUsername() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let result = try sandbox.run(["init", "--import", ImportFixtures.trello])
        expectEqual(result.status, 0, "\(result)")
        expectTrue(!result.err.contains("member"), "members are imported, not left out: \(result.err)")
        for title in ["Fix login redirect", "Register domain", "Choose a CMS", "Migrate blog comments"] {
            try expectEqual(shown(sandbox, title)["assignees"] as? [String], ["adapark"], "\(title)")
        }
    }

    func aMergeTakesAssigneesAsASet() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("edit", "Analytics", "--assign", "alice", "--assign", "bob", "-q")
        try FileManager.default.copyItem(atPath: sandbox.file, toPath: sandbox.path("base.json"))
        try FileManager.default.copyItem(atPath: sandbox.file, toPath: sandbox.path("theirs.json"))
        // Ours adds carol; theirs takes alice off and adds dave: every side's change holds.
        try sandbox.succeed("edit", "Analytics", "--assign", "carol", "-q")
        try sandbox.succeed("edit", "Analytics", "--unassign", "alice", "--assign", "dave", "-f", "theirs.json", "-q")
        let merged = try sandbox.run(["merge", "base.json", "kanban.json", "theirs.json", "-o", "merged.json"])
        expectEqual(merged.status, 0, "sets never conflict: \(merged)")
        expectTrue(
            try shown(sandbox, "Analytics", file: "merged.json")["assignees"] as? [String] == ["bob", "carol", "dave"])
    }
}

// MARK: - Helpers

/// The card `reference` as `show --json` prints it.
private func shown(
    _ sandbox: KanbanSandbox, _ reference: String, file: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String: Any] {
    let output = try sandbox.succeed(
        ["show", reference, "--json"] + (file.map { ["-f", $0] } ?? []), sourceLocation: sourceLocation)
    let cards = try require(
        (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [[String: Any]], "not an array: \(output)",
        sourceLocation: sourceLocation)
    return try require(cards.first, "show \(reference) printed no card", sourceLocation: sourceLocation)
}

/// The `changes` of the only item of a mutating command's `--json` report.
private func onlyChanges(_ report: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: Any]
{
    let items = try require(report["items"] as? [[String: Any]], "\(report)", sourceLocation: sourceLocation)
    try require(items.count == 1, "\(report)", sourceLocation: sourceLocation)
    return try require(items[0]["changes"] as? [String: Any], "\(report)", sourceLocation: sourceLocation)
}

/// `[old, new]` of a set of names.
private func namePair(_ value: Any?) -> [[String]]? {
    guard let pair = value as? [Any], pair.count == 2 else { return nil }
    let lists = pair.compactMap { $0 as? [String] }
    return lists.count == 2 ? lists : nil
}

/// The titles `list FILTERS --tsv` keeps, in order.
private func titles(
    _ sandbox: KanbanSandbox, _ filters: [String], _ environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String] {
    let result = try sandbox.run(["list"] + filters + ["--tsv"], environment: environment)
    try require(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    return result.out.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[3]) }
}

private func gitPath() -> String? {
    ["/usr/bin/git", "/usr/local/bin/git", "/bin/git"].first { access($0, X_OK) == 0 }
}

/// Runs a line of `sh` that must succeed.
private func runShell(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", line]
    try process.run()
    process.waitUntilExit()
    try require(process.terminationStatus == 0, "sh -c \(line)", sourceLocation: sourceLocation)
}
