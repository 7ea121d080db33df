import IMUCore
import Pedometer

/// Draws a `RecordingChart` as one self-contained SVG document: four panels on one time axis
/// (acceleration with step ticks, cadence with walking bouts, altitude with floors, activity with
/// confidence), a legend, a <title> and a <desc> that says in words what the plot shows.
///
/// Size does not grow with the recording: every panel is drawn from one reduced bin per pixel
/// column (step ticks from four bins per column), so a day-long recording makes an SVG of a few
/// hundred kilobytes at most.
public enum RecordingSVG {
    /// Longest silence drawn across in the acceleration trace, s: the pedometer's own
    /// `Pedometer.maximumGap`; longer is a gap in the recording and is left blank.
    static let accelerationBridgeSeconds = Pedometer.maximumGap
    /// Longest silence drawn across in the altitude trace, s: barometers report at 1 Hz or faster,
    /// so five seconds without a reading is a gap.
    static let altitudeBridgeSeconds = 5.0
    /// Cadence is read every 0.25 s while walking (`RecordingPlotter.cadenceInterval`); a second
    /// without a value means the walk stopped.
    static let cadenceBridgeSeconds = 1.0

    public static func render(_ chart: RecordingChart) -> String {
        var r = Renderer(chart)
        return r.document()
    }
}

private struct Panel {
    var top: Double
    var height: Double
    var bottom: Double { top + height }
}

private struct Renderer {
    let c: RecordingChart
    let layout: ChartLayout
    let secondsPerColumn: Double
    var svg = SVGBuilder()
    var legend: [(kind: String, colour: String, label: String)] = []

    init(_ chart: RecordingChart) {
        c = chart
        layout = chart.layout
        secondsPerColumn = (chart.to - chart.from) / Double(chart.layout.plotWidth)
    }

    /// x of recording time `t`, px.
    func x(_ t: Double) -> Double { layout.plotLeft + (t - c.from) / (c.to - c.from) * Double(layout.plotWidth) }
    /// The centre of the pixel column holding time `t` (a 1 px line there covers exactly that column).
    func columnCentre(_ t: Double) -> Double { x(t).rounded(.down) + 0.5 }

    var hasTruth: Bool { c.truth != nil }
    var hasAccelerometer: Bool { c.sensors.accelerometer && c.accelerationReadings > 0 }

    mutating func document() -> String {
        var body = SVGBuilder()
        swap(&body, &svg)
        var y = 74.0
        let accel = Panel(top: y + 18, height: 120)
        y = accel.bottom + 4
        let steps = Panel(top: y, height: 14)
        y = steps.bottom + (hasTruth ? 4 : 0)
        let trueSteps = Panel(top: y, height: hasTruth ? 14 : 0)
        y = trueSteps.bottom + 10
        let cadence = Panel(top: y + 18, height: 90)
        y = cadence.bottom + 10
        let altitude = Panel(top: y + 18, height: 90)
        y = altitude.bottom + 10
        let activity = Panel(top: y + 18, height: 26)
        y = activity.bottom + (hasTruth ? 3 : 0)
        let trueActivity = Panel(top: y, height: hasTruth ? 12 : 0)
        y = trueActivity.bottom
        let axisTop = y
        let height = axisTop + 96

        timeGrid(from: accel.top, to: trueActivity.bottom)
        accelerationPanel(accel)
        stepStrip(steps, ticks: c.stepTicks, label: "steps", colour: Palette.step, id: "steps")
        if hasTruth { stepStrip(trueSteps, ticks: c.trueStepTicks, label: "true steps", colour: Palette.truth, id: "true-steps") }
        cadencePanel(cadence)
        altitudePanel(altitude)
        activityPanel(activity, truth: hasTruth ? trueActivity : nil)
        timeAxis(top: axisTop)
        activityLegend(y: axisTop + 78)
        swap(&body, &svg)

        // Header last: the legend collects what the panels drew.
        let w = Double(Swift.max(ChartLayout.minimumWidth, layout.width))
        svg.raw("""
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(Int(w))" height="\(Int(height))" \
        viewBox="0 0 \(Int(w)) \(Int(height))" role="img" aria-labelledby="plot-title plot-desc" \
        font-family="\(SVGBuilder.font)" style="color-scheme: light only" \
        data-t0="\(Number.text(c.from, decimals: 6))" data-t1="\(Number.text(c.to, decimals: 6))" \
        data-x0="\(Number.px(layout.plotLeft))" data-x1="\(Number.px(layout.plotRight))">
        <title id="plot-title">\(Markup.escape(c.title))</title>
        <desc id="plot-desc">\(Markup.escape(description))</desc>

        """)
        svg.rect(0, 0, w, Double(Int(height)), fill: Palette.page)
        svg.text(layout.plotLeft, 24, c.title, size: 16, bold: true)
        svg.text(layout.plotLeft, 44, summaryLine, size: 12, fill: Palette.muted)
        legendRow(y: 62, width: w)
        svg.raw(body.out)
        svg.raw("</svg>\n")
        return svg.out
    }

