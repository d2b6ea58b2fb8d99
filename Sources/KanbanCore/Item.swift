/// A card: a stable id, a one-line title, and optionally labels, assignees, a due date, a
/// note, the times it was created and last entered a board, and its trail (every board it
/// entered, and when).
///
/// The keys each field has in the file, and how each is read, written and checked, are
/// stated once, in `Schema.swift`.
public struct Item: Hashable, Sendable {
    // A card is its id, its line in the file it was read from while it is as read (see
    // `KeptLine`), and its other fields in a box of their own. A card read from a file that
    // is to be written back is *deferred*: it has no box until something reads or changes
    // another field (README: Performance). Each getter then reads the field from the line,
    // and each setter first reads the whole card from it (``willChange()``). The box keeps
    // the card small, so a board's array of cards is cheap to shift and to copy; it is
    // copied before a change when another card shares it.

    /// The id, stable across moves and renames; see ``Kanban/idLength(forItemCount:)``.
    public var id: ItemID {
        get { storedID }
        set {
            _ = willChange()
            storedID = newValue
        }
    }
    /// The title as stored. Titles typed by users are normalized by ``Title``; a title
    /// read from a hand-edited file is kept as it is, so renderers must escape it.
    public var title: String {
        get { box?.fields.title ?? line.title(of: storedID) }
        set { willChange().fields.title = newValue }
    }
    /// Labels, compared ignoring case.
    public var labels: Labels {
        get { fieldsBox.fields.labels }
        set { willChange().fields.labels = newValue }
    }
    /// The people it is assigned to: user names, compared ignoring case, with the rules of
    /// labels (README: Cards with content).
    public var assignees: Labels {
        get { fieldsBox.fields.assigneeNames.map { Labels(checked: $0) } ?? Labels() }
        set { willChange().fields.assigneeNames = newValue.isEmpty ? nil : newValue.names }
    }
    /// Every board the card entered and when, oldest first, without repeats; empty for cards
    /// from older files until their next arrival (README: Cards with content). Entries set
    /// in another order, or twice, are kept oldest first, once. Set it through
    /// ``arrive(on:at:)`` when the card arrives, so that it agrees with ``entered``.
    public var trail: [TrailEntry] {
        get { fieldsBox.fields.trailEntries ?? [] }
        set { willChange().fields.trailEntries = Self.stored(newValue) }
    }
    /// Whether it has no trail (read without making an array).
    var hasNoTrail: Bool { fieldsBox.fields.trailEntries == nil }
    /// Free text, several lines. A line with a note is never kept, so a deferred card has none.
    public var note: String? {
        get { box?.fields.rare?.note }
        set {
            let conflicts = conflicts
            willChange().fields.rare = RareFields.make(note: newValue, conflicts: conflicts)
        }
    }
    /// The conflicts a merge recorded and nobody settled yet (README: Working together). A
    /// line with conflicts is never kept, so a deferred card has none.
    public var conflicts: Conflicts {
        get { box?.fields.rare?.conflicts ?? Conflicts() }
        set {
            let note = note
            willChange().fields.rare = RareFields.make(note: note, conflicts: newValue)
        }
    }
    /// The due date.
    public var due: Day? {
        get {
            let days = fieldsBox.fields.dueDays
            return days == .min ? nil : Day(daysSinceEpoch: Int(days))
        }
        set { willChange().fields.dueDays = Self.stored(newValue) }
    }
    /// When the card was added, copied or imported; `nil` for cards from older files.
    public var created: Timestamp? {
        get {
            let seconds = fieldsBox.fields.createdSeconds
            return seconds == .min ? nil : Timestamp(seconds: seconds)
        }
        set { willChange().fields.createdSeconds = Self.stored(newValue) }
    }
    /// When the card arrived on its current board; `nil` for cards from older files.
    public var entered: Timestamp? {
        get {
            let seconds = fieldsBox.fields.enteredSeconds
            return seconds == .min ? nil : Timestamp(seconds: seconds)
        }
        set { willChange().fields.enteredSeconds = Self.stored(newValue) }
    }

