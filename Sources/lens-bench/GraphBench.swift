import ArgumentParser
import Foundation
import LensCore
import LensGraph

/// Connections at scale: the index against comparing all pairs, on synthetic libraries.
struct GraphBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Time connection finding through the entity index against all pairs, on synthetic libraries.",
        discussion: """
            Each synthetic screenshot has 1-5 entities drawn from pools as large as the library: \
            names (random surnames, 10 % with a one-letter variant or an initial), phone numbers, \
            e-mails and URLs, so that values recur now and then. All pairs is measured up to --brute-force-limit screenshots \
            and must give the same edges.
            """)

    @Option(help: "Library sizes to time through the index.")
    var sizes: [Int] = [1_000, 10_000, 100_000]

    @Option(help: "The largest library also compared all pairs.")
    var bruteForceLimit = 2_000

    func run() throws {
        print("screenshots  entities   edges   index s   all-pairs s   same edges")
        fflush(nil)
        for size in sizes {
            let library = Self.library(size: size, seed: 7)
            let entityCount = library.reduce(0) { $0 + $1.entities.count }
            let (indexed, indexSeconds) = Measure.time { ConnectionFinder.rebuild(library) }
            var brute = "-", same = "-"
            if size <= bruteForceLimit {
                let (reference, seconds) = Measure.time { ConnectionFinder.bruteForce(library) }
                brute = String(format: "%.2f", seconds)
                same = reference == indexed ? "yes" : "NO"
            }
            print(String(format: "%11d %9d %7d %9.2f", size, entityCount, indexed.count, indexSeconds)
                  + brute.leftPadded(14) + same.leftPadded(13))
            fflush(nil) // one line per size as it is measured
        }
    }

    static func library(size: Int, seed: UInt64) -> [ScreenshotEntities] {
        var random = SeededRandom(seed: seed)
        let givens = ["Jon", "John", "Priya", "Katarzyna", "Aarav", "Amara", "José", "Chloé", "Olusegun", "Ingrid", "Mateo", "Yuki"]
        let pool = max(50, size)
        // Random pronounceable surnames of 5-9 letters: unlike "Surname17"/"Surname18", two of
        // them are rarely within the name threshold, as real surnames are.
        let consonants = Array("bcdfghjklmnprstvwz"), vowels = Array("aeiou")
        let surnames = (0..<pool).map { _ -> String in
            let letters = (0..<(5 + random.next(upTo: 5))).map { i in
                i % 2 == 0 ? consonants[random.next(upTo: consonants.count)] : vowels[random.next(upTo: vowels.count)]
            }
            return String(letters).capitalized
        }
        return (0..<size).map { id in
            let entities = (0..<(1 + random.next(upTo: 5))).map { _ -> (type: EntityType, normalized: String) in
                let n = random.next(upTo: pool)
                switch random.next(upTo: 4) {
                case 0:
                    var given = givens[n % givens.count]
                    if random.next(upTo: 10) == 0 { given = String(given.prefix(1)) + "." }
                    var surname = surnames[n]
                    if random.next(upTo: 10) == 0 { surname.removeLast() } // a one-letter variant
                    return (.person, "\(given) \(surname)")
                case 1: return (.phone, "+1415\(String(format: "%07d", n))")
                case 2: return (.email, "user\(n)@example.org")
                default: return (.url, "https://example.org/page/\(n)")
                }
            }
            return ScreenshotEntities(id: Int64(id + 1), entities: entities)
        }
    }
}

/// SplitMix64: the same library on every run.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
