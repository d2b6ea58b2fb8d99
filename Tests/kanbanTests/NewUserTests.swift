import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

/// What a new user tripped on: refusals that should say what happened and what to do
/// (README: Exit codes; Cards with content).
@Suite("What a new user tripped on")
struct NewUserTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case anArchivedCardIsNamedAsArchivedWithTheWayBack
        case movingAnArchivedCardSuggestsRestore
        case aFileInADirectoryThatDoesNotExistSaysToCreateTheDirectory
        case archivingABoardWhereNothingQualifiesSaysSo
        case aUsageLineHasNoTrailingSpace
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .anArchivedCardIsNamedAsArchivedWithTheWayBack: try anArchivedCardIsNamedAsArchivedWithTheWayBack()
        case .movingAnArchivedCardSuggestsRestore: try movingAnArchivedCardSuggestsRestore()
        case .aFileInADirectoryThatDoesNotExistSaysToCreateTheDirectory:
            try aFileInADirectoryThatDoesNotExistSaysToCreateTheDirectory()
        case .archivingABoardWhereNothingQualifiesSaysSo: try archivingABoardWhereNothingQualifiesSaysSo()
        case .aUsageLineHasNoTrailingSpace: try aUsageLineHasNoTrailingSpace()
        }
    }

    /// The sample boards, with ids from `seed`, and Done's first card ('System
    /// Architecture') archived; that card's id.
    static func sampleWithArchivedCard(seed: UInt64) throws -> (Kanban, ItemID) {
        var generator = SplitMix(seed: seed)
        var kanban = Kanban.sample(now: Timestamp(seconds: 0), using: &generator)
        let id = kanban.boards[2].items[0].id
        _ = try kanban.archive([Location(board: 2, index: 0)], now: Timestamp(seconds: 60))
        return (kanban, id)
    }

    func anArchivedCardIsNamedAsArchivedWithTheWayBack() throws {
        let (kanban, id) = try Self.sampleWithArchivedCard(seed: 18)
        let prefix = String(id.rawValue.prefix(3))
        // The seed gives the archived card an id whose start no card on a board shares.
        expectTrue(kanban.boards.allSatisfy { $0.items.allSatisfy { !$0.id.rawValue.hasPrefix(prefix) } })
        for reference in [id.rawValue, "System Architecture", prefix] {
            #expect(throws: KanbanError.itemArchived(
                reference: reference,
                card: Candidate(id: id, title: "System Architecture", board: "Done", index: nil))) {
                try kanban.locate(reference)
            }
        }
        // Restore still finds it, as before.
        expectTrue(try kanban.locateAnywhere([id.rawValue]) == [.archive(0)])
        #expect(throws: KanbanError.itemNotFound(reference: "zzzzzz", suggestions: [])) { try kanban.locate("zzzzzz") }
    }

    func movingAnArchivedCardSuggestsRestore() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("archive", "Analytics", "--quiet")
        let result = try sandbox.run("mv", "Analytics", "Todo")
        expectTrue(result.status == 1, "\(result)")
        expectTrue(result.err.contains("'Analytics' is archived"), "\(result)")
        expectTrue(result.err.contains("kanban restore "), "\(result)")
        let json = try sandbox.run("mv", "Analytics", "Todo", "--json")
        try expectJSONError(json, exit: 1, code: "not_found")
    }

    func aFileInADirectoryThatDoesNotExistSaysToCreateTheDirectory() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let result = try sandbox.run("list", "-f", sandbox.path("nope/k.json"))
        expectTrue(result.status == 66, "\(result)")
        expectTrue(result.err.contains("does not exist; create it first (mkdir -p"), "\(result)")
        // The advice works as given: the directory, then init.
        expectTrue(mkdir(sandbox.path("nope"), 0o755) == 0)
        try sandbox.succeed("init", "--quiet", "-f", sandbox.path("nope/k.json"))
    }

    func archivingABoardWhereNothingQualifiesSaysSo() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        let old = try sandbox.run("archive", "--from", "Done", "--older-than", "1d")
        expectTrue(old.status == 0, "\(old)")
        expectTrue(old.err.contains("nothing to archive: no card entered 'Done' more than 1d ago"), "\(old)")
        expectTrue(try sandbox.snapshot() == before)
        try sandbox.succeed("archive", "--from", "Done", "--quiet")
        let empty = try sandbox.run("archive", "--from", "Done")
        expectTrue(empty.err.contains("nothing to archive: 'Done' has no cards"), "\(empty)")
    }

    func aUsageLineHasNoTrailingSpace() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let help = try sandbox.succeed("help", "ui")
        expectTrue(help.hasPrefix("Usage: kanban ui\n"), "\(help)")
    }
}

