import Testing

@testable import KanbanCore

@Suite("Titles")
struct TitleTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theFirstControlCharacterIsReported
        case theOffsetPointsIntoTheReportedTitle
        case aControlCharacterAtAnEdgeIsTrimmedOnlyIfItIsASCIIWhitespace
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theFirstControlCharacterIsReported: theFirstControlCharacterIsReported()
        case .theOffsetPointsIntoTheReportedTitle: try theOffsetPointsIntoTheReportedTitle()
        case .aControlCharacterAtAnEdgeIsTrimmedOnlyIfItIsASCIIWhitespace:
            try aControlCharacterAtAnEdgeIsTrimmedOnlyIfItIsASCIIWhitespace()
        }
    }

    @Test(arguments: [
        ("Fix the login", "Fix the login"), ("  Fix  ", "Fix"), ("\tFix\r\n", "Fix"), ("\u{3000}Fix\u{A0}", "Fix"),
        ("a\tb", "a\tb"), ("a  b", "a  b"), ("Ünïcödé ✓ 😀", "Ünïcödé ✓ 😀"), ("e\u{301}", "e\u{301}"),
        ("日本語のタイトル", "日本語のタイトル"), ("\u{200B}zero width", "\u{200B}zero width"), ("x", "x"),
    ])
    func titlesAreTrimmedAndOtherwiseKept(raw: String, text: String) throws {
        let title = try Title(raw)
        expectEqual(title.text, text)
        expectTrue(title.text.unicodeScalars.elementsEqual(text.unicodeScalars))
        expectEqual(title.description, text)
    }

    @Test(arguments: ["", " ", "\t", "\n", " \r\n\t ", "\u{3000}\u{A0}\u{2003}"])
    func blankTitlesAreEmpty(raw: String) {
        #expect(throws: KanbanError.invalidTitle(title: raw, reason: .empty)) { try Title(raw) }
    }

    /// Zero-width and format characters, alone or with white space, leave nothing to see.
    @Test(arguments: [
        "\u{200B}", "\u{200E}", "\u{FEFF}", "\u{200B}\u{200C}\u{200D}", " \u{2060} ", "\u{00AD}", "\u{180E}",
        "\u{3164}", "\u{115F}", "\u{FE0F}", "\u{2800}", "\u{200F}\t\u{061C}", "\u{E0020}",
    ])
    func titlesWithNothingVisibleAreRefused(raw: String) {
        #expect(throws: KanbanError.invalidTitle(title: raw, reason: .invisible)) { try Title(raw) }
    }

    @Test(arguments: [
        ("\u{200B}x", "\u{200B}x"), ("x\u{FEFF}", "x\u{FEFF}"), ("\u{200F}abc", "\u{200F}abc"), ("\u{301}", "\u{301}"),
        ("\u{FE0F}✓", "\u{FE0F}✓"),
    ])
    func oneVisibleCharacterIsEnough(raw: String, text: String) throws {
        expectTrue(try Title(raw).text.unicodeScalars.elementsEqual(text.unicodeScalars))
    }

    /// U+2028 and U+2029 break a line for many readers of `--tsv`: refused anywhere, never trimmed.
    @Test(arguments: [
        ("a\u{2028}b", 1), ("a\u{2029}b", 1), ("\u{2028}", 0), ("ab\u{2029}", 2), ("  \u{2028}ab", 2),
        ("\u{3000}\u{A0}\u{2028}", 2),
    ])
    func lineAndParagraphSeparatorsAreRefused(raw: String, offset: Int) {
        let scalar = raw.unicodeScalars.first { $0.value == 0x2028 || $0.value == 0x2029 }!
        #expect(throws: KanbanError.invalidTitle(title: raw, reason: .lineSeparator(scalar, offset: offset))) {
            try Title(raw)
        }
    }

    /// Every control character a title may not hold, between two letters: C0 except tab, DEL, C1.
    static let forbidden: [Unicode.Scalar] = {
        let values: [UInt32] = Array(0x00...0x08) + Array(0x0A...0x1F) + [0x7F] + Array(0x80...0x9F)
        return values.map { Unicode.Scalar($0)! }
    }()

    @Test(arguments: forbidden)
    func controlCharactersAreRejectedWithTheirOffset(scalar: Unicode.Scalar) {
        let raw = "ab" + String(Character(scalar)) + "c"
        #expect(throws: KanbanError.invalidTitle(title: raw, reason: .controlCharacter(scalar, offset: 2))) {
            try Title(raw)
        }
    }

    func theFirstControlCharacterIsReported() {
        let raw = "x\u{1B}[31mred\u{7}"
        #expect(throws: KanbanError.invalidTitle(title: raw, reason: .controlCharacter("\u{1B}", offset: 1))) {
            try Title(raw)
        }
    }

    @Test(arguments: [0x09, 0x20, 0x7E, 0xA0, 0xA1, 0x2027, 0x202F, 0x2065, 0x206A, 0xFEFF] as [UInt32])
    func charactersNextToTheForbiddenRangesAreAllowedInside(value: UInt32) throws {
        let scalar = try require(Unicode.Scalar(value))
        let raw = "a" + String(Character(scalar)) + "b"
        try expectEqual(Title(raw).text, raw)
    }

    /// The offset must point at the control character in the title the error reports.
    func theOffsetPointsIntoTheReportedTitle() throws {
        let raw = "  ab\u{7}"
        let error = #expect(throws: KanbanError.self) { try Title(raw) }
        guard case .invalidTitle(let title, .controlCharacter(let scalar, let offset)) = error else {
            Issue.record("expected a control character error, got \(String(describing: error))")
            return
        }
        expectEqual(title, raw)
        expectEqual(scalar, "\u{7}")
        expectTrue(Array(title.unicodeScalars).indices.contains(offset) && Array(title.unicodeScalars)[offset] == scalar)
    }

    func aControlCharacterAtAnEdgeIsTrimmedOnlyIfItIsASCIIWhitespace() throws {
        // Line feed is white space, so it is trimmed away; BEL is not, and NEL (white space,
        // but a C1 control) is refused rather than trimmed.
        try expectEqual(Title("Fix\n").text, "Fix")
        #expect(throws: KanbanError.invalidTitle(title: "\u{85}Fix", reason: .controlCharacter("\u{85}", offset: 0))) {
            try Title("\u{85}Fix")
        }
        #expect(throws: KanbanError.invalidTitle(title: "nel\u{85}", reason: .controlCharacter("\u{85}", offset: 3))) {
            try Title("nel\u{85}")
        }
        #expect(throws: KanbanError.invalidTitle(title: "Fix\u{7}", reason: .controlCharacter("\u{7}", offset: 3))) {
            try Title("Fix\u{7}")
        }
        #expect(throws: KanbanError.invalidTitle(title: "Fix\nmore", reason: .controlCharacter("\n", offset: 3))) {
            try Title("Fix\nmore")
        }
    }
}
