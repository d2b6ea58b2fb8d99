import Testing

@testable import kanban

/// The bytes a terminal sends, decoded into keys, mouse reports and pastes, in whatever
/// pieces they arrive.
@Suite struct UIInput {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case everyKeyDecodes
        case everyKeyDecodesWhateverPiecesItComesIn
        case keysTogetherInOneReadAllDecode
        case aLoneEscapeIsTheEscapeKeyOnlyOnceNothingFollows
        case aCharacterCutBetweenReadsWaitsForItsLastBytes
        case mouseReportsDecodeWithTheirModifiers
        case mouseReportsCutAnywhereDecode
        case aBracketedPasteIsOneEventInAnyPieces
        case aLargePasteIsTakenWhole
        case unknownSequencesAreSkipped
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) {
        switch check {
        case .everyKeyDecodes: everyKeyDecodes()
        case .everyKeyDecodesWhateverPiecesItComesIn: everyKeyDecodesWhateverPiecesItComesIn()
        case .keysTogetherInOneReadAllDecode: keysTogetherInOneReadAllDecode()
        case .aLoneEscapeIsTheEscapeKeyOnlyOnceNothingFollows: aLoneEscapeIsTheEscapeKeyOnlyOnceNothingFollows()
        case .aCharacterCutBetweenReadsWaitsForItsLastBytes: aCharacterCutBetweenReadsWaitsForItsLastBytes()
        case .mouseReportsDecodeWithTheirModifiers: mouseReportsDecodeWithTheirModifiers()
        case .mouseReportsCutAnywhereDecode: mouseReportsCutAnywhereDecode()
        case .aBracketedPasteIsOneEventInAnyPieces: aBracketedPasteIsOneEventInAnyPieces()
        case .aLargePasteIsTakenWhole: aLargePasteIsTakenWhole()
        case .unknownSequencesAreSkipped: unknownSequencesAreSkipped()
        }
    }

    /// Every key `kanban ui` answers to, as xterm sends it.
    static let keys: [(bytes: String, key: Key)] = [
        ("h", .character("h")), ("j", .character("j")), ("k", .character("k")), ("l", .character("l")),
        ("H", .character("H")), ("J", .character("J")), ("K", .character("K")), ("L", .character("L")),
        ("x", .character("x")), ("y", .character("y")), ("p", .character("p")), ("P", .character("P")),
        ("a", .character("a")), ("r", .character("r")), ("e", .character("e")), ("d", .character("d")),
        ("u", .character("u")), ("/", .character("/")), ("?", .character("?")), ("q", .character("q")),
        ("F", .character("F")), ("g", .character("g")), ("G", .character("G")), (" ", .character(" ")),
        ("é", .character("é")), ("漢", .character("漢")), ("🚀", .character("🚀")),
        ("\r", Key(.enter)), ("\n", Key(.enter)), ("\t", Key(.tab)), ("\u{7F}", Key(.backspace)),
        ("\u{8}", Key(.backspace)), ("\u{12}", .control("r")), ("\u{3}", .control("c")),
        ("\u{C}", .control("l")), ("\u{1A}", .control("z")), ("\u{15}", .control("u")),
        ("\u{1B}[A", Key(.up)), ("\u{1B}[B", Key(.down)), ("\u{1B}[C", Key(.right)), ("\u{1B}[D", Key(.left)),
        ("\u{1B}OA", Key(.up)), ("\u{1B}OB", Key(.down)), ("\u{1B}OC", Key(.right)), ("\u{1B}OD", Key(.left)),
        ("\u{1B}[1;2A", Key(.up, .shift)), ("\u{1B}[1;2B", Key(.down, .shift)),
        ("\u{1B}[1;2C", Key(.right, .shift)), ("\u{1B}[1;2D", Key(.left, .shift)),
        ("\u{1B}[1;5C", Key(.right, .control)), ("\u{1B}[1;3D", Key(.left, .alt)),
        ("\u{1B}[1;8A", Key(.up, [.shift, .alt, .control])),
        ("\u{1B}[H", Key(.home)), ("\u{1B}[F", Key(.end)), ("\u{1B}OH", Key(.home)), ("\u{1B}OF", Key(.end)),
        ("\u{1B}[1~", Key(.home)), ("\u{1B}[4~", Key(.end)), ("\u{1B}[7~", Key(.home)), ("\u{1B}[8~", Key(.end)),
        ("\u{1B}[5~", Key(.pageUp)), ("\u{1B}[6~", Key(.pageDown)), ("\u{1B}[3~", Key(.delete)),
        ("\u{1B}[5;5~", Key(.pageUp, .control)), ("\u{1B}[Z", Key(.backTab)),
        ("\u{1B}x", Key(.character("x"), .alt)), ("\u{1B}\u{7F}", Key(.backspace, .alt)),
    ]

    func everyKeyDecodes() {
        for (bytes, key) in Self.keys {
            var decoder = InputDecoder()
            expectEqual(decoder.feed(Array(bytes.utf8)), [.key(key)], "\(Array(bytes.utf8))")
            expectTrue(!decoder.isWaiting, "\(Array(bytes.utf8))")
        }
    }

    func everyKeyDecodesWhateverPiecesItComesIn() {
        for (bytes, key) in Self.keys {
            let all = Array(bytes.utf8)
            for cut in 1..<max(1, all.count) {
                var decoder = InputDecoder()
                let events = decoder.feed(all[..<cut]) + decoder.feed(all[cut...])
                expectEqual(events, [.key(key)], "\(all) cut at \(cut)")
            }
            var decoder = InputDecoder()
            expectEqual(all.flatMap { decoder.feed([$0]) }, [.key(key)], "\(all) byte by byte")
        }
    }

    func keysTogetherInOneReadAllDecode() {
        var decoder = InputDecoder()
        let bytes = Self.keys.flatMap { Array($0.bytes.utf8) }
        expectEqual(decoder.feed(bytes), Self.keys.map { .key($0.key) })
    }

    func aLoneEscapeIsTheEscapeKeyOnlyOnceNothingFollows() {
        var decoder = InputDecoder()
        expectTrue(decoder.feed([0x1B]).isEmpty)
        expectTrue(decoder.isWaiting)
        expectTrue(decoder.waitLimit <= 0.1)
        expectEqual(decoder.flush(), [.key(Key(.escape))])
        expectTrue(!decoder.isWaiting)

        // The rest of a sequence arriving before the wait is over makes the sequence.
        expectTrue(decoder.feed([0x1B]).isEmpty)
        expectTrue(decoder.feed(Array("[1;2".utf8)).isEmpty)
        expectEqual(decoder.feed(Array("C".utf8)), [.key(Key(.right, .shift))])

        // Two ESCs are two Escape keys; a cut sequence flushed is Escape and its characters.
        expectEqual(decoder.feed([0x1B, 0x1B]), [.key(Key(.escape))])
        expectEqual(decoder.flush(), [.key(Key(.escape))])
        expectTrue(decoder.feed(Array("\u{1B}[".utf8)).isEmpty)
        expectEqual(decoder.flush(), [.key(Key(.escape)), .key(.character("["))])
    }

    func aCharacterCutBetweenReadsWaitsForItsLastBytes() {
        var decoder = InputDecoder()
        let bytes = Array("é🚀".utf8)
        expectTrue(decoder.feed(bytes[..<1]).isEmpty)
        expectEqual(decoder.feed(bytes[1..<3]), [.key(.character("é"))])
        expectTrue(decoder.feed(bytes[3..<5]).isEmpty)
        expectEqual(decoder.feed(bytes[5...]), [.key(.character("🚀"))])
        // Invalid UTF-8 is skipped, not a crash or a stall.
        expectEqual(decoder.feed([0xFF, 0xC3, 0x41]), [.key(.character("A"))])
    }

    // MARK: - Mouse

    static let mouse: [(bytes: String, event: MouseEvent)] = [
        ("\u{1B}[<0;10;5M", MouseEvent(kind: .press(.left), column: 9, row: 4)),
        ("\u{1B}[<0;10;5m", MouseEvent(kind: .release(.left), column: 9, row: 4)),
        ("\u{1B}[<32;11;6M", MouseEvent(kind: .drag(.left), column: 10, row: 5)),
        ("\u{1B}[<2;1;1M", MouseEvent(kind: .press(.right), column: 0, row: 0)),
        ("\u{1B}[<1;1;1M", MouseEvent(kind: .press(.middle), column: 0, row: 0)),
        ("\u{1B}[<35;7;7M", MouseEvent(kind: .move, column: 6, row: 6)),
        ("\u{1B}[<64;20;3M", MouseEvent(kind: .wheelUp, column: 19, row: 2)),
        ("\u{1B}[<65;20;3M", MouseEvent(kind: .wheelDown, column: 19, row: 2)),
        // Modifiers: 4 Shift, 8 Alt, 16 Ctrl, added to the button code.
        ("\u{1B}[<4;3;3M", MouseEvent(kind: .press(.left), column: 2, row: 2, modifiers: .shift)),
        ("\u{1B}[<16;3;3m", MouseEvent(kind: .release(.left), column: 2, row: 2, modifiers: .control)),
        ("\u{1B}[<8;3;3m", MouseEvent(kind: .release(.left), column: 2, row: 2, modifiers: .alt)),
        ("\u{1B}[<48;200;100M", MouseEvent(kind: .drag(.left), column: 199, row: 99, modifiers: .control)),
        ("\u{1B}[<60;5;5M", MouseEvent(kind: .drag(.left), column: 4, row: 4, modifiers: [.shift, .alt, .control])),
        ("\u{1B}[<80;5;5M", MouseEvent(kind: .wheelUp, column: 4, row: 4, modifiers: .control)),
        // The X10 report, in case a terminal ignores 1006.
        ("\u{1B}[M *%", MouseEvent(kind: .press(.left), column: 9, row: 4)),
        ("\u{1B}[M#*%", MouseEvent(kind: .release(.left), column: 9, row: 4)),
    ]

    func mouseReportsDecodeWithTheirModifiers() {
        for (bytes, event) in Self.mouse {
            var decoder = InputDecoder()
            expectEqual(decoder.feed(Array(bytes.utf8)), [.mouse(event)], "\(bytes.debugDescription)")
        }
    }

    func mouseReportsCutAnywhereDecode() {
        for (bytes, event) in Self.mouse {
            let all = Array(bytes.utf8)
            for cut in 1..<all.count {
                var decoder = InputDecoder()
                let events = decoder.feed(all[..<cut]) + decoder.feed(all[cut...])
                expectEqual(events, [.mouse(event)], "\(bytes.debugDescription) cut at \(cut)")
            }
        }
        // A whole drag, press to release, in reads cut in odd places.
        let drag = Array("\u{1B}[<0;5;3M\u{1B}[<32;6;3M\u{1B}[<32;30;8M\u{1B}[<16;30;8m".utf8)
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for chunk in stride(from: 0, to: drag.count, by: 7) {
            events += decoder.feed(drag[chunk..<min(drag.count, chunk + 7)])
        }
        expectTrue(
            events == [
                .mouse(MouseEvent(kind: .press(.left), column: 4, row: 2)),
                .mouse(MouseEvent(kind: .drag(.left), column: 5, row: 2)),
                .mouse(MouseEvent(kind: .drag(.left), column: 29, row: 7)),
                .mouse(MouseEvent(kind: .release(.left), column: 29, row: 7, modifiers: .control)),
            ])
    }

    // MARK: - Pastes and noise

    func aBracketedPasteIsOneEventInAnyPieces() {
        let bytes = Array("a\u{1B}[200~first line\nsecond \u{1B}[A\u{1B}[201~b".utf8)
        let expected: [InputEvent] = [
            .key(.character("a")), .paste("first line\nsecond \u{1B}[A"), .key(.character("b")),
        ]
        for cut in 1..<bytes.count {
            var decoder = InputDecoder()
            let events = decoder.feed(bytes[..<cut]) + decoder.feed(bytes[cut...])
            expectEqual(events, expected, "cut at \(cut)")
        }
        // A paste whose end never comes is delivered when the wait is over.
        var decoder = InputDecoder()
        expectTrue(decoder.feed(Array("\u{1B}[200~lost".utf8)).isEmpty)
        expectTrue(decoder.waitLimit >= 1)
        expectEqual(decoder.flush(), [.paste("lost")])
    }

    /// README: The interactive board. 20,000 pasted lines (1.2 MB) were once cut at 1 MiB
    /// without a word: now they are taken whole.
    func aLargePasteIsTakenWhole() {
        let lines = (0..<20_000).map { "pasted card number \($0) of the list, with a few more words" }
        let bytes = Array(("\u{1B}[200~" + lines.joined(separator: "\n") + "\n\u{1B}[201~").utf8)
        expectTrue(bytes.count > 1 << 20)
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        var offset = 0
        while offset < bytes.count {
            events += decoder.feed(bytes[offset..<min(bytes.count, offset + 4096)])
            offset += 4096
        }
        expectEqual(events, [.paste(lines.joined(separator: "\n") + "\n")])
    }

    /// Past the limit, a paste is cut after its last whole line and says how many it left out.
    @Test(arguments: [
        ("one\ntwo\nthree\nfour\n", "one\ntwo\n", 2), ("one\ntwo\nthree\nfour", "one\ntwo\n", 2),
        ("one\ntwo\n\nx", "one\ntwo\n\n", 1), ("one\ntwo\nthree", "one\ntwo\n", 1), ("a very long line", "", 1),
    ])
    func aPastePastTheLimitIsCutAtALineAndSaysSo(text: String, kept: String, left: Int) {
        let bytes = Array(("\u{1B}[200~" + text + "\u{1B}[201~").utf8)
        for cut in 1..<bytes.count {
            var decoder = InputDecoder()
            decoder.maximumPaste = 9
            let events = decoder.feed(bytes[..<cut]) + decoder.feed(bytes[cut...]) + decoder.feed(Array("q".utf8))
            expectEqual(events, [.paste(kept, linesLeftOut: left), .key(.character("q"))], "cut at \(cut)")
        }
    }

    func unknownSequencesAreSkipped() {
        var decoder = InputDecoder()
        // Focus reports, a function key, a bare CSI with garbage: nothing, and what follows is read.
        let bytes = Array("\u{1B}[I\u{1B}[O\u{1B}[15~\u{1B}[?1;2cq".utf8)
        expectEqual(decoder.feed(bytes), [.key(.character("q"))])
        expectTrue(!decoder.isWaiting)
    }
}
