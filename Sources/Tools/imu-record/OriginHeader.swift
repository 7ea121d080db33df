import FoundationEssentials
import IMUCLI
#if canImport(Glibc)
import Glibc
#endif

/// The header lines of a re-recorded file (`imu-record --replay`): the original's sensor,
/// rate, calibration key, calibration state and start stay (its `clock:` line too, through the
/// source's `SampleTiming`, written with the first samples as a live clock is), so `imu-calibrate --from-recording` still
/// knows which sensor the data came from and whether it is raw (issue: a re-recorded recording
/// lost its origin and was fitted as raw although it was corrected).
enum OriginHeader {
    /// Comment keys that describe where the samples came from.
    static let originKeys = ["sensor:", "rate:", "calibration-key:", "calibration:", "started:"]

    /// The first line of `ours` (the header a live recording gets), the original's origin lines
    /// (none invented where it has none), and a line naming the replayed file. A calibration applied during the re-recording
    /// replaces the calibration line (the samples are then corrected).
    static func keep(_ original: [String], path: String, calibrationNow: String, calibrationApplied: Bool,
                     ours: [String]) -> [String] {
        let kept = original.filter { line in originKeys.contains { line.hasPrefix($0) } }
        var out = [ours.first ?? "imukit recording (format: docs/file-formats.md)"]
        out += kept.filter { !(calibrationApplied && $0.hasPrefix("calibration:")) }
        if calibrationApplied || !kept.contains(where: { $0.hasPrefix("calibration:") }) { out.append(calibrationNow) }
        out.append("re-recorded from \(path) by imu-record --replay on \(Date().formatted(.iso8601))")
        return out
    }

    /// One comment line's text without control characters (`\x1B`, `\n` written out): comments
    /// copied raw carried a replayed file's escape sequences, its name's, or a device name's to a
    /// terminal with `-o -`; a recording is plain text.
    static func plain(_ text: String) -> String { text.escapedOnOneLine }
}
