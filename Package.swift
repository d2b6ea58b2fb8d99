// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "kanban",
    products: [
        .library(name: "KanbanCore", targets: ["KanbanCore"]),
        .executable(name: "kanban", targets: ["kanban"]),
    ],
    targets: [
        .target(name: "KanbanCore"),
        .executableTarget(name: "kanban", dependencies: ["KanbanCore"]),
        .testTarget(name: "KanbanCoreTests", dependencies: ["KanbanCore"]),
        .testTarget(name: "kanbanTests", dependencies: ["kanban", "KanbanCore"]),
    ]
)
