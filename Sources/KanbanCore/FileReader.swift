// Reading objects of the file by their schema: keys in any order, each at most once,
// required ones present, unknown ones refused, and the invariants checked as parts come in.

/// The state of reading one file: the JSON cursor, the invariant checks so far, and the
/// file's version (which says which keys may appear).
struct FileReader {
    var json: JSONReader
    var checker: InvariantChecker
    let version: Int
    /// The object being read, for messages: `an item`, `a board`.
    private(set) var owner: StaticString = "the document"
    /// How many boards came without an id (version 1).
    var boardsWithoutID = 0
    /// The last date read, for the timestamps that follow.
    var dates = DateCache()
    /// The sets of labels and names read last, for the cards that follow.
    var words = WordsCache()
    /// The bytes being read, when cards may keep their lines in them (see `KeptLine`).
    var file: FileBytes?
    /// Whether the cards that keep their lines are read as deferred: checked, but their
    /// fields left in the line until used (see ``Item``).
    var deferringCards = false
    /// Another version's card lines, which lines of this one may be found to be.
    var linesReadBefore: LinesReadBefore?

    init(json: JSONReader, version: Int, expectedIDs: Int, deferringIDs: Bool = false) {
        self.json = json
        self.version = version
        checker = InvariantChecker(expectedIDs: expectedIDs, deferringIDs: deferringIDs)
    }

    // MARK: - Objects

    /// Reads an object of `schema` into `root`; `owner` names it in messages.
    mutating func readObject<Root>(_ schema: [Field<Root>], into root: inout Root, owner: StaticString)
        throws(KanbanError)
    {
        try json.beginObject(owner.description)
        try readMembers(schema, into: &root, owner: owner)
    }

    /// Reads the members of an object whose `{` is consumed, up to its `}`. `other` may claim
    /// a key the schema does not have (the document's `"version"`), returning true once it
    /// has read its value. `seen` marks the fields already read, `first` whether no member was.
    mutating func readMembers<Root>(
        _ schema: [Field<Root>], into root: inout Root, owner: StaticString, seen: UInt64 = 0, first: Bool = true,
        other: ((inout FileReader, JSONString) throws(KanbanError) -> Bool)? = nil
    ) throws(KanbanError) {
        let outer = self.owner
        self.owner = owner
        defer { self.owner = outer }
        let start = json.offset
        var seen = seen
        var first = first
        var expected = (~seen).trailingZeroBitCount  // files this build wrote have their keys in schema order
        while true {
            // The layout this build writes: `, "key": ` for a later field, in schema order.
            if !first,
                let index = (expected..<schema.count).first(where: { json.consumeWrittenKey(schema[$0].quotedKey) })
            {
                guard schema[index].since <= version else {
                    throw json.error(
                        "key \"\(schema[index].key)\" in \(owner) is new in version 2 of the file, but this one says \"version\": \(version)"
                    )
                }
                // A key read earlier out of order may come again in order: still a repeat.
                guard seen & (1 << index) == 0 else {
                    throw json.error("duplicate key \"\(schema[index].key)\" in \(owner)")
                }
                seen |= 1 << index
                try schema[index].read(&self, &root)
                expected = index + 1
                continue
            }
            guard let key = try json.nextKey(first: &first) else { break }
            var index = expected
            if index >= schema.count || !json.string(key, is: schema[index].key) {
                index = 0
                while index < schema.count && !json.string(key, is: schema[index].key) { index += 1 }
            }
            guard index < schema.count, schema[index].since <= version else {
                if let other, try other(&self, key) { continue }
                throw unknownKey(key, in: owner, known: index < schema.count)
            }
            guard seen & (1 << index) == 0 else {
                throw json.error("duplicate key \"\(schema[index].key)\" in \(owner)", at: key.offset)
            }
            seen |= 1 << index
            try schema[index].read(&self, &root)
            expected = index + 1
        }
        for (index, field) in schema.enumerated()
        where field.required && field.since <= version && seen & (1 << index) == 0 {
            throw json.error("missing key \"\(field.key)\" in \(owner)", at: start)
        }
    }

    /// Reads the next card, checks it against the invariants and appends it to `items`,
    /// through the fast path of `ItemLine.swift` for a line in the exact layout this build writes.
    mutating func readItem(appendingTo items: inout [Item]) throws(KanbanError) {
        let start = json.offset
        // Plain lines, a run of them at a time, then this build's layout, then any other.
        if readsPlainDeferredLines, try readPlainDeferredLine(appendingTo: &items) {
            return try readPlainDeferredRun(appendingTo: &items, startingAt: start)
        }
        do throws(KanbanError) {
            if try readWrittenItem(appendingTo: &items) { return }
        } catch {
            throw invariantError(error, at: start)
        }
        let item = try readItem()
        do throws(KanbanError) {
            try checker.checkItem(item)
        } catch {
            throw invariantError(error, at: start)
        }
        items.append(item)
    }

    /// A card, through a fast path for the start of the line this build writes,
    /// `{"id": "k3f9", "title": "…"`, when its title has no escape.
    mutating func readItem() throws(KanbanError) -> Item {
        guard let prefix = json.readCanonicalItemPrefix() else {
            var item = Schema.blankItem
            try readObject(Schema.item, into: &item, owner: "an item")
            return item
        }
        let title = try json.text(in: prefix.title, isASCII: prefix.isASCII, quoteAt: prefix.title.lowerBound - 1)
        var item = Item(id: prefix.id, title: title)
        // The id and the title, the schema's first two fields, are read.
        try readMembers(Schema.item, into: &item, owner: "an item", seen: 0b11, first: false)
        return item
    }

    // MARK: - Errors

    private func unknownKey(_ key: JSONString, in owner: StaticString, known: Bool) -> KanbanError {
        do {
            let name = try json.text(of: key)
            if known {
                return json.error(
                    "key \(JSON.quoted(name)) in \(owner) is new in version 2 of the file, but this one says "
                        + "\"version\": \(version)", at: key.offset)
            }
            return json.error("unknown key \(JSON.quoted(name)) in \(owner)", at: key.offset)
        } catch {
            return error
        }
    }

    /// A broken invariant, reported as a corrupt file at the line of `offset`.
    func invariantError(_ error: KanbanError, at offset: Int) -> KanbanError {
        let message: String
        switch error {
        case .invalidTitle: message = "\(owner)'s \"title\" is blank"
        case .duplicateBoard(let title, let existing):
            message =
                "duplicate board title \(JSON.quoted(title)) (board titles ignore case; also \(JSON.quoted(existing)))"
        case .duplicateID(let id): message = "duplicate id \(JSON.quoted(id.rawValue))"
        case .invalidValue(let kind, _, let reason): message = "invalid \(kind.rawValue): \(reason)"
        default: return error
        }
        return json.error(message, at: offset)
    }

    /// A broken invariant of the object at `start`, reported at the line of its `key`.
    func invariantError(_ error: KanbanError, inObjectAt start: Int, key: StaticString) -> KanbanError {
        var scout = json
        scout.seek(to: start)
        var first = true
        var offset = start
        do {
            try scout.beginObject("")
            while let name = try scout.nextKey(first: &first) {
                if scout.string(name, is: key) {
                    scout.skipWhitespace()
                    offset = scout.offset
                }
                try scout.skipValue()
            }
        } catch {}
        var reader = self
        reader.owner = "a board"
        return reader.invariantError(error, at: offset)
    }
}
