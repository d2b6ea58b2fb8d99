// What a terminal sends to `kanban ui`, decoded from bytes: keys (with the modifiers xterm
// encodes), SGR mouse reports (modes 1000, 1002 and 1006) and bracketed pastes (2004).
// Pure: the terminal layer feeds the bytes it reads, in whatever pieces they came.

/// Shift, Alt and Ctrl, as a key or a mouse report carries them.
struct Modifiers: OptionSet, Hashable, Sendable {
    let rawValue: UInt8

    static let shift = Modifiers(rawValue: 1)
    static let alt = Modifiers(rawValue: 2)
    static let control = Modifiers(rawValue: 4)

    /// From xterm's modifier parameter (`\e[1;5A`: 5 is Ctrl): one more than the bits.
    init(parameter: Int) {
        let bits = max(0, parameter - 1)
        var modifiers: Modifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & 2 != 0 || bits & 8 != 0 { modifiers.insert(.alt) }  // 8 is Meta, which is Alt here
        if bits & 4 != 0 { modifiers.insert(.control) }
        self = modifiers
    }

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }
}

/// A key press.
struct Key: Hashable, Sendable {
    enum Code: Hashable, Sendable {
        /// A printable character (one Unicode scalar; a prompt joins them into clusters).
        case character(Character)
        /// Ctrl and a letter, `"r"` for Ctrl-R (sent as one control byte).
        case control(Character)
        case up, down, left, right, home, end, pageUp, pageDown
        case enter, escape, backspace, delete, tab, backTab
    }

    var code: Code
    var modifiers: Modifiers = []

    init(_ code: Code, _ modifiers: Modifiers = []) {
        self.code = code
        self.modifiers = modifiers
    }

    static func character(_ character: Character) -> Key { Key(.character(character)) }
    static func control(_ letter: Character) -> Key { Key(.control(letter)) }
}

/// A mouse report: what happened, where (0-based cell), and the modifiers held.
struct MouseEvent: Hashable, Sendable {
    enum Button: Hashable, Sendable {
        case left, middle, right
    }

    enum Kind: Hashable, Sendable {
        case press(Button)
        case release(Button)
        /// The pointer moved with a button held (mode 1002).
        case drag(Button)
        /// The pointer moved with no button held (mode 1003, which kanban does not ask for).
        case move
        case wheelUp, wheelDown
    }

    var kind: Kind
    var column: Int
    var row: Int
    var modifiers: Modifiers = []
}

/// One thing the terminal said.
enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// Text pasted while bracketed paste was on, as it came (newlines included). A paste
    /// larger than the decoder takes is cut after its last whole line; `linesLeftOut` says
    /// how many lines (whole or begun) were not taken, 0 when none.
    case paste(String, linesLeftOut: Int = 0)
}

/// Turns the bytes a terminal sends into ``InputEvent``s.
///
/// Bytes may arrive in any pieces: a sequence cut between two reads waits in a buffer for
/// the rest. An ESC with nothing after it might be the Escape key or the start of a
/// sequence still on its way; the caller waits ``waitLimit`` seconds and then calls
/// ``flush()``, which takes it for Escape.
struct InputDecoder {
    private var buffer: [UInt8] = []
    /// The text of a bracketed paste so far, once its opening `\e[200~` has come.
    private var pasted: [UInt8]?

    /// A paste larger than this is cut, after its last whole line, and the event says how
    /// many lines were left out: it is text for titles (about 300,000 of them), not a file.
    static let defaultMaximumPaste = 16 << 20
    var maximumPaste = InputDecoder.defaultMaximumPaste
    /// Of the paste being read, the bytes past ``maximumPaste``: how many line feeds they
    /// held, and whether they end inside a line.
    private var overflow: (lineFeeds: Int, bytes: Int, endsInLine: Bool) = (0, 0, false)

    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Whether bytes wait for more: the caller then flushes after ``waitLimit`` seconds.
    var isWaiting: Bool { !buffer.isEmpty || pasted != nil }

    /// How long to wait for the rest of a sequence: a moment for an escape sequence (a
    /// lone ESC is then the Escape key), longer inside a paste, which may come in pieces.
    var waitLimit: Double { pasted != nil ? 1.0 : 0.05 }

    /// The events in `bytes` and any bytes kept from before; an unfinished sequence at the
    /// end is kept for the next call.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        buffer.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// The events in what is left, taking an unfinished sequence for what it starts with:
    /// a lone ESC is the Escape key, an unfinished paste is the text so far.
    mutating func flush() -> [InputEvent] {
        decode(final: true)
    }

    // MARK: - Decoding

    private enum Step {
        /// `length` bytes make this event (or nothing worth reporting).
        case event(InputEvent?, length: Int)
        /// The bytes so far start a sequence that is not finished.
        case unfinished
    }

