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

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        self = ItemIDMap(expected: oldKeys.count * 2)
        for (key, value) in zip(oldKeys, oldValues) where key != 0 {
            self[ItemID(packed: key)] = value
        }
    }
}
