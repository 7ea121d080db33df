import Foundation
@testable import IMUHistory

/// A fresh temporary directory per test, removed by `cleanUp()`.
struct TempDir {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// Emits what a pedometer would for steps at chosen boot times: 0.7 m and 0.5 s active per step.
struct FakePedometer {
    static let stride = 0.7      // m per step: a typical adult stride at 1.75 m height
    static let activePerStep = 0.5   // s: a step at 2 steps/s
    var snapshot = PedometerSnapshot()

    mutating func steps(_ times: [Double], up: [Double] = [], down: [Double] = [], extra: [PedometerEvent] = []) -> [PedometerEvent] {
        var events = times.map { PedometerEvent.step(time: $0) }
        events += up.map { .floor(time: $0, direction: .up) } + down.map { .floor(time: $0, direction: .down) } + extra
        snapshot.steps += times.count
        snapshot.distanceMeters += Double(times.count) * Self.stride
        snapshot.activeDuration += Double(times.count) * Self.activePerStep
        snapshot.floorsAscended += up.count
        snapshot.floorsDescended += down.count
        snapshot.time = max(snapshot.time, (times + up + down).max() ?? snapshot.time)
        return events
    }
}

/// The date of an ISO 8601 text such as "2026-06-15T08:00:00Z".
func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

/// A mapping whose boot second 0 is `wall`.
func mapping(boot0 wall: String) -> BootTimeMapping { BootTimeMapping(wallTimeAtBoot: date(wall)) }

/// The bytes of a file, to prove it was not touched.
func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
