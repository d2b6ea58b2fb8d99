import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

// `kanban batch`, and the history behind `log`, `undo` and `redo`.

@Suite struct SplittingScriptLines {
    @Test(arguments: [
        ("move Analytics --to Done", ["move", "Analytics", "--to", "Done"]),
        ("  add   'Write docs'\t--top ", ["add", "Write docs", "--top"]),
        (#"add "say \"hi\" \\ now" x"#, ["add", #"say "hi" \ now"#, "x"]),
        (#"add "a\nb""#, ["add", #"a\nb"#]),
        (#"add a\ b c\'d"#, ["add", "a b", "c'd"]),
        ("add '' x", ["add", "", "x"]),
        ("add it'  s'", ["add", "it  s"]),
        ("# only a comment", []),
        ("add x # the rest is a comment", ["add", "x"]),
        ("add x#y", ["add", "x#y"]),
        ("add '#not a comment'", ["add", "#not a comment"]),
        ("add $HOME *.txt ; ls | wc", ["add", "$HOME", "*.txt", ";", "ls", "|", "wc"]),
        ("", []),
    ])
    func wordsSplitAsAShellWould(_ line: String, _ words: [String]) throws {
        try expectEqual(ShellWords.split(line[...]), words)
    }

    /// What `kanban log`, `undo` and messages print as a command line reads back, in bash,
    /// as the very words: nothing in it is expanded or run when pasted.
    @Test func commandLinesInMessagesReadBackInBashAsTheirWords() throws {
        let words = [
            "plain", "two words", #"say "hi""#, "a$HOME", "`touch pwned`", "$(touch pwned)", #"back\slash"#,
            #"end\"#, "it's", "100% *.txt ; ls | wc", "émoji 🧑‍💻", "!bang", "tab-free ~user", "-dash", "",
        ]
        try expectShellsReadBack(words, quotedBy: ShellQuote.word)
    }

    @Test(arguments: ["add 'open", #"add "open"#, #"add "x\"#, #"add x\"#])
    func unterminatedQuotesAndTrailingBackslashesAreRefused(_ line: String) {
        #expect(throws: ShellWords.Problem.self) { try ShellWords.split(line[...]) }
    }
}

@Suite(.serialized) struct BatchEndToEnd {
    @Test func linesRunInOrderInOneTransaction() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let script = """
            # release checklist
            add "Ship it" --to Todo --label rel

            move "Ship it" Done --at 0
            edit "Ship it" --due 2026-12-24 --note 'say "when"'
            board add Review --limit 1
            move Analytics Review
            """
        let output = try sandbox.succeed(["batch"], stdin: Array(script.utf8))
        expectEqual(output.split(separator: "\n").count, 5, "one report line per change: \(output)")
        let boards = try sandbox.boards()
        expectEqual(boards.map(\.title), ["Todo", "In Progress", "Done", "Review"])
        expectEqual(boards[2].items.first, "Ship it")
        expectEqual(boards[3].items, ["Analytics"])
        let log = try sandbox.succeed("log", "--json")
        let entries = try require(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [[String: Any]])
        expectEqual(entries.count, 1, "a batch is one history entry")
        expectEqual(entries.first?["command"] as? [String], ["batch"])
    }

    @Test(arguments: [
        ("add a\nmove nowhere Done\nadd b\n", 2, Int32(1), "not_found"),
        ("add a\n\n# comment\nmove a --to Nope\n", 4, 1, "not_found"),
        ("add a\nadd b --json\n", 2, 64, "usage"),
        ("add a\nlist\n", 2, 64, "usage"),
        ("add a\nadd -f other.json b\n", 2, 64, "usage"),
        ("add a\nmove a Done --dry-run\n", 2, 64, "usage"),
        ("add a\nadd\n", 2, 64, "usage"),
        ("add a\nadd 'unclosed\n", 2, 64, "usage"),
        ("board limit Done 2\nmove Todo:0 Todo:1 Done\n", 2, 1, "wip_limit"),
        ("add a\nadd \"\u{1B}[31m\"\n", 2, 65, "bad_input"),
    ])
    func theFirstFailingLineIsReportedAndNothingIsWritten(
        _ script: String, _ line: Int, _ exit: Int32, _ code: String
    ) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["batch", "--json"], stdin: Array(script.utf8))
        let message = try expectJSONError(result, exit: exit, code: code)
        expectTrue(message.hasPrefix("line \(line): "), "\(message)")
        try expectEqual(sandbox.snapshot(), before, "nothing was written")
        expectTrue(!sandbox.exists(".kanban.json.history"), "no history entry")
        let text = try sandbox.run(["batch"], stdin: Array(script.utf8))
        expectTrue(text.err.hasPrefix("kanban: error: line \(line): "), "\(text)")
    }

    @Test func jsonHasOneReportPerLineAndDryRunWritesNothing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let script = Array("add one\nmove one Done\n".utf8)
        let dry = try jsonObject(try sandbox.succeed(["batch", "--dry-run", "--json"], stdin: script))
        expectEqual(dry["command"] as? String, "batch")
        expectEqual(dry["dryRun"] as? Bool, true)
        expectEqual(dry["changed"] as? Bool, true)
        let commands = try require(dry["commands"] as? [[String: Any]])
        expectEqual(commands.map { $0["command"] as? String }, ["add", "move"])
        try expectEqual(sandbox.snapshot(), before)
        try sandbox.write("add two\n", to: "script.txt")
        let fromFile = try jsonObject(try sandbox.succeed("batch", "script.txt", "--json"))
        expectEqual((fromFile["commands"] as? [[String: Any]])?.count, 1)
        try expectEqual(sandbox.boards()[0].items.last, "two")
    }

    /// A batch that changes the first and the last card of a long board records those two
    /// cards, not the board between them (README: History: log, undo, redo); undo and redo
    /// still give back each file exactly.
    @Test func aBatchChangingTheEndsOfALongBoardRecordsOnlyTheirCards() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed(["batch"], stdin: Array((0..<300).map { "add 'card \($0)' --to Todo\n" }.joined().utf8))
        let count = try sandbox.boards()[0].items.count
        let before = try sandbox.bytes()
        let script = "edit Todo:0 --label first\nedit Todo:\(count - 1) --label last\n"
        try sandbox.succeed(["batch"], stdin: Array(script.utf8))
        let after = try sandbox.bytes()
        let history = try sandbox.bytes(".kanban.json.history").split(separator: UInt8(ascii: "\n"))
        let record = try jsonObject(String(decoding: try require(history.last), as: UTF8.self))
        let patch = try require(record["patch"] as? [String: Any])
        let entries = try require(patch["cards"] as? [[String: Any]])
        let cards = entries.flatMap { ($0["before"] as? [Any] ?? []) + ($0["after"] as? [Any] ?? []) }
        expectEqual(cards.count, 4, "each card before and after, in \(entries.count) stretches")
        try sandbox.succeed("undo")
        try expectEqual(sandbox.bytes(), before)
        try sandbox.succeed("redo")
        try expectEqual(sandbox.bytes(), after)
    }
}

