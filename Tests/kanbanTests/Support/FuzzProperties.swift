// What must hold for any input to the kanban file reader, the argument parser and the
// batch script reader.
//
// One definition, used twice: the libFuzzer targets in Tests/Fuzz compile this file into
// the kanban module (with -D FUZZING) and trap on a violation; FuzzCorpusTests runs it over
// the committed seeds and every input a fuzzer once found. Pure Swift: no Foundation, no
// Testing, so that it builds under the sanitizers as it is.

import KanbanCore

#if !FUZZING
    @testable import kanban
#endif

public enum FuzzProperties {
    // MARK: - The file reader

    /// Reads `bytes` as a kanban file and returns what is wrong, or nil.
    ///
    /// Reading must succeed or throw a clean ``KanbanError``; a failure names a line that is
    /// in the file. What it reads must encode to a file that is safe to print, reads back to
    /// the same kanban in the current format, and encodes to the same bytes again.
    public static func fileReaderViolation(_ bytes: [UInt8]) -> String? {
        let decoded: (kanban: Kanban, format: KanbanFile.Format)
        do {
            decoded = try KanbanFile.decode(bytes)
        } catch {
            switch error {
            case .corruptFile(let line, let message):
                let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                if !(1...lines).contains(line) {
                    return "the error names line \(line) of a \(lines)-line file: \(message)"
                }
                if message.isEmpty { return "an error with no message" }
            case .unsupportedVersion(let version):
                if version <= KanbanFile.version { return "version \(version) refused as newer" }
            default:
                break
            }
            return nil
        }
        let ids = decoded.kanban.boards.flatMap { $0.items.map(\.id.rawValue) }
        if Set(ids).count != ids.count { return "duplicate ids were read" }
        let encoded = KanbanFile.encode(decoded.kanban)
        if let unsafe = firstControl(in: String(decoding: encoded, as: UTF8.self), allowing: ["\n"]) {
            return "the encoded file holds a raw control character \(unsafe)"
        }
        let again: (kanban: Kanban, format: KanbanFile.Format)
        do {
            again = try KanbanFile.decode(encoded)
        } catch {
            return "the encoded file does not read back: \(error)"
        }
        if again.kanban != decoded.kanban { return "encoding and reading back changed the kanban" }
        if again.format != .current { return "the encoded file is not in the current format" }
        if KanbanFile.encode(again.kanban) != encoded { return "encoding is not deterministic" }
        if decoded.format != .current, (try? KanbanFile.decode(bytes))?.kanban != decoded.kanban {
            return "reading an older format twice gives different ids"
        }
        // Cards that keep their lines (README: Performance): what is written from them is what
        // is written from their fields, for the cards as read and for cards changed since, on
        // this input and on the file written from it (where most lines are kept).
        for (source, plain) in [(bytes, decoded.kanban), (encoded, again.kanban)] {
            for deferring in [false, true] {
                if let problem = keptLinesViolation(source, plain, deferring: deferring) { return problem }
            }
        }
        return nil
    }

    /// Whether reading `source` keeping lines (`deferring` cards or not) reads `plain`, and
    /// writes what `plain` writes, as read and with every other title changed.
    private static func keptLinesViolation(_ source: [UInt8], _ plain: Kanban, deferring: Bool) -> String? {
        guard let kept = try? KanbanFile.decode(source, keepingLines: true, deferringCards: deferring).kanban else {
            return "reading while keeping lines failed where reading did not"
        }
        if kept != plain { return "reading while keeping lines read another kanban" }
        if KanbanFile.encode(kept) != KanbanFile.encode(plain) {
            return "a kept line was written other than its card"
        }
        if let touched = everyOtherTitleChanged(kept), let touchedPlain = everyOtherTitleChanged(plain),
            KanbanFile.encode(touched) != KanbanFile.encode(touchedPlain)
        {
            return "a changed card was written from the line it was read from"
        }
        return nil
    }

    /// The kanban with every other card's title changed (`nil` if that breaks a rule, such as a
    /// title's length).
    private static func everyOtherTitleChanged(_ kanban: Kanban) -> Kanban? {
        var boards = kanban.boards
        for board in boards.indices {
            for index in boards[board].items.indices where index % 2 == 0 { boards[board].items[index].title += "!" }
        }
        return try? Kanban(boards: boards, archive: kanban.archive)
    }

    // MARK: - The argument parser

