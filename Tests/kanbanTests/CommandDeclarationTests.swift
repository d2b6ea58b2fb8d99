import Testing

@testable import kanban

// A command declares its operands and options as typed values; its synopsis, help,
// operand-count errors and completion all follow from them (README: Development). These
// goldens hold the synopses and help as they were written by hand before, byte for byte.
@Suite struct CommandDeclarationTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case everySynopsisIsAsWrittenBefore
        case everyHelpTextIsAsBefore
        case completionOffersTheOperandsAsBefore
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .everySynopsisIsAsWrittenBefore: everySynopsisIsAsWrittenBefore()
        case .everyHelpTextIsAsBefore: try everyHelpTextIsAsBefore()
        case .completionOffersTheOperandsAsBefore: completionOffersTheOperandsAsBefore()
        }
    }

    static let synopses: [String: String] = [
        "init": "[--sample] [--boards \"A,B,C\"] [--import FILE [--format FORMAT]]",
        "list": "[BOARD…] [FILTERS] [--json | --tsv]",
        "show": "ITEM…",
        "add": "[TEXT…] [--to BOARD] [POSITION] [--label L]… [--assign NAME]… [--due DATE] [--note TEXT]",
        "move": "ITEM… (--to BOARD | BOARD) [POSITION]",
        "copy": "ITEM… (--to BOARD | BOARD) [POSITION]",
        "remove": "ITEM…",
        "rename": "ITEM NEW_TITLE",
        "edit":
            "ITEM [--title T] [--note TEXT | --note - | --append-note TEXT] [--label L]… [--unlabel L]… "
            + "[--assign NAME]… [--unassign NAME]… [--due DATE]",
        "archive": "ITEM… | --from BOARD [--older-than AGE]",
        "restore": "ITEM… [--to BOARD]",
        "resolve": "ITEM|BOARD [--ours | --theirs] [--field FIELD]…",
        "board add": "TITLE [--at N] [--limit N]",
        "board rename": "BOARD NEW_TITLE",
        "board move": "BOARD --at N",
        "board limit": "BOARD N|none",
        "board role": "BOARD backlog|active|done|default",
        "board remove": "BOARD [--force]",
        "batch": "[FILE | -]",
        "log": "[-n N]",
        "undo": "[N]",
        "redo": "[N]",
        "diff": "[OLD [NEW]] [--exit-code]",
        "merge": "BASE OURS THEIRS [-o FILE] | --git BASE OURS THEIRS PATH",
        "git setup": "[--dry-run]",
        "git check": "",
        "git resolve": "[PATH]",
        "stats": "[BOARD…] [--since DATE] [--until DATE] [--cfd] [--svg FILE]",
        "ui": "",
        "export": "[--format markdown|csv|json] [BOARD…] [-o FILE]",
        "import": "FILE… [--format FORMAT]",
        "completion": "bash|zsh|fish",
        "help": "[COMMAND]",
    ]

    func everySynopsisIsAsWrittenBefore() {
        expectEqual(Set(Commands.all.map(\.name)), Set(Self.synopses.keys))
        for spec in Commands.all {
            expectEqual(spec.synopsis, Self.synopses[spec.name], "\(spec.name)")
        }
    }

    /// FNV-1a of each command's help: any byte of it changed changes this.
    static func checksum(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    func everyHelpTextIsAsBefore() throws {
        var sums: [String: UInt64] = [:]
        for spec in Commands.all { sums[spec.name] = Self.checksum(Help.command(spec)) }
        sums[""] = Self.checksum(Help.overview())
        sums["board"] = Self.checksum(Help.groupOverview("board"))
        sums["git"] = Self.checksum(Help.groupOverview("git"))
        expectEqual(sums, Self.helpChecksums)
    }

    static let helpChecksums: [String: UInt64] = [
        "": 14_186_485_492_847_556_533, "add": 10_783_116_038_736_747_830, "archive": 2_300_039_843_458_286_628,
        "batch": 5_679_912_332_960_037_314, "board": 12_630_907_573_075_711_180,
        "board add": 14_809_784_110_139_611_781,
        "board limit": 9_163_385_152_927_270_501, "board move": 11_702_233_666_427_180_165,
        "board role": 18_009_320_521_365_351_665, "board remove": 2_563_139_387_243_111_330, "board rename": 17_725_326_024_600_898_440,
        "completion": 5_218_813_967_792_563_521, "copy": 1_544_755_385_457_684_675, "diff": 10_890_999_600_508_062_690,
        "edit": 17_340_318_948_137_981_500, "export": 9_512_726_026_646_651_748, "git": 10_540_249_351_623_659_816,
        "git check": 4_327_895_012_546_559_591, "git resolve": 5_520_567_073_706_494_184,
        "git setup": 7_004_190_598_484_722_114, "help": 10_850_330_475_909_933_887,
        "import": 16_657_841_618_203_531_673,
        "init": 13_646_778_275_539_869_107, "list": 10_121_019_987_534_881_774, "log": 6_545_734_608_461_194_343,
        "merge": 7_618_620_019_032_023_240, "move": 442_964_019_485_623_195, "redo": 13_459_623_704_290_862_088,
        "remove": 3_693_947_453_190_012_313, "rename": 17_346_144_462_547_782_625, "resolve": 471_036_932_185_428_838,
        "restore": 3_904_553_018_341_267_428, "show": 14_626_179_793_989_315_198, "stats": 17_947_341_458_625_854_883, "ui": 395_556_805_614_467_444,
        "undo": 12_207_140_696_074_920_502,
    ]

    /// What completion offers at each of the first 8 operands: as it was read from the
    /// synopses before, but for `resolve`, which takes one ITEM or BOARD and no second operand.
    func completionOffersTheOperandsAsBefore() {
        var offered: [String: String] = [:]
        for spec in Commands.all {
            offered[spec.name] = (0..<8).map { index in
                spec.operandKinds(at: index).map { "\($0)" }.joined(separator: "|")
            }
            .filter { !$0.isEmpty }.joined(separator: " ")
        }
        expectEqual(offered, Self.offered)
    }

    static let offered: [String: String] = [
        "add": "text text text text text text text text", "archive": "item item item item item item item item",
        "batch": "path", "board add": "text", "board limit": "board words([\"none\"])", "board move": "board",
        "board role": "board words([\"backlog\", \"active\", \"done\", \"default\"])",
        "board remove": "board", "board rename": "board text",
        "completion": "words([\"bash\", \"zsh\", \"fish\"])",
        "copy": "item|board item|board item|board item|board item|board item|board item|board item|board",
        "diff": "path path", "edit": "item", "export": "board board board board board board board board",
        "git check": "", "git resolve": "path", "git setup": "", "help": "command",
        "import": "path path path path path path path path", "init": "",
        "list": "board board board board board board board board",
        "log": "", "merge": "path path path path path path path",
        "move": "item|board item|board item|board item|board item|board item|board item|board item|board",
        "redo": "text", "remove": "item item item item item item item item", "rename": "item text",
        "resolve": "item|board",
        "restore":
            "archivedItem archivedItem archivedItem archivedItem archivedItem archivedItem archivedItem archivedItem",
        "show": "item item item item item item item item", "stats": "board board board board board board board board", "ui": "", "undo": "text",
    ]
}

