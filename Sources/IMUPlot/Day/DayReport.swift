import Foundation
import IMUHistory

/// One day of the step service's history as one self-contained HTML page: totals, steps per
/// hour, floors per hour and the activity timeline, drawn as inline SVG. No scripts at all, no
/// fonts, images or styles from elsewhere (a Content-Security-Policy forbids any load), so it
/// opens offline and the same everywhere; an hour-by-hour table sits in a <details> for screen
/// readers and for copying numbers.
public enum DayReport {
    public static func render(_ day: DayData) -> String {
        let charts = DayCharts(day: day)
        let title = "Steps and activity on \(dayName(day))"
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light only">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <title>\(Markup.escape(title))</title>
        <style>
        :root { color-scheme: light only; }
        html, body { background: \(Palette.page); color: \(Palette.ink); margin: 0; }
        body { font-family: \(SVGBuilder.font); font-size: 15px; line-height: 1.4; }
        main { max-width: 1000px; margin: 0 auto; padding: 16px 20px 32px; }
        h1 { font-size: 22px; margin: 4px 0 2px; }
        h2 { font-size: 16px; margin: 22px 0 6px; }
        p.source { color: \(Palette.muted); margin: 0 0 12px; font-size: 13px; }
        .notice { border: 2px solid \(Palette.vermillion); background: #FFF4EC; color: \(Palette.ink); padding: 10px 14px; margin: 12px 0; }
        dl.totals { display: flex; flex-wrap: wrap; gap: 10px; margin: 8px 0; }
        dl.totals div { border: 1px solid \(Palette.grid); padding: 8px 14px; min-width: 120px; background: \(Palette.page); }
        dl.totals dt { font-size: 12px; color: \(Palette.muted); }
        dl.totals dd { margin: 0; font-size: 22px; font-weight: bold; color: \(Palette.ink); }
        svg { width: 100%; height: auto; display: block; }
        table { border-collapse: collapse; font-size: 13px; margin-top: 8px; }
        th, td { border: 1px solid \(Palette.grid); padding: 2px 8px; text-align: right; color: \(Palette.ink); background: \(Palette.page); }
        summary { cursor: pointer; color: \(Palette.ink); }
        </style>
        </head>
        <body>
        <main>
        <h1>\(Markup.escape(title))</h1>
        <p class="source">From the step service's history \(Markup.escape(day.source)); hours of the local clock (\(Markup.escape(day.zoneName))).</p>

        """
        if day.isEmpty {
            page += """
            <p class="notice" id="no-history" role="status"><strong>No history for this day.</strong> The step service recorded \
            nothing between 00:00 and 24:00 (\(Markup.escape(day.zoneName))). Was it running? \
            <code>systemctl status imu-stepd</code> tells; the charts below are empty.</p>

            """
        }
        page += """
        <section aria-labelledby="totals-heading">
        <h2 id="totals-heading">Totals</h2>
        <dl class="totals" id="totals">
        <div><dt>steps</dt><dd>\(day.steps)</dd></div>
        <div><dt>distance</dt><dd>\(distance(day.distanceMeters))</dd></div>
        <div><dt>floors up</dt><dd>\(day.floorsAscended)</dd></div>
        <div><dt>floors down</dt><dd>\(day.floorsDescended)</dd></div>
        <div><dt>walking or running</dt><dd>\(Number.duration(day.activeSeconds))</dd></div>
        </dl>
        </section>
        <section aria-labelledby="steps-heading">
        <h2 id="steps-heading">Steps per hour</h2>
        \(charts.steps)</section>
        <section aria-labelledby="floors-heading">
        <h2 id="floors-heading">Floors per hour (on foot)</h2>
        \(charts.floors)</section>
        <section aria-labelledby="activity-heading">
        <h2 id="activity-heading">Activity</h2>
        \(charts.activity)</section>
        <details>
        <summary>Hour by hour (table)</summary>
        <table>
        <thead><tr><th scope="col">hour</th><th scope="col">steps</th><th scope="col">distance (m)</th><th scope="col">floors up</th><th scope="col">floors down</th><th scope="col">active (m:ss)</th></tr></thead>
        <tbody>

        """
        for h in day.hours {
            page += "<tr><th scope=\"row\">\(charts.hourLabel(h.start)):00</th><td>\(h.steps)</td><td>\(Number.text(h.distanceMeters, decimals: 0))</td>"
                + "<td>\(h.floorsAscended)</td><td>\(h.floorsDescended)</td><td>\(Number.duration(h.activeSeconds))</td></tr>\n"
        }
        page += "</tbody>\n</table>\n</details>\n</main>\n</body>\n</html>\n"
        return page
    }

    static func distance(_ meters: Double) -> String {
        meters >= 1000 ? "\(Number.text(meters / 1000, decimals: 2)) km" : "\(Number.text(meters, decimals: 0)) m"
    }

    /// "Tuesday 1 December 2026" (English names; the page is in English).
    public static func dayName(_ day: DayData) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = day.zone(at: day.start)
        let c = calendar.dateComponents([.year, .month, .day, .weekday], from: day.start)
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(weekdays[((c.weekday ?? 1) - 1) % 7]) \(c.day ?? 1) \(months[((c.month ?? 1) - 1) % 12]) \(c.year ?? 0)"
    }
}
