import Foundation
import Glibc
import KanbanCore
import Testing

// SPEC §6: a process killed at any instant leaves either the old or the new file, never a
// broken one, and never leaves the file locked. Writers on a tiny file are killed with
// SIGKILL, over and over:
// - at each instant of a write, exactly: stopped by the debug-only stop points
//   (KANBAN_TEST_STOP_AT: once the locks are taken, once the temporary file exists, once it
//   is complete and flushed, once it is renamed into place), every scenario at every point,
//   KANBAN_HOOK_KILLS kills in all (default: one of each). Each case's outcome is known in
//   advance and checked, and the cases are counted.
// - at random instants of their whole life (KANBAN_KILLS, default 60), half of them aimed
//   at the end of it, where the temporary file is written and renamed. Where such a kill
//   lands is luck, so only what must hold after any kill is asserted.
// Every scenario but `init` starts from the same file and history: three changes, the last
// of them an undo, so that `undo` has something to take back and `redo` something to do again.
// After every kill: the file is the old one or the new one, byte for byte (new ids aside),
// the directory holds nothing but the file, its lock file, its history and the killed
// writer's temporary file, the lock is free, and the next command succeeds at once and
// removes the temporary file. Then the history must agree with the file: it holds the
// earlier entries, the next command and, exactly when the killed change reached the file,
// that change; and taking back what it says gives back the file as it was before the
// killed command, byte for byte.

/// One command on the tiny file, with the file (and its history) before it and the file after it.
private struct Scenario: CustomStringConvertible {
    var arguments: [String]
    var stdin: [UInt8]? = nil
    /// The file before the command; nil: no file (`init`).
    var before: [UInt8]?
    /// The history next to the file before the command; nil: none.
    var history: [UInt8]? = nil
    /// The commands of the history's entries before the command, newest first.
    var earlier: [[String]] = []
    /// The kind of entry the command makes in the history.
    var entry = Entry.change
    /// The file after an uninterrupted run (its new ids are random).
    var after: CheckedFile! = nil

    /// The kind of history entry a command makes, which says how to take it back.
    enum Entry {
        /// A change: `undo` takes it back.
        case change
        /// An undo: `redo` does again what it took back.
        case undo
        /// A redo: `undo` takes back what it did again.
        case redo
    }

    /// The command run after a kill, which must succeed at once. After a change, a change
    /// of its own; after an undo (or a redo), a redo (or an undo): a change would leave
    /// nothing to redo.
    var next: [String] {
        switch entry {
        case .change: ["board", "add", "next", "-q"]
        case .undo: ["redo", "-q"]
        case .redo: ["undo", "-q"]
        }
    }

    /// What gives back the file as it was before the command, after ``next``: taking back
    /// the next command and, if the killed one reached the file, that one too. After an
    /// undo (or a redo) that reached the file, ``next`` did that already; one that did not
    /// left ``next`` to do again (or take back) an earlier entry, which is taken back (or
    /// done again).
    func takingBack(reached: Bool) -> [[String]] {
        switch entry {
        case .change: [["undo", reached ? "2" : "1", "-q"]]
        case .undo: reached ? [] : [["undo", "-q"]]
        case .redo: reached ? [] : [["redo", "-q"]]
        }
    }

    var description: String { "kanban " + arguments.joined(separator: " ") }
}

/// How a killed writer left things.
private enum Outcome: String, CaseIterable {
    /// The old file, and no temporary file: killed before it started writing.
    case beforeWrite = "before_write"
    /// The old file and a temporary file: killed inside the write window.
    case insideWrite = "inside_write"
    /// The new file: killed after the rename.
    case afterRename = "after_rename"
}

@Suite("Crashes: writers killed at random instants and at each step of a write", .serialized)
struct CrashTests {
    static let kills = Reliability.size("KANBAN_KILLS", default: 15)
    static let hookKills = Reliability.size("KANBAN_HOOK_KILLS", default: 1)

