/// git's conflict markers, as its text merge leaves them in a file: a line that starts with
/// seven `<`, `|` (diff3 style), `=` or `>`, then ends or goes on after a space.
enum ConflictMarkers {
    /// The first line of each kind of marker, in the order the kinds first appear; empty
    /// unless the bytes have a `<<<<<<<` line (a `=======` alone is not a merge's).
    static func find(in bytes: [UInt8]) -> [(marker: String, line: Int)] {
        var found: [(marker: String, line: Int)] = []
        var line = 1
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            if let marker = marker(bytes[start..<end]), !found.contains(where: { $0.marker == marker }) {
                found.append((marker, line))
            }
            start = end + 1
            line += 1
        }
        return found.contains { $0.marker == "<<<<<<<" } ? found : []
    }

    private static func marker(_ line: ArraySlice<UInt8>) -> String? {
        guard line.count >= 7, let first = line.first, "<|=>".utf8.contains(first),
            line.prefix(7).allSatisfy({ $0 == first })
        else { return nil }
        let rest = line.dropFirst(7)
        guard rest.isEmpty || rest.first == UInt8(ascii: " ") || rest.first == UInt8(ascii: "\r") else { return nil }
        return String(repeating: Character(Unicode.Scalar(first)), count: 7)
    }
}
