import Foundation
import PackagePlugin

/// Embeds the files of a target's `Assets` folder as Swift string constants (`EmbeddedAssets.files`),
/// so that the binary serves them with nothing installed beside it. SwiftPM's resource bundles
/// would have to be copied next to the binary by every installer; this keeps one file to install.
@main
struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Assets")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        let files = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        return [.buildCommand(
            displayName: "Embedding \(files.count) assets of \(target.name)",
            executable: try context.tool(named: "EmbedAssetsTool").url,
            arguments: [output.path] + files.map(\.path),
            inputFiles: files,
            outputFiles: [output])]
    }
}
