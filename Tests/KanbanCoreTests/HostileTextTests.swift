import Testing

@testable import KanbanCore

// Text that reorders or breaks a line without being a control character (README:
// Reliability): the bidirectional embedding, override and isolate controls and the line and
// paragraph separators. Typed or imported, they are refused with a message in words; found
// in a file another tool wrote, they are read, and written back escaped.

@Suite("Hostile text")
struct HostileTextTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aRefusedTitleIsExplainedInWordsWithItsCharacterPosition
        case aFileHoldingThemIsReadAndWrittenBackEscaped
        case anImportedKanbanFileWithThemInANoteIsRefused
        case anImportedTitleWithALineSeparatorIsRefusedInWords
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aRefusedTitleIsExplainedInWordsWithItsCharacterPosition:
            try aRefusedTitleIsExplainedInWordsWithItsCharacterPosition()
        case .aFileHoldingThemIsReadAndWrittenBackEscaped: try aFileHoldingThemIsReadAndWrittenBackEscaped()
        case .anImportedKanbanFileWithThemInANoteIsRefused: try anImportedKanbanFileWithThemInANoteIsRefused()
        case .anImportedTitleWithALineSeparatorIsRefusedInWords: try anImportedTitleWithALineSeparatorIsRefusedInWords()
        }
    }

    static let directional: [Unicode.Scalar] = (Array(0x202A...0x202E) + Array(0x2066...0x2069)).map {
        Unicode.Scalar($0)!
    }

    @Test(arguments: directional)
    func directionalControlsInATitleAreRefusedWithTheirOffset(scalar: Unicode.Scalar) {
        let raw = "  ab\(scalar)c"
        #expect(throws: KanbanError.invalidTitle(title: raw, reason: .directionalFormatting(scalar, offset: 4))) {
            try Title(raw)
        }
    }

    func aRefusedTitleIsExplainedInWordsWithItsCharacterPosition() throws {
        let error = try #require(throws: KanbanError.self) { try Title("e\u{301}\u{202E}txt") }
        let words = error.description
        expectTrue(words.contains("right-to-left override (U+202E) at character 2"), "\(words)")
        expectTrue(!words.contains("\u{202E}"), "printed escaped: \(words)")
        let separator = KanbanError.invalidTitle(title: "a\u{2028}b", reason: .lineSeparator("\u{2028}", offset: 1))
        expectTrue(separator.description.contains("line separator (U+2028) at character 2"), "\(separator)")
        for error in [error, separator] {
            for name in ["invalidTitle", "TitleProblem", "lineSeparator", "directionalFormatting", "KanbanCore"] {
                expectTrue(!"\(error)".contains(name), "\(error)")
                expectTrue(!String(describing: error).contains(name), "\(error)")
            }
        }
    }

    @Test(arguments: directional + ["\u{2028}", "\u{2029}"])
    func notesAndLabelsRefuseThemToo(scalar: Unicode.Scalar) throws {
        let note = try #require(throws: KanbanError.self) { try Note.checked("line one\nab\(scalar)c") }
        expectTrue(note.description.contains("(\(scalar.codePoint)) at character 12"), "\(note)")
        let label = try require(Labels.problem(with: "ab\(scalar)c"))
        expectTrue(label.contains(scalar.codePoint), "\(label)")
    }

    @Test(arguments: directional + ["\u{2028}", "\u{2029}"])
    func jsonEscapesThem(scalar: Unicode.Scalar) {
        let hex = String(scalar.value, radix: 16)
        expectEqual(JSON.quoted("a\(scalar)b"), "\"a\\u\(hex)b\"")
        // Their neighbours in UTF-8 are ordinary text, written as they are.
        expectTrue(JSON.quoted("a…b—c’d\u{2027}\u{202F}\u{2065}\u{206A}") == "\"a…b—c’d\u{2027}\u{202F}\u{2065}\u{206A}\"")
    }

    /// A file written by another tool may hold them: it is read, and written back escaped,
    /// the same bytes every time, through both the fast and the general path of a card.
    func aFileHoldingThemIsReadAndWrittenBackEscaped() throws {
        let file = """
            {"version": 2, "boards": [{"id": "b1", "title": "A\u{2066}B", "limit": null, "items": [
            {"id": "x1", "title": "evil\u{202E}txt.exe"},
            {"id": "x2", "title": "sep\u{2028}arated", "labels": ["ok"], "note": "n\u{2029}o\u{202A}te"}
            ]}], "archive": []}

            """
        let kanban = try KanbanFile.decode(Array(file.utf8)).kanban
        expectEqual(kanban.boards[0].items[0].title, "evil\u{202E}txt.exe")
        let written = KanbanFile.encode(kanban)
        let text = String(decoding: written, as: UTF8.self)
        expectTrue(!text.unicodeScalars.contains { $0.isDirectionalFormatting || $0.isLineSeparator }, "\(text)")
        for escape in ["A\\u2066B", "evil\\u202etxt.exe", "sep\\u2028arated", "n\\u2029o\\u202ate"] {
            expectTrue(text.contains(escape), "\(escape) in \(text)")
        }
        let again = try KanbanFile.decode(written).kanban
        expectEqual(again, kanban)
        expectEqual(KanbanFile.encode(again), written)
    }

    /// A kanban file may hold them (it is still read), but importing one brings them in as
    /// typed text would: refused.
    func anImportedKanbanFileWithThemInANoteIsRefused() throws {
        let file = #"{"version": 2, "boards": [{"id": "b1", "title": "A", "limit": null, "items": ["#
            + #"{"id": "x1", "title": "fine", "note": "a‮b"}]}], "archive": []}"#
        #expect(throws: Never.self) { try KanbanFile.decode(Array(file.utf8)) }
        let error = try #require(throws: ImportError.self) {
            try ImportFormat.json.read(Array(file.utf8), localDay: { $0.utcDay })
        }
        expectTrue(error.message.contains("right-to-left override (U+202E) at character 2"), "\(error)")
    }

    func anImportedTitleWithALineSeparatorIsRefusedInWords() throws {
        let json = #"{"lists": [{"id": "a", "name": "A"}], "cards": [{"idList": "a", "name": "a\u2028b"}]}"#
        let error = try #require(throws: ImportError.self) {
            try TrelloImport.read(Array(json.utf8), localDay: { $0.utcDay })
        }
        expectEqual(error.location, .path("$.cards[0].name"))
        expectTrue(error.message.contains("line separator (U+2028) at character 2"), "\(error)")
        expectTrue(!error.message.contains("invalidTitle") && !error.message.contains("TitleProblem"), "\(error)")
        let bidi = #"{"lists": [{"id": "a", "name": "A\u202eB"}], "cards": []}"#
        let refused = try #require(throws: ImportError.self) {
            try TrelloImport.read(Array(bidi.utf8), localDay: { $0.utcDay })
        }
        expectTrue(refused.message.contains("right-to-left override (U+202E)"), "\(refused)")
    }
}
