import Testing

@testable import KanbanCore

@Suite("Markdown boards")
struct MarkdownBoardTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case exportIsObsidianKanbansFormat
        case readingTheExportGivesBackTheBoardsAndCards
        case readsWhatTheObsidianPluginWrites
        case aStoredControlCharacterIsWrittenVisibly
        case aFileWithoutHeadingsIsNotABoard
        case invalidUTF8IsRefusedAtItsLine
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .exportIsObsidianKanbansFormat: try exportIsObsidianKanbansFormat()
        case .readingTheExportGivesBackTheBoardsAndCards: try readingTheExportGivesBackTheBoardsAndCards()
        case .readsWhatTheObsidianPluginWrites: try readsWhatTheObsidianPluginWrites()
        case .aStoredControlCharacterIsWrittenVisibly: try aStoredControlCharacterIsWrittenVisibly()
        case .aFileWithoutHeadingsIsNotABoard: try aFileWithoutHeadingsIsNotABoard()
        case .invalidUTF8IsRefusedAtItsLine: try invalidUTF8IsRefusedAtItsLine()
        }
    }

    static let day = Day(year: 2026, month: 12, day: 1)!

    /// Todo (a card with labels, a due date and a note; a plain one), Doing with a limit and
    /// no card, and an archived card.
    static func sample() throws -> Kanban {
        try Kanban(
            boards: [
                Board(
                    title: "Todo",
                    items: [
                        Item(
                            id: ItemID("k3f9p2")!, title: "Write docs", labels: ["docs", "p1"], due: day,
                            note: "First line\n\n- [ ] a step\n  indented"),
                        Item(id: ItemID("p2x1q7")!, title: "Ship it"),
                    ]),
                Board(title: "Doing", limit: 3),
            ],
            archive: [
                ArchivedItem(
                    item: Item(id: ItemID("q8w2e4")!, title: "Old"), board: boardID(for: "Todo"),
                    archived: Timestamp(seconds: 0))
            ])
    }

    func exportIsObsidianKanbansFormat() throws {
        let lines = [
            "---", "kanban-plugin: board", "---", "", "## Todo", "", "- [ ] Write docs #docs #p1 @{2026-12-01}",
            "    First line", "    ", "    - [ ] a step", "      indented", "- [ ] Ship it", "", "## Doing (3)", "", "",
            "***", "", "## Archive", "", "- [ ] Old", "",
        ]
        expectEqual(MarkdownBoard.export(try Self.sample()), lines.joined(separator: "\n"))
    }

    func readingTheExportGivesBackTheBoardsAndCards() throws {
        let document = try MarkdownBoard.read(Array(MarkdownBoard.export(try Self.sample()).utf8))
        expectEqual(document.boards.map(\.title.text), ["Todo", "Doing"])
        expectEqual(document.boards.map(\.limit), [nil, 3])
        let card = document.boards[0].cards[0]
        expectEqual(card.title.text, "Write docs")
        expectEqual(card.labels.names, ["docs", "p1"])
        expectEqual(card.due, Self.day)
        expectEqual(card.note, "First line\n\n- [ ] a step\n  indented")
        expectTrue(document.boards[0].cards[1] == CardContent(title: try Title("Ship it")))
        expectEqual(document.archive.map(\.card.title.text), ["Old"])
        expectTrue(document.archive[0].board == nil)
    }

    func readsWhatTheObsidianPluginWrites() throws {
        // Blank lines in the front matter, three blank lines between lanes, a completed lane,
        // a checked card, tags mid-title, a linked date, a block id, a card of several lines
        // in the older <br> form, notes indented by a tab, and the settings block.
        let text = """
            ---

            kanban-plugin: board

            ---

            ## Backlog

            - [ ] Fix the #bug in login @{2026-12-01}
            - [ ] Plan Q1 @[[2027-01-05]] ^abc123
            - [ ] Call Ana<br>about the contract<br>and the invoice
            \tfrom the tab-indented note



            ## Done (5)

            **Complete**
            - [x] Release 1.0 #release



            %% kanban:settings
            ```
            {"kanban-plugin":"board","list-collapse":[false,false]}
            ```
            %%
            """
        let document = try MarkdownBoard.read(Array(text.utf8))
        expectEqual(document.boards.map(\.title.text), ["Backlog", "Done"])
        expectEqual(document.boards[1].limit, 5)
        let cards = document.boards[0].cards
        expectEqual(cards[0].title.text, "Fix the in login")
        expectEqual(cards[0].labels.names, ["bug"])
        expectEqual(cards[0].due, Self.day)
        expectEqual(cards[1].title.text, "Plan Q1")
        expectEqual(cards[1].due, Day(year: 2027, month: 1, day: 5))
        expectEqual(cards[2].title.text, "Call Ana")
        expectEqual(cards[2].note, "about the contract\nand the invoice\nfrom the tab-indented note")
        expectEqual(document.boards[1].cards.map(\.title.text), ["Release 1.0"])
        expectEqual(document.boards[1].cards[0].labels.names, ["release"])
    }

    @Test(arguments: [
        "Issue #123", "#hashtag first", "C:\\path\\to", "ends with \\", "a \\# b", "mail me @{2026-12-01}",
        "<br> breaks", "see ^abc", "x (3)", "(3)", "[x] done", "- [ ] nested", "**bold** and _it_", "C#",
        "trailing #", "tab\there", "Ünïcode 漢字 🙂", "@[[2026-12-01]]", "a  two  spaces",
    ])
    func titlesReadBackAsWritten(title: String) throws {
        let kanban = try Kanban(
            boards: [Board(title: title, items: [Item(id: ItemID("aaaa11")!, title: title, labels: ["l"])])])
        let document = try MarkdownBoard.read(Array(MarkdownBoard.export(kanban).utf8))
        expectEqual(document.boards.map(\.title.text), [title])
        expectTrue(document.boards.first?.limit == nil)
        expectEqual(document.boards.first?.cards.map(\.title.text), [title])
        expectEqual(document.boards.first?.cards.first?.labels.names, ["l"])
    }

    func aStoredControlCharacterIsWrittenVisibly() throws {
        let kanban = Kanban(trusted: [Board(title: "T", items: [Item(id: ItemID("aaaa11")!, title: "a\u{1B}[31mb")])])
        let text = MarkdownBoard.export(kanban)
        expectTrue(!text.unicodeScalars.contains("\u{1B}"))
        expectTrue(text.contains("\\\\u{1B}[31mb"))
    }

    // MARK: - Refusals

    @Test(arguments: [
        ("# kanban\n\nKanban boards from the shell.\n", 3),
        ("- [ ] a card first\n## Todo\n", 1),
        ("---\nkanban-plugin: board\n", 1),
        ("## Todo\n\n- [ ] ok\n\n```\ncode\n```\n", 5),
        ("## Todo\n\n1. numbered\n", 3),
        ("## \n\n- [ ] a card under an empty heading\n", 1),
        ("## Todo\n\n- [ ] \n", 3),
        ("## Todo\n\n- [ ] #only-a-label\n", 3),
    ])
    func aFileThatIsNotABoardIsRefusedAtItsLine(text: String, line: Int) throws {
        let error = try #require(throws: ImportError.self) { try MarkdownBoard.read(Array(text.utf8)) }
        expectEqual(error.location, .line(line), "\(error)")
    }

    func aFileWithoutHeadingsIsNotABoard() throws {
        let error = try #require(throws: ImportError.self) { try MarkdownBoard.read(Array("---\na: b\n---\n".utf8)) }
        expectEqual(error.location, .file)
        expectTrue(error.message.contains("not a kanban board"))
    }

    func invalidUTF8IsRefusedAtItsLine() throws {
        let bytes = Array("## Todo\n\n- [ ] ok\n- [ ] ".utf8) + [0xFF, 0x0A]
        let error = try #require(throws: ImportError.self) { try MarkdownBoard.read(bytes) }
        expectEqual(error.location, .line(4))
    }
}
