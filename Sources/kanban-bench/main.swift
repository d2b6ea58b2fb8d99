// kanban-bench: times whole `kanban` processes of the release build on generated kanban
// files, next to a floor measured in the same run: a process that only reads the file and
// writes it back safely (temp file, fsync, rename). Ratios to that floor are the figures
// to trust on a shared, noisy machine.
//
//     swift run -c release kanban-bench [--sizes 10,1000,…] [--runs N] [--output FILE]
//
// `kanban-bench --floor FILE` is the floor process itself.

import Glibc
import KanbanCore

// MARK: - Options

struct Options {
    var sizes = [10, 1_000, 10_000, 100_000, 1_000_000]
    var runs: Int?
    var output: String?
    var kanban: String?
    /// An earlier kanban binary to time next to this one, on a version-1 file.
    var baseline: String?
    /// An earlier build of kanban that every case is also timed with, in the same run.
    var before: String?
    /// Trail entries on every generated card (README: Flow).
    var trail = 0
    var keep = false

    static let usage = """
        usage: kanban-bench [--sizes 10,1000,10000,100000,1000000] [--runs N] [--output FILE] [--kanban PATH]
                            [--baseline PATH] [--before PATH] [--trail N] [--keep]
               kanban-bench --floor FILE

          --sizes    item counts to generate (3 boards each)
          --runs     timed runs per case (default: 15 up to 10,000 items, 11 at 100,000, 5 at 1,000,000)
          --output   also write the Markdown table to FILE
          --kanban   the kanban binary to time (default: build the release product and use it)
          --baseline an earlier kanban binary (one that reads version-1 files), timed moving a card on
                     a version-1 file of the same cards next to this one, in the same run
          --before   an earlier build of kanban: every case is timed with it too, in the same run, in a
                     row of its own ("…, before") under the case's; the report ends with each ratio
          --trail    give every generated card a trail of N entries (default 0: none); an earlier
                     build that does not know trails cannot read such files
          --keep     keep the generated files (their directory is printed)
        """

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        func value(_ name: String) -> String {
            guard let value = iterator.next() else { fail("\(name) needs a value\n\(usage)") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--sizes":
                let sizes = value(argument).split(separator: ",").map { Int($0.filter { $0 != "_" }) }
                guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else {
                    fail("--sizes takes positive numbers")
                }
                options.sizes = sizes.map { $0! }
            case "--runs":
                guard let runs = Int(value(argument)), runs > 0 else { fail("--runs takes a positive number") }
                options.runs = runs
            case "--output": options.output = value(argument)
            case "--kanban": options.kanban = value(argument)
            case "--baseline": options.baseline = value(argument)
            case "--before": options.before = value(argument)
            case "--trail":
                guard let trail = Int(value(argument)), trail >= 0, trail <= 1_000 else {
                    fail("--trail takes a number of entries, 0 to 1000")
                }
                options.trail = trail
            case "--keep": options.keep = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default: fail("unknown argument '\(argument)'\n\(usage)")
            }
        }
        return options
    }
}

