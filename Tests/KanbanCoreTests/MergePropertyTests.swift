import Testing

@testable import KanbanCore

/// SPEC §8's rules on generated histories: a random base, and two copies of it changed by
/// random commands (ours at even seconds, theirs at odd ones, so no two moves tie unless a
/// test wants them to). `KANBAN_MERGE_CASES` sets the cases per test (default below).
@Suite("Merge: the rules of SPEC §8 on generated histories")
struct MergePropertyTests {
    typealias F = MergeFixture

    static let shards = Array(0..<8)
    static let casesPerShard = CaseCount.size(default: 40)

    /// One generated case: base, ours, theirs.
    static func history(_ generator: inout HistoryGenerator) -> (Kanban, Kanban, Kanban) {
        var base = generator.base()
        sprinkleConflicts(&base, &generator)
        var ours = generator.history(
            from: base, count: generator.int(0...10), start: 1000, seed: generator.random.next()
        ).kanban
        sprinkleConflicts(&ours, &generator)
        var theirs = ours
        if !generator.chance(10) {
            theirs =
                generator.history(
                    from: base, count: generator.int(0...10), start: 1001, seed: generator.random.next()
                ).kanban
            sprinkleConflicts(&theirs, &generator)
        }
        return (base, ours, theirs)
    }

    /// Records conflicts on some cards and boards (README: Working together) and settles
    /// some of those recorded, keeping ours or taking theirs, as `resolve` does.
    static func sprinkleConflicts(_ kanban: inout Kanban, _ generator: inout HistoryGenerator) {
        func touch<Holder>(
            _ holder: inout Holder, _ fields: [ConflictField], _ conflicts: WritableKeyPath<Holder, Conflicts>,
            settle: (inout Holder, RecordedConflict) -> Void
        ) {
            guard generator.chance(15) else { return }
            if let entry = holder[keyPath: conflicts].entries.first, generator.chance(50) {
                if generator.chance(50) { settle(&holder, entry) }
                holder[keyPath: conflicts][entry.field] = nil
            } else {
                holder[keyPath: conflicts] = sampleConflicts(fields, using: &generator.random)
            }
        }
        for board in kanban.boards.indices {
            touch(&kanban.boards[board], ConflictField.board, \.conflicts) { board, entry in
                if entry.field == .limit { board.setConflictValue(entry.theirs, of: .limit) }
            }
            for index in kanban.boards[board].items.indices {
                touch(&kanban.boards[board].items[index], ConflictField.card, \.conflicts) { item, entry in
                    item.setConflictValue(entry.theirs, of: entry.field)
                }
            }
        }
    }

    private static func describe(_ base: Kanban, _ ours: Kanban, _ theirs: Kanban) -> String {
        "base:\n\(F.text(base))ours:\n\(F.text(ours))theirs:\n\(F.text(theirs))"
    }

    /// Rules 1, 3: valid, deterministic, and the identities byte for byte.
    @Test(arguments: shards)
    func identitiesValidityAndDeterminism(shard: Int) throws {
        var generator = HistoryGenerator(seed: UInt64(1000 + shard))
        for _ in 0..<Self.casesPerShard {
            let (o, a, b) = Self.history(&generator)
            let context = Comment(rawValue: Self.describe(o, a, b))
            for side in [a, b] {
                let left = Kanban.merge(base: o, ours: side, theirs: o)
                let right = Kanban.merge(base: o, ours: o, theirs: side)
                let same = Kanban.merge(base: o, ours: side, theirs: side)
                expectEqual(F.text(left.kanban), F.text(side), context)
                expectEqual(F.text(right.kanban), F.text(side), context)
                expectEqual(F.text(same.kanban), F.text(side), context)
                expectTrue(left.conflicts.isEmpty && right.conflicts.isEmpty && same.conflicts.isEmpty, context)
            }
            let result = Kanban.merge(base: o, ours: a, theirs: b)
            #expect(throws: Never.self, context) { try result.kanban.validate() }
            let bytes = KanbanFile.encode(result.kanban)
            let reread = try KanbanFile.decode(bytes)
            expectTrue(reread.kanban == result.kanban && KanbanFile.encode(reread.kanban) == bytes, context)
            // The same inputs, as other values read from the same bytes: the same bytes out.
            let again = Kanban.merge(
                base: try KanbanFile.decode(KanbanFile.encode(o)).kanban,
                ours: try KanbanFile.decode(KanbanFile.encode(a)).kanban,
                theirs: try KanbanFile.decode(KanbanFile.encode(b)).kanban)
            expectTrue(KanbanFile.encode(again.kanban) == bytes && again.notes == result.notes, context)
            // Read as `kanban merge` reads them, the cards deferred in their lines (README:
            // Performance): the same merge.
            func deferred(_ kanban: Kanban) throws -> Kanban {
                try KanbanFile.decode(KanbanFile.encode(kanban), keepingLines: true, deferringCards: true).kanban
            }
            let deferredBase = try deferred(o)
            let lazy = Kanban.merge(base: deferredBase, ours: try deferred(a), theirs: try deferred(b))
            expectTrue(
                KanbanFile.encode(lazy.kanban) == bytes && lazy.notes == result.notes
                    && lazy.conflicts == result.conflicts, "deferred: \(context)")
            // Ours and theirs read with the base's lines at hand, as `kanban merge` reads them.
            func like(_ kanban: Kanban) throws -> Kanban {
                try KanbanFile.decode(
                    KanbanFile.encode(kanban), keepingLines: true, deferringCards: true, linesLike: deferredBase
                ).kanban
            }
            let shared = Kanban.merge(base: deferredBase, ours: try like(a), theirs: try like(b))
            expectTrue(
                KanbanFile.encode(shared.kanban) == bytes && shared.notes == result.notes
                    && shared.conflicts == result.conflicts, "base's lines at hand: \(context)")
        }
        CaseCount.record("identities, validity, determinism (shard \(shard))", Self.casesPerShard)
    }

