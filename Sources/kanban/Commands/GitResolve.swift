import Glibc
import KanbanCore

extension Commands {
    static let gitResolve = CommandSpec(
        "git resolve", usage: [.optional([.path("PATH")])],
        summary: "merge the kanban file of an unfinished git merge, rebase or cherry-pick card by card",
        details: """
            Merges the kanban file (PATH, else the one kanban would use) from the three versions
            git keeps while a merge, rebase or cherry-pick stops on it (base, ours, theirs) by
            the rules of 'kanban merge', and writes the result to the work tree in one
            transaction, whatever the work tree held: git's conflict markers from a text merge
            in a clone without the driver, or ours alone where the driver's command failed. A
            file added on both sides merges from an empty base. Then: git add PATH, and
            git merge --continue (rebase, cherry-pick). Exit 0: merged; 1: merged with
            conflicts, keeping ours (as 'kanban merge'), or nothing to resolve.
            """,
        examples: ["kanban git resolve", "kanban git resolve team/kanban.json"],
        build: { arguments throws(CLIError) in
            try arguments.operandCount()
            return .gitResolve(path: arguments.operands.first)
        })
}

extension App {
    /// `kanban git resolve [PATH]`: the kanban file of an unfinished git merge (rebase,
    /// cherry-pick, revert), merged card by card from the three versions in git's index,
    /// written to the work tree in one transaction, whatever the work tree held: git's
    /// conflict markers, or ours alone where the driver failed (README: Working together).
    func gitResolve(path argument: String?) throws(CLIError) -> CommandOutput {
        let store = try Store.locate(file: argument ?? options.file)
        let location = try GitLocation.of(
            store.path, hint: "'kanban git resolve' merges the kanban file of an unfinished git merge")
        let stages = try GitStages.unmerged(location)
        let operation = try GitOperation.inProgress(at: location.root)
        guard let stages else {
            guard let operation else {
                throw .git(
                    "no merge, rebase or cherry-pick is in progress in \(q(location.root)); there is nothing to resolve")
            }
            throw .git(
                "\(q(location.path)) is not unmerged in the \(operation.name) in progress (git status shows it); "
                    + "there is nothing to resolve")
        }
        let name = { (stage: Int) in ":\(stage):\(location.path)" }
        func version(_ stage: Int, _ side: String) throws(CLIError) -> (kanban: Kanban, format: KanbanFile.Format) {
            guard let object = stages[stage] else {
                if stage == 1 { return (Kanban.empty, .current) }
                throw .git(
                    "\(q(location.path)) was deleted on one side (\(side)) and changed on the other; keep it: "
                        + "git add \(ShellQuote.word(location.path)); or delete it: "
                        + "git rm \(ShellQuote.word(location.path))")
            }
            let result = try Git.run(["cat-file", "blob", object], in: location.root)
            guard result.succeeded else { throw .git("git cannot show \(q(name(stage))): \(result.message)") }
            if stage == 1 && result.stdout.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                return (Kanban.empty, .current)
            }
            do {
                return try Store.decode(result.stdout, name: name(stage))
            } catch {
                throw .badInput("\(side): \(error.message); nothing was written")
            }
        }
        let ours = try version(2, "ours")
        let result = try Self.merged(base: try version(1, "base"), ours: ours, theirs: try version(3, "theirs"))
        _ = try store.update(recording: recording("git resolve"), unreadable: ours.kanban) {
            (kanban: inout Kanban, _: TransactionHistory) throws(CLIError) in
            let change = Kanban.diff(from: kanban, to: result.kanban)
            kanban = result.kanban
            return TransactionOutcome(change: change)
        }
        let shown = Self.pathFromHere(store.path)
        var next = ["git add \(ShellQuote.word(shown))"]
        if let operation { next.append("git \(operation.name) --continue") }
        let text =
            if options.json {
                JSONObject { object in
                    object.add("command", "git resolve")
                    object.add("path", location.path)
                    object.add("operation", operation?.name)
                    object.add("conflicts", result.conflicts.count)
                    object.add("next", next)
                }.line
            } else if options.quiet {
                ""
            } else {
                "merged \(q(location.path)) card by card from git's base, ours and theirs"
                    + "\(stages[1] == nil ? " (no base: the file was added on both sides)" : "")"
                    + "\(result.conflicts.isEmpty ? "" : ", keeping ours where both sides changed a field (see above)")"
                    + "; next: \(next.joined(separator: ", then "))\n"
            }
        var output = CommandOutput(text, exit: result.conflicts.isEmpty ? .success : .refused)
        output.addNotesAndConflicts(of: result, file: argument ?? options.file ?? "kanban.json", gitPath: nil)
        return output
    }

    /// `path` from the current directory when it is under it, else as it is.
    private static func pathFromHere(_ path: String) -> String {
        guard path.hasPrefix("/"), let bytes = try? Surroundings.current.currentDirectory(),
            let here = String(validating: bytes, as: UTF8.self), path.hasPrefix(Path.join(here, ""))
        else { return path }
        return String(path.dropFirst(Path.join(here, "").count))
    }
}

