import Testing

@testable import KanbanCore

@Suite struct SuggestionDistance {
    /// The whole optimal-string-alignment table, the obvious way.
    func fullDistance(_ a: [Character], _ b: [Character]) -> Int {
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    @Test(arguments: 1...3)
    func theBandedDistanceMatchesTheFullTable(bound: Int) {
        var generator = SeededGenerator(seed: UInt64(bound))
        let alphabet = Array("abc")
        for _ in 0..<3_000 {
            let a = (0..<Int.random(in: 0...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator)!
            }
            let b = (0..<Int.random(in: 0...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator)!
            }
            let full = fullDistance(a, b)
            expectEqual(Suggestions.editDistance(a, b, atMost: bound), (full <= bound ? full : nil), "\(a) \(b)")
        }
    }

    @Test func longStringsAreScoredInLinearTime() {
        // A band, not a table: 200,000 × 200,000 cells would take minutes.
        let long = String(repeating: "a", count: 200_000)
        expectTrue(Suggestions.distance(long + "b", long) == 2)  // one edit
        expectTrue(Suggestions.distance(long, long + "b") == 1)  // the word is a prefix
        expectTrue(Suggestions.distance("x" + long, long + "y") == 3)  // two edits
        expectTrue(Suggestions.distance("xy" + long, long + "zw") == nil)  // four: not close
        expectEqual(Suggestions.Matcher("Analitics").distance(to: "Analytics"), 2)
    }
}
