import Foundation
import Glibc
import Testing

// Working together through git, end to end: real repositories in temporary directories,
// real `git merge`, `git rebase` and `git cherry-pick` with kanban's merge driver
// registered by `kanban git setup`. Skipped, with a message, where git is not installed.

/// The git program, if there is one on the usual paths.
enum GitProgram {
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/local/bin:/usr/bin:/bin"
        return directories.split(separator: ":").map { "\($0)/git" }.first { access($0, X_OK) == 0 }
    }()
}

extension KanbanSandbox {
    /// Runs git in the sandbox (or `directory` in it), as a user with a name and no
    /// global or system configuration.
    @discardableResult
    func git(_ arguments: String..., in directory: String? = nil, succeeding: Bool = true) throws -> ProcessResult {
        let git = try require(GitProgram.path, "git is not installed")
        let result = try SpawnedProcess.start(
            git, arguments,
            environment: environment([
                "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
                "GIT_COMMITTER_EMAIL": "test@example.com", "GIT_CONFIG_NOSYSTEM": "1",
            ]), directory: directory.map(path) ?? path
        ).wait()
        if succeeding {
            try require(result.status == 0, "git \(arguments.joined(separator: " ")): \(result)")
        }
        return result
    }

    /// Runs kanban at a given time (so that later moves win), which must succeed.
    @discardableResult
    func kanban(_ arguments: String..., at time: String = "2026-11-23T10:00:00Z", in directory: String? = nil) throws
        -> String
    {
        try succeed(arguments, environment: ["KANBAN_NOW": time], in: directory)
    }

    /// A repository with the sample kanban committed on `main` and the merge driver set up.
    func sampleRepository(in directory: String? = nil) throws {
        try git("init", "-q", "-b", "main")
        if let directory {
            try FileManager.default.createDirectory(atPath: path(directory), withIntermediateDirectories: true)
        }
        try kanban("init", "--sample", "-q", in: directory)
        try kanban("git", "setup", "-q", in: directory)
        try git("add", "-A")
        try git("commit", "-q", "-m", "sample")
    }

    /// The issue's two branches: alice adds a card and moves Analytics to Done; bob adds a
    /// card and moves Push Notification to the top of Done, later.
    func aliceAndBob() throws {
        try git("checkout", "-q", "-b", "alice", "main")
        try kanban("add", "Alice task", "--to", "Todo", "-q", at: "2026-11-23T11:00:00Z")
        try kanban("move", "Analytics", "--to", "Done", "-q", at: "2026-11-23T11:01:00Z")
        try git("commit", "-q", "-am", "alice")
        try git("checkout", "-q", "-b", "bob", "main")
        try kanban("add", "Bob task", "--to", "Todo", "-q", at: "2026-11-23T12:00:00Z")
        try kanban("move", "Push Notification", "--to", "Done", "--at", "0", "-q", at: "2026-11-23T12:01:00Z")
        try git("commit", "-q", "-am", "bob")
    }
}

/// Both cards and both moves, nothing duplicated: alice's and bob's branches merged into alice.
let mergedLayout = [
    BoardColumn(
        "Todo",
        ["Database Migration", "Schema Design", "Storage Management", "Model Abstraction", "Alice task", "Bob task"]),
    BoardColumn("In Progress", ["Machine Learning"]),
    BoardColumn("Done", ["Push Notification", "System Architecture", "Alert & Debugging", "Analytics"]),
]

