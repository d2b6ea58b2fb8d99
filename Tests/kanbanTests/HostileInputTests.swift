import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

// Hostile input, end to end on the built binary: whatever bytes arrive in the file, in argv,
// in the environment or on stdin, kanban succeeds or refuses cleanly (65 for bad data,
// 64 for usage), writes nothing when it refuses, never crashes or hangs, and never prints
// a stored or typed control character raw.

/// What kanban printed, checked for raw control characters: C0 other than newline (and tab
/// in TSV), DEL, and C1. With `allowSGR`, kanban's own color codes (`ESC [ digits ; m`) pass.
func rawControls(in bytes: [UInt8], allowTab: Bool = false, allowSGR: Bool = false) -> [String] {
    var found: [String] = []
    let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
    var index = 0
    while index < scalars.count {
        let value = scalars[index].value
        if value == 0x1B && allowSGR && index + 1 < scalars.count && scalars[index + 1] == "[" {
            var end = index + 2
            while end < scalars.count && (("0"..."9").contains(scalars[end]) || scalars[end] == ";") {
                end += 1
            }
            if end < scalars.count && scalars[end] == "m" {
                index = end + 1
                continue
            }
        }
        let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
        if isControl && value != 0x0A && !(allowTab && value == 0x09) {
            let context = String(
                String.UnicodeScalarView(scalars[max(0, index - 10)..<min(scalars.count, index + 10)]))
            found.append("U+\(String(value, radix: 16)) near \(context.debugDescription)")
        }
        index += 1
    }
    return found
}

