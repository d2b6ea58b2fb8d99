// The 3-way merge of SPEC §8: what two branches did to one kanban, combined card by card.
//
// Cards and boards are matched by id in the three versions. Each card's content is merged
// field by field; its place is decided once: where the base had it if neither side moved
// it, else where the side that moved it put it, and when both did, where the later move
// put it (its `entered`, or its `archived` for the archive; equal or unknown: ours). That
// is how Kleppmann's move operation for list CRDTs ("Moving elements in list CRDTs",
// PaPoC 2020) settles concurrent moves: one place wins whole, so a card is never
// duplicated or lost.
//
// Places are relative: a card moved or added on one side goes right after the card that
// precedes it on that side. Each list of the result is woven from the base order (cards
// that stayed, and the places of those that left, which still anchor others), with after
// every anchor first ours' run of placed cards, then theirs'. Which cards a side moved is
// decided by a longest common subsequence of the base order and the side's order, as for
// a diff, so a card that only shifted because others moved is not moved.
//
// The boards themselves are merged the same way, and a board one side removed is kept if
// the other changed it or gave it cards. Last come the repairs that keep the result a
// valid kanban: board titles that clash get a suffix (a conflict), an id that ended up on
// two things gets a new one for the thing that is not ours (a note).

extension Kanban {
    /// Merges what `ours` and `theirs` each changed since `base` (SPEC §8).
    ///
    /// - `merge(base: o, ours: a, theirs: o)` is `a`, `merge(base: o, ours: o, theirs: b)` is
    ///   `b` and `merge(base: o, ours: a, theirs: a)` is `a`, down to the bytes of the file.
    /// - A change made on one side is taken; changes to different cards and boards combine; a
    ///   card moved on one side and edited on the other is moved and edited.
    /// - Nothing is lost: every card either side has is in the result exactly once, except a
    ///   card one side removed while the other left it unchanged. A card removed on one side
    ///   and changed on the other is kept, changed; archived on one side and edited on the
    ///   other, it stays archived with the edit.
    /// - Labels merge as sets; a title, note or due date, or a board's title or limit,
    ///   changed on both sides to different values is a conflict that keeps ours.
    ///
    /// The result is valid whatever the inputs: clashing board titles and ids are repaired
    /// (see ``MergeConflict/Values/boardTitleTaken(wanted:given:)`` and
    /// ``MergeNote/newID(title:was:now:isBoard:)``), and WIP limits may be exceeded
    /// (noted). The same inputs always give the same result.
    ///
    /// - Parameter formats: the formats the three were read in; the boards of a base read
    ///   from an older format, whose ids were derived from its bytes, are matched by title
    ///   (ignoring case) where their ids do not match.
    /// - Complexity: O(*n* log *n*) in the number of cards of the three versions.
    public static func merge(
        base: Kanban, ours: Kanban, theirs: Kanban, formats: MergeFormats = MergeFormats()
    ) -> MergeResult {
        var paths = MergePaths()
        return merge(base: base, ours: ours, theirs: theirs, formats: formats, fastPaths: true, paths: &paths)
    }

    /// ``merge(base:ours:theirs:formats:)``, with its shortcuts for unchanged cards and cards
    /// changed on one side taken or not (`fastPaths`: the result is the same), counting in
    /// `paths` how it decided cards.
    static func merge(
        base: Kanban, ours: Kanban, theirs: Kanban, formats: MergeFormats, fastPaths: Bool, paths: inout MergePaths
    ) -> MergeResult {
        var merge = ThreeWayMerge(base: base, ours: ours, theirs: theirs)
        merge.fastPaths = fastPaths
        if formats.base != .current { merge.matchBaseBoardsByTitle(formats) }
        let result = merge.run()
        paths = merge.paths
        return result
    }
}

/// Whose place a card or board takes in the result.
private enum Placer {
    /// Neither side moved it: it stays where the base has it.
    case base
    case ours
    case theirs
}

/// When and from where a card went to the archive.
private struct ArchiveStamp: Equatable {
    var board: BoardID
    var archived: Timestamp
}

/// One version's view of a card.
private struct Sighting {
    var item: Item
    /// The id of its list (a board's id, or ``CardLists/archiveID``).
    var list: BoardID
    /// Its board's title; nil in the archive.
    var listTitle: String?
    var stamp: ArchiveStamp?
    /// Whether it is where the base has it (false for the base itself, and for new cards).
    var stayed: Bool
    /// The card before it in its list, which is what its place is relative to.
    var predecessor: ItemID?

    /// When it arrived where it is.
    var time: Timestamp? { stamp?.archived ?? item.entered }
}

/// What the merge does with one card.
private struct CardDecision {
    var placer: Placer
    var card: DecidedCard
    var list: BoardID
    var stamp: ArchiveStamp?

    /// The card, given ours and the cards the merge made.
    func item(_ ours: CardLists, _ made: [Item]) -> Item {
        switch card {
        case .ours(let place): ours.item(at: place)
        case .made(let index): made[index]
        }
    }
}

/// A decided card: most cards of a merge are ours as they are, and are only copied once,
/// into the result, not into every step of deciding and weaving. A decision holds no card
/// (nor anything counted), so it is copied and dropped as plain bytes.
private enum DecidedCard {
    /// Ours, at this place.
    case ours(ListPlace)
    /// A card the merge made, or took from the base or theirs, at this index of
    /// ``ThreeWayMerge/madeCards``.
    case made(Int)
}

