// Recorded conflicts in the file (README: Working together, "What conflicts, and how to
// resolve it"): read and written with the strictness of the rest, byte-stable, and settled
// by `resolve` and by edits.

import Testing

@testable import KanbanCore

/// Random recorded conflicts on some of `fields` (none about half the time), with values of
/// each field's type, absent ones among them.
func sampleConflicts(_ fields: [ConflictField], using generator: inout SeededGenerator) -> Conflicts {
    guard Bool.random(using: &generator) else { return Conflicts() }
    let texts = ["Old title", "Their \"title\" ✓", "line one\n\ttwo", "2026-11-23", "x"]
    func value(_ field: ConflictField, mayBeAbsent: Bool) -> FieldValue? {
        if mayBeAbsent && Int.random(in: 0..<4, using: &generator) == 0 { return nil }
        switch field.kind {
        case .line: return .line(texts.randomElement(using: &generator)!)
        case .text: return .text(texts.randomElement(using: &generator)!)
        case .day: return .day(Day(daysSinceEpoch: Int.random(in: -800_000...2_900_000, using: &generator)))
        case .number: return .number(Int.random(in: 0...9, using: &generator))
        case .role: return .role(BoardRole.allCases.randomElement(using: &generator)!)
        case .words, .time, .trail: Issue.record("no field of kind \(field.kind) holds a conflict"); return nil
        }
    }
    var conflicts = Conflicts()
    for field in fields where Bool.random(using: &generator) {
        conflicts[field] = RecordedConflict(
            field: field, base: value(field, mayBeAbsent: true), theirs: value(field, mayBeAbsent: field != .title))
    }
    if conflicts.isEmpty {
        conflicts[fields[0]] = RecordedConflict(field: fields[0], base: nil, theirs: value(fields[0], mayBeAbsent: false))
    }
    return conflicts
}

extension ConflictField {
    // The fields tests name; the product finds them through the card's and board's fields.
    static let due = ConflictField(rawValue: "due")!
    static let limit = ConflictField(rawValue: "limit")!
    static let role = ConflictField(rawValue: "role")!
    static let note = ConflictField(rawValue: "note")!
    static let title = ConflictField(rawValue: "title")!
}

