import Testing
import Foundation
@testable import IMUCalibration

/// The session state machine driven by synthetic samples (the simulator-driven tests are in
/// SimulatedSessionTests).
@Suite struct SixPositionSessionTests {
    /// Feeds `samples`, collecting every event.
    func run(_ session: inout SixPositionSession, _ samples: [MotionSample]) -> [SessionEvent] {
        samples.flatMap { session.feed($0) }
    }

    func faces(_ events: [SessionEvent]) -> [Face] {
        events.compactMap { if case .captured(let c) = $0 { return c.face } else { return nil } }
    }

    @Test func guidedSessionCapturesAllFacesAndFits() throws {
        var sensor = SyntheticSensor()
        var session = SixPositionSession()
        var events = session.start()
        #expect(events == [.place(.zUp, number: 1)])
        var t = 0.0
        for face in Face.guidedOrder {
            events += run(&session, sensor.handling(seconds: 2, start: t)); t += 2
            events += run(&session, sensor.rest(on: face, seconds: 8, start: t)); t += 8
        }
        #expect(faces(events) == Face.guidedOrder)
        #expect(events.last == .finished)
        #expect(session.isFinished)
        let c = try session.calibration(key: "k", sourceName: "s", created: "t")
        #expect(simdLength(c.accelerometerBias - sensor.bias) < 0.0005)
        #expect(simdLength(c.accelerometerScale - sensor.scale) < 0.0005)
        // Prompts name each next face in order.
        let prompts = events.compactMap { if case .place(let f, _) = $0 { return f } else { return nil } }
        #expect(prompts == Face.guidedOrder)
    }

    @Test func motionDuringCaptureDiscardsAndAsksAgain() {
        var sensor = SyntheticSensor()
        var session = SixPositionSession()
        var events = run(&session, sensor.rest(on: .zUp, seconds: 3, start: 0))   // settle 1 s, capture 2 s of 5
        #expect(events.contains(.settling(.zUp)))
        #expect(!events.contains { if case .captured = $0 { return true } else { return false } })
        events = run(&session, sensor.handling(seconds: 0.3, start: 3))
        #expect(events.first == .motionDuringCapture(.zUp))
        #expect(events.contains(.place(.zUp, number: 1)))
        events = run(&session, sensor.rest(on: .zUp, seconds: 8, start: 3.3))
        #expect(faces(events) == [.zUp])
        // The kept capture is the clean one: it starts after the bump.
        #expect(session.captures[.zUp]!.start > 3.3)
    }

    @Test func slowPushDuringCaptureIsMotion() {
        // Tilting slowly keeps the spread low but moves the mean: caught by the drift limit.
        var sensor = SyntheticSensor()
        var session = SixPositionSession()
        _ = run(&session, sensor.rest(on: .zUp, seconds: 2, start: 0))
        var events: [SessionEvent] = []
        for i in 0..<300 {
            let angle = Double(i) * 0.0005   // 0.05 rad/s: 0.03 g of change in 0.6 s
            events += run(&session, sensor.rest(gravity: Vector3(sin(angle), 0, cos(angle)), seconds: 0.01, start: 2 + Double(i) * 0.01))
        }
        #expect(events.contains(.motionDuringCapture(.zUp)))
    }

    @Test func repeatedFaceIsCaughtOnceAndNotCaptured() {
        var sensor = SyntheticSensor()
        var session = SixPositionSession()
        var events = run(&session, sensor.rest(on: .zUp, seconds: 8, start: 0))
        #expect(faces(events) == [.zUp])
        // Still lying there after the capture is not a mistake yet.
        #expect(!events.contains { if case .repeatedFace = $0 { return true } else { return false } })
        events = run(&session, sensor.handling(seconds: 2, start: 8))
        events += run(&session, sensor.rest(on: .zUp, seconds: 8, start: 10))
        let repeats = events.filter { if case .repeatedFace = $0 { return true } else { return false } }
        #expect(repeats == [.repeatedFace(.zUp, expected: .zDown)])
        #expect(faces(events).isEmpty)
        #expect(session.captures.count == 1)
    }

    @Test func wrongFaceIsCaughtInGuidedOrderAndAcceptedInAnyOrder() {
        var sensor = SyntheticSensor()
        var guided = SixPositionSession()
        var events = run(&guided, sensor.rest(on: .xUp, seconds: 8, start: 0))
        #expect(events.contains(.wrongFace(found: .xUp, expected: .zUp)))
        #expect(faces(events).isEmpty)

        var settings = SessionSettings()
        settings.ordered = false
        var anyOrder = SixPositionSession(settings: settings)
        events = run(&anyOrder, sensor.rest(on: .xUp, seconds: 8, start: 0))
        #expect(faces(events) == [.xUp])
    }

    @Test func tiltedRestIsNotAFace() {
        var sensor = SyntheticSensor()
        var session = SixPositionSession()
        let g = Vector3(0, sin(0.6), cos(0.6))   // 34° off z
        let events = run(&session, sensor.rest(gravity: g, seconds: 8, start: 0))
        let notices = events.compactMap { if case .notOnAFace(let tilt) = $0 { return tilt } else { return nil } }
        #expect(notices.count == 1)
        #expect(abs(notices[0] - 34.4) < 1)
        #expect(faces(events).isEmpty)
    }

    @Test func enterStartsAveragingWithoutWaitingToSettle() {
        var sensor = SyntheticSensor()
        var session = SixPositionSession()
        let samples = sensor.rest(on: .zUp, seconds: 8, start: 0)
        var capturingAt: Double?
        for s in samples {
            if s.time >= 0.6 && s.time < 0.61 { session.confirm() }
            for e in session.feed(s) { if case .capturing = e, capturingAt == nil { capturingAt = s.time } }
        }
        // Without Enter averaging starts after the 0.5 s window + 1 s settle; with it, at once.
        #expect(capturingAt.map { $0 < 0.7 } == true)
        #expect(session.captures[.zUp] != nil)
    }

    @Test func samplesWithoutAccelerationAreIgnored() {
        var session = SixPositionSession()
        let events = (0..<500).flatMap { session.feed(MotionSample(time: Double($0) / 100, pressure: 1000)) }
        #expect(events == [.place(.zUp, number: 1)])
    }

    @Test func burstyTimestampsAreNotMotion() {
        // A slow link delivers 0.1 s bursts every 0.25 s (seen on iiod over a loaded VM): the gaps
        // must not read as movement, and the face is still captured.
        var sensor = SyntheticSensor()
        sensor.noise = 0.0005
        let all = sensor.rest(on: .zUp, seconds: 12, start: 0)
        let bursty = all.filter { $0.time.truncatingRemainder(dividingBy: 0.25) < 0.1 }
        var session = SixPositionSession()
        let events = bursty.flatMap { session.feed($0) }
        #expect(!events.contains(.moving))
        #expect(!events.contains(.motionDuringCapture(.zUp)))
        #expect(faces(events) == [.zUp])
    }
}
