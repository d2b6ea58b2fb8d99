import Foundation
import Glibc
import Testing

// Working together through git, safely (README: Working together): no file written
// through a planted symlink, no argument that git could read as an option, a merge driver
// git finds whatever its PATH, and a way back from a text merge or a failed driver
// (`kanban git resolve`). Real repositories in temporary directories; skipped, with a
// message, where git is not installed.

extension KanbanSandbox {
    /// A repository with the sample kanban committed on `main`, without `kanban git setup`:
    /// git merges the file as text there.
    func plainRepository() throws {
        try git("init", "-q", "-b", "main")
        try kanban("init", "--sample", "-q")
        try git("add", "-A")
        try git("commit", "-q", "-m", "sample")
    }

    /// Runs git with `PATH` as given, as a GUI or a hook would start it.
    func git(_ arguments: [String], path searchPath: String) throws -> ProcessResult {
        let git = try require(GitProgram.path, "git is not installed")
        return try SpawnedProcess.start(
            git, arguments,
            environment: environment([
                "PATH": searchPath, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
                "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com", "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_EDITOR": "true",
            ]), directory: path
        ).wait()
    }

    /// `PATH` with the built kanban first, as README's Install step leaves it.
    func pathWithKanban() throws -> String {
        let binary = try KanbanBinary.require()
        return (binary as NSString).deletingLastPathComponent + ":/usr/local/bin:/usr/bin:/bin"
    }

