import Foundation
import OffPool
import Testing

/// The forms a playback speed takes, named when one is not understood (exit 2, docs/CONTRACTS.md §4).
@Suite(.offPool) struct SpeedFormTests {
    /// `speed = max` said only "is not a number from 0.01 to 1000", though the tools take
    /// `--speed max`; `--speed fast` said "needs a number", hiding `max`.
    @Test func aSpeedWordNamesTheFormsThereAre() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/stepd.conf"
        try "simulate = walk\nspeed = max\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try ToolRunner.run("imu-stepd", ["--config", config], timeout: 60)
        #expect(daemon.status == 2, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("\(config):2: speed = 'max' is not a pace the service plays at: it takes a number from 0.01 to 1000 (× real time; 1 = as recorded)"),
                "\(daemon.stderr)")
        #expect(daemon.stderr.contains("fix: write e.g. speed = 1 (real time) or speed = 1000 (the fastest)"), "\(daemon.stderr)")
        for word in ["fast", "0", "1e400"] {
            let tool = try ToolRunner.run("imu-steps", ["--simulate", "walk:1", "--speed", word])
            #expect(tool.status == 2, "\(tool.stderr)")
            #expect(tool.stderr.contains("or 'max' (as fast as possible), got '\(word)'"), "\(word): \(tool.stderr)")
            #expect(tool.stderr.contains("fix: e.g. --speed 10 for ten times real time, or --speed max"), "\(word): \(tool.stderr)")
        }
        // Any case of max is max.
        let max = try ToolRunner.run("imu-steps", ["--simulate", "walk:1", "--speed", "MAX", "--json"])
        #expect(max.status == 0, "\(max.stderr)")
    }
}
