import Testing
import Foundation
import IMUSimulation
@testable import IMUCalibration

/// The session driven by the simulator (IMUSimulation), with a sensor whose bias, scale and
/// misalignment are known.
@Suite struct SimulatedSessionTests {
    static let flawed = SensorErrorModel(scale: Vector3(1.002, 0.997, 1.005), bias: Vector3(0.004, -0.006, 0.010),
                                         misalignment: SensorErrorModel.crossAxis(0.01), noise: 0.003)

    func options(seed: UInt64 = 3) -> SimulationOptions {
        var o = SimulationOptions()
        o.seed = seed
        o.accelerometer = Self.flawed
        o.gyroscope = SensorErrorModel(bias: Vector3(0.02, -0.01, 0.03), noise: 0.002)
        return o
    }

    /// Plays `scenario` through a session; returns the session and every event.
    func play(_ scenario: Scenario, settings: SessionSettings = SessionSettings(), seed: UInt64 = 3)
        -> (SixPositionSession, [SessionEvent]) {
        var session = SixPositionSession(settings: settings)
        var events = session.start()
        var sim = Simulator(scenario: scenario, options: options(seed: seed))
        while let s = sim.next() { events += session.feed(s) }
        return (session, events)
    }

    func captured(_ events: [SessionEvent]) -> [Face] {
        events.compactMap { if case .captured(let c) = $0 { return c.face } else { return nil } }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func recoversKnownBiasScaleAndMisalignment(seed: UInt64) throws {
        let (session, events) = play(Scenario.named("six-position")!, seed: seed)
        #expect(captured(events) == Face.guidedOrder)
        let c = try session.calibration(key: "sim", sourceName: "sim", created: "t")
        for i in 0..<3 {
            #expect(abs(c.accelerometerBias[i] - Self.flawed.bias[i]) < 0.0005, "bias axis \(i)")
            #expect(abs(c.accelerometerScale[i] - Self.flawed.scale[i]) < 0.0005, "scale axis \(i)")
            for j in 0..<3 { #expect(abs(c.misalignment[i, j] - Self.flawed.misalignment[i][j]) < 0.002, "M[\(i)][\(j)]") }
        }
        #expect(simdLength(c.gyroscopeBias! - Vector3(0.02, -0.01, 0.03)) < 0.001)
        #expect(c.quality.gravityErrorAfter < c.quality.gravityErrorBefore / 5)
    }

    @Test func shakingDuringCaptureIsRejectedAndTheFaceRetaken() throws {
        // Rest 3 s on +z (the capture has begun), a 2 s shake, then a clean rest; then the other faces.
        var segments = [Segment(.face(.zUp), seconds: 3), Segment(.face(.zUp), seconds: 2, shake: 0.3),
                        Segment(.face(.zUp), seconds: 9)]
        for f in [FaceUp.zDown, .yUp, .yDown, .xUp, .xDown] {
            segments += [Segment(.transition, seconds: 3), Segment(.face(f), seconds: 9)]
        }
        let (session, events) = play(Scenario(name: "shaken", segments: segments))
        #expect(events.contains(.motionDuringCapture(.zUp)))
        #expect(captured(events) == Face.guidedOrder)
        // The +z capture kept is the one after the shake (which ends at 5 s into the scenario).
        let start = Simulator(scenario: Scenario(name: "shaken", segments: segments), options: options()).truth.startTime
        #expect(session.captures[.zUp]!.start > start + 5)
        let c = try session.calibration(key: "sim", sourceName: "sim", created: "t")
        #expect(abs(c.accelerometerBias.z - Self.flawed.bias.z) < 0.0005)
    }

    @Test func repeatedFaceIsDetected() {
        // Lost track: +z, −z, then +z again instead of +y.
        let scenario = Scenario.sixPosition(secondsPerFace: 9, order: [.zUp, .zDown, .zUp, .yUp])
        let (session, events) = play(scenario)
        #expect(events.contains(.repeatedFace(.zUp, expected: .yUp)))
        #expect(captured(events) == [.zUp, .zDown, .yUp])
        #expect(!session.isFinished)
        #expect(throws: CalibrationError.missingFaces([.yDown, .xUp, .xDown])) {
            try session.calibration(key: "k", sourceName: "s", created: "t")
        }
    }

    @Test func wrongFaceIsDetected() {
        let scenario = Scenario.sixPosition(secondsPerFace: 9, order: [.zUp, .xUp, .zDown])
        let (_, events) = play(scenario)
        #expect(events.contains(.wrongFace(found: .xUp, expected: .zDown)))
        #expect(captured(events) == [.zUp, .zDown])
    }

    @Test func anyOrderAcceptsAShuffledRecording() throws {
        var settings = SessionSettings()
        settings.ordered = false
        let scenario = Scenario.sixPosition(secondsPerFace: 8, order: [.xDown, .zUp, .yUp, .zDown, .xUp, .yDown])
        let (session, _) = play(scenario, settings: settings)
        #expect(session.isFinished)
        let c = try session.calibration(key: "k", sourceName: "s", created: "t")
        #expect(simdLength(c.accelerometerBias - Self.flawed.bias) < 0.0005)
    }
}
