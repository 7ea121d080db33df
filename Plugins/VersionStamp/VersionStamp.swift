import Foundation
import PackagePlugin

/// Before every build, writes `BuildVersion.swift` (the VERSION file and the git commit) into the
/// target it is applied to, through packaging/version.sh. A prebuild command runs each time, so a
/// new commit reaches `--version` without a clean build; the file is rewritten only on a change.
@main struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let generated = context.pluginWorkDirectoryURL.appending(path: "Generated")
        return [.prebuildCommand(
            displayName: "Version from VERSION and git",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [root.appending(path: "packaging/version.sh").path, "--swift",
                        generated.appending(path: "BuildVersion.swift").path],
            outputFilesDirectory: generated)]
    }
}