    /// Whether `relative` is a symbolic link.
    func isSymlink(_ relative: String) -> Bool {
        var info = stat()
        return lstat(path(relative), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}

@Suite("git safety and git resolve", .enabled(if: GitProgram.path != nil, "git is not installed"))
struct GitSafetyTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case gitSetupRegistersTheFullPathSoAGitWithAnotherPathStillMergesCardByCard
        case gitCheckFailsWhenTheRegisteredCommandDoesNotRun
        case gitResolveMergesATextMergeInACloneWithoutTheDriver
        case gitResolveRepairsAMergeWhoseDriverCommandDoesNotExist
        case gitResolveMergesAFileAddedOnBothSidesFromAnEmptyBase
        case gitResolveRefusesWhenThereIsNothingToResolve
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .gitSetupRegistersTheFullPathSoAGitWithAnotherPathStillMergesCardByCard:
            try gitSetupRegistersTheFullPathSoAGitWithAnotherPathStillMergesCardByCard()
        case .gitCheckFailsWhenTheRegisteredCommandDoesNotRun: try gitCheckFailsWhenTheRegisteredCommandDoesNotRun()
        case .gitResolveMergesATextMergeInACloneWithoutTheDriver:
            try gitResolveMergesATextMergeInACloneWithoutTheDriver()
        case .gitResolveRepairsAMergeWhoseDriverCommandDoesNotExist:
            try gitResolveRepairsAMergeWhoseDriverCommandDoesNotExist()
        case .gitResolveMergesAFileAddedOnBothSidesFromAnEmptyBase:
            try gitResolveMergesAFileAddedOnBothSidesFromAnEmptyBase()
        case .gitResolveRefusesWhenThereIsNothingToResolve: try gitResolveRefusesWhenThereIsNothingToResolve()
        }
    }

    // MARK: - A. No file written through a symlink

    @Test(arguments: [".gitattributes", ".gitignore"])
    func gitSetupRefusesASymlinkedFileAndWritesNothing(name: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.git("init", "-q", "-b", "main")
        try sandbox.kanban("init", "-q")
        try sandbox.write("machine example.com password secret\n", to: "netrc")
        try require(symlink(sandbox.path("netrc"), sandbox.path(name)) == 0)
        let setup = try sandbox.run(["git", "setup"])
        expectEqual(setup.status, 1, "\(setup)")
        expectTrue(setup.err.contains("'\(name)' is a symbolic link"), "\(setup)")
        expectTrue(sandbox.isSymlink(name), "the symlink was replaced")
        expectTrue(String(decoding: try sandbox.bytes("netrc"), as: UTF8.self) == "machine example.com password secret\n")
        expectTrue(!sandbox.exists(name == ".gitignore" ? ".gitattributes" : ".gitignore"), "nothing is written")
        try expectEqual(sandbox.git("config", "--get", "merge.kanban.driver", succeeding: false).status, 1)
        try expectEqual(sandbox.run(["git", "setup", "--dry-run"]).status, 1)
    }

    // MARK: - B. Nothing passed to git is read as an option

    @Test(arguments: ["--output=OUT", "--output=OUT:kanban.json"])
    func diffNeverLetsGitReadARevisionAsAnOption(argument: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.plainRepository()
        let written = sandbox.path("written")
        let diff = try sandbox.run(["diff", "--", argument.replacingOccurrences(of: "OUT", with: written)])
        expectTrue(diff.status != 0, "\(diff)")
        expectTrue(try !sandbox.entries().contains { $0.hasPrefix("written") }, "git wrote a file: \(diff)")
    }

    // MARK: - C. A driver git always finds

    func gitSetupRegistersTheFullPathSoAGitWithAnotherPathStillMergesCardByCard() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let real = try require(realpath(try KanbanBinary.require(), nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        })
        try sandbox.git("init", "-q", "-b", "main")
        try sandbox.kanban("init", "--sample", "-q")
        // An older kanban registered the bare name.
        try sandbox.git("config", "merge.kanban.driver", "kanban merge --git %O %A %B %P")
        let bare = try sandbox.run(["git", "check"], environment: ["PATH": try sandbox.pathWithKanban()])
        expectTrue(bare.status == 1 && bare.out.contains("run 'kanban git setup'"), "\(bare)")
        let setup = try sandbox.run(["git", "setup", "-q"], environment: ["PATH": try sandbox.pathWithKanban()])
        expectEqual(setup.status, 0, "\(setup)")
        let driver = try sandbox.git("config", "--get", "merge.kanban.driver").out
        // By its full path, quoted for the shell where it needs to be.
        expectTrue(
            driver == "\(real) merge --git %O %A %B %P\n" || driver == "'\(real)' merge --git %O %A %B %P\n",
            "\(driver)")
        let check = try sandbox.run(["git", "check"], environment: ["PATH": "/usr/bin:/bin"])
        expectEqual(check.status, 0, "\(check)")
        try sandbox.git("add", "-A")
        try sandbox.git("commit", "-q", "-m", "sample")
        try sandbox.aliceAndBob()
        try sandbox.git("checkout", "-q", "alice")
        let merge = try sandbox.git(["merge", "--no-edit", "bob"], path: "/usr/bin:/bin")
        expectEqual(merge.status, 0, "\(merge)")
        try expectEqual(sandbox.fileBoards().layout, mergedLayout)
    }

    func gitCheckFailsWhenTheRegisteredCommandDoesNotRun() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.sampleRepository()
        try expectEqual(sandbox.run(["git", "check"]).status, 0)
        try sandbox.git("config", "merge.kanban.driver", "/nonexistent %O %A %B %P")
        let check = try sandbox.run(["git", "check"])
        expectEqual(check.status, 1, "\(check)")
        expectTrue(check.out.contains("'/nonexistent'") && check.out.contains("run 'kanban git setup'"), "\(check)")
        // Run by sh, not executed: a file just written may be open for writing in a child
        // another test forked meanwhile ("Text file busy").
        try sandbox.write("exit 3\n", to: "fake")
        try sandbox.git("config", "merge.kanban.driver", "/bin/sh '\(sandbox.path("fake"))' merge --git %O %A %B %P")
        try expectEqual(sandbox.run(["git", "check"]).status, 1)
    }

    // MARK: - E. git resolve

    /// Merges bob into alice (each added a card and moved another) as `merge` says, which
    /// must stop with kanban.json unmerged.
    private func stoppedMerge(_ sandbox: KanbanSandbox, _ command: [String]) throws -> ProcessResult {
        try sandbox.aliceAndBob()
        try sandbox.git("checkout", "-q", "alice")
        let merge = try sandbox.git(command, path: "/usr/bin:/bin")
        expectTrue(merge.status != 0, "\(merge)")
        expectTrue(try sandbox.git("status", "--porcelain", "--", "kanban.json").out.hasPrefix("UU"))
        return merge
    }

    func gitResolveMergesATextMergeInACloneWithoutTheDriver() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.plainRepository()
        _ = try stoppedMerge(sandbox, ["merge", "--no-edit", "bob"])
        expectTrue(String(decoding: try sandbox.bytes(), as: UTF8.self).contains("\n<<<<<<< "))
        try expectEqual(sandbox.run(["list"]).status, 65)
        let resolve = try sandbox.run(["git", "resolve"])
        expectEqual(resolve.status, 0, "\(resolve)")
        expectTrue(resolve.out.contains("git add kanban.json") && resolve.out.contains("git merge --continue"), "\(resolve)")
        try expectEqual(sandbox.fileBoards().layout, mergedLayout)
        expectTrue(try sandbox.kanban("log", "-n", "1").contains("git resolve"))
        try sandbox.git("add", "kanban.json")
        try expectEqual(sandbox.git(["merge", "--continue"], path: "/usr/bin:/bin").status, 0)
        // kanban's own files (lock, history) are untracked here: no 'git setup' ignored them.
        expectTrue(try sandbox.git("status", "--porcelain", "--untracked-files=no").out.isEmpty)
        // Nothing is left to resolve.
        let again = try sandbox.run(["git", "resolve"])
        expectTrue(again.status == 1 && again.err.contains("no merge"), "\(again)")
    }

    func gitResolveRepairsAMergeWhoseDriverCommandDoesNotExist() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.sampleRepository()
        try sandbox.git("config", "merge.kanban.driver", "/nonexistent %O %A %B %P")
        _ = try stoppedMerge(sandbox, ["merge", "--no-edit", "bob"])
        // git left ours, without markers: every change of bob's is missing.
        expectTrue(try !sandbox.fileBoards().layout.flatMap(\.items).contains("Bob task"))
        let resolve = try sandbox.run(["git", "resolve", "kanban.json"])
        expectEqual(resolve.status, 0, "\(resolve)")
        try expectEqual(sandbox.fileBoards().layout, mergedLayout)
    }

    @Test(arguments: ["rebase", "cherry-pick"])
    func gitResolveFinishesARebaseOrACherryPick(command: String) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.plainRepository()
        _ = try stoppedMerge(sandbox, command == "rebase" ? ["rebase", "-q", "bob"] : ["cherry-pick", "bob"])
        let resolve = try sandbox.run(["git", "resolve"])
        expectEqual(resolve.status, 0, "\(resolve)")
        expectTrue(resolve.out.contains("git \(command) --continue"), "\(resolve)")
        let cards = try sandbox.fileBoards().layout.flatMap(\.items)
        expectTrue(cards.contains("Alice task") && cards.contains("Bob task"), "\(cards)")
        try sandbox.git("add", "kanban.json")
        try expectEqual(sandbox.git([command, "--continue"], path: "/usr/bin:/bin").status, 0)
        // kanban's own files (lock, history) are untracked here: no 'git setup' ignored them.
        expectTrue(try sandbox.git("status", "--porcelain", "--untracked-files=no").out.isEmpty)
    }

    func gitResolveMergesAFileAddedOnBothSidesFromAnEmptyBase() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.git("init", "-q", "-b", "main")
        try sandbox.write("notes\n", to: "notes.txt")
        try sandbox.git("add", "notes.txt")
        try sandbox.git("commit", "-q", "-m", "start")
        for (branch, card) in [("a", "From a"), ("b", "From b")] {
            try sandbox.git("checkout", "-q", "-b", branch, "main")
            try sandbox.kanban("init", "--boards", "Todo,Done", "-q")
            try sandbox.kanban("add", card, "-q")
            try sandbox.git("add", "kanban.json")
            try sandbox.git("commit", "-q", "-m", branch)
        }
        expectTrue(try sandbox.git(["merge", "--no-edit", "a"], path: "/usr/bin:/bin").status != 0)
        expectTrue(try sandbox.git("status", "--porcelain", "--", "kanban.json").out.hasPrefix("AA"))
        let resolve = try sandbox.run(["git", "resolve"])
        expectTrue(resolve.status == 0 && resolve.out.contains("no base"), "\(resolve)")
        // Two boards added with one title are one board: both cards are in it.
        let boards = try sandbox.fileBoards()
        expectEqual(boards.map(\.title), ["Todo", "Done"], "\(boards)")
        expectEqual(boards.first?.items, ["From b", "From a"], "\(boards)")
    }

    func gitResolveRefusesWhenThereIsNothingToResolve() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.plainRepository()
        let before = try sandbox.snapshot()
        let none = try sandbox.run(["git", "resolve"])
        expectTrue(none.status == 1 && none.err.contains("no merge, rebase or cherry-pick is in progress"), "\(none)")
        // A merge that stopped on another file.
        try sandbox.git("checkout", "-q", "-b", "other")
        try sandbox.write("theirs\n", to: "notes.txt")
        try sandbox.git("add", "notes.txt")
        try sandbox.git("commit", "-q", "-m", "theirs")
        try sandbox.git("checkout", "-q", "main")
        try sandbox.write("ours\n", to: "notes.txt")
        try sandbox.git("add", "notes.txt")
        try sandbox.git("commit", "-q", "-m", "ours")
        expectTrue(try sandbox.git(["merge", "other"], path: "/usr/bin:/bin").status != 0)
        let clean = try sandbox.run(["git", "resolve"])
        expectTrue(clean.status == 1 && clean.err.contains("'kanban.json' is not unmerged"), "\(clean)")
        try expectEqual(sandbox.snapshot(), before)
    }
}

