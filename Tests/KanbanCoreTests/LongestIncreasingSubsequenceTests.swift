import Testing

@testable import KanbanCore

/// Which cards moved (README: Working together): the marks of one longest increasing
/// subsequence, the same ones the patience sort without its shortcut for a run that only
/// grows gives, on lists mostly in order (a few cards moved) and on shuffled ones.
@Suite("Longest increasing subsequence")
struct LongestIncreasingSubsequenceTests {
    /// Patience sorting with a binary search for every element: the reference.
    static func referenceMask(_ values: [Int]) -> [Bool] {
        var mask = [Bool](repeating: false, count: values.count)
        guard !values.isEmpty else { return mask }
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var index = tails[tails.count - 1]
        while index >= 0 {
            mask[index] = true
            index = previous[index]
        }
        return mask
    }

    /// The length of a longest strictly increasing subsequence, by the quadratic table.
    static func longest(_ values: [Int]) -> Int {
        var lengths = [Int](repeating: 1, count: values.count)
        for index in values.indices {
            for before in 0..<index where values[before] < values[index] {
                lengths[index] = max(lengths[index], lengths[before] + 1)
            }
        }
        return lengths.max() ?? 0
    }

    @Test func marksOneLongestIncreasingSubsequenceAsTheReferenceDoes() {
        let seed: UInt64 = 0x4c49_53
        print("longest increasing subsequence: seed \(seed)")
        var random = SeededGenerator(seed: seed)
        for round in 0..<400 {
            let count = Int.random(in: 0...60, using: &random)
            var values = Array(0..<count)
            if round % 2 == 0 {
                // Mostly in order: a few elements moved elsewhere.
                for _ in 0..<Int.random(in: 0...3, using: &random) where !values.isEmpty {
                    let element = values.remove(at: Int.random(in: values.indices, using: &random))
                    values.insert(element, at: Int.random(in: 0...values.count, using: &random))
                }
            } else {
                values.shuffle(using: &random)
            }
            let mask = LongestIncreasingSubsequence.mask(values)
            let context = Comment(rawValue: "seed \(seed), round \(round): \(values)")
            expectEqual(mask, Self.referenceMask(values), context)
            let kept = zip(values, mask).filter(\.1).map(\.0)
            expectTrue(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 }, context)
            expectEqual(kept.count, Self.longest(values), context)
        }
    }
}
