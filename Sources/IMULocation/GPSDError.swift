/// Why gpsd could not be used. None of these stop the pedometer: without gpsd it works from the
/// IMU alone (docs/activity.md).
public enum GPSDError: Error, Equatable, CustomStringConvertible {
    /// `host:port` is not of that form.
    case badAddress(String)
    /// gpsd is not running there (or refused the connection). The text names no option: each
    /// caller says how its user changes the address or stops asking (`GPSSpeedFeed.settings`).
    case unreachable(host: String, port: String, reason: String)
    /// The connection broke while reading.
    case lost(reason: String)

    public var description: String {
        switch self {
        case .badAddress(let text):
            // `host:99999` said only "is not HOST:PORT", which it is: the port is what is wrong.
            if let problem = Self.portProblem(text) {
                return "GPS address '\(text)': \(problem) (HOST:PORT, for example localhost:2947, or [::1]:2947 for IPv6)"
            }
            return "GPS address '\(text)' is not HOST:PORT (for example localhost:2947, or [::1]:2947 for IPv6)"
        case .unreachable(let host, let port, let reason):
            return "gpsd at \(GPSDClient.display(host: host, port: port)) is not reachable (\(reason)); start it (systemctl start gpsd)"
        case .lost(let reason):
            return "the connection to gpsd was lost (\(reason)); continuing from the IMU alone"
        }
    }

    /// What is wrong with the port of an address `GPSDClient.address` refused, when the rest has the
    /// form: a port outside 1–65535 (TCP's), empty, or not digits. Nil when the form itself is wrong.
    static func portProblem(_ text: String) -> String? {
        let port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") {
            port = text[text.index(close, offsetBy: 2)...]
        }
        else if !text.hasPrefix("["), text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            port = text[text.index(after: colon)...]
        } else { return nil }
        if port.isEmpty { return "no port after ':'" }
        guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else { return "the port '\(port)' is not a number" }
        // A port in range: the host is what is wrong (a space, a control character).
        if let number = Int(port), (1...65535).contains(number) { return nil }
        return "the port \(port) is outside 1–65535 (TCP's port numbers)"
    }
}