    private mutating func decode(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var start = 0
        while true {
            if pasted != nil {
                let (done, consumed) = takePaste(from: start, final: final)
                start += consumed
                if let done { events.append(done) }
                if pasted != nil { break }
                continue
            }
            guard start < buffer.count else { break }
            switch step(at: start) {
            case .event(let event, let length):
                if let event { events.append(event) }
                start += length
            case .unfinished:
                guard final else {
                    buffer.removeFirst(start)
                    return events
                }
                // Nothing more is coming: an ESC alone is the Escape key, the rest of a
                // cut sequence is read as keys; a cut UTF-8 character is dropped.
                if buffer[start] == 0x1B { events.append(.key(Key(.escape))) }
                start += 1
            }
        }
        buffer.removeFirst(min(start, buffer.count))
        return events
    }

    /// Takes paste text from the buffer up to the closing `\e[201~`; returns the text when
    /// the paste ended (or `final` cuts it short) and how many bytes were used.
    private mutating func takePaste(from start: Int, final: Bool) -> (InputEvent?, Int) {
        let end = Self.pasteEnd
        var index = start
        while index < buffer.count {
            if buffer[index] == 0x1B {
                let available = min(end.count, buffer.count - index)
                if buffer[index..<index + available].elementsEqual(end.prefix(available)) {
                    if available == end.count {
                        let event = finishPaste(adding: buffer[start..<index])
                        return (event, index + end.count - start)
                    }
                    // Maybe the closing sequence, cut: keep it for the next read.
                    if !final {
                        appendPasted(buffer[start..<index])
                        return (nil, index - start)
                    }
                }
            }
            index += 1
        }
        appendPasted(buffer[start..<buffer.count])
        if final { return (finishPaste(adding: []), buffer.count - start) }
        return (nil, buffer.count - start)
    }

    private mutating func appendPasted(_ bytes: ArraySlice<UInt8>) {
        guard pasted != nil else { return }
        let room = max(0, maximumPaste - pasted!.count)
        pasted!.append(contentsOf: bytes.prefix(room))
        let rest = bytes.dropFirst(room)
        guard let last = rest.last else { return }
        overflow.lineFeeds += rest.count { $0 == 0x0A }
        overflow.bytes += rest.count
        overflow.endsInLine = last != 0x0A
    }

    private mutating func finishPaste(adding bytes: ArraySlice<UInt8>) -> InputEvent {
        appendPasted(bytes)
        var kept = pasted ?? []
        pasted = nil
        defer { overflow = (0, 0, false) }
        guard overflow.bytes > 0 else { return .paste(String(decoding: kept, as: UTF8.self)) }
        // Cut: the line the limit fell in goes with the rest, rather than half of it as a card.
        kept.removeSubrange((kept.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)...)
        // The lines of what was left out (that line's start and the bytes past the limit).
        let left = overflow.lineFeeds + (overflow.endsInLine ? 1 : 0)
        return .paste(String(decoding: kept, as: UTF8.self), linesLeftOut: left)
    }

    /// The event that starts at `index`.
    private mutating func step(at index: Int) -> Step {
        let byte = buffer[index]
        switch byte {
        case 0x1B:
            return escape(at: index)
        case 0x0D, 0x0A:
            return .event(.key(Key(.enter)), length: 1)
        case 0x09:
            return .event(.key(Key(.tab)), length: 1)
        case 0x7F, 0x08:
            return .event(.key(Key(.backspace)), length: 1)
        case 0x01...0x1A:
            return .event(.key(.control(Character(Unicode.Scalar(byte + 0x60)))), length: 1)
        case 0x00, 0x1C...0x1F:
            return .event(nil, length: 1)
        case 0x20..<0x80:
            return .event(.key(.character(Character(Unicode.Scalar(byte)))), length: 1)
        default:
            return utf8Character(at: index)
        }
    }

