import Testing

@testable import KanbanCore

// The values a card carries besides its title (SPEC §6, §7), each checked against
// expectations worked out here the slow and obvious way.

/// The Gregorian calendar the slow and obvious way: year lengths added up into a table of
/// the day each year starts on, counted from 1970-01-01.
enum NaiveCalendar {
    static func isLeap(_ year: Int) -> Bool { year % 400 == 0 || (year % 4 == 0 && year % 100 != 0) }

    static func length(ofMonth month: Int, in year: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// `yearStarts[y]`: the days from 1970-01-01 to y-01-01, for years 0 to 10000.
    static let yearStarts: [Int] = {
        var starts = Array(repeating: 0, count: 10_001)
        for year in 1971...10_000 { starts[year] = starts[year - 1] + (isLeap(year - 1) ? 366 : 365) }
        for year in stride(from: 1969, through: 0, by: -1) {
            starts[year] = starts[year + 1] - (isLeap(year) ? 366 : 365)
        }
        return starts
    }()

    static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        yearStarts[year] + (1..<month).reduce(0) { $0 + length(ofMonth: $1, in: year) } + day - 1
    }

    /// The date `days` after 1970-01-01, for a day in years 0 to 9999.
    static func date(_ days: Int) -> (year: Int, month: Int, day: Int) {
        var year = 0
        var next = 10_000  // yearStarts[year] <= days < yearStarts[next]
        while next - year > 1 {
            let middle = (year + next) / 2
            if yearStarts[middle] <= days { year = middle } else { next = middle }
        }
        var rest = days - yearStarts[year]
        var month = 1
        while rest >= length(ofMonth: month, in: year) {
            rest -= length(ofMonth: month, in: year)
            month += 1
        }
        return (year, month, rest + 1)
    }

    static func text(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: width - digits.count) + digits
    }

    static func text(days: Int) -> String {
        let (year, month, day) = date(days)
        return text(year, 4) + "-" + text(month, 2) + "-" + text(day, 2)
    }

    /// An instant, as SPEC §6 writes it: RFC 3339 UTC to the second.
    static func text(seconds: Int64) -> String {
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let within = Int(seconds - Int64(days) * 86_400)
        return text(days: days) + "T" + text(within / 3600, 2) + ":" + text(within / 60 % 60, 2) + ":"
            + text(within % 60, 2) + "Z"
    }
}