    /// Parses `arguments` and returns what is wrong, or nil.
    ///
    /// Parsing must give an invocation or a usage error (64), the same every time; a usage
    /// error's message, as text and as JSON, holds no raw control character, whatever was
    /// typed; help for any topic is text or a usage error.
    public static func argumentsViolation(_ arguments: [String]) -> String? {
        let first = parse(arguments)
        guard first == parse(arguments) else { return "parsing the same arguments twice differs" }
        switch first {
        case .success(let invocation):
            guard let topic = (invocation.command.parsed as? HelpCommand)?.topic else { return nil }
            do {
                let text = try Help.text(for: topic)
                if let unsafe = firstControl(in: text, allowing: ["\n"]) { return "help holds \(unsafe)" }
            } catch {
                return usageErrorViolation(error)
            }
        case .failure(let error):
            return usageErrorViolation(error)
        }
        return nil
    }

    private static func parse(_ arguments: [String]) -> Result<Invocation, CLIError> {
        do {
            return .success(try Parser.parse(arguments))
        } catch {
            return .failure(error)
        }
    }

    private static func usageErrorViolation(_ error: CLIError) -> String? {
        let (exit, code) = error.status
        // A title or value typed on the command line that breaks its rule is bad input (65).
        let isBadInput = exit == .dataError && code == "bad_input"
        guard (exit == .usage && code == "usage") || isBadInput else {
            return "a parse error that is neither a usage error nor bad input: \(error)"
        }
        let message = error.message
        if message.isEmpty { return "a usage error with no message" }
        if let unsafe = firstControl(in: message, allowing: []) {
            return "the message holds \(unsafe): \(message)"
        }
        if let unsafe = firstControl(in: errorJSON(code: code, message: message), allowing: ["\n"]) {
            return "the JSON error holds \(unsafe)"
        }
        return nil
    }

    // MARK: - Batch scripts

    /// Reads `bytes` as a `kanban batch` script and returns what is wrong, or nil.
    ///
    /// Reading must give the operations or one error naming a line of the script (a usage
    /// error or bad input, with no raw control character), the same every time; a script
    /// that reads has one operation per line that holds a command. Every line's words, each
    /// quoted in single quotes and joined by spaces, split back to the same words.
    public static func batchViolation(_ bytes: [UInt8]) -> String? {
        let first = operations(bytes)
        guard first.map(\.count) == operations(bytes).map(\.count) else {
            return "reading the same script twice differs"
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        switch first {
        case .success(let operations):
            var previous = 0
            for (line, _) in operations {
                guard line > previous, line <= lines.count else {
                    return "operation at line \(line) after line \(previous), of \(lines.count)"
                }
                previous = line
            }
        case .failure(let error):
            guard case .atLine(let line, let inner) = error else { return "an error that names no line: \(error)" }
            guard (1...lines.count).contains(line) else { return "an error at line \(line) of \(lines.count)" }
            if let violation = usageErrorViolation(inner) { return "line \(line): \(violation)" }
        }
        for raw in lines {
            var line = raw[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self),
                let words = try? ShellWords.split(text[...])
            else { continue }
            // Scalar by scalar: a quote followed by a combining mark is one Character but still
            // a quote to the splitter.
            let quoted = words.map { word in
                var out = "'".unicodeScalars
                for scalar in word.unicodeScalars {
                    if scalar == "'" { out.append(contentsOf: #"'\''"#.unicodeScalars) } else { out.append(scalar) }
                }
                out.append("'")
                return String(out)
            }.joined(separator: " ")
            guard let again = try? ShellWords.split(quoted[...]) else { return "quoted words do not split: \(quoted)" }
            if again != words { return "quoted words split differently: \(words) became \(again)" }
        }
        return nil
    }

    private static func operations(_ bytes: [UInt8]) -> Result<[(Int, Operation)], CLIError> {
        do {
            return .success(try App.operations(inScript: bytes, named: "fuzz"))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Helpers

    /// The first C0 control, DEL or C1 control in `text` that is not in `allowed`, as `U+001B`.
    static func firstControl(in text: String, allowing allowed: Set<Unicode.Scalar>) -> String? {
        for scalar in text.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
            if !allowed.contains(scalar) { return "U+" + String(scalar.value, radix: 16, uppercase: true) }
        }
        return nil
    }

    /// Argument vectors from fuzzer bytes: NUL-separated, as C strings cannot hold a NUL.
    public static func arguments(from bytes: some Collection<UInt8>) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