/// Prints a progress or error line on stderr.
func say(_ message: String) {
    let line = "kanban-bench: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

func fail(_ message: String) -> Never {
    say(message)
    exit(2)
}

// MARK: - The floor

/// Reads `path` and writes it back with a temporary file, fsync, rename and a directory
/// fsync: what any safe writer of the file must do at least.
func floor(_ path: String) -> Never {
    let input = open(path, O_RDONLY)
    guard input >= 0 else { fail("cannot open \(path)") }
    var info = stat()
    fstat(input, &info)
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var done = 0
    while done < bytes.count {
        let got = bytes.withUnsafeMutableBytes { read(input, $0.baseAddress! + done, $0.count - done) }
        guard got > 0 else { fail("cannot read \(path)") }
        done += got
    }
    close(input)
    let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
    let temporary = directory + "/.floor.tmp"
    let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard output >= 0 else { fail("cannot create \(temporary)") }
    writeAll(output, bytes, path: temporary)
    guard fsync(output) == 0, close(output) == 0, rename(temporary, path) == 0 else { fail("cannot replace \(path)") }
    let directoryFD = open(directory, O_RDONLY | O_DIRECTORY)
    fsync(directoryFD)
    close(directoryFD)
    exit(0)
}

// MARK: - Processes

struct Sample {
    var milliseconds: Double
    var peakKiB: Int
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}

/// Runs `arguments` with stdin from `stdin` (or /dev/null), stdout to /dev/null and stderr
/// to `errors`; returns its wall time and peak RSS from `wait4`'s rusage, or exits if it fails.
func measure(_ arguments: [String], stdin: String? = nil, environment extra: [String] = [], errors: String) -> Sample {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var environment: [UnsafeMutablePointer<CChar>?] = extra.map { strdup($0) }
    var inherited = environ
    while let variable = inherited.pointee {
        environment.append(variable)
        inherited += 1
    }
    environment.append(nil)
    defer { for pointer in environment.prefix(extra.count) { free(pointer) } }
    var pid: pid_t = 0
    let start = now()
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &environment)
    guard spawned == 0 else { fail("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let elapsed = now() - start
    guard status == 0 else {
        fail("\(arguments.prefix(6).joined(separator: " ")) … failed (status \(status)); see \(errors)")
    }
    return Sample(milliseconds: elapsed, peakKiB: usage.ru_maxrss)
}

func copyFile(_ source: String, to destination: String) {
    let input = open(source, O_RDONLY)
    let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard input >= 0, output >= 0 else { fail("cannot copy \(source) to \(destination)") }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let got = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
        guard got > 0 else { break }
        _ = buffer.withUnsafeBytes { write(output, $0.baseAddress!, got) }
    }
    close(input)
    close(output)
}

func readFile(_ path: String) -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { fail("cannot read \(path)") }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard got > 0 else { return bytes }
        bytes += buffer[..<got]
    }
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { fail("cannot write \(path)") }
    writeAll(fd, bytes, path: path)
    close(fd)
}

func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) {
    var done = 0
    while done < bytes.count {
        let wrote = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        guard wrote > 0 else { fail("cannot write \(path)") }
        done += wrote
    }
}

// MARK: - Finding kanban

/// The package root: this file is Sources/kanban-bench/main.swift.
func packageRoot() -> String {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
}

/// Builds the release `kanban` product and returns its path.
func buildKanban() -> String {
    let root = packageRoot()
    say("building the release kanban in \(root)")
    let arguments = ["swift", "build", "-c", "release", "--product", "kanban", "--package-path", root]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawnp(&pid, "swift", nil, nil, &argv, environ) == 0 else { fail("cannot run swift build") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0 else { fail("swift build failed") }
    let path = root + "/.build/release/kanban"
    guard access(path, X_OK) == 0 else { fail("no kanban binary at \(path)") }
    return path
}

// MARK: - Cases

/// A generated kanban: `count` items titled "Item N" over Todo, In Progress and Done. Every
/// card has the times it was created and entered its board; half have one or two labels, a
/// third a due date, and one in a hundred a short note; with `trail`, each card entered that
/// many boards, an hour apart, the last one its own when it entered it.
func generate(count: Int, trail: Int = 0) -> Kanban {
    var generator = SeededGenerator(seed: UInt64(count))
    let ids = try! Kanban(boards: []).newIDs(count: count + 3, using: &generator)
    var boards = ["Todo", "In Progress", "Done"].enumerated().map { Board(id: ids[count + $0], title: $1) }
    let labels: [Labels] = [["bug"], ["feature", "p1"], ["docs"], ["@alice", "p2"]]
    let start: Int64 = 1_790_000_000  // 2026-09-21
    for (index, id) in ids.prefix(count).enumerated() {
        let created = Timestamp(seconds: start + Int64(index) * 37)
        var item = Item(
            id: id, title: "Item \(index + 1)", created: created, entered: created.adding(seconds: 3600))
        if index % 2 == 0 { item.labels = labels[index / 2 % labels.count] }
        if index % 3 == 0 { item.due = Day(daysSinceEpoch: 20_800 + index % 90) }
        if index % 100 == 0 { item.note = "Steps:\n- reproduce with \"kanban list\"\n- fix\tand test" }
        let board = index * 3 / count
        item.trail = (0..<trail).map { step in
            TrailEntry(
                board: boards[(board + 3 - (trail - 1 - step) % 3) % 3].id,
                time: item.entered!.adding(seconds: Int64(step + 1 - trail) * 3600))
        }
        boards[board].items.append(item)
    }
    return try! Kanban(boards: boards)
}

struct Case {
    var name: String
    /// The arguments after the binary; the work file is already named.
    var arguments: [String]
    var stdin: String?
    /// Variables added to the environment, `NAME=value`.
    var environment: [String] = []
    /// Another binary to run than the kanban being measured.
    var binary: String? = nil
    /// Another file to start from than the generated one.
    var file: String? = nil
}

struct Row {
    var items: Int
    var fileBytes: Int
    var name: String
    var samples: [Sample]
    var floor: Double

    var sorted: [Double] { samples.map(\.milliseconds).sorted() }
    var median: Double { sorted[sorted.count / 2] }
    var peakMiB: Double { Double(samples.map(\.peakKiB).max() ?? 0) / 1024 }
}

func formatMilliseconds(_ value: Double) -> String {
    value >= 100 ? String(Int(value.rounded())) : value >= 10 ? format(value, 1) : format(value, 2)
}

func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let fraction = text[text.index(after: dot)...]
        text += String(repeating: "0", count: max(0, decimals - fraction.count))
    }
    return text
}

