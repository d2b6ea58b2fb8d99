import Foundation
import Glibc
import KanbanCore
import Testing

// SPEC §6: parallel kanban processes on one file serialize and lose nothing. Each round
// starts KANBAN_STRESS_PROCESSES processes (default 100) at once on one file, mixing every
// kind of command, and then checks every process's report against the file. Rounds:
// KANBAN_STRESS_ROUNDS (default 2; .ci/reliability runs more).

/// What one process of a round was asked to do.
private enum Job: CustomStringConvertible {
    /// Adds titles, as arguments or as stdin lines.
    case add(titles: [String], board: String, viaStdin: Bool)
    /// Adds to the board with a WIP limit that only some of these adds fit under.
    case addToGate(title: String)
    case move(id: String, to: String)
    /// One of two moves of the same card to different boards: both succeed, one after the other.
    case racingMove(id: String, to: String)
    case copy(id: String, to: String)
    case remove(id: String)
    /// One of two removes of the same card: exactly one succeeds.
    case racingRemove(id: String)
    case rename(id: String, title: String)
    /// Gives a card a label and a due date.
    case edit(id: String, label: String)
    case archive(id: String)
    /// Brings back a card archived before the round.
    case restore(id: String)
    /// Two cards added by one batch: one transaction.
    case batch(titles: [String])
    case dryRunMove(id: String, to: String)
    case list
    case boardAdd(title: String)
    case boardRename(board: String, title: String)
    case boardLimit(board: String, limit: Int)
    case boardMove(board: String)
    case boardRemove(board: String)

    var arguments: [String] {
        switch self {
        case .add(let titles, let board, let viaStdin): ["add"] + (viaStdin ? [] : titles) + ["--to", board]
        case .addToGate(let title): ["add", title, "--to", StressTests.gate]
        case .move(let id, let to), .racingMove(let id, let to): ["move", id, "--to", to]
        case .copy(let id, let to): ["copy", id, "--to", to]
        case .remove(let id), .racingRemove(let id): ["remove", id]
        case .rename(let id, let title): ["rename", id, title]
        case .edit(let id, let label): ["edit", id, "--label", label, "--due", "2026-12-24"]
        case .archive(let id): ["archive", id]
        case .restore(let id): ["restore", id]
        case .batch: ["batch"]
        case .dryRunMove(let id, let to): ["move", id, "--to", to, "--dry-run"]
        case .list: ["list"]
        case .boardAdd(let title): ["board", "add", title]
        case .boardRename(let board, let title): ["board", "rename", board, title]
        case .boardLimit(let board, let limit): ["board", "limit", board, String(limit)]
        case .boardMove(let board): ["board", "move", board, "--at", "0"]
        case .boardRemove(let board): ["board", "remove", board]
        }
    }

    var stdin: [UInt8]? {
        if case .batch(let titles) = self {
            return Array(titles.map { "add '\($0)' --to Todo\n" }.joined().utf8)
        }
        guard case .add(let titles, _, true) = self else { return nil }
        return Array(titles.map { $0 + "\n" }.joined().utf8)
    }

    /// The card this job moves or removes, if any: such cards may change place.
    var displaced: String? {
        switch self {
        case .move(let id, _), .racingMove(let id, _), .remove(let id), .racingRemove(let id), .archive(let id): id
        default: nil
        }
    }

    var description: String { "kanban " + arguments.joined(separator: " ") }
}

/// What the file must hold after a round: every card with its title and the boards it may be on.
private struct Model {
    struct Card {
        var title: String
        var boards: Set<String>
        /// A label an edit gave it, to be found in the file.
        var label: String?
    }

    var cards: [String: Card] = [:]
    /// Cards in the archive.
    var archived: [String: String] = [:]
    var boards: [String: Int?] = [:]
    /// Every id any process has ever reported, so that a reused id is noticed.
    var everReported: Set<String> = []
}

/// The counts a round adds up, for the figures.
private struct Tally {
    var processes = 0
    var succeeded = 0
    var refusedAsExpected = 0
    var lost = 0
    var duplicated = 0
    var unexpected = 0
    var falseSuccesses = 0
    var readers = 0
}

