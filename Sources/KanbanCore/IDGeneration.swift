// Ids are random rather than counted: two copies of one file edited on two git branches
// must not hand out the same id, and a counter would. They are short while the file is
// small and grow with it, so that hitting any id the file has held stays unlikely.

extension Kanban {
    /// Returns `count` new ids, distinct from each other and from every id in the kanban.
    ///
    /// An id is `idLength(forItemCount:)` characters from `0-9a-z` with at least one
    /// letter and one digit, so it never reads as a word or a number.
    ///
    /// - Complexity: O(*n* + `count`) expected, where *n* is the number of items.
    public func newIDs(count: Int, using generator: inout some RandomNumberGenerator) -> [ItemID] {
        guard count > 0 else { return [] }
        let length = Self.idLength(forItemCount: itemCount + count)
        var chosen = Set<String>(minimumCapacity: count)
        var pending = Array(0..<count)
        var ids = Array(repeating: "", count: count)
        while !pending.isEmpty {
            for slot in pending {
                var candidate = Self.randomID(length: length, using: &generator)
                while chosen.contains(candidate) {
                    candidate = Self.randomID(length: length, using: &generator)
                }
                chosen.insert(candidate)
                ids[slot] = candidate
            }
            // One pass over the file finds the rare candidate an item already uses.
            let fresh = Set(pending.map { ids[$0] })
            var taken = Set<String>()
            for board in boards {
                for item in board.items where item.id.rawValue.utf8.count == length {
                    if fresh.contains(item.id.rawValue) { taken.insert(item.id.rawValue) }
                }
            }
            pending = pending.filter { taken.contains(ids[$0]) }
        }
        return ids.map(ItemID.init(trusted:))
    }

    /// The id length for a file of `itemCount` items: the shortest from 4 to 8 characters
    /// whose 36^length spellings number at least 65,536 per item (8 at most).
    public static func idLength(forItemCount itemCount: Int) -> Int {
        var length = 4
        var space = 36 * 36 * 36 * 36
        while length < ItemID.maximumLength && space / 65_536 < itemCount {
            length += 1
            space *= 36
        }
        return length
    }

    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    private static func randomID(length: Int, using generator: inout some RandomNumberGenerator) -> String {
        while true {
            var bytes = [UInt8]()
            bytes.reserveCapacity(length)
            var digits = 0
            for _ in 0..<length {
                let byte = alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))]
                if byte <= UInt8(ascii: "9") { digits += 1 }
                bytes.append(byte)
            }
            if digits > 0 && digits < length {
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }
}

/// A small, fast, seedable random number generator (SplitMix64).
///
/// Used where ids must be reproducible: tests, and the ids given to a legacy file's items,
/// which are derived from the file's bytes so that listing the file twice shows the same ids.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// A generator seeded from the FNV-1a hash of `bytes`.
    public init(hashing bytes: some Sequence<UInt8>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        state = hash
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
