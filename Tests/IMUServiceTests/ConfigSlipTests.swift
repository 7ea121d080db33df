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
}
