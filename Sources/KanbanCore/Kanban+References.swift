// Item references resolve in a fixed order, and never fuzzily:
//   1. an item id;
//   2. an exact, case-sensitive title, within one board if a scope is given;
//   3. `BOARD:N`, split at the last colon;
//   4. a prefix of at least 3 characters of exactly one item id, as git takes short hashes.
// Fuzzy matching only feeds the suggestions of an error. Board references are a title
// (exact, else ignoring case), else a board's id.

extension Kanban {
    /// Resolves a board reference: the exact title, else the title that matches
    /// case-insensitively (board titles are unique that way, so at most one does).
    ///
    /// - Throws: ``KanbanError/boardNotFound(name:suggestions:boards:)``.
    /// - Complexity: O(*b*) where *b* is the number of boards.
    public func boardIndex(named name: String) throws(KanbanError) -> Int {
        if let index = boards.firstIndex(where: { $0.title == name }) { return index }
        let key = name.boardKey
        if let index = boards.firstIndex(where: { $0.title.boardKey == key }) { return index }
        if let id = ItemID(name), let index = boardIndex(id: id) { return index }
        let titles = boards.map(\.title)
        throw .boardNotFound(name: name, suggestions: Suggestions.closest(to: name, among: titles), boards: titles)
    }

    /// Resolves one item reference. See ``locate(_:within:hints:)-([String],_,_)``.
    public func locate(
        _ reference: String, within scope: Int? = nil, hints: CardHints? = nil
    ) throws(KanbanError) -> Location {
        try locate([reference], within: scope, hints: hints)[0]
    }

    /// Resolves item references, all against the kanban as it is now.
    ///
    /// Each reference is an id, else an exact title (searched only in board `scope` when
    /// given), else `BOARD:N`. Duplicates are kept: the result has one location per
    /// reference, in order.
    ///
    /// - Throws: ``KanbanError/itemNotFound(reference:suggestions:)`` with close matches,
    ///   ``KanbanError/ambiguousItem(reference:candidates:total:)`` when a title names
    ///   several items, ``KanbanError/boardNotFound(name:suggestions:boards:)`` or
    ///   ``KanbanError/indexOutOfRange(index:board:range:)`` for a bad `BOARD:N`.
    /// `hints`, kept by a caller that resolves many references against a kanban it changes
    /// between them (a batch), find a card by its id without a scan of every card; the
    /// result and the errors are the same with or without them.
    ///
    /// - Complexity: O(*n* + *k*): one pass over the *n* items for *k* references; with
    ///   hints, about O(*k*) once they are made.
    public func locate(
        _ references: [String], within scope: Int? = nil, hints: CardHints? = nil
    ) throws(KanbanError) -> [Location] {
        guard !references.isEmpty else { return [] }
        // A batch's line names one card, most often by id: found, it is the answer.
        if let hints, references.count == 1, let id = ItemID(references[0]),
            let location = hints.location(of: id, in: self)
        {
            return [location]
        }
        // A command names a few items, or (from a script) thousands; most are ids. One pass
        // matches ids, comparing 64-bit words; a second, only for what is left, matches titles.
        var byID: [ItemID: Location] = [:]
        let wantedIDs = Set(references.compactMap(ItemID.init))
        if let hints {
            // One reference was looked up above.
            if references.count > 1 {
                for wanted in wantedIDs { byID[wanted] = hints.location(of: wanted, in: self) }
            }
        } else if wantedIDs.count == 1, let wanted = wantedIDs.first {
            // The common case, one id: a scan of packed words, no card copied on the way.
            if let location = location(of: wanted) { byID[wanted] = location }
        } else if !wantedIDs.isEmpty {
            for b in boards.indices {
                boards[b].items.withUnsafeBufferPointer { items in
                    for i in items.indices where wantedIDs.contains(items[i].id) {
                        byID[items[i].id] = Location(board: b, index: i)
                    }
                }
            }
        }
        var byTitle: [String: [Location]] = [:]
        let wantedTitles = Set(references.filter { ItemID($0).flatMap { byID[$0] } == nil })
        if !wantedTitles.isEmpty {
            let fewTitles = wantedTitles.count <= 4 ? Array(wantedTitles) : nil
            for b in boards.indices where scope == nil || scope == b {
                boards[b].items.withUnsafeBufferPointer { items in
                    for i in items.indices where fewTitles?.contains(items[i].title) ?? wantedTitles.contains(items[i].title) {
                        byTitle[items[i].title, default: []].append(Location(board: b, index: i))
                    }
                }
            }
        }
        var result: [Location] = []
        result.reserveCapacity(references.count)
        for reference in references {
            if let id = ItemID(reference), let location = byID[id] {
                result.append(location)
            } else if let matches = byTitle[reference] {
                guard matches.count == 1 else {
                    throw .ambiguousItem(
                        reference: reference, candidates: matches.prefix(10).map { candidate($0) },
                        total: matches.count)
                }
                result.append(matches[0])
            } else if let location = try locatePositional(reference) {
                result.append(location)
            } else if let location = try locateByPrefix(reference) {
                result.append(location)
            } else if let archived = archivedIndex(reference) {
                throw .itemArchived(reference: reference, card: archivedCandidate(archived))
            } else {
                throw .itemNotFound(reference: reference, suggestions: suggestions(for: reference, within: scope))
            }
        }
        return result
    }

