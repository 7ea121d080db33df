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
}