func formatBytes(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? format(Double(bytes) / 1_048_576, 1) + " MiB" : format(Double(bytes) / 1024, 1) + " KiB"
}

func formatCount(_ count: Int) -> String {
    var digits = Array(String(count))
    var index = digits.count - 3
    while index > 0 {
        digits.insert(",", at: index)
        index -= 3
    }
    return String(digits)
}

// MARK: - Main

/// Writes the kanban of `count` items to `base`.json, and to `base`.ids what the cases
/// need of it: the id of an item halfway down Todo, Done's count, then up to 10,000 ids.
/// It runs in a process of its own: a child's peak RSS as `wait4` reports it includes the
/// parent's at the time of the spawn, so the parent must stay small.
func generateFiles(count: Int, base: String, trail: Int) -> Never {
    let kanban = generate(count: count, trail: trail)
    writeFile(base + ".json", KanbanFile.encode(kanban))
    writeFile(base + ".v1.json", Array(versionOne(kanban).utf8))
    let todo = kanban.boards[0].items
    let ids = kanban.boards.lazy.flatMap { $0.items.lazy.map(\.id.rawValue) }.prefix(10_000)
    let lines = [todo[todo.count / 2].id.rawValue, String(kanban.boards[2].items.count)] + ids
    writeFile(base + ".ids", Array(lines.joined(separator: "\n").utf8))
    let (ours, theirs) = branches(of: kanban)
    writeFile(base + ".ours.json", KanbanFile.encode(ours))
    writeFile(base + ".theirs.json", KanbanFile.encode(theirs))
    exit(0)
}

/// Two branches' worth of changes to `kanban`, for the merge case, touching about 2% of the
/// cards each without a conflict. Ours moves every 97th card to the next board, retitles
/// every 89th and adds 500 cards on top of Todo; theirs moves every 101st card to the top of
/// its board, labels every 83rd, archives every 199th (later than ours' moves) and adds 500
/// cards at the bottom of Done.
func branches(of kanban: Kanban) -> (ours: Kanban, theirs: Kanban) {
    let later = Timestamp(seconds: 1_800_000_000)
    var generator = SeededGenerator(seed: 97)
    let ids = kanban.newIDs(count: 1_000, using: &generator)
    var ours = kanban.boards
    var theirs = kanban.boards
    var archive: [ArchivedItem] = []
    var number = 0
    var moved: [[Item]] = Array(repeating: [], count: ours.count)
    for (board, items) in kanban.boards.enumerated() {
        var kept: [Item] = []
        var top: [Item] = []
        var theirsKept: [Item] = []
        for var item in items.items {
            number += 1
            var theirsItem = item
            if number % 89 == 0 { item.title += " (edited)" }
            if number % 97 == 0 {
                item.entered = later
                moved[(board + 1) % ours.count].append(item)
            } else {
                kept.append(item)
            }
            if number % 83 == 0 { theirsItem.labels.insert("merge") }
            if number % 199 == 0 {
                archive.append(ArchivedItem(item: theirsItem, board: items.id, archived: later.adding(seconds: 60)))
            } else if number % 101 == 0 {
                top.append(theirsItem)
            } else {
                theirsKept.append(theirsItem)
            }
        }
        ours[board].items = kept
        theirs[board].items = top + theirsKept
    }
    for board in ours.indices { ours[board].items += moved[board] }
    let card = { (id: ItemID, title: String) in Item(id: id, title: title, created: later, entered: later) }
    ours[0].items.insert(contentsOf: ids.prefix(500).enumerated().map { card($1, "Ours \($0)") }, at: 0)
    theirs[theirs.count - 1].items += ids.suffix(500).enumerated().map { card($1, "Theirs \($0)") }
    return (
        try! Kanban(boards: ours, archive: kanban.archive),
        try! Kanban(boards: theirs, archive: kanban.archive + archive)
    )
}