    /// The merge's shortcuts (README: Performance) for cards both sides left alone and cards
    /// changed on one side give what deciding every card field by field gives, down to the
    /// bytes, notes and conflicts; in memory and read as `kanban merge` reads files. Each
    /// way is taken several times per shard, or the comparison would prove nothing.
    @Test(arguments: shards)
    func shortcutsGiveWhatTheGeneralWayGives(shard: Int) throws {
        let seed = UInt64(7000 + shard)
        print("merge shortcuts: seed \(seed)")
        var generator = HistoryGenerator(seed: seed)
        var taken = MergePaths()
        func deferred(_ kanban: Kanban) throws -> Kanban {
            try KanbanFile.decode(KanbanFile.encode(kanban), keepingLines: true, deferringCards: true).kanban
        }
        for _ in 0..<Self.casesPerShard {
            let (o, a, b) = Self.history(&generator)
            let context = Comment(rawValue: "seed \(seed)\n" + Self.describe(o, a, b))
            for (base, ours, theirs) in [(o, a, b), (try deferred(o), try deferred(a), try deferred(b))] {
                var fast = MergePaths()
                var general = MergePaths()
                let quick = Kanban.merge(
                    base: base, ours: ours, theirs: theirs, formats: MergeFormats(), fastPaths: true, paths: &fast)
                let slow = Kanban.merge(
                    base: base, ours: ours, theirs: theirs, formats: MergeFormats(), fastPaths: false, paths: &general)
                expectEqual(KanbanFile.encode(quick.kanban), KanbanFile.encode(slow.kanban), context)
                expectTrue(quick.kanban == slow.kanban, context)
                expectEqual(quick.notes, slow.notes, context)
                expectEqual(quick.conflicts, slow.conflicts, context)
                expectEqual(general.unchanged + general.oneSided, 0, context)
                taken.unchanged += fast.unchanged
                taken.oneSided += fast.oneSided
                taken.combined += fast.combined
            }
        }
        let enough = max(1, Self.casesPerShard / 4)
        expectTrue(
            taken.unchanged >= enough && taken.oneSided >= enough && taken.combined >= enough,
            "seed \(seed): too few cards took each way to compare them: \(taken)")
        print("merge shortcuts: seed \(seed): \(taken)")
    }