    /// The tiny file the scenarios' starting point is made from, as kanban writes it: three
    /// boards and an archived card.
    static let base: [UInt8] = {
        let board = { (title: String, items: [(String, String)]) in
            Board(id: ItemID("B" + title)!, title: title, items: items.map { Item(id: ItemID($0.0)!, title: $0.1) })
        }
        let archived = ArchivedItem(
            item: Item(id: ItemID("z1")!, title: "zero"), board: ItemID("BA")!,
            archived: Timestamp(rfc3339: "2026-11-20T09:00:00Z")!)
        return KanbanFile.encode(
            try! Kanban(
                boards: [board("A", [("a1", "one"), ("a2", "two")]), board("B", [("b1", "three")]), board("C", [])],
                archive: [archived]))
    }()

    /// The changes that give the scenarios' starting point its history, oldest first: an
    /// entry for `undo` to take back, and one taken back for `redo` to do again.
    static let earlier: [[String]] = [
        ["add", "h1", "--to", "B", "-q"], ["edit", "a2", "--label", "old", "-q"], ["undo", "-q"],
    ]

    /// The file and history every scenario but `init` starts from: ``base`` after ``earlier``.
    private func startingPoint(in sandbox: KanbanSandbox) throws -> (file: [UInt8], history: [UInt8]) {
        try reset(sandbox, to: Self.base, history: nil)
        for command in Self.earlier {
            let result = try sandbox.run(command)
            try require(result.status == 0, "kanban \(command.joined(separator: " ")): \(result)")
        }
        return (try sandbox.bytes(), try sandbox.bytes(".kanban.json.history"))
    }

    private func makeScenarios(in sandbox: KanbanSandbox) throws -> [Scenario] {
        let start = try startingPoint(in: sandbox)
        let markdown = """
            ---
            kanban-plugin: board
            ---

            ## B

            - [ ] imported one #imp

            ## New board (2)

            - [ ] imported two @{2026-12-24}
                with a note

            """
        let batch = """
            # one transaction, one entry
            add "from batch" --to C --label b
            move a1 --to B --at 0
            edit b1 --note 'batch note' --due 2026-12-01
            archive a2
            restore z1 --to C
            board rename C Later
            """
        let commands: [([String], String?, Scenario.Entry)] = [
            (["add", "new card", "--to", "B"], nil, .change),
            (["add", "--to", "A", "--top"], "x\ny\nz\n", .change),
            (["move", "a1", "--to", "B", "--at", "0"], nil, .change),
            (["move", "a2", "a1", "--to", "A"], nil, .change),
            (["copy", "b1", "--to", "A"], nil, .change),
            (["remove", "a2"], nil, .change),
            (["rename", "a1", "renamed"], nil, .change),
            (["board", "add", "D", "--at", "1", "--limit", "3"], nil, .change),
            (["board", "rename", "C", "Later"], nil, .change),
            (["board", "move", "B", "--at", "0"], nil, .change),
            (["board", "limit", "A", "5"], nil, .change),
            (["board", "remove", "C"], nil, .change),
            (["board", "remove", "A", "--force"], nil, .change),
            (["undo"], nil, .undo),
            (["redo"], nil, .redo),
            (["batch"], batch, .change),
            (
                ["edit", "a1", "--title", "one!", "--label", "bug", "--label", "p1"]
                    + ["--due", "2026-12-01", "--note", "-"],
                "first line\n\tsecond line\n", .change
            ),
            (["archive", "a2", "b1"], nil, .change),
            (["restore", "z1"], nil, .change),
            (["import", "-"], markdown, .change),
        ]
        return commands.map {
            Scenario(
                arguments: $0.0 + ["-q"], stdin: $0.1.map { Array($0.utf8) }, before: start.file,
                history: start.history, earlier: Array(Self.earlier.reversed()), entry: $0.2)
        }
            + [Scenario(arguments: ["init", "--sample", "-q"], before: nil)]
    }

    // MARK: - At each step of a write

    /// A debug-only stop point, and what a writer killed there leaves.
    private struct StopPoint: Hashable, CustomStringConvertible {
        var name: String
        /// Whether the new file is in place.
        var committed: Bool
        /// How many temporary files are left.
        var temporaryFiles: Int
        /// Whether the temporary file holds the whole new kanban.
        var temporaryComplete = false

