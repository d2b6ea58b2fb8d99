import Foundation
import Glibc
import KanbanCore
import Testing

// Tests rest on no timing and no luck (README: Reliability): randomness is seeded and the
// seed printed, and a wait that a test needs to happen is made to happen and seen.

/// The seed of a test's random choices: `KANBAN_TEST_SEED` when set (to replay a run or
/// explore others), else the test's own fixed `default`. Printed, so that every run's
/// output says how to replay it.
func testSeed(_ default: UInt64, _ what: String) -> UInt64 {
    let seed = ProcessInfo.processInfo.environment["KANBAN_TEST_SEED"].flatMap { UInt64($0) } ?? `default`
    print("\(what): seed \(seed) (KANBAN_TEST_SEED=\(seed) replays it)")
    return seed
}

/// A generator for a test, seeded by ``testSeed(_:_:)``, with its seed for messages.
struct TestRandom: RandomNumberGenerator {
    let seed: UInt64
    private var generator: SeededGenerator

    init(_ default: UInt64, _ what: String) {
        seed = testSeed(`default`, what)
        generator = SeededGenerator(seed: seed)
    }

    mutating func next() -> UInt64 { generator.next() }
}

/// A file a writer names in `KANBAN_TEST_WAITING_FILE` (debug builds): the writer appends
/// `lock file` or `kanban file` to it when it finds that lock held, before it waits. A
/// test releases a lock once the wait has begun, and knows the waiting path was taken.
final class LockWaits {
    let path = "\(NSTemporaryDirectory())/kanban-waits.\(getpid()).\(UUID().uuidString)"

    var environment: [String: String] { ["KANBAN_TEST_WAITING_FILE": path] }

    /// The waits announced so far, in order.
    var announced: [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Waits until `writer` has announced a wait (for `what`, when given), and fails if it
    /// ends first or announces none within `timeout`.
    @discardableResult
    func waitUntilWaiting(_ writer: SpawnedProcess, for what: String? = nil, timeout: Double = 30) throws -> [String] {
        try waitUntilWaiting([writer], for: what, timeout: timeout)
    }

    /// Waits until one of `writers` has announced a wait (for `what`, when given), and
    /// fails if they all end first or none announces one within `timeout`.
    @discardableResult
    func waitUntilWaiting(_ writers: [SpawnedProcess], for what: String? = nil, timeout: Double = 30) throws
        -> [String]
    {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let waits = announced
            if what.map({ waits.contains($0) }) ?? !waits.isEmpty { return waits }
            if try writers.allSatisfy({ try $0.poll() != nil }) {
                throw SpawnError("the writers ended before one waited for the \(what ?? "lock") (waits: \(waits))")
            }
            if Date() >= deadline {
                throw SpawnError(
                    "no writer waited for the \(what ?? "lock") within \(timeout)s (waits: \(waits)); "
                        + "the tests need a debug build")
            }
            usleep(2_000)
        }
    }

    func remove() {
        unlink(path)
    }
}