    // MARK: Words

    var description: String {
        var parts = ["Four panels over \(Number.duration(c.to - c.from)) of \(c.title)."]
        if hasAccelerometer {
            parts.append("\(counted(c.stepsInView, "step")) in view (\(c.totals.steps) in the whole recording).")
            let walking = c.columns.reduce(0) { $0 + $1.boutSeconds }
            parts.append("Walking bouts: \(Number.duration(walking)).")
            let cad = c.columns.reduce(Extent()) { var e = $0; e.merge($1.cadence); return e }
            if !cad.isEmpty { parts.append("Cadence \(Int(cad.min.rounded())) to \(Int(cad.max.rounded())) steps per minute.") }
        } else {
            parts.append("No accelerometer readings: no steps or cadence.")
        }
        if c.pressureReadings > 0 {
            parts.append("Floors: \(c.floorsUpInView) up, \(c.floorsDownInView) down.")
        } else {
            parts.append("No barometer readings: altitude and floors are not available.")
        }
        var seconds: [ActivityClass: Double] = [:]
        for col in c.columns { if let d = col.activity.dominant { seconds[d.activity, default: 0] += secondsPerColumn } }
        let listed = ActivityTally.classes.compactMap { a in seconds[a].map { "\(a.rawValue) \(Number.duration($0))" } }
        if !listed.isEmpty { parts.append("Activity: " + listed.joined(separator: ", ") + ".") }
        if hasTruth { parts.append("Ground truth of the simulation overlaid in black: \(counted(c.truth!.stepTimes.count, "true step")).") }
        return parts.joined(separator: " ")
    }

    var summaryLine: String {
        var s = "\(Number.duration(c.to - c.from)) shown"
        if c.from > c.firstSampleTime || c.to < c.recordingEnd {
            s += " of \(Number.duration(c.recordingEnd - c.firstSampleTime))"
        }
        if hasAccelerometer {
            s += " · \(counted(c.stepsInView, "step"))"
            if c.stepsInView != c.totals.steps { s += " (\(c.totals.steps) in all)" }
        }
        if c.pressureReadings > 0 { s += " · floors ↑\(c.floorsUpInView) ↓\(c.floorsDownInView)" }
        if c.totals.distanceMeters > 0 { s += " · \(Number.text(c.totals.distanceMeters, decimals: 0)) m walked in all" }
        s += " · \(counted(c.samples, "sample"))"
        return s
    }

    // MARK: Frame, grid, axes

    mutating func timeGrid(from top: Double, to bottom: Double) {
        let axis = TimeAxis(from: c.from, to: c.to, firstSample: c.firstSampleTime, clock: c.clock)
        for tick in axis.ticks(width: Double(layout.plotWidth)) {
            svg.line(x(tick.time), top, x(tick.time), bottom, stroke: Palette.grid)
        }
    }

