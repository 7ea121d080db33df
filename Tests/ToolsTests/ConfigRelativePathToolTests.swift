import Foundation
import OffPool
import Testing

/// Relative files in imu-stepd's config, as the daemon started by hand or by systemd reads them.
@Suite(.offPool) struct ConfigRelativePathToolTests {
    /// `replay = walk.csv` in /etc/imukit/stepd.conf looked for /walk.csv (the daemon's working
    /// directory under systemd): relative files are the config file's directory's, and a message
    /// names the absolute file it looked at.
    @Test func aRelativeReplayIsLookedForNextToTheConfig() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/stepd.conf"
        try "bus = unix:path=\(dir)/no-bus\nstate_directory = \(dir)/state\nreplay = missing.csv\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run(executable: ToolRunner.path("imu-stepd"), ["--config", config], directory: "/", timeout: 60)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("\(config):3: replay = 'missing.csv' (\(dir)/missing.csv) cannot be opened: No such file or directory"), "\(r.stderr)")
    }
}
