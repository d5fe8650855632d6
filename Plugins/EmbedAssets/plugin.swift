import Foundation
import PackagePlugin

/// Embeds the files of a target's `Assets` folder as Swift string constants (`EmbeddedAssets.files`),
/// so that the binary serves them with nothing installed beside it. SwiftPM's resource bundles
/// would have to be copied next to the binary by every installer; this keeps one file to install.
@main
struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directory.appending("Assets")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.string).filter { !$0.hasPrefix(".") }.sorted()
        let files = names.map { folder.appending($0) }
        let output = context.pluginWorkDirectory.appending("EmbeddedAssets.swift")
        return [.buildCommand(
            displayName: "Embedding \(files.count) web assets of \(target.name)",
            executable: try context.tool(named: "EmbedAssetsTool").path,
            arguments: [output.string] + files.map(\.string),
            inputFiles: files,
            outputFiles: [output])]
    }
}