@Suite("Completion describes an archived card one way")
struct ArchivedCompletionTests {
    @Test func anArchivedCardsTitleAndIdAreBothDescribedAsArchived() throws {
        let (kanban, id) = try NewUserTests.sampleWithArchivedCard(seed: 22)
        let candidates = Completer.archivedCards(kanban, describing: true)
        let byID = try require(candidates.first { $0.value == id.rawValue })
        let byTitle = try require(candidates.first { $0.value == "System Architecture" })
        expectTrue(byID.description == "System Architecture (archived from Done)")
        expectTrue(byTitle.description == "\(id.rawValue) (archived from Done)")
    }
}

@Suite("A filtered view counts what it shows")
struct FilteredViewTests {
    @Test func columnsCountTheShownCardsAndLeaveEmptyBoardsBodiesOut() throws {
        var generator = SplitMix(seed: 4)
        let kanban = Kanban.sample(now: Timestamp(seconds: 0), using: &generator)
        let boards = [
            BoardText(FilteredBoard(board: kanban.boards[0], indices: [1, 3]), today: Day(year: 2026, month: 11, day: 23)!),
            BoardText(FilteredBoard(board: kanban.boards[1], indices: []), today: Day(year: 2026, month: 11, day: 23)!),
        ]
        let view = BoardView.render(boards, on: Terminal(isTerminal: true, width: 100, color: false))
        let rows = view.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        expectTrue(rows[0].hasPrefix("Todo (2 of 4)"), "\(view)")
        expectTrue(rows[0].contains("In Progress (0 of 3)"), "\(view)")
        expectTrue(!view.contains("(empty)"), "\(view)")
        // The header and its rule, then the two cards that matched, each a line here.
        expectTrue(rows.filter { !$0.isEmpty }.count == 4, "\(view)")
        // Unfiltered, an empty board still says so.
        let plain = BoardView.render([BoardText(Board(id: kanban.boards[2].id, title: "Empty"))], on: Terminal(
            isTerminal: true, width: 100, color: false))
        expectTrue(plain.contains("Empty (0)") && plain.contains("(empty)"), "\(plain)")
    }
}

@Suite("Reports show what a note became")
struct NoteReportTests {
    @Test func aNoteChangeShowsTheOldAndNewTextShortenedOnOneLine() {
        let long = String(repeating: "x", count: 45)
        expectTrue(Report.describe([.note(from: "old", to: "new\nline")]) == #"note 'old' -> 'new\nline'"#)
        expectTrue(Report.describe([.note(from: nil, to: "first")]) == "note 'first'")
        expectTrue(Report.describe([.note(from: "gone", to: nil)]) == "note cleared (was 'gone')")
        expectTrue(Report.describe([.note(from: long, to: "y")]) == "note '\(String(repeating: "x", count: 40))…' -> 'y'")
    }

    @Test func diffShowsTheNotesTextNotJustThatItChanged() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("edit", "Analytics", "--note", "first draft", "-q")
        try FileManager.default.copyItem(atPath: sandbox.file, toPath: sandbox.path("old.json"))
        try sandbox.succeed("edit", "Analytics", "--note", "final text", "-q")
        let diff = try sandbox.succeed("diff", "old.json", "kanban.json")
        expectTrue(diff.contains("(note 'first draft' -> 'final text')"), "\(diff)")
    }
}

