import Testing

// `expectEqual`, `expectTrue` and `require` stand for `#expect(actual == expected)`,
// `#expect(condition)` and `#require` in every suite: they must fail as those do.

@Suite("expectEqual")
struct ExpectEqualTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aDifferenceIsAnIssueAndEqualValuesAreNot
        case aFalseConditionIsAnIssueAndATrueOneIsNot
        case aFailedRequirementStopsTheTest
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aDifferenceIsAnIssueAndEqualValuesAreNot: aDifferenceIsAnIssueAndEqualValuesAreNot()
        case .aFalseConditionIsAnIssueAndATrueOneIsNot: aFalseConditionIsAnIssueAndATrueOneIsNot()
        case .aFailedRequirementStopsTheTest: try aFailedRequirementStopsTheTest()
        }
    }

    func aDifferenceIsAnIssueAndEqualValuesAreNot() {
        withKnownIssue("[1, 2] is not [2, 1]") {
            expectEqual([1, 2], [2, 1], "the order counts")
        }
        withKnownIssue("nil is not 0") {
            let status: Int32? = nil
            expectEqual(status, 0)
        }
        expectEqual("same", "same")
    }

    func aFalseConditionIsAnIssueAndATrueOneIsNot() {
        withKnownIssue("false is an issue") {
            expectTrue(1 > 2, "one is not more than two")
        }
        expectTrue(2 > 1)
    }

    func aFailedRequirementStopsTheTest() throws {
        var reached = 0
        withKnownIssue("a false condition stops here") {
            try require(1 > 2, "one is not more than two")
            reached += 1
        }
        withKnownIssue("nil stops here") {
            let missing: Int? = nil
            _ = try require(missing)
            reached += 1
        }
        expectEqual(reached, 0, "nothing after a failed requirement ran")
        try require(2 > 1)
        expectEqual(try require(Int?.some(3)), 3)
    }
}