    private var storedID: ItemID
    /// The card's line in the file it was read from, while the card is as it was read: a
    /// write copies those bytes rather than writing the card again (README: Performance).
    /// Every setter drops it (``willChange()``), so a card that changed is always written
    /// from its fields. Not part of the card's value: two cards that differ only in it are
    /// equal. A field added to the card goes in ``CardFields`` and is set only through a
    /// setter that calls ``willChange()``, or a change to it alone would not reach the file.
    private(set) var line = KeptLine()
    /// The other fields; `nil` while the card is deferred.
    private var box: CardFieldsBox?

    /// The fields: a deferred card's read from its line (every time: a getter cannot keep
    /// them), any other's from its box, which the caller must not change.
    var fieldsBox: CardFieldsBox {
        if let box { return box }
        return Item(reading: line).box!
    }

    /// About to change a field: a deferred card reads its fields from its line first, a box
    /// shared with another card is copied, and the line is dropped, since the card will no
    /// longer be what it says. Returns the box to change.
    private mutating func willChange() -> CardFieldsBox {
        if box == nil {
            box = fieldsBox
        } else if !isKnownUniquelyReferenced(&box) {
            box = CardFieldsBox(box!.fields)
        }
        line = KeptLine()
        return box!
    }

    /// Reads a deferred card's fields from its line, keeping the line: for code about to read
    /// many fields of it.
    mutating func readFields() {
        if box == nil { box = fieldsBox }
    }

    /// Drops the card's line, reading its fields first if it is deferred: it will be written
    /// from its fields (for tests that compare the two ways of writing).
    mutating func forgetLine() {
        readFields()
        line = KeptLine()
    }

    /// Whether the card is deferred: its fields are still only in its line.
    var isDeferred: Bool { box == nil }

    /// A card of this id that is `line` of its file until a field is read or set.
    @inline(__always)
    init(deferred id: ItemID, line: KeptLine) {
        storedID = id
        self.line = line
        box = nil
    }

    /// The card `line` holds, with its fields read, keeping the line. The line was checked
    /// when it was read, so it reads again.
    private init(reading line: KeptLine) {
        guard var card = line.withBytes({ FileReader.card(in: $0) }) ?? nil else {
            preconditionFailure("a card's kept line no longer reads")
        }
        card.line = line
        self = card
    }

