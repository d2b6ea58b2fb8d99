import KanbanCore

/// Everything that makes `kanban` exit non-zero. Each case maps to exactly one exit code
/// and one stable JSON `code`, in the one exhaustive switch below.
enum CLIError: Error, Equatable {
    /// The command line is wrong; `command` names the command whose help to point at.
    case usage(String, command: String?)
    /// Text given as arguments or on stdin breaks the title rules.
    case badInput(String)
    /// The core refused: unknown or ambiguous reference, range, limit, title.
    case refused(KanbanError)
    /// The kanban file is not valid JSON or breaks the schema.
    case corruptFile(path: String, line: Int, message: String)
    /// The kanban file was written by a newer kanban.
    case unsupportedVersion(path: String, version: Int)
    /// No kanban file where one was looked for.
    case noFile(String)
    /// `init` found a file already there.
    case exists(path: String)
    /// `export -o FILE` found a file already there, and no `--force`.
    case outputExists(path: String)
    /// A new file could not be created; the message says which and why.
    case cannotCreate(String)
    /// The file could not be read or written; the message says which, why, and what was kept.
    case io(String)
    /// Another kanban process held the lock for longer than the wait.
    case locked(path: String, seconds: Double)
    /// The file's history is missing or cannot be read (for `log`, `undo`, `redo`).
    case historyUnavailable(String)
    /// An error of one line of a batch script (1-based, counting every line).
    indirect case atLine(Int, CLIError)
    /// git is missing, or refused: not a work tree, an unknown revision, a path not in it.
    case git(String)
}

/// The exit codes of SPEC §5, named after `sysexits.h`.
enum ExitCode: Int32 {
    case success = 0
    case refused = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case cannotCreate = 73
    case ioError = 74
    case tempFail = 75
}

extension CLIError {
    /// The exit code and the JSON `code`.
    var status: (exit: ExitCode, code: String) {
        switch self {
        case .usage: (.usage, "usage")
        case .badInput: (.dataError, "bad_input")
        case .refused(let error): error.status
        case .corruptFile: (.dataError, "corrupt_file")
        case .unsupportedVersion: (.dataError, "corrupt_file")
        case .noFile: (.noInput, "no_file")
        case .exists, .outputExists: (.cannotCreate, "exists")
        case .cannotCreate: (.cannotCreate, "io")
        case .io: (.ioError, "io")
        case .locked: (.tempFail, "locked")
        case .atLine(_, let error): error.status
        case .historyUnavailable: (.dataError, "no_history")
        case .git: (.refused, "git")
        }
    }

    /// The error itself, without the lines of a batch it happened at.
    var innermost: CLIError {
        if case .atLine(_, let error) = self { return error.innermost }
        return self
    }

    /// What went wrong and what to do, without the `kanban: error: ` prefix.
    var message: String {
        switch self {
        case .usage(let message, _), .badInput(let message):
            message
        case .refused(let error):
            error.message
        case .corruptFile(let path, let line, let message):
            "\(q(path)):\(line): \(message); the file was left untouched"
        case .unsupportedVersion(let path, let version):
            "\(q(path)) is kanban file version \(version); this kanban reads version \(KanbanFile.version) "
                + "and older, so upgrade kanban; the file was left untouched"
        case .noFile(let message):
            message
        case .exists(let path):
            "\(q(path)) already exists; kanban init never overwrites a file (remove it, or pick another path with --file)"
        case .outputExists(let path):
            "\(q(path)) already exists; use --force to replace it, or write to standard output"
        case .cannotCreate(let message), .io(let message):
            message
        case .historyUnavailable(let message), .git(let message):
            message
        case .atLine(let line, let error):
            "line \(line): \(error.message)"
        case .locked(let path, let seconds):
            "\(q(path)) stayed locked by another kanban process for \(seconds.formattedSeconds)s; nothing was written; "
                + "try again (KANBAN_LOCK_TIMEOUT sets the wait in seconds)"
        }
    }
}

extension KanbanError {
    /// The exit code and the JSON `code` of a refusal.
    var status: (exit: ExitCode, code: String) {
        switch self {
        case .itemNotFound, .itemArchived, .boardNotFound, .anchorNotInBoard, .notArchived, .invalidLocation: (.refused, "not_found")
        case .restoreNeedsBoard: (.refused, "not_found")
        case .conflict: (.refused, "conflict")
        case .ambiguousItem, .ambiguousPrefix: (.refused, "ambiguous")
        case .indexOutOfRange, .boardIndexOutOfRange, .anchorIsMoved: (.refused, "out_of_range")
        case .wipLimit: (.refused, "wip_limit")
        case .boardNotEmpty: (.refused, "not_empty")
        case .duplicateBoard: (.refused, "duplicate")
        case .noBoards: (.refused, "not_found")
        case .invalidTitle, .invalidValue: (.dataError, "bad_input")
        case .duplicateID, .corruptFile, .unsupportedVersion: (.dataError, "corrupt_file")
        }
    }