@Suite("Dates")
struct DayTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case daysAcrossTheWholeRangeMatchTheNaiveCalendar
        case leapYearsFollowTheGregorianRule
        case datesAreWrittenWithFourDigitYearsAndCompareInOrder
        case daysStayWithinTheYearsTheFileCanHold
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .daysAcrossTheWholeRangeMatchTheNaiveCalendar: daysAcrossTheWholeRangeMatchTheNaiveCalendar()
        case .leapYearsFollowTheGregorianRule: leapYearsFollowTheGregorianRule()
        case .datesAreWrittenWithFourDigitYearsAndCompareInOrder:
            try datesAreWrittenWithFourDigitYearsAndCompareInOrder()
        case .daysStayWithinTheYearsTheFileCanHold: daysStayWithinTheYearsTheFileCanHold()
        }
    }

    static let years = [0, 1, 4, 99, 100, 400, 1582, 1600, 1899, 1900, 1969, 1970, 1999, 2000, 2024, 2026, 2100, 9999]

    @Test(arguments: years)
    func everyDayOfTheYearMatchesTheNaiveCalendar(year: Int) {
        var mismatches: [String] = []
        for month in 1...12 {
            for day in 1...NaiveCalendar.length(ofMonth: month, in: year) {
                let expected = NaiveCalendar.days(year, month, day)
                let text =
                    NaiveCalendar.text(year, 4) + "-" + NaiveCalendar.text(month, 2) + "-"
                    + NaiveCalendar.text(day, 2)
                guard let date = Day(year: year, month: month, day: day) else {
                    mismatches.append("\(text) refused")
                    continue
                }
                let parts = Day(daysSinceEpoch: expected).components
                if date.daysSinceEpoch != expected || parts != (year, month, day) || date.description != text
                    || Day(iso: text) != date
                {
                    mismatches.append("\(text): \(date.daysSinceEpoch) \(date) \(parts)")
                }
            }
            expectTrue(Day(year: year, month: month, day: NaiveCalendar.length(ofMonth: month, in: year) + 1) == nil)
            expectTrue(Day(year: year, month: month, day: 0) == nil)
        }
        expectTrue(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    func daysAcrossTheWholeRangeMatchTheNaiveCalendar() {
        var mismatches: [Int] = []
        for days in stride(from: NaiveCalendar.days(0, 1, 1), through: NaiveCalendar.days(9999, 12, 31), by: 977) {
            let day = Day(daysSinceEpoch: days)
            if day.description != NaiveCalendar.text(days: days) || Day(iso: day.description) != day {
                mismatches.append(days)
            }
        }
        expectTrue(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    func leapYearsFollowTheGregorianRule() {
        for (year, leap) in [
            (2024, true), (2023, false), (2000, true), (1900, false), (2100, false), (0, true), (1600, true),
        ] {
            expectEqual((Day(year: year, month: 2, day: 29) != nil), leap, "\(year)")
            expectEqual((Day(iso: NaiveCalendar.text(year, 4) + "-02-29") != nil), leap, "\(year)")
        }
    }

    @Test(arguments: [
        (2026, 4, 31), (2026, 0, 1), (2026, 13, 1), (2026, 1, 32), (-1, 12, 31), (10_000, 1, 1), (2026, -1, 1),
    ])
    func impossibleDatesAreRefused(year: Int, month: Int, day: Int) {
        expectTrue(Day(year: year, month: month, day: day) == nil)
    }

    @Test(arguments: [
        "", "2026-1-01", "2026-01-1", "26-01-01", "2026/01/01", "2026-01-01 ", " 2026-01-01", "2026-01-01T00:00:00Z",
        "+026-01-01", "2026-0a-01", "2026-02-30", "2026-00-10", "20260101", "１２３４-01-01", "2026--1-01", "today",
        "10000-01-01",
    ])
    func onlyYYYYMMDDIsADate(text: String) {
        expectTrue(Day(iso: text) == nil)
    }

    func datesAreWrittenWithFourDigitYearsAndCompareInOrder() throws {
        let early = try require(Day(year: 5, month: 3, day: 7))
        expectEqual(early.description, "0005-03-07")
        expectEqual(early.monthAndDay, "03-07")
        expectEqual(Day(iso: "0005-03-07"), early)
        let later = early.adding(days: 1)
        expectEqual(later.description, "0005-03-08")
        expectTrue(early < later && later.adding(days: -1) == early)
        expectEqual(Day(year: 2024, month: 2, day: 28)?.adding(days: 1).description, "2024-02-29")
        expectEqual(Day(year: 2023, month: 12, day: 31)?.adding(days: 1).description, "2024-01-01")
        expectEqual(Day(daysSinceEpoch: 0).description, "1970-01-01")
        expectEqual(Day(daysSinceEpoch: -1).description, "1969-12-31")
    }

    /// Every `Day` can be written and read back: values past the years 0000–9999 are kept at
    /// their ends, and arithmetic does not trap.
    func daysStayWithinTheYearsTheFileCanHold() {
        expectEqual(Day.range, NaiveCalendar.days(0, 1, 1)...NaiveCalendar.days(9999, 12, 31))
        expectEqual(Day(daysSinceEpoch: .max).description, "9999-12-31")
        expectEqual(Day(daysSinceEpoch: .min).description, "0000-01-01")
        expectEqual(Day(daysSinceEpoch: 0).adding(days: .max).description, "9999-12-31")
        expectEqual(Day(daysSinceEpoch: 0).adding(days: .min).description, "0000-01-01")
        expectEqual(Day(daysSinceEpoch: .max).adding(days: .max), Day(daysSinceEpoch: Day.range.upperBound))
        expectEqual(Day(iso: Day(daysSinceEpoch: 5_000_000).description), Day(daysSinceEpoch: 5_000_000))
    }
}

@Suite("Times")
struct TimestampTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case utcTimesAreRead
        case timesAreWrittenInUTCToTheSecondIncludingBeforeTheEpoch
        case timesAcrossTheWholeRangeRoundTrip
        case timesStayWithinTheYearsTheFileCanHold
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .utcTimesAreRead: try utcTimesAreRead()
        case .timesAreWrittenInUTCToTheSecondIncludingBeforeTheEpoch:
            timesAreWrittenInUTCToTheSecondIncludingBeforeTheEpoch()
        case .timesAcrossTheWholeRangeRoundTrip: timesAcrossTheWholeRangeRoundTrip()
        case .timesStayWithinTheYearsTheFileCanHold: timesStayWithinTheYearsTheFileCanHold()
        }
    }

    /// The instant of a UTC date and time, added up by hand.
    func seconds(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Int64 {
        Int64(NaiveCalendar.days(y, mo, d)) * 86_400 + Int64(h * 3600 + mi * 60 + s)
    }

    func utcTimesAreRead() throws {
        expectEqual(Timestamp(rfc3339: "2026-11-23T10:04:05Z")?.seconds, seconds(2026, 11, 23, 10, 4, 5))
        expectEqual(Timestamp(rfc3339: "1970-01-01T00:00:00Z")?.seconds, 0)
        expectEqual(Timestamp(rfc3339: "1969-12-31T23:59:59Z")?.seconds, -1)
        expectEqual(Timestamp(rfc3339: "2024-02-29T12:00:00Z")?.seconds, seconds(2024, 2, 29, 12, 0, 0))
        expectEqual(Timestamp(rfc3339: "0000-01-01T00:00:00Z")?.seconds, seconds(0, 1, 1, 0, 0, 0))
        expectEqual(Timestamp(rfc3339: "9999-12-31T23:59:59Z")?.seconds, seconds(9999, 12, 31, 23, 59, 59))
        // RFC 3339 allows a lowercase `t` and `z`, and a space between date and time.
        expectEqual(Timestamp(rfc3339: "2026-11-23t10:04:05z")?.seconds, seconds(2026, 11, 23, 10, 4, 5))
        expectEqual(Timestamp(rfc3339: "2026-11-23 10:04:05Z")?.seconds, seconds(2026, 11, 23, 10, 4, 5))
    }

    @Test(arguments: [
        ("2026-11-23T11:04:05+01:00", "2026-11-23T10:04:05Z"),
        ("2026-11-23T04:34:05-05:30", "2026-11-23T10:04:05Z"),
        ("2026-11-24T00:30:00+14:00", "2026-11-23T10:30:00Z"),
        ("2026-11-22T23:00:00-11:00", "2026-11-23T10:00:00Z"),
        ("2026-11-23T10:04:05+00:00", "2026-11-23T10:04:05Z"),
        ("2026-11-23T10:04:05-00:00", "2026-11-23T10:04:05Z"),
        ("2025-01-01T00:30:00+01:00", "2024-12-31T23:30:00Z"),
        ("2024-03-01T00:59:59+01:00", "2024-02-29T23:59:59Z"),
        ("2026-11-23T10:04:05.9Z", "2026-11-23T10:04:05Z"),
        ("2026-11-23T10:04:05.999999999+01:00", "2026-11-23T09:04:05Z"),
        ("2026-11-23T10:04:05.000Z", "2026-11-23T10:04:05Z"),
        ("1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59Z"),
        ("2016-12-31T23:59:60Z", "2016-12-31T23:59:59Z"),
        ("9999-12-31T23:30:00+01:00", "9999-12-31T22:30:00Z"),
    ])
    func offsetsAndFractionsAreReadAsTheUTCSecond(text: String, utc: String) throws {
        let time = try require(Timestamp(rfc3339: text))
        expectEqual(time.description, utc)
        expectEqual(Timestamp(rfc3339: utc), time)
    }

    @Test(arguments: [
        "", "2026-11-23", "2026-11-23T10:04:05", "2026-11-23T10:04Z", "2026-11-23T24:00:00Z", "2026-11-23T10:60:00Z",
        "2026-11-23T10:04:61Z", "2026-02-30T10:04:05Z", "2026-11-23T10:04:05+24:00", "2026-11-23T10:04:05+01:60",
        "2026-11-23T10:04:05+0100", "2026-11-23T10:04:05+01", "2026-11-23T10:04:05.Z", "2026-11-23T10:04:05ZZ",
        "2026-11-23T10:04:05Z ", " 2026-11-23T10:04:05Z", "2026-11-23X10:04:05Z", "2026-11-23T10-04-05Z",
        "10000-01-01T00:00:00Z", "2026-11-23T1:04:05Z", "2026-11-23T10:04:05.5.5Z", "1790000000",
        // Instants outside the years 0000–9999 in UTC cannot be written back.
        "9999-12-31T23:30:00-01:00", "0000-01-01T00:30:00+01:00",
    ])
    func whatIsNotAnRFC3339InstantIsRefused(text: String) {
        expectTrue(Timestamp(rfc3339: text) == nil)
    }

    func timesAreWrittenInUTCToTheSecondIncludingBeforeTheEpoch() {
        expectEqual(Timestamp(seconds: 0).description, "1970-01-01T00:00:00Z")
        expectEqual(Timestamp(seconds: -1).description, "1969-12-31T23:59:59Z")
        expectEqual(Timestamp(seconds: -86_400).description, "1969-12-31T00:00:00Z")
        expectEqual(Timestamp(seconds: -86_401).description, "1969-12-30T23:59:59Z")
        expectEqual(Timestamp(seconds: 951_782_400).description, "2000-02-29T00:00:00Z")
        expectEqual(Timestamp(seconds: 1_800_000_000).description, "2027-01-15T08:00:00Z")
        expectEqual(Timestamp(seconds: -1).utcDay.description, "1969-12-31")
        expectEqual(Timestamp(seconds: -86_400).utcDay.description, "1969-12-31")
        expectEqual(Timestamp(seconds: 86_399).utcDay.description, "1970-01-01")
    }

    /// Times from year 0000 to 9999, a little over a year apart so that every time of day
    /// and every day of the year comes round, are written as the naive calendar says and
    /// read back to the same second.
    func timesAcrossTheWholeRangeRoundTrip() {
        var mismatches: [Int64] = []
        for seconds in stride(
            from: seconds(0, 1, 1, 0, 0, 0), through: seconds(9999, 12, 31, 23, 59, 59), by: 31_556_953)
        {
            let time = Timestamp(seconds: seconds)
            if time.description != NaiveCalendar.text(seconds: seconds) || Timestamp(rfc3339: time.description) != time
            {
                mismatches.append(seconds)
            }
        }
        expectTrue(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    func timesStayWithinTheYearsTheFileCanHold() {
        expectEqual(Timestamp.range, seconds(0, 1, 1, 0, 0, 0)...seconds(9999, 12, 31, 23, 59, 59))
        expectEqual(Timestamp(seconds: .max).description, "9999-12-31T23:59:59Z")
        expectEqual(Timestamp(seconds: .min).description, "0000-01-01T00:00:00Z")
        expectEqual(Timestamp(seconds: .min).utcDay.description, "0000-01-01")
        expectEqual(Timestamp(seconds: 0).adding(seconds: .max), Timestamp(seconds: .max))
        expectEqual(Timestamp(seconds: -5).adding(seconds: .min), Timestamp(seconds: .min))
        expectEqual(Timestamp(seconds: 10).adding(seconds: -4).seconds, 6)
        expectTrue(Timestamp(seconds: 1) < Timestamp(seconds: 2))
    }
}

@Suite("Due dates as typed")
struct DueInputTests {
    static let today = Day(year: 2026, month: 11, day: 23)!

    @Test(arguments: [
        ("2026-12-01", "2026-12-01"), ("today", "2026-11-23"), ("tomorrow", "2026-11-24"), ("+0d", "2026-11-23"),
        ("+1d", "2026-11-24"), ("+8d", "2026-12-01"), ("+39d", "2027-01-01"), ("+1w", "2026-11-30"),
        ("+2w", "2026-12-07"), ("+52w", "2027-11-22"), ("Today", "2026-11-23"), ("TOMORROW", "2026-11-24"),
        ("+3D", "2026-11-26"), ("+1W", "2026-11-30"), ("0000-01-01", "0000-01-01"),
    ])
    func aDueDateIsADateOrCountsFromToday(text: String, date: String) throws {
        try expectEqual(DueInput(text).resolved(today: Self.today)?.description, date)
    }

    @Test func relativeDatesCountFromTheDayGiven() throws {
        let leapDay = try require(Day(year: 2024, month: 2, day: 28))
        try expectEqual(DueInput("tomorrow").resolved(today: leapDay)?.description, "2024-02-29")
        try expectEqual(DueInput("+2d").resolved(today: leapDay)?.description, "2024-03-01")
        try expectEqual(DueInput("2026-12-01"), .date(Day(year: 2026, month: 12, day: 1)!))
    }

    @Test(arguments: ["none", "None", "NONE"])
    func noneClearsTheDueDate(text: String) throws {
        try expectEqual(DueInput(text), .none)
        expectTrue(try DueInput(text).resolved(today: Self.today) == nil)
    }

    @Test(arguments: [
        "", " ", "yesterday", "now", "+d", "+w", "3d", "-3d", "+-3d", "+3", "+3x", "+3dd", "+ 3d", "+3 d", "+1.5d",
        "+1e3d", "+٣d", "2026-13-01", "2026-02-30", "26-12-01", "12/01/2026", "+99999999999999999999d",
        "+9223372036854775807w", "today ", "nonee",
    ])
    func anythingElseIsRefusedSayingWhatIsAccepted(text: String) {
        let error = #expect(throws: KanbanError.self) { try DueInput(text) }
        guard case .invalidValue(.due, let value, let reason) = error else {
            Issue.record("expected invalidValue(.due), got \(String(describing: error))")
            return
        }
        expectEqual(value, text)
        expectTrue(reason.contains("YYYY-MM-DD") && reason.contains("+Nd") && reason.contains("none"), "\(reason)")
    }
}

@Suite("Ages as typed")
struct AgeTests {
    @Test(
        arguments: [
            ("12h", 43_200), ("1h", 3600), ("0h", 0), ("3d", 259_200), ("1d", 86_400), ("2w", 1_209_600),
            ("1w", 604_800),
            ("36H", 129_600), ("3D", 259_200), ("10W", 6_048_000),
        ] as [(String, Int64)])
    func anAgeIsHoursDaysOrWeeks(text: String, seconds: Int64) throws {
        let age = try Age(text)
        expectEqual(age.seconds, seconds)
        expectEqual(age.description, text.lowercased())
    }

    @Test(arguments: [
        "", "3", "d", "h", "-3d", "+3d", "3m", "3s", "3y", "3 d", " 3d", "1.5d", "3dd", "d3", "٣d",
        "99999999999999999999d",
        "9223372036854775807w",
    ])
    func anythingElseIsRefused(text: String) {
        let error = #expect(throws: KanbanError.self) { try Age(text) }
        guard case .invalidValue(.age, let value, _) = error else {
            Issue.record("expected invalidValue(.age), got \(String(describing: error))")
            return
        }
        expectEqual(value, text)
    }
}

@Suite("Labels")
struct LabelTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case labelsAreASetIgnoringCaseThatKeepsTheFirstSpelling
        case labelsAreKeptSortedIgnoringCase
        case aUnionKeepsThisSetsSpelling
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .labelsAreASetIgnoringCaseThatKeepsTheFirstSpelling:
            try labelsAreASetIgnoringCaseThatKeepsTheFirstSpelling()
        case .labelsAreKeptSortedIgnoringCase: try labelsAreKeptSortedIgnoringCase()
        case .aUnionKeepsThisSetsSpelling: try aUnionKeepsThisSetsSpelling()
        }
    }

    func labelsAreASetIgnoringCaseThatKeepsTheFirstSpelling() throws {
        let labels = try Labels(validating: ["Bug", "bug", "BUG", "p1", "P1"])
        expectEqual(labels.names, ["Bug", "p1"])
        expectEqual(labels.count, 2)
        expectTrue(labels.contains("bUg") && labels.contains("P1") && !labels.contains("bugs"))
        var more = labels
        more.insert("BUG")
        expectEqual(more, labels)
        more.remove("BUG")
        expectEqual(more.names, ["p1"])
        more.remove("nothing")
        expectEqual(more.names, ["p1"])
    }

    func labelsAreKeptSortedIgnoringCase() throws {
        let labels = try Labels(validating: ["zeta", "Alpha", "beta", "@alice", "Äpfel", "_x", "10", "9"])
        let expected = ["zeta", "Alpha", "beta", "@alice", "Äpfel", "_x", "10", "9"].sorted {
            $0.lowercased() < $1.lowercased()
        }
        expectEqual(labels.names, expected)
        expectEqual(labels.names.prefix(4), ["10", "9", "@alice", "_x"])
        expectEqual(Array(labels), labels.names)
        var inserted = Labels()
        for label in expected.reversed() { inserted.insert(label) }
        expectEqual(inserted, labels)
    }

    func aUnionKeepsThisSetsSpelling() throws {
        let ours = try Labels(validating: ["Bug", "docs"])
        let theirs = try Labels(validating: ["bug", "P1"])
        expectEqual(ours.union(theirs).names, ["Bug", "docs", "P1"])
        expectEqual(theirs.union(ours).names, ["bug", "docs", "P1"])
    }

    @Test(arguments: [
        "bug", "p1", "@alice", "x", "a-b", "x-", "a_b", "a:b", "a/b", "a.b", "#tag", "ünï", "日本語", "👍🏽", "e\u{301}",
        String(repeating: "x", count: 32), String(repeating: "é", count: 32), String(repeating: "👍🏽", count: 32),
        String(repeating: "e\u{301}", count: 32),
    ])
    func aLabelIsOneWordOf1To32Characters(label: String) throws {
        expectTrue(Labels.problem(with: label) == nil)
        try expectEqual(Labels(validating: [label]).names, [label])
    }

    @Test(arguments: [
        "", String(repeating: "x", count: 33), String(repeating: "é", count: 33), "a b", " a", "a ", "a\tb", "a\nb",
        "a\u{A0}b", "a\u{3000}b", "a\u{2028}b", "a,b", ",", "-x", "-", "--all", "a\u{7}", "\u{1B}[31m", "a\u{7F}",
        "a\u{85}b",
    ])
    func otherLabelsAreRefused(label: String) {
        expectTrue(Labels.problem(with: label) != nil)
        let error = #expect(throws: KanbanError.self) { try Labels(validating: ["ok", label]) }
        guard case .invalidValue(.label, let value, let reason) = error else {
            Issue.record("expected invalidValue(.label), got \(String(describing: error))")
            return
        }
        expectEqual(value, label)
        expectTrue(!reason.isEmpty)
    }
}

