import Pedometer
import Synchronization

/// Human output of `imu-steps`: one status line updated in place on a terminal, plain lines when
/// piped (a line per floor and activity change, and one every `plainInterval` seconds of samples).
/// Colour only on a terminal and never with NO_COLOR. Human output may change freely (CONTRACTS §3).
public final class StatusDisplay: Sendable {
    private let out: OutputStream
    private let inPlace: Bool
    private let color: Bool
    /// Seconds of wall time between redraws at least, on a terminal: twice a second follows a
    /// walk (under two steps per redraw) and keeps wake-ups low (issue 11: ≤ 10 a second in all).
    private let redrawInterval = 0.5
    /// Seconds of sample time between plain status lines when not on a terminal.
    private let plainInterval = 30.0
    /// What changes while running, behind one lock.
    private struct State {
        var lastDraw = -Double.infinity
        var lastPlain: Double?
        var label = ""
        var simulated = false
        var capabilities: Capabilities?
        var sensors: SensorCapabilities?
        var current: PedometerSnapshot?
        /// Sample time of the first sample, so event times read as elapsed time (0:00 at start).
        var origin: Double?
        /// Was a pause shown? A resume is news only after one (the pedometer starts "resumed").
        var pauseShown = false
        /// Rows of the status block now on screen, below the last full line; the cursor is on the last.
        var drawnRows = 0
    }
    private let state = Mutex(State())

    public init(out: OutputStream = Terminal.standardOutput, inPlace: Bool? = nil, color: Bool? = nil) {
        self.out = out
        self.inPlace = inPlace ?? out.acceptsEscapes
        self.color = (color ?? Terminal.colorEnabled) && self.inPlace
    }

    public func start(source: SourceInfo, capabilities: Capabilities) {
        state.withLock { st in
            st.label = source.name.escapedForTerminal   // a recording's name and sensor comment come from a file
            st.simulated = source.isSimulated
            st.capabilities = capabilities
            var header = "imu-steps: reading \(st.label)"
            if source.isSimulated {
                header = "imu-steps: SIMULATED data (\(st.label)): no sensor is being read.\n"
                    + "  Connect one (docs/getting-started-raspberry-pi.md, docs/getting-started-pinephone.md), check it with imu-info, or pass --source."
            }
            if !source.capabilities.accelerometer {
                header += "\n  (no accelerometer: steps, activity and floors cannot be counted from this source)"
            } else if !capabilities.isFloorCountingAvailable {
                header += "\n  (no barometer: floors are not counted)"
            }
            st.sensors = source.capabilities
            out.write(paint(header, code: "1") + "\n")
            out.flush()
        }
    }

    /// The time of the first sample: events are shown as elapsed time from it, also those that
    /// arrive before the first status update. Later calls change nothing.
    public func begin(at sampleTime: Double) {
        state.withLock { st in if st.origin == nil { st.origin = sampleTime } }
    }

    public func update(_ s: PedometerSnapshot) {
        state.withLock { st in
            st.current = s
            if st.origin == nil { st.origin = s.time - s.duration }
            if inPlace {
                let now = BootClock.nowSeconds()
                guard now - st.lastDraw >= redrawInterval else { return }
                st.lastDraw = now
                out.write(erase(&st) + draw(s, &st))
                out.flush()
            } else {
                let start = st.lastPlain ?? (s.time - s.duration)
                if s.time - start >= plainInterval {
                    st.lastPlain = s.time
                    out.write(statusLine(s, st.capabilities) + "\n")
                } else if st.lastPlain == nil {
                    st.lastPlain = start
                }
            }
        }
    }

    public func event(_ e: PedometerEvent) {
        state.withLock { st in
            let o = st.origin ?? 0
            func at(_ t: Double) -> String { Self.clock(t - o) }
            let text: String
            switch e {
            case let .floor(t, direction):
                text = "floor \(direction == .up ? "up" : "down") at \(at(t))"
            case let .activity(seg):
                text = "\(seg.activity.rawValue) \(at(seg.start))–\(at(seg.end)) (\(seg.confidence.rawValue) confidence)"
            case let .pause(t):
                st.pauseShown = true
                text = "paused at \(at(t))"
            case let .resume(t):
                guard st.pauseShown else { return }
                st.pauseShown = false
                text = "resumed at \(at(t))"
            case .step: return
            }
            if inPlace { out.write(erase(&st)) }
            out.write(text + "\n")
            if inPlace, let s = st.current { out.write(draw(s, &st)) }
            out.flush()
        }
    }

