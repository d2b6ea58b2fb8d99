import Testing

@testable import KanbanCore

/// Reading a version of a kanban with another version's card lines at hand, as `kanban
/// merge` reads ours and theirs with the base's (README: Performance), gives what reading
/// it alone gives: the same kanban and the same bytes written back, and for a broken file
/// the same error. A line is taken as the other version's card only when its bytes are
/// that card's line; each test counts that this happened, and that other lines were read
/// as usual, or the comparison would prove nothing.
@Suite("Reading with another version's lines at hand")
struct LinesReadBeforeTests {
    /// What reading `bytes` as `kanban merge` does gives: the bytes the kanban is written
    /// as, or the error; and how many of its cards keep a line of `other`'s file.
    private static func read(_ bytes: [UInt8], like other: Kanban? = nil) -> (result: String, shared: Int) {
        do {
            let kanban = try KanbanFile.decode(bytes, keepingLines: true, deferringCards: true, linesLike: other).kanban
            let otherFile = other?.boards.lazy.flatMap(\.items).first(where: \.isDeferred)?.line.file
            let shared = kanban.boards.reduce(0) { count, board in
                count + board.items.count(where: { otherFile != nil && $0.line.file === otherFile })
            }
            return (String(decoding: KanbanFile.encode(kanban), as: UTF8.self), shared)
        } catch {
            return ("error: \(error)", 0)
        }
    }

    private static func deferred(_ kanban: Kanban) throws -> Kanban {
        try KanbanFile.decode(KanbanFile.encode(kanban), keepingLines: true, deferringCards: true).kanban
    }

    /// Ours and theirs of generated merge histories, read with the base's lines at hand.
    @Test func generatedVersionsReadAsTheyDoAlone() throws {
        var generator = HistoryGenerator(seed: 4242)
        var shared = 0
        var read = 0
        for _ in 0..<200 {
            let (base, ours, theirs) = MergePropertyTests.history(&generator)
            let lines = try Self.deferred(base)
            for side in [ours, theirs] {
                let bytes = KanbanFile.encode(side)
                let alone = Self.read(bytes)
                let like = Self.read(bytes, like: lines)
                expectEqual(like.result, alone.result, Comment(rawValue: String(decoding: bytes, as: UTF8.self)))
                expectTrue(!alone.result.hasPrefix("error"), Comment(rawValue: alone.result))
                shared += like.shared
                read += side.boards.reduce(0) { $0 + $1.items.count } - like.shared
            }
        }
        print("lines read before: \(shared) cards taken as the base's line, \(read) read as usual")
        expectTrue(shared > 100 && read > 100, "both ways taken: \(shared) shared, \(read) read")
    }

    /// A version whose bytes are another's with one byte changed, a line repeated (its id
    /// twice) or a line moved: the same kanban or the same error as when read alone.
    @Test func changedBytesReadAsTheyDoAlone() throws {
        var generator = HistoryGenerator(seed: 99)
        var base = generator.base()
        while base.itemCount < 12 { base = generator.base() }
        let lines = try Self.deferred(base)
        let bytes = KanbanFile.encode(base)
        let deferred = lines.boards.reduce(0) { $0 + $1.items.count(where: \.isDeferred) }
        expectTrue(
            deferred > 6 && Self.read(bytes, like: lines).shared == deferred,
            "every deferred card's line is shared when the bytes are the same")
        var versions: [[UInt8]] = []
        let replacements: [UInt8] = [0x22, 0x5C, 0x2C, 0x7D, 0x20, 0x0A, 0x80, 0x61, 0x30, 0x00]
        // Every third byte, each given the next replacement in turn (one debug read of a
        // small file takes about a millisecond).
        for (turn, offset) in stride(from: 0, to: bytes.count, by: 3).enumerated() {
            var changed = bytes
            let replacement = replacements[turn % replacements.count]
            changed[offset] = replacement == changed[offset] ? replacement &+ 1 : replacement
            versions.append(changed)
        }
        // Card lines: each repeated after itself (its id twice); and each that a comma
        // follows taken out, and moved to the top of the first board (a hand-made move,
        // its times and trail left as they were).
        let text = String(decoding: bytes, as: UTF8.self)
        let cardLines = text.split(separator: "\n").filter { $0.hasPrefix("        {\"id\": ") }
        for line in cardLines {
            let stripped = line.hasSuffix(",") ? line.dropLast() : line
            versions.append(Array(text.replacingOccurrences(of: stripped, with: "\(stripped),\n\(stripped)").utf8))
            guard line.hasSuffix(",") else { continue }
            let without = text.replacingOccurrences(of: line + "\n", with: "")
            versions.append(Array(without.utf8))
            let first = try #require(without.range(of: "        {\"id\": "))
            versions.append(Array(without.replacingCharacters(in: first, with: "\(stripped),\n        {\"id\": ").utf8))
        }
        var failed = 0
        var succeeded = 0
        var shared = 0
        for version in versions {
            let alone = Self.read(version)
            let like = Self.read(version, like: lines)
            expectEqual(like.result, alone.result, Comment(rawValue: String(decoding: version, as: UTF8.self)))
            if alone.result.hasPrefix("error") { failed += 1 } else { succeeded += 1 }
            shared += like.shared
        }
        print(
            "lines read before: \(versions.count) changed versions, \(failed) refused, \(succeeded) read,",
            "\(shared) lines shared")
        expectTrue(
            failed > 100 && succeeded > 10 && shared > 50, "\(failed) refused, \(succeeded) read, \(shared) shared")
    }
}
