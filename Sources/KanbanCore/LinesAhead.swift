// Reading a large file on two cores: while the reader reads the first half of a file, a
// second thread finds the plain card lines of its second half (see
// `JSONReader.readPlainLine(words:dates:)`), and the reader takes each of those lines from
// what it found instead of checking it again (README: Performance). A line is plain or not
// by its own bytes alone, so what the thread finds is what the reader would have found:
// the reader still walks the document's structure itself, and uses a found line only where
// it meets one at the very offset the thread started it.

/// Starts `work` on another thread and returns what waits for it to end. The program gives
/// one (this library starts no thread of its own); without it, reading uses one core.
public typealias Concurrently = (_ work: @escaping @Sendable () -> Void) -> () -> Void

/// The search for the plain card lines of a file from an offset on, by another thread.
///
/// Only the reader's thread calls its methods; the thread that searches writes what it
/// found once, before ``finish()`` returns, and nothing after.
final class LinesAhead: @unchecked Sendable {
    /// The smallest file worth a second thread: below it, starting and joining the thread
    /// costs about what it saves.
    static let minimumFileSize = 256 << 10

    /// Where the search began: lines from here on may have been found.
    let start: Int
    private var wait: (() -> Void)?
    private var found = FoundLines()

    /// Starts looking for the plain lines of `bytes` from the first line that starts after
    /// `offset`. The bytes must stay as they are until ``finish()`` has returned.
    init(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, concurrently: Concurrently) {
        start = offset
        nonisolated(unsafe) let bytes = bytes
        wait = concurrently { [self] in found = FoundLines(in: bytes, from: offset) }
    }

    /// A search already done: `found`, from `start` on.
    init(start: Int, found: FoundLines) {
        self.start = start
        self.found = found
    }

    /// Waits until the search has ended, and gives what it found.
    @discardableResult
    func finish() -> FoundLines {
        wait?()
        wait = nil
        return found
    }
}

/// The plain card lines found from an offset on, in the order of the file: where each
/// starts and how long it is (a line of 64 KiB or more is not kept: the reader checks it
/// itself). Six bytes a line, so that the search adds little to a large file's memory; the
/// reader reads a found line's id again from its first words.
struct FoundLines {
    private var starts: [UInt32] = []
    private var lengths: [UInt16] = []
    /// The first line not yet asked for.
    private var cursor = 0

    init() {}

    /// These lines, in the order of the file.
    init(_ lines: [(start: Int, end: Int)]) {
        starts = lines.map { UInt32($0.start) }
        lengths = lines.map { UInt16($0.end - $0.start) }
    }

    /// Checks the first non-blank byte of every line after `offset`.
    init(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) {
        guard bytes.count <= Int(UInt32.max) else { return }
        let expected = (bytes.count - offset) / 100
        starts.reserveCapacity(expected)
        lengths.reserveCapacity(expected)
        var json = JSONReader(bytes)
        var words = WordsCache()
        var dates = DateCache()
        var at = offset
        while let newline = bytes[at...].firstIndex(of: UInt8(ascii: "\n")) {
            json.seek(to: newline + 1)
            json.skipWhitespace()
            at = json.offset
            if json.readPlainLine(words: &words, dates: &dates) != nil {
                if json.offset - at <= Int(UInt16.max) {
                    starts.append(UInt32(at))
                    lengths.append(UInt16(json.offset - at))
                }
                at = json.offset
            }
            guard at < bytes.count else { return }
        }
    }

    /// The end of the plain line found starting at `offset`, if one was; asked at ever
    /// larger offsets.
    mutating func end(ofLineAt offset: Int) -> Int? {
        while cursor < starts.count && Int(starts[cursor]) < offset { cursor += 1 }
        guard cursor < starts.count, Int(starts[cursor]) == offset else { return nil }
        defer { cursor += 1 }
        return offset + Int(lengths[cursor])
    }
}