/// The cards' ids and titles in a version-1 file, as kanban 1.0 wrote it: what an earlier
/// binary reads, to compare it with this one on the same cards.
func versionOne(_ kanban: Kanban) -> String {
    let boards = kanban.boards.map { board in
        "\n    {\n      \"title\": \(JSON.quoted(board.title)),\n      \"limit\": null,\n      \"items\": ["
            + board.items.map { "\n        {\"id\": \"\($0.id)\", \"title\": \(JSON.quoted($0.title))}" }.joined(separator: ",")
            + (board.items.isEmpty ? "]" : "\n      ]") + "\n    }"
    }
    return "{\n  \"version\": 1,\n  \"boards\": [" + boards.joined(separator: ",") + "\n  ]\n}\n"
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--floor" {
    guard arguments.count == 2 else { fail(Options.usage) }
    floor(arguments[1])
}
if arguments.first == "--generate" {
    guard arguments.count == 4, let count = Int(arguments[1]), let trail = Int(arguments[3]) else { fail(Options.usage) }
    generateFiles(count: count, base: arguments[2], trail: trail)
}
let options = Options.parse(arguments)
let kanban = options.kanban ?? buildKanban()
var selfPath = [CChar](repeating: 0, count: 4096)
let selfLength = readlink("/proc/self/exe", &selfPath, selfPath.count - 1)
guard selfLength > 0 else { fail("cannot find my own binary for the floor") }
let bench = String(decoding: selfPath[..<selfLength].map { UInt8(bitPattern: $0) }, as: UTF8.self)

var template = Array("/tmp/kanban-bench.XXXXXX".utf8CString)
guard let made = mkdtemp(&template) else { fail("cannot make a temporary directory") }
let directory = String(cString: made)
let work = directory + "/work.json"
let errors = directory + "/stderr.txt"

/// A history with a few entries that came before the file being measured.
let earlierHistory = (1...3).flatMap { number in
    HistoryRecord(
        number: number, time: Timestamp(seconds: 1_790_000_000), user: "bench", command: ["add", "earlier"],
        kind: .change, before: UInt64(number), after: UInt64(number + 1), lines: ["added earlier"],
        patch: Patch(from: .empty, to: .empty)
    ).encoded()
}

