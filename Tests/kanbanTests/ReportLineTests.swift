import KanbanCore
import Testing

@testable import kanban

// A report's lines, byte for byte, in every form an item's line takes (README: Output):
// what a batch of thousands of lines prints and records, built without interpolating each.

private let id = ItemID("k3f9")!

private func change(_ from: Slot?, _ to: Slot?, copyOf: ItemID? = nil, edits: [FieldEdit] = [],
    archive: ArchiveMove? = nil, title: String = "Analytics", previousTitle: String? = nil) -> ItemChange {
    let retitled = previousTitle.map { [FieldEdit(field: "title", from: .line($0), to: .line(title))] } ?? []
    return ItemChange(
        id: id, title: title, from: from, to: to, copyOf: copyOf, edits: retitled + edits, archive: archive)
}

private let todo = Slot(board: "Todo", index: 3)
private let done = Slot(board: "Don\u{7}e", index: 12)
private let edits = [
    FieldEdit(field: "title", from: .line("a"), to: .line("b\tc")),
    FieldEdit(field: "labels", from: .words(["bug", "p1"]), to: .words(["p1", "p\u{1B}2", "x"])),
    FieldEdit(field: "labels", from: .words([]), to: .words([])),
    FieldEdit(field: "due", from: .day(nil), to: .day(Day(daysSinceEpoch: 20_790))),
    FieldEdit(field: "due", from: .day(Day(daysSinceEpoch: 20_790)), to: .day(nil)),
    FieldEdit(field: "note", from: .text("old"), to: .text(String(repeating: "n\n", count: 30))),
    FieldEdit(field: "note", from: .text("old"), to: .text(nil)),
    FieldEdit(field: "note", from: .text(nil), to: .text("new")),
]

/// Every form of an item's line, in order.
private let items: [(command: String, item: ItemChange)] = [
    ("add", change(nil, todo)),
    ("add", change(nil, todo, title: "t\u{202E}x 'q'")),
    ("restore", change(nil, todo, archive: .restored)),
    ("remove", change(todo, nil)),
    ("archive", change(todo, nil, archive: .archived)),
    ("copy", change(todo, done, copyOf: ItemID("a1b2")!)),
    ("rename", change(todo, todo, previousTitle: "Old")),
    ("rename", change(todo, todo)),
    ("edit", change(todo, todo, edits: edits)),
    ("edit", change(todo, todo)),
    ("move", change(todo, todo)),
    ("move", change(todo, done)),
    ("move", change(todo, done, edits: [edits[3]])),
    ("import", change(nil, nil, archive: .archived)),
    ("import", change(nil, nil, archive: .restored)),
    ("import", change(nil, nil, edits: [edits[0]])),
]

