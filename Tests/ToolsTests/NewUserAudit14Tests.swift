import Foundation
import GPSFake
import OffPool
import Testing

/// The session-14 new-user audit: each tool tried with bad input as a process (off the pool:
/// each test waits for tool processes).
@Suite(.offPool) struct NewUserAudit14Tests {
    /// `imu-info 2>&1` on a machine without sensors printed "no motion sensor found; each
    /// 'problem' line above names a fix" first and the problem lines after it: standard error was
    /// handed to the writer while standard output's lines were still collected. Now they keep the
    /// order they were written in.
    @Test func anErrorComesAfterTheLinesItFollowsOnOnePipe() throws {
        let r = try ShellRunner.run("\"$BIN\"/imu-info --bus 1023 --no-gps 2>&1", timeout: 60)
        guard r.status == 3 else { print("skipped: /dev/i2c-1023 exists here (\(r.status))"); return }
        let lines = r.lines
        let problem = try #require(lines.firstIndex { $0.hasPrefix("problem") }, "\(lines)")
        let verdict = try #require(lines.firstIndex { $0.hasPrefix("imu-info: no motion sensor found") }, "\(lines)")
        #expect(problem < verdict, "\(lines)")
    }

    /// imu-info's gps line told a user without gpsd to "run without --gps", an option imu-info
    /// does not have (it asks gpsd unless --no-gps): the note now names imu-info's own options.
    @Test func imuInfoNamesItsOwnGPSOptions() throws {
        let port = GPSFake.freePort()
        let r = try ToolRunner.run("imu-info", ["--gpsd", "127.0.0.1:\(port)"], timeout: 60)
        let line = try #require(r.lines.first { $0.hasPrefix("gps") }, "stdout: \(r.stdout)")
        #expect(line.contains("gpsd at 127.0.0.1:\(port) is not reachable"), "\(line)")
        #expect(line.contains("check the address (--gpsd HOST:PORT), or leave gpsd out (--no-gps)"), "\(line)")
        #expect(!line.contains("without --gps"), "\(line)")
    }

    /// A board named by a host name that does not resolve: libiio tried Avahi and printed
    /// "ERROR: Unable to create Avahi DNS-SD client :Daemon not running" twice, then the tool said
    /// "No such device or address" and "start iiod on the board". Now the tool says it cannot look
    /// the name up, names it, and the fix; libiio is not asked (.invalid never resolves, RFC 6761).
    @Test func anUnknownHostIsSaidAsSuchWithoutAvahiNoise() throws {
        let r = try ToolRunner.run("imu-steps", ["--source", "iio:ip:imukit-board.invalid"], timeout: 60)
        guard !r.stderr.contains("cannot load libiio") else { print("skipped: libiio0 is not installed"); return }
        #expect(r.status == 3, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("imu-steps: no IIO context at ip:imukit-board.invalid: cannot look up the host name 'imukit-board.invalid' ("), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: check the board's name and that this machine's DNS answers, or give the board's address, e.g. iio:ip:192.168.1.20"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("Avahi") && !r.stderr.contains("start iiod"), "stderr: \(r.stderr)")
    }
}