@Suite(.serialized) struct HistoryEndToEnd {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case undoGivesBackTheFileExactlyAndRedoDoesItAgain
        case undoTakesBackOnlyItsOwnChangeWhenOthersCameSince
        case undoMergesWithChangesMadeSinceOutsideKanban
        case undoRefusesWhenWhatItWouldTakeBackChangedSince
        case aMissingOrBrokenHistoryNeverBlocksTheFile
        case aHistoryThatCannotBeWrittenFailsTheCommandAndWritesNothing
        case aWriterKilledAfterItsRecordLeavesTheFileAndHistoryAgreeing
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .undoGivesBackTheFileExactlyAndRedoDoesItAgain: try undoGivesBackTheFileExactlyAndRedoDoesItAgain()
        case .undoTakesBackOnlyItsOwnChangeWhenOthersCameSince: try undoTakesBackOnlyItsOwnChangeWhenOthersCameSince()
        case .undoMergesWithChangesMadeSinceOutsideKanban: try undoMergesWithChangesMadeSinceOutsideKanban()
        case .undoRefusesWhenWhatItWouldTakeBackChangedSince: try undoRefusesWhenWhatItWouldTakeBackChangedSince()
        case .aMissingOrBrokenHistoryNeverBlocksTheFile: try aMissingOrBrokenHistoryNeverBlocksTheFile()
        case .aHistoryThatCannotBeWrittenFailsTheCommandAndWritesNothing:
            try aHistoryThatCannotBeWrittenFailsTheCommandAndWritesNothing()
        case .aWriterKilledAfterItsRecordLeavesTheFileAndHistoryAgreeing:
            try aWriterKilledAfterItsRecordLeavesTheFileAndHistoryAgreeing()
        }
    }

    func undoGivesBackTheFileExactlyAndRedoDoesItAgain() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let original = try sandbox.bytes()
        try sandbox.succeed("move", "Analytics", "Done", "--at", "0")
        let moved = try sandbox.bytes()
        try sandbox.succeed("rm", "Todo:0")
        try sandbox.succeed("undo")
        try expectEqual(sandbox.bytes(), moved)
        try sandbox.succeed("undo")
        try expectEqual(sandbox.bytes(), original, "byte for byte, timestamps included")
        try sandbox.succeed("redo", "2")
        try expectEqual(sandbox.boards()[0].items.count, 3)
        try sandbox.succeed("undo", "2")
        try expectEqual(sandbox.bytes(), original)
        let log = try sandbox.succeed("log")
        expectTrue(log.contains("kanban rm Todo:0"))
        expectTrue(log.contains("(undone)"))
        let nothing = try sandbox.succeed("undo")
        expectEqual(nothing, "nothing to undo\n")
    }

    func undoTakesBackOnlyItsOwnChangeWhenOthersCameSince() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("move", "Analytics", "Done")
        try sandbox.succeed("add", "Later card", "--to", "Todo")
        // Undo the add, then the move: each takes back only itself.
        try sandbox.succeed("undo", "2")
        try expectEqual(sandbox.boards().layout, sampleLayout)
    }

    func undoMergesWithChangesMadeSinceOutsideKanban() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("move", "Analytics", "Done", "--at", "1")
        // An editor adds a card at the top of Done, behind kanban's back: the move's place changed.
        var text = String(decoding: try sandbox.bytes(), as: UTF8.self)
        let line = #"        {"id": "ed1t0r", "title": "From the editor"},"#
        let done = try require(text.range(of: "\"title\": \"Done\""))
        let items = try require(text.range(of: "\"items\": [\n", range: done.upperBound..<text.endIndex))
        text.insert(contentsOf: line + "\n", at: items.upperBound)
        try sandbox.write(text)
        let output = try sandbox.succeed("undo")
        expectTrue(output.contains("moved"), "says what it did: \(output)")
        let boards = try sandbox.boards()
        expectEqual(boards[1].items, ["Push Notification", "Analytics", "Machine Learning"], "the move is taken back")
        expectEqual(boards[2].items.first, "From the editor", "the outside change stays")
    }

    func undoRefusesWhenWhatItWouldTakeBackChangedSince() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("rename", "Analytics", "Analytics v2")
        // Another program edits the same card behind kanban's back.
        var text = String(decoding: try sandbox.bytes(), as: UTF8.self)
        text = text.replacing("Analytics v2", with: "Analytics v3")
        try sandbox.write(text)
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["undo", "--json"])
        try expectJSONError(result, exit: 1, code: "conflict")
        try expectEqual(sandbox.snapshot(), before)
    }

    func aMissingOrBrokenHistoryNeverBlocksTheFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        // No history yet is an empty log; undo has nothing to take back.
        try expectEqual(sandbox.succeed("log", "--json"), "[]\n")
        let log = try sandbox.run(["log"])
        expectTrue(log.status == 0 && log.out.isEmpty && log.err.contains("no changes recorded yet"), "\(log)")
        try expectJSONError(try sandbox.run(["undo", "--json"]), exit: 65, code: "no_history")
        try sandbox.succeed("add", "one")
        try sandbox.write("not json\n", to: ".kanban.json.history")
        try expectJSONError(try sandbox.run(["log", "--json"]), exit: 65, code: "corrupt_file")
        try sandbox.succeed("add", "two")
        let entries = try require(
            try JSONSerialization.jsonObject(with: Data(try sandbox.succeed("log", "--json").utf8)) as? [[String: Any]])
        expectEqual(entries.count, 1, "a new history was started")
        expectEqual(entries.first?["command"] as? [String], ["add", "two"])
    }

    func aHistoryThatCannotBeWrittenFailsTheCommandAndWritesNothing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try FileManager.default.createDirectory(atPath: sandbox.path(".kanban.json.history"), withIntermediateDirectories: false)
        let before = try sandbox.snapshot()
        try expectJSONError(try sandbox.run(["add", "x", "--json"]), exit: 74, code: "io")
        try expectEqual(sandbox.snapshot(), before)
        expectTrue(try sandbox.entries().filter { $0.contains(".tmp") }.isEmpty)
    }

    func aWriterKilledAfterItsRecordLeavesTheFileAndHistoryAgreeing() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("add", "kept")
        let before = try sandbox.bytes()
        let writer = try sandbox.start(["add", "lost"], environment: ["KANBAN_TEST_STOP_AT": "recorded"])
        try require(try writer.waitUntilStopped(), "the debug build stops after writing its record")
        writer.kill(SIGKILL)
        _ = try? writer.wait()
        try expectEqual(sandbox.bytes(), before, "the change did not reach the file")
        let log = try sandbox.succeed("log")
        expectTrue(!log.contains("lost"), "the record of a change that never reached the file is not shown")
        try sandbox.succeed("undo")
        expectTrue(!(try sandbox.boards()[0].items.contains("kept")), "undo takes back the last change that reached the file")
        try sandbox.succeed("add", "next")
        let entries = try require(
            try JSONSerialization.jsonObject(with: Data(try sandbox.succeed("log", "--json").utf8)) as? [[String: Any]])
        expectEqual(entries.map { $0["number"] as? Int }, [3, 2, 1], "the orphan's number is given again")
    }
}