@Suite("The editor's card text")
struct CardFormTests {
    static let item = Item(id: ItemID("a1b2c3")!, title: "Fix login", labels: try! Labels(validating: ["db", "p1"]))

    @Test func aFormWhoseTitleLineWasDeletedIsRefusedNotTakenAsTheTitle() {
        let text = CardForm.text(of: Self.item)
        let withoutTitle = String(text.drop { $0 != "\n" }.dropFirst())
        expectTrue(withoutTitle.hasPrefix("labels: db p1\n"))
        #expect(throws: KanbanError.invalidValue(
            kind: .form, value: "labels: db p1",
            reason: "the first line is the card's title, and it is missing; put the title back on the first line"
        )) { try CardForm.edits(from: withoutTitle, to: Self.item) }
        let noLabels = String(withoutTitle.drop { $0 != "\n" }.dropFirst())
        #expect(throws: KanbanError.self) { try CardForm.edits(from: noLabels, to: Self.item) }
    }

    @Test func aTitleThatLooksLikeAFieldLineStaysEditable() throws {
        let odd = Item(id: ItemID("a1b2c3")!, title: "due: the report")
        let edits = try CardForm.edits(from: CardForm.text(of: odd) + "a note\n", to: odd)
        expectTrue(edits.title == nil)
        expectTrue(edits.note == .set(try Note.checked("a note")))
        // The usual form still works.
        let renamed = try CardForm.edits(from: "Fix the login\nlabels: db\ndue:\n\n", to: Self.item)
        expectTrue(renamed.title?.text == "Fix the login")
        expectTrue(renamed[words: "labels"].remove == ["p1"])
    }
}

@Suite("Outputs that are not the kanban being edited")
struct OutputLockTests {
    @Test func mergeToANewFileLeavesNoLockFileBesideIt() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        for name in ["base.json", "ours.json", "theirs.json"] {
            try FileManager.default.copyItem(atPath: sandbox.file, toPath: sandbox.path(name))
        }
        try sandbox.succeed("add", "ours only", "-f", "ours.json", "-q")
        try sandbox.succeed("merge", "base.json", "ours.json", "theirs.json", "-o", "merged.json")
        expectTrue(try sandbox.fileBoards("merged.json")[0].items.last == "ours only")
        let entries = try sandbox.entries()
        expectTrue(!entries.contains(".merged.json.lock"), "\(entries)")
        // Replacing it works as before.
        try sandbox.succeed("add", "theirs only", "-f", "theirs.json", "-q")
        try sandbox.succeed("merge", "base.json", "ours.json", "theirs.json", "-o", "merged.json")
        expectTrue(try sandbox.fileBoards("merged.json")[0].items.suffix(2) == ["ours only", "theirs only"])
        expectTrue(try sandbox.temporaryFiles(of: "merged.json").isEmpty)
    }
}

@Suite("An import names what it left out")
struct ImportLeftOutTests {
    @Test func theNoteAfterATrelloImportNamesCommentsAttachmentsAndMembers() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(
            """
            {"lists": [{"id": "l1", "name": "Doing"}],
             "cards": [{"id": "c1", "name": "Shipped", "idList": "l1", "due": "2026-11-20T12:00:00.000Z",
                        "dueComplete": true, "idMembers": ["m1"], "attachments": [{"id": "a"}]}],
             "actions": [{"type": "commentCard"}]}
            """, to: "trello.json")
        let result = try sandbox.run("init", "--import", "trello.json")
        expectTrue(result.status == 0, "\(result)")
        expectTrue(result.err.contains("not imported: 1 comment, 1 attachment, 1 card member"), "\(result)")
        // Done in Trello: not overdue here.
        expectTrue(try sandbox.succeed("list", "--overdue", "--tsv").isEmpty)
    }
}
