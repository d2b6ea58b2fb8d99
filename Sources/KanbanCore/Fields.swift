// The values a card carries besides its title: labels, a due date, timestamps, a note.
// Each type can only hold a valid value; text typed by a user or read from a file goes
// through its parsing initializer, which is the one place its rule is written.

// MARK: - Calendar dates

/// A calendar date (a due date), without a time or a time zone, in the years 0000–9999
/// that `YYYY-MM-DD` can write.
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let daysSinceEpoch: Int

    /// The days a `Day` can be, in days since 1970-01-01: 0000-01-01 to 9999-12-31.
    public static let range = -719_528...2_932_896

    /// The date `daysSinceEpoch` days after 1970-01-01, or the first or last day of ``range``
    /// when it is outside it: every `Day` can be written, and read back.
    public init(daysSinceEpoch: Int) {
        self.daysSinceEpoch = min(max(daysSinceEpoch, Self.range.lowerBound), Self.range.upperBound)
    }

    /// The date of `year`-`month`-`day`, or `nil` if there is no such date (years 0…9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (0...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        daysSinceEpoch = Self.days(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`, exactly.
    public init?(iso text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            let year = decimal(utf8[0..<4]), let month = decimal(utf8[5..<7]), let day = decimal(utf8[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD` from UTF-8 bytes, without making a string.
    init?(isoBytes b: UnsafeBufferPointer<UInt8>) {
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Year, month (1–12) and day (1–31).
    public var components: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = components
        guard (0...9999).contains(year) else { return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }
        // Ten ASCII digits and dashes, written in place: reports and lists print thousands.
        return String(unsafeUninitializedCapacity: 10) { text in
            for (offset, value, width) in [(0, year, 4), (5, month, 2), (8, day, 2)] {
                var rest = value
                for place in (offset..<offset + width).reversed() {
                    text[place] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            text[4] = UInt8(ascii: "-")
            text[7] = UInt8(ascii: "-")
            return 10
        }
    }

    /// `MM-DD`, as the board view shows a due date.
    public var monthAndDay: String {
        let (_, month, day) = components
        return pad(month, 2) + "-" + pad(day, 2)
    }

    /// The date `days` later (earlier, if negative), kept within ``range``.
    public func adding(days: Int) -> Day {
        let (sum, overflow) = daysSinceEpoch.addingReportingOverflow(days)
        return Day(daysSinceEpoch: overflow ? (days < 0 ? .min : .max) : sum)
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    /// Howard Hinnant's days_from_civil.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A due date as typed: `YYYY-MM-DD`, `today`, `tomorrow`, `+Nd`, `+Nw`, or `none`.
public enum DueInput: Hashable, Sendable {
    case date(Day)
    /// Days after today (local date).
    case inDays(Int)
    /// Clears the due date.
    case none

    /// Parses a due date as a user types it.
    ///
    /// - Throws: ``KanbanError/invalidValue(kind:value:reason:)``.
    public init(_ text: String) throws(KanbanError) {
        let lower = text.lowercased()
        switch lower {
        case "none": self = .none
        case "today": self = .inDays(0)
        case "tomorrow": self = .inDays(1)
        default:
            if let day = Day(iso: text) {
                self = .date(day)
            } else if lower.hasPrefix("+"), let unit = lower.last, unit == "d" || unit == "w",
                let count = Int(lower.dropFirst().dropLast()), lower.dropFirst().first?.isASCIIDigit == true,
                count <= 100_000
            {
                self = .inDays(unit == "w" ? count * 7 : count)
            } else {
                throw .invalidValue(
                    kind: .due, value: text, reason: "use YYYY-MM-DD, today, tomorrow, +Nd, +Nw or none")
            }
        }
    }

    /// The date, given today's local date; `nil` for `none`.
    public func resolved(today: Day) -> Day? {
        switch self {
        case .date(let day): day
        case .inDays(let days): today.adding(days: days)
        case .none: nil
        }
    }
}

// MARK: - Times

/// An instant, to the second, written as RFC 3339 UTC: `2026-11-23T10:04:05Z`, in the
/// years 0000–9999 that this form can write.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let seconds: Int64

    /// The instants a `Timestamp` can be, in seconds since the epoch: 0000-01-01T00:00:00Z
    /// to 9999-12-31T23:59:59Z.
    public static let range: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// The instant `seconds` after the epoch, or the first or last of ``range`` when it is
    /// outside it: every `Timestamp` can be written, and read back.
    public init(seconds: Int64) {
        self.seconds = min(max(seconds, Self.range.lowerBound), Self.range.upperBound)
    }

    /// Parses RFC 3339 (`2026-11-23T10:04:05Z`, `2026-11-23T11:04:05.250+01:00`); fractions of a
    /// second are dropped. The instant must be in the years 0000…9999 in UTC.
    public init?(rfc3339 text: some StringProtocol) {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] | 0x20 == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = decimal(b[0..<4]), let month = decimal(b[5..<7]), let day = decimal(b[8..<10]),
            let date = Day(year: year, month: month, day: day),
            let hour = decimal(b[11..<13]), let minute = decimal(b[14..<16]), let second = decimal(b[17..<19]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[index]) { index += 1 }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        if b[index] | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") {
            guard b.count - index >= 6, b[index + 3] == UInt8(ascii: ":"),
                let hours = decimal(b[index + 1..<index + 3]), let minutes = decimal(b[index + 4..<index + 6]),
                hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (b[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == b.count else { return nil }
        let seconds = Int64(date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset)
        guard Self.range.contains(seconds) else { return nil }
        self.seconds = seconds
    }

    /// Parses the form this build writes, `YYYY-MM-DDTHH:MM:SSZ`, from UTF-8 bytes without
    /// making a string; `nil` for any other form (``init(rfc3339:)`` reads those).
    init?(canonicalBytes b: UnsafeBufferPointer<UInt8>, dates: inout DateCache) {
        guard let seconds = dates.instant(b) else { return nil }
        self.seconds = seconds
    }

    /// The UTC date of this instant.
    public var utcDay: Day {
        Day(daysSinceEpoch: Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400))
    }

    /// `2026-11-23T10:04:05Z`.
    public var description: String {
        let day = utcDay
        let within = Int(seconds - Int64(day.daysSinceEpoch) * 86_400)
        return day.description + "T" + pad(within / 3600, 2) + ":" + pad(within / 60 % 60, 2) + ":"
            + pad(within % 60, 2) + "Z"
    }

    /// The instant `delta` seconds later (earlier, if negative), kept within ``range``.
    public func adding(seconds delta: Int64) -> Timestamp {
        let (sum, overflow) = seconds.addingReportingOverflow(delta)
        return Timestamp(seconds: overflow ? (delta < 0 ? .min : .max) : sum)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.seconds < rhs.seconds }
}

/// A length of time as typed for `--older-than`: `12h`, `3d`, `2w`.
public struct Age: Hashable, Sendable, CustomStringConvertible {
    public let seconds: Int64
    public let description: String

    /// - Throws: ``KanbanError/invalidValue(kind:value:reason:)``.
    public init(_ text: String) throws(KanbanError) {
        let lower = text.lowercased()
        guard let unit = lower.last, let count = Int64(lower.dropLast()), lower.first?.isASCIIDigit == true,
            count <= 1_000_000
        else {
            throw .invalidValue(kind: .age, value: text, reason: "use a number of hours, days or weeks: 12h, 3d, 2w")
        }
        switch unit {
        case "h": seconds = count * 3600
        case "d": seconds = count * 86_400
        case "w": seconds = count * 7 * 86_400
        default:
            throw .invalidValue(kind: .age, value: text, reason: "use a number of hours, days or weeks: 12h, 3d, 2w")
        }
        description = lower
    }
}

// MARK: - Labels

/// A set of labels: words compared ignoring case, kept sorted ignoring case, each spelled
/// as it was first typed.
public struct Labels: Hashable, Sendable, Sequence, ExpressibleByArrayLiteral {
    /// The labels, sorted ignoring case.
    public private(set) var names: [String]

    public init() {
        names = []
    }

    /// A set of labels, checking each; repeats (ignoring case) keep the first spelling.
    ///
    /// - Throws: ``KanbanError/invalidValue(kind:value:reason:)`` for a label that breaks the rules.
    public init(validating labels: some Sequence<String>) throws(KanbanError) {
        names = []
        for label in labels {
            insert(try Self.checked(label))
        }
    }

    /// Labels already checked and in order: short ASCII words sorted ignoring case, no two
    /// the same (the file reader's fast path checks this on the bytes).
    init(sortedASCII names: [String]) {
        self.names = names
    }

    /// Labels whose names were checked and ordered as a set keeps them.
    init(checked names: [String]) {
        self.names = names
    }

    /// Labels written in code; each must be valid.
    public init(arrayLiteral elements: String...) {
        names = []
        for element in elements {
            precondition(Self.problem(with: element) == nil, "invalid label literal \(element)")
            insert(element)
        }
    }

    /// Checks a label: 1–32 characters, no whitespace, no comma, no control character, not
    /// starting with `-`. Returns why not (saying `noun` for what it is), or `nil` when it is a
    /// label. An assignee's name has the same rules.
    public static func problem(with label: String, calling noun: String = "a label") -> String? {
        guard !label.isEmpty else { return "\(noun) cannot be empty" }
        // Most labels are a short ASCII word: checked byte by byte, with no Unicode tables.
        let utf8 = label.utf8
        if utf8.count <= 32, utf8.first != UInt8(ascii: "-"),
            utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") })
        {
            return nil
        }
        guard label.count <= 32 else { return "\(noun) has at most 32 characters" }
        guard !label.hasPrefix("-") else { return "\(noun) cannot start with '-'" }
        for scalar in label.unicodeScalars {
            if scalar == "," { return "\(noun) cannot contain a comma" }
            if scalar.isRefusedInText { return "\(noun) cannot contain \(scalar.nameInWords)" }
            if scalar.properties.isWhitespace { return "\(noun) is one word, without spaces" }
            if scalar.properties.generalCategory == .format {
                return "\(noun) cannot contain the format character \(scalar.codePoint)"
            }
        }
        return nil
    }

    /// `label`, checked.
    public static func checked(_ label: String, as kind: ValueKind = .label) throws(KanbanError) -> String {
        if let problem = problem(with: label, calling: kind == .label ? "a label" : "a name") {
            throw .invalidValue(kind: kind, value: label, reason: problem)
        }
        return label
    }

    public var isEmpty: Bool { names.isEmpty }
    public var count: Int { names.count }

    public func makeIterator() -> IndexingIterator<[String]> { names.makeIterator() }

    /// Whether a label is in the set, ignoring case.
    public func contains(_ label: String) -> Bool {
        let key = label.lowercased()
        return names.contains { $0.lowercased() == key }
    }

    /// Adds a label unless it is there already (ignoring case). The label must be valid.
    public mutating func insert(_ label: String) {
        let key = label.lowercased()
        var index = 0
        while index < names.count {
            let other = names[index].lowercased()
            if other == key { return }
            if key < other { break }
            index += 1
        }
        names.insert(label, at: index)
    }

    /// Removes a label, ignoring case.
    public mutating func remove(_ label: String) {
        let key = label.lowercased()
        names.removeAll { $0.lowercased() == key }
    }

    /// The labels of either set; a label in both keeps this set's spelling.
    public func union(_ other: Labels) -> Labels {
        var result = self
        for label in other.names { result.insert(label) }
        return result
    }
}

// MARK: - Notes

/// The rules of a card's note: at most 64 KiB of UTF-8, lines separated by LF, tab allowed,
/// no other control character.
public enum Note {
    /// The largest note, in bytes of UTF-8.
    public static let maximumBytes = 65_536

    /// `text` with CRLF read as LF, checked: typed or imported text refuses, besides the
    /// controls ``problem(with:)`` names, the line and paragraph separators and the
    /// directional formatting controls (README: Reliability).
    ///
    /// - Parameter stored: `text` holds a note already stored, which a file written by
    ///   another tool may have given those characters: only ``problem(with:)`` applies.
    /// - Throws: ``KanbanError/invalidValue(kind:value:reason:)``.
    public static func checked(_ text: String, stored: Bool = false) throws(KanbanError) -> String {
        let normalized = text.contains("\r\n") ? text.replacing("\r\n", with: "\n") : text
        if let problem = problem(with: normalized) {
            throw .invalidValue(kind: .note, value: String(text.prefix(40)), reason: problem)
        }
        if !stored, let (scalar, position) = normalized.firstRefusedCharacter(allowingLineFeeds: true) {
            throw .invalidValue(
                kind: .note, value: String(text.prefix(40)),
                reason: "the note has \(scalar.nameInWords) at character \(position); remove it")
        }
        return normalized
    }

    /// Why `text` is not a note a file may hold, or `nil` when it is one: at most 64 KiB, no
    /// control character but line feed and tab.
    public static func problem(with text: String) -> String? {
        guard text.utf8.count <= maximumBytes else {
            return "a note has at most 64 KiB (this one has \(text.utf8.count) bytes)"
        }
        for scalar in text.unicodeScalars where scalar != "\n" && scalar.isForbiddenInTitle {
            return "a note cannot contain \(scalar.nameInWords)"
        }
        return nil
    }
}

extension Unicode.Scalar {
    /// `U+001B`.
    public var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

// MARK: - Helpers

/// The value of ASCII decimal digits, or `nil` if any byte is not a digit.
private func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
    var value = 0
    for byte in bytes {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return bytes.isEmpty ? nil : value
}

/// The last two hours read and written as `YYYY-MM-DDTHH`, and the last date written as
/// `YYYY-MM-DD`: a file's timestamps fall on few hours (a card's `created` and `entered`
/// on two), so most are turned into seconds and back without the calendar arithmetic.
struct DateCache {
    /// Two hours: the 13 bytes `YYYY-MM-DDTHH` of each (as two words, the second holding
    /// bytes 5 to 12) and the instant it starts, `Int64.min` for none.
    private struct Hours {
        var keys: ((UInt64, UInt64), (UInt64, UInt64)) = ((0, 0), (0, 0))
        var starts: (Int64, Int64) = (.min, .min)
        /// The slot the next new hour takes: the one used less recently.
        var next = 0

        /// The start of the hour whose bytes are `key`, if it is here.
        func start(of key: (UInt64, UInt64)) -> Int64? {
            if starts.0 != .min && keys.0 == key { return starts.0 }
            if starts.1 != .min && keys.1 == key { return starts.1 }
            return nil
        }

        /// The slot holding the hour that contains `seconds`, if one does.
        func slot(containing seconds: Int64) -> Int? {
            if starts.0 != .min && UInt64(bitPattern: seconds &- starts.0) < 3600 { return 0 }
            if starts.1 != .min && UInt64(bitPattern: seconds &- starts.1) < 3600 { return 1 }
            return nil
        }

        mutating func add(key: (UInt64, UInt64), start: Int64) {
            if next == 0 { (keys.0, starts.0) = (key, start) } else { (keys.1, starts.1) = (key, start) }
            next ^= 1
        }
    }

    private var read = Hours()
    private var written = Hours()
    /// The date last written and its 10 bytes.
    private var writtenDay = Int.min
    private var writtenKey: (UInt64, UInt16) = (0, 0)

    /// The instant `YYYY-MM-DDTHH:MM:SSZ` of the 20 bytes at `bytes`, if they spell one.
    mutating func instant(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count == 20, b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "Z"),
            let minute = digits(b, 14, 2), let second = digits(b, 17, 2), minute < 60, second < 60
        else { return nil }
        let raw = UnsafeRawPointer(b.baseAddress!)
        let key = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 5, as: UInt64.self))
        let within = Int64(minute * 60 + second)
        if let start = read.start(of: key) { return start + within }
        guard b[10] == UInt8(ascii: "T"), let day = Day(isoBytes: UnsafeBufferPointer(rebasing: b[0..<10])),
            let hour = digits(b, 11, 2), hour < 24
        else { return nil }
        let start = Int64(day.daysSinceEpoch) * 86_400 + Int64(hour) * 3600
        read.add(key: key, start: start)
        return start + within
    }

    /// Whether the 20 bytes at `pointer` spell an instant, as `instant(_:)` reads them: within
    /// an hour read before, only the minutes and seconds are checked, as one word.
    @inline(__always)
    mutating func isInstant(at pointer: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(pointer)
        let key = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 5, as: UInt64.self))
        guard read.start(of: key) != nil else { return instant(UnsafeBufferPointer(start: pointer, count: 20)) != nil }
        // Bytes 12 to 19, `H:MM:SSZ` (the hour's last digit is the key's): `:`, `:` and `Z` in
        // place, and the four digits below 6, 10, 6 and 10 once `0` is taken from each.
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
        let digits = (word & 0x00ff_ff00_ffff_0000) ^ 0x0030_3000_3030_0000
        return word & 0xff00_00ff_0000_ff00 == 0x5a00_003a_0000_3a00
            && (digits | (digits &+ 0x0076_7a00_767a_0000)) & 0x0080_8000_8080_0000 == 0
    }

    /// Writes the 20 bytes `YYYY-MM-DDTHH:MM:SSZ` of `time` at `pointer`.
    mutating func write(_ time: Timestamp, at pointer: UnsafeMutablePointer<UInt8>) {
        let seconds = time.seconds
        let raw = UnsafeMutableRawPointer(pointer)
        let start: Int64
        switch written.slot(containing: seconds) {
        case 0?:
            start = written.starts.0
            raw.storeBytes(of: written.keys.0.0, as: UInt64.self)
            raw.storeBytes(of: written.keys.0.1, toByteOffset: 5, as: UInt64.self)
        case 1?:
            start = written.starts.1
            raw.storeBytes(of: written.keys.1.0, as: UInt64.self)
            raw.storeBytes(of: written.keys.1.1, toByteOffset: 5, as: UInt64.self)
        default:
            let day = time.utcDay
            let hour = Int((seconds - Int64(day.daysSinceEpoch) * 86_400) / 3600)
            write(day, at: pointer)
            pointer[10] = UInt8(ascii: "T")
            writeTwoDigits(hour, at: pointer + 11)
            start = Int64(day.daysSinceEpoch) * 86_400 + Int64(hour) * 3600
            written.add(
                key: (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 5, as: UInt64.self)),
                start: start)
        }
        let within = Int(seconds - start)
        pointer[13] = UInt8(ascii: ":")
        writeTwoDigits(within / 60, at: pointer + 14)
        pointer[16] = UInt8(ascii: ":")
        writeTwoDigits(within % 60, at: pointer + 17)
        pointer[19] = UInt8(ascii: "Z")
    }

    /// Writes the 10 bytes of `day` at `pointer`.
    mutating func write(_ day: Day, at pointer: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(pointer)
        if day.daysSinceEpoch != writtenDay {
            let (year, month, date) = day.components
            writeTwoDigits(year / 100, at: pointer)
            writeTwoDigits(year % 100, at: pointer + 2)
            pointer[4] = UInt8(ascii: "-")
            writeTwoDigits(month, at: pointer + 5)
            pointer[7] = UInt8(ascii: "-")
            writeTwoDigits(date, at: pointer + 8)
            writtenDay = day.daysSinceEpoch
            writtenKey = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        } else {
            raw.storeBytes(of: writtenKey.0, as: UInt64.self)
            raw.storeBytes(of: writtenKey.1, toByteOffset: 8, as: UInt16.self)
        }
    }
}

/// Writes `value` (0–99) as two ASCII digits at `pointer`.
@inline(__always)
func writeTwoDigits(_ value: Int, at pointer: UnsafeMutablePointer<UInt8>) {
    pointer[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
    pointer[1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
}

/// The value of `count` ASCII digits of `bytes` from `start`, or `nil`.
@inline(__always)
private func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
    var value = 0
    let base = bytes.baseAddress! + start
    for index in 0..<count {
        let digit = base[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
    }
    return value
}

private func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
