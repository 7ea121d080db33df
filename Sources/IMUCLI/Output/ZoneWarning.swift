import IMUCore

/// The warning for a `TZ` that names no zone (`LocalTime.unknownZone`): glibc then runs on UTC
/// without a word, and a day cut at UTC midnight moves steps out of "today". Said on standard
/// error where a tool turns a time into a local day or clock reading (imu-steps' --today,
/// --history and --since, imu-record's default file name, imu-plot --day); each of those runs
/// once per process, so the warning is said once.
public enum ZoneWarning {
    /// "imu-steps: warning: TZ='…' names no time zone …; set TZ to …\n", or nothing.
    public static func say(command: String) {
        guard let zone = LocalTime.unknownZone() else { return }
        Terminal.standardError.write("\(command): warning: \(zone.warning)\n")
    }
}
