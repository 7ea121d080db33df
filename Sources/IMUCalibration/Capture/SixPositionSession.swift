/// The six-position calibration as a state machine fed with samples: the same code runs the
/// guided live session, replays a recorded session (`--from-recording`) and is driven by the
/// simulator in tests. It never reads a clock: sample timestamps are the only time.
public struct SixPositionSession: Sendable {
    public let settings: SessionSettings
    public private(set) var captures: [Face: FaceCapture] = [:]

    private enum State: Sendable {
        case waiting
        case settling(Face, since: Double)
        case capturing(Face, acceleration: AxisStatistics, rotation: AxisStatistics, halves: [AxisStatistics], start: Double, step: Int)
        case finished
    }
    private enum Notice: Equatable { case moving, notOnAFace, wrong(Face), repeated(Face) }

    private var state: State = .waiting
    private var detector: StillDetector
    private var lastNotice: Notice?
    private var confirmRequested = false
    private var started = false

    /// Progress is reported in steps of 1/50 (2 %), enough for a smooth bar.
    static let progressSteps = 50

    public init(settings: SessionSettings = SessionSettings()) {
        self.settings = settings
        detector = StillDetector(windowSeconds: settings.stillWindowSeconds,
                                 accelerationLimit: settings.accelerationLimit,
                                 rotationLimit: settings.rotationLimit)
    }

    /// The face asked for next; nil when finished.
    public var expectedFace: Face? { Face.guidedOrder.first { captures[$0] == nil } }
    public var isFinished: Bool { if case .finished = state { return true } else { return false } }

    /// The first prompt, before any sample.
    public mutating func start() -> [SessionEvent] {
        started = true
        guard let f = expectedFace else { return [] }
        return [.place(f, number: captures.count + 1)]
    }

    /// Enter pressed: start averaging now if the device rests on the right face.
    public mutating func confirm() { confirmRequested = true }

    /// Feeds one sample; returns what to tell the person. Samples without acceleration are ignored.
    public mutating func feed(_ sample: MotionSample) -> [SessionEvent] {
        var events: [SessionEvent] = started ? [] : start()
        guard let a = sample.acceleration else { return events }
        if case .finished = state { return events }
        detector.add(time: sample.time, acceleration: a, rotationRate: sample.rotationRate)
        guard let still = detector.isStill else {
            // Not enough samples in the window to judge: no decision, but a capture keeps its sample.
            if case .capturing = state { events += capture(sample, acceleration: a) }
            return events
        }
        let confirmed = confirmRequested
        confirmRequested = false
        let face = still ? Face.detect(mean: detector.accelerationStatistics.mean, maxTiltDegrees: settings.maxTiltDegrees) : nil

        switch state {
        case .finished:
            break
        case .waiting:
            events += observe(still: still, face: face, time: sample.time, confirmed: confirmed)
        case let .settling(f, since):
            if still && face == f {
                if confirmed || sample.time - since >= settings.settleSeconds {
                    state = .capturing(f, acceleration: AxisStatistics(), rotation: AxisStatistics(),
                                       halves: [AxisStatistics(), AxisStatistics()], start: sample.time, step: -1)
                    events += capture(sample, acceleration: a)
                }
            } else {
                state = .waiting
                events += observe(still: still, face: face, time: sample.time, confirmed: false)
            }
        case let .capturing(f, acc, _, _, _, _):
            let drift = detector.accelerationStatistics.mean - (acc.count > 0 ? acc.mean : a)
            if !still || face != f || (drift * drift).sum().squareRoot() > settings.captureDriftLimit {
                state = .waiting
                lastNotice = nil
                events.append(.motionDuringCapture(f))
                events.append(.place(f, number: captures.count + 1))
            } else {
                events += capture(sample, acceleration: a)
            }
        }
        return events
    }

    /// Decides what a resting (or moving) device means while waiting for a face.
    private mutating func observe(still: Bool, face: Face?, time: Double, confirmed: Bool) -> [SessionEvent] {
        guard let expected = expectedFace else { return [] }
        guard still else { return notice(.moving, .moving) }
        guard let face else {
            let tilt = Face.tiltDegrees(of: detector.accelerationStatistics.mean)
            return notice(.notOnAFace, .notOnAFace(tiltDegrees: tilt))
        }
        if captures[face] != nil { return notice(.repeated(face), .repeatedFace(face, expected: expected)) }
        if settings.ordered && face != expected { return notice(.wrong(face), .wrongFace(found: face, expected: expected)) }
        lastNotice = nil
        state = .settling(face, since: time)
        if confirmed {
            state = .capturing(face, acceleration: AxisStatistics(), rotation: AxisStatistics(),
                               halves: [AxisStatistics(), AxisStatistics()], start: time, step: -1)
        }
        return [.settling(face)]
    }

    private mutating func notice(_ n: Notice, _ event: SessionEvent) -> [SessionEvent] {
        guard n != lastNotice else { return [] }
        lastNotice = n
        return [event]
    }

    private mutating func capture(_ sample: MotionSample, acceleration a: Vector3) -> [SessionEvent] {
        guard case .capturing(let f, var acc, var rot, var halves, let start, let step) = state else { return [] }
        acc.add(a)
        if let r = sample.rotationRate { rot.add(r) }
        let elapsed = sample.time - start
        halves[elapsed < settings.captureSeconds / 2 ? 0 : 1].add(a)
        let progress = min(1, elapsed / settings.captureSeconds)
        let newStep = Int(progress * Double(Self.progressSteps))
        var events: [SessionEvent] = []
        if newStep != step { events.append(.capturing(f, progress: progress)) }
        if elapsed >= settings.captureSeconds {
            let result = FaceCapture(face: f, acceleration: acc, rotationRate: rot, start: start, end: sample.time,
                                     halves: (halves[0], halves[1]))
            captures[f] = result
            events.append(.captured(result))
            if let next = expectedFace {
                state = .waiting
                // The device still lies on the face just captured: that is not a mistake until it
                // has been moved and put back.
                lastNotice = .repeated(f)
                events.append(.place(next, number: captures.count + 1))
            } else {
                state = .finished
                events.append(.finished)
            }
        } else {
            state = .capturing(f, acceleration: acc, rotation: rot, halves: halves, start: start, step: newStep)
        }
        return events
    }

    /// The calibration from the captured faces.
    public func calibration(key: String, sourceName: String, created: String) throws(CalibrationError) -> Calibration {
        try SixPositionFit.fit(captures, key: key, sourceName: sourceName, created: created)
    }
}
