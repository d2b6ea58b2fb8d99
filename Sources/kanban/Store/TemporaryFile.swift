import Glibc

/// The temporary files writers put next to a kanban file `DIR/NAME` before renaming them
/// over it: `DIR/.NAME.tmp.PID-RANDOM`, one per writer, created with `O_EXCL | O_NOFOLLOW`,
/// so that no writer ever writes to, renames or removes another's (nor follows a symlink
/// planted there).
///
/// A writer removes its own on every failure. One killed in the middle of its write leaves
/// its file behind; the next writer removes it, under the lock, by this rule: a name of
/// exactly that form, a regular file (never a symlink), owned by the same user, and either
/// its process is gone (`kill(PID, 0)` says there is no such process) or it has not been
/// modified for an hour (the process id may have been reused, or belong to another PID
/// namespace sharing the directory). A live writer's file can match neither while it
/// writes: writers write only while holding the lock, and a write takes far less than an
/// hour. And were one removed anyway, its rename would fail and it would report the failure
/// with nothing written, never a lost change.
enum TemporaryFile {
    /// How long a temporary file with a live process id may sit unmodified before it counts as stale.
    static let staleAge = 3600

    /// `.NAME.tmp.`
    static func prefix(for target: String) -> String {
        "." + Path.name(of: target) + ".tmp."
    }

    /// A new, unique path for this process's temporary file next to `target`.
    static func newPath(for target: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(generator.next() as UInt64, radix: 16)
        let suffix = TestHooks.temporarySuffix ?? "\(getpid())-\(random)"
        return Path.join(Path.directory(of: target), prefix(for: target) + suffix)
    }

    /// Removes what killed writers left next to `target` (see the rule above). Only a holder
    /// of the lock calls this; failures are ignored, as the file is not at stake.
    static func removeStale(next target: String) {
        let directory = Path.directory(of: target)
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        let prefix = Array(prefix(for: target).utf8)
        let now = time(nil)
        let me = geteuid()
        while let entry = readdir(stream) {
            let name: [UInt8] = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            guard name.count > prefix.count, name.starts(with: prefix),
                let pid = processID(in: name[prefix.count...])
            else { continue }
            let path = Path.join(directory, String(decoding: name, as: UTF8.self))
            guard let info = POSIX.lstat(path), info.isRegularFile, info.st_uid == me, pid != getpid() else {
                continue
            }
            let gone = kill(pid, 0) != 0 && errno == ESRCH
            if gone || now - info.st_mtim.tv_sec > staleAge {
                unlink(path)
            }
        }
    }

    /// The PID of `PID-HEX`, or nil when the text is not of that form.
    private static func processID(in suffix: ArraySlice<UInt8>) -> pid_t? {
        guard let dash = suffix.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let digits = suffix[..<dash]
        let random = suffix[(dash + 1)...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            !random.isEmpty, random.count <= 16,
            random.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        guard let pid = pid_t(String(decoding: digits, as: UTF8.self)), pid > 0 else { return nil }
        return pid
    }
}