@Suite("Hostile input, end to end")
struct HostileInputTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aSurrogatePairAndAnEscapedNULAreReadAndPrintedSafely
        case aByteOrderMarkStartingTheFileIsSkippedAndNotWrittenBack
        case aByteOrderMarkStartingStandardInputIsNotPartOfTheFirstTitle
        case invalidUTF8InArgumentsIsRefusedAndNothingIsWritten
        case aKanbanFileNamedByInvalidUTF8InTheEnvironmentIsNeverAnotherFile
        case aKanbanFileInADirectoryWhoseNameIsInvalidUTF8IsFound
        case nulAndControlCharactersOnStandardInputAreRefusedWhole
        case aOneMegabyteTitleIsKeptWholeInTheFileAndEveryView
        case aHugeHandEditedTitleFullOfEscapeSequencesIsPrintedEscapedEverywhere
        case oneHundredThousandLinesOfInputAreTitlesInOrderAndOneBadLineRefusesThemAll
        case aHugeSparseFileIsRefusedBeforeAnythingIsRead
        case aFileLargerThanTheLimitIsRefusedAndAWriteMayNotPassIt
        case standardInputIsRefusedAtTheFirstBadByteWithoutReadingOn
        case importReadsNoMoreThanTheLimitFromFilesAndFIFOs
        case bidirectionalControlsAndSeparatorsInTheFileArePrintedEscaped
        case directionalControlsInTheFileAreEscapedInJSONAndExports
        case aBatchOfThousandsOfLinesRunsWhole
        case anOptionTypedWhereAValueBelongsIsEchoedEscaped
        case aSymlinkPlantedAsATemporaryFileIsNeverWrittenThroughNorRemoved
        case boardAndCardNamesThatLookLikeOptionsWork
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aSurrogatePairAndAnEscapedNULAreReadAndPrintedSafely:
            try aSurrogatePairAndAnEscapedNULAreReadAndPrintedSafely()
        case .aByteOrderMarkStartingTheFileIsSkippedAndNotWrittenBack:
            try aByteOrderMarkStartingTheFileIsSkippedAndNotWrittenBack()
        case .aByteOrderMarkStartingStandardInputIsNotPartOfTheFirstTitle:
            try aByteOrderMarkStartingStandardInputIsNotPartOfTheFirstTitle()
        case .invalidUTF8InArgumentsIsRefusedAndNothingIsWritten:
            try invalidUTF8InArgumentsIsRefusedAndNothingIsWritten()
        case .aKanbanFileNamedByInvalidUTF8InTheEnvironmentIsNeverAnotherFile:
            try aKanbanFileNamedByInvalidUTF8InTheEnvironmentIsNeverAnotherFile()
        case .aKanbanFileInADirectoryWhoseNameIsInvalidUTF8IsFound:
            try aKanbanFileInADirectoryWhoseNameIsInvalidUTF8IsFound()
        case .nulAndControlCharactersOnStandardInputAreRefusedWhole:
            try nulAndControlCharactersOnStandardInputAreRefusedWhole()
        case .aOneMegabyteTitleIsKeptWholeInTheFileAndEveryView: try aOneMegabyteTitleIsKeptWholeInTheFileAndEveryView()
        case .aHugeHandEditedTitleFullOfEscapeSequencesIsPrintedEscapedEverywhere:
            try aHugeHandEditedTitleFullOfEscapeSequencesIsPrintedEscapedEverywhere()
        case .oneHundredThousandLinesOfInputAreTitlesInOrderAndOneBadLineRefusesThemAll:
            try oneHundredThousandLinesOfInputAreTitlesInOrderAndOneBadLineRefusesThemAll()
        case .aHugeSparseFileIsRefusedBeforeAnythingIsRead: try aHugeSparseFileIsRefusedBeforeAnythingIsRead()
        case .aFileLargerThanTheLimitIsRefusedAndAWriteMayNotPassIt:
            try aFileLargerThanTheLimitIsRefusedAndAWriteMayNotPassIt()
        case .standardInputIsRefusedAtTheFirstBadByteWithoutReadingOn:
            try standardInputIsRefusedAtTheFirstBadByteWithoutReadingOn()
        case .importReadsNoMoreThanTheLimitFromFilesAndFIFOs: try importReadsNoMoreThanTheLimitFromFilesAndFIFOs()
        case .bidirectionalControlsAndSeparatorsInTheFileArePrintedEscaped:
            try bidirectionalControlsAndSeparatorsInTheFileArePrintedEscaped()
        case .directionalControlsInTheFileAreEscapedInJSONAndExports:
            try directionalControlsInTheFileAreEscapedInJSONAndExports()
        case .aBatchOfThousandsOfLinesRunsWhole: try aBatchOfThousandsOfLinesRunsWhole()
        case .anOptionTypedWhereAValueBelongsIsEchoedEscaped: try anOptionTypedWhereAValueBelongsIsEchoedEscaped()
        case .aSymlinkPlantedAsATemporaryFileIsNeverWrittenThroughNorRemoved:
            try aSymlinkPlantedAsATemporaryFileIsNeverWrittenThroughNorRemoved()
        case .boardAndCardNamesThatLookLikeOptionsWork: try boardAndCardNamesThatLookLikeOptionsWork()
        }
    }

    /// A file with a line of bytes in it: `{"version":1,"boards":[{"title":"Todo","limit":null,"items":[` + LINE + `]}]}`.
    static func file(items: String) -> [UInt8] {
        Array(#"{"version": 1, "boards": [{"title": "Todo", "limit": null, "items": ["#.utf8)
            + Array(items.utf8)
            + Array("]}, {\"title\": \"Done\", \"limit\": null, \"items\": []}]}\n".utf8)
    }

    /// Checks that every command refuses `bytes` as a kanban file with 65 and leaves it as it was.
    func expectCorrupt(_ bytes: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(bytes)
        let before = try sandbox.snapshot()
        for command in [
            ["list"], ["add", "x"], ["move", "Todo:0", "--to", "Done"], ["board", "add", "New"],
        ] {
            let result = try sandbox.run(command + ["--json"])
            expectTrue(
                result.signal == nil, "\(name): \(command) crashed: \(result)", sourceLocation: sourceLocation
            )
            try expectJSONError(result, exit: 65, code: "corrupt_file", sourceLocation: sourceLocation)
            expectTrue(
                rawControls(in: result.stderr).isEmpty, "\(name): \(result.err)",
                sourceLocation: sourceLocation)
        }
        let text = try sandbox.run(["list"])
        expectTrue(
            text.status == 65 && text.err.hasPrefix("kanban: error: "), "\(name): \(text)",
            sourceLocation: sourceLocation)
        expectTrue(rawControls(in: text.stderr).isEmpty, "\(name): \(text.err)", sourceLocation: sourceLocation)
        expectTrue(
            try sandbox.snapshot() == before, "\(name): the file is untouched", sourceLocation: sourceLocation
        )
        expectTrue(
            try sandbox.entries() == [".kanban.json.lock", "kanban.json"]
                || (try sandbox.entries()) == ["kanban.json"])
    }

    // MARK: - Invalid UTF-8, NUL bytes, lone surrogates, byte order marks

    @Test(
        arguments: [
            (
                "invalid UTF-8 in a title",
                Array(#"{"id": "a1", "title": "bad "#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
            ),
            (
                "a truncated UTF-8 sequence",
                Array(#"{"id": "a1", "title": "cut "#.utf8) + [0xE2, 0x82] + Array(#""}"#.utf8)
            ),
            (
                "an overlong encoding",
                Array(#"{"id": "a1", "title": ""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
            ),
            (
                "an encoded surrogate",
                Array(#"{"id": "a1", "title": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)
            ),
            ("invalid UTF-8 in an id", Array(#"{"id": "a"#.utf8) + [0xFF] + Array(#"", "title": "x"}"#.utf8)),
            (
                "a raw NUL in a title",
                Array(#"{"id": "a1", "title": "nul "#.utf8) + [0x00] + Array(#" here"}"#.utf8)
            ),
            ("a raw NUL between tokens", Array(#"{"id": "a1", "title": "x"}"#.utf8) + [0x00]),
            (
                "a raw escape in a title",
                Array(#"{"id": "a1", "title": "esc "#.utf8) + [0x1B] + Array(#"[2J"}"#.utf8)
            ),
        ] as [(String, [UInt8])])
    func badBytesInTheFileAreRefused(_ name: String, _ item: [UInt8]) throws {
        var bytes = Self.file(items: "")
        let at = bytes.firstIndex(of: UInt8(ascii: "]"))!
        bytes.insert(contentsOf: item, at: at)
        try expectCorrupt(bytes, name)
    }

    @Test(arguments: [
        #"\ud800"#, #"\udfff"#, #"\udc00\ud800"#, #"\ud800\u0041"#, #"\ud800\n"#, #"\ud800"#, #"x\uDBFF"#,
        #"\ud800\ud800"#, #"\ud83d"#,
    ])
    func loneSurrogatesAreRefused(_ escape: String) throws {
        try expectCorrupt(Self.file(items: #"{"id": "a1", "title": "lone "# + escape + #""}"#), escape)
        try expectCorrupt(
            Array((#"[{"title": "A", "items": ["# + "\"" + escape + "\"]}]").utf8), "legacy " + escape)
    }

    func aSurrogatePairAndAnEscapedNULAreReadAndPrintedSafely() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(
            Self.file(
                items:
                    #"{"id": "a1", "title": "smile \ud83d\ude00"}, {"id": "a2", "title": "nul \u0000 byte"}"#)
        )
        let boards = try sandbox.boards()
        expectEqual(boards[0].items, ["smile 😀", "nul \u{0} byte"])
        for format in [["list"], ["list", "--tsv"], ["list", "--json"], ["rename", "a2", "fixed"]] {
            let result = try sandbox.run(format)
            expectEqual(result.status, 0, "\(result)")
            expectTrue(
                rawControls(in: result.stdout, allowTab: format.contains("--tsv")).isEmpty,
                "\(format): \(result.out)")
        }
        try expectEqual(sandbox.boards()[0].items, ["smile 😀", "fixed"])
    }

    func aByteOrderMarkStartingTheFileIsSkippedAndNotWrittenBack() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        try sandbox.write(bom + Self.file(items: #"{"id": "a1", "title": "one"}"#))
        try expectEqual(sandbox.boards()[0].items, ["one"])
        try sandbox.succeed("add", "two", "--to", "Todo")
        try expectEqual(sandbox.boards()[0].items, ["one", "two"])
        try expectEqual(CheckedFile.check(try sandbox.bytes()).get().kanban.boards[0].items.count, 2)
        // The original app's format with a BOM.
        try sandbox.write(bom + Array(#"[{"title": "Todo", "items": ["legacy"]}]"#.utf8))
        try expectEqual(sandbox.boards()[0].items, ["legacy"])
    }

    @Test(
        arguments: [
            ("two byte order marks", [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF]),
            ("a byte order mark after whitespace", [0x20, 0xEF, 0xBB, 0xBF]),
            ("a UTF-16 byte order mark", [0xFF, 0xFE]),
        ] as [(String, [UInt8])])
    func aByteOrderMarkAnywhereElseIsRefused(_ name: String, _ prefix: [UInt8]) throws {
        try expectCorrupt(prefix + Self.file(items: ""), name)
    }

    func aByteOrderMarkStartingStandardInputIsNotPartOfTheFirstTitle() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed(
            ["add", "--to", "Done"], stdin: [0xEF, 0xBB, 0xBF] + Array("first\nsecond\n".utf8))
        // Read with kanban's own reader: JSONSerialization drops U+FEFF inside strings.
        let titles = try CheckedFile.check(try sandbox.bytes()).get().kanban.boards[2].items.suffix(2).map(
            \.title)
        expectEqual(Array(titles), ["first", "second"])
        expectEqual(titles.last, "second")
    }

    func invalidUTF8InArgumentsIsRefusedAndNothingIsWritten() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        // The shell appends an argument that Swift strings cannot carry: bytes 0xFF 0xFE.
        for (arguments, last) in [
            (["add", "--json"], "bad\\377\\376"), (["add", "x", "--json", "-f"], "k\\377.json"),
        ] {
            let result = try sandbox.run(arguments, shell: "set -- \"$@\" \"$(printf '\(last)')\"")
            let message = try expectJSONError(result, exit: 65, code: "bad_input")
            expectTrue(message.contains("UTF-8"), "\(message)")
        }
        try expectEqual(sandbox.snapshot(), before)
        try expectEqual(sandbox.entries(), [".kanban.json.lock", "kanban.json"])
    }

    func aKanbanFileNamedByInvalidUTF8InTheEnvironmentIsNeverAnotherFile() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        // Two files: the one KANBAN_FILE names (byte 0xFF), and the one its repaired spelling names (U+FFFD).
        try sandbox.succeed(["init", "-q", "--boards", "Named", "-f", "named.json"])
        try sandbox.succeed(["init", "-q", "--boards", "Other", "-f", "k\u{FFFD}.json"])
        let raw = sandbox.path + "/k\\377.json"
        let other = try sandbox.snapshot("k\u{FFFD}.json")
        let result = try sandbox.run(
            ["add", "x", "--json"],
            shell: "mv named.json \"$(printf 'k\\377.json')\"; export KANBAN_FILE=\"$(printf '\(raw)')\"")
        let after = try sandbox.snapshot("k\u{FFFD}.json")
        expectEqual(after, other, "the other file is untouched: \(result)")
        try expectJSONError(result, exit: 65, code: "bad_input")
        expectTrue(result.signal == nil)
    }

    func aKanbanFileInADirectoryWhoseNameIsInvalidUTF8IsFound() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.succeed(["init", "-q", "--boards", "Parent"])
        let parent = try sandbox.snapshot()
        // In a directory named with byte 0xFF: its own kanban.json, not the parent's, is the nearest.
        let result = try sandbox.run(
            ["add", "where am I", "--json"],
            shell:
                "d=\"$(printf 'dir\\377')\"; mkdir \"$d\" && cd \"$d\" && \"$0\" init -q --boards Child || exit 99"
        )
        try require(result.status != 99, "\(result)")
        let after = try sandbox.snapshot()
        expectEqual(after, parent, "the parent's kanban.json is untouched: \(result)")
        expectEqual(result.status, 0, "\(result)")
        expectTrue(result.signal == nil)
    }

    func nulAndControlCharactersOnStandardInputAreRefusedWhole() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        for input in [
            Array("fine\nnul \u{0} byte\n".utf8), Array("fine\nback\u{8}space\n".utf8),
            Array("ok\n\u{1B}]0;pwned\u{7}\n".utf8),
        ] {
            let result = try sandbox.run(["add", "--to", "Todo"], stdin: input)
            expectEqual(result.status, 65, "\(result)")
            expectTrue(rawControls(in: result.stderr).isEmpty, "\(result.err)")
        }
        try expectEqual(sandbox.snapshot(), before)
    }

    // MARK: - Structure: nesting, duplicate keys, wrong types

    /// How deep the nested documents go: 200,000 levels, a million in `.ci/reliability`
    /// (README: Reliability). A reader that recursed would overflow its stack on either.
    static let depth = Reliability.size("KANBAN_NESTING", default: 200_000)

    /// A deeply nested document, by name: made in the test, so that the brackets do not end
    /// up in the test log.
    static func nested(_ name: String) -> String {
        let depth = Self.depth
        return switch name {
        case "arrays in an unknown key":
            #"{"version": 1, "boards": [], "x": "# + String(repeating: "[", count: depth)
        case "closed arrays in an unknown key":
            #"{"x": "# + String(repeating: "[", count: depth / 2) + String(repeating: "]", count: depth / 2)
                + #", "version": 1, "boards": []}"#
        case "objects in an item":
            #"{"version": 1, "boards": [{"title": "T", "items": [{"id": "a1", "title": "x", "y": "#
                + String(repeating: #"{"a": "#, count: depth * 3 / 10)
        case "arrays as boards":
            #"{"version": 1, "boards": "# + String(repeating: "[", count: depth)
        default:
            String(repeating: "[", count: depth)
        }
    }

    @Test(arguments: [
        "arrays in an unknown key", "closed arrays in an unknown key", "objects in an item",
        "arrays as boards",
        "arrays as the document",
    ])
    func deeplyNestedJSONIsRefusedWithoutCrashing(_ name: String) throws {
        try expectCorrupt(Array(Self.nested(name).utf8), name)
    }

    @Test(arguments: [
        #"{"version": 1, "version": 1, "boards": []}"#,
        #"{"version": 1, "boards": [], "boards": []}"#,
        #"{"version": 1, "boards": [{"title": "A", "title": "B", "limit": null, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "limit": 2, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [], "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "a1", "id": "a2", "title": "x"}]}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "a1", "title": "x", "title": "x"}]}]}"#,
        #"[{"title": "A", "title": "A", "items": []}]"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "a1", "title": "x"}, {"id": "a1", "title": "y"}]}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": []}, {"title": "a", "limit": null, "items": []}]}"#,
    ])
    func duplicateKeysIdsAndBoardsAreRefused(_ text: String) throws {
        try expectCorrupt(Array(text.utf8), text)
    }

    @Test(arguments: [
        #"{"version": "1", "boards": []}"#,
        #"{"version": 1.5, "boards": []}"#,
        #"{"version": true, "boards": []}"#,
        #"{"version": 1, "boards": {}}"#,
        #"{"version": 1, "boards": [{"title": 5, "limit": null, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": null, "limit": null, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": "3", "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": 1.5, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": -1, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": 1e999, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": 99999999999999999999999, "items": []}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": -0.0e-999999999, "items": [], "x": 1}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": 12, "title": "x"}]}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [{"id": "a1", "title": 12}]}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": [["a1", "x"]]}]}"#,
        #"{"version": 1, "boards": [{"title": "A", "limit": null, "items": "a1"}]}"#,
        #"[{"title": "A", "items": [1, 2]}]"#,
        #"[{"title": 1, "items": []}]"#,
    ])
    func numbersAndOtherValuesWhereStringsBelongAreRefused(_ text: String) throws {
        try expectCorrupt(Array(text.utf8), text)
    }

    // MARK: - Size: 1 MB titles, 100,000 lines

    func aOneMegabyteTitleIsKeptWholeInTheFileAndEveryView() throws {
        let title = String(String(repeating: "abcdefghijklmnopqrstuvwxyz", count: 1_000_000 / 26 + 1).prefix(1_000_000))
        let checked = try Title(title)
        expectEqual(checked.text, title)
        let kanban = try Kanban(boards: [
            Board(id: ItemID("b1")!, title: "Done", items: [Item(id: ItemID("a1")!, title: checked.text)])
        ])
        let bytes = KanbanFile.encode(kanban)
        try expectEqual(KanbanFile.decode(bytes).kanban, kanban)
        let pipe = Terminal(isTerminal: false, width: 120, color: false)
        expectTrue(BoardView.render(kanban.boards, on: pipe).contains(title), "one line per card off a terminal")
        let terminal = Terminal(isTerminal: true, width: 120, color: false)
        expectTrue(BoardView.render(kanban.boards, on: terminal).contains(String(title.prefix(100))))
        let filtered = kanban.boards.map { FilteredBoard(board: $0, indices: Array($0.items.indices)) }
        expectTrue(TSV.boards(filtered).contains(title))
    }

    func aHugeHandEditedTitleFullOfEscapeSequencesIsPrintedEscapedEverywhere() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let hostile = String(repeating: #"\u001b[2J\u009b31m"#, count: 10_000)
        try sandbox.write(Self.file(items: #"{"id": "a1", "title": "x"# + hostile + #""}"#))
        for format in [["list"], ["list", "--tsv"], ["list", "--json"], ["show", "a1"], ["move", "a1", "--to", "Done"]] {
            let result = try sandbox.run(format)
            expectEqual(result.status, 0, "\(format): \(result.err)")
            expectTrue(rawControls(in: result.stdout, allowTab: format.contains("--tsv")).isEmpty)
            expectTrue(result.stdout.count > 100_000, "the whole title is printed")
        }
        // As an argument: Linux caps one argument at 128 KiB, so 100 KB.
        let argument = String(repeating: "long ", count: 20_000)
        let added = try jsonObject(try sandbox.succeed("add", argument, "--json"))["items"] as? [[String: Any]]
        expectEqual(added?.first?["title"] as? String, String(argument.dropLast()))
    }

    func oneHundredThousandLinesOfInputAreTitlesInOrderAndOneBadLineRefusesThemAll() throws {
        let count = 100_000
        let lines = (0..<count).map { "line \($0)" }
        let titles = try StandardInput.titles(from: Array((lines.joined(separator: "\n") + "\n").utf8))
        expectEqual(titles.map(\.text), lines)
        let bad = Array((lines.joined(separator: "\n") + "\nlast \u{7}\n").utf8)
        do {
            _ = try StandardInput.titles(from: bad)
            Issue.record("a control character on the last line must refuse the input")
        } catch {
            expectEqual(error.status.exit, .dataError)
            expectTrue(error.message.contains("line \(count + 1)"), "\(error.message)")
        }
    }

    // MARK: - Size limits: bounded memory

    func aHugeSparseFileIsRefusedBeforeAnythingIsRead() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let fd = open(sandbox.file, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        try require(fd >= 0)
        // 30 GB that take no disk: a file system without sparse files cannot run this test.
        let sized = ftruncate(fd, 30_000_000_000) == 0
        close(fd)
        if !sized { try Test.cancel("skipped: this file system cannot make a 30 GB sparse file") }
        // A few MB of address space are plenty to refuse it; reading it would need 30 GB.
        for arguments in [["list", "--json"], ["add", "x", "--json"]] {
            let result = try sandbox.start(arguments, shell: "ulimit -v 4000000").wait(timeout: 30)
            let message = try expectJSONError(result, exit: 74, code: "io")
            expectTrue(message.contains("27.9 GiB") && message.contains("256 MiB"), "\(message)")
        }
        try expectEqual(sandbox.entries(), ["kanban.json"], "not even a lock file")
    }

    /// The limit is 256 MiB; a debug-only variable lowers it, so that the checks take kilobytes.
    static let smallLimit = ["KANBAN_TEST_MAX_FILE_SIZE": "4096"]

    func aFileLargerThanTheLimitIsRefusedAndAWriteMayNotPassIt() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let sample = try sandbox.bytes().count
        // Grows the file to just under the limit, then one card more must be refused.
        let filler = String(repeating: "f", count: 4096 - sample - 190)  // the new card's line with its timestamps and trail
        try sandbox.succeed(["add", filler, "-q"], environment: Self.smallLimit)
        let before = try sandbox.snapshot()
        expectTrue(before.bytes.count <= 4096)
        let message = try expectJSONError(
            try sandbox.run(["add", String(repeating: "g", count: 100), "--json"], environment: Self.smallLimit),
            exit: 74, code: "io")
        expectTrue(message.contains("grow past 4 KiB"), "\(message)")
        try expectEqual(sandbox.snapshot(), before)
        expectTrue(try sandbox.temporaryFiles().isEmpty)

        // Past the limit (written by another program), the file is refused, whole.
        try sandbox.write(before.bytes + Array(repeating: 0x20, count: 100))
        let read = try expectJSONError(
            try sandbox.run(["list", "--json"], environment: Self.smallLimit), exit: 74, code: "io")
        expectTrue(read.contains("larger than the 4 KiB"), "\(read)")
    }

    func standardInputIsRefusedAtTheFirstBadByteWithoutReadingOn() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        // /dev/zero never ends; 1 GB of address space would not hold what it can give.
        for source in ["/dev/zero", "/dev/urandom"] {
            let result = try sandbox.start(["add", "--json"], shell: "ulimit -v 1000000; exec < \(source)")
                .wait(timeout: 30)
            let message = try expectJSONError(result, exit: 65, code: "bad_input")
            expectTrue(message.contains("standard input, line "), "\(message)")
        }
        // A stream of good lines that never ends stops at the limit: too large to read, as a
        // file or a FIFO past it is (README: Reliability), whichever command reads it.
        for command in [["add"], ["import", "-", "--format", "csv"], ["batch", "-"]] {
            let endless = try sandbox.start(
                command + ["--json"], environment: Self.smallLimit,
                shell: "(echo board,title; yes 'Todo,a card') | \"$0\" \"$@\"; exit"
            ).wait(timeout: 30)
            let message = try expectJSONError(endless, exit: 74, code: "io")
            expectTrue(message.contains("4 KiB"), "\(command): \(message)")
        }
        try expectEqual(sandbox.snapshot(), before)
    }

    /// `import` reads files that are not kanban files: they get the same bound. A stream that
    /// never ends (`/dev/zero`, a FIFO fed by `yes`) stops at the limit, a file past it is
    /// refused before it is read, and a FIFO with an end is read as `cat` reads it.
    func importReadsNoMoreThanTheLimitFromFilesAndFIFOs() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        // 1 GB of address space could not hold what /dev/zero gives without the bound.
        let zero = try sandbox.start(
            ["import", "/dev/zero", "--format", "csv", "--json"], environment: Self.smallLimit,
            shell: "ulimit -v 1000000"
        ).wait(timeout: 30)
        let message = try expectJSONError(zero, exit: 74, code: "io")
        expectTrue(message.contains("larger than 4 KiB"), "\(message)")

        try sandbox.write(Array(("board,title\n" + String(repeating: "Todo,a card\n", count: 400)).utf8), to: "big.csv")
        let big = try expectJSONError(
            try sandbox.run(["import", "big.csv", "--json"], environment: Self.smallLimit), exit: 74, code: "io")
        expectTrue(big.contains("'big.csv'") && big.contains("larger than 4 KiB"), "\(big)")

        expectEqual(mkfifo(sandbox.path("endless.csv"), 0o600), 0)
        let endless = try sandbox.start(
            ["import", "endless.csv", "--json"], environment: Self.smallLimit,
            shell: "(echo board,title; yes Todo,more) > endless.csv &"
        ).wait(timeout: 30)
        expectTrue(try expectJSONError(endless, exit: 74, code: "io").contains("larger than 4 KiB"))
        try expectEqual(sandbox.snapshot(), before, "nothing was imported")

        // A FIFO that ends is an ordinary input (`kanban import <(curl …)`).
        let fed = try sandbox.start(
            ["import", "endless.csv", "-q"], shell: "printf 'board,title\\nTodo,from a pipe\\n' > endless.csv &"
        ).wait(timeout: 30)
        expectEqual(fed.status, 0, "\(fed)")
        try expectEqual(sandbox.boards().first { $0.title == "Todo" }?.items.last, "from a pipe")
    }

    // MARK: - Titles that look empty or break lines

    @Test(arguments: [
        ("zero-width space", "\u{200B}"), ("direction mark", "\u{200E}"), ("byte order mark", "\u{FEFF}"),
        ("word joiners and spaces", " \u{2060}\u{2060} "), ("Hangul filler", "\u{3164}"),
        ("line separator", "a\u{2028}b"), ("paragraph separator", "a\u{2029}"), ("NEL at the end", "nel\u{85}"),
        ("NEL at the start", "\u{85}nel"),
    ])
    func titlesThatLookEmptyOrBreakALineAreRefused(_ name: String, _ title: String) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        for arguments in [["add", "fine", title], ["rename", "Analytics", title], ["board", "add", title]] {
            // A label typed as an option is a malformed argument, as any bad label is (README: Cards with content).
        let label = arguments.contains("--label")
        let message = try expectJSONError(
            try sandbox.run(arguments + ["--json"]), exit: label ? 64 : 65, code: label ? "usage" : "bad_input")
            expectTrue(message.contains("U+"), "names the character: \(message)")
        }
        let stdin = try sandbox.run(["add", "--json"], stdin: Array("fine\n\(title)\n".utf8))
        let message = try expectJSONError(stdin, exit: 65, code: "bad_input")
        expectTrue(message.contains("line 2"), "\(message)")
        try expectEqual(sandbox.snapshot(), before)
    }

    func bidirectionalControlsAndSeparatorsInTheFileArePrintedEscaped() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        // Put there by hand: typed, a separator would be refused.
        try sandbox.write(
            Self.file(
                items: #"{"id": "b1", "title": "evil‮txt.exe"}, {"id": "b2", "title": "one two three"}, "#
                    + #"{"id": "b3", "title": "⁦iso⁩ ‏mark؜ ‪embed‬"}"#))
        for arguments in [["list"], ["list", "--tsv"]] {
            let result = try sandbox.run(arguments)
            expectEqual(result.status, 0, "\(result)")
            let forbidden: Set<UInt32> = [0x202E, 0x2028, 0x2029, 0x2066, 0x2069, 0x200F, 0x061C, 0x202A, 0x202C]
            expectTrue(!result.out.unicodeScalars.contains { forbidden.contains($0.value) }, "\(result.out)")
            expectTrue(result.out.contains("evil\\u{202E}txt.exe"), "\(result.out)")
            if arguments.contains("--tsv") {
                expectEqual(result.out.split(separator: "\n").count, 3, "one line per card: \(result.out)")
            }
        }
    }

    /// README: Reliability. Typed, the directional controls are refused as the separators
    /// are, in words that name the character and where it is; the file is not touched.
    @Test(arguments: [
        ["add", "a\u{202E}b"], ["rename", "Analytics", "a\u{202E}b"], ["board", "add", "a\u{202E}b"],
        ["board", "rename", "Todo", "a\u{202E}b"], ["edit", "Analytics", "--note", "n\u{202E}b"],
        ["edit", "Analytics", "--title", "a\u{202E}b"], ["add", "x", "--label", "a\u{202E}b"],
    ])
    func directionalControlsTypedAreRefusedInWords(_ arguments: [String]) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        // A label typed as an option is a malformed argument, as any bad label is (README: Cards with content).
        let label = arguments.contains("--label")
        let message = try expectJSONError(
            try sandbox.run(arguments + ["--json"]), exit: label ? 64 : 65, code: label ? "usage" : "bad_input")
        expectTrue(message.contains("right-to-left override (U+202E)"), "\(message)")
        if !label { expectTrue(message.contains("at character 2"), "\(message)") }
        for name in ["invalidTitle", "TitleProblem", "directionalFormatting", "KanbanCore", "\u{202E}"] {
            expectTrue(!message.contains(name), "\(message)")
        }
        try expectEqual(sandbox.snapshot(), before)
        // From standard input and from an import: the same words, with the line or the path.
        let stdin = try expectJSONError(
            try sandbox.run(["add", "--json"], stdin: Array("fine\na\u{2028}b\n".utf8)), exit: 65, code: "bad_input")
        expectTrue(stdin.contains("line 2") && stdin.contains("line separator (U+2028) at character 2"), "\(stdin)")
        try sandbox.write(
            Array(#"{"lists": [{"id": "a", "name": "A"}], "cards": [{"idList": "a", "name": "a\u2028b"}]}"#.utf8),
            to: "trello.json")
        let imported = try expectJSONError(
            try sandbox.run(["import", "trello.json", "--json"]), exit: 65, code: "bad_input")
        expectTrue(imported.contains("$.cards[0].name") && imported.contains("line separator (U+2028)"), "\(imported)")
        expectTrue(!imported.contains("invalidTitle") && !imported.contains("TitleProblem"), "\(imported)")
        try expectEqual(sandbox.snapshot(), before)
    }

    /// Found in a file another tool wrote, they are `\uXXXX` in every JSON output and in the
    /// file once kanban writes it, and visible escapes in the other exports.
    func directionalControlsInTheFileAreEscapedInJSONAndExports() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(
            Self.file(items: #"{"id": "b1", "title": "evil‮txt.exe"}, {"id": "b2", "title": "iso\u2066late"}"#))
        let raw: Set<UInt32> = [0x202E, 0x2028, 0x2029, 0x2066, 0x2069, 0x202A]
        for arguments in [
            ["list", "--json"], ["show", "b1", "--json"], ["export", "--format", "json"], ["rename", "b2", "x", "--json"],
            ["export", "--format", "csv"], ["export", "--format", "markdown"], ["move", "b1", "--to", "Done", "--json"],
        ] {
            let result = try sandbox.run(arguments)
            expectEqual(result.status, 0, "\(arguments): \(result)")
            expectTrue(!result.out.unicodeScalars.contains { raw.contains($0.value) }, "\(arguments): \(result.out)")
            guard arguments[0] != "rename" else { continue }
            // Markdown escapes the backslash of the escape too.
            let escape = arguments.contains("csv") || arguments.contains("markdown") ? "u{202E}" : "evil\\u202e"
            expectTrue(result.out.contains("\(escape)txt.exe"), "\(arguments): \(result.out)")
        }
        // The commands above that changed the file wrote it escaped, and it reads the same.
        let text = String(decoding: try sandbox.bytes(), as: UTF8.self)
        expectTrue(text.contains(#""evil\u202etxt.exe""#), "\(text)")
        expectTrue(!text.unicodeScalars.contains { raw.contains($0.value) }, "\(text)")
        expectTrue(try sandbox.run(["show", "b1", "--json"]).out.contains("evil\\u202etxt.exe"))
    }

    // MARK: - A long batch

    /// README: Batch. A script of thousands of lines (5,000 adds; 20,000 in `.ci/reliability`;
    /// once quadratic: 40,000 adds took 1.5 s and a million did not finish) runs whole: every
    /// add lands, in order, with its own id, and the moves and renames between them see the
    /// cards the lines before them added.
    func aBatchOfThousandsOfLinesRunsWhole() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let count = Reliability.size("KANBAN_BATCH_LINES", default: 5_000)
        var script = "# generated\n"
        for index in 0..<count {
            script += "add 'card \(index)' --to Todo\n"
            if index % 1000 == 999 { script += "move 'card \(index)' --to Done --at 0\nrename Done:0 'moved \(index)'\n" }
        }
        let result = try sandbox.run(["batch", "-", "--json"], stdin: Array(script.utf8))
        expectEqual(result.status, 0, "\(result.err)")
        let report = try jsonObject(result.out)
        expectEqual((report["commands"] as? [Any])?.count, count + 2 * (count / 1000))
        let boards = try sandbox.boards()
        let todo = try require(boards.first { $0.title == "Todo" })
        let done = try require(boards.first { $0.title == "Done" })
        let moved = Set((0..<count).filter { $0 % 1000 == 999 })
        let added: [String] = (0..<count).filter { (index: Int) -> Bool in !moved.contains(index) }.map {
            (index: Int) -> String in "card \(index)"
        }
        let movedTitles: [String] = moved.sorted(by: >).map { (index: Int) -> String in "moved \(index)" }
        expectEqual(Array(todo.items.dropFirst(4)), added)
        expectEqual(Array(done.items.prefix(moved.count)), movedTitles)
        let ids = boards.flatMap(\.ids)
        expectEqual(Set(ids).count, ids.count, "every id is unique")
    }

    // MARK: - Escape sequences in a hand-edited file

    static let hostileFile = #"""
        {"version": 1, "boards": [
          {"title": "Evil\u001b[2J\u001b]0;pwned\u0007", "limit": 1, "items": [
            {"id": "e1", "title": "red \u001b[31malert\u001b[0m"},
            {"id": "e2", "title": "red \u001b[31malert\u001b[0m"},
            {"id": "e3", "title": "csi \u009b2J and del \u007f and bs \b\b and cr \rgotcha"}
          ]},
          {"title": "Plain", "limit": 1, "items": [{"id": "p1", "title": "osc \u001b]8;;http://x\u0007link\u001b]8;;\u0007"}]}
        ]}

        """#

    @Test(arguments: [
        ["list"], ["list", "--tsv"], ["list", "--json"], ["list", "--color", "always"], ["list", "Plain"],
        ["move", "e3", "--to", "Plain", "--force"], ["move", "e3", "--to", "Plain"],
        ["copy", "e3", "--to", "Plain", "--force"],
        ["remove", "e1"], ["rename", "e3", "tamed"],
        ["move", "red \u{1B}[31malert\u{1B}[0m", "--to", "Plain"],
        ["move", "red alert", "--to", "Plain"], ["move", "e1", "--to", "Nowhere"],
        ["board", "rename", "Plain", "evil\u{1B}[2j\u{1B}]0;pwned\u{7}"],
        ["board", "add", "EVIL\u{1B}[2J\u{1B}]0;PWNED\u{7}"], ["board", "limit", "Plain", "none"],
        ["board", "remove", "Evil\u{1B}[2J\u{1B}]0;pwned\u{7}"],
        ["move", "Evil\u{1B}[2J\u{1B}]0;pwned\u{7}:9", "--to", "Plain"],
        ["add", "x", "--to", "Evil\u{1B}[2J\u{1B}]0;pwned\u{7}"], ["add", "x", "--to", "Plain", "--dry-run"],
        ["move", "e2", "--to", "Plain", "--color", "always", "--force"], ["list", "\u{1B}[2J"],
        ["frobnicate\u{1B}[2J"],
        ["list", "--\u{1B}[2J"], ["list", "-f", "\u{1B}[2J.json"], ["help", "\u{1B}[2J"],
    ])
    func storedAndTypedEscapeSequencesNeverReachTheTerminal(_ arguments: [String]) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(Self.hostileFile)
        let color = arguments.contains("always")
        for json in [false, true] {
            let result = try sandbox.run(arguments + (json ? ["--json"] : []))
            expectTrue(result.signal == nil, "\(result)")
            expectTrue(
                rawControls(
                    in: result.stdout, allowTab: arguments.contains("--tsv"), allowSGR: color && !json
                ).isEmpty,
                "stdout: \(rawControls(in: result.stdout, allowTab: true, allowSGR: color))")
            expectTrue(rawControls(in: result.stderr).isEmpty, "stderr: \(result.err)")
            if json && result.status != 0 {
                try expectJSONError(result, exit: result.status!, code: "\(jsonCode(result))")
            }
        }
    }

    private func jsonCode(_ result: ProcessResult) -> String {
        ((try? jsonObject(result.err))?["error"] as? [String: Any])?["code"] as? String ?? "?"
    }

    func anOptionTypedWhereAValueBelongsIsEchoedEscaped() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let before = try sandbox.snapshot()
        // Found by the argument fuzzer (Tests/Fuzz/regressions-args/value-hint-echoes-an-escape).
        let arguments = ["add", "x", "--to", "--to=\u{1B}]0;pwned\u{7}"]
        let text = try sandbox.run(arguments)
        expectEqual(text.status, 64, "\(text)")
        expectTrue(rawControls(in: text.stderr).isEmpty, "\(text.err)")
        // As JSON the message is escaped on the way out.
        try expectJSONError(try sandbox.run(arguments + ["--json"]), exit: 64, code: "usage")
        try expectEqual(sandbox.snapshot(), before)
    }

    // MARK: - Files that are not what they seem

    func aSymlinkPlantedAsATemporaryFileIsNeverWrittenThroughNorRemoved() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.write("precious\n", to: "victim.txt")
        // Where older versions put their temporary file, and a name of the current form
        // whose process is long gone (pid 2^22 + 1 is past Linux's largest).
        let planted = [".kanban.json.tmp", ".kanban.json.tmp.4194305-1"]
        for name in planted {
            try require(symlink(sandbox.path("victim.txt"), sandbox.path(name)) == 0)
        }
        try sandbox.succeed("add", "x", "--to", "Done")
        try expectEqual(sandbox.bytes("victim.txt"), Array("precious\n".utf8))
        try expectEqual(sandbox.boards()[2].items.last, "x")
        try expectEqual(sandbox.temporaryFiles(), planted, "a symlink is never taken for a stale temporary file")
    }

    @Test(arguments: ["fifo", "/dev/null"])
    func aKanbanFileThatIsNotARegularFileIsRefusedWithAClearMessage(_ name: String) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        if name == "fifo" { try require(mkfifo(sandbox.path(name), 0o644) == 0) }
        for command in [["list"], ["add", "x"]] {
            let message = try expectJSONError(
                try sandbox.run(command + ["-f", name, "--json"]), exit: 74, code: "io")
            expectTrue(message.contains(name), "\(message)")
            expectTrue(!message.contains("is a directory"), "\(message)")
            expectTrue(message.contains("not a regular file"), "\(message)")
        }
    }

    // MARK: - Names that look like options

    func boardAndCardNamesThatLookLikeOptionsWork() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("board", "add", "--", "--weird")
        try sandbox.succeed("board", "add", "--", "--at")
        try sandbox.succeed("board", "add", "--", "-q")
        try sandbox.succeed("add", "one", "--to", "--weird")
        try sandbox.succeed("add", "two", "--to=--weird")
        try sandbox.succeed("add", "three", "--to=--at")
        try sandbox.succeed("add", "four", "--to=-q")
        try sandbox.succeed("add", "--to", "Todo", "--", "--not-an-option", "-1", "--")
        try sandbox.succeed("move", "one", "--to=--at")
        let boards = try sandbox.boards()
        expectEqual(boards.map(\.title), ["Todo", "In Progress", "Done", "--weird", "--at", "-q"])
        expectEqual(boards[3].items, ["two"])
        expectEqual(boards[4].items, ["three", "one"])
        expectEqual(boards[5].items, ["four"])
        expectEqual(Array(boards[0].items.suffix(3)), ["--not-an-option", "-1", "--"])
    }

    @Test(arguments: [
        ["move", "Analytics", "--to", "--", "--weird"], ["move", "Analytics", "--to", "--at", "0"],
        ["add", "x", "--to", "-q"], ["add", "x", "--to"], ["move", "Analytics", "--to", "--json"],
        ["board", "rename", "Done", "--force"], ["add", "x", "--at", "--top"],
    ])
    func anOptionWhereAValueBelongsIsAUsageErrorAndWritesNothing(_ arguments: [String]) throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        try sandbox.succeed("board", "add", "--", "--weird")
        let before = try sandbox.snapshot()
        let result = try sandbox.run(arguments)
        expectEqual(result.status, 64, "\(result)")
        expectTrue(result.stdout.isEmpty)
        try expectEqual(sandbox.snapshot(), before)
    }
}
