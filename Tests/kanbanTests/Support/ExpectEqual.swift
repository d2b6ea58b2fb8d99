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
