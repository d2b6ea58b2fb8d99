// swift-tools-version: 6.0
import PackageDescription

// Release builds are fully static executables: a kanban command is a short-lived process,
// and without the dynamic linker it starts in a fraction of the time (measured: 0.34 M
// instructions before main is done, against 2.5 M with only the Swift runtime static), and
// it runs on machines without the toolchain. lld, shipped with the toolchain, links them.
let staticRelease: [LinkerSetting] = [
    .unsafeFlags(["-static-executable", "-use-ld=lld"], .when(configuration: .release))
]

// Release code asks for a concrete generic type (`[String: X]`, `Set<ItemID>`) through the
// type's metadata accessor, given the conformances it needs, rather than by its mangled name:
// the runtime then never searches a static executable's thousands of conformance records
// for `String: Hashable` and the like, which cost a 10-card move 0.85 M of its 1.87 M
// instructions (README: Performance). Such flags would keep KanbanCore from being a
// versioned dependency of another package (at tools versions below 6.2); none uses it so.
let directMetadata: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
]

let package = Package(
    name: "kanban",
    products: [
        .library(name: "KanbanCore", targets: ["KanbanCore"]),
        .executable(name: "kanban", targets: ["kanban"]),
        .executable(name: "kanban-bench", targets: ["kanban-bench"]),
    ],
    targets: [
        .target(name: "KanbanCore", swiftSettings: directMetadata),
        // <malloc.h> for Swift: the allocator settings of the kanban executable.
        .target(name: "CMalloc"),
        .executableTarget(
            name: "kanban", dependencies: ["KanbanCore", "CMalloc"], swiftSettings: directMetadata,
            linkerSettings: staticRelease),
        .executableTarget(name: "kanban-bench", dependencies: ["KanbanCore"], linkerSettings: staticRelease),
        .testTarget(name: "KanbanCoreTests", dependencies: ["KanbanCore"]),
        .testTarget(name: "kanbanTests", dependencies: ["kanban", "KanbanCore"]),
    ]
)
