import Foundation
import Glibc
import Testing

@testable import kanban

// The three readers of whole files: the editor's text read back, a file to import, and the
// kanban file. Each refuses what it must not read in its own words (README: Security,
// Reliability); these are the exact words and exit codes, whatever reads the bytes.

@Suite("Bounded reads, in each reader's words")
struct BoundedReadTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aFileToImportIsRefusedInImportsWords
        case aKanbanFileIsRefusedInTheStoresWords
        case theEditorsFileOfAnotherUserIsRefused
        case theEditorsFileGoneOrNotUTF8IsSaidSo
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aFileToImportIsRefusedInImportsWords: try aFileToImportIsRefusedInImportsWords()
        case .aKanbanFileIsRefusedInTheStoresWords: try aKanbanFileIsRefusedInTheStoresWords()
        case .theEditorsFileOfAnotherUserIsRefused: try theEditorsFileOfAnotherUserIsRefused()
        case .theEditorsFileGoneOrNotUTF8IsSaidSo: try theEditorsFileGoneOrNotUTF8IsSaidSo()
        }
    }

    /// `kanban ARGUMENTS` in `sandbox`: exit status and the whole of stderr.
    private func failure(
        _ sandbox: KanbanSandbox, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (status: Int32?, err: String) {
        let result = try sandbox.run(arguments, environment: environment)
        let stdout: String = result.out
        expectTrue(stdout.isEmpty, "\(result)")
        return (result.status, result.err)
    }

    func aFileToImportIsRefusedInImportsWords() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let small: [String: String] = ["KANBAN_TEST_MAX_FILE_SIZE": "4096"]

        let missing = try failure(sandbox, ["import", "missing.csv"])
        expectEqual(missing.status, 66)
        expectEqual(missing.err, "kanban: error: no file 'missing.csv' to import\n")

        try FileManager.default.createDirectory(atPath: sandbox.path("dir"), withIntermediateDirectories: false)
        let directory = try failure(sandbox, ["import", "dir"])
        expectEqual(directory.status, 74)
        expectEqual(directory.err, "kanban: error: cannot read 'dir': is a directory\n")

        try sandbox.write(Array(repeating: UInt8(ascii: "a"), count: 5000), to: "big.csv")
        let big = try failure(sandbox, ["import", "big.csv"], environment: small)
        let expected: String =
            "kanban: error: cannot read 'big.csv': it is larger than 4 KiB, the most kanban reads; nothing was imported\n"
        expectEqual(big.status, 74)
        expectEqual(big.err, expected)
    }

    func aKanbanFileIsRefusedInTheStoresWords() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.initSample()
        let small: [String: String] = ["KANBAN_TEST_MAX_FILE_SIZE": "4096"]

        try require(mkfifo(sandbox.path("fifo"), 0o644) == 0)
        let fifo = try failure(sandbox, ["list", "-f", "fifo"])
        expectEqual(fifo.status, 74)
        expectEqual(fifo.err, "kanban: error: cannot read 'fifo': it is a FIFO, not a regular file\n")

        try FileManager.default.createDirectory(atPath: sandbox.path("dir"), withIntermediateDirectories: false)
        let directory = try failure(sandbox, ["list", "-f", "dir"])
        expectEqual(directory.status, 74)
        expectEqual(directory.err, "kanban: error: cannot read 'dir': it is a directory, not a regular file\n")

        try sandbox.write(Array(repeating: 0x20, count: 5300), to: "big.json")
        let tooLarge: String =
            "kanban: error: cannot read 'big.json': it is 5.2 KiB, larger than the 4 KiB a kanban file may be; "
            + "the file was left untouched"
        // Read to change it (locked), to show it, and as an input of diff and merge.
        for command in [["add", "x", "-f", "big.json"], ["list", "-f", "big.json"], ["diff", "kanban.json", "big.json"]]
        {
            let big = try failure(sandbox, command, environment: small)
            expectEqual(big.status, 74, "\(command)")
            expectEqual(big.err, tooLarge + "\n", "\(command)")
        }
        let merge = try failure(sandbox, ["merge", "kanban.json", "big.json", "kanban.json"], environment: small)
        expectEqual(merge.status, 65)
        expectEqual(merge.err, tooLarge + "; nothing was merged\n")
    }

    /// The editor's file, replaced by `replace` (run on its path), then read back.
    private func readBack(after replace: (String) throws -> Void) throws -> (error: CLIError?, path: String) {
        let text = try TemporaryText("title\n", name: "kanban-bounded-read")
        defer { text.remove() }
        try replace(text.path)
        do {
            _ = try text.read()
            return (nil, text.path)
        } catch {
            return (error, text.path)
        }
    }

    /// The editor's words for what it left that is not its text file: the path removed.
    private func editorRefusal(_ path: String, _ what: String) -> String {
        "the editor left '\(path)' in a state kanban does not read back: it \(what), not a regular file of "
            + "at most 16 MiB as kanban wrote it; it was removed; nothing was changed"
    }

    @Test(arguments: ["symlink", "fifo", "directory", "sparse"])
    func whatTheEditorLeftIsRefusedInTheEditorsWords(_ kind: String) throws {
        let (error, path) = try readBack { (path: String) throws in
            unlink(path)
            switch kind {
            case "symlink": try require(symlink("/etc/hostname", path) == 0)
            case "fifo": try require(mkfifo(path, 0o600) == 0)
            case "directory": try require(mkdir(path, 0o700) == 0)
            default:
                let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
                try require(fd >= 0)
                defer { close(fd) }
                let size: off_t = 17 << 20
                try require(ftruncate(fd, size) == 0)
            }
        }
        let what: [String: String] = [
            "symlink": "is a symbolic link", "fifo": "is a FIFO", "directory": "is a directory",
            "sparse": "is larger than 16 MiB",
        ]
        let refusal = try require(error, "\(kind) was read back")
        expectEqual(refusal.status.exit, .ioError)
        expectEqual(refusal.message, editorRefusal(path, what[kind] ?? ""))
        expectTrue(access(path, F_OK) != 0, "\(path) was not removed")
    }

    func theEditorsFileOfAnotherUserIsRefused() throws {
        try skipUnlessRoot(needing: "to give the editor's file to another user")
        let (error, path) = try readBack { (path: String) throws in
            try require(chown(path, 12345, 12345) == 0)
        }
        let refusal = try require(error, "another user's file was read back")
        expectEqual(refusal.status.exit, .ioError)
        expectEqual(refusal.message, editorRefusal(path, "belongs to another user, uid 12345"))
    }

    func theEditorsFileGoneOrNotUTF8IsSaidSo() throws {
        let (gone, goneAt) = try readBack { (path: String) throws in
            try require(unlink(path) == 0)
        }
        let missing = try require(gone, "a missing file was read back")
        expectEqual(missing.status.exit, .ioError)
        expectEqual(missing.message, "cannot read '\(goneAt)': no such file or directory; nothing was changed")

        let (bad, badAt) = try readBack { (path: String) throws in
            let fd = open(path, O_WRONLY | O_TRUNC)
            try require(fd >= 0)
            defer { close(fd) }
            let bytes: [UInt8] = [0x74, 0xFF, 0x0A]
            try require(write(fd, bytes, bytes.count) == bytes.count)
        }
        let invalid = try require(bad, "bytes that are not UTF-8 were read back")
        expectEqual(invalid.status.exit, .dataError)
        expectEqual(invalid.message, "'\(badAt)' is not valid UTF-8; your text is kept there")

        let (none, _) = try readBack { (_: String) throws in }
        expectTrue(none == nil, "the editor's own text was refused: \(String(describing: none))")
    }
}