    mutating func timeAxis(top: Double) {
        let axis = TimeAxis(from: c.from, to: c.to, firstSample: c.firstSampleTime, clock: c.clock)
        svg.raw("<g id=\"time-axis\" aria-label=\"time axis\">\n")
        svg.line(layout.plotLeft, top + 2, layout.plotRight, top + 2, stroke: Palette.frame)
        for tick in axis.ticks(width: Double(layout.plotWidth)) {
            let tx = x(tick.time)
            svg.line(tx, top + 2, tx, top + 7, stroke: Palette.frame)
            svg.text(tx, top + 20, tick.label, size: 11, anchor: "middle")
        }
        svg.text((layout.plotLeft + layout.plotRight) / 2, top + 38, axis.title, size: 12, anchor: "middle")
        svg.raw("</g>\n")
    }

    mutating func panelFrame(_ p: Panel, title: String, axis: ValueAxis?, unit: String) {
        svg.text(layout.plotLeft, p.top - 5, title, size: 12, bold: true)
        if let axis {
            for v in axis.ticks {
                let ty = axis.y(v, top: p.top, height: p.height)
                svg.line(layout.plotLeft, ty, layout.plotRight, ty, stroke: Palette.grid)
                svg.text(layout.plotLeft - 6, ty + 4, Number.label(v, step: axis.step), size: 10, anchor: "end")
            }
            svg.verticalText(16, p.top + p.height / 2, unit)
        }
        svg.rect(layout.plotLeft, p.top, Double(layout.plotWidth), p.height, fill: "none", stroke: Palette.frame)
    }

    /// The panel's vertical extent as data attributes, for tests that look at the rendered pixels.
    static func span(_ p: Panel) -> String { "data-y0=\"\(Number.px(p.top))\" data-y1=\"\(Number.px(p.bottom))\"" }

    mutating func missing(_ p: Panel, _ message: String) {
        svg.text((layout.plotLeft + layout.plotRight) / 2, p.top + p.height / 2 + 4, message, size: 12,
                 anchor: "middle", italic: true, fill: Palette.muted)
    }

    // MARK: Panels

    mutating func accelerationPanel(_ p: Panel) {
        let extents = c.columns.map(\.acceleration)
        let all = extents.reduce(Extent()) { var e = $0; e.merge($1); return e }
        let axis = ValueAxis(low: Swift.min(all.min, 0.5), high: all.max, minimumSpan: 1)
        svg.raw("<g id=\"acceleration\" \(Self.span(p)) role=\"group\" aria-label=\"acceleration magnitude in g\">\n")
        panelFrame(p, title: "Acceleration magnitude |a| (g), min–max per pixel column", axis: hasAccelerometer ? axis : nil, unit: "g")
        if hasAccelerometer {
            let bridge = RecordingSVG.accelerationBridgeSeconds / secondsPerColumn
            let d = EnvelopePath.outline(extents, left: layout.plotLeft, bridge: bridge) { axis.y($0, top: p.top, height: p.height) }
            svg.path(d, fill: Palette.acceleration, stroke: Palette.acceleration, width: 1)
            legend.append(("fill", Palette.acceleration, "|a| envelope"))
        } else {
            missing(p, c.sensors.accelerometer ? "The ax,ay,az columns hold no readings: no acceleration, steps or cadence"
                                               : "No accelerometer in this recording (no ax,ay,az columns): no acceleration, steps or cadence")
        }
        svg.raw("</g>\n")
    }