var rows: [Row] = []
for size in options.sizes {
    let stem = directory + "/items-\(size)"
    _ = measure([bench, "--generate", String(size), stem, String(options.trail)], errors: errors)
    let base = stem + ".json"
    let facts = String(decoding: readFile(stem + ".ids"), as: UTF8.self).split(separator: "\n").map(String.init)
    var info = stat()
    lstat(base, &info)
    let fileBytes = Int(info.st_size)
    let move = ["move", facts[0], "--to", "Done", "--at", String(Int(facts[1])! / 2)]
    var cases = [
        Case(name: "floor: read + write back", arguments: []),
        Case(
            name: "move one item (other board, --at), no history", arguments: move,
            environment: ["KANBAN_HISTORY=off"]),
        Case(name: "move one item (other board, --at)", arguments: move),
        Case(name: "move one item, version-1 file", arguments: move, file: stem + ".v1.json"),
        Case(name: "add one item", arguments: ["add", "A new card", "--to", "Todo"]),
        Case(name: "list --json", arguments: ["list", "--json"]),
        Case(
            name: "merge three versions (-o), 2% changed on each side",
            arguments: ["merge", base, stem + ".ours.json", stem + ".theirs.json", "-o", work]),
    ]
    if let baseline = options.baseline {
        cases.insert(
            Case(name: "move one item, version-1 file, baseline", arguments: move, binary: baseline, file: stem + ".v1.json"),
            at: 4)
    }
    if size >= 10_000 {
        cases.append(
            Case(name: "move 10,000 items", arguments: ["move"] + facts.dropFirst(2) + ["--to", "Done", "--at", "0"]))
    }
    if size == 10_000 {
        let lines = directory + "/lines.txt"
        writeFile(lines, Array((1...10_000).map { "Line \($0)\n" }.joined().utf8))
        cases.append(Case(name: "add 10,000 lines from stdin", arguments: ["add", "--to", "Todo"], stdin: lines))
        // A script's worth of changes: moves, adds and edits, a third each.
        let script = directory + "/batch.txt"
        let ids = facts.dropFirst(2)
        writeFile(
            script,
            Array(
                (0..<1_000).map { line in
                    let id = ids[ids.startIndex + line * 7 % ids.count]
                    switch line % 3 {
                    case 0: return "move \(id) --to Done --at 0\n"
                    case 1: return "add \"Batch card \(line)\" --to Todo --label batch\n"
                    default: return "edit \(id) --label p\(line % 4) --due 2026-12-0\(line % 9 + 1)\n"
                    }
                }.joined().utf8))
        cases.append(Case(name: "batch of 1,000 lines (moves, adds, edits)", arguments: ["batch", script]))
        // Adds only, at two sizes: a batch takes time in proportion to its lines (README: Batch),
        // so the second should take about four times the first.
        for count in [10_000, 40_000] {
            let adds = directory + "/adds-\(count).txt"
            writeFile(adds, Array((0..<count).map { "add \"card \($0)\" --to Todo\n" }.joined().utf8))
            cases.append(
                Case(name: "batch of \(count / 1000),000 adds", arguments: ["batch", adds]))
        }
    }
    let runs = options.runs ?? (size >= 1_000_000 ? 5 : size >= 100_000 ? 11 : 15)
    var floorMedian = 0.0
    for benchCase in cases {
        // With `--before`, the earlier build runs the case too, its runs alternating with
        // this build's, so that the machine's load weighs on both alike.
        var versions = [benchCase]
        if let before = options.before, !benchCase.arguments.isEmpty, benchCase.binary == nil {
            var earlier = benchCase
            earlier.name += ", before"
            earlier.binary = before
            versions.append(earlier)
        }
        var samples = versions.map { _ in [Sample]() }
        for run in 0...runs {
            for (v, version) in versions.enumerated() {
                let command =
                    version.arguments.isEmpty
                    ? [bench, "--floor", work] : [version.binary ?? kanban, "-f", work, "-q"] + version.arguments
                copyFile(version.file ?? base, to: work)
                // A history of earlier changes, to which this run's change is added, as in daily use.
                writeFile(directory + "/.work.json.history", earlierHistory)
                let sample = measure(command, stdin: version.stdin, environment: version.environment, errors: errors)
                if run > 0 { samples[v].append(sample) }  // run 0 warms the page cache
            }
        }
        for (version, samples) in zip(versions, samples) {
            var row = Row(items: size, fileBytes: fileBytes, name: version.name, samples: samples, floor: 0)
            if version.arguments.isEmpty { floorMedian = row.median }
            row.floor = floorMedian
            rows.append(row)
            say("\(formatCount(size)) items, \(version.name): median \(formatMilliseconds(row.median)) ms")
        }
    }
}

// MARK: - Report

var uname = utsname()
Glibc.uname(&uname)
let machine = withUnsafeBytes(of: uname.machine) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
let release = withUnsafeBytes(of: uname.release) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
var report = """
    | items | file | command | median ms | min – max ms | × floor | peak RSS |
    | ---: | ---: | --- | ---: | ---: | ---: | ---: |

    """