/// Which refusal reading `path` meets, or nil if it is read.
private func refusal(_ path: String, limit: Int, _ rules: BoundedFile.Rules) -> String? {
    do {
        _ = try BoundedFile.read(path, limit: limit, rules: rules)
        return nil
    } catch {
        switch error {
        case .cannotOpen: return "cannot open"
        case .symbolicLink: return "symbolic link"
        case .kind(let info): return info.kind
        case .otherOwner: return "other owner"
        case .tooLarge(let size): return "too large: \(size)"
        case .grewTooLarge: return "grew too large"
        case .cannotRead: return "cannot read"
        }
    }
}

@Suite("Bounded reads: the rules")
struct BoundedFileRulesTests {
    @Test func eachRuleRefusesWhatItMustAndReadsTheRest() throws {
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write("twelve bytes", to: "file.txt")
        try require(symlink(sandbox.path("file.txt"), sandbox.path("link.txt")) == 0)
        let file = sandbox.path("file.txt")
        let link = sandbox.path("link.txt")
        let regular = BoundedFile.Rules()
        let anyKind = BoundedFile.Rules(regularOnly: false, followingLinks: true)
        let noLinks = BoundedFile.Rules(regularOnly: true, followingLinks: false)

        try expectEqual(BoundedFile.read(link, limit: 12, rules: regular), Array("twelve bytes".utf8))
        expectEqual(refusal(link, limit: 12, noLinks), "symbolic link")
        expectTrue(refusal(file, limit: 12, noLinks) == nil)
        expectEqual(refusal(file, limit: 11, anyKind), "too large: 12")
        expectEqual(refusal(sandbox.path("."), limit: 12, anyKind), "a directory")
        expectEqual(refusal(sandbox.path("missing"), limit: 12, regular), "cannot open")

        var mine = BoundedFile.Rules()
        mine.owner = geteuid()
        expectTrue(refusal(file, limit: 12, mine) == nil)
        var someoneElses = BoundedFile.Rules()
        someoneElses.owner = geteuid() + 1
        expectEqual(refusal(file, limit: 12, someoneElses), "other owner")

        // A stream is read as it comes when the rules take any kind, up to the limit.
        expectTrue(refusal("/dev/null", limit: 12, anyKind) == nil)
        expectEqual(refusal("/dev/zero", limit: 12, anyKind), "grew too large")
        expectEqual(refusal("/dev/null", limit: 12, regular), "a character device")
    }

    /// A file read whole is its bytes, whatever its size and whatever size it was thought to
    /// have: the first pass sees its end, or the buffer grows for the rest.
    @Test func aFileIsReadWholeAtEverySize() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-read-\(getpid())").path
        defer { unlink(path) }
        for size in [0, 1, 4095, 4096, 70_000, 5 << 20, (9 << 20) + 17] {
            // Every byte value, in an order that no page repeats.
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                for index in 0..<size { buffer[index] = UInt8(truncatingIfNeeded: (index &* 2_654_435_761) >> 11) }
                count = size
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            for hint in [0, size / 2, size, size + 1] {
                let fd = open(path, O_RDONLY)
                defer { close(fd) }
                let read = try POSIX.readAll(fd, sizeHint: hint)
                expectTrue(read == bytes, "\(size) bytes read with a hint of \(hint): \(read.count)")
            }
        }
    }
}
