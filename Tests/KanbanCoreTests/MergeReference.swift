@testable import KanbanCore

/// SPEC §8's merge rules written out naively from the text, to check a merge against: no
/// longest-increasing-subsequence trick, no weaving, quadratic and cubic loops over small
/// kanbans. Where the rules leave a choice open (two longest common subsequences of one
/// board's orders tie, so a card may or may not count as moved), it accepts every outcome
/// the rules allow.
enum MergeReference {
    /// Where a card is.
    enum Place: Hashable, CustomStringConvertible {
        case board(BoardID)
        case archive

        var description: String {
            switch self {
            case .board(let id): "board \(id)"
            case .archive: "the archive"
            }
        }
    }

    /// One version's view of a card.
    struct Card {
        var item: Item
        var place: Place
        var archived: ArchivedItem?
        /// When it arrived where it is: `archived` in the archive, else `entered`.
        var time: Timestamp? { archived?.archived ?? item.entered }
    }

    /// Whose place a card takes.
    enum Placer: Hashable {
        case base, ours, theirs
    }

    /// What may become of a card: absent, or in a place taken from someone.
    struct Outcome: Hashable {
        var place: Place?
        var placer: Placer?
    }

    /// Whether a card moved since the base: certainly, certainly not, or either, when
    /// longest common subsequences of its list's two orders disagree.
    enum Moved {
        case no, yes, maybe

        var possibilities: [Bool] {
            switch self {
            case .no: [false]
            case .yes: [true]
            case .maybe: [false, true]
            }
        }
    }

    // MARK: - Looking at a kanban

    static func cards(_ kanban: Kanban) -> [ItemID: Card] {
        var cards: [ItemID: Card] = [:]
        for board in kanban.boards {
            for item in board.items { cards[item.id] = Card(item: item, place: .board(board.id)) }
        }
        for archived in kanban.archive {
            cards[archived.item.id] = Card(item: archived.item, place: .archive, archived: archived)
        }
        return cards
    }

    static func list(_ kanban: Kanban, _ place: Place) -> [ItemID] {
        switch place {
        case .archive: kanban.archive.map(\.item.id)
        case .board(let id): kanban.boards.first { $0.id == id }?.items.map(\.id) ?? []
        }
    }

    /// The length of a longest common subsequence, by dynamic programming.
    static func lcs(_ x: some Collection<ItemID>, _ y: some Collection<ItemID>) -> Int {
        let x = Array(x)
        let y = Array(y)
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        var table = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 1...x.count {
            for j in 1...y.count {
                table[i][j] = x[i - 1] == y[j - 1] ? table[i - 1][j - 1] + 1 : max(table[i - 1][j], table[i][j - 1])
            }
        }
        return table[x.count][y.count]
    }

    /// Whether `id` moved within an order: it is outside every longest common subsequence
    /// (`yes`), inside every one (`no`), or inside some only (`maybe`).
    static func moved(_ id: ItemID, in before: [ItemID], _ after: [ItemID]) -> Moved {
        let x = before.filter(after.contains)
        let y = after.filter(before.contains)
        guard let i = x.firstIndex(of: id), let j = y.firstIndex(of: id) else { return .yes }
        let whole = lcs(x, y)
        if lcs(x.filter { $0 != id }, y.filter { $0 != id }) < whole { return .no }
        if lcs(x[..<i], y[..<j]) + 1 + lcs(x[(i + 1)...], y[(j + 1)...]) == whole { return .maybe }
        return .yes
    }

    /// Whether a card moved from the base to a side: to another list, or within its list.
    static func moved(_ id: ItemID, _ base: Kanban, _ side: Kanban) -> Moved {
        guard let b = cards(base)[id], let s = cards(side)[id] else { return .yes }
        guard b.place == s.place else { return .yes }
        return moved(id, in: list(base, b.place), list(side, s.place))
    }

    /// Whether a board moved in the order of the boards.
    static func boardMoved(_ id: BoardID, _ base: Kanban, _ side: Kanban) -> Moved {
        moved(id, in: base.boards.map(\.id), side.boards.map(\.id))
    }

    /// The value of one field after a merge, and whether both sides changed it differently.
    static func field<T: Equatable>(_ base: T?, _ ours: T, _ theirs: T) -> (T, Bool) {
        if ours == theirs { return (ours, false) }
        guard let base else { return (ours, true) }
        if base == ours { return (theirs, false) }
        if base == theirs { return (ours, false) }
        return (ours, true)
    }