    public static func == (a: Item, b: Item) -> Bool {
        if a.line.isSame(as: b.line) { return true }
        guard a.storedID == b.storedID else { return false }
        // A kept line is what writing its card gives, so two cards that keep lines are equal
        // exactly when the lines' bytes are: no field is read (a merge's three files).
        if a.line.file != nil && b.line.file != nil { return a.line.hasSameBytes(as: b.line) }
        let (x, y) = (a.fieldsBox, b.fieldsBox)
        return x === y || x.fields == y.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedID)
        hasher.combine(fieldsBox.fields)
    }

    /// A due date as it is kept.
    private static func stored(_ day: Day?) -> Int32 {
        day.map { Int32(truncatingIfNeeded: $0.daysSinceEpoch) } ?? .min
    }

    /// A trail as it is kept.
    private static func stored(_ trail: [TrailEntry]) -> [TrailEntry]? {
        trail.isEmpty ? nil : TrailEntry.areOrdered(trail) ? trail : TrailEntry.ordered(trail)
    }

    /// A time as it is kept.
    private static func stored(_ time: Timestamp?) -> Int64 {
        time?.seconds ?? .min
    }

    public init(
        id: ItemID, title: String, labels: Labels = [], assignees: Labels = [], due: Day? = nil,
        created: Timestamp? = nil, entered: Timestamp? = nil, trail: [TrailEntry] = [], note: String? = nil
    ) {
        self.init(
            id: id, title: title, labels: labels, assignees: assignees, due: due, created: created, entered: entered,
            trail: trail, note: note, line: KeptLine())
    }

    /// A card read from a file, that keeps its `line` there (not deferred).
    @inline(__always)
    init(
        id: ItemID, title: String, labels: Labels, assignees: Labels, due: Day?, created: Timestamp?,
        entered: Timestamp?, trail: [TrailEntry], note: String?, line: KeptLine
    ) {
        storedID = id
        box = CardFieldsBox(
            CardFields(
                title: title, labels: labels, assigneeNames: assignees.isEmpty ? nil : assignees.names,
                trailEntries: Self.stored(trail), rare: RareFields.make(note: note, conflicts: Conflicts()),
                createdSeconds: Self.stored(created), enteredSeconds: Self.stored(entered), dueDays: Self.stored(due)))
        self.line = line
    }

    /// The card arrives on `board` at `now`: it entered it then, and its trail gains the
    /// entry (README: Cards with content). The one place both are set, so they agree; with
    /// no `now` (code that keeps no time) neither changes.
    public mutating func arrive(on board: BoardID, at now: Timestamp?) {
        guard let now else { return }
        let box = willChange()
        box.fields.enteredSeconds = Self.stored(now)
        let entry = TrailEntry(board: board, time: now)
        guard var entries = box.fields.trailEntries else {
            box.fields.trailEntries = [entry]
            return
        }
        box.fields.trailEntries = nil  // uniquely referenced while it grows
        if let last = entries.last, last.time == now {
            // Two arrivals in one second (a batch, quick moves): entries of one time are
            // ordered by board, not by arrival, so the stay of no time before goes.
            entries[entries.count - 1] = entry
        } else if let last = entries.last, last.time > now {
            // A clock set back: the entry goes where its time puts it, once.
            entries = TrailEntry.ordered(entries + [entry])
        } else {
            entries.append(entry)
        }
        box.fields.trailEntries = entries
    }

    /// Whether the card is due before `today`.
    public func isOverdue(today: Day) -> Bool {
        due.map { $0 < today } ?? false
    }
}

/// What a new card is made of: the parts a user gives (`kanban add TEXT --label … --assign …
/// --due … --note …`), or an import brings; its fields are read and set as a card's
/// (`content.labels`, `content[field]`), so a new card field needs nothing here.
@dynamicMemberLookup
public struct CardContent: Hashable, Sendable {
    public var title: Title
    /// Its other fields, on a card that is nothing else: no id, no times, no conflicts.
    public internal(set) var fields: Item

    /// A card of that title with the fields' values given by name (see ``CardField``); a
    /// field not given is none.
    public init(title: Title, _ values: [String: FieldValue] = [:]) {
        self.title = title
        fields = Self.blank
        for field in CardField.all {
            if let value = values[field.name] { field.set(&fields, value) }
        }
    }

    /// A card of that title with the fields of `fields` (which is a ``blank`` card with some set).
    init(title: Title, fields: Item) {
        self.title = title
        self.fields = fields
    }

    /// A card of that title with what a person gives of `item` (its edited fields but its
    /// title), not its id, times or conflicts.
    public init(title: Title, of item: Item) {
        self.title = title
        fields = item
        fields.id = Self.blank.id
        fields.title = ""
        fields.conflicts = Conflicts()
        for field in CardField.all where !field.isEdit { field.set(&fields, .none(field.kind)) }
    }

    /// Written in code, with the fields spelled out.
    public init(title: Title, labels: Labels = [], assignees: Labels = [], due: Day? = nil, note: String? = nil) {
        self.title = title
        fields = Item(id: Self.blank.id, title: "", labels: labels, assignees: assignees, due: due, note: note)
    }

    /// A card with no fields set, whose id is a placeholder.
    static let blank = Item(id: ItemID(packed: 1), title: "")

    public subscript<Value>(dynamicMember path: WritableKeyPath<Item, Value>) -> Value {
        get { fields[keyPath: path] }
        set { fields[keyPath: path] = newValue }
    }

    /// A field's value.
    public subscript(field: CardField) -> FieldValue {
        get { field.value(fields) }
        set { field.set(&fields, newValue) }
    }
}

/// A card put away in the archive: the card, the board it left, and when.
public struct ArchivedItem: Hashable, Sendable {
    public var item: Item
    /// The id of the board the card left; that board may be gone since.
    public var board: BoardID
    public var archived: Timestamp

