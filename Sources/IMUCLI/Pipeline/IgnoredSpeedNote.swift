import Pedometer

/// The line that says how many ground-speed readings the activity vote ignored
/// (`Pedometer.ignoredGroundSpeeds`): a recording's `gnss_speed` may hold up to 515 m/s
/// (docs/file-formats.md), but above `GroundSpeed.fastestLandSpeed` the vote leaves the activity
/// to the IMU. Without this line those readings vanished with no count and no word.
public enum IgnoredSpeedNote {
    /// The note for `pedometer`, or nil when it ignored none.
    public static func text(_ pedometer: Pedometer) -> String? {
        let (count, fastest) = pedometer.ignoredGroundSpeeds
        guard count > 0 else { return nil }
        let limit = JSONLine.number(GroundSpeed.fastestLandSpeed, decimals: 0)
        let top = fastest.map { ", the fastest \(JSONLine.number($0, decimals: 1)) m/s" } ?? ""
        return "\(counted(count, "ground-speed reading")) (gnss_speed) faster than \(limit) m/s\(top), ignored by the activity vote: "
            + "no land vehicle goes that fast (a receiver in an aircraft, or a bad fix), so the activity there comes from the IMU alone (docs/activity.md)"
    }
}