    /// A line of news from outside the pedometer (gpsd lost or back), printed above the status.
    public func note(_ text: String) {
        state.withLock { st in
            if inPlace { out.write(erase(&st)) }
            out.write(text.escapedForTerminal + "\n")
            if inPlace, let s = st.current { out.write(draw(s, &st)) }
            out.flush()
        }
    }

    public func finish(_ s: PedometerSnapshot) {
        state.withLock { st in
            if inPlace { out.write(erase(&st)) }
            out.write(paint("Summary", code: "1") + (st.simulated ? " (simulated)" : "") + "\n")
            if st.capabilities?.isStepCountingAvailable ?? true {
                out.write("  steps      \(s.steps)\n")
                out.write("  distance   \(Self.fixed(s.distanceMeters, 1)) m\n")
            } else {
                // "steps 0" under a note that steps cannot be counted read like a day of rest.
                out.write("  steps      not available (no accelerometer)\n")
                out.write("  distance   not available (no accelerometer)\n")
            }
            if st.capabilities?.isFloorCountingAvailable ?? true {
                out.write("  floors     \(s.floorsAscended) up, \(s.floorsDescended) down\n")
            } else {
                out.write("  floors     not available (\(st.sensors?.accelerometer == false ? "no accelerometer" : "no barometer"))\n")
            }
            out.write("  avg pace   \(s.averageActivePace.map { Self.paceText($0) } ?? "–")\n")
            out.write("  active     \(Self.clock(s.activeDuration)) of \(Self.clock(s.duration))\n")
            out.flush()
        }
    }

    /// The status as lines that fit the terminal: steps, cadence, distance, pace, floors, activity, elapsed.
    func statusLines(_ s: PedometerSnapshot, width: Int?, _ capabilities: Capabilities?) -> [String] {
        StatusLayout(floorsAvailable: capabilities?.isFloorCountingAvailable ?? true, color: color).lines(s, width: width)
    }

    /// The one-line status (piped output, and terminals wide enough for it).
    func statusLine(_ s: PedometerSnapshot, _ capabilities: Capabilities?) -> String { statusLines(s, width: nil, capabilities)[0] }

    /// Draws the status block for the terminal's current width (resizes are followed).
    private func draw(_ s: PedometerSnapshot, _ st: inout State) -> String {
        let rows = statusLines(s, width: out.columns, st.capabilities)
        st.drawnRows = rows.count
        return rows.joined(separator: "\n")
    }

    /// Clears the status block and leaves the cursor at the start of its first row.
    private func erase(_ st: inout State) -> String {
        defer { st.drawnRows = 0 }
        guard st.drawnRows > 0 else { return "\r\u{1B}[2K" }
        return "\r\u{1B}[2K" + String(repeating: "\u{1B}[1A\u{1B}[2K", count: st.drawnRows - 1)
    }

    private func paint(_ text: String, code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Pace in s/m shown as min:ss per km.
    static func paceText(_ secondsPerMeter: Double) -> String {
        // Range-checked before the integer conversion: a long recording over a few mm would trap.
        guard secondsPerMeter.isFinite, secondsPerMeter > 0, secondsPerMeter < 1e12 else { return "–" }
        let perKm = Int((secondsPerMeter * 1000).rounded())
        return "\(perKm / 60):\(pad2(perKm % 60)) /km"
    }

    /// Seconds as h:mm:ss or m:ss.
    static func clock(_ seconds: Double) -> String {
        // Range-checked before the integer conversion (1e15 s: 31 million years, past any recording).
        let total = seconds.isFinite ? max(0, Int(min(seconds, 1e15).rounded(.down))) : 0
        let h = total / 3600, m = (total / 60) % 60, s = total % 60
        return h > 0 ? "\(h):\(pad2(m)):\(pad2(s))" : "\(m):\(pad2(s))"
    }

    static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func fixed(_ value: Double, _ decimals: Int) -> String { JSONLine.number(value, decimals: decimals) }
}