    public init(item: Item, board: BoardID, archived: Timestamp) {
        self.item = item
        self.board = board
        self.archived = archived
    }
}

/// A board's id: it has the form of an item id and shares its namespace, so no board and
/// item in one file have the same id.
public typealias BoardID = ItemID

/// An id of an item or a board: 1 to 8 ASCII letters, digits, `-` or `_`.
///
/// Generated ids are lowercase letters and digits with at least one of each; see
/// ``Kanban/newIDs(count:using:)``. Wider ids are accepted so that hand-edited files keep
/// working. An id is stored packed in one 64-bit word, first character in the high byte,
/// so ids hash, compare and sort as integers: a file holds one per item.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The characters, big-endian, padded with zero bytes.
    let packed: UInt64

    /// The longest id, in characters.
    public static let maximumLength = 8

    /// Creates an id, or returns `nil` if `rawValue` is not a valid id.
    public init?(_ rawValue: String) {
        var text = rawValue
        guard let packed = text.withUTF8({ Self.pack($0) }) else { return nil }
        self.packed = packed
    }

    /// Creates an id from its packed form.
    init(packed: UInt64) {
        self.packed = packed
    }

    /// Creates an id from its bytes, or returns `nil` if they do not spell a valid id.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let packed = Self.pack(bytes) else { return nil }
        self.packed = packed
    }

    /// The id of the first `count` bytes of `word`, as loaded little-endian from a file
    /// (its first byte lowest), or `nil` if they are not a valid id.
    init?(littleEndianWord word: UInt64, count: Int) {
        guard (1...Self.maximumLength).contains(count) else { return nil }
        // Every byte at once: the high bit of each byte of `valid` says whether it is one of
        // `isIDByte`'s, once the bytes are known to be ASCII (so no sum below carries).
        let ones: UInt64 = 0x0101_0101_0101_0101
        let used = (count == 8 ? UInt64.max : (1 << (8 * UInt64(count))) - 1) & 0x8080_8080_8080_8080
        guard word & used == 0 else { return nil }
        func within(_ low: UInt8, _ high: UInt8) -> UInt64 {
            // At least `low`, and not past `high`.
            (word &+ ones &* UInt64(0x80 - low)) & ~(word &+ ones &* UInt64(0x7F - high))
        }
        func equal(_ byte: UInt8) -> UInt64 {
            let difference = word ^ ones &* UInt64(byte)
            return ~((difference &+ ones &* 0x7F) | difference)
        }
        let valid =
            within(UInt8(ascii: "0"), UInt8(ascii: "9")) | within(UInt8(ascii: "A"), UInt8(ascii: "Z"))
            | within(UInt8(ascii: "a"), UInt8(ascii: "z")) | equal(UInt8(ascii: "-")) | equal(UInt8(ascii: "_"))
        guard valid & used == used else { return nil }
        // First character in the highest byte, the unused ones zero, as `pack` makes it.
        packed = word.byteSwapped & ~(UInt64.max >> (8 * count))
    }

    /// The packed form of `bytes`, or `nil` if they are not a valid id.
    private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard (1...maximumLength).contains(bytes.count) else { return nil }
        var packed: UInt64 = 0
        for byte in bytes {
            guard isIDByte(byte) else { return nil }
            packed = packed << 8 | UInt64(byte)
        }
        return packed << (8 * UInt64(maximumLength - bytes.count))
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// The number of characters.
    var count: Int { Self.maximumLength - packed.trailingZeroBitCount / 8 }

    /// Appends the id's characters to `out`.
    func append(to out: inout [UInt8]) {
        var word = packed
        for _ in 0..<count {
            out.append(UInt8(truncatingIfNeeded: word >> 56))
            word <<= 8
        }
    }

    /// The id as typed and stored.
    public var rawValue: String {
        // The packed word's bytes, first character first in memory: at most 8 ASCII bytes,
        // which a string holds without an allocation.
        withUnsafeBytes(of: packed.bigEndian) { word in
            String(decoding: UnsafeBufferPointer(rebasing: word.bindMemory(to: UInt8.self)[..<count]), as: UTF8.self)
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: ItemID, rhs: ItemID) -> Bool { lhs.packed < rhs.packed }
}

