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
        var tails = [Int](repeating: 0, count: values.count)
        var length = 0
        var previous = [Int](repeating: -1, count: values.count)
        values.withUnsafeBufferPointer { values in
            tails.withUnsafeMutableBufferPointer { tails in
                previous.withUnsafeMutableBufferPointer { previous in
                    for index in 0..<values.count {
                        let value = values[index]
                        var low: Int
                        // A list mostly in the base's order extends the longest run at almost
                        // every card: that is where the search below would end, found at once.
                        if length == 0 || values[tails[length - 1]] < value {
                            low = length
                        } else {
                            low = 0
                            var high = length - 1
                            while low < high {
                                let middle = (low + high) / 2
                                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
                            }
                        }
                        if low > 0 { previous[index] = tails[low - 1] }
                        tails[low] = index
                        if low == length { length += 1 }
                    }
                }
            }
        }
        var index = tails[length - 1]
        while index >= 0 {
            mask[index] = true
            index = previous[index]
        }
        return mask
    }
}
