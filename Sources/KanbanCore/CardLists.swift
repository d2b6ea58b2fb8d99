// A kanban seen as lists of cards, for code that compares kanbans (a diff, a merge): each
// board's cards, then the archive's as one more list, with every card's place by id.

/// Where a card is: the index of its list (a board's index, or ``CardLists/archive``'s)
/// and its index in that list.
struct ListPlace: Hashable {
    var list: Int
    var index: Int
}

/// A kanban's cards as lists: lists `0..<boards.count` are the boards, list `boards.count`
/// is the archive.
struct CardLists {
    let kanban: Kanban
    /// Every card's place.
    private(set) var places: ItemIDMap<ListPlace>
    /// Whether a card id comes twice (only a kanban made in memory can have that); if not,
    /// every card's place is where ``places`` has it.
    let hasRepeats: Bool
    /// Every board's index, by id (the first, should a board id repeat).
    private(set) var boardIndex: [BoardID: Int]

    /// The id that stands for the archive where a list id is expected: 0 is no valid id.
    static let archiveID = ItemID(packed: 0)

    /// - Complexity: O(*n*) expected, where *n* is the number of cards.
    init(_ kanban: Kanban) {
        self.kanban = kanban
        var places = ItemIDMap<ListPlace>(expected: kanban.itemCount + kanban.archive.count)
        var hasRepeats = false
        for (list, board) in kanban.boards.enumerated() {
            // By index, reading each card's id where it is: a card is never copied here.
            for index in board.items.indices
            where !places.insertIfAbsent(board.items[index].id, ListPlace(list: list, index: index)) {
                hasRepeats = true
            }
        }
        let archive = kanban.boards.count
        for index in kanban.archive.indices
        where !places.insertIfAbsent(kanban.archive[index].item.id, ListPlace(list: archive, index: index)) {
            hasRepeats = true
        }
        self.places = places
        self.hasRepeats = hasRepeats
        var boardIndex = [BoardID: Int](minimumCapacity: kanban.boards.count)
        for (index, board) in kanban.boards.enumerated() where boardIndex[board.id] == nil {
            boardIndex[board.id] = index
        }
        self.boardIndex = boardIndex
    }

    /// The archive's list.
    var archive: Int { kanban.boards.count }

    /// The number of cards in a list.
    func count(_ list: Int) -> Int {
        list == archive ? kanban.archive.count : kanban.boards[list].items.count
    }

    /// The card at `index` of `list`.
    func item(_ list: Int, _ index: Int) -> Item {
        list == archive ? kanban.archive[index].item : kanban.boards[list].items[index]
    }

    /// The id of the card at `index` of `list` (read where it is, with no copy of the card).
    func id(_ list: Int, _ index: Int) -> ItemID {
        list == archive ? kanban.archive[index].item.id : kanban.boards[list].items[index].id
    }

    func item(at place: ListPlace) -> Item {
        item(place.list, place.index)
    }

    /// The cards of a list that is a board; nil for the archive.
    func boardItems(_ list: Int) -> [Item]? {
        list == archive ? nil : kanban.boards[list].items
    }

    /// Where each list's cards start when all lists' cards are counted in order, and their
    /// number last: what an array of one entry per card is indexed by.
    func starts() -> [Int] {
        var starts = [0]
        starts.reserveCapacity(archive + 2)
        for list in 0...archive { starts.append(starts[list] + count(list)) }
        return starts
    }

    /// The archived card at `place`, which must be in the archive.
    func archived(at place: ListPlace) -> ArchivedItem {
        kanban.archive[place.index]
    }

    /// The id of a list: its board's id, or ``archiveID``.
    func listID(_ list: Int) -> BoardID {
        list == archive ? Self.archiveID : kanban.boards[list].id
    }

    /// The list with id `id` (``archiveID``: the archive).
    func list(withID id: BoardID) -> Int? {
        id == Self.archiveID ? archive : boardIndex[id]
    }

    /// The title of a list, for reports: its board's title, or nil for the archive.
    func title(_ list: Int) -> String? {
        list == archive ? nil : kanban.boards[list].title
    }

    /// For each list and each card in it, whether the card stayed where `base` had it: in
    /// the list with the same id, and in a longest common subsequence of the two orders of
    /// that list. A card outside it moved, came from another list, or is new.
    ///
    /// - Complexity: O(*n* log *n*).
    func stayed(since base: CardLists) -> [[Bool]] {
        anchors(since: base).map { $0.map { $0 >= 0 } }
    }

    /// For each list and each card in it, its index in `base`'s list of the same id if it
    /// stayed there (see ``stayed(since:)``), else -1.
    ///
    /// - Complexity: O(*n* log *n*).
    func anchors(since base: CardLists) -> [[Int]] {
        (0...archive).map { list in
            var anchors = [Int](repeating: -1, count: count(list))
            guard let baseList = base.list(withID: listID(list)) else { return anchors }
            var positions: [Int] = []
            var indices: [Int] = []
            positions.reserveCapacity(anchors.count)
            indices.reserveCapacity(anchors.count)
            // Most lists keep the base's order but for a few cards that came or went: then
            // every card stays, without the search for a longest increasing subsequence.
            var increasing = true
            for index in anchors.indices {
                if let place = base.places[id(list, index)], place.list == baseList {
                    if let last = positions.last, last >= place.index { increasing = false }
                    positions.append(place.index)
                    indices.append(index)
                }
            }
            if increasing {
                for (offset, index) in indices.enumerated() { anchors[index] = positions[offset] }
                return anchors
            }
            for (offset, kept) in LongestIncreasingSubsequence.mask(positions).enumerated() where kept {
                anchors[indices[offset]] = positions[offset]
            }
            return anchors
        }
    }
}

extension Kanban {
    /// For each board, whether it stayed where `base` had it: in a longest common
    /// subsequence of the two orders of the boards both have.
    func boardsStayed(since base: CardLists) -> [Bool] {
        var positions: [Int] = []
        var indices: [Int] = []
        for (index, board) in boards.enumerated() {
            if let position = base.boardIndex[board.id] {
                positions.append(position)
                indices.append(index)
            }
        }
        var mask = [Bool](repeating: false, count: boards.count)
        for (offset, kept) in LongestIncreasingSubsequence.mask(positions).enumerated() where kept {
            mask[indices[offset]] = true
        }
        return mask
    }
}
