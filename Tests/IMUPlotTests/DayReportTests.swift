import Foundation
import OffPool
import Testing
@testable import IMUPlot
import Pedometer
import IMUHistory

/// The day report from figures given directly (the history's own tests make real files; the
/// tool test in DayToolTests reads one).
@Suite(.offPool) struct DayReportTests {
    static let zone = TimeZone(identifier: "Europe/Paris")!

    /// 1 December 2026 in Paris: a morning walk with stairs, a bus ride, an evening walk.
    static func sampleDay(empty: Bool = false) -> DayData {
        let noon = ISO8601DateFormatter().date(from: "2026-12-01T11:00:00Z")!
        let (start, end, slots) = DayData.hours(ofDayContaining: noon, in: zone)
        let steps = [0, 0, 0, 0, 0, 0, 0, 420, 2310, 150, 0, 0, 880, 95, 0, 0, 0, 1200, 3100, 60, 0, 0, 0, 0]
        let hours = slots.enumerated().map { i, slot in
            HistoryTotals(start: slot.0, end: slot.1, steps: empty ? 0 : steps[i], distanceMeters: empty ? 0 : Double(steps[i]) * 0.72,
                    floorsAscended: empty ? 0 : (i == 8 ? 3 : 0), floorsDescended: empty ? 0 : (i == 17 ? 2 : 0),
                    activeSeconds: empty ? 0 : Double(steps[i]) / 1.8)
        }
        func at(_ h: Double) -> Date { start.addingTimeInterval(h * 3600) }
        let activities = empty ? [] : [
            HistoryActivity(start: at(0), end: at(7.5), activity: .stationary, confidence: .high),
            HistoryActivity(start: at(7.5), end: at(8.6), activity: .walking, confidence: .high),
            HistoryActivity(start: at(8.6), end: at(9.1), activity: .vehicle, confidence: .medium),
            HistoryActivity(start: at(9.1), end: at(17.2), activity: .stationary, confidence: .medium),
            HistoryActivity(start: at(17.2), end: at(18.6), activity: .walking, confidence: .high),
            HistoryActivity(start: at(18.6), end: at(18.9), activity: .running, confidence: .low),
            HistoryActivity(start: at(18.9), end: at(24), activity: .unknown, confidence: .low),
        ]
        return DayData(start: start, end: end, timeZone: zone, hours: hours, activities: activities, source: "/tmp/history <test>.sqlite")
    }

    @Test func thePageNamesTheDayAndItsTotalsAndLoadsNothing() {
        let html = DayReport.render(Self.sampleDay())
        #expect(html.contains("<title>Steps and activity on Tuesday 1 December 2026</title>"))
        #expect(html.contains("<dd>8215</dd>"), "total steps")
        #expect(html.contains("<dd>5.91 km</dd>"))
        #expect(html.contains("/tmp/history &lt;test&gt;.sqlite"), "the source is escaped")
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href=") && !html.contains("url("), "nothing to load")
        #expect(html.contains("default-src 'none'"))
        #expect(!html.contains("No history for this day"))
    }

    @Test func anEmptyDaySaysSoInEveryPanel() {
        let html = DayReport.render(Self.sampleDay(empty: true))
        #expect(html.contains("No history for this day"))
        #expect(html.contains("No steps recorded on this day"))
        #expect(html.contains("No floors climbed or descended on foot on this day"))
        #expect(html.contains("No activity recorded on this day"))
    }

    @Test func aDaylightSavingDayHasItsOwnNumberOfHours() {
        let spring = ISO8601DateFormatter().date(from: "2026-03-29T12:00:00Z")!
        let autumn = ISO8601DateFormatter().date(from: "2026-10-25T12:00:00Z")!
        #expect(DayData.hours(ofDayContaining: spring, in: Self.zone).hours.count == 23)
        #expect(DayData.hours(ofDayContaining: autumn, in: Self.zone).hours.count == 25)
    }
}

@Suite(.offPool, .serialized, .enabled(if: Browser.path != nil, "\(Browser.absentMessage)"))
struct DayReportBrowserTests {
    @Test func thePageRendersWithoutConsoleErrorsTheSameInADarkViewerAndBarsSitInTheirHours() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let day = DayReportTests.sampleDay()
        let page = dir.appendingPathComponent("day.html").path
        try DayReport.render(day).write(toFile: page, atomically: true, encoding: .utf8)
        // Each inline chart is a well-formed SVG document of its own.
        if let xmllint = BuiltTool.xmllint {
            let charts = DayCharts(day: day)
            for (name, svg) in [("steps", charts.steps), ("floors", charts.floors), ("activity", charts.activity)] {
                let file = dir.appendingPathComponent("\(name)-chart.svg").path
                try svg.write(toFile: file, atomically: true, encoding: .utf8)
                let r = try BuiltTool.runExecutable(xmllint, ["--noout", file], timeout: 60)
                #expect(r.status == 0, "xmllint \(name): \(r.stderr)")
            }
        }
        let light = try Browser.render(page, width: 1000, height: 1000)
        let dark = try Browser.render(page, width: 1000, height: 1000, dark: true)
        #expect(light.consoleLines.isEmpty && dark.consoleLines.isEmpty, "console: \(light.consoleLines + dark.consoleLines)")
        #expect(light.image.difference(from: dark.image) < 0.001, "a dark viewer changes the page")
        let coloured = light.image.count(x: 0..<1000, y: 0..<1000) { light.image.isChromatic($0, $1) }
        #expect(coloured > 20_000, "the page shows its charts (\(coloured) coloured pixels)")

        // The steps chart alone: a bar in exactly the hours with steps.
        let chart = dir.appendingPathComponent("steps.svg").path
        try DayCharts(day: day).steps.write(toFile: chart, atomically: true, encoding: .utf8)
        let shot = try Browser.render(chart, width: Int(DayCharts.width), height: 232)
        let charts = DayCharts(day: day)
        for (i, hour) in day.hours.enumerated() {
            let x0 = Int(DayCharts.left + Double(i) * charts.columnWidth) + 4, x1 = Int(DayCharts.left + Double(i + 1) * charts.columnWidth) - 4
            let bar = shot.image.count(x: x0..<x1, y: 12..<192) { shot.image.matches($0, $1, Palette.bluishGreen) }
            if hour.steps > 0 { #expect(bar > 0, "hour \(i) has \(hour.steps) steps but no bar") } else { #expect(bar == 0, "hour \(i) has no steps but a bar") }
        }
        // Bar heights follow the steps: the 18:00 bar (3100) is taller than the 08:00 bar (2310).
        func height(_ i: Int) -> Int {
            let x = Int(DayCharts.left + (Double(i) + 0.5) * charts.columnWidth)
            return shot.image.count(x: x..<(x + 1), y: 12..<192) { shot.image.matches($0, $1, Palette.bluishGreen) }
        }
        let ratio = Double(height(8)) / Double(height(18))
        #expect(abs(ratio - 2310.0 / 3100) < 0.02, "bar heights 08:00/18:00 = \(ratio)")
    }

    @Test func anEmptyDayRendersItsMessages() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let page = dir.appendingPathComponent("empty-day.html").path
        try DayReport.render(DayReportTests.sampleDay(empty: true)).write(toFile: page, atomically: true, encoding: .utf8)
        let shot = try Browser.render(page, width: 1000, height: 1000)
        #expect(shot.consoleLines.isEmpty, "console: \(shot.consoleLines)")
        // The notice's vermillion border is on screen.
        #expect(shot.image.count(x: 0..<1000, y: 0..<300) { shot.image.matches($0, $1, Palette.vermillion) } > 500)
    }
}
