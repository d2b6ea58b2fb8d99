import Testing

@testable import KanbanCore

@Suite("Titles")
struct TitleTests {
    @Test(arguments: [
        ("Fix the login", "Fix the login"), ("  Fix  ", "Fix"), ("\tFix\r\n", "Fix"), ("\u{3000}Fix\u{A0}", "Fix"),
        ("a\tb", "a\tb"), ("a  b", "a  b"), ("Ünïcödé ✓ 😀", "Ünïcödé ✓ 😀"), ("e\u{301}", "e\u{301}"),
        ("日本語のタイトル", "日本語のタイトル"), ("\u{200B}zero width", "\u{200B}zero width"), ("x", "x"),
    ])
    func titlesAreTrimmedAndOtherwiseKept(raw: String, text: String) throws {
        let title = try Title(raw)
        #expect(title.text == text)
        #expect(title.text.unicodeScalars.elementsEqual(text.unicodeScalars))
        #expect(title.description == text)
    }

    @Test(arguments: ["", " ", "\t", "\n", " \r\n\t ", "\u{3000}\u{A0}\u{2028}"])
    func blankTitlesAreEmpty(raw: String) {
        #expect(throws: KanbanError.invalidTitle(title: raw, reason: .empty)) { try Title(raw) }
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

    @Test func theFirstControlCharacterIsReported() {
        let raw = "x\u{1B}[31mred\u{7}"
        #expect(throws: KanbanError.invalidTitle(title: raw, reason: .controlCharacter("\u{1B}", offset: 1))) {
            try Title(raw)
        }
    }

    @Test(arguments: [0x09, 0x20, 0x7E, 0xA0, 0xA1, 0x2028, 0xFEFF] as [UInt32])
    func charactersNextToTheForbiddenRangesAreAllowedInside(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let raw = "a" + String(Character(scalar)) + "b"
        #expect(try Title(raw).text == raw)
    }

    /// The offset must point at the control character in the title the error reports.
    @Test func theOffsetPointsIntoTheReportedTitle() throws {
        let raw = "  ab\u{7}"
        let error = #expect(throws: KanbanError.self) { try Title(raw) }
        guard case .invalidTitle(let title, .controlCharacter(let scalar, let offset)) = error else {
            Issue.record("expected a control character error, got \(String(describing: error))")
            return
        }
        #expect(title == raw)
        #expect(scalar == "\u{7}")
        #expect(Array(title.unicodeScalars).indices.contains(offset) && Array(title.unicodeScalars)[offset] == scalar)
    }

    @Test func aControlCharacterAtAnEdgeIsTrimmedOnlyIfItIsWhitespace() throws {
        // Line feed and NEL are white space, so they are trimmed away; BEL is not.
        #expect(try Title("Fix\n").text == "Fix")
        #expect(try Title("\u{85}Fix").text == "Fix")
        #expect(throws: KanbanError.invalidTitle(title: "Fix\u{7}", reason: .controlCharacter("\u{7}", offset: 3))) {
            try Title("Fix\u{7}")
        }
        #expect(throws: KanbanError.invalidTitle(title: "Fix\nmore", reason: .controlCharacter("\n", offset: 3))) {
            try Title("Fix\nmore")
        }
    }
}
