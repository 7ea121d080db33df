import Foundation
import OffPool
import Testing
import IMUHistory
import IMUSimulation
import Pedometer

/// `imu-plot --day` on a real history file, made through HistoryStore as the step service makes it.
@Suite(.offPool, .serialized) struct DayToolTests {
    /// The simulated "demo" walk (a walk with a flight of stairs up and down, about two minutes)
    /// through the pedometer into a history, starting at 08:00 in Paris on 1 December 2026.
    static func makeHistory(_ dir: URL) throws -> (path: String, totals: HistoryTotals) {
        let path = dir.appendingPathComponent("history.sqlite").path
        let store = try HistoryStore(path: path)
        let options = SimulationOptions()
        let (samples, _) = Simulator.generate(Scenario.named("demo")!, options: options)
        let eight = ISO8601DateFormatter().date(from: "2026-12-01T07:00:00Z")!   // 08:00 in Paris (UTC+1)
        let mapping = BootTimeMapping(wallTimeAtBoot: eight.addingTimeInterval(-samples[0].time))
        var pedometer = Pedometer(capabilities: options.capabilities)
        var events: [PedometerEvent] = []
        for (i, s) in samples.enumerated() {
            pedometer.process(s, into: &events)
            if i % 500 == 499 {   // the service hands over what came, about every 5 s at 100 Hz
                store.record(events, snapshot: pedometer.snapshot, mapping: mapping)
                events.removeAll()
            }
        }
        pedometer.finish(into: &events)
        store.record(events, snapshot: pedometer.snapshot, mapping: mapping)
        try store.commit()
        let totals = try store.totals(from: eight.addingTimeInterval(-3600), to: eight.addingTimeInterval(86400))
        return (path, totals)
    }

    static let environment = ["TZ": "Europe/Paris"]

    @Test func aDayOfHistoryShowsItsTotalsInItsHour() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let (history, totals) = try Self.makeHistory(dir)
        #expect(totals.steps > 100, "the demo walk has well over a hundred steps: \(totals.steps)")
        let page = dir.appendingPathComponent("day.html").path
        let r = try BuiltTool.run("imu-plot", ["--day", "2026-12-01", "--history", history, "-o", page], environment: Self.environment)
        #expect(r.status == 0, "imu-plot: \(r.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("Tuesday 1 December 2026"))
        #expect(html.contains("<dd>\(totals.steps)</dd>"), "the page's total is the history's")
        #expect(html.contains("data-hour=\"8\" data-steps=\"\(totals.steps)\""), "all steps in the 08:00 bar")
        #expect(html.contains("<dd>\(totals.floorsAscended)</dd>"))
        guard Browser.path != nil else { return }
        let shot = try Browser.render(page, width: 1000, height: 1000)
        #expect(shot.consoleLines.isEmpty, "console: \(shot.consoleLines)")
        let coloured = shot.image.count(x: 0..<1000, y: 0..<1000) { shot.image.isChromatic($0, $1) }
        #expect(coloured > 2000, "the page shows its bars and activity (\(coloured) coloured pixels)")
    }

    @Test func aDayWithoutHistoryIsAPageThatSaysSo() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let (history, _) = try Self.makeHistory(dir)
        let page = dir.appendingPathComponent("empty.html").path
        let r = try BuiltTool.run("imu-plot", ["--day", "2026-12-02", "--history", history, "-o", page], environment: Self.environment)
        #expect(r.status == 0, "imu-plot: \(r.stderr)")
        #expect(r.stderr.contains("no history for Wednesday 2 December 2026"), "stderr: \(r.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("No history for this day"))
        #expect(html.contains("<dd>0</dd>"))
    }

    @Test func badDaysAndBadHistoriesAreClearErrors() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let page = dir.appendingPathComponent("x.html").path
        let badDate = try BuiltTool.run("imu-plot", ["--day", "2026-13-01", "--history", "/nonexistent.sqlite", "-o", page])
        #expect(badDate.status == 2 && badDate.stderr.contains("--day 2026-13-01 names no date: there is no month 13"), "stderr: \(badDate.stderr)")
        let missing = try BuiltTool.run("imu-plot", ["--day", "--history", "/nonexistent/history.sqlite", "-o", page])
        #expect(missing.status == 2 && missing.stderr.contains("/nonexistent/history.sqlite"), "stderr: \(missing.stderr)")
        let text = dir.appendingPathComponent("notes.sqlite").path
        try "not a database\n".write(toFile: text, atomically: true, encoding: .utf8)
        let foreign = try BuiltTool.run("imu-plot", ["--day", "--history", text, "-o", page])
        #expect(foreign.status == 2 && foreign.stderr.contains("not a SQLite database"), "stderr: \(foreign.stderr)")
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "not a database\n", "left untouched")
        #expect(!FileManager.default.fileExists(atPath: page), "no page for a failed run")
        let stray = try BuiltTool.run("imu-plot", ["--replay", "a.csv", "2026-12-01", "-o", page])
        #expect(stray.status == 2 && stray.stderr.contains("2026-12-01"), "a date goes with --day only: \(stray.stderr)")
    }
}
