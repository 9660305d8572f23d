// swift-tools-version: 6.1
import PackageDescription

/// Strictness shared by every target, applied in one place (as swift-log does).
let strictSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // Release builds drop the run-time exclusivity checks (swift_beginAccess on every access to a class's
    // stored property), measured at about 6% of `analyze`; debug builds and tests keep them, and the
    // compile-time checks stay on everywhere. Overflow checks are unaffected (this is not -Ounchecked).
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

var package = Package(
    name: "hig-audit",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hig-audit", targets: ["HIGAuditCLI"]),
        .library(name: "HIGAuditCore", targets: ["HIGAuditCore"]),
        .library(name: "HIGAuditIO", targets: ["HIGAuditIO"]),
        .library(name: "HIGAuditStore", targets: ["HIGAuditStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // SHA-256 of the nightly job's inputs, with the CPU's SHA instructions (see HIGAuditStore/SHA256.swift).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // The dashboard's HTML templates (Dashboards/), which a team may restyle without a rebuild.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // libzstd, used directly (Debian: libzstd-dev).
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // zlib, for gzip-compressed exports (Debian: zlib1g-dev).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The pure core: events, decoding of bytes in memory, session engine, rules, tables. No I/O.
        .target(name: "HIGAuditCore"),
        // I/O at the edges: zstd/NDJSON input, writers, configuration files.
        .target(
            name: "HIGAuditIO",
            dependencies: [
                "HIGAuditCore", "CZstd", "CZlib",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The results store of the nightly job, queries, comparisons and exports (SQLite through GRDB).
        .target(
            name: "HIGAuditStore",
            dependencies: [
                "HIGAuditCore", "HIGAuditIO", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for what GRDB does not expose: the authorizer and progress handler of `--sql`.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The static HTML dashboard: a model built from the store's tables, rendered by Mustache templates.
        .target(
            name: "HIGAuditDashboard",
            dependencies: [
                "HIGAuditCore", "HIGAuditIO", "HIGAuditStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // Realistic log generator (`hig-audit sample`), also used by the benchmarks.
        .target(name: "HIGAuditSample", dependencies: ["HIGAuditCore", "HIGAuditIO"]),
        // The thin executable.
        .executableTarget(
            name: "HIGAuditCLI",
            dependencies: [
                "HIGAuditCore", "HIGAuditIO", "HIGAuditSample", "HIGAuditStore", "HIGAuditDashboard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "HIGAuditCoreTests", dependencies: ["HIGAuditCore"]),
        .testTarget(name: "HIGAuditIOTests", dependencies: ["HIGAuditIO", "HIGAuditCore", "CZstd"]),
        // The CLI too: the kill-recovery test runs `hig-audit nightly` as a process and SIGKILLs it.
        .testTarget(
            name: "HIGAuditStoreTests",
            dependencies: ["HIGAuditStore", "HIGAuditCore", "HIGAuditIO", "HIGAuditCLI", "HIGAuditSample"],
            // A store made by an earlier release, read from the source tree by path.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "HIGAuditDashboardTests",
            dependencies: ["HIGAuditDashboard", "HIGAuditStore", "HIGAuditCore", "HIGAuditCLI", "HIGAuditSample"],
            // The browser test's PNG reader, run with python3.
            exclude: ["png-summary.py"]
        ),
        .testTarget(name: "HIGAuditSampleTests", dependencies: ["HIGAuditSample", "HIGAuditCore", "HIGAuditIO"]),
        .testTarget(
            name: "HIGAuditCLITests",
            dependencies: ["HIGAuditCLI", "HIGAuditCore", "HIGAuditIO", "HIGAuditSample"],
            // Read from the source tree by path (as `SampleLogs` is), not bundled as resources.
            exclude: ["Golden", "Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSwiftSettings
}