for row in rows {
    let ratio = row.floor > 0 ? format(row.median / row.floor, 2) + "×" : "–"
    report += "| \(formatCount(row.items)) | \(formatBytes(row.fileBytes)) | \(row.name) | "
    report += "\(formatMilliseconds(row.median)) | \(formatMilliseconds(row.sorted.first!)) – "
    report += "\(formatMilliseconds(row.sorted.last!)) | \(ratio) | \(format(row.peakMiB, 1)) MiB |\n"
}
let runCounts = options.sizes.compactMap { size in
    rows.first { $0.items == size }.map { "\($0.samples.count) at \(formatCount(size))" }
}
if options.before != nil {
    report += "\nThis build against the earlier one (`--before`), median over median:\n\n"
    for row in rows where row.name.hasSuffix(", before") {
        let name = String(row.name.dropLast(", before".count))
        guard let now = rows.first(where: { $0.items == row.items && $0.name == name }) else { continue }
        report += "- \(formatCount(row.items)) items, \(name): \(format(now.median / row.median, 3))×\n"
    }
}
report += "\nTimed runs per case, after a warm-up run: \(runCounts.joined(separator: ", ")) items; "
report += "\(ProcessInfoLite.processorCount) CPUs, Linux \(release) \(machine).\n"

// The targets, checked against this run.
var targets: [(String, Bool)] = []
let row = { (items: Int, name: String) in rows.first { $0.items == items && $0.name == name } }
let moveName = "move one item (other board, --at)"
if let move = row(10, moveName) {
    targets.append(
        ("move on 10 cards within 3× the floor (\(format(move.median / move.floor, 2))×)", move.median <= 3 * move.floor))
}
if let move = row(10_000, moveName) {
    targets.append(
        (
            "move on 10,000 cards of a version-2 file at most 10 ms (\(formatMilliseconds(move.median)) ms) and within "
                + "2.5× the floor on the same file (\(format(move.median / move.floor, 2))×)",
            move.median <= 10 && move.median <= 2.5 * move.floor
        ))
}
if let move = row(10_000, moveName), let off = row(10_000, moveName + ", no history") {
    targets.append(
        (
            "move on 10,000 cards with history within 1.25× the same move without (\(format(move.median / off.median, 2))×)",
            move.median <= 1.25 * off.median
        ))
}
if let move = row(10_000, moveName), let batch = row(10_000, "batch of 1,000 lines (moves, adds, edits)") {
    targets.append(
        (
            "batch of 1,000 lines on 10,000 cards within 3× one move (\(format(batch.median / move.median, 2))×)",
            batch.median <= 3 * move.median
        ))
}
if let move = row(1_000_000, moveName) {
    let limit = 2.5 * Double(move.fileBytes) / 1_048_576
    targets.append(
        (
            "move on 1,000,000 cards at most 700 ms (\(formatMilliseconds(move.median)) ms), peak memory within 2.5× "
                + "the file (\(format(move.peakMiB, 1)) of \(format(limit, 1)) MiB)",
            move.median <= 700 && move.peakMiB <= limit
        ))
}
if let list = row(100_000, "list --json"), let merge = row(100_000, "merge three versions (-o), 2% changed on each side") {
    targets.append(
        (
            "merge of three 100,000-card versions within 5× list --json on one (\(formatMilliseconds(merge.median)) ms, "
                + "\(format(merge.median / list.median, 2))×)",
            merge.median <= 5 * list.median
        ))
}
if !targets.isEmpty {
    report += "\nTargets:\n\n" + targets.map { "- \($0.1 ? "met" : "MISSED"): \($0.0)\n" }.joined()
}
print(report, terminator: "")
if let output = options.output { writeFile(output, Array(report.utf8)) }
if options.keep {
    say("files kept in \(directory)")
} else {
    for size in options.sizes {
        unlink(directory + "/items-\(size).json")
        unlink(directory + "/items-\(size).v1.json")
        unlink(directory + "/items-\(size).ids")
        unlink(directory + "/items-\(size).ours.json")
        unlink(directory + "/items-\(size).theirs.json")
    }
    unlink(work)
    unlink(errors)
    unlink(directory + "/lines.txt")
    unlink(directory + "/batch.txt")
    unlink(directory + "/.work.json.history")
    unlink(directory + "/.kanban.json.lock")
    unlink(directory + "/.work.json.lock")
    rmdir(directory)
}
exit(0)

/// The number of online processors, without Foundation.
enum ProcessInfoLite {
    static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
