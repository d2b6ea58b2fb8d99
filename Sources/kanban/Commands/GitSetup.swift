import Glibc
import KanbanCore

extension Commands {
    static let gitSetup = CommandSpec(
        "git setup", usage: [.optional(Options.dryRun)],
        summary: "make git merge the kanban file card by card in this repository",
        options: [CommandOption(Options.dryRun, "print what would change and change nothing")],
        details: """
            In a git work tree: adds the kanban file (its path from the repository's top) with
            merge=kanban to .gitattributes, registers the driver in this clone's git config
            (merge.kanban.name and merge.kanban.driver, by this kanban's full path, so that a git
            started with another PATH finds it), and adds kanban's files next to it (the lock,
            temporary files, the history) to .gitignore. Running it again changes nothing. A
            .gitattributes or .gitignore that is a symbolic link is refused (exit 1). Commit
            .gitattributes and .gitignore; every clone runs 'kanban git setup' once, as git config
            is not shared.
            """,
        examples: ["kanban git setup", "kanban git setup --dry-run", "kanban -f team/kanban.json git setup"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .gitSetup(dryRun: arguments.flag(Options.dryRun))
        })

    static let gitCheck = CommandSpec(
        "git check", usage: [],
        summary: "check that git merges the kanban file card by card in this clone",
        details: """
            Says whether .gitattributes sends the kanban file to kanban's merge driver, whether
            this clone has the driver registered, and whether its command runs wherever git runs
            it (by its full path, executable, answering --version). Where .gitattributes names
            the driver but the clone lacks it, git merges the file line by line, as text; where
            the command does not run, git leaves ours alone: run 'kanban git setup'. Exit 0 when
            all is set, 1 otherwise.
            """,
        examples: ["kanban git check"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .gitCheck
        })
}

extension App {
    /// `kanban git setup`: `.gitattributes`, this clone's git config and `.gitignore`, so
    /// that git merges the kanban file card by card. Changes only what is missing.
    func gitSetup(dryRun: Bool) throws(CLIError) -> String {
        let location = try GitLocation.of(
            kanbanFileForGit(), hint: "run 'kanban git setup' inside a git repository ('git init' makes one)")
        try GitSetupStep.refuseSymlinks(in: location.root)
        var steps: [GitSetupStep] = []
        if try !GitSetupStep.sendsToDriver(location) {
            steps.append(
                .append(
                    file: ".gitattributes",
                    lines: ["\(GitSetupStep.attributePattern("/" + location.path)) merge=kanban"]))
        }
        for (key, value) in [
            ("merge.kanban.name", GitSetupStep.driverName), ("merge.kanban.driver", Self.driverCommand()),
        ] {
            let current = try Git.run(["config", "--get", key], in: location.root)
            if !current.succeeded || current.output != value { steps.append(.config(key: key, value: value)) }
        }
        let directory = location.path.contains("/") ? Path.directory(of: location.path) + "/" : ""
        let name = Path.name(of: location.path)
        var ignored: [String] = []
        for suffix in ["lock", "tmp", "history"] {
            let examples = suffix == "tmp" ? [".\(name).tmp", ".\(name).tmp.x1y2z3"] : [".\(name).\(suffix)"]
            for example in examples {
                let check = try Git.run(
                    ["check-ignore", "-q", "--no-index", "--", directory + example], in: location.root)
                if check.status != 0 {
                    ignored.append(
                        GitSetupStep.ignorePattern("/" + directory + ".\(name).\(suffix)")
                            + (suffix == "tmp" ? "*" : ""))
                    break
                }
            }
        }
        if !ignored.isEmpty { steps.append(.append(file: ".gitignore", lines: ignored)) }

        if !dryRun {
            for step in steps { try step.apply(in: location.root) }
        }
        if options.json {
            return JSONObject { object in
                object.add("command", "git setup")
                object.add("dryRun", dryRun)
                object.add("changed", !steps.isEmpty && !dryRun)
                object.add("root", location.root)
                object.add("path", location.path)
                object.add("actions", steps.map { $0.describe(dryRun: dryRun) })
            }.line
        }
        if options.quiet { return "" }
        guard !steps.isEmpty else {
            return "git already merges \(q(location.path)) card by card in this clone; nothing to change\n"
        }
        var out = steps.map { $0.describe(dryRun: dryRun) + "\n" }.joined()
        if !dryRun {
            out +=
                "commit .gitattributes and .gitignore; every clone runs 'kanban git setup' once (git config is not shared)\n"
        }
        return out
    }

