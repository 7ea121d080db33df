import Foundation
import OffPool
import Testing

/// `--version` on every shipped tool: "NAME MAJOR.MINOR.PATCH (git abcdef1)", the version from the
/// VERSION file and the commit this tree is at (packaging/version.sh, generated at build time).
@Suite(.offPool) struct VersionTests {
    @Test func everyToolPrintsTheVersionFileAndTheCommit() throws {
        let tools = ShippedTools.names
        try #require(!tools.isEmpty, "make print-tools listed no tools")
        let version = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        func git(_ args: String...) -> String? {
            guard let r = try? runCommand("/usr/bin/env", ["git", "-C", ToolRunner.packageRoot.path] + args), r.status == 0 else { return nil }
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let head = git("rev-parse", "--short=7", "HEAD")
        let headTime = git("log", "-1", "--format=%ct").flatMap(Double.init)
        for tool in tools {
            let r = try ToolRunner.run(tool, ["--version"])
            #expect(r.status == 0, "\(tool) --version: \(r.stderr)")
            guard let head else {
                #expect(r.stdout == "\(tool) \(version) (git unknown)\n", "outside git: \(r.stdout.debugDescription)")
                continue
            }
            let match = try #require(r.stdout.wholeMatch(of: /([a-z-]+) (\d+\.\d+\.\d+) \(git ([0-9a-f]{7})\)\n/),
                                     "\(tool) --version printed \(r.stdout.debugDescription)")
            #expect(match.1 == tool && match.2 == version, "\(tool) --version printed \(r.stdout.debugDescription), VERSION is \(version)")
            // A commit made after the tool was built (while the tests ran) cannot be in it; then
            // the stamped commit must be an ancestor of HEAD.
            let built = try FileManager.default.attributesOfItem(atPath: ToolRunner.path(tool))[.modificationDate] as? Date
            if let headTime, let built, headTime > built.timeIntervalSince1970 {
                #expect(git("merge-base", "--is-ancestor", String(match.3), "HEAD") != nil, "\(tool): \(match.3) is not in HEAD's history")
            } else {
                #expect(String(match.3) == head, "\(tool) --version names \(match.3), HEAD is \(head)")
            }
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
