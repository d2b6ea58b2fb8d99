/// A set of item ids, for checking a file's million ids for repeats in one pass.
///
/// Ids are 64-bit words, so an open-addressing table of words with a multiplicative hash
/// does what `Set<ItemID>` does at a fraction of the cost: no hasher state, no per-entry
/// metadata, one probe in the common case.
/// The first slot to try for a packed id in a table of `1 << (64 - shift)` slots: a
/// multiplicative hash (ids are random, so no more is needed).
@inline(__always)
private func homeSlot(of packed: UInt64, shift: UInt64) -> Int {
    Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> shift)
}

struct ItemIDSet {
    /// Packed ids; 0 marks an empty slot (no valid id packs to 0).
    private var slots: [UInt64]
    private var shift: UInt64
    private(set) var count = 0

    /// A set sized for about `expected` ids; it grows past that as needed.
    init(expected: Int) {
        var size = 16
        while size * 3 / 4 < expected { size *= 2 }
        slots = Array(repeating: 0, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    /// Inserts `id`; `false` if it was already there.
    mutating func insert(_ id: ItemID) -> Bool {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var index = homeSlot(of: id.packed, shift: shift)
        while true {
            let slot = slots[index]
            if slot == 0 {
                slots[index] = id.packed
                count += 1
                return true
            }
            if slot == id.packed { return false }
            index = (index + 1) & mask
        }
    }

    /// Whether `id` is in the set.
    func contains(_ id: ItemID) -> Bool {
        let mask = slots.count - 1
        var index = homeSlot(of: id.packed, shift: shift)
        while true {
            let slot = slots[index]
            if slot == id.packed { return true }
            if slot == 0 { return false }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        self = ItemIDSet(expected: old.count * 2)
        for packed in old where packed != 0 {
            _ = insert(ItemID(packed: packed))
        }
    }
}

extension ItemIDSet {
    /// Whether any id in `packed` comes twice.
    ///
    /// The ids are first spread over parts by a second hash, in two passes that read and
    /// write memory in order; each part then goes through a table small enough to stay in
    /// the cache. One table for a million ids would be 16 MiB, each lookup a cache miss.
    ///
    /// - Complexity: O(*n*).
    static func containsRepeats(_ packed: [UInt64]) -> Bool {
        let idsPerPart = 4096
        guard packed.count > 2 * idsPerPart else {
            var set = ItemIDSet(expected: packed.count)
            return !packed.allSatisfy { set.insert(ItemID(packed: $0)) }
        }
        let partBits = min(Int.bitWidth - (packed.count / idsPerPart).leadingZeroBitCount, 12)
        let partShift = UInt64(64 - partBits)
        // A multiplier other than the table's, so the ids of one part spread over its table.
        @inline(__always) func part(_ id: UInt64) -> Int {
            Int(truncatingIfNeeded: (id &* 0xD6E8_FEB8_6659_FD93) >> partShift)
        }
        var starts = [Int](repeating: 0, count: (1 << partBits) + 1)
        for id in packed { starts[part(id) + 1] += 1 }
        var largest = 0
        for index in 1..<starts.count {
            largest = max(largest, starts[index])
            starts[index] += starts[index - 1]
        }
        var next = starts
        let spread = [UInt64](unsafeUninitializedCapacity: packed.count) { buffer, count in
            for id in packed {
                let index = part(id)
                buffer[next[index]] = id
                next[index] += 1
            }
            count = packed.count
        }
        var size = 16
        while size < 2 * largest { size *= 2 }
        var table = [UInt64](repeating: 0, count: size)
        return spread.withUnsafeBufferPointer { spread in
            table.withUnsafeMutableBufferPointer { table in
                for index in 0..<(1 << partBits) where starts[index + 1] - starts[index] > 1 {
                    let ids = spread[starts[index]..<starts[index + 1]]
                    var tableSize = 16
                    while tableSize < 2 * ids.count { tableSize *= 2 }
                    let shift = UInt64(64 - tableSize.trailingZeroBitCount)
                    let mask = tableSize - 1
                    let slots = UnsafeMutableBufferPointer(rebasing: table[..<tableSize])
                    slots.update(repeating: 0)
                    for id in ids {
                        var slot = homeSlot(of: id, shift: shift)
                        while slots[slot] != 0 {
                            if slots[slot] == id { return true }
                            slot = (slot + 1) & mask
                        }
                        slots[slot] = id
                    }
                }
                return false
            }
        }
    }
}

/// A map from item ids to values, by the same open addressing as ``ItemIDSet``: what a diff
/// and a merge look cards up by, a few times per card of three kanbans, where
/// `Dictionary<ItemID, _>`'s hashing was a third of a merge's time.
struct ItemIDMap<Value> {
    /// Packed ids; 0 marks an empty slot.
    private var keys: [UInt64]
    private var values: [Value?]
    private var shift: UInt64
    private(set) var count = 0

    /// A map sized for about `expected` ids; it grows past that as needed.
    init(expected: Int = 0) {
        var size = 16
        while size * 3 / 4 < expected { size *= 2 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: nil, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    /// The slot that holds `packed`, or the empty slot where it would go.
    private func slot(of packed: UInt64) -> Int {
        let mask = keys.count - 1
        var index = homeSlot(of: packed, shift: shift)
        while keys[index] != packed && keys[index] != 0 {
            index = (index + 1) & mask
        }
        return index
    }

    /// The value of `id`; setting one inserts or replaces it (nil is ignored: nothing is
    /// ever removed).
    subscript(id: ItemID) -> Value? {
        get { id.packed == 0 ? nil : values[slot(of: id.packed)] }
        set {
            guard let newValue, id.packed != 0 else { return }
            if (count + 1) * 4 > keys.count * 3 { grow() }
            let index = slot(of: id.packed)
            if keys[index] == 0 {
                keys[index] = id.packed
                count += 1
            }
            values[index] = newValue
        }
    }

    /// Inserts `value` for `id` if `id` has none yet, in one search; `false` if it had one,
    /// which stays.
    mutating func insertIfAbsent(_ id: ItemID, _ value: Value) -> Bool {
        guard id.packed != 0 else { return false }
        if (count + 1) * 4 > keys.count * 3 { grow() }
        let index = slot(of: id.packed)
        guard keys[index] == 0 else { return false }
        keys[index] = id.packed
        values[index] = value
        count += 1
        return true
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        self = ItemIDMap(expected: oldKeys.count * 2)
        for (key, value) in zip(oldKeys, oldValues) where key != 0 {
            self[ItemID(packed: key)] = value
        }
    }
}