    /// Rules 2, 4–9 against the naive reference; rule 2's count directly too.
    @Test(arguments: shards)
    func mergesFollowTheReference(shard: Int) throws {
        var generator = HistoryGenerator(seed: UInt64(2000 + shard))
        var withTrail = 0
        for _ in 0..<Self.casesPerShard {
            let (o, a, b) = Self.history(&generator)
            let result = Kanban.merge(base: o, ours: a, theirs: b)
            let problems = MergeReference.violations(base: o, ours: a, theirs: b, result: result)
            expectTrue(
                problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n") + "\n" + Self.describe(o, a, b)))
            // Rule 2: every card either side has is there once, unless one side removed it
            // and the other has it exactly as the base did.
            let merged = F.ids(result.kanban)
            expectEqual(Set(merged).count, merged.count)
            let baseCards = MergeReference.cards(o)
            let present = Set(merged)
            for (side, other) in [(a, b), (b, a)] {
                let otherCards = MergeReference.cards(other)
                for (id, card) in MergeReference.cards(side) where !present.contains(id) {
                    let removedThere = baseCards[id] != nil && otherCards[id] == nil
                    expectTrue(removedThere && baseCards[id]?.item == card.item, "card \(card.item.title) was lost")
                }
            }
            // Trails (README: Cards with content): a merged card's holds every entry of both
            // sides' cards, oldest first, each once.
            let (oursCards, theirsCards) = (MergeReference.cards(a), MergeReference.cards(b))
            for (id, card) in MergeReference.cards(result.kanban) {
                let trail = card.item.trail
                expectTrue(TrailEntry.areOrdered(trail), "\(card.item.title)'s trail is in order: \(trail)")
                let sides = (oursCards[id]?.item.trail ?? []) + (theirsCards[id]?.item.trail ?? [])
                expectTrue(
                    Set(sides).isSubset(of: trail), "\(card.item.title)'s trail lost an entry: \(trail), sides \(sides)"
                )
                if !trail.isEmpty { withTrail += 1 }
            }
        }
        expectTrue(withTrail > 0, "the generated cards have trails to merge")
        CaseCount.record("reference rules 2 and 4-9 (shard \(shard))", Self.casesPerShard)
    }

    /// Recorded conflicts across a sequence of merges: a record either side added or changed
    /// is in the result (never lost), and one left alone by both stays, merge after merge.
    @Test(arguments: shards)
    func recordedConflictsAreNeverLostAcrossMerges(shard: Int) throws {
        var generator = HistoryGenerator(seed: UInt64(5000 + shard))
        var checked = 0
        for _ in 0..<Self.casesPerShard {
            var (o, a, b) = Self.history(&generator)
            for round in 0..<3 {
                let result = Kanban.merge(base: o, ours: a, theirs: b).kanban
                let merged = MergeReference.cards(result)
                let baseCards = MergeReference.cards(o)
                let context = Comment(rawValue: "round \(round)\n" + Self.describe(o, a, b))
                for side in [a, b] {
                    for (id, card) in MergeReference.cards(side) {
                        guard let kept = merged[id] else { continue }
                        for entry in card.item.conflicts where baseCards[id]?.item.conflicts[entry.field] != entry {
                            checked += 1
                            expectTrue(
                                kept.item.conflicts[entry.field] != nil,
                                Comment(rawValue: "\(id) lost its \(entry.field) conflict\n\(context)"))
                        }
                    }
                    for board in side.boards {
                        guard let kept = result.boards.first(where: { $0.id == board.id }) else { continue }
                        let baseBoard = o.boards.first { $0.id == board.id }
                        for entry in board.conflicts where baseBoard?.conflicts[entry.field] != entry {
                            expectTrue(
                                kept.conflicts[entry.field] != nil,
                                Comment(rawValue: "board \(board.id) lost a conflict\n\(context)"))
                        }
                    }
                }
                // The next round starts from this result, as the next merge of a branch does.
                o = result
                a =
                    generator.history(
                        from: result, count: generator.int(0...5), start: 9000 + Int64(round) * 100,
                        seed: generator.random.next()
                    ).kanban
                Self.sprinkleConflicts(&a, &generator)
                b =
                    generator.history(
                        from: result, count: generator.int(0...5), start: 9001 + Int64(round) * 100,
                        seed: generator.random.next()
                    ).kanban
                Self.sprinkleConflicts(&b, &generator)
            }
        }
        expectTrue(checked > 0, "some cases carry conflicts")
        CaseCount.record("recorded conflicts never lost (shard \(shard))", Self.casesPerShard)
    }

    /// A conflict settled on one side and left alone on the other is settled after the
    /// merge, with the value taken: resolve, then merge with the untouched side.
    @Test(arguments: shards)
    func aConflictResolvedOnOneSideStaysResolved(shard: Int) throws {
        var generator = HistoryGenerator(seed: UInt64(6000 + shard))
        var resolvedCount = 0
        for _ in 0..<Self.casesPerShard {
            let (o, a, b) = Self.history(&generator)
            let merged = Kanban.merge(base: o, ours: a, theirs: b).kanban
            var resolved = merged
            let side: MergeSide = generator.chance(50) ? .ours : .theirs
            for (board, column) in merged.boards.enumerated() {
                for (index, item) in column.items.enumerated() where !item.conflicts.isEmpty {
                    try resolved.resolveConflicts(of: .card(Location(board: board, index: index)), taking: side)
                }
            }
            let other = generator.history(
                from: merged, count: generator.int(0...6), start: 20000, seed: generator.random.next()
            ).kanban
            let context = Comment(rawValue: Self.describe(merged, resolved, other))
            for (ours, theirs) in [(resolved, other), (other, resolved)] {
                let result = MergeReference.cards(Kanban.merge(base: merged, ours: ours, theirs: theirs).kanban)
                let before = MergeReference.cards(merged)
                let after = MergeReference.cards(resolved)
                for (id, untouched) in MergeReference.cards(other) {
                    guard let was = before[id], !was.item.conflicts.isEmpty, untouched.item == was.item,
                        let settled = after[id], settled.item.conflicts.isEmpty, let card = result[id]
                    else { continue }
                    resolvedCount += 1
                    expectTrue(card.item.conflicts.isEmpty, context)
                    expectTrue(
                        card.item.title == settled.item.title && card.item.note == settled.item.note
                            && card.item.due == settled.item.due, context)
                }
            }
        }
        expectTrue(resolvedCount > 0)
        CaseCount.record("resolve then merge (shard \(shard))", Self.casesPerShard)
    }

    /// Rule 1's symmetry: swapping the sides changes only what ties give to ours.
    @Test(arguments: shards)
    func swappingTheSidesChangesOnlyTies(shard: Int) throws {
        var generator = HistoryGenerator(seed: UInt64(3000 + shard))
        for _ in 0..<Self.casesPerShard {
            let (o, a, b) = Self.history(&generator)
            let forward = Kanban.merge(base: o, ours: a, theirs: b)
            let backward = Kanban.merge(base: o, ours: b, theirs: a)
            let problems = MergeReference.swapViolations(forward, backward)
            expectTrue(
                problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n") + "\n" + Self.describe(o, a, b)))
        }
        CaseCount.record("swap symmetry (shard \(shard))", Self.casesPerShard)
    }

    /// Rule 4: changes to different cards and boards combine. Each side works on its own
    /// boards and their cards; the merge must then equal running theirs' commands after
    /// ours', byte for byte.
    @Test(arguments: shards)
    func disjointChangesCombineAsIfMadeOneAfterTheOther(shard: Int) throws {
        var generator = HistoryGenerator(seed: UInt64(4000 + shard))
        var ran = 0
        for _ in 0..<Self.casesPerShard {
            let o = generator.base()
            guard o.boards.count >= 2 else { continue }
            let split = generator.int(1...o.boards.count - 1)
            let oursScope = HistoryGenerator.Scope(boards: Set(o.boards.prefix(split).map(\.id)), prefix: "A ")
            let theirsScope = HistoryGenerator.Scope(boards: Set(o.boards.dropFirst(split).map(\.id)), prefix: "B ")
            let (a, oursOperations) = Self.scopedHistory(&generator, o, oursScope, start: 1000, seed: 7)
            let (b, theirsOperations) = Self.scopedHistory(&generator, o, theirsScope, start: 5000, seed: 8)
            var sequential = a
            var ids = SeededGenerator(seed: 8)
            for (step, operation) in theirsOperations.enumerated() {
                try sequential.apply(operation, at: F.clock(5000 + 2 * Int64(step)), using: &ids)
            }
            let result = Kanban.merge(base: o, ours: a, theirs: b)
            // The archive is shared by both scopes: both sides add to it and take from it, so
            // its order follows rule 5 (after each card's predecessor on its side), not the
            // order in which the commands ran one after the other. Its cards must be the same.
            var merged = result.kanban
            merged.archive.sort { $0.item.id < $1.item.id }
            sequential.archive.sort { $0.item.id < $1.item.id }
            expectTrue(
                F.text(merged) == F.text(sequential),
                Comment(rawValue: "ours: \(oursOperations)\ntheirs: \(theirsOperations)\n" + Self.describe(o, a, b)))
            expectTrue(result.conflicts.isEmpty)
            ran += 1
        }
        CaseCount.record("disjoint changes combine (shard \(shard))", ran)
    }

    private static func scopedHistory(
        _ generator: inout HistoryGenerator, _ base: Kanban, _ scope: HistoryGenerator.Scope, start: Int64, seed: UInt64
    ) -> (Kanban, [Operation]) {
        var kanban = base
        var ids = SeededGenerator(seed: seed)
        var applied: [Operation] = []
        for _ in 0..<generator.int(1...10) {
            let operation = generator.operation(on: kanban, only: scope)
            // A refused command changes nothing, not even the generator of ids.
            var attempt = kanban
            var attemptIDs = ids
            let moment = F.clock(start + 2 * Int64(applied.count))
            if (try? attempt.apply(operation, at: moment, using: &attemptIDs)) != nil {
                (kanban, ids) = (attempt, attemptIDs)
                applied.append(operation)
            }
        }
        return (kanban, applied)
    }
}