    /// A character of several UTF-8 bytes; an invalid byte is skipped.
    private func utf8Character(at index: Int) -> Step {
        let lead = buffer[index]
        let length =
            switch lead {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
        guard length > 0 else { return .event(nil, length: 1) }
        guard buffer.count - index >= length else {
            // Wait for the rest, unless what came already cannot be part of it.
            let tail = buffer[(index + 1)...]
            return tail.allSatisfy { $0 & 0xC0 == 0x80 } ? .unfinished : .event(nil, length: 1)
        }
        guard let text = String(validating: buffer[index..<index + length], as: UTF8.self),
            let scalar = text.unicodeScalars.first
        else { return .event(nil, length: 1) }
        return .event(.key(.character(Character(scalar))), length: length)
    }

    /// What follows an ESC: a CSI or SS3 sequence, or Alt and a key.
    private mutating func escape(at index: Int) -> Step {
        guard index + 1 < buffer.count else { return .unfinished }
        let next = buffer[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return csi(at: index)
        case UInt8(ascii: "O"):
            guard index + 2 < buffer.count else { return .unfinished }
            let code: Key.Code? =
                switch buffer[index + 2] {
                case UInt8(ascii: "A"): .up
                case UInt8(ascii: "B"): .down
                case UInt8(ascii: "C"): .right
                case UInt8(ascii: "D"): .left
                case UInt8(ascii: "H"): .home
                case UInt8(ascii: "F"): .end
                case UInt8(ascii: "M"): .enter  // keypad Enter in application mode
                default: nil
                }
            return .event(code.map { .key(Key($0)) }, length: 3)
        case 0x1B:
            return .event(.key(Key(.escape)), length: 1)
        default:
            // Alt and a key: ESC, then the key's own bytes.
            switch step(at: index + 1) {
            case .unfinished:
                return .unfinished
            case .event(let event, let length):
                guard case .key(var key)? = event else { return .event(event, length: 1 + length) }
                key.modifiers.insert(.alt)
                return .event(.key(key), length: 1 + length)
            }
        }
    }

    /// `ESC [ parameters intermediates final`: cursor keys, editing keys, SGR mouse
    /// reports (`ESC [ < b ; x ; y M/m`), the legacy mouse report and the start of a paste.
    private mutating func csi(at index: Int) -> Step {
        var end = index + 2
        guard end < buffer.count else { return .unfinished }
        if buffer[end] == UInt8(ascii: "M") {
            // The X10 mouse report: three bytes after `ESC [ M`, each offset by 32.
            guard end + 3 < buffer.count else { return .unfinished }
            let (b, x, y) = (Int(buffer[end + 1]) - 32, Int(buffer[end + 2]) - 33, Int(buffer[end + 3]) - 33)
            let event = Self.mouse(button: b, column: x, row: y, released: b & 3 == 3 && b & 64 == 0)
            return .event(event.map { .mouse($0) }, length: end + 4 - index)
        }
        let parametersStart = end
        while end < buffer.count, (0x30...0x3F).contains(buffer[end]) { end += 1 }
        let parametersEnd = end
        while end < buffer.count, (0x20...0x2F).contains(buffer[end]) { end += 1 }
        guard end < buffer.count else {
            // A sequence longer than any a terminal sends is noise: drop its start.
            return end - index > 64 ? .event(nil, length: 2) : .unfinished
        }
        let final = buffer[end]
        let length = end + 1 - index
        guard (0x40...0x7E).contains(final) else { return .event(nil, length: 2) }
        let parameterBytes = buffer[parametersStart..<parametersEnd]
        if parameterBytes.first == UInt8(ascii: "<") {
            let numbers = Self.numbers(parameterBytes.dropFirst())
            guard numbers.count == 3, final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else {
                return .event(nil, length: length)
            }
            let event = Self.mouse(
                button: numbers[0], column: numbers[1] - 1, row: numbers[2] - 1, released: final == UInt8(ascii: "m"))
            return .event(event.map { .mouse($0) }, length: length)
        }
        let numbers = Self.numbers(parameterBytes)
        let modifiers = Modifiers(parameter: numbers.count > 1 ? numbers[1] : 1)
        let code: Key.Code?
        switch final {
        case UInt8(ascii: "A"): code = .up
        case UInt8(ascii: "B"): code = .down
        case UInt8(ascii: "C"): code = .right
        case UInt8(ascii: "D"): code = .left
        case UInt8(ascii: "H"): code = .home
        case UInt8(ascii: "F"): code = .end
        case UInt8(ascii: "Z"): code = .backTab
        case UInt8(ascii: "~"):
            switch numbers.first ?? 0 {
            case 1, 7: code = .home
            case 4, 8: code = .end
            case 3: code = .delete
            case 5: code = .pageUp
            case 6: code = .pageDown
            case 200:
                pasted = []
                return .event(nil, length: length)
            default: code = nil
            }
        default:
            code = nil  // focus reports, function keys and the like
        }
        return .event(code.map { .key(Key($0, modifiers)) }, length: length)
    }

    /// Decimal numbers separated by `;`; an empty one is 0 (a missing number is its default).
    private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int] {
        bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { digits in
            digits.reduce(0) { value, byte in
                guard (0x30...0x39).contains(byte) else { return value }
                return min(value * 10 + Int(byte - 0x30), 1 << 20)
            }
        }
    }

    /// A mouse report from xterm's button code: the low two bits are the button (3: none),
    /// 4 Shift, 8 Alt (Meta), 16 Ctrl, 32 motion, 64 the wheel.
    static func mouse(button code: Int, column: Int, row: Int, released: Bool) -> MouseEvent? {
        guard code >= 0, column >= 0, row >= 0 else { return nil }
        var modifiers: Modifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let kind: MouseEvent.Kind
        if code & 128 != 0 {
            return nil  // buttons 8 to 11
        } else if code & 64 != 0 {
            switch code & 3 {
            case 0: kind = .wheelUp
            case 1: kind = .wheelDown
            default: return nil  // sideways
            }
        } else {
            let button: MouseEvent.Button? =
                switch code & 3 {
                case 0: .left
                case 1: .middle
                case 2: .right
                default: nil
                }
            if released {
                kind = .release(button ?? .left)
            } else if code & 32 != 0 {
                kind = button.map { .drag($0) } ?? .move
            } else {
                guard let button else { return nil }
                kind = .press(button)
            }
        }
        return MouseEvent(kind: kind, column: column, row: row, modifiers: modifiers)
    }
}
