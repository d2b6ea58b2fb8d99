import KanbanCore

// The one way the command line writes JSON besides the kanban file's codec: reports, `log`,
// `undo`, `merge`, `git setup`/`check`, errors (README: JSON shapes). Members are written in
// the order they are added, on one line, strings escaped as the kanban file escapes them.

/// A value the command line can write as JSON.
protocol JSONOutput {
    /// The value as JSON text.
    var json: String { get }
}

/// A JSON object, written member by member in the order given.
struct JSONObject: JSONOutput {
    private var members: [String] = []

    init() {}

    /// An object whose members `build` adds.
    init(_ build: (inout JSONObject) -> Void) {
        build(&self)
    }

    /// Adds the member `key`: `value`.
    mutating func add(_ key: String, _ value: some JSONOutput) {
        members.append(JSON.quoted(key) + ":" + value.json)
    }

    /// Adds the member `key`: `value`, unless `value` is `nil`.
    mutating func addIfPresent(_ key: String, _ value: (some JSONOutput)?) {
        if let value { add(key, value) }
    }

    /// The object `written` (an object's JSON, as the kanban file's codec writes it) with
    /// the members of `other` after its own.
    init(written: String, adding other: JSONObject) {
        let inside = written.dropFirst().dropLast()  // its braces
        members = inside.isEmpty ? [] : [String(inside)]
        merge(other)
    }

    /// Adds every member of `other`, after those already added.
    mutating func merge(_ other: JSONObject) {
        members += other.members
    }

    var json: String { "{" + members.joined(separator: ",") + "}" }

    /// The object on a line of its own, as a command prints it.
    var line: String { json + "\n" }
}

extension String: JSONOutput {
    var json: String { JSON.quoted(self) }
}

extension Int: JSONOutput {
    var json: String { String(self) }
}

extension Bool: JSONOutput {
    var json: String { self ? "true" : "false" }
}

extension Optional: JSONOutput where Wrapped: JSONOutput {
    var json: String { self?.json ?? "null" }
}

extension Array: JSONOutput where Element: JSONOutput {
    var json: String { "[" + map(\.json).joined(separator: ",") + "]" }
}
