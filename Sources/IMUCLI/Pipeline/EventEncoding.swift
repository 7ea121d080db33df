import IMULocation
import Pedometer

/// JSON Lines for pedometer events and the summary (docs/CONTRACTS.md §3).
public enum EventEncoding {
    /// Decimal places for times in seconds: 0.1 ms, below any sensor's sample period.
    static let timeDecimals = 4

    public static func json(_ event: PedometerEvent) -> String {
        var line: JSONLine
        switch event {
        case let .step(time):
            line = JSONLine(type: "step")
            line.add("t", time, decimals: timeDecimals)
        case let .floor(time, direction):
            line = JSONLine(type: "floor")
            line.add("t", time, decimals: timeDecimals)
            line.add("direction", direction.rawValue)
        case let .activity(segment):
            line = JSONLine(type: "activity")
            line.add("start", segment.start, decimals: timeDecimals)
            line.add("end", segment.end, decimals: timeDecimals)
            line.add("activity", segment.activity.rawValue)
            line.add("confidence", segment.confidence.rawValue)
        case let .pause(time):
            line = JSONLine(type: "pause")
            line.add("t", time, decimals: timeDecimals)
        case let .resume(time):
            line = JSONLine(type: "resume")
            line.add("t", time, decimals: timeDecimals)
        }
        return line.text
    }

    /// Fewer samples than this span no time at all (one sample is one instant): nothing can be
    /// counted from them, which the summary says in `too_few_samples`.
    public static let fewestSamples = 2

    /// The summary line, always last. Optional figures are `null` when the source cannot measure them.
    /// `samples`: how many the pedometer was given, when the caller counted them.
    public static func summary(_ s: PedometerSnapshot, capabilities: Capabilities, source: SourceInfo,
                               losses: SampleLosses = SampleLosses(), groundSpeed: GroundSpeedInput? = nil, samples: Int? = nil,
                               ignoredGroundSpeeds: Int = 0) -> String {
        var line = JSONLine(type: "summary")
        line.add("steps", s.steps)
        line.add("distance_m", s.distanceMeters, decimals: 2)
        line.add("floors_ascended", s.floorsAscended)
        line.add("floors_descended", s.floorsDescended)
        // Durations to the millisecond; pace to 0.1 ms per m (0.1 s per km).
        line.add("duration_s", s.duration, decimals: 3)
        line.add("active_duration_s", s.activeDuration, decimals: 3)
        line.add("average_active_pace_s_per_m", s.averageActivePace, decimals: 4)
        // "steps":0 from a file without an accelerometer read like a day of rest: said here.
        line.add("step_counting_available", capabilities.isStepCountingAvailable)
        line.add("floor_counting_available", capabilities.isFloorCountingAvailable)
        // A one-sample recording gave "steps":0 and "duration_s":0 with no word that nothing
        // could be counted from it (the text output said nothing either).
        if let samples {
            line.add("samples", samples)
            line.add("too_few_samples", samples < fewestSamples)
        }
        line.add("source", source.name)
        line.add("simulated", source.isSimulated)
        // What the source lost before the pedometer saw it (SampleLosses), by cause.
        line.add("dropped_samples", losses.total)
        line.add("dropped_buffer_overflow", losses.bufferOverflow)
        line.add("dropped_periods_without_scan", losses.periodsWithoutScan)
        line.add("dropped_time_not_increasing", losses.nonIncreasingTime)
        line.add("dropped_stalled_consumer", losses.stalledConsumer)
        line.add("dropped_missed_polls", losses.missedPolls)
        line.add("dropped_pressure_readings", losses.outOfRangePressure)
        if !losses.lostSensors.isEmpty { line.add("sensors_lost", losses.lostSensors.joined(separator: "; ")) }
        addGroundSpeed(groundSpeed, recorded: source.capabilities.gnssSpeed, ignored: ignoredGroundSpeeds, to: &line)
        return line.text
    }

    /// Ground speed (docs/gps.md), only when there could be some: `--gps`, or a recording with a
    /// `gnss_speed` column. Speed figures only: there is no position to show. `ignored`: readings
    /// the activity vote did not use (`Pedometer.ignoredGroundSpeeds`: a recording's column beyond
    /// `GroundSpeed.fastestLandSpeed`).
    ///
    /// `gnss_speed_ignored` is the one count of ground speeds not used, whatever their source:
    /// the vote's (a recording's column) plus the live feed's (`GPSSpeedFeed.Status.implausibleReadings`:
    /// gpsd fixes negative or beyond that speed, which never reach the vote). The two were two
    /// keys for one idea. `gnss_implausible_readings`, the feed's key since session 21, stays
    /// beside it wherever it was (with `--gps`) as an alias of the same count: docs/CONTRACTS.md
    /// §3 lets a summary gain keys, not lose them.
    static func addGroundSpeed(_ input: GroundSpeedInput?, recorded: Bool, ignored: Int, to line: inout JSONLine) {
        guard let input else {
            if recorded {
                line.add("gnss_speed_available", true)
                line.add("gnss_speed_ignored", ignored)
            }
            return
        }
        let status = input.feed.status
        let allIgnored = ignored + status.implausibleReadings
        line.add("gnss_speed_available", recorded || status.connection == .connected)
        line.add("gnss_state", status.connection.word)
        line.add("gnss_speed_readings", input.used)
        line.add("gnss_speed_ignored", allIgnored)
        line.add("gnss_no_fix_reports", status.noFixReports)
        line.add("gnss_implausible_readings", allIgnored)
        line.add("gnss_lost", status.losses)
        line.add("gnss_requested_s", input.requestedSeconds, decimals: 1)
    }
}
