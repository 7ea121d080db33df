import Foundation
import IMUCore
import IMUHistory
import Pedometer

/// The day report's three charts, each a standalone SVG (inlined in the page): steps per hour,
/// floors per hour, and the activity timeline. All share the same hour columns.
struct DayCharts {
    let day: DayData
    static let width = 960.0
    static let left = 56.0
    static let right = 12.0
    var plotWidth: Double { Self.width - Self.left - Self.right }
    var columnWidth: Double { plotWidth / Double(Swift.max(1, day.hours.count)) }

    func x(_ date: Date) -> Double {
        Self.left + date.timeIntervalSince(day.start) / day.end.timeIntervalSince(day.start) * plotWidth
    }

    /// Local hour label ("00" … "23") of each hour's start.
    func hourLabel(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = day.zone(at: date)
        let h = calendar.component(.hour, from: date)
        return h < 10 ? "0\(h)" : "\(h)"
    }

    private func open(_ id: String, height: Double, title: String, desc: String) -> SVGBuilder {
        var svg = SVGBuilder()
        svg.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"\(id)\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" "
                + "width=\"\(Int(Self.width))\" height=\"\(Int(height))\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\" "
                + "font-family=\"\(SVGBuilder.font)\" style=\"color-scheme: light only\">\n")
        svg.raw("<title id=\"\(id)-title\">\(Markup.escape(title))</title>\n<desc id=\"\(id)-desc\">\(Markup.escape(desc))</desc>\n")
        svg.rect(0, 0, Self.width, height, fill: Palette.page)
        return svg
    }

    /// Hour labels: under the middle of each hour's bar (`boundaries` false), or at the hour's
    /// start with a tick, for the continuous activity timeline.
    private func hourAxis(_ svg: inout SVGBuilder, y: Double, boundaries: Bool = false) {
        let every = day.hours.count > 12 ? 2 : 1
        for (i, h) in day.hours.enumerated() where i % every == 0 {
            if boundaries {
                let hx = x(h.start)
                svg.line(hx, y - 15, hx, y - 10, stroke: Palette.frame)
                svg.text(hx, y, hourLabel(h.start) + ":00", size: 11, anchor: "middle")
            } else {
                svg.text(Self.left + (Double(i) + 0.5) * columnWidth, y, hourLabel(h.start), size: 11, anchor: "middle")
            }
        }
    }

    private func emptyMessage(_ svg: inout SVGBuilder, top: Double, height: Double, _ text: String) {
        svg.text(Self.left + plotWidth / 2, top + height / 2 + 4, text, size: 13, anchor: "middle", italic: true, fill: Palette.muted)
    }

    var steps: String {
        let top = 12.0, height = 180.0
        let peak = day.hours.map(\.steps).max() ?? 0
        // At least 0…100 steps, so an empty or quiet day still has a sensible scale.
        let axis = ValueAxis(low: 0, high: Double(Swift.max(peak, 100)), minimumSpan: 1, ticks: 4)
        let busiest = day.hours.max { $0.steps < $1.steps }
        let desc = day.steps == 0 ? "No steps recorded." :
            "\(counted(day.steps, "step")); the busiest hour starts at \(hourLabel(busiest!.start)):00 with \(counted(busiest!.steps, "step"))."
        var svg = open("steps-chart", height: top + height + 40, title: "Steps per hour", desc: desc)
        for v in axis.ticks {
            let y = axis.y(v, top: top, height: height)
            svg.line(Self.left, y, Self.left + plotWidth, y, stroke: Palette.grid)
            svg.text(Self.left - 6, y + 4, Number.label(v, step: axis.step), size: 10, anchor: "end")
        }
        svg.verticalText(14, top + height / 2, "steps")
        for (i, h) in day.hours.enumerated() where h.steps > 0 {
            let y = axis.y(Double(h.steps), top: top, height: height)
            svg.rect(Self.left + Double(i) * columnWidth + 2, y, columnWidth - 4, top + height - y, fill: Palette.bluishGreen,
                     title: "\(hourLabel(h.start)):00: \(counted(h.steps, "step")), \(Number.text(h.distanceMeters, decimals: 0)) m",
                     attributes: "data-hour=\"\(i)\" data-steps=\"\(h.steps)\"")
        }
        svg.rect(Self.left, top, plotWidth, height, fill: "none", stroke: Palette.frame)
        if day.steps == 0 { emptyMessage(&svg, top: top, height: height, "No steps recorded on this day") }
        hourAxis(&svg, y: top + height + 16)
        svg.text(Self.left + plotWidth / 2, top + height + 34, "hour of the day (\(day.zoneName))", size: 11, anchor: "middle", fill: Palette.muted)
        svg.raw("</svg>\n")
        return svg.out
    }

    var floors: String {
        let top = 12.0, half = 60.0
        let peak = day.hours.map { Swift.max($0.floorsAscended, $0.floorsDescended) }.max() ?? 0
        let scale = half / Double(Swift.max(3, peak))
        let mid = top + half
        let desc = day.floorsAscended + day.floorsDescended == 0 ? "No floors climbed or descended on foot." :
            "\(counted(day.floorsAscended, "floor")) up and \(day.floorsDescended) down on foot."
        var svg = open("floors-chart", height: top + 2 * half + 40, title: "Floors per hour", desc: desc)
        svg.text(Self.left - 6, top + 10, "↑ \(Swift.max(3, peak))", size: 10, anchor: "end")
        svg.text(Self.left - 6, mid + 4, "0", size: 10, anchor: "end")
        svg.text(Self.left - 6, mid + half, "↓ \(Swift.max(3, peak))", size: 10, anchor: "end")
        svg.verticalText(14, mid, "floors")
        for (i, h) in day.hours.enumerated() {
            let x0 = Self.left + Double(i) * columnWidth + 2, w = columnWidth - 4
            if h.floorsAscended > 0 {
                let hgt = Double(h.floorsAscended) * scale
                svg.rect(x0, mid - hgt, w, hgt, fill: Palette.floorUp, title: "\(hourLabel(h.start)):00: \(counted(h.floorsAscended, "floor")) up")
                svg.text(x0 + w / 2, mid - hgt - 3, "▲\(h.floorsAscended)", size: 10, anchor: "middle")
            }
            if h.floorsDescended > 0 {
                let hgt = Double(h.floorsDescended) * scale
                svg.rect(x0, mid, w, hgt, fill: Palette.floorDown, title: "\(hourLabel(h.start)):00: \(counted(h.floorsDescended, "floor")) down")
                svg.text(x0 + w / 2, mid + hgt + 11, "▼\(h.floorsDescended)", size: 10, anchor: "middle")
            }
        }
        svg.line(Self.left, mid, Self.left + plotWidth, mid, stroke: Palette.frame)
        svg.rect(Self.left, top, plotWidth, 2 * half, fill: "none", stroke: Palette.frame)
        if day.floorsAscended + day.floorsDescended == 0 {
            emptyMessage(&svg, top: top, height: half, "No floors climbed or descended on foot on this day")
        }
        hourAxis(&svg, y: top + 2 * half + 16)
        svg.raw("</svg>\n")
        return svg.out
    }

    var activity: String {
        let top = 12.0, height = 36.0
        var seconds: [ActivityClass: Double] = [:]
        for a in day.activities { seconds[a.activity, default: 0] += a.end.timeIntervalSince(a.start) }
        let listed = ActivityTally.classes.compactMap { a in seconds[a].map { "\(a.rawValue) \(Number.duration($0))" } }
        let desc = listed.isEmpty ? "No activity recorded." : "Time per activity: " + listed.joined(separator: ", ") + "."
        var svg = open("activity-chart", height: top + height + 58, title: "Activity timeline", desc: desc)
        for a in day.activities {
            let s = Swift.max(a.start, day.start), e = Swift.min(a.end, day.end)
            guard e > s else { continue }
            let fraction: Double = a.confidence == .high ? 1 : a.confidence == .medium ? 2.0 / 3 : 1.0 / 3
            let h = height * fraction
            svg.rect(x(s), top + height - h, Swift.max(0.5, x(e) - x(s)), h, fill: Palette.activity(a.activity),
                     title: "\(a.activity.rawValue), \(a.confidence.rawValue) confidence, \(clock(s))–\(clock(e))")
        }
        svg.rect(Self.left, top, plotWidth, height, fill: "none", stroke: Palette.frame)
        if day.activities.isEmpty { emptyMessage(&svg, top: top, height: height, "No activity recorded on this day") }
        hourAxis(&svg, y: top + height + 16, boundaries: true)
        var lx = Self.left
        for a in ActivityTally.classes {
            svg.rect(lx, top + height + 32, 14, 12, fill: Palette.activity(a), stroke: Palette.frame)
            svg.text(lx + 19, top + height + 42, a.rawValue, size: 11)
            lx += Double(a.rawValue.count) * 6.6 + 34
        }
        svg.text(lx + 10, top + height + 42, "band height = confidence (low ⅓, medium ⅔, high full)", size: 11, fill: Palette.muted)
        svg.raw("</svg>\n")
        return svg.out
    }

    /// Local HH:MM of `date`; the day's end reads 24:00.
    private func clock(_ date: Date) -> String {
        if date >= day.end { return "24:00" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = day.zone(at: date)
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return TimeAxis.clockText((c.hour ?? 0) * 3600 + (c.minute ?? 0) * 60, seconds: false)
    }
}
