import Foundation
import Testing
@testable import IMUCore

/// glibc looks zone names up under `TZDIR` when it is set (tzset(3)); the names the tools give
/// and the fix they print looked under /usr/share/zoneinfo only. And the local days a client asks
/// the daemon for by instants (`LocalTime.dayBounds`).
@Suite struct ZoneDirectorySweep25Tests {
    /// A scratch TZDIR holding a real zone file under a name /usr/share/zoneinfo does not have.
    static func zoneDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sweep25-zones-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/Test", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Kolkata", toPath: dir + "/Test/Kolkata")
        return dir
    }

    static let tzdata = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Asia/Kolkata")

    @Test(.enabled(if: tzdata, "needs tzdata"))
    func aZoneUnderTZDIRIsNamed() throws {
        let dir = try Self.zoneDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(LocalTime.unknownZone(environment: "Test/Kolkata", zoneDirectory: dir) == nil)
        #expect(LocalTime.zoneIdentifier(environment: "Test/Kolkata", zoneDirectory: dir) == "Test/Kolkata")
        #expect(LocalTime.zoneIdentifier(environment: ":Test/Kolkata", zoneDirectory: dir) == "Test/Kolkata")
        #expect(LocalTime.zoneIdentifier(environment: dir + "/Test/Kolkata", zoneDirectory: dir) == "Test/Kolkata")
        // glibc looks nowhere else once TZDIR is set: a name only under /usr/share/zoneinfo runs on UTC.
        #expect(LocalTime.zoneIdentifier(environment: "Asia/Kolkata", zoneDirectory: dir) == "UTC")
        // An empty TZDIR is as unset.
        #expect(LocalTime.zoneIdentifier(environment: "Asia/Kolkata", zoneDirectory: "") == "Asia/Kolkata")
        #expect(LocalTime.zoneIdentifier(environment: "Test/Kolkata", zoneDirectory: "") == "UTC")
    }

    @Test func theFixNamesTZDIRsDirectoryEscaped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sweep25-empty-\(UUID().uuidString)").path
        let zone = try #require(LocalTime.unknownZone(environment: "Asia/Kolkata", zoneDirectory: dir))
        #expect(zone.warning.contains("(ls \(dir), which TZDIR names; or unset TZDIR to use /usr/share/zoneinfo)"), "\(zone.warning)")
        let plain = try #require(LocalTime.unknownZone(environment: "Nowhere/Land", zoneDirectory: nil))
        #expect(plain.warning.contains("(ls /usr/share/zoneinfo)") && !plain.warning.contains("TZDIR"), "\(plain.warning)")
        let odd = try #require(LocalTime.unknownZone(environment: "Asia/Kolkata", zoneDirectory: "/tmp/a\nb\u{1b}[31m"))
        #expect(!odd.warning.contains("\n") && !odd.warning.contains("\u{1b}") && odd.warning.contains("/tmp/a\\nb"), "\(odd.warning)")
    }

    /// Day bounds in this process's zone: from, local midnights, to; each inner one a midnight.
    @Test func dayBoundsAreMidnightsBetweenTheEnds() {
        let from = 1_774_743_000.0 + 3_600 * 7.5   // 2026-03-29, a daylight-saving day in Europe
        let to = from + 5 * 86_400
        let b = LocalTime.dayBounds(from: from, to: to)
        #expect(b.first == from && b.last == to)
        #expect(b.count == 7, "5 × 24 h from mid-day touch 6 local days: \(b)")
        for (x, y) in zip(b, b.dropFirst()) { #expect(y > x && y - x <= 25 * 3_600) }
        for t in b.dropFirst().dropLast() {
            let f = LocalTime.fields(t)
            #expect(f.hour == 0 && f.minute == 0 && f.second == 0, "\(LocalTime.iso8601(t))")
        }
        // Starting at a midnight gives whole days.
        let midnight = LocalTime.startOfDay(containing: from)
        #expect(LocalTime.dayBounds(from: midnight, to: LocalTime.startOfDay(containing: from, addingDays: 2)).count == 3)
        // Nothing to cut, and no loop on what is not a time.
        #expect(LocalTime.dayBounds(from: to, to: from).isEmpty && LocalTime.dayBounds(from: from, to: from).isEmpty)
        #expect(LocalTime.dayBounds(from: .nan, to: to).isEmpty && LocalTime.dayBounds(from: from, to: .infinity).isEmpty)
        // At most maxDays intervals, the last running to `to`.
        let capped = LocalTime.dayBounds(from: from, to: from + 1e9, maxDays: 10)
        #expect(capped.count == 11 && capped.last == from + 1e9)
    }
}