    /// The archived card that `reference` names without doubt (its id, its exact title or
    /// a prefix of its id, shared with no other archived card), for the message of a
    /// reference that names no card on a board.
    private func archivedIndex(_ reference: String) -> Int? {
        if let id = ItemID(reference), let index = archive.firstIndex(where: { $0.item.id == id }) { return index }
        let titled = archive.indices.filter { archive[$0].item.title == reference }
        if titled.count == 1 { return titled[0] }
        guard titled.isEmpty, let prefix = IDPrefix(reference) else { return nil }
        let matches = archive.indices.filter { prefix.matches(archive[$0].item.id) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Where the card with `id` is, if it is on a board.
    public func location(of id: ItemID) -> Location? {
        let packed = id.packed
        for b in boards.indices {
            let found = boards[b].items.withUnsafeBufferPointer { items -> Int? in
                for i in items.indices where items[i].id.packed == packed { return i }
                return nil
            }
            if let found { return Location(board: b, index: found) }
        }
        return nil
    }

    /// Where the card with packed id `packed` is, looked for in board `board` only, from
    /// `index` outwards: the place a card was, after other cards came or went around it.
    fileprivate func location(of packed: UInt64, near index: Int, inBoard board: Int) -> Location? {
        guard boards.indices.contains(board) else { return nil }
        return boards[board].items.withUnsafeBufferPointer { items -> Location? in
            let start = min(max(0, index), items.count)
            var (down, up) = (start - 1, start)
            while down >= 0 || up < items.count {
                if up < items.count {
                    if items[up].id.packed == packed { return Location(board: board, index: up) }
                    up += 1
                }
                if down >= 0 {
                    if items[down].id.packed == packed { return Location(board: board, index: down) }
                    down -= 1
                }
            }
            return nil
        }
    }

    /// Resolves `BOARD:N`; `nil` when `reference` does not have that form.
    private func locatePositional(_ reference: String) throws(KanbanError) -> Location? {
        guard let colon = reference.lastIndex(of: ":") else { return nil }
        let name = String(reference[..<colon])
        let number = reference[reference.index(after: colon)...]
        // A number too large for an Int is no index either: the reference names nothing.
        guard !name.isEmpty, number.allSatisfy(\.isASCIIDigit), let index = Int(number) else { return nil }
        let board = try boardIndex(named: name)
        let count = boards[board].items.count
        guard index < count else {
            throw .indexOutOfRange(index: index, board: boards[board].title, range: count > 0 ? 0...(count - 1) : nil)
        }
        return Location(board: board, index: index)
    }

    /// Resolves a prefix of at least 3 characters of one item id; `nil` when no id has it.
    private func locateByPrefix(_ reference: String) throws(KanbanError) -> Location? {
        guard let prefix = IDPrefix(reference) else { return nil }
        var matches: [Location] = []
        for (b, board) in boards.enumerated() {
            for (i, item) in board.items.enumerated() where prefix.matches(item.id) {
                matches.append(Location(board: b, index: i))
            }
        }
        guard matches.count <= 1 else {
            throw .ambiguousPrefix(
                reference: reference, candidates: matches.prefix(10).map { candidate($0) }, total: matches.count)
        }
        return matches.first
    }

    /// Resolves references to archived cards: an id, an exact title, or an id prefix of
    /// at least 3 characters. Returns indices into ``archive``, one per reference.
    ///
    /// - Throws: ``KanbanError/notArchived(_:)`` for a card that is on a board,
    ///   ``KanbanError/itemNotFound(reference:suggestions:)``, or an ambiguity error.
    public func locateArchived(_ references: [String]) throws(KanbanError) -> [Int] {
        var result: [Int] = []
        for reference in references {
            let id = ItemID(reference)
            if let id, let index = archive.firstIndex(where: { $0.item.id == id }) {
                result.append(index)
                continue
            }
            let titled = archive.indices.filter { archive[$0].item.title == reference }
            if titled.count > 1 {
                throw .ambiguousItem(
                    reference: reference, candidates: titled.prefix(10).map { archivedCandidate($0) },
                    total: titled.count)
            }
            if let index = titled.first {
                result.append(index)
                continue
            }
            if let prefix = IDPrefix(reference) {
                let matches = archive.indices.filter { prefix.matches(archive[$0].item.id) }
                if matches.count > 1 {
                    throw .ambiguousPrefix(
                        reference: reference, candidates: matches.prefix(10).map { archivedCandidate($0) },
                        total: matches.count)
                }
                if let index = matches.first {
                    result.append(index)
                    continue
                }
            }
            if let location = try? locate(reference) {
                throw .notArchived(candidate(location))
            }
            throw .itemNotFound(
                reference: reference,
                suggestions: Suggestions.closest(
                    to: reference, among: archive.map(\.item.title), limit: 3
                ).compactMap { title in archive.firstIndex { $0.item.title == title }.map { archivedCandidate($0) } })
        }
        return result
    }

    /// The item at `location`, named for an error message; `nil` if there is none.
    public func candidate(at location: Location) -> Candidate? {
        contains(location) ? candidate(location) : nil
    }

    /// The item at `location`, which must exist, named for an error message.
    func candidate(_ location: Location) -> Candidate {
        let item = self[location]
        return Candidate(id: item.id, title: item.title, board: boards[location.board].title, index: location.index)
    }

    /// Items whose title or id is close to `reference`, best first.
    private func suggestions(for reference: String, within scope: Int?) -> [Candidate] {
        var scored: [(distance: Int, location: Location)] = []
        let matcher = Suggestions.Matcher(reference)
        for (b, board) in boards.enumerated() where scope == nil || scope == b {
            for (i, item) in board.items.enumerated() {
                let distances = [matcher.distance(to: item.title), matcher.distance(to: item.id.rawValue)]
                if let best = distances.compactMap({ $0 }).min() {
                    scored.append((best, Location(board: b, index: i)))
                }
            }
        }
        return scored.sorted { ($0.distance, $0.location) < ($1.distance, $1.location) }
            .prefix(3).map { candidate($0.location) }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// The start of an id, at least 3 characters, matched against packed ids as a masked word.
struct IDPrefix {
    private let packed: UInt64
    private let mask: UInt64

    init?(_ text: String) {
        guard text.utf8.count >= 3, let id = ItemID(text) else { return nil }
        packed = id.packed
        mask = ~UInt64(0) << (8 * UInt64(ItemID.maximumLength - text.utf8.count))
    }

    func matches(_ id: ItemID) -> Bool {
        id.packed & mask == packed
    }
}

/// Close-match scoring for "did you mean" suggestions.
public enum Suggestions {
    /// The candidates within a small edit distance of `word`, ignoring case, best first.
    public static func closest(to word: String, among candidates: [String], limit: Int = 3) -> [String] {
        let matcher = Matcher(word)
        return candidates.enumerated()
            .compactMap { offset, candidate in matcher.distance(to: candidate).map { ($0, offset, candidate) } }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            .prefix(limit).map(\.2)
    }

    /// A closeness score between `word` and `candidate`, or `nil` when they are not close.
    ///
    /// Lower is closer: a case-insensitive match scores 0, a prefix of at least 3
    /// characters 1, otherwise the edit distance plus one when it is at most a third of
    /// the word's length (and at least 1 allowed, at most 3).
    public static func distance(_ word: String, _ candidate: String) -> Int? {
        Matcher(word).distance(to: candidate)
    }

    /// One word, prepared once, scored against many candidates.
    ///
    /// - Complexity: O(*m*) per candidate of length *m*: the edit distance is only worked
    ///   out in a band of a few diagonals, as no more than 3 edits count as close.
    public struct Matcher {
        private let word: [Unicode.Scalar]
        private let allowed: Int

        public init(_ word: String) {
            self.word = Array(word.lowercased().unicodeScalars)
            allowed = max(1, min(3, self.word.count / 3))
        }

        public func distance(to candidate: String) -> Int? {
            let other = Array(candidate.lowercased().unicodeScalars)
            if other == word { return 0 }
            if word.count >= 3 && other.starts(with: word) { return 1 }
            guard let edits = Suggestions.editDistance(word, other, atMost: allowed) else { return nil }
            return edits + 1
        }
    }

    /// The edit distance counting a swap of two neighbours as one edit (optimal string
    /// alignment), or `nil` when it exceeds `bound`. Only cells within `bound` of the
    /// diagonal are computed: any path through another is longer than `bound`.
    static func editDistance<T: Equatable>(_ a: [T], _ b: [T], atMost bound: Int) -> Int? {
        let n = a.count
        let m = b.count
        guard abs(n - m) <= bound else { return nil }
        if n == 0 || m == 0 { return max(n, m) }
        let far = bound + 1  // any value past the bound
        var beforePrevious = Array(repeating: far, count: m + 1)
        var previous = Array(repeating: far, count: m + 1)
        var current = Array(repeating: far, count: m + 1)
        for j in 0...min(m, bound) { previous[j] = j }
        for i in 1...n {
            let low = max(1, i - bound)
            let high = min(m, i + bound)
            current[low - 1] = low == 1 ? min(i, far) : far
            var rowMinimum = current[low - 1]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j - 1] + cost, previous[j] + 1, current[j - 1] + 1)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = min(value, far)
                rowMinimum = min(rowMinimum, current[j])
            }
            if high < m { current[high + 1] = far }
            if rowMinimum > bound { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[m] <= bound ? previous[m] : nil
    }
}

/// Where a card is: on a board, or in the archive.
public enum CardPlace: Hashable, Sendable {
    case board(Location)
    /// An index into ``Kanban/archive``.
    case archive(Int)
}

extension Kanban {
    /// Resolves references to cards on boards or in the archive: as ``locate(_:within:)``,
    /// and for what names no card on a board, an archived card's id, title or id prefix.
    public func locateAnywhere(_ references: [String]) throws(KanbanError) -> [CardPlace] {
        var places: [CardPlace] = []
        for reference in references {
            do {
                places.append(.board(try locate(reference)))
            } catch {
                guard error.namesNoCardOnABoard, let index = try? locateArchived([reference]).first else {
                    throw error
                }
                places.append(.archive(index))
            }
        }
        return places
    }
}

extension KanbanError {
    /// The reference named no card on a board (none at all, or one of the archive).
    var namesNoCardOnABoard: Bool {
        switch self {
        case .itemNotFound, .itemArchived: true
        default: false
        }
    }
}

/// Where cards were last seen, by id, for resolving many ids against a kanban that changes
/// between them (README: Batch). A place is only a hint: the card found there, or near it on
/// the same board, is checked to have the id, and an id not found so is looked for in every
/// board, as without hints. Ids are unique across boards, so the card found is the one.
public final class CardHints {
    private var places = ItemIDMap<Location>()
    private var made = false
    /// How many ids were looked up, and how many of them in every board (a card not seen
    /// yet, or gone from the board it was seen on).
    private(set) var lookups = 0
    private(set) var scans = 0

    public init() {}

    /// Where the card with `id` is in `kanban`, if it is on a board: exactly
    /// ``Kanban/location(of:)``.
    func location(of id: ItemID, in kanban: Kanban) -> Location? {
        if !made {
            // Once, on first use: every card's place, in one pass.
            made = true
            places = ItemIDMap(expected: kanban.itemCount)
            for b in kanban.boards.indices {
                kanban.boards[b].items.withUnsafeBufferPointer { items in
                    for i in items.indices { places[items[i].id] = Location(board: b, index: i) }
                }
            }
        }
        let packed = id.packed
        lookups += 1
        let found: Location?
        if let hint = places[id], let near = kanban.location(of: packed, near: hint.index, inBoard: hint.board) {
            found = near
        } else {
            scans += 1
            found = kanban.location(of: id)
        }
        if let found { places[id] = found }
        return found
    }
}
