import IMUCore
import Pedometer

/// Everything the recording SVG shows, already reduced to pixel columns.
public struct RecordingChart {
    public var title: String
    /// Plotted span, recording seconds.
    public var from: Double
    public var to: Double
    public var firstSampleTime: Double
    public var clock: ClockAnchor?
    var layout: ChartLayout
    /// One reduced bin per pixel column of the plot area, left to right.
    var columns: [TimeBin]
    /// Mean time of the steps in each fine bin (4 per column), s: where the step ticks go.
    var stepTicks: [Double]
    var trueStepTicks: [Double]
    public var sensors: SensorCapabilities
    public var samples: Int
    public var accelerationReadings: Int
    public var pressureReadings: Int
    /// The pedometer's totals over the whole recording.
    public var totals: PedometerSnapshot
    var truth: TruthOverlay?
    public var recordingEnd: Double

    /// Steps drawn (inside the plotted span).
    public var stepsInView: Int { columns.reduce(0) { $0 + $1.steps.count } }
    public var floorsUpInView: Int { columns.reduce(0) { $0 + $1.floorsUp.count } }
    public var floorsDownInView: Int { columns.reduce(0) { $0 + $1.floorsDown.count } }
}

/// Sizes of the recording plot, px. The plot area (one pixel column per time column) sits between
/// a left margin wide enough for the value labels and a small right margin.
struct ChartLayout: Sendable {
    let width: Int
    static let left = 64
    static let right = 16
    static let minimumWidth = 400

    var plotLeft: Double { Double(Self.left) }
    var plotWidth: Int { Swift.max(Self.minimumWidth, width) - Self.left - Self.right }
    var plotRight: Double { plotLeft + Double(plotWidth) }
}
