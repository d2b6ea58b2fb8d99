import Testing

// `expectEqual` stands for `#expect(actual == expected)` in every suite: it must fail as
// that does.

@Suite("expectEqual")
struct ExpectEqualTests {
    @Test func aDifferenceIsAnIssueAndEqualValuesAreNot() {
        withKnownIssue("[1, 2] is not [2, 1]") {
            expectEqual([1, 2], [2, 1], "the order counts")
        }
        withKnownIssue("nil is not 0") {
            let status: Int32? = nil
            expectEqual(status, 0)
        }
        expectEqual("same", "same")
    }
}
