import Foundation
import Testing
@testable import IMUCore

/// `LocalTime.unknownZone`: a `TZ` for which glibc finds neither a zone file nor a POSIX rule,
/// and so runs on UTC without a word. Zone files come from a scratch TZDIR (so the test needs no
/// tzdata); the glibc outcomes the cases stand for were checked with tzset(3) on this machine:
/// Nowhere/Land and Nowhere give tzname "Nowhere" with offset 0 and no DST name.
@Suite struct UnknownZoneTests {
    static func zoneDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sweep23-zones-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/Europe", withIntermediateDirectories: true)
        try Data("TZif2 and the rest of a zone file".utf8).write(to: URL(fileURLWithPath: dir + "/Europe/Berlin"))
        try Data("not a zone".utf8).write(to: URL(fileURLWithPath: dir + "/Europe/Notes"))
        return dir
    }

    @Test func namesThatGlibcCannotUseAreUnknown() throws {
        let dir = try Self.zoneDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for tz in ["Nowhere/Land", ":Nowhere/Land", "Nowhere", "Europe/Berlni", "Europe", "Europe/Notes", " ", "XY0", "CET", "CET+",
                   "<AB>1", dir + "/Europe/Missing", "/dev/null"] {
            let zone = LocalTime.unknownZone(environment: tz, zoneDirectory: dir)
            #expect(zone?.tz == tz, "\(tz)")
        }
        let zone = try #require(LocalTime.unknownZone(environment: "Nowhere/Land", zoneDirectory: dir))
        #expect(zone.zoneFile == dir + "/Nowhere/Land")
        #expect(zone.warning.hasPrefix("TZ='Nowhere/Land' names no time zone this system knows"), "\(zone.warning)")
        #expect(zone.warning.contains("in UTC") && zone.warning.contains("set TZ to a zone such as Europe/Berlin") && zone.warning.contains("or unset it"))
        // From the environment: shown escaped on one line.
        let odd = try #require(LocalTime.unknownZone(environment: "A\nB", zoneDirectory: dir))
        #expect(!odd.warning.contains("\n") && odd.warning.contains("TZ='A\\nB'"))
    }

    @Test func zoneFilesRulesUnsetAndEmptyAreKnown() throws {
        let dir = try Self.zoneDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for tz: String? in [nil, "", "Europe/Berlin", ":Europe/Berlin", dir + "/Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3",
                            "EST5EDT", "UTC0", "<+0530>-5:30", ":CET-1", ":"] {
            #expect(LocalTime.unknownZone(environment: tz, zoneDirectory: dir) == nil, "\(tz ?? "unset")")
        }
    }

    /// The zone imu-steps --history names to the daemon is the one glibc cuts the tool's days in:
    /// an empty TZ is the system's zone as when unset (glibc 2.36, measured with a Europe/Berlin
    /// /etc/localtime: CET), TZ=":" is UTC, and so is a TZ naming no zone (it named none, "", and
    /// the daemon answered in its own zone).
    @Test func theZoneToldToTheDaemonIsTheOneGlibcUses() throws {
        let dir = try Self.zoneDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(LocalTime.zoneIdentifier(environment: "", zoneinfo: dir, zoneDirectory: dir)
                == LocalTime.zoneIdentifier(environment: nil, zoneinfo: dir, zoneDirectory: dir))
        #expect(LocalTime.zoneIdentifier(environment: ":", zoneinfo: dir, zoneDirectory: dir) == "UTC")
        for tz in ["Nowhere/Land", ":Nowhere/Land", "Europe/Berlni", "Europe/Notes", "XY0", dir + "/Europe/Missing", "/dev/null"] {
            #expect(LocalTime.zoneIdentifier(environment: tz, zoneinfo: dir, zoneDirectory: dir) == "UTC", "\(tz)")
        }
        // Zone files are named as they are; a rule names no zone, and the daemon's own is used.
        for tz in ["Europe/Berlin", ":Europe/Berlin"] {
            #expect(LocalTime.zoneIdentifier(environment: tz, zoneinfo: dir, zoneDirectory: dir) == "Europe/Berlin", "\(tz)")
        }
        #expect(LocalTime.zoneIdentifier(environment: "CET-1CEST,M3.5.0,M10.5.0/3", zoneinfo: dir, zoneDirectory: dir) == "")
    }
}
