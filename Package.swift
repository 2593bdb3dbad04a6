// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Footlight",
    products: [
        .library(name: "FootlightJSON", targets: ["FootlightJSON"])
    ],
    dependencies: [
        // OrderedDictionary keeps JSON object members in document order.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0")
    ],
    targets: [
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
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
        .executableTarget(
            name: "FootlightBench",
            dependencies: ["FootlightJSON"]
        ),
        .testTarget(
            name: "FootlightJSONTests",
            dependencies: ["FootlightJSON"]
        ),
        .testTarget(
            name: "CLibraryTests",
            dependencies: ["CJansson", "CLibWebSockets"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