/// The parts that need no git.
@Suite("undo on another git branch", .enabled(if: GitProgram.path != nil, "git is not installed"))
struct UndoAcrossBranchesTests {
    @Test func undoRefusesAChangeMadeOnAnotherBranchAndChangesNothing() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.plainRepository()
        try sandbox.git("checkout", "-q", "-b", "feature")
        try sandbox.kanban("add", "Only on feature", "-q")
        try sandbox.kanban("add", "Also on feature", "-q")
        try sandbox.git("commit", "-q", "-am", "feature cards")
        try sandbox.git("checkout", "-q", "main")
        let before = try sandbox.bytes()
        // The history is one per clone: its last entries are feature's adds, not in main's file.
        for arguments in [["undo"], ["undo", "--json"], ["undo", "2"]] {
            let result = try sandbox.run(arguments)
            expectTrue(result.status == 1 && result.out.isEmpty, "\(arguments): \(result)")
            expectTrue(result.err.contains("#2") && result.err.contains("not in this file"), "\(arguments): \(result)")
            try expectEqual(sandbox.bytes(), before)
        }
        // Back on feature, the changes are in the file again and undo takes them back.
        try sandbox.git("checkout", "-q", "feature")
        try sandbox.kanban("undo", "2", "-q")
        let todo = try sandbox.boards()[0].items
        expectTrue(!todo.contains("Only on feature") && !todo.contains("Also on feature"), "\(todo)")
    }

    /// One change on a branch, then `git checkout` of another: the file's bytes are again
    /// those the entry started from, as after a writer killed before its change reached the
    /// file. The entry is not such an orphan (git wrote the file again): `log` shows it, marked,
    /// `undo` refuses it rather than take back the change before it, and a change made next
    /// keeps it (README: History: log, undo, redo).
    @Test func oneChangeOnAnotherBranchIsAnEntryNotInThisFileAndNotACrash() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.plainRepository()
        try sandbox.kanban("add", "On main", "-q")
        try sandbox.git("commit", "-q", "-am", "main card")
        try sandbox.git("checkout", "-q", "-b", "feature")
        try sandbox.kanban("add", "Only on feature", "-q")
        try sandbox.git("commit", "-q", "-am", "feature card")
        try sandbox.git("checkout", "-q", "main")
        let before = try sandbox.bytes()

        let log = try sandbox.logEntries()
        expectEqual(log.map { $0["number"] as? Int }, [2, 1], "\(log)")
        expectEqual(log.map { $0["inFile"] as? Bool }, [false, true], "\(log)")
        let text = try sandbox.succeed("log")
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("#") }
        expectTrue(headings.count == 2 && headings[0].hasSuffix("(not in this file)"), "\(text)")
        expectTrue(!headings[1].contains("not in this file"), "\(text)")

        let undo = try sandbox.run(["undo"])
        expectTrue(undo.status == 1 && undo.err.contains("#2") && undo.err.contains("not in this file"), "\(undo)")
        try expectEqual(sandbox.bytes(), before, "undo changed the file")
        expectTrue(try sandbox.boards()[0].items.contains("On main"))

        // The next change on main keeps the feature's entry, and numbers after it.
        try sandbox.kanban("add", "Later on main", "-q")
        let after = try sandbox.logEntries()
        expectEqual(after.map { $0["number"] as? Int }, [3, 2, 1], "\(after)")
        expectEqual(after.map { $0["inFile"] as? Bool }, [true, false, true], "\(after)")
    }
}

