import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

// What kanban prints for pasting into a shell (README: Security): the command lines of
// `kanban log` and `undo`, the commands of error hints, and merge suggestions. Each must
// read back as its very words in bash with history expansion on (as at a prompt), and in
// zsh and fish when they are installed, with nothing run.

@Suite("command lines printed for a shell")
struct ShellQuotingTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case everyWordReadsBackInEveryShellWithNothingExpanded
        case randomWordsReadBackInEveryShell
        case batchScriptsSplitPrintedWordsBackIntoTheWords
        case aWordShowsNoControlCharacterButTabsAndLineFeeds
        case theLogAndUndoPrintCommandLinesThatReadBackAsTheirWords
        case theWIPLimitHintNamesTheBoardAsAWordThatReadsBack
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .everyWordReadsBackInEveryShellWithNothingExpanded: try everyWordReadsBackInEveryShellWithNothingExpanded()
        case .randomWordsReadBackInEveryShell: try randomWordsReadBackInEveryShell()
        case .batchScriptsSplitPrintedWordsBackIntoTheWords: try batchScriptsSplitPrintedWordsBackIntoTheWords()
        case .aWordShowsNoControlCharacterButTabsAndLineFeeds: aWordShowsNoControlCharacterButTabsAndLineFeeds()
        case .theLogAndUndoPrintCommandLinesThatReadBackAsTheirWords:
            try theLogAndUndoPrintCommandLinesThatReadBackAsTheirWords()
        case .theWIPLimitHintNamesTheBoardAsAWordThatReadsBack: try theWIPLimitHintNamesTheBoardAsAWordThatReadsBack()
        }
    }

    /// Titles that a shell would expand or split, in ways kanban accepts as titles.
    static let hostileTitles = [
        "Wow!! great", "!", "!!", "!-1 and !$", "$(touch canary)", "`touch canary`", "${HOME}", "it's",
        #"say "hi" \ there"#, "it'\u{301}s", "\"\u{301}", #"end\"#, "émoji 🧑‍💻 漢字", "~user", "=ls", "%1", "*.txt",
        "a;b|c&d", "#hash", "{a,b}", "x^y^",
    ]

    func everyWordReadsBackInEveryShellWithNothingExpanded() throws {
        let words =
            Self.hostileTitles + [
                "", " ", "-dash", "line\nbreak", "tab\there", "\n", "'\u{301}\n'", "\\'\\", "a''b", "''",
                "esc\u{1B}[31mred", "cr\rhere", "\u{202E}reversed", "del\u{7F}", "nel\u{85}", "sep\u{2028}",
                "\u{301}'", "x'\u{301}; touch canary; echo '", "a\n^x^y", "a\n!!", "\n^",
            ]
        try expectShellsReadBack(words, quotedBy: ShellQuote.word)
    }

    func randomWordsReadBackInEveryShell() throws {
        let seed: UInt64 = 20_261_127
        print("randomWordsReadBackInEveryShell: seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("ab !'\"\\$`&;|()<>*?[]{}#~=%^,:\t\n-é漢🙂\u{301}\u{1B}\u{202E}")
        let words = (0..<300).map { _ in
            String((0..<Int.random(in: 0...10, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        try expectShellsReadBack(words, quotedBy: ShellQuote.word)
    }

    /// A line from `kanban log` pasted into a batch script means the same words there.
    func batchScriptsSplitPrintedWordsBackIntoTheWords() throws {
        let seed: UInt64 = 20_261_128
        print("batchScriptsSplitPrintedWordsBackIntoTheWords: seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("ab !'\"\\$`&;|()<>*?[]{}#~=%^,:-é漢🙂\u{301}")
        for _ in 0..<2_000 {
            let words = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                String((0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            }
            let line = ShellQuote.commandLine(words)
            try expectEqual(ShellWords.split(line[...]), words, "\(line)")
        }
    }

    func aWordShowsNoControlCharacterButTabsAndLineFeeds() {
        for text in ["esc\u{1B}[31m", "\u{202E}x", "cr\r", "\u{9B}", "a\u{2029}b"] {
            let word = ShellQuote.word(text)
            expectTrue(!word.unicodeScalars.contains { $0.isEscapedForDisplay }, "\(Escape.visible(word))")
        }
        expectEqual(ShellQuote.word("a\tb\nc"), "'a\tb\nc'")
        expectEqual(ShellQuote.word("In Progress"), "'In Progress'")
        expectEqual(ShellQuote.word("Todo:0"), "Todo:0")
        expectEqual(ShellQuote.word("Café"), "Café")
        expectEqual(ShellQuote.word("=ls"), "'=ls'")
        expectEqual(ShellQuote.word("it's"), #"'it'\''s'"#)
    }

    func theLogAndUndoPrintCommandLinesThatReadBackAsTheirWords() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        for title in Self.hostileTitles {
            try sandbox.succeed(["add", title, "-q"])
        }
        try sandbox.succeed(["edit", "Analytics", "--note", "line\nbreak\tand tab !! $(touch canary)", "-q"])
        try sandbox.succeed(["add", "--", "-dash", "-q"])
        let json = try JSONSerialization.jsonObject(with: Data(try sandbox.succeed(["log", "--json"]).utf8))
        let records = try require(json as? [[String: Any]])
        let text = try sandbox.succeed(["log"])
        var lines: [(printed: String, words: [String])] = []
        for record in records {
            let number = try require(record["number"] as? Int)
            let (time, user) = (try require(record["time"] as? String), try require(record["user"] as? String))
            let heading = "#\(number)  \(time)  \(user)  "
            let words = try require(record["command"] as? [String])
            let start = try require(text.range(of: heading), "entry #\(number) in \(text)")
            let end = try require(text[start.upperBound...].range(of: "\n    "))
            lines.append((String(text[start.upperBound..<end.lowerBound]), ["kanban"] + words))
        }
        expectEqual(lines.count, Self.hostileTitles.count + 2)
        let undone = try sandbox.succeed(["undo"])
        let tookBack = try require(undone.split(separator: "\n").first)
        let prefix = "took back #\(records.count): "
        try require(tookBack.hasPrefix(prefix), "\(undone)")
        let last = try require(records.first?["command"] as? [String])
        lines.append((String(tookBack.dropFirst(prefix.count)), ["kanban"] + last))
        try expectShellsRead(lines)
    }

    func theWIPLimitHintNamesTheBoardAsAWordThatReadsBack() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let board = "Wow!! $(touch canary) it's"
        try sandbox.succeed(["board", "add", board, "-q"])
        try sandbox.succeed(["board", "limit", board, "0", "-q"])
        let refused = try sandbox.run(["add", "x", "--to", board])
        expectEqual(refused.status, 1, "\(refused)")
        let message = refused.err
        let start = try require(message.range(of: "raise it with "), "\(message)")
        let end = try require(message.range(of: " N", options: .backwards))
        let hint = String(message[start.upperBound..<end.lowerBound])
        try expectShellsRead([(hint, ["kanban", "board", "limit", board])])
    }
}
