import ArgumentParser
import Foundation
import LensApp
import LensCore

struct ReindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Recompute derived data from the stored text, without OCR.",
        discussion: """
            --entities finds the entities of every recognized screenshot again, e.g. after an upgrade \
            of Lens or a change of region, and recomputes the connections between screenshots. \
            Entities from QR codes and links drawn with 'lens link' are kept.

            Example: lens reindex --entities --region GB
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Extract the entities of every screenshot again from its stored text.")
    var entities = false

    @OptionGroup var regionOption: RegionOption

    func validate() throws {
        guard entities else { throw ValidationError("Say what to recompute: --entities.") }
    }

    func run() throws {
        let library = try global.openLibrary()
        let extractor = EntityExtractors.make(region: regionOption.region)
        let start = ContinuousClock.now
        let (screenshots, found) = try library.reextractEntities { extractor.entities(in: $0) }
        // Connections follow from the entities: recompute them too (manual links stay).
        let (_, edges) = try MindMapUseCases.rebuild(library)
        let seconds = (ContinuousClock.now - start).seconds
        print(String(format: "%d entities in %d screenshots, %d connections (%.1f s)", found, screenshots, edges, seconds))
    }
}