@Suite struct HistoryBounds {
    /// A record whose bytes say "orphan" (its change not in a file with its `before` bytes)
    /// is one only if the file is still the one it started from; else it is a change made
    /// on another git branch and stays. Both for a small history (each line read as readers
    /// do) and one past a megabyte (each line read by its end) (README: History: log, undo,
    /// redo).
    @Test(arguments: [0, 3])
    func onlyARecordOfTheSameFileIsDroppedAsAnOrphan(padding: Int) throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let history = HistoryFile(of: sandbox.file)
        let big = String(repeating: "x", count: 400_000)
        for number in 1...(padding + 1) {
            var tail = history.tail()
            let last = number == padding + 1
            let record = HistoryRecord(
                number: number, time: Timestamp(seconds: 0), user: "u", command: ["add"], kind: .change,
                before: last ? 7 : UInt64(number), after: last ? 8 : UInt64(number + 1), lines: last ? [] : [big],
                patch: Patch(from: .empty, to: .empty), origin: last ? 0xabc : nil)
            _ = try history.append(record, to: &tail, mode: 0o644, group: getegid())
        }
        let size = try require(POSIX.lstat(history.path)).st_size
        expectEqual((size > 1 << 20), (padding > 0), "the history is \(size) bytes")
        let tail = history.tail()
        expectEqual(tail.last?.origin, 0xabc, "the origin is read from the record's end")
        let sameFile = history.droppingOrphan(tail, current: FileVersion(hash: 7, origin: 0xabc))
        expectEqual(sameFile.nextNumber, padding + 1, "an orphan: its number is given again")
        let rewritten = history.droppingOrphan(tail, current: FileVersion(hash: 7, origin: 0xdef))
        expectEqual(rewritten.nextNumber, padding + 2, "a change on another branch stays")
        try expectEqual(history.load(current: FileVersion(hash: 7, origin: 0xdef)).records.count, padding + 1)
        try expectEqual(history.load(current: FileVersion(hash: 7, origin: 0xabc)).records.count, padding)
    }

    @Test func theHistoryKeepsAtLeastTheLast100EntriesAndAtMost224() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let history = HistoryFile(of: sandbox.file)
        var pruned = false
        for number in 1...260 {
            var tail = history.tail()
            expectEqual(tail.nextNumber, number)
            let record = HistoryRecord(
                number: number, time: Timestamp(seconds: 0), user: "u", command: ["add", "\(number)"], kind: .change,
                before: UInt64(number), after: UInt64(number + 1), lines: [], patch: Patch(from: .empty, to: .empty))
            _ = try history.append(record, to: &tail, mode: 0o644, group: getegid())
            history.pruneIfNeeded(after: tail, appended: record, mode: 0o644)
            let log = try history.load(current: FileVersion(hash: 0, origin: 0))
            expectTrue(log.records.count <= HistoryFile.maximumEntries, "at most \(HistoryFile.maximumEntries) entries")
            expectTrue(log.records.count >= min(number, HistoryFile.keep), "at least the last \(HistoryFile.keep)")
            expectEqual(log.records.last?.number, number)
            if log.records.count < number { pruned = true }
        }
        expectTrue(pruned, "260 entries made the history drop its oldest")
    }
}
