import Glibc

/// What a run of kanban has besides its arguments: the environment, the directory that
/// relative paths start from, and standard input, output and error (README: Development).
///
/// `main.swift` runs kanban in ``process``: the process's own. The tests run most commands
/// in their own process with other surroundings, many at once on several threads, so a run
/// never changes the process's directory, environment or signal dispositions; what is
/// process-wide (ignoring SIGPIPE and SIGXFSZ, ``KeptUntilExit``, ``Allocator``) is done
/// only for ``process``.
///
/// ``App/main(_:invalidArgument:surroundings:)`` binds ``current`` for the run; code
/// reaches the environment, the directory and the standard files only through it, and the
/// system calls on paths below resolve a relative path against its ``directory``.
struct Surroundings: Sendable {
    /// The environment; nil for the process's own, read with `getenv`.
    let variables: [String: String]?
    /// The directory relative paths start from; nil for the process's current directory.
    let directory: String?
    let stdin: Int32
    let stdout: Int32
    let stderr: Int32

    /// The process's own surroundings.
    static let process = Surroundings(
        variables: nil, directory: nil, stdin: STDIN_FILENO, stdout: STDOUT_FILENO, stderr: STDERR_FILENO)

    /// The surroundings of the run going on in this thread.
    @TaskLocal static var current = Surroundings.process

    /// Whether these are the process's own: only then may a run change what is process-wide.
    var isProcess: Bool { variables == nil && directory == nil }

    /// An environment variable's value, as bytes: it need not be UTF-8.
    func variable(_ name: String) -> [UInt8]? {
        guard let variables else {
            return getenv(name).map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        }
        return variables[name].map { Array($0.utf8) }
    }

    /// An environment variable's value as text (bytes that are not UTF-8 replaced).
    func environment(_ name: String) -> String? {
        variable(name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `path` as the system calls take it: a relative path from ``directory``.
    func resolve(_ path: String) -> String {
        guard let directory, !path.isEmpty, !path.hasPrefix("/") else { return path }
        return Path.join(directory, path)
    }

    /// The current directory's path, as bytes: it need not be UTF-8.
    func currentDirectory() throws(POSIX.Failure) -> [UInt8] {
        if let directory { return Array(directory.utf8) }
        return try POSIX.currentDirectory()
    }

    /// The environment as `NAME=value` entries.
    var environmentEntries: [String] {
        if let variables { return variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            entries.append(String(cString: entry))
            pointer += 1
        }
        return entries
    }

    /// Runs `body` with the environment as `posix_spawn` takes it.
    func withEnvironment<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        if variables == nil { return body(environ) }
        let envp = environmentEntries.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        return body(envp)
    }

    /// Makes a child process start in ``directory``; false if it cannot be done.
    func startChild(in actions: inout posix_spawn_file_actions_t) -> Bool {
        guard let directory else { return true }
        guard let addChdir = Self.addChdir else { return false }
        return addChdir(&actions, directory) == 0
    }

    /// The program `posix_spawnp` is to start for `name`: looked up on this environment's
    /// `PATH` when it is not the process's (the call searches the process's); nil when not
    /// found there.
    func program(_ name: String) -> String? {
        guard variables != nil else { return name }
        if name.contains("/") { return resolve(name) }
        let path = environment("PATH") ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = resolve(Path.join(directory.isEmpty ? "." : String(directory), name))
            if Glibc.access(candidate, X_OK) == 0, POSIX.status(candidate)?.isRegularFile ?? false { return candidate }
        }
        return nil
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29), which the Glibc module does
    /// not declare; looked up once.
    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addChdir: AddChdir? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np"
    ).map { unsafeBitCast($0, to: AddChdir.self) }

    /// The UTC offset in seconds that `$TZ` names when it is UTC or a fixed offset
    /// (`UTC`, `GMT0`, `JST-9`, `<+0530>-5:30`); nil for any other zone.
    static func fixedOffset(timeZone text: String) -> Int? {
        if ["", "UTC", "GMT", "UTC0", "GMT0", ":UTC"].contains(text) { return 0 }
        var rest = Substring(text)
        if rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            rest = rest[rest.index(after: close)...]
        } else {
            let name = rest.prefix { $0.isASCII && $0.isLetter }
            guard name.count >= 3 else { return nil }
            rest = rest.dropFirst(name.count)
        }
        var sign = 1
        if let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        let seconds = numbers.enumerated().reduce(0) { $0 + $1.element * [3600, 60, 1][$1.offset] }
        // POSIX counts west of Greenwich as positive: JST-9 is nine hours ahead.
        return -sign * seconds
    }
}

// MARK: - System calls on paths
//
// Every call in this module that gives a path to the system goes through these, or through
// POSIX's wrappers, which resolve it the same way: a relative path is taken from the run's
// directory, never from the process's (which a run in the tests' process does not change).

@discardableResult
func rename(_ old: String, _ new: String) -> Int32 {
    Glibc.rename(Surroundings.current.resolve(old), Surroundings.current.resolve(new))
}

@discardableResult
func link(_ old: String, _ new: String) -> Int32 {
    Glibc.link(Surroundings.current.resolve(old), Surroundings.current.resolve(new))
}

@discardableResult
func unlink(_ path: String) -> Int32 {
    Glibc.unlink(Surroundings.current.resolve(path))
}

@discardableResult
func rmdir(_ path: String) -> Int32 {
    Glibc.rmdir(Surroundings.current.resolve(path))
}

func access(_ path: String, _ mode: Int32) -> Int32 {
    Glibc.access(Surroundings.current.resolve(path), mode)
}

func readlink(_ path: String, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
    Glibc.readlink(Surroundings.current.resolve(path), buffer, size)
}

func opendir(_ path: String) -> OpaquePointer? {
    Glibc.opendir(Surroundings.current.resolve(path))
}

func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    Glibc.open(Surroundings.current.resolve(path), flags, mode)
}