/// Where a card's line is in the bytes of the file it was read from, kept only for a line in
/// exactly the layout this build writes, so that copying it gives what writing the card
/// would (README: Performance). Every kept line is equal to every other, and hashes to
/// nothing: a card's value is its fields.
struct KeptLine: Hashable, Sendable {
    /// The file's bytes; `nil`: no line is kept.
    let file: FileBytes?
    let start: UInt32
    let count: UInt32

    /// No line kept.
    init() {
        file = nil
        start = 0
        count = 0
    }

    /// The line at `range` of `file`; `nil` past the offsets it can hold (4 GiB).
    init?(file: FileBytes, range: Range<Int>) {
        guard range.upperBound <= UInt32.max else { return nil }
        self.file = file
        start = UInt32(range.lowerBound)
        count = UInt32(range.count)
    }

    /// The line of `count` bytes at `start` of `file`, a place a line was kept at before.
    init(file: FileBytes, start: Int, count: Int) {
        self.file = file
        self.start = UInt32(truncatingIfNeeded: start)
        self.count = UInt32(truncatingIfNeeded: count)
    }

    /// Whether both are the same kept line of the same file: two cards with that are
    /// equal, without comparing their fields (a line is kept only while its card is as read).
    func isSame(as other: KeptLine) -> Bool {
        file != nil && file === other.file && start == other.start
    }

    /// Whether both lines, kept in files, hold the same bytes.
    func hasSameBytes(as other: KeptLine) -> Bool {
        count == other.count
            && withBytes { a in other.withBytes { b in b.hasPrefix(a) } } == true
    }

    /// Calls `body` with the line's bytes; there are some only when ``file`` is set.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        guard let file else { return nil }
        return try file.bytes.withUnsafeBufferPointer { bytes in
            try body(UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(start) + Int(count)]))
        }
    }

    static func == (_: KeptLine, _: KeptLine) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// A card's fields but its id (see ``Item``). A field added here is compared, hashed and
/// copied with the others.
struct CardFields: Hashable, Sendable {
    var title: String
    var labels: Labels
    /// The assignees' names, `nil` for none: most cards have none.
    var assigneeNames: [String]?
    /// The trail, `nil` for none: cards from older files have none.
    var trailEntries: [TrailEntry]?
    /// The note and the recorded conflicts, boxed, `nil` for neither: few cards have them.
    var rare: RareFields?
    // The dates as plain numbers, with a value that is no date for none.
    var createdSeconds: Int64
    var enteredSeconds: Int64
    var dueDays: Int32
}

/// The box a card keeps its ``CardFields`` in, shared with its copies until one of them
/// changes. Changed only by the card that holds it alone, which makes it safe to share
/// across threads.
final class CardFieldsBox: @unchecked Sendable {
    var fields: CardFields

    init(_ fields: CardFields) {
        self.fields = fields
    }
}

/// A card's note and recorded conflicts, in a box of their own (see ``Item/note``); a new
/// box for every change.
final class RareFields: Hashable, Sendable {
    let note: String?
    let conflicts: Conflicts

    private init(note: String?, conflicts: Conflicts) {
        self.note = note
        self.conflicts = conflicts
    }

    /// A box for these, `nil` for none of them.
    static func make(note: String?, conflicts: Conflicts) -> RareFields? {
        note == nil && conflicts.isEmpty ? nil : RareFields(note: note, conflicts: conflicts)
    }

    static func == (a: RareFields, b: RareFields) -> Bool { a.note == b.note && a.conflicts == b.conflicts }
    func hash(into hasher: inout Hasher) {
        hasher.combine(note)
        hasher.combine(conflicts)
    }
}

/// The bytes of a file a kanban was read from, shared by the cards that keep their line in
/// it; they stay as they were read.
final class FileBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}