    /// Rule 7, as the text says: a label added on either side is present; one removed on
    /// either side and not added on the other is absent. Lowercased.
    static func labels(_ base: Labels?, _ ours: Labels, _ theirs: Labels) -> Set<String> {
        let o = Set((base?.names ?? []).map { $0.lowercased() })
        let a = Set(ours.names.map { $0.lowercased() })
        let b = Set(theirs.names.map { $0.lowercased() })
        return a.union(b).filter { label in
            let added = (a.contains(label) && !o.contains(label)) || (b.contains(label) && !o.contains(label))
            let removed = (o.contains(label) && !a.contains(label)) || (o.contains(label) && !b.contains(label))
            return added || !removed
        }
    }

    static func isLater(_ x: Timestamp?, than y: Timestamp?) -> Bool {
        guard let x, let y else { return false }
        return x > y
    }

    /// Rule 9's one board of two added on both sides with the same title: theirs is given
    /// ours' id (which id is kept is the merge's choice; SPEC says only that they are one).
    static func joiningBoards(_ base: Kanban, _ ours: Kanban, _ theirs: Kanban) -> Kanban {
        var theirs = theirs
        let baseIDs = Set(base.boards.map(\.id))
        var taken = Set<BoardID>()
        for index in theirs.boards.indices {
            let board = theirs.boards[index]
            guard !baseIDs.contains(board.id), !ours.boards.contains(where: { $0.id == board.id }) else { continue }
            guard
                let match = ours.boards.first(where: { candidate in
                    !baseIDs.contains(candidate.id) && !theirs.boards.contains(where: { $0.id == candidate.id })
                        && candidate.title.lowercased() == board.title.lowercased() && !taken.contains(candidate.id)
                })
            else { continue }
            taken.insert(match.id)
            theirs.boards[index].id = match.id
            for archived in theirs.archive.indices where theirs.archive[archived].board == board.id {
                theirs.archive[archived].board = match.id
            }
        }
        return theirs
    }

    // MARK: - Checking a merge

