import Testing

/// `#expect(actual == expected, comment)` as a plain generic function: the same check, the
/// same comment (built only on failure) and source location, and a failure still shows both
/// values. The macro expands each `==` into a call that the type checker resolves against
/// every overload of `==` and of the macro's own helpers, 10 to 40 ms a line; a call to this
/// function costs about 2 ms, which is most of the test targets' type-checking time.
func expectEqual<T: Equatable>(
    _ actual: T, _ expected: T, _ comment: @autoclosure () -> Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual == expected, comment(), sourceLocation: sourceLocation)
}

/// `#expect(condition, comment)` as a plain function: the same issue, comment (built only
/// on failure) and source location when the condition is false; only the values of the
/// condition's parts are not shown, so a condition worth explaining says them in its
/// comment. A `#expect` line costs 10 to 20 ms to compile, a call to this about 2.
func expectTrue(
    _ condition: Bool, _ comment: @autoclosure () -> Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(condition, comment(), sourceLocation: sourceLocation)
}

/// `try #require(condition, comment)` as a plain function: records the issue and stops the
/// test when the condition is false.
func require(
    _ condition: Bool, _ comment: @autoclosure () -> Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try #require(condition, comment(), sourceLocation: sourceLocation)
}

/// `try #require(value, comment)` as a plain function: the value, or an issue that stops
/// the test when it is nil.
func require<Value>(
    _ value: Value?, _ comment: @autoclosure () -> Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Value {
    try #require(value, comment(), sourceLocation: sourceLocation)
}
