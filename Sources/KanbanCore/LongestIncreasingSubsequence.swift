// Which cards of a list moved: the fewest moves that turn an old order into a new one leave
// a longest common subsequence of the two in place. Ids are unique, so that subsequence is
// a longest increasing subsequence of the old positions taken in the new order, which
// patience sorting finds in O(n log n) (Hunt–Szymanski's reduction for permutations).

enum LongestIncreasingSubsequence {
    /// Marks the elements of one longest strictly increasing subsequence of `values`.
    ///
    /// Among several of the same length, it keeps the one that ends with the smallest last
    /// value, and so on backwards: the same input always gives the same marks.
    ///
    ///     mask([1, 0])           // [false, true]: of two swapped cards, the first moved
    ///     mask([3, 0, 1, 2])     // [false, true, true, true]: the card now on top moved
    ///
    /// - Complexity: O(*n* log *n*).
    static func mask(_ values: [Int]) -> [Bool] {
        var mask = [Bool](repeating: false, count: values.count)
        guard !values.isEmpty else { return mask }
        // tails[k]: the index of the smallest last value of an increasing run of length k + 1.
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
}
