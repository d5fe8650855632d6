// swift-tools-version: 6.1
import PackageDescription

// Lens: a Linux screenshot-ingestion daemon. Targets form an acyclic graph;
// only LensApp composes the siblings (see README "Design").
let package = Package(
    name: "Lens",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lens", targets: ["lens"]),
        .executable(name: "lens-bench", targets: ["lens-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Pure logic: value types, query parsing, format sniffing. No files, clocks or loggers.
        // Its word lists and the name tagger's weights are data files in its Assets folder,
        // built into the binary by the EmbedAssets plugin.
        .target(name: "LensCore", dependencies: ["CICU"], exclude: ["README.md", "Assets"], plugins: ["EmbedAssets"]),
        // ICU's regular expressions, searched over UTF-16 text LensCore holds (see ICURegex.swift).
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),

        // libtesseract + leptonica through their C APIs.
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]
        ),
        // zbar, to decode QR codes and barcodes in the same pass as OCR.
        .systemLibrary(name: "CZbar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .target(
            name: "LensOCR",
            dependencies: [
                "LensCore", "CTesseract", "CZbar",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"]
        ),
        // libphonenumber (C++) behind a small C interface: find phone numbers in text, format E.164.
        .target(
            name: "CPhoneNumber",
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("protobuf")]
        ),
        // Connections between screenshots that share entities; the mind map's writers.
        .target(name: "LensGraph", dependencies: ["LensCore"], exclude: ["README.md"]),
        // Phone numbers for LensCore's entity extractor, through CPhoneNumber.
        .target(name: "LensPhone", dependencies: ["LensCore", "CPhoneNumber"], exclude: ["README.md"]),
        // zlib, to store recognized text deflated (about half its size; see LensStore/README.md).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // FTS5's ranking with IDFs from Lens's vocabulary (see the file's header).
        .target(name: "CFTS5Rank", linkerSettings: [.linkedLibrary("sqlite3")]),
        // A time limit for one connection's statements (SQLite's progress handler).
        .target(name: "CSQLiteDeadline", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "LensStore",
            dependencies: [
                "LensCore", "CZlib", "CFTS5Rank", "CSQLiteDeadline",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"]
        ),
        // Debian's OpenBLAS: the matrix products of the text-embedding model.
        .systemLibrary(name: "COpenBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        // Text embeddings for search by meaning: a BERT encoder over OpenBLAS, weights mapped from disk.
        .target(name: "LensEmbed", dependencies: ["LensCore", "COpenBLAS"], exclude: ["README.md"]),
        .target(
            name: "LensWatch",
            dependencies: [
                "LensCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"]
        ),
        .target(
            name: "LensApp",
            dependencies: [
                "LensCore", "LensOCR", "LensStore", "LensWatch", "LensPhone", "LensGraph", "LensEmbed",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            exclude: ["README.md"]
        ),
        // The local web page (`lens serve`): a Hummingbird server over LensApp's use cases. No SQL here.
        .target(
            name: "LensWeb",
            dependencies: [
                "LensApp", "LensCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["README.md", "Assets"],
            plugins: ["EmbedAssets"]
        ),
        // `lens mcp`: the library for agents over the Model Context Protocol (stdio), through
        // LensApp's use cases. No SQL here.
        .target(
            name: "LensMCP",
            dependencies: [
                "LensApp", "LensCore",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"]
        ),
        // Turns a target's Assets/* (the page of LensWeb, the word lists of LensCore) into Swift
        // string constants, so the binary needs no files installed beside it.
        .executableTarget(name: "EmbedAssetsTool", path: "Plugins/EmbedAssetsTool"),
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["EmbedAssetsTool"]),
        .executableTarget(
            name: "lens",
            dependencies: [
                "LensApp", "LensCore", "LensWeb", "LensMCP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "lens-bench",
            dependencies: [
                "LensApp", "LensCore", "LensStore", "LensPhone", "LensGraph", "LensOCR", "LensEmbed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // Helpers shared by the test targets only: temp folders, sample paths, text scoring.
        .target(name: "LensTestSupport", dependencies: ["LensCore"], path: "Tests/LensTestSupport"),
        .testTarget(name: "LensCoreTests", dependencies: ["LensCore", "LensTestSupport"]),
        .testTarget(name: "LensWatchTests", dependencies: ["LensWatch", "LensTestSupport"]),
        .testTarget(name: "LensGraphTests", dependencies: ["LensGraph", "LensCore", "LensTestSupport"]),
        .testTarget(name: "LensPhoneTests", dependencies: ["LensPhone", "LensCore"]),
        .testTarget(name: "LensEmbedTests", dependencies: ["LensEmbed", "LensCore", "LensTestSupport"]),
        .testTarget(name: "LensOCRTests", dependencies: ["LensOCR", "LensCore", "LensTestSupport"]),
        .testTarget(name: "LensStoreTests", dependencies: [
            "LensStore", "LensCore", "LensTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "LensAppTests", dependencies: [
            "LensApp", "LensStore", "LensCore", "LensGraph", "LensEmbed", "LensTestSupport",
            .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // Black-box tests of the built `lens` binary; depending on it makes `swift test` build it.
        .testTarget(name: "LensWebTests", dependencies: [
            "LensWeb", "LensApp", "LensCore", "LensTestSupport",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "LensCLITests", dependencies: ["lens", "LensCore", "LensStore", "LensTestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