/// The cards both sides left where the base has them and hold alike (most cards of a
/// merge), marked where the base has them rather than each given a ``CardDecision``: each
/// is ours as it is, where the base has it (see ``decision(_:_:)``). A side's card that
/// stayed at a marked place of the base is the marked card: marks stand for decisions by
/// id only while no version repeats a card id.
private struct UnchangedCards {
    /// Where each of the base's lists starts in the arrays below (see ``CardLists/starts()``).
    private let baseStarts: [Int]
    /// By the base's card: ours' place of the card marked there, or list -1.
    private var oursAtBase: [ListPlace]
    /// By the base's card: theirs' place of the card if it stayed there, or list -1.
    private let theirsAtBase: [ListPlace]
    private(set) var count = 0

    /// None marked yet; `anchorsB`: where theirs' cards stayed (``CardLists/anchors(since:)``).
    init(_ o: CardLists, _ b: CardLists, anchorsB: [[Int]]) {
        baseStarts = o.starts()
        oursAtBase = [ListPlace](repeating: ListPlace(list: -1, index: 0), count: baseStarts[baseStarts.count - 1])
        var theirsAtBase = oursAtBase
        for list in 0...b.archive {
            guard let baseList = o.list(withID: b.listID(list)) else { continue }
            for (index, anchor) in anchorsB[list].enumerated() where anchor >= 0 {
                theirsAtBase[baseStarts[baseList] + anchor] = ListPlace(list: list, index: index)
            }
        }
        self.theirsAtBase = theirsAtBase
    }

    /// Whether the card at index `anchor` of the base's `list` is marked; `list` nil (a list
    /// the base has not) or `anchor` -1 (a card that did not stay) is no mark.
    func isMarked(_ list: Int?, _ anchor: Int) -> Bool {
        guard let list, anchor >= 0 else { return false }
        return oursAtBase[baseStarts[list] + anchor].list >= 0
    }

    /// Ours' place of the card marked at the base's `place`.
    func ours(atBase place: ListPlace) -> ListPlace? {
        let ours = oursAtBase[baseStarts[place.list] + place.index]
        return ours.list >= 0 ? ours : nil
    }

    /// Theirs' place of the card that stayed at the base's `place` (with unique ids, the
    /// base's card).
    func theirs(atBase place: ListPlace) -> ListPlace? {
        let theirs = theirsAtBase[baseStarts[place.list] + place.index]
        return theirs.list >= 0 ? theirs : nil
    }

    /// Marks ours' card at `place`, which stayed at the base's `origin`.
    mutating func mark(ours place: ListPlace, base origin: ListPlace) {
        oursAtBase[baseStarts[origin.list] + origin.index] = place
        count += 1
    }

    /// The decision for the card marked at ours' `place`.
    func decision(_ place: ListPlace, _ a: CardLists) -> CardDecision {
        CardDecision(
            placer: .base, card: .ours(place), list: a.listID(place.list),
            stamp: place.list == a.archive ? a.archived(at: place).stamp : nil)
    }
}

/// How many cards a merge decided each way: for tests that check its shortcuts give what
/// the general way gives.
struct MergePaths: Equatable {
    /// Cards both sides left where the base has them and hold alike, marked (``UnchangedCards``).
    var unchanged = 0
    /// Cards one side left as the base has them, taken whole from the other side.
    var oneSided = 0
    /// Cards changed on both sides (or new on both), merged field by field.
    var combined = 0
}

/// What the merge does with one board (its cards come later).
private struct BoardDecision {
    var placer: Placer
    var board: Board
}

/// One step of a side's list, as a weave reads it.
private enum WeaveStep<Element> {
    /// An element this side places, after the last anchor.
    case place(Element)
    /// An element that stayed where the base has it, at this base index: the next anchor.
    case anchor(Int)
    /// An element placed by the other side, or gone: skipped.
    case skip
}

/// Interleaves a base order with the runs each side placed after its anchors: for every
/// anchor (the top, then each base element), ours' run, then theirs'.
///
/// - Parameters:
///   - kept: the base element at an index, if it stays there.
///   - ours, theirs: the steps of each side's list, in its order.
/// - Complexity: O(*b* + *o* + *t*).
@inline(__always)  // Specialized where it is called: generic, each element would be copied by its type's witness.
private func weave<Element>(
    baseCount: Int, kept: (Int) -> Element?, oursCount: Int, ours: (Int) -> WeaveStep<Element>, theirsCount: Int,
    theirs: (Int) -> WeaveStep<Element>
) -> [Element] {
    // A side's placed elements with the anchor each follows (0: the top, i + 1: base element
    // i), in the side's order: one array, not one per anchor, most of which would be empty.
    func runs(_ count: Int, _ step: (Int) -> WeaveStep<Element>) -> [(anchor: Int, element: Element)] {
        var placed: [(anchor: Int, element: Element)] = []
        var anchor = 0
        var ordered = true
        for index in 0..<count {
            switch step(index) {
            case .place(let element):
                if let last = placed.last, last.anchor > anchor { ordered = false }
                placed.append((anchor, element))
            case .anchor(let position): anchor = position + 1
            case .skip: break
            }
        }
        // Anchors that stayed come in the base's order, so this is only for safety: the
        // runs by anchor, each in the side's order.
        if !ordered {
            placed = placed.enumerated().sorted { ($0.element.anchor, $0.offset) < ($1.element.anchor, $1.offset) }
                .map(\.element)
        }
        return placed
    }
    let oursRuns = runs(oursCount, ours)
    let theirsRuns = runs(theirsCount, theirs)
    var result: [Element] = []
    result.reserveCapacity(baseCount + oursCount + theirsCount)
    var (nextOurs, nextTheirs) = (0, 0)
    func appendRuns(after anchor: Int) {
        while nextOurs < oursRuns.count && oursRuns[nextOurs].anchor == anchor {
            result.append(oursRuns[nextOurs].element)
            nextOurs += 1
        }
        while nextTheirs < theirsRuns.count && theirsRuns[nextTheirs].anchor == anchor {
            result.append(theirsRuns[nextTheirs].element)
            nextTheirs += 1
        }
    }
    appendRuns(after: 0)
    for index in 0..<baseCount {
        if let element = kept(index) { result.append(element) }
        appendRuns(after: index + 1)
    }
    return result
}