        var description: String { name }

        static let all = [
            StopPoint(name: "locked", committed: false, temporaryFiles: 0),
            StopPoint(name: "writing", committed: false, temporaryFiles: 1),
            StopPoint(name: "before-commit", committed: false, temporaryFiles: 1, temporaryComplete: true),
            StopPoint(name: "recorded", committed: false, temporaryFiles: 1, temporaryComplete: true),
            StopPoint(name: "committed", committed: true, temporaryFiles: 0),
        ]
    }

    @Test func writersKilledAtEachStepOfTheirWriteLeaveTheOldOrTheNewFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        var scenarios = try makeScenarios(in: sandbox)
        // One run each: the random-instant test runs every scenario three times, and checks that they agree.
        for index in scenarios.indices {
            scenarios[index].after = try uninterruptedRun(scenarios[index], in: sandbox, times: 1).after
        }
        // Every scenario at every stop point is one cycle. KANBAN_HOOK_KILLS rounds up to whole cycles.
        // `init` records no history, so it never reaches the `recorded` point.
        let cases = scenarios.flatMap { scenario in
            StopPoint.all.filter { scenario.before != nil || $0.name != "recorded" }.map { (scenario, $0) }
        }
        let cycles = (Self.hookKills + cases.count - 1) / cases.count
        var exercised: [StopPoint: Int] = [:]
        var continued = 0
        var broken = 0
        let start = DispatchTime.now()
        for cycle in 0..<cycles {
            for (scenario, stop) in cases {
                let context = "cycle \(cycle), \(scenario), stopped at \(stop)"
                try reset(sandbox, to: scenario.before, history: scenario.history)
                let writer = try sandbox.start(
                    scenario.arguments, stdin: scenario.stdin, environment: ["KANBAN_TEST_STOP_AT": stop.name])
                try require(
                    try writer.waitUntilStopped(timeout: 30),
                    "\(context): the writer did not stop; the tests need a debug build (KANBAN_TEST_STOP_AT)")

                // Stopped: the locks held, the file and the temporary file as the step says.
                expectTrue(try lockIsHeld(sandbox.path(".kanban.json.lock")), "\(context): the writer holds the lock")
                if scenario.before != nil && !stop.committed {
                    expectTrue(try lockIsHeld(sandbox.file), "\(context): the writer holds the kanban file's lock")
                }
                let temporary = try sandbox.temporaryFiles()
                expectEqual(temporary.count, stop.temporaryFiles, "\(context): \(temporary)")
                if stop.temporaryComplete, let name = temporary.first {
                    if case .failure(let failure) = matchesAfter(try sandbox.bytes(name), scenario) {
                        Issue.record("\(context): the temporary file is not the new kanban: \(failure)")
                    }
                }
                if !stop.committed {
                    try expectEqual(currentFile(sandbox), scenario.before, "\(context): the old file")
                }

                writer.kill(SIGKILL)
                let ended = try writer.wait(timeout: 30)
                try require(ended.signal == SIGKILL, "\(context): \(ended)")
                switch try verifyAfterKill(scenario, in: sandbox, context: context) {
                case .success(let (outcome, _)):
                    let expected: Outcome =
                        stop.committed ? .afterRename : stop.temporaryFiles > 0 ? .insideWrite : .beforeWrite
                    expectEqual(outcome, expected, "\(context): \(outcome)")
                    exercised[stop, default: 0] += 1
                case .failure(let failure):
                    Issue.record("\(failure)")
                    broken += 1
                }
            }

            // One writer per cycle is let go from just before its rename, to see the window close.
            let scenario = scenarios[cycle % scenarios.count]
            let context = "cycle \(cycle), \(scenario), let go before its rename"
            try reset(sandbox, to: scenario.before, history: scenario.history)
            let writer = try sandbox.start(
                scenario.arguments, stdin: scenario.stdin, environment: ["KANBAN_TEST_STOP_AT": "before-commit"])
            try require(try writer.waitUntilStopped(timeout: 30), "\(context): the writer did not stop")
            writer.kill(SIGCONT)
            try expectEqual(writer.wait(timeout: 30).status, 0, "\(context)")
            expectTrue(try sandbox.temporaryFiles().isEmpty, "\(context)")
            if case .failure(let failure) = matchesAfter(try currentFile(sandbox) ?? [], scenario) {
                Issue.record("\(context): after continuing: \(failure)")
                broken += 1
            }
            continued += 1
        }
        // Every case was exercised: each stop point once per scenario and cycle.
        for stop in StopPoint.all {
            let scenariosReaching = scenarios.count(where: { $0.before != nil || stop.name != "recorded" })
            expectEqual(exercised[stop, default: 0], cycles * scenariosReaching, "\(stop): \(exercised)")
        }
        expectEqual(continued, cycles)
        let killed = exercised.values.reduce(0, +)
        Reliability.record(
            "crash",
            [
                "mode": "hook", "kills": killed, "continued": continued, "broken": broken,
                "locked": exercised[StopPoint.all[0], default: 0], "writing": exercised[StopPoint.all[1], default: 0],
                "before_commit": exercised[StopPoint.all[2], default: 0],
                "recorded": exercised[StopPoint.all[3], default: 0],
                "committed": exercised[StopPoint.all[4], default: 0],
                "seconds": Reliability.seconds(since: start),
            ])
    }

    // MARK: - Random instants

    @Test func writersKilledAtRandomInstantsLeaveTheOldOrTheNewFile() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        var scenarios = try makeScenarios(in: sandbox)
        var lifetimes: [Int] = []
        for index in scenarios.indices {
            let (after, lifetime) = try uninterruptedRun(scenarios[index], in: sandbox)
            scenarios[index].after = after
            lifetimes.append(lifetime)
        }
        // Other tests share the machine and make lives longer or shorter as they come and go;
        // the life of each next command, against its life now, scales the delays to match.
        var probeLives: [Int] = []
        for _ in 0..<5 {
            try reset(sandbox, to: Self.base, history: nil)
            probeLives.append(try timedProbe(sandbox, ["board", "add", "next", "-q"]).lifetime)
        }
        let probeBaseline = probeLives.sorted()[2]
        var load = 1.0

        var counts: [Outcome: Int] = [:]
        var killed = 0
        var finishedFirst = 0
        var verified = 0
        var broken = 0
        var generator = TestRandom(1, "writersKilledAtRandomInstantsLeaveTheOldOrTheNewFile")
        let start = DispatchTime.now()
        for attempt in 0..<Self.kills {
            let index = attempt % scenarios.count
            let scenario = scenarios[index]
            // Half uniformly over the whole life, half in its last 40%, where the write is.
            let lifetime = max(1, Int(Double(lifetimes[index]) * load))
            let delay =
                attempt.isMultiple(of: 2)
                ? Int.random(in: 0...(lifetime + lifetime / 5), using: &generator)
                : Int.random(in: (lifetime * 3 / 5)...(lifetime + lifetime / 10), using: &generator)
            let context =
                "seed \(generator.seed), attempt \(attempt), \(scenario), "
                + "killed after \(delay) µs of a \(lifetime) µs life"

            try reset(sandbox, to: scenario.before, history: scenario.history)
            let writer = try sandbox.start(scenario.arguments, stdin: scenario.stdin)
            usleep(UInt32(delay))
            writer.kill(SIGKILL)
            writer.blockUntilExited()
            let ended = try writer.wait(timeout: 30)
            if ended.status == 0 {
                finishedFirst += 1
            } else {
                try require(ended.signal == SIGKILL, "\(context): \(ended)")
                killed += 1
            }
            switch try verifyAfterKill(scenario, in: sandbox, context: context) {
            case .success(let (outcome, probeLife)):
                if ended.status == nil { counts[outcome, default: 0] += 1 }
                load = min(20, max(0.2, 0.8 * load + 0.2 * Double(probeLife) / Double(max(1, probeBaseline))))
                verified += 1
            case .failure(let failure):
                Issue.record("\(failure)")
                broken += 1
            }
        }
        // Every writer, killed or finished first, was checked; where the kills landed is in the figures.
        expectTrue(verified == Self.kills && killed + finishedFirst == Self.kills)
        Reliability.record(
            "crash",
            [
                "mode": "random", "kills": killed, "before_write": counts[.beforeWrite, default: 0],
                "inside_write": counts[.insideWrite, default: 0],
                "after_rename": counts[.afterRename, default: 0],
                "finished_before_kill": finishedFirst, "broken": broken,
                "median_life_us": lifetimes.sorted()[lifetimes.count / 2],
                "seconds": Reliability.seconds(since: start),
            ])
    }

    // MARK: - Steps

    /// Puts the scenario's starting file in place the way kanban does (whole, by rename),
    /// or removes the file for `init`, and its history (or none); the lock file stays, as it
    /// does in real use.
    private func reset(_ sandbox: KanbanSandbox, to bytes: [UInt8]?, history: [UInt8]?) throws {
        for name in try sandbox.temporaryFiles() { unlink(sandbox.path(name)) }
        unlink(sandbox.path(".kanban.json.history"))
        if let history { try sandbox.write(history, to: ".kanban.json.history") }
        guard let bytes else {
            unlink(sandbox.file)
            return
        }
        try sandbox.write(bytes, to: "reset.json")
        try require(rename(sandbox.path("reset.json"), sandbox.file) == 0)
    }

    /// Runs the scenario to the end, `times` times, checking that every run gives the same
    /// kanban; returns the new file and the median lifetime in µs (from start to exit,
    /// measured exactly).
    private func uninterruptedRun(_ scenario: Scenario, in sandbox: KanbanSandbox, times: Int = 3) throws -> (
        after: CheckedFile, lifetime: Int
    ) {
        var lifetimes: [Int] = []
        var after: CheckedFile?
        for _ in 0..<times {
            try reset(sandbox, to: scenario.before, history: scenario.history)
            let begin = DispatchTime.now().uptimeNanoseconds
            let process = try sandbox.start(scenario.arguments, stdin: scenario.stdin)
            process.blockUntilExited()
            lifetimes.append(Int((DispatchTime.now().uptimeNanoseconds - begin) / 1000))
            let result = try process.wait()
            try require(result.status == 0, "\(scenario): \(result)")
            let bytes = try require(try currentFile(sandbox), "\(scenario) left no file")
            let file = try CheckedFile.check(bytes).get()
            if let after {
                try require(
                    sameKanban(file.kanban, after.kanban, knownIDs: ids(scenario.before)),
                    "\(scenario) is not repeatable: \(file.kanban) vs \(after.kanban)")
            }
            after = file
        }
        return (after!, lifetimes.sorted()[times / 2])
    }

    /// Checks the directory after a writer was killed, then runs the next command.
    private func verifyAfterKill(
        _ scenario: Scenario, in sandbox: KanbanSandbox, context: String
    ) throws -> Result<(Outcome, probeLife: Int), CheckFailure> {
        let file = try currentFile(sandbox)
        let temporary = try sandbox.temporaryFiles()
        let leftover = !temporary.isEmpty
        let outcome: Outcome
        if file == scenario.before {
            outcome = leftover ? .insideWrite : .beforeWrite
        } else {
            switch matchesAfter(file ?? [], scenario) {
            case .success: outcome = .afterRename
            case .failure(let failure):
                let kept = Reliability.keep(file ?? [], "crash")
                return .failure(
                    CheckFailure("\(context): neither the old nor the new file: \(failure); kept at \(kept)"))
            }
        }
        let entries = Set(try sandbox.entries())
        guard temporary.count <= 1 else {
            return .failure(CheckFailure("\(context): more than one temporary file: \(temporary)"))
        }
        let allowed = Set(["kanban.json", ".kanban.json.lock", ".kanban.json.history"] + temporary)
        guard entries.isSubset(of: allowed) else {
            return .failure(
                CheckFailure("\(context): unexpected files: \(entries.subtracting(allowed).sorted())"))
        }
        guard try !lockIsHeld(sandbox.path(".kanban.json.lock")) else {
            return .failure(CheckFailure("\(context): the lock is still held after the writer died"))
        }

        // The next command: with no wait at all, so that a stale lock would fail it (75).
        let next = file == nil ? ["init", "-q"] : scenario.next
        let (result, probeLife) = try timedProbe(sandbox, next)
        guard result.status == 0 else {
            return .failure(CheckFailure("\(context): the next command failed: \(result)"))
        }
        guard try sandbox.temporaryFiles().isEmpty else {
            return .failure(CheckFailure("\(context): a temporary file is left after the next command"))
        }
        guard case .success = CheckedFile.check(try sandbox.bytes()) else {
            return .failure(CheckFailure("\(context): the file after the next command is broken"))
        }
        if let before = scenario.before, let failure = try historyDisagrees(
            sandbox, scenario: scenario, before: before, reached: outcome == .afterRename)
        {
            return .failure(CheckFailure("\(context): \(failure)"))
        }
        return .success((outcome, probeLife))
    }

    /// Whether the history disagrees with the file after a kill and the next command: it
    /// must hold the next command, then, exactly when the killed change reached the file,
    /// that change, then the entries that were there before; and taking back what it says
    /// (see ``Scenario/takingBack(reached:)``: for a change, `undo 2` or `undo 1`) must give
    /// back the file as it was before the killed command, byte for byte.
    private func historyDisagrees(
        _ sandbox: KanbanSandbox, scenario: Scenario, before: [UInt8], reached: Bool
    ) throws -> String? {
        let log = try sandbox.run("log", "--json")
        guard log.status == 0,
            let entries = try? JSONSerialization.jsonObject(with: Data(log.stdout)) as? [[String: Any]]
        else { return "the history cannot be read: \(log)" }
        let commands = entries.map { $0["command"] as? [String] ?? [] }
        let expected = [scenario.next] + (reached ? [scenario.arguments] : []) + scenario.earlier
        guard commands == expected else { return "the history says \(commands), not \(expected)" }
        let takingBack = scenario.takingBack(reached: reached)
        for command in takingBack {
            let result = try sandbox.run(command)
            guard result.status == 0 else { return "kanban \(command.joined(separator: " ")) failed: \(result)" }
        }
        guard try sandbox.bytes() == before else {
            let how = ([scenario.next] + takingBack).map { "kanban " + $0.joined(separator: " ") }
            return "\(how.joined(separator: ", then ")) did not give back the file as it was before the command"
        }
        return nil
    }

    /// Runs the next command with no wait for the lock (a stale lock fails it at once) and
    /// measures its life in µs.
    private func timedProbe(_ sandbox: KanbanSandbox, _ arguments: [String]) throws -> (
        result: ProcessResult, lifetime: Int
    ) {
        let begin = DispatchTime.now().uptimeNanoseconds
        let probe = try sandbox.start(arguments, environment: ["KANBAN_LOCK_TIMEOUT": "0"])
        probe.blockUntilExited()
        let lifetime = Int((DispatchTime.now().uptimeNanoseconds - begin) / 1000)
        return (try probe.wait(), lifetime)
    }

    private func matchesAfter(_ bytes: [UInt8], _ scenario: Scenario) -> Result<Void, CheckFailure> {
        switch CheckedFile.check(bytes) {
        case .failure(let failure): return .failure(failure)
        case .success(let file):
            guard sameKanban(file.kanban, scenario.after.kanban, knownIDs: ids(scenario.before)) else {
                return .failure(CheckFailure("a valid file, but not the command's result: \(file.kanban)"))
            }
            return .success(())
        }
    }

    /// Every id in the file: its boards', its cards' and its archived cards'.
    private func ids(_ bytes: [UInt8]?) -> Set<String> {
        guard let bytes, let kanban = try? KanbanFile.decode(bytes).kanban else { return [] }
        return Set(
            kanban.boards.flatMap { [$0.id.rawValue] + $0.items.map(\.id.rawValue) }
                + kanban.archive.map(\.item.id.rawValue))
    }

    private func currentFile(_ sandbox: KanbanSandbox) throws -> [UInt8]? {
        sandbox.exists("kanban.json") ? try sandbox.bytes() : nil
    }
}
