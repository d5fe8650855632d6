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

            --privacy masks the secrets ([privacy] mask in the configuration file) in every stored \
            text again: after a change of that setting, or in a library made before Lens masked \
            secrets (lens doctor says when). The index, entities and QR payloads are rewritten and \
            the freed space in the database file is wiped.

            --embeddings makes the text embeddings (search by meaning) that screenshots lack, \
            newest first, with progress on standard error. It can be stopped and run again: what \
            is done stays done.

            Examples:
              lens reindex --entities --region GB
              lens reindex --privacy
              lens reindex --embeddings
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Extract the entities of every screenshot again from its stored text.")
    var entities = false

    @Flag(help: "Mask the secrets in every stored text again, as [privacy] says.")
    var privacy = false

    @Flag(help: "Make the text embeddings that screenshots lack (resumable).")
    var embeddings = false

    @OptionGroup var configOption: ConfigOption

    @OptionGroup var regionOption: RegionOption

    func validate() throws {
        guard entities || privacy || embeddings else {
            throw ValidationError("Say what to recompute: --entities, --privacy or --embeddings.")
        }
    }

    func run() throws {
        let library = try global.openLibrary()
        let settings = try configOption.load()
        if privacy {
            let start = ContinuousClock.now
            let report = try library.maskStoredTexts(all: true, privacy: settings.privacy, region: regionOption.region,
                                                     phoneRegions: settings.phoneRegions)
            let seconds = (ContinuousClock.now - start).seconds
            print(String(format: "%d texts checked, %d with secrets masked%@ (%.1f s)", report.checked, report.changed,
                         report.connections.map { ", \($0) connections" } ?? "", seconds))
            guard entities || embeddings else { return }
        }
        if embeddings {
            let start = ContinuousClock.now
            let embedder = try EmbeddingModel.load()
            var last = ContinuousClock.now
            let report = try library.fillEmbeddings(with: embedder) { progress in
                if ContinuousClock.now - last > .seconds(1) {
                    last = ContinuousClock.now
                    FileHandle.standardError.write(Data("embedded \(progress.embedded) of \(progress.texts)\n".utf8))
                }
                return true
            }
            let seconds = (ContinuousClock.now - start).seconds
            print(String(format: "%d embeddings made, %d of %d texts have one (%.1f s)", report.made, report.embedded, report.texts, seconds))
            guard entities else { return }
        }
        let start = ContinuousClock.now
        let (screenshots, found) = try library.reextractEntities(region: regionOption.region, phoneRegions: settings.phoneRegions)
        // Connections follow from the entities: recompute them too (manual links stay).
        let (_, edges) = try MindMapUseCases.rebuild(library)
        let seconds = (ContinuousClock.now - start).seconds
        print(String(format: "%d entities in %d screenshots, %d connections (%.1f s)", found, screenshots, edges, seconds))
    }
}
