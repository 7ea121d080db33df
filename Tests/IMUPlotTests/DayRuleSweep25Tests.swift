import Foundation
import OffPool
import Testing
import IMUHistory
import IMUSimulation
import Pedometer

/// `imu-plot --day` with a POSIX TZ rule cuts the day and reads its hours through the C library,
/// daylight-saving changes within the day included. It took the rule's offset at noon for the
/// whole day: on the US spring-forward day (2026-03-08, EST5EDT,M3.2.0,M11.1.0) the page started
/// at 00:00 EDT, an hour before the day's real midnight (00:00 EST), and drew a walk of the
/// evening before; on the autumn day (2026-11-01) it started at 00:00 EST, an hour late, and a
/// walk just after midnight was on neither that page nor the one before.
@Suite(.offPool, .serialized) struct DayRuleSweep25Tests {
    static let rule = ["TZ": "EST5EDT,M3.2.0,M11.1.0"]

    /// The simulated "demo" walk (about two minutes) into a history, starting at `start`.
    static func history(walkAt start: String, in dir: URL) throws -> (path: String, steps: Int) {
        let path = dir.appendingPathComponent("history.sqlite").path
        let store = try HistoryStore(path: path)
        let options = SimulationOptions()
        let (samples, _) = Simulator.generate(Scenario.named("demo")!, options: options)
        let at = ISO8601DateFormatter().date(from: start)!
        let mapping = BootTimeMapping(wallTimeAtBoot: at.addingTimeInterval(-samples[0].time))
        var pedometer = Pedometer(capabilities: options.capabilities)
        var events: [PedometerEvent] = []
        for s in samples { pedometer.process(s, into: &events) }
        pedometer.finish(into: &events)
        store.record(events, snapshot: pedometer.snapshot, mapping: mapping)
        try store.commit()
        return (path, try store.totals(from: at.addingTimeInterval(-3600), to: at.addingTimeInterval(3600)).steps)
    }

    /// The page's bars: hour index → steps.
    static func bars(day: String, history: String, dir: URL) throws -> [Int: Int] {
        let page = dir.appendingPathComponent("\(day).html").path
        let r = try BuiltTool.run("imu-plot", ["--day", day, "--history", history, "-o", page], environment: Self.rule)
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        var out: [Int: Int] = [:]
        for part in html.components(separatedBy: "data-hour=\"").dropFirst() {
            let hour = Int(part.prefix { $0.isNumber }) ?? -1
            if let r = part.range(of: "data-steps=\"") { out[hour] = Int(part[r.upperBound...].prefix { $0.isNumber }) }
        }
        return out
    }

    /// 04:30 UTC on 8 March is 23:30 EST on the 7th: the walk is the 7th's last hour, not the 8th's.
    @Test func theSpringDayStartsAtItsOwnMidnight() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let (history, walk) = try Self.history(walkAt: "2026-03-08T04:30:00Z", in: dir)
        #expect(walk > 100, "the demo walk has well over a hundred steps: \(walk)")
        #expect(try Self.bars(day: "2026-03-07", history: history, dir: dir) == [23: walk])
        #expect(try Self.bars(day: "2026-03-08", history: history, dir: dir).isEmpty)
    }

    /// 04:30 UTC on 1 November is 00:30 EDT on the 1st: the walk is that day's first hour.
    @Test func theAutumnDayKeepsItsFirstHour() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let (history, walk) = try Self.history(walkAt: "2026-11-01T04:30:00Z", in: dir)
        #expect(try Self.bars(day: "2026-11-01", history: history, dir: dir) == [0: walk])
        #expect(try Self.bars(day: "2026-10-31", history: history, dir: dir).isEmpty)
        // The walk's time on the local clock (EDT then), and 25 hours labelled every other one:
        // 00 and 01 EDT, then 01 EST at the third hour, 03 at the fifth … 23 at the 25th.
        let page = try String(contentsOfFile: dir.appendingPathComponent("2026-11-01.html").path, encoding: .utf8)
        #expect(page.contains("walking, high confidence, 00:30–"), "the walk at 00:30 EDT")
        // The clock is named by the rule, not by its offset at noon (GMT-0500, an hour off at 00:30).
        #expect(page.contains("hours of the local clock (TZ=EST5EDT,M3.2.0,M11.1.0)") && page.contains("hour of the day (TZ=EST5EDT,M3.2.0,M11.1.0)"))
        let labels = page.components(separatedBy: "</text>").compactMap { part -> String? in
            let text = part.split(separator: ">").last.map(String.init) ?? ""
            return text.count == 5 && text.hasSuffix(":00") ? text : nil
        }
        #expect(labels == ["00:00", "01:00"] + stride(from: 3, through: 23, by: 2).map { ($0 < 10 ? "0" : "") + "\($0):00" }, "\(labels)")
    }
}
