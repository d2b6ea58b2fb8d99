import Testing

@testable import KanbanCore

@Suite("CSV")
struct CSVTableTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case exportIsRFC4180WithTheHeaderOfTheSpec
        case aQuoteFollowedByACombiningMarkIsDoubledAndReadsBack
        case readsColumnsInAnyOrderAndCaseWithLFOrCRLF
        case aRecordWithoutATitleNamesABoard
        case anEmptyFileIsRefused
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .exportIsRFC4180WithTheHeaderOfTheSpec: try exportIsRFC4180WithTheHeaderOfTheSpec()
        case .aQuoteFollowedByACombiningMarkIsDoubledAndReadsBack:
            try aQuoteFollowedByACombiningMarkIsDoubledAndReadsBack()
        case .readsColumnsInAnyOrderAndCaseWithLFOrCRLF: try readsColumnsInAnyOrderAndCaseWithLFOrCRLF()
        case .aRecordWithoutATitleNamesABoard: try aRecordWithoutATitleNamesABoard()
        case .anEmptyFileIsRefused: try anEmptyFileIsRefused()
        }
    }

    func exportIsRFC4180WithTheHeaderOfTheSpec() throws {
        let kanban = try Kanban(boards: [
            Board(
                title: "Todo",
                items: [
                    Item(
                        id: ItemID("k3f9p2")!, title: "Say \"hi\", then go", labels: ["a", "b"],
                        due: Day(year: 2026, month: 12, day: 1), created: Timestamp(seconds: 0),
                        entered: Timestamp(seconds: 60), note: "two\nlines")
                ]),
            Board(title: "Empty, for now"),
        ])
        expectTrue(
            CSVTable.export(kanban)
                == "board,index,id,title,labels,due,created,entered,note,assignees\r\n"
                + "Todo,0,k3f9p2,\"Say \"\"hi\"\", then go\",\"a,b\",2026-12-01,1970-01-01T00:00:00Z,"
                + "1970-01-01T00:01:00Z,\"two\nlines\",\r\n"
                + "\"Empty, for now\",,,,,,,,,\r\n")
    }

    /// Found by the Markdown fuzzer: a `"` followed by a combining mark is one character
    /// to Swift, and was left single in the export, which then did not read back.
    func aQuoteFollowedByACombiningMarkIsDoubledAndReadsBack() throws {
        let title = "No ]\"\"\"\"\u{731}c\"d.Do ]\"\"\"l"
        let kanban = try Kanban(boards: [
            Board(title: title, items: [Item(id: ItemID("k3f9p2")!, title: "Say \"\u{301}hi\u{301}\", done")])
        ])
        let csv = CSVTable.export(kanban)
        expectTrue(csv.contains("\"No ]\"\"\"\"\"\"\"\"\u{731}c\"\"d.Do ]\"\"\"\"\"\"l\""), "\(csv)")
        let document = try CSVTable.read(Array(csv.utf8))
        expectEqual(document.boards.map(\.title.text), [title])
        expectEqual(document.boards.first?.cards.map(\.title.text), ["Say \"\u{301}hi\u{301}\", done"])
    }

    func readsColumnsInAnyOrderAndCaseWithLFOrCRLF() throws {
        let text = "\u{FEFF}Title,BOARD,note,labels,due\nFirst,Todo,,\"x y,z\",2026-12-01\r\nSecond,Done,\"a\r\nb\",,\n"
        let document = try CSVTable.read(Array(text.utf8))
        expectEqual(document.boards.map(\.title.text), ["Todo", "Done"])
        expectEqual(document.boards[0].cards[0].labels.names, ["x", "y", "z"])
        expectEqual(document.boards[0].cards[0].due, Day(year: 2026, month: 12, day: 1))
        expectEqual(document.boards[1].cards[0].note, "a\nb")
    }

    func aRecordWithoutATitleNamesABoard() throws {
        let document = try CSVTable.read(Array("board,title\nReview,\nTodo,x\nreview,y\n".utf8))
        expectEqual(document.boards.map(\.title.text), ["Review", "Todo"])
        expectTrue(document.boards[0].cards.map(\.title.text) == ["y"])  // boards match ignoring case
    }

    @Test(arguments: [
        ("title,foo\nx,y\n", 1),
        ("board,index\nTodo,0\n", 1),
        ("board,title,title\n", 1),
        ("board,title\nTodo,a\nTodo,b,c\n", 3),
        ("board,title\nTodo,\"never closed\nTodo,b\n", 2),
        ("board,title\nTodo,a\"b\n", 2),
        ("board,title\nTodo,\"a\"b\n", 2),
        ("board,title,due\nTodo,a,tomorrow\n", 2),
        ("board,title,labels\nTodo,a,-bad\n", 2),
        ("board,title\n,orphan\n", 2),
        ("board,title,note\nTodo,,a note without a card\n", 2),
        ("board,title\nTodo,\"multi\nline\"\n", 2),
        ("board,title,note\nTodo,a,\"multi\nline\"\nTodo,ok,\nDone,\"x\u{1B}\",\n", 5),
    ])
    func aMalformedFileIsRefusedAtItsLine(text: String, line: Int) throws {
        let error = try #require(throws: ImportError.self) { try CSVTable.read(Array(text.utf8)) }
        expectEqual(error.location, .line(line), "\(error)")
    }

    func anEmptyFileIsRefused() throws {
        let error = try #require(throws: ImportError.self) { try CSVTable.read([]) }
        expectEqual(error.location, .file)
    }
}