    mutating func stepStrip(_ p: Panel, ticks: [Double], label: String, colour: String, id: String) {
        svg.raw("<g id=\"\(id)\" role=\"group\" aria-label=\"\(label): one tick per step\" data-y0=\"\(Number.px(p.top))\" data-y1=\"\(Number.px(p.bottom))\">\n")
        svg.text(layout.plotLeft - 6, p.top + p.height - 3, label, size: 10, anchor: "end")
        svg.rect(layout.plotLeft, p.top, Double(layout.plotWidth), p.height, fill: "none", stroke: Palette.grid)
        if ticks.isEmpty {
            svg.text(layout.plotLeft + 6, p.top + p.height - 3,
                     hasAccelerometer ? "no \(label) in this view" : "no accelerometer: no steps",
                     size: 10, italic: true, fill: Palette.muted)
        } else {
            var d = ""
            d.reserveCapacity(ticks.count * 16)
            for t in ticks { d += "M\(Number.px(columnCentre(t))) \(Number.px(p.top + 1))v\(Number.px(p.height - 2))" }
            svg.path(d, stroke: colour, width: 1, dash: nil, attributes: "shape-rendering=\"crispEdges\"")
            if id == "steps" { legend.append(("tick", colour, "step")) }
            if id == "true-steps" { legend.append(("dash", Palette.truth, "ground truth")) }
        }
        svg.raw("</g>\n")
    }

    mutating func cadencePanel(_ p: Panel) {
        let extents = c.columns.map(\.cadence)
        let all = extents.reduce(Extent()) { var e = $0; e.merge($1); return e }
        var high = all.isEmpty ? 150 : Swift.max(150, all.max)
        for g in c.truth?.cadences ?? [] { high = Swift.max(high, g.stepsPerMinute) }
        let axis = ValueAxis(low: 0, high: high, minimumSpan: 60, ticks: 3)
        svg.raw("<g id=\"cadence\" \(Self.span(p)) role=\"group\" aria-label=\"cadence in steps per minute, walking bouts shaded\">\n")
        panelFrame(p, title: "Cadence (steps/min), walking bouts shaded", axis: hasAccelerometer ? axis : nil, unit: "steps/min")
        if hasAccelerometer {
            let bouts = EnvelopePath.runs(c.columns.count) { c.columns[$0].boutSeconds > 0 }
            for run in bouts {
                svg.rect(layout.plotLeft + Double(run.start), p.top, Double(run.length), p.height, fill: Palette.bout, opacity: 0.35)
            }
            if !bouts.isEmpty { legend.append(("fill", Palette.bout, "walking bout")) }
            let bridge = RecordingSVG.cadenceBridgeSeconds / secondsPerColumn
            let d = EnvelopePath.outline(extents, left: layout.plotLeft, bridge: bridge) { axis.y($0, top: p.top, height: p.height) }
            svg.path(d, fill: Palette.cadence, stroke: Palette.cadence, width: 1.5)
            if !d.isEmpty { legend.append(("line", Palette.cadence, "cadence")) }
            for g in c.truth?.cadences ?? [] where g.end > c.from && g.start < c.to {
                let gy = axis.y(g.stepsPerMinute, top: p.top, height: p.height)
                svg.line(x(Swift.max(g.start, c.from)), gy, x(Swift.min(g.end, c.to)), gy, stroke: Palette.truth, width: 1.5, dash: "5 3")
            }
            if all.isEmpty { missing(p, "No walking detected in this view: the pedometer found no steps") }
        } else {
            missing(p, "No accelerometer: no cadence")
        }
        svg.raw("</g>\n")
    }

