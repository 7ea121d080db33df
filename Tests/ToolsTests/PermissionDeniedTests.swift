import Foundation
import OffPool
import Testing

/// Saved files another user owns, as a new user meets them: a walker profile, a saved
/// calibration, the step history, a configuration directory that is not theirs. Each tool names
/// the file and the fix and exits 3 (docs/CONTRACTS.md §4: permission denied). Run as nobody
/// (`BadInputAuditTests.unprivileged`): root reads and writes every file.
@Suite(.offPool) struct PermissionDeniedTests {
    /// A scratch directory that nobody may read through, with `setUp` run in it as root, and a
    /// way to run commands there as nobody; nil (skipped, with a message) when that cannot be
    /// arranged here.
    static func asNobody(_ setUp: String) throws -> ((String) throws -> ToolResult, String)? {
        guard let user = BadInputAuditTests.unprivileged() else {
            print("skipped: setpriv or runuser (util-linux) is needed to test as a user other than root")
            return nil
        }
        let dir = try scratchDirectory()
        chmod(dir, 0o755)
        let prepared = try ShellRunner.run(setUp, directory: dir)
        guard prepared.status == 0 else { throw PreparationFailed(stderr: prepared.stderr) }
        let run = { (command: String) in try ShellRunner.run("\(user)env HOME=\(dir)/home XDG_CONFIG_HOME= \(command)", directory: dir) }
        return (run, dir)
    }

    struct PreparationFailed: Error { var stderr: String }

    /// `r` exited 3 (permission denied) with `message` and `fix` on standard error.
    static func expectDenied(_ r: ToolResult, _ message: String, fix: String, _ what: String = "") {
        #expect(r.status == 3, "\(what) stderr: \(r.stderr)")
        #expect(r.stderr.contains(message), "\(what) stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: " + fix), "\(what) stderr: \(r.stderr)")
    }

    /// A walker profile (`--remember`) only its owner may read: imu-steps and imu-plot name it,
    /// and say how to make it readable or be rid of it.
    @Test func anUnreadableWalkerProfile() throws {
        guard let (run, dir) = try Self.asNobody("""
            mkdir -p home/.config/imukit && echo '{"version":1,"height_m":1.8}' > home/.config/imukit/profile.json &&
            chmod 600 home/.config/imukit/profile.json && chmod -R a+rX home/.config && chmod 600 home/.config/imukit/profile.json
            """) else { return }
        let profile = dir + "/home/.config/imukit/profile.json"
        for tool in ["imu-steps --simulate walk --speed max", "imu-plot --simulate walk -o -"] {
            Self.expectDenied(try run("\"$BIN\"/\(tool)"), "cannot read \(profile): Permission denied",
                              fix: "make \(profile) readable by you", tool)
        }
    }

    /// `--remember` where the profile's directory is not the user's: the directory is what must
    /// become writable (the file need not exist), not the file.
    @Test func aProfileThatMayNotBeSaved() throws {
        guard let (run, dir) = try Self.asNobody("mkdir -p home/.config/imukit && chmod -R 755 home") else { return }
        Self.expectDenied(try run("\"$BIN\"/imu-steps --simulate walk --speed max --height 1.8 --remember"),
                          "cannot create \(dir)/home/.config/imukit/profile.json: Permission denied",
                          fix: "make \(dir)/home/.config/imukit writable by you")
    }

    /// A saved calibration only its owner may read: every tool that would apply it, and
    /// `imu-calibrate --show`, names it; `--reset`, which would remove it, names its directory.
    @Test func anUnreadableSavedCalibration() throws {
        let calibration = #"{"version":1,"accel_bias_g":[0,0,0],"accel_scale":[1,1,1],"created":"x"}"#
        guard let (run, dir) = try Self.asNobody("""
            c=home/.config/imukit/calibration && mkdir -p $c && echo '\(calibration)' > $c/sim_walk.json &&
            chmod -R a+rX home && chmod 600 $c/sim_walk.json
            """) else { return }
        let file = dir + "/home/.config/imukit/calibration/sim_walk.json"
        for tool in ["imu-steps --simulate walk --speed max", "imu-record --simulate walk --speed max -d 1 -o -",
                     "imu-calibrate --show --key sim:walk"] {
            Self.expectDenied(try run("\"$BIN\"/\(tool) > /dev/null"), "cannot read \(file): Permission denied",
                              fix: "make \(file) readable by you", tool)
        }
        Self.expectDenied(try run("\"$BIN\"/imu-calibrate --reset --key sim:walk"), "cannot remove \(file): Permission denied",
                          fix: "make \(dir)/home/.config/imukit/calibration writable by you")
        #expect(FileManager.default.fileExists(atPath: file))
    }

    /// A calibration that may not be saved: the store's directory is named, the result is
    /// printed so that nothing measured is lost.
    @Test func aCalibrationThatMayNotBeSaved() throws {
        guard let (run, dir) = try Self.asNobody("mkdir -p home/.config/imukit/calibration && chmod -R 755 home") else { return }
        let r = try run("\"$BIN\"/imu-calibrate -6 --simulate six-position --save")
        Self.expectDenied(r, "cannot create \(dir)/home/.config/imukit/calibration/sim_six-position.json: Permission denied",
                          fix: "make \(dir)/home/.config/imukit/calibration writable by you")
        #expect(r.stdout.contains("accel_bias_g"), "stdout: \(r.stdout)")
    }

    /// The step service's history, readable only by the service: imu-plot --day names it.
    @Test func anUnreadableHistory() throws {
        guard let (run, _) = try Self.asNobody("echo x > h.sqlite && chmod 600 h.sqlite") else { return }
        Self.expectDenied(try run("\"$BIN\"/imu-plot --day --history h.sqlite -o -"), "cannot open the history h.sqlite: permission denied",
                          fix: "give this user access to it (ls -l h.sqlite; sudo chmod a+r h.sqlite to read it)")
    }
}
