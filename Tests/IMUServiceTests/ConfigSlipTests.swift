import Foundation
import Testing
@testable import IMUService

/// Slips in imu-stepd's config that were refused without the fix: a misspelt key got the list
/// of every key, a line with no key "unknown setting ''", and `bus = unix:` (no socket) passed
/// the config and failed at the connection, with no line to edit.
@Suite struct ConfigSlipTests {
    func refusal(_ text: String) -> ConfigError? {
        do { _ = try ServiceConfig.parse(text, path: "stepd.conf"); return nil } catch { return error as? ConfigError }
    }

    @Test func aMisspeltKeyNamesTheNearestOne() {
        #expect(refusal("rate = 50\nretension_days = 30") == ConfigError(path: "stepd.conf", line: 2,
                message: "unknown setting 'retension_days' (did you mean retention_days?)", fix: "write retention_days = 30"))
        #expect(refusal("floorheight = 3")?.message == "unknown setting 'floorheight' (did you mean floor_height?)")
        #expect(refusal("Comit_Seconds = 5")?.message == "unknown setting 'Comit_Seconds' (did you mean commit_seconds?)")
        #expect(refusal("colour = blue")?.message == "unknown setting 'colour'")
        #expect(refusal("colour = blue")?.fix?.hasPrefix("known: source, simulate, replay") == true)
    }

    @Test func aLineWithNoKeyIsSaidSo() {
        let e = refusal("= 5")
        #expect(e?.message == "'= 5' has no setting name before '='")
        #expect(e?.line == 1)
    }

    @Test func aBusAddressWithNoSocketIsRefusedWithItsLine() {
        for bad in ["unix:", "unix:/run/dbus/socket", "tcp:host=x"] {
            let e = refusal("bus = \(bad)")
            #expect(e?.line == 1 && e?.message.hasPrefix("bus = '\(bad)' is not system, session or a unix: address") == true, "\(bad): \(String(describing: e))")
        }
        #expect(refusal("bus = unix:path=/run/dbus/system_bus_socket") == nil)
        #expect(refusal("bus = unix:abstract=/tmp/dbus-x") == nil)
    }

    /// `rate =` or `mount =` with `replay =`, and `mount =` with the simulator, were ignored
    /// without a word; the tools refuse --rate/--mount with --replay and --mount with --simulate.
    @Test func settingsTheSamplesWouldIgnoreAreRefused() {
        let replayRate = refusal("replay = /tmp/walk.csv\nrate = 50")
        #expect(replayRate?.line == 2 && replayRate?.message == "rate = does not apply to replay =: a recording plays at the rate and in the frame it was recorded",
                "\(String(describing: replayRate))")
        #expect(refusal("mount = 0,1,0; -1,0,0; 0,0,1\nreplay = /tmp/walk.csv")?.line == 1)
        for sim in ["simulate = walk", "source = sim:walk"] {
            let e = refusal("\(sim)\nmount = 0,1,0; -1,0,0; 0,0,1")
            #expect(e?.line == 2 && e?.message == "mount = does not apply to the simulator: it has no chip axes to map", "\(sim): \(String(describing: e))")
            #expect(e?.fix?.hasPrefix("remove the mount line, or read a sensor with source =") == true)
        }
        #expect(refusal("simulate = walk\nrate = 50") == nil, "the simulator takes a rate, as --simulate --rate does")
        #expect(refusal("source = iio:local:\nrate = 50\nmount = 0,1,0; -1,0,0; 0,0,1") == nil)
    }
}
