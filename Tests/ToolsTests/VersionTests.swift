import Foundation
import Testing

/// `--version` on every shipped tool: "NAME MAJOR.MINOR.PATCH (git abcdef1)", the version from the
/// VERSION file and the commit this tree is at (packaging/version.sh, generated at build time).
@Suite struct VersionTests {
    @Test func everyToolPrintsTheVersionFileAndTheCommit() throws {
        let tools = ShippedTools.names
        try #require(!tools.isEmpty, "make print-tools listed no tools")
        let version = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let git = try? runCommand("/usr/bin/env", ["git", "-C", ToolRunner.packageRoot.path, "rev-parse", "--short=7", "HEAD"])
        let commit = git?.status == 0 ? git!.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
        for tool in tools {
            let r = try ToolRunner.run(tool, ["--version"])
            #expect(r.status == 0, "\(tool) --version: \(r.stderr)")
            #expect(r.stdout == "\(tool) \(version) (git \(commit))\n", "\(tool) --version printed \(r.stdout.debugDescription)")
            #expect(r.stdout.wholeMatch(of: /[a-z-]+ \d+\.\d+\.\d+ \(git [0-9a-f]{7}\)\n/) != nil || commit == "unknown")
        }
    }

    @Test func versionScriptRefusesAMalformedVersionFile() throws {
        // A copy of the script beside a bad VERSION: it must stop with a message, not stamp garbage.
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/packaging", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ToolRunner.packageRoot.path + "/packaging/version.sh", toPath: dir + "/packaging/version.sh")
        try "1.2\n".write(toFile: dir + "/VERSION", atomically: true, encoding: .utf8)
        let r = try runCommand("/bin/sh", [dir + "/packaging/version.sh"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("VERSION must read MAJOR.MINOR.PATCH, got '1.2'"), "\(r.stderr)")
    }
}
