import Testing

@testable import KanbanCore

@Suite("The kanban file: writing and reading")
struct KanbanFileTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case encodingWritesTheDocumentedLayout
        case aCardIsWrittenAsItsLineInTheFile
        case anEmptyKanbanIsAnEmptyBoardListAndArchive
        case controlCharactersInStoredTitlesAreEscaped
        case aNoteStaysOnTheCardsLine
        case jsonQuotedEscapesLikeTheFile
        case aMoveShowsInTheFileAsOneLineLeavingAndArriving
        case decodingTheDocumentedLayoutGivesTheKanban
        case keysMayComeInAnyOrder
        case whitespaceAnywhereBetweenTokensIsAllowed
        case absentKeysAreEmptyValues
        case anEmptyLabelListIsLeftOutAndAnEmptyNoteIsKept
        case labelsAreReadAsASetSortedIgnoringCaseFirstSpellingKept
        case timesWithOffsetsAndFractionsAreReadAndWrittenInUTCToTheSecond
        case escapesAndSurrogatePairsAreDecoded
        case aByteOrderMarkIsSkipped
        case wholeNumbersWrittenWithAFractionOrExponentAreLimits
        case storedTitlesKeepWhatAHandEditPutThere
        case aNoteOfExactly64KiBIsReadAndOneByteMoreIsNot
        case aVersion1FileIsReadWithBoardIDsAndUpgradedOnWriting
        case upgradedBoardIDsAreTheSameOnEveryReadOfTheSameBytes
        case upgradedBoardIDsAvoidEveryIDTheFileHas
        case theOriginalFormatIsReadWithNewIDs
        case theOriginalFormatGivesTheSameIDsEveryTimeAndIsUpgraded
        case theOriginalFormatsBoardIDsDifferFromItsCardIDs
        case differentOriginalFilesGetDifferentIDs
        case anEmptyOriginalFileHasNoBoards
        case aLargeOriginalFileGetsLongerDistinctIDs
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .encodingWritesTheDocumentedLayout: try encodingWritesTheDocumentedLayout()
        case .aCardIsWrittenAsItsLineInTheFile: try aCardIsWrittenAsItsLineInTheFile()
        case .anEmptyKanbanIsAnEmptyBoardListAndArchive: try anEmptyKanbanIsAnEmptyBoardListAndArchive()
        case .controlCharactersInStoredTitlesAreEscaped: try controlCharactersInStoredTitlesAreEscaped()
        case .aNoteStaysOnTheCardsLine: try aNoteStaysOnTheCardsLine()
        case .jsonQuotedEscapesLikeTheFile: jsonQuotedEscapesLikeTheFile()
        case .aMoveShowsInTheFileAsOneLineLeavingAndArriving: try aMoveShowsInTheFileAsOneLineLeavingAndArriving()
        case .decodingTheDocumentedLayoutGivesTheKanban: try decodingTheDocumentedLayoutGivesTheKanban()
        case .keysMayComeInAnyOrder: try keysMayComeInAnyOrder()
        case .whitespaceAnywhereBetweenTokensIsAllowed: try whitespaceAnywhereBetweenTokensIsAllowed()
        case .absentKeysAreEmptyValues: try absentKeysAreEmptyValues()
        case .anEmptyLabelListIsLeftOutAndAnEmptyNoteIsKept: try anEmptyLabelListIsLeftOutAndAnEmptyNoteIsKept()
        case .labelsAreReadAsASetSortedIgnoringCaseFirstSpellingKept:
            try labelsAreReadAsASetSortedIgnoringCaseFirstSpellingKept()
        case .timesWithOffsetsAndFractionsAreReadAndWrittenInUTCToTheSecond:
            try timesWithOffsetsAndFractionsAreReadAndWrittenInUTCToTheSecond()
        case .escapesAndSurrogatePairsAreDecoded: try escapesAndSurrogatePairsAreDecoded()
        case .aByteOrderMarkIsSkipped: try aByteOrderMarkIsSkipped()
        case .wholeNumbersWrittenWithAFractionOrExponentAreLimits:
            try wholeNumbersWrittenWithAFractionOrExponentAreLimits()
        case .storedTitlesKeepWhatAHandEditPutThere: try storedTitlesKeepWhatAHandEditPutThere()
        case .aNoteOfExactly64KiBIsReadAndOneByteMoreIsNot: try aNoteOfExactly64KiBIsReadAndOneByteMoreIsNot()
        case .aVersion1FileIsReadWithBoardIDsAndUpgradedOnWriting:
            try aVersion1FileIsReadWithBoardIDsAndUpgradedOnWriting()
        case .upgradedBoardIDsAreTheSameOnEveryReadOfTheSameBytes:
            try upgradedBoardIDsAreTheSameOnEveryReadOfTheSameBytes()
        case .upgradedBoardIDsAvoidEveryIDTheFileHas: try upgradedBoardIDsAvoidEveryIDTheFileHas()
        case .theOriginalFormatIsReadWithNewIDs: try theOriginalFormatIsReadWithNewIDs()
        case .theOriginalFormatGivesTheSameIDsEveryTimeAndIsUpgraded:
            try theOriginalFormatGivesTheSameIDsEveryTimeAndIsUpgraded()
        case .theOriginalFormatsBoardIDsDifferFromItsCardIDs: try theOriginalFormatsBoardIDsDifferFromItsCardIDs()
        case .differentOriginalFilesGetDifferentIDs: try differentOriginalFilesGetDifferentIDs()
        case .anEmptyOriginalFileHasNoBoards: try anEmptyOriginalFileHasNoBoards()
        case .aLargeOriginalFileGetsLongerDistinctIDs: try aLargeOriginalFileGetsLongerDistinctIDs()
        }
    }

    /// Todo (no limit) with a card that has every field and one that has only a title,
    /// Done (limit 3) empty, and a card archived from Done.
    func small() throws -> Kanban {
        let a1 = Item(
            id: try require(ItemID("a1")), title: "One", labels: ["P1", "bug", "@alice"],
            due: Day(year: 2026, month: 12, day: 1), created: Timestamp(rfc3339: "2026-11-23T10:04:05Z"),
            entered: Timestamp(rfc3339: "2026-11-24T08:00:00+01:00"), note: "Steps:\n\t1. \"run\" it\n\\ é 😀")
        let b2 = Item(id: try require(ItemID("b2")), title: "Two \"quoted\" \\ é")
        let c3 = Item(id: try require(ItemID("c3")), title: "Old", created: Timestamp(seconds: 0))
        return try Kanban(
            boards: [
                Board(id: try require(ItemID("todo01")), title: "Todo", items: [a1, b2]),
                Board(id: try require(ItemID("done01")), title: "Done", limit: 3),
            ],
            archive: [
                ArchivedItem(
                    item: c3, board: try require(ItemID("done01")),
                    archived: try require(Timestamp(rfc3339: "2026-11-20T09:00:00Z")))
            ])
    }

    /// SPEC §6's layout: the version first, one card per line, keys in a fixed order, every
    /// key after `title` left out when absent, times in UTC to the second.
    static let smallFile = #"""
        {
          "version": 2,
          "boards": [
            {
              "id": "todo01",
              "title": "Todo",
              "limit": null,
              "items": [
                {"id": "a1", "title": "One", "labels": ["@alice", "bug", "P1"], "due": "2026-12-01", "created": "2026-11-23T10:04:05Z", "entered": "2026-11-24T07:00:00Z", "note": "Steps:\n\t1. \"run\" it\n\\ é 😀"},
                {"id": "b2", "title": "Two \"quoted\" \\ é"}
              ]
            },
            {
              "id": "done01",
              "title": "Done",
              "limit": 3,
              "items": []
            }
          ],
          "archive": [
            {"id": "c3", "title": "Old", "created": "1970-01-01T00:00:00Z", "board": "done01", "archived": "2026-11-20T09:00:00Z"}
          ]
        }

        """#

    /// A card's line as the file writes it.
    func line(of item: Item) -> String { String(decoding: KanbanFile.encode(item), as: UTF8.self) }

    // MARK: - Writing

    func encodingWritesTheDocumentedLayout() throws {
        let bytes = KanbanFile.encode(try small())
        expectEqual(String(decoding: bytes, as: UTF8.self), Self.smallFile)
        expectEqual(bytes.last, UInt8(ascii: "\n"))
        expectEqual(KanbanFile.encode(try small()), bytes)
    }

    func aCardIsWrittenAsItsLineInTheFile() throws {
        let kanban = try small()
        let lines = Self.smallFile.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
        for item in kanban.boards.flatMap(\.items) {
            expectTrue(lines.contains { $0.hasPrefix(line(of: item)) }, "\(line(of: item))")
        }
        expectTrue(line(of: kanban.boards[0].items[1]) == #"{"id": "b2", "title": "Two \"quoted\" \\ é"}"#)
    }

    func anEmptyKanbanIsAnEmptyBoardListAndArchive() throws {
        let bytes = KanbanFile.encode(try Kanban(boards: []))
        expectTrue(
            String(decoding: bytes, as: UTF8.self) == "{\n  \"version\": 2,\n  \"boards\": [],\n  \"archive\": []\n}\n")
        try expectEqual(KanbanFile.decode(bytes).kanban, (try Kanban(boards: [])))
    }

    func controlCharactersInStoredTitlesAreEscaped() throws {
        let title = "a\u{0}b\u{1B}c\u{7F}d\u{85}e\u{9F}f\u{A0}g\n\r\t\u{8}\u{C}/h"
        let kanban = try Kanban(boards: [Board(title: "T", items: [Item(id: ItemID("x1")!, title: title)])])
        let text = String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
        expectTrue(
            text.contains(#"{"id": "x1", "title": "a\u0000b\u001bc\u007fd\u0085e\u009ff\#u{A0}g\n\r\t\u0008\u000c/h"}"#)
        )
        expectTrue(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        expectTrue(!text.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        try expectEqual(KanbanFile.decode(Array(text.utf8)).kanban, kanban)
    }

    func aNoteStaysOnTheCardsLine() throws {
        let note = "first\nsecond\n\n\tindented \"quoted\" \\ 日本 👍🏽\n"
        let item = Item(id: try require(ItemID("n1")), title: "x", note: note)
        expectTrue(
            line(of: item) == #"{"id": "n1", "title": "x", "note": "first\nsecond\n\n\tindented \"quoted\" \\ 日本 👍🏽\n"}"#
        )
        let kanban = try Kanban(boards: [Board(title: "T", items: [item])])
        try expectEqual(KanbanFile.decode(KanbanFile.encode(kanban)).kanban, kanban)
    }

    func jsonQuotedEscapesLikeTheFile() {
        expectEqual(JSON.quoted("a\"b\\c\u{1}\u{9B}"), #""a\"b\\c\u0001\u009b""#)
    }

    func aMoveShowsInTheFileAsOneLineLeavingAndArriving() throws {
        var kanban = try makeKanban(counts: [3, 3])
        let before = String(decoding: KanbanFile.encode(kanban), as: UTF8.self).split(separator: "\n")
        try kanban.move([Location(board: 0, index: 1)], to: 1, at: .index(1), now: dropTime)
        let after = String(decoding: KanbanFile.encode(kanban), as: UTF8.self).split(separator: "\n")
        let isMoved = { (line: Substring) in line.contains(#"{"id": "a1", "#) }
        expectEqual(before.count, after.count)
        expectEqual(before.filter { !isMoved($0) }, after.filter { !isMoved($0) })
        expectTrue(before.firstIndex(where: isMoved) != after.firstIndex(where: isMoved))
        // The line that arrives is the card, with its new `entered` time.
        let arrived = try require(after.first(where: isMoved))
        expectEqual(String(arrived), "        " + line(of: kanban[Location(board: 1, index: 1)]) + ",")
        expectEqual(kanban[Location(board: 1, index: 1)].entered, dropTime)
    }

    // MARK: - Reading

    func decodingTheDocumentedLayoutGivesTheKanban() throws {
        let (kanban, format) = try KanbanFile.decode(Self.smallFile.bytes)
        expectEqual(kanban, (try small()))
        expectEqual(format, .current)
    }

    @Test(arguments: 1...60 as ClosedRange<UInt64>)
    func decodingWhatWasEncodedGivesTheSameKanban(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let kanban = try randomStoredKanban(using: &generator)
        let bytes = KanbanFile.encode(kanban)
        let (decoded, format) = try KanbanFile.decode(bytes)
        expectEqual(decoded, kanban)
        expectEqual(format, .current)
        expectEqual(KanbanFile.encode(decoded), bytes)
    }

    func keysMayComeInAnyOrder() throws {
        let text = #"""
            {"archive": [{"archived": "2026-11-20T09:00:00Z", "board": "done01", "created": "1970-01-01T00:00:00Z",
                          "title": "Old", "id": "c3"}],
             "boards": [
              {"items": [{"note": "Steps:\n\t1. \"run\" it\n\\ é 😀", "entered": "2026-11-24T07:00:00Z",
                          "created": "2026-11-23T10:04:05Z", "due": "2026-12-01", "labels": ["P1", "bug", "@alice"],
                          "title": "One", "id": "a1"},
                         {"title": "Two \"quoted\" \\ é", "id": "b2"}],
               "limit": null, "title": "Todo", "id": "todo01"},
              {"limit": 3, "items": [], "id": "done01", "title": "Done"}
            ], "version": 2}
            """#
        try expectEqual(KanbanFile.decode(text.bytes).kanban, (try small()))
    }

    func whitespaceAnywhereBetweenTokensIsAllowed() throws {
        // The small file on one line with no space between tokens (its strings hold no
        // `": ` or `, "`), then with white space of every kind around every punctuation mark.
        let compact = Self.smallFile.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
            .joined().replacing("\": ", with: "\":").replacing(", \"", with: ",\"")
        try expectEqual(KanbanFile.decode(compact.bytes).kanban, (try small()))
        var inString = false
        var escaped = false
        var spread: [UInt8] = []
        for byte in compact.bytes {
            if inString {
                spread.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                spread.append(byte)
            } else if Array("{}[]:,".utf8).contains(byte) {
                spread += [0x20, 0x0D, 0x0A, 0x09, byte, 0x09, 0x0D, 0x0A]
            } else {
                spread.append(byte)
            }
        }
        try expectEqual(KanbanFile.decode(spread).kanban, (try small()))
    }

    func absentKeysAreEmptyValues() throws {
        let text = #"{"version": 2, "boards": [{"id": "t", "title": "Todo", "items": [{"id": "a1", "title": "x"}]}]}"#
        let kanban = try KanbanFile.decode(text.bytes).kanban
        expectTrue(
            kanban.boards == [
                Board(id: try require(ItemID("t")), title: "Todo", items: [Item(id: ItemID("a1")!, title: "x")])
            ]
        )
        expectTrue(kanban.archive.isEmpty)
        let item = kanban.boards[0].items[0]
        expectTrue(
            item.labels.isEmpty && item.due == nil && item.created == nil && item.entered == nil && item.note == nil)
        expectEqual(line(of: item), #"{"id": "a1", "title": "x"}"#)
    }

    func anEmptyLabelListIsLeftOutAndAnEmptyNoteIsKept() throws {
        let text = #"""
            {"version": 2, "boards": [{"id": "t", "title": "T", "items": [{"id": "a1", "title": "x", "labels": [], "note": ""}]}]}
            """#
        let item = try KanbanFile.decode(text.bytes).kanban.boards[0].items[0]
        expectTrue(item.labels.isEmpty)
        expectEqual(item.note, "")
        expectEqual(line(of: item), #"{"id": "a1", "title": "x", "note": ""}"#)
    }

    func labelsAreReadAsASetSortedIgnoringCaseFirstSpellingKept() throws {
        let text = #"""
            {"version": 2, "boards": [{"id": "t", "title": "T", "items": [
              {"id": "a1", "title": "x", "labels": ["zeta", "Bug", "alpha", "BUG", "bug", "Ünï", "@bob"]}]}]}
            """#
        let item = try KanbanFile.decode(text.bytes).kanban.boards[0].items[0]
        expectEqual(item.labels.names, ["@bob", "alpha", "Bug", "zeta", "Ünï"])
        expectEqual(line(of: item), #"{"id": "a1", "title": "x", "labels": ["@bob", "alpha", "Bug", "zeta", "Ünï"]}"#)
    }

    func timesWithOffsetsAndFractionsAreReadAndWrittenInUTCToTheSecond() throws {
        let text = #"""
            {"version": 2, "boards": [{"id": "t", "title": "T", "items": [
              {"id": "a1", "title": "x", "created": "2026-11-23T23:30:00.999-01:00", "entered": "2024-02-29t00:00:00z"}]}]}
            """#
        let item = try KanbanFile.decode(text.bytes).kanban.boards[0].items[0]
        expectEqual(item.created?.description, "2026-11-24T00:30:00Z")
        expectEqual(item.entered?.description, "2024-02-29T00:00:00Z")
        expectTrue(line(of: item).contains(#""created": "2026-11-24T00:30:00Z", "entered": "2024-02-29T00:00:00Z""#))
    }

    func escapesAndSurrogatePairsAreDecoded() throws {
        let text = #"""
            {"version": 2, "boards": [{"id": "t", "title": "T", "limit": null, "items": [
              {"id": "x1", "title": "\"\\\/\b\f\n\r\t\u00e9\u00E9\ud83d\ude00\uD83D\uDE00\u0041z", "note": "\ud83d\ude00\n\t\u00e9\u000a"}
            ]}]}
            """#
        let kanban = try KanbanFile.decode(text.bytes).kanban
        let title = kanban.boards[0].items[0].title
        expectTrue(
            title.unicodeScalars.elementsEqual("\"\\/\u{8}\u{C}\n\r\t\u{E9}\u{E9}\u{1F600}\u{1F600}Az".unicodeScalars))
        expectEqual(kanban.boards[0].items[0].note, "\u{1F600}\n\t\u{E9}\n")
    }

    func aByteOrderMarkIsSkipped() throws {
        let (kanban, format) = try KanbanFile.decode([0xEF, 0xBB, 0xBF] + Self.smallFile.bytes)
        expectEqual(kanban, (try small()))
        expectEqual(format, .current)
    }

    func wholeNumbersWrittenWithAFractionOrExponentAreLimits() throws {
        for (written, limit) in [("2.0", 2), ("2e0", 2), ("20E-1", 2), ("0.0", 0), ("-0", 0), ("1.5e1", 15)] {
            let text = #"{"version": 2, "boards": [{"id": "t", "title": "T", "limit": \#(written), "items": []}]}"#
            try expectEqual(KanbanFile.decode(text.bytes).kanban.boards[0].limit, limit, "\(written)")
        }
        try expectEqual(KanbanFile.decode(#"{"version": 2.0, "boards": []}"#.bytes).format, .current)
        try expectEqual(KanbanFile.decode(#"{"version": 1e0, "boards": []}"#.bytes).format, .version1)
    }

    func storedTitlesKeepWhatAHandEditPutThere() throws {
        // Titles read from a file are kept as stored (only blank ones are refused).
        let text =
            #"{"version": 2, "boards": [{"id": "t", "title": " Spaced ", "items": [{"id": "a1", "title": "bell\u0007 "}]}]}"#
        let kanban = try KanbanFile.decode(text.bytes).kanban
        expectEqual(kanban.boards[0].title, " Spaced ")
        expectEqual(kanban.boards[0].items[0].title, "bell\u{7} ")
    }

    func aNoteOfExactly64KiBIsReadAndOneByteMoreIsNot() throws {
        let note = String(repeating: "é", count: 65_536 / 2)
        let file = { (note: String) in
            #"{"version": 2, "boards": [{"id": "t", "title": "T", "items": [{"id": "a1", "title": "x", "note": "\#(note)"}]}]}"#
        }
        try expectEqual(KanbanFile.decode(file(note).bytes).kanban.boards[0].items[0].note, note)
        let error = #expect(throws: KanbanError.self) { try KanbanFile.decode(file(note + "x").bytes) }
        guard case .corruptFile(1, let message) = error else {
            Issue.record("expected corruptFile at line 1, got \(String(describing: error))")
            return
        }
        expectTrue(message.contains("64 KiB"), "\(message)")
    }

    // MARK: - Version 1

    static let version1File = #"""
        {
          "version": 1,
          "boards": [
            {
              "title": "Todo",
              "limit": 2,
              "items": [
                {"id": "k3f9", "title": "Database Migration"},
                {"id": "p2x1", "title": "Schema Design"}
              ]
            },
            {
              "title": "Done",
              "limit": null,
              "items": []
            }
          ]
        }

        """#

    func aVersion1FileIsReadWithBoardIDsAndUpgradedOnWriting() throws {
        let (kanban, format) = try KanbanFile.decode(Self.version1File.bytes)
        expectEqual(format, .version1)
        expectEqual(kanban.boards.map(\.title), ["Todo", "Done"])
        expectEqual(kanban.boards.map(\.limit), [2, nil])
        expectTrue(
            kanban.boards[0].items == [
                Item(id: ItemID("k3f9")!, title: "Database Migration"),
                Item(id: ItemID("p2x1")!, title: "Schema Design"),
            ])
        expectTrue(kanban.boards[1].items.isEmpty)
        expectTrue(kanban.archive.isEmpty)
        let boardIDs = kanban.boards.map(\.id)
        expectEqual(Set(boardIDs).count, 2)
        expectTrue(boardIDs.allSatisfy { isGeneratedID($0, length: 6) })
        expectTrue(Set(boardIDs).isDisjoint(with: kanban.boards.flatMap { $0.items.map(\.id) }))
        #expect(throws: Never.self) { try kanban.validate() }

        // The next write is version 2, with the board ids, and reads back as the same kanban.
        let written = String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
        expectTrue(written.hasPrefix("{\n  \"version\": 2,\n  \"boards\": [\n    {\n      \"id\": \"\(boardIDs[0])\",\n"))
        let upgraded = try KanbanFile.decode(written.bytes)
        expectEqual(upgraded.format, .current)
        expectEqual(upgraded.kanban, kanban)
    }

    /// Board ids come from the file's bytes: the same file gives the same ids however often
    /// it is read, and in two clones of one repository, so both upgrade it alike; another
    /// file gives other ids.
    func upgradedBoardIDsAreTheSameOnEveryReadOfTheSameBytes() throws {
        let first = try KanbanFile.decode(Self.version1File.bytes).kanban
        let second = try KanbanFile.decode(Self.version1File.bytes).kanban
        // A clone: the same bytes from elsewhere, read by a reader that has read other files since.
        _ = try KanbanFile.decode(#"{"version": 1, "boards": [{"title": "Other", "items": []}]}"#.bytes)
        let clone = try KanbanFile.decode(Array(String(Self.version1File).utf8)).kanban
        expectEqual(first, second)
        expectEqual(first, clone)
        expectEqual(KanbanFile.encode(first), KanbanFile.encode(clone))
        // One more space in the file: other bytes, other board ids; the cards keep theirs.
        let edited = try KanbanFile.decode(
            Self.version1File.replacing("\"limit\": 2", with: "\"limit\":  2").bytes
        ).kanban
        expectEqual(edited.boards.map(\.title), first.boards.map(\.title))
        expectEqual(layout(edited), layout(first))
        expectTrue(Set(edited.boards.map(\.id)).isDisjoint(with: first.boards.map(\.id)))
    }

    /// The generator seeded from the bytes must not hand a board an id a card has: here the
    /// cards hold the very ids it gives first.
    func upgradedBoardIDsAvoidEveryIDTheFileHas() throws {
        let seed = SeededGenerator(hashing: Self.version1File.bytes)
        var generator = seed
        let first = Kanban(trusted: []).newIDs(count: 4, using: &generator)
        var kanban = Kanban(trusted: [
            Board(
                id: ItemID(packed: 0), title: "A",
                items: [Item(id: first[0], title: "x"), Item(id: first[1], title: "y")]),
            Board(id: ItemID(packed: 0), title: "B", items: [Item(id: first[2], title: "z")]),
        ])
        kanban.giveIDsToBoardsWithout(using: seed)
        expectTrue(Set(kanban.boards.map(\.id)).isDisjoint(with: first.prefix(3)))
        expectEqual(Set(kanban.boards.map(\.id)).count, 2)
        expectTrue(kanban.boards.allSatisfy { isGeneratedID($0.id, length: 6) })
        #expect(throws: Never.self) { try kanban.validate() }
    }

    // MARK: - The original app's format

    static let legacyFile = #"""
        [
          {"title": "Todo", "items": ["Database Migration", "Schema Design"]},
          {"items": ["Push Notification"], "title": "In Progress"},
          {"title": "Done", "items": []}
        ]
        """#

    func theOriginalFormatIsReadWithNewIDs() throws {
        let (kanban, format) = try KanbanFile.decode(Self.legacyFile.bytes)
        expectEqual(format, .legacy)
        expectEqual(kanban.boards.map(\.title), ["Todo", "In Progress", "Done"])
        expectTrue(
            kanban.boards.map { $0.items.map(\.title) } == [
                ["Database Migration", "Schema Design"], ["Push Notification"], [],
            ])
        expectTrue(kanban.boards.allSatisfy { $0.limit == nil })
        expectTrue(kanban.boards.flatMap(\.items).allSatisfy { $0.labels.isEmpty && $0.created == nil && $0.note == nil })
        let ids = kanban.boards.flatMap { $0.items.map(\.id) } + kanban.boards.map(\.id)
        expectEqual(Set(ids).count, 6)
        expectTrue(ids.allSatisfy { isGeneratedID($0, length: 6) })
        #expect(throws: Never.self) { try kanban.validate() }
    }

    func theOriginalFormatGivesTheSameIDsEveryTimeAndIsUpgraded() throws {
        let first = try KanbanFile.decode(Self.legacyFile.bytes).kanban
        let second = try KanbanFile.decode(Array(String(Self.legacyFile).utf8)).kanban
        expectEqual(first, second)
        // Written back, it is a version 2 file that reads as the same kanban.
        let upgraded = try KanbanFile.decode(KanbanFile.encode(first))
        expectEqual(upgraded.format, .current)
        expectEqual(upgraded.kanban, first)
    }

    /// The cards' ids come from a generator seeded with the file's bytes; the boards' ids
    /// differ from them all.
    func theOriginalFormatsBoardIDsDifferFromItsCardIDs() throws {
        let kanban = try KanbanFile.decode(Self.legacyFile.bytes).kanban
        var generator = SeededGenerator(hashing: Self.legacyFile.bytes)
        let itemIDs = kanban.boards.flatMap { $0.items.map(\.id) }
        expectEqual(Kanban(trusted: []).newIDs(count: 3, using: &generator), itemIDs)
        expectTrue(Set(kanban.boards.map(\.id)).isDisjoint(with: itemIDs))
    }

    func differentOriginalFilesGetDifferentIDs() throws {
        // Same length, same shape, one byte apart: the ids come from the bytes, not the shape.
        let a = try KanbanFile.decode(#"[{"title": "Todo", "items": ["One", "Two"]}]"#.bytes).kanban
        let b = try KanbanFile.decode(#"[{"title": "Todo", "items": ["One", "Twp"]}]"#.bytes).kanban
        expectTrue(Set(a.boards[0].items.map(\.id)).isDisjoint(with: b.boards[0].items.map(\.id)))
        expectTrue(a.boards[0].id != b.boards[0].id)
    }

    func anEmptyOriginalFileHasNoBoards() throws {
        let (kanban, format) = try KanbanFile.decode("[]".bytes)
        expectTrue(kanban.boards.isEmpty)
        expectEqual(format, .legacy)
    }

    /// Six characters give 36^6 ids; past 36^6 / 65,536 ids in the file they grow to seven.
    func aLargeOriginalFileGetsLongerDistinctIDs() throws {
        let sixCharacterIDs = 36 * 36 * 36 * 36 * 36 * 36
        let count = sixCharacterIDs / 65_536 + 1
        let items = Array(repeating: "\"x\"", count: count).joined(separator: ",")
        let kanban = try KanbanFile.decode("[{\"title\": \"Todo\", \"items\": [\(items)]}]".bytes).kanban
        let ids = kanban.boards[0].items.map(\.id) + [kanban.boards[0].id]
        expectEqual(ids.count, count + 1)
        expectEqual(Set(ids).count, count + 1)
        expectTrue(ids.allSatisfy { isGeneratedID($0, length: 7) })
    }
}

/// Whether `id` is a generated id of `length`: [0-9a-z], at least one letter and one digit.
func isGeneratedID(_ id: ItemID, length: Int) -> Bool {
    let scalars = id.rawValue.unicodeScalars
    let digits = scalars.filter { ("0"..."9").contains($0) }.count
    let letters = scalars.filter { ("a"..."z").contains($0) }.count
    return scalars.count == length && digits + letters == length && digits > 0 && letters > 0
}

/// A random kanban as a file may hold it: odd titles and notes (quotes, backslashes,
/// controls, non-ASCII, even surrounding spaces), odd ids, any limits, every optional field
/// present or absent, and an archive of cards from boards that are there or gone.
func randomStoredKanban(using generator: inout some RandomNumberGenerator) throws -> Kanban {
    let pieces = [
        "a", "Z", " ", "\"", "\\", "/", "\t", "\u{1}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}", "é", "e\u{301}", "😀",
        "\u{2028}", "\n", "\r", "{", "}", "[", "]", ":", ",", "\u{0}", "日本", "\u{FEFF}", "null", "1",
    ]
    func title(_ generator: inout some RandomNumberGenerator) -> String {
        "x" + (0..<generator.int(0...6)).map { _ in pieces[generator.int(0...(pieces.count - 1))] }.joined()
    }
    // A note holds anything but control characters other than tab and line feed.
    let notePieces = pieces.filter { Note.problem(with: $0) == nil }
    func note(_ generator: inout some RandomNumberGenerator) -> String {
        (0..<generator.int(0...8)).map { _ in notePieces[generator.int(0...(notePieces.count - 1))] }.joined()
    }
    let labelPool = ["bug", "Bug", "p1", "@alice", "ünï", "日本", "a-b_c", String(repeating: "x", count: 32)]
    let idCharacters = Array("abcXYZ019-_")
    var used = Set<String>()
    func newID(_ generator: inout some RandomNumberGenerator) throws -> ItemID {
        var id: String
        repeat {
            id = String(
                (0..<generator.int(1...8)).map { _ in idCharacters[generator.int(0...(idCharacters.count - 1))] })
        } while !used.insert(id).inserted
        return try require(ItemID(id))
    }
    func time(_ generator: inout some RandomNumberGenerator) -> Timestamp {
        Timestamp(seconds: Int64(generator.int(-62_167_219_200...253_402_300_799)))
    }
    func item(_ generator: inout some RandomNumberGenerator) throws -> Item {
        Item(
            id: try newID(&generator), title: title(&generator),
            labels: try Labels(validating: (0..<generator.int(0...3)).map { _ in labelPool[generator.int(0...7)] }),
            due: generator.chance(40) ? Day(daysSinceEpoch: generator.int(-719_528...2_932_896)) : nil,
            created: generator.chance(50) ? time(&generator) : nil,
            entered: generator.chance(50) ? time(&generator) : nil,
            note: generator.chance(40) ? note(&generator) : nil)
    }
    var boards: [Board] = []
    for b in 0..<generator.int(0...4) {
        let items = try (0..<generator.int(0...5)).map { _ in try item(&generator) }
        let limit: Int? = generator.chance(50) ? nil : generator.int(0...100)
        boards.append(Board(id: try newID(&generator), title: "\(b) " + title(&generator), limit: limit, items: items))
    }
    let archive = try (0..<generator.int(0...3)).map { _ in
        let board =
            boards.isEmpty || generator.chance(30)
            ? try newID(&generator) : boards[generator.int(0...(boards.count - 1))].id
        return ArchivedItem(item: try item(&generator), board: board, archived: time(&generator))
    }
    return try Kanban(boards: boards, archive: archive)
}
