// Ids are random rather than counted: two copies of one file edited on two git branches
// must not hand out the same id, and a counter would. They have 6 characters, more in
// very large files, so that hitting any id the file has held stays too unlikely to matter.

extension Kanban {
    /// Returns `count` new ids, distinct from each other and from every id in the kanban
    /// (items, boards and the archive).
    ///
    /// An id is `idLength(forItemCount:)` characters from `0-9a-z` with at least one
    /// letter and one digit, so it never reads as a word or a number.
    ///
    /// - Complexity: O(*n* + `count`) expected, where *n* is the number of items.
    public func newIDs(count: Int, using generator: inout some RandomNumberGenerator) -> [ItemID] {
        guard count > 0 else { return [] }
        let length = Self.idLength(forItemCount: itemCount + archive.count + boards.count + count)
        if let ledger = (generator as? any KeepsIDs)?.ledger {
            return ledger.newIDs(count: count, length: length, using: &generator)
        }
        var chosen = Set<ItemID>(minimumCapacity: count)
        var ids = [ItemID]()
        ids.reserveCapacity(count)
        for _ in 0..<count {
            ids.append(Self.randomID(length: length, notIn: chosen, using: &generator))
            chosen.insert(ids[ids.count - 1])
        }
        // One pass over the file finds the rare candidate an item already uses.
        // One new id, the common case: checked with a scan of packed words.
        if count == 1 {
            while location(of: ids[0]) != nil || boards.contains(where: { $0.id == ids[0] })
                || archive.contains(where: { $0.item.id == ids[0] })
            {
                ids[0] = Self.randomID(length: length, notIn: chosen, using: &generator)
                chosen.insert(ids[0])
            }
            return ids
        }
        var pending = Array(ids.indices)
        while !pending.isEmpty {
            var fresh = ItemIDSet(expected: pending.count)
            for slot in pending { _ = fresh.insert(ids[slot]) }
            var taken = Set<ItemID>()
            for board in boards.indices {
                if fresh.contains(boards[board].id) { taken.insert(boards[board].id) }
                boards[board].items.withUnsafeBufferPointer { items in
                    for index in items.indices where fresh.contains(items[index].id) {
                        taken.insert(items[index].id)
                    }
                }
            }
            for archived in archive where fresh.contains(archived.item.id) {
                taken.insert(archived.item.id)
            }
            pending = pending.filter { taken.contains(ids[$0]) }
            for slot in pending {
                ids[slot] = Self.randomID(length: length, notIn: chosen, using: &generator)
                chosen.insert(ids[slot])
            }
        }
        return ids
    }

    /// The id length for a file of `itemCount` items: 6 characters, or more once the file
    /// is so large that 36^length spellings would leave fewer than 65,536 per item (8 at most).
    ///
    /// Six characters already give 2.2 billion spellings, so a new id has about a one in
    /// a billion chance of repeating any one id the file ever held, or one made on another
    /// branch: "never reused" without keeping removed ids in the file, where they would
    /// grow it and make every two branches' edits conflict in git.
    public static func idLength(forItemCount itemCount: Int) -> Int {
        var length = 6
        var space = 36 * 36 * 36 * 36 * 36 * 36
        while length < ItemID.maximumLength && space / 65_536 < itemCount {
            length += 1
            space *= 36
        }
        return length
    }

    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// A random id of `length` characters, with a letter and a digit, not in `chosen`.
    ///
    /// One 64-bit draw gives all the characters (36^8 is far below 2^64, so the bias of
    /// taking remainders is below one in ten million).
    fileprivate static func randomID(
        length: Int, notIn chosen: Set<ItemID>, using generator: inout some RandomNumberGenerator
    ) -> ItemID {
        while true {
            var draw = generator.next()
            var packed: UInt64 = 0
            var digits = 0
            for _ in 0..<length {
                let byte = alphabet[Int(draw % 36)]
                draw /= 36
                if byte <= UInt8(ascii: "9") { digits += 1 }
                packed = packed << 8 | UInt64(byte)
            }
            guard digits > 0 && digits < length else { continue }
            let id = ItemID(packed: packed << (8 * UInt64(ItemID.maximumLength - length)))
            if !chosen.contains(id) { return id }
        }
    }
}

// MARK: - Many operations in a row

/// A random number generator that also keeps the ids of one kanban, for applying many
/// operations to it in a row (`kanban batch`): each new id is then checked against a hash
/// set, not against a scan of the whole kanban, which would make *n* added cards cost
/// O(*n*²) (README: Batch).
///
/// The set holds every id the kanban had when the generator was made and every id made
/// through it since; ids removed meanwhile stay, so it always holds at least every id the
/// kanban has. Use it only with the kanban it was made for, and its changes since.
public struct IDKeepingGenerator<Base: RandomNumberGenerator>: RandomNumberGenerator, KeepsIDs {
    public var base: Base
    let ledger: IDLedger

    public init(_ base: Base, keepingIDsOf kanban: Kanban) {
        self.base = base
        ledger = IDLedger(kanban)
    }

    public mutating func next() -> UInt64 { base.next() }
}

/// A generator that carries an ``IDLedger``.
protocol KeepsIDs {
    var ledger: IDLedger { get }
}

/// The ids of a kanban, as an ``IDKeepingGenerator`` keeps them. A class, so that the
/// generator's copies (`newIDs` sees it through a cast) share one set without copying it.
final class IDLedger {
    private var taken: ItemIDSet

    init(_ kanban: Kanban) {
        taken = ItemIDSet(expected: kanban.itemCount + kanban.archive.count + kanban.boards.count)
        for board in kanban.boards {
            _ = taken.insert(board.id)
            for item in board.items { _ = taken.insert(item.id) }
        }
        for archived in kanban.archive { _ = taken.insert(archived.item.id) }
    }

    /// `count` new ids, none taken, each taken from now on.
    ///
    /// - Complexity: O(`count`) expected.
    func newIDs(count: Int, length: Int, using generator: inout some RandomNumberGenerator) -> [ItemID] {
        var ids: [ItemID] = []
        ids.reserveCapacity(count)
        while ids.count < count {
            let id = Kanban.randomID(length: length, notIn: [], using: &generator)
            if taken.insert(id) { ids.append(id) }
        }
        return ids
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

    /// A generator whose stream does not retrace this one's: it starts from this one's next
    /// value, scrambled, rather than from a neighbouring state.
    func forked() -> SeededGenerator {
        var copy = self
        return SeededGenerator(seed: copy.next() ^ 0x6a09_e667_f3bc_c909)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
