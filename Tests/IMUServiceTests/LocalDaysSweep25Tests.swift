import Foundation
import OffPool
import Testing

/// A client's local days are its own, whatever its `TZ` holds. A POSIX rule (TZ='<+0530>-5:30',
/// TZ=EST5EDT,M3.2.0,M11.1.0) names no zone to send, so `imu-steps --history` sent "" and the
/// daemon answered with its own days: rows from 09:00 of the tool's clock for a daemon in Tokyo.
/// The tool now cuts its days with the C library and asks for them by instants (QueryIntervals).
@Suite(.offPool, .serialized) struct LocalDaysSweep25Tests {
    static let zonesInstalled = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Asia/Tokyo")

    /// A daemon counting a simulated walk, in zone `tz`; nil without dbus-daemon.
    func daemon(tz: String) throws -> (PrivateBus, DaemonProcess)? {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return nil }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"],
                                       environment: ["TZ": tz])
        #expect(PrivateBus.waitFor(20) { (Int(busValue((try? bus.property("TodaySteps")) ?? "")) ?? 0) > 10 }, "\(daemon.log)")
        return (bus, daemon)
    }

    /// The "start" and "end" values of one `--json` row.
    static func times(_ row: Substring) -> [String] {
        ["\"start\":\"", "\"end\":\""].compactMap { key in
            row.range(of: key).map { String(row[$0.upperBound...].prefix { $0 != "\"" }) }
        }
    }

    @Test(.enabled(if: zonesInstalled, "needs tzdata"))
    func aRuleGetsTheToolsOwnDaysAcrossDaylightSavingChanges() throws {
        guard let (bus, daemon) = try daemon(tz: "Asia/Tokyo") else { return }
        defer { withExtendedLifetime(daemon) {} }
        let steps = DaemonProcess.tool("imu-steps")
        // 400 days hold a spring and an autumn change of the US rule (second Sunday of March,
        // first of November), so both of its offsets are seen; the fixed rule has one.
        for (tz, offsets) in [("<+0530>-5:30", ["+05:30"]), ("EST5EDT,M3.2.0,M11.1.0", ["-05:00", "-04:00"])] {
            let r = try Run.command([steps, "--history", "400d", "--json"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": tz])
            #expect(r.status == 0, "TZ='\(tz)': \(r.stderr)")
            #expect(!r.stderr.contains("warning"), "TZ='\(tz)': \(r.stderr)")
            let rows = r.stdout.split(separator: "\n")
            #expect(rows.count == 400, "TZ='\(tz)': \(rows.count) rows")
            var seen = Set<String>()
            for row in rows {
                let t = Self.times(row)
                #expect(t.count == 2, "\(row)")
                for time in t {
                    // Each day runs from the tool's midnight to its next midnight.
                    #expect(time.dropFirst(10).hasPrefix("T00:00:00") && offsets.contains(String(time.suffix(6))), "TZ='\(tz)': \(row)")
                    seen.insert(String(time.suffix(6)))
                }
            }
            #expect(seen == Set(offsets), "TZ='\(tz)': offsets \(seen)")
        }
        // A zone found only under TZDIR (glibc looks there; the daemon's zone data has no such
        // name): the tool's days are that zone's.
        let zones = try scratch()
        try FileManager.default.createDirectory(atPath: zones + "/Test", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Kolkata", toPath: zones + "/Test/Kolkata")
        let viaTZDIR = try Run.command([steps, "--history", "2d", "--json"],
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "Test/Kolkata", "TZDIR": zones])
        #expect(viaTZDIR.status == 0 && !viaTZDIR.stderr.contains("warning"), "\(viaTZDIR.stderr)")
        let tzdirRows = viaTZDIR.stdout.split(separator: "\n")
        #expect(tzdirRows.count == 2, "\(viaTZDIR.stdout)")
        for row in tzdirRows { for time in Self.times(row) { #expect(time.hasSuffix("T00:00:00+05:30"), "TZDIR: \(row)") } }
        // Today's steps are in the last row, not lost between rows. The daemon is still walking,
        // so today's count is taken first: the history asked after it holds at least as many.
        let today = try Run.command([steps, "--today", "--json"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "<+0530>-5:30"])
        let r = try Run.command([steps, "--history", "1d", "--json"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "<+0530>-5:30"])
        func stepCount(_ text: String) -> Int? {
            text.range(of: "\"steps\":").flatMap { Int(text[$0.upperBound...].prefix { $0.isNumber }) }
        }
        #expect((stepCount(r.stdout) ?? -1) >= (stepCount(today.stdout) ?? .max) && (stepCount(today.stdout) ?? 0) > 0, "\(r.stdout) vs \(today.stdout)")
    }

    /// A bus whose policy file predates QueryIntervals refuses it to everyone but root and group
    /// imukit (AccessDenied): the client asks QueryTotals day by day instead, with the same days.
    @Test(.enabled(if: zonesInstalled, "needs tzdata"))
    func anOlderPolicyFallsBackToADayByDayQuery() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), getpwuid(65534) != nil else {
            print("skipped: needs root, setpriv and user 65534 (nobody) to call as another user"); return
        }
        let current = try String(contentsOf: PrivateBus.packageRoot.appendingPathComponent("data/io.github.imukit.StepService1.conf"), encoding: .utf8)
        let older = current.replacingOccurrences(of: """
            <allow send_destination="io.github.imukit.StepService1"
                   send_interface="io.github.imukit.StepService1" send_member="QueryIntervals"/>

        """, with: "")
        #expect(older != current, "the policy allows QueryIntervals in one place, as written here")
        guard let bus = try PrivateBus.start(policy: older) else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"],
                                       environment: ["TZ": "Asia/Tokyo"])
        defer { withExtendedLifetime(daemon) {} }
        #expect(PrivateBus.waitFor(20) { (Int(busValue((try? bus.property("TodaySteps")) ?? "")) ?? 0) > 10 }, "\(daemon.log)")
        let now = Int64(Date().timeIntervalSince1970) * 1_000_000
        let refused = try bus.call("QueryIntervals", "ax", ["2", "\(now - 1_000_000)", "\(now)"], asUser: "65534")
        #expect(refused.status != 0 && refused.stderr.lowercased().contains("access"), "the older policy is in force: \(refused.stderr)")
        let r = try Run.command(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", DaemonProcess.tool("imu-steps"),
                                 "--history", "3d", "--json"],
                                environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "<+0530>-5:30"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n")
        #expect(rows.count == 3, "\(r.stdout)")
        for row in rows {
            for time in Self.times(row) { #expect(time.hasSuffix("T00:00:00+05:30"), "\(row)") }
        }
    }

    /// QueryDays with "" is the daemon's own zone as the C library reads its TZ, where its
    /// Today* properties are cut: Foundation's TimeZone.current took a rule for /etc/localtime.
    @Test func queryDaysWithoutAZoneCutsTheDaemonsGlibcDays() throws {
        guard let (bus, daemon) = try daemon(tz: "<+0530>-5:30") else { return }
        defer { withExtendedLifetime(daemon) {} }
        let now = Int64(Date().timeIntervalSince1970) * 1_000_000
        let r = try bus.call("QueryDays", "xxs", ["\(now - 3 * 86_400_000_000)", "\(now)", ""])
        #expect(r.status == 0, "\(r.stderr)")
        // "a(xxxdxxd) N START END STEPS DIST UP DOWN ACTIVE …": the inner bounds are midnights at
        // +05:30, 18:30 UTC (66 600 s into the UTC day).
        let fields = r.stdout.split(separator: " ")
        #expect(fields.count > 2 && (Int(fields[1]) ?? 0) >= 3, "\(r.stdout)")
        let rows = (Int(fields[1]) ?? 0)
        for i in 0..<rows where 2 + i * 7 + 1 < fields.count {
            let start = Int64(fields[2 + i * 7]) ?? -1, end = Int64(fields[2 + i * 7 + 1]) ?? -1
            if i > 0 { #expect(start % 86_400_000_000 == 66_600_000_000, "row \(i): \(r.stdout)") }
            if i < rows - 1 { #expect(end % 86_400_000_000 == 66_600_000_000, "row \(i): \(r.stdout)") }
        }
    }

    /// QueryIntervals answers one total per interval, and refuses each bad `bounds_usec` with
    /// InvalidArgs naming it and the fix.
    @Test func queryIntervalsAnswersAndRefusesBadBounds() throws {
        guard let (bus, daemon) = try daemon(tz: "UTC") else { return }
        defer { withExtendedLifetime(daemon) {} }
        let now = Int64(Date().timeIntervalSince1970) * 1_000_000
        let good = try bus.call("QueryIntervals", "ax", ["3", "\(now - 7_200_000_000)", "\(now - 3_600_000_000)", "\(now + 60_000_000)"])
        #expect(good.status == 0, "\(good.stderr)")
        let f = good.stdout.split(separator: " ")
        #expect(f.count == 2 + 2 * 7 && f[1] == "2", "\(good.stdout)")
        if f.count == 16 {
            #expect(f[2] == "\(now - 7_200_000_000)" && f[3] == "\(now - 3_600_000_000)" && f[9] == "\(now - 3_600_000_000)" && f[10] == "\(now + 60_000_000)")
            #expect((Int(f[11]) ?? 0) > 0, "the walk's steps are in the last hour: \(good.stdout)")
        }
        let cases: [([String], String)] = [
            (["0"], "bounds_usec holds 0 instants; QueryIntervals needs at least 2"),
            (["1", "\(now)"], "bounds_usec holds 1 instant; QueryIntervals needs at least 2"),
            (["2", "-1", "\(now)"], "bounds_usec[0] (-1) is before 1970-01-01"),
            (["3", "0", "\(now)", "\(now)"], "bounds_usec[2] (\(now)) does not come after bounds_usec[1] (\(now)): the instants must increase"),
            (["2", "\(now)", "0"], "bounds_usec[1] (0) does not come after bounds_usec[0]"),
            (["3702"] + (0..<3702).map { "\($0)" }, "bounds_usec holds more than 3701 instants; QueryIntervals takes at most 3701 (3700 intervals, ten years of days): ask in parts"),
            // 50 000 instants (what busctl's command line holds) are refused after reading 3 702 of them.
            (["50000"] + (0..<50_000).map { "\($0)" }, "bounds_usec holds more than 3701 instants; QueryIntervals takes at most 3701 (3700 intervals, ten years of days): ask in parts"),
        ]
        for (args, message) in cases {
            // "--": busctl would take a negative number for an option.
            let r = try bus.busctl(["call", "--", "io.github.imukit.StepService1", "/io/github/imukit/StepService1",
                                    "io.github.imukit.StepService1", "QueryIntervals", "ax"] + args)
            #expect(r.status != 0 && r.stderr.contains(message), "\(args.prefix(4)): \(r.stderr)")
        }
        let wrong = try bus.call("QueryIntervals", "xx", ["0", "\(now)"])
        #expect(wrong.status != 0 && wrong.stderr.contains("QueryIntervals takes (ax): bounds_usec"), "\(wrong.stderr)")
        // The most it takes is answered (3 700 one-minute intervals).
        let most = try bus.call("QueryIntervals", "ax", ["3701"] + (0..<3701).map { "\(now - Int64(3701 - $0) * 60_000_000)" })
        #expect(most.status == 0 && most.stdout.hasPrefix("a(xxxdxxd) 3700 "), "\(most.stderr)")
        #expect(busValue(try bus.property("SensorState")) == "running", "the daemon lives on: \(daemon.log)")
    }
}