    var message: String {
        switch self {
        case .itemNotFound(let reference, let suggestions):
            if suggestions.isEmpty {
                "no item \(q(reference)); an item is an id, an exact title, BOARD:N or the start of an id "
                    + "(see 'kanban list')"
            } else {
                "no item \(q(reference)); did you mean "
                    + suggestions.map { "\(q($0.title)) (\($0.id), \(describe($0)))" }.joined(separator: " or ") + "?"
            }
        case .itemArchived(let reference, let card):
            "\(q(reference)) is archived (\(card.id), \(describe(card))); bring it back with "
                + "'kanban restore \(card.id)', or see it with 'kanban show \(card.id)'"
        case .ambiguousItem(let reference, let candidates, let total):
            "\(q(reference)) matches \(total) items: "
                + candidates.map { "\($0.id) (\(describe($0)))" }.joined(separator: ", ")
                + (total > candidates.count ? ", and \(total - candidates.count) more" : "")
                + "; use an id or BOARD:N"
        case .ambiguousPrefix(let reference, let candidates, let total):
            "\(q(reference)) is the start of \(total) ids: "
                + candidates.map { "\($0.id) \(q($0.title)) (\(describe($0)))" }.joined(separator: ", ")
                + (total > candidates.count ? ", and \(total - candidates.count) more" : "")
                + "; type more of the id"
        case .boardNotFound(let name, let suggestions, let boards):
            "no board named \(q(name))"
                + (suggestions.isEmpty ? "" : " (did you mean \(suggestions.map(q).joined(separator: " or "))?)")
                + (boards.isEmpty
                    ? "; there are no boards" : "; boards: \(boards.map(Escape.visible).joined(separator: ", "))")
        case .indexOutOfRange(let index, let board, let range):
            if let range {
                "index \(index) is out of range for \(q(board)); use \(range.lowerBound)…\(range.upperBound)"
            } else {
                "index \(index) is out of range: \(q(board)) is empty"
            }
        case .boardIndexOutOfRange(let index, let range):
            "board index \(index) is out of range; use " + (range.map { "\($0.lowerBound)…\($0.upperBound)" } ?? "0")
        case .anchorNotInBoard(let anchor, let board):
            "\(q(anchor.title)) (\(anchor.id)) is in \(q(anchor.board)), not in \(q(board)); "
                + "--before and --after name an item in the destination board"
        case .anchorIsMoved(let anchor):
            "\(q(anchor.title)) (\(anchor.id)) is one of the items being moved; "
                + "--before and --after name an item that stays"
        case .wipLimit(let board, let limit, let current, let resulting):
            "\(q(board)) is limited to \(limit) items and holds \(current); this would make \(resulting). "
                + "Nothing was changed; use --force to go past the limit, or raise it with "
                + ShellQuote.commandLine(["kanban", "board", "limit", board]) + " N"
        case .boardNotEmpty(let board, let count):
            "board \(q(board)) still holds \(count) item\(count == 1 ? "" : "s"); move them first, "
                + "or use --force to remove them with it"
        case .duplicateBoard(let title, let existing):
            title == existing
                ? "a board named \(q(existing)) already exists"
                : "a board named \(q(existing)) already exists (board titles ignore case)"
        case .noBoards:
            "the kanban has no boards; add one with 'kanban board add TITLE'"
        case .invalidTitle(let title, let reason):
            switch reason {
            case .empty: "a title cannot be empty"
            case .controlCharacter, .lineSeparator, .directionalFormatting:
                "title \(q(title)) \(reason.explanation(in: title))"
            case .invisible:
                "a title needs a visible character; this one has only "
                    + title.unicodeScalars.prefix(8).map(\.codePoint).joined(separator: " ")
                    + (title.unicodeScalars.count > 8 ? " …" : "") + " (white space, zero-width or format characters)"
            }
        case .duplicateID(let id):
            "duplicate id \(q(id.rawValue))"
        case .invalidValue(let kind, let value, let reason):
            "invalid \(kind.rawValue) \(q(value)): \(reason)"
        case .restoreNeedsBoard(let item):
            "\(q(item.title)) (\(item.id)) was archived from a board that is gone; "
                + "restore it with --to BOARD"
        case .notArchived(let item):
            "\(q(item.title)) (\(item.id)) is on \(describe(item)), not in the archive"
        case .invalidLocation(let message), .conflict(let message):
            message
        case .corruptFile(let line, let message):
            "line \(line): \(message)"
        case .unsupportedVersion(let version):
            "kanban file version \(version) is newer than this kanban reads (\(KanbanFile.version)); upgrade kanban"
        }
    }
}

/// `value` in single quotes, with anything that could drive a terminal escaped.
func q(_ value: String) -> String {
    "'\(Escape.visible(value))'"
}

private func describe(_ candidate: Candidate) -> String {
    guard let index = candidate.index else { return "archived from \(Escape.visible(candidate.board))" }
    return "\(Escape.visible(candidate.board)):\(index)"
}

extension Double {
    /// `5`, `0.5`: seconds without noise.
    var formattedSeconds: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