/// The merged value of one field: a change on one side wins; the same change on both is
/// one change; different changes on both keep ours and are a conflict. A `base` of nil
/// means the thing did not exist in the base, so any difference is a conflict.
func pick<Value: Equatable>(_ base: Value?, _ ours: Value, _ theirs: Value) -> (value: Value, conflict: Bool) {
    if ours == theirs { return (ours, false) }
    if let base {
        if base == ours { return (theirs, false) }
        if base == theirs { return (ours, false) }
    }
    return (ours, true)
}

/// Recorded conflicts merged as data (README: Working together): per field, a record one
/// side added, changed or removed (settled) is taken; when both sides did so differently,
/// a record is kept (ours', else theirs'). A conflict the merge itself found (`fresh`)
/// replaces any record of its field. `base` nil: the thing was not in the base.
private func mergeConflicts(
    _ base: Conflicts?, _ ours: Conflicts, _ theirs: Conflicts, fresh: [RecordedConflict]
) -> Conflicts {
    var merged = ours
    if ours != theirs {
        for field in ConflictField.allCases {
            let (a, b) = (ours[field], theirs[field])
            if a == b { continue }
            if let base, base[field] == a {
                merged[field] = b
            } else if let base, base[field] == b {
                merged[field] = a
            } else {
                merged[field] = a ?? b
            }
        }
    }
    for entry in fresh { merged[entry.field] = entry }
    return merged
}

/// Labels merged as sets (ignoring case): a label added on either side is in, one removed
/// on either side and not added on the other is out; ours' spelling first.
func mergeSets(_ base: Labels?, _ ours: Labels, _ theirs: Labels) -> Labels {
    if ours == theirs { return ours }
    if let base, base == ours { return theirs }
    if let base, base == theirs { return ours }
    let wasThere = { (label: String) in base?.contains(label) ?? false }
    var merged = Labels()
    for label in ours where theirs.contains(label) || !wasThere(label) { merged.insert(label) }
    for label in theirs where !ours.contains(label) && !wasThere(label) { merged.insert(label) }
    return merged
}

/// Merges each field of `fields` into `merged` by its policy (``FieldDescriptor/Merge``):
/// the conflicts found, as reported and as recorded, in the order of the fields' names,
/// last first (title, note, due; title, limit). `base` nil: the thing was not in the base.
private func combineFields<Owner>(
    _ fields: [FieldDescriptor<Owner>], _ base: Owner?, _ ours: Owner, _ theirs: Owner, into merged: inout Owner
) -> (values: [MergeConflict.Values], records: [RecordedConflict]) {
    var found: [(field: ConflictField, descriptor: FieldDescriptor<Owner>)] = []
    // By index: a descriptor copied out of the array would retain each of its closures.
    for index in fields.indices where fields[index].combine(base, ours, theirs, &merged) {
        found.append((ConflictField(fields[index]), fields[index]))
    }
    guard !found.isEmpty else { return ([], []) }
    found.sort { $0.field > $1.field }
    return (
        found.map { .field($0.field, ours: $0.descriptor.value(ours), theirs: $0.descriptor.value(theirs)) },
        found.map { field, descriptor in
            RecordedConflict(field: field, base: base.map(descriptor.value), theirs: descriptor.value(theirs))
        }
    )
}

/// Whether `time` is strictly later than `other`; an unknown time is never later, and
/// nothing is later than an unknown time.
private func isLater(_ time: Timestamp?, than other: Timestamp?) -> Bool {
    guard let time, let other else { return false }
    return time > other
}

private struct ThreeWayMerge {
    var base: Kanban
    var ours: Kanban
    var theirs: Kanban
    var notes: [MergeNote] = []
    var conflicts: [MergeConflict] = []
    /// The cards decisions hold that are not ours as they are (see ``DecidedCard/made(_:)``).
    var madeCards: [Item] = []
    /// Whether cards unchanged, or changed on one side only, take their shortcuts.
    var fastPaths = true
    var paths = MergePaths()

