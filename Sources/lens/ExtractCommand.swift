import ArgumentParser
import Foundation
import LensApp
import LensCore

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print the URLs, e-mails, phone numbers, people, dates, amounts of money and masked secrets in a text or an image.",
        discussion: """
            Reads UTF-8 text on standard input, or recognizes --image first. With --json, prints one \
            JSON object per line: {"end","normalized","start","type","value"}; start and end are \
            UTF-8 byte offsets in the text. Phone numbers become E.164, dates ISO 8601, money \
            "<amount> <ISO 4217 code>", URLs get their scheme and a lower-case host. Secrets (cards, \
            IBANs, keys, passwords, one-time codes, seed phrases) are printed as Lens stores them, \
            masked: {"type":"secret","kind":"card","value":"[card ••••4242]",...}, and no other \
            entity holds them. A date shown without a year ("Tue May 9") is the nearest such day \
            on or before --seen (the image file's time with --image, else now).

            Examples:
              echo 'Call (415) 555-0132 before 03/05/2024' | lens extract --json
              lens extract --image ~/Pictures/Screenshots/receipt.png --region GB
            """)

    @OptionGroup var regionOption: RegionOption

    @Option(help: ArgumentHelp("Recognize this image and extract from its text instead of reading standard input.", valueName: "file"))
    var image: String?

    @Option(help: ArgumentHelp("Tesseract languages for --image, joined with '+'.", valueName: "langs"))
    var languages = "eng"

    @Option(help: ArgumentHelp("When the text was seen, YYYY-MM-DD (for dates shown without a year).", valueName: "date"))
    var seen: String?

    @Flag(help: "Print one JSON object per entity, one per line.")
    var json = false

    func validate() throws {
        if let image, !FileManager.default.fileExists(atPath: image) {
            throw ValidationError("'\(image)' does not exist.")
        }
        if let seen, Self.day(seen) == nil {
            throw ValidationError("--seen '\(seen)' is not a date (YYYY-MM-DD).")
        }
    }

    static func day(_ text: String) -> Date? {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "yyyy-MM-dd"
        return format.date(from: text)
    }

    func run() throws {
        let text: String
        if let image {
            do { text = try SingleImage.text(atPath: image, languages: languages) } catch {
                throw LensCLIError(message: "\(error)")
            }
        } else {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        let fileTime = image.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }
        let reference = seen.flatMap(Self.day) ?? fileTime ?? Date()
        for entity in EntityExtractors.entitiesMaskingSecrets(in: text, region: regionOption.region, reference: reference) {
            if json {
                try printJSON(JSONOutput.ExtractedEntity(entity))
            } else {
                let shown = OutputStyle.visible(entity.value)
                print(entity.type.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                      + shown + (entity.normalized == entity.value ? "" : "  → " + OutputStyle.visible(entity.normalized)))
            }
        }
    }
}
