import Foundation
import Testing
@testable import IMUCalibration

@Suite struct WalkerProfileTests {
    @Test func jsonRoundTripsAndChecksRanges() throws {
        let profile = WalkerProfile(paces: [(1.8, 0.702), (2.81, 1.091)], floorHeightMeters: 3.5)
        let back = try WalkerProfile(jsonData: Data(profile.jsonText.utf8), path: "p.json")
        #expect(back == profile)
        #expect(throws: WalkerProfileError.self) { try WalkerProfile(jsonData: Data("{\"height_m\": 9}".utf8), path: "p.json") }
        #expect(throws: WalkerProfileError.self) {
            try WalkerProfile(jsonData: Data("{\"paces\": [{\"cadence_steps_per_s\": 1.8, \"stride_m\": 0.7}]}".utf8), path: "p.json")
        }
        #expect(throws: WalkerProfileError.self) { try WalkerProfile(jsonData: Data("[1]".utf8), path: "p.json") }
    }

    /// A profile holding `"height_m": 1e999` was "not a JSON object" (it is one: the number is
    /// too large for a Double), and a height out of range was "must be a number in 0.5...2.5",
    /// Swift's range syntax. Now the reader's reason and offset, and the range in words.
    @Test func aNumberOutOfRangeIsSaidAsSuch() {
        #expect(throws: WalkerProfileError(path: "p.json", reason: "not JSON: number out of range at byte 24")) {
            try WalkerProfile(jsonData: Data(#"{"version":1,"height_m":1e999}"#.utf8), path: "p.json")
        }
        #expect(throws: WalkerProfileError(path: "p.json", reason: "height_m must be a number from 0.5 to 2.5")) {
            try WalkerProfile(jsonData: Data(#"{"version":1,"height_m":9}"#.utf8), path: "p.json")
        }
    }

    /// Issue #10 item 7: the file gets the command line's checks.
    @Test(arguments: [
        // two paces 0.01 steps/s apart, 0.2 and 2.5 m: 6 m per step a little further on
        #"{"version":1,"paces":[{"cadence_steps_per_s":1.8,"stride_m":0.2},{"cadence_steps_per_s":1.81,"stride_m":2.5}]}"#,
        // equal cadences
        #"{"version":1,"paces":[{"cadence_steps_per_s":1.8,"stride_m":0.7},{"cadence_steps_per_s":1.8,"stride_m":0.8}]}"#,
        // 0.1 apart but a line that leaves 0.2–2.5 m per step between 1 and 3 steps/s
        #"{"version":1,"paces":[{"cadence_steps_per_s":1.8,"stride_m":0.7},{"cadence_steps_per_s":1.9,"stride_m":1.6}]}"#,
        // height together with paces
        #"{"version":1,"height_m":1.7,"paces":[{"cadence_steps_per_s":1.8,"stride_m":0.7},{"cadence_steps_per_s":2.1,"stride_m":0.85}]}"#,
        #"{"version":2,"height_m":1.7}"#,
        #"{"version":"1","height_m":1.7}"#,
        #"{"height_m":1.7}"#,
        #"{"version":1,"height_m":true}"#,
    ])
    func implausibleProfileIsRefused(text: String) {
        #expect(throws: WalkerProfileError.self) { try WalkerProfile(jsonData: Data(text.utf8), path: "p.json") }
    }

    /// Found by `make fuzz` (Tests/Fuzz/regressions/profile): a stride written with 100 digits
    /// came back from Foundation as an inexact NSDecimalNumber, so the saved file read back different.
    @Test func longDecimalsReadExactlyAndRoundTrip() throws {
        let text = #"{"version":1,"paces":[{"cadence_steps_per_s":1.8,"stride_m":0.72},{"cadence_steps_per_s":2.8,"stride_m":1.0977777777777777777777777777777777777777}]}"#
        let profile = try WalkerProfile(jsonData: Data(text.utf8), path: "p.json")
        #expect(profile.paces?[1].stride == 1.0977777777777777)
        #expect(try WalkerProfile(jsonData: Data(profile.jsonText.utf8), path: "p.json") == profile)
    }

    @Test func checksAgreeWithTheCommandLine() {
        #expect(WalkerProfile.checkPaces((1.8, 0.72), (2.1, 0.85)) == nil)
        #expect(WalkerProfile.checkPaces((1.8, 0.702), (2.81, 1.091)) == nil)
        #expect(WalkerProfile.checkPaces((1.8, 0.7), (1.85, 0.75)) != nil)
        #expect(WalkerProfile.checkPace(cadence: 1.8, stride: 5) != nil)
    }

    /// The newer of a height and a stride line wins; the floor height is kept unless given.
    @Test func updatesReplaceHeightAndStrideByEachOther() {
        let saved = WalkerProfile(paces: [(1.8, 0.7), (2.1, 0.8)], floorHeightMeters: 3.5)
        let byHeight = saved.updated(with: WalkerProfile(heightMeters: 1.6))
        #expect(byHeight.heightMeters == 1.6 && byHeight.paces == nil && byHeight.floorHeightMeters == 3.5)
        let byStride = byHeight.updated(with: WalkerProfile(paces: [(1.7, 0.68), (2.0, 0.78)]))
        #expect(byStride.heightMeters == nil && byStride.paces?.count == 2 && byStride.floorHeightMeters == 3.5)
    }

    @Test func storeSavesAtomicallyUnderTheConfigDirectory() throws {
        let home = NSTemporaryDirectory() + "imukit-walker-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let env = ["HOME": home]
        #expect(try WalkerProfileStore.load(environment: env) == nil)
        let path = try WalkerProfileStore.save(WalkerProfile(heightMeters: 1.82), environment: env)
        #expect(path == home + "/.config/imukit/profile.json")
        #expect(try WalkerProfileStore.load(environment: env)?.profile == WalkerProfile(heightMeters: 1.82))
        #expect(WalkerProfileStore.path(environment: ["XDG_CONFIG_HOME": "/x"]) == "/x/imukit/profile.json")
    }

    /// A config directory that cannot be made says why with its own errno: a file where the
    /// directory should be is ENOTDIR, not "permission denied" (which names another fix).
    @Test func aConfigDirectoryThatCannotBeMadeSaysWhy() throws {
        let home = NSTemporaryDirectory() + "imukit-walker-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try "not a directory".write(toFile: home + "/.config", atomically: true, encoding: .utf8)
        do {
            try WalkerProfileStore.save(WalkerProfile(heightMeters: 1.82), environment: ["HOME": home])
            Issue.record("saved under a file")
        } catch let error as CalibrationStoreError {
            #expect(error.errorNumber == ENOTDIR, "\(error)")
            #expect(!error.isPermission, "\(error)")
        }
    }
}
