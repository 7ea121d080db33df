import Foundation
import Testing
@testable import IMUService

/// Session 21's sweep, the service's side: text from the command line reaches the terminal escaped.
@Suite struct BadInputSweep22Tests {
    /// `--config` with a newline or an escape sequence in its name: ConfigError printed the path as
    /// it came, so a newline started a line of its own (a fake "  fix: …" after it) and ESC [ …
    /// recoloured the terminal. The path is escaped on one line, in the message and in the fix.
    @Test func aConfigPathIsEscapedOnOneLine() throws {
        let error = ConfigError(path: "/tmp/a\n  fix: rm -rf ~\u{1B}[31m.conf", line: 3, message: "'x' is not key = value")
        #expect(error.description == "/tmp/a\\n  fix: rm -rf ~\\x1B[31m.conf:3: 'x' is not key = value")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sweep22-\u{1B}[2J\n-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do { _ = try ServiceConfig.load(path: dir, required: true); Issue.record("a directory was accepted") } catch let e as ConfigError {
            let shown = e.description + (e.fix ?? "")
            #expect(!shown.contains("\n") && !shown.contains("\u{1B}"), "\(shown.debugDescription)")
            #expect(e.fix?.contains("sweep22-\\x1B[2J\\n-") == true, "\(e.fix ?? "")")
        }
    }

    /// The state directory's messages name the config file --config gave, as typed: a newline
    /// in its name started a line of its own in the fix.
    @Test func theStateDirectorysFixEscapesTheConfigPath() {
        let error = ServiceError.stateDirectory(path: "/proc/x", config: "/tmp/a\n  fix: rm -rf ~.conf",
                                                reason: "does not exist and cannot be created (No such file or directory)")
        #expect(error.description == "state directory /proc/x: does not exist and cannot be created (No such file or directory)")
        #expect(error.fix?.contains("set state_directory in /tmp/a\\n  fix: rm -rf ~.conf;") == true, "\(error.fix ?? "")")
        #expect(error.fix?.contains("\n") == false, "\(error.fix ?? "")")
    }

    /// A --config path that cannot be looked at for another reason than its absence was "no such
    /// file" (FileManager's fileExists is false for every failure of stat), with the fix "copy
    /// data/stepd.conf there". Each now says why, with its own fix; exit 2.
    @Test func aConfigPathThatCannotBeLookedAtSaysWhy() throws {
        let long = "/tmp/" + String(repeating: "a", count: 300) + ".conf"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sweep22-\(UUID().uuidString)").path
        try "rate = 100\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        for (path, message, fix) in [
            (long, "cannot be read: File name too long", "give a shorter path: Linux takes at most 255 bytes in one file name"),
            (file + "/stepd.conf", "cannot be read: Not a directory", "a part of the path before the file name is a file"),
        ] {
            do { _ = try ServiceConfig.load(path: path, required: true); Issue.record("\(path) was read") } catch let e as ConfigError {
                #expect(e.message == message, "\(e.message)")
                #expect(e.fix?.hasPrefix(fix) == true, "\(e.fix ?? "")")
                #expect(e.exitStatus == .usage)
            }
            // At the default path (not --config) it is no "all defaults" either.
            #expect(throws: ConfigError.self, "\(path)") { try ServiceConfig.load(path: path, required: false) }
        }
        #expect(throws: Never.self) { try ServiceConfig.load(path: "/nonexistent/stepd.conf", required: false) }
    }
}
