import Foundation
import OffPool
import Testing
import IMUCore

/// `LocalTime` (the C library's local time, which the tools use for --today, --history and
/// --since) against Foundation's `Calendar` and `ISO8601DateFormatter` in the same zone.
///
/// A process reads its zone once, from `TZ`, so the checks in named zones run in a child: this
/// test binary again, with `TZ` set and only `childChecksTheZoneInTZ` enabled.
@Suite(.offPool) struct LocalTimeTests {
    static let childVariable = "IMU_LOCALTIME_CHILD_ZONE"

    /// Zones with daylight-saving time both sides of UTC, a half-hour change (Lord Howe) and none
    /// (Kolkata, +05:30), and UTC.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"])
    func agreesWithFoundationInZone(zone: String) throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + zone) else {
            print("skipped: /usr/share/zoneinfo/\(zone) is missing (apt-get install tzdata)")
            return
        }
        let binary = try #require(Bundle.main.executablePath ?? CommandLine.arguments.first)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: binary)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "childChecksTheZoneInTZ"]
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = zone
        environment[Self.childVariable] = zone
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0, "\(zone):\n\(text)")
        // The child really ran the checks (a filter that matched nothing would also exit 0).
        #expect(text.contains("Test childChecksTheZoneInTZ() passed"), "\(zone):\n\(text)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil, "runs in the child of agreesWithFoundationInZone"))
    func childChecksTheZoneInTZ() throws {
        let name = try #require(ProcessInfo.processInfo.environment[Self.childVariable])
        let zone = try #require(TimeZone(identifier: name))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        #expect(LocalTime.zoneIdentifier() == name)
        let iso = ISO8601DateFormatter()
        iso.timeZone = zone
        // Every local day of 2026 and 2027, and every half hour of them: day bounds, fields, text.
        var day = calendar.date(from: DateComponents(year: 2026, month: 1, day: 1))!
        let stop = calendar.date(from: DateComponents(year: 2028, month: 1, day: 1))!
        var lengths = Set<Double>()
        while day < stop {
            let next = calendar.date(byAdding: .day, value: 1, to: day)!
            let noon = day.addingTimeInterval(12 * 3600).timeIntervalSince1970
            let ours = LocalTime.day(containing: noon)
            #expect(ours.start == day.timeIntervalSince1970 && ours.end == next.timeIntervalSince1970, "\(name) \(day)")
            #expect(LocalTime.startOfDay(containing: noon, addingDays: -1) == calendar.date(byAdding: .day, value: -1, to: day)!.timeIntervalSince1970)
            lengths.insert(next.timeIntervalSince(day))
            var t = day
            while t < next {
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: t)
                let f = LocalTime.fields(t.timeIntervalSince1970)
                #expect([f.year, f.month, f.day, f.hour, f.minute, f.second, f.weekday + 1]
                        == [c.year, c.month, c.day, c.hour, c.minute, c.second, c.weekday], "\(name) \(t)")
                #expect(f.utcOffsetSeconds == zone.secondsFromGMT(for: t))
                #expect(LocalTime.iso8601(t.timeIntervalSince1970) == iso.string(from: t))
                t = t.addingTimeInterval(1800)
            }
            day = next
        }
        if name == "Europe/Berlin" {
            // Spring forward at 02:00 on 29 March 2026: 02:30 does not exist and moves to 03:30
            // CEST; the day is 23 hours, from 23:00 UTC the day before.
            #expect(LocalTime.time(year: 2026, month: 3, day: 29, hour: 2, minute: 30) == 1_774_747_800)
            #expect(LocalTime.iso8601(1_774_747_800) == "2026-03-29T03:30:00+02:00")
            let spring = LocalTime.day(containing: 1_774_747_800)
            #expect(spring.start == 1_774_738_800 && spring.end - spring.start == 23 * 3600)
            #expect(LocalTime.dayLabel(1_774_747_800) == "2026-03-29 Sun" && LocalTime.stamp(1_774_747_800) == "2026-03-29 03:30")
        }
        if zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: 1_767_225_600)) != nil {
            #expect(lengths.count == 3, "a short and a long day besides the usual: \(lengths.sorted())")
        }
    }

    /// Round trips and calendar facts that hold in whatever zone this process has.
    @Test func roundTripsInThisZone() {
        let t = 1_774_743_000.0   // 2026-03-29 00:10:00 UTC
        let f = LocalTime.fields(t)
        #expect(LocalTime.time(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second) == t)
        #expect(LocalTime.time(year: f.year, month: f.month, day: f.day + 3) == LocalTime.startOfDay(containing: t, addingDays: 3))
        #expect(LocalTime.daysIn(month: 2, year: 2024) == 29 && LocalTime.daysIn(month: 2, year: 2100) == 28
                && LocalTime.daysIn(month: 2, year: 2000) == 29 && LocalTime.daysIn(month: 4, year: 2026) == 30)
        // Out-of-range times from a bus or a file do not trap.
        #expect(LocalTime.fields(.nan).year == LocalTime.fields(0).year)
        _ = LocalTime.iso8601(.infinity)
        _ = LocalTime.dayLabel(-1e300)
        #expect(LocalTime.time(year: Int.max, month: 1, day: 1) == nil)
        #expect(LocalTime.zoneIdentifier(environment: "Europe/Berlin") == "Europe/Berlin")
        #expect(LocalTime.zoneIdentifier(environment: ":/usr/share/zoneinfo/Europe/Berlin") == "Europe/Berlin")
        #expect(LocalTime.zoneIdentifier(environment: "CET-1CEST,M3.5.0,M10.5.0/3") == "")
        // glibc reads /usr/share/zoneinfo/../../etc/passwd, no zone file, and runs on UTC.
        #expect(LocalTime.zoneIdentifier(environment: "../../etc/passwd") == "UTC")
    }
}