@Suite struct UsageOperandCountTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case tooManyOrTooFewOperandsNameTheUsage
        case theGroupsAreTheFirstWordsOfTheCommandsOfTwo
        case theOperandCountsFollowFromTheUsage
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) {
        switch check {
        case .tooManyOrTooFewOperandsNameTheUsage: tooManyOrTooFewOperandsNameTheUsage()
        case .theGroupsAreTheFirstWordsOfTheCommandsOfTwo: theGroupsAreTheFirstWordsOfTheCommandsOfTwo()
        case .theOperandCountsFollowFromTheUsage: theOperandCountsFollowFromTheUsage()
        }
    }

    func tooManyOrTooFewOperandsNameTheUsage() {
        let cases: [([String], String)] = [
            (["git", "resolve", "a", "b"], "unexpected argument 'b'; usage: kanban git resolve [PATH]"),
            (["rename", "a"], "missing argument; usage: kanban rename ITEM NEW_TITLE"),
            (["board", "limit", "Todo", "3", "4"], "unexpected argument '4'; usage: kanban board limit BOARD N|none"),
        ]
        for (arguments, message) in cases {
            #expect(
                throws: CLIError.usage(
                    message, command: Commands.named(arguments.prefix(2).joined(separator: " "))?.name ?? arguments[0])
            ) {
                try Parser.parse(arguments)
            }
        }
    }

    func theGroupsAreTheFirstWordsOfTheCommandsOfTwo() {
        expectEqual(Commands.groups, ["board", "git"])
        expectEqual(CommandGroups.subcommands(of: "board"), ["add", "rename", "move", "limit", "role", "remove", "rm"])
    }

    func theOperandCountsFollowFromTheUsage() {
        func count(_ name: String) -> String {
            let (lower, upper) = Usage.operandCount(Commands.named(name)!.usage)
            return "\(lower)...\(upper.map(String.init) ?? "")"
        }
        expectEqual(count("rename"), "2...2")
        expectEqual(count("move"), "1...")
        expectEqual(count("archive"), "0...")
        expectEqual(count("diff"), "0...2")
        expectEqual(count("merge"), "3...4")
        expectEqual(count("board move"), "1...1")
        expectEqual(count("batch"), "0...1")
        expectEqual(count("ui"), "0...0")
    }
}