@Suite("Stress: many kanban processes on one file", .serialized)
struct StressTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case mixedCommandsFromManyProcessesAtOnceLoseNothing
        case writersLoseNothingWhileTheLockFileIsDeletedAndReplaced
        case undoAndRedoAmongWritersLoseNothingThatWasNotUndone
        case writersFacingALockHeldPastTheirWaitExit75AndWriteNothing
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .mixedCommandsFromManyProcessesAtOnceLoseNothing: try mixedCommandsFromManyProcessesAtOnceLoseNothing()
        case .writersLoseNothingWhileTheLockFileIsDeletedAndReplaced:
            try writersLoseNothingWhileTheLockFileIsDeletedAndReplaced()
        case .undoAndRedoAmongWritersLoseNothingThatWasNotUndone:
            try undoAndRedoAmongWritersLoseNothingThatWasNotUndone()
        case .writersFacingALockHeldPastTheirWaitExit75AndWriteNothing:
            try writersFacingALockHeldPastTheirWaitExit75AndWriteNothing()
        }
    }

    static let processes = Reliability.size("KANBAN_STRESS_PROCESSES", default: 30)
    static let rounds = Reliability.size("KANBAN_STRESS_ROUNDS", default: 2)
    static let fixedBoards = ["Todo", "Doing", "Done"]
    static let gate = "Gate"
    /// Long enough that no process gives up in a healthy run: this checks what is lost, not speed.
    static let environment = ["KANBAN_LOCK_TIMEOUT": "120"]

    func mixedCommandsFromManyProcessesAtOnceLoseNothing() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.succeed([
            "init", "-q", "--boards", (Self.fixedBoards + [Self.gate]).joined(separator: ","),
        ])
        var model = Model()
        for board in Self.fixedBoards + [Self.gate] { model.boards[board] = .some(nil) }
        var tally = Tally()
        var generator = TestRandom(1, "mixedCommandsFromManyProcessesAtOnceLoseNothing")
        let start = DispatchTime.now()
        for round in 0..<Self.rounds {
            try runRound(round, in: sandbox, model: &model, tally: &tally, generator: &generator)
        }
        let losses = tally.lost + tally.duplicated + tally.falseSuccesses
        Reliability.record(
            "stress",
            [
                "processes": Self.processes, "rounds": Self.rounds, "launched": tally.processes,
                "succeeded": tally.succeeded, "refused_as_expected": tally.refusedAsExpected,
                "readers": tally.readers,
                "cards": model.cards.count, "lost": tally.lost, "duplicated": tally.duplicated,
                "false_successes": tally.falseSuccesses, "unexpected_exits": tally.unexpected,
                "losses": losses,
                "seconds": Reliability.seconds(since: start),
            ])
        expectTrue(losses == 0 && tally.unexpected == 0, "seed \(generator.seed)")
    }

    // MARK: - One round

    private func runRound(
        _ round: Int, in sandbox: KanbanSandbox, model: inout Model, tally: inout Tally, generator: inout TestRandom
    ) throws {
        let n = Self.processes
        func share(_ percent: Int) -> Int { max(1, n * percent / 100) }
        let counts = (
            move: share(10), racingMoves: max(1, share(6) / 2), copy: share(6), remove: share(6),
            racingRemoves: max(1, share(6) / 2), rename: share(6), dryRun: share(3), readers: share(6),
            gate: max(2, share(10)), boardKinds: max(1, share(10) / 5), edit: share(6), archive: share(4),
            restore: share(3), batch: share(3)
        )
        let fixedJobs: Int =
            counts.move + 2 * counts.racingMoves + counts.copy + counts.remove + 2 * counts.racingRemoves
            + counts.rename + counts.dryRun + counts.readers + counts.gate + 5 * counts.boardKinds + counts.edit
            + counts.archive + counts.restore + counts.batch
        let adds = max(1, n - fixedJobs)
        let r = "r\(round)"

        // Cards and boards this round works on, made by single processes beforehand.
        let seedCount: Int =
            counts.move + counts.racingMoves + counts.copy + counts.remove + counts.racingRemoves
            + counts.rename + counts.dryRun + counts.edit + counts.archive + counts.restore
        let seedTitles = (0..<seedCount).map { "\(r) seed \($0)" }
        let seeded = try added(
            try sandbox.succeed(
                ["add", "--to", "Todo", "--json"], stdin: Array(seedTitles.map { $0 + "\n" }.joined().utf8)))
        try require(seeded.map(\.title) == seedTitles)
        for card in seeded {
            model.cards[card.id] = Model.Card(title: card.title, boards: ["Todo"])
            model.everReported.insert(card.id)
        }
        var seeds = seeded.map(\.id)[...]
        // Cards put away before the round, for restores to bring back.
        let toRestore = Array(seeds.suffix(counts.restore))
        seeds = seeds.dropLast(counts.restore)
        try sandbox.succeed(["archive"] + toRestore + ["-q"])
        for id in toRestore { model.archived[id] = model.cards.removeValue(forKey: id)?.title }
        var roundBoards: [String] = []
        for k in 0..<(4 * counts.boardKinds) {
            let title = "\(r) board \(k)"
            try sandbox.succeed(["board", "add", title, "-q"])
            model.boards[title] = .some(nil)
            roundBoards.append(title)
        }
        let gateCount = try sandbox.fileBoards().first { $0.title == Self.gate }!.items.count
        let slots = counts.gate / 2
        try sandbox.succeed(["board", "limit", Self.gate, String(gateCount + slots), "-q"])
        model.boards[Self.gate] = .some(gateCount + slots)

        // The jobs.
        var jobs: [Job] = []
        func otherBoard(than board: String = "Todo") -> String {
            Self.fixedBoards.filter { $0 != board }.randomElement(using: &generator)!
        }
        for k in 0..<adds {
            let titles = (0..<(k % 3 + 1)).map { "\(r) add \(k).\($0)" }
            jobs.append(.add(titles: titles, board: Self.fixedBoards[k % 3], viaStdin: k % 4 == 3))
        }
        for k in 0..<counts.gate { jobs.append(.addToGate(title: "\(r) gate \(k)")) }
        for _ in 0..<counts.move { jobs.append(.move(id: seeds.popFirst()!, to: otherBoard())) }
        for _ in 0..<counts.racingMoves {
            let id = seeds.popFirst()!
            jobs += [.racingMove(id: id, to: "Doing"), .racingMove(id: id, to: "Done")]
        }
        for _ in 0..<counts.copy { jobs.append(.copy(id: seeds.popFirst()!, to: otherBoard(than: ""))) }
        for _ in 0..<counts.remove { jobs.append(.remove(id: seeds.popFirst()!)) }
        for _ in 0..<counts.racingRemoves {
            let id = seeds.popFirst()!
            jobs += [.racingRemove(id: id), .racingRemove(id: id)]
        }
        for k in 0..<counts.rename { jobs.append(.rename(id: seeds.popFirst()!, title: "\(r) renamed \(k)")) }
        for _ in 0..<counts.dryRun { jobs.append(.dryRunMove(id: seeds.popFirst()!, to: "Done")) }
        for k in 0..<counts.edit { jobs.append(.edit(id: seeds.popFirst()!, label: "\(r)-label-\(k)")) }
        for _ in 0..<counts.archive { jobs.append(.archive(id: seeds.popFirst()!)) }
        for id in toRestore { jobs.append(.restore(id: id)) }
        for k in 0..<counts.batch { jobs.append(.batch(titles: ["\(r) batch \(k).0", "\(r) batch \(k).1"])) }
        for k in 0..<counts.boardKinds {
            jobs.append(.boardAdd(title: "\(r) new board \(k)"))
            jobs.append(.boardRename(board: roundBoards[4 * k], title: "\(r) renamed board \(k)"))
            jobs.append(.boardLimit(board: roundBoards[4 * k + 1], limit: k + 1))
            jobs.append(.boardMove(board: roundBoards[4 * k + 2]))
            jobs.append(.boardRemove(board: roundBoards[4 * k + 3]))
        }
        let writers = jobs.shuffled(using: &generator)
        let readers = [Job](repeating: .list, count: counts.readers)

        // The file before the round, for the readers and for the order of cards nobody moved.
        let before = try checked(try sandbox.bytes(), "before round \(round)")
        let displaced = Set(jobs.compactMap(\.displaced))
        let mustStay = Set(before.ids).subtracting(displaced)

        // Start them all. In even rounds the test holds the lock while starting them, so that
        // every writer is waiting when it is let go; in odd rounds they start as they come.
        let gateLock = round.isMultiple(of: 2) ? try HeldLock(sandbox.path(".kanban.json.lock")) : nil
        var started: [(Job, SpawnedProcess)] = []
        for job in writers {
            started.append(
                (
                    job,
                    try sandbox.start(
                        job.arguments + ["--json"], stdin: job.stdin, environment: Self.environment)
                ))
        }
        gateLock?.release()
        for job in readers {
            started.append((job, try sandbox.start(["list", "--json"], environment: Self.environment)))
        }
        var results: [(Job, ProcessResult)] = []
        for (job, process) in started {
            do {
                results.append((job, try process.wait(timeout: 180)))
            } catch {
                Issue.record("round \(round): \(job) hung: \(error)")
                tally.unexpected += 1
            }
        }
        tally.processes += started.count

        // Every process's report, against the model.
        var racingRemoveWins: [String: Int] = [:]
        var gateWins = 0
        for (job, result) in results {
            let context = "round \(round): \(job)"
            func fail(_ message: String) {
                Issue.record("\(context): \(message)\n\(result)")
                tally.unexpected += 1
            }
            switch job {
            case .list:
                tally.readers += 1
                guard result.status == 0 else {
                    fail("a reader failed")
                    continue
                }
                let snapshot = try BoardColumn.parse(result.stdout)
                let ids = snapshot.allIDs
                if Set(ids).count != ids.count {
                    fail("a reader saw duplicate ids")
                    tally.duplicated += 1
                }
                let missing = mustStay.subtracting(ids)
                if !missing.isEmpty {
                    fail("a reader saw cards missing that nobody removed: \(missing.sorted())")
                    tally.lost += missing.count
                }
                continue
            case .racingRemove(let id):
                if result.status == 0 {
                    racingRemoveWins[id, default: 0] += 1
                } else if result.status == 1,
                    (try? expectJSONError(result, exit: 1, code: "not_found")) != nil
                {
                    racingRemoveWins[id, default: 0] += 0  // noted, so that two refusals are caught too
                    tally.refusedAsExpected += 1
                    continue
                } else {
                    fail("expected success or not_found")
                    continue
                }
            case .addToGate:
                if result.status == 1, (try? expectJSONError(result, exit: 1, code: "wip_limit")) != nil {
                    tally.refusedAsExpected += 1
                    continue
                }
                if result.status == 0 { gateWins += 1 }
            default:
                break
            }
            guard result.status == 0 else {
                fail("expected success")
                continue
            }
            tally.succeeded += 1
            if case .batch(let titles) = job {
                let commands = (try? jsonObject(result.out))?["commands"] as? [[String: Any]] ?? []
                let cards = try commands.flatMap { command in
                    try added(String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self))
                }
                guard cards.map(\.title) == titles else {
                    fail("reported \(cards)")
                    continue
                }
                for card in cards {
                    if model.everReported.contains(card.id) {
                        fail("reused id \(card.id)")
                        tally.duplicated += 1
                    }
                    model.everReported.insert(card.id)
                    model.cards[card.id] = Model.Card(title: card.title, boards: ["Todo"])
                }
                continue
            }
            guard let report = try? jsonObject(result.out), let items = report["items"] as? [[String: Any]]
            else {
                fail("no JSON report on stdout")
                continue
            }
            let boards = report["boards"] as? [[String: Any]] ?? []
            switch job {
            case .add(let titles, let board, _):
                let cards = try added(result.out)
                guard cards.map(\.title) == titles, cards.allSatisfy({ $0.board == board }) else {
                    fail("reported \(cards)")
                    continue
                }
                for card in cards {
                    if model.everReported.contains(card.id) {
                        fail("reused id \(card.id)")
                        tally.duplicated += 1
                    }
                    model.everReported.insert(card.id)
                    model.cards[card.id] = Model.Card(title: card.title, boards: [board])
                }
            case .addToGate(let title):
                let cards = try added(result.out)
                guard cards.count == 1, cards[0].title == title, cards[0].board == Self.gate else {
                    fail("reported \(cards)")
                    continue
                }
                if model.everReported.contains(cards[0].id) {
                    fail("reused id")
                    tally.duplicated += 1
                }
                model.everReported.insert(cards[0].id)
                model.cards[cards[0].id] = Model.Card(title: title, boards: [Self.gate])
            case .move(let id, let to):
                guard items.count == 1, items[0]["id"] as? String == id, board(items[0]["to"]) == to else {
                    fail("reported \(items)")
                    continue
                }
                model.cards[id]?.boards = [to]
            case .racingMove(let id, let to):
                guard items.count == 1, items[0]["id"] as? String == id, board(items[0]["to"]) == to else {
                    fail("reported \(items)")
                    continue
                }
                // The other move of this card may come before or after: either board is right.
                if model.cards[id]?.boards == ["Todo"] { model.cards[id]?.boards = [] }
                model.cards[id]?.boards.insert(to)
            case .copy(let id, let to):
                guard items.count == 1, items[0]["copyOf"] as? String == id, board(items[0]["to"]) == to,
                    let copy = items[0]["id"] as? String, let original = model.cards[id]
                else {
                    fail("reported \(items)")
                    continue
                }
                if model.everReported.contains(copy) {
                    fail("reused id \(copy)")
                    tally.duplicated += 1
                }
                model.everReported.insert(copy)
                model.cards[copy] = Model.Card(title: original.title, boards: [to])
            case .remove(let id), .racingRemove(let id):
                guard items.count == 1, items[0]["id"] as? String == id, items[0]["to"] is NSNull else {
                    fail("reported \(items)")
                    continue
                }
                model.cards[id] = nil
            case .rename(let id, let title):
                guard items.count == 1, items[0]["id"] as? String == id, items[0]["title"] as? String == title
                else {
                    fail("reported \(items)")
                    continue
                }
                model.cards[id]?.title = title
            case .edit(let id, let label):
                guard items.count == 1, items[0]["id"] as? String == id, items[0]["changes"] is [String: Any] else {
                    fail("reported \(items)")
                    continue
                }
                model.cards[id]?.label = label
            case .archive(let id):
                guard items.count == 1, items[0]["id"] as? String == id, items[0]["archived"] as? Bool == true else {
                    fail("reported \(items)")
                    continue
                }
                model.archived[id] = model.cards.removeValue(forKey: id)?.title
            case .restore(let id):
                guard items.count == 1, items[0]["id"] as? String == id, board(items[0]["to"]) == "Todo",
                    let title = model.archived.removeValue(forKey: id)
                else {
                    fail("reported \(items)")
                    continue
                }
                model.cards[id] = Model.Card(title: title, boards: ["Todo"])
            case .batch:
                break
            case .dryRunMove(_, let to):
                guard report["dryRun"] as? Bool == true, board(items.first?["to"]) == to else {
                    fail("reported \(report)")
                    continue
                }
            case .boardAdd(let title):
                guard boards.first?["title"] as? String == title else {
                    fail("reported \(boards)")
                    continue
                }
                model.boards[title] = .some(nil)
            case .boardRename(let old, let title):
                guard boards.first?["title"] as? String == title else {
                    fail("reported \(boards)")
                    continue
                }
                model.boards[title] = model.boards.removeValue(forKey: old)
            case .boardLimit(let board, let limit):
                guard boards.first?["limit"] as? Int == limit else {
                    fail("reported \(boards)")
                    continue
                }
                model.boards[board] = .some(limit)
            case .boardMove:
                break
            case .boardRemove(let board):
                guard boards.first?["to"] is NSNull else {
                    fail("reported \(boards)")
                    continue
                }
                model.boards[board] = nil
            case .list:
                break
            }
        }
        for (id, wins) in racingRemoveWins where wins != 1 {
            Issue.record(
                "round \(round): \(wins) of the two racing removes of \(id) succeeded; exactly one must")
            tally.falseSuccesses += max(0, wins - 1)
            tally.unexpected += 1
        }
        if gateWins != slots {
            Issue.record("round \(round): \(gateWins) adds got past the WIP limit; exactly \(slots) fit")
            tally.falseSuccesses += max(0, gateWins - slots)
            tally.unexpected += 1
        }

        // The file, against the model.
        let after = try checked(try sandbox.bytes(), "after round \(round)")
        var found: [String: (title: String, board: String)] = [:]
        for board in after.kanban.boards {
            for item in board.items { found[item.id.rawValue] = (item.title, board.title) }
        }
        if after.ids.count != Set(after.ids).count {
            tally.duplicated += after.ids.count - Set(after.ids).count
        }
        let lost = Set(model.cards.keys).subtracting(found.keys)
        let extra = Set(found.keys).subtracting(model.cards.keys)
        if !lost.isEmpty {
            Issue.record("round \(round): cards reported as added or kept are missing: \(lost.sorted())")
            tally.lost += lost.count
        }
        if !extra.isEmpty {
            Issue.record("round \(round): cards in the file that no success accounts for: \(extra.sorted())")
            tally.falseSuccesses += extra.count
        }
        let archived = Dictionary(uniqueKeysWithValues: after.kanban.archive.map { ($0.item.id.rawValue, $0.item.title) })
        if archived != model.archived {
            Issue.record("round \(round): the archive is \(archived), expected \(model.archived)")
            tally.lost += Set(model.archived.keys).subtracting(archived.keys).count
        }
        let labels = Dictionary(uniqueKeysWithValues: after.kanban.boards.flatMap { $0.items.map { ($0.id.rawValue, $0.labels) } })
        for (id, card) in model.cards {
            if let label = card.label, labels[id]?.contains(label) != true {
                Issue.record("round \(round): card \(id) lost the label \(label) an edit gave it")
                tally.lost += 1
            }
            guard let actual = found[id] else { continue }
            if actual.title != card.title || !card.boards.contains(actual.board) {
                Issue.record(
                    "round \(round): card \(id) is \(actual), expected \(card.title) on one of \(card.boards)"
                )
                tally.falseSuccesses += 1
            }
            model.cards[id]?.boards = [actual.board]
        }
        let fileBoards = Dictionary(uniqueKeysWithValues: after.kanban.boards.map { ($0.title, $0.limit) })
        expectEqual(fileBoards, model.boards, "round \(round): boards and limits")
        model.boards = fileBoards
        expectEqual(after.kanban.boards.first { $0.title == Self.gate }?.items.count, gateCount + slots)
        // Cards nobody moved keep their order on their board.
        for board in after.kanban.boards {
            let was = before.kanban.boards.first { $0.title == board.title }?.items.map(\.id.rawValue) ?? []
            let kept = board.items.map(\.id.rawValue).filter { mustStay.contains($0) && was.contains($0) }
            expectTrue(
                kept == was.filter { mustStay.contains($0) },
                "round \(round): order of untouched cards on \(board.title)")
        }
        expectTrue(
            try sandbox.entries() == [".kanban.json.history", ".kanban.json.lock", "kanban.json"],
            "round \(round): no temporary file is left")
    }

    // MARK: - An adversary deleting and replacing the lock file

    static let adversaryWriters = Reliability.size("KANBAN_ADVERSARY_WRITERS", default: 40)
    static let adversaryRounds = Reliability.size("KANBAN_ADVERSARY_ROUNDS", default: 1)

    /// `git clean -X` (the lock file is in .gitignore), an editor's or a person's tidy-up:
    /// while many writers run, another process deletes the lock file and puts new ones in
    /// its place as fast as it can. No change may be lost, doubled or half made, no failed
    /// command's change may show, and readers must always see a whole file.
    func writersLoseNothingWhileTheLockFileIsDeletedAndReplaced() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.succeed(["init", "-q"])
        try FileManager.default.createDirectory(atPath: sandbox.path("adversary"), withIntermediateDirectories: false)
        let adversary = try SpawnedProcess.start(
            "/bin/sh",
            [
                "-c",
                """
                n=0; trap 'echo $n > adversary/count; exit 0' TERM
                while :; do
                    rm -f .kanban.json.lock; n=$((n+1))
                    : > adversary/lock && mv -f adversary/lock .kanban.json.lock; n=$((n+1))
                done
                """,
            ], environment: ["PATH": "/usr/bin:/bin"], directory: sandbox.path)
        var tally = Tally()
        var model: [String: String] = [:]  // id -> title of every card a success put in the file
        var failedTitles: Set<String> = []
        var reads = 0
        var badReads = 0
        var kanbanFileWaits = 0
        var generator = TestRandom(2026, "writersLoseNothingWhileTheLockFileIsDeletedAndReplaced")
        let start = DispatchTime.now()
        for round in 0..<Self.adversaryRounds {
            let n = Self.adversaryWriters
            let seedCount = max(1, n / 5)
            let seeds = try added(
                try sandbox.succeed(
                    ["add", "--json"], stdin: Array((0..<seedCount).map { "r\(round) seed \($0)\n" }.joined().utf8),
                    environment: Self.environment))
            for seed in seeds { model[seed.id] = seed.title }
            // Two racing removes per seed (exactly one may succeed), and adds for the rest.
            var jobs: [(arguments: [String], title: String?, removes: String?)] = []
            for seed in seeds { jobs += [(["remove", seed.id], nil, seed.id), (["remove", seed.id], nil, seed.id)] }
            for k in 0..<max(1, n - jobs.count) {
                let title = "r\(round) card \(k)"
                jobs.append((["add", title], title, nil))
            }
            jobs.shuffle(using: &generator)
            // The rare case, on purpose: one add holds both locks, stopped, while the others
            // start; the adversary gives some of them a new lock file, and those must wait on
            // the kanban file itself. The holder goes on once one does.
            let holding = jobs.firstIndex { $0.title != nil }!
            jobs.swapAt(0, holding)
            let waits = LockWaits()
            defer { waits.remove() }
            var running: [(job: (arguments: [String], title: String?, removes: String?), process: SpawnedProcess)] = []
            for job in jobs {
                let stop = running.isEmpty ? ["KANBAN_TEST_STOP_AT": "locked"] : [:]
                let process = try sandbox.start(
                    job.arguments + ["--json"],
                    environment: Self.environment.merging(waits.environment) { $1 }.merging(stop) { $1 })
                if running.isEmpty {
                    try require(
                        try process.waitUntilStopped(timeout: 30), "the holder did not stop; the tests need a debug build")
                }
                running.append((job, process))
            }
            try waits.waitUntilWaiting(running.dropFirst().map(\.process), for: "kanban file", timeout: 120)
            running[0].process.kill(SIGCONT)
            let readers = try (0..<max(1, n / 20)).map { _ in
                try sandbox.start(["list", "--json"], environment: Self.environment)
            }
            // Meanwhile, read the file as any reader does, without a lock: always a whole kanban.
            var results: [ProcessResult?] = Array(repeating: nil, count: running.count)
            let deadline = DispatchTime.now().uptimeNanoseconds + 300_000_000_000
            while results.contains(where: { $0 == nil }) && DispatchTime.now().uptimeNanoseconds < deadline {
                let bytes = (try? sandbox.bytes()) ?? []
                reads += 1
                if bytes.isEmpty || (try? CheckedFile.check(bytes).get()) == nil {
                    badReads += 1
                    Issue.record("round \(round): a reader saw \(bytes.isEmpty ? "an empty" : "a broken") file")
                }
                for index in running.indices where results[index] == nil {
                    results[index] = try running[index].process.poll()
                }
                usleep(2_000)
            }
            for reader in readers {
                let listed = try reader.wait(timeout: 60)
                tally.readers += 1
                if listed.status != 0 || (try? BoardColumn.parse(listed.stdout)) == nil {
                    Issue.record("round \(round): a list failed or printed a broken document: \(listed)")
                    tally.unexpected += 1
                }
            }
            var removals: [String: Int] = [:]
            for (index, (job, process)) in running.enumerated() {
                tally.processes += 1
                let result = try results[index] ?? process.wait(timeout: 60)
                if let id = job.removes {
                    if result.status == 0 {
                        removals[id, default: 0] += 1
                        tally.succeeded += 1
                    } else if (try? expectJSONError(result, exit: 1, code: "not_found")) != nil {
                        tally.refusedAsExpected += 1
                    } else {
                        Issue.record("round \(round): \(job.arguments): \(result)")
                        tally.unexpected += 1
                    }
                    continue
                }
                guard result.status == 0, let card = try? added(result.out).first else {
                    // A failure is allowed (none is expected with this wait), a change it did not report is not.
                    Issue.record("round \(round): \(job.arguments) failed: \(result)")
                    tally.unexpected += 1
                    failedTitles.insert(job.title!)
                    continue
                }
                tally.succeeded += 1
                model[card.id] = card.title
            }
            for seed in seeds {
                let wins = removals[seed.id, default: 0]
                if wins != 1 {
                    Issue.record("round \(round): \(wins) of the two removes of \(seed.id) succeeded; exactly one must")
                    tally.falseSuccesses += max(0, wins - 1)
                    tally.unexpected += 1
                }
                model[seed.id] = nil
            }

            // The file, against every success and failure.
            let file = try checked(try sandbox.bytes(), "after adversary round \(round)")
            let items = file.kanban.boards.flatMap(\.items)
            let counts = Dictionary(items.map { ($0.id.rawValue, 1) }, uniquingKeysWith: +)
            for (id, title) in model {
                switch counts[id, default: 0] {
                case 0:
                    Issue.record("round \(round): \(id) '\(title)' was reported done and is missing")
                    tally.lost += 1
                case 1: break
                default:
                    Issue.record("round \(round): \(id) is in the file \(counts[id]!) times")
                    tally.duplicated += 1
                }
            }
            for item in items where model[item.id.rawValue] == nil || failedTitles.contains(item.title) {
                Issue.record(
                    "round \(round): \(item.id) '\(item.title)' is in the file, but no success accounts for it")
                tally.falseSuccesses += 1
            }
            expectTrue(try sandbox.temporaryFiles().isEmpty, "round \(round): no temporary file is left")
            kanbanFileWaits += waits.announced.filter { $0 == "kanban file" }.count
        }
        adversary.kill(SIGTERM)
        _ = try adversary.wait(timeout: 30)
        let lockChanges =
            (try? String(contentsOfFile: sandbox.path("adversary/count"), encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        let losses = tally.lost + tally.duplicated + tally.falseSuccesses
        Reliability.record(
            "adversary",
            [
                "writers": Self.adversaryWriters, "rounds": Self.adversaryRounds, "launched": tally.processes,
                "succeeded": tally.succeeded, "refused_as_expected": tally.refusedAsExpected,
                "readers": tally.readers, "reads": reads, "bad_reads": badReads, "lock_changes": lockChanges,
                "lost": tally.lost, "duplicated": tally.duplicated, "false_successes": tally.falseSuccesses,
                "unexpected_exits": tally.unexpected, "losses": losses, "kanban_file_waits": kanbanFileWaits,
                "seconds": Reliability.seconds(since: start),
            ])
        expectTrue(losses == 0 && tally.unexpected == 0 && badReads == 0, "seed \(generator.seed)")
        expectTrue(lockChanges > 0, "the adversary ran")
        expectTrue(kanbanFileWaits >= Self.adversaryRounds, "writers with a new lock file waited on the kanban file")
    }

    // MARK: - A lock held past the wait

    /// Undo and redo among writers (SPEC §9): whatever order they run in, the file holds
    /// exactly the cards whose adds the history says are not taken back. The history keeps
    /// only its last 100 to 224 entries: a card whose add was pruned from it must still be
    /// there unless an undo reported taking it out.
    func undoAndRedoAmongWritersLoseNothingThatWasNotUndone() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.succeed(["init", "-q", "--boards", "Todo"])
        let writers = max(4, Self.processes / 2)
        var undos = 0
        var redos = 0
        var cards: [String: String] = [:]  // title -> id
        var takenOut: Set<String> = []  // ids an undo or a redo reported removing
        for round in 0..<Self.rounds {
            var started: [(kind: String, SpawnedProcess)] = []
            for k in 0..<writers {
                started.append(
                    ("add", try sandbox.start(["add", "r\(round) card \(k)", "--json"], environment: Self.environment)))
                if k % 4 == 1 { started.append(("undo", try sandbox.start(["undo", "--json"], environment: Self.environment))) }
                if k % 8 == 3 { started.append(("redo", try sandbox.start(["redo", "--json"], environment: Self.environment))) }
            }
            for (kind, process) in started {
                let result = try process.wait(timeout: 180)
                // An undo that runs before any change finds no history yet.
                let beforeAnyChange = kind != "add" && result.status == 65 && result.err.contains("no_history")
                expectTrue(result.status == 0 || beforeAnyChange, "\(kind): \(result)")
                guard result.status == 0 else { continue }
                if kind == "add", let card = try added(result.out).first { cards[card.title] = card.id }
                if kind != "add" {
                    let report = try jsonObject(result.out)
                    if report["changed"] as? Bool == true { kind == "undo" ? (undos += 1) : (redos += 1) }
                    for item in report["items"] as? [[String: Any]] ?? [] where item["to"] is NSNull {
                        if let id = item["id"] as? String { takenOut.insert(id) }
                    }
                }
            }
        }
        let log = try require(
            try JSONSerialization.jsonObject(with: Data(try sandbox.succeed("log", "--json").utf8)) as? [[String: Any]])
        var inLog: [String: Bool] = [:]  // id -> taken back, for the adds the history still holds
        for entry in log where (entry["command"] as? [String])?.first == "add" {
            if let title = (entry["command"] as? [String])?.dropFirst().first, let id = cards[title] {
                inLog[id] = entry["undone"] as? Bool == true
            }
        }
        let present = Set(try sandbox.boards().allIDs)
        expectEqual(cards.count, writers * Self.rounds, "every add succeeded")
        expectTrue(!inLog.isEmpty, "the history holds adds to check")
        var lost = 0
        var wrong = 0
        for id in cards.values {
            if let undone = inLog[id] {
                if present.contains(id) == undone { wrong += 1 }
                if !undone && !present.contains(id) { lost += 1 }
            } else if !present.contains(id) && !takenOut.contains(id) {
                lost += 1  // pruned from the history, and no undo took it out
            }
        }
        expectEqual(wrong, 0, "the file holds exactly the adds the history says are not taken back")
        expectEqual(lost, 0, "no card is missing that no undo took out")
        expectTrue(present.isSubset(of: Set(cards.values)), "no card the adds did not make")
        expectTrue(undos > 0, "some undos took something back (\(undos))")
        Reliability.record(
            "undo", ["writers": cards.count, "undos": undos, "redos": redos, "checked_in_log": inLog.count, "lost": lost])
    }

    func writersFacingALockHeldPastTheirWaitExit75AndWriteNothing() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.initSample()
        let boards = try sandbox.boards()
        let analytics = try boards.id(of: "Analytics")

        // Another kanban process holds the lock: stopped inside its write, between flushing the
        // temporary file and renaming it.
        let holder = try sandbox.start(
            ["add", "held card", "--to", "Done"], environment: ["KANBAN_TEST_STOP_BEFORE_COMMIT": "1"])
        try require(
            try holder.waitUntilStopped(timeout: 30), "the holder did not stop; the tests need a debug build")
        let before = try sandbox.snapshot()
        let temporary = try require(try sandbox.temporaryFiles().first, "the holder's temporary file")
        let pending = try sandbox.bytes(temporary)

        let commands: [[String]] = [
            ["add", "x"], ["add", "--to", "Todo"], ["move", analytics, "--to", "Done"],
            ["copy", analytics, "--to", "Todo"],
            ["remove", analytics], ["rename", analytics, "y"], ["board", "add", "New"],
            ["board", "rename", "Done", "Closed"],
            ["board", "move", "Done", "--at", "0"], ["board", "limit", "Todo", "9"],
            ["board", "remove", "Done", "--force"],
            ["move", "Todo:0", "Todo:1", "--to", "In Progress", "--at", "1"],
        ]
        let waiters = try commands.map {
            try sandbox.start(
                $0 + ["--json"], stdin: Array("from stdin\n".utf8),
                environment: ["KANBAN_LOCK_TIMEOUT": "0.5"])
        }
        let reader = try sandbox.start(["list", "--json"])
        for (command, waiter) in zip(commands, waiters) {
            let result = try waiter.wait(timeout: 30)
            let message = try expectJSONError(result, exit: 75, code: "locked")
            expectTrue(message.contains("0.5"), "says how long it waited: \(message) (\(command))")
        }
        // Readers take no lock: they see the file as it was.
        let listed = try reader.wait(timeout: 30)
        try require(listed.status == 0, "\(listed)")
        try expectEqual(BoardColumn.parse(listed.stdout), boards)
        try expectEqual(sandbox.snapshot(), before, "nothing was written")
        expectTrue(
            try sandbox.temporaryFiles() == [temporary] && sandbox.bytes(temporary) == pending,
            "no waiter touched the holder's temporary file")

        // Writers that wait long enough get in once the holder finishes, one after the other.
        // The holder goes on once all five wait for it.
        let waits = (0..<5).map { _ in LockWaits() }
        defer { for file in waits { file.remove() } }
        let patient = try (0..<5).map {
            try sandbox.start(
                ["add", "patient \($0)", "--to", "Todo", "-q"],
                environment: waits[$0].environment.merging(["KANBAN_LOCK_TIMEOUT": "60"]) { $1 })
        }
        for (file, process) in zip(waits, patient) { try file.waitUntilWaiting(process) }
        holder.kill(SIGCONT)
        try expectEqual(holder.wait(timeout: 30).status, 0)
        for process in patient { expectTrue(try process.wait(timeout: 60).status == 0) }
        let final = try sandbox.boards()
        expectEqual(final[2].items.last, "held card")
        expectEqual(Set(final[0].items.suffix(5)), Set((0..<5).map { "patient \($0)" }))
        expectEqual(final.allIDs.count, boards.allIDs.count + 6)
        try expectEqual(sandbox.entries(), [".kanban.json.history", ".kanban.json.lock", "kanban.json"])
    }

    // MARK: - Helpers

    private func checked(_ bytes: [UInt8], _ context: String) throws -> CheckedFile {
        switch CheckedFile.check(bytes) {
        case .success(let file): return file
        case .failure(let failure):
            let kept = Reliability.keep(bytes, "stress")
            throw SpawnError("\(context): \(failure) (file kept at \(kept))")
        }
    }

    private func board(_ slot: Any?) -> String? {
        (slot as? [String: Any])?["board"] as? String
    }

    /// The cards an `add --json` report says it added: id, title and board.
    private func added(_ output: String) throws -> [(id: String, title: String, board: String)] {
        let report = try jsonObject(output)
        let items = try require(report["items"] as? [[String: Any]], "\(output)")
        return try items.map { item in
            (
                try require(item["id"] as? String), try require(item["title"] as? String),
                try require(board(item["to"]))
            )
        }
    }
}