    /// `kanban git check`: whether git merges the kanban file card by card in this clone:
    /// `.gitattributes` names the driver, this clone registers it, and its command runs
    /// whatever git's `PATH` (README: Working together).
    func gitCheck() throws(CLIError) -> CommandOutput {
        let location = try GitLocation.of(kanbanFileForGit(), hint: "there is no git merge to check")
        let named = try GitSetupStep.sendsToDriver(location)
        let driver = try Git.run(["config", "--get", "merge.kanban.driver"], in: location.root)
        let registered = driver.succeeded && !driver.output.isEmpty
        let problem = registered ? DriverCommand.problem(with: driver.output) : nil
        let ok = named && registered && problem == nil
        let text = gitCheckText(
            path: location.path, named: named, driver: registered ? driver.output : nil, problem: problem, ok: ok)
        return CommandOutput(text, exit: ok ? .success : .refused)
    }

    /// What `git check` prints on stdout: what it found about the file at `location`.
    private func gitCheckText(
        path location: String, named: Bool, driver: String?, problem: String?, ok: Bool
    ) -> String {
        if options.json {
            return JSONObject { object in
                object.add("command", "git check")
                object.add("path", location)
                object.add("attributes", named)
                object.add("driver", driver)
                object.add("problem", problem)
                object.add("ok", ok)
            }.line
        }
        let path = q(location)
        switch (named, driver) {
        case (true, let driver?):
            if let problem {
                return "this clone registers the kanban merge driver for \(path) as \(q(driver)), but "
                    + "\(problem): git would take every merge of the file for a conflict and leave ours alone in "
                    + "the work tree; run 'kanban git setup'\n"
            }
            return "git merges \(path) card by card in this clone: .gitattributes names the kanban merge driver, "
                + "and this clone runs it as \(q(driver))\n"
        case (true, nil):
            return ".gitattributes names the kanban merge driver for \(path), but this clone has none registered: "
                + "git merges the file line by line, as text, and two branches that changed it conflict; "
                + "run 'kanban git setup'\n"
        case (false, _):
            return ".gitattributes does not send \(path) to the kanban merge driver: git merges it line by line, "
                + "as text; run 'kanban git setup'\n"
        }
    }

    /// The kanban file `git setup` and `git check` are about: the one commands would use,
    /// else the `kanban.json` that `init` would create here.
    private func kanbanFileForGit() throws(CLIError) -> String {
        do {
            return try Store.locate(file: options.file).path
        } catch .noFile {
            return try Store.newFile(file: options.file).path
        }
    }

    /// The driver command for git config: `'/path/to/kanban' merge --git %O %A %B %P`, by
    /// the absolute path of this executable, so that a git started with another `PATH` (a
    /// GUI, a hook) finds it (README: Working together).
    static func driverCommand() -> String {
        let arguments = " merge --git %O %A %B %P"
        guard let me = try? POSIX.realpath("/proc/self/exe") else { return "kanban" + arguments }
        return DriverCommand.quoted(me) + arguments
    }
}

/// The command line git runs as the merge driver: git substitutes `%O %A %B %P` (`%%` is
/// `%`) and runs the result with `sh -c`.
enum DriverCommand {
    /// `path` as the first word of the driver: a word for `sh` (README: Security), `%`
    /// doubled for git.
    static func quoted(_ path: String) -> String {
        ShellQuote.word(path).replacingEvery("%", with: "%%")
    }

    /// Why `command` would not run as kanban's driver wherever git runs it, or `nil` when it
    /// does: its program is named by an absolute path, is executable, and answers `--version`
    /// as kanban.
    static func problem(with command: String) -> String? {
        guard let program = firstWord(of: command), !program.isEmpty else {
            return "the command names no program"
        }
        guard program.hasPrefix("/") else {
            return "it names the program \(q(program)) without its path, which a git started with another PATH "
                + "(a GUI, a hook) does not find"
        }
        guard access(program, X_OK) == 0 else {
            return "its program \(q(program)) does not run (\(POSIX.Failure().reason))"
        }
        guard let result = try? Git.runProgram(program, ["--version"]), result.succeeded,
            result.output.hasPrefix("kanban ")
        else {
            return "its program \(q(program)) does not answer '--version' as kanban does"
        }
        return nil
    }