// What follows from what a command is, each said once by the command (README: Batch).
@Suite struct CommandRulesTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aBatchRefusesWhatItCannotRunAndSaysWhy
        case aBatchRunsTheOperationsOfCommandsThatChangeTheFile
        case eachCommandSaysWhetherItChangesTheFile
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aBatchRefusesWhatItCannotRunAndSaysWhy: aBatchRefusesWhatItCannotRunAndSaysWhy()
        case .aBatchRunsTheOperationsOfCommandsThatChangeTheFile:
            try aBatchRunsTheOperationsOfCommandsThatChangeTheFile()
        case .eachCommandSaysWhetherItChangesTheFile: try eachCommandSaysWhetherItChangesTheFile()
        }
    }

    static let refusedInBatch: [(line: String, message: String)] = [
        ("ui", "'ui' is interactive and cannot run in a batch"),
        ("import a.md", "'import' reads files; run it on its own, not in a batch"),
        ("init --import a.md", "'import' reads files; run it on its own, not in a batch"),
        ("edit k3f9", "in a batch, 'edit' takes its changes as options, such as --note TEXT"),
        ("edit k3f9 --note -", "in a batch, 'edit' takes its changes as options, such as --note TEXT"),
        ("add", "in a batch, 'add' takes its TEXT on the line (standard input is not read)"),
        ("add x --dry-run", "--dry-run applies to the whole batch: 'kanban batch --dry-run'"),
        ("add --dry-run", "--dry-run applies to the whole batch: 'kanban batch --dry-run'"),
        (
            "list",
            "'list' does not change the file; a batch runs commands that do (add, move, copy, remove, "
                + "rename, edit, archive, restore, board …)"
        ),
        (
            "undo",
            "'undo' does not change the file; a batch runs commands that do (add, move, copy, remove, "
                + "rename, edit, archive, restore, board …)"
        ),
        (
            "git setup",
            "'git' does not change the file; a batch runs commands that do (add, move, copy, remove, "
                + "rename, edit, archive, restore, board …)"
        ),
    ]

    func aBatchRefusesWhatItCannotRunAndSaysWhy() {
        for (line, message) in Self.refusedInBatch {
            do {
                _ = try App.operations(inScript: Array("add ok\n\(line)\n".utf8), named: "script")
                Issue.record("'\(line)' was accepted in a batch")
            } catch {
                expectEqual(error, .atLine(2, .usage(message, command: "batch")), "\(line)")
            }
        }
    }

    func aBatchRunsTheOperationsOfCommandsThatChangeTheFile() throws {
        let operations = try App.operations(
            inScript: Array("board add Review\nmove Todo:0 Review\nrm Done:0\n".utf8), named: "script")
        expectEqual(operations.map(\.0), [1, 2, 3])
        expectEqual(operations.map(\.1.name), ["board add", "move", "remove"])
    }

    static let changesFile: [(arguments: [String], changes: Bool, notesDriver: Bool)] = [
        ([], false, false), (["list"], false, false), (["show", "a"], false, false), (["help"], false, false),
        (["--version"], false, false), (["log"], false, false), (["diff"], false, false),
        (["git", "check"], false, false), (["completion", "bash"], false, false), (["export"], false, false),
        (["merge", "a", "b", "c"], false, false), (["merge", "a", "b", "c", "-o", "d"], true, false),
        (["merge", "--git", "a", "b", "c", "d"], true, false), (["git", "setup"], true, false),
        (["git", "setup", "--dry-run"], false, false), (["git", "resolve"], true, true), (["ui"], true, true),
        (["init"], true, true), (["init", "--dry-run"], false, false), (["add", "x"], true, true),
        (["add", "x", "--dry-run"], false, false), (["edit", "a"], true, true), (["batch"], true, true),
        (["batch", "--dry-run"], false, false), (["undo"], true, true), (["redo", "--dry-run"], false, false),
        (["import", "a"], true, true), (["init", "--import", "a", "--dry-run"], false, false),
    ]

    func eachCommandSaysWhetherItChangesTheFile() throws {
        for (arguments, changes, notesDriver) in Self.changesFile {
            let command = try Parser.parse(arguments).command.parsed
            expectEqual(command.changesFile, changes, "\(arguments)")
            expectEqual(command.mayNoteMergeDriver, notesDriver, "\(arguments)")
        }
    }
}
