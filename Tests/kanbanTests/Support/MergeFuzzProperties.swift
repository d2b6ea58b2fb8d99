// What must hold for any three documents given to the merge: no crash, no hang, and when
// all three are kanban files, a valid result that loses no card, the same every time, and
// SPEC §8's identities byte for byte.
//
// One definition, used twice: the libFuzzer target Tests/Fuzz/Merge.swift compiles this
// file into the kanban module (with -D FUZZING) and traps on a violation; the merge corpus
// test runs it over the committed seeds and every input a fuzzer once found. Pure Swift:
// no Foundation, no Testing, so that it builds under the sanitizers as it is.

import KanbanCore

public enum MergeFuzzProperties {
    /// The three documents of a fuzzer input: base, ours and theirs, separated by NUL bytes
    /// (which no JSON text holds). Missing ones are empty.
    public static func documents(_ bytes: [UInt8]) -> [[UInt8]] {
        var parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
        while parts.count < 3 { parts.append([]) }
        return parts
    }

    /// Merges the three documents of `bytes` and returns what is wrong, or nil.
    public static func violation(_ bytes: [UInt8]) -> String? {
        let parts = documents(bytes)
        var versions: [(kanban: Kanban, format: KanbanFile.Format)] = []
        for (index, part) in parts.enumerated() {
            // As `kanban merge` does: an empty base is a kanban with no boards.
            if index == 0 && part.allSatisfy({ $0 == 0x20 || $0 == 0x0A }) {
                versions.append((Kanban.empty, .current))
            } else if let read = try? KanbanFile.decode(part) {
                versions.append(read)
            } else {
                return nil  // not a kanban: `kanban merge` exits 65 before merging
            }
        }
        let (o, a, b) = (versions[0], versions[1], versions[2])
        let formats = MergeFormats(base: o.format, ours: a.format, theirs: b.format)
        let result = Kanban.merge(base: o.kanban, ours: a.kanban, theirs: b.kanban, formats: formats)
        if let problem = invalid(result.kanban) { return problem }
        let again = Kanban.merge(base: o.kanban, ours: a.kanban, theirs: b.kanban, formats: formats)
        if KanbanFile.encode(again.kanban) != KanbanFile.encode(result.kanban) || again.notes != result.notes
            || again.conflicts != result.conflicts
        {
            return "the same inputs merged twice differ"
        }
        if let problem = deferredMergeViolation(parts, formats, result) { return problem }
        if let lost = lostCard(o.kanban, a.kanban, b.kanban, result) { return lost }
        // Rule 3, where boards are matched by id alone (a base in the current format).
        if o.format == .current {
            for side in [a, b] {
                let expected = KanbanFile.encode(side.kanban)
                let pairs = [
                    (side.kanban, o.kanban, side.format, o.format), (o.kanban, side.kanban, o.format, side.format),
                    (side.kanban, side.kanban, side.format, side.format),
                ]
                for (ours, theirs, oursFormat, theirsFormat) in pairs {
                    let merged = Kanban.merge(
                        base: o.kanban, ours: ours, theirs: theirs,
                        formats: MergeFormats(base: .current, ours: oursFormat, theirs: theirsFormat))
                    if KanbanFile.encode(merged.kanban) != expected { return "an identity of rule 3 does not hold" }
                }
            }
        }
        return nil
    }

    /// Whether merging the documents read as `kanban merge` reads them (their cards keeping
    /// their lines, deferred: README, Performance) gives other than `result`.
    private static func deferredMergeViolation(
        _ parts: [[UInt8]], _ formats: MergeFormats, _ result: MergeResult
    ) -> String? {
        var versions: [Kanban] = []
        for (index, part) in parts.enumerated() {
            if index == 0 && part.allSatisfy({ $0 == 0x20 || $0 == 0x0A }) {
                versions.append(Kanban.empty)
            } else if let read = try? KanbanFile.decode(part, keepingLines: true, deferringCards: true) {
                versions.append(read.kanban)
            } else {
                return "reading with deferred cards failed where reading did not"
            }
        }
        let deferred = Kanban.merge(base: versions[0], ours: versions[1], theirs: versions[2], formats: formats)
        if KanbanFile.encode(deferred.kanban) != KanbanFile.encode(result.kanban) || deferred.notes != result.notes
            || deferred.conflicts != result.conflicts
        {
            return "merging deferred cards gives another merge"
        }
        return nil
    }

    /// Why `kanban` is not a valid kanban that reads back from its own bytes, or nil.
    static func invalid(_ kanban: Kanban) -> String? {
        do {
            try kanban.validate()
        } catch {
            return "the merged kanban is invalid: \(error)"
        }
        let bytes = KanbanFile.encode(kanban)
        guard let read = try? KanbanFile.decode(bytes), read.kanban == kanban, read.format == .current else {
            return "the merged kanban does not read back from its bytes"
        }
        return nil
    }

    /// A card either side has that the result lacks, though it is not one side removed and
    /// the other left where and as the base had it (rule 2); nil when none is lost.
    static func lostCard(_ base: Kanban, _ ours: Kanban, _ theirs: Kanban, _ result: MergeResult) -> String? {
        var present = Set(result.kanban.boards.flatMap { $0.items.map(\.id) } + result.kanban.archive.map(\.item.id))
        for note in result.notes {
            if case .newID(_, let was, let now, false) = note, present.contains(now) { present.insert(was) }
        }
        let baseCards = cards(base)
        let oursCards = cards(ours)
        let theirsCards = cards(theirs)
        for (side, other) in [(oursCards, theirsCards), (theirsCards, oursCards)] {
            for (id, card) in side where !present.contains(id) {
                guard let original = baseCards[id], other[id] == nil, original.item == card.item else {
                    return "card \(id) (\(card.item.title)) was lost"
                }
            }
        }
        return nil
    }

    /// Every card of a kanban with the board it is on (nil: the archive).
    private static func cards(_ kanban: Kanban) -> [ItemID: (item: Item, board: BoardID?)] {
        var cards: [ItemID: (item: Item, board: BoardID?)] = [:]
        for board in kanban.boards {
            for item in board.items where cards[item.id] == nil { cards[item.id] = (item, board.id) }
        }
        for archived in kanban.archive where cards[archived.item.id] == nil {
            cards[archived.item.id] = (archived.item, nil)
        }
        return cards
    }
}