    init(base: Kanban, ours: Kanban, theirs: Kanban) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }

    mutating func run() -> MergeResult {
        let o = CardLists(base)
        let a = CardLists(ours)
        var b = CardLists(theirs)
        if separateClashingIDs(o, a, b) { b = CardLists(theirs) }
        if joinBoardsAddedOnBothSides(o, a, b) { b = CardLists(theirs) }

        let anchorsA = a.anchors(since: o)
        let anchorsB = b.anchors(since: o)
        // Boards only one side removed: kept if a card ends on them.
        let removedOnOneSide = Set(
            base.boards.map(\.id).filter { (a.boardIndex[$0] == nil) != (b.boardIndex[$0] == nil) })
        var receiving: Set<BoardID> = []
        // Marks stand for decisions by place, which is the same as by id only while ids are unique.
        var unchanged = UnchangedCards(o, b, anchorsB: anchorsB)
        let marking = fastPaths && !o.hasRepeats && !a.hasRepeats && !b.hasRepeats
        let decisions = decideCards(
            o, a, b, anchorsA, anchorsB, removedOnOneSide, &receiving, &unchanged, marking: marking)
        let boardDecisions = decideBoards(o, a, b, receiving: receiving)

        var emitted = 0
        var boards: [Board] = boardDecisions.map { decision in
            var board = decision.board
            board.items = weaveCards(of: board.id, o, a, b, anchorsA, anchorsB, decisions, unchanged).map {
                $0.item(a, madeCards)
            }
            emitted += board.items.count
            return board
        }
        var archive = weaveCards(of: CardLists.archiveID, o, a, b, anchorsA, anchorsB, decisions, unchanged).map {
            decision in
            let stamp = decision.stamp ?? ArchiveStamp(board: CardLists.archiveID, archived: Timestamp(seconds: 0))
            return ArchivedItem(item: decision.item(a, madeCards), board: stamp.board, archived: stamp.archived)
        }
        emitted += archive.count
        if emitted != decisions.count + unchanged.count {
            // Every decided card has exactly one place by construction; should that ever
            // fail, the missing cards go to the archive rather than be lost.
            archive += missingCards(decisions, unchanged, boards, archive, o, a, b, anchorsA)
        }
        retitleClashingBoards(&boards, a)
        repairClashingIDs(&boards, &archive, a, b)
        noteLimits(boards, a)
        return MergeResult(kanban: Kanban(trusted: boards, archive: archive), notes: notes, conflicts: conflicts)
    }

    // MARK: - Cards

    /// Decides every card but those it marks in `unchanged` (only when `marking`), which
    /// have the decision ``UnchangedCards/decision(_:_:)`` gives.
    private mutating func decideCards(
        _ o: CardLists, _ a: CardLists, _ b: CardLists, _ anchorsA: [[Int]], _ anchorsB: [[Int]],
        _ removedOnOneSide: Set<BoardID>, _ receiving: inout Set<BoardID>, _ unchanged: inout UnchangedCards,
        marking: Bool
    ) -> ItemIDMap<CardDecision> {
        // Most cards are marked, not decided here: the map grows for the rest.
        var decisions = ItemIDMap<CardDecision>(expected: marking ? 0 : max(a.places.count, b.places.count))
        func record(_ id: ItemID, _ decision: CardDecision?) {
            guard let decision else { return }
            if removedOnOneSide.contains(decision.list) { receiving.insert(decision.list) }
            decisions[id] = decision
        }
        for list in 0...a.archive {
            let baseList = o.list(withID: a.listID(list))
            let anchors = anchorsA[list]
            // The boards' cards, taken once per list, not once per card (none for the archive).
            let oursItems = a.boardItems(list) ?? []
            var theirsList = -1
            var theirsItems: [Item] = []
            for index in anchors.indices {
                let place = ListPlace(list: list, index: index)
                if marking, let baseList, anchors[index] >= 0,
                    let theirs = unchanged.theirs(atBase: ListPlace(list: baseList, index: anchors[index]))
                {
                    let origin = ListPlace(list: baseList, index: anchors[index])
                    if theirs.list != theirsList { (theirsList, theirsItems) = (theirs.list, b.boardItems(theirs.list) ?? []) }
                    let same =
                        list != a.archive && theirs.list != b.archive
                        ? isSameCard(oursItems, index, theirsItems, theirs.index) : sameOnBothSides(place, theirs, a, b)
                    if same {
                        // Its board is on both sides (or it is archived on both): none that
                        // one side removed receives it.
                        unchanged.mark(ours: place, base: origin)
                        paths.unchanged += 1
                        continue
                    }
                }
                let id = a.id(list, index)
                // A repeated id: its first place counts.
                if a.hasRepeats && a.places[id] != place { continue }
                record(
                    id,
                    decide(
                        base: o.places[id].map { sighting(o, $0, nil) }, ours: sighting(a, place, anchorsA),
                        theirs: b.places[id].map { sighting(b, $0, anchorsB) }))
            }
        }
        for list in 0...b.archive {
            let baseList = o.list(withID: b.listID(list))
            let anchors = anchorsB[list]
            for index in anchors.indices where !unchanged.isMarked(baseList, anchors[index]) {
                let id = b.id(list, index)
                let place = ListPlace(list: list, index: index)
                guard a.places[id] == nil, b.places[id] == place else { continue }
                record(
                    id,
                    decide(
                        base: o.places[id].map { sighting(o, $0, nil) }, ours: nil,
                        theirs: sighting(b, place, anchorsB)))
            }
        }
        return decisions
    }

    /// Whether a card that both sides left where the base has it, at ours' `place` and
    /// theirs' `other`, is held alike (most cards of a merge): then ``combine(_:_:_:)`` would
    /// keep it as ours has it, where the base has it, as every field's pick is ours. On
    /// boards, ``isSameCard(_:_:_:_:)`` tells the same without copies.
    private func sameOnBothSides(_ place: ListPlace, _ other: ListPlace, _ a: CardLists, _ b: CardLists) -> Bool {
        guard a.item(at: place) == b.item(at: other) else { return false }
        let stamp = place.list == a.archive ? a.archived(at: place).stamp : nil
        return stamp == (other.list == b.archive ? b.archived(at: other).stamp : nil)
    }

    /// Whether `items[index]` and `others[otherIndex]` are the same card, compared where they
    /// are: copies of the cards would cost more than the comparison.
    private func isSameCard(_ items: [Item], _ index: Int, _ others: [Item], _ otherIndex: Int) -> Bool {
        items.withUnsafeBufferPointer { items in
            others.withUnsafeBufferPointer { others in items[index] == others[otherIndex] }
        }
    }

    private func sighting(_ lists: CardLists, _ place: ListPlace, _ anchors: [[Int]]?) -> Sighting {
        let isArchived = place.list == lists.archive
        let stamp = isArchived ? lists.archived(at: place).stamp : nil
        return Sighting(
            item: lists.item(at: place), list: lists.listID(place.list), listTitle: lists.title(place.list),
            stamp: stamp, stayed: (anchors?[place.list][place.index] ?? -1) >= 0,
            predecessor: place.index > 0 ? lists.id(place.list, place.index - 1) : nil)
    }

    /// The decision for `item`, a card the merge made or took from a side (kept in ``madeCards``).
    private mutating func decision(placer: Placer, item: Item, list: BoardID, stamp: ArchiveStamp?) -> CardDecision {
        madeCards.append(item)
        return CardDecision(placer: placer, card: .made(madeCards.count - 1), list: list, stamp: stamp)
    }

    private mutating func decide(base: Sighting?, ours: Sighting?, theirs: Sighting?) -> CardDecision? {
        switch (base, ours, theirs) {
        case (nil, let ours?, nil):
            return decision(placer: .ours, item: ours.item, list: ours.list, stamp: ours.stamp)
        case (nil, nil, let theirs?):
            return decision(placer: .theirs, item: theirs.item, list: theirs.list, stamp: theirs.stamp)
        case (_, let ours?, let theirs?):
            return combine(base, ours, theirs)
        case (let base?, let ours?, nil):
            return keep(ours, from: base, placer: .ours, removedBy: .theirs)
        case (let base?, nil, let theirs?):
            return keep(theirs, from: base, placer: .theirs, removedBy: .ours)
        case (_, nil, nil):
            return nil
        }
    }

    /// A card one side removed: gone if the other side left it as it was, else kept as
    /// the other side has it.
    private mutating func keep(
        _ side: Sighting, from base: Sighting, placer: Placer, removedBy: MergeSide
    ) -> CardDecision? {
        if side.stayed && side.item == base.item && side.stamp == base.stamp { return nil }
        notes.append(.keptChangedCard(id: side.item.id, title: side.item.title, removedBy: removedBy))
        return decision(placer: side.stayed ? .base : placer, item: side.item, list: side.list, stamp: side.stamp)
    }

    /// A card both sides have: its fields merged, its place decided once.
    private mutating func combine(_ base: Sighting?, _ ours: Sighting, _ theirs: Sighting) -> CardDecision {
        let placer: Placer
        switch (ours.stayed, theirs.stayed) {
        case (true, true): placer = .base
        case (false, true): placer = .ours
        case (true, false): placer = .theirs
        case (false, false):
            placer = isLater(theirs.time, than: ours.time) ? .theirs : .ours
            if ours.list != theirs.list || ours.predecessor != theirs.predecessor {
                notes.append(
                    .movedOnBothSides(
                        id: ours.item.id, title: ours.item.title, kept: placer == .theirs ? .theirs : .ours,
                        ours: ours.listTitle, theirs: theirs.listTitle))
            }
        }
        var (a, b) = (ours.item, theirs.item)
        // The same card on both sides (most cards, found so by their lines' bytes) has nothing
        // to merge: each field's pick, the recorded conflicts and the arrival all give ours.
        let same = a == b
        var item = a
        let whole = same || !fastPaths ? nil : wholeFromOneSide(base?.item, a, b, placer)
        if let whole {
            item = whole
            paths.oneSided += 1
        } else if !same {
            paths.combined += 1
            // Read once, for the many fields read below.
            a.readFields()
            b.readFields()
            var baseItem = base?.item
            baseItem?.readFields()
            item = a
            let archived = (placer == .theirs ? theirs.list : ours.list) == CardLists.archiveID
            let fieldConflicts = combineFields(CardField.all, baseItem, a, b, into: &item)
            item.conflicts = mergeConflicts(
                baseItem?.conflicts, a.conflicts, b.conflicts, fresh: fieldConflicts.records)
            for values in fieldConflicts.values {
                conflicts.append(
                    MergeConflict(subject: .card(item.id, title: item.title, archived: archived), values: values))
            }
        }
        let merged = !same && whole == nil
        switch placer {
        case .base:
            if merged { item.entered = pick(base.map(\.item.entered), a.entered, b.entered).value }
            return decision(
                placer: .base, item: item, list: ours.list,
                stamp: pick(base.map(\.stamp), ours.stamp, theirs.stamp).value)
        case .ours:
            return decision(placer: .ours, item: item, list: ours.list, stamp: ours.stamp)
        case .theirs:
            if merged { item.entered = b.entered }
            return decision(placer: .theirs, item: item, list: theirs.list, stamp: theirs.stamp)
        }
    }

    /// A card one side left as the base has it (most cards changed at all): the other side's
    /// card whole, with its line, as every field's pick, the recorded conflicts and (unless
    /// the unchanged side's place is taken) the arrival are then the other side's. `nil` for
    /// a card changed on both sides, new on both, or whose arrival is not the changed side's.
    private func wholeFromOneSide(_ base: Item?, _ ours: Item, _ theirs: Item, _ placer: Placer) -> Item? {
        guard let base else { return nil }
        if placer != .ours && base == ours { return theirs }
        if placer != .theirs && base == theirs { return ours }
        return nil
    }

    /// The merged cards of one list, in order.
    private func weaveCards(
        of id: BoardID, _ o: CardLists, _ a: CardLists, _ b: CardLists, _ anchorsA: [[Int]], _ anchorsB: [[Int]],
        _ decisions: ItemIDMap<CardDecision>, _ unchanged: UnchangedCards
    ) -> [CardDecision] {
        let baseList = o.list(withID: id)
        let oursList = a.list(withID: id)
        let theirsList = b.list(withID: id)
        func steps(_ lists: CardLists, _ list: Int?, _ anchors: [[Int]], _ placer: Placer) -> (Int) -> WeaveStep<
            CardDecision
        > {
            let anchors = list.map { anchors[$0] } ?? []
            return { index in
                // A marked card stays where the base has it: no side places it.
                if unchanged.isMarked(baseList, anchors[index]) {
                    return .anchor(anchors[index])
                }
                if let decision = decisions[lists.id(list!, index)], decision.placer == placer, decision.list == id {
                    return .place(decision)
                }
                return anchors[index] >= 0 ? .anchor(anchors[index]) : .skip
            }
        }
        return weave(
            baseCount: baseList.map(o.count) ?? 0,
            kept: { index in
                if let place = unchanged.ours(atBase: ListPlace(list: baseList!, index: index)) {
                    return unchanged.decision(place, a)
                }
                let decision = decisions[o.id(baseList!, index)]
                return decision?.placer == .base && decision?.list == id ? decision : nil
            },
            oursCount: oursList.map(a.count) ?? 0, ours: steps(a, oursList, anchorsA, .ours),
            theirsCount: theirsList.map(b.count) ?? 0, theirs: steps(b, theirsList, anchorsB, .theirs))
    }

    /// The decided cards that no list took, in ours' then theirs' order; none, unless the
    /// merge has a bug.
    private func missingCards(
        _ decisions: ItemIDMap<CardDecision>, _ unchanged: UnchangedCards, _ boards: [Board],
        _ archive: [ArchivedItem], _ o: CardLists, _ a: CardLists, _ b: CardLists, _ anchorsA: [[Int]]
    ) -> [ArchivedItem] {
        var placed = Set(archive.map(\.item.id))
        for board in boards { placed.formUnion(board.items.map(\.id)) }
        var missing: [ArchivedItem] = []
        for (lists, isOurs) in [(a, true), (b, false)] {
            for list in 0...lists.archive {
                for index in 0..<lists.count(list) {
                    let id = lists.id(list, index)
                    // A marked card is ours too: ours' lists come first, and find it.
                    let mark = isOurs && unchanged.isMarked(o.list(withID: a.listID(list)), anchorsA[list][index])
                    guard let decision = mark ? unchanged.decision(ListPlace(list: list, index: index), a) : decisions[id],
                        placed.insert(id).inserted
                    else { continue }
                    let stamp = decision.stamp ?? ArchiveStamp(board: decision.list, archived: Timestamp(seconds: 0))
                    missing.append(ArchivedItem(item: decision.item(a, madeCards), board: stamp.board, archived: stamp.archived))
                }
            }
        }
        return missing
    }

    // MARK: - Boards

    /// The boards of the result, in order, without their cards.
    private mutating func decideBoards(
        _ o: CardLists, _ a: CardLists, _ b: CardLists, receiving: Set<BoardID>
    ) -> [BoardDecision] {
        let stayedA = ours.boardsStayed(since: o)
        let stayedB = theirs.boardsStayed(since: o)
        var decisions: [BoardID: BoardDecision] = [:]
        for (index, board) in ours.boards.enumerated() where a.boardIndex[board.id] == index {
            let baseBoard = o.boardIndex[board.id].map { base.boards[$0] }
            if let theirsIndex = b.boardIndex[board.id] {
                let other = theirs.boards[theirsIndex]
                decisions[board.id] = combine(
                    baseBoard, board, other, oursStayed: stayedA[index], theirsStayed: stayedB[theirsIndex],
                    samePlace: predecessor(ours, index) == predecessor(theirs, theirsIndex))
            } else if let baseBoard {
                decisions[board.id] = keep(
                    board, from: baseBoard, stayed: stayedA[index], placer: .ours, removedBy: .theirs,
                    receiving: receiving)
            } else {
                decisions[board.id] = BoardDecision(placer: .ours, board: board)
            }
        }
        for (index, board) in theirs.boards.enumerated()
        where a.boardIndex[board.id] == nil && b.boardIndex[board.id] == index {
            if let baseIndex = o.boardIndex[board.id] {
                decisions[board.id] = keep(
                    board, from: base.boards[baseIndex], stayed: stayedB[index], placer: .theirs, removedBy: .ours,
                    receiving: receiving)
            } else {
                decisions[board.id] = BoardDecision(placer: .theirs, board: board)
            }
        }
        func steps(_ kanban: Kanban, _ lists: CardLists, _ stayed: [Bool], _ placer: Placer) -> (Int) -> WeaveStep<
            BoardDecision
        > {
            { index in
                let id = kanban.boards[index].id
                guard lists.boardIndex[id] == index else { return .skip }
                if let decision = decisions[id], decision.placer == placer { return .place(decision) }
                guard stayed[index], let position = o.boardIndex[id] else { return .skip }
                return .anchor(position)
            }
        }
        return weave(
            baseCount: base.boards.count,
            kept: { index in
                let id = base.boards[index].id
                guard o.boardIndex[id] == index, let decision = decisions[id], decision.placer == .base else {
                    return nil
                }
                return decision
            },
            oursCount: ours.boards.count, ours: steps(ours, a, stayedA, .ours),
            theirsCount: theirs.boards.count, theirs: steps(theirs, b, stayedB, .theirs)
        ).map { decision in
            var decision = decision
            decision.board.items = []
            return decision
        }
    }

    private func predecessor(_ kanban: Kanban, _ index: Int) -> BoardID? {
        index > 0 ? kanban.boards[index - 1].id : nil
    }

    /// A board both sides have: title, limit and role merged, its place decided once (ours when
    /// both moved it: boards carry no time).
    private mutating func combine(
        _ base: Board?, _ ours: Board, _ theirs: Board, oursStayed: Bool, theirsStayed: Bool, samePlace: Bool
    ) -> BoardDecision {
        var board = ours
        let fieldConflicts = combineFields(BoardField.all, base, ours, theirs, into: &board)
        for values in fieldConflicts.values {
            conflicts.append(MergeConflict(subject: .board(ours.id, title: board.title), values: values))
        }
        board.conflicts = mergeConflicts(
            base?.conflicts, ours.conflicts, theirs.conflicts, fresh: fieldConflicts.records)
        switch (oursStayed, theirsStayed) {
        case (true, true): return BoardDecision(placer: .base, board: board)
        case (true, false): return BoardDecision(placer: .theirs, board: board)
        case (false, true): return BoardDecision(placer: .ours, board: board)
        case (false, false):
            if base != nil && !samePlace { notes.append(.boardMovedOnBothSides(id: ours.id, title: board.title)) }
            return BoardDecision(placer: .ours, board: board)
        }
    }

    /// A board one side removed: gone if the other side left it as it was and gave it no
    /// cards, else kept as the other side has it.
    private mutating func keep(
        _ board: Board, from base: Board, stayed: Bool, placer: Placer, removedBy: MergeSide,
        receiving: Set<BoardID>
    ) -> BoardDecision? {
        let changed =
            !stayed || board.title != base.title || board.limit != base.limit || board.role != base.role
            || board.conflicts != base.conflicts
        guard changed || receiving.contains(board.id) else { return nil }
        notes.append(.keptBoard(id: board.id, title: board.title, removedBy: removedBy))
        return BoardDecision(placer: stayed ? .base : placer, board: board)
    }

    // MARK: - Matching before the merge

    /// Gives the boards of a base read from an older format (ids derived from its bytes)
    /// the ids of the boards the sides have under the same title, ignoring case, where the
    /// ids do not match already; the sides' boards matched that way get the same id. The id
    /// kept is ours' if ours was read in the current format, else theirs' if it was.
    mutating func matchBaseBoardsByTitle(_ formats: MergeFormats) {
        let baseIDs = Set(base.boards.map(\.id))
        func match(_ side: Kanban, _ board: Board) -> Int? {
            if let index = side.boardIndex(id: board.id) { return index }
            let key = board.title.boardKey
            return side.boards.firstIndex { !baseIDs.contains($0.id) && $0.title.boardKey == key }
        }
        var baseMap: [BoardID: BoardID] = [:]
        var oursMap: [BoardID: BoardID] = [:]
        var theirsMap: [BoardID: BoardID] = [:]
        for board in base.boards {
            let oursMatch = match(ours, board)
            let theirsMatch = match(theirs, board)
            var id = board.id
            if let index = oursMatch, formats.ours == .current || theirsMatch == nil || formats.theirs != .current {
                id = ours.boards[index].id
            } else if let index = theirsMatch {
                id = theirs.boards[index].id
            }
            if id != board.id { baseMap[board.id] = id }
            if let index = oursMatch, ours.boards[index].id != id { oursMap[ours.boards[index].id] = id }
            if let index = theirsMatch, theirs.boards[index].id != id { theirsMap[theirs.boards[index].id] = id }
        }
        base.renameBoards(baseMap)
        ours.renameBoards(oursMap)
        theirs.renameBoards(theirsMap)
    }

    /// Gives a new id to what theirs added under an id that ours added for something else:
    /// a board with another title, or a card created at another time (or, without times,
    /// with another title). Ids are random, so this takes an accident or a hand edit.
    ///
    /// - Returns: whether theirs changed.
    private mutating func separateClashingIDs(_ o: CardLists, _ a: CardLists, _ b: CardLists) -> Bool {
        var boardIDs: [BoardID: BoardID] = [:]
        var cardIDs: [ItemID: ItemID] = [:]
        var generator = SeededGenerator(seed: 0x6b61_6e62_616e)
        var chosen: Set<ItemID> = []
        func fresh() -> ItemID {
            while true {
                let id = Kanban(trusted: []).newIDs(count: 1, using: &generator)[0]
                let taken =
                    o.places[id] != nil || a.places[id] != nil || b.places[id] != nil || o.boardIndex[id] != nil
                    || a.boardIndex[id] != nil || b.boardIndex[id] != nil
                if !taken && chosen.insert(id).inserted { return id }
            }
        }
        for board in theirs.boards where o.boardIndex[board.id] == nil && boardIDs[board.id] == nil {
            guard let index = a.boardIndex[board.id], ours.boards[index].title.boardKey != board.title.boardKey
            else { continue }
            let id = fresh()
            boardIDs[board.id] = id
            notes.append(.newID(title: board.title, was: board.id, now: id, isBoard: true))
        }
        for list in 0...b.archive {
            for index in 0..<b.count(list) {
                // By id first: a card is copied only when ours has its id and the base not.
                let cardID = b.id(list, index)
                guard o.places[cardID] == nil, let place = a.places[cardID], cardIDs[cardID] == nil else { continue }
                let card = b.item(list, index)
                let other = a.item(at: place)
                guard other.created != card.created || (card.created == nil && other.title != card.title) else {
                    continue
                }
                let id = fresh()
                cardIDs[card.id] = id
                notes.append(.newID(title: card.title, was: card.id, now: id, isBoard: false))
            }
        }
        guard !boardIDs.isEmpty || !cardIDs.isEmpty else { return false }
        theirs.renameBoards(boardIDs)
        theirs.renameCards(cardIDs)
        return true
    }

    /// Makes one board of two that both sides added with the same title, ignoring case
    /// (SPEC §8 rule 9): theirs takes ours' id.
    ///
    /// - Returns: whether theirs changed.
    private mutating func joinBoardsAddedOnBothSides(_ o: CardLists, _ a: CardLists, _ b: CardLists) -> Bool {
        var added: [String: Board] = [:]
        for board in ours.boards where o.boardIndex[board.id] == nil && b.boardIndex[board.id] == nil {
            added[board.title.boardKey] = board
        }
        guard !added.isEmpty else { return false }
        var map: [BoardID: BoardID] = [:]
        for board in theirs.boards where o.boardIndex[board.id] == nil && a.boardIndex[board.id] == nil {
            guard let match = added.removeValue(forKey: board.title.boardKey) else { continue }
            map[board.id] = match.id
            notes.append(.joinedBoards(title: match.title, id: match.id, theirs: board.id))
        }
        guard !map.isEmpty else { return false }
        theirs.renameBoards(map)
        return true
    }

    // MARK: - Repairs after the merge

    /// Gives a board whose title another board of the result has (ignoring case) a title
    /// with a number, and records a conflict. Titles ours has for the same board keep theirs.
    private mutating func retitleClashingBoards(_ boards: inout [Board], _ a: CardLists) {
        func isOurs(_ board: Board) -> Bool {
            a.boardIndex[board.id].map { ours.boards[$0].title == board.title } ?? false
        }
        var used = Set(boards.filter(isOurs).map(\.title.boardKey))
        for index in boards.indices where !isOurs(boards[index]) {
            let wanted = boards[index].title
            var title = wanted
            var number = 2
            while used.contains(title.boardKey) {
                title = "\(wanted) (\(number))"
                number += 1
            }
            used.insert(title.boardKey)
            guard title != wanted else { continue }
            boards[index].title = title
            conflicts.append(
                MergeConflict(
                    subject: .board(boards[index].id, title: title),
                    values: .boardTitleTaken(wanted: wanted, given: title)))
        }
    }

    /// Gives a new id to a card that has a board's id, or to the board if the card is ours
    /// and the board is not; archived cards that left that board follow it.
    private mutating func repairClashingIDs(
        _ boards: inout [Board], _ archive: inout [ArchivedItem], _ a: CardLists, _ b: CardLists
    ) {
        // Every card of the result is one of ours or theirs, by id: no board id that neither
        // has as a card's is no clash, found without a look at the result's cards.
        guard boards.contains(where: { a.places[$0.id] != nil || b.places[$0.id] != nil }) else { return }
        let boardIDs = Set(boards.map(\.id))
        var clashes: [ItemID] = []
        for board in boards {
            for item in board.items where boardIDs.contains(item.id) { clashes.append(item.id) }
        }
        for archived in archive where boardIDs.contains(archived.item.id) { clashes.append(archived.item.id) }
        guard !clashes.isEmpty else { return }
        var generator = SeededGenerator(seed: 0x6964_7321)
        for id in clashes {
            let fresh = Kanban(trusted: boards, archive: archive).newIDs(count: 1, using: &generator)[0]
            let renameBoard = a.places[id] != nil && a.boardIndex[id] == nil
            if renameBoard, let index = boards.firstIndex(where: { $0.id == id }) {
                boards[index].id = fresh
                for archived in archive.indices where archive[archived].board == id { archive[archived].board = fresh }
                notes.append(.newID(title: boards[index].title, was: id, now: fresh, isBoard: true))
                continue
            }
            for board in boards.indices {
                if let index = boards[board].items.firstIndex(where: { $0.id == id }) {
                    boards[board].items[index].id = fresh
                    notes.append(.newID(title: boards[board].items[index].title, was: id, now: fresh, isBoard: false))
                }
            }
            if let index = archive.firstIndex(where: { $0.item.id == id }) {
                archive[index].item.id = fresh
                notes.append(.newID(title: archive[index].item.title, was: id, now: fresh, isBoard: false))
            }
        }
    }

    /// Notes each board the merge took past its WIP limit.
    private mutating func noteLimits(_ boards: [Board], _ a: CardLists) {
        for board in boards {
            guard let limit = board.limit, board.items.count > limit else { continue }
            let before = a.boardIndex[board.id].map { ours.boards[$0].items.count } ?? 0
            if board.items.count > before {
                notes.append(.overLimit(board: board.title, count: board.items.count, limit: limit))
            }
        }
    }
}

extension ArchivedItem {
    fileprivate var stamp: ArchiveStamp { ArchiveStamp(board: board, archived: archived) }
}

extension Kanban {
    /// Gives boards new ids (`map`: old to new), and archived cards that left them follow.
    /// A board whose new id another board already has keeps its id.
    fileprivate mutating func renameBoards(_ map: [BoardID: BoardID]) {
        guard !map.isEmpty else { return }
        var taken = Set(boards.map(\.id))
        var renamed: [BoardID: BoardID] = [:]
        for index in boards.indices {
            guard let id = map[boards[index].id], taken.insert(id).inserted else { continue }
            renamed[boards[index].id] = id
            boards[index].id = id
        }
        for index in archive.indices {
            if let id = renamed[archive[index].board] { archive[index].board = id }
        }
    }

    /// Gives cards new ids (`map`: old to new).
    fileprivate mutating func renameCards(_ map: [ItemID: ItemID]) {
        guard !map.isEmpty else { return }
        for board in boards.indices {
            for index in boards[board].items.indices {
                if let id = map[boards[board].items[index].id] { boards[board].items[index].id = id }
            }
        }
        for index in archive.indices {
            if let id = map[archive[index].item.id] { archive[index].item.id = id }
        }
    }
}
