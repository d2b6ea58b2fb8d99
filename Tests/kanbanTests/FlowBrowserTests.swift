import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

// The cumulative flow diagram's SVG in a real browser (README: Flow): headless Chromium
// renders it to a PNG, which python3 decodes with its standard zlib alone, and the picture
// must not be blank and must show every board's color. Skipped, saying so, where chromium
// (Debian package `chromium`) or python3 is not installed.

enum Browser {
    static let chromium = ["chromium", "chromium-browser"].lazy.compactMap(Shells.find).first
    static let python = Shells.find("python3")
}

/// Decodes a PNG (8-bit RGB or RGBA, not interlaced) with the standard library and prints
/// `width height distinct-colors white-pixels`, then `#rrggbb count` for each color asked.
private let pngCounter = #"""
    import sys, zlib, struct
    data = open(sys.argv[1], 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, color, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    bpp = 4 if color == 6 else 3
    stride = width * bpp
    previous = bytearray(stride)
    counts = {}
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for i in range(0, stride, bpp):
            key = '#%02x%02x%02x' % (line[i], line[i + 1], line[i + 2])
            counts[key] = counts.get(key, 0) + 1
        previous = line
    print(width, height, len(counts), counts.get('#ffffff', 0))
    for wanted in sys.argv[2:]:
        print(wanted, counts.get(wanted, 0))
    """#

@Suite("Flow: the SVG in a browser")
struct FlowBrowserTests {
    @Test(
        .enabled(
            if: Browser.chromium != nil && Browser.python != nil,
            "chromium or python3 is not installed (apt-get install chromium python3); skipping the SVG rendering test")
    )
    func chromiumDrawsEveryBoardsBand() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let diagram = FlowSample.diagram(boards: 5, days: 30)
        let (width, height) = (800, 420)
        try sandbox.write(FlowSVG.render(diagram, width: width, height: height), to: "cfd.svg")
        let chromium = try SpawnedProcess.start(
            Browser.chromium!,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + sandbox.path("profile"),
                "--screenshot=" + sandbox.path("cfd.png"), "--window-size=\(width),\(height)",
                "file://" + sandbox.path("cfd.svg"),
            ],
            environment: sandbox.environment(), directory: sandbox.path
        ).wait(timeout: 120)
        try require(chromium.status == 0 && sandbox.exists("cfd.png"), "chromium: \(chromium)")

        let colors = diagram.boards.indices.map(FlowPalette.hex)
        let decoded = try SpawnedProcess.start(
            Browser.python!, ["-c", pngCounter, sandbox.path("cfd.png")] + colors,
            environment: sandbox.environment(), directory: sandbox.path
        ).wait(timeout: 120)
        try require(decoded.status == 0, "python3: \(decoded)")
        let lines = decoded.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let summary = lines[0].compactMap { Int($0) }
        expectEqual(summary.count, 4, "\(decoded.out)")
        expectEqual(Array(summary.prefix(2)), [width, height], "the picture has the window's size")
        expectTrue(summary[2] > diagram.boards.count, "more colors than the bands' alone: \(decoded.out)")
        expectTrue(summary[3] < width * height * 9 / 10, "not blank: \(summary[3]) white pixels")
        // Each band shows, beyond its 14 × 14 square in the legend.
        for (index, line) in lines.dropFirst().enumerated() {
            expectEqual(line.first, colors[index])
            expectTrue((Int(line.last ?? "") ?? 0) > 14 * 14 + 500, "board \(index)'s color \(colors[index]): \(line)")
        }
        expectEqual(lines.count, colors.count + 1)
    }
}