    /// Everything about `result` (the merge of `ours` and `theirs` since `base`) that breaks
    /// a rule: rules 2, 4, 5, 6, 7, 8 and 9 card by card and board by board.
    static func violations(base: Kanban, ours: Kanban, theirs unjoined: Kanban, result: MergeResult) -> [String] {
        let theirs = joiningBoards(base, ours, unjoined)
        let o = cards(base)
        let a = cards(ours)
        let b = cards(theirs)
        let r = cards(result.kanban)
        var problems: [String] = []
        var expectedConflicts: Set<String> = []
        var outcomes: [ItemID: Set<Outcome>] = [:]

        // Cards: where each may be, and its fields.
        let ids = Set(o.keys).union(a.keys).union(b.keys)
        for id in ids {
            var possible = Set<Outcome>()
            let (oc, ac, bc) = (o[id], a[id], b[id])
            switch (oc, ac, bc) {
            case (let oc?, let ac?, let bc?):
                for ma in moved(id, base, ours).possibilities {
                    for mb in moved(id, base, theirs).possibilities {
                        switch (ma, mb) {
                        case (false, false): possible.insert(Outcome(place: oc.place, placer: .base))
                        case (true, false): possible.insert(Outcome(place: ac.place, placer: .ours))
                        case (false, true): possible.insert(Outcome(place: bc.place, placer: .theirs))
                        case (true, true):
                            possible.insert(
                                isLater(bc.time, than: ac.time)
                                    ? Outcome(place: bc.place, placer: .theirs)
                                    : Outcome(place: ac.place, placer: .ours))
                        }
                    }
                }
            case (let oc?, let side?, nil), (let oc?, nil, let side?):
                let placer: Placer = ac == nil ? .theirs : .ours
                for m in moved(id, base, ac == nil ? theirs : ours).possibilities {
                    let unchanged = !m && side.item == oc.item && side.archived == oc.archived
                    possible.insert(
                        unchanged
                            ? Outcome(place: nil, placer: nil) : Outcome(place: side.place, placer: m ? placer : .base))
                }
            case (nil, let ac?, let bc?):
                possible.insert(
                    isLater(bc.time, than: ac.time)
                        ? Outcome(place: bc.place, placer: .theirs) : Outcome(place: ac.place, placer: .ours))
            case (nil, let ac?, nil):
                possible.insert(Outcome(place: ac.place, placer: .ours))
            case (nil, nil, let bc?):
                possible.insert(Outcome(place: bc.place, placer: .theirs))
            case (_, nil, nil):
                possible.insert(Outcome(place: nil, placer: nil))
            }
            outcomes[id] = possible
            let actual = r[id]
            if !possible.contains(where: { $0.place == actual?.place }) {
                problems.append(
                    "card \(id) (\(ac?.item.title ?? bc?.item.title ?? "?")) is at \(actual.map { "\($0.place)" } ?? "nowhere"); "
                        + "the rules allow \(possible.map { $0.place.map { "\($0)" } ?? "nowhere" })")
            }
            guard let actual else { continue }
            // Fields.
            var expected: (title: String, note: String?, due: Day?, labels: Set<String>, assignees: Set<String>)
            if let ac, let bc {
                let base = oc?.item
                let title = field(base.map(\.title), ac.item.title, bc.item.title)
                let note = field(base.map(\.note), ac.item.note, bc.item.note)
                let due = field(base.map(\.due), ac.item.due, bc.item.due)
                // Assignees are sets as labels are (rule 7).
                expected = (
                    title.0, note.0, due.0, labels(base?.labels, ac.item.labels, bc.item.labels),
                    labels(base?.assignees, ac.item.assignees, bc.item.assignees)
                )
                if title.1 { expectedConflicts.insert("\(id) title") }
                if note.1 { expectedConflicts.insert("\(id) note") }
                if due.1 { expectedConflicts.insert("\(id) due") }
            } else if let side = ac ?? bc {
                expected = (
                    side.item.title, side.item.note, side.item.due, Set(side.item.labels.names.map { $0.lowercased() }),
                    Set(side.item.assignees.names.map { $0.lowercased() })
                )
            } else {
                problems.append("card \(id) is in the result but neither side has it")
                continue
            }
            let item = actual.item
            if item.title != expected.title {
                problems.append("card \(id): title \(item.title), expected \(expected.title)")
            }
            if item.note != expected.note {
                problems.append("card \(id): note \(item.note ?? "-"), expected \(expected.note ?? "-")")
            }
            if item.due != expected.due {
                problems.append(
                    "card \(id): due \(String(describing: item.due)), expected \(String(describing: expected.due))")
            }
            if Set(item.labels.names.map { $0.lowercased() }) != expected.labels {
                problems.append("card \(id): labels \(item.labels.names), expected \(expected.labels.sorted())")
            }
            if Set(item.assignees.names.map { $0.lowercased() }) != expected.assignees {
                problems.append(
                    "card \(id): assignees \(item.assignees.names), expected \(expected.assignees.sorted())")
            }
            // Recorded conflicts (README: Working together).
            let expectedConflicts: Conflicts
            if let ac, let bc {
                let fresh = [
                    ConflictField.title: ac.item.title != bc.item.title && oc.map { $0.item.title != ac.item.title && $0.item.title != bc.item.title } ?? true,
                    .note: ac.item.note != bc.item.note && oc.map { $0.item.note != ac.item.note && $0.item.note != bc.item.note } ?? true,
                    .due: ac.item.due != bc.item.due && oc.map { $0.item.due != ac.item.due && $0.item.due != bc.item.due } ?? true,
                ]
                expectedConflicts = records(
                    oc?.item.conflicts, ac.item.conflicts, bc.item.conflicts,
                    fresh: fresh.filter(\.value).keys.map { field in
                        RecordedConflict(field: field, base: oc?.item.conflictValue(field), theirs: bc.item.conflictValue(field))
                    })
            } else {
                expectedConflicts = (ac ?? bc)!.item.conflicts
            }
            if item.conflicts != expectedConflicts {
                problems.append("card \(id): conflicts \(item.conflicts.entries), expected \(expectedConflicts.entries)")
            }
        }

        // Boards.
        let boardIDs =
            base.boards.map(\.id) + ours.boards.map(\.id) + theirs.boards.map(\.id)
        var seen = Set<BoardID>()
        var expectedTitles: [BoardID: String] = [:]
        for id in boardIDs where seen.insert(id).inserted {
            let ob = base.boards.first { $0.id == id }
            let ab = ours.boards.first { $0.id == id }
            let bb = theirs.boards.first { $0.id == id }
            let actual = result.kanban.boards.first { $0.id == id }
            var present: Moved  // .yes: present, .no: absent, .maybe: either
            var title: String?
            var limit: Int??
            var role: BoardRole??
            switch (ob, ab, bb) {
            case (_, let ab?, let bb?):
                present = .yes
                let t = field(ob.map(\.title), ab.title, bb.title)
                let l = field(ob.map(\.limit), ab.limit, bb.limit)
                let r = field(ob.map(\.role), ab.role, bb.role)
                (title, limit, role) = (t.0, l.0, r.0)
                if t.1 { expectedConflicts.insert("\(id) board title") }
                if l.1 { expectedConflicts.insert("\(id) board limit") }
                if r.1 { expectedConflicts.insert("\(id) board role") }
                var fresh: [RecordedConflict] = []
                if t.1 { fresh.append(RecordedConflict(field: .title, base: ob?.conflictValue(.title), theirs: bb.conflictValue(.title))) }
                if l.1 { fresh.append(RecordedConflict(field: .limit, base: ob?.conflictValue(.limit), theirs: bb.conflictValue(.limit))) }
                if r.1 { fresh.append(RecordedConflict(field: .role, base: ob?.conflictValue(.role), theirs: bb.conflictValue(.role))) }
                let records = records(ob?.conflicts, ab.conflicts, bb.conflicts, fresh: fresh)
                if let actual, actual.conflicts != records {
                    problems.append("board \(id): conflicts \(actual.conflicts.entries), expected \(records.entries)")
                }
            case (let ob?, let side?, nil), (let ob?, nil, let side?):
                let sideKanban = ab == nil ? theirs : ours
                let moves = boardMoved(id, base, sideKanban)
                let edited =
                    side.title != ob.title || side.limit != ob.limit || side.role != ob.role || side.conflicts != ob.conflicts
                let lands = outcomes.values.filter { $0.contains { $0.place == .board(id) } }
                let surely = edited || moves == .yes || lands.contains { $0.allSatisfy { $0.place == .board(id) } }
                present = surely ? .yes : (moves == .maybe || !lands.isEmpty ? .maybe : .no)
                (title, limit, role) = (side.title, .some(side.limit), .some(side.role))
            case (nil, let side?, nil), (nil, nil, let side?):
                present = .yes
                (title, limit, role) = (side.title, .some(side.limit), .some(side.role))
            case (_, nil, nil):
                present = .no
            }
            switch (present, actual) {
            case (.yes, nil): problems.append("board \(id) (\(title ?? "?")) is missing")
            case (.no, _?): problems.append("board \(id) (\(actual!.title)) should be gone")
            default: break
            }
            if let actual, let title, let limit {
                expectedTitles[id] = title
                if actual.limit != limit {
                    problems.append(
                        "board \(title): limit \(String(describing: actual.limit)), expected \(String(describing: limit))"
                    )
                }
                if let role, actual.role != role {
                    problems.append("board \(title): role \(String(describing: actual.role)), expected \(String(describing: role))")
                }
            }
        }
        // Titles: as expected, unless two boards of the result were to share one (ignoring
        // case); then one of them has it with a number.
        for board in result.kanban.boards {
            guard let title = expectedTitles[board.id] else { continue }
            let shared = result.kanban.boards.contains {
                $0.id != board.id && expectedTitles[$0.id]?.lowercased() == title.lowercased()
            }
            if board.title != title && !(shared && board.title.hasPrefix(title + " (")) {
                problems.append("board \(board.id): title \(board.title), expected \(title)")
            }
        }
        // Rule 8: exactly the expected conflicts.
        var actualConflicts: Set<String> = []
        for conflict in result.conflicts {
            let id: ItemID
            switch conflict.subject {
            case .card(let card, _, _): id = card
            case .board(let board, _): id = board
            }
            switch (conflict.subject, conflict.values) {
            case (.card, .field(let field, _, _)): actualConflicts.insert("\(id) \(field)")
            case (.board, .field(let field, _, _)): actualConflicts.insert("\(id) board \(field)")
            case (_, .boardTitleTaken): break
            }
        }
        if actualConflicts != expectedConflicts {
            problems.append("conflicts \(actualConflicts.sorted()), expected \(expectedConflicts.sorted())")
        }
        problems += orderViolations(base, ours, theirs, result.kanban, outcomes)
        return problems
    }

