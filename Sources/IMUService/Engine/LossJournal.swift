import IMUCore

/// The samples the daemon's sources lost since it started, by cause (`SampleLosses`, summed over
/// every capture: a reopened source counts from zero again), for the D-Bus `Dropped*` properties
/// and the journal, as imu-steps prints them at the end of a run (`dropped_missed_polls` …).
struct LossJournal {
    /// Seconds between journal lines while losses keep growing: a polled capture on a starved CPU
    /// misses polls at every hand-over (once a second), so a day would write 86 400 lines; this
    /// writes at most 144, and the properties show the count of the moment.
    static let lineSeconds = 600.0

    private(set) var total = SampleLosses()
    /// What the last journal line said.
    private var logged = SampleLosses()
    private var nextLine = -Double.infinity

    /// Adds what a source lost since its last report; returns the journal lines that calls for:
    /// each sensor that stopped, and the counts at the first loss and then at most every
    /// `lineSeconds` (boot-clock seconds `now`).
    mutating func add(_ grown: SampleLosses, now: Double) -> [String] {
        total += grown
        var lines = grown.lostSensors.map(Self.partLost)
        if now >= nextLine, let line = countsLine() {
            lines.append(line)
            nextLine = now + Self.lineSeconds
        }
        return lines
    }

    /// The words for a part of a source that stopped while the rest went on (a barometer beside
    /// the IMU): the journal line and `LastSensorLoss`.
    static func partLost(_ part: String) -> String { "lost \(part): what it measured stopped there, the rest goes on" }

    /// The counts when they grew since the last line (said at shutdown), else nil.
    mutating func finalLine() -> String? { countsLine() }

    private mutating func countsLine() -> String? {
        var counts = total, before = logged
        counts.lostSensors = []
        before.lostSensors = []
        guard counts != before, counts.total > 0 || counts.outOfRangePressure > 0 else { return nil }
        logged = total
        return "samples \(total.summary) since imu-stepd started (D-Bus properties Dropped*; causes and fixes: docs/troubleshooting.md)"
    }
}
