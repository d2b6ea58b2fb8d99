// A card's fields are merged, and their conflicts recorded, by their descriptors (README:
// Working together, "Where a field's rules live"): whatever the field, a change on both
// sides is merged by its policy, and a conflict it records survives the file.

import Testing

@testable import KanbanCore

@Suite("Each card field merges by its descriptor")
struct FieldDescriptorTests {
    static let card = Item(id: ItemID("a1b2c3")!, title: "Card", created: Timestamp(seconds: 1_000))

    /// Two different values of a kind, neither of them the card's.
    static func values(_ kind: FieldValue.Kind) -> (ours: FieldValue, theirs: FieldValue) {
        switch kind {
        case .line: (.line("Ours"), .line("Theirs"))
        case .text: (.text("ours\nnote"), .text("theirs"))
        case .words: (.words(["ours"]), .words(["theirs"]))
        case .day: (.day(Day(daysSinceEpoch: 20_500)), .day(Day(daysSinceEpoch: 20_600)))
        case .time: (.time(Timestamp(seconds: 2_000)), .time(Timestamp(seconds: 3_000)))
        case .number: (.number(3), .number(5))
        case .trail:
            (
                .trail([TrailEntry(board: BoardID("b1")!, time: Timestamp(seconds: 2_000))]),
                .trail([TrailEntry(board: BoardID("b2")!, time: Timestamp(seconds: 1_500))])
            )
        case .role: (.role(.active), .role(.done))
        }
    }

    static func kanban(_ item: Item) throws -> Kanban {
        try Kanban(boards: [Board(id: BoardID("b1")!, title: "Todo", items: [item])])
    }

    /// Whatever the field, a card that has it is written with it and read back the same, on
    /// every path the file's writer and reader take: the plain card line, the escaped one (a
    /// note, a title to escape) and the general one (a recorded conflict). A field the direct
    /// card line does not know would be dropped by it, or turn its fast paths off.
    @Test(arguments: CardField.all.map(\.name))
    func aFieldSurvivesTheFileOnEveryWritingPath(name: String) throws {
        expectTrue(schemaIsKnown, "the direct card line knows every key of the schema")
        let field = try require(CardField.all.first { $0.name == name })
        let value = Self.values(field.kind).ours
        let plain = Self.card
        var escaped = Self.card
        escaped.title = "A \"quoted\" title"
        var general = Self.card
        general.conflicts = Conflicts([RecordedConflict(field: .title, base: .line("Card"), theirs: .line("Other"))])
        for var card in [plain, escaped, general] {
            field.set(&card, value)
            let kanban = try Self.kanban(card)
            let bytes = KanbanFile.encode(kanban)
            expectTrue(String(decoding: bytes, as: UTF8.self).contains("\"\(name)\": "), "\(name) is written")
            let read = try KanbanFile.decode(bytes).kanban
            expectEqual(read, kanban, "\(name) reads back as written")
            expectEqual(field.value(read.boards[0].items[0]), value)
        }
    }

    @Test(arguments: CardField.all.map(\.name))
    func aFieldChangedOnBothSidesMergesByItsPolicy(name: String) throws {
        let field = try require(CardField.all.first { $0.name == name })
        let (a, b) = Self.values(field.kind)
        var ours = Self.card
        var theirs = Self.card
        field.set(&ours, a)
        field.set(&theirs, b)
        expectTrue(field.value(ours) == a && field.value(theirs) == b, "a descriptor sets what it reads")
        let result = Kanban.merge(base: try Self.kanban(Self.card), ours: try Self.kanban(ours), theirs: try Self.kanban(theirs))
        let merged = try require(result.kanban.boards.first?.items.first)
        switch field.merge {
        case .scalar:
            let conflict = try require(ConflictField(rawValue: name), "a scalar field can hold a conflict")
            expectEqual(conflict.kind, field.kind)
            expectEqual(result.conflicts.map(\.values), [.field(conflict, ours: a, theirs: b)])
            expectEqual(field.value(merged), a)
            expectTrue(merged.conflicts.entries == [RecordedConflict(field: conflict, base: field.value(Self.card), theirs: b)])
            // The record reads back from the file as it was written.
            let read = try KanbanFile.decode(KanbanFile.encode(result.kanban)).kanban
            expectEqual(read.boards[0].items[0].conflicts, merged.conflicts)
        case .set:
            expectTrue(result.conflicts.isEmpty && merged.conflicts.isEmpty)
            expectEqual(field.value(merged), .words(["ours", "theirs"]))
        case .union:
            expectTrue(result.conflicts.isEmpty && merged.conflicts.isEmpty)
            expectEqual(
                field.value(merged),
                .trail([
                    TrailEntry(board: BoardID("b2")!, time: Timestamp(seconds: 1_500)),
                    TrailEntry(board: BoardID("b1")!, time: Timestamp(seconds: 2_000)),
                ]))
        case .quiet, .place:
            // Created is picked quietly; where the card entered its board goes with its
            // place, which neither side moved: both keep ours.
            expectTrue(result.conflicts.isEmpty && merged.conflicts.isEmpty)
            expectEqual(field.value(merged), a)
        }
    }

    @Test func everyFieldThatCanHoldAConflictIsAScalarFieldOfACardOrABoard() {
        let scalars = (CardField.all.filter { $0.merge == .scalar }.map(\.name)
            + BoardField.all.filter { $0.merge == .scalar }.map(\.name))
        expectEqual(ConflictField.allCases.map(\.rawValue), Set(scalars).sorted())
        expectEqual(ConflictField.card.map(\.rawValue), ["due", "note", "title"])
        expectEqual(ConflictField.board.map(\.rawValue), ["limit", "role", "title"])
    }
}
