// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Footlight",
    products: [
        .library(name: "FootlightJSON", targets: ["FootlightJSON"]),
        .library(name: "Footlight", targets: ["Footlight"]),
        .library(name: "FootlightServer", targets: ["FootlightServer"]),
        .library(name: "FootlightRedis", targets: ["FootlightRedis"]),
        .library(name: "FootlightTesting", targets: ["FootlightTesting"]),
        .executable(name: "footlight-demo", targets: ["FootlightDemo"]),
    ],
    dependencies: [
        // OrderedDictionary keeps JSON object members in document order.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Combine's API on Linux, so Directors compile unchanged against Apple's Combine.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // The server-side Swift logging API; apps plug in their own backend.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The demo's command line.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // HMAC-SHA256 for resume tokens, with a constant-time check (BoringSSL on Linux);
        // scrypt (_CryptoExtras) for the demo's passwords.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // SQLite for the demo's accounts, lots and bids: migrations, WAL, typed rows (on
        // Debian's libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // How Swift servers are started and stopped: `Server` is a `Service`, so an app runs
        // it in a `ServiceGroup` beside its other services, with graceful shutdown on
        // SIGTERM/SIGINT (as Hummingbird and Vapor are run).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // FootlightTesting's failure output: `SceneTester` prints a structural diff of the
        // expected against the actual document or commands (as TCA's `TestStore` does).
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        // gzip for static files (zlib: Debian's zlib1g-dev, which libwebsockets-dev needs too).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // Redis for the pub/sub backplane and shared services of several nodes.
        .systemLibrary(
            name: "CHiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        .target(
            name: "FootlightJSON",
            dependencies: [
                "CJansson",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            // Double rounding (`Int64(exactly:)`) calls libm; Foundation would pull it in,
            // but FootlightJSON does not import Foundation.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        .target(
            name: "Footlight",
            dependencies: [
                "FootlightJSON",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
                .product(name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(
            name: "FootlightServer",
            dependencies: [
                "Footlight",
                "FootlightJSON",
                "CLibWebSockets",
                "CZlib",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The browser runtime, shipped with the framework and served from here whatever
            // an app's public folder holds (`StaticAssets`), found through `Bundle.module`; and
            // development mode's page script, apart from it (StaticAssets+Development.swift).
            resources: [.copy("Runtime"), .copy("DevelopmentScript")]
        ),
        .target(
            name: "FootlightRedis",
            dependencies: [
                "Footlight",
                "FootlightJSON",
                "CHiredis",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "FootlightTesting",
            dependencies: [
                "Footlight",
                "FootlightJSON",
                "FootlightServer",
                "FootlightRedis",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]
        ),
        // The framework tests' own fixtures: probe scenes (a counter, an about modal, a keyed
        // lot list with push navigation) and a probe app with deep links, so no framework
        // test depends on the demo.
        .target(
            name: "FootlightProbes",
            dependencies: ["Footlight", "FootlightJSON"],
            path: "Tests/Probes"
        ),
        // Examples, apart from the framework: the gallery (one runtime feature per scene,
        // `footlight-demo --app examples`), the kiosk (the auction product, `--app auction`;
        // its target keeps the name DemoApp) and their command line.
        .target(
            name: "Gallery",
            dependencies: ["Footlight", "FootlightJSON"],
            path: "Sources/Examples/Gallery"
        ),
        .target(
            name: "DemoApp",
            dependencies: [
                "Footlight",
                // The kiosk's HTTP routes (its bids as CSV, its lots as JSON).
                "FootlightServer",
                "FootlightRedis",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Examples/DemoApp"
        ),
        // TodoMVC (tastejs's app spec, `--app todomvc`): each visitor's list in SQLite, live in
        // every tab of theirs, its filters as addresses.
        .target(
            name: "TodoMVC",
            dependencies: ["Footlight", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/Examples/TodoMVC"
        ),
        .executableTarget(
            name: "FootlightDemo",
            dependencies: [
                "DemoApp",
                "Gallery",
                "TodoMVC",
                "Footlight",
                "FootlightServer",
                "FootlightRedis",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Examples/FootlightDemo"
        ),
        // Tools: benchmarks, the load generator and their support, apart from the framework.
        .target(
            name: "BenchSupport",
            path: "Sources/Tools/BenchSupport"
        ),
        .executableTarget(
            name: "FootlightBench",
            dependencies: ["FootlightJSON", "Footlight", "FootlightServer", "BenchSupport"],
            path: "Sources/Tools/FootlightBench"
        ),
        .executableTarget(
            name: "FootlightFanout",
            dependencies: ["FootlightServer", "FootlightRedis", "FootlightTesting", "DemoApp", "BenchSupport"],
            path: "Sources/Tools/FootlightFanout"
        ),
        .executableTarget(
            name: "FootlightUploads",
            dependencies: ["Footlight", "FootlightJSON", "FootlightServer", "FootlightTesting", "BenchSupport"],
            path: "Sources/Tools/FootlightUploads"
        ),
        .executableTarget(
            name: "FootlightRestart",
            dependencies: ["FootlightServer", "FootlightTesting", "FootlightJSON", "BenchSupport"],
            path: "Sources/Tools/FootlightRestart"
        ),
        .executableTarget(
            name: "FootlightLoad",
            dependencies: ["FootlightServer", "FootlightJSON", "BenchSupport"],
            path: "Sources/Tools/FootlightLoad"
        ),
        .testTarget(
            name: "FootlightJSONTests",
            dependencies: ["FootlightJSON", "FootlightTesting"]
        ),
        .testTarget(
            name: "FootlightTests",
            dependencies: ["Footlight", "FootlightTesting", "FootlightProbes"]
        ),
        .testTarget(
            name: "DemoAppTests",
            dependencies: [
                "DemoApp", "Gallery", "TodoMVC", "Footlight", "FootlightServer", "FootlightTesting", "FootlightJSON",
                "FootlightRedis",
                // To write a database as an older version of the demo left it.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "FootlightServerTests",
            dependencies: [
                "FootlightServer", "FootlightTesting", "FootlightJSON", "FootlightProbes",
                // SHA-1 for the handshake of the raw WebSocket server the client-core tests use.
                .product(name: "Crypto", package: "swift-crypto"),
                // A server run in a ServiceGroup, shut down gracefully.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "FootlightRedisTests",
            dependencies: ["FootlightRedis", "Footlight", "FootlightJSON", "FootlightServer", "FootlightTesting"]
        ),
        .testTarget(
            name: "CLibraryTests",
            dependencies: ["CJansson", "CLibWebSockets"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets, declared only for `scripts/fuzz` (FOOTLIGHT_FUZZ=1): they have no
// `main` of their own (libFuzzer's, which only `swift build --sanitize=fuzzer` links
// in, calls their `LLVMFuzzerTestOneInput`), so every other build leaves them out.
if Context.environment["FOOTLIGHT_FUZZ"] == "1" {
    package.targets += [
        .executableTarget(
            name: "ClientMessageFuzzer",
            dependencies: ["FootlightJSON", "FootlightServer"],
            path: "Sources/Tools/ClientMessageFuzzer"
        ),
        .executableTarget(
            name: "JSONPatchFuzzer",
            dependencies: ["FootlightJSON"],
            path: "Sources/Tools/JSONPatchFuzzer"
        ),
        .executableTarget(
            name: "StageLifetimeFuzzer",
            dependencies: ["Footlight", "FootlightJSON"],
            path: "Sources/Tools/StageLifetimeFuzzer"
        ),
    ]
}