    mutating func altitudePanel(_ p: Panel) {
        let extents = c.columns.map(\.altitude)
        let all = extents.reduce(Extent()) { var e = $0; e.merge($1); return e }
        var trueAltitude: [Double] = []
        if let truth = c.truth {
            let zero = truth.altitude(c.firstSampleTime)
            trueAltitude = (0..<c.columns.count).map { truth.altitude(c.from + (Double($0) + 0.5) * secondsPerColumn) - zero }
        }
        let low = Swift.min(all.isEmpty ? 0 : all.min, trueAltitude.min() ?? .infinity)
        let high = Swift.max(all.isEmpty ? 0 : all.max, trueAltitude.max() ?? -.infinity)
        // At least 6 m (two floors of 3 m) tall, so sensor noise of a few decimetres looks like noise.
        let axis = ValueAxis(low: low, high: high, minimumSpan: 6, ticks: 3)
        svg.raw("<g id=\"altitude\" \(Self.span(p)) role=\"group\" aria-label=\"altitude change in metres, floors marked\">\n")
        let hasBarometer = c.pressureReadings > 0
        panelFrame(p, title: "Altitude change (m) from pressure, floors walked ▲ up ▼ down", axis: hasBarometer || hasTruth ? axis : nil, unit: "m")
        if hasBarometer {
            let bridge = RecordingSVG.altitudeBridgeSeconds / secondsPerColumn
            let d = EnvelopePath.outline(extents, left: layout.plotLeft, bridge: bridge) { axis.y($0, top: p.top, height: p.height) }
            svg.path(d, fill: Palette.altitude, stroke: Palette.altitude, width: 1.5)
            legend.append(("line", Palette.altitude, "altitude"))
            var up = "", down = ""
            for (i, col) in c.columns.enumerated() {
                let cx = layout.plotLeft + Double(i) + 0.5
                if col.floorsUp.count > 0 { up += SVGBuilder.triangle(x: cx, y: p.top + 10, up: true, size: 9) }
                if col.floorsDown.count > 0 { down += SVGBuilder.triangle(x: cx, y: p.top + 2, up: false, size: 9) }
            }
            svg.path(up, fill: Palette.floorUp, stroke: Palette.ink, width: 0.5)
            svg.path(down, fill: Palette.floorDown, stroke: Palette.ink, width: 0.5)
            if !up.isEmpty { legend.append(("up", Palette.floorUp, "floor up")) }
            if !down.isEmpty { legend.append(("down", Palette.floorDown, "floor down")) }
        } else {
            missing(p, c.sensors.barometer ? "The p column holds no readings: altitude and floors are not available"
                                           : "No barometer in this recording (no p column): altitude and floors are not available")
        }
        if !trueAltitude.isEmpty {
            var d = ""
            for (i, a) in trueAltitude.enumerated() {
                d += (i == 0 ? "M" : "L") + "\(Number.px(layout.plotLeft + Double(i) + 0.5)) \(Number.px(axis.y(a, top: p.top, height: p.height)))"
            }
            svg.path(d, stroke: Palette.truth, width: 1.2, dash: "5 3")
            var marks = ""
            for (i, col) in c.columns.enumerated() {
                let cx = layout.plotLeft + Double(i) + 0.5
                if col.trueFloorsUp.count > 0 { marks += SVGBuilder.triangle(x: cx, y: p.bottom - 2, up: true, size: 9) }
                if col.trueFloorsDown.count > 0 { marks += SVGBuilder.triangle(x: cx, y: p.bottom - 10, up: false, size: 9) }
            }
            svg.path(marks, fill: Palette.page, stroke: Palette.truth, width: 1)
        }
        svg.raw("</g>\n")
    }

