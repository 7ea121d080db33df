/// Why gpsd could not be used. None of these stop the pedometer: without gpsd it works from the
/// IMU alone (docs/activity.md).
public enum GPSDError: Error, Equatable, CustomStringConvertible {
    /// `host:port` is not of that form.
    case badAddress(String)
    /// gpsd is not running there (or refused the connection). The text names no option: each
    /// caller says how its user changes the address or stops asking (`GPSSpeedFeed.settings`).
    case unreachable(host: String, port: String, reason: String)
    /// The host's name found no address within the deadline (`ConnectOutcome.resolve`): `reason`
    /// names the host, the deadline and the fix (DNS, not gpsd: "start it" would mislead).
    case unresolved(host: String, port: String, reason: String)
    /// The connection broke while reading.
    case lost(reason: String)

    public var description: String {
        switch self {
        case .badAddress(let text):
            // It said only "is not HOST:PORT" for `my host:2947`, `[::1` or `host:99999`: the
            // user had to guess which part was wrong.
            guard case .problem(let problem) = GPSDClient.parse(text) else { return "GPS address '\(text)' is not HOST:PORT" }
            return "GPS address '\(text)': \(problem) (HOST:PORT, for example localhost:2947, or [::1]:2947 for IPv6)"
        case .unreachable(let host, let port, let reason):
            return "gpsd at \(GPSDClient.display(host: host, port: port)) is not reachable (\(reason)); start it (systemctl start gpsd)"
        case .unresolved(let host, let port, let reason):
            return "gpsd at \(GPSDClient.display(host: host, port: port)) is not reachable (\(reason))"
        case .lost(let reason):
            return "the connection to gpsd was lost (\(reason)); continuing from the IMU alone"
        }
    }
}