@Suite("Working together through git", .enabled(if: GitProgram.path != nil, "git is not installed"))
struct GitMergeTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case twoBranchesThatAddAndMoveCardsMergeWithoutConflict
        case aRebaseAndACherryPickMergeCardByCardToo
        case bothRetitlingOneCardLeavesThePathUnmergedWithAValidFile
        case aConflictCommittedAsItIsKeepsTheirsUntilResolved
        case aCloneWithoutTheDriverIsToldSoAndFallsBackToATextMerge
        case gitSetupWorksFromASubdirectoryAndOnlyOnce
        case gitSetupOutsideAWorkTreeExits1AndSaysSo
        case theReadmeExamplesOfWorkingTogetherRunVerbatim
        case diffReadsRevisionsOfTheKanbanFile
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .twoBranchesThatAddAndMoveCardsMergeWithoutConflict:
            try twoBranchesThatAddAndMoveCardsMergeWithoutConflict()
        case .aRebaseAndACherryPickMergeCardByCardToo: try aRebaseAndACherryPickMergeCardByCardToo()
        case .bothRetitlingOneCardLeavesThePathUnmergedWithAValidFile:
            try bothRetitlingOneCardLeavesThePathUnmergedWithAValidFile()
        case .aConflictCommittedAsItIsKeepsTheirsUntilResolved: try aConflictCommittedAsItIsKeepsTheirsUntilResolved()
        case .aCloneWithoutTheDriverIsToldSoAndFallsBackToATextMerge:
            try aCloneWithoutTheDriverIsToldSoAndFallsBackToATextMerge()
        case .gitSetupWorksFromASubdirectoryAndOnlyOnce: try gitSetupWorksFromASubdirectoryAndOnlyOnce()
        case .gitSetupOutsideAWorkTreeExits1AndSaysSo: try gitSetupOutsideAWorkTreeExits1AndSaysSo()
        case .theReadmeExamplesOfWorkingTogetherRunVerbatim: try theReadmeExamplesOfWorkingTogetherRunVerbatim()
        case .diffReadsRevisionsOfTheKanbanFile: try diffReadsRevisionsOfTheKanbanFile()
        }
    }

    private func expectCleanAndValid(_ sandbox: KanbanSandbox, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let status = try sandbox.git("status", "--porcelain")
        expectTrue(status.out.isEmpty, "git status: \(status.out)", sourceLocation: sourceLocation)
        if case .failure(let failure) = CheckedFile.check(try sandbox.bytes()) {
            Issue.record("\(failure)", sourceLocation: sourceLocation)
        }
    }

    func twoBranchesThatAddAndMoveCardsMergeWithoutConflict() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.sampleRepository()
        try sandbox.aliceAndBob()
        try sandbox.git("checkout", "-q", "alice")
        let merge = try sandbox.git("merge", "--no-edit", "bob")
        expectTrue(!merge.out.contains("CONFLICT"))
        try expectEqual(sandbox.fileBoards().layout, mergedLayout)
        try expectCleanAndValid(sandbox)
        // diff names what the merge brought in, card by card.
        let diff = try sandbox.kanban("diff", "HEAD^1", "HEAD")
        expectTrue(diff.contains("added") && diff.contains("'Bob task' at Todo:5"))
        expectTrue(diff.contains("'Push Notification': In Progress:0 -> Done:0"))
        expectEqual(diff.split(separator: "\n").count, 2, "\(diff)")
    }

    func aRebaseAndACherryPickMergeCardByCardToo() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.sampleRepository()
        try sandbox.aliceAndBob()
        // Replaying alice's commit on bob makes bob "ours": its card comes first.
        var replayed = mergedLayout
        replayed[0].items.swapAt(4, 5)
        try sandbox.git("checkout", "-q", "-b", "rebased", "alice")
        try sandbox.git("rebase", "-q", "bob")
        try expectEqual(sandbox.fileBoards().layout, replayed)
        try expectCleanAndValid(sandbox)
        try sandbox.git("checkout", "-q", "-b", "picked", "bob")
        try sandbox.git("cherry-pick", "alice")
        try expectEqual(sandbox.fileBoards().layout, replayed)
        try expectCleanAndValid(sandbox)
    }

    func bothRetitlingOneCardLeavesThePathUnmergedWithAValidFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let id = try retitleOnBothBranches(sandbox, adding: true)
        let merge = try sandbox.git("merge", "--no-edit", "theirs", succeeding: false)
        expectEqual(merge.status, 1, "\(merge)")
        let output = merge.out + merge.err
        expectTrue(
            output.contains(
                "kanban: conflict: 'Analytics dashboard' (\(id)): the title changed on both sides: "
                    + "ours 'Analytics dashboard', theirs 'Metrics'; kept ours; to take theirs: kanban resolve \(id) --theirs"
            ),
            "\(output)")
        expectTrue(output.contains("git add kanban.json"))
        try expectEqual(sandbox.git("status", "--porcelain").out, "UU kanban.json\n")
        // The file is a valid kanban with both new cards: kanban commands work on it.
        guard case .success = CheckedFile.check(try sandbox.bytes()) else {
            Issue.record("the conflicted file is not a valid kanban file")
            return
        }
        try expectEqual(sandbox.fileBoards()[0].items.suffix(2), ["Ours", "Theirs"])
        try sandbox.kanban("rename", id, "Metrics", "-q")
        try sandbox.git("add", "kanban.json")
        try sandbox.git("commit", "-q", "--no-edit")
        try expectEqual(sandbox.fileBoards().id(of: "Metrics"), id)
        try expectCleanAndValid(sandbox)
    }

    /// The sample repository with branches `ours` (Analytics retitled "Analytics dashboard")
    /// and `theirs` ("Metrics"), each adding a card named after it when `adding`; `ours`
    /// checked out. Returns the card's id.
    private func retitleOnBothBranches(_ sandbox: KanbanSandbox, adding: Bool) throws -> String {
        try sandbox.sampleRepository()
        let id = try sandbox.fileBoards().id(of: "Analytics")
        for (branch, title) in [("ours", "Analytics dashboard"), ("theirs", "Metrics")] {
            try sandbox.git("checkout", "-q", "-b", branch, "main")
            try sandbox.kanban("rename", "Analytics", title, "-q")
            if adding { try sandbox.kanban("add", branch.capitalized, "-q") }
            try sandbox.git("commit", "-q", "-am", branch)
        }
        try sandbox.git("checkout", "-q", "ours")
        return id
    }

    /// README: Working together: the merge records theirs in the file, so committing the
    /// merged file as it is loses nothing, and `resolve --theirs` takes it afterwards.
    func aConflictCommittedAsItIsKeepsTheirsUntilResolved() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let id = try retitleOnBothBranches(sandbox, adding: false)
        let merge = try sandbox.git("merge", "--no-edit", "theirs", succeeding: false)
        expectEqual(merge.status, 1, "\(merge)")
        let recorded = #""conflict": {"title": {"base": "Analytics", "theirs": "Metrics"}}"#
        expectTrue(String(decoding: try sandbox.bytes(), as: UTF8.self).contains(recorded))
        try sandbox.git("add", "-A")
        try sandbox.git("commit", "-q", "--no-edit")
        let committed = try sandbox.git("show", "HEAD:kanban.json").out
        expectTrue(committed.contains(recorded), "theirs is in the commit")
        expectTrue(try sandbox.kanban("list", "--conflicts", "--tsv").contains("\(id)\t"))
        try sandbox.kanban("resolve", id, "--theirs", "-q")
        try expectEqual(sandbox.fileBoards().id(of: "Metrics"), id)
        expectTrue(!String(decoding: try sandbox.bytes(), as: UTF8.self).contains("\"conflict\""))
        try sandbox.git("commit", "-q", "-am", "take theirs")
        try expectCleanAndValid(sandbox)
    }

    func aCloneWithoutTheDriverIsToldSoAndFallsBackToATextMerge() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.sampleRepository(in: nil)
        try sandbox.git("clone", "-q", sandbox.path, "clone")
        // The clone has .gitattributes naming the driver, but not the config that defines it.
        let add = try sandbox.run(["add", "From the clone"], environment: [:], in: "clone")
        expectEqual(add.status, 0, "\(add)")
        expectTrue(
            add.err
                == "kanban: note: .gitattributes names kanban's merge driver, but this clone has none registered: "
                + "git would merge 'kanban.json' line by line, as text; run 'kanban git setup'\n")
        let check = try sandbox.run(["git", "check"], in: "clone")
        expectTrue(check.status == 1 && check.out.contains("run 'kanban git setup'"), "\(check)")
        expectTrue(try sandbox.run(["add", "Quiet", "-q"], in: "clone").err.isEmpty)
        // What the note warns of: the issue's branches conflict as text.
        try sandbox.git("checkout", "-q", "-b", "a", in: "clone")
        try sandbox.kanban("add", "A", "--to", "Todo", "-q", in: "clone")
        try sandbox.git("commit", "-q", "-am", "a", in: "clone")
        try sandbox.git("checkout", "-q", "-b", "b", "main", in: "clone")
        try sandbox.kanban("add", "B", "--to", "Todo", "-q", in: "clone")
        try sandbox.git("commit", "-q", "-am", "b", in: "clone")
        let textMerge = try sandbox.git("merge", "--no-edit", "a", in: "clone", succeeding: false)
        expectTrue(textMerge.status != 0 && textMerge.out.contains("CONFLICT"))
        try sandbox.git("merge", "--abort", in: "clone")
        // Once set up, the same merge goes through, and nothing more is said.
        try sandbox.kanban("git", "setup", "-q", in: "clone")
        try expectEqual(sandbox.run(["git", "check"], in: "clone").status, 0)
        try sandbox.git("merge", "--no-edit", "a", in: "clone")
        expectTrue(
            try sandbox.fileBoards("clone/kanban.json")[0].items.suffix(4) == ["B", "From the clone", "Quiet", "A"])
        expectTrue(try sandbox.run(["add", "After"], in: "clone").err.isEmpty)
    }

    func gitSetupWorksFromASubdirectoryAndOnlyOnce() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.git("init", "-q", "-b", "main")
        try FileManager.default.createDirectory(atPath: sandbox.path("team/board"), withIntermediateDirectories: true)
        try sandbox.kanban("init", "-q", in: "team/board")
        let dryRun = try sandbox.kanban("git", "setup", "--dry-run", in: "team/board")
        expectTrue(dryRun.contains("would add '/team/board/kanban.json merge=kanban' to .gitattributes"), "\(dryRun)")
        expectTrue(!sandbox.exists(".gitattributes") && !sandbox.exists(".gitignore"))
        try expectEqual(sandbox.git("config", "--get", "merge.kanban.driver", succeeding: false).status, 1)
        let setup = try sandbox.kanban("git", "setup", in: "team/board")
        expectTrue(setup.contains("added '/team/board/kanban.json merge=kanban' to .gitattributes"))
        expectTrue(
            String(decoding: try sandbox.bytes(".gitattributes"), as: UTF8.self)
                == "/team/board/kanban.json merge=kanban\n")
        expectTrue(
            String(decoding: try sandbox.bytes(".gitignore"), as: UTF8.self)
                == "/team/board/.kanban.json.lock\n/team/board/.kanban.json.tmp*\n/team/board/.kanban.json.history\n")
        expectTrue(try sandbox.git("config", "--get", "merge.kanban.driver").out.hasSuffix(" merge --git %O %A %B %P\n"))
        let attributes = try sandbox.snapshot(".gitattributes")
        let ignore = try sandbox.snapshot(".gitignore")
        // Again, from the top with -f: nothing to do.
        let again = try sandbox.kanban("-f", "team/board/kanban.json", "git", "setup")
        expectTrue(again.contains("nothing to change"), "\(again)")
        expectTrue(try sandbox.snapshot(".gitattributes") == attributes && sandbox.snapshot(".gitignore") == ignore)
        // kanban's own files next to it stay out of git.
        try sandbox.kanban("add", "Card", "-q", in: "team/board")
        expectTrue(try sandbox.git("status", "--porcelain", "--untracked-files=all").out.contains(".kanban.json") == false)
        // A second kanban file, with .gitattributes already there: appended after a line break.
        try sandbox.write(Array("*.png binary".utf8), to: ".gitattributes")
        try sandbox.kanban("init", "-q", "-f", "other kanban.json")
        try sandbox.kanban("-f", "other kanban.json", "git", "setup", "-q")
        expectTrue(
            String(decoding: try sandbox.bytes(".gitattributes"), as: UTF8.self)
                == "*.png binary\n\"/other kanban.json\" merge=kanban\n")
        expectTrue(
            try sandbox.git("check-attr", "merge", "--", "other kanban.json").out
                == "other kanban.json: merge: kanban\n")
        try expectEqual(sandbox.git("check-ignore", "--no-index", "--", ".other kanban.json.lock").status, 0)
    }

    func gitSetupOutsideAWorkTreeExits1AndSaysSo() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let setup = try sandbox.run(["git", "setup"], environment: ["GIT_CEILING_DIRECTORIES": sandbox.path])
        expectEqual(setup.status, 1, "\(setup)")
        expectTrue(setup.err.contains("is not in a git work tree"))
        expectTrue(!sandbox.exists(".gitattributes"))
        let json = try sandbox.run(["git", "setup", "--json"], environment: ["GIT_CEILING_DIRECTORIES": sandbox.path])
        expectTrue(try jsonObject(json.err)["error"] != nil)
    }

    /// README's "Working together" runs as written: its `sh` blocks, one after the other,
    /// in one shell, with the built kanban first on `PATH`.
    func theReadmeExamplesOfWorkingTogetherRunVerbatim() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try require(text.components(separatedBy: "\n## Working together\n").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        let blocks = section.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        expectTrue(blocks.count >= 3)
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let binary = try KanbanBinary.require()
        let directory = (binary as NSString).deletingLastPathComponent
        let result = try SpawnedProcess.start(
            "/bin/bash", ["-e", "-c", blocks.joined()],
            environment: sandbox.environment([
                "PATH": "\(directory):/usr/local/bin:/usr/bin:/bin", "GIT_AUTHOR_NAME": "Test",
                "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
                "GIT_COMMITTER_EMAIL": "test@example.com", "GIT_CONFIG_NOSYSTEM": "1",
            ]), directory: sandbox.path
        ).wait()
        expectEqual(result.status, 0, "\(result)")
        // Only the example that retitles one card on both sides conflicts, and the merge
        // says how to take theirs.
        let conflicts = (result.out + result.err).components(separatedBy: "CONFLICT").count - 1
        expectEqual(conflicts, 1, "\(result)")
        expectTrue(result.err.contains("to take theirs: kanban resolve"), "\(result)")
        expectTrue(result.out.contains("the board changed since main"), "\(result)")
        expectTrue(result.out.contains("the same merge as git's"), "\(result)")
        try expectEqual(sandbox.fileBoards("team/kanban.json").layout, mergedLayout)
    }

    func diffReadsRevisionsOfTheKanbanFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.sampleRepository(in: "plan")
        try sandbox.kanban("move", "Analytics", "--to", "Done", "-q", in: "plan")
        expectTrue(try sandbox.kanban("diff", in: "plan").hasPrefix("moved "))
        try expectEqual(sandbox.run(["diff", "--exit-code"], in: "plan").status, 1)
        try sandbox.git("commit", "-q", "-am", "move")
        expectTrue(try sandbox.kanban("diff", in: "plan").isEmpty)
        try expectEqual(sandbox.run(["diff", "--exit-code"], in: "plan").status, 0)
        expectTrue(try sandbox.kanban("diff", "HEAD~1", in: "plan").contains("'Analytics': In Progress:1 -> Done:2"))
        expectTrue(try sandbox.kanban("diff", "main~1", "main", in: "plan").contains("'Analytics'"))
        // A directory named like a revision is not a kanban file: the revision is meant.
        try FileManager.default.createDirectory(atPath: sandbox.path("plan/main"), withIntermediateDirectories: true)
        expectTrue(try sandbox.kanban("diff", "main~1", "main", in: "plan").contains("'Analytics'"))
        // REV:PATH, with the path from the repository's top.
        expectTrue(try sandbox.kanban("-f", "plan/kanban.json", "diff", "HEAD~1:plan/kanban.json").contains("'Analytics'"))
        let unknown = try sandbox.run(["diff", "nosuchrev"], in: "plan")
        expectTrue(
            unknown.status == 1 && unknown.err.contains("git cannot show 'nosuchrev:plan/kanban.json'"), "\(unknown)")
        // Without git on PATH, revisions cannot be read; files still can.
        let noGit = try sandbox.run(["diff"], environment: ["PATH": "/nonexistent"], in: "plan")
        expectTrue(noGit.status == 1 && noGit.err.contains("git is not installed"), "\(noGit)")
        try sandbox.write(try sandbox.bytes("plan/kanban.json"), to: "copy.json")
        expectTrue(
            try sandbox.run(["diff", "copy.json", "plan/kanban.json"], environment: ["PATH": "/nonexistent"]).status
                == 0)
    }
}