    mutating func activityPanel(_ p: Panel, truth: Panel?) {
        svg.raw("<g id=\"activity\" \(Self.span(p)) role=\"group\" aria-label=\"activity, band height shows confidence\">\n")
        svg.text(layout.plotLeft, p.top - 5, "Activity (band height = confidence: low ⅓, medium ⅔, high full)", size: 12, bold: true)
        svg.rect(layout.plotLeft, p.top, Double(layout.plotWidth), p.height, fill: "none", stroke: Palette.frame)
        let labels = c.columns.map { $0.activity.dominant }
        let runs = EnvelopePath.runs(labels.count) { labels[$0] != nil }
        var drawn = 0
        for run in runs {
            var s = run.start
            while s < run.start + run.length {
                let label = labels[s]!
                var e = s + 1
                while e < run.start + run.length, labels[e]! == label { e += 1 }
                let fraction: Double = label.confidence == .high ? 1 : label.confidence == .medium ? 2.0 / 3 : 1.0 / 3
                let h = p.height * fraction
                let t0 = c.from + Double(s) * secondsPerColumn, t1 = c.from + Double(e) * secondsPerColumn
                svg.rect(layout.plotLeft + Double(s), p.bottom - h, Double(e - s), h, fill: Palette.activity(label.activity),
                         title: "\(label.activity.rawValue), \(label.confidence.rawValue) confidence, \(Number.duration(t0 - c.firstSampleTime))–\(Number.duration(t1 - c.firstSampleTime))")
                if e - s >= 70 {
                    svg.text(layout.plotLeft + Double(s + e) / 2, p.bottom - 4, label.activity.rawValue, size: 10, anchor: "middle",
                             fill: Palette.onActivity(label.activity))
                }
                drawn += 1
                s = e
            }
        }
        if drawn == 0 { missing(p, "No activity label in this view (the pedometer labels time in windows of several seconds)") }
        if let truth {
            svg.text(layout.plotLeft - 6, truth.bottom - 2, "truth", size: 10, anchor: "end")
            let truthLabels = c.columns.map { $0.trueActivity.dominant?.activity }
            for run in EnvelopePath.runs(truthLabels.count, { truthLabels[$0] != nil }) {
                var s = run.start
                while s < run.start + run.length {
                    let a = truthLabels[s]!
                    var e = s + 1
                    while e < run.start + run.length, truthLabels[e]! == a { e += 1 }
                    svg.rect(layout.plotLeft + Double(s), truth.top, Double(e - s), truth.height, fill: Palette.activity(a),
                             title: "true activity: \(a.rawValue)")
                    s = e
                }
            }
            svg.rect(layout.plotLeft, truth.top, Double(layout.plotWidth), truth.height, fill: "none", stroke: Palette.truth)
        }
        svg.raw("</g>\n")
    }

    // MARK: Legends

    mutating func legendRow(y: Double, width: Double) {
        var lx = layout.plotLeft
        svg.raw("<g id=\"legend\" aria-label=\"legend\">\n")
        for item in legend {
            let labelWidth = Double(item.label.count) * 6.6 + 34
            if lx + labelWidth > width - 8 { break }
            switch item.kind {
            case "tick": svg.line(lx + 7, y - 10, lx + 7, y + 2, stroke: item.colour, width: 1.5)
            case "line": svg.line(lx, y - 4, lx + 16, y - 4, stroke: item.colour, width: 2)
            case "dash": svg.line(lx, y - 4, lx + 16, y - 4, stroke: item.colour, width: 1.5, dash: "5 3")
            case "up", "down": svg.path(SVGBuilder.triangle(x: lx + 8, y: item.kind == "up" ? y : y - 9, up: item.kind == "up", size: 10),
                                        fill: item.colour, stroke: Palette.ink, width: 0.5)
            default: svg.rect(lx, y - 10, 16, 12, fill: item.colour, opacity: item.colour == Palette.bout ? 0.35 : nil)
            }
            svg.text(lx + 21, y, item.label, size: 11)
            lx += labelWidth
        }
        svg.raw("</g>\n")
    }

    mutating func activityLegend(y: Double) {
        var lx = layout.plotLeft
        svg.raw("<g id=\"activity-legend\" aria-label=\"activity colours\">\n")
        for a in ActivityTally.classes {
            svg.rect(lx, y - 10, 16, 12, fill: Palette.activity(a), stroke: Palette.frame)
            svg.text(lx + 21, y, a.rawValue, size: 11)
            lx += Double(a.rawValue.count) * 6.6 + 36
        }
        svg.raw("</g>\n")
    }
}