@Suite("Files written besides the kanban file, and conflict markers")
struct OutputSafetyTests {
    @Test func exportAndMergeNeverWriteThroughASymlink() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.write("victim\n", to: "victim.txt")
        try require(symlink(sandbox.path("victim.txt"), sandbox.path("out.md")) == 0)
        let export = try sandbox.run(["export", "-o", "out.md", "--force"])
        expectTrue(export.status == 73 && export.err.contains("'out.md' is a symbolic link"), "\(export)")
        for name in ["base.json", "ours.json", "theirs.json"] { try sandbox.write(try sandbox.bytes(), to: name) }
        try require(symlink(sandbox.path("victim.txt"), sandbox.path("merged.json")) == 0)
        let merge = try sandbox.run(["merge", "base.json", "ours.json", "theirs.json", "-o", "merged.json"])
        expectTrue(merge.status == 73 && merge.err.contains("'merged.json' is a symbolic link"), "\(merge)")
        expectEqual(String(decoding: try sandbox.bytes("victim.txt"), as: UTF8.self), "victim\n")
        expectTrue(sandbox.isSymlink("out.md") && sandbox.isSymlink("merged.json"))
        // An existing regular file is replaced.
        try sandbox.write("old\n", to: "regular.json")
        try sandbox.succeed(["merge", "base.json", "ours.json", "theirs.json", "-o", "regular.json"])
        try expectEqual(sandbox.bytes("regular.json"), sandbox.bytes())
    }

    // MARK: - D. Conflict markers

    @Test func aFileWithGitsConflictMarkersIsRefusedNamingThemAndTheWayOut() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        var lines = String(decoding: try sandbox.bytes(), as: UTF8.self).split(separator: "\n").map(String.init)
        lines.insert("<<<<<<< HEAD", at: 3)
        lines.insert("=======", at: 5)
        lines.insert(">>>>>>> theirs", at: 7)
        try sandbox.write(lines.joined(separator: "\n") + "\n", to: "kanban.json")
        let before = try sandbox.snapshot()
        for arguments in [["list"], ["add", "X"]] {
            let result = try sandbox.run(arguments)
            expectEqual(result.status, 65, "\(result)")
            expectTrue(result.err.contains("kanban.json':4: git's conflict markers"), "\(result)")
            expectTrue(result.err.contains("'<<<<<<<' at line 4, '=======' at line 6, '>>>>>>>' at line 8"), "\(result)")
            expectTrue(result.err.contains("run 'kanban git resolve'"), "\(result)")
        }
        try expectEqual(sandbox.snapshot(), before)
    }
}
