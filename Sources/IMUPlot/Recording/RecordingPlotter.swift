import Pedometer

/// Streams samples through the pedometer and into a fixed number of time bins: the plot of a
/// 24-hour recording takes the same memory as the plot of a minute.
///
/// Per sample: |acceleration| and the altitude from pressure go into the bin's extremes. Per
/// pedometer event: steps and floors are tallied, walking bouts (resume … pause) and activity
/// segments add their seconds. Every `cadenceInterval` the pedometer's current cadence is read
/// from its snapshot.
public struct RecordingPlotter {
    public private(set) var pedometer: Pedometer
    public let width: Int
    public let span: PlotSpan
    /// Pixel columns of the plot area; the grid holds four bins per column.
    public var plotColumns: Int { ChartLayout(width: width).plotWidth }

    private var grid: TimeGrid?
    private var events: [PedometerEvent] = []
    private var firstTime: Double?
    private var lastTime: Double?
    private var firstAltitude: Double?
    private var boutStart: Double?
    private var nextCadenceTime = -Double.infinity
    private var truth: TruthOverlay?
    private(set) var samples = 0
    private(set) var pressureReadings = 0
    private(set) var accelerationReadings = 0
    private var finished = false

    /// Cadence read every 0.25 s of recording time: four points per second resolve the pedometer's
    /// cadence, which moves over seconds (it is estimated over multi-second windows).
    static let cadenceInterval = 0.25
    /// Bins per pixel column (see `TimeGrid`).
    static let binsPerColumn = 4

    public init(pedometer: Pedometer, width: Int, span: PlotSpan = .all) {
        self.pedometer = pedometer
        self.width = width
        self.span = span
    }

    public mutating func process(_ sample: MotionSample) {
        let t = sample.time
        guard t.isFinite else { return }
        if firstTime == nil {
            firstTime = t
            let origin = t + Swift.max(0, span.from ?? 0)
            grid = TimeGrid(origin: origin, end: span.to.map { t + $0 }, capacity: Self.binsPerColumn * plotColumns)
        }
        lastTime = t
        samples += 1
        pedometer.process(sample, into: &events)
        if let p = sample.pressure, p.isFinite, p > 0 {
            pressureReadings += 1
            let h = Altitude.meters(pressure: p)
            if firstAltitude == nil { firstAltitude = h }
            if let i = grid!.index(for: t) { grid!.bins[i].altitude.add(h - firstAltitude!) }
        }
        if let a = sample.acceleration {
            let m = (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot()
            if m.isFinite {
                accelerationReadings += 1
                if let i = grid!.index(for: t) { grid!.bins[i].acceleration.add(m) }
            }
        }
        if t >= nextCadenceTime {
            nextCadenceTime = t + Self.cadenceInterval
            if let c = pedometer.snapshot.currentCadence, let i = grid!.index(for: t) { grid!.bins[i].cadence.add(c * 60) }
        }
        if !events.isEmpty { take() }
    }

    /// Ends the stream: the pedometer flushes its last steps, floors and activity.
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        pedometer.finish(into: &events)
        take()
        if let start = boutStart, let end = lastTime {
            grid?.spread(from: start, to: end) { $0.boutSeconds += $1 }
            boutStart = nil
        }
    }

    /// Adds the simulator's ground truth (after `finish`), clipped to the recording.
    public mutating func overlay(_ truth: TruthOverlay) {
        guard var g = grid, let end = lastTime else { self.truth = truth; return }
        for t in truth.stepTimes where t <= end { if let i = g.index(for: t) { g.bins[i].trueSteps.add(t) } }
        for f in truth.floors where f.time <= end {
            if let i = g.index(for: f.time) {
                if f.up { g.bins[i].trueFloorsUp.add(f.time) } else { g.bins[i].trueFloorsDown.add(f.time) }
            }
        }
        for a in truth.activities {
            g.spread(from: a.start, to: Swift.min(a.end, end)) { $0.trueActivity.add(a.activity, .high, seconds: $1) }
        }
        grid = g
        self.truth = truth
    }

    private mutating func take() {
        for e in events {
            switch e {
            case let .step(time):
                if let i = grid?.index(for: time) { grid!.bins[i].steps.add(time) }
            case let .floor(time, direction):
                if let i = grid?.index(for: time) {
                    if direction == .up { grid!.bins[i].floorsUp.add(time) } else { grid!.bins[i].floorsDown.add(time) }
                }
            case let .activity(segment):
                grid?.spread(from: segment.start, to: segment.end) {
                    $0.activity.add(segment.activity, segment.confidence, seconds: $1)
                }
            case let .resume(time):
                boutStart = boutStart ?? time
            case let .pause(time):
                if let start = boutStart { grid?.spread(from: start, to: time) { $0.boutSeconds += $1 } }
                boutStart = nil
            }
        }
        events.removeAll(keepingCapacity: true)
    }

    /// The chart to draw. Throws when the recording has no samples or `span` lies outside it.
    public func chart(title: String, clock: ClockAnchor?) throws -> RecordingChart {
        guard let first = firstTime, let last = lastTime, let grid else {
            throw PlotSpanError("the recording has no samples (only a header): there is nothing to plot",
                                fix: "record one first (imu-record -d 60 -o walk.csv), or check that this is the file you meant")
        }
        let length = last - first
        if let from = span.from, from >= length {
            throw PlotSpanError("--from \(Number.text(from, decimals: 3)) s is at or after the recording's end (it lasts \(Number.text(length, decimals: 3)) s)")
        }
        let from = grid.origin
        var to = grid.fixedEnd ?? last
        if to <= from { to = from + 1 }   // a single sample: draw one second around it
        let layout = ChartLayout(width: width)
        let columns = grid.columns(layout.plotWidth, from: from, to: to)
        var ticks: [Double] = [], trueTicks: [Double] = []
        for b in grid.bins {
            if let t = b.steps.meanTime, t < to { ticks.append(t) }
            if let t = b.trueSteps.meanTime, t < to { trueTicks.append(t) }
        }
        let snapshot = pedometer.snapshot
        return RecordingChart(
            title: title, from: from, to: to, firstSampleTime: first, clock: clock, layout: layout,
            columns: columns, stepTicks: ticks, trueStepTicks: trueTicks,
            sensors: pedometer.sensors, samples: samples, accelerationReadings: accelerationReadings,
            pressureReadings: pressureReadings, totals: snapshot, truth: truth, recordingEnd: last)
    }
}