@Suite("Notes")
struct NoteTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aNoteHoldsLinesTabsAndAnyText
        case crlfIsReadAsLF
        case aNoteHasAtMost64KiBOfUTF8
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aNoteHoldsLinesTabsAndAnyText: try aNoteHoldsLinesTabsAndAnyText()
        case .crlfIsReadAsLF: try crlfIsReadAsLF()
        case .aNoteHasAtMost64KiBOfUTF8: try aNoteHasAtMost64KiBOfUTF8()
        }
    }

    func aNoteHoldsLinesTabsAndAnyText() throws {
        let note = "line 1\n\tline 2 \"quoted\" \\ 日本 👍🏽\n\n\u{A0}\u{2027}end\n"
        try expectEqual(Note.checked(note), note)
        // A note a file holds may have what typed text may not (README: Reliability).
        try expectEqual(Note.checked("a\u{2028}b\u{202E}", stored: true), "a\u{2028}b\u{202E}")
        try expectEqual(Note.checked(""), "")
    }

    func crlfIsReadAsLF() throws {
        try expectEqual(Note.checked("a\r\nb"), "a\nb")
        try expectEqual(Note.checked("\r\n\r\nx\r\n"), "\n\nx\n")
        try expectEqual(Note.checked("a\r\n\tb\nc"), "a\n\tb\nc")
    }

    @Test(arguments: [0x00, 0x07, 0x08, 0x0B, 0x0C, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9F] as [UInt32])
    func controlCharactersOtherThanTabAndLineFeedAreRefused(value: UInt32) throws {
        let scalar = try require(Unicode.Scalar(value))
        let text = "before " + String(Character(scalar)) + " after"
        expectTrue(Note.problem(with: text) != nil)
        let error = #expect(throws: KanbanError.self) { try Note.checked(text) }
        guard case .invalidValue(.note, _, let reason) = error else {
            Issue.record("expected invalidValue(.note), got \(String(describing: error))")
            return
        }
        expectTrue(reason.contains(scalar.codePoint), "\(reason)")
    }

    func aNoteHasAtMost64KiBOfUTF8() throws {
        let full = String(repeating: "é", count: 32_768)  // 65,536 bytes
        expectEqual(full.utf8.count, 65_536)
        try expectEqual(Note.checked(full), full)
        expectTrue(Note.problem(with: full + "x") != nil)
        #expect(throws: KanbanError.self) { try Note.checked(full + "x") }
        #expect(throws: KanbanError.self) { try Note.checked(String(repeating: "x", count: 65_537)) }
        try expectEqual(Note.checked(String(repeating: "x", count: 65_536)).utf8.count, 65_536)
    }
}