/// The versions of an unmerged path in git's index: stage 1 the base, 2 ours, 3 theirs.
enum GitStages {
    /// Each stage's object id, or `nil` when the path is not unmerged.
    static func unmerged(_ location: GitLocation) throws(CLIError) -> [Int: String]? {
        // A pathspec taken literally: a kanban file named `*.json` is that one file.
        let result = try Git.run(
            ["--literal-pathspecs", "ls-files", "-u", "-z", "--", location.path], in: location.root)
        guard result.succeeded else { throw .git("git cannot list the unmerged files: \(result.message)") }
        var stages: [Int: String] = [:]
        // Entries are `MODE OBJECT STAGE\tPATH`, each ended by a NUL.
        for entry in result.stdout.split(separator: 0) {
            guard let tab = entry.firstIndex(of: UInt8(ascii: "\t")),
                String(decoding: entry[(tab + 1)...], as: UTF8.self) == location.path
            else { continue }
            let fields = String(decoding: entry[..<tab], as: UTF8.self).split(separator: " ")
            guard fields.count == 3, let stage = Int(fields[2]), (1...3).contains(stage),
                fields[1].allSatisfy(\.isHexDigit)
            else { continue }
            stages[stage] = String(fields[1])
        }
        return stages.isEmpty ? nil : stages
    }
}

/// What git is in the middle of, by the files it keeps meanwhile.
enum GitOperation {
    case merge, rebase, cherryPick, revert, am

    /// The git command that continues it.
    var name: String {
        switch self {
        case .merge: "merge"
        case .rebase: "rebase"
        case .cherryPick: "cherry-pick"
        case .revert: "revert"
        case .am: "am"
        }
    }

    /// The operation in progress in the work tree at `root`, if any.
    static func inProgress(at root: String) throws(CLIError) -> GitOperation? {
        let names = ["rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "REVERT_HEAD", "MERGE_HEAD"]
        let result = try Git.run(["rev-parse"] + names.flatMap { ["--git-path", $0] }, in: root)
        let paths = result.output.split(separator: "\n").map {
            $0.hasPrefix("/") ? String($0) : Path.join(root, String($0))
        }
        guard result.succeeded, paths.count == names.count else {
            throw .git("git cannot say what is in progress: \(result.message)")
        }
        let exists = { (index: Int) in POSIX.lstat(paths[index]) != nil }
        if exists(0) { return .rebase }
        if exists(1) { return POSIX.lstat(Path.join(paths[1], "applying")) != nil ? .am : .rebase }
        if exists(2) { return .cherryPick }
        if exists(3) { return .revert }
        if exists(4) { return .merge }
        return nil
    }
}

// MARK: - As parsed

/// `kanban git resolve [PATH]`: merge the kanban file of an unfinished git merge from git's index.
struct GitResolveCommand: ParsedCommand {
    var path: String?

    var changesFile: Bool { true }

    func run(in app: App) throws(CLIError) -> CommandOutput { try app.gitResolve(path: path) }
}

extension Command {
    static func gitResolve(path: String?) -> Command { Command(GitResolveCommand(path: path)) }
}
