// swift-tools-version: 6.1
// The benchmark harness: a separate package that depends on hig-audit by path (as swift-nio keeps its
// benchmarks), so the main package's build and tests stay free of it. See README.md.
import PackageDescription

let package = Package(
    name: "hig-audit-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "hig-audit", path: "../..")],
    targets: [
        .executableTarget(
            name: "IngestThroughput",
            dependencies: [
                .product(name: "HIGAuditCore", package: "hig-audit"),
                .product(name: "HIGAuditIO", package: "hig-audit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
