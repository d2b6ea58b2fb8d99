import Glibc

/// Whether a clone would merge the kanban file as text although the repository means it to
/// be merged card by card: git silently falls back to its text merge when `.gitattributes`
/// names a driver this clone's config does not define. Commands that change the file say
/// so in one line. The check runs no git process: a few `lstat`s up to the repository's
/// top, and small reads only when `.gitattributes` names kanban's driver there.
enum MergeDriverCheck {
    /// The note for `file`, or `nil` when there is nothing to say.
    static func unregisteredNote(for file: String) -> String? {
        guard let root = repositoryRoot(of: file),
            let attributes = read(Path.join(root, ".gitattributes")), attributes.contains("merge=kanban")
        else { return nil }
        for config in configFiles(root: root) {
            if let text = read(config), registersDriver(text) { return nil }
        }
        return ".gitattributes names kanban's merge driver, but this clone has none registered: git would merge "
            + "\(q(Path.name(of: file))) line by line, as text; run 'kanban git setup'"
    }

    /// The nearest directory at or above the file's that has a `.git` entry.
    static func repositoryRoot(of file: String) -> String? {
        var directory = Path.directory(of: file)
        if !directory.hasPrefix("/") {
            guard let bytes = try? Surroundings.current.currentDirectory(),
                let here = String(validating: bytes, as: UTF8.self)
            else {
                return nil
            }
            directory = directory == "." ? here : Path.join(here, directory)
        }
        while true {
            if POSIX.lstat(Path.join(directory, ".git")) != nil { return directory }
            if directory == "/" { return nil }
            directory = Path.directory(of: directory)
        }
    }

    /// The git config files that apply to the clone at `root`: its own (through the
    /// `gitdir:` of a linked work tree), the user's and the system's.
    static func configFiles(root: String) -> [String] {
        var files: [String] = []
        let dotGit = Path.join(root, ".git")
        if let info = POSIX.lstat(dotGit), info.st_mode & S_IFMT == S_IFREG,
            let link = read(dotGit)?.split(separator: "\n").first, link.hasPrefix("gitdir:")
        {
            var gitDirectory = String(link.dropFirst(7)).trimmingSpaces
            if !gitDirectory.hasPrefix("/") { gitDirectory = Path.join(root, gitDirectory) }
            files.append(Path.join(gitDirectory, "config.worktree"))
            if let common = read(Path.join(gitDirectory, "commondir"))?.trimmingSpaces.split(separator: "\n").first {
                let commonDirectory = common.hasPrefix("/") ? String(common) : Path.join(gitDirectory, String(common))
                files.append(Path.join(commonDirectory, "config"))
            } else {
                files.append(Path.join(gitDirectory, "config"))
            }
        } else {
            files.append(Path.join(dotGit, "config"))
        }
        if let global = POSIX.environment("GIT_CONFIG_GLOBAL") {
            files.append(global)
        } else {
            let home = POSIX.environment("HOME") ?? ""
            let xdg = POSIX.environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
            files += [xdg + "/git/config", home + "/.gitconfig"]
        }
        files.append(POSIX.environment("GIT_CONFIG_SYSTEM") ?? "/etc/gitconfig")
        return files
    }

    /// Whether a git config text defines `merge.kanban.driver`.
    static func registersDriver(_ text: String) -> Bool {
        var inSection = false
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingSpaces
            if line.hasPrefix("[") {
                let header = String(line.dropFirst().prefix(while: { $0 != "]" })).replacing("\t", with: " ")
                let words = header.split(separator: " ", maxSplits: 1).map { String($0).trimmingSpaces }
                let isKanban = words.count == 2 && words[0].lowercased() == "merge" && words[1] == "\"kanban\""
                inSection = isKanban || header.lowercased() == "merge.kanban"
                continue
            }
            if inSection, let equals = line.firstIndex(of: "="),
                line[..<equals].trimmingSpaces.lowercased() == "driver"
            {
                return true
            }
        }
        return false
    }

    /// A small text file, or `nil` if it cannot be read (or is over 1 MiB).
    private static func read(_ path: String) -> String? {
        guard let info = POSIX.lstat(path), info.st_size <= 1 << 20,
            let fd = try? POSIX.open(path, O_RDONLY | O_NONBLOCK)
        else { return nil }
        defer { close(fd) }
        guard let bytes = try? POSIX.readAll(fd, sizeHint: Int(info.st_size)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension App {
    /// ``MergeDriverCheck/unregisteredNote(for:)`` for the kanban file, if any, as notes.
    func unregisteredMergeDriverNotes() -> [String] {
        guard !options.quiet, !options.json, let store = try? Store.locate(file: options.file) else { return [] }
        return MergeDriverCheck.unregisteredNote(for: store.path).map { [$0] } ?? []
    }
}