    /// The recorded conflicts of a card or board both sides have, by the rule README's
    /// "Working together" states: per field, a record only one side changed (added, altered,
    /// settled) is that side's; one both changed alike is that; one both changed otherwise
    /// is ours' if ours has one, else theirs'; a conflict the merge itself found replaces it.
    static func records(_ base: Conflicts?, _ ours: Conflicts, _ theirs: Conflicts, fresh: [RecordedConflict]) -> Conflicts {
        var result = Conflicts()
        for field in [ConflictField.due, .limit, .note, .role, .title] {
            let o = base?[field]
            let a = ours[field]
            let b = theirs[field]
            var kept: RecordedConflict?
            if a == b {
                kept = a
            } else if base != nil && o == a {
                kept = b
            } else if base != nil && o == b {
                kept = a
            } else if a != nil {
                kept = a
            } else {
                kept = b
            }
            for entry in fresh where entry.field == field { kept = entry }
            result[field] = kept
        }
        return result
    }

    // MARK: - Rule 5: places

    /// Checks each list of the result against rule 5: cards that stayed keep the base's
    /// order; a card a side placed lands after the card that precedes it on that side (at
    /// the top if none), which for a card that stayed there means at its base place even
    /// if the other side moved it away; cards landing at one spot from both sides: ours
    /// first, each side's in its own order. Cards whose fate is open are not checked.
    static func orderViolations(
        _ base: Kanban, _ ours: Kanban, _ theirs: Kanban, _ result: Kanban, _ outcomes: [ItemID: Set<Outcome>]
    ) -> [String] {
        var problems: [String] = []
        let places = result.boards.map { Place.board($0.id) } + [.archive]
        for place in places {
            let merged = list(result, place)
            let baseList = list(base, place)
            func placer(_ id: ItemID) -> Placer? {
                guard let possible = outcomes[id], possible.count == 1 else { return nil }
                return possible.first!.placer
            }
            // Stayed cards keep the base's order.
            let stayed = merged.filter { placer($0) == .base }
            let positions = stayed.compactMap { baseList.firstIndex(of: $0) }
            if positions != positions.sorted() || positions.count != stayed.count {
                problems.append("\(place): cards that stayed are out of the base's order")
            }
            // Each placed card's spot: the base index it lands after (-1: the top), found by
            // walking back its side's list to the card it follows: one the side placed too
            // (then the same spot), or one that stayed there on that side (then right after
            // that card's base place). Cards the other side took away are passed over.
            var spots: [ItemID: Int] = [:]
            func spot(_ id: ItemID, side: Placer) -> Int? {
                if let known = spots[id] { return known }
                let kanban = side == .ours ? ours : theirs
                let order = list(kanban, place)
                guard var index = order.firstIndex(of: id) else { return nil }
                var found = -1
                walk: while index > 0 {
                    index -= 1
                    let before = order[index]
                    if placer(before) == side {
                        guard let anchor = spot(before, side: side) else { return nil }
                        found = anchor
                        break walk
                    }
                    switch moved(before, base, kanban) {
                    case .no:
                        found = baseList.firstIndex(of: before)!
                        break walk
                    case .maybe:
                        return nil
                    case .yes:
                        guard outcomes[before]?.count == 1 else { return nil }
                    }
                }
                spots[id] = found
                return found
            }
            var slots: [Int: [(ItemID, Placer)]] = [:]
            for (index, id) in merged.enumerated() {
                guard let side = placer(id), side != .base else { continue }
                guard let anchor = spot(id, side: side) else { continue }
                for (other, stayedID) in stayed.enumerated() {
                    let position = positions.count == stayed.count ? positions[other] : 0
                    let otherIndex = merged.firstIndex(of: stayedID)!
                    if position <= anchor && otherIndex > index || position > anchor && otherIndex < index {
                        problems.append("\(place): \(id) should land after base index \(anchor)")
                        break
                    }
                }
                slots[anchor, default: []].append((id, side))
            }
            for (_, slot) in slots {
                let sides = slot.map(\.1)
                if let firstTheirs = sides.firstIndex(of: .theirs), sides[firstTheirs...].contains(.ours) {
                    problems.append("\(place): at one spot, a card of theirs comes before one of ours")
                }
                for side in [Placer.ours, .theirs] {
                    let order = list(side == .ours ? ours : theirs, place)
                    let indices = slot.filter { $0.1 == side }.compactMap { order.firstIndex(of: $0.0) }
                    if indices != indices.sorted() {
                        problems.append("\(place): a side's cards at one spot are out of its order")
                    }
                }
            }
        }
        return problems
    }

