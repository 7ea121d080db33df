import Foundation
import Testing
import IMUSimulation
@testable import IMUPlot
import Pedometer

@Suite struct RecordingPlotterTests {
    func plot(_ scenario: String, span: PlotSpan = .all, change: (inout SimulationOptions) -> Void = { _ in })
        throws -> (chart: RecordingChart, events: [PedometerEvent]) {
        var options = SimulationOptions()
        change(&options)
        let (samples, _) = Simulator.generate(try Scenario.resolve(scenario), options: options)
        var plotter = RecordingPlotter(pedometer: Pedometer(capabilities: options.capabilities), width: 1200, span: span)
        var reference = Pedometer(capabilities: options.capabilities)
        var events: [PedometerEvent] = []
        for s in samples { plotter.process(s); reference.process(s, into: &events) }
        plotter.finish()
        reference.finish(into: &events)
        return (try plotter.chart(title: scenario, clock: nil), events)
    }

    /// Each tick is drawn at a step the pedometer reported (one step per fine bin at a walk).
    @Test func ticksAreThePedometersSteps() throws {
        let (chart, events) = try plot("walk")
        let steps = events.compactMap { if case .step(let t) = $0 { t } else { nil } }
        #expect(steps.count > 150)
        #expect(chart.stepsInView == steps.count)
        #expect(chart.stepTicks.count == steps.count, "at 1200 px over 2 min no two steps share a bin")
        for (tick, step) in zip(chart.stepTicks, steps) { #expect(abs(tick - step) < 1e-9) }
    }

    @Test func aViewCountsOnlyWhatIsInsideIt() throws {
        let (chart, events) = try plot("walk", span: PlotSpan(from: 30, to: 60))
        let first = chart.firstSampleTime
        let inside = events.filter { if case .step(let t) = $0 { t >= first + 30 && t < first + 60 } else { false } }.count
        #expect(chart.stepsInView == inside)
        #expect(chart.totals.steps > chart.stepsInView)
        #expect(abs(chart.from - (first + 30)) < 1e-9 && abs(chart.to - (first + 60)) < 1e-9)
    }

    @Test func aStillRecordingSaysThereAreNoStepsOrWalking() throws {
        let (chart, _) = try plot("still")
        let svg = RecordingSVG.render(chart)
        #expect(chart.stepsInView == 0)
        #expect(svg.contains("no steps in this view"))
        #expect(svg.contains("No walking detected"))
        #expect(svg.contains("<title id=\"plot-title\">still</title>"))
        #expect(svg.contains("<desc id=\"plot-desc\">"))
    }

    /// The first and the last sample both reach the plot (the last one sits exactly at its right edge).
    @Test func theFirstAndLastSamplesAreDrawn() throws {
        var plotter = RecordingPlotter(pedometer: Pedometer(capabilities: SensorCapabilities(accelerometer: false, barometer: true)), width: 800)
        for (t, p) in [(0.0, 1000.0), (1, 1000.1), (2, 1000.2), (3, 999.9)] { plotter.process(MotionSample(time: t, pressure: p)) }
        plotter.finish()
        let chart = try plotter.chart(title: "p only", clock: nil)
        #expect(chart.columns.first?.altitude.isEmpty == false)
        let last = try #require(chart.columns.last?.altitude)
        // 999.9 hPa after 1000.0 hPa: about +0.83 m (8.3 m/hPa near sea level).
        #expect(!last.isEmpty && abs(last.max - 0.83) < 0.05, "last column: \(last)")
    }

    @Test func noSamplesIsAnErrorNotAnEmptyPlot() {
        let plotter = RecordingPlotter(pedometer: Pedometer(capabilities: SensorCapabilities(accelerometer: true)), width: 800)
        #expect(throws: PlotSpanError.self) { try plotter.chart(title: "empty", clock: nil) }
    }

    /// The worst case for size: every pixel column full (extremes, a tick in every fine bin, floors
    /// both ways, a different activity each column, truth everywhere) stays far below 2 MB.
    @Test func theSVGStaysSmallWhateverTheData() throws {
        let layout = ChartLayout(width: 1200)
        var columns: [TimeBin] = []
        for c in 0..<layout.plotWidth {
            var b = TimeBin()
            b.acceleration.add(Double(c % 7) * 0.3); b.acceleration.add(3 + Double(c % 5))
            b.altitude.add(Double(c % 11)); b.altitude.add(Double(c % 13) + 2)
            b.cadence.add(100 + Double(c % 9)); b.cadence.add(120)
            b.floorsUp.add(Double(c)); b.floorsDown.add(Double(c)); b.trueFloorsUp.add(Double(c)); b.trueFloorsDown.add(Double(c))
            b.boutSeconds = c % 2 == 0 ? 1 : 0
            b.activity.add(ActivityTally.classes[c % 5], ActivityTally.confidences[c % 3], seconds: 1)
            b.trueActivity.add(ActivityTally.classes[(c + 1) % 5], .high, seconds: 1)
            columns.append(b)
        }
        let day = 86_400.0
        let ticks = (0..<(4 * layout.plotWidth)).map { Double($0) * day / Double(4 * layout.plotWidth) }
        let truth = TruthOverlay(stepTimes: ticks, floors: [], activities: [],
                                 cadences: (0..<2000).map { (Double($0) * 40, Double($0) * 40 + 20, 110) }, altitude: { sin($0) })
        var totals = PedometerSnapshot()
        totals.steps = ticks.count
        let chart = RecordingChart(title: "worst case", from: 0, to: day, firstSampleTime: 0, clock: nil, layout: layout,
                                   columns: columns, stepTicks: ticks, trueStepTicks: ticks,
                                   sensors: SensorCapabilities(accelerometer: true, gyroscope: true, barometer: true),
                                   samples: 8_640_000, accelerationReadings: 8_640_000, pressureReadings: 2_160_000,
                                   totals: totals, truth: truth, recordingEnd: day)
        let svg = RecordingSVG.render(chart)
        #expect(svg.utf8.count < 2_000_000, "\(svg.utf8.count) bytes")
    }
}