    /// The first word of a `sh` command line, with git's `%%` made `%`: unquoted, in single
    /// or double quotes, or backslash-escaped; `nil` when a quote is left open.
    static func firstWord(of command: String) -> String? {
        var word = ""
        var characters = command.drop(while: { $0 == " " || $0 == "\t" })[...]
        while let character = characters.popFirst() {
            switch character {
            case " ", "\t", "\n", ";", "&", "|":
                return word.replacing("%%", with: "%")
            case "'":
                guard let end = characters.firstIndex(of: "'") else { return nil }
                word += characters[..<end]
                characters = characters[characters.index(after: end)...]
            case "\"":
                while true {
                    guard let next = characters.popFirst() else { return nil }
                    if next == "\"" { break }
                    if next == "\\", let escaped = characters.popFirst() {
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            case "\\":
                if let escaped = characters.popFirst() { word.append(escaped) }
            default:
                word.append(character)
            }
        }
        return word.replacing("%%", with: "%")
    }
}

/// One change `git setup` makes.
enum GitSetupStep {
    /// Lines added at the end of a file at the repository's top.
    case append(file: String, lines: [String])
    /// A key set in this clone's git config.
    case config(key: String, value: String)

    static let driverName = "kanban: merge kanban files card by card"

    /// Refuses a `.gitattributes` or `.gitignore` that is a symbolic link (git 2.32 and
    /// later do not read one): what `setup` added would be written through it, and its
    /// target's text copied into a file that is committed.
    static func refuseSymlinks(in root: String) throws(CLIError) {
        for file in [".gitattributes", ".gitignore"] {
            guard let info = POSIX.lstat(Path.join(root, file)), info.st_mode & S_IFMT == S_IFLNK else { continue }
            throw .git(
                "\(q(file)) is a symbolic link; kanban never writes through one, and git does not read one "
                    + "(git 2.32 and later); replace it with a regular file, then run 'kanban git setup' again; "
                    + "nothing was written")
        }
    }

    /// Whether `.gitattributes` already sends the file to the kanban driver.
    static func sendsToDriver(_ location: GitLocation) throws(CLIError) -> Bool {
        let result = try Git.run(["check-attr", "merge", "--", location.path], in: location.root)
        return result.succeeded && result.output.hasSuffix(": merge: kanban")
    }

    /// A path as a pattern of `.gitignore`: glob characters escaped, and a trailing space.
    static func ignorePattern(_ path: String) -> String {
        var escaped = ""
        // By scalar: `*` followed by a combining mark is one character, but still a glob.
        for scalar in path.unicodeScalars {
            if "*?[\\".unicodeScalars.contains(scalar) { escaped.append("\\") }
            escaped.unicodeScalars.append(scalar)
        }
        if escaped.hasSuffix(" ") { escaped.insert("\\", at: escaped.index(before: escaped.endIndex)) }
        return escaped
    }

    /// A path as a pattern of `.gitattributes`: glob characters escaped, and in C-style
    /// double quotes when it has blanks or quotes (a line splits at blanks).
    static func attributePattern(_ path: String) -> String {
        let escaped = ignorePattern(path)
        guard path.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0 == "\t" }) else { return escaped }
        let quoted = escaped.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\"")
            .replacingEvery("\t", with: "\\t")
        return "\"" + quoted + "\""
    }

    func describe(dryRun: Bool) -> String {
        switch self {
        case .append(let file, let lines):
            return "\(dryRun ? "would add" : "added") \(lines.map(q).joined(separator: ", ")) to \(file)"
        case .config(let key, let value):
            return "\(dryRun ? "would set" : "set") \(key) to \(q(value)) in this clone's git config"
        }
    }

    func apply(in root: String) throws(CLIError) {
        switch self {
        case .append(let file, let lines):
            let path = Path.join(root, file)
            var bytes: [UInt8] = []
            var mode: mode_t?
            if let info = POSIX.lstat(path) {
                mode = info.st_mode & 0o7777
                do throws(POSIX.Failure) {
                    let fd = try POSIX.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
                    defer { close(fd) }
                    bytes = try POSIX.readAll(fd, sizeHint: Int(info.st_size), limit: Store.maximumFileSize)
                } catch {
                    throw .io("cannot read \(q(path)): \(error.reason); nothing was changed")
                }
            }
            if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
            bytes += Array(lines.map { $0 + "\n" }.joined().utf8)
            // A new name of this process's own, never followed: the rename replaces whatever
            // is at `path` without writing through it.
            do throws(POSIX.Failure) {
                try AtomicFile.write(to: path, mode: mode) { (fd: Int32) throws(POSIX.Failure) in
                    try POSIX.writeAll(fd, bytes)
                } commit: { (temporary: String) throws(POSIX.Failure) in
                    try AtomicFile.replace(temporary, at: path)
                }
            } catch {
                throw .io("cannot write \(q(path)): \(error.reason)")
            }
        case .config(let key, let value):
            let result = try Git.run(["config", key, value], in: root)
            guard result.succeeded else { throw .git("cannot set \(key) in git config: \(result.message)") }
        }
    }
}

// MARK: - As parsed

/// `kanban git setup`: register the merge driver in this repository.
struct GitSetupCommand: ParsedCommand {
    var dryRun: Bool

    var changesFile: Bool { !dryRun }
    /// It is what the note would ask for.
    var mayNoteMergeDriver: Bool { false }

    func run(in app: App) throws(CLIError) -> CommandOutput { CommandOutput(try app.gitSetup(dryRun: dryRun)) }
}

/// `kanban git check`: whether git merges the kanban file card by card in this clone.
struct GitCheckCommand: ParsedCommand {
    func run(in app: App) throws(CLIError) -> CommandOutput { try app.gitCheck() }
}

extension Command {
    static func gitSetup(dryRun: Bool) -> Command { Command(GitSetupCommand(dryRun: dryRun)) }
    static let gitCheck = Command(GitCheckCommand())
}