/// The lines of ``items``, as kanban printed them before they were built as bytes.
private let expected: [String: [String]] = [
    "dryRun false color false": [
        "added k3f9 'Analytics' at Todo:3",
        "added k3f9 't\\u{202E}x 'q'' at Todo:3",
        "restored k3f9 'Analytics' to Todo:3",
        "removed k3f9 'Analytics' from Todo:3",
        "archived k3f9 'Analytics' from Todo:3",
        "copied a1b2 'Analytics' from Todo:3 as k3f9 at Don\\u{7}e:12",
        "renamed k3f9 'Old' to 'Analytics'",
        "k3f9 is already titled 'Analytics'",
        "edited k3f9 'Analytics' (title 'a' -> 'b\\tc', labels +p\\u{1B}2 +x -bug"
            + ", due 2026-12-03, due none"
            + ", note 'old' -> '"
            + "n\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\n\u{2026}'"
            + ", note cleared (was 'old'), note 'new')",
        "k3f9 'Analytics' is unchanged",
        "k3f9 'Analytics' is already at Todo:3",
        "moved k3f9 'Analytics': Todo:3 -> Don\\u{7}e:12",
        "moved k3f9 'Analytics': Todo:3 -> Don\\u{7}e:12 (due 2026-12-03)",
        "added k3f9 'Analytics' to the archive",
        "removed k3f9 'Analytics' from the archive",
        "edited k3f9 'Analytics' in the archive (title 'a' -> 'b\\tc')",
    ],
    "dryRun false color true": [
        "added \u{1B}[2mk3f9\u{1B}[0m 'Analytics' at Todo:3",
        "added \u{1B}[2mk3f9\u{1B}[0m 't\\u{202E}x 'q'' at Todo:3",
        "restored \u{1B}[2mk3f9\u{1B}[0m 'Analytics' to Todo:3",
        "removed \u{1B}[2mk3f9\u{1B}[0m 'Analytics' from Todo:3",
        "archived \u{1B}[2mk3f9\u{1B}[0m 'Analytics' from Todo:3",
        "copied a1b2 'Analytics' from Todo:3 as \u{1B}[2mk3f9\u{1B}[0m at Don\\u{7}e:12",
        "renamed \u{1B}[2mk3f9\u{1B}[0m 'Old' to 'Analytics'",
        "\u{1B}[2mk3f9\u{1B}[0m is already titled 'Analytics'",
        "edited \u{1B}[2mk3f9\u{1B}[0m 'Analytics' (title 'a' -> 'b\\tc', labels +p\\u{1B}2 +x -bug"
            + ", due 2026-12-03, due none"
            + ", note 'old' -> '"
            + "n\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\n\u{2026}'"
            + ", note cleared (was 'old'), note 'new')",
        "\u{1B}[2mk3f9\u{1B}[0m 'Analytics' is unchanged",
        "\u{1B}[2mk3f9\u{1B}[0m 'Analytics' is already at Todo:3",
        "moved \u{1B}[2mk3f9\u{1B}[0m 'Analytics': Todo:3 -> Don\\u{7}e:12",
        "moved \u{1B}[2mk3f9\u{1B}[0m 'Analytics': Todo:3 -> Don\\u{7}e:12 (due 2026-12-03)",
        "added \u{1B}[2mk3f9\u{1B}[0m 'Analytics' to the archive",
        "removed \u{1B}[2mk3f9\u{1B}[0m 'Analytics' from the archive",
        "edited \u{1B}[2mk3f9\u{1B}[0m 'Analytics' in the archive (title 'a' -> 'b\\tc')",
    ],
    "dryRun true color false": [
        "would add k3f9 'Analytics' at Todo:3",
        "would add k3f9 't\\u{202E}x 'q'' at Todo:3",
        "would restore k3f9 'Analytics' to Todo:3",
        "would remove k3f9 'Analytics' from Todo:3",
        "would archive k3f9 'Analytics' from Todo:3",
        "would copy a1b2 'Analytics' from Todo:3 as k3f9 at Don\\u{7}e:12",
        "would rename k3f9 'Old' to 'Analytics'",
        "k3f9 is already titled 'Analytics'",
        "would edit k3f9 'Analytics' (title 'a' -> 'b\\tc', labels +p\\u{1B}2 +x -bug"
            + ", due 2026-12-03, due none"
            + ", note 'old' -> '"
            + "n\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\n\u{2026}'"
            + ", note cleared (was 'old'), note 'new')",
        "k3f9 'Analytics' is unchanged",
        "k3f9 'Analytics' is already at Todo:3",
        "would move k3f9 'Analytics': Todo:3 -> Don\\u{7}e:12",
        "would move k3f9 'Analytics': Todo:3 -> Don\\u{7}e:12 (due 2026-12-03)",
        "would add k3f9 'Analytics' to the archive",
        "would remove k3f9 'Analytics' from the archive",
        "would edit k3f9 'Analytics' in the archive (title 'a' -> 'b\\tc')",
    ],
    "dryRun true color true": [
        "would add \u{1B}[2mk3f9\u{1B}[0m 'Analytics' at Todo:3",
        "would add \u{1B}[2mk3f9\u{1B}[0m 't\\u{202E}x 'q'' at Todo:3",
        "would restore \u{1B}[2mk3f9\u{1B}[0m 'Analytics' to Todo:3",
        "would remove \u{1B}[2mk3f9\u{1B}[0m 'Analytics' from Todo:3",
        "would archive \u{1B}[2mk3f9\u{1B}[0m 'Analytics' from Todo:3",
        "would copy a1b2 'Analytics' from Todo:3 as \u{1B}[2mk3f9\u{1B}[0m at Don\\u{7}e:12",
        "would rename \u{1B}[2mk3f9\u{1B}[0m 'Old' to 'Analytics'",
        "\u{1B}[2mk3f9\u{1B}[0m is already titled 'Analytics'",
        "would edit \u{1B}[2mk3f9\u{1B}[0m 'Analytics' (title 'a' -> 'b\\tc', labels +p\\u{1B}2 +x -bug"
            + ", due 2026-12-03, due none"
            + ", note 'old' -> '"
            + "n\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\nn\\n\u{2026}'"
            + ", note cleared (was 'old'), note 'new')",
        "\u{1B}[2mk3f9\u{1B}[0m 'Analytics' is unchanged",
        "\u{1B}[2mk3f9\u{1B}[0m 'Analytics' is already at Todo:3",
        "would move \u{1B}[2mk3f9\u{1B}[0m 'Analytics': Todo:3 -> Don\\u{7}e:12",
        "would move \u{1B}[2mk3f9\u{1B}[0m 'Analytics': Todo:3 -> Don\\u{7}e:12 (due 2026-12-03)",
        "would add \u{1B}[2mk3f9\u{1B}[0m 'Analytics' to the archive",
        "would remove \u{1B}[2mk3f9\u{1B}[0m 'Analytics' from the archive",
        "would edit \u{1B}[2mk3f9\u{1B}[0m 'Analytics' in the archive (title 'a' -> 'b\\tc')",
    ],
]

@Suite struct ReportLines {
    @Test(arguments: [false, true])
    func everyFormOfAnItemsLineIsAsBefore(dryRun: Bool) throws {
        for color in [false, true] {
            let lines = items.map { command, item in
                Report(command: command, change: Change(items: [item]), dryRun: dryRun, file: "k.json")
                    .text(style: Style(enabled: color))
            }
            let want = try require(expected["dryRun \(dryRun) color \(color)"])
            expectEqual(lines.count, want.count)
            for (line, wanted) in zip(lines, want) { expectEqual(line, wanted + "\n") }
        }
        // The history keeps the lines as a report without color says them.
        let history = Report(command: "edit", change: Change(items: items.map(\.item)), dryRun: false, file: "")
        expectEqual(history.historyLines.count, items.count)
        expectEqual(history.historyLines[0], "added k3f9 'Analytics' at Todo:3")
        expectEqual(
            history.historyLines.joined(separator: "\n") + "\n",
            history.text(style: Style(enabled: false)))
    }
}
