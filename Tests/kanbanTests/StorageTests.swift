import Foundation
import Glibc
import Testing

// Where the file is found, how it is written, and what the bytes look like.

@Suite("Storage, end to end")
struct StorageTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theNearestKanbanFileIsFoundFromASubdirectory
        case aRelativeFileIsRelativeToTheCurrentDirectory
        case aDirectoryThatCannotBeSearchedStopsTheSearch
        case aCurrentDirectoryDeeperThanPathMaxStopsTheSearch
        case listAndInitAgreeAboutADanglingSymlink
        case aPathWithATrailingSlashIsNamedForWhatItIs
        case aSymlinkedFileIsWrittenThroughToItsTarget
        case aWriteReplacesTheFileWholeAndLeavesNoTemporaryFile
        case theLegacyFormatIsListedWithStableIDsAndUpgradedOnTheNextWrite
        case theSameCommandsGiveTheSameBytesApartFromIDs
        case theFileHasOneItemPerLineSoAMoveIsAOneLineDiff
        case escapeSequencesStoredInTheFileNeverReachTheTerminal
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theNearestKanbanFileIsFoundFromASubdirectory: try theNearestKanbanFileIsFoundFromASubdirectory()
        case .aRelativeFileIsRelativeToTheCurrentDirectory: try aRelativeFileIsRelativeToTheCurrentDirectory()
        case .aDirectoryThatCannotBeSearchedStopsTheSearch: try aDirectoryThatCannotBeSearchedStopsTheSearch()
        case .aCurrentDirectoryDeeperThanPathMaxStopsTheSearch: try aCurrentDirectoryDeeperThanPathMaxStopsTheSearch()
        case .listAndInitAgreeAboutADanglingSymlink: try listAndInitAgreeAboutADanglingSymlink()
        case .aPathWithATrailingSlashIsNamedForWhatItIs: try aPathWithATrailingSlashIsNamedForWhatItIs()
        case .aSymlinkedFileIsWrittenThroughToItsTarget: try aSymlinkedFileIsWrittenThroughToItsTarget()
        case .aWriteReplacesTheFileWholeAndLeavesNoTemporaryFile:
            try aWriteReplacesTheFileWholeAndLeavesNoTemporaryFile()
        case .theLegacyFormatIsListedWithStableIDsAndUpgradedOnTheNextWrite:
            try theLegacyFormatIsListedWithStableIDsAndUpgradedOnTheNextWrite()
        case .theSameCommandsGiveTheSameBytesApartFromIDs: try theSameCommandsGiveTheSameBytesApartFromIDs()
        case .theFileHasOneItemPerLineSoAMoveIsAOneLineDiff: try theFileHasOneItemPerLineSoAMoveIsAOneLineDiff()
        case .escapeSequencesStoredInTheFileNeverReachTheTerminal:
            try escapeSequencesStoredInTheFileNeverReachTheTerminal()
        }
    }

    // MARK: - Finding the file

    func theNearestKanbanFileIsFoundFromASubdirectory() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try FileManager.default.createDirectory(atPath: sandbox.path("a/b/c"), withIntermediateDirectories: true)
        let listed = try sandbox.succeed(["list", "--tsv"], in: "a/b/c")
        expectEqual(listed, (try sandbox.succeed("list", "--tsv")))
        try sandbox.succeed(["add", "from below"], in: "a/b/c")
        try expectEqual(sandbox.fileBoards()[0].items.last, "from below")
        expectTrue(try sandbox.entries("a/b/c").isEmpty)

        // A nearer file wins over one further up.
        try sandbox.succeed(["init", "--boards", "Near"], in: "a")
        try sandbox.succeed(["add", "near card"], in: "a/b/c")
        try expectEqual(sandbox.fileBoards("a/kanban.json").layout, [BoardColumn("Near", ["near card"])])
        try expectEqual(sandbox.fileBoards()[0].items.last, "from below")
    }

    @Test(arguments: [
        (["-f", "other.json"], [String: String]()),
        (["--file=other.json"], [:]),
        (["-fother.json"], [:]),
        (["--file", "other.json"], ["KANBAN_FILE": "kanban.json"]),
        ([], ["KANBAN_FILE": "other.json"]),
    ])
    func fileOptionAndEnvironmentNameTheFile(_ options: [String], _ environment: [String: String]) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let discovered = try sandbox.snapshot()
        try sandbox.succeed(["init", "--boards", "Other"] + options, environment: environment)
        try sandbox.succeed(["add", "elsewhere"] + options, environment: environment)
        try expectEqual(sandbox.fileBoards("other.json").layout, [BoardColumn("Other", ["elsewhere"])])
        try expectEqual(sandbox.snapshot(), discovered, "kanban.json is not touched")
        let listed = try sandbox.succeed(["list", "--json"] + options, environment: environment)
        try expectEqual(BoardColumn.parse(Array(listed.utf8)).layout, [BoardColumn("Other", ["elsewhere"])])
    }

    func aRelativeFileIsRelativeToTheCurrentDirectory() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.path("sub"), withIntermediateDirectories: false)
        try sandbox.succeed(["init", "-f", "board.json"], in: "sub")
        expectTrue(sandbox.exists("sub/board.json"))
        try sandbox.succeed(["add", "x", "-f", "sub/board.json"])
        try expectEqual(sandbox.fileBoards("sub/board.json")[0].items, ["x"])
    }

    /// A directory on the way up that cannot be searched is an error naming it, never a
    /// reason to take a kanban.json further up for the nearest one.
    func aDirectoryThatCannotBeSearchedStopsTheSearch() throws {
        try skipUnlessRoot(needing: "to make a directory unsearchable for another user")
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        chmod(sandbox.path, 0o777)
        chmod(sandbox.file, 0o666)
        let before = try sandbox.snapshot()
        try FileManager.default.createDirectory(atPath: sandbox.path("a/b"), withIntermediateDirectories: true)
        // Another user's project: kanban.json in a/b, which user 65534 cannot look into.
        try sandbox.succeed(["init", "-q"], in: "a/b")
        chmod(sandbox.path("a"), 0o711)
        chmod(sandbox.path("a/b"), 0o700)
        let message = try expectJSONError(
            try sandbox.run(["add", "lost", "--json"], in: "a/b", shell: runAs(65534)), exit: 74, code: "io")
        expectTrue(message.contains("\(sandbox.path)/a/b") && message.contains("permission denied"), "\(message)")
        try expectEqual(sandbox.snapshot(), before, "the kanban.json further up is untouched")
    }

    func aCurrentDirectoryDeeperThanPathMaxStopsTheSearch() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        // 20 levels of 250 characters: 5,000 bytes, past PATH_MAX (4,096), made one level at a time.
        let level = String(repeating: "d", count: 250)
        let descend = (0..<20).map { _ in "mkdir \(level) && cd -P \(level)" }.joined(separator: " && ")
        let result = try sandbox.run(["add", "lost", "--json"], shell: "\(descend) || exit 99")
        try require(result.status != 99, "could not make the deep directories: \(result)")
        let message = try expectJSONError(result, exit: 74, code: "io")
        expectTrue(message.contains("file name too long") || message.contains("current directory"), "\(message)")
        try expectEqual(sandbox.snapshot(), before, "the kanban.json further up is untouched")
        _ = try sandbox.run([], shell: "rm -rf \(level) || true")
    }

    // MARK: - Paths that name no file

    func listAndInitAgreeAboutADanglingSymlink() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.path("shared"), withIntermediateDirectories: false)
        try require(symlink("shared/board.json", sandbox.file) == 0)
        let listed = try expectJSONError(try sandbox.run("list", "--json"), exit: 66, code: "no_file")
        let initialized = try expectJSONError(try sandbox.run("init", "--json"), exit: 73, code: "io")
        for message in [listed, initialized] {
            expectTrue(message.contains("symbolic link") && message.contains("shared/board.json"), "\(message)")
            expectTrue(message.contains("kanban init --file") && message.contains("remove the link"), "\(message)")
        }
        // What they say to do works, and the link then leads to the new file.
        try sandbox.succeed("init", "--file", "shared/board.json", "-q")
        try sandbox.succeed("add", "through the link")
        try expectEqual(sandbox.fileBoards("shared/board.json")[0].items, ["through the link"])
    }

    func aPathWithATrailingSlashIsNamedForWhatItIs() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let created = try expectJSONError(try sandbox.run("init", "-f", "kanban.json/", "--json"), exit: 73, code: "io")
        expectTrue(created.contains("'kanban.json' is a regular file, not a directory"), "\(created)")
        expectTrue(!created.contains("does not exist"), "\(created)")
        let listed = try expectJSONError(
            try sandbox.run("list", "-f", "kanban.json/", "--json"), exit: 66, code: "no_file")
        expectTrue(listed.contains("not a directory") && !listed.contains("kanban init"), "\(listed)")
        try FileManager.default.createDirectory(atPath: sandbox.path("dir"), withIntermediateDirectories: false)
        let directory = try expectJSONError(try sandbox.run("init", "-f", "dir/", "--json"), exit: 73, code: "io")
        expectTrue(directory.contains("'dir/' is a directory") && directory.contains("dir/kanban.json"), "\(directory)")
        try expectEqual(sandbox.snapshot(), before)
        expectTrue(try sandbox.entries("dir").isEmpty)
    }

    // MARK: - Writing

    @Test(arguments: [0o600, 0o640, 0o664])
    func aWriteKeepsTheFilePermissions(_ mode: Int) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        chmod(sandbox.file, mode_t(mode))
        let before = try sandbox.snapshot()
        try sandbox.succeed("move", "Analytics", "--to", "Done")
        let after = try sandbox.snapshot()
        expectTrue(after.bytes != before.bytes)
        expectEqual(after.mode & 0o7777, UInt32(mode), "mode \(String(after.mode & 0o7777, radix: 8))")
    }

    func aSymlinkedFileIsWrittenThroughToItsTarget() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.path("real"), withIntermediateDirectories: false)
        try sandbox.succeed(["init", "--sample", "-f", "real/board.json"])
        try FileManager.default.createSymbolicLink(atPath: sandbox.file, withDestinationPath: "real/board.json")

        try sandbox.succeed("move", "Analytics", "--to", "Done", "--at", "0")
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.file)
        expectEqual(attributes[.type] as? FileAttributeType, .typeSymbolicLink, "kanban.json is still a link")
        try expectEqual(FileManager.default.destinationOfSymbolicLink(atPath: sandbox.file), "real/board.json")
        try expectEqual(sandbox.fileBoards("real/board.json")[2].items.first, "Analytics")
        expectTrue(try sandbox.temporaryFiles().isEmpty && sandbox.temporaryFiles("real", of: "board.json").isEmpty)

        // Through -f too.
        try sandbox.succeed("add", "via link", "-f", "kanban.json")
        try expectEqual(sandbox.fileBoards("real/board.json")[0].items.last, "via link")
        try expectEqual(FileManager.default.destinationOfSymbolicLink(atPath: sandbox.file), "real/board.json")
    }

    func aWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        try sandbox.succeed("add", "x")
        expectTrue(try sandbox.snapshot().inode != before.inode, "written to a new file and renamed over the old one")
        expectTrue(
            try sandbox.entries().filter { $0 != ".kanban.json.lock" } == [".kanban.json.history", "kanban.json"],
            "the file and its history, nothing else")
    }

    // MARK: - Legacy format

    static let legacyDocument = """
        [
          {"title": "Todo", "items": ["Database Migration", "Schema Design"]},
          {"title": "In Progress", "items": ["Analytics"]},
          {"title": "Done", "items": []}
        ]

        """

    func theLegacyFormatIsListedWithStableIDsAndUpgradedOnTheNextWrite() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(Self.legacyDocument)
        let legacy = try sandbox.snapshot()
        let first = try sandbox.boards()
        let second = try sandbox.boards()
        expectTrue(
            first.layout == [
                BoardColumn("Todo", ["Database Migration", "Schema Design"]), BoardColumn("In Progress", ["Analytics"]),
                BoardColumn("Done", []),
            ])
        expectEqual(first.allIDs, second.allIDs, "ids are stable across reads")
        expectTrue(Set(first.allIDs).count == 3 && first.allIDs.allSatisfy { !$0.isEmpty && $0.count <= 8 })
        try expectEqual(sandbox.succeed("list", "--tsv"), sandbox.succeed("list", "--tsv"))
        try expectEqual(sandbox.snapshot(), legacy, "reading does not rewrite")

        // An id shown by list works in the next command, which upgrades the file.
        let analytics = try first.id(of: "Analytics")
        try sandbox.succeed("move", analytics, "--to", "Done")
        let upgraded = try jsonObject(String(decoding: try sandbox.bytes(), as: UTF8.self))
        expectEqual(upgraded["version"] as? Int, 2)
        let boards = try sandbox.fileBoards()
        expectTrue(
            boards.layout == [
                BoardColumn("Todo", ["Database Migration", "Schema Design"]), BoardColumn("In Progress", []),
                BoardColumn("Done", ["Analytics"]),
            ])
        expectEqual(boards.allIDs.sorted(), first.allIDs.sorted(), "the listed ids are the ones written")
        try expectEqual(boards.id(of: "Analytics"), analytics)
    }

    // MARK: - Bytes

    /// The file or output with every item id replaced by `#`, ids being random.
    private func maskingIDs(_ text: String, ids: [String]) -> String {
        var text = text
        for id in ids.sorted(by: { $0.count > $1.count }) {
            text = text.replacing(id, with: "#")
        }
        return text
    }

    func theSameCommandsGiveTheSameBytesApartFromIDs() throws {
        var files: [String] = []
        var tsvs: [String] = []
        var texts: [String] = []
        for _ in 0..<2 {
            let sandbox = try KanbanSandbox(inProcess: true)
            defer { sandbox.remove() }
            try sandbox.initSample()
            try sandbox.succeed("move", "Analytics", "--to", "Done", "--at", "0")
            try sandbox.succeed("add", "--to", "Todo", "--top", stdin: "Write docs\nShip it\n")
            try sandbox.succeed("copy", "Todo:0", "--to", "Done")
            try sandbox.succeed("board", "add", "Review", "--at", "2", "--limit", "2")
            try sandbox.succeed("rename", "Ship it", "Ship it — ünïcode ✓")
            let boards = try sandbox.boards()
            let ids = boards.allIDs + boards.compactMap(\.boardID)
            files.append(maskingIDs(String(decoding: try sandbox.bytes(), as: UTF8.self), ids: ids))
            tsvs.append(maskingIDs(try sandbox.succeed("list", "--tsv"), ids: ids))
            texts.append(maskingIDs(try sandbox.succeed("list"), ids: ids).replacing(#/ +/#, with: " "))
        }
        expectEqual(files[0], files[1])
        expectEqual(tsvs[0], tsvs[1])
        expectEqual(texts[0], texts[1])
        expectTrue(files[0].hasSuffix("}\n"), "the file ends with a newline")
    }

    func theFileHasOneItemPerLineSoAMoveIsAOneLineDiff() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let boards = try sandbox.boards()
        let before = String(decoding: try sandbox.bytes(), as: UTF8.self).split(separator: "\n").map(String.init)
        for (title, id) in zip(boards.flatMap(\.items), boards.allIDs) {
            let lines = before.filter { $0.contains(title) }
            expectTrue(lines.count == 1 && lines[0].contains(id), "\(title) and its id are on one line")
        }
        try sandbox.succeed(
            ["move", "Schema Design", "--to", "Done", "--at", "1"], environment: ["KANBAN_NOW": "2026-11-24T10:00:00Z"])
        let after = String(decoding: try sandbox.bytes(), as: UTF8.self).split(separator: "\n").map(String.init)
        let punctuation = { (line: String) in line.allSatisfy { " \t{}[],".contains($0) } }
        var removed: [String] = []
        var added: [String] = []
        for change in after.difference(from: before) {
            switch change {
            case .remove(_, let line, _): if !punctuation(line) { removed.append(line) }
            case .insert(_, let line, _): if !punctuation(line) { added.append(line) }
            }
        }
        let trimmed = { (line: String) in line.trimmingCharacters(in: CharacterSet(charactersIn: " ,")) }
        expectTrue(removed.count == 1 && removed.first?.contains("Schema Design") == true, "\(removed)")
        expectTrue(added.count == 1 && added.first?.contains("Schema Design") == true, "\(added)")
        // The card arrives as it left, but for when it entered, and its trail one entry longer
        // (README: Cards with content).
        let document = try JSONSerialization.jsonObject(with: Data(try sandbox.bytes())) as? [String: Any]
        let done = try require((document?["boards"] as? [[String: Any]])?.last?["id"] as? String)
        let entry = #", [""# + done + #"", "2026-11-24T10:00:00Z"]]}"#
        let entered = (#""entered": "2026-11-23T10:00:00Z""#, #""entered": "2026-11-24T10:00:00Z""#)
        expectEqual(
            removed.map(trimmed).map { String($0.dropLast(2)).replacingOccurrences(of: entered.0, with: entered.1) + entry },
            added.map(trimmed))
    }

    // MARK: - Escapes in stored titles

    func escapeSequencesStoredInTheFileNeverReachTheTerminal() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(
            #"""
            {"version": 1, "boards": [
              {"title": "Evil\u001b[2J board", "limit": null, "items": [
                {"id": "ev1", "title": "red \u001b[31malert\u001b[0m"},
                {"id": "ev2", "title": "title \u001b]0;pwned\u0007 bar"},
                {"id": "ev3", "title": "tab\there \u009b31m c1"}
              ]},
              {"title": "Plain", "limit": null, "items": []}
            ]}

            """#)
        var outputs: [(String, ProcessResult)] = []
        for arguments in [
            ["list"], ["list", "--tsv"], ["list", "--json"], ["list", "--color", "never"],
            ["move", "ev1", "--to", "Plain"], ["move", "ev1", "--to", "Plain", "--dry-run"],
            ["rename", "ev2", "renamed"],
            ["remove", "nope"], ["move", "ev3", "--to", "Nowhere"], ["add", "x", "--to", "evil"],
        ] {
            outputs.append((arguments.joined(separator: " "), try sandbox.run(arguments)))
        }
        for (command, result) in outputs {
            expectTrue(!containsEscape(result.stdout), "raw ESC on stdout of \(command): \(result)")
            expectTrue(!containsEscape(result.stderr), "raw ESC on stderr of \(command): \(result)")
            expectTrue(!result.stdout.contains(0x07), "no raw BEL in \(command)")
            expectTrue(!result.out.contains("\u{9B}"), "no raw C1 CSI in \(command)")
        }
        let tsv = try require(outputs.first { $0.0 == "list --tsv" }?.1)
        expectEqual(tsv.status, 0)
        let rows = tsv.out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        expectEqual(rows.count, 3)
        expectTrue(rows.allSatisfy { $0.count == 8 }, "a tab inside a title does not split a field: \(tsv.out)")
        // The data is kept as it was, only printed safely.
        let stored = try sandbox.fileBoards()
        expectEqual(stored[0].title, "Evil\u{1B}[2J board")
        expectEqual(stored[1].items, ["red \u{1B}[31malert\u{1B}[0m"])
    }
}