    // MARK: - Swapping the sides

    /// Rule 1's symmetry: `merge(O, A, B)` and `merge(O, B, A)` have the same cards and
    /// boards; they differ only where a tie goes to ours (conflicting fields, the order of
    /// cards landing at one spot, a card moved on both sides at the same time).
    static func swapViolations(_ forward: MergeResult, _ backward: MergeResult) -> [String] {
        var problems: [String] = []
        // Boards joined by rule 9 have ours' id in each: map both to one.
        var alias: [BoardID: BoardID] = [:]
        for note in forward.notes + backward.notes {
            if case .joinedBoards(_, let id, let other) = note { alias[max(id, other)] = min(id, other) }
        }
        let canonical = { (id: BoardID) in alias[id] ?? id }
        let f = cards(forward.kanban)
        let g = cards(backward.kanban)
        if Set(f.keys) != Set(g.keys) { problems.append("the two merges have different cards") }
        var conflicted: Set<String> = []
        for conflict in forward.conflicts + backward.conflicts {
            switch (conflict.subject, conflict.values) {
            case (.card(let id, _, _), .field(let field, _, _)): conflicted.insert("\(id) \(field)")
            case (.board(let id, _), .field(.limit, _, _)): conflicted.insert("\(canonical(id)) limit")
            case (.board(let id, _), .field(.role, _, _)): conflicted.insert("\(canonical(id)) role")
            case (.board(let id, _), _): conflicted.insert("\(canonical(id)) title")
            default: break
            }
        }
        let ties = Set(
            (forward.notes + backward.notes).compactMap { note -> ItemID? in
                if case .movedOnBothSides(let id, _, _, _, _) = note { return id }
                return nil
            })
        for (id, x) in f {
            guard let y = g[id] else { continue }
            let xPlace = x.place == .archive ? "archive" : "\(canonical(boardID(x.place)))"
            let yPlace = y.place == .archive ? "archive" : "\(canonical(boardID(y.place)))"
            if xPlace != yPlace && !ties.contains(id) { problems.append("card \(id) is in different lists") }
            if x.item.title != y.item.title && !conflicted.contains("\(id) title") {
                problems.append("card \(id) has different titles")
            }
            if x.item.note != y.item.note && !conflicted.contains("\(id) note") {
                problems.append("card \(id): notes differ")
            }
            if x.item.due != y.item.due && !conflicted.contains("\(id) due") {
                problems.append("card \(id): due dates differ")
            }
            if Set(x.item.labels.names.map { $0.lowercased() }) != Set(y.item.labels.names.map { $0.lowercased() }) {
                problems.append("card \(id): labels differ")
            }
        }
        let fBoards = Dictionary(forward.kanban.boards.map { (canonical($0.id), $0) }, uniquingKeysWith: { x, _ in x })
        let gBoards = Dictionary(backward.kanban.boards.map { (canonical($0.id), $0) }, uniquingKeysWith: { x, _ in x })
        if Set(fBoards.keys) != Set(gBoards.keys) { problems.append("the two merges have different boards") }
        let retitled = (forward.conflicts + backward.conflicts).contains {
            if case .boardTitleTaken = $0.values { true } else { false }
        }
        for (id, x) in fBoards {
            guard let y = gBoards[id] else { continue }
            if x.title != y.title && !conflicted.contains("\(id) title") && !retitled {
                problems.append("board \(id): titles \(x.title) and \(y.title)")
            }
            if x.limit != y.limit && !conflicted.contains("\(id) limit") {
                problems.append("board \(id): limits differ")
            }
            if x.role != y.role && !conflicted.contains("\(id) role") {
                problems.append("board \(id): roles differ")
            }
        }
        return problems
    }

    private static func boardID(_ place: Place) -> BoardID {
        if case .board(let id) = place { return id }
        return BoardID("archive")!
    }
}