@Suite struct RecordedConflictsInTheFile {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aDocumentWithConflictsReadsAndWritesBackByteForByte
        case aFileWithoutConflictsIsWrittenAsBefore
        case fieldsInAnotherOrderAreReadAndWrittenInTheirOrder
        case aVersion1FileRefusesAConflict
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aDocumentWithConflictsReadsAndWritesBackByteForByte:
            try aDocumentWithConflictsReadsAndWritesBackByteForByte()
        case .aFileWithoutConflictsIsWrittenAsBefore: try aFileWithoutConflictsIsWrittenAsBefore()
        case .fieldsInAnotherOrderAreReadAndWrittenInTheirOrder: try fieldsInAnotherOrderAreReadAndWrittenInTheirOrder()
        case .aVersion1FileRefusesAConflict: aVersion1FileRefusesAConflict()
        }
    }

    static let document = """
        {
          "version": 2,
          "boards": [
            {
              "id": "b1",
              "title": "Todo",
              "limit": 3,
              "conflict": {"limit": {"base": null, "theirs": 5}, "title": {"base": "To do", "theirs": "Backlog"}},
              "items": [
                {"id": "a1", "title": "Analytics", "created": "2026-11-23T10:04:05Z", "conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}}
              ]
            }
          ],
          "archive": [
            {"id": "a2", "title": "Old", "note": "x", "conflict": {"note": {"base": null, "theirs": "y"}}, "board": "b1", "archived": "2026-11-23T10:04:05Z"}
          ]
        }

        """

    func aDocumentWithConflictsReadsAndWritesBackByteForByte() throws {
        let (kanban, _) = try KanbanFile.decode(Array(Self.document.utf8))
        expectEqual(String(decoding: KanbanFile.encode(kanban), as: UTF8.self), Self.document)
        let card = kanban.boards[0].items[0]
        expectEqual(card.conflicts.fields, [.due, .note, .title])
        expectEqual(card.conflicts[.title], RecordedConflict(field: .title, base: .line("A"), theirs: .line("Metrics")))
        expectEqual(card.conflicts[.due]?.theirs, .day(Day(iso: "2026-12-24")!))
        expectEqual(kanban.boards[0].conflicts[.limit], RecordedConflict(field: .limit, base: nil, theirs: .number(5)))
        expectEqual(kanban.archive[0].item.conflicts.fields, [.note])
    }

    func aFileWithoutConflictsIsWrittenAsBefore() throws {
        let plain = """
            {
              "version": 2,
              "boards": [
                {
                  "id": "b1",
                  "title": "Todo",
                  "limit": null,
                  "items": [
                    {"id": "a1", "title": "Analytics", "note": "n"}
                  ]
                }
              ],
              "archive": []
            }

            """
        expectTrue(String(decoding: KanbanFile.encode(try KanbanFile.decode(Array(plain.utf8)).kanban), as: UTF8.self) == plain)
    }

    @Test(arguments: [
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"titel": {"base": "A", "theirs": "M"}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"limit": {"base": 1, "theirs": 2}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"title": {"base": "A", "theirs": null}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"title": {"base": "A", "theirs": 3}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"title": {"theirs": "M", "theirs": "A"}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"title": {"base": "A"}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"title": {"base": "A", "theirs": "M", "ours": "B"}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"title": {"base": "A", "theirs": "M"}, "title": {"base": null, "theirs": "N"}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"due": {"base": null, "theirs": "soon"}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"note": {"base": null, "theirs": "bell\u0007"}}"#),
        (#""conflict": {"due": {"base": null, "theirs": "2026-12-24"}, "note": {"base": "n", "theirs": null}, "title": {"base": "A", "theirs": "Metrics"}}"#, #""conflict": {"title": {"base": "A", "theirs": "  "}}"#),
        (#""conflict": {"limit": {"base": null, "theirs": 5}, "#, #""conflict": {"limit": {"base": null, "theirs": -1}, "#),
        (#""conflict": {"limit": {"base": null, "theirs": 5}, "#, #""conflict": {"limit": {"base": null, "theirs": "5"}, "#),
        (#""conflict": {"limit": {"base": null, "theirs": 5}, "#, #""conflict": {"due": {"base": null, "theirs": null}, "#),
        (#""conflict": {"note": {"base": null, "theirs": "y"}}"#, #""conflict": {"note": {"base": null, "theirs": "y"}}, "conflict": {"note": {"base": null, "theirs": "z"}}"#),
    ])
    func aBadConflictIsACorruptFileNamingItsLine(good: String, bad: String) throws {
        let text = Self.document.replacing(good, with: bad)
        expectTrue(text != Self.document)
        let line = try require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(bad) }) + 1
        #expect {
            try KanbanFile.decode(Array(text.utf8))
        } throws: { error in
            guard case KanbanError.corruptFile(let reported, let message) = error else { return false }
            return reported == line && !message.isEmpty
        }
    }

    func fieldsInAnotherOrderAreReadAndWrittenInTheirOrder() throws {
        let text = Self.document.replacing(
            #""conflict": {"limit": {"base": null, "theirs": 5}, "title": {"base": "To do", "theirs": "Backlog"}}"#,
            with: #""conflict": {"title": {"theirs": "Backlog", "base": "To do"}, "limit": {"theirs": 5, "base": null}}"#)
        expectTrue(text != Self.document)
        expectTrue(String(decoding: KanbanFile.encode(try KanbanFile.decode(Array(text.utf8)).kanban), as: UTF8.self) == Self.document)
    }

    func aVersion1FileRefusesAConflict() {
        let text = #"{"version": 1, "boards": [{"title": "T", "items": [{"id": "a1", "title": "x", "conflict": {"title": {"base": null, "theirs": "y"}}}]}]}"#
        #expect(throws: KanbanError.self) { try KanbanFile.decode(Array(text.utf8)) }
    }
}

@Suite struct RecordingAndSettlingConflicts {
    /// A base with one card and one board, and two sides that change the same fields.
    private func sides() throws -> (Kanban, Kanban, Kanban) {
        let base = try KanbanFile.decode(
            Array(
                #"{"version": 2, "boards": [{"id": "b1", "title": "Todo", "limit": 3, "items": [{"id": "a1", "title": "Analytics", "due": "2026-12-01"}]}], "archive": []}"#
                    .utf8)
        ).kanban
        var ours = base
        ours.boards[0].items[0].title = "Analytics dashboard"
        ours.boards[0].items[0].due = nil
        ours.boards[0].limit = 4
        var theirs = base
        theirs.boards[0].items[0].title = "Metrics"
        theirs.boards[0].items[0].due = Day(iso: "2026-12-24")
        theirs.boards[0].limit = 5
        return (base, ours, theirs)
    }

    @Test func aMergeKeepsOursAndRecordsBaseAndTheirs() throws {
        let (base, ours, theirs) = try sides()
        let result = Kanban.merge(base: base, ours: ours, theirs: theirs)
        let card = result.kanban.boards[0].items[0]
        expectTrue(card.title == "Analytics dashboard" && card.due == nil)
        expectTrue(
            card.conflicts
                == Conflicts([
                    RecordedConflict(field: .title, base: .line("Analytics"), theirs: .line("Metrics")),
                    RecordedConflict(field: .due, base: .day(Day(iso: "2026-12-01")!), theirs: .day(Day(iso: "2026-12-24")!)),
                ]))
        expectTrue(result.kanban.boards[0].conflicts[.limit] == RecordedConflict(field: .limit, base: .number(3), theirs: .number(5)))
        expectEqual(result.conflicts.count, 3)
        // Committed as it is and read back, nothing of theirs is lost.
        let reread = try KanbanFile.decode(KanbanFile.encode(result.kanban)).kanban
        expectEqual(reread, result.kanban)
    }

    @Test func resolveTakesTheirsOrKeepsOursAndEditsSettleAField() throws {
        let (base, ours, theirs) = try sides()
        let merged = Kanban.merge(base: base, ours: ours, theirs: theirs).kanban
        var taken = merged
        let change = try taken.resolveConflicts(of: .card(Location(board: 0, index: 0)), taking: .theirs, fields: [.title])
        expectTrue(taken.boards[0].items[0].title == "Metrics" && taken.boards[0].items[0].conflicts.fields == [.due])
        expectTrue(change.items.first?.conflictChange?.resolved == [.title] && change.isEffective)
        var kept = merged
        let keptChange = try kept.resolveConflicts(of: .card(Location(board: 0, index: 0)), taking: .ours)
        expectTrue(kept.boards[0].items[0].title == "Analytics dashboard" && kept.boards[0].items[0].conflicts.isEmpty)
        expectTrue(keptChange.isEffective, "dropping the record alone is a change to write")
        #expect(throws: KanbanError.self) {
            try kept.resolveConflicts(of: .card(Location(board: 0, index: 0)), taking: .ours)
        }
        var board = merged
        try board.resolveConflicts(of: .board(0), taking: .theirs)
        expectTrue(board.boards[0].limit == 5 && board.boards[0].conflicts.isEmpty)
        var edited = merged
        try edited.edit(Location(board: 0, index: 0), CardEdits(due: .some(nil)))
        expectTrue(edited.boards[0].items[0].conflicts.fields == [.title])
        try edited.setLimit(of: 0, to: 7)
        expectTrue(edited.boards[0].conflicts.isEmpty)
        // Settled on one side, untouched on the other: settled after the merge.
        let result = Kanban.merge(base: merged, ours: merged, theirs: taken).kanban
        expectTrue(result.boards[0].items[0].title == "Metrics" && result.boards[0].items[0].conflicts.fields == [.due])
    }
}
