import IMUCore
import Pedometer

/// A number the daemon's config file takes: its valid range, its unit, and a typical value that a
/// hint suggests. The typical value is the daemon's default where it has one, so the hint never
/// proposes an edge of the range (`rate = 1`: one sample a second, no steps at all).
struct NumericSetting: Sendable {
    let range: ClosedRange<Double>
    /// Said after the range ("Hz", "s (issue #16: at most 10 s may be lost)").
    let unit: String
    /// Suggested in the fix; inside `range` (NumericSettingTests checks every entry).
    let typical: Double

    /// The fix for a value outside the range: the range again and the typical value.
    func fix(key: String) -> String {
        "write a number from \(range.lowerBound.asWritten) to \(range.upperBound.asWritten), e.g. \(key) = \(typical.asWritten)"
    }

    /// Every numeric key of stepd.conf.
    static let all: [String: NumericSetting] = {
        let service = ServiceConfig(), pedometer = PedometerConfiguration()
        return [
            // 1 = real time, the speed of the recording as it was made.
            "speed": NumericSetting(range: 0.01...1000, unit: "× real time", typical: 1),
            // The default is the chip's own rate; 100 Hz is data/stepd.conf's example and the
            // tools' --rate default (imu-info --read).
            "rate": NumericSetting(range: 1...8000, unit: "Hz", typical: 100),
            "height": NumericSetting(range: 0.5...2.5, unit: "m", typical: pedometer.userHeightMeters),
            "floor_height": NumericSetting(range: 1...10, unit: "m", typical: pedometer.floorHeightMeters),
            // The default keeps everything (0); a year is the typical limit a user sets.
            "retention_days": NumericSetting(range: 0...36_500, unit: "days", typical: 365),
            "commit_seconds": NumericSetting(range: 0.5...10, unit: "s (issue #16: at most 10 s may be lost)", typical: service.commitSeconds),
            "method_deadline": NumericSetting(range: 0.1...20, unit: "s", typical: service.methodDeadlineSeconds),
            "polled_fallback_hz": NumericSetting(range: 25...400, unit: "Hz (below 25 Hz steps are missed)", typical: service.polledFallbackHz),
        ]
    }()
}
